"""Column reductions (`x.sum(0)`: the reduced axis is not the last) split over threads along their output columns,
in chunks cut at multiples of `lower.COLUMN_SPLIT` = 1024 columns against chunks of any width (COLUMN_SPLIT = 1, as
before it existed): the kernels built both ways and timed alternately in one process under `lazyarr.jit` (so a busy
machine affects both alike; the order is reversed every round). Same kernel, same sums: only the cut differs. Each
chunk reads every row, so narrow chunks make the threads read short pieces of rows, and together pull each cache
line more than once. NumPy's own time for each workload is printed after.

Run: `PYTHONPATH=$PWD python benchmarks/bench_column_split.py [--rounds 20] [--threads N]`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab

SHAPES = ((4096, 4096), (4096, 1024), (1024, 4096), (65536, 64), (16384, 256), (256, 65536))


def main() -> None:
    args = settings_ab.parse_args(__doc__, "column-split")
    import lazyarr as la
    from lazyarr.kernels import lower

    rng = np.random.default_rng(0)
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {}
    numpy_calls: dict[str, Callable[[], Any]] = {}
    for shape in SHAPES:
        host = rng.standard_normal(shape).astype(np.float32)
        x = la.Tensor(host).realize()
        workloads[f"x.sum(0), {shape[0]}x{shape[1]}"] = (lambda x: x.sum(0).realize(), [x])
        numpy_calls[f"x.sum(0), {shape[0]}x{shape[1]}"] = lambda host=host: host.sum(0)
        workloads[f"(x * 2).mean(0), {shape[0]}x{shape[1]}"] = (lambda x: (x * 2).mean(0).realize(), [x])
        numpy_calls[f"(x * 2).mean(0), {shape[0]}x{shape[1]}"] = lambda host=host: (host * 2).mean(0)

    def unit(columns: int) -> Callable[[], None]:
        return lambda: setattr(lower, "COLUMN_SPLIT", columns)

    fns = settings_ab.build({"any cut": unit(1), "cut 1024": unit(1024)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 5)
    settings_ab.report(medians, ("any cut", "cut 1024"))
    print("NumPy, median of", args.rounds, "calls:")
    for name, call in numpy_calls.items():
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        print(f"  {name:<32}{sorted(times)[len(times) // 2] * 1e3:10.3f}ms")


if __name__ == "__main__":
    main()
