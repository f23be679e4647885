"""Dispatch overhead of tiny tensors (16 float32): an eager op to its realised result (`(x + 1).realize()`), to a host
array (`(x + 1).numpy()`), a three-op chain that fuses into one kernel, `i + 1` on 16 int32, `.numpy()` of a realised
tensor, and the replay of a `@lazyarr.jit` function of five different tiny kernels (per kernel: the replay less a
one-kernel replay, over 4).

Run: `PYTHONPATH=$PWD python benchmarks/bench_dispatch.py [--repeat 200] [--profile WORKLOAD]`. Times are the minimum
over `repeat` batches of calls of about 0.5 ms each (the minimum filters out preemption on a shared machine); kernels
are compiled (or loaded from the disk cache) before timing. To compare two checkouts, alternate them in one shell
loop, since a busy machine drifts: `for i in 1 2 3; do for d in OLD NEW; do PYTHONPATH=$d python
$d/benchmarks/bench_dispatch.py; done; done`, and take each column's minimum.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
from collections.abc import Callable

import bench_jit_overhead
import numpy as np

import lazyarr as la
from lazyarr import Tensor


def min_time(fn: Callable[[], object], repeat: int) -> float:
    """Seconds per call: the fastest of `repeat` batches of calls, each about 0.5 ms, after 20 warm-up calls."""
    return bench_jit_overhead.min_time(fn, repeat, batch_seconds=5e-4, warmup=20)


def five_kernels(x: Tensor) -> Tensor:
    """Five tiny kernels of different structures (each `realize` ends one)."""
    a = (x + 1).realize()
    b = (a * 2).realize()
    c = (b - x).exp().realize()
    d = (c.maximum(a) / 3).realize()
    return d.sqrt()


def one_kernel(x: Tensor) -> Tensor:
    return x + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--profile", default=None, help="a workload name: profile it (cProfile) instead of timing")
    args = parser.parse_args()
    host = np.arange(16, dtype=np.float32)
    x = Tensor(host).realize()
    i = Tensor(np.arange(16, dtype=np.int32)).realize()
    done = (x + 1).realize()
    jit5, jit1 = la.jit(five_kernels), la.jit(one_kernel)
    workloads: dict[str, Callable[[], object]] = {
        "(x+1).realize()": lambda: (x + 1).realize(),
        "(x+1).numpy()": lambda: (x + 1).numpy(),
        "(x*2+1).exp().realize()": lambda: (x * 2 + 1).exp().realize(),
        "int32 (i+1).realize()": lambda: (i + 1).realize(),
        "realised.numpy()": lambda: done.numpy(),
        "x+1 (build only)": lambda: x + 1,
        "jit 1 kernel": lambda: jit1(x),
        "jit 5 kernels": lambda: jit5(x),
    }
    for _ in range(3):  # compile, capture, first replay
        jit5(x)
        jit1(x)
    np.testing.assert_allclose(jit5(x).numpy(), five_kernels(x).numpy(), rtol=1e-6)
    if args.profile:
        fn = workloads[args.profile]
        min_time(fn, 5)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(20000):
            fn()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    results = {name: min_time(fn, args.repeat) for name, fn in workloads.items()}
    t_numpy = min_time(lambda: host + 1, args.repeat)
    for name, t in results.items():
        print(f"{name:<26}{t * 1e6:8.2f} us")
    per_kernel = (results["jit 5 kernels"] - results["jit 1 kernel"]) / 4
    print(f"{'jit replay per kernel':<26}{per_kernel * 1e6:8.2f} us")
    print(f"{'numpy host + 1':<26}{t_numpy * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
