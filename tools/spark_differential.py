"""Differential check of Bowstring's functions against a real PySpark, row by row.

A development tool (CI has no Spark): it generates randomized inputs of every basic type with
their corner values (integer bounds, NaN, infinities, -0.0, huge and tiny doubles, decimals at
their precision, numeric-looking and Unicode strings, dates and timestamps around DST changes and
far in the past and future, nulls), evaluates a catalogue of Spark SQL function calls on them
both in Spark and in Bowstring, and prints every row where the two differ: the function, the
input values, Spark's result and Bowstring's.

Spark runs in a subprocess under the PySpark installation's Python (one SparkSession,
``local[1]``, ANSI mode on, ``spark.sql.session.timeZone`` set per case). Each expression is
planned by Spark (analysis, type coercion and optimization exactly as in a query) and its
projection is then evaluated on every input row separately inside the JVM by a small Java class
that this tool compiles with the JDK's ``javac`` against PySpark's jars, so that an ANSI error in
one row (ARITHMETIC_OVERFLOW, CAST_INVALID_INPUT...) is recorded for that row alone, with its
error condition, instead of failing the whole query. Bowstring evaluates the same call through
``bowstring.compute.call``; when a call raises, each row is evaluated alone to localise the
error. Inputs go to Spark and results come back as Arrow IPC files written and read with pyarrow
on both sides.

Cases cover every function listed by ``bowstring.compute.functions()`` when the tool runs:
the catalogue below gives the argument types and literal options worth testing for the functions
it knows (arithmetic and its try_ variants, casts between every pair of basic types, comparisons,
predicates and conditionals, date and time functions in three session zones, string functions,
hash and xxhash64, digests (md5, sha1, sha2, crc32), byte encodings (base64, hex) and UTF-8
validation, aggregates); any other registered function is tested with argument types read
from its signatures.

Usage, from the repository root after ``make build``::

    export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
    PYTHONPATH=python .venv/bin/python tools/spark_differential.py [options]

Options: ``--rows N`` (rows per input column, default 200), ``--seed S``, ``--only REGEX`` (run
only functions whose name matches), ``--zones Z1,Z2,Z3`` (session zones for time-zone dependent
cases), ``--examples K`` (mismatching rows shown per case), ``--report FILE`` (also write the
report there), ``--spark-python PATH`` (the Python of the PySpark installation, default
``/work/main/.venv-pyspark/bin/python`` or ``$SPARK_PYTHON``), ``--keep DIR`` (keep the exchanged
files in DIR), ``--reuse`` (with ``--keep``: compare again against Spark's results already in DIR,
for instance after rebuilding Bowstring). The exit status is 0 when nothing differs and 1 otherwise.

The report lists, per function, the number of cases (distinct calls) and rows compared and the
mismatches, then each mismatching case with example rows. Spark is the reference: a mismatch is
a place where Bowstring's result differs from Spark's, including the error condition of ANSI
errors and whether a call is accepted at all (Spark's analysis errors).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import decimal
import hashlib
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

DEFAULT_SPARK_PYTHON = "/work/main/.venv-pyspark/bin/python"
DEFAULT_ZONES = ("UTC", "America/Los_Angeles", "Asia/Kolkata")

# ---------------------------------------------------------------------------------------------
# The Java side: row-by-row evaluation of planned expressions inside Spark's JVM.
# ---------------------------------------------------------------------------------------------

JAVA_SOURCE = r"""
package bowstring.differential;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;

/** Evaluates planned expressions on every input row separately, keeping each row's value or
 * error, and returns them all as one DataFrame (v<k>: values, e<k>: errors of expression k). */
public final class RowEvaluator {
  private final InternalRow[] rows;
  private final List<StructField> fields = new ArrayList<>();
  private final List<Object[]> columns = new ArrayList<>();
  private final List<String> typeNames = new ArrayList<>();

  public RowEvaluator(InternalRow[] rows) {
    this.rows = rows;
  }

  /** "CONDITION<TAB>first line of the message" of Spark's errors, else the Java class. */
  public static String describe(Throwable error) {
    Throwable cause = error;
    while (!(cause instanceof SparkThrowable) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = String.valueOf(cause.getMessage());
    int newline = message.indexOf('\n');
    if (newline >= 0) message = message.substring(0, newline);
    if (cause instanceof SparkThrowable && ((SparkThrowable) cause).getCondition() != null) {
      return ((SparkThrowable) cause).getCondition() + "\t" + message;
    }
    return cause.getClass().getName() + "\t" + message;
  }

  /** Evaluates the one expression of `projectList` (bound to `input`) on every row. Returns ""
   * or the error that prevented evaluating the expression at all. */
  @SuppressWarnings("unchecked")
  public String add(Object projectList, Object input) {
    scala.collection.immutable.Seq<Expression> expressions =
        (scala.collection.immutable.Seq<Expression>) projectList;
    DataType type = expressions.head().dataType();
    // Strings travel as their bytes: Java strings would replace bytes that are not UTF-8.
    boolean text = type instanceof StringType;
    Object[] values = new Object[rows.length];
    String[] errors = new String[rows.length];
    String failure = "";
    try {
      UnsafeProjection projection = UnsafeProjection.create(
          expressions, (scala.collection.immutable.Seq<Attribute>) input);
      for (int i = 0; i < rows.length; ++i) {
        try {
          UnsafeRow result = projection.apply(rows[i]);
          if (result.isNullAt(0)) {
            values[i] = null;
          } else if (text) {
            values[i] = result.getUTF8String(0).getBytes();
          } else {
            values[i] = CatalystTypeConverters.convertToScala(result.get(0, type), type);
          }
        } catch (Throwable error) {
          errors[i] = describe(error);
        }
      }
    } catch (Throwable error) {
      failure = describe(error);
    }
    int index = columns.size() / 2;
    fields.add(DataTypes.createStructField("v" + index, text ? DataTypes.BinaryType : type, true));
    typeNames.add(type.simpleString());
    fields.add(DataTypes.createStructField("e" + index, DataTypes.StringType, true));
    columns.add(values);
    columns.add(errors);
    return failure;
  }

  /** Spark's result type of each added expression, one a line. */
  public String typeNames() {
    return String.join("\n", typeNames);
  }

  public Dataset<Row> result(SparkSession session) {
    List<Row> table = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; ++i) {
      Object[] row = new Object[columns.size()];
      for (int c = 0; c < columns.size(); ++c) row[c] = columns.get(c)[i];
      table.add(RowFactory.create(row));
    }
    return session.createDataFrame(table, DataTypes.createStructType(fields));
  }
}
"""


def _compile_java(spark_python: str, java_home: str) -> Path:
    """Compiles the row evaluator against the PySpark installation's jars (cached by the hash of
    the source and the installation). Returns the classes directory."""
    jars = subprocess.run(
        [spark_python, "-c",
         "import os, pyspark; print(os.path.join(pyspark.__path__[0], 'jars'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    key = hashlib.sha256((JAVA_SOURCE + jars).encode()).hexdigest()[:16]
    classes = Path(tempfile.gettempdir()) / f"bowstring-spark-differential-{key}"
    marker = classes / "bowstring" / "differential" / "RowEvaluator.class"
    if marker.exists():
        return classes
    source_dir = classes.with_name(classes.name + "-src") / "bowstring" / "differential"
    source_dir.mkdir(parents=True, exist_ok=True)
    source = source_dir / "RowEvaluator.java"
    source.write_text(JAVA_SOURCE)
    javac = os.path.join(java_home, "bin", "javac") if java_home else "javac"
    subprocess.run(
        [javac, "-nowarn", "-cp", os.path.join(jars, "*"), "-d", str(classes), str(source)],
        check=True,
    )
    return classes


# ---------------------------------------------------------------------------------------------
# The Spark side (runs under the PySpark installation's Python; imports no Bowstring module).
# ---------------------------------------------------------------------------------------------


def spark_worker(job_dir: str, classes: str) -> None:
    """Evaluates the cases of ``job_dir/cases.json`` on ``job_dir/inputs.arrow`` in Spark and
    writes ``results.arrow`` (columns v<k>, e<k>: per-row values and errors of case k),
    ``case_errors.json`` (case id -> error of the whole case, such as an analysis error) and
    ``aggregates.json`` (results of the aggregate cases)."""
    import logging

    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession

    job = Path(job_dir)
    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.sql.ansi.enabled", "true")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.datetime.java8API.enabled", "true")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.extraClassPath", classes)
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("OFF")
    logging.getLogger("SQLQueryContextLogger").disabled = True

    with pa.OSFile(str(job / "inputs.arrow"), "rb") as source:
        inputs = pa.ipc.open_file(source).read_all()
    cases = json.loads((job / "cases.json").read_text())
    # Arrow timestamps without a zone would become Spark TIMESTAMPs read in the session zone:
    # they travel as microseconds and become TIMESTAMP_NTZ here (the session zone is UTC).
    ntz_columns = [f.name for f in inputs.schema if pa.types.is_timestamp(f.type) and not f.type.tz]
    for name in ntz_columns:
        index = inputs.schema.get_field_index(name)
        inputs = inputs.set_column(index, name, inputs.column(name).cast(pa.int64()))
    frame = spark.createDataFrame(inputs)
    if ntz_columns:
        frame = frame.selectExpr(*[
            f"CAST(timestamp_micros(`{f.name}`) AS TIMESTAMP_NTZ) AS `{f.name}`"
            if f.name in ntz_columns else f"`{f.name}`" for f in inputs.schema])
    frame = frame.cache()
    frame.count()
    frame.createOrReplaceTempView("t")
    rows = spark.table("t")._jdf.queryExecution().executedPlan().executeCollect()
    evaluator = spark._jvm.bowstring.differential.RowEvaluator(rows)

    def condition_of(error: Exception) -> str:
        getter = getattr(error, "getCondition", None)
        condition = getter() if getter is not None else None
        message = str(error).split("\n")[0]
        return f"{condition or type(error).__name__}\t{message}"

    case_errors: Dict[str, str] = {}
    aggregates: Dict[str, Any] = {}
    column_of_case: Dict[str, int] = {}

    def plan_of(expressions: List[str]) -> Any:
        select = ", ".join(f"{sql} AS r{i}" for i, sql in enumerate(expressions))
        optimized = spark.sql(f"SELECT {select} FROM t")._jdf.queryExecution().optimizedPlan()
        if optimized.nodeName() != "Project":
            raise RuntimeError(f"PLAN\tunexpected plan {optimized.nodeName()}")
        return optimized

    def evaluate(case: Dict[str, Any], plan: Any, index: int) -> None:
        failure = evaluator.add(plan.projectList().slice(index, index + 1),
                                plan.child().output())
        column_of_case[str(case["id"])] = len(column_of_case)
        if failure:
            case_errors[str(case["id"])] = failure

    by_zone: Dict[str, List[Dict[str, Any]]] = {}
    for case in cases:
        by_zone.setdefault(case["zone"], []).append(case)
    for zone, zone_cases in sorted(by_zone.items()):
        spark.conf.set("spark.sql.session.timeZone", zone)
        scalar_cases = [c for c in zone_cases if not c["aggregate"]]
        for start in range(0, len(scalar_cases), 40):
            chunk = scalar_cases[start:start + 40]
            try:
                plan = plan_of([c["sql"] for c in chunk])
            except Exception:  # noqa: BLE001 - some case fails to plan: plan each alone
                for case in chunk:
                    try:
                        evaluate(case, plan_of([case["sql"]]), 0)
                    except Exception as error:  # noqa: BLE001
                        case_errors[str(case["id"])] = condition_of(error)
                continue
            for index, case in enumerate(chunk):
                evaluate(case, plan, index)
        for case in zone_cases:
            if not case["aggregate"]:
                continue
            try:
                table = spark.sql(f"SELECT {case['sql']} AS r FROM t").toArrow()
                aggregates[str(case["id"])] = {
                    "type": _spark_type_name(table.schema.field("r").type),
                    "value": _plain(_normalise(table.column("r").combine_chunks())[0]),
                }
            except Exception as error:  # noqa: BLE001 - every Spark error is a result here
                case_errors[str(case["id"])] = condition_of(error)
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    results = DataFrame(evaluator.result(spark._jsparkSession), spark).toArrow()
    type_names = str(evaluator.typeNames()).split("\n")
    renamed = {}
    case_types: Dict[str, str] = {}
    for case_id, column in column_of_case.items():
        renamed[f"v{case_id}"] = results.column(f"v{column}")
        renamed[f"e{case_id}"] = results.column(f"e{column}")
        case_types[case_id] = type_names[column]
    table = pa.table(renamed) if renamed else pa.table({"v": pa.nulls(inputs.num_rows)})
    with pa.OSFile(str(job / "results.arrow"), "wb") as sink:
        with pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
    (job / "case_errors.json").write_text(json.dumps(case_errors))
    (job / "case_types.json").write_text(json.dumps(case_types))
    (job / "aggregates.json").write_text(json.dumps(aggregates))
    spark.stop()


def _plain(value: Any) -> Any:
    """A JSON-friendly form of one aggregate result (tagged so it can be read back exactly)."""
    if isinstance(value, float):
        return {"float": struct.pack(">d", value).hex()}
    if isinstance(value, decimal.Decimal):
        return {"decimal": str(value)}
    if isinstance(value, (datetime.datetime, datetime.date)):
        return {"repr": repr(value)}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _spark_type_name(arrow_type: Any) -> str:
    """Spark's name of the SQL type an Arrow type stands for."""
    import pyarrow as pa

    t = arrow_type
    if pa.types.is_int8(t):
        return "tinyint"
    if pa.types.is_int16(t):
        return "smallint"
    if pa.types.is_int32(t):
        return "int"
    if pa.types.is_int64(t):
        return "bigint"
    if pa.types.is_float32(t):
        return "float"
    if pa.types.is_float64(t):
        return "double"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return "binary"
    if pa.types.is_date32(t):
        return "date"
    if pa.types.is_timestamp(t):
        return "timestamp" if t.tz is not None else "timestamp_ntz"
    if pa.types.is_null(t):
        return "void"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return f"array<{_spark_type_name(t.value_type)}>"
    if pa.types.is_map(t):
        return f"map<{_spark_type_name(t.key_type)},{_spark_type_name(t.item_type)}>"
    if pa.types.is_struct(t):
        fields = ",".join(f"{f.name}:{_spark_type_name(f.type)}" for f in t)
        return f"struct<{fields}>"
    return str(t)


# ---------------------------------------------------------------------------------------------
# Inputs.
# ---------------------------------------------------------------------------------------------

_INT_BOUNDS = {8: 2**7, 16: 2**15, 32: 2**31, 64: 2**63}


def _ints(rng: random.Random, bits: int, count: int) -> List[Optional[int]]:
    low, high = -_INT_BOUNDS[bits], _INT_BOUNDS[bits] - 1
    special = [low, low + 1, -1, 0, 1, 2, high - 1, high, 7, -7, 10, 100]
    small = min(high, 1000)
    values: List[Optional[int]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            values.append(None)
        elif r < 0.45:
            values.append(rng.choice(special))
        elif r < 0.75:
            values.append(rng.randint(-small, small))
        else:
            values.append(rng.randint(low, high))
    return values


def _doubles(rng: random.Random, count: int, single: bool) -> List[Optional[float]]:
    big = 3.4028234663852886e38 if single else 1.7976931348623157e308
    tiny = 1.401298464324817e-45 if single else 5e-324
    special = [
        math.nan, math.inf, -math.inf, -0.0, 0.0, big, -big, tiny, -tiny, 1e-300 if not single
        else 1e-38, 0.5, 1.5, 2.5, -2.5, -0.5, 1.0, -1.0, 2147483647.0, 2147483648.0,
        -2147483649.0, 9.223372036854776e18, -9.223372036854776e18, 1e19, 1e-5, 123456789.125,
        0.1, 1e7, 1e21, 3.0, 127.5, -128.5, 32767.0, 99999999.995,
    ]
    values: List[Optional[float]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            values.append(None)
        elif r < 0.5:
            values.append(rng.choice(special))
        elif r < 0.7:
            values.append(float(rng.randint(-1000, 1000)))
        elif r < 0.85:
            values.append(rng.uniform(-1e6, 1e6))
        else:
            values.append(math.copysign(10 ** rng.uniform(-40, 40), rng.random() - 0.5))
    if single:
        values = [None if v is None else struct.unpack("f", struct.pack("f", v))[0]
                  if abs(v) <= big or math.isinf(v) or math.isnan(v) else math.copysign(
                      math.inf, v) for v in values]
    return values


def _decimals(rng: random.Random, count: int, precision: int, scale: int
              ) -> List[Optional[decimal.Decimal]]:
    decimal.getcontext().prec = 60
    unit = decimal.Decimal(1).scaleb(-scale)
    largest = decimal.Decimal(10 ** precision - 1).scaleb(-scale)
    special = [largest, -largest, decimal.Decimal(0), unit, -unit, decimal.Decimal("0.5"),
               decimal.Decimal("1.5"), decimal.Decimal("-2.5"), decimal.Decimal(1),
               decimal.Decimal(127), decimal.Decimal(-129), decimal.Decimal("2147483648"),
               decimal.Decimal("0.01")]
    values: List[Optional[decimal.Decimal]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            values.append(None)
            continue
        if r < 0.45:
            value = rng.choice(special)
        elif r < 0.75:
            value = decimal.Decimal(rng.randint(-100000, 100000)).scaleb(-scale)
        else:
            digits = rng.randint(1, precision)
            value = decimal.Decimal(rng.randint(-(10 ** digits - 1), 10 ** digits - 1)).scaleb(
                -scale)
        if abs(value) > largest:
            value = largest
        values.append(value.quantize(unit))
    return values


NUMERIC_STRINGS = [
    "1", " 12 ", "-0", "0", "1.0", "1.5", "-1.5", "2.5", "1e3", "-1E-2", "1.e2", "inf", "-inf",
    "Infinity", "-Infinity", "+Infinity", "NaN", "nan", "", " ", "0x1A", "+5", "-5", "007",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "1_000", "１２", "\t7\n", "1.", ".5", "-.5",
    "1d", "1f", "1D", "1L", "true", "false", "TRUE", "True", "yes", "no", "t", "f", "y", "n",
    "on", "off", "127", "128", "-128", "-129", "32767", "32768", "99999999.99", "99999999.995",
    "1.23456789012345678901234567890", "1e400", "1e-400", "12345678901234567890123456789012345678",
    "2020-01-01", "abc", "1 2", "--1", "1e", "e1", "0.0000001", "123456.789e3",
]

UNICODE_STRINGS = [
    "hello", "Hello World", "", " ", "  padded  ", "\tTabbed\n", "ß", "straße", "İstanbul",
    "ǅungla", "ﬁne", "日本語テキスト", "emoji 😀 here", "a\u00a0b", "ΣΑΣ σας", "mIxEd cAsE",
    "x" * 40, "it's", "a%b_c", "a.b*c+d", "ab", "abc", "ABC", "aBc", "a,b,,c", "a b  c", "ł",
    "\u0301e", "e\u0301", "Ǆ", "ǈ", "ŉ", "ﬀ", "ΐ", "\u2028", "null", "NULL", "ab12cd34",
    "hello world foo", "the quick brown fox", "über", "ÀÉÎÕÜ", "ı", "ﾊﾝｶｸ", "𝔘𝔫𝔦",
]

DATE_PATTERNS_FOR_STRINGS = [
    "%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%d/%m/%Y", "%m/%d/%y", "%Y%m%d", "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f", "%d %b %Y", "%H:%M",
]

DATE_STRINGS = [
    "2020-01-01", "2020-1-1", "2020-02-29", "2021-02-29", "2020-02-30", "  2020-01-01  ",
    "2020-01-01T10:11:12", "2020-01-01 10:11:12.123456", "2020-01-01 10:11:12.1234567",
    "2020-01-01 10:11:12Z", "2020-01-01 10:11:12+05:30", "2020-01-01T10:11:12-08:00",
    "2020-01-01 10:11:12 America/New_York", "2020-01-01 10:11:12 UTC", "2020", "2020-06",
    "+10000-01-01", "-0001-01-01", "0001-01-01", "9999-12-31", "2020-13-01", "2020-00-10", "x",
    "", "01/02/2020", "2020/01/02", "20200102", "2021-03-14 02:30:00", "2021-11-07 01:30:00",
    "1582-10-10", "1582-10-04", "T10:11:12", "10:11:12", "2020-01-01 24:00:00",
    "2020-01-01 23:59:60", "2019-12-31 23:59:59.999999", "1970-01-01 00:00:00",
    "1969-12-31 23:59:59.5", "2020-07-01T00:00:00.000+0100", "2020-1-1 1:2:3", "2020-01-01 ",
    "2020-01-01T", "1 Jan 2020", "1900-01-01 00:00:00", "2038-01-19 03:14:08",
    "2020-01-01 10:11:12 +05:30", "2020-01-01 10:11:12GMT+8", "2020-01-01 10:11:12 UTC+01:00",
    "2021-03-28 02:30:00", "2021-10-31 02:30:00", "1945-08-15 00:00:00",
]

# Instants (seconds since the epoch) next to which timestamps are drawn: DST changes in the US,
# Europe and Australia, Kolkata's wartime changes, old local mean times, the year-2038 edge.
TIMESTAMP_ANCHORS = [
    0, 1615712400, 1636275600, 1616893200, 1635642000, 1617494400, 1633190400, -2717640000,
    -2524521600, -883612800, -757382400, 2147483647, 4102444800, 253402300799, -62135596800,
    -12219292800, -12220156800, 951782400, 1583020800, 1609459199, 1546300800, 1230768000,
    1262304000, 1483228799, 1700000000, 1699999999, -1, 1, 86399, 86400, -86400,
]


def _timestamps(rng: random.Random, count: int) -> List[Optional[int]]:
    """Microseconds since the epoch."""
    extremes = [253402300799999999, 253402300800000000, -62135596800000000,
                -62135596800000001, 2**62, -(2**62)]
    values: List[Optional[int]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            values.append(None)
        elif r < 0.45:
            anchor = rng.choice(TIMESTAMP_ANCHORS)
            offset = rng.choice([0, 0, -1, 1, -3600, 3600, -1800, 1800, -7200, 7200, 59, -59])
            micros = rng.choice([0, 0, 1, 999999, 500000, 123456])
            values.append((anchor + offset) * 1_000_000 + micros)
        elif r < 0.5:
            values.append(rng.choice(extremes))
        elif r < 0.9:
            values.append(rng.randrange(-2208988800, 4102444800) * 1_000_000
                          + rng.choice([0, rng.randrange(1_000_000)]))
        else:
            values.append(rng.randrange(-62135596800, 253402300799) * 1_000_000
                          + rng.randrange(1_000_000))
    return values


def _dates(rng: random.Random, count: int) -> List[Optional[int]]:
    """Days since the epoch."""
    special = [0, -1, 1, -719162, 2932896, -141427, -141428, -141438, 18321, 11016, -25508,
               18262, 18627, 18292, 18293, 16070, 24837, -719163, 2932897, 47482, -10957]
    values: List[Optional[int]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            values.append(None)
        elif r < 0.4:
            values.append(rng.choice(special))
        elif r < 0.9:
            values.append(rng.randrange(-25567, 47482))
        else:
            values.append(rng.randrange(-719162, 2932897))
    return values


def _date_strings(rng: random.Random, count: int) -> List[Optional[str]]:
    values: List[Optional[str]] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.06:
            values.append(None)
        elif r < 0.5:
            values.append(rng.choice(DATE_STRINGS))
        else:
            seconds = rng.randrange(-2208988800, 4102444800)
            moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(
                seconds=seconds, microseconds=rng.choice([0, 0, 123000, 456789]))
            values.append(moment.strftime(rng.choice(DATE_PATTERNS_FOR_STRINGS)))
    return values


def _pick(rng: random.Random, pool: Sequence[Any], count: int, null_rate: float = 0.08
          ) -> List[Any]:
    return [None if rng.random() < null_rate else rng.choice(pool) for _ in range(count)]


def _random_unicode(rng: random.Random, count: int) -> List[Optional[str]]:
    alphabet = "aAbBzZ09 _%.-ßİıΣσ日本😀\u0301ǅﬁ,\t"
    values: List[Optional[str]] = []
    for _ in range(count):
        if rng.random() < 0.5:
            values.append(rng.choice(UNICODE_STRINGS))
        elif rng.random() < 0.1:
            values.append(None)
        else:
            values.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))))
    return values


def make_inputs(rows: int, seed: int) -> Any:
    """The input table: for each basic type two independent columns (<type>_a, <type>_b) plus a
    few columns of values in the ranges functions care about."""
    import pyarrow as pa

    rng = random.Random(seed)
    columns: Dict[str, Any] = {"rid": pa.array(range(rows), pa.int32())}
    for bits, arrow_type in [(8, pa.int8()), (16, pa.int16()), (32, pa.int32()), (64, pa.int64())]:
        for suffix in "ab":
            columns[f"i{bits}_{suffix}"] = pa.array(_ints(rng, bits, rows), arrow_type)
    for suffix in "ab":
        columns[f"f32_{suffix}"] = pa.array(_doubles(rng, rows, True), pa.float32())
        columns[f"f64_{suffix}"] = pa.array(_doubles(rng, rows, False), pa.float64())
        columns[f"dec_{suffix}"] = pa.array(_decimals(rng, rows, 10, 2), pa.decimal128(10, 2))
        columns[f"bool_{suffix}"] = pa.array(_pick(rng, [True, False], rows, 0.15), pa.bool_())
        columns[f"date_{suffix}"] = pa.array(_dates(rng, rows), pa.int32()).cast(pa.date32())
        columns[f"ts_{suffix}"] = pa.array(_timestamps(rng, rows), pa.int64()).cast(
            pa.timestamp("us", tz="UTC"))
        columns[f"snum_{suffix}"] = pa.array(_pick(rng, NUMERIC_STRINGS, rows), pa.string())
        columns[f"str_{suffix}"] = pa.array(_random_unicode(rng, rows), pa.string())
    columns["decw_a"] = pa.array(_decimals(rng, rows, 38, 10), pa.decimal128(38, 10))
    columns["dec0_a"] = pa.array(_decimals(rng, rows, 5, 0), pa.decimal128(5, 0))
    columns["sdate_a"] = pa.array(_date_strings(rng, rows), pa.string())
    columns["ntz_a"] = pa.array(_timestamps(rng, rows), pa.int64()).cast(pa.timestamp("us"))
    columns["bin_a"] = pa.array(
        _pick(rng, [b"", b"abc", b"\x00\xff", "straße".encode(), b"12", b"\x80abc", b"true",
                    bytes(range(20))], rows), pa.binary())
    columns["small_a"] = pa.array(
        [None if rng.random() < 0.08 else rng.randint(-1000, 1000) for _ in range(rows)],
        pa.int32())
    columns["months_a"] = pa.array(
        [None if rng.random() < 0.08 else rng.choice([rng.randint(-30, 30), rng.randint(-3000,
         3000), 0, 1, -1, 12, 2**31 - 1, -(2**31)]) for _ in range(rows)], pa.int32())
    columns["secs_a"] = pa.array(
        [None if rng.random() < 0.08 else rng.choice([rng.randrange(-2208988800, 4102444800),
         rng.randrange(-62135596800, 253402300799), 0, -1, 2**31, 2**62, -(2**63), 2**63 - 1,
         1615712400, 1636275600]) for _ in range(rows)], pa.int64())
    columns["pos_a"] = pa.array(
        [None if rng.random() < 0.08 else rng.choice([rng.randint(-8, 8), 0, 1, -1, 2**31 - 1,
         -(2**31), 100]) for _ in range(rows)], pa.int32())
    columns.update(_collection_columns(rng, rows))
    return pa.table(columns)


def _int_list(rng: random.Random, low: int, high: int, null_rate: float = 0.1
              ) -> Optional[List[Optional[int]]]:
    """A list of 0 to 6 small ints (repeats likely), sometimes null, with null elements."""
    if rng.random() < null_rate:
        return None
    return [None if rng.random() < 0.1 else rng.randint(low, high)
            for _ in range(rng.choice([0, 1, 2, 3, 4, 6]))]


def _collection_columns(rng: random.Random, rows: int) -> Dict[str, Any]:
    """Arrays, nested arrays, arrays of structs and maps, with nulls at every level, empty
    collections and repeated elements."""
    import pyarrow as pa

    words = ["a", "b", "", "straße", "B", "ab"]
    columns: Dict[str, Any] = {}
    for suffix in "ab":
        columns[f"ai_{suffix}"] = pa.array([_int_list(rng, -3, 3) for _ in range(rows)],
                                           pa.list_(pa.int32()))
    columns["as_a"] = pa.array(
        [None if rng.random() < 0.1 else
         [None if rng.random() < 0.1 else rng.choice(words) for _ in range(rng.randint(0, 4))]
         for _ in range(rows)], pa.list_(pa.string()))
    columns["af_a"] = pa.array(
        [None if rng.random() < 0.1 else
         [None if rng.random() < 0.1 else rng.choice([0.0, -0.0, 1.5, float("nan"), -1.0,
                                                      float("inf")])
          for _ in range(rng.randint(0, 4))] for _ in range(rows)], pa.list_(pa.float64()))
    columns["aai_a"] = pa.array(
        [None if rng.random() < 0.1 else [_int_list(rng, 0, 9) for _ in range(rng.randint(0, 3))]
         for _ in range(rows)], pa.list_(pa.list_(pa.int32())))
    columns["ast_a"] = pa.array(
        [None if rng.random() < 0.1 else
         [None if rng.random() < 0.1 else {"x": rng.randint(0, 3), "y": rng.choice(words)}
          for _ in range(rng.randint(0, 3))] for _ in range(rows)],
        pa.list_(pa.struct([("x", pa.int32()), ("y", pa.string())])))
    maps = []
    for _ in range(rows):
        if rng.random() < 0.1:
            maps.append(None)
            continue
        keys = rng.sample(range(-3, 4), rng.randint(0, 3))
        maps.append([(k, None if rng.random() < 0.2 else rng.choice(words)) for k in keys])
    columns["m_a"] = pa.array(maps, pa.map_(pa.int32(), pa.string()))
    columns["idx_a"] = pa.array(
        [None if rng.random() < 0.08 else rng.choice([-7, -3, -2, -1, 0, 1, 2, 3, 5])
         for _ in range(rows)], pa.int32())
    return columns


# The column paired with a column in calls of two arguments of the same type.
SECOND_COLUMN = {
    "i8_a": "i8_b", "i16_a": "i16_b", "i32_a": "i32_b", "i64_a": "i64_b", "f32_a": "f32_b",
    "f64_a": "f64_b", "dec_a": "dec_b", "bool_a": "bool_b", "str_a": "str_b",
    "snum_a": "snum_b", "date_a": "date_b", "ts_a": "ts_b", "ntz_a": "ts_b", "bin_a": "bin_a",
    "decw_a": "dec_b", "dec0_a": "dec_b", "sdate_a": "str_b",
}

# ---------------------------------------------------------------------------------------------
# Cases.
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Lit:
    """A literal argument: its Python value (passed to Bowstring) and its Spark SQL text."""

    value: Any
    sql: str


def lit(value: Any) -> Lit:
    if value is None:
        return Lit(None, "NULL")
    if isinstance(value, bool):
        return Lit(value, "true" if value else "false")
    if isinstance(value, int):
        return Lit(value, str(value) if -(2**31) <= value < 2**31 else f"{value}L")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return Lit(value, f"double('{value}')")
        return Lit(value, f"{value!r}D")
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace("'", "\\'")
        return Lit(value, f"'{escaped}'")
    raise TypeError(f"no SQL literal for {value!r}")


Arg = Any  # a column name (str) or a Lit


def _sql_arg(arg: Arg) -> str:
    return arg.sql if isinstance(arg, Lit) else f"`{arg}`"


@dataclasses.dataclass
class Case:
    """One call: Bowstring's function name, arguments and options, Spark's SQL for it."""

    function: str
    args: Tuple[Arg, ...]
    sql: str
    zone: str = "UTC"
    options: Dict[str, Any] = dataclasses.field(default_factory=dict)
    aggregate: bool = False
    deterministic: bool = True
    id: int = -1

    def label(self) -> str:
        zone = f"  [session zone {self.zone}]" if self.zone != "UTC" else ""
        return f"{self.sql}{zone}"


INFIX = {"+", "-", "*", "/", "%", "div", "=", "==", "!=", "<>", "<", "<=", ">", ">=", "<=>",
         "and", "or", "mod"}


def sql_for(function: str, args: Sequence[Arg], options: Dict[str, Any]) -> str:
    """Spark SQL text for calling Bowstring's `function` on `args`."""
    parts = [_sql_arg(a) for a in args]
    if function in INFIX and len(args) == 2:
        return f"({parts[0]} {function} {parts[1]})"
    if function in ("not", "!"):
        return f"(NOT {parts[0]})"
    if function in ("cast", "try_cast"):
        return f"{function.upper()}({parts[0]} AS {options['to']})"
    if function == "in":
        return f"({parts[0]} IN ({', '.join(parts[1:])}))"
    if function == "between":
        return f"({parts[0]} BETWEEN {parts[1]} AND {parts[2]})"
    if function == "case_when":
        text = "CASE"
        for i in range(0, len(parts) - 1, 2):
            text += f" WHEN {parts[i]} THEN {parts[i + 1]}"
        if len(parts) % 2 == 1:
            text += f" ELSE {parts[-1]}"
        return text + " END"
    if function == "count_distinct":
        return f"count(DISTINCT {', '.join(parts)})"
    if function == "isnull":
        return f"({parts[0]} IS NULL)"
    if function == "isnotnull":
        return f"({parts[0]} IS NOT NULL)"
    return f"{function}({', '.join(parts)})"


class Catalogue:
    """Collects cases; `add` ignores functions that are not registered in Bowstring."""

    def __init__(self, registered: Iterable[str], zones: Sequence[str]) -> None:
        self.registered = set(registered)
        self.zones = list(zones)
        self.cases: List[Case] = []
        self.unregistered: set = set()

    def add(self, function: str, *args: Arg, zoned: bool = False, aggregate: bool = False,
            deterministic: bool = True, **options: Any) -> None:
        if function not in self.registered:
            self.unregistered.add(function)
            return
        sql = sql_for(function, args, options)
        for zone in self.zones if zoned else ["UTC"]:
            self.cases.append(Case(function, tuple(args), sql, zone, dict(options), aggregate,
                                   deterministic))


NUMERIC_COLUMNS = ["i8_a", "i16_a", "i32_a", "i64_a", "f32_a", "f64_a", "dec_a", "decw_a"]
BINARY_NUMERIC_PAIRS = [
    ("i8_a", "i8_b"), ("i16_a", "i16_b"), ("i32_a", "i32_b"), ("i64_a", "i64_b"),
    ("f32_a", "f32_b"), ("f64_a", "f64_b"), ("dec_a", "dec_b"), ("i32_a", "i64_b"),
    ("i8_a", "i32_b"), ("i64_a", "f64_b"), ("i32_a", "dec_b"), ("i64_a", "dec_b"),
    ("dec_a", "f64_b"), ("decw_a", "dec_b"), ("dec0_a", "dec_b"), ("decw_a", "decw_a"),
    ("snum_a", "i32_b"), ("i64_a", "snum_b"), ("snum_a", "f64_b"), ("f32_a", "i64_b"),
]
CAST_SOURCES = ["i8_a", "i16_a", "i32_a", "i64_a", "f32_a", "f64_a", "dec_a", "decw_a",
                "bool_a", "snum_a", "str_a", "sdate_a", "date_a", "ts_a", "ntz_a", "bin_a"]
CAST_TARGETS = ["tinyint", "smallint", "int", "bigint", "float", "double", "decimal(10,2)",
                "decimal(38,10)", "decimal(5,0)", "boolean", "string", "date", "timestamp",
                "timestamp_ntz", "binary"]
ZONED_COLUMNS = {"snum_a", "str_a", "sdate_a", "date_a", "ts_a", "ntz_a"}
ZONED_TARGETS = {"string", "date", "timestamp", "timestamp_ntz"}
COMPARISON_PAIRS = [
    ("i8_a", "i8_b"), ("i32_a", "i32_b"), ("i64_a", "i64_b"), ("f32_a", "f32_b"),
    ("f64_a", "f64_b"), ("dec_a", "dec_b"), ("bool_a", "bool_b"), ("str_a", "str_b"),
    ("date_a", "date_b"), ("ts_a", "ts_b"), ("bin_a", "bin_a"), ("i32_a", "f64_b"),
    ("i64_a", "dec_b"), ("snum_a", "i32_b"), ("snum_a", "f64_b"), ("sdate_a", "date_b"),
    ("date_a", "ts_b"), ("sdate_a", "ts_b"), ("f32_a", "f64_b"), ("snum_a", "bool_b"),
]
FORMAT_PATTERNS = [
    "yyyy-MM-dd", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm:ss.SSS",
    "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", "dd/MM/yyyy", "MM/dd/yy", "EEE, d MMM yyyy HH:mm:ss Z",
    "EEEE MMMM", "h:mm:ss a", "K k H", "D DDD", "Q QQQ QQQQ q", "yyyyy", "y yy yyy", "G GGGG",
    "z", "zzzz", "VV", "O OOOO", "x xx xxx", "XXX X", "MMMMM", "S SS", "SSSSSSSSS",
    "'at' HH 'o''clock'", "E", "u", "w", "Y", "L LLL", "e", "a", "B", "[yyyy]", "HH:mm:ss.SSSSSS",
    "F", "yyyy[-MM]", "{yyyy}", "yyyyyyy", "QQQQQ",
]
PARSE_PATTERNS = [
    "yyyy-MM-dd", "yyyy-MM-dd HH:mm:ss", "dd/MM/yyyy", "MM/dd/yy", "yyyyMMdd",
    "yyyy-MM-dd'T'HH:mm:ss", "yyyy-M-d", "d MMM yyyy", "yyyy-MM-dd HH:mm:ss.SSSSSS", "HH:mm",
    "yyyy-MM-dd HH:mm:ss.SSS", "yyyy-MM-dd HH:mm:ssXXX", "yyyy-MM-dd[ HH:mm:ss]",
    "EEE, d MMM yyyy",
]
TRUNC_UNITS = ["YEAR", "yyyy", "YY", "QUARTER", "MONTH", "mm", "MON", "WEEK", "DAY", "DD",
               "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "decade", ""]


def build_catalogue(registry: List[Dict[str, Any]], zones: Sequence[str]) -> Catalogue:
    names = [f["name"] for f in registry] + [a for f in registry for a in f.get("aliases", [])]
    cat = Catalogue(names, zones)
    add = cat.add

    # Arithmetic.
    for op in ["+", "-", "*", "/", "%", "div", "pmod", "try_add", "try_subtract",
               "try_multiply", "try_divide", "try_mod"]:
        for a, b in BINARY_NUMERIC_PAIRS:
            add(op, a, b)
        add(op, "i32_a", lit(0))
        add(op, "i64_a", lit(-1))
    for op in ["negative", "positive", "abs"]:
        for column in NUMERIC_COLUMNS + ["dec0_a", "snum_a"]:
            add(op, column)

    # Casts between every pair of basic types.
    for name in ["cast", "try_cast"]:
        for source in CAST_SOURCES:
            for target in CAST_TARGETS:
                add(name, source, to=target,
                    zoned=source in ZONED_COLUMNS and (target in ZONED_TARGETS
                                                       or source in {"date_a", "ts_a", "ntz_a"}))

    # Comparisons, logic, null tests, conditionals.
    for op in ["=", "==", "!=", "<>", "<", "<=", ">", ">=", "<=>", "equal_null"]:
        for a, b in COMPARISON_PAIRS:
            add(op, a, b, zoned=a in {"sdate_a"} or "date" in b)
    for op in ["and", "or"]:
        add(op, "bool_a", "bool_b")
        add(op, "bool_a", lit(None))
        add(op, "bool_a", lit(True))
    add("not", "bool_a")
    add("not", "snum_a")
    for column in ["i32_a", "f64_a", "str_a", "date_a", "ts_a", "dec_a", "bin_a", "bool_a"]:
        add("isnull", column)
        add("isnotnull", column)
    for column in ["f64_a", "f32_a", "i32_a", "dec_a", "snum_a"]:
        add("isnan", column)
    add("nanvl", "f64_a", "f64_b")
    add("nanvl", "f32_a", "f32_b")
    add("nanvl", "f32_a", "f64_b")
    add("nanvl", "f64_a", "i32_b")
    coalesce_sets = [("i32_a", "i32_b"), ("i32_a", "i64_b"), ("str_a", "str_b"),
                     ("f64_a", "i32_b"), ("i32_a", "i32_b", lit(7)), ("date_a", "ts_b"),
                     ("dec_a", "i64_b"), ("str_a", "i32_b"), ("i32_a", lit(None)),
                     ("bool_a", "bool_b", lit(False)), ("dec_a", "decw_a")]
    for args in coalesce_sets:
        add("coalesce", *args, zoned="date_a" in args)
    for name in ["nvl", "ifnull", "nullif", "equal_null"]:
        for args in [("i32_a", "i32_b"), ("i32_a", "i64_b"), ("f64_a", "f64_b"),
                     ("str_a", "str_b"), ("dec_a", "f64_b"), ("str_a", "i32_b"),
                     ("date_a", "date_b")]:
            add(name, *args)
    for args in [("str_a", "i32_a", "i32_b"), ("i32_a", "str_a", "i64_b"),
                 ("f64_a", "f64_a", lit(0.0))]:
        add("nvl2", *args)
    for args in [("bool_a", "i32_a", "i32_b"), ("bool_a", "i32_a", "i64_b"),
                 ("bool_a", "str_a", "i32_b"), ("bool_a", "f64_a", "dec_b"),
                 ("bool_a", "date_a", "ts_b"), ("bool_a", lit(None), "str_a"),
                 ("bool_a", "i32_a", lit(None))]:
        add("if", *args, zoned="date_a" in args)
    add("case_when", "bool_a", "i32_a", "bool_b", "i64_b", lit(0))
    add("case_when", "bool_a", "str_a", "bool_b", "str_b")
    add("case_when", "bool_a", "f64_a", "dec_b")
    add("case_when", "bool_a", "dec_a", "bool_b", "decw_a", "i32_b")
    add("case_when", "bool_a", "i32_a", "bool_b", "str_b", lit(None))
    add("in", "i32_a", "i32_b", lit(1), lit(2), lit(-7))
    add("in", "i32_a", lit(0), lit(1), lit(7), lit(10), lit(100), lit(2147483647), lit(-1),
        lit(2), lit(3), lit(4))
    add("in", "i32_a", lit(1), lit(None))
    add("in", "str_a", lit("hello"), lit(""), lit("ß"))
    add("in", "f64_a", lit(math.nan), lit(1.5), lit(-0.0))
    add("in", "i64_a", "i32_b", lit(0))
    add("in", "snum_a", lit(1), lit(2))
    add("in", "date_a", "date_b", lit("2020-01-01"))
    add("in", "dec_a", lit(1), lit(0.5))
    add("between", "i32_a", "i32_b", lit(100))
    add("between", "f64_a", lit(-1.0), lit(1.0))
    add("between", "str_a", lit("a"), lit("z"))
    add("between", "date_a", "date_b", lit("2020-01-01"))
    add("between", "i64_a", "dec_b", "f64_b")
    add("between", "snum_a", lit(0), lit(100))
    for name in ["greatest", "least"]:
        for args in [("i32_a", "i32_b"), ("i32_a", "i64_b", lit(3)), ("f64_a", "f64_b"),
                     ("str_a", "str_b"), ("date_a", "date_b"), ("dec_a", "decw_a"),
                     ("f64_a", "i32_b", "dec_b")]:
            add(name, *args)

    # Date and time, in every session zone.
    date_like = ["date_a", "ts_a", "sdate_a", "ntz_a"]
    for name in ["year", "month", "dayofmonth", "day", "dayofweek", "dayofyear", "quarter",
                 "weekofyear", "hour", "minute", "second"]:
        for column in date_like:
            add(name, column, zoned=True)
    for name in ["date_add", "date_sub"]:
        for args in [("date_a", "small_a"), ("date_a", "i32_a"), ("ts_a", "small_a"),
                     ("sdate_a", "small_a"), ("date_a", "i16_a"), ("date_a", "i8_a"),
                     ("date_a", "i64_a"), ("date_a", "snum_a"), ("ntz_a", "small_a")]:
            add(name, *args, zoned=True)
    for args in [("date_a", "date_b"), ("ts_a", "date_b"), ("sdate_a", "date_a"),
                 ("ts_a", "ts_b"), ("ntz_a", "date_a")]:
        add("datediff", *args, zoned=True)
    for args in [("date_a", "months_a"), ("date_a", "i32_a"), ("ts_a", "months_a"),
                 ("sdate_a", "months_a"), ("date_a", "i64_a"), ("date_a", "i16_a")]:
        add("add_months", *args, zoned=True)
    for args in [("ts_a", "ts_b"), ("date_a", "date_b"), ("ts_a", "ts_b", lit(False)),
                 ("sdate_a", "ts_a"), ("date_a", "ts_b"), ("ntz_a", "ts_b")]:
        add("months_between", *args, zoned=True)
    for name in ["to_date", "to_timestamp"]:
        for column in ["sdate_a", "ts_a", "date_a", "ntz_a", "snum_a"]:
            add(name, column, zoned=True)
        for pattern in PARSE_PATTERNS:
            add(name, "sdate_a", lit(pattern), zoned=True)
    for pattern in FORMAT_PATTERNS:
        add("date_format", "ts_a", lit(pattern), zoned=True)
    for pattern in ["yyyy-MM-dd", "yyyy-MM-dd HH:mm:ss EEE", "D Q"]:
        add("date_format", "date_a", lit(pattern), zoned=True)
        add("date_format", "sdate_a", lit(pattern), zoned=True)
        add("date_format", "ntz_a", lit(pattern), zoned=True)
    for unit in TRUNC_UNITS:
        add("date_trunc", lit(unit), "ts_a", zoned=True)
        add("trunc", "date_a", lit(unit), zoned=True)
    add("date_trunc", lit("DAY"), "date_a", zoned=True)
    add("date_trunc", lit("MONTH"), "sdate_a", zoned=True)
    add("trunc", "ts_a", lit("MM"), zoned=True)
    add("trunc", "sdate_a", lit("YEAR"), zoned=True)
    for args in [("ts_a",), ("date_a",), ("sdate_a",), ("ntz_a",)]:
        add("unix_timestamp", *args, zoned=True)
    for pattern in PARSE_PATTERNS[:6]:
        add("unix_timestamp", "sdate_a", lit(pattern), zoned=True)
    add("from_unixtime", "secs_a", zoned=True)
    add("from_unixtime", "i64_a", zoned=True)
    add("from_unixtime", "i32_a", zoned=True)
    for pattern in ["yyyy-MM-dd", "yyyy-MM-dd HH:mm:ss.SSS", "EEE MMM d HH:mm:ss z yyyy", "u"]:
        add("from_unixtime", "secs_a", lit(pattern), zoned=True)
    add("current_date", deterministic=False, zoned=True)
    add("current_timestamp", deterministic=False)

    # Strings.
    strings = ["str_a", "snum_a"]
    for name in ["length", "char_length", "character_length", "upper", "lower", "ucase",
                 "lcase", "trim", "ltrim", "rtrim", "reverse", "initcap", "ascii", "bit_length",
                 "octet_length"]:
        for column in strings + ["i32_a", "bin_a", "date_a"]:
            add(name, column)
    for name in ["trim", "ltrim", "rtrim"]:
        add(name, "str_a", lit("a "))
    for name in ["substring", "substr"]:
        add(name, "str_a", "pos_a")
        add(name, "str_a", "pos_a", "pos_a")
        add(name, "str_a", lit(2), lit(3))
        add(name, "str_a", lit(-3), lit(2))
        add(name, "str_a", lit(0), lit(1))
        add(name, "bin_a", lit(2), lit(2))
        add(name, "i32_a", lit(1), lit(2))
    add("concat", "str_a", "str_b")
    add("concat", "str_a", "i32_a", "snum_b")
    add("concat", "str_a", lit(None))
    add("concat", "bin_a", "bin_a")
    add("concat_ws", lit(","), "str_a", "str_b", lit(None))
    add("concat_ws", "str_b", "str_a", "snum_a")
    add("concat_ws", lit("-"), "i32_a", "date_a")
    for name in ["contains", "startswith", "endswith"]:
        add(name, "str_a", "str_b")
        add(name, "str_a", lit(""))
        add(name, "str_a", lit("a"))
        add(name, "snum_a", lit("1"))
        add(name, "bin_a", "bin_a")
    for pattern in ["%a%", "a%", "%o", "_", "a_c", "%", "", "ab\\%%", "%\\_%", "h%o", "%ß%"]:
        add("like", "str_a", lit(pattern))
    add("like", "str_a", "str_b")
    for pattern in ["^a", "[0-9]+", "(?i)HELLO", "\\s+", "^$", "o.", "ß|ü", "\\p{L}+", "a{2,}"]:
        add("rlike", "str_a", lit(pattern))
        add("regexp_extract", "str_a", lit(f"({pattern})"), lit(1))
        add("regexp_replace", "str_a", lit(pattern), lit("<$0>"))
    add("regexp_extract", "str_a", lit("([a-z]+)([0-9]*)"), lit(2))
    add("regexp_extract", "str_a", lit("([a-z]+)"), lit(0))
    add("regexp_extract", "str_a", lit("([a-z]+)"), lit(3))
    add("regexp_replace", "str_a", lit("(\\w)(\\w)"), lit("$2$1"))
    add("regexp_replace", "str_a", lit("a"), lit("\\$"))
    add("replace", "str_a", lit("a"), lit("XY"))
    add("replace", "str_a", lit(""), lit("X"))
    add("replace", "str_a", lit("l"))
    add("replace", "str_a", "str_b", lit("-"))
    for args in [("str_a", lit(",")), ("str_a", lit(" ")), ("str_a", lit("")),
                 ("str_a", lit("[, ]+")), ("str_a", lit(","), lit(2)), ("str_a", lit("a"),
                                                                          lit(-1)),
                 ("str_a", lit("a"), lit(0))]:
        add("split", *args)
    for name in ["lpad", "rpad"]:
        add(name, "str_a", "pos_a", lit("xy"))
        add(name, "str_a", lit(5))
        add(name, "str_a", lit(8), lit("ab"))
        add(name, "str_a", lit(3), lit(""))
        add(name, "str_a", lit(6), lit("日"))
        add(name, "bin_a", lit(6), "bin_a")
    for pattern in ["%A%", "h%", "%SS%", "_", "%ǅ%", "İ%"]:
        add("ilike", "str_a", lit(pattern))
    for name in ["left", "right"]:
        add(name, "str_a", "pos_a")
        add(name, "str_a", lit(3))
        add(name, "str_a", lit(0))
    add("repeat", "str_a", "pos_a")
    add("repeat", "str_a", lit(3))
    add("repeat", "snum_a", lit(0))
    add("translate", "str_a", lit("abc"), lit("xy"))
    add("translate", "str_a", lit("ßa"), lit("日"))
    add("translate", "str_a", "str_b", lit("-"))
    add("instr", "str_a", "str_b")
    add("instr", "str_a", lit("a"))
    add("instr", "str_a", lit(""))
    add("instr", "snum_a", lit("1"))
    add("locate", "str_b", "str_a")
    add("locate", lit("a"), "str_a", "pos_a")

    # Hashes.
    for name in ["hash", "xxhash64"]:
        for column in CAST_SOURCES + ["dec0_a", "i64_b", "f32_b"]:
            add(name, column)
        add(name, "i32_a", "str_a")
        add(name, "i64_a", "f64_a", "date_a", "ts_a")
        add(name, "str_a", "bin_a", "bool_a", "dec_a", "decw_a")
        add(name, lit(None))
        add(name, "i32_a", lit(None), "str_a")

    # Collections. Arrays of ints (ai_a, ai_b), strings (as_a), doubles with NaN and -0.0
    # (af_a), arrays of arrays (aai_a), of structs (ast_a), maps (m_a); idx_a holds indices
    # around the arrays' sizes, 0 and nulls.
    arrays = ["ai_a", "as_a", "af_a", "aai_a", "ast_a"]
    for name in ["size", "cardinality", "array_size", "reverse", "array_distinct",
                 "array_compact", "sort_array", "array_sort", "array_max", "array_min"]:
        for column in arrays:
            add(name, column)
    add("sort_array", "ai_a", lit(False))
    add("sort_array", "as_a", lit(False))
    for column, value, other in [("ai_a", "small_a", "ai_b"), ("ai_a", lit(1), "ai_b"),
                                 ("as_a", lit("a"), "as_a"), ("af_a", lit(float("nan")), "af_a"),
                                 ("af_a", lit(0.0), "af_a")]:
        for name in ["array_contains", "array_position", "array_remove", "array_append",
                     "array_prepend"]:
            add(name, column, value)
        for name in ["array_union", "array_intersect", "array_except", "arrays_overlap",
                     "concat"]:
            add(name, column, other)
    add("array_contains", "ai_a", lit(None))
    add("array_contains", "ai_a", "i64_a")
    for name in ["element_at", "try_element_at", "get"]:
        for column in ["ai_a", "as_a", "ast_a"]:
            add(name, column, "idx_a")
            add(name, column, lit(1))
    add("element_at", "ai_a", lit(-1))
    add("slice", "ai_a", "idx_a", lit(2))
    add("slice", "as_a", lit(-2), lit(3))
    add("slice", "ai_a", lit(1), "idx_a")
    add("array_repeat", "str_a", "idx_a")
    add("array_repeat", "i32_a", lit(2))
    add("flatten", "aai_a")
    add("array_join", "as_a", lit(","))
    add("array_join", "as_a", lit("-"), lit("?"))
    add("arrays_zip", "ai_a", "as_a")
    add("array", "i32_a", "i64_a")
    add("array", "str_a", lit(None))
    add("array", "i32_a", "str_a")
    for name in ["map_keys", "map_values", "map_entries", "size"]:
        add(name, "m_a")
    for name in ["element_at", "try_element_at", "map_contains_key"]:
        add(name, "m_a", "small_a")
        add(name, "m_a", lit(1))
    add("map_concat", "m_a", "m_a")
    add("map_from_arrays", "ai_a", "ai_b")
    add("map_from_arrays", "ai_a", "as_a")
    add("map_from_entries", "ast_a")
    add("map", "i32_a", "str_a")
    add("map", "small_a", "str_a", lit(7), "str_b")
    add("create_map", "i32_a", "str_a", "i32_b", "str_b")
    add("array_insert", "ai_a", "idx_a", "small_a")
    add("array_insert", "as_a", lit(-1), "str_a")
    add("array_insert", "ai_a", lit(-6), lit(None))
    add("sequence", "idx_a", "pos_a")
    add("sequence", "idx_a", lit(3))
    add("sequence", lit(-2), "idx_a", lit(2))
    add("sequence", "i8_a", "i8_b")
    add("str_to_map", "str_a")
    add("str_to_map", lit("a:1,b:2,c"))
    add("str_to_map", "str_a", lit("a"), lit("b"))
    add("str_to_map", "snum_a", lit("[.]"), lit("1"))
    add("struct", "i32_a", "str_a")
    add("named_struct", lit("k"), "i32_a", lit("v"), "ai_a")

    # Digests, byte encodings and UTF-8 validation.
    for name in ["md5", "sha1", "sha", "crc32", "base64", "hex"]:
        for column in ["str_a", "bin_a", "i32_a"]:
            add(name, column)
    for bits in [0, 224, 256, 384, 512, 1, -256, None]:
        add("sha2", "str_a", lit(bits))
    add("sha2", "bin_a", "small_a")
    for column in ["i64_a", "i8_a", "f64_a", "dec_a", "snum_a"]:
        add("hex", column)
    for name in ["unbase64", "unhex", "is_valid_utf8", "make_valid_utf8", "validate_utf8",
                 "try_validate_utf8"]:
        for column in strings + ["bin_a"]:
            add(name, column)
    for text in ["YWI=", "YQ", "a", "Y Q=", "YQ==YQ==", "=", "w6nml6U=", "abc", "zz", "0AFF"]:
        add("unbase64", lit(text))
        add("unhex", lit(text))

    for charset in ["UTF-8", "utf-16", "UTF-16BE", "UTF-16LE", "UTF-32", "ISO-8859-1",
                    "US-ASCII", "WINDOWS-1252"]:
        add("encode", "str_a", lit(charset))
        add("decode", "bin_a", lit(charset))
    add("decode", "str_a", lit("UTF-16"))

    for name in ["to_binary", "try_to_binary"]:
        for column in strings:
            add(name, column)
        for fmt in ["hex", "HEX", "utf-8", "utf8", "base64", "xyz"]:
            add(name, "str_a", lit(fmt))
            add(name, "snum_a", lit(fmt))
        for text in ["YWI=", "YWI", "Y W I =", "YQ==YQ==", "a", "YW!=", "abc", "zz", ""]:
            add(name, lit(text), lit("base64"))
            add(name, lit(text))

    # Parts by delimiter, distances and codes.
    for count in [2, -2, 1, -1, 0, 9]:
        add("substring_index", "str_a", lit("a"), lit(count))
        add("substring_index", "str_a", lit(" "), lit(count))
    add("substring_index", "str_a", "str_b", "small_a")
    add("substring_index", "str_a", lit(""), lit(1))
    for part in [1, 2, -1, -3, 9]:
        add("split_part", "str_a", lit(" "), lit(part))
        add("split_part", "str_a", lit("a"), lit(part))
    add("split_part", "str_a", lit(""), lit(1))
    add("split_part", "str_a", lit("a"), lit(0))
    add("split_part", "str_a", "str_b", "small_a")
    add("find_in_set", "str_b", "str_a")
    add("find_in_set", lit("a"), "str_a")
    add("find_in_set", lit(""), "str_a")
    add("find_in_set", "snum_a", lit("1,2,-1,0,,1.5"))
    add("elt", "small_a", "str_a", "str_b")
    add("elt", lit(1), "str_a", "str_b")
    add("elt", lit(1), "bin_a", "bin_a")
    add("elt", lit(3), "str_a", "str_b")
    add("levenshtein", "str_a", "str_b")
    add("levenshtein", "str_a", "snum_a")
    for threshold in [0, 2, 5, -1]:
        add("levenshtein", "str_a", "str_b", lit(threshold))
    for name in ["soundex", "quote", "btrim"]:
        for column in strings + ["i32_a"]:
            add(name, column)
    add("btrim", "str_a", lit("a "))
    add("btrim", "str_a", "str_b")
    for args in [(lit("_"), lit(3)), (lit("日本"), lit(2), lit(0)), ("str_b", "small_a"),
                 ("str_b", lit(-2)), (lit("xy"), lit(1), lit(-1)), ("str_b", lit(2), "small_a")]:
        add("overlay", "str_a", *args)
    add("overlay", "bin_a", "bin_a", lit(2))
    for column in ["i64_a", "i32_a", "i8_a", "snum_a"]:
        add("bin", column)
    for name in ["chr", "char"]:
        for column in ["i64_a", "i32_a", "small_a", "i8_a"]:
            add(name, column)

    # Aggregates over the whole column.
    for name in ["count", "sum", "avg", "mean", "min", "max", "first", "last", "any_value",
                 "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop",
                 "count_distinct", "approx_count_distinct", "collect_list", "collect_set",
                 "bool_and", "bool_or", "every", "some", "try_sum", "try_avg"]:
        for column in ["i32_a", "i64_a", "f64_a", "dec_a", "decw_a", "str_a", "bool_a",
                       "date_a", "small_a", "i8_a"]:
            add(name, column, aggregate=True)
    return cat


SIGNATURE_TYPES = {
    "numeric": ["i32_a", "i64_a", "f64_a", "dec_a"], "int": ["i32_a", "small_a"],
    "bigint": ["i64_a"], "double": ["f64_a"], "float": ["f32_a"], "boolean": ["bool_a"],
    "string": ["str_a", "snum_a"], "date": ["date_a"], "timestamp": ["ts_a"],
    "decimal": ["dec_a"], "binary": ["bin_a"], "any": ["i32_a", "str_a"],
    "T": ["i32_a", "str_a", "f64_a", "date_a"], "smallint": ["i16_a"], "tinyint": ["i8_a"],
}


def signature_cases(cat: Catalogue, function: Dict[str, Any]) -> None:
    """Cases for a function the catalogue does not know, from its signatures: every argument
    type named in a signature (optional arguments with and without), one column of each."""
    for signature in function["signatures"]:
        match = re.match(r"\((.*)\)\s*->", signature)
        if match is None:
            continue
        text = match.group(1)
        required = re.sub(r"\[.*\]", "", text)
        # Sorted, so that the cases (and their ids, which --reuse relies on) never depend on
        # the order a set iterates in.
        variants = sorted({required, text.replace("[", "").replace("]", "")})
        for variant in variants:
            # An argument reads "type" or "name: type".
            words = [w.split(":")[-1].strip().rstrip(".") for w in variant.split(",")
                     if w.strip()]
            if any(w not in SIGNATURE_TYPES for w in words):
                continue
            choices = [SIGNATURE_TYPES[w] for w in words]
            width = max((len(c) for c in choices), default=1)
            for k in range(width):
                args = [c[k % len(c)] if c is not SIGNATURE_TYPES["T"] or i == 0
                        else SECOND_COLUMN.get(c[k % len(c)], c[k % len(c)])
                        for i, c in enumerate(choices)]
                cat.add(function["name"], *args,
                        aggregate=function["kind"] == "aggregate",
                        zoned=any(a in ZONED_COLUMNS for a in args))


# ---------------------------------------------------------------------------------------------
# Running Bowstring and comparing.
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Outcome:
    """One row's result: a value or an error (condition, message)."""

    value: Any = None
    error: Optional[Tuple[str, str]] = None


def _condition_of(error: BaseException) -> Tuple[str, str]:
    getter = getattr(error, "getCondition", None)
    condition = getter() if callable(getter) else ""
    message = str(error).split("\n")[0]
    return (condition or type(error).__name__, message)


def _is_analysis_error(error: BaseException) -> bool:
    from bowstring import errors

    if isinstance(error, errors.AnalysisException):
        return True
    return not isinstance(error, errors.SparkRuntimeException)


def _normalise(array: Any) -> List[Any]:
    """Python values of an Arrow array with timestamps as microseconds and dates as days, so
    that zones and units of the two sides do not matter."""
    import pyarrow as pa

    t = array.type
    if pa.types.is_timestamp(t):
        return array.cast(pa.timestamp("us", tz=t.tz)).cast(pa.int64()).to_pylist()
    if pa.types.is_date32(t):
        return array.cast(pa.int32()).to_pylist()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        value_type = t.value_type
        if pa.types.is_timestamp(value_type) or pa.types.is_date32(value_type):
            plain = pa.int64() if pa.types.is_timestamp(value_type) else pa.int32()
            return array.cast(pa.list_(plain)).to_pylist()
    if pa.types.is_dictionary(t):
        return _normalise(array.dictionary_decode())
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        # Strings may hold bytes that are not UTF-8 (binary cast to string): keep them exactly.
        binary = pa.binary() if pa.types.is_string(t) else pa.large_binary()
        return [None if v is None else v.decode("utf-8", "surrogateescape")
                for v in array.view(binary).to_pylist()]
    return array.to_pylist()


def _same(spark: Any, ours: Any) -> bool:
    if isinstance(spark, float) and isinstance(ours, float):
        if math.isnan(spark) or math.isnan(ours):
            return math.isnan(spark) and math.isnan(ours)
        return struct.pack("d", spark) == struct.pack("d", ours)
    if isinstance(spark, list) and isinstance(ours, list):
        return len(spark) == len(ours) and all(_same(a, b) for a, b in zip(spark, ours))
    if isinstance(spark, decimal.Decimal) and isinstance(ours, decimal.Decimal):
        return spark == ours and spark.as_tuple().exponent == ours.as_tuple().exponent
    if type(spark) is not type(ours) and not (isinstance(spark, (int, float))
                                             and isinstance(ours, (int, float))):
        return False
    return spark == ours and type(spark) is type(ours)


class BowstringSide:
    """Evaluates cases with bowstring.compute.call."""

    def __init__(self, inputs: Any) -> None:
        import pyarrow as pa

        self.pa = pa
        self.inputs = inputs
        self.columns = {name: inputs.column(name).combine_chunks() for name in inputs.column_names}

    def _args(self, case: Case, row: Optional[int]) -> List[Any]:
        values = []
        for arg in case.args:
            if isinstance(arg, Lit):
                values.append(arg.value)
            else:
                column = self.columns[arg]
                values.append(column if row is None else column.slice(row, 1))
        return values

    def _call(self, case: Case, row: Optional[int]) -> Any:
        from bowstring import compute

        result = compute.call(case.function, *self._args(case, row),
                              session_time_zone=case.zone, **case.options)
        return self.pa.array(result)

    def evaluate(self, case: Case) -> Tuple[Optional[Tuple[str, str]], str, List[Outcome]]:
        """(error of the whole call, result type, one outcome per row)."""
        rows = self.inputs.num_rows
        try:
            array = self._call(case, None)
        except Exception as error:  # noqa: BLE001 - every error is a result to compare
            if case.aggregate or _is_analysis_error(error):
                return _condition_of(error), "", []
        else:
            values = _normalise(array)
            if case.aggregate:
                return None, _spark_type_name(array.type), [Outcome(values[0] if values
                                                                    else None)]
            if len(values) == 1 and rows != 1 and all(isinstance(a, Lit) for a in case.args):
                values = values * rows
            return None, _spark_type_name(array.type), [Outcome(v) for v in values]
        outcomes = []
        result_type = ""
        for row in range(rows):
            try:
                array = self._call(case, row)
                result_type = _spark_type_name(array.type)
                outcomes.append(Outcome(_normalise(array)[0]))
            except Exception as error:  # noqa: BLE001
                outcomes.append(Outcome(error=_condition_of(error)))
        return None, result_type, outcomes


def _show(value: Any) -> str:
    if isinstance(value, float):
        if value == 0.0:
            return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    return repr(value)


def _show_input(column: str, value: Any, pa_type: Any) -> str:
    import pyarrow as pa

    if value is not None and pa.types.is_timestamp(pa_type):
        zone = "Z" if pa_type.tz else ""
        moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=value) \
            if -62135596800000000 <= value <= 253402300799999999 else None
        text = moment.isoformat() + zone if moment else "out of datetime range"
        return f"{column}={value}us ({text})"
    if value is not None and pa.types.is_date32(pa_type):
        moment = datetime.date(1970, 1, 1) + datetime.timedelta(days=value) \
            if -719162 <= value <= 2932896 else None
        return f"{column}={value}d ({moment.isoformat() if moment else 'out of range'})"
    return f"{column}={_show(value)}"


@dataclasses.dataclass
class CaseReport:
    case: Case
    rows_compared: int = 0
    problem: str = ""
    rows: List[Tuple[int, str, str]] = dataclasses.field(default_factory=list)


def _outcome_text(outcome: Outcome) -> str:
    if outcome.error is not None:
        return f"ERROR {outcome.error[0]} ({outcome.error[1][:160]})"
    return _show(outcome.value)


def compare(cases: List[Case], inputs: Any, results: Any, case_errors: Dict[str, str],
            aggregates: Dict[str, Any], case_types: Dict[str, str]) -> List[CaseReport]:
    side = BowstringSide(inputs)
    normalised_inputs = {name: _normalise(inputs.column(name).combine_chunks())
                         for name in inputs.column_names}
    reports = []
    for case in cases:
        report = CaseReport(case)
        reports.append(report)
        key = str(case.id)
        try:
            our_error, our_type, ours = side.evaluate(case)
        except Exception as error:  # noqa: BLE001 - a broken result is a finding, not a stop
            report.problem = f"Bowstring's result could not be read: {error!r}"
            continue
        spark_error = case_errors.get(key)
        if spark_error is not None and spark_error.split("\t")[0] in ("PLAN",):
            report.problem = f"not compared: {spark_error}"
            continue
        spark_analysis = spark_error is not None and (
            case.aggregate or f"v{key}" not in results.column_names)
        if spark_analysis or our_error is not None:
            if spark_analysis and our_error is not None:
                report.rows_compared = 1
                continue
            if spark_analysis:
                condition, _, message = spark_error.partition("\t")
                if case.aggregate:
                    report.problem = (f"Spark raises {condition} ({message[:200]}); Bowstring "
                                      f"returns {_outcome_text(ours[0])}")
                else:
                    report.problem = (f"Spark rejects the call ({condition}: {message[:200]}); "
                                      f"Bowstring returns values of type {our_type}")
            else:
                report.problem = (f"Bowstring rejects the call ({our_error[0]}: "
                                  f"{our_error[1][:200]}); Spark accepts it")
            continue
        if spark_error is not None:
            report.problem = f"Spark failed to evaluate the expression: {spark_error}"
            continue
        if case.aggregate:
            spark_result = aggregates[key]
            spark_value = _from_plain(spark_result["value"])
            ours_value = ours[0].value
            report.rows_compared = 1
            if spark_result["type"] != our_type:
                report.problem = f"result type: Spark {spark_result['type']}, ours {our_type}"
            if not _same_aggregate(spark_value, ours_value):
                report.rows.append((-1, _show(spark_value), _outcome_text(ours[0])))
            continue
        spark_type = case_types[key]
        column = results.column(f"v{key}").combine_chunks()
        if spark_type == "string":
            # Spark's strings come as their bytes (see RowEvaluator).
            values = [None if v is None else v.decode("utf-8", "surrogateescape")
                      for v in column.to_pylist()]
        else:
            values = _normalise(column)
        errors = results.column(f"e{key}").to_pylist()
        if our_type and spark_type != our_type:
            report.problem = f"result type: Spark {spark_type}, ours {our_type}"
        if not case.deterministic:
            report.rows_compared = 1
            continue
        for row, outcome in enumerate(ours):
            report.rows_compared += 1
            if errors[row] is None:
                spark_outcome = Outcome(values[row])
            else:
                condition, _, message = errors[row].partition("\t")
                spark_outcome = Outcome(error=(condition, message))
            if spark_outcome.error is not None or outcome.error is not None:
                if spark_outcome.error is not None and outcome.error is not None and \
                        spark_outcome.error[0] == outcome.error[0]:
                    continue
            elif _same(spark_outcome.value, outcome.value):
                continue
            shown = ", ".join(
                _show_input(arg, normalised_inputs[arg][row], inputs.schema.field(arg).type)
                for arg in case.args if not isinstance(arg, Lit))
            report.rows.append((row, shown, _outcome_text(spark_outcome) + "\0"
                                + _outcome_text(outcome)))
    return reports


def _from_plain(value: Any) -> Any:
    if isinstance(value, dict):
        if "float" in value:
            return struct.unpack(">d", bytes.fromhex(value["float"]))[0]
        if "decimal" in value:
            return decimal.Decimal(value["decimal"])
        if "bytes" in value:
            return bytes.fromhex(value["bytes"])
        return value.get("repr")
    if isinstance(value, list):
        return [_from_plain(v) for v in value]
    return value


def _same_aggregate(spark: Any, ours: Any) -> bool:
    if isinstance(spark, list) and isinstance(ours, list):
        try:
            return _same(sorted(spark, key=repr), sorted(ours, key=repr))
        except TypeError:
            return False
    if isinstance(spark, float) and isinstance(ours, float) and not math.isnan(spark):
        return spark == ours or abs(spark - ours) <= 1e-12 * max(abs(spark), abs(ours))
    if isinstance(spark, str) and not isinstance(ours, str) and ours is not None:
        return spark == repr(ours)
    return _same(spark, ours)


def render(reports: List[CaseReport], examples: int, unregistered: Iterable[str],
           uncovered: Iterable[str], elapsed: float) -> Tuple[str, int]:
    """The report text and the number of mismatching cases."""
    by_function: Dict[str, List[CaseReport]] = {}
    for report in reports:
        by_function.setdefault(report.case.function, []).append(report)
    lines = ["Spark differential report", "=" * 25, ""]
    lines.append(f"{'function':<24}{'cases':>7}{'rows':>9}{'bad cases':>11}{'bad rows':>10}")
    total_bad = 0
    for function in sorted(by_function):
        group = by_function[function]
        bad_cases = [r for r in group if r.problem or r.rows]
        total_bad += len(bad_cases)
        lines.append(f"{function:<24}{len(group):>7}{sum(r.rows_compared for r in group):>9}"
                     f"{len(bad_cases):>11}{sum(len(r.rows) for r in group):>10}")
    lines.append("")
    lines.append(f"{len(reports)} cases, {sum(r.rows_compared for r in reports)} rows compared, "
                 f"{total_bad} cases differ ({elapsed:.0f} s)")
    if unregistered:
        lines.append("In the catalogue but not registered in Bowstring (not compared): "
                     + ", ".join(sorted(unregistered)))
    if uncovered:
        lines.append("Registered but without any case (signatures not understood): "
                     + ", ".join(sorted(uncovered)))
    lines.append("")
    for function in sorted(by_function):
        for report in by_function[function]:
            if not (report.problem or report.rows):
                continue
            lines.append(f"--- {function}: {report.case.label()}")
            if report.problem:
                lines.append(f"    {report.problem}")
            if report.rows:
                lines.append(f"    {len(report.rows)} of {report.rows_compared} rows differ")
            for row, shown, outcomes in report.rows[:examples]:
                spark_text, _, ours_text = outcomes.partition("\0")
                if row < 0:
                    lines.append(f"    aggregate: Spark {shown}; ours {spark_text}")
                    continue
                lines.append(f"    row {row}: {shown}")
                lines.append(f"        Spark: {spark_text}")
                lines.append(f"        ours:  {ours_text}")
            lines.append("")
    return "\n".join(lines), total_bad


def run_spark(spark_python: str, job_dir: Path, classes: Path, java_home: str) -> None:
    env = dict(os.environ)
    if java_home:
        env["JAVA_HOME"] = java_home
        env["PATH"] = os.path.join(java_home, "bin") + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONPATH", None)
    log = job_dir / "spark.log"
    with open(log, "w") as sink:
        completed = subprocess.run(
            [spark_python, os.path.abspath(__file__), "--spark-worker", str(job_dir),
             "--classes", str(classes)],
            env=env, stdout=sink, stderr=subprocess.STDOUT)
    if completed.returncode != 0:
        tail = log.read_text().splitlines()[-30:]
        raise RuntimeError("the Spark side failed:\n" + "\n".join(tail))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--only", default="", help="regular expression on function names")
    parser.add_argument("--zones", default=",".join(DEFAULT_ZONES))
    parser.add_argument("--examples", type=int, default=4)
    parser.add_argument("--report", default="")
    parser.add_argument("--spark-python",
                        default=os.environ.get("SPARK_PYTHON", DEFAULT_SPARK_PYTHON))
    parser.add_argument("--keep", default="")
    parser.add_argument("--reuse", action="store_true",
                        help="with --keep: reuse Spark's results already in that directory")
    parser.add_argument("--spark-worker", default="", help=argparse.SUPPRESS)
    parser.add_argument("--classes", default="", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.spark_worker:
        spark_worker(options.spark_worker, options.classes)
        return 0

    import pyarrow as pa

    from bowstring import compute

    started = time.time()
    java_home = os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    registry = compute.functions()
    cat = build_catalogue(registry, options.zones.split(","))
    def names_of(function: Dict[str, Any]) -> set:
        return {function["name"], *function.get("aliases", [])}

    known = {c.function for c in cat.cases}
    for function in registry:
        if not names_of(function) & known:
            signature_cases(cat, function)
    covered = {c.function for c in cat.cases}
    uncovered = [f["name"] for f in registry if not names_of(f) & covered]
    if options.only:
        pattern = re.compile(options.only)
        cat.cases = [c for c in cat.cases if pattern.fullmatch(c.function)]
        uncovered = [u for u in uncovered if pattern.fullmatch(u)]
    cases = [Case("rid", ("rid",), "`rid`")] + cat.cases
    for index, case in enumerate(cases):
        case.id = index

    inputs = make_inputs(options.rows, options.seed)
    job_dir = Path(options.keep) if options.keep else Path(tempfile.mkdtemp(
        prefix="spark-differential-"))
    job_dir.mkdir(parents=True, exist_ok=True)
    with pa.OSFile(str(job_dir / "inputs.arrow"), "wb") as sink:
        with pa.ipc.new_file(sink, inputs.schema) as writer:
            writer.write_table(inputs)
    def case_key(case: Dict[str, Any]) -> Tuple[str, str, bool]:
        return (case["sql"], case["zone"], case["aggregate"])

    case_list = [{"id": c.id, "sql": c.sql, "zone": c.zone, "aggregate": c.aggregate}
                 for c in cases]
    cases_file = job_dir / "cases.json"
    if options.reuse and cases_file.exists():
        # Spark's results are found by case, so a run with --only (or with functions added
        # since) compares any case Spark already evaluated.
        stored = {case_key(c): c["id"] for c in json.loads(cases_file.read_text())}
        missing = [c["sql"] for c in case_list if case_key(c) not in stored]
        if missing:
            print(f"--reuse: skipping {len(missing)} cases Spark has not evaluated in that run "
                  f"({', '.join(missing[:5])}{'...' if len(missing) > 5 else ''}); run "
                  "without --reuse to compare them", file=sys.stderr)
        kept = [(case, listed) for case, listed in zip(cases, case_list)
                if case_key(listed) in stored]
        cases = [case for case, _ in kept]
        for case, listed in kept:
            case.id = stored[case_key(listed)]
    else:
        cases_file.write_text(json.dumps(case_list))
    print(f"{len(cases)} cases on {options.rows} rows; running Spark ({job_dir})",
          file=sys.stderr)
    if not (options.reuse and (job_dir / "results.arrow").exists()):
        classes = _compile_java(options.spark_python, java_home)
        run_spark(options.spark_python, job_dir, classes, java_home)
    with pa.OSFile(str(job_dir / "results.arrow"), "rb") as source:
        results = pa.ipc.open_file(source).read_all()
    case_errors = json.loads((job_dir / "case_errors.json").read_text())
    aggregates = json.loads((job_dir / "aggregates.json").read_text())
    case_types = json.loads((job_dir / "case_types.json").read_text())
    if results.column_names and "v0" in results.column_names:
        order = results.column("v0").to_pylist()
        if order != list(range(options.rows)):
            raise RuntimeError("Spark evaluated the rows out of order")
    print("comparing", file=sys.stderr)
    reports = compare(cases[1:], inputs, results, case_errors, aggregates, case_types)
    text, bad = render(reports, options.examples, cat.unregistered - covered, uncovered,
                       time.time() - started)
    print(text)
    if options.report:
        Path(options.report).write_text(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
