"""float16 kernels against NumPy side by side: casts to and from float32, an add, a row sum and exp over 2048x2048.

    PYTHONPATH=$PWD python benchmarks/bench_float16.py [--repeat 10] [--threads N]

Prints the best of --repeat calls in ms for each. lazyarr's CPU kernels load float16 through float32 and store by
rounding back (`numba_support.f16_bits_to_f32`, `f32_to_f16_bits`): in hardware on hosts with F16C
(`numba_support.F16C`), in integer arithmetic elsewhere. Run it on two checkouts to compare them.
"""

from __future__ import annotations

import numpy as np
from timing import best_ms, repeat_args


def main() -> None:
    args = repeat_args(__doc__)
    import lazyarr as la
    from lazyarr.kernels import numba_support

    rng = np.random.default_rng(0)
    h32 = rng.standard_normal((2048, 2048)).astype(np.float32)
    h16, g16 = h32.astype(np.float16), h32[::-1].astype(np.float16)
    x32, x16, y16 = (la.Tensor(a).realize() for a in (h32, h16, g16))
    rows = (("float32 -> float16", lambda: x32.cast("float16").realize(), lambda: h32.astype(np.float16)),
            ("float16 -> float32", lambda: x16.cast("float32").realize(), lambda: h16.astype(np.float32)),
            ("float16 a + b", lambda: (x16 + y16).realize(), lambda: h16 + g16),
            ("float16 sum(1)", lambda: x16.sum(1).realize(), lambda: h16.sum(1)),
            ("float16 exp", lambda: x16.exp().realize(), lambda: np.exp(h16)))
    f16c = getattr(numba_support, "F16C", "no hardware path in this checkout")
    print(f"2048x2048, best of {args.repeat}, ms (F16C: {f16c})")
    print(f"{'workload':<22}{'lazyarr':>10}{'numpy':>10}")
    for name, lazy, ref in rows:
        print(f"{name:<22}{best_ms(lazy, args.repeat):>10.3f}{best_ms(ref, args.repeat):>10.3f}")


if __name__ == "__main__":
    main()
