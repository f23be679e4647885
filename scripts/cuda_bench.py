"""CUDA benchmark for scripts/gpu_check.sh: `a*b + c*exp(-d)*sin(a)` on 2**24 float32 against a CuPy copy of the
same number of bytes (the copy bandwidth is the bound for a memory-bound kernel), plus a few reductions.

Prints one line per case: the lazyarr kernel's time (CUDA events around back-to-back launches of the compiled kernel),
its effective bandwidth, and its ratio to the copy. Exits 1 when the elementwise case is slower than 1.3x the copy.
"""

from __future__ import annotations

import sys
import time

import cupy as cp
import numpy as np

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import realize

REPS = 50


class _Grab:
    def __init__(self) -> None:
        self.items: list[realize.ExecItem] = []

    def add(self, item: realize.ExecItem) -> None:
        self.items.append(item)


def kernels_of(fn) -> list[realize.ExecItem]:  # type: ignore[no-untyped-def]
    """The launches realising `fn()` (after one warm-up call that compiles them)."""
    fn().realize()
    grab = _Grab()
    realize.capturing.append(grab)
    try:
        fn().realize()
    finally:
        realize.capturing.remove(grab)
    return grab.items


def gpu_time(run) -> float:  # type: ignore[no-untyped-def]
    """Seconds per call of `run`, from CUDA events around REPS back-to-back calls."""
    run()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(REPS):
        run()
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end) / 1e3 / REPS


def copy_time(nbytes: int) -> float:
    """A device-to-device copy that reads nbytes/2 and writes nbytes/2."""
    src = cp.ones(nbytes // 2 // 4, dtype=cp.float32)
    dst = cp.empty_like(src)
    return gpu_time(lambda: cp.copyto(dst, src))


def case(name: str, fn, nbytes: int) -> float:  # type: ignore[no-untyped-def]
    items = kernels_of(fn)
    t = gpu_time(lambda: [it.run() for it in items])
    base = copy_time(nbytes)
    ratio = t / base
    print(f"{name:34s} {len(items)} kernel(s) {t * 1e6:9.1f} us  {nbytes / t / 1e9:7.1f} GB/s   "
          f"copy of the same bytes {base * 1e6:8.1f} us ({nbytes / base / 1e9:7.1f} GB/s)   ratio {ratio:5.2f}")
    return ratio


def main() -> int:
    n = 2**24
    rng = np.random.default_rng(0)
    a, b, c, d = (Tensor(rng.random(n, dtype=np.float32), device="CUDA") for _ in range(4))
    ratio = case("a*b + c*exp(-d)*sin(a)  [2**24 f32]", lambda: a * b + c * (-d).exp() * a.sin(), 5 * 4 * n)
    m = Tensor(rng.random((4096, 4096), dtype=np.float32), device="CUDA")
    case("row sum (4096, 4096)", lambda: m.sum(1), 4 * 4096 * 4097)
    case("column sum (4096, 4096)", lambda: m.sum(0), 4 * 4096 * 4097)
    case("softmax rows (4096, 4096)", lambda: m.softmax(1), 2 * 4 * 4096 * 4096)
    case("full sum 2**24", lambda: a.sum(), 4 * n)
    start = time.perf_counter()
    for _ in range(REPS):
        (a * b + c * (-d).exp() * a.sin()).realize()
    cp.cuda.Device().synchronize()
    per_call = (time.perf_counter() - start) / REPS
    print(f"end to end per call (graph build + schedule cache + launch): {per_call * 1e6:.1f} us")
    gpu_name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"lazyarr {lazyarr.__version__}, cupy {cp.__version__}, {gpu_name}")
    ok = ratio <= 1.3
    print(f"ACCEPTANCE elementwise within 1.3x of copy bandwidth: {'PASS' if ok else 'FAIL'} (ratio {ratio:.2f})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
