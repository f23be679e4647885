"""What bounds the elementwise chain (2**22), row softmax (4096x1024) and Black-Scholes (2**20) on this machine,
against the bandwidth limit of `python -m lazyarr.bench` (ideal bytes at the best rate of the STREAM probes on 2**24
float32s):

- memory floor: a kernel with the workload's own memory traffic and almost no arithmetic, at the workload's size
  (the chain: a + b + c + d, four reads and a write of 2**22 float32s; softmax: a copy of the 4096x1024 matrix;
  Black-Scholes: s + k + t and s - k - t, three reads and two writes of 2**20);
- compute floor: the workload on data that stays in the core's L2 cache (2**14 elements; 16 rows of 1024), one
  thread, its time per element scaled to the full size and divided by the thread count (perfect scaling, no memory
  stall): what the kernel's instructions alone take;
- the workload itself.

Every kernel runs as a `lazyarr.jit` replay, all timed alternately in one process (the order reversed every round), so a
busy machine affects them alike. A floor above the target ratio (1.25 for the chain, 1.3 for softmax) is a bound the
kernel cannot beat on this machine: the larger of the two floors is the best the workload can do. (Black-Scholes has
no target against the limit: its floors show how far it is compute-bound, which decides its race with torch.compile.)

Run: `PYTHONPATH=$PWD python benchmarks/bench_floors.py [--rounds 15]`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import lazyarr as la
from lazyarr.bench.workloads import black_scholes_workload
from lazyarr.kernels import runtime_numba

PROBE = 1 << 24  # the STREAM probes' size in `python -m lazyarr.bench`
CHAIN = 1 << 22
ROWS, COLS = 4096, 1024
BS = 1 << 20
SMALL_CHAIN, SMALL_ROWS = 1 << 14, 16  # in L2 (5 x 64 KiB; 2 x 64 KiB)


def chain(a: Any, b: Any, c: Any, d: Any) -> Any:
    return (a * b + c * (-d).exp() * a.sin()).realize()


def bs_memory(s: Any, k: Any, t: Any) -> Any:
    """Black-Scholes' memory traffic (three reads, two writes) with almost no arithmetic."""
    call, put = s + k + t, s - k - t
    call.realize(put)
    return call, put


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    def tensors(shape: int | tuple[int, ...], count: int) -> list[Any]:
        return [la.Tensor(rng.standard_normal(shape).astype(np.float32)).realize() for _ in range(count)]

    def options(n: int) -> list[Any]:  # spot, strike and years, as `python -m lazyarr.bench` draws them
        return [la.Tensor(a).realize() for a in black_scholes_workload(n).data(rng).values()]

    # name -> (function, inputs, calls per sample, ideal bytes or None)
    cases: dict[str, tuple[Callable[..., Any], list[Any], int, int | None]] = {
        "STREAM copy 2**24": (lambda b: b.clone().realize(), tensors(PROBE, 1), 1, 8 * PROBE),
        "STREAM triad 2**24": (lambda b, c: (b + 3.0 * c).realize(), tensors(PROBE, 2), 1, 12 * PROBE),
        "read-only sum 2**24": (lambda b: b.sum().realize(), tensors(PROBE, 1), 1, 4 * PROBE),
        "chain 2**22": (chain, tensors(CHAIN, 4), 1, None),
        "chain memory floor (a+b+c+d)": (lambda a, b, c, d: (a + b + c + d).realize(), tensors(CHAIN, 4), 1, None),
        "chain in L2 (2**14)": (chain, tensors(SMALL_CHAIN, 4), 200, None),
        "softmax 4096x1024": (lambda x: x.softmax(1).realize(), tensors((ROWS, COLS), 1), 1, None),
        "softmax memory floor (copy)": (lambda x: x.clone().realize(), tensors((ROWS, COLS), 1), 1, None),
        "softmax in L2 (16x1024)": (lambda x: x.softmax(1).realize(), tensors((SMALL_ROWS, COLS), 1), 200, None),
        "Black-Scholes 2**20": (black_scholes_workload(BS).lazy, options(BS), 1, None),
        "Black-Scholes memory floor": (bs_memory, options(BS), 1, None),
        "Black-Scholes in L2 (2**14)": (black_scholes_workload(SMALL_CHAIN).lazy, options(SMALL_CHAIN), 50, None),
    }
    runs: dict[str, Callable[[], Any]] = {}
    for name, (fn, inputs, _, _) in cases.items():
        jitted = la.jit(fn)
        for _ in range(3):
            jitted(*inputs)
        runs[name] = lambda jitted=jitted, inputs=inputs: jitted(*inputs)
    samples: dict[str, list[float]] = {name: [] for name in cases}
    order = list(runs.items())
    for r in range(args.rounds):
        for name, run in order if r % 2 else order[::-1]:
            calls = cases[name][2]
            start = time.perf_counter()
            for _ in range(calls):
                run()
            samples[name].append((time.perf_counter() - start) / calls)
    med = {name: statistics.median(v) for name, v in samples.items()}
    rate, probe = max((cases[n][3] / med[n], n) for n in cases if cases[n][3])  # type: ignore[operator]
    threads = runtime_numba.num_threads()
    print(f"bandwidth limit: {rate / 1e9:.1f} GB/s ({probe}); {threads} threads; medians of {args.rounds} rounds\n")
    print(f"{'workload':<32}{'limit':>10}{'memory floor':>16}{'compute floor':>16}{'lazyarr':>16}")
    for work, size, ideal, memory, small, small_size in (
            ("chain 2**22", CHAIN, 20 * CHAIN, "chain memory floor (a+b+c+d)", "chain in L2 (2**14)", SMALL_CHAIN),
            ("softmax 4096x1024", ROWS * COLS, 8 * ROWS * COLS, "softmax memory floor (copy)",
             "softmax in L2 (16x1024)", SMALL_ROWS * COLS),
            ("Black-Scholes 2**20", BS, 20 * BS, "Black-Scholes memory floor", "Black-Scholes in L2 (2**14)",
             SMALL_CHAIN)):
        limit = ideal / rate
        compute = med[small] / small_size * size / threads

        def cell(t: float, limit: float = limit) -> str:
            return f"{t * 1e3:.2f} ms {t / limit:.2f}x"

        print(f"{work:<32}{limit * 1e3:8.2f}ms{cell(med[memory]):>16}{cell(compute):>16}{cell(med[work]):>16}")
    print("\n(each floor and the workload: ms, then the ratio to the limit)")


if __name__ == "__main__":
    main()
