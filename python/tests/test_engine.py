"""The query engine through its Python binding: expressions, each plan builder, explain in
Spark's shapes, analysis errors with Spark's conditions, runtime errors, cancellation by
SIGINT, memory limits, and zero-copy results."""

from __future__ import annotations

import datetime
import decimal
import gc
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pyarrow as pa
import pytest

from bowstring import _core
from bowstring.errors import AnalysisException, ArithmeticException, ParseException
from engine_support import E, call, col, lit

LogicalPlan = _core.LogicalPlan
PYTHON_DIRECTORY = Path(__file__).resolve().parent.parent


def rows(plan: LogicalPlan, **options: Any) -> List[tuple]:
    table = pa.table(_core.execute(plan, **options))
    return [tuple(row.values()) for row in table.to_pylist()]


@pytest.fixture
def people() -> LogicalPlan:
    return LogicalPlan.from_arrow(
        pa.table(
            {
                "name": ["ann", "bob", "cid", None, "eve"],
                "age": pa.array([31, None, 25, 40, 31], pa.int32()),
                "city": ["Oslo", "Lima", "Oslo", "Lima", None],
            }
        )
    )


# --- expressions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, arrow_type, text",
    [
        (None, pa.null(), "NULL"),
        (True, pa.bool_(), "true"),
        (7, pa.int32(), "7"),
        (2**40, pa.int64(), "1099511627776L"),
        (-(2**63), pa.int64(), "-9223372036854775808L"),
        (1.5, pa.float64(), "1.5D"),
        ("it's", pa.string(), "'it\\'s'"),
        (b"\x01", pa.binary(), "X'01'"),
        (decimal.Decimal("-12.50"), pa.decimal128(4, 2), "-12.50BD"),
        (decimal.Decimal("15E2"), pa.decimal128(4, 0), "1500BD"),
        (decimal.Decimal("0.001"), pa.decimal128(3, 3), "0.001BD"),
        (datetime.date(2024, 2, 29), pa.date32(), "DATE '2024-02-29'"),
        (
            datetime.datetime(2024, 1, 2, 3, 4, 5, 6),
            pa.timestamp("us"),
            "TIMESTAMP_NTZ '2024-01-02 03:04:05.000006'",
        ),
        (
            datetime.datetime(2024, 1, 2, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
            pa.timestamp("us", tz="UTC"),
            "TIMESTAMP '2024-01-02 03:00:00'",
        ),
    ],
)
def test_literals_of_python_values_are_typed_as_spark_types_them(
    value: object, arrow_type: pa.DataType, text: str
) -> None:
    literal = lit(value)
    assert str(literal) == text
    table = pa.table(_core.execute(LogicalPlan.range(0, 1).select([literal.alias("v")])))
    assert table.schema.field("v").type == arrow_type
    expected = value
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        expected = value.astimezone(datetime.timezone.utc)
    assert table.column("v").to_pylist() == [expected]


def test_literal_of_a_one_value_arrow_array_keeps_its_type() -> None:
    literal = lit(pa.array([None], pa.int16()))
    table = pa.table(_core.execute(LogicalPlan.range(0, 2).select([literal.alias("v")])))
    assert table.schema.field("v").type == pa.int16()
    assert table.column("v").to_pylist() == [None, None]


def test_literals_that_cannot_be_made_raise() -> None:
    with pytest.raises(TypeError, match="cannot make a literal of a value of type 'object'"):
        lit(object())
    with pytest.raises(ValueError, match="outside the BIGINT range"):
        lit(2**63)
    with pytest.raises(ValueError, match="at most 38"):
        lit(decimal.Decimal("1" * 39))
    with pytest.raises(ValueError, match="must be finite"):
        lit(decimal.Decimal("NaN"))
    with pytest.raises(ValueError, match="exactly one value"):
        lit(pa.array([1, 2]))


def test_expression_text_and_output_names() -> None:
    total = call("+", col("a"), lit(1))
    assert str(total) == "(a + 1)"
    assert total.output_name == "(a + 1)"
    assert total.alias("b").output_name == "b"
    assert repr(total) == "Expression((a + 1))"
    assert col("a").cast("decimal(10,2)").output_name == "a"
    assert str(col("a").try_cast("int")) == "TRY_CAST(a AS INT)"
    assert str(col("a").cast(pa.int64())) == "CAST(a AS BIGINT)"
    condition = col("a").is_null().or_(col("b").is_not_null().and_(col("c").not_()))
    assert str(condition) == "((a IS NULL) OR ((b IS NOT NULL) AND (NOT c)))"
    assert str(col("a").isin([lit(1), lit(2)])) == "(a IN (1, 2))"
    branches = [(call(">", col("a"), lit(0)), lit("pos"))]
    assert str(E.case_when(branches, lit("other"))) == "CASE WHEN (a > 0) THEN 'pos' ELSE 'other' END"
    assert str(E.case_when(branches)) == "CASE WHEN (a > 0) THEN 'pos' END"
    with pytest.raises(ParseException, match="PARSE_SYNTAX_ERROR"):
        col("a").cast("array<int")


def test_expressions_evaluate_as_spark_does(people: LogicalPlan) -> None:
    plan = people.select(
        [
            col("name"),
            E.case_when([(call(">=", col("age"), lit(30)), lit("old"))], lit("young")).alias("band"),
            col("city").isin([lit("Oslo"), lit(None)]).alias("in_oslo"),
            col("age").is_null().alias("no_age"),
            col("age").try_cast("string").alias("age_text"),
            E.call("substring", [col("name"), lit(1), lit(2)]).alias("short"),
        ]
    )
    assert rows(plan) == [
        ("ann", "old", True, False, "31", "an"),
        ("bob", "young", None, True, None, "bo"),
        ("cid", "young", True, False, "25", "ci"),
        (None, "old", None, False, "40", None),
        ("eve", "old", None, False, "31", "ev"),
    ]


def test_call_options_reach_the_function() -> None:
    plan = LogicalPlan.from_arrow(pa.table({"s": ["a,b", "c"]})).select(
        [E.call("lpad", [col("s"), lit(5), lit("*")]).alias("padded")]
    )
    assert rows(plan) == [("**a,b",), ("****c",)]
    with pytest.raises(TypeError, match="option 'bad'"):
        E.call("sum", [col("a")], {"bad": object()})


# --- builders ---------------------------------------------------------------------------------


def test_from_arrow_takes_tables_batches_and_bowstring_tables() -> None:
    table = pa.table({"x": [1, 2, 3]})
    for source in (table, table.to_batches()[0], _core.Table(table)):
        assert rows(LogicalPlan.from_arrow(source)) == [(1,), (2,), (3,)]
    with pytest.raises(TypeError, match="LogicalPlan.from_arrow"):
        LogicalPlan.from_arrow(42)


def test_range_by_step_and_partitions() -> None:
    assert rows(LogicalPlan.range(0, 10, 4)) == [(0,), (4,), (8,)]
    assert rows(LogicalPlan.range(3, 0, -1, 2)) == [(3,), (2,), (1,)]
    assert LogicalPlan.range(0, 5).schema().names == ["id"]


def test_select_filter_and_star(people: LogicalPlan) -> None:
    plan = people.filter(call(">", col("age"), lit(30))).select(
        [col("*"), call("*", col("age"), lit(2)).alias("double_age")]
    )
    assert plan.schema().names == ["name", "age", "city", "double_age"]
    assert rows(plan) == [("ann", 31, "Oslo", 62), (None, 40, "Lima", 80), ("eve", 31, None, 62)]


def test_aggregate_with_and_without_keys(people: LogicalPlan) -> None:
    grouped = people.aggregate(
        [col("city")],
        [
            col("city"),
            call("count", col("name")).alias("n"),
            call("sum", col("age")).alias("total"),
            call("max", col("name")).alias("last"),
        ],
    )
    assert sorted(rows(grouped), key=repr) == sorted(
        [("Oslo", 2, 56, "cid"), ("Lima", 1, 40, "bob"), (None, 1, 31, "eve")], key=repr
    )
    overall = people.aggregate([], [call("avg", col("age")), call("min", col("city"))])
    assert overall.schema().names == ["avg(age)", "min(city)"]
    assert rows(overall) == [(31.75, "Lima")]


def test_sort_directions_and_null_placement(people: LogicalPlan) -> None:
    by_age = people.sort([(col("age"), True, None), (col("name"), False, None)]).select([col("name")])
    assert [row[0] for row in rows(by_age)] == ["bob", "cid", "eve", "ann", None]
    nulls_last = people.sort([(col("age"), True, False)]).select([col("age")])
    assert [row[0] for row in rows(nulls_last)] == [25, 31, 31, 40, None]
    descending = people.sort([(col("age"), False, True)]).select([col("age")])
    assert [row[0] for row in rows(descending)] == [None, 40, 31, 31, 25]


def test_limit_offset_and_top_n(people: LogicalPlan) -> None:
    assert rows(people.limit(2).select([col("name")])) == [("ann",), ("bob",)]
    assert rows(people.limit(2, 2).select([col("name")])) == [("cid",), (None,)]
    assert rows(people.limit(-1, 4).select([col("name")])) == [("eve",)]
    top = people.sort([(col("name"), False, None)]).limit(2).select([col("name")])
    assert rows(top) == [("eve",), ("cid",)]
    with pytest.raises(ValueError):
        people.limit(-2)
    with pytest.raises(ValueError):
        people.limit(1, -1)


def test_union_by_position_and_by_name() -> None:
    left = LogicalPlan.range(0, 2).select([col("id"), lit("l").alias("side")])
    right = LogicalPlan.range(5, 6).select([lit("r").alias("side"), col("id")])
    assert rows(left.union([left])) == [(0, "l"), (1, "l"), (0, "l"), (1, "l")]
    assert rows(left.union([right], by_name=True)) == [(0, "l"), (1, "l"), (5, "r")]
    only_id = LogicalPlan.range(7, 8)
    assert rows(left.union([only_id], by_name=True, allow_missing_columns=True)) == [
        (0, "l"),
        (1, "l"),
        (7, None),
    ]
    with pytest.raises(AnalysisException, match="NUM_COLUMNS_MISMATCH"):
        _core.execute(left.union([only_id]))


def test_join_by_condition_and_type(people: LogicalPlan) -> None:
    cities = LogicalPlan.from_arrow(pa.table({"city": ["Oslo", "Rome"], "country": ["NO", "IT"]}))
    condition = call("=", col("p.city"), col("c.city"))
    inner = people.alias("p").join(cities.alias("c"), condition).select([col("p.name"), col("country")])
    assert sorted(rows(inner)) == [("ann", "NO"), ("cid", "NO")]
    left = people.alias("p").join(cities.alias("c"), condition, "left").select([col("p.name"), col("country")])
    assert sorted(rows(left), key=repr) == sorted(
        [("ann", "NO"), ("bob", None), ("cid", "NO"), (None, None), ("eve", None)], key=repr
    )
    anti = people.alias("p").join(cities.alias("c"), condition, "anti").select([col("name")])
    assert sorted(rows(anti), key=repr) == sorted([("bob",), (None,), ("eve",)], key=repr)
    assert len(rows(people.join(cities, how="cross"))) == 10
    with pytest.raises(AnalysisException, match="UNSUPPORTED_JOIN_TYPE"):
        people.join(cities, condition, "sideways")
    with pytest.raises(AnalysisException, match="AMBIGUOUS_REFERENCE"):
        people.join(cities, how="cross").select([col("city")]).analyzed()


def test_distinct_and_alias(people: LogicalPlan) -> None:
    cities = people.select([col("city")]).distinct()
    assert sorted(rows(cities), key=repr) == sorted([("Oslo",), ("Lima",), (None,)], key=repr)
    aliased = people.alias("p").select([col("p.name"), col("P.AGE")])
    assert [name.lower() for name in aliased.schema().names] == ["name", "age"]
    assert rows(aliased)[0] == ("ann", 31)


def test_analyzed_and_optimized_plans_are_plans(people: LogicalPlan) -> None:
    plan = people.filter(call(">", col("age"), lit(30))).filter(col("city").is_not_null())
    assert plan.tree_string() == str(plan)
    assert plan.tree_string().split("\n")[0] == "'Filter ('city IS NOT NULL)"
    analyzed = plan.analyzed()
    assert "'" not in analyzed.tree_string()
    assert analyzed.tree_string().count("Filter") == 2
    optimized = plan.optimized()
    assert optimized.tree_string().count("Filter") == 1
    assert rows(optimized) == rows(plan) == [("ann", 31, "Oslo"), (None, 40, "Lima")]


# --- explain ----------------------------------------------------------------------------------


def without_ids(text: str) -> str:
    return re.sub(r"#[0-9]+", "#", text)


def test_explain_simple_prints_the_physical_plan() -> None:
    plan = (
        LogicalPlan.range(0, 100)
        .filter(call(">", col("id"), lit(10)))
        .aggregate([], [call("count", col("id")).alias("n")])
    )
    text = plan.explain()
    # Each analysis gives new attribute ids.
    assert without_ids(text) == without_ids(plan.explain("simple"))
    lines = without_ids(text).split("\n")
    assert lines[0] == "== Physical Plan =="
    assert lines[1].startswith("Project [")
    assert lines[2:] == [
        "+- HashAggregate(keys=[], functions=[count(id#L)])",
        "   +- Filter (id#L > 10)",
        "      +- Range (0, 100, step=1, splits=None)",
        "",
        "",
    ]
    assert text.endswith("\n\n")


def test_explain_extended_prints_every_stage_as_spark_does() -> None:
    plan = LogicalPlan.range(0, 10).select([call("+", col("id"), lit(1)).alias("next")])
    text = plan.explain("extended")
    headers = [line for line in text.split("\n") if line.startswith("== ")]
    assert headers == [
        "== Parsed Logical Plan ==",
        "== Analyzed Logical Plan ==",
        "== Optimized Logical Plan ==",
        "== Physical Plan ==",
    ]
    parsed, analyzed = text.split("\n== Analyzed Logical Plan ==\n")
    assert parsed == "== Parsed Logical Plan ==\n'Project [('id + 1) AS next]\n+- Range (0, 10, step=1, splits=None)\n"
    # The analyzed plan starts with its output columns and their types.
    assert analyzed.split("\n")[0] == "next: bigint"
    assert analyzed.split("\n")[1].startswith("Project [(id#")
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_analyzed_aggregate_calls_are_named_by_the_columns_they_read() -> None:
    plan = LogicalPlan.range(0, 5).aggregate([], [call("sum", call("+", col("id"), lit(1)))])
    analyzed = without_ids(plan.analyzed().tree_string())
    assert "sum((id#L + 1)) AS sum((id + 1))#L" in analyzed
    assert plan.schema().names == ["sum((id + 1))"]


def test_explain_rejects_unknown_modes_and_unresolved_plans() -> None:
    with pytest.raises(ValueError, match="unknown explain mode 'codegen'"):
        LogicalPlan.range(0, 1).explain("codegen")
    with pytest.raises(AnalysisException, match="UNRESOLVED_COLUMN"):
        LogicalPlan.range(0, 1).select([col("nope")]).explain()


# --- errors -----------------------------------------------------------------------------------


def test_unknown_column_suggests_close_names(people: LogicalPlan) -> None:
    with pytest.raises(AnalysisException) as raised:
        _core.execute(people.select([col("agee")]))
    assert raised.value.getCondition() == "UNRESOLVED_COLUMN.WITH_SUGGESTION"
    assert "agee" in str(raised.value)
    assert str(raised.value).index("age") < str(raised.value).index("Did you mean")
    assert "[age, name, city]" in str(raised.value).replace("`", "")


def test_ambiguous_reference() -> None:
    twice = LogicalPlan.range(0, 3).select([col("id"), call("+", col("id"), lit(1)).alias("ID")])
    with pytest.raises(AnalysisException) as raised:
        twice.select([col("id")]).analyzed()
    assert raised.value.getCondition() == "AMBIGUOUS_REFERENCE"


def test_missing_aggregation(people: LogicalPlan) -> None:
    with pytest.raises(AnalysisException) as raised:
        _core.execute(people.aggregate([col("city")], [col("city"), col("name")]))
    assert raised.value.getCondition() == "MISSING_AGGREGATION"
    assert '"name"' in str(raised.value)


def test_bad_types(people: LogicalPlan) -> None:
    with pytest.raises(AnalysisException) as raised:
        people.filter(col("age")).analyzed()
    assert raised.value.getCondition() == "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN"
    with pytest.raises(AnalysisException) as raised:
        people.select([call("+", col("age"), lit(True))]).analyzed()
    assert raised.value.getCondition() == "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"
    with pytest.raises(AnalysisException) as raised:
        people.select([call("no_such_function", col("age"))]).analyzed()
    assert raised.value.getCondition() == "UNRESOLVED_ROUTINE"


def test_runtime_errors_are_spark_errors() -> None:
    big = LogicalPlan.range(0, 3).select([call("+", col("id"), lit(2**63 - 2)).alias("x")])
    with pytest.raises(ArithmeticException) as raised:
        _core.execute(big)
    assert raised.value.getCondition() == "ARITHMETIC_OVERFLOW"
    by_zero = LogicalPlan.range(0, 3).select([call("div", lit(1), col("id"))])
    with pytest.raises(ArithmeticException) as raised:
        _core.execute(by_zero)
    assert raised.value.getCondition() == "DIVIDE_BY_ZERO"


def test_bad_execution_options() -> None:
    with pytest.raises(ValueError):
        _core.execute(LogicalPlan.range(0, 3), morsel_rows=0)
    with pytest.raises(ValueError):
        _core.execute(LogicalPlan.range(0, 3), threads=-1)
    with pytest.raises(ValueError, match="memory_limit"):
        _core.execute(LogicalPlan.range(0, 3), memory_limit=-1)


# --- execution --------------------------------------------------------------------------------


def test_results_reach_pyarrow_without_copies() -> None:
    source = pa.table({"x": list(range(1000))})
    scanned = pa.table(_core.execute(LogicalPlan.from_arrow(source)))
    assert scanned.column(0).chunks[0].buffers()[1].address == source.column(0).chunks[0].buffers()[1].address
    result = _core.execute(LogicalPlan.range(0, 1000).select([call("*", col("id"), lit(3)).alias("y")]))
    first, second = pa.table(result), pa.table(result)
    assert first.column(0).chunks[0].buffers()[1].address == second.column(0).chunks[0].buffers()[1].address
    assert first.column("y").to_pylist()[:3] == [0, 3, 6]


def test_memory_limit_fails_an_oversized_query_naming_the_operator() -> None:
    groups = LogicalPlan.range(0, 1_000_000).aggregate([col("id")], [col("id")])
    with pytest.raises(MemoryError) as raised:
        _core.execute(groups, morsel_rows=1000, memory_limit=1 << 20)
    message = str(raised.value)
    assert "HashAggregate" in message
    assert "query memory limit of 1048576 bytes" in message
    # The engine stays usable, with and without a budget.
    assert rows(LogicalPlan.range(0, 10).aggregate([], [call("count", col("id"))]), memory_limit=1 << 20) == [(10,)]


def test_result_of_a_budgeted_query_outlives_its_result_object() -> None:
    result = _core.execute(
        LogicalPlan.range(0, 5000).select([call("concat", col("id").cast("string"), lit("!")).alias("s")]),
        memory_limit=64 << 20,
    )
    exported = pa.table(result)
    del result
    gc.collect()
    assert exported.column("s").to_pylist()[-2:] == ["4998!", "4999!"]


@pytest.mark.parametrize("morsel_rows, threads", [(1, 1), (3, 2), (8192, 0)])
def test_verification_modes_give_the_same_answer(morsel_rows: int, threads: int) -> None:
    plan = (
        LogicalPlan.range(0, 2000)
        .select([call("%", col("id"), lit(7)).alias("g"), col("id")])
        .aggregate([col("g")], [col("g"), call("sum", col("id")).alias("s")])
        .sort([(col("g"), True, None)])
    )
    expected = [(g, sum(i for i in range(2000) if i % 7 == g)) for g in range(7)]
    assert rows(plan, morsel_rows=morsel_rows, threads=threads) == expected


CANCELLED_CHILD = r"""
import os, signal, threading, time
from bowstring import _core

E = _core.Expression
endless = _core.LogicalPlan.range(0, 10**15).aggregate([], [E.call("sum", [E.col("id")])])
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    _core.execute(endless, morsel_rows=4096)
    print("finished")
except KeyboardInterrupt:
    print("interrupted after %.3f s" % (time.monotonic() - started - 0.5), flush=True)
small = _core.LogicalPlan.range(0, 10).aggregate([], [E.call("count", [E.col("id")])])
print("then", _core.execute(small).to_pylist())
"""


def test_sigint_cancels_a_running_query_promptly() -> None:
    # In a child interpreter, so that the SIGINT cannot reach pytest itself.
    completed = subprocess.run(
        [sys.executable, "-c", CANCELLED_CHILD],
        env={"PYTHONPATH": str(PYTHON_DIRECTORY), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("interrupted after "), completed.stdout
    assert float(lines[0].split()[2]) < 10.0, completed.stdout
    assert lines[1] == "then [{'count(id)': 10}]"
