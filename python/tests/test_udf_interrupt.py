"""Ctrl-C interrupts a long run of a Python function: reading its results (read_all(),
iteration, or a consumer of its exported Arrow stream on the main thread) raises
KeyboardInterrupt promptly, the run is cancelled, and the pool serves the next call. The run
happens in a child interpreter, which receives the SIGINT."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

# Reads the results as argv[1] says: read_all(), iteration, pyarrow (whose read waits without
# the GIL) or a ctypes caller of the exported stream's get_next (which keeps the GIL). Both
# workers sleep, so the next call can only run once the interrupted run was cancelled.
CHILD = r"""
import ctypes, sys, time
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

def read_holding_the_gil(result):
    capsule = result.__arrow_c_stream__()
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    stream = get_pointer(capsule, b"arrow_array_stream")
    callbacks = (ctypes.c_void_p * 5).from_address(stream)
    get_next = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(callbacks[1])
    get_last_error = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(callbacks[2])
    array = ctypes.create_string_buffer(80)  # an ArrowArray, which a failed get_next leaves
    try:
        code = get_next(stream, array)
    except KeyboardInterrupt:
        print("get_next failed:", get_last_error(stream).decode(), flush=True)
        raise
    print("get_next returned", code, flush=True)

def read(result):
    if reading == "read_all":
        result.read_all()
    elif reading == "iteration":
        for batch in result:
            pass
    elif reading == "pyarrow":
        try:
            pa.table(result)
        except pa.ArrowInvalid:
            # pyarrow's read gives the interpreter no chance to raise at once: the
            # KeyboardInterrupt comes at its next check, in this handler.
            time.sleep(1)
    else:
        read_holding_the_gil(result)

data = pa.table({"k": pa.array(range(4), pa.int64())})
with udf.WorkerPool(max_workers=2) as pool:
    fork_server = pool.fork_server_pid
    result = udf.map_batches(sleepy, data, pool=pool, partition_rows=1, batch_size=1)
    print("running", flush=True)
    try:
        read(result)
        print("not interrupted", flush=True)
    except KeyboardInterrupt as interrupt:
        context = interrupt.__context__
        described = "None" if context is None else f"{type(context).__name__}: {context}"
        print("interrupted, context:", described, flush=True)
    if reading in ("read_all", "iteration"):
        try:
            result.read_all()
        except CancelledError as error:
            print("then cancelled:", error, flush=True)
    after = udf.map_batches(identity, data, pool=pool).read_all()
    print("next call:", pa.table(after).column("k").to_pylist(), flush=True)
    print("same fork server:", pool.fork_server_pid == fork_server, flush=True)
"""

INTERRUPTED_MESSAGE = "interrupted: the Python run was cancelled by KeyboardInterrupt"

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


def interrupted_child(reading: str, expected: "list[str]") -> None:
    """Runs CHILD reading as ``reading`` says, sends it SIGINT once a worker sleeps in the
    function, and checks that it then prints the ``expected`` lines, serves a next call from
    the same fork server and exits cleanly."""
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
        # The child's main thread went from printing "running" into the read long before a
        # worker could start, unpickle the function and print; the pause covers a loaded machine
        # descheduling it in between (a SIGINT before the read would not reach the run).
        time.sleep(0.5)
        os.kill(child.pid, signal.SIGINT)
        for line in expected + ["next call: [0, 1, 2, 3]", "same fork server: True"]:
            assert lines.get(timeout=DEADLINE) == line
        assert child.wait(timeout=DEADLINE) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.parametrize("reading", ["read_all", "iteration"])
def test_ctrl_c_interrupts_reading_and_leaves_the_pool_working(reading):
    interrupted_child(
        reading,
        ["interrupted, context: None", "then cancelled: the call was cancelled"],
    )


def test_ctrl_c_interrupts_pyarrow_reading_the_exported_stream():
    # The KeyboardInterrupt follows pyarrow's error for the failed read, chained to it.
    interrupted_child("pyarrow", ["interrupted, context: ArrowInvalid: " + INTERRUPTED_MESSAGE])


def test_ctrl_c_interrupts_a_consumer_holding_the_gil_in_get_next():
    interrupted_child(
        "holding the GIL",
        ["get_next failed: " + INTERRUPTED_MESSAGE, "interrupted, context: None"],
    )
