"""The process-wide thread pool: its size (affinity, cgroup quota, BOWSTRING_THREADS) and its
behaviour across fork()."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

import bowstring

PYTHON_DIR = str(Path(__file__).resolve().parent.parent)


def run_python(
    code: str,
    threads: Optional[str] = None,
    preexec_fn: Optional[Callable[[], None]] = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter that imports this tree's bowstring, with
    BOWSTRING_THREADS set to `threads` (or unset)."""
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k != "BOWSTRING_THREADS"}
    env["PYTHONPATH"] = PYTHON_DIR
    if threads is not None:
        env["BOWSTRING_THREADS"] = threads
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        preexec_fn=preexec_fn,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


SIZE = "import bowstring; print(bowstring.thread_pool_size())"


def test_size_is_at_most_the_cpus_this_process_may_use() -> None:
    result = run_python(SIZE)
    assert result.returncode == 0, result.stderr
    assert 1 <= int(result.stdout) <= len(os.sched_getaffinity(0))
    assert bowstring.thread_pool_size() >= 1
    assert "thread_pool_size" in bowstring.__all__


def test_a_process_restricted_to_one_cpu_gets_one_thread() -> None:
    first_cpu = min(os.sched_getaffinity(0))
    result = run_python(SIZE, preexec_fn=lambda: os.sched_setaffinity(0, {first_cpu}))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


def test_bowstring_threads_sets_the_size() -> None:
    for threads in ("3", "1", "17"):
        result = run_python(SIZE, threads=threads)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == threads
    # Empty means unset.
    result = run_python(SIZE, threads="")
    assert result.returncode == 0, result.stderr
    assert 1 <= int(result.stdout) <= len(os.sched_getaffinity(0))


@pytest.mark.parametrize("value", ["zero", "0", "-4", "2.5", "100000"])
def test_a_bad_bowstring_threads_is_an_error_naming_it(value: str) -> None:
    code = """
        import bowstring
        try:
            bowstring.thread_pool_size()
        except ValueError as e:
            print(e)
        else:
            print("no error")
        """
    result = run_python(code, threads=value)
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert "BOWSTRING_THREADS" in message
    assert f"'{value}'" in message
    assert "from 1 to 4096" in message


def test_parallel_work_in_a_forked_child() -> None:
    # The parent runs a parallel group-by (over 2**20 rows per thread) and a compressed IPC
    # write of a body over 1 MiB, so its pool has running workers; a forked child does the same
    # on a fresh pool, and must answer without hanging.
    code = """
        import io
        import multiprocessing
        import os

        import pyarrow as pa

        import bowstring
        import bowstring.ipc
        from bowstring import compute

        ROWS = 3 * 2**20

        def work():
            keys = pa.array([i % 3 for i in range(ROWS)], pa.int64())
            values = pa.array(range(ROWS), pa.int64())
            grouped = pa.table(compute.group_by([keys], [("sum", [values]), ("count", [])]))
            sink = io.BytesIO()
            table = pa.table({"v": values})
            bowstring.ipc.write_stream(table, sink, compression="zstd")
            copy = pa.table(bowstring.ipc.read_stream(sink.getvalue()))
            return grouped.to_pydict(), copy.equals(table), bowstring.thread_pool_size()

        def child(queue):
            result = work()
            # The child's own pool started its workers: the parent's do not exist here.
            threads = len(os.listdir("/proc/self/task"))
            queue.put((result, threads))

        if __name__ == "__main__":
            expected = work()
            sums = [sum(range(k, ROWS, 3)) for k in range(3)]
            context = multiprocessing.get_context("fork")
            queue = context.Queue()
            process = context.Process(target=child, args=(queue,))
            process.start()
            process.join(timeout=90)
            if process.is_alive():
                process.kill()
                raise SystemExit("the forked child hung")
            assert process.exitcode == 0, process.exitcode
            result, threads = queue.get(timeout=10)
            assert threads >= 4, threads
            assert result == expected, (result, expected)
            grouped, round_trip, size = result
            assert list(grouped.values())[0] == [0, 1, 2]
            assert list(grouped.values())[1] == sums
            assert list(grouped.values())[2] == [ROWS // 3] * 3
            assert round_trip
            assert size == 4
            print("ok")
        """
    result = run_python(code, threads="4", timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
