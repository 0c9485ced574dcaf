"""A process forked after using bowstring.udf (multiprocessing's "fork" start method, a
pre-forking server) never touches its parent's pools: the default pool is replaced by a new one
in the child, a pool inherited from the parent refuses use there, and closing, shutting down or
dropping pools and runs in the child leaves the parent's workers, fork server and socket alone."""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import time

import cloudpickle
import pyarrow as pa
import pytest

from bowstring import udf

# The workers cannot import this module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

DATA = pa.table({"k": pa.array(range(100), pa.int64())})
FORK = multiprocessing.get_context("fork")


def plus_one(batches):
    for batch in batches:
        yield pa.record_batch([pa.compute.add(batch.column(0), 1)], names=["k"])


def expected_plus_one() -> list:
    return [k + 1 for k in range(100)]


def run_plus_one(pool=None) -> list:
    return pa.table(udf.map_batches(plus_one, DATA, pool=pool)).column("k").to_pylist()


def in_child(target, *args) -> list:
    """Runs ``target(report, *args)`` in a forked child; returns what it reported (and checks
    that it exited cleanly)."""
    receiver, sender = FORK.Pipe(duplex=False)
    child = FORK.Process(target=_report_from, args=(target, sender) + args)
    child.start()
    sender.close()
    reports = []
    try:
        # A child stuck on something of the parent's sends nothing more.
        while receiver.poll(60):
            reports.append(receiver.recv())
    except EOFError:
        pass
    child.join(timeout=60)
    if child.exitcode is None:
        child.kill()
        child.join()
    assert child.exitcode == 0, reports
    return reports


def _report_from(target, sender, *args) -> None:
    try:
        target(sender.send, *args)
    except BaseException as error:  # reported to the parent, which fails the test
        sender.send(("error", repr(error)))
        raise
    finally:
        sender.close()


def uses_the_default_pool(report, parents_fork_server) -> None:
    report(("result", run_plus_one()))
    report(("own fork server", udf._default_pool.fork_server_pid != parents_fork_server))


def uses_the_default_pool_then_shuts_down(report, parents_fork_server) -> None:
    uses_the_default_pool(report, parents_fork_server)
    udf.shutdown()
    report(("shut down", udf._default_pool is None))


def shuts_down_at_once(report) -> None:
    udf.shutdown()
    report(("shut down", udf._default_pool is None))


def uses_an_inherited_pool(report, pool) -> None:
    for use in (lambda: run_plus_one(pool), lambda: pool.stats, lambda: pool.fork_server_pid):
        try:
            use()
        except ValueError as error:
            report(("refused", str(error)))
    pool.close()
    report(("closed", pool.closed))


def plus_one_slowly(batches):
    time.sleep(1)
    yield from plus_one(batches)


def drops_an_unread_run(report, holder) -> None:
    holder.clear()
    gc.collect()
    report(("dropped", True))


@pytest.fixture
def parents_pool():
    """A new default pool, started by this process, with its identity."""
    udf.shutdown()
    assert run_plus_one() == expected_plus_one()
    pool = udf._default_pool
    identity = (pool.fork_server_pid, pool.socket_path, sorted(pool.worker_pids))
    yield pool, identity
    # The parent's pool is as it was: same fork server, socket and workers, and it works.
    assert (pool.fork_server_pid, pool.socket_path, sorted(pool.worker_pids)) == identity
    assert os.path.exists(pool.socket_path)
    assert pool.stats["workers_failed"] == 0
    assert run_plus_one() == expected_plus_one()
    assert udf._default_pool is pool


def test_a_forked_child_runs_functions_in_a_pool_of_its_own(parents_pool):
    pool, (fork_server, _, _) = parents_pool
    reports = in_child(uses_the_default_pool, fork_server)
    assert reports == [("result", expected_plus_one()), ("own fork server", True)]


def test_a_forked_child_shutting_down_leaves_the_parents_pool_alone(parents_pool):
    pool, (fork_server, _, _) = parents_pool
    reports = in_child(uses_the_default_pool_then_shuts_down, fork_server)
    assert reports == [
        ("result", expected_plus_one()),
        ("own fork server", True),
        ("shut down", True),
    ]
    assert in_child(shuts_down_at_once) == [("shut down", True)]


def test_a_pool_inherited_by_a_forked_child_refuses_use_there(parents_pool):
    pool, _ = parents_pool
    with udf.WorkerPool(max_workers=1) as own:
        assert run_plus_one(own) == expected_plus_one()
        server, path = own.fork_server_pid, own.socket_path
        reports = in_child(uses_an_inherited_pool, own)
        refusals = [text for kind, text in reports if kind == "refused"]
        assert len(refusals) == 3, reports
        for text in refusals:
            assert f"started by process {os.getpid()}" in text, text
            assert "forked from it" in text, text
        assert reports[-1] == ("closed", True)
        assert (own.fork_server_pid, own.socket_path) == (server, path)
        assert run_plus_one(own) == expected_plus_one()


def test_a_run_going_on_at_the_fork_is_left_to_the_parent(parents_pool):
    holder = [udf.map_batches(plus_one_slowly, DATA)]
    assert in_child(drops_an_unread_run, holder) == [("dropped", True)]
    assert pa.table(holder[0]).column("k").to_pylist() == expected_plus_one()
