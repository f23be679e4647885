"""Row reductions on float32, eager lazyarr: softmax, log_softmax, layer norm and row sums (4096 x 1024), and the
read-only sum of 2**24 floats; torch eager beside them when installed.

Run: `python benchmarks/bench_rowreduce.py [--repeat 15] [--only softmax,sum] [--kernels]`. Prints min and median
milliseconds; `--kernels` times the workload's kernel launches alone (captured once, then launched again on the same
buffers), which hides the Python work of an eager op and most of the noise of a shared machine.
To compare two checkouts side by side on a busy machine, alternate them in one shell loop, e.g.
`for i in 1 2 3; do for t in /work/main /work/wt/x; do PYTHONPATH=$t python benchmarks/bench_rowreduce.py; done; done`
(the first line printed names the checkout). `LAZYARR_NUM_THREADS=1` measures one thread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

import lazyarr as la
from lazyarr import Tensor
from lazyarr.kernels import realize

ROWS, COLS, SUM_N = 4096, 1024, 1 << 24


def times(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """(min, median) seconds of `fn()` after two warm-up calls."""
    fn()
    fn()
    samples = []
    for _ in range(repeat):
        start = clock()
        fn()
        samples.append(clock() - start)
    return min(samples), statistics.median(samples)


class _Recorder:
    """Collects the kernel launches of one realisation (a `realize.capturing` hook)."""

    def __init__(self) -> None:
        self.items: list[realize.ExecItem] = []

    def add(self, item: realize.ExecItem) -> None:
        self.items.append(item)

    def on_data_read(self, what: str) -> None:
        pass


def launches(fn: Callable[[], object]) -> Callable[[], object]:
    """A function that runs again the kernels `fn()` launches, on the same buffers."""
    rec = _Recorder()
    realize.capturing.append(rec)
    try:
        fn()
    finally:
        realize.capturing.remove(rec)

    def run() -> None:
        for item in rec.items:
            item.execute()

    return run


def layer_norm(x: Tensor) -> Tensor:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) * (x - mean)).mean(-1, keepdims=True)
    return (x - mean) / (var + 1e-5).sqrt()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--rows", type=int, default=ROWS, help="rows of the row workloads (64: they fit in cache)")
    parser.add_argument("--kernels", action="store_true", help="time the kernel launches alone")
    parser.add_argument("--cpu-time", action="store_true", help="measure this thread's CPU time (time.thread_time), "
                        "not wall time: with LAZYARR_NUM_THREADS=1 the time a busy machine's other work takes away "
                        "does not count")
    parser.add_argument("--only", default="", help="comma-separated workload names to run (default: all)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    hx = rng.standard_normal((args.rows, COLS)).astype(np.float32)
    hb = rng.random(SUM_N, dtype=np.float32)
    x, b = Tensor(hx).realize(), Tensor(hb).realize()
    workloads: dict[str, Callable[[], object]] = {
        "softmax": lambda: x.softmax(1).realize(),
        "log_softmax": lambda: x.log_softmax(1).realize(),
        "layer_norm": lambda: layer_norm(x).realize(),
        "row_sum": lambda: x.sum(1).realize(),
        "sum": lambda: b.sum().realize(),
    }
    peers: dict[str, Callable[[], object]] = {}
    try:
        import torch

        tx, tb = torch.from_numpy(hx), torch.from_numpy(hb)
        peers = {"softmax": lambda: tx.softmax(1), "log_softmax": lambda: tx.log_softmax(1),
                 "layer_norm": lambda: torch.nn.functional.layer_norm(tx, (COLS,)), "row_sum": lambda: tx.sum(1),
                 "sum": lambda: tb.sum()}
    except ImportError:
        pass
    only = [w for w in args.only.split(",") if w]
    print(f"lazyarr from {os.path.dirname(os.path.dirname(os.path.abspath(la.__file__)))}, "
          f"LAZYARR_NUM_THREADS={os.environ.get('LAZYARR_NUM_THREADS', '')}")
    for name, fn in workloads.items():
        if only and name not in only:
            continue
        clock = time.thread_time if args.cpu_time else time.perf_counter
        lo, med = times(launches(fn) if args.kernels else fn, args.repeat, clock)
        line = f"{name:12s} lazyarr min {lo * 1e3:7.3f} ms  median {med * 1e3:7.3f} ms"
        if name in peers and not args.kernels:
            plo, pmed = times(peers[name], args.repeat, clock)
            line += f"   torch min {plo * 1e3:7.3f} ms  median {pmed * 1e3:7.3f} ms"
        print(line, flush=True)


if __name__ == "__main__":
    main()
