"""256-bit against 512-bit vectors in the kernels lazyarr builds as LLVM IR (`LAZYARR_VECTOR_WIDTH`, the function
attribute "prefer-vector-width"; 0, the default, is 512 on a host with AVX-512, where LLVM's own default is 256): a
few float32 elementwise workloads realised eagerly under each width, timed alternately in one process (the order is
reversed every round, so a busy machine affects both alike). On a host without AVX-512 both widths build the same
code.

Run: `PYTHONPATH=$PWD python benchmarks/bench_vector_width.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each width and the ratio 256 / 512 (above 1: 512-bit vectors are
faster).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "vector-width")
    import lazyarr as la
    from lazyarr.bench import workloads as bench_workloads

    rng = np.random.default_rng(0)
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {}
    for n in (16, 20):
        bs = bench_workloads.black_scholes_workload(1 << n)
        data = bs.data(rng)
        inputs = [la.Tensor(data[k]).realize() for k in ("spot", "strike", "years")]
        workloads[f"Black-Scholes 2**{n}"] = (bs.lazy, inputs)
    for n in (16, 22):
        xs = [la.Tensor(rng.standard_normal(1 << n).astype(np.float32)).realize() for _ in range(4)]
        workloads[f"chain 2**{n}"] = (lambda a, b, c, d: (a * b + c * (-d).exp() * a.sin()).realize(), xs)
        workloads[f"erf 2**{n}"] = (lambda a: a.erf().realize(), xs[:1])
    big = [la.Tensor(rng.standard_normal(1 << 22).astype(np.float32)).realize() for _ in range(2)]
    workloads["a + b 2**22"] = (lambda a, b: (a + b).realize(), big)

    fns: dict[tuple[str, str], Callable[[], Any]] = {}
    for name, (fn, inputs) in workloads.items():
        for width in ("256", "512"):
            def run(fn: Callable[..., Any] = fn, inputs: list[Any] = inputs, width: str = width) -> Any:
                with la.Context(VECTOR_WIDTH=int(width)):
                    return fn(*inputs)

            for _ in range(3):  # compile, then warm up
                run()
            fns[(name, width)] = run
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 20 if "2**16" in name else 5)
    settings_ab.report(medians, ("256", "512"))


if __name__ == "__main__":
    main()
