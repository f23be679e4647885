"""Float32 exp's and log's small variants (`render_numba.RANGED`: exp for x in (-87, 88) without clamps and with one
scaling factor, log for normal finite x > 0 without subnormal scaling and special cases; the loop run again with the
full functions only when an argument was outside) against the full functions everywhere: the kernels of a few
float32 workloads built both ways, timed alternately in one process (so a busy machine affects both alike; the order
is reversed every round).

Run: `PYTHONPATH=$PWD python benchmarks/bench_ranged.py [--rounds 20] [--threads N]`.
Prints per workload the median and minimum per-call time of each setting, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--threads", type=int, default=0, help="LAZYARR_NUM_THREADS (default: lazyarr's own)")
    args = parser.parse_args()
    os.environ.setdefault("LAZYARR_CACHE_DIR", tempfile.mkdtemp(prefix="lazyarr-bench-ranged-"))
    if args.threads:
        os.environ["LAZYARR_NUM_THREADS"] = str(args.threads)
    import lazyarr as la
    from lazyarr.bench.workloads import black_scholes_workload
    from lazyarr.graph.ops import Ops
    from lazyarr.kernels import realize, render_numba, runtime_numba

    rng = np.random.default_rng(0)

    def tensor(*shape: int) -> Any:
        return la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize()

    x, a, b, c, d, e = tensor(4096, 1024), tensor(1 << 22), tensor(1 << 22), tensor(1 << 22), tensor(1 << 22), \
        tensor(1 << 16)
    labels = la.Tensor(rng.integers(0, 1024, 4096)).realize()
    spot, strike, years = (la.Tensor(rng.uniform(lo, hi, 1 << 20).astype(np.float32)).realize()
                           for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    black_scholes = black_scholes_workload(1 << 20).lazy
    workloads: dict[str, tuple[Callable[..., Any], list[Any], int]] = {
        "softmax 4096x1024": (lambda x: x.softmax(1).realize(), [x], 10),
        "cross-entropy 4096x1024": (lambda x, y: x.cross_entropy(y).realize(), [x, labels], 10),
        "exp 2**16": (lambda x: x.exp().realize(), [e], 200),
        "exp 2**22": (lambda x: x.exp().realize(), [a], 10),
        "chain 2**22": (lambda a, b, c, d: (a * b + c * (-d).exp() * a.sin()).realize(), [a, b, c, d], 10),
        "Black-Scholes 2**20": (black_scholes, [spot, strike, years], 10),
    }
    small = {key: render_numba.RANGED.pop(key) for key in ((Ops.EXP, "f32"), (Ops.LOG, "f32"))}
    fns: dict[tuple[str, str], Callable[[], Any]] = {}
    for setting in ("full", "ranged"):
        if setting == "ranged":
            render_numba.RANGED.update(small)
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        with la.Context(NATIVE=0):  # compiled here (the LLVM-built kernels of both settings share names on disk)
            for name, (fn, inputs, _) in workloads.items():
                jitted = la.jit(fn)
                for _ in range(3):
                    jitted(*inputs)
                fns[(name, setting)] = lambda jitted=jitted, inputs=inputs: jitted(*inputs)
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in fns}
    order = list(fns.items())
    for r in range(args.rounds):
        for k, run in (order if r % 2 else order[::-1]):
            calls = workloads[k[0]][2]
            start = time.perf_counter()
            for _ in range(calls):
                run()
            samples[k].append((time.perf_counter() - start) / calls)
    print(f"{'workload':<24} {'setting':<11} {'median':>10} {'min':>10}")
    for name in workloads:
        for setting in ("full", "ranged"):
            s = samples[(name, setting)]
            print(f"{name:<24} {setting:<11} {statistics.median(s) * 1e6:8.1f}us {min(s) * 1e6:8.1f}us")
        ratio = statistics.median(samples[(name, "full")]) / statistics.median(samples[(name, "ranged")])
        print(f"{name:<24} full / ranged (medians): {ratio:.3f}")


if __name__ == "__main__":
    main()
