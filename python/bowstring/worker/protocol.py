"""Frames of the worker protocol (docs/worker-protocol.md).

Every message between the engine, the fork server and the workers is a frame: a 16-byte header
(type, a reserved zero word, payload length; little-endian) followed by the payload. ``SPAWN``
and ``SHM_BATCH`` frames carry exactly one file descriptor, sent as ``SCM_RIGHTS`` ancillary
data with the header, so headers are read with ``recvmsg`` to receive it with them.

Payloads are read into 64-byte aligned ``pyarrow`` buffers, so Arrow IPC streams in them decode
without copying.
"""

from __future__ import annotations

import array
import enum
import json
import os
import socket
import struct
from typing import Any, Iterable, List, Optional, Union

import pyarrow as pa

__all__ = [
    "FRAME_HEADER_SIZE",
    "MAX_FRAME_PAYLOAD",
    "PROTOCOL_VERSION",
    "Frame",
    "FrameSocket",
    "FrameType",
    "ProtocolError",
    "decode_json",
    "encode_json",
]

PROTOCOL_VERSION = 1
FRAME_HEADER_SIZE = 16
MAX_FRAME_PAYLOAD = 1 << 40

_HEADER = struct.Struct("<IIQ")
_FD_SIZE = array.array("i").itemsize
# Room for a few descriptors, so that a peer sending too many is detected rather than having
# the extra ones silently truncated.
_ANCILLARY_SIZE = socket.CMSG_SPACE(4 * _FD_SIZE)
# Payloads up to this size are copied behind the header and sent with one call.
_SMALL_PAYLOAD = 16 * 1024


class FrameType(enum.IntEnum):
    """Frame types, with the names the protocol document gives them."""

    READY = 1
    SPAWN = 2
    SPAWNED = 3
    EXITED = 4
    HELLO = 10
    WELCOME = 11
    COMMAND = 20
    BATCH = 21
    SHM_BATCH = 22
    END_OF_DATA = 23
    COMPLETE = 24
    ERROR = 25


# The frames that carry exactly one descriptor; every other frame carries none.
_FRAMES_WITH_FD = frozenset({FrameType.SPAWN, FrameType.SHM_BATCH})
_EMPTY_PAYLOAD = pa.py_buffer(b"")

Payload = Union[bytes, bytearray, memoryview, pa.Buffer]


class ProtocolError(Exception):
    """The peer broke the protocol (or the connection ended inside a frame)."""


class Frame:
    """One received frame.

    Attributes
    ----------
    type : FrameType
    payload : pyarrow.Buffer
        64-byte aligned and writable; empty for frames without payload.
    fd : int or None
        The descriptor that came with the frame (close-on-exec); the receiver owns it.
    """

    __slots__ = ("type", "payload", "fd")

    def __init__(self, type: FrameType, payload: pa.Buffer, fd: Optional[int]) -> None:
        self.type = type
        self.payload = payload
        self.fd = fd

    def json(self) -> dict:
        """The payload parsed as a JSON object."""
        return decode_json(self.payload, self.type.name)


def encode_json(value: Any) -> bytes:
    """UTF-8 JSON of ``value``, compact."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode_json(payload: Payload, what: str) -> dict:
    """Parses a JSON object; ``what`` names it in the error ("SPAWN payload", "COMMAND header").

    Raises
    ------
    ProtocolError
        When the payload is not UTF-8 JSON or not an object.
    """
    try:
        value = json.loads(memoryview(payload).tobytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ProtocolError(f"{what} is not valid UTF-8 JSON: {error}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is a JSON {type(value).__name__}, expected an object")
    return value


def require_field(message: dict, key: str, kind: Union[type, tuple], what: str) -> Any:
    """``message[key]``, checked to be an instance of ``kind``; ``what`` names the message."""
    if key not in message:
        raise ProtocolError(f"{what} has no field '{key}'")
    value = message[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ProtocolError(
            f"{what} field '{key}' is a JSON {type(value).__name__}, "
            f"expected {_kind_name(kind)}"
        )
    return value


def _kind_name(kind: Union[type, tuple]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def consume(views: List[memoryview], count: int) -> None:
    """Drops the first ``count`` bytes from the front of ``views`` (after a partial gathered
    write), in place."""
    while views and count >= views[0].nbytes:
        count -= views[0].nbytes
        views.pop(0)
    if views and count:
        views[0] = views[0][count:]


def _close_all(fds: Iterable[int]) -> None:
    for fd in fds:
        os.close(fd)


class FrameSocket:
    """One end of a connected ``AF_UNIX`` stream socket that speaks frames.

    Parameters
    ----------
    sock : socket.socket
        Connected and blocking.
    peer : str
        Names the other end in error messages ("engine").
    """

    def __init__(self, sock: socket.socket, peer: str) -> None:
        self.sock = sock
        self.peer = peer
        self._header = bytearray(FRAME_HEADER_SIZE)
        self._header_view = memoryview(self._header)
        self._scratch = bytearray(64 * 1024)

    def close(self) -> None:
        """Closes the socket."""
        self.sock.close()

    def read(self, skip_payload: bool = False) -> Optional[Frame]:
        """Reads the next frame; None when the peer closed the connection between frames.

        With ``skip_payload`` the payload is read and dropped (the frame's payload is empty),
        which needs no memory however large it is.

        Raises
        ------
        ProtocolError
            On an unknown type, a nonzero reserved word, a payload over 2^40 bytes, a missing
            or unexpected descriptor, or the connection closing inside a frame.
        """
        fds: List[int] = []
        received = 0
        try:
            while received < FRAME_HEADER_SIZE:
                nbytes, ancillary, flags, _ = self.sock.recvmsg_into(
                    [self._header_view[received:]], _ANCILLARY_SIZE, socket.MSG_CMSG_CLOEXEC
                )
                for level, kind, data in ancillary:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        fds.extend(array.array("i", data[: len(data) - len(data) % _FD_SIZE]))
                if flags & socket.MSG_CTRUNC:
                    raise ProtocolError(
                        f"{self.peer} sent too many descriptors with a frame header"
                    )
                if nbytes == 0:
                    if received == 0 and not fds:
                        return None
                    raise ProtocolError(
                        f"{self.peer} closed the connection inside a frame header "
                        f"({received} of {FRAME_HEADER_SIZE} bytes)"
                    )
                received += nbytes
            type_code, reserved, length = _HEADER.unpack_from(self._header)
            frame_type = self._check_header(type_code, reserved, length, len(fds))
        except BaseException:
            _close_all(fds)
            raise
        fd = fds[0] if fds else None
        try:
            if skip_payload:
                self._skip_payload(frame_type, length)
                payload = _EMPTY_PAYLOAD
            else:
                payload = self._read_payload(frame_type, length)
        except BaseException:
            if fd is not None:
                os.close(fd)
            raise
        return Frame(frame_type, payload, fd)

    def _check_header(self, type_code: int, reserved: int, length: int, fds: int) -> FrameType:
        try:
            frame_type = FrameType(type_code)
        except ValueError:
            raise ProtocolError(f"{self.peer} sent a frame of unknown type {type_code}") from None
        name = frame_type.name
        if reserved != 0:
            raise ProtocolError(
                f"{self.peer} sent a {name} frame whose reserved word is {reserved}, not 0"
            )
        if length > MAX_FRAME_PAYLOAD:
            raise ProtocolError(
                f"{self.peer} sent a {name} frame of {length} bytes, over the limit of "
                f"{MAX_FRAME_PAYLOAD}"
            )
        expected = 1 if frame_type in _FRAMES_WITH_FD else 0
        if fds != expected:
            raise ProtocolError(
                f"{self.peer} sent a {name} frame with {fds} descriptors, expected {expected}"
            )
        return frame_type

    def _read_payload(self, frame_type: FrameType, length: int) -> pa.Buffer:
        if length == 0:
            return _EMPTY_PAYLOAD
        try:
            payload = pa.allocate_buffer(length)
        except MemoryError:
            # Consume the payload so that the connection stays at a frame boundary and the
            # caller can report the error.
            self._skip_payload(frame_type, length)
            raise
        self._receive_into(memoryview(payload), frame_type, length)
        return payload

    def _skip_payload(self, frame_type: FrameType, length: int) -> None:
        scratch = memoryview(self._scratch)
        done = 0
        while done < length:
            chunk = min(length - done, len(scratch))
            self._receive_into(scratch[:chunk], frame_type, length, done)
            done += chunk

    def _receive_into(
        self, view: memoryview, frame_type: FrameType, length: int, done: int = 0
    ) -> None:
        """Fills ``view`` from the socket; ``length`` and ``done`` describe the whole payload
        for error messages."""
        received = 0
        wanted = view.nbytes
        while received < wanted:
            nbytes = self.sock.recv_into(view[received:], wanted - received)
            if nbytes == 0:
                raise ProtocolError(
                    f"{self.peer} closed the connection inside the payload of a "
                    f"{frame_type.name} frame ({done + received} of {length} bytes)"
                )
            received += nbytes

    def write(
        self, frame_type: FrameType, payload: Payload = b"", fd: Optional[int] = None
    ) -> None:
        """Writes one frame, with ``fd`` attached to its header when given.

        The descriptor stays owned by the caller. Raises ``OSError`` (``BrokenPipeError``...)
        when the peer is gone.
        """
        self.write_parts(frame_type, [payload], fd)

    def write_parts(
        self, frame_type: FrameType, parts: List[Payload], fd: Optional[int] = None
    ) -> None:
        """Writes one frame whose payload is the concatenation of ``parts``, gathered by the
        system call rather than copied; ``fd`` as in ``write``."""
        views = [memoryview(part).cast("B") for part in parts]
        length = sum(view.nbytes for view in views)
        header = _HEADER.pack(frame_type, 0, length)
        if fd is not None:
            sent = self.sock.sendmsg(
                [header], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
            )
            if sent < FRAME_HEADER_SIZE:
                self.sock.sendall(header[sent:])
            self._send_parts([view for view in views if view.nbytes])
        elif length <= _SMALL_PAYLOAD:
            self.sock.sendall(header + b"".join(views))
        else:
            self._send_parts([memoryview(header)] + [view for view in views if view.nbytes])

    def write_json(self, frame_type: FrameType, value: Any) -> None:
        """Writes a frame whose payload is ``value`` as JSON."""
        self.write(frame_type, encode_json(value))

    def _send_parts(self, parts: List[memoryview]) -> None:
        # A blocking sendmsg can still send part of the data when a signal interrupts it.
        while parts:
            consume(parts, self.sock.sendmsg(parts))
