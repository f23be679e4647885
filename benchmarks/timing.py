"""Shared by the side-by-side benchmark scripts (bench_float16.py, bench_scan.py, bench_reshape_loops.py): the best
or median of repeated calls in milliseconds, and the `--repeat`/`--threads` command line."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable


def call_ms(fn: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of `repeat` calls of `fn`, after one untimed call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return times


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    return min(call_ms(fn, repeat))


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = sorted(call_ms(fn, repeat))
    return times[len(times) // 2]


def repeat_args(doc: str | None, repeat: int = 10) -> argparse.Namespace:
    """`--repeat` and `--threads`; sets LAZYARR_NUM_THREADS, so call it before importing lazyarr."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--threads", type=int, default=0, help="LAZYARR_NUM_THREADS (default: lazyarr's own)")
    args = parser.parse_args()
    if args.threads:
        os.environ["LAZYARR_NUM_THREADS"] = str(args.threads)
    return args
