"""Ctrl-C interrupts a long run of a Python function: reading its results (read_all() or
iteration) raises KeyboardInterrupt promptly, the run is cancelled, and the pool serves the
next call. The run happens in a child interpreter, which receives the SIGINT."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading

import pytest

CHILD = r"""
import sys, time
import pyarrow as pa
from bowstring import udf
from bowstring.errors import CancelledError

reading = sys.argv[1]

def sleepy(batches):
    for batch in batches:
        print("sleeping", flush=True)
        time.sleep(600)
        yield batch

def identity(batches):
    yield from batches

data = pa.table({"k": pa.array(range(4), pa.int64())})
with udf.WorkerPool(max_workers=2) as pool:
    fork_server = pool.fork_server_pid
    result = udf.map_batches(sleepy, data, pool=pool, partition_rows=1, batch_size=1)
    print("running", flush=True)
    try:
        if reading == "read_all":
            result.read_all()
        else:
            for batch in result:
                pass
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    try:
        result.read_all()
    except CancelledError as error:
        print("then cancelled:", error, flush=True)
    after = udf.map_batches(identity, data, pool=pool).read_all()
    print("next call:", pa.table(after).column("k").to_pylist(), flush=True)
    print("same fork server:", pool.fork_server_pid == fork_server, flush=True)
"""

# Generous: the function sleeps for ten minutes, so any answer within this bound is the signal's.
DEADLINE = 30.0


def lines_of(stream) -> "queue.Queue[str]":
    """The lines of ``stream``, as a reader thread gets them (None at the end)."""
    lines: "queue.Queue[str]" = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def wait_for_line(lines: "queue.Queue[str]", text: str) -> bool:
    """Takes lines until one contains ``text`` (True) or the stream ends (False)."""
    while True:
        line = lines.get(timeout=120)
        if line is None:
            return False
        if text in line:
            return True


@pytest.mark.parametrize("reading", ["read_all", "iteration"])
def test_ctrl_c_interrupts_reading_and_leaves_the_pool_working(reading):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, reading],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = lines_of(child.stdout)
        errors = lines_of(child.stderr)
        assert lines.get(timeout=120) == "running"
        # A worker is inside the function (it prints to stderr before sleeping).
        assert wait_for_line(errors, "sleeping")
        os.kill(child.pid, signal.SIGINT)
        assert lines.get(timeout=DEADLINE) == "interrupted"
        assert lines.get(timeout=DEADLINE) == "then cancelled: the call was cancelled"
        assert lines.get(timeout=DEADLINE) == "next call: [0, 1, 2, 3]"
        assert lines.get(timeout=DEADLINE) == "same fork server: True"
        assert child.wait(timeout=DEADLINE) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
