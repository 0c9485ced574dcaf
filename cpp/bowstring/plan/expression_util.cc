#include "bowstring/plan/expression_util.h"

#include <algorithm>
#include <utility>

#include "bowstring/compute/core/function.h"

namespace bowstring::plan {

using expr::Expression;
using expr::ExprPtr;

ExprPtr with_operands(const Expression& expression, std::vector<ExprPtr> operands) {
  const bool flag = expression.kind() == Expression::Kind::kCast       ? expression.is_try()
                    : expression.kind() == Expression::Kind::kCaseWhen ? expression.has_else()
                                                                       : false;
  return std::make_shared<const Expression>(expression.kind(), expression.name(),
                                            expression.value(), std::move(operands),
                                            expression.options(), expression.cast_type(), flag);
}

ExprPtr transform(const ExprPtr& expression,
                  const std::function<ExprPtr(const ExprPtr&)>& rewrite) {
  if (ExprPtr replaced = rewrite(expression)) {
    return replaced;
  }
  bool changed = false;
  std::vector<ExprPtr> operands;
  operands.reserve(expression->operands().size());
  for (const ExprPtr& operand : expression->operands()) {
    operands.push_back(transform(operand, rewrite));
    changed = changed || operands.back() != operand;
  }
  return changed ? with_operands(*expression, std::move(operands)) : expression;
}

namespace {

void collect_attributes(const Expression& expression, std::vector<AttributeId>& out) {
  if (expression.kind() == Expression::Kind::kColumn) {
    if (std::optional<AttributeId> id = attribute_of(expression.name())) {
      if (std::find(out.begin(), out.end(), *id) == out.end()) {
        out.push_back(*id);
      }
    }
    return;
  }
  for (const ExprPtr& operand : expression.operands()) {
    collect_attributes(*operand, out);
  }
}

}  // namespace

std::vector<AttributeId> referenced_attributes(const ExprPtr& expression) {
  std::vector<AttributeId> out;
  collect_attributes(*expression, out);
  return out;
}

bool is_deterministic(const ExprPtr& expression) {
  if (expression->kind() == Expression::Kind::kCall) {
    const compute::Function* function = compute::default_registry().find(expression->name());
    if (function != nullptr && !function->deterministic()) {
      return false;
    }
  }
  return std::all_of(expression->operands().begin(), expression->operands().end(),
                     [](const ExprPtr& operand) { return is_deterministic(operand); });
}

std::optional<ExprPtr> substitute(const ExprPtr& expression,
                                  const std::unordered_map<AttributeId, ExprPtr>& replacements) {
  bool possible = true;
  ExprPtr out = transform(expression, [&](const ExprPtr& node) -> ExprPtr {
    if (node->kind() != Expression::Kind::kColumn) {
      return nullptr;
    }
    const std::optional<AttributeId> id = attribute_of(node->name());
    if (!id) {
      return nullptr;
    }
    const auto found = replacements.find(*id);
    if (found == replacements.end()) {
      return nullptr;
    }
    const size_t dot = node->name().find('.');
    if (dot == std::string::npos) {
      return found->second;
    }
    ExprPtr value = found->second;
    if (value->kind() == Expression::Kind::kAlias) {
      value = value->operands()[0];
    }
    if (value->kind() != Expression::Kind::kColumn) {
      possible = false;
      return node;
    }
    return expr::col(value->name() + node->name().substr(dot));
  });
  if (!possible) {
    return std::nullopt;
  }
  return out;
}

std::vector<ExprPtr> split_conjuncts(const ExprPtr& condition) {
  if (condition->kind() == Expression::Kind::kAnd) {
    std::vector<ExprPtr> out = split_conjuncts(condition->operands()[0]);
    std::vector<ExprPtr> right = split_conjuncts(condition->operands()[1]);
    out.insert(out.end(), right.begin(), right.end());
    return out;
  }
  return {condition};
}

ExprPtr combine_conjuncts(const std::vector<ExprPtr>& conjuncts) {
  ExprPtr out = conjuncts.at(0);
  for (size_t i = 1; i < conjuncts.size(); ++i) {
    out = expr::and_(out, conjuncts[i]);
  }
  return out;
}

std::string expression_text(const ExprPtr& expression, const std::vector<Attribute>& attributes) {
  return expression->to_string([&](const std::string& name) {
    const std::optional<AttributeId> id = attribute_of(name);
    std::vector<std::string> parts = expr::detail::name_parts(name);
    std::string out;
    if (id) {
      const auto found = std::find_if(attributes.begin(), attributes.end(),
                                      [&](const Attribute& a) { return a.id == *id; });
      out = found != attributes.end() ? found->to_string() : name.substr(0, name.find('.'));
    } else {
      out = '\'';
      out += expr::detail::quote_identifier(parts[0]);
    }
    for (size_t p = 1; p < parts.size(); ++p) {
      out += '.';
      out += expr::detail::quote_identifier(parts[p]);
    }
    return out;
  });
}

}  // namespace bowstring::plan
