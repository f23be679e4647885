"""Float max/min reductions with a fast first pass (`render_numba.FAST_MINMAX`: one vmaxps/vminps a vector; the
reduction computed again with the exact NaN-propagating, -0 < +0 maximum only when an operand was NaN, and a pass
looking for the winning zero's sign when the result is ±0) against the exact maximum/minimum throughout
(llvm.maximum/minimum, six instructions a vector on x86): the kernels of a few float32 workloads built both ways,
timed alternately in one process (so a busy machine affects both alike; the order is reversed every round). Both
settings give the same bits.

Run: `PYTHONPATH=$PWD python benchmarks/bench_minmax.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "minmax")
    import lazyarr as la
    from lazyarr.kernels import render_numba
    from lazyarr.nn import functional as F

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    x, small, v, pool = tensor(4096, 1024), tensor(64, 1024), tensor(1 << 22), tensor(32, 16, 32, 32)
    labels = la.Tensor(rng.integers(0, 1024, 4096)).realize()
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "row max 64x1024 (in cache)": (lambda x: x.max(1).realize(), [small]),
        "softmax 64x1024 (in cache)": (lambda x: x.softmax(1).realize(), [small]),
        "row max 4096x1024": (lambda x: x.max(1).realize(), [x]),
        "row min 4096x1024": (lambda x: x.min(1).realize(), [x]),
        "softmax 4096x1024": (lambda x: x.softmax(1).realize(), [x]),
        "log_softmax 4096x1024": (lambda x: x.log_softmax(1).realize(), [x]),
        "cross-entropy 4096x1024": (lambda x, y: x.cross_entropy(y).realize(), [x, labels]),
        "max 2**22": (lambda v: v.max().realize(), [v]),
        "relu(-|x|).max(1) 4096x1024 (every max 0)": (lambda x: (-x.abs()).relu().max(1).realize(), [x]),
        "max_pool2d 32x16x32x32": (lambda p: F.max_pool2d(p, 2).realize(), [pool]),
    }

    def fast(on: bool) -> Callable[[], None]:
        return lambda: setattr(render_numba, "FAST_MINMAX", on)

    fns = settings_ab.build({"exact": fast(False), "fast": fast(True)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 100 if "in cache" in name else 10)
    settings_ab.report(medians, ("exact", "fast"))


if __name__ == "__main__":
    main()
