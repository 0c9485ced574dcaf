"""Digests, byte encodings and UTF-8 validation through bowstring.compute.call, checked against
Python's own hashlib, zlib, base64 and codecs on varied bytes, whole and from an offset."""

from __future__ import annotations

import base64
import hashlib
import random
import zlib

import pyarrow as pa
import pytest

from bowstring import compute, errors


def varied_bytes(count: int) -> list:
    """Values of 0 to 300 bytes (long enough to span several digest blocks), some ASCII, some
    arbitrary, some null."""
    rng = random.Random(5)
    values = []
    for _ in range(count):
        if rng.random() < 0.1:
            values.append(None)
        elif rng.random() < 0.5:
            values.append(bytes(rng.choice(b"abcxyz 09") for _ in range(rng.randint(0, 80))))
        else:
            values.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))))
    return values


VALUES = varied_bytes(300)
BINARY = pa.array(VALUES, pa.binary())


def each(function, values):
    return [None if value is None else function(value) for value in values]


@pytest.mark.parametrize("offset", [0, 7])
@pytest.mark.parametrize(
    "name,reference",
    [
        ("md5", lambda b: hashlib.md5(b).hexdigest()),
        ("sha1", lambda b: hashlib.sha1(b).hexdigest()),
        ("sha", lambda b: hashlib.sha1(b).hexdigest()),
        ("crc32", zlib.crc32),
        ("base64", lambda b: base64.b64encode(b).decode()),
        ("hex", lambda b: b.hex().upper()),
        ("is_valid_utf8", lambda b: _is_utf8(b)),
    ],
)
def test_matches_pythons_functions(name, reference, offset) -> None:
    got = compute.call(name, BINARY.slice(offset)).to_pylist()
    assert got == each(reference, VALUES[offset:])


@pytest.mark.parametrize("bits,digest", [(0, hashlib.sha256), (224, hashlib.sha224),
                                         (256, hashlib.sha256), (384, hashlib.sha384),
                                         (512, hashlib.sha512)])
def test_sha2_matches_hashlib(bits, digest) -> None:
    got = compute.call("sha2", BINARY.slice(3), bits).to_pylist()
    assert got == each(lambda b: digest(b).hexdigest(), VALUES[3:])


def test_sha2_of_other_bit_lengths_is_null() -> None:
    assert compute.call("sha2", pa.array(["abc"]), 128).to_pylist() == [None]


def test_round_trips_of_base64_and_hex() -> None:
    encoded = compute.call("base64", BINARY)
    assert compute.call("unbase64", encoded).to_pylist() == VALUES
    assert compute.call("unhex", compute.call("hex", BINARY)).to_pylist() == VALUES


def test_make_valid_utf8_matches_pythons_replacement() -> None:
    got = compute.call("make_valid_utf8", BINARY).to_pylist()
    assert got == each(lambda b: b.decode("utf-8", errors="replace"), VALUES)
    valid = compute.call("try_validate_utf8", BINARY).to_pylist()
    assert valid == each(lambda b: b.decode() if _is_utf8(b) else None, VALUES)


def test_validate_utf8_raises_spark_condition() -> None:
    with pytest.raises(errors.BowstringException) as raised:
        compute.call("validate_utf8", pa.array([b"ok", b"\xc3"], pa.binary()))
    assert raised.value.getCondition() == "INVALID_UTF8_STRING"


def _is_utf8(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
