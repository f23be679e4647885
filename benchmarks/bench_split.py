"""Eager elementwise chain `a*b + c*exp(-d)*sin(a)` (float32) with its kernel run on 1 thread against split over
all threads, alternating the two settings in one process so a busy machine affects both alike.

Run: `PYTHONPATH=$PWD python benchmarks/bench_split.py [--sizes 16,17,18,20] [--rounds 20] [--calls 50]`.
Prints, per size, the median and minimum per-call time of each setting over `rounds` batches of `calls` calls.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

import numpy as np

from lazyarr import Context, Tensor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="16,17,18,20")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for log2n in map(int, args.sizes.split(",")):
        a, b, c, d = (Tensor(rng.standard_normal(1 << log2n).astype(np.float32)).realize() for _ in range(4))
        settings = {"1 thread": dict(NUM_THREADS=1, PARALLEL_MIN=1 << 62), "split": dict(PARALLEL_MIN=1)}
        samples: dict[str, list[float]] = {k: [] for k in settings}
        for _ in range(args.rounds):
            for name, flags in settings.items():
                with Context(**flags):
                    for _ in range(3):
                        (a * b + c * (-d).exp() * a.sin()).realize()
                    gc.disable()
                    start = time.perf_counter()
                    for _ in range(args.calls):
                        (a * b + c * (-d).exp() * a.sin()).realize()
                    samples[name].append((time.perf_counter() - start) / args.calls)
                    gc.enable()
        print(f"2**{log2n}: " + "   ".join(f"{k} median {statistics.median(v) * 1e6:7.1f} us min {min(v) * 1e6:7.1f} us"
                                           for k, v in samples.items()))


if __name__ == "__main__":
    main()
