"""Hashes of the bound classes agree with their ``==``: value types hash by value, data classes
(which compare whole arrays) are unhashable."""

from __future__ import annotations

import pyarrow as pa
import pytest

import bowstring
from arrow_samples import EVERY_TYPE


@pytest.mark.parametrize("arrow_type", EVERY_TYPE, ids=str)
def test_equal_types_built_separately_hash_equal(arrow_type: pa.DataType) -> None:
    first, second = bowstring.DataType(arrow_type), bowstring.DataType(arrow_type)
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


def test_every_sample_type_is_one_set_entry_and_one_dict_key() -> None:
    types = [bowstring.DataType(t) for t in EVERY_TYPE]
    again = [bowstring.DataType(t) for t in EVERY_TYPE]
    assert len(set(types) | set(again)) == len(set(EVERY_TYPE))
    names = {t: str(t) for t in types}
    assert all(names[t] == str(t) for t in again)


def test_unequal_types_hash_differently() -> None:
    distinct = [bowstring.DataType(t) for t in set(EVERY_TYPE)]
    assert len({hash(t) for t in distinct}) == len(distinct)
    assert hash(bowstring.DataType(pa.list_(pa.int8()))) != hash(
        bowstring.DataType(pa.list_(pa.field("element", pa.int8())))
    )
    assert hash(bowstring.DataType(pa.timestamp("us"))) != hash(
        bowstring.DataType(pa.timestamp("us", "UTC"))
    )


def test_fields_hash_by_name_type_and_nullability_not_metadata() -> None:
    plain = bowstring.Field(pa.field("a", pa.int32()))
    with_metadata = bowstring.Field(pa.field("a", pa.int32(), metadata={"k": "v"}))
    assert plain == with_metadata and hash(plain) == hash(with_metadata)
    assert len({plain, with_metadata, bowstring.Field(pa.field("a", pa.int32()))}) == 1
    others = [
        bowstring.Field(pa.field("b", pa.int32())),
        bowstring.Field(pa.field("a", pa.int64())),
        bowstring.Field(pa.field("a", pa.int32(), nullable=False)),
    ]
    assert all(other != plain and hash(other) != hash(plain) for other in others)


def test_schemas_hash_by_fields_not_metadata() -> None:
    arrow_schema = pa.schema([("a", pa.int32()), ("b", pa.list_(pa.string()))])
    first = bowstring.Schema(arrow_schema)
    second = bowstring.Schema(arrow_schema.with_metadata({"origin": "test"}))
    assert first == second and hash(first) == hash(second)
    assert {first: 1}[second] == 1
    swapped = bowstring.Schema(pa.schema([("b", pa.list_(pa.string())), ("a", pa.int32())]))
    assert swapped != first and hash(swapped) != hash(first)


@pytest.mark.parametrize(
    "data",
    [
        bowstring.Array(pa.array([1, 2])),
        bowstring.ChunkedArray(pa.chunked_array([[1], [2]])),
        bowstring.RecordBatch(pa.record_batch({"a": [1]})),
        bowstring.Table(pa.table({"a": [1]})),
    ],
    ids=type,
)
def test_data_classes_compare_by_value_and_are_unhashable(data: object) -> None:
    assert data == type(data)(data)
    with pytest.raises(TypeError, match="unhashable"):
        hash(data)
