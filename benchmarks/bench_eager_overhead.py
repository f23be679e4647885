"""Eager (non-jit) overhead: the elementwise chain `a*b + c*exp(-d)*sin(a)` at 2**16 float32, `x + 1` on 16
floats and an in-place `x += 1` on 16 floats ("write"), built and realised per call ("total"), and the realisation
alone ("realize": the graph built untimed).

Run: `PYTHONPATH=$PWD python benchmarks/bench_eager_overhead.py [--repeat 2000] [--profile chain|tiny|write]
[--live N] [--pending M]` (`--live`: N other realised tensors of 4 floats stay alive while timing; `--pending`: M other
lazy tensors, `t + 1` over them, stay alive: a realisation's cost should not grow with either).
To compare two checkouts on a busy machine, alternate them: `for i in 1 2 3; do for d in OLD NEW; do
PYTHONPATH=$d python $d/benchmarks/bench_eager_overhead.py; done; done`.
Times: median and minimum in microseconds over `repeat` calls (gc off while timing).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from collections.abc import Callable

import numpy as np

from lazyarr import Tensor


def times(build: Callable[[], Tensor], repeat: int, realize_only: bool) -> list[float]:
    for _ in range(20):
        build().realize()
    out = []
    gc.disable()
    try:
        for _ in range(repeat):
            if realize_only:
                t = build()
                start = time.perf_counter()
                t.realize()
            else:
                start = time.perf_counter()
                build().realize()
            out.append(time.perf_counter() - start)
            if realize_only:
                del t
    finally:
        gc.enable()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--profile", choices=["chain", "tiny", "write"], default=None)
    parser.add_argument("--live", type=int, default=0)
    parser.add_argument("--pending", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    live = [Tensor(np.ones(4, np.float32)) for _ in range(max(args.live, args.pending))]
    pending = [t + 1 for t in live[:args.pending]]
    a, b, c, d = (Tensor(rng.standard_normal(1 << 16).astype(np.float32)).realize() for _ in range(4))
    x = Tensor(np.arange(16, dtype=np.float32)).realize()
    y = Tensor(np.arange(16, dtype=np.float32)).realize()
    workloads = {"chain": lambda: a * b + c * (-d).exp() * a.sin(), "tiny": lambda: x + 1,
                 "write": lambda: y.__iadd__(1)}
    if args.profile:
        build = workloads[args.profile]
        times(build, 20, False)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.repeat):
            build().realize()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    row = []
    for name, build in workloads.items():
        for part, realize_only in (("total", False), ("realize", True)):
            ts = times(build, args.repeat, realize_only)
            row.append(f"{name} {part} {statistics.median(ts) * 1e6:6.1f}/{min(ts) * 1e6:6.1f}")
    print("  ".join(row) + f"   (median/min us; {len(live)} live, {len(pending)} pending)")


if __name__ == "__main__":
    main()
