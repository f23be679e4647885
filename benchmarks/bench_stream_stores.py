"""Non-temporal stores (`Program.stream`, built by `render_llvm.streamed`) against plain stores: the kernels of a few
float32 elementwise workloads built both ways at several sizes, timed alternately in one process (a busy machine
affects both alike; the order is reversed every round). Both settings are forced at every size, to show where the
`lower.STREAM_MIN_BYTES` threshold (32 MiB loaded and stored per launch) should sit.

Run: `PYTHONPATH=$PWD python benchmarks/bench_stream_stores.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio plain / streamed (above 1: streaming is
faster).
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
    os.environ.setdefault("LAZYARR_CACHE_DIR", tempfile.mkdtemp(prefix="lazyarr-bench-stream-"))
    if args.threads:
        os.environ["LAZYARR_NUM_THREADS"] = str(args.threads)
    import lazyarr as la
    from lazyarr.kernels import realize, runtime_numba

    rng = np.random.default_rng(0)
    inputs = {n: [la.Tensor(rng.standard_normal(1 << n).astype(np.float32)).realize() for _ in range(4)]
              for n in (20, 21, 22, 24)}
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {}
    for n in (20, 21, 22):
        workloads[f"a + b 2**{n}"] = (lambda a, b: (a + b).realize(), inputs[n][:2])
        workloads[f"chain 2**{n}"] = (lambda a, b, c, d: (a * b + c * (-d).exp() * a.sin()).realize(), inputs[n])
    workloads["copy 2**24"] = (lambda a: a.clone().realize(), inputs[24][:1])
    workloads["triad 2**24"] = (lambda a, b: (a + 3.0 * b).realize(), inputs[24][:2])
    settings = {"plain": 1 << 62, "streamed": 0}
    fns: dict[tuple[str, str], Callable[[], Any]] = {}
    for setting, threshold in settings.items():
        realize.STREAM_MIN_BYTES = threshold
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        with la.Context(NATIVE=0):  # compiled here (both settings' kernels would share names on disk)
            for name, (fn, xs) in workloads.items():
                jitted = la.jit(fn)
                for _ in range(3):
                    jitted(*xs)
                fns[(name, setting)] = lambda jitted=jitted, xs=xs: jitted(*xs)
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in fns}
    order = list(fns.items())
    for r in range(args.rounds):
        for k, run in (order if r % 2 else order[::-1]):
            calls = 5
            start = time.perf_counter()
            for _ in range(calls):
                run()
            samples[k].append((time.perf_counter() - start) / calls)
    print(f"{'workload':<16} {'plain':>10} {'streamed':>10} {'plain / streamed':>17}")
    for name in workloads:
        plain, streamed = (statistics.median(samples[(name, s)]) for s in settings)
        print(f"{name:<16} {plain * 1e3:8.3f}ms {streamed * 1e3:8.3f}ms {plain / streamed:17.3f}")


if __name__ == "__main__":
    main()
