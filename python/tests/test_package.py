import bowstring


def test_version_matches_the_project_version() -> None:
    assert bowstring.__version__ == "0.1.0"


def test_allocator_stats_report_the_default_allocator() -> None:
    stats = bowstring.allocator_stats()
    assert stats["allocator"] in {"system", "mimalloc"}
    for key in ("bytes_in_use", "peak_bytes", "total_allocated", "allocations", "live_allocations"):
        assert isinstance(stats[key], int) and stats[key] >= 0
