"""One training step of examples/train_digits.py's CNN (1x8x8 -> conv 16 -> pool -> conv 32 -> pool -> linear 10,
batch 32, cross-entropy, SGD with momentum 0.9): steps/s with `@lazyarr.jit` and eagerly, kernels per step, and the
slowest kernels of one eager step (time, loop space, reduced axes).

Run: `python benchmarks/bench_cnn_step.py [--steps 50] [--repeat 3] [--threads N] [--top 10]`. `--threads` caps the
threads of BLAS and lazyarr (set it on a shared machine: oversubscribed BLAS threads make the small matrix products of
this model several times slower).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

if "--threads" in sys.argv:  # BLAS reads its thread count when NumPy is imported
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np  # noqa: E402

import lazyarr  # noqa: E402
from lazyarr import Tensor, nn  # noqa: E402
from lazyarr.kernels import realize  # noqa: E402
from lazyarr.nn import functional as F  # noqa: E402

BATCH = 32


def make_step(jit: bool) -> tuple[Any, list[Tensor], list[Tensor]]:
    Tensor.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(128, 10))
    opt = lazyarr.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    rng = np.random.default_rng(0)
    xs = [Tensor(rng.standard_normal((BATCH, 1, 8, 8)).astype(np.float32)).realize() for _ in range(4)]
    ys = [Tensor(rng.integers(0, 10, BATCH).astype(np.int32)).realize() for _ in range(4)]

    def step(x: Tensor, y: Tensor) -> Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return (lazyarr.jit(step) if jit else step), xs, ys


def steps_per_s(jit: bool, steps: int, repeat: int) -> tuple[float, int]:
    fn, xs, ys = make_step(jit)
    for i in range(3):  # compile, capture
        fn(xs[i % 4], ys[i % 4]).item()
    before = lazyarr.stats().kernels_launched
    fn(xs[0], ys[0]).item()
    kernels = lazyarr.stats().kernels_launched - before
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        loss = None
        for i in range(steps):
            loss = fn(xs[i % 4], ys[i % 4])
        assert loss is not None
        loss.item()
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates), kernels


def kernel_profile(top: int) -> None:
    """The `top` kernels of one eager step by time (best of 3 steps per kernel position)."""
    fn, xs, ys = make_step(jit=False)
    for i in range(2):
        fn(xs[i], ys[i]).item()
    runs: list[list[tuple[float, str]]] = []
    original = realize.ExecItem.execute

    def timed(self: realize.ExecItem) -> None:
        start = time.perf_counter()
        original(self)
        lines = self.kernel.source.count("\n")
        runs[-1].append((time.perf_counter() - start, f"work {self.kernel.lowered.work:>9}  {lines:>4} source lines"))

    realize.ExecItem.execute = timed  # type: ignore[method-assign]
    try:
        for i in range(3):
            runs.append([])
            fn(xs[i], ys[i]).item()
    finally:
        realize.ExecItem.execute = original  # type: ignore[method-assign]
    best = [min(r[j][0] for r in runs) for j in range(min(len(r) for r in runs))]
    total = sum(best)
    print(f"one eager step: {len(best)} kernels, {total * 1e3:.2f} ms in kernels (best of 3 per kernel)")
    by_time = sorted(range(len(best)), key=lambda j: -best[j])[:top]
    for j in by_time:
        print(f"  #{j:<4}{best[j] * 1e3:8.3f} ms  {runs[0][j][1]}")
    shares: dict[str, float] = defaultdict(float)
    for j, t in enumerate(best):
        shares["top" if j in by_time else "rest"] += t
    print(f"  top {top}: {shares['top'] * 1e3:.2f} ms, the rest: {shares['rest'] * 1e3:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="threads for BLAS and lazyarr (0: defaults)")
    parser.add_argument("--top", type=int, default=10, help="slowest kernels to list (0: no profile)")
    args = parser.parse_args()
    ctx = lazyarr.Context(NUM_THREADS=args.threads) if args.threads else lazyarr.Context()
    with ctx:
        for jit in (True, False):
            rate, kernels = steps_per_s(jit, args.steps, args.repeat)
            print(f"{'jit' if jit else 'eager':<6} {rate:8.1f} steps/s  {1e3 / rate:8.2f} ms/step  "
                  f"{kernels} kernels/step")
        if args.top:
            kernel_profile(args.top)


if __name__ == "__main__":
    main()
