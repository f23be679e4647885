"""Blocked row sums computed a chunk of `render_numba.ROW_CHUNK` (1024) elements at a time, then the chunk's blocks of
128 summed, against summing each block right after computing it (ROW_CHUNK = 128): the kernels of a few float32
workloads built both ways, timed alternately in one process (so a busy machine affects both alike; the order is
reversed every round). Both settings add the same block sums in the same order, so they give the same bits.

Run: `PYTHONPATH=$PWD python benchmarks/bench_row_chunks.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "chunks")
    import lazyarr as la
    from lazyarr.kernels import render_numba
    from lazyarr.nn import functional as F

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    x, small = tensor(4096, 1024), tensor(64, 1024)
    labels = la.Tensor(rng.integers(0, 1024, 4096)).realize()
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "softmax 64x1024 (in cache)": (lambda x: x.softmax(1).realize(), [small]),
        "log_softmax 64x1024 (in cache)": (lambda x: x.log_softmax(1).realize(), [small]),
        "softmax 4096x1024": (lambda x: x.softmax(1).realize(), [x]),
        "log_softmax 4096x1024": (lambda x: x.log_softmax(1).realize(), [x]),
        "cross-entropy 4096x1024": (lambda x, y: x.cross_entropy(y).realize(), [x, labels]),
        "layer_norm 4096x1024": (lambda x: F.layer_norm(x, (1024,)).realize(), [x]),
        "(2x - 1).sum(1) 4096x1024": (lambda x: (2 * x - 1).sum(1).realize(), [x]),
    }

    def chunk(n: int) -> Callable[[], None]:
        return lambda: setattr(render_numba, "ROW_CHUNK", n)

    fns = settings_ab.build({"per block": chunk(128), "chunked": chunk(1024)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 100 if "in cache" in name else 10)
    settings_ab.report(medians, ("per block", "chunked"))


if __name__ == "__main__":
    main()
