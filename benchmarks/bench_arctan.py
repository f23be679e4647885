"""np.arctan / np.arctan2 on lazyarr Tensors (a polynomial after two range reductions) against NumPy's, float32 and
float64, 2**20 elements, timed alternately in one process (a busy machine affects both alike).

Run: `PYTHONPATH=$PWD python benchmarks/bench_arctan.py [--rounds 15] [--n 1048576]`.
Prints the median and best per-call time of each contender (ms) and NumPy's median over lazyarr's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import lazyarr as la


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--n", type=int, default=1 << 20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        y, x = (rng.standard_normal(args.n).astype(dtype) * 3 for _ in range(2))
        ty, tx = la.Tensor(y).realize(), la.Tensor(x).realize()
        cases: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
            "arctan": (lambda ty=ty: np.arctan(ty).realize(), lambda y=y: np.arctan(y)),
            "arctan2": (lambda ty=ty, tx=tx: np.arctan2(ty, tx).realize(), lambda y=y, x=x: np.arctan2(y, x)),
        }
        for name, (lazy, numpy_fn) in cases.items():
            lazy()  # compile
            times: dict[str, list[float]] = {"lazyarr": [], "numpy": []}
            for _ in range(args.rounds):
                for who, fn in (("lazyarr", lazy), ("numpy", numpy_fn)):
                    start = time.perf_counter()
                    fn()
                    times[who].append(time.perf_counter() - start)
            med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
            best = {k: min(v) * 1e3 for k, v in times.items()}
            print(f"{name:8s} {np.dtype(dtype).name:8s} lazyarr {med['lazyarr']:7.2f} ms (best {best['lazyarr']:.2f})"
                  f"  numpy {med['numpy']:7.2f} ms (best {best['numpy']:.2f})"
                  f"  numpy/lazyarr {med['numpy'] / med['lazyarr']:.2f}")


if __name__ == "__main__":
    main()
