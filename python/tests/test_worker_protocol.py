"""Frames of the worker protocol, command parsing and traceback trimming, in one process."""

from __future__ import annotations

import array
import fcntl
import os
import socket
import struct
import threading
from typing import Iterator, List, Tuple

import cloudpickle
import pyarrow as pa
import pytest

from bowstring.worker.protocol import (
    Frame,
    FrameSocket,
    FrameType,
    ProtocolError,
    decode_json,
    encode_json,
)
from bowstring.worker.worker import format_user_traceback, parse_command
from worker_harness import command_payload

Pair = Tuple[FrameSocket, socket.socket]


@pytest.fixture
def pair() -> Iterator[Pair]:
    """A frame socket and the raw socket at its other end."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.settimeout(10)
    theirs.settimeout(10)
    yield FrameSocket(ours, "peer"), theirs
    ours.close()
    theirs.close()


def header(frame_type: int, length: int, reserved: int = 0) -> bytes:
    return struct.pack("<IIQ", frame_type, reserved, length)


def send_fds(sock: socket.socket, data: bytes, fds: List[int]) -> None:
    sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def read_in_thread(connection: FrameSocket) -> Tuple[threading.Thread, List[Frame]]:
    frames: List[Frame] = []
    thread = threading.Thread(target=lambda: frames.append(connection.read()))
    thread.start()
    return thread, frames


@pytest.mark.parametrize("size", [0, 1, 100, 16 * 1024, 16 * 1024 + 1, 5 << 20])
def test_frames_round_trip_into_aligned_buffers(size: int) -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        writer, reader = FrameSocket(left, "left"), FrameSocket(right, "right")
        payload = os.urandom(size)
        thread, frames = read_in_thread(reader)
        writer.write(FrameType.BATCH, payload)
        thread.join()
        frame = frames[0]
        assert frame.type == FrameType.BATCH and frame.fd is None
        assert frame.payload.to_pybytes() == payload
        assert frame.payload.address % 64 == 0 or size == 0


def test_payload_parts_are_sent_as_one_frame(pair: Pair) -> None:
    connection, other = pair
    reader = FrameSocket(other, "other")
    thread, frames = read_in_thread(reader)
    connection.write_parts(FrameType.BATCH, [b"ab", pa.py_buffer(b"cd" * 10000), b"", b"e"])
    thread.join()
    assert frames[0].payload.to_pybytes() == b"ab" + b"cd" * 10000 + b"e"


def test_descriptor_arrives_with_its_header(pair: Pair) -> None:
    connection, other = pair
    memfd = os.memfd_create("test", os.MFD_CLOEXEC)
    os.write(memfd, b"shared bytes")
    try:
        FrameSocket(other, "other").write(FrameType.SHM_BATCH, encode_json({"length": 12}), memfd)
        send_fds(other, header(FrameType.SHM_BATCH, 2), [memfd])
        other.sendall(b"{}")
    finally:
        os.close(memfd)
    first = connection.read()
    assert first is not None
    assert first.type == FrameType.SHM_BATCH
    received = first.fd
    try:
        assert first.json() == {"length": 12}
        assert fcntl.fcntl(received, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
        assert os.pread(received, 12, 0) == b"shared bytes"
    finally:
        os.close(received)
    second = connection.read()
    assert second is not None and second.fd is not None
    os.close(second.fd)


def test_header_and_payload_split_across_many_writes(pair: Pair) -> None:
    connection, other = pair
    data = header(FrameType.SPAWN, 7) + b'{"a":1}'
    memfd = os.memfd_create("test", os.MFD_CLOEXEC)

    def trickle() -> None:
        send_fds(other, data[:1], [memfd])
        for byte in data[1:]:
            other.sendall(bytes([byte]))

    thread = threading.Thread(target=trickle)
    thread.start()
    frame = connection.read()
    thread.join()
    os.close(memfd)
    assert frame is not None and frame.type == FrameType.SPAWN
    assert frame.fd is not None
    os.close(frame.fd)
    assert frame.json() == {"a": 1}


def test_closed_connection_between_frames_is_none(pair: Pair) -> None:
    connection, other = pair
    other.close()
    assert connection.read() is None


@pytest.mark.parametrize(
    "data,message",
    [
        (header(99, 0), "peer sent a frame of unknown type 99"),
        (header(FrameType.BATCH, 0, reserved=7), "BATCH frame whose reserved word is 7, not 0"),
        (
            header(FrameType.BATCH, (1 << 40) + 1),
            "BATCH frame of 1099511627777 bytes, over the limit",
        ),
        (header(FrameType.SHM_BATCH, 2) + b"{}", "SHM_BATCH frame with 0 descriptors, expected 1"),
        (header(FrameType.BATCH, 0)[:5], r"closed the connection inside a frame header \(5 of 16"),
        (
            header(FrameType.BATCH, 10) + b"abc",
            r"inside the payload of a BATCH frame \(3 of 10 bytes\)",
        ),
    ],
)
def test_broken_frames_are_protocol_errors(pair: Pair, data: bytes, message: str) -> None:
    connection, other = pair
    other.sendall(data)
    other.shutdown(socket.SHUT_WR)
    with pytest.raises(ProtocolError, match=message):
        connection.read()


@pytest.mark.parametrize(
    "frame_type,fds,message",
    [
        (FrameType.BATCH, 1, "BATCH frame with 1 descriptors, expected 0"),
        (FrameType.SHM_BATCH, 2, "SHM_BATCH frame with 2 descriptors, expected 1"),
    ],
)
def test_unexpected_descriptors_are_closed_and_refused(
    pair: Pair, frame_type: FrameType, fds: int, message: str
) -> None:
    connection, other = pair
    memfds = [os.memfd_create("test", os.MFD_CLOEXEC) for _ in range(fds)]
    send_fds(other, header(frame_type, 0), memfds)
    for memfd in memfds:
        os.close(memfd)
    before = open_descriptors()
    with pytest.raises(ProtocolError, match=message):
        connection.read()
    assert open_descriptors() == before


def test_skipped_payload_keeps_the_frame_boundary(pair: Pair) -> None:
    connection, other = pair
    writer = FrameSocket(other, "other")
    thread = threading.Thread(
        target=lambda: [
            writer.write(FrameType.BATCH, b"x" * 200_000),
            writer.write(FrameType.END_OF_DATA),
        ]
    )
    thread.start()
    skipped = connection.read(skip_payload=True)
    assert skipped is not None and skipped.type == FrameType.BATCH and skipped.payload.size == 0
    end = connection.read()
    assert end is not None and end.type == FrameType.END_OF_DATA
    thread.join()


def test_json_payloads() -> None:
    assert decode_json(encode_json({"name": "ünï", "n": 1}), "X") == {"name": "ünï", "n": 1}
    with pytest.raises(ProtocolError, match="ERROR payload is a JSON list, expected an object"):
        decode_json(b"[1]", "ERROR payload")
    with pytest.raises(ProtocolError, match="HELLO payload is not valid UTF-8 JSON"):
        decode_json(b"\xff", "HELLO payload")


def identity(value: int) -> int:
    return value


SCHEMA = pa.schema([("x", pa.int64())])


def test_command_is_parsed() -> None:
    payload = command_payload("rows", identity, SCHEMA, SCHEMA, "shm", {"a": "b"}, name="f")
    call = parse_command(pa.py_buffer(payload))
    assert (call.kind, call.name, call.transport, call.config) == ("rows", "f", "shm", {"a": "b"})
    assert call.input_schema == SCHEMA and call.output_schema == SCHEMA
    assert cloudpickle.loads(call.pickled_function.to_pybytes())(4) == 4


def replace_header(payload: bytes, old: bytes, new: bytes) -> bytes:
    length = int.from_bytes(payload[:4], "little")
    header_json = payload[4 : 4 + length].replace(old, new)
    return len(header_json).to_bytes(4, "little") + header_json + payload[4 + length :]


@pytest.mark.parametrize(
    "old,new,message",
    [
        (b'"kind":"rows"', b'"kind":"sql"', "COMMAND kind 'sql' is not one of arrow, pandas"),
        (b'"transport":"socket"', b'"transport":"tcp"', "COMMAND transport 'tcp' is not one of"),
        (b'"name":"identity",', b"", "COMMAND header has no field 'name'"),
        (b'"config":{', b'"config":{"n":1,', "COMMAND config 'n' is a JSON int, expected a string"),
        (b'"function_length":', b'"function_length":1', "COMMAND payload is .* bytes, but its"),
        (b'"input_schema_length":', b'"input_schema_length":-', "input_schema_length is negative"),
    ],
)
def test_malformed_commands_are_protocol_errors(old: bytes, new: bytes, message: str) -> None:
    payload = command_payload("rows", identity, SCHEMA, SCHEMA)
    broken = replace_header(payload, old, new)
    assert broken != payload
    with pytest.raises(ProtocolError, match=message):
        parse_command(pa.py_buffer(broken))


def test_command_schemas_must_be_schema_only_streams() -> None:
    payload = command_payload("rows", identity, SCHEMA, SCHEMA)
    length = int.from_bytes(payload[:4], "little")
    start = 4 + length
    garbage = payload[:start] + b"\x00" * 8 + payload[start + 8 :]
    with pytest.raises(ProtocolError, match="COMMAND input schema is not an Arrow IPC stream"):
        parse_command(pa.py_buffer(garbage))
    with pytest.raises(ProtocolError, match="COMMAND payload of 2 bytes has no header length"):
        parse_command(pa.py_buffer(b"\x01\x00"))


def failing_helper() -> None:
    raise ValueError("inner")


def test_tracebacks_keep_only_user_frames() -> None:
    from bowstring.worker import conversion

    def call_through_the_worker() -> None:
        try:
            conversion._cast(pa.array(["x"]), pa.int64())
        except pa.ArrowInvalid as error:
            raise RuntimeError("outer") from error

    try:
        call_through_the_worker()
    except RuntimeError as error:
        text = format_user_traceback(error)
    assert "call_through_the_worker" in text
    assert "bowstring/worker" not in text
    assert "The above exception was the direct cause" in text
    assert text.rstrip().endswith("RuntimeError: outer")
    assert "ArrowInvalid" in text
