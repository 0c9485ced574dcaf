"""Folders of files as plans (bowstring._core.read) and query results written as folders of
files (bowstring._core.write): listing, hive partitions, pruning, save modes and atomic commits,
compared with what pyarrow.dataset and DuckDB read from the same folders."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any, List

import duckdb
import pyarrow as pa
import pyarrow.dataset as pads
import pytest

from bowstring import _core
from bowstring.errors import AnalysisException, ArithmeticException
from engine_support import call, col, lit


def table(plan: _core.LogicalPlan, **options: Any) -> pa.Table:
    return pa.table(_core.execute(plan, **options))


def sorted_rows(data: pa.Table, columns: List[str]) -> List[tuple]:
    return sorted(tuple(row[c] for c in columns) for row in data.select(columns).to_pylist())


def sorted_texts(data: pa.Table, columns: List[str]) -> List[tuple]:
    """The rows with every value as text: readers differ in the types they give folders."""
    return sorted(tuple(str(row[c]) for c in columns) for row in data.select(columns).to_pylist())


def write_days(root: Path) -> None:
    for day, rows in [("2024-01-01", ["1,a", "2,b"]), ("2024-01-02", ["3,c"]),
                      ("2024-01-03", ["4,d", "5,e"])]:
        folder = root / f"day={day}"
        folder.mkdir(parents=True)
        (folder / "part-0.csv").write_text("id,v\n" + "\n".join(rows) + "\n")


def test_partitioned_csv_matches_pyarrow_dataset_and_duckdb(tmp_path: Path) -> None:
    write_days(tmp_path)
    ours = table(_core.read("csv", [str(tmp_path)], {"header": "true", "inferSchema": "true"}))
    assert ours.schema.names == ["id", "v", "day"]
    assert ours.schema.field("day").type == pa.date32()
    arrow = pads.dataset(str(tmp_path), format="csv", partitioning="hive").to_table()
    duck = duckdb.sql(
        f"SELECT * FROM read_csv('{tmp_path}/*/*.csv', hive_partitioning=true)").to_arrow_table()
    # Spark and DuckDB type the folders' dates DATE; pyarrow keeps them strings.
    assert pa.types.is_date32(duck.schema.field("day").type)
    expected = sorted_texts(arrow, ["id", "v", "day"])
    assert sorted_texts(ours, ["id", "v", "day"]) == expected
    assert sorted_texts(duck, ["id", "v", "day"]) == expected


def test_partition_filters_prune_files_and_data_filters_run_in_the_scan(tmp_path: Path) -> None:
    write_days(tmp_path)
    # A malformed file in a pruned folder is never opened, so FAILFAST does not fail.
    (tmp_path / "day=2024-01-03" / "part-0.csv").write_text("id,v\nnot-a-number,z\n")
    days = _core.read("csv", [str(tmp_path)], {"header": "true", "mode": "FAILFAST"},
                      "id INT, v STRING")
    query = days.filter(call("<", col("day"), lit(datetime.date(2024, 1, 3))).and_(
        call(">=", col("id"), lit(2)))).select([col("v")])
    assert sorted(table(query).column("v").to_pylist()) == ["b", "c"]
    plan = query.explain()
    assert "PartitionFilters: [(day#" in plan
    assert "PushedFilters: [GreaterThanOrEqual(id,2)]" in plan
    assert "ReadSchema: struct<v:string>" in plan
    assert "Filter (" not in plan
    with pytest.raises(ValueError, match="MALFORMED_RECORD_IN_PARSING"):
        table(days)


def test_missing_paths_and_unknown_formats_are_sparks_errors(tmp_path: Path) -> None:
    with pytest.raises(AnalysisException, match=r"\[PATH_NOT_FOUND\] Path does not exist: "
                                                 r"file:.*/nope\."):
        _core.read("csv", [str(tmp_path / "nope")])
    with pytest.raises(AnalysisException, match="DATA_SOURCE_NOT_FOUND"):
        _core.read("xml", [str(tmp_path)])


def test_one_large_file_reads_as_duckdb_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    with path.open("w") as out:
        out.write("id,group,price\n")
        for i in range(300_000):
            out.write(f"{i},g{i % 13},{i * 0.5}\n")
    plan = _core.read("csv", [str(path)], {"header": "true", "inferSchema": "true"}).aggregate(
        [col("group")],
        [col("group"), call("sum", col("id")).alias("ids"), call("count", lit(1)).alias("n")])
    ours = sorted_rows(table(plan), ["group", "ids", "n"])
    duck = duckdb.sql(f"SELECT \"group\", sum(id) AS ids, count(*) AS n FROM read_csv('{path}') "
                      "GROUP BY \"group\"").to_arrow_table()
    assert ours == sorted_rows(duck, ["group", "ids", "n"])


def test_written_folders_read_back_in_pyarrow_and_duckdb(tmp_path: Path) -> None:
    data = pa.table({"id": pa.array([1, 2, 3, 4], pa.int64()),
                     "city": ["Oslo", "Rome", None, "Oslo"],
                     "score": [1.5, 2.5, 3.5, 4.5]})
    out = tmp_path / "out"
    _core.write(_core.LogicalPlan.from_arrow(data), "csv", str(out), partition_by=["city"],
                options={"header": "true"})
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert names[0] == "_SUCCESS"
    assert [n.split("/")[0] for n in names[1:]] == [
        "city=Oslo", "city=Rome", "city=__HIVE_DEFAULT_PARTITION__"]
    assert all(n.split("/")[1].startswith("part-") and n.endswith("-c000.csv")
               for n in names[1:])
    duck = duckdb.sql(f"SELECT id, city, score FROM read_csv('{out}/*/*.csv', "
                      "hive_partitioning=true)").to_arrow_table()
    back = table(_core.read("csv", [str(out)], {"header": "true", "inferSchema": "true"}))
    expected = [(1, "Oslo", 1.5), (2, "Rome", 2.5), (3, None, 3.5), (4, "Oslo", 4.5)]
    assert sorted_rows(back, ["id", "city", "score"]) == expected
    # DuckDB reads the default partition's folder name as a string, where Spark reads null.
    assert sorted_rows(duck, ["id", "score"]) == [(1, 1.5), (2, 2.5), (3, 3.5), (4, 4.5)]

    arrow_out = tmp_path / "arrow"
    _core.write(_core.LogicalPlan.from_arrow(data), "arrow", str(arrow_out))
    files = [p for p in arrow_out.iterdir() if p.suffix == ".arrow"]
    assert len(files) >= 1
    written = pads.dataset([str(p) for p in files], format="ipc").to_table().sort_by("id")
    assert written.schema == data.schema
    assert written.to_pylist() == data.to_pylist()


def test_save_modes_and_a_failing_query_leave_the_destination_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    plan = _core.LogicalPlan.range(0, 10)
    _core.write(plan, "csv", str(out))
    with pytest.raises(AnalysisException, match=r"\[PATH_ALREADY_EXISTS\]"):
        _core.write(plan, "csv", str(out))
    _core.write(plan, "csv", str(out), mode="ignore")
    _core.write(plan, "csv", str(out), mode="append")
    assert table(_core.read("csv", [str(out)])).num_rows == 20
    before = sorted(os.listdir(out))
    failing = _core.LogicalPlan.range(0, 1000).select(
        [call("/", lit(10), call("-", lit(700), col("id"))).alias("x")])
    with pytest.raises(ArithmeticException, match="DIVIDE_BY_ZERO"):
        _core.write(failing, "csv", str(out), mode="overwrite", morsel_rows=10, threads=1)
    assert sorted(os.listdir(out)) == before
    assert sorted(os.listdir(tmp_path)) == ["out"]
    _core.write(plan, "csv", str(out), mode="overwrite")
    assert table(_core.read("csv", [str(out)])).num_rows == 10
    with pytest.raises(AnalysisException, match="INVALID_SAVE_MODE"):
        _core.write(plan, "csv", str(out), mode="replace")
