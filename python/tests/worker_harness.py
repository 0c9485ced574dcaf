"""A small pure-Python stand-in for the engine's side of the worker protocol, to test the
worker package without the C++ engine.

``Engine`` starts a fork server (``python -m bowstring.worker --fork-server``) with a socketpair
as its control socket, listens on a Unix socket in a private directory, spawns workers, runs
calls on them (input written by a thread while results are read, on either transport), and
shuts everything down checking that the fork server reports every worker and exits.
"""

from __future__ import annotations

import dataclasses
import mmap
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional

import cloudpickle
import pyarrow as pa

from bowstring.worker.protocol import Frame, FrameSocket, FrameType, encode_json

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 20.0


def ipc_stream(batch: pa.RecordBatch) -> pa.Buffer:
    """``batch`` as a whole IPC stream: schema, dictionaries, the batch, end of stream."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return sink.getvalue()


def schema_stream(schema: pa.Schema) -> pa.Buffer:
    """An IPC stream holding only ``schema``."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, schema):
        pass
    return sink.getvalue()


def command_payload(
    kind: str,
    function: Callable,
    input_schema: pa.Schema,
    output_schema: pa.Schema,
    transport: str = "socket",
    config: Optional[Dict[str, str]] = None,
    name: Optional[str] = None,
) -> bytes:
    """A COMMAND payload as the engine builds it."""
    input_blob = schema_stream(input_schema).to_pybytes()
    output_blob = schema_stream(output_schema).to_pybytes()
    pickled = cloudpickle.dumps(function)
    header = encode_json(
        {
            "kind": kind,
            "name": name if name is not None else function.__name__,
            "transport": transport,
            "input_schema_length": len(input_blob),
            "output_schema_length": len(output_blob),
            "function_length": len(pickled),
            "config": config if config is not None else {"session_time_zone": "UTC"},
        }
    )
    return len(header).to_bytes(4, "little") + header + input_blob + output_blob + pickled


class WorkerGone(Exception):
    """The worker closed (or reset) its connection in the middle of a call."""


@dataclasses.dataclass
class CallResult:
    """What a call sent back."""

    batches: List[pa.RecordBatch]
    metrics: Optional[dict]
    error: Optional[dict]
    # The transport each result came by: "socket" or "shm".
    transports: List[str]

    def table(self, schema: pa.Schema) -> pa.Table:
        return pa.Table.from_batches(self.batches, schema=schema)


class OutputReader(threading.Thread):
    """Collects the lines a worker writes to its output pipe, until the pipe closes."""

    def __init__(self, fd: int) -> None:
        super().__init__(daemon=True)
        self._file = os.fdopen(fd, "rb")
        self.lines: List[str] = []

    def run(self) -> None:
        with self._file:
            for line in self._file:
                self.lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    def text(self) -> str:
        return "\n".join(self.lines)


@dataclasses.dataclass
class WorkerHandle:
    worker_id: int
    pid: int
    connection: FrameSocket
    output: OutputReader
    hello: dict


class Engine:
    """The engine's side of one worker pool, in Python."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="bowstring-test-")
        os.chmod(self.directory, 0o700)
        self.socket_path = os.path.join(self.directory, "workers.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.socket_path)
        os.chmod(self.socket_path, 0o600)
        self.listener.listen(16)
        self.listener.settimeout(TIMEOUT)
        self.secret = secrets.token_hex(32)
        self.workers: Dict[int, WorkerHandle] = {}
        # EXITED reports received, by worker id.
        self.exits: Dict[int, dict] = {}
        self._next_worker_id = 1
        self.server_log = os.path.join(self.directory, "fork-server.log")
        engine_end, server_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        environment = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
        with open(self.server_log, "wb") as log:
            self.fork_server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bowstring.worker",
                    "--fork-server",
                    "--control-fd",
                    str(server_end.fileno()),
                ],
                pass_fds=[server_end.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=environment,
            )
        server_end.close()
        engine_end.settimeout(TIMEOUT)
        self.control = FrameSocket(engine_end, "fork server")
        ready = self.control.read()
        assert ready is not None, f"fork server exited: {self.log()}"
        assert ready.type == FrameType.READY, ready.type
        self.ready = ready.json()

    def log(self) -> str:
        with open(self.server_log, encoding="utf-8", errors="replace") as log:
            return log.read()

    # Fork server.

    def _control_frame(self) -> Frame:
        frame = self.control.read()
        assert frame is not None, f"fork server closed its control socket: {self.log()}"
        return frame

    def spawn(self, memory_limit: int = 0, welcome: bool = True) -> WorkerHandle:
        """Asks the fork server for a worker and accepts its authenticated connection; without
        ``welcome`` the connection is closed after HELLO, as the engine rejects one."""
        worker_id = self._next_worker_id
        self._next_worker_id += 1
        read_fd, write_fd = os.pipe2(os.O_CLOEXEC)
        request = {
            "worker_id": worker_id,
            "socket_path": self.socket_path,
            "secret": self.secret,
            "memory_limit": memory_limit,
        }
        try:
            self.control.write(FrameType.SPAWN, encode_json(request), write_fd)
        finally:
            os.close(write_fd)
        output = OutputReader(read_fd)
        output.start()
        while True:
            frame = self._control_frame()
            if frame.type == FrameType.SPAWNED:
                break
            self._record_exit(frame)
        spawned = frame.json()
        assert spawned["worker_id"] == worker_id
        connection_socket, _ = self.listener.accept()
        connection_socket.settimeout(TIMEOUT)
        connection = FrameSocket(connection_socket, f"worker {worker_id}")
        hello_frame = connection.read()
        assert hello_frame is not None and hello_frame.type == FrameType.HELLO, output.text()
        hello = hello_frame.json()
        assert hello["secret"] == self.secret
        assert hello["worker_id"] == worker_id
        assert hello["pid"] == spawned["pid"]
        assert hello["protocol_version"] == 1
        if welcome:
            connection.write(FrameType.WELCOME, b"{}")
        else:
            connection.close()
        handle = WorkerHandle(worker_id, spawned["pid"], connection, output, hello)
        self.workers[worker_id] = handle
        return handle

    def _record_exit(self, frame: Frame) -> None:
        assert frame.type == FrameType.EXITED, frame.type
        report = frame.json()
        self.exits[report["worker_id"]] = report

    def wait_exit(self, worker: WorkerHandle) -> dict:
        """The fork server's EXITED report for ``worker``."""
        while worker.worker_id not in self.exits:
            self._record_exit(self._control_frame())
        report = self.exits[worker.worker_id]
        assert report["pid"] == worker.pid
        worker.output.join(TIMEOUT)
        return report

    def fork_server_children(self) -> List[int]:
        """Processes (zombies included) whose parent is the fork server."""
        pid = self.fork_server.pid
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]

    def close(self) -> None:
        """Closes the connections of the workers still running, checks that each one exits
        with code 0 and that every worker was reported, then closes the control socket and
        checks that the fork server exits with code 0 leaving no child behind."""
        running = [worker for worker in self.workers.values() if worker.worker_id not in self.exits]
        for worker in running:
            worker.connection.close()
        for worker in running:
            report = self.wait_exit(worker)
            assert report["exit_code"] == 0, (report, worker.output.text())
        for worker in self.workers.values():
            self.wait_exit(worker)
        assert self.fork_server_children() == []
        self.shutdown()

    def shutdown(self) -> int:
        """Closes the control socket and waits for the fork server; returns its exit code."""
        self.control.close()
        try:
            code = self.fork_server.wait(TIMEOUT)
        finally:
            self.listener.close()
            shutil.rmtree(self.directory, ignore_errors=True)
        assert code == 0, self.log()
        return code

    def kill(self) -> None:
        """Stops everything without checks (after a failed test)."""
        if self.fork_server.poll() is None:
            self.fork_server.kill()
            self.fork_server.wait()
        for worker in self.workers.values():
            try:
                os.kill(worker.pid, 9)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.directory, ignore_errors=True)

    # Calls.

    def call(
        self,
        worker: WorkerHandle,
        kind: str,
        function: Callable,
        batches: Iterable[pa.RecordBatch],
        input_schema: pa.Schema,
        output_schema: pa.Schema,
        transport: str = "socket",
        input_transport: str = "socket",
        config: Optional[Dict[str, str]] = None,
        name: Optional[str] = None,
    ) -> CallResult:
        """Runs one call: COMMAND, input written by a thread, results read here."""
        connection = worker.connection
        connection.write(
            FrameType.COMMAND,
            command_payload(kind, function, input_schema, output_schema, transport, config, name),
        )
        stop = threading.Event()
        writer_error: List[BaseException] = []

        def write_input() -> None:
            try:
                for batch in batches:
                    if stop.is_set():
                        break
                    send_batch(connection, batch, input_transport)
                connection.write(FrameType.END_OF_DATA)
            except BaseException as error:
                writer_error.append(error)

        writer = threading.Thread(target=write_input, daemon=True)
        writer.start()
        results: List[pa.RecordBatch] = []
        transports: List[str] = []
        try:
            while True:
                frame = self._result_frame(worker)
                if frame.type == FrameType.END_OF_DATA:
                    break
                results.append(receive_batch(frame))
                transports.append("shm" if frame.type == FrameType.SHM_BATCH else "socket")
            final = self._result_frame(worker)
            assert final.type in (FrameType.COMPLETE, FrameType.ERROR), final.type
            if final.type == FrameType.ERROR:
                stop.set()
        finally:
            writer.join(TIMEOUT)
        assert not writer.is_alive()
        assert not writer_error, writer_error
        if final.type == FrameType.COMPLETE:
            return CallResult(results, final.json(), None, transports)
        return CallResult(results, None, final.json(), transports)

    @staticmethod
    def _result_frame(worker: WorkerHandle) -> Frame:
        try:
            frame = worker.connection.read()
        except ConnectionResetError:
            frame = None
        if frame is None:
            raise WorkerGone(f"worker {worker.worker_id} closed the connection")
        return frame


def send_batch(connection: FrameSocket, batch: pa.RecordBatch, transport: str) -> None:
    """Writes ``batch`` as a BATCH frame or, with ``transport="shm"``, a SHM_BATCH frame."""
    stream = ipc_stream(batch)
    if transport == "socket":
        connection.write(FrameType.BATCH, stream)
        return
    fd = os.memfd_create("bowstring-test-input", os.MFD_CLOEXEC)
    try:
        os.write(fd, stream)
        connection.write(FrameType.SHM_BATCH, encode_json({"length": stream.size}), fd)
    finally:
        os.close(fd)


def receive_batch(frame: Frame) -> pa.RecordBatch:
    """The record batch of a BATCH or SHM_BATCH result frame, checked to be a whole stream."""
    if frame.type == FrameType.BATCH:
        buffer = frame.payload
    else:
        assert frame.type == FrameType.SHM_BATCH, frame.type
        try:
            length = frame.json()["length"]
            assert os.fstat(frame.fd).st_size >= length
            buffer = pa.py_buffer(mmap.mmap(frame.fd, length, prot=mmap.PROT_READ))
        finally:
            os.close(frame.fd)
    reader = pa.ipc.open_stream(buffer)
    batches = list(reader)
    assert len(batches) == 1, f"a result stream holds {len(batches)} batches"
    return batches[0]


def wait_until(predicate: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
    """Polls ``predicate`` until it returns something true (or fails after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.01)
