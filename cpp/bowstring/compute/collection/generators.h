#pragma once

// Spark's generators (table functions): each input row gives zero or more output rows. The
// engine's Generate node calls them batch by batch and repeats the input's other columns by the
// input row of each output row, with `take`.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/compute/core/datum.h"
#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/core/function.h"
#include "bowstring/types/type.h"

namespace bowstring::compute {

/// What a generator made of a batch of input rows.
struct GeneratorResult {
  /// One column per field of `Generator::output_fields`, all of the same length.
  std::vector<Array> columns;
  /// For each output row, the input row it came from (int64, no nulls, ascending).
  Array input_rows;
};

/// A generator under its Spark name: explode, explode_outer, posexplode, posexplode_outer,
/// inline, inline_outer, stack.
class Generator {
 public:
  Generator(std::string name, Function::Arity arity, std::string description);
  virtual ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  const std::string& name() const { return name_; }
  Function::Arity arity() const { return arity_; }
  const std::string& description() const { return description_; }

  /// The output columns for arguments of these types, with Spark's names: `col` for an array's
  /// elements, `key` and `value` for a map's entries, `pos` (INT) before them for posexplode,
  /// the struct's fields for inline, col0, col1... for stack. Throws `AnalysisError`
  /// (WRONG_NUM_ARGS, DATATYPE_MISMATCH...) for arguments the generator does not take. Constant
  /// arguments (stack's row count) are read from `context`.
  virtual FieldVector output_fields(std::span<const TypePtr> arguments,
                                    const ResolveContext& context) const = 0;

  /// The output rows of the batch: arrays of one length (scalars stand for every row; with
  /// only scalars, the batch has one row).
  virtual GeneratorResult generate(std::span<const Datum> arguments,
                                   ExecContext& context) const = 0;

  /// Throws `AnalysisError` (WRONG_NUM_ARGS) unless `count` is within the arity.
  void check_arity(int64_t count) const;

 private:
  std::string name_;
  Function::Arity arity_;
  std::string description_;
};

/// The generator called `name` (case-insensitive), or nullptr.
const Generator* find_generator(std::string_view name);

/// Every generator's name, sorted.
std::vector<std::string> generator_names();

}  // namespace bowstring::compute
