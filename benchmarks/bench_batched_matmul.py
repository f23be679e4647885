"""A linear layer on a batch of sequences: relu(x @ w + b) with x (batch, rows, k) and w (k, m), and its training
step (forward, backward, the weight's gradient), lazyarr (under `lazyarr.jit`) against NumPy and PyTorch eager when
installed: lazyarr and NumPy timed alternately in one process (the order reversed every round), PyTorch after them.

lazyarr computes the product as one (batch*rows, k) @ (k, m) BLAS call and the weight's gradient as one
(k, batch*rows) @ (batch*rows, m) call (schedule.MatmulAxes.rows / .inner), with the bias and relu fused after it.

Run: `PYTHONPATH=$PWD python benchmarks/bench_batched_matmul.py [--shape 8,256,512,512] [--rounds 15]`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shape", default="8,256,512,512", help="batch,rows,k,m")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    batch, rows, k, m = (int(v) for v in args.shape.split(","))
    import lazyarr as la

    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, rows, k)).astype(np.float32)
    w = (rng.standard_normal((k, m)) / np.sqrt(k)).astype(np.float32)
    bias = rng.standard_normal(m).astype(np.float32)
    tx, tb = la.Tensor(x).realize(), la.Tensor(bias).realize()
    tw = la.Tensor(w, requires_grad=True).realize()

    def lazy_step(a: Any) -> Any:
        (a @ tw + tb).relu().sum().backward()
        grad, tw.grad = tw.grad, None
        return grad.realize()

    def numpy_step() -> np.ndarray:
        mask = (x @ w + bias > 0).astype(np.float32)
        return x.reshape(-1, k).T @ mask.reshape(-1, m)

    forward = la.jit(lambda a, b: (a @ tw + b).relu().realize())
    step = la.jit(lazy_step)
    np.testing.assert_allclose(forward(tx, tb).numpy(), np.maximum(x @ w + bias, 0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(step(tx).numpy(), numpy_step(), rtol=1e-3, atol=1e-2)
    print(f"x ({batch}, {rows}, {k}) @ w ({k}, {m}) float32, median ms of {args.rounds}")
    _report(_alternate({"forward lazyarr jit": lambda: forward(tx, tb),
                        "forward numpy": lambda: np.maximum(x @ w + bias, 0),
                        "step lazyarr jit": lambda: step(tx), "step numpy": numpy_step}, args.rounds))
    try:
        import torch
    except ImportError:
        return
    xt, wt, bt = torch.from_numpy(x), torch.from_numpy(w).requires_grad_(), torch.from_numpy(bias)

    def torch_step() -> Any:
        wt.grad = None
        (xt @ wt + bt).relu().sum().backward()
        return wt.grad

    # after the others, not taking turns with them: PyTorch's idle OpenMP threads spin for a while after each op and
    # would slow down whatever runs next on a 2-core machine
    _report(_alternate({"forward torch": lambda: (xt @ wt + bt).relu(), "step torch": torch_step}, args.rounds))


def _alternate(runs: dict[str, Callable[[], Any]], rounds: int) -> dict[str, float]:
    """Median seconds of each run: three warm-up calls each (a jit captures on its second call), then `rounds`
    rounds, every round in the reverse order of the last."""
    for run in runs.values():
        for _ in range(3):
            run()
    samples: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs.items())
    for r in range(rounds):
        for name, run in (order if r % 2 else order[::-1]):
            start = time.perf_counter()
            run()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in samples.items()}


def _report(medians: dict[str, float]) -> None:
    for name, t in medians.items():
        print(f"  {name:<22} {t * 1e3:9.2f}")

if __name__ == "__main__":
    main()
