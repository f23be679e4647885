"""Scans against NumPy side by side: cumsum along axis 0 and axis 1 of a 2048x2048 float32 matrix, and of 2**22
float32s.

    PYTHONPATH=$PWD python benchmarks/bench_scan.py [--repeat 10] [--threads N]

Prints the best of --repeat calls in ms for each, lazyarr and NumPy alternating in one process. A scan is one kernel
(`lower._Lowerer.lower_scan`): a loop along the axis, in order, storing the running value at every step; along axis 0
the Numba renderer runs many columns side by side (`Loop.lanes`). Run it on two checkouts to compare them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from timing import repeat_args


def time_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    args = repeat_args(__doc__)
    import lazyarr as la

    rng = np.random.default_rng(0)
    m = rng.standard_normal((2048, 2048)).astype(np.float32)
    v = rng.standard_normal(1 << 22).astype(np.float32)
    tm, tv = la.Tensor(m).realize(), la.Tensor(v).realize()
    rows = (("2048x2048 cumsum(0)", lambda: np.cumsum(tm, axis=0).realize(), lambda: np.cumsum(m, axis=0)),
            ("2048x2048 cumsum(1)", lambda: np.cumsum(tm, axis=1).realize(), lambda: np.cumsum(m, axis=1)),
            ("2**22 cumsum", lambda: np.cumsum(tv).realize(), lambda: np.cumsum(v)))
    print(f"float32, best of {args.repeat}, ms")
    print(f"{'workload':<22}{'lazyarr':>10}{'numpy':>10}{'equal':>7}")
    for name, lazy, ref in rows:
        equal = bool(np.array_equal(np.asarray(lazy()), ref()))
        ours, theirs = [], []
        for _ in range(args.repeat):  # alternating, so that both see the same machine load
            ours.append(time_ms(lazy))
            theirs.append(time_ms(ref))
        print(f"{name:<22}{min(ours):>10.3f}{min(theirs):>10.3f}{str(equal):>7}")


if __name__ == "__main__":
    main()
