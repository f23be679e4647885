"""Programs whose speed depends on the scheduler's choice between storing a value several kernels read and
computing it again in each (`schedule._Scheduler._shared_values`), and on matmul epilogues: kernels launched and
time per call of each, as `lazyarr.jit` replays.

Run: `PYTHONPATH=$PWD python benchmarks/bench_recompute.py [--repeat 15]`. To compare two checkouts on a busy
machine, alternate them: `for i in 1 2; do for d in OLD NEW; do LAZYARR_NUM_THREADS=1 PYTHONPATH=$d python
NEW/benchmarks/bench_recompute.py; done; done` (the script only uses the public API, so it runs on older checkouts).
Times: median and minimum in milliseconds over `repeat` calls.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import lazyarr as la
from lazyarr import Tensor

A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429


def cnd(d: Any) -> Any:
    """Cumulative normal by Abramowitz and Stegun 26.2.17 (plain NumPy code)."""
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    tail = 0.3989422804014327 * np.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    return np.where(d > 0, 1.0 - tail, tail)


def black_scholes(s: Any, k: Any, t: Any) -> tuple[Any, Any]:
    """Call and put prices (r = 0.02, sigma = 0.3), written for NumPy."""
    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / k) + (0.02 + 0.5 * 0.3 * 0.3) * t) / (0.3 * sqrt_t)
    d2 = d1 - 0.3 * sqrt_t
    c1, c2 = cnd(d1), cnd(d2)
    disc = np.exp(-0.02 * t)
    return s * c1 - k * disc * c2, k * disc * (1.0 - c2) - s * (1.0 - c1)


def normalise(x: Any) -> tuple[Any, Any]:
    """Column z-scores ignoring NaN, clipped to +-3, and each column's share of clipped values (NumPy code)."""
    mask = np.isfinite(x)
    n = mask.sum(axis=0)
    mean = np.where(mask, x, 0.0).sum(axis=0) / np.maximum(n, 1)
    var = (np.where(mask, x - mean, 0.0) ** 2).sum(axis=0) / np.maximum(n - 1, 1)
    std = np.sqrt(var)
    z = np.clip(np.where(mask, (x - mean) / np.where(std > 0, std, 1.0), np.nan), -3.0, 3.0)
    return z, np.mean(np.abs(z) >= 3.0, axis=0)


def tanh_chain(x: Any, vs: list[Any], readers: int) -> list[Any]:
    """Four tanh layers with bias vectors, then exp, read by `readers` row or column reductions."""
    z = x
    for k in range(4):
        z = np.tanh(z * vs[2 * k] + vs[2 * k + 1])
    z = np.exp(z * 0.5)
    return [(z * (k + 1)).sum(1) if k % 2 else (z - k).max(0) for k in range(readers)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((1000, 1000)).astype(np.float32)).realize()
    vs = [Tensor(rng.standard_normal(1000).astype(np.float32)).realize() for _ in range(8)]
    n = 1 << 20
    s, k, t = (Tensor(rng.uniform(lo, hi, n)).realize() for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    data = rng.standard_normal((4096, 256)) * 3 + 1
    data[rng.random(data.shape) < 0.1] = np.nan
    d = Tensor(data).realize()
    a = Tensor(rng.standard_normal((4096, 64)).astype(np.float32)).realize()
    w = Tensor(rng.standard_normal((64, 256)).astype(np.float32)).realize()
    b = Tensor(rng.standard_normal(256).astype(np.float32)).realize()
    m = Tensor(rng.standard_normal((4096, 256)) > 0).realize()

    def realized(outs: Any) -> Any:
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        outs[0].realize(*outs[1:])
        return outs

    cases: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "tanh chain 1000x1000, 2 readers": (lambda x, *v: realized(tanh_chain(x, list(v), 2)), [x, *vs]),
        "tanh chain 1000x1000, 4 readers": (lambda x, *v: realized(tanh_chain(x, list(v), 4)), [x, *vs]),
        "tanh chain 1000x1000, 20 readers": (lambda x, *v: realized(tanh_chain(x, list(v), 20)), [x, *vs]),
        "NumPy Black-Scholes 2**20 float64": (lambda s, k, t: realized(black_scholes(s, k, t)), [s, k, t]),
        "NumPy normalise 4096x256 float64": (lambda d: realized(normalise(d)), [d]),
        "relu(a@w+b), select(m, 0, a@w)": (lambda a, w, b, m: realized(((a @ w + b).relu(), m.where(0.0, a @ w))),
                                           [a, w, b, m]),
    }
    print(f"{'program':36} {'kernels':>7} {'median ms':>10} {'min ms':>8}")
    for name, (fn, inputs) in cases.items():
        jitted = la.jit(fn)
        for _ in range(3):
            jitted(*inputs)
        before = la.stats().kernels_launched
        jitted(*inputs)
        kernels = la.stats().kernels_launched - before
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            jitted(*inputs)
            times.append(time.perf_counter() - start)
        print(f"{name:36} {kernels:>7} {statistics.median(times) * 1e3:>10.2f} {min(times) * 1e3:>8.2f}")


if __name__ == "__main__":
    main()
