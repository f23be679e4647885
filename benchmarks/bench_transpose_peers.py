"""Transposed elementwise kernels and row reductions over transposed views, lazyarr against NumPy and PyTorch (when
installed) side by side in one process: `x.T + 1` (torch: `(x.T + 1)`, and the `.contiguous()` copy of `x.T`),
`x + x.T` and `x.T.sum(1)`, float32, at 1024 and 4096 squared. Each figure is the fastest of `--repeat` calls after
two warm-up calls.

Run: `PYTHONPATH=$PWD python benchmarks/bench_transpose_peers.py [--repeat 10]`.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import lazyarr as la


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def report(n: int, repeat: int, torch: Any) -> None:
    """Print each workload's figures at n x n."""
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    x = la.Tensor(a).realize()
    rows: dict[str, list[tuple[str, Callable[[], object]]]] = {
        "x.T + 1": [("lazyarr", lambda: (x.T + 1).realize()), ("numpy", lambda: a.T + 1)],
        "x + x.T": [("lazyarr", lambda: (x + x.T).realize()), ("numpy", lambda: a + a.T)],
        "x.T.sum(1)": [("lazyarr", lambda: x.T.sum(1).realize()), ("numpy", lambda: a.T.sum(1))],
    }
    if torch is not None:
        t = torch.from_numpy(a)
        rows["x.T + 1"] += [("torch", lambda: t.T + 1), ("torch .T.contiguous()", lambda: t.T.contiguous())]
        rows["x + x.T"].append(("torch", lambda: t + t.T))
        rows["x.T.sum(1)"].append(("torch", lambda: t.T.sum(1)))
    for name, contenders in rows.items():
        figures = ", ".join(f"{who} {best_ms(fn, repeat):.2f} ms" for who, fn in contenders)
        print(f"{name:12} {n}x{n}: {figures}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        torch = None
    for n in (1024, 4096):
        report(n, args.repeat, torch)


if __name__ == "__main__":
    main()
