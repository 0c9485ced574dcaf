"""Random pyarrow data of every type, shared by the tests that exchange data with pyarrow."""

from __future__ import annotations

import decimal

import numpy as np
import pyarrow as pa

ROWS = 60
ALPHABET = list("abcxyz019 é€😀")


def nulls_mask(rng: np.random.Generator, n: int, probability: float) -> np.ndarray:
    return rng.random(n) < probability


def random_strings(rng: np.random.Generator, n: int) -> list[str]:
    # Lengths up to 30 so that view types hold both inline and out-of-line values.
    return ["".join(rng.choice(ALPHABET, size=int(rng.integers(0, 30)))) for _ in range(n)]


def random_offsets(rng: np.random.Generator, n: int, max_size: int = 4) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(rng.integers(0, max_size + 1, n))]).astype(np.int32)


def mask_array(mask: np.ndarray) -> pa.Array | None:
    return pa.array(mask, pa.bool_()) if mask.any() else None


def random_array(
    type_: pa.DataType, n: int, rng: np.random.Generator, null_probability: float = 0.2
) -> pa.Array:
    """An array of `n` random values of `type_`, about `null_probability` of them null."""
    mask = nulls_mask(rng, n, null_probability)
    types = pa.types
    if types.is_null(type_):
        return pa.nulls(n)
    if types.is_boolean(type_):
        return pa.array(rng.random(n) < 0.5, mask=mask)
    if types.is_integer(type_):
        info = np.iinfo(np.dtype(type_.to_pandas_dtype()))
        values = rng.integers(info.min, info.max, n, endpoint=True, dtype=info.dtype)
        return pa.array(values, type=type_, mask=mask)
    if types.is_floating(type_):
        values = rng.standard_normal(n) * 1000
        return pa.array(values.astype(type_.to_pandas_dtype()), type=type_, mask=mask)
    if types.is_decimal(type_):
        digits = min(type_.precision, 18)
        values = [
            None if null else decimal.Decimal(int(v)).scaleb(-type_.scale)
            for null, v in zip(mask, rng.integers(-(10**digits) + 1, 10**digits, n))
        ]
        return pa.array(values, type=type_)
    if types.is_temporal(type_) and not types.is_interval(type_):
        if type_ == pa.date32():
            storage = pa.array(rng.integers(-20000, 40000, n, dtype=np.int32), mask=mask)
        else:
            if type_ == pa.date64():
                values = rng.integers(-20000, 40000, n) * 86_400_000
            elif types.is_time(type_):
                per_second = {"s": 1, "ms": 1000, "us": 10**6, "ns": 10**9}[type_.unit]
                values = rng.integers(0, 86_400 * per_second, n)
            else:
                values = rng.integers(-(10**15), 10**15, n)
            width = np.int32 if type_.bit_width == 32 else np.int64
            storage = pa.array(values.astype(width), mask=mask)
        return storage.view(type_)
    if type_ == pa.month_day_nano_interval():
        values = rng.integers(-1000, 1000, (n, 3))
        intervals = [None if null else tuple(int(x) for x in v) for null, v in zip(mask, values)]
        return pa.array(intervals, type=type_)
    if types.is_string(type_) or types.is_large_string(type_) or types.is_string_view(type_):
        values = random_strings(rng, n)
        return pa.array([None if null else v for null, v in zip(mask, values)], type=type_)
    if types.is_binary(type_) or types.is_large_binary(type_) or types.is_binary_view(type_):
        values = [rng.bytes(int(rng.integers(0, 30))) for _ in range(n)]
        return pa.array([None if null else v for null, v in zip(mask, values)], type=type_)
    if types.is_fixed_size_binary(type_):
        values = [rng.bytes(type_.byte_width) for _ in range(n)]
        return pa.array([None if null else v for null, v in zip(mask, values)], type=type_)
    if types.is_list(type_) or types.is_large_list(type_):
        offsets = random_offsets(rng, n)
        values = random_child(type_.value_field, int(offsets[-1]), rng)
        array_class = pa.ListArray if types.is_list(type_) else pa.LargeListArray
        offsets_type = pa.int32() if types.is_list(type_) else pa.int64()
        return array_class.from_arrays(
            pa.array(offsets, offsets_type), values, type=type_, mask=mask_array(mask)
        )
    if types.is_list_view(type_) or types.is_large_list_view(type_):
        child_length = n * 2
        sizes = rng.integers(0, 4, n)
        offsets = np.array([rng.integers(0, child_length - size + 1) for size in sizes])
        values = random_child(type_.value_field, child_length, rng)
        array_class = pa.ListViewArray if types.is_list_view(type_) else pa.LargeListViewArray
        width = pa.int32() if types.is_list_view(type_) else pa.int64()
        offsets_array, sizes_array = pa.array(offsets, width), pa.array(sizes, width)
        return array_class.from_arrays(
            offsets_array, sizes_array, values, type=type_, mask=mask_array(mask)
        )
    if types.is_fixed_size_list(type_):
        values = random_child(type_.value_field, n * type_.list_size, rng)
        return pa.FixedSizeListArray.from_arrays(values, type=type_, mask=mask_array(mask))
    if types.is_struct(type_):
        children = [random_child(type_.field(i), n, rng) for i in range(type_.num_fields)]
        return pa.StructArray.from_arrays(children, fields=list(type_), mask=mask_array(mask))
    if types.is_map(type_):
        offsets = random_offsets(rng, n)
        keys = random_array(type_.key_type, int(offsets[-1]), rng, null_probability=0)
        items = random_child(type_.item_field, int(offsets[-1]), rng)
        return pa.MapArray.from_arrays(
            pa.array(offsets, pa.int32()), keys, items, type=type_, mask=mask_array(mask)
        )
    if types.is_dictionary(type_):
        dictionary = random_array(type_.value_type, 7, rng)
        indices = pa.array(rng.integers(0, 7, n), type=type_.index_type, mask=mask)
        return pa.DictionaryArray.from_arrays(indices, dictionary, ordered=type_.ordered)
    if types.is_union(type_):
        codes = list(type_.type_codes)
        names = [type_.field(i).name for i in range(type_.num_fields)]
        choices = rng.integers(0, len(codes), n)
        type_ids = pa.array([codes[c] for c in choices], pa.int8())
        if type_.mode == "sparse":
            children = [random_child(type_.field(i), n, rng) for i in range(len(codes))]
            return pa.UnionArray.from_sparse(type_ids, children, names, codes)
        counts = [int((choices == i).sum()) for i in range(len(codes))]
        seen = [0] * len(codes)
        offsets = []
        for c in choices:
            offsets.append(seen[c])
            seen[c] += 1
        children = [random_child(type_.field(i), counts[i], rng) for i in range(len(codes))]
        return pa.UnionArray.from_dense(
            type_ids, pa.array(offsets, pa.int32()), children, names, codes
        )
    if types.is_run_end_encoded(type_):
        run_lengths = []
        while sum(run_lengths) < n:
            run_lengths.append(min(int(rng.integers(1, 6)), n - sum(run_lengths)))
        run_ends = pa.array(np.cumsum(run_lengths), type=type_.run_end_type)
        values = random_array(type_.value_type, len(run_lengths), rng)
        return pa.RunEndEncodedArray.from_arrays(run_ends, values, type=type_)
    if isinstance(type_, pa.BaseExtensionType):
        storage = random_array(type_.storage_type, n, rng, null_probability)
        return pa.ExtensionArray.from_storage(type_, storage)
    raise AssertionError(f"no generator for {type_}")


def random_child(field: pa.Field, n: int, rng: np.random.Generator) -> pa.Array:
    return random_array(field.type, n, rng, 0.2 if field.nullable else 0.0)


union_fields = [pa.field("a", pa.int32()), pa.field("b", pa.string())]
EVERY_TYPE: list[pa.DataType] = [
    pa.null(),
    pa.bool_(),
    pa.int8(),
    pa.uint8(),
    pa.int16(),
    pa.uint16(),
    pa.int32(),
    pa.uint32(),
    pa.int64(),
    pa.uint64(),
    pa.float16(),
    pa.float32(),
    pa.float64(),
    pa.decimal32(9, 2),
    pa.decimal64(18, 3),
    pa.decimal128(38, 10),
    pa.decimal256(76, 20),
    pa.date32(),
    pa.date64(),
    pa.time32("s"),
    pa.time32("ms"),
    pa.time64("us"),
    pa.time64("ns"),
    pa.timestamp("s"),
    pa.timestamp("ms", "UTC"),
    pa.timestamp("us", "Europe/Paris"),
    pa.timestamp("ns", "+05:30"),
    pa.duration("s"),
    pa.duration("ms"),
    pa.duration("us"),
    pa.duration("ns"),
    pa.month_day_nano_interval(),
    pa.string(),
    pa.large_string(),
    pa.binary(),
    pa.large_binary(),
    pa.binary(5),
    pa.string_view(),
    pa.binary_view(),
    pa.list_(pa.int32()),
    pa.list_(pa.field("element", pa.string(), nullable=False)),
    pa.large_list(pa.float64()),
    pa.list_view(pa.string()),
    pa.large_list_view(pa.int16()),
    pa.list_(pa.int8(), 3),
    pa.struct([("a", pa.int32()), pa.field("b", pa.string(), nullable=False), ("c", pa.bool_())]),
    pa.map_(pa.string(), pa.int64()),
    pa.map_(pa.int32(), pa.list_(pa.string()), keys_sorted=True),
    pa.dictionary(pa.int8(), pa.string()),
    pa.dictionary(pa.uint16(), pa.int64(), ordered=True),
    pa.dictionary(pa.int32(), pa.list_(pa.string())),
    pa.dictionary(pa.int64(), pa.binary_view()),
    pa.sparse_union(union_fields, [5, 2]),
    pa.dense_union(union_fields + [pa.field("c", pa.list_(pa.int8()))], [0, 7, 3]),
    pa.run_end_encoded(pa.int16(), pa.string()),
    pa.run_end_encoded(pa.int32(), pa.float64()),
    pa.run_end_encoded(pa.int64(), pa.struct([("x", pa.int8())])),
    pa.uuid(),
    pa.json_(),
    pa.bool8(),
    pa.fixed_shape_tensor(pa.float32(), [2, 2]),
    pa.opaque(pa.int32(), "thing", "vendor"),
    pa.list_(pa.struct([("a", pa.int32()), ("b", pa.list_(pa.string_view()))])),
    pa.struct(
        [("d", pa.dictionary(pa.int8(), pa.string())), ("m", pa.map_(pa.string(), pa.float32()))]
    ),
    pa.large_list(pa.dense_union(union_fields)),
    pa.list_(pa.uuid()),
    pa.dictionary(pa.int16(), pa.struct([("x", pa.int32()), ("y", pa.string())])),
    pa.list_view(pa.run_end_encoded(pa.int32(), pa.string())),
]


def addresses(array: pa.Array) -> list[int | None]:
    """Addresses of every buffer of the array and its children (None when absent or empty)."""
    return [b.address if b is not None and b.size > 0 else None for b in array.buffers()]
