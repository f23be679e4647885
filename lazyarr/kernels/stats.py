"""Counters of work done: kernels launched and compiled, cache hits, bytes moved, flops, compile time."""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass
from sys import getrefcount


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


class Tally:
    """Replays of one jit program not yet added to `COUNTERS`: a replay counts itself here (two increments, not
    four), and `stats()` adds `replays` times the program's kernels, bytes and flops. `lock` is the program's."""

    __slots__ = ("kernels", "bytes_moved", "flops", "lock", "replays", "seconds")

    def __init__(self, kernels: int, bytes_moved: int, flops: int, lock: threading.Lock) -> None:
        self.kernels, self.bytes_moved, self.flops, self.lock = kernels, bytes_moved, flops, lock
        self.replays, self.seconds = 0, 0.0


_tallies: list[Tally] = []
_tallies_lock = threading.Lock()


def new_tally(kernels: int, bytes_moved: int, flops: int, lock: threading.Lock) -> Tally:
    """A registered `Tally` (kept until its program is gone and its counts are added)."""
    t = Tally(kernels, bytes_moved, flops, lock)
    with _tallies_lock:
        _tallies.append(t)
    return t


def _fold() -> None:
    """Add the tallies' replays to `COUNTERS`; forget the tallies whose program is gone."""
    with _tallies_lock:
        _fold_locked()


def _fold_locked() -> None:
    alive = []
    for t in _tallies:
        with t.lock:
            n, seconds, t.replays, t.seconds = t.replays, t.seconds, 0, 0.0
        COUNTERS.kernels_launched += n * t.kernels
        COUNTERS.bytes_moved += n * t.bytes_moved
        COUNTERS.flops += n * t.flops
        COUNTERS.kernel_time += seconds
        if getrefcount(t) > 3:  # more than the list, `t` and getrefcount's argument: its program still exists
            alive.append(t)
    _tallies[:] = alive


def stats() -> Stats:
    """A copy of the current counters (see `Stats` for the fields)."""
    _fold()
    return Stats(**asdict(COUNTERS))


def reset_stats() -> None:
    """Zero every counter."""
    _fold()
    for k, v in asdict(Stats()).items():
        setattr(COUNTERS, k, v)
