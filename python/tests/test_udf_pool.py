"""bowstring.udf's worker pools: their options and properties, the process-wide default pool,
several threads sharing a pool, output of functions forwarded to stderr, and the arguments
map_batches checks before starting."""

from __future__ import annotations

import os
import re
import stat
import sys
import threading
from pathlib import Path

import cloudpickle
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import bowstring
from bowstring import udf
from bowstring.errors import ParseException
from udf_support import wait_until

# The workers cannot import this module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

DATA = pa.table({"k": pa.array(range(200), pa.int64()), "v": pa.array([i / 4 for i in range(200)])})
PACKAGE_PARENT = str(Path(bowstring.__file__).resolve().parent.parent)


def identity(batches):
    yield from batches


@pytest.fixture(scope="module")
def pool():
    with udf.WorkerPool(max_workers=2) as workers:
        yield workers


def test_pool_properties(pool):
    assert pa.table(udf.map_batches(identity, DATA, pool=pool)).equals(DATA)
    assert pool.max_workers == 2
    assert not pool.closed
    mode = os.stat(pool.socket_path).st_mode
    assert stat.S_ISSOCK(mode)
    assert stat.S_IMODE(mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(pool.socket_path)).st_mode) == 0o700
    assert os.path.exists(f"/proc/{pool.fork_server_pid}")
    stats = pool.stats
    assert set(stats) == {
        "workers_started",
        "workers_alive",
        "workers_idle",
        "workers_failed",
        "connections_rejected",
    }
    assert 1 <= stats["workers_alive"] <= 2
    assert len(pool.worker_pids) == stats["workers_alive"]
    for pid in pool.worker_pids:
        with open(f"/proc/{pid}/stat") as file:
            assert int(file.read().rsplit(")", 1)[1].split()[1]) == pool.fork_server_pid
    assert "WorkerPool(max_workers=2" in repr(pool)


def test_closing_stops_the_processes_and_removes_the_socket():
    with udf.WorkerPool(max_workers=1) as pool:
        pa.table(udf.map_batches(identity, DATA, pool=pool))
        processes = [pool.fork_server_pid, *pool.worker_pids]
        socket_path = pool.socket_path
    assert pool.closed
    assert repr(pool) == "WorkerPool(closed)"
    assert wait_until(lambda: not any(os.path.exists(f"/proc/{pid}") for pid in processes))
    assert not os.path.exists(socket_path)
    assert not os.path.exists(os.path.dirname(socket_path))


def test_workers_are_reused(pool):
    def pid(k):
        import os

        return os.getpid()

    one_batch = DATA.slice(0, 10).select(["k"])
    first = pa.table(udf.map_batches(pid, one_batch, kind="rows", schema="pid long", pool=pool))
    second = pa.table(udf.map_batches(pid, one_batch, kind="rows", schema="pid long", pool=pool))
    assert set(first.column("pid").to_pylist()) | set(second.column("pid").to_pylist()) <= set(
        pool.worker_pids
    )


def test_without_reuse_every_call_gets_a_fresh_worker():
    def pid(k):
        import os

        return os.getpid()

    one_batch = DATA.slice(0, 10).select(["k"])
    with udf.WorkerPool(max_workers=1, reuse_workers=False) as pool:
        pids = [
            pa.table(udf.map_batches(pid, one_batch, kind="rows", schema="pid long", pool=pool))
            .column("pid")[0]
            .as_py()
            for _ in range(3)
        ]
        assert len(set(pids)) == 3
        assert pool.stats["workers_started"] == 3


def test_idle_workers_are_retired():
    with udf.WorkerPool(max_workers=1, idle_timeout=0.2) as pool:
        pa.table(udf.map_batches(identity, DATA, pool=pool))
        assert wait_until(lambda: pool.stats["workers_alive"] == 0)
        assert pa.table(udf.map_batches(identity, DATA, pool=pool)).equals(DATA)


def test_workers_import_this_package_with_the_given_environment():
    def probe(k):
        import os

        import bowstring

        return "|".join(
            [
                os.environ.get("BOWSTRING_TEST_VALUE", ""),
                os.environ["PYTHONPATH"],
                os.path.dirname(os.path.dirname(os.path.realpath(bowstring.__file__))),
            ]
        )

    environment = {"BOWSTRING_TEST_VALUE": "42", "PYTHONPATH": "/nonexistent"}
    with udf.WorkerPool(max_workers=1, environment=environment) as pool:
        result = udf.map_batches(
            probe, DATA.slice(0, 1).select(["k"]), kind="rows", schema="probe string", pool=pool
        )
        assert pa.table(result).column("probe").to_pylist() == [
            f"42|{PACKAGE_PARENT}{os.pathsep}/nonexistent|{PACKAGE_PARENT}"
        ]


def test_native_thread_pools_are_single_threaded_unless_configured():
    def probe(k):
        import os

        return f"{os.environ['OMP_NUM_THREADS']}|{os.environ['OPENBLAS_NUM_THREADS']}"

    data = DATA.slice(0, 1).select(["k"])
    with udf.WorkerPool(max_workers=1) as pool:
        result = udf.map_batches(probe, data, kind="rows", schema="probe string", pool=pool)
        assert pa.table(result).column("probe").to_pylist() == ["1|1"]
    with udf.WorkerPool(max_workers=1, environment={"OMP_NUM_THREADS": "4"}) as pool:
        result = udf.map_batches(probe, data, kind="rows", schema="probe string", pool=pool)
        assert pa.table(result).column("probe").to_pylist() == ["4|1"]


def test_pool_arguments_are_checked():
    with pytest.raises(ValueError, match="max_workers"):
        udf.WorkerPool(max_workers=0)
    with pytest.raises(ValueError, match="memory_limit"):
        udf.WorkerPool(max_workers=1, memory_limit=-1)
    with pytest.raises(ValueError, match="idle_timeout"):
        udf.WorkerPool(max_workers=1, idle_timeout=-1.0)


def test_default_pool():
    udf.shutdown()
    assert pa.table(udf.map_batches(identity, DATA)).equals(DATA)
    assert udf._default_pool.max_workers == os.cpu_count()
    first_server = udf._default_pool.fork_server_pid
    # Asking for more workers than it has replaces it with a larger one; the first stops once
    # nothing uses it.
    wanted = os.cpu_count() + 1
    assert pa.table(udf.map_batches(identity, DATA, workers=wanted)).equals(DATA)
    larger = udf._default_pool
    assert larger.max_workers == wanted
    assert wait_until(lambda: not os.path.exists(f"/proc/{first_server}"))
    server = larger.fork_server_pid
    udf.shutdown()
    assert larger.closed
    assert udf._default_pool is None
    assert wait_until(lambda: not os.path.exists(f"/proc/{server}"))


# --- several threads ---


def test_threads_share_a_pool(pool):
    def scaled(factor):
        def scale(batches):
            for batch in batches:
                yield pa.record_batch(
                    {"k": batch.column("k"), "v": pc.multiply(batch.column("v"), factor)}
                )

        return scale

    results = {}
    errors = []

    def call(index: int) -> None:
        try:
            results[index] = pa.table(udf.map_batches(scaled(index), DATA, pool=pool, batch_size=7))
        except Exception as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for index, result in results.items():
        expected = pa.table({"k": DATA.column("k"), "v": pc.multiply(DATA.column("v"), index)})
        assert result.equals(expected), index
    assert len(results) == 6


def test_threads_mixing_kinds(pool):
    def plus_one(v):
        return v + 1

    def row_plus_one(v):
        return v + 1

    values = DATA.select(["v"])
    expected = pa.table({"v": pc.add(DATA.column("v"), 1)})
    outcomes = []

    def call(kind: str, function) -> None:
        result = udf.map_batches(function, values, kind=kind, schema="v double", pool=pool)
        outcomes.append(pa.table(result).equals(expected))

    threads = [
        threading.Thread(target=call, args=("pandas_series", plus_one)),
        threading.Thread(target=call, args=("rows", row_plus_one)),
        threading.Thread(target=call, args=("pandas_series", plus_one)),
        threading.Thread(target=call, args=("rows", row_plus_one)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == [True] * 4


# --- output ---


def test_printed_output_reaches_stderr_prefixed_by_the_worker(pool, capfd):
    def chatty(batches):
        import sys

        for index, batch in enumerate(batches):
            print(f"stdout line of batch {index}")
            print(f"stderr line of batch {index}", file=sys.stderr)
            yield batch

    pa.table(udf.map_batches(chatty, DATA.slice(0, 10), pool=pool))
    seen = []

    def printed() -> bool:
        seen.append(capfd.readouterr().err)
        text = "".join(seen)
        return "stdout line of batch 0" in text and "stderr line of batch 0" in text

    assert wait_until(printed)
    text = "".join(seen)
    assert re.search(r"^\[worker \d+\] stdout line of batch 0$", text, re.MULTILINE), text
    assert re.search(r"^\[worker \d+\] stderr line of batch 0$", text, re.MULTILINE), text


# --- arguments of map_batches ---


def test_kinds_returning_values_need_a_schema(pool):
    for kind in ("pandas_series", "rows"):
        with pytest.raises(ValueError, match=f"kind='{kind}'.* needs a schema"):
            udf.map_batches(lambda v: v, DATA, kind=kind, pool=pool)


def test_unknown_kind(pool):
    with pytest.raises(ValueError, match="unknown kind 'scalar'.*'arrow'"):
        udf.map_batches(identity, DATA, kind="scalar", pool=pool)


def test_schema_errors(pool):
    with pytest.raises(ParseException, match=r'data type "STRIN"\. \(line 1, pos 10\)'):
        udf.map_batches(identity, DATA, schema="k long, v strin", pool=pool)
    with pytest.raises(TypeError, match="schema must be a DDL string"):
        udf.map_batches(identity, DATA, schema=42, pool=pool)


def test_a_bare_type_names_the_column_after_the_function(pool):
    def plus_one(v):
        return v + 1

    result = pa.table(
        udf.map_batches(
            plus_one, DATA.select(["v"]), kind="pandas_series", schema="double", pool=pool
        )
    )
    assert result.column_names == ["plus_one"]


def test_pyarrow_schema(pool):
    schema = pa.schema([("v", pa.float32())])

    def as_float32(batches):
        for batch in batches:
            yield pa.record_batch([batch.column("v").cast(pa.float32())], schema=schema)

    result = pa.table(udf.map_batches(as_float32, DATA, schema=schema, pool=pool))
    assert result.schema == schema


def test_data_must_be_arrow(pool):
    with pytest.raises(TypeError, match="__arrow_c_stream__ or __arrow_c_array__"):
        udf.map_batches(identity, [1, 2, 3], pool=pool)


def test_other_arguments_are_checked(pool):
    with pytest.raises(TypeError, match="callable"):
        udf.map_batches("identity", DATA, pool=pool)
    with pytest.raises(ValueError, match="batch_size"):
        udf.map_batches(identity, DATA, batch_size=0, pool=pool)
    with pytest.raises(ValueError, match="workers"):
        udf.map_batches(identity, DATA, workers=0, pool=pool)
    with pytest.raises(ValueError, match="partition_rows"):
        udf.map_batches(identity, DATA, partition_rows=0, pool=pool)
    with pytest.raises(ValueError, match="socket"):
        udf.map_batches(identity, DATA, transport="pigeon", pool=pool)
    with pytest.raises(ValueError, match="timeout"):
        udf.map_batches(identity, DATA, timeout=-1, pool=pool)


def test_config_values_become_spark_style_strings():
    assert udf._config_strings({"spark.a": True, "spark.b": 3, "spark.c": "x"}) == {
        "spark.a": "true",
        "spark.b": "3",
        "spark.c": "x",
    }


def test_default_partitions_spread_known_rows_over_the_workers(pool):
    result = udf.map_batches(identity, DATA, pool=pool, batch_size=30)
    pa.table(result)
    # 200 rows over 2 workers: 100 each, rounded up to whole batches of 30: 120 and 80.
    assert result.metrics["partitions"] == 2
    assert result.metrics["batches_in"] == 7
