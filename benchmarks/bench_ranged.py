"""Float32 exp's and log's small variants (`render_numba.RANGED`: exp for x in (-87, 88) without clamps and with one
scaling factor, log for normal finite x > 0 without subnormal scaling and special cases; the loop run again with the
full functions only when an argument was outside) against the full functions everywhere: the kernels of a few
float32 workloads built both ways, timed alternately in one process (so a busy machine affects both alike; the order
is reversed every round).

Run: `PYTHONPATH=$PWD python benchmarks/bench_ranged.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "ranged")
    import lazyarr as la
    from lazyarr.bench.workloads import black_scholes_workload
    from lazyarr.graph.ops import Ops
    from lazyarr.kernels import render_numba

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    x, a, b, c, d, e = tensor(4096, 1024), tensor(1 << 22), tensor(1 << 22), tensor(1 << 22), tensor(1 << 22), \
        tensor(1 << 16)
    labels = la.Tensor(rng.integers(0, 1024, 4096)).realize()
    spot, strike, years = (la.Tensor(rng.uniform(lo, hi, 1 << 20).astype(np.float32)).realize()
                           for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "softmax 4096x1024": (lambda x: x.softmax(1).realize(), [x]),
        "cross-entropy 4096x1024": (lambda x, y: x.cross_entropy(y).realize(), [x, labels]),
        "exp 2**16": (lambda x: x.exp().realize(), [e]),
        "exp 2**22": (lambda x: x.exp().realize(), [a]),
        "chain 2**22": (lambda a, b, c, d: (a * b + c * (-d).exp() * a.sin()).realize(), [a, b, c, d]),
        "Black-Scholes 2**20": (black_scholes_workload(1 << 20).lazy, [spot, strike, years]),
    }
    small = {key: render_numba.RANGED.pop(key) for key in ((Ops.EXP, "f32"), (Ops.LOG, "f32"))}
    fns = settings_ab.build({"full": lambda: None, "ranged": lambda: render_numba.RANGED.update(small)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 200 if name == "exp 2**16" else 10)
    settings_ab.report(medians, ("full", "ranged"))


if __name__ == "__main__":
    main()
