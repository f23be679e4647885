"""CUDA runtime: lowered kernels in, compiled `cupy.RawKernel`s and launches out; device memory as CuPy arrays.

CuPy is imported on first use of the CUDA device, never by `import lazyarr`. Compiled kernels are cached in memory
by source and on disk by CuPy (`CUPY_CACHE_DIR`, default ~/.cupy/kernel_cache). Everything device-specific goes
through a `Backend`; tests install one that runs the same CUDA C under the CPU emulator (tests/cuda/emu).
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from lazyarr.helpers import cache_dir, flag, prod
from lazyarr.kernels import render_cuda
from lazyarr.kernels.lower import Lowered
from lazyarr.kernels.render_cuda import CudaKernel
from lazyarr.kernels.stats import COUNTERS

Dim3 = tuple[int, int, int]


class CudaUnavailableError(RuntimeError):
    """The CUDA device was asked for, but CuPy is not installed or no GPU is usable."""


class Backend(Protocol):
    """What the runtime needs from a device: memory, copies, compilation and launches."""

    def empty(self, size: int, np_dtype: str) -> Any: ...

    def from_host(self, a: np.ndarray) -> Any: ...

    def to_host(self, a: Any) -> np.ndarray: ...

    def compile(self, source: str, name: str) -> Any: ...

    def launch(self, fn: Any, grid: Dim3, block: Dim3, args: tuple[Any, ...],
               timed: bool) -> float | None: ...

    def sm_count(self) -> int: ...


class CupyBackend:
    """The real device: CuPy arrays, `cupy.RawKernel` (NVRTC, CuPy's disk cache), CUDA events for timing."""

    OPTIONS = ("--std=c++17", *render_cuda.NVRTC_OPTIONS)

    def __init__(self) -> None:
        try:
            import cupy
        except ImportError as err:
            msg = "the CUDA device needs CuPy: pip install 'lazyarr[cuda]' (cupy-cuda12x)"
            raise CudaUnavailableError(msg) from err
        try:
            ok = bool(cupy.is_available())
        except Exception as err:  # a broken driver install raises instead of answering
            raise CudaUnavailableError(f"CuPy cannot reach a GPU: {err}") from err
        if not ok:
            msg = "the CUDA device was asked for, but no GPU is usable (cupy.is_available() is False)"
            raise CudaUnavailableError(msg)
        self.cupy = cupy
        self._sm: int | None = None

    def empty(self, size: int, np_dtype: str) -> Any:
        return self.cupy.empty(size, dtype=np_dtype)

    def from_host(self, a: np.ndarray) -> Any:
        return self.cupy.asarray(a)

    def to_host(self, a: Any) -> np.ndarray:
        return self.cupy.asnumpy(a)

    def compile(self, source: str, name: str) -> Any:
        fn = self.cupy.RawKernel(source, name, options=self.OPTIONS)
        fn.compile()
        return fn

    def launch(self, fn: Any, grid: Dim3, block: Dim3, args: tuple[Any, ...],
               timed: bool) -> float | None:
        if not timed:
            fn(grid, block, args)
            return None
        start, end = self.cupy.cuda.Event(), self.cupy.cuda.Event()
        start.record()
        fn(grid, block, args)
        end.record()
        end.synchronize()
        return float(self.cupy.cuda.get_elapsed_time(start, end)) / 1e3

    def sm_count(self) -> int:
        if self._sm is None:
            self._sm = int(self.cupy.cuda.Device().attributes["MultiProcessorCount"])
        return self._sm


_lock = threading.Lock()
_backend: Backend | None = None
_unavailable: CudaUnavailableError | None = None


def backend() -> Backend:
    """The active backend (CuPy unless a test installed another); raises CudaUnavailableError with the reason."""
    global _backend, _unavailable
    if _backend is not None:
        return _backend
    with _lock:
        if _backend is None:
            if _unavailable is not None:
                raise _unavailable
            try:
                _backend = CupyBackend()
            except CudaUnavailableError as err:
                _unavailable = err
                raise
        return _backend


def set_backend(b: Backend | None) -> Backend | None:
    """Install `b` (None: back to CuPy on next use); returns the previous one. Clears compiled kernels."""
    global _backend, _unavailable
    with _lock:
        previous, _backend, _unavailable = _backend, b, None
        _compiled.clear()
    return previous


def available() -> bool:
    """True when the CUDA device can be used (CuPy installed and a GPU present, or a test backend installed)."""
    try:
        backend()
    except CudaUnavailableError:
        return False
    return True


def require() -> None:
    """Raise CudaUnavailableError (with the reason) unless the CUDA device can be used."""
    backend()


# ---- compilation ----


@dataclass
class CudaProgram:
    """A rendered kernel and its compiled form on the backend that compiled it."""

    spec: CudaKernel
    fn: Any = None
    compiled_by: Any = None
    workspace: tuple[Any, Any] | None = None  # (partials, zeroed counters) of a kernel whose rows span blocks


_compiled: dict[str, Any] = {}


def _seen_before(source: str) -> bool:
    """Whether this source was compiled before (by any process): then CuPy's disk cache serves it. Marks it seen."""
    digest = hashlib.sha256(f"{CupyBackend.OPTIONS}|{source}".encode()).hexdigest()[:32]
    marker = os.path.join(cache_dir(), "cuda", digest)
    if os.path.exists(marker):
        return True
    try:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, "w"):
            pass
    except OSError:
        pass
    return False


def _compile(prog: CudaProgram, b: Backend) -> None:
    fn = _compiled.get(prog.spec.source)
    if fn is not None:
        COUNTERS.memory_cache_hits += 1
    else:
        start = time.perf_counter()
        fn = b.compile(prog.spec.source, prog.spec.name)
        COUNTERS.compile_time += time.perf_counter() - start
        if _seen_before(prog.spec.source):
            COUNTERS.disk_cache_hits += 1
        else:
            COUNTERS.kernels_compiled += 1
        _compiled[prog.spec.source] = fn
    prog.fn, prog.compiled_by = fn, b


def build(low: Lowered, buffer_sizes: tuple[int, ...], compile: bool = True) -> CudaProgram:
    """Render `low` as CUDA C (64-bit indices when the sizes need them) and compile it (cached by source)."""
    wide = render_cuda.needs_wide(low.work, buffer_sizes, low.int_args)
    prog = CudaProgram(render_cuda.render(low.program, "kernel", wide))
    if compile:
        _compile(prog, backend())
    return prog


# ---- launching ----


def _extent(vals: dict[str, int], e: str) -> int:
    return vals[e] if e in vals else int(e)


def choose_lanes(rows: int, reduce_size: int, contiguous: bool, sm_count: int) -> int:
    """Threads per row for a reduction: 1 (a thread per row), 32 (a warp) or up to 1024 (a block).

    Few iterations: a thread each. Row reductions (unit stride): a warp per row when rows are many or short, else a
    block sized to the row. Strided (column) reductions: a thread per row when that fills the GPU (adjacent threads
    then read adjacent elements), else a warp.
    """
    if reduce_size < 32:
        return 1
    if not contiguous:
        return 1 if rows >= sm_count * 128 else 32
    if reduce_size <= 1024 or rows >= sm_count * 16:
        return 32
    return int(min(render_cuda.MAX_THREADS, max(64, 1 << int(math.log2(reduce_size // 32)))))


SPLIT_MIN_REDUCE = 1 << 15  # a row this long may be split over several blocks when rows are too few to fill the GPU
SPLIT_LANES = 256


def choose_parts(rows: int, reduce_size: int, lanes: int, sm_count: int) -> int:
    """Blocks per row (gridDim.y): enough blocks to fill the GPU, each thread still looping over 8+ elements."""
    if rows >= sm_count or reduce_size < SPLIT_MIN_REDUCE:
        return 1
    want = -(-sm_count * 4 // max(rows, 1))
    return int(max(1, min(want, reduce_size // (lanes * 8), 65535)))


def launch_config(spec: CudaKernel, int_args: list[int], sm_count: int) -> tuple[Dim3, Dim3]:
    """(grid, block) for one launch of `spec` with these int args; LAZYARR_CUDA_LANES overrides the lane count.

    grid.y > 1 only for kernels that can split rows (`spec.split_accs`): their rows are spread over grid.y blocks.
    """
    vals = dict(zip(spec.int_params, int_args))
    rows = prod(_extent(vals, e) for e in spec.row_extents)
    if not spec.has_reduce:
        block = render_cuda.ELEMENTWISE_BLOCK
        return (max(1, min(-(-rows // block), sm_count * 32)), 1, 1), (block, 1, 1)
    reduce_size = prod(_extent(vals, e) for e in spec.reduce_extents)
    forced = flag("CUDA_LANES")
    lanes = forced or choose_lanes(rows, reduce_size, spec.reduce_contiguous, sm_count)
    if lanes != 1 and (lanes % 32 or lanes > render_cuda.MAX_THREADS):
        raise ValueError(f"LAZYARR_CUDA_LANES={lanes}: use 1, 32 or a multiple of 32 up to {render_cuda.MAX_THREADS}")
    if spec.split_accs and (not forced or forced >= 64):  # split rows need whole blocks (barriers) per row
        split_lanes = forced or SPLIT_LANES
        parts = choose_parts(rows, reduce_size, split_lanes, sm_count)
        if parts > 1:
            return (max(1, rows), parts, 1), (split_lanes, 1, 1)
    per_block = 256 if lanes == 1 else (8 if lanes == 32 else 1)
    grid = max(1, min(-(-rows // per_block), sm_count * 2048 // (lanes * per_block) * 4))
    return (grid, 1, 1), (lanes, per_block, 1)


def launch(prog: CudaProgram, arrays: list[Any], int_args: list[int],
           float_args: list[float] | None = None) -> float | None:
    """Launch `prog` on device arrays (slot order) with its int args and float args (`Lowered.int_args`,
    `Lowered.float_args` of this launch's own kernel); returns the kernel's time in seconds when LAZYARR_DEBUG is on."""
    b = backend()
    if prog.compiled_by is not b:  # compiled for a backend that has been replaced since (tests switch them)
        _compile(prog, b)
    grid, block = launch_config(prog.spec, int_args, b.sm_count())
    int_type = np.int64 if prog.spec.wide else np.int32
    float_args = float_args or []
    if len(float_args) != len(prog.spec.float_params):
        raise AssertionError(f"kernel takes {len(prog.spec.float_params)} float args, given {len(float_args)}")
    args = (*arrays, *(int_type(v) for v in int_args), *(np.float64(v) for v in float_args))
    if prog.spec.split_accs:
        args = (*args, *_workspace(prog, b, grid[0] * grid[1] * prog.spec.split_accs, grid[0]))
    return b.launch(prog.fn, grid, block, args, timed=flag("DEBUG") >= 1)


def _workspace(prog: CudaProgram, b: Backend, slots: int, rows: int) -> tuple[Any, Any]:
    """The kernel's partial-result slots and per-row counters (zero between launches: the last block resets them)."""
    ws = prog.workspace
    if ws is None or ws[0].size < slots or ws[1].size < rows:
        counters = b.from_host(np.zeros(max(rows, 1), dtype=np.uint32))
        ws = (b.empty(max(slots, 1), "uint64"), counters)
        prog.workspace = ws
    return ws
