"""Row reductions that read their rows down the columns of a buffer (`x.T.sum(1)`), rows side by side (lanes of
`render_numba.ROW_LANES`, `lower.STRIDED_ROW` = 16) against one row at a time (STRIDED_ROW too large to apply): the
kernels built both ways, timed alternately in one process (so a busy machine affects both alike; the order is reversed
every round). Each row is summed in the same blocks in the same order either way, so both give the same bits. A sum
over contiguous rows (`x.sum(1)`) is the control: both settings build the same kernel for it.

Run: `PYTHONPATH=$PWD python benchmarks/bench_strided_rows.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "strided-rows")
    import lazyarr as la
    from lazyarr.kernels import lower

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    def row_sum_t(x: Any) -> Any:
        return x.T.sum(1).realize()

    x1k, y1k = tensor(1024, 1024), tensor(1024, 1024)
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "x.T.sum(1), 1024x1024": (row_sum_t, [x1k]),
        "x.T.sum(1), 4096x4096": (row_sum_t, [tensor(4096, 4096)]),
        "x.T.sum(1), 4000x4000": (row_sum_t, [tensor(4000, 4000)]),
        "(x.T * y).sum(1), 1024x1024": (lambda x, y: (x.T * y).sum(1).realize(), [x1k, y1k]),
        "x.permute(0, 2, 1).mean(2), 16x512x512": (lambda x: x.permute(0, 2, 1).mean(2).realize(),
                                                   [tensor(16, 512, 512)]),
        "x.sum(1), 1024x1024 (control)": (lambda x: x.sum(1).realize(), [x1k]),
    }

    def stride(elements: int) -> Callable[[], None]:
        return lambda: setattr(lower, "STRIDED_ROW", elements)

    fns = settings_ab.build({"by row": stride(1 << 62), "lanes": stride(16)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 2 if "4096" in name or "4000" in name else 10)
    settings_ab.report(medians, ("by row", "lanes"))


if __name__ == "__main__":
    main()
