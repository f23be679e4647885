"""The elementwise chain `a*b + c*exp(-d)*sin(a)` on float32: lazyarr fused vs lazyarr FUSE=0 vs NumPy, side by side.

Run: `python benchmarks/bench_chain.py [--n 22] [--repeat 15]`. Prints median times and ratios from one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

import lazyarr as la
from lazyarr import Tensor


def median_time(fn: Callable[[], object], repeat: int) -> float:
    fn()
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=22, help="log2 of the number of elements")
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    n = 1 << args.n
    rng = np.random.default_rng(0)
    host = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    a, b, c, d = (Tensor(x).realize() for x in host)
    ha, hb, hc, hd = host

    def lazy() -> object:
        return (a * b + c * (-d).exp() * a.sin()).realize()

    def numpy_chain() -> object:
        return ha * hb + hc * np.exp(-hd) * np.sin(ha)

    def copy() -> object:
        return ha.copy()

    t_copy = median_time(copy, args.repeat)
    t_np = median_time(numpy_chain, args.repeat)
    t_fused = median_time(lazy, args.repeat)
    with la.Context(FUSE=0):
        t_unfused = median_time(lazy, args.repeat)
    ideal_bytes = 5 * n * 4  # four inputs read, one output written
    print(f"a*b + c*exp(-d)*sin(a), n=2**{args.n} float32, median of {args.repeat}")
    print(f"{'variant':<22}{'time ms':>10}{'vs fused':>10}{'GB/s':>8}")
    rows = (("lazyarr fused", t_fused), ("lazyarr FUSE=0", t_unfused), ("numpy", t_np), ("copy (1 in, 1 out)", t_copy))
    for name, t in rows:
        print(f"{name:<22}{t * 1e3:>10.3f}{t / t_fused:>10.2f}{ideal_bytes / t / 1e9:>8.1f}")


if __name__ == "__main__":
    main()
