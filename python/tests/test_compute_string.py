"""String and regular-expression functions of bowstring.compute, compared on randomized Unicode
strings with pyarrow.compute and DuckDB where their semantics are Spark's, and with literal
Spark 4 results (checked by hand on PySpark 4) where they differ; each difference is noted where
it is tested."""

from __future__ import annotations

import random
from typing import Any, List, Optional

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import compute, errors

# Characters whose case mappings Spark (Java) and pyarrow (utf8proc) agree on: ASCII, Latin-1,
# Latin Extended-A, Greek, Cyrillic, plus caseless CJK and emoji. Left out on purpose: ß (Spark
# upper-cases it to SS, pyarrow keeps it) and İ (Spark lower-cases it to i + U+0307, pyarrow to i).
ALPHABET = (
    "abcxyzABCXYZ019 ,.-_%"
    "àéîõüÿÀÉÎÕÜµ"
    "āčęğłńőšžĀČĘĞŁŃŐŠŽ"
    "αβγδςωάέΑΒΓΔΩΆΈ"
    "абвгдёжяАБВГДЁЖЯ"
    "日本語😀"
)


def random_strings(
    seed: int, count: int = 500, max_length: int = 12, nulls: bool = True
) -> List[Optional[str]]:
    """`count` random strings over ALPHABET, about one in ten null when `nulls`."""
    rng = random.Random(seed)
    values: List[Optional[str]] = []
    for _ in range(count):
        if nulls and rng.random() < 0.1:
            values.append(None)
        else:
            values.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, max_length))))
    return values


def to_list(result: Any) -> List[Any]:
    """The values of a bowstring.compute.call result as Python objects."""
    return pa.array(result).to_pylist()


def same(result: Any, expected: pa.Array) -> None:
    """Asserts that a bowstring.compute.call result holds the values of a pyarrow array."""
    assert to_list(result) == expected.to_pylist()


def sliced(values: List[Optional[str]]) -> pa.Array:
    """`values` as a string array with a non-zero offset (the first three rows sliced off)."""
    return pa.array(["pad", "pad", "pad"] + values, type=pa.string()).slice(3)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_case_conversion_and_length_match_pyarrow(seed: int) -> None:
    values = random_strings(seed)
    large = pa.array(values, type=pa.large_string())
    for array in (pa.array(values, type=pa.string()), sliced(values), large):
        assert to_list(compute.call("upper", array)) == pc.utf8_upper(array).to_pylist()
        assert to_list(compute.call("lower", array)) == pc.utf8_lower(array).to_pylist()
        assert to_list(compute.call("length", array)) == pc.utf8_length(array).to_pylist()


def test_case_conversion_follows_java_where_pyarrow_differs() -> None:
    # Spark 4: upper('straße') = 'STRASSE', lower('İ') has length 2, upper('ŉ') = 'ʼN'.
    assert to_list(compute.call("upper", pa.array(["straße", "ŉ"]))) == ["STRASSE", "ʼN"]
    assert to_list(compute.call("lower", pa.array(["İ"]))) == ["i\u0307"]


@pytest.mark.parametrize("seed", [4, 5])
def test_contains_startswith_endswith_match_pyarrow(seed: int) -> None:
    rng = random.Random(seed)
    values = random_strings(seed, max_length=20)
    array = sliced(values)
    present = [value for value in values if value]
    needles = ["", "a", "日本", "😀", "é"] + [
        text[start : start + rng.randint(1, 3)]
        for text in rng.sample(present, 10)
        for start in [rng.randrange(len(text))]
    ]
    for needle in needles:
        same(compute.call("contains", array, needle), pc.match_substring(array, needle))
        same(compute.call("startswith", array, needle), pc.starts_with(array, needle))
        same(compute.call("endswith", array, needle), pc.ends_with(array, needle))
    binary = pa.array([None if v is None else v.encode() for v in values], type=pa.binary())
    same(compute.call("contains", binary, b"a"), pc.match_substring(array, "a"))


def test_contains_with_a_needle_per_row() -> None:
    haystacks = random_strings(6, max_length=6)
    needles = random_strings(7, max_length=2)
    expected = [
        None if h is None or n is None else n in h for h, n in zip(haystacks, needles)
    ]
    assert to_list(compute.call("contains", pa.array(haystacks), pa.array(needles))) == expected


def spark_substring(text: str, pos: int, length: int) -> str:
    """Spark's substring rule: 1-based pos, negative from the end, 0 as 1, computed as Spark's
    UTF8String.substringSQL does (pyarrow's utf8_slice_codeunits has Python slice semantics,
    which differ for negative positions past the start: Spark's substring('abc', -5, 4) is 'ab'
    where 'abc'[-5:-1] is 'ab' too, but substring('abc', -5, 2) is '' and 'abc'[-5:-3] is '')."""
    n = len(text)
    start = pos - 1 if pos > 0 else (n + pos if pos < 0 else 0)
    end = start + length
    start = max(start, 0)
    return "" if start >= end else text[start:end]


@pytest.mark.parametrize("seed", [8, 9])
def test_substring_matches_spark_rule_and_pyarrow_for_positive_positions(seed: int) -> None:
    values = random_strings(seed, nulls=False)
    array = sliced(values)
    for pos in (-15, -3, -1, 0, 1, 2, 5, 20):
        for length in (0, 1, 3, 100):
            got = to_list(compute.call("substring", array, pos, length))
            assert got == [spark_substring(v, pos, length) for v in values]
            if pos >= 1:
                expected = pc.utf8_slice_codeunits(array, start=pos - 1, stop=pos - 1 + length)
                assert got == expected.to_pylist()
    # Checked against Spark 4.
    abc = pa.array(["abc"])
    assert to_list(compute.call("substring", abc, -5, 3)) == ["a"]
    assert to_list(compute.call("substring", abc, 0, 2)) == ["ab"]
    assert to_list(compute.call("substr", abc, 2)) == ["bc"]


@pytest.mark.parametrize("seed", [10, 11])
def test_trim_reverse_replace_match_pyarrow(seed: int) -> None:
    values = random_strings(seed)
    array = sliced(values)
    assert to_list(compute.call("trim", array)) == pc.utf8_trim(array, characters=" ").to_pylist()
    assert to_list(compute.call("ltrim", array)) == pc.utf8_ltrim(array, characters=" ").to_pylist()
    assert to_list(compute.call("rtrim", array)) == pc.utf8_rtrim(array, characters=" ").to_pylist()
    # Spark's two-argument form is trim(trimStr, str).
    same(compute.call("trim", "aé日", array), pc.utf8_trim(array, characters="aé日"))
    assert to_list(compute.call("reverse", array)) == pc.utf8_reverse(array).to_pylist()
    for search, replacement in (("a", "XY"), ("日本", ""), ("é", "😀")):
        expected = pc.replace_substring(array, pattern=search, replacement=replacement)
        assert to_list(compute.call("replace", array, search, replacement)) == expected.to_pylist()


@pytest.mark.parametrize("seed", [12])
def test_pad_matches_pyarrow_when_widening_and_truncates_as_spark(seed: int) -> None:
    values = random_strings(seed, nulls=False)
    array = sliced(values)
    # pyarrow pads to at least the width; Spark pads to exactly len, truncating longer strings.
    width = 14
    same(compute.call("lpad", array, width, "é"), pc.utf8_lpad(array, width=width, padding="é"))
    same(compute.call("rpad", array, width), pc.utf8_rpad(array, width=width, padding=" "))
    # Checked against Spark 4.
    assert to_list(compute.call("lpad", pa.array(["hello", "hi"]), 3, "x")) == ["hel", "xhi"]
    assert to_list(compute.call("rpad", pa.array(["hi"]), 7, "ab")) == ["hiababa"]
    assert to_list(compute.call("lpad", pa.array(["hi"]), -1, "x")) == [""]
    assert to_list(compute.call("lpad", pa.array(["hi"]), 5, "")) == ["hi"]


@pytest.mark.parametrize("seed", [13, 14])
def test_split_on_a_literal_matches_pyarrow(seed: int) -> None:
    values = random_strings(seed, max_length=20)
    array = sliced(values)
    # Spark keeps trailing empty strings, as pyarrow's split_pattern does.
    for separator in (",", "日", " "):
        expected = pc.split_pattern(array, pattern=separator).to_pylist()
        assert to_list(compute.call("split", array, separator)) == expected
    expected = pc.split_pattern_regex(array, pattern="[,.]+").to_pylist()
    assert to_list(compute.call("split", array, "[,.]+")) == expected


def test_split_follows_spark_corner_cases() -> None:
    # Checked against Spark 4: an empty pattern splits into characters with no trailing empty
    # string; a limit caps the pieces; a leading separator gives a leading empty string.
    assert to_list(compute.call("split", pa.array(["abc"]), "")) == [["a", "b", "c"]]
    assert to_list(compute.call("split", pa.array(["a,b,c"]), ",", 2)) == [["a", "b,c"]]
    assert to_list(compute.call("split", pa.array([",a", ""]), ",")) == [["", "a"], [""]]


@pytest.mark.parametrize("seed", [15, 16])
def test_regular_expressions_match_pyarrow_re2(seed: int) -> None:
    values = random_strings(seed, max_length=16)
    array = sliced(values)
    for pattern in ("a.c", "^[A-Z]", "[日本]+", "\\d{2}", "é|ж", "^$", "(?i)ABC"):
        same(compute.call("rlike", array, pattern), pc.match_substring_regex(array, pattern))
    for pattern, spark_replacement, re2_replacement in (
        ("[a-c]+", "<$0>", "<\\0>"),
        ("([0-9])([a-z])", "$2$1", "\\2\\1"),
        ("[日本]", "", ""),
    ):
        expected = pc.replace_substring_regex(array, pattern=pattern, replacement=re2_replacement)
        same(compute.call("regexp_replace", array, pattern, spark_replacement), expected)


@pytest.mark.parametrize("seed", [17])
def test_like_matches_pyarrow(seed: int) -> None:
    values = random_strings(seed, max_length=8)
    array = sliced(values)
    for pattern in ("a%", "%b", "%日%", "_", "a_c%", "%a%b%", "", "%", "__", "Ж%ё"):
        same(compute.call("like", array, pattern), pc.match_like(array, pattern))
        expected = pc.match_like(array, pattern, ignore_case=True).to_pylist()
        assert to_list(compute.call("ilike", array, pattern)) == expected


@pytest.mark.parametrize("seed", [18])
def test_functions_match_duckdb(seed: int) -> None:
    values = random_strings(seed, max_length=10)
    others = random_strings(seed + 100, max_length=3)
    table = pa.table({"s": pa.array(values, pa.string()), "t": pa.array(others, pa.string())})
    connection = duckdb.connect()
    connection.register("strings", table)

    def duck(sql: str) -> List[Any]:
        return [row[0] for row in connection.execute(f"SELECT {sql} FROM strings").fetchall()]

    s, t = table.column("s").combine_chunks(), table.column("t").combine_chunks()
    assert to_list(compute.call("instr", s, t)) == duck("instr(s, t)")
    assert to_list(compute.call("concat_ws", "-", s, t, s)) == duck("concat_ws('-', s, t, s)")
    concatenated = duck("CASE WHEN s IS NULL OR t IS NULL THEN NULL ELSE s || t END")
    assert to_list(compute.call("concat", s, t)) == concatenated
    assert to_list(compute.call("regexp_extract", s, "([a-z]+)([0-9]*)", 1)) == duck(
        "regexp_extract(s, '([a-z]+)([0-9]*)', 1)"
    )
    assert to_list(compute.call("left", s, 3)) == duck("left(s, 3)")
    assert to_list(compute.call("right", s, 2)) == duck("right(s, 2)")
    assert to_list(compute.call("repeat", s, 2)) == duck("repeat(s, 2)")
    translated = duck("translate(s, 'aé日', 'xy')")
    assert to_list(compute.call("translate", s, "aé日", "xy")) == translated


def test_initcap_capitalizes_space_separated_words() -> None:
    # Checked against Spark 4: only spaces separate words (DuckDB and Python's title() also
    # break at punctuation).
    result = compute.call("initcap", pa.array(["hello-world foo_bar  x ÉCOLE", None, "a.b c"]))
    assert to_list(result) == ["Hello-world Foo_bar  X École", None, "A.b C"]


def test_locate_and_ascii_follow_spark() -> None:
    # Checked against Spark 4: a position below 1 gives 0; an empty substring is found at 1.
    text = pa.array(["abcabc", "日本日本", None])
    assert to_list(compute.call("locate", "b", text)) == [2, 0, None]
    assert to_list(compute.call("locate", "本", text, 3)) == [0, 4, None]
    assert to_list(compute.call("locate", "b", text, 0)) == [0, 0, None]
    assert to_list(compute.call("locate", "", text, 9)) == [1, 1, None]
    assert to_list(compute.call("ascii", pa.array(["A", "", "é", None]))) == [65, 0, 233, None]


def test_invalid_patterns_raise_illegal_argument_with_the_pattern() -> None:
    array = pa.array(["abc"])
    cases = (("(a)\\1", "backreferences"), ("a(?=b)", "lookahead"), ("[", "missing ]"))
    for pattern, reason in cases:
        with pytest.raises(errors.IllegalArgumentException) as raised:
            compute.call("rlike", array, pattern)
        assert raised.value.getCondition() == "INVALID_PARAMETER_VALUE.PATTERN"
        assert f"'{pattern}'" in str(raised.value)
        assert reason in str(raised.value)
    with pytest.raises(errors.AnalysisException) as raised:
        compute.call("like", array, "a\\bc")
    assert raised.value.getCondition() == "INVALID_FORMAT.ESC_IN_THE_MIDDLE"
    with pytest.raises(errors.IllegalArgumentException) as raised:
        compute.call("regexp_extract", array, "(a)", 3)
    assert raised.value.getCondition() == "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX"


def test_scalars_give_scalars_and_numbers_are_cast_to_strings() -> None:
    assert to_list(compute.call("upper", "abé")) == ["ABÉ"]
    assert to_list(compute.call("length", pa.array([12345, None], type=pa.int64()))) == [5, None]
    assert to_list(compute.call("concat", pa.array(["a"]), None)) == [None]
