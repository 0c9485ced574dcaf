"""Differential tests of the date and time functions against pyarrow.compute and DuckDB.

pyarrow.compute agrees with Spark on the calendar fields of timestamps taken in a time zone
(``pc.year`` and friends on ``timestamp[us, tz=...]``), on ISO weeks and on day counts.
DuckDB agrees on ``date_trunc`` of local timestamps and on ``strftime`` for the pattern letters
both share. Where Spark differs from both (dayofweek counts from Sunday = 1, months_between's
31-day months, pattern letters), the expectations are literal values checked against Spark 4.
"""

from __future__ import annotations

import datetime
import random
from typing import List, Optional

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from bowstring import compute
from bowstring.errors import DateTimeException

ZONES = ["UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata"]


def _random_instants(count: int, seed: int) -> pa.Array:
    """Timestamps in microseconds from 1910 to 2037, with some nulls. pyarrow's zone rules stop
    at the last transition of the tz files (2037), where Spark and Bowstring go on with the
    zone's rule, and round the local mean times of the 19th century (such as +05:21:10) to
    whole minutes, which Spark keeps; both are checked in the C++ tests instead."""
    rng = random.Random(seed)
    low = -1893456000 * 1_000_000
    high = 2114380800 * 1_000_000
    values: List[Optional[int]] = [
        None if rng.random() < 0.1 else rng.randrange(low, high) for _ in range(count)
    ]
    return pa.array(values, type=pa.int64()).cast(pa.timestamp("us", tz="UTC"))


def _call(name: str, *args: object, zone: str = "UTC") -> list:
    """The result of ``compute.call`` as a Python list."""
    return pa.array(compute.call(name, *args, session_time_zone=zone)).to_pylist()


@pytest.mark.parametrize("zone", ZONES)
def test_fields_match_pyarrow_in_the_session_zone(zone: str) -> None:
    """year, month, day, hour, minute, second, dayofyear, quarter, weekofyear."""
    instants = _random_instants(2000, seed=len(zone))
    local = instants.cast(pa.timestamp("us", tz=zone))
    expected = {
        "year": pc.year(local),
        "month": pc.month(local),
        "dayofmonth": pc.day(local),
        "hour": pc.hour(local),
        "minute": pc.minute(local),
        "second": pc.second(local),
        "dayofyear": pc.day_of_year(local),
        "quarter": pc.quarter(local),
        "weekofyear": pc.iso_week(local),
    }
    for name, values in expected.items():
        assert _call(name, instants, zone=zone) == values.to_pylist(), name
    # Spark's dayofweek is 1 for Sunday; pyarrow's day_of_week is 0 for Monday.
    sunday_first = [
        None if v is None else (v + 1) % 7 + 1 for v in pc.day_of_week(local).to_pylist()
    ]
    assert _call("dayofweek", instants, zone=zone) == sunday_first
    # Sliced input.
    assert _call("hour", instants.slice(7, 50), zone=zone) == expected["hour"][7:57].to_pylist()


def test_date_arithmetic_matches_duckdb() -> None:
    """date_add, datediff and add_months on random dates; DuckDB's date + INTERVAL clamps month
    ends as Spark's add_months does."""
    rng = random.Random(5)
    days = [None if rng.random() < 0.1 else rng.randrange(-40000, 60000) for _ in range(500)]
    shifts = [rng.randrange(-400, 400) for _ in range(500)]
    dates = pa.array(days, type=pa.int32()).cast(pa.date32())
    shift_array = pa.array(shifts, type=pa.int32())
    table = pa.table({"d": dates, "n": shift_array})
    con = duckdb.connect()
    con.register("t", table)
    rows = con.sql(
        "SELECT d + n AS added, datediff('day', d, d + n) AS diff, "
        "CAST(d + to_months(n) AS DATE) AS months FROM t"
    ).to_arrow_table()
    assert _call("date_add", dates, shift_array) == rows["added"].to_pylist()
    assert _call("datediff", rows["added"].combine_chunks(), dates) == rows["diff"].to_pylist()
    assert _call("add_months", dates, shift_array) == rows["months"].to_pylist()


@pytest.mark.parametrize("unit", ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE"])
def test_date_trunc_matches_duckdb(unit: str) -> None:
    """date_trunc in the session zone, against DuckDB's on the local wall clock."""
    zone = "Asia/Kolkata"
    instants = _random_instants(300, seed=11)
    con = duckdb.connect()
    con.execute(f"SET TimeZone = '{zone}'")
    con.register("t", pa.table({"ts": instants}))
    expected = con.sql(f"SELECT date_trunc('{unit.lower()}', ts) AS v FROM t").to_arrow_table()
    got = pa.array(compute.call("date_trunc", unit, instants, session_time_zone=zone))
    assert got.cast(pa.int64()).to_pylist() == expected["v"].cast(
        pa.timestamp("us", tz="UTC")
    ).cast(pa.int64()).to_pylist()


def test_date_format_matches_duckdb_strftime() -> None:
    """Letters both know: yyyy MM dd HH mm ss against %Y %m %d %H %M %S."""
    instants = _random_instants(300, seed=3)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.register("t", pa.table({"ts": instants}))
    expected = con.sql("SELECT strftime(ts, '%Y-%m-%d %H:%M:%S') AS v FROM t").to_arrow_table()
    assert _call("date_format", instants, "yyyy-MM-dd HH:mm:ss") == expected["v"].to_pylist()


def test_spark_expectations() -> None:
    """Literal results checked against Spark 4 where no peer shares Spark's semantics."""
    ny = "America/New_York"
    ts = pa.array([datetime.datetime(2024, 7, 5, 17, 14, 15, tzinfo=datetime.timezone.utc)])
    assert _call("date_format", ts, "z Z X XXX O VV", zone=ny) == [
        "EDT -0400 -04 -04:00 GMT-4 America/New_York"
    ]
    utc = datetime.timezone.utc
    first = pa.scalar(datetime.datetime(1997, 2, 28, 10, 30, tzinfo=utc), pa.timestamp("us", "UTC"))
    second = pa.scalar(datetime.datetime(1996, 10, 30, tzinfo=utc), pa.timestamp("us", "UTC"))
    assert _call("months_between", first, second) == [3.94959677]
    assert _call("unix_timestamp", "2024-03-10 02:30:00", zone=ny) == [1710055800]
    assert _call("from_unixtime", pa.scalar(0, pa.int64()), zone=ny) == ["1969-12-31 19:00:00"]
    assert _call("trunc", datetime.date(2024, 5, 5), "dd") == [None]
    assert _call("to_date", "2024/01/05", "yyyy/MM/dd") == [datetime.date(2024, 1, 5)]
    with pytest.raises(DateTimeException, match="CANNOT_PARSE_TIMESTAMP"):
        compute.call("to_date", pa.array(["2024-01-05x"]), "yyyy-MM-dd")
    with pytest.raises(DateTimeException, match="INVALID_TIMEZONE"):
        compute.call("hour", ts, session_time_zone="Mars/Olympus")
