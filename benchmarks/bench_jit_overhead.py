"""Replay overhead of `@lazyarr.jit`: a jitted function of 1 tiny kernel vs 50 tiny kernels (16 float32 each), and a
whole jitted call of `x + 1` on 16 floats, side by side with NumPy's `x + 1` (the machine's speed of one Python call).

Run: `python benchmarks/bench_jit_overhead.py [--repeat 200]`. Times are the minimum over `repeat` samples of a
batch of calls (the minimum filters out preemption on a shared machine). "driver" is the default replay (one native
call per replay); "loop" is `LAZYARR_JIT=2` (a Python loop over the captured launches); "eager" runs without jit.
Goals: replay overhead < 0.2 us per kernel; the whole `x + 1` call < 3 us. Also timed: whole calls returning a 2-D
result and a 0-d sum (views of their output storage).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import numpy as np

import lazyarr as la
from lazyarr import Tensor


def min_time(fn: Callable[[], object], repeat: int, batch_seconds: float = 2e-4, warmup: int = 3) -> float:
    """Seconds per call: the fastest of `repeat` batches of calls, each batch about `batch_seconds` long (short
    batches are rarely preempted), after `warmup` calls. bench_dispatch.py uses it too."""
    for _ in range(warmup):
        fn()
    start = time.perf_counter()
    fn()
    batch = max(1, int(batch_seconds / max(time.perf_counter() - start, 1e-7)))
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(batch):
                fn()
            best = min(best, (time.perf_counter() - start) / batch)
    finally:
        gc.enable()
    return best


def chain(n_kernels: int) -> Callable[[Tensor], Tensor]:
    def f(x: Tensor) -> Tensor:
        for _ in range(n_kernels):
            x = (x + 1).realize()  # one tiny kernel each
        return x

    return f


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1000)
    args = parser.parse_args()
    host = np.arange(16, dtype=np.float32)
    x = Tensor(host).realize()

    t_numpy = min_time(lambda: host + 1, args.repeat)
    results: dict[tuple[str, int], float] = {}
    for mode, jit_flag in (("driver", 1), ("loop", 2)):
        with la.Context(JIT=jit_flag):
            for n in (1, 50):
                f = la.jit(chain(n))
                results[(mode, n)] = min_time(lambda f=f: f(x), args.repeat)
                assert np.array_equal(f(x).numpy(), host + n)
    for n in (1, 50):
        f = chain(n)
        results[("eager", n)] = min_time(lambda f=f: f(x), max(5, args.repeat // 20))

    add_one = la.jit(lambda t: t + 1)
    t_call = min_time(lambda: add_one(x), args.repeat)
    # results that are views of the output storage: a 2-D result, a reduction's 0-d result
    m = Tensor(np.arange(2560, dtype=np.float32).reshape(256, 10)).realize()
    twice, total = la.jit(lambda t: t * 2), la.jit(lambda t: t.sum())
    t_2d, t_sum = min_time(lambda: twice(m), args.repeat), min_time(lambda: total(x), args.repeat)

    print(f"@lazyarr.jit replay overhead, 16 float32 per kernel, min of {args.repeat} batches")
    print(f"{'variant':<10}{'1 kernel us':>14}{'50 kernels us':>15}{'per kernel us':>15}")
    for mode in ("driver", "loop", "eager"):
        t1, t50 = results[(mode, 1)], results[(mode, 50)]
        print(f"{mode:<10}{t1 * 1e6:>14.2f}{t50 * 1e6:>15.2f}{(t50 - t1) / 49 * 1e6:>15.3f}")
    print(f"whole jitted call of x + 1 (16 float32): {t_call * 1e6:.2f} us;  numpy x + 1: {t_numpy * 1e6:.2f} us "
          f"(ratio {t_call / t_numpy:.1f})")
    print(f"whole jitted call of t * 2 (256x10 float32): {t_2d * 1e6:.2f} us;  of x.sum() (16 float32): "
          f"{t_sum * 1e6:.2f} us")


if __name__ == "__main__":
    main()
