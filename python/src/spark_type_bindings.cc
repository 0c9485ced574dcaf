// Spark's type names and DDL schemas (types/spark_type_names.h) for Python: read into
// bowstring.DataType and bowstring.Schema, which pyarrow takes through __arrow_c_schema__.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>

#include "bowstring/table/schema.h"
#include "bowstring/types/spark_type_names.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {

void bind_spark_types(nb::module_& module) {
  module.def(
      "parse_spark_type",
      [](const std::string& text, const std::string& session_time_zone) {
        return PyDataType{parse_spark_type(text, session_time_zone)};
      },
      "text"_a, "session_time_zone"_a,
      "Reads one Spark data type such as 'map<string, array<int>>' (as DataType.fromDDL reads "
      "a type); TIMESTAMP is in `session_time_zone`. Raises bowstring.errors.ParseException "
      "naming the position and the token.");
  module.def(
      "parse_spark_schema",
      [](const std::string& text, const std::string& session_time_zone) {
        return PySchema{
            std::make_shared<const Schema>(parse_spark_schema(text, session_time_zone))};
      },
      "text"_a, "session_time_zone"_a,
      "Reads a DDL column list such as 'id bigint NOT NULL, tags array<string>' (as "
      "StructType.fromDDL does); TIMESTAMP is in `session_time_zone`. Raises "
      "bowstring.errors.ParseException naming the position and the token.");
  module.def(
      "spark_simple_string",
      [](nb::handle type) { return spark_simple_string(*type_from(type, "spark_simple_string")); },
      "type"_a,
      "Spark's short name of a data type (DataType.simpleString): 'bigint', 'array<int>', "
      "'struct<a:int,b:string>'. Takes any object exposing __arrow_c_schema__.");
  module.def(
      "spark_schema_ddl",
      [](nb::handle schema) {
        return spark_schema_ddl(schema_from(schema, "spark_schema_ddl")->fields());
      },
      "schema"_a,
      "Spark's DDL of a schema's columns (StructType.toDDL): 'a INT NOT NULL,b STRING'. Takes "
      "any object exposing __arrow_c_schema__.");
}

}  // namespace bowstring::python
