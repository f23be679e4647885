"""Counters of work done: kernels launched and compiled, cache hits, bytes moved, flops, compile time."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class Stats:
    """A snapshot of lazyarr's counters since the last `reset_stats()`."""

    kernels_launched: int = 0
    kernels_compiled: int = 0
    disk_cache_hits: int = 0
    memory_cache_hits: int = 0
    schedules_created: int = 0
    bytes_moved: int = 0
    flops: int = 0
    compile_time: float = 0.0
    kernel_time: float = 0.0
    numpy_fallbacks: int = 0

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


COUNTERS = Stats()


def stats() -> Stats:
    """A copy of the current counters (see `Stats` for the fields)."""
    return Stats(**asdict(COUNTERS))


def reset_stats() -> None:
    """Zero every counter."""
    for k, v in asdict(Stats()).items():
        setattr(COUNTERS, k, v)
