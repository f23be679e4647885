"""NumPy matmuls and lazyarr matmuls taking turns (a user's NumPy code calling into lazyarr and back).

lazyarr's matmul kernels call BLAS through Numba's `np.dot`, which binds SciPy's OpenBLAS; NumPy ships its own
OpenBLAS. Each library keeps its own threads, and an OpenBLAS thread spins for a while after its work before it
sleeps, so when the two libraries take turns each one's threads slow the other down. OpenBLAS reads how long its
threads spin from `OPENBLAS_THREAD_TIMEOUT` when it loads (4, its minimum, is about 2**4 cycles).

Run: `PYTHONPATH=$PWD python benchmarks/bench_blas_mix.py [--n 1024] [--rounds 20]`, then the same with
`OPENBLAS_THREAD_TIMEOUT=4` in the environment. Prints the median time per matmul of each library, taking turns and
each on its own.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    import lazyarr as la

    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((args.n, args.n)).astype(np.float32) for _ in range(2))
    ta, tb = la.Tensor(a).realize(), la.Tensor(b).realize()
    lazy = la.jit(lambda x, y: (x @ y).realize())
    for _ in range(3):
        lazy(ta, tb)
    np.testing.assert_allclose(lazy(ta, tb).numpy(), a @ b, rtol=1e-3, atol=1e-3)
    runs: dict[str, Callable[[], object]] = {"numpy": lambda: a @ b, "lazyarr": lambda: lazy(ta, tb)}

    def timed(run: Callable[[], object]) -> float:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start

    turns: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(args.rounds):
        for k in (list(runs) if r % 2 else list(runs)[::-1]):
            turns[k].append(timed(runs[k]))
    alone = {k: [timed(run) for _ in range(args.rounds)] for k, run in runs.items()}
    print(f"matmul {args.n}^3 float32, medians of {args.rounds}")
    for k in runs:
        print(f"{k:<8} taking turns {statistics.median(turns[k]) * 1e3:8.2f} ms   alone "
              f"{statistics.median(alone[k]) * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
