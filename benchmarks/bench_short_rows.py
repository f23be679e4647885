"""Row sums over short axes: blocks shorter than `render_numba.SHORT_BLOCK` summed by `short_sum` ("short") against
padded with -0.0 to a whole REDUCE_BLOCK and summed by `block_sum` ("padded"), on reductions over rows of 3 to 64
elements: plain sums, softmax, log-softmax and layer norm over 10 classes or 32 features, cross-entropy with its
gradient. Each setting's kernels are built in this process and timed alternately (settings_ab.py).

Run: `PYTHONPATH=$PWD python benchmarks/bench_short_rows.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio padded / short (above 1: short is faster).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "short-rows")
    import lazyarr as la
    from lazyarr.kernels import render_numba

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    labels = la.Tensor(rng.integers(0, 10, 4096)).realize()

    def cross_entropy_grad(x: Any, y: Any) -> Any:
        w = x.detach()
        w.requires_grad = True
        w.cross_entropy(y).backward()
        return w.grad.realize()

    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        **{f"sum 16384x{n}": (lambda x: x.sum(1).realize(), [tensor(16384, n)]) for n in (3, 10, 24, 31, 32, 64)},
        "softmax 4096x10": (lambda x: x.softmax(1).realize(), [tensor(4096, 10)]),
        "log_softmax 4096x10": (lambda x: x.log_softmax(1).realize(), [tensor(4096, 10)]),
        "layer_norm 4096x32": (lambda x: x.layer_norm(32).realize(), [tensor(4096, 32)]),
        "cross-entropy grad 4096x10": (cross_entropy_grad, [tensor(4096, 10), labels]),
    }
    short = render_numba.SHORT_BLOCK

    def use(n: int) -> Callable[[], None]:
        def apply() -> None:
            render_numba.SHORT_BLOCK = n
        return apply

    settings = {"padded": use(0), "short": use(short)}
    fns = settings_ab.build(settings, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 20)
    settings_ab.report(medians, ("padded", "short"))


if __name__ == "__main__":
    main()
