"""Row sums of values loaded where they lie (`render_numba.loaded_sum`, LOADED_SUM): the full blocks summed in a loop
of their own against the general blocked loop (a per-block length, a branch and an element loop around each block
sum), on memory-bound sums: the read-only sum of 2**24 float32s (the bandwidth probe of `python -m lazyarr.bench`),
row sums and means over long and short rows. Both settings' kernels are built in this process and timed alternately
(settings_ab.py); NumPy and, when installed, PyTorch run the same sums in the same rounds.

Run: `PYTHONPATH=$PWD python benchmarks/bench_rowsum.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio blocked / loaded (above 1: loaded is
faster), then the peers' medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "rowsum")
    import lazyarr as la
    from lazyarr.kernels import render_numba

    rng = np.random.default_rng(0)
    # (array, the reduction): each library's arrays have .sum() and .sum(axis)/.mean(axis)
    cases: dict[str, tuple[np.ndarray, Callable[[Any], Any]]] = {
        "sum 2**24": (rng.standard_normal(1 << 24).astype(np.float32), lambda x: x.sum()),
        "sum(1) 4096x4096": (rng.standard_normal((4096, 4096)).astype(np.float32), lambda x: x.sum(1)),
        "mean(1) 16384x1024": (rng.standard_normal((16384, 1024)).astype(np.float32), lambda x: x.mean(1)),
        "sum(1) 65536x200": (rng.standard_normal((65536, 200)).astype(np.float32), lambda x: x.sum(1)),
        "sum(1) 2**20x10 float64": (rng.standard_normal((1 << 20, 10)), lambda x: x.sum(1)),
    }
    workloads = {name: (lambda x, op=op: op(x).realize(), [la.Tensor(a).realize()]) for name, (a, op) in cases.items()}

    def use(on: bool) -> Callable[[], None]:
        def apply() -> None:
            render_numba.LOADED_SUM = on
        return apply

    fns = settings_ab.build({"blocked": use(False), "loaded": use(True)}, workloads)
    peers = {(name, "numpy"): (lambda a=a, op=op: op(a)) for name, (a, op) in cases.items()}
    try:
        import torch

        if args.threads:
            torch.set_num_threads(args.threads)
        tensors = {name: torch.from_numpy(a) for name, (a, _) in cases.items()}
        peers.update({(name, "torch"): (lambda t=tensors[name], op=op: op(t)) for name, (_, op) in cases.items()})
    except ImportError:
        pass
    medians = settings_ab.alternate({**fns, **peers}, args.rounds, lambda name: 5)
    settings_ab.report({k: v for k, v in medians.items() if k[1] in ("blocked", "loaded")}, ("blocked", "loaded"))
    print()
    for name in cases:
        line = "  ".join(f"{p} {medians[(name, p)] * 1e3:.3f}ms" for p in ("numpy", "torch") if (name, p) in medians)
        print(f"{name:<26}{line}")


if __name__ == "__main__":
    main()
