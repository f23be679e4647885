"""How close row softmax (4096x1024 float32) can come to the memory-bandwidth limit on this machine: lazyarr's
softmax kernel against the same kernel without its exp (`x - max(x)` scaled by its row sum: the same three passes
over each row, the same loads and stores, the same row sums), with the bandwidth probes of `python -m lazyarr.bench`
(STREAM copy and triad, a read-only sum, on 2**24 float32s), all as `lazyarr.jit` replays timed alternately in one
process (the order reversed every round), so a busy machine affects them alike.

The limit is the softmax's ideal bytes (one read and one write of the matrix: 32 MiB) at the best probe rate, as in
the benchmark suite. The kernel without exp bounds what any exp could reach: its ratio to the limit is the floor.

Run: `PYTHONPATH=$PWD python benchmarks/bench_softmax_floor.py [--rounds 15]`.
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
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows, cols, n = 4096, 1024, 1 << 24
    x = la.Tensor(rng.standard_normal((rows, cols)).astype(np.float32)).realize()
    b, c = (la.Tensor(rng.standard_normal(n).astype(np.float32)).realize() for _ in range(2))

    def no_exp(t: Any) -> Any:
        y = t - t.max(1, keepdims=True)
        return (y / y.sum(1, keepdims=True)).realize()

    # name -> (function, inputs, ideal bytes, is a bandwidth probe)
    runs: dict[str, tuple[Callable[..., Any], list[Any], int, bool]] = {
        "softmax": (lambda t: t.softmax(1).realize(), [x], 2 * 4 * rows * cols, False),
        "softmax without exp": (no_exp, [x], 2 * 4 * rows * cols, False),
        "STREAM copy": (lambda u, v: u.clone().realize(), [b, c], 2 * 4 * n, True),
        "STREAM triad": (lambda u, v: (u + 3.0 * v).realize(), [b, c], 3 * 4 * n, True),
        "read-only sum": (lambda u, v: u.sum().realize(), [b, c], 4 * n, True),
    }
    jitted = {name: la.jit(fn) for name, (fn, _, _, _) in runs.items()}
    for name, (_, inputs, _, _) in runs.items():
        for _ in range(3):
            jitted[name](*inputs)
    samples: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs)
    for r in range(args.rounds):
        for name in (order if r % 2 else order[::-1]):
            inputs = runs[name][1]
            start = time.perf_counter()
            jitted[name](*inputs)
            samples[name].append(time.perf_counter() - start)
    med = {name: statistics.median(s) for name, s in samples.items()}
    rate, probe = max((runs[name][2] / med[name], name) for name in runs if runs[name][3])
    print(f"bandwidth limit: {rate / 1e9:.1f} GB/s ({probe}); medians of {args.rounds} rounds")
    print(f"{'kernel':<22} {'median':>9} {'min':>9} {'GB/s':>6} {'/ limit':>8}")
    for name, (_, _, nbytes, _) in runs.items():
        limit = nbytes / rate
        print(f"{name:<22} {med[name] * 1e3:7.2f}ms {min(samples[name]) * 1e3:7.2f}ms "
              f"{nbytes / med[name] / 1e9:6.1f} {med[name] / limit:8.2f}")


if __name__ == "__main__":
    main()
