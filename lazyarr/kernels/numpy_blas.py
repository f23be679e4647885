"""NumPy's own BLAS, for CPU matmul kernels to call instead of the BLAS Numba binds (SciPy's).

A kernel calling Numba's `np.dot` reaches SciPy's OpenBLAS, a second copy of the library next to the one NumPy ships.
Each copy keeps its own threads, and an OpenBLAS thread spins for a while after its work, so when NumPy code and
lazyarr kernels take turns multiplying matrices each copy's threads slow the other down (1024**3 float32: 35 ms a
product instead of 15, benchmarks/bench_blas_mix.py). Calling NumPy's copy shares one thread pool, gives the same
bits as `numpy.matmul` for C-ordered operands, and needs no SciPy.

NumPy's wheels bundle OpenBLAS built with 64-bit integers and a `64_` symbol suffix (`scipy_cblas_sgemm64_` since
NumPy 2, `cblas_sgemm64_` in 1.x), loaded by NumPy's core extension module; `dlsym` on that module finds the symbol
among its dependencies. A NumPy built against another BLAS (MKL, Accelerate, a 32-bit-integer OpenBLAS) has none of
these names, and kernels use Numba's `np.dot` as before.

The generated kernels call the functions by the names in `SYMBOLS`; `register` makes those names resolve to
NumPy's functions in llvmlite's JIT linker (by name, so a kernel's cached object code links in any later process).
This module imports neither Numba nor llvmlite's binding until `register`.
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

# the names kernels call -> the cblas_?gemm of NumPy's BLAS (64-bit integers), in the order tried
SYMBOLS = {
    "lazyarr_numpy_sgemm_i64": ("scipy_cblas_sgemm64_", "cblas_sgemm64_"),
    "lazyarr_numpy_dgemm_i64": ("scipy_cblas_dgemm64_", "cblas_dgemm64_"),
}


def _core_module_path() -> str | None:
    """The file of NumPy's core extension module (it links NumPy's BLAS for `matmul`)."""
    try:
        from numpy._core import _multiarray_umath as core  # NumPy >= 2
    except ImportError:
        try:
            from numpy.core import _multiarray_umath as core  # NumPy 1.x
        except ImportError:
            return None
    return getattr(core, "__file__", None)


@functools.cache
def addresses() -> dict[str, int]:
    """{kernel-facing name: address} of NumPy's sgemm and dgemm, or {} when NumPy's BLAS does not provide both with
    64-bit integers (then kernels call BLAS through Numba's `np.dot`)."""
    path = _core_module_path()
    if path is None:
        return {}
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return {}
    found: dict[str, int] = {}
    for name, candidates in SYMBOLS.items():
        for symbol in candidates:
            try:
                address = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p).value
            except AttributeError:
                continue
            if address:
                found[name] = address
                break
    return found if len(found) == len(SYMBOLS) else {}


def available() -> bool:
    """Whether NumPy's BLAS has the gemm functions kernels can call (64-bit integer OpenBLAS, NumPy's wheels)."""
    return bool(addresses())


@functools.cache
def register() -> bool:
    """Make `SYMBOLS`' names resolve to NumPy's functions in llvmlite's JIT linker (before any kernel calling them is
    linked: numba_support does it when imported). Returns `available()`."""
    found = addresses()
    if found:
        from llvmlite import binding as llvm

        for name, address in found.items():
            llvm.add_symbol(name, address)
    return bool(found)


def blas_config() -> str:
    """NumPy's BLAS as NumPy's build configuration names it (for benchmark reports), e.g. 'scipy-openblas 0.3.31'."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except (TypeError, KeyError, AttributeError):
        return "unknown"
    return f"{blas.get('name', 'unknown')} {blas.get('version', '')}".strip()
