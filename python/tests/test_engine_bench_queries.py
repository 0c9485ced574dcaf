"""The questions of bench/engine_queries.py at 10K rows: the engine's answers equal DuckDB's (and
Polars'), so that the benchmark times right answers; the generators make db-benchmark's shapes;
the comparison notices a wrong answer; and the questions skipped for the engine still lack what
they say they lack."""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import _core
from bowstring.errors import AnalysisException

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import engine_queries  # noqa: E402
from engine_queries import PLACEHOLDERS, QUERIES, Engines, Query, differences, run_query  # noqa: E402

ROWS = 10_000


@pytest.fixture(scope="module")
def engines() -> dict[str, Engines]:
    return {name: Engines.of(tables, 2) for name, tables in engine_queries.datasets(ROWS).items()}


@pytest.mark.parametrize("query", [q for q in QUERIES if q.name not in PLACEHOLDERS], ids=lambda q: q.name)
def test_every_library_gives_the_same_answer(query: Query, engines: dict[str, Engines]) -> None:
    outcome = run_query(query, engines[query.dataset], repetitions=0)
    assert outcome.mismatches == []
    assert outcome.rows > 0


def test_engine_runs_every_question_it_has_the_functions_for() -> None:
    ours = {q.name for q in QUERIES if q.ours is not None}
    assert ours == {f"groupby q{i}" for i in (1, 2, 3, 4, 5, 7, 10)} | {"top-n"} | {
        f"join q{i}" for i in range(1, 6)
    }


@pytest.mark.parametrize("query", [q for q in QUERIES if q.ours is None], ids=lambda q: q.name)
def test_skipped_questions_need_what_the_engine_lacks(query: Query) -> None:
    # When one of these starts to resolve, the question should be asked of the engine.
    plan = _core.LogicalPlan.range(0, 3)
    for function in query.needs:
        with pytest.raises(AnalysisException, match="UNRESOLVED_ROUTINE"):
            plan.select([_core.Expression.call(function, [_core.Expression.col("id")])]).analyzed()


def test_groupby_data_has_db_benchmarks_shape() -> None:
    table = engine_queries.groupby_table(ROWS)
    assert table.column_names == ["id1", "id2", "id3", "id4", "id5", "id6", "v1", "v2", "v3"]
    assert table.num_rows == ROWS
    assert pc.count_distinct(table["id1"]).as_py() == 100
    assert pc.min(table["id1"]).as_py() == "id001" and pc.max(table["id1"]).as_py() == "id100"
    assert pc.min(table["id3"]).as_py() == "id0000000001"
    assert pc.max(table["id6"]).as_py() <= ROWS // 100
    assert pc.min_max(table["v1"]).as_py() == {"min": 1, "max": 5}
    assert pc.min_max(table["v2"]).as_py() == {"min": 1, "max": 15}
    v3 = table["v3"].to_numpy()
    assert 0 <= v3.min() and v3.max() < 100 and (abs(v3 * 1e6 - (v3 * 1e6).round()) < 1e-3).all()
    assert engine_queries.groupby_table(ROWS).equals(table)


def test_join_data_has_db_benchmarks_shape() -> None:
    tables = engine_queries.join_tables(ROWS)
    x, medium, big = tables["x"], tables["medium"], tables["big"]
    assert x.column_names == ["id1", "id2", "id3", "id4", "id5", "id6", "v1"]
    assert tables["small"].column_names == ["id1", "id4", "v2"]
    assert medium.column_names == ["id1", "id2", "id4", "id5", "v2"]
    assert big.num_rows == ROWS and pc.count_distinct(big["id3"]).as_py() == ROWS
    assert pc.count_distinct(x["id3"]).as_py() == ROWS
    assert x["id4"][0].as_py() == f"id{x['id1'][0].as_py()}"
    # 90% of each side's keys are on both sides.
    common = pc.is_in(big["id3"], value_set=x["id3"].combine_chunks())
    assert pc.sum(common).as_py() == ROWS * 9 // 10


def test_comparison_notices_wrong_answers() -> None:
    query = next(q for q in QUERIES if q.name == "groupby q1")
    right = pa.table({"id1": ["a", "b"], "v1": pa.array([3, 4], pa.decimal128(38, 0))})
    assert differences(query, right, pa.table({"id1": ["b", "a"], "v1": [4, 3]})) == []
    wrong = differences(query, right, pa.table({"id1": ["a", "b"], "v1": [3, 5]}))
    assert wrong == ["column c1: 1 rows differ, first at 1: 5.0 instead of 4.0"]
    join = next(q for q in QUERIES if q.name == "join q3")
    sums = pa.table({"v": [1.0, None, 2.0]})
    assert differences(join, sums, pa.table({"v": [2.0, 1.0, None]})) == []
    assert differences(join, sums, pa.table({"v": [2.0, 1.0, 1.0]})) == [
        "column c0: 0 nulls instead of 1"
    ]
    assert differences(join, sums, pa.table({"v": [2.0, 1.0]})) == ["2 rows instead of 3"]
