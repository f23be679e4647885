"""CPU runtime: compile rendered Numba source (memory cache, then disk cache, then numba), and launch kernels.

Each kernel's source is written to `<cache dir>/kernels/<name>.py` and imported, so Numba's own on-disk cache
(`cache=True`, next to that file) makes a second process load machine code instead of compiling. A cache entry that
cannot be read is deleted and compiled again. This is the only module (with numba_support) that imports numba.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lazyarr.helpers import cache_dir, flag
from lazyarr.kernels.stats import COUNTERS

CACHE_VERSION = "1"
_compiled: dict[str, Callable[..., None]] = {}
_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


@functools.cache
def _support_digest() -> str:
    # Numba's cache only watches the kernel's own file: fold in the helper modules kernels call
    import numba

    h = hashlib.sha256(f"{CACHE_VERSION}|{numba.__version__}".encode())
    here = os.path.dirname(os.path.abspath(__file__))
    for helper in sorted(glob.glob(os.path.join(here, "numba_*.py")) + glob.glob(os.path.join(here, "transcendental*.py"))):
        with open(helper, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def kernel_name(source: str) -> str:
    """A stable module name derived from the source text and the helper modules it calls."""
    digest = hashlib.sha256(f"{_support_digest()}|{source}".encode()).hexdigest()[:20]
    return f"lk_{digest}"


def compile_source(source: str) -> Callable[..., None]:
    """The compiled `kernel` function of a rendered module; cached in memory and on disk."""
    if source in _compiled:
        COUNTERS.memory_cache_hits += 1
        return _compiled[source]
    with _lock:
        if source in _compiled:
            return _compiled[source]
        name = kernel_name(source)
        start = time.perf_counter()
        fn, from_disk = _load(name, source)
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


def _load(name: str, source: str) -> tuple[Callable[..., None], bool]:
    try:
        path = os.path.join(_kernel_dir(), f"{name}.py")
    except OSError:
        path = os.path.join(tempfile.gettempdir(), f"lazyarr-{os.getuid()}", f"{name}.py")
        os.makedirs(os.path.dirname(path), exist_ok=True)
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


def _import(name: str, source: str, path: str) -> tuple[Callable[..., None], bool]:
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


def num_threads() -> int:
    """Threads for large kernels: LAZYARR_NUM_THREADS, else Numba's thread count setting."""
    n = flag("NUM_THREADS")
    if n > 0:
        return n
    import numba

    return max(1, int(numba.config.NUMBA_NUM_THREADS))


def launch(fn: Callable[..., None], arrays: list[Any], ints: list[int], parallel: bool, outer: int, work: int) -> None:
    """Run a kernel; a parallel kernel with enough `work` is split over threads along its first loop (`outer`)."""
    if not parallel:
        fn(*arrays, *ints)
        return
    threads = min(num_threads(), outer)
    if threads <= 1 or work < flag("PARALLEL_MIN"):
        fn(*arrays, 0, outer, *ints)
        return
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=num_threads(), thread_name_prefix="lazyarr")
    bounds = [outer * t // threads for t in range(threads + 1)]
    futures = [_pool.submit(fn, *arrays, bounds[t], bounds[t + 1], *ints) for t in range(1, threads)]
    fn(*arrays, bounds[0], bounds[1], *ints)
    for f in futures:
        f.result()
