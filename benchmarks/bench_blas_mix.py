"""NumPy matmuls and lazyarr matmuls taking turns (a user's NumPy code calling into lazyarr and back).

lazyarr's matmul kernels call NumPy's own OpenBLAS (LAZYARR_BLAS=1, when NumPy's BLAS is a 64-bit-integer OpenBLAS,
as in NumPy's wheels), or SciPy's through Numba's `np.dot` (LAZYARR_BLAS=2). SciPy's is a second copy of OpenBLAS:
each copy keeps its own threads, and an OpenBLAS thread spins for a while after its work before it sleeps, so when
the two copies take turns each one's threads slow the other down. OpenBLAS reads how long its threads spin from
`OPENBLAS_THREAD_TIMEOUT` when it loads (4, its minimum, is about 2**4 cycles).

Run: `PYTHONPATH=$PWD python benchmarks/bench_blas_mix.py [--n 1024] [--rounds 20]`. For each lazyarr route, in a
fresh process, it prints the median time per matmul of NumPy and of lazyarr taking turns, then of each on its own.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np


def _timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def run_route(mode: int, n: int, rounds: int) -> None:
    """Time NumPy and lazyarr (LAZYARR_BLAS=`mode`) matmuls taking turns, then each alone; print one line each."""
    import lazyarr as la
    from lazyarr.kernels import runtime_numba

    routes = {1: "NumPy's BLAS", 2: "SciPy's BLAS"}
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    ta, tb = la.Tensor(a).realize(), la.Tensor(b).realize()
    with la.Context(BLAS=mode):
        if (runtime_numba.blas_route(), mode) not in (("numpy", 1), ("scipy", 2)):
            print(f"  LAZYARR_BLAS={mode}: {routes[mode]} is not there (no SciPy, or NumPy's is not an ILP64 OpenBLAS)")
            return
        fn = la.jit(lambda x, y: (x @ y).realize())
        for _ in range(3):
            fn(ta, tb)
        np.testing.assert_allclose(fn(ta, tb).numpy(), a @ b, rtol=1e-3, atol=1e-3)
    runs: dict[str, Callable[[], object]] = {"numpy": lambda: a @ b, f"lazyarr ({routes[mode]})": lambda: fn(ta, tb)}
    turns: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(rounds):
        for k in (list(runs) if r % 2 else list(runs)[::-1]):
            turns[k].append(_timed(runs[k]))
    alone = {k: [_timed(run) for _ in range(rounds)] for k, run in runs.items()}
    for k in runs:
        print(f"  {k:<26} taking turns {statistics.median(turns[k]) * 1e3:8.2f} ms   alone "
              f"{statistics.median(alone[k]) * 1e3:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--blas", type=int, choices=(1, 2), help="time this route only, in this process")
    args = parser.parse_args()
    if args.blas is not None:
        run_route(args.blas, args.n, args.rounds)
        return
    from lazyarr.kernels import numpy_blas

    print(f"matmul {args.n}^3 float32, medians of {args.rounds}; NumPy's BLAS: {numpy_blas.blas_config()}")
    for mode in (1, 2):  # each route in a fresh process: once both copies' threads have run, both slow down
        subprocess.run([sys.executable, __file__, "--blas", str(mode), "--n", str(args.n), "--rounds",
                        str(args.rounds)], check=True)


if __name__ == "__main__":
    main()
