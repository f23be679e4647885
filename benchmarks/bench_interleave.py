"""The hot loops of render_llvm's kernels (the streamed middle of a large elementwise loop, the stages of a split
loop) interleaved `render_llvm.INTERLEAVE` (2) vector iterations at a time, against LLVM's own choice (0): the
kernels of the chain and Black-Scholes built both ways, timed alternately in one process (so a busy machine affects
both alike; the order is reversed every round).

Run: `PYTHONPATH=$PWD python benchmarks/bench_interleave.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting (llvm: LLVM's choice, x2: interleaved) and
the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "interleave")
    import lazyarr as la
    from lazyarr.bench.workloads import black_scholes_workload
    from lazyarr.kernels import render_llvm

    rng = np.random.default_rng(0)

    def tensor(n: int) -> Any:
        return la.Tensor(rng.standard_normal(n).astype(np.float32)).realize()

    def chain(a: Any, b: Any, c: Any, d: Any) -> Any:
        return (a * b + c * (-d).exp() * a.sin()).realize()

    spot, strike, years = (la.Tensor(rng.uniform(lo, hi, 1 << 20).astype(np.float32)).realize()
                           for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "chain 2**22": (chain, [tensor(1 << 22) for _ in range(4)]),
        "chain 2**16": (chain, [tensor(1 << 16) for _ in range(4)]),
        "Black-Scholes 2**20": (black_scholes_workload(1 << 20).lazy, [spot, strike, years]),
    }
    default = render_llvm.INTERLEAVE
    settings: dict[str, Callable[[], None]] = {
        "llvm": lambda: setattr(render_llvm, "INTERLEAVE", 0),
        f"x{default}": lambda: setattr(render_llvm, "INTERLEAVE", default),
    }
    fns = settings_ab.build(settings, workloads)
    render_llvm.INTERLEAVE = default
    medians = settings_ab.alternate(fns, args.rounds, lambda w: 20 if "2**16" in w else 2)
    settings_ab.report(medians, ("llvm", f"x{default}"))

if __name__ == "__main__":
    main()
