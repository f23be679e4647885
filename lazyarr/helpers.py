"""Environment flags, the `Context` that overrides them, and small utilities.

Every flag lazyarr reads lives in `FLAGS`; code elsewhere reads `flag("NAME")`, never `os.environ`.
This module imports nothing of lazyarr's.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Flag:
    """One environment flag: its name (read as ``LAZYARR_<name>``), type, default, meaning and, where only some
    values are valid, those (`choices`) or the least one (`minimum`)."""

    name: str
    kind: type
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None

    def parse(self, raw: Any) -> Any:
        """`raw` as this flag's type; ValueError (naming the flag and `raw`) for a value it cannot take, TypeError for
        a value of another kind (None, a list)."""
        if self.kind is int and isinstance(raw, float) and not raw.is_integer():
            raise ValueError(f"LAZYARR_{self.name}={raw!r} is not a valid int")
        try:
            value = self.kind(raw)
        except ValueError as e:
            raise ValueError(f"LAZYARR_{self.name}={raw!r} is not a valid {self.kind.__name__}") from e
        except TypeError as e:
            kind = f"a {type(raw).__name__} is not a valid {self.kind.__name__}"
            raise TypeError(f"LAZYARR_{self.name}={raw!r}: {kind}") from e
        if self.choices and value not in self.choices:
            raise ValueError(f"LAZYARR_{self.name}={raw!r}: use one of {', '.join(map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"LAZYARR_{self.name}={raw!r}: use {self.minimum} or more")
        return value


_ON_OFF = (0, 1)


FLAGS: dict[str, Flag] = {
    f.name: f
    for f in (
        Flag("FUSE", int, 1, "1: fuse elementwise/reduce chains into kernels; 0: one kernel per op (same numerics).",
             _ON_OFF),
        Flag("DEBUG", int, 0, "1: one line per kernel launch (time, GB/s); 2: also generated source; "
                              "3: also the UOp graph.", minimum=0),
        Flag("DEVICE", str, "CPU", "Default device for new tensors: CPU or CUDA."),
        Flag("CACHE_DIR", str, "", "Directory of the on-disk kernel cache (default ~/.cache/lazyarr)."),
        Flag("NUM_THREADS", int, 0, "Threads for large CPU kernels (0: all cores Numba may use).",
             minimum=0),
        Flag("VERIFY", int, 0, "1: run the graph verifier on every scheduled graph (on in the test suite).", _ON_OFF),
        Flag("SCHEDULE_CACHE", int, 1, "0: disable the in-process schedule cache.", _ON_OFF),
        Flag("PARALLEL_MIN", int, 1 << 18, "Elements a CPU kernel must cover before it is split across threads (a "
             "hand-off to a worker costs more than it saves below this on a busy 2-core machine).", minimum=0),
        Flag("BLAS", int, 1, "1: CPU matmul kernels call NumPy's own BLAS when it is a 64-bit-integer OpenBLAS "
             "(NumPy's wheels), else SciPy's through Numba's np.dot when SciPy is installed; 2: always SciPy's; 0, or "
             "neither: matmuls are plain fused loops (slower)."),
        Flag("POOL_BYTES", int, 256 << 20, "Bytes of freed CPU buffer storage kept for reuse by later outputs of the "
             "same size (no page faults for a fresh output each call); 0: no pool.", minimum=0),
        Flag("NATIVE", int, 1, "1: save compiled CPU kernels' object code and load it in later processes without "
             "importing Numba (a warm-cache first call in milliseconds); 0: Numba's own cache only.", _ON_OFF),
        Flag("LLVM", int, 1, "1: CPU kernels that are plain elementwise float loops are built as LLVM IR and "
             "compiled with llvmlite alone (no Numba: a cold first call in a fraction of a second); 0: every kernel "
             "through Numba (same results).", _ON_OFF),
        Flag("VECTOR_WIDTH", int, 0, "Vector width in bits LLVM is asked to prefer in the CPU kernels built as LLVM "
             "IR (see LLVM): 0 automatic (512 on a host with AVX-512, where LLVM's own default is 256; else LLVM's "
             "default), 128, 256 or 512. Same results either way; Numba-built kernels keep Numba's choice.",
             (0, 128, 256, 512)),
        Flag("NULL", int, 0, "1: schedule and render kernels but do not compile or run them (kernel counting).",
             _ON_OFF),
        Flag("JIT", int, 1, "0: @lazyarr.jit runs functions eagerly; 1: capture and replay (CPU: one batched native "
             "driver per replay); 2: replay with a Python loop over the captured launches.", (0, 1, 2)),
        Flag("JIT_SPLIT", int, 1, "1: a replay runs big parallel kernels threaded, between batched drivers; 0: every "
             "kernel inside the driver, single-threaded.", _ON_OFF),
        Flag("SMALL_BLAS_THREADS", int, 1, "Threads BLAS may use while an eager realisation or a CPU jit replay runs "
             "matmuls that are all small (under 2**25 flops each); 0: leave BLAS's own thread count."),
        Flag("JIT_PARALLEL_MIN", int, 1 << 22, "Work a kernel in a jit replay must have before it is split across "
             "threads: elements times arithmetic ops per element (at least the elements; elements alone for a BLAS "
             "kernel). A split hands work to threads through Python, ~0.1 ms on a busy machine, and breaks the "
             "batched driver in two.", minimum=0),
        Flag("CUDA_LANES", int, 0, "Threads per output row of CUDA reductions (0: automatic; 1, 32 or a multiple "
                                   "of 32)."),
        Flag("CUDA_CHECK", int, 0, "1: also render every CPU kernel as CUDA C and compile it with NVRTC (test mode).",
             _ON_OFF),
    )
}

class _Overrides(threading.local):
    """Per thread: the stack of `Context` overrides (made when a thread first looks, so a read never misses: a
    missing attribute of a thread-local costs a raised and caught AttributeError, ~0.5 us on every `flag` call)."""

    def __init__(self) -> None:
        self.stack: list[dict[str, Any]] = []


_overrides = _Overrides()
# Contexts open now, in any thread: while there are none, every flag is its environment value and `flag` skips the
# thread-local stack (a thread-local read is the larger part of a flag read, and a jit call reads one)
open_contexts = [0]
_open_lock = threading.Lock()


def _stack() -> list[dict[str, Any]]:
    return _overrides.stack


@functools.cache
def env_flag(name: str) -> Any:
    """Flag `name` as the environment sets it (``LAZYARR_<name>``, read once), else its default; `flag` is this
    while no `Context` is open."""
    spec = FLAGS[name]
    raw = os.environ.get(f"LAZYARR_{name}")
    if raw is None or raw == "":
        return spec.default
    return spec.parse(raw)


def flag(name: str) -> Any:
    """Current value of flag `name`: the innermost `Context` override, else ``LAZYARR_<name>``, else the default."""
    if open_contexts[0]:
        for frame in reversed(_overrides.stack):
            if name in frame:
                return frame[name]
    return env_flag(name)


def flags(names: tuple[str, ...]) -> tuple[Any, ...]:
    """`flag` of each of `names`, in one call (a cache key of several flags, read on every eager op)."""
    if open_contexts[0]:
        return tuple(map(flag, names))
    return tuple(map(env_flag, names))


class Context:
    """Temporarily override flags, e.g. ``with lazyarr.Context(FUSE=0): ...``.

    Raises:
        KeyError: for a flag name lazyarr does not know.
        ValueError: for a value the flag cannot take (e.g. VECTOR_WIDTH=64).
    """

    def __init__(self, **overrides: Any) -> None:
        for name in overrides:
            if name not in FLAGS:
                raise KeyError(f"unknown flag {name!r}; known flags: {', '.join(FLAGS)}")
        self.overrides = {k: FLAGS[k].parse(v) for k, v in overrides.items()}

    def __enter__(self) -> Context:
        with _open_lock:
            _stack().append(self.overrides)
            open_contexts[0] += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with _open_lock:
            _stack().pop()
            open_contexts[0] -= 1


def prod(xs: Iterable[int]) -> int:
    """Product of integers (1 for an empty sequence)."""
    return math.prod(xs)


def default_cpu_threads() -> int:
    """Numba's default thread count, read as Numba would without importing it: ``NUMBA_NUM_THREADS``, else the
    number of CPUs this process may run on."""
    raw = os.environ.get("NUMBA_NUM_THREADS", "")
    if raw.strip():
        return max(1, int(raw))
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def cache_dir() -> str:
    """The on-disk cache directory (``LAZYARR_CACHE_DIR`` or ``~/.cache/lazyarr``)."""
    return flag("CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "lazyarr")


class JitError(RuntimeError):
    """A function cannot be captured or replayed by `lazyarr.jit` (the message says why and what to do)."""


class AxisError(np.exceptions.AxisError):
    """An axis argument out of range: NumPy's ``AxisError`` (so a ValueError and an IndexError), which NumPy code
    catching ``np.exceptions.AxisError`` also catches."""


def normalize_axis(axis: int, ndim: int) -> int:
    """Map a possibly negative `axis` into [0, ndim) (NumPy's rule).

    Raises:
        TypeError: axis is not an integer.
        AxisError: axis outside [-ndim, ndim).
    """
    if isinstance(axis, (bool, np.bool_)) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"axis must be an integer, got {type(axis).__name__}")
    axis = int(axis.__index__())  # NumPy integers too, as NumPy and PyTorch accept them
    if not -ndim <= axis < ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim
