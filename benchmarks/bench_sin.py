"""float32 sin below 2**20 reduced by pi to one float32 remainder (`transcendental.sin_f32_small`, 2 ulp) against the
reduction by pi/2 to a remainder hi + lo with a sin and a cos polynomial (`_reduce_f32_fast` + `_sin_qr_f32`, what
cos_f32_small still uses and sin used before, 1 ulp): the same Numba loop around each, for sin alone and for the
elementwise chain a*b + c*exp(-d)*sin(a), in L2 (2**14 elements, one thread) and out of cache (2**22, the threads split
the loop), timed alternately in one process.

Run: `PYTHONPATH=$PWD python benchmarks/bench_sin.py [--rounds 30]`. Prints medians (ns per element) and old / new.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable

import numba
import numpy as np

from lazyarr.kernels import runtime_numba
from lazyarr.kernels.transcendental import _reduce_f32_fast, _sin_qr_f32, exp_f32_small, sin_f32_small

F32 = np.float32
_OPTS = {"nogil": True, "error_model": "numpy", "boundscheck": False}


@numba.njit(inline="always")
def _sin_by_half_pi(x):  # type: ignore[no-untyped-def]
    q, hi, lo = _reduce_f32_fast(x)
    return _sin_qr_f32(q, hi, lo)


@numba.njit(**_OPTS)
def sin_new(a, b, c, d, out, start, end):  # type: ignore[no-untyped-def]
    for i in range(start, end):
        out[np.uint64(i)] = sin_f32_small(a[np.uint64(i)])


@numba.njit(**_OPTS)
def sin_old(a, b, c, d, out, start, end):  # type: ignore[no-untyped-def]
    for i in range(start, end):
        out[np.uint64(i)] = _sin_by_half_pi(a[np.uint64(i)])


@numba.njit(**_OPTS)
def chain_new(a, b, c, d, out, start, end):  # type: ignore[no-untyped-def]
    for i in range(start, end):
        j = np.uint64(i)
        out[j] = a[j] * b[j] + c[j] * exp_f32_small(-d[j]) * sin_f32_small(a[j])


@numba.njit(**_OPTS)
def chain_old(a, b, c, d, out, start, end):  # type: ignore[no-untyped-def]
    for i in range(start, end):
        j = np.uint64(i)
        out[j] = a[j] * b[j] + c[j] * exp_f32_small(-d[j]) * _sin_by_half_pi(a[j])


def split(fn: Callable[..., None], arrays: list[np.ndarray], threads: int) -> Callable[[], None]:
    n = arrays[0].size
    bounds = [n * t // threads for t in range(threads + 1)]

    def run() -> None:
        helpers = [threading.Thread(target=fn, args=(*arrays, bounds[t], bounds[t + 1])) for t in range(1, threads)]
        for h in helpers:
            h.start()
        fn(*arrays, bounds[0], bounds[1])
        for h in helpers:
            h.join()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    threads = runtime_numba.num_threads()
    runs: dict[tuple[str, str], tuple[Callable[[], None], int, int]] = {}
    for size, label, nthreads, calls in ((1 << 14, "2**14, 1 thread", 1, 200), (1 << 22, f"2**22, {threads} threads",
                                                                                 threads, 1)):
        arrays = [rng.standard_normal(size).astype(F32) * F32(4) for _ in range(4)] + [np.empty(size, F32)]
        for name, fns in (("sin", (sin_old, sin_new)), ("chain", (chain_old, chain_new))):
            for side, fn in zip(("old", "new"), fns):
                fn(*arrays, 0, size)
                runs[(f"{name} {label}", side)] = (split(fn, arrays, nthreads), calls, size)
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in runs}
    order = list(runs.items())
    for r in range(args.rounds):
        for key, (run, calls, size) in order if r % 2 else order[::-1]:
            start = time.perf_counter()
            for _ in range(calls):
                run()
            samples[key].append((time.perf_counter() - start) / calls / size)
    print(f"{'ns per element':<28}{'old (pi/2, hi+lo)':>20}{'new (pi)':>12}{'old / new':>12}")
    for name in dict.fromkeys(k[0] for k in runs):
        old, new = (statistics.median(samples[(name, s)]) * 1e9 for s in ("old", "new"))
        print(f"{name:<28}{old:20.3f}{new:12.3f}{old / new:12.2f}")


if __name__ == "__main__":
    main()
