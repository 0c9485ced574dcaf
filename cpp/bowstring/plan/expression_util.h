#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bowstring/expr/expression.h"
#include "bowstring/plan/logical_plan.h"

namespace bowstring::plan {

/// `expression` with the same kind, name, value, options and flags, over `operands`.
expr::ExprPtr with_operands(const expr::Expression& expression,
                            std::vector<expr::ExprPtr> operands);

/// Rewrites `expression` top-down: `rewrite` is called on each node; when it returns an
/// expression, that replaces the node (and its subtree is not visited); when it returns null,
/// the node's operands are rewritten in turn. Unchanged subtrees are shared, not copied.
expr::ExprPtr transform(const expr::ExprPtr& expression,
                        const std::function<expr::ExprPtr(const expr::ExprPtr&)>& rewrite);

/// The attribute ids a resolved expression reads, in order of first appearance.
std::vector<AttributeId> referenced_attributes(const expr::ExprPtr& expression);

/// Whether `expression` and everything under it is deterministic (no call of a function the
/// registry marks nondeterministic).
bool is_deterministic(const expr::ExprPtr& expression);

/// A resolved expression with every reference to an attribute of `replacements` replaced by
/// its expression. A struct field path under a reference carries over to a replacement that is
/// a column; nullopt when a path would have to apply to another expression.
std::optional<expr::ExprPtr> substitute(
    const expr::ExprPtr& expression,
    const std::unordered_map<AttributeId, expr::ExprPtr>& replacements);

/// The conjuncts of a condition: `a AND (b AND c)` gives a, b, c.
std::vector<expr::ExprPtr> split_conjuncts(const expr::ExprPtr& condition);
/// The AND of `conjuncts` (at least one), left-deep.
expr::ExprPtr combine_conjuncts(const std::vector<expr::ExprPtr>& conjuncts);

/// Prints a resolved expression with attributes as Spark prints them in plans ("(id#3L + 1)");
/// `attributes` gives the names of the ids it reads.
std::string expression_text(const expr::ExprPtr& expression,
                            const std::vector<Attribute>& attributes);

}  // namespace bowstring::plan
