// Vectorized evaluation of bound expressions. Every node is computed over all the rows it sees
// at once. Conditional nodes (CASE WHEN, IF, COALESCE, AND, OR) compute their later operands
// only on the rows that reach them (a bitmap of rows): those rows are gathered into a smaller
// input, the operand is evaluated there, and the results are scattered back into place. So a
// row excluded by a condition never raises an error from a branch it does not take, as in
// Spark.

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/expr/bind.h"
#include "bowstring/expr/rows.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/types/spark_type_names.h"
#include "bowstring/util/bit_util.h"
#include "bowstring/util/error.h"

namespace bowstring::expr {

using compute::Datum;
using compute::ExecContext;

namespace {

using Kind = BoundNode::Kind;

/// The rows an evaluation sees: the batch's columns (those not referenced may be empty) and
/// their common length.
struct Rows {
  std::span<const Array> columns;
  int64_t length;
};

/// Rows gathered from a larger input, owning their columns.
struct GatheredRows {
  std::vector<Array> columns;
  int64_t length;
  Rows view() const { return {columns, length}; }
};

/// The rows of `mask` among `rows`, with only the columns `node` reads.
GatheredRows gather_rows(const Rows& rows, const BoundNode& node, const RowMask& mask,
                         Allocator* allocator) {
  GatheredRows out{std::vector<Array>(rows.columns.size()), mask.count()};
  if (node.columns.empty()) {
    return out;
  }
  const Array mask_array = mask.to_array(allocator);
  for (int column : node.columns) {
    out.columns[static_cast<size_t>(column)] =
        compute::filter(rows.columns[static_cast<size_t>(column)], mask_array, allocator);
  }
  return out;
}

/// A boolean Datum over `length` rows as 64-bit words from row 0: `values` holds the true
/// rows, `valid` the non-null ones (a scalar fills every row; bits past `length` are zero).
struct BooleanWords {
  BooleanWords(const Datum& datum, int64_t length)
      : values(static_cast<size_t>((length + 63) / 64)), valid(values.size()) {
    const ArrayData& data = *datum.data();
    if (datum.is_scalar()) {
      const bool is_valid = !datum.scalar_is_null();
      const bool value = is_valid && bit_util::get_bit(data.buffers[1]->data(), data.offset);
      std::fill(values.begin(), values.end(), value ? ~uint64_t{0} : 0);
      std::fill(valid.begin(), valid.end(), is_valid ? ~uint64_t{0} : 0);
    } else {
      bit_util::copy_bitmap(data.buffers[1]->data(), data.offset, length, bytes(values), 0);
      if (data.buffers[0] != nullptr) {
        bit_util::copy_bitmap(data.buffers[0]->data(), data.offset, length, bytes(valid), 0);
      } else {
        std::fill(valid.begin(), valid.end(), ~uint64_t{0});
      }
    }
    clear_tail(values, length);
    clear_tail(valid, length);
  }

  static uint8_t* bytes(std::vector<uint64_t>& words) {
    return reinterpret_cast<uint8_t*>(words.data());
  }
  /// Clears the bits of the last word past `length`.
  static void clear_tail(std::vector<uint64_t>& words, int64_t length) {
    if (length % 64 != 0) {
      words.back() &= (uint64_t{1} << (length % 64)) - 1;
    }
  }

  std::vector<uint64_t> values;
  std::vector<uint64_t> valid;
};

/// Three-valued AND or OR.
Datum kleene(bool is_and, const Datum& left, const Datum& right, Allocator* allocator) {
  return is_and ? compute::kleene_and(left, right, allocator)
                : compute::kleene_or(left, right, allocator);
}

/// Values of one operand for the rows of `rows`: a scalar, one value per row of the mask in
/// row order (compact), or an array of every input row when `in_place`.
struct Piece {
  Datum values;
  RowMask rows;
  bool in_place = false;
};

/// Evaluates nodes over rows with one context.
class Evaluator {
 public:
  explicit Evaluator(ExecContext& context) : context_(context), allocator_(context.allocator) {}

  Datum evaluate(const BoundNode& node, const Rows& rows) {
    switch (node.kind) {
      case Kind::kLiteral:
        return node.value;
      case Kind::kColumn:
        return column(node, rows);
      case Kind::kCall:
        return call(node, rows);
      case Kind::kCast: {
        std::vector<Datum> arguments;
        arguments.reserve(node.operands.size());
        for (const BoundNodePtr& operand : node.operands) {
          arguments.push_back(evaluate(*operand, rows));
        }
        return node.function->execute(arguments, node.options, context_);
      }
      case Kind::kIsNull:
      case Kind::kIsNotNull:
        return node.kind == Kind::kIsNull
                   ? compute::is_null(evaluate(*node.operands[0], rows), allocator_)
                   : compute::is_not_null(evaluate(*node.operands[0], rows), allocator_);
      case Kind::kNot:
        return compute::logical_not(evaluate(*node.operands[0], rows), allocator_);
      case Kind::kAnd:
      case Kind::kOr:
        return logical(node, rows);
      case Kind::kCaseWhen:
        return case_when(node, rows);
      case Kind::kCoalesce:
        return coalesce(node, rows);
    }
    throw InvalidArgument("unknown bound expression kind");
  }

 private:
  /// A column, or a field of a struct column; zero-copy unless a struct has nulls of its own,
  /// which its fields then inherit (a new validity bitmap, the values shared).
  Datum column(const BoundNode& node, const Rows& rows) {
    Array array = rows.columns[static_cast<size_t>(node.path[0])];
    for (size_t p = 1; p < node.path.size(); ++p) {
      const StructArray parent(array);
      Array child = parent.field(node.path[p]);
      if (parent.null_count() > 0) {
        child = with_parent_nulls(child, parent);
      }
      array = std::move(child);
    }
    return array;
  }

  Array with_parent_nulls(const Array& child, const Array& parent) {
    const ArrayData& data = *child.data();
    const ArrayData& parent_data = *parent.data();
    auto out = std::make_shared<ArrayData>(data);
    MutableBuffer bitmap(bit_util::bytes_for_bits(data.offset + data.length), allocator_);
    std::memset(bitmap.mutable_data(), 0, static_cast<size_t>(bitmap.size()));
    int64_t nulls = 0;
    for (int64_t i = 0; i < data.length; ++i) {
      const bool valid = !parent_data.is_null_in_bitmap(i) && !data.is_null_in_bitmap(i);
      bit_util::set_bit_to(bitmap.mutable_data(), data.offset + i, valid);
      nulls += valid ? 0 : 1;
    }
    out->buffers[0] = bitmap.finish();
    return Array(std::make_shared<ArrayData>(out->type, out->length, out->buffers, nulls,
                                             out->offset, out->children, out->dictionary));
  }

  /// A function call, its operands evaluated only where the function reads them
  /// (`Function::rows_reading`), as Spark evaluates each row. The cast operands of any call
  /// (implicit casts, casts in the query, chains of them) are applied last to the rows read:
  /// their inputs and the other operands are computed first. A conditional function (nvl2,
  /// nanvl, IN, case_when called by name) evaluates each later operand on the rows that read
  /// it only, gathered and scattered back as CASE WHEN does.
  Datum call(const BoundNode& node, const Rows& rows) {
    const bool conditional = node.function->null_handling() == compute::NullHandling::kCustom;
    std::vector<Datum> arguments(node.operands.size());
    // For each operand, its casts from the outermost in; and whether it waits for its rows.
    std::vector<std::vector<const BoundNode*>> casts(node.operands.size());
    std::vector<bool> on_rows_read(node.operands.size(), false);
    bool any_deferred = false;
    bool any_array = false;
    for (size_t i = 0; i < node.operands.size(); ++i) {
      const BoundNode* operand = node.operands[i].get();
      if (conditional && i > 0 && operand->kind != Kind::kColumn &&
          operand->kind != Kind::kLiteral) {
        on_rows_read[i] = true;
        any_deferred = true;
        continue;
      }
      while (operand->kind == Kind::kCast) {
        casts[i].push_back(operand);
        operand = operand->operands[0].get();
      }
      arguments[i] = evaluate(*operand, rows);
      any_deferred = any_deferred || !casts[i].empty();
      any_array = any_array || arguments[i].is_array();
    }
    if (any_deferred) {
      for (size_t i = 0; i < arguments.size(); ++i) {
        if (on_rows_read[i]) {
          arguments[i] = evaluate_where_read(node, i, arguments, rows);
        } else if (!casts[i].empty()) {
          cast_where_read(node, i, casts[i], arguments, any_array ? rows.length : 1);
        }
      }
    }
    return node.function->execute(arguments, node.options, context_);
  }

  /// Operand `index` of a conditional call over the rows where the function reads it (given
  /// the operands before it), null on the others.
  Datum evaluate_where_read(const BoundNode& node, size_t index, std::span<const Datum> arguments,
                            const Rows& rows) {
    const BoundNode& operand = *node.operands[index];
    std::optional<compute::RowWords> read =
        node.function->rows_reading(index, arguments, rows.length);
    if (!read) {
      return evaluate(operand, rows);
    }
    RowMask mask{std::move(*read), rows.length};
    if (mask.empty()) {
      return Datum::null_scalar(operand.type, allocator_);
    }
    const Piece piece = evaluate_on(operand, rows, std::move(mask));
    if (piece.in_place || piece.values.is_scalar()) {
      return piece.values;
    }
    const RowPiece placed{piece.values, &piece.rows, &piece.rows};
    return scatter(operand.type, rows.length, {&placed, 1}, allocator_);
  }

  /// Applies the chain of `casts` (outermost first) to operand `index`, the innermost only on
  /// the rows where the function reads it: the other rows are null for the outer ones.
  void cast_where_read(const BoundNode& node, size_t index,
                       const std::vector<const BoundNode*>& casts, std::vector<Datum>& arguments,
                       int64_t length) {
    const BoundNode& innermost = *casts.back();
    arguments[index] = compute::cast_where_read(*node.function, index, arguments, length,
                                                *innermost.function, innermost.type, context_);
    for (size_t k = casts.size() - 1; k-- > 0;) {
      const Datum input[] = {arguments[index]};
      arguments[index] = casts[k]->function->execute(input, casts[k]->options, context_);
    }
  }

  /// AND / OR: the right side is evaluated only on the rows the left side does not decide
  /// (false for AND, true for OR).
  Datum logical(const BoundNode& node, const Rows& rows) {
    const bool is_and = node.kind == Kind::kAnd;
    Datum left = evaluate(*node.operands[0], rows);
    if (left.is_scalar()) {
      if (!left.scalar_is_null() && left.array().as<BooleanArray>().value(0) != is_and) {
        return left;
      }
      return kleene(is_and, left, evaluate(*node.operands[1], rows), allocator_);
    }
    // Undecided rows: null, or the value that does not decide (true for AND, false for OR).
    BooleanWords words(left, rows.length);
    RowMask undecided{std::move(words.values), rows.length};
    for (size_t w = 0; w < undecided.words.size(); ++w) {
      const uint64_t value = undecided.words[w];
      undecided.words[w] = ~words.valid[w] | (is_and ? value : ~value);
    }
    undecided.clear_tail();
    const int64_t count = undecided.count();
    if (count == 0) {
      return left;
    }
    const BoundNode& right_node = *node.operands[1];
    if (count == rows.length) {
      return kleene(is_and, left, evaluate(right_node, rows), allocator_);
    }
    const GatheredRows subset = gather_rows(rows, right_node, undecided, allocator_);
    const RowPiece piece{evaluate(right_node, subset.view()), &undecided, &undecided};
    // Decided rows get a null right side, which the decided left side overrides.
    const Datum right = scatter(boolean(), rows.length, {&piece, 1}, allocator_);
    return kleene(is_and, left, right, allocator_);
  }

  /// Splits the rows of a condition into those where it is true and the others.
  static void split(const Piece& condition, RowMask& taken, RowMask& rest) {
    const RowMask& rows = condition.rows;
    taken = RowMask::none(rows.length);
    rest = rows;
    if (condition.values.is_scalar()) {
      const BooleanWords words(condition.values, 1);
      if ((words.values[0] & words.valid[0] & 1) != 0) {
        std::swap(taken, rest);
      }
      return;
    }
    if (condition.in_place) {
      const BooleanWords words(condition.values, rows.length);
      for (size_t w = 0; w < rows.words.size(); ++w) {
        taken.words[w] = rows.words[w] & words.values[w] & words.valid[w];
        rest.words[w] = rows.words[w] & ~taken.words[w];
      }
      return;
    }
    // Compact: the k-th row of the mask has the k-th condition value.
    const BooleanWords words(condition.values, condition.values.length());
    int64_t index = 0;
    for (size_t w = 0; w < rows.words.size(); ++w) {
      for (uint64_t word = rows.words[w]; word != 0; word &= word - 1) {
        const uint64_t bit = uint64_t{1} << std::countr_zero(word);
        const size_t k = static_cast<size_t>(index);
        if ((words.values[k / 64] & words.valid[k / 64]) >> (k % 64) & 1) {
          taken.words[w] |= bit;
          rest.words[w] &= ~bit;
        }
        ++index;
      }
    }
  }

  /// Evaluates `node` for the rows of `mask`. With every row, or for a column or literal (which
  /// cost nothing and cannot raise), over the whole input; otherwise over those rows only.
  Piece evaluate_on(const BoundNode& node, const Rows& rows, RowMask mask) {
    if (mask.is_all() || node.kind == Kind::kColumn || node.kind == Kind::kLiteral) {
      return Piece{evaluate(node, rows), std::move(mask), true};
    }
    const GatheredRows subset = gather_rows(rows, node, mask, allocator_);
    return Piece{evaluate(node, subset.view()), std::move(mask), false};
  }

  /// One result from pieces whose `targets` (subsets of their rows) are disjoint; rows no
  /// piece targets are null.
  Datum assemble(const BoundNode& node, const Rows& rows, const std::vector<Piece>& pieces,
                 const std::vector<RowMask>& targets) {
    if (pieces.empty()) {
      return Datum::null_scalar(node.type, allocator_);
    }
    for (size_t k = 0; k < pieces.size(); ++k) {
      if (targets[k].is_all() && (pieces[k].in_place || pieces[k].values.is_scalar())) {
        return pieces[k].values;
      }
    }
    std::vector<RowPiece> row_pieces;
    for (size_t k = 0; k < pieces.size(); ++k) {
      row_pieces.push_back(
          RowPiece{pieces[k].values, &pieces[k].rows, &targets[k], pieces[k].in_place});
    }
    return scatter(node.type, rows.length, row_pieces, allocator_);
  }

  /// CASE WHEN (and IF): each condition sees the rows no earlier condition took; each value
  /// only the rows its condition took; the ELSE value the rest.
  Datum case_when(const BoundNode& node, const Rows& rows) {
    RowMask remaining = RowMask::all(rows.length);
    std::vector<Piece> pieces;
    const size_t branches = node.operands.size() / 2;
    for (size_t b = 0; b < branches && !remaining.empty(); ++b) {
      const Piece condition = evaluate_on(*node.operands[2 * b], rows, std::move(remaining));
      RowMask taken;
      split(condition, taken, remaining);
      if (!taken.empty()) {
        pieces.push_back(evaluate_on(*node.operands[2 * b + 1], rows, std::move(taken)));
      }
    }
    if (!remaining.empty()) {
      pieces.push_back(evaluate_on(*node.operands.back(), rows, std::move(remaining)));
    }
    std::vector<RowMask> targets;
    targets.reserve(pieces.size());
    for (const Piece& piece : pieces) {
      targets.push_back(piece.rows);
    }
    return assemble(node, rows, pieces, targets);
  }

  /// COALESCE: each argument sees only the rows where every earlier one was null.
  Datum coalesce(const BoundNode& node, const Rows& rows) {
    RowMask remaining = RowMask::all(rows.length);
    std::vector<Piece> pieces;
    std::vector<RowMask> targets;
    for (const BoundNodePtr& operand : node.operands) {
      if (remaining.empty()) {
        break;
      }
      Piece value = evaluate_on(*operand, rows, std::move(remaining));
      // The rows whose value is not null keep it; the others go on to the next argument.
      RowMask kept = RowMask::none(rows.length);
      remaining = value.rows;
      if (value.values.is_scalar()) {
        if (!value.values.scalar_is_null()) {
          std::swap(kept, remaining);
        }
      } else {
        const ArrayData& data = *value.values.data();
        const uint8_t* validity = data.buffers[0] ? data.buffers[0]->data() : nullptr;
        int64_t index = 0;
        for (size_t w = 0; w < value.rows.words.size(); ++w) {
          for (uint64_t word = value.rows.words[w]; word != 0; word &= word - 1) {
            const int bit = std::countr_zero(word);
            const int64_t at = value.in_place ? static_cast<int64_t>(w * 64) + bit : index++;
            if (validity == nullptr || bit_util::get_bit(validity, data.offset + at)) {
              kept.words[w] |= uint64_t{1} << bit;
              remaining.words[w] &= ~(uint64_t{1} << bit);
            }
          }
        }
      }
      if (!kept.empty()) {
        pieces.push_back(std::move(value));
        targets.push_back(std::move(kept));
      }
    }
    return assemble(node, rows, pieces, targets);
  }

  ExecContext& context_;
  Allocator* allocator_;
};

}  // namespace

Datum BoundExpression::evaluate(const RecordBatch& batch, ExecContext& context) const {
  if (!root_->columns.empty() && root_->columns.back() >= batch.num_columns()) {
    throw InvalidArgument("`" + root_->sql + "` reads column " +
                          std::to_string(root_->columns.back()) + " of a batch of " +
                          std::to_string(batch.num_columns()) + " columns");
  }
  Evaluator evaluator(context);
  return evaluator.evaluate(*root_, Rows{batch.columns(), batch.num_rows()});
}

RecordBatch filter(const RecordBatch& batch, const BoundExpression& predicate,
                   ExecContext& context) {
  if (predicate.type()->id() != TypeId::kBoolean) {
    throw compute::AnalysisError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                                 "Cannot resolve \"" + predicate.to_string() +
                                     "\" due to data type mismatch: Filter expression \"" +
                                     predicate.to_string() + "\" of type \"" +
                                     spark_type_name(*predicate.type()) + "\" is not a boolean.");
  }
  const Datum mask = predicate.evaluate(batch, context);
  if (mask.is_scalar()) {
    const bool keep = !mask.scalar_is_null() && mask.array().as<BooleanArray>().value(0);
    return keep ? batch : batch.slice(0, 0);
  }
  const RowMask kept = [&] {
    BooleanWords words(mask, batch.num_rows());
    for (size_t w = 0; w < words.values.size(); ++w) {
      words.values[w] &= words.valid[w];
    }
    return RowMask{std::move(words.values), batch.num_rows()};
  }();
  if (kept.is_all()) {
    return batch;
  }
  return compute::filter(batch, mask.array(), context.allocator);
}

RecordBatch project(const RecordBatch& batch, std::span<const BoundExpression> expressions,
                    std::span<const std::string> names, ExecContext& context) {
  if (!names.empty() && names.size() != expressions.size()) {
    throw InvalidArgument("project got " + std::to_string(expressions.size()) +
                          " expressions but " + std::to_string(names.size()) + " names");
  }
  FieldVector fields;
  std::vector<Array> columns;
  for (size_t i = 0; i < expressions.size(); ++i) {
    const BoundExpression& expression = expressions[i];
    const Datum value = expression.evaluate(batch, context);
    columns.push_back(value.is_scalar() ? value.to_array(batch.num_rows(), context.allocator)
                                        : value.array());
    fields.push_back(field(names.empty() ? expression.output_name() : names[i], expression.type(),
                           expression.nullable()));
  }
  return RecordBatch(schema(std::move(fields)), batch.num_rows(), std::move(columns));
}

}  // namespace bowstring::expr
