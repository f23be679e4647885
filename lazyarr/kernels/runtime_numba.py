"""CPU runtime: compile rendered Numba source (memory cache, then disk cache, then numba), and launch kernels.

Each kernel's source is written to `<cache dir>/kernels/<name>.py` and imported, so Numba's own on-disk cache
(`cache=True`, next to that file) makes a second process load machine code instead of compiling. Next to it,
`native.export` saves the kernel's object code, which a later process links with llvmlite alone (`native.load`):
a warm cache then never imports Numba, whose start-up takes longer than most programs' kernels. A cache entry that
cannot be read is deleted and compiled again. This is the only module (with numba_support) that imports numba.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import importlib.util
import itertools
import os
import queue
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from lazyarr.helpers import cache_dir, default_cpu_threads, flag
from lazyarr.kernels import native, numpy_blas, render_llvm
from lazyarr.kernels.lower import Program
from lazyarr.kernels.native import NativeKernel
from lazyarr.kernels.stats import COUNTERS

CACHE_VERSION = "1"
_compiled: dict[str, Callable[..., Any]] = {}
_lock = threading.Lock()


def _support_files() -> list[str]:
    """The files besides a kernel's source that its compiled code depends on (see `_support_digest`)."""
    spec = importlib.util.find_spec("numba")
    assert spec is not None and spec.origin is not None, "lazyarr's CPU backend needs numba"
    here = os.path.dirname(os.path.abspath(__file__))
    helpers = sorted(glob.glob(os.path.join(here, "numba_*.py")) + glob.glob(os.path.join(here, "transcendental*.py")))
    llvm = [os.path.join(here, "render_llvm.py"), os.path.join(here, "helper_ir", "manifest.json")]
    return [os.path.join(os.path.dirname(spec.origin), "_version.py"), *helpers, *llvm]


@functools.cache
def _support_digest() -> str:
    # Numba's cache only watches the kernel's own file: fold in the helper modules kernels call, and Numba's exact
    # version (read from its files: importing Numba here would cost a warm-cache process all it saves); and what
    # builds the native objects of render_llvm's kernels (its module and the helper IR's manifest, which holds each IR
    # file's digest), or a changed renderer would keep loading the objects the old one saved
    h = hashlib.sha256(CACHE_VERSION.encode())
    for helper in _support_files():
        try:
            with open(helper, "rb") as f:
                h.update(f.read())
        except OSError:  # no manifest: render_llvm is off (helper_ir.available()), nothing of it to fold in
            h.update(b"-")
    return h.hexdigest()


def kernel_name(source: str) -> str:
    """A stable module name derived from the source text and the helper modules it calls."""
    digest = hashlib.sha256(f"{_support_digest()}|{source}".encode()).hexdigest()[:20]
    return f"lk_{digest}"


def compile_source(source: str, program: Program | None = None) -> Callable[..., Any]:
    """The compiled `kernel` function of a rendered module (a Numba dispatcher, or a `NativeKernel` loaded from the
    disk cache or, when `program` (the lowered kernel `source` renders) qualifies, built by `render_llvm` without
    Numba); cached in memory and on disk."""
    if source in _compiled:
        COUNTERS.memory_cache_hits += 1
        return _compiled[source]
    with _lock:
        if source in _compiled:
            return _compiled[source]
        name = kernel_name(source)
        start = time.perf_counter()
        fn, from_disk = _load(name, source, program)
        COUNTERS.compile_time += time.perf_counter() - start
        if from_disk:
            COUNTERS.disk_cache_hits += 1
        else:
            COUNTERS.kernels_compiled += 1
        _compiled[source] = fn
        return fn


def _kernel_dir() -> str:
    d = os.path.join(cache_dir(), "kernels")
    os.makedirs(d, exist_ok=True)
    return d


def _path(name: str) -> str:
    try:
        return os.path.join(_kernel_dir(), f"{name}.py")
    except OSError:
        path = os.path.join(tempfile.gettempdir(), f"lazyarr-{os.getuid()}", f"{name}.py")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path


def _load(name: str, source: str, program: Program | None = None) -> tuple[Callable[..., Any], bool]:
    path = _path(name)
    llvm = bool(flag("LLVM"))
    if flag("NATIVE") and llvm and (shared := native.shared_path_for(path)) is not None:
        kernel = native.load_shared(shared, name)
        if kernel is not None:
            kernel.source = source
            return kernel, True
    if flag("NATIVE"):
        for saved in ([native.path_for(path, "llvm")] if llvm else []) + [native.path_for(path)]:
            kernel = native.load(saved, name)
            if kernel is not None:
                kernel.source = source
                return kernel, True
    if program is not None and llvm and render_llvm.supports(program):
        try:
            obj = render_llvm.compile_object(program)
            kinds = render_llvm.kinds(program)
            kernel = native.link(name, kinds, obj)
        except render_llvm.UnsupportedError:
            pass
        except Exception as e:  # noqa: BLE001  (LLVM or the JIT linker failed here: Numba still compiles the kernel)
            if flag("DEBUG"):
                warnings.warn(f"lazyarr: kernel {name} compiles through Numba: the LLVM path failed ({e!r})",
                              RuntimeWarning, stacklevel=2)
        else:
            kernel.source = source
            if flag("NATIVE"):
                try:
                    native.save(native.path_for(path, "llvm"), kinds, obj)
                    if (shared := native.shared_path_for(path)) is not None:
                        native.save_shared(shared, kinds, obj)
                except OSError:  # an unwritable cache: the kernel still runs
                    pass
            return kernel, False
    fn, from_disk = _load_numba(name, source, path)
    if not from_disk and flag("NATIVE"):
        try:
            native.export(fn, native.path_for(path))
        except Exception:  # noqa: BLE001  (a kernel that cannot be saved natively still runs through Numba)
            pass
    return fn, from_disk


def numba_dispatcher(fn: Callable[..., Any]) -> Any:
    """The Numba dispatcher of a compiled kernel: a native kernel is imported through Numba (its disk cache) once."""
    if not isinstance(fn, NativeKernel):
        return fn
    with _lock:
        if fn.dispatcher is None:
            fn.dispatcher, _ = _load_numba(fn.name, fn.source, _path(fn.name))
    return fn.dispatcher


def _load_numba(name: str, source: str, path: str) -> tuple[Callable[..., Any], bool]:
    try:
        return _import(name, source, path)
    except Exception:  # a corrupt or unreadable cache entry: drop it and compile from scratch
        for stale in glob.glob(os.path.join(os.path.dirname(path), "__pycache__", f"{name}*")):
            try:
                os.remove(stale)
            except OSError:
                pass
        _write(path, source)
        return _import(name, source, path)


def _write(path: str, source: str) -> None:
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(tmp, "w") as f:
        f.write(source)
    os.replace(tmp, path)


def _import(name: str, source: str, path: str) -> tuple[Callable[..., Any], bool]:
    try:
        with open(path) as f:
            ok = f.read() == source
    except OSError:
        ok = False
    if not ok:
        _write(path, source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Numba's disk cache re-imports the defining module by name when it loads machine code
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    fn = module.kernel
    hits = sum(fn.stats.cache_hits.values())
    return fn, hits > 0


@functools.cache
def _scipy_installed() -> bool:
    try:
        return importlib.util.find_spec("scipy") is not None
    except (ImportError, ValueError):
        return False


def blas_route() -> str:
    """Which BLAS CPU matmul kernels call, by LAZYARR_BLAS: "numpy" (NumPy's own, numpy_blas.py; BLAS=1 when NumPy's
    BLAS has it), "scipy" (Numba's `np.dot`, which reaches SciPy's copy through scipy.linalg.cython_blas: BLAS=2, or
    BLAS=1 otherwise; needs SciPy), or "" (no BLAS: BLAS=0, or neither is there; a matmul is an ordinary loop
    kernel, with the same results as far as rounding goes). Raises ValueError for any other LAZYARR_BLAS."""
    mode = flag("BLAS")
    if mode not in (0, 1, 2):
        raise ValueError(f"LAZYARR_BLAS must be 0 (no BLAS), 1 (NumPy's, else SciPy's) or 2 (SciPy's), not {mode}")
    if mode == 1 and numpy_blas.available():
        return "numpy"
    return "scipy" if mode in (1, 2) and _scipy_installed() else ""


def blas_available() -> bool:
    """Whether CPU matmul kernels call BLAS at all (`blas_route()` is not "")."""
    return bool(blas_route())


def num_threads() -> int:
    """Threads for large kernels: LAZYARR_NUM_THREADS, else Numba's thread count (`numba.set_num_threads` once
    Numba's threading layer is running, else NUMBA_NUM_THREADS, which defaults to the number of cores)."""
    n = flag("NUM_THREADS")
    if n > 0:
        return n
    numba = sys.modules.get("numba")
    # what Numba's config would say, without importing Numba for it; also while another thread is importing Numba (a
    # kernel compiling through it): importing its modules from here then fails halfway (Numba's circular imports)
    if numba is None or getattr(numba.__spec__, "_initializing", False):
        return default_cpu_threads()
    from numba.np.ufunc import parallel

    if parallel._is_initialized:
        return max(1, int(parallel.get_num_threads()))
    return max(1, int(parallel.NUM_THREADS))


_blas_libs: list[Any] | None = None


def _blas_controllers() -> list[Any]:
    """threadpoolctl's controllers of the BLAS libraries loaded at the first call (none if threadpoolctl, a dependency,
    is missing)."""
    global _blas_libs
    if _blas_libs is None:
        try:
            import threadpoolctl
        except ImportError:
            _blas_libs = []
        else:
            with warnings.catch_warnings():  # e.g. about several OpenMP runtimes loaded at once: not ours to report
                warnings.simplefilter("ignore")
                _blas_libs = [c for c in threadpoolctl.ThreadpoolController().lib_controllers if c.user_api == "blas"]
    return _blas_libs


# a launch sequence whose matmuls all take fewer flops runs BLAS on `SMALL_BLAS_THREADS` threads
SMALL_GEMM_FLOPS = 1 << 25


def small_gemms(kernels: list[Any]) -> bool:
    """Whether some of these `Lowered` kernels call BLAS and every one that does is small (< SMALL_GEMM_FLOPS)."""
    flops = [low.flops for low in kernels if low.calls_blas]
    return bool(flops) and max(flops) < SMALL_GEMM_FLOPS


def small_blas_threads() -> int:
    """LAZYARR_SMALL_BLAS_THREADS: BLAS threads for small matmuls (0: BLAS's own count). ValueError when negative."""
    n = flag("SMALL_BLAS_THREADS")
    if n < 0:
        raise ValueError(f"LAZYARR_SMALL_BLAS_THREADS must be 0 (leave BLAS alone) or a thread count, not {n}")
    return n


class blas_threads:  # noqa: N801 (used like a function: `with blas_threads(1): ...`)
    """Cap the threads of every loaded BLAS library at `n` inside the block, then restore each one's own count.

    Small matmuls run faster on one thread (OpenBLAS wakes its threads for any but the smallest, and on a busy
    machine a thread it waits for can cost milliseconds). Through threadpoolctl; without it, does nothing.

    BLAS's thread count is one setting for the whole process, while blocks run in several threads at once (eager
    realisations, replays): the first block to open saves the counts and caps them, the last to close restores them.
    Each block saving what it found would let one that opened inside another's cap (a smaller `n`) save the capped
    count and restore it last, losing BLAS's own count for good."""

    _lock = threading.Lock()
    _open = 0  # blocks open now, in every thread
    _saved: list[tuple[Any, int]] = []  # (library, its own count) as the first open block found them

    def __init__(self, n: int) -> None:
        self.n = n

    def __enter__(self) -> None:
        cls = blas_threads
        with cls._lock:
            if cls._open == 0:
                try:
                    for lib in _blas_controllers():
                        had = lib.get_num_threads()
                        if had is not None and had > self.n:
                            lib.set_num_threads(self.n)
                            cls._saved.append((lib, had))
                except BaseException:  # no block is open: put back what was capped before the failure
                    cls._restore()
                    raise
            cls._open += 1

    def __exit__(self, *exc: object) -> None:
        cls = blas_threads
        with cls._lock:
            cls._open -= 1
            if cls._open == 0:
                cls._restore()

    @staticmethod
    def _restore() -> None:
        saved, blas_threads._saved = blas_threads._saved, []
        for lib, had in saved:
            lib.set_num_threads(had)


# a split kernel runs in this many chunks per thread, taken in turn by whichever thread is free
CHUNKS_PER_THREAD = 4
# but no chunk covers less work than this: each chunk is one more call into Numba's dispatcher
CHUNK_MIN_WORK = 1 << 15


class _Job:
    """The chunks of one split launch. Every participant takes the next chunk until none is left, so a helper thread
    that starts late (a busy machine) finds the work done instead of delaying the caller; the caller waits only for
    chunks another thread has taken."""

    def __init__(self, fn: Callable[..., Any], arrays: list[Any], ints: list[int | float], bounds: list[int]) -> None:
        self.fn, self.arrays, self.ints, self.bounds = fn, arrays, ints, bounds
        self.n = len(bounds) - 1
        self.next = itertools.count()  # next() on a count is atomic under the GIL
        self.finished = 0
        self.error: BaseException | None = None
        self.cv = threading.Condition()

    def work(self) -> None:
        while (i := next(self.next)) < self.n:
            try:
                native.check(self.fn(*self.arrays, self.bounds[i], self.bounds[i + 1], *self.ints), str(self.fn))
            except BaseException as e:  # re-raised by the caller
                self.error = e
            with self.cv:
                self.finished += 1
                if self.finished == self.n:
                    self.cv.notify_all()

    def wait(self) -> None:
        with self.cv:
            while self.finished < self.n:
                self.cv.wait()
        if self.error is not None:
            raise self.error


class _Workers:
    """Daemon threads taking jobs from one queue (lighter than a ThreadPoolExecutor: no futures, no locks to submit)."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.count = 0
        self.lock = threading.Lock()

    def ensure(self, n: int) -> None:
        """At least `n` threads (started on first need; never stopped: idle ones wait on the queue)."""
        if self.count >= n:
            return
        with self.lock:
            while self.count < n:
                threading.Thread(target=self._loop, name=f"lazyarr-{self.count}", daemon=True).start()
                self.count += 1

    def _loop(self) -> None:
        while True:
            self.queue.get().work()


_workers = _Workers()
os.register_at_fork(after_in_child=_workers.__init__)  # a forked child has none of the parent's threads


def launch(fn: Callable[..., Any], arrays: list[Any], ints: list[int | float], parallel: bool, outer: int,
           work: int, unit: int = 1) -> None:
    """Run a kernel with scalar args `ints` (`Lowered.args`: int64s, then float64s); a parallel kernel with enough
    `work` is split over threads along its first loop (`outer`), in chunks that start at multiples of `unit`
    (`Lowered.split_unit`).
    `fn` is a Numba dispatcher or a native kernel taking `arrays`, or a `NativeKernel.raw` taking each array as its
    (address, size) pair in `arrays`; a nonzero return (a native kernel's error status) raises."""
    if not parallel:
        native.check(fn(*arrays, *ints), str(fn))
        return
    units = -(-outer // unit)
    if work < flag("PARALLEL_MIN") or units <= 1 or (threads := min(num_threads(), units)) <= 1:
        native.check(fn(*arrays, 0, outer, *ints), str(fn))
        return
    _workers.ensure(threads - 1)
    chunks = min(units, threads * CHUNKS_PER_THREAD, max(threads, work // CHUNK_MIN_WORK))
    job = _Job(fn, arrays, ints, [min(outer, units * c // chunks * unit) for c in range(chunks + 1)])
    for _ in range(threads - 1):
        _workers.queue.put(job)
    job.work()
    job.wait()
