"""The fork server: imports the heavy libraries once and forks ready workers on request.

The engine starts it with a control socket (descriptor 3 by default) and sends ``SPAWN``; the
fork server forks a worker, answers ``SPAWNED``, and reports ``EXITED`` when the worker ends. A
``SIGCHLD`` handler only wakes the main loop (through ``signal.set_wakeup_fd``), which reaps
children between control frames, so reaping never interrupts a frame being read or written.
When the control socket closes the fork server gives its workers one second to finish, kills
the rest, reaps them all and exits.
"""

from __future__ import annotations

import ctypes
import faulthandler
import os
import platform
import resource
import select
import signal
import socket
import sys
import time
import traceback
from typing import Dict, NoReturn

# Imported once, here, so that every forked worker starts with them loaded.
import cloudpickle  # noqa: F401
import numpy  # noqa: F401
import pandas  # noqa: F401
import pyarrow  # noqa: F401

from bowstring.worker import worker
from bowstring.worker.protocol import (
    Frame,
    FrameSocket,
    FrameType,
    ProtocolError,
    require_field,
)

__all__ = ["ForkServer", "die_with_parent", "main"]

_PR_SET_PDEATHSIG = 1
# How long workers may take to end on their own once the control socket closed.
_GRACE_SECONDS = 1.0


def die_with_parent() -> None:
    """Asks the kernel to kill this process with SIGKILL when its parent ends."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"prctl(PR_SET_PDEATHSIG): {os.strerror(error)}")


def _address_space_size() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def limit_memory(extra_bytes: int) -> None:
    """Limits the address space to its current size plus ``extra_bytes`` (when positive), so
    that allocating beyond raises MemoryError."""
    if extra_bytes <= 0:
        return
    limit = _address_space_size() + extra_bytes
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _redirect_output(output_fd: int) -> None:
    """Points descriptors 1 and 2, and ``sys.stdout``/``sys.stderr``, at the output pipe."""
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    if output_fd not in (1, 2):
        os.close(output_fd)
    sys.stdout = open(
        1, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False
    )
    sys.stderr = open(
        2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False
    )


def _exit_status(status: int) -> tuple:
    """``(exit_code, signal)`` of a wait status, one of them None."""
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return os.WEXITSTATUS(status), None


class ForkServer:
    """Forks workers on the engine's request and reports how each one ends.

    Parameters
    ----------
    control : FrameSocket
        The connection to the engine.
    """

    def __init__(self, control: FrameSocket) -> None:
        self.control = control
        # Workers alive: pid -> worker id.
        self.children: Dict[int, int] = {}
        self._wakeup_read, self._wakeup_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def run(self) -> int:
        """Serves the engine until its control socket closes; returns the exit status."""
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        signal.set_wakeup_fd(self._wakeup_write, warn_on_full_buffer=False)
        status = 0
        try:
            self.control.write_json(
                FrameType.READY, {"pid": os.getpid(), "python_version": platform.python_version()}
            )
            while True:
                readable, _, _ = select.select([self.control.sock, self._wakeup_read], [], [])
                if self._wakeup_read in readable:
                    self._drain_wakeups()
                self._reap(report=True)
                if self.control.sock in readable:
                    frame = self.control.read()
                    if frame is None:
                        break
                    self._handle(frame)
        except ProtocolError as error:
            print(f"bowstring fork server: {error}", file=sys.stderr, flush=True)
            status = 1
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self._stop_children()
        return status

    def _drain_wakeups(self) -> None:
        try:
            while os.read(self._wakeup_read, 4096):
                pass
        except BlockingIOError:
            pass

    def _reap(self, report: bool) -> None:
        """Reaps every child that ended; reports each worker with EXITED when ``report``."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker_id = self.children.pop(pid, None)
            if worker_id is None or not report:
                continue
            exit_code, signal_number = _exit_status(status)
            self.control.write_json(
                FrameType.EXITED,
                {
                    "worker_id": worker_id,
                    "pid": pid,
                    "exit_code": exit_code,
                    "signal": signal_number,
                },
            )

    def _handle(self, frame: Frame) -> None:
        if frame.type != FrameType.SPAWN:
            if frame.fd is not None:
                os.close(frame.fd)
            raise ProtocolError(
                f"engine sent a {frame.type.name} frame to the fork server, which accepts only "
                "SPAWN"
            )
        output_fd = frame.fd
        try:
            request = frame.json()
            what = "SPAWN payload"
            worker_id = require_field(request, "worker_id", int, what)
            socket_path = require_field(request, "socket_path", str, what)
            secret = require_field(request, "secret", str, what)
            memory_limit = require_field(request, "memory_limit", int, what)
        except BaseException:
            os.close(output_fd)
            raise
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            self._become_worker(parent, output_fd, worker_id, socket_path, secret, memory_limit)
        os.close(output_fd)
        self.children[pid] = worker_id
        self.control.write_json(FrameType.SPAWNED, {"worker_id": worker_id, "pid": pid})

    def _become_worker(
        self,
        parent: int,
        output_fd: int,
        worker_id: int,
        socket_path: str,
        secret: str,
        memory_limit: int,
    ) -> NoReturn:
        """Runs in the forked child: drops the fork server's state and serves as a worker."""
        status = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.close(self._wakeup_read)
            os.close(self._wakeup_write)
            self.control.close()
            die_with_parent()
            if os.getppid() != parent:
                os._exit(1)
            _redirect_output(output_fd)
            # A crash prints the Python stack to the output the engine shows with the failure.
            faulthandler.enable(sys.stderr)
            limit_memory(memory_limit)
            worker.run_worker(socket_path, secret, worker_id)
            status = 0
        except SystemExit as exit_request:
            code = exit_request.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
        except ProtocolError as error:
            print(f"bowstring worker {worker_id}: {error}", file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(status)

    def _stop_children(self) -> None:
        """Waits up to a second for the workers, kills those left, and reaps them all."""
        deadline = time.monotonic() + _GRACE_SECONDS
        while self.children:
            self._reap(report=False)
            remaining = deadline - time.monotonic()
            if not self.children or remaining <= 0:
                break
            select.select([self._wakeup_read], [], [], remaining)
            self._drain_wakeups()
        for pid in self.children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in list(self.children):
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.children.clear()


def main(control_fd: int = 3) -> int:
    """Runs a fork server on the control socket ``control_fd``; returns the exit status."""
    die_with_parent()
    # Ctrl-C in a terminal reaches the whole process group; the engine decides what to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.set_inheritable(control_fd, False)
    control = FrameSocket(socket.socket(fileno=control_fd), "engine")
    return ForkServer(control).run()
