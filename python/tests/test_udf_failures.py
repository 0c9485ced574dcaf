"""Failures of Python functions and workers reach the caller as bowstring.errors exceptions
naming what happened; afterwards the pool still works, and no zombie process or open
descriptor is left behind."""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
import threading

import cloudpickle
import pyarrow as pa
import pytest

from bowstring import udf
from bowstring.errors import (
    BowstringException,
    CancelledError,
    PythonException,
    PythonWorkerError,
)
from udf_support import open_descriptors, wait_until, zombies_of

# The workers cannot import this module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

DATA = pa.table({"k": pa.array(range(1000), pa.int64()), "v": pa.array([0.5] * 1000)})
# Worker memory limit of the pool of these tests.
MEMORY_LIMIT = 512 << 20


def identity(batches):
    yield from batches


def works(pool) -> None:
    """The pool runs a function correctly."""
    assert pa.table(udf.map_batches(identity, DATA, pool=pool)).equals(DATA)


def no_zombies(pool) -> bool:
    return not zombies_of([os.getpid(), pool.fork_server_pid])


class Leaks:
    """Checks that a failure leaves the pool as it found it: once the pool is back to one idle
    worker, this process has as many descriptors of each kind open as after the first
    successful call, and neither this process nor the fork server has a zombie child."""

    def __init__(self, pool) -> None:
        self.pool = pool
        works(pool)
        assert wait_until(lambda: pool.stats["workers_alive"] == 1)
        self.descriptors = open_descriptors()

    def check(self) -> None:
        works(self.pool)
        assert wait_until(lambda: self.pool.stats["workers_alive"] == 1)
        assert wait_until(lambda: no_zombies(self.pool)), zombies_of(
            [os.getpid(), self.pool.fork_server_pid]
        )
        assert wait_until(lambda: open_descriptors() == self.descriptors), (
            f"descriptors opened: {open_descriptors() - self.descriptors}, "
            f"closed: {self.descriptors - open_descriptors()}"
        )


@pytest.fixture
def pool():
    """A pool of one worker, so that its state after a recovery is known exactly."""
    before = open_descriptors()
    with udf.WorkerPool(max_workers=1, memory_limit=MEMORY_LIMIT) as workers:
        server = workers.fork_server_pid
        yield workers
    # Closing the pool stops every process it started and closes every descriptor it opened.
    # Only those: others may close meanwhile (the idle worker of the default pool that an
    # earlier test, such as a doctest, started exits after its idle timeout).
    assert wait_until(lambda: not zombies_of([os.getpid(), server]))
    assert wait_until(lambda: not os.path.exists(f"/proc/{server}"))
    assert wait_until(
        lambda: not open_descriptors() - before
    ), f"descriptors left open: {open_descriptors() - before}"


def read(pool, function, **options):
    """The results, read by bowstring (through ``__arrow_c_stream__`` another library would
    raise its own exception with the same message)."""
    return pa.table(udf.map_batches(function, DATA, pool=pool, **options).read_all())


# --- the user's function fails ---


def test_user_exception_reaches_the_caller_with_its_traceback(pool):
    leaks = Leaks(pool)

    def divide_by_zero(batches):
        for batch in batches:
            yield batch
            ratio = 1 / 0  # noqa: F841

    with pytest.raises(PythonException) as info:
        read(pool, divide_by_zero)
    error = info.value
    assert error.exception_type == "ZeroDivisionError"
    assert "division by zero" in str(error)
    assert "Traceback" in str(error)
    assert "in divide_by_zero" in str(error)
    assert "ratio = 1 / 0" in str(error)
    assert "bowstring/worker" not in error.traceback
    assert isinstance(error, BowstringException)
    leaks.check()


def test_exception_in_a_rows_function_names_the_batch(pool):
    leaks = Leaks(pool)

    def fail_at_500(k, v):
        if k == 500:
            raise ValueError(f"bad key {k}")
        return v

    with pytest.raises(PythonException, match="bad key 500") as info:
        read(pool, fail_at_500, kind="rows", schema="v double", batch_size=100)
    assert info.value.exception_type == "ValueError"
    assert info.value.batch == 5
    leaks.check()


def test_wrong_result_length(pool):
    leaks = Leaks(pool)

    def too_short(k, v):
        return v.iloc[:-1]

    with pytest.raises(PythonException, match="(?i)length|rows"):
        read(pool, too_short, kind="pandas_series", schema="v double")
    leaks.check()


def test_wrong_result_type(pool):
    leaks = Leaks(pool)

    def strings(batches):
        for batch in batches:
            yield pa.record_batch({"k": pa.array(["x"] * batch.num_rows), "v": batch.column("v")})

    with pytest.raises(PythonException, match="(?i)schema|type"):
        read(pool, strings)
    leaks.check()


def test_wrong_result_columns(pool):
    leaks = Leaks(pool)

    def renamed(batches):
        for batch in batches:
            yield batch.rename_columns(["key", "value"])

    with pytest.raises(PythonException, match="key"):
        read(pool, renamed)
    leaks.check()


def test_memory_error_from_the_memory_limit(pool):
    leaks = Leaks(pool)

    def hog(batches):
        hoard = []
        for batch in batches:
            while True:
                hoard.append(bytearray(64 << 20))
            yield batch

    with pytest.raises(PythonException, match="MemoryError") as info:
        read(pool, hog)
    assert info.value.exception_type == "MemoryError"
    leaks.check()


# --- the worker dies ---


@pytest.mark.parametrize("transport", ["socket", "shm"])
def test_invalid_arrays_built_by_the_function_are_refused(pool, transport):
    leaks = Leaks(pool)

    def backwards_offsets(batches):
        for batch in batches:
            offsets = pa.py_buffer(struct.pack("<3i", 0, 5, 2))
            text = pa.StringArray.from_buffers(2, offsets, pa.py_buffer(b"hello"))
            yield pa.record_batch([text], names=["s"])

    with pytest.raises(PythonWorkerError, match="result batch 0 that cannot be read: .*offset"):
        read(pool, backwards_offsets, schema="s string", transport=transport)
    leaks.check()


def test_worker_exit(pool):
    leaks = Leaks(pool)

    def exit_3(batches):
        import os

        os._exit(3)

    with pytest.raises(PythonWorkerError, match="exited with code 3"):
        read(pool, exit_3)
    assert pool.stats["workers_failed"] >= 1
    leaks.check()


def test_worker_segfault(pool):
    leaks = Leaks(pool)

    def segfault(batches):
        import ctypes

        ctypes.string_at(0)

    with pytest.raises(PythonWorkerError, match="signal 11.*SIGSEGV"):
        read(pool, segfault)
    leaks.check()


def test_dying_worker_output_is_in_the_message(pool):
    leaks = Leaks(pool)

    def last_words(batches):
        import os
        import sys

        print("about to exit", file=sys.stderr, flush=True)
        os._exit(7)

    with pytest.raises(PythonWorkerError, match="(?s)exited with code 7.*about to exit"):
        read(pool, last_words)
    leaks.check()


# --- the caller stops the function ---


def endless(batches):
    while True:
        pass


def test_cancel_from_another_thread(pool):
    leaks = Leaks(pool)
    result = udf.map_batches(endless, DATA, pool=pool)
    started = threading.Event()

    def cancel_when_running():
        wait_until(lambda: pool.stats["workers_idle"] == 0, timeout=30)
        started.set()
        result.cancel()

    canceller = threading.Thread(target=cancel_when_running)
    canceller.start()
    with pytest.raises(CancelledError):
        result.read_all()
    canceller.join()
    assert started.is_set()
    leaks.check()


def test_cancel_before_reading(pool):
    leaks = Leaks(pool)
    result = udf.map_batches(endless, DATA, pool=pool)
    result.cancel()
    with pytest.raises(CancelledError):
        result.read_all()
    leaks.check()


def test_timeout(pool):
    leaks = Leaks(pool)
    with pytest.raises(PythonWorkerError, match="timeout"):
        read(pool, endless, timeout=1.0)
    leaks.check()


def test_dropping_an_unread_result_stops_its_work(pool):
    leaks = Leaks(pool)
    udf.map_batches(endless, DATA, pool=pool)
    leaks.check()


# --- a client that is not a worker ---


def frame(frame_type: int, payload: bytes) -> bytes:
    return struct.pack("<IIQ", frame_type, 0, len(payload)) + payload


HELLO = 10


def closed_by_peer(client: socket.socket) -> bool:
    """Whether the other end closed the connection without sending anything (a reset, when it
    closed with bytes it never read)."""
    try:
        return client.recv(16) == b""
    except ConnectionResetError:
        return True


def test_client_with_a_wrong_secret_is_closed(pool):
    leaks = Leaks(pool)
    rejected_before = pool.stats["connections_rejected"]
    hello = {
        "secret": "00" * 32,
        "protocol_version": 1,
        "python_version": f"{sys.version_info.major}.{sys.version_info.minor}",
        "worker_id": 1,
        "pid": os.getpid(),
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(30)
        client.connect(pool.socket_path)
        client.sendall(frame(HELLO, json.dumps(hello).encode()))
        # The engine closes the connection without a word.
        assert closed_by_peer(client)
    assert wait_until(lambda: pool.stats["connections_rejected"] == rejected_before + 1)
    leaks.check()


def test_client_that_sends_garbage_is_closed(pool):
    leaks = Leaks(pool)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(30)
        client.connect(pool.socket_path)
        client.sendall(b"GET / HTTP/1.1\r\n\r\n")
        assert closed_by_peer(client)
    leaks.check()


def test_failures_in_a_row(pool):
    """Every failure above once more on the same pool, then the pool still works."""
    leaks = Leaks(pool)

    def exit_3(batches):
        import os

        os._exit(3)

    def raise_error(batches):
        raise RuntimeError("no")

    for _ in range(3):
        with pytest.raises(PythonWorkerError):
            read(pool, exit_3)
        with pytest.raises(PythonException):
            read(pool, raise_error)
        with pytest.raises(PythonWorkerError):
            read(pool, endless, timeout=0.5)
    leaks.check()


def test_closed_pool(pool):
    pool.close()
    assert pool.closed
    with pytest.raises(ValueError, match="closed"):
        udf.map_batches(identity, DATA, pool=pool)
    pool.close()


def test_run_fails_when_its_pool_closes(pool):
    result = udf.map_batches(endless, DATA, pool=pool)
    assert wait_until(lambda: pool.stats["workers_idle"] == 0 and pool.stats["workers_alive"] == 1)
    pool.close()
    with pytest.raises(PythonWorkerError):
        result.read_all()
