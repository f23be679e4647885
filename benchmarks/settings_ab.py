"""Shared by the A/B benchmarks that build one set of workloads under two kernel settings in one process
(bench_ranged.py, bench_stream_stores.py): the command line, building each setting's jitted kernels, and timing them
alternately (every round in the reverse order of the last, so a busy machine affects both settings alike)."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any


def parse_args(doc: str | None, prefix: str) -> argparse.Namespace:
    """`--rounds` and `--threads`; sets LAZYARR_NUM_THREADS and a fresh LAZYARR_CACHE_DIR (unless one is set), so
    call it before importing lazyarr."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--threads", type=int, default=0, help="LAZYARR_NUM_THREADS (default: lazyarr's own)")
    args = parser.parse_args()
    os.environ.setdefault("LAZYARR_CACHE_DIR", tempfile.mkdtemp(prefix=f"lazyarr-bench-{prefix}-"))
    if args.threads:
        os.environ["LAZYARR_NUM_THREADS"] = str(args.threads)
    return args


def build(settings: dict[str, Callable[[], None]],
          workloads: dict[str, tuple[Callable[..., Any], list[Any]]]) -> dict[tuple[str, str], Callable[[], Any]]:
    """(workload, setting) -> a call of the workload under `lazyarr.jit`, its kernels compiled after the setting's
    function ran (in this process, not from the disk cache: both settings' kernels can share names there)."""
    import lazyarr as la
    from lazyarr.kernels import realize, runtime_numba

    fns: dict[tuple[str, str], Callable[[], Any]] = {}
    for setting, apply in settings.items():
        apply()
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        with la.Context(NATIVE=0):
            for name, (fn, inputs) in workloads.items():
                jitted = la.jit(fn)
                for _ in range(3):
                    jitted(*inputs)
                fns[(name, setting)] = lambda jitted=jitted, inputs=inputs: jitted(*inputs)
    return fns


def alternate(fns: dict[tuple[str, str], Callable[[], Any]], rounds: int,
              calls: Callable[[str], int]) -> dict[tuple[str, str], float]:
    """Median seconds per call of each function: `rounds` rounds, `calls(workload)` calls per sample."""
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in fns}
    order = list(fns.items())
    for r in range(rounds):
        for k, run in (order if r % 2 else order[::-1]):
            n = calls(k[0])
            start = time.perf_counter()
            for _ in range(n):
                run()
            samples[k].append((time.perf_counter() - start) / n)
    return {k: statistics.median(v) for k, v in samples.items()}


def report(medians: dict[tuple[str, str], float], settings: tuple[str, str]) -> None:
    """One line per workload: each setting's median in ms and the ratio first / second (above 1: the second setting
    is faster)."""
    a, b = settings
    names = list(dict.fromkeys(name for name, _ in medians))
    width = max(len(n) for n in names) + 2
    print(f"{'workload':<{width}}{a:>12}{b:>12}{f'{a} / {b}':>20}")
    for name in names:
        ta, tb = medians[(name, a)], medians[(name, b)]
        print(f"{name:<{width}}{ta * 1e3:10.3f}ms{tb * 1e3:10.3f}ms{ta / tb:20.3f}")
