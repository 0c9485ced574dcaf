// The engine of bowstring.compute: calls of registered functions by their Spark names.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "bowstring/compute/collection/generators.h"
#include "bowstring/compute/core/errors.h"
#include "bowstring/compute/core/function.h"
#include "compute_bindings.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

compute::OptionValue option_value(const std::string& name, nb::handle value) {
  if (nb::isinstance<nb::bool_>(value)) {
    return nb::cast<bool>(value);
  }
  if (nb::isinstance<nb::int_>(value)) {
    return nb::cast<int64_t>(value);
  }
  if (nb::isinstance<nb::float_>(value)) {
    return nb::cast<double>(value);
  }
  if (nb::isinstance<nb::str>(value)) {
    return nb::cast<std::string>(value);
  }
  return type_from(value, ("option '" + name + "'").c_str());
}

// `arguments` holds (array, is_scalar) pairs prepared by bowstring.compute.
std::vector<compute::Datum> datums_from(const nb::list& arguments) {
  std::vector<compute::Datum> datums;
  datums.reserve(nb::len(arguments));
  for (nb::handle argument : arguments) {
    auto pair = nb::cast<nb::tuple>(argument);
    Array array = array_from(pair[0]);
    datums.push_back(nb::cast<bool>(pair[1]) ? compute::Datum::scalar(std::move(array))
                                             : compute::Datum(std::move(array)));
  }
  return datums;
}

compute::MapKeyDedupPolicy dedup_policy_from(const std::string& policy) {
  if (policy == "EXCEPTION") {
    return compute::MapKeyDedupPolicy::kException;
  }
  if (policy == "LAST_WIN") {
    return compute::MapKeyDedupPolicy::kLastWin;
  }
  throw InvalidArgument("spark.sql.mapKeyDedupPolicy must be EXCEPTION or LAST_WIN, not '" +
                        policy + "'");
}

nb::tuple call_function(const std::string& name, const nb::list& arguments, const nb::dict& options,
                        const std::string& session_time_zone, bool ansi,
                        const std::string& map_key_dedup_policy) {
  const std::vector<compute::Datum> datums = datums_from(arguments);
  const compute::FunctionOptions function_options = function_options_from(options);
  compute::ExecContext context;
  context.session_time_zone = session_time_zone;
  context.ansi = ansi;
  context.map_key_dedup_policy = dedup_policy_from(map_key_dedup_policy);
  compute::Datum result;
  {
    nb::gil_scoped_release unlocked;
    result = compute::call(name, datums, function_options, &context);
  }
  return nb::make_tuple(result.array(), result.is_scalar());
}

// Runs the generator `name` over (array, is_scalar) pairs: returns the output columns' names,
// the columns, and the input row of each output row.
nb::tuple generate(const std::string& name, const nb::list& arguments,
                   const std::string& session_time_zone, bool ansi) {
  const compute::Generator* generator = compute::find_generator(name);
  if (generator == nullptr) {
    throw compute::AnalysisError("UNRESOLVED_ROUTINE",
                                 "Cannot resolve routine `" + name + "`: no such generator.");
  }
  const std::vector<compute::Datum> datums = datums_from(arguments);
  std::vector<TypePtr> types;
  std::vector<const compute::Datum*> constants;
  for (const compute::Datum& datum : datums) {
    types.push_back(datum.type());
    constants.push_back(datum.is_scalar() ? &datum : nullptr);
  }
  compute::ResolveContext resolve_context;
  resolve_context.ansi = ansi;
  resolve_context.constants = constants;
  resolve_context.session_time_zone = session_time_zone;
  compute::ExecContext context;
  context.session_time_zone = session_time_zone;
  context.ansi = ansi;
  FieldVector fields;
  compute::GeneratorResult result;
  {
    nb::gil_scoped_release unlocked;
    fields = generator->output_fields(types, resolve_context);
    result = generator->generate(datums, context);
  }
  std::vector<std::string> names;
  for (const FieldPtr& field : fields) {
    names.push_back(field->name());
  }
  return nb::make_tuple(names, result.columns, result.input_rows);
}

nb::list list_functions() {
  const compute::FunctionRegistry& registry = compute::default_registry();
  nb::list listed;
  for (const compute::Function* function : registry.functions()) {
    nb::dict entry;
    std::vector<std::string> names = registry.names_of(*function);
    entry["name"] = names[0];
    entry["aliases"] = std::vector<std::string>(names.begin() + 1, names.end());
    entry["kind"] = function->kind() == compute::Function::Kind::kScalar ? "scalar" : "aggregate";
    std::vector<std::string> signatures;
    for (const compute::Signature& signature : function->signatures()) {
      signatures.push_back(signature.to_string());
    }
    entry["signatures"] = signatures;
    entry["description"] = function->description();
    entry["null_handling"] =
        function->null_handling() == compute::NullHandling::kPropagates ? "propagates" : "custom";
    entry["deterministic"] = function->deterministic();
    listed.append(entry);
  }
  return listed;
}

// Spark's errors surface as the exceptions of bowstring.errors that pyspark.errors names.
void raise_spark_error(const char* name, const SparkError& error) {
  nb::object type = nb::module_::import_("bowstring.errors").attr(name);
  nb::object raised = type(error.what(), error.condition());
  PyErr_SetObject(type.ptr(), raised.ptr());
}

void translate_compute_error(const std::exception_ptr& error, void* /*payload*/) {
  try {
    std::rethrow_exception(error);
  } catch (const compute::ArithmeticError& e) {
    raise_spark_error("ArithmeticException", e);
  } catch (const compute::NumberFormatError& e) {
    raise_spark_error("NumberFormatException", e);
  } catch (const compute::DateTimeError& e) {
    raise_spark_error("DateTimeException", e);
  } catch (const compute::IllegalArgumentError& e) {
    raise_spark_error("IllegalArgumentException", e);
  } catch (const compute::AnalysisError& e) {
    raise_spark_error("AnalysisException", e);
  } catch (const ParseError& e) {
    raise_spark_error("ParseException", e);
  } catch (const SparkError& e) {
    raise_spark_error("SparkRuntimeException", e);
  }
}

}  // namespace

compute::FunctionOptions function_options_from(const nb::dict& options) {
  compute::FunctionOptions function_options;
  for (auto [key, value] : options) {
    const auto option = nb::cast<std::string>(key);
    function_options.emplace(option, option_value(option, value));
  }
  return function_options;
}

void bind_compute(nb::module_& module) {
  nb::register_exception_translator(translate_compute_error);
  nb::module_ compute = module.def_submodule(
      "_compute", "Calls of the engine's functions; the public interface is bowstring.compute.");
  compute.def("call", &call_function, "name"_a, "arguments"_a, "options"_a, "session_time_zone"_a,
              "ansi"_a, "map_key_dedup_policy"_a,
              "Calls the registered function `name` on (array, is_scalar) pairs; returns the "
              "result as (Array, is_scalar).");
  compute.def("generate", &generate, "name"_a, "arguments"_a, "session_time_zone"_a, "ansi"_a,
              "Runs the generator `name` (explode, posexplode, inline, stack...) on (array, "
              "is_scalar) pairs; returns (column names, columns, input row of each output row).");
  compute.def("generators", &compute::generator_names, "The names of the generators, sorted.");
  compute.def("functions", &list_functions,
              "Every registered function: name, aliases, kind, signatures, description, "
              "null handling and determinism.");
}

}  // namespace bowstring::python
