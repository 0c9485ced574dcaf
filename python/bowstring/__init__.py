"""Bowstring: a data-processing engine whose in-memory format is Apache Arrow."""

from bowstring._core import __version__, allocator_stats

__all__ = ["__version__", "allocator_stats"]
