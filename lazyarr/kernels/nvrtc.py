"""CUDA C source in, PTX text out: NVRTC called in-process through ctypes, no GPU and no CuPy needed.

The library comes from the `nvidia-cuda-nvrtc-cu12` wheel; compiled PTX is cached in memory by a hash of its inputs.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import threading
from pathlib import Path

# What CuPy's RawKernel hands NVRTC besides `-arch` and its `-I` include folders. `-ftz=true` is appended by CuPy
# whatever the caller asks; the C++ standard is CuPy's default only when no `-std` is given.
CUPY_RAWKERNEL_OPTIONS: tuple[str, ...] = (
    "--std=c++17",
    "-ftz=true",
    "--device-as-default-execution-space",
)

# Overrides the search below: a libnvrtc.so.* file, or a folder holding one.
# TODO: read it as flag("NVRTC_PATH") once lazyarr/helpers.py's FLAGS registers it.
NVRTC_PATH_ENV = "LAZYARR_NVRTC_PATH"


class NVRTCError(RuntimeError):
    """NVRTC rejected a program, or could not be loaded; `log` holds the compiler's messages."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(f"{message}\n{log}" if log else message)
        self.log = log


def _candidate_dirs() -> list[Path]:
    spec = importlib.util.find_spec("nvidia")
    if spec is None or spec.submodule_search_locations is None:
        return []
    roots = [Path(p) for p in spec.submodule_search_locations]
    # cu12 wheels put the library in nvidia/cuda_nvrtc/lib, the cu13 wheel in nvidia/cu13/lib.
    return [root / sub / "lib" for root in roots for sub in ("cuda_nvrtc", "cu13")]


def _library_in(folder: Path) -> Path | None:
    names = sorted(p for p in folder.glob("libnvrtc.so*") if ".alt." not in p.name)
    return names[0] if names else None


def find_nvrtc_library() -> Path | None:
    """The libnvrtc shared library to load: the env override, else the pip wheel's; None when there is none."""
    override = os.environ.get(NVRTC_PATH_ENV)
    if override:
        path = Path(override)
        return _library_in(path) if path.is_dir() else path
    for folder in _candidate_dirs():
        if folder.is_dir() and (found := _library_in(folder)) is not None:
            return found
    return None


class _NVRTC:
    """The loaded library with the argument types of the few entry points we call."""

    def __init__(self, path: Path) -> None:
        self.path = path
        lib = ctypes.CDLL(str(path))
        prog_p = ctypes.POINTER(ctypes.c_void_p)
        strings = ctypes.POINTER(ctypes.c_char_p)
        size_p = ctypes.POINTER(ctypes.c_size_t)
        int_p = ctypes.POINTER(ctypes.c_int)
        signatures = {
            "nvrtcVersion": [int_p, int_p],
            "nvrtcCreateProgram": [
                prog_p,
                ctypes.c_char_p,
                ctypes.c_char_p,
                ctypes.c_int,
                strings,
                strings,
            ],
            "nvrtcCompileProgram": [ctypes.c_void_p, ctypes.c_int, strings],
            "nvrtcGetProgramLogSize": [ctypes.c_void_p, size_p],
            "nvrtcGetProgramLog": [ctypes.c_void_p, ctypes.c_char_p],
            "nvrtcGetPTXSize": [ctypes.c_void_p, size_p],
            "nvrtcGetPTX": [ctypes.c_void_p, ctypes.c_char_p],
            "nvrtcDestroyProgram": [prog_p],
        }
        for fname, argtypes in signatures.items():
            fn = getattr(lib, fname)
            fn.argtypes = argtypes
            fn.restype = ctypes.c_int
        lib.nvrtcGetErrorString.argtypes = [ctypes.c_int]
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        self.lib = lib

    def check(self, result: int, what: str, log: str = "") -> None:
        if result != 0:
            reason = self.lib.nvrtcGetErrorString(result).decode()
            raise NVRTCError(f"{what} failed: {reason}", log)

    def version(self) -> tuple[int, int]:
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.check(
            self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)),
            "nvrtcVersion",
        )
        return major.value, minor.value

    def compile(self, source: str, name: str, options: tuple[str, ...]) -> str:
        prog = ctypes.c_void_p()
        created = self.lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
        self.check(created, "nvrtcCreateProgram")
        try:
            opts = (ctypes.c_char_p * len(options))(*(o.encode() for o in options))
            result = self.lib.nvrtcCompileProgram(prog, len(options), opts)
            self.check(result, f"compiling {name}", self._log(prog))
            size = ctypes.c_size_t()
            self.check(self.lib.nvrtcGetPTXSize(prog, ctypes.byref(size)), "nvrtcGetPTXSize")
            ptx = ctypes.create_string_buffer(size.value)
            self.check(self.lib.nvrtcGetPTX(prog, ptx), "nvrtcGetPTX")
            return ptx.value.decode()
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))

    def _log(self, prog: ctypes.c_void_p) -> str:
        size = ctypes.c_size_t()
        if self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size)) != 0:
            return ""
        log = ctypes.create_string_buffer(size.value)
        self.lib.nvrtcGetProgramLog(prog, log)
        return log.value.decode(errors="replace")


_lock = threading.Lock()
_loaded: _NVRTC | None = None
_ptx_cache: dict[str, str] = {}


def _nvrtc() -> _NVRTC:
    global _loaded
    with _lock:
        if _loaded is None:
            path = find_nvrtc_library()
            if path is None:
                raise NVRTCError(f"libnvrtc not found: pip install nvidia-cuda-nvrtc-cu12, or set {NVRTC_PATH_ENV}")
            try:
                _loaded = _NVRTC(path)
            except OSError as err:
                raise NVRTCError(f"cannot load {path}: {err}") from err
        return _loaded


def nvrtc_available() -> bool:
    """True when libnvrtc can be found and loaded."""
    try:
        _nvrtc()
    except NVRTCError:
        return False
    return True


def nvrtc_version() -> tuple[int, int]:
    """(major, minor) of the loaded NVRTC; its PTX is newer than older ptxas versions accept."""
    return _nvrtc().version()


def compile_to_ptx(
    source: str,
    name: str = "kernel.cu",
    arch: str = "sm_90",
    options: tuple[str, ...] = CUPY_RAWKERNEL_OPTIONS,
) -> str:
    """PTX for `source` compiled as CuPy's RawKernel would (`arch` like "sm_90" or "compute_90").

    Raises NVRTCError carrying the compiler log when the source does not compile.
    """
    full_options = (*options, f"-arch={arch}")
    key = hashlib.sha256("\0".join((source, name, *full_options)).encode()).hexdigest()
    cached = _ptx_cache.get(key)
    if cached is not None:
        return cached
    ptx = _nvrtc().compile(source, name, full_options)
    _ptx_cache[key] = ptx
    return ptx
