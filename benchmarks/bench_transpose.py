"""Elementwise kernels that read a transposed matrix, tiled (`render_numba.TILE_ROWS` = 32) against plain loop nests
(TILE_ROWS = 0): the kernels built both ways, timed alternately in one process (so a busy machine affects both
alike; the order is reversed every round). Both settings compute each element the same way, so they give the same
bits. Rows of 1000 float32s are not a multiple of TILE_ALIAS bytes: both settings run the plain nest there (a
control).

Run: `PYTHONPATH=$PWD python benchmarks/bench_transpose.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio of the medians.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "transpose")
    import lazyarr as la
    from lazyarr.kernels import render_numba

    rng = np.random.default_rng(0)

    def tensor(*shape: int, dtype: Any = np.float32) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(dtype)).realize()

    def plus_one_t(x: Any) -> Any:
        return (x.T + 1).realize()

    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "x.T + 1, 512x512": (plus_one_t, [tensor(512, 512)]),
        "x.T + 1, 1024x1024": (plus_one_t, [tensor(1024, 1024)]),
        "x.T + 1, 4096x4096": (plus_one_t, [tensor(4096, 4096)]),
        "x.T + 1, 1024x1024 float64": (plus_one_t, [tensor(1024, 1024, dtype=np.float64)]),
        "x + x.T, 2048x2048": (lambda x: (x + x.T).realize(), [tensor(2048, 2048)]),
        "x.permute(0, 2, 1) * 2, 16x512x512": (lambda x: (x.permute(0, 2, 1) * 2).realize(), [tensor(16, 512, 512)]),
        "x.T + 1, 1000x1000 (control)": (plus_one_t, [tensor(1000, 1000)]),
    }

    def tile(rows: int) -> Callable[[], None]:
        return lambda: setattr(render_numba, "TILE_ROWS", rows)

    fns = settings_ab.build({"plain": tile(0), "tiled": tile(32)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 2 if "4096" in name else 10)
    settings_ab.report(medians, ("plain", "tiled"))


if __name__ == "__main__":
    main()
