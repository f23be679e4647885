"""Runs CUDA C kernel source on the CPU: g++ builds the unchanged source with cuda_emu.h into a cached shared library.

`EmulatedKernel(source, name)(grid, block, args)` mirrors `cupy.RawKernel`, with NumPy arrays in place of device
arrays and a choice of thread order (forward, reverse, shuffled) to expose missing barriers.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import re
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HEADER = Path(__file__).with_name("cuda_emu.h")
CXX = "g++"
CXX_FLAGS = ("-O1", "-std=c++17", "-fPIC", "-fvisibility=hidden", "-fno-strict-aliasing")
ORDERS = {"forward": 0, "reverse": 1, "shuffle": 2}

# C parameter types as NumPy dtypes (LP64, as nvcc's device ABI on Linux).
C_TYPES: dict[str, np.dtype | None] = {
    "float": np.dtype(np.float32),
    "double": np.dtype(np.float64),
    "__half": np.dtype(np.float16),
    "bool": np.dtype(np.bool_),
    "char": np.dtype(np.int8),
    "signed char": np.dtype(np.int8),
    "unsigned char": np.dtype(np.uint8),
    "short": np.dtype(np.int16),
    "unsigned short": np.dtype(np.uint16),
    "int": np.dtype(np.int32),
    "unsigned int": np.dtype(np.uint32),
    "long": np.dtype(np.int64),
    "unsigned long": np.dtype(np.uint64),
    "long long": np.dtype(np.int64),
    "unsigned long long": np.dtype(np.uint64),
    "size_t": np.dtype(np.uint64),
    "ptrdiff_t": np.dtype(np.int64),
    "void": None,
}
_ALIASES = {
    "unsigned": "unsigned int",
    "signed": "int",
    "signed int": "int",
    "short int": "short",
    "unsigned short int": "unsigned short",
    "long int": "long",
    "unsigned long int": "unsigned long",
    "long long int": "long long",
    "signed long long": "long long",
    "unsigned long long int": "unsigned long long",
}
_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict"}
_COLLECTIVES = re.compile(r"\b(__syncthreads\w*|__syncwarp|__shfl\w*_sync|__ballot_sync|__any_sync|__all_sync)\b")
_DYNAMIC_SHARED = re.compile(
    r"extern\s+__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?([A-Za-z_][\w\s]*?)\s*(\w+)\s*\[\s*\]\s*;"
)
_LAUNCH_BOUNDS = r"(?:__launch_bounds__\s*\([^)]*\)\s*)?"


class EmulatorError(RuntimeError):
    """A launch went wrong: bad arguments, a deadlock or divergent barrier, a __trap() or failed assert."""


class EmulatorCompileError(RuntimeError):
    """g++ rejected the kernel source; the message holds its log."""


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str  # base type without qualifiers, e.g. "unsigned int"
    pointer: bool

    @property
    def dtype(self) -> np.dtype | None:
        return C_TYPES[self.ctype]


def _strip_comments(source: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.DOTALL)


def _parse_param(text: str) -> Param:
    tokens = re.findall(r"[A-Za-z_]\w*|\*|&|\[", text)
    if "&" in tokens or "[" in tokens or len(tokens) < 2:
        raise ValueError(f"unsupported kernel parameter {text.strip()!r}")
    name = tokens[-1]
    ctype = " ".join(t for t in tokens[:-1] if t != "*" and t not in _QUALIFIERS)
    ctype = _ALIASES.get(ctype, ctype)
    if ctype not in C_TYPES:
        raise ValueError(f"unsupported kernel parameter type {ctype!r} in {text.strip()!r}")
    pointers = tokens.count("*")
    if pointers > 1 or (ctype == "void" and pointers == 0):
        raise ValueError(f"unsupported kernel parameter {text.strip()!r}")
    return Param(name, ctype, pointers == 1)


def parse_kernel_params(source: str, name: str) -> list[Param]:
    """The parameters of `extern "C" __global__ void name(...)`: as CuPy does, only extern "C" kernels are found."""
    pattern = rf'extern\s+"C"\s+__global__\s+{_LAUNCH_BOUNDS}void\s+{_LAUNCH_BOUNDS}{re.escape(name)}\s*\(([^)]*)\)'
    matches = re.findall(pattern, _strip_comments(source))
    if len(matches) != 1:
        found = "no" if not matches else "more than one"
        raise ValueError(f'{found} `extern "C" __global__ void {name}(...)` in the source')
    text = matches[0].strip()
    return [] if text in ("", "void") else [_parse_param(p) for p in text.split(",")]


def rewrite_dynamic_shared(source: str) -> str:
    """`extern __shared__ T name[];` cannot be a static: it becomes a macro for the runtime's per-launch buffer."""
    return _DYNAMIC_SHARED.sub(r"#define \2 (reinterpret_cast<\1*>(cuda_emu::dynamic_shared))\n", source)


def uses_collectives(source: str) -> bool:
    """Whether threads need fibers: a kernel without barriers or warp collectives runs each thread as a plain call."""
    return _COLLECTIVES.search(_strip_comments(source)) is not None


def _launch_shim(name: str, params: list[Param]) -> str:
    def c_type(p: Param) -> str:
        return f"{p.ctype}*" if p.pointer else p.ctype

    call_args = ", ".join(f"*static_cast<{c_type(p)}*>(args[{i}])" for i, p in enumerate(params))
    export = 'extern "C" __attribute__((visibility("default")))'
    return f"""
namespace cuda_emu {{
int launch(const unsigned int*, size_t, int, unsigned long long, int, void (*)(void**), void**);
const char* last_error();
}}
static void cuda_emu_body(void** args) {{ {name}({call_args}); }}
{export} int cuda_emu_launch(const unsigned int* dims, size_t shared_bytes, int order, unsigned long long seed,
                             int fibers, void** args) {{
    return cuda_emu::launch(dims, shared_bytes, order, seed, fibers, cuda_emu_body, args);
}}
{export} const char* cuda_emu_last_error() {{ return cuda_emu::last_error(); }}
"""


def cache_dir() -> Path:
    path = Path(tempfile.gettempdir()) / f"lazyarr-cuda-emu-{os.getuid()}"
    (path / "include").mkdir(parents=True, exist_ok=True)
    return path


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


@functools.cache
def _compiler_id() -> str:
    return subprocess.run([CXX, "-dumpfullversion"], capture_output=True, text=True, check=True).stdout.strip()


def _run_cxx(args: list[str], what: str) -> None:
    done = subprocess.run([CXX, *args], check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise EmulatorCompileError(f"g++ failed on {what}:\n{done.stderr}")


def _build(source: str, name: str, params: list[Param]) -> Path:
    header = HEADER.read_text()
    root = cache_dir()
    digest = hashlib.sha256("\0".join((_compiler_id(), " ".join(CXX_FLAGS), header, source, name)).encode())
    library = root / f"{name}-{digest.hexdigest()[:24]}.so"
    if library.exists():
        return library
    # Headers come from -I folders, so that no cached file names this checkout's path.
    includes = ["-I", str(HEADER.parent), "-I", str(root / "include")]
    runtime_key = "\0".join((_compiler_id(), " ".join(CXX_FLAGS), header))
    runtime = root / f"runtime-{hashlib.sha256(runtime_key.encode()).hexdigest()[:24]}.o"
    if not runtime.exists():
        runtime_src = root / f"{runtime.stem}.cpp"
        _write_atomically(runtime_src, '#define CUDA_EMU_RUNTIME\n#include "cuda_emu.h"\n')
        tmp = runtime.with_name(f"{runtime.name}.{os.getpid()}.tmp")
        _run_cxx([*CXX_FLAGS, *includes, "-c", str(runtime_src), "-o", str(tmp)], "cuda_emu.h (runtime)")
        os.replace(tmp, runtime)
    fp16 = root / "include" / "cuda_fp16.h"
    if not fp16.exists():
        _write_atomically(fp16, '#define CUDA_EMU_WANT_FP16\n#include "cuda_emu.h"\n')
    unit = root / f"{library.stem}.cpp"
    body = rewrite_dynamic_shared(source)
    _write_atomically(unit, f'#include "cuda_emu.h"\n#line 1 "{name}.cu"\n{body}\n{_launch_shim(name, params)}')
    tmp = library.with_name(f"{library.name}.{os.getpid()}.tmp")
    _run_cxx([*CXX_FLAGS, "-shared", *includes, str(unit), str(runtime), "-o", str(tmp)], name)
    os.replace(tmp, library)
    return library


_libraries: dict[Path, ctypes.CDLL] = {}
_launch_lock = threading.Lock()  # the runtime keeps its launch state in globals


def _load(path: Path) -> ctypes.CDLL:
    lib = _libraries.get(path)
    if lib is None:
        lib = ctypes.CDLL(str(path))
        lib.cuda_emu_launch.argtypes = [
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.c_int,
            ctypes.c_ulonglong,
            ctypes.c_int,
            ctypes.c_void_p,
        ]
        lib.cuda_emu_launch.restype = ctypes.c_int
        lib.cuda_emu_last_error.restype = ctypes.c_char_p
        _libraries[path] = lib
    return lib


def _dims(value: int | tuple[int, ...], what: str) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or any(int(d) < 1 for d in dims):
        raise EmulatorError(f"{what} must be 1 to 3 positive sizes, got {value!r}")
    x, y, z = (*(int(d) for d in dims), 1, 1)[:3]
    return x, y, z


def _check_launch(grid: tuple[int, int, int], block: tuple[int, int, int]) -> None:
    # The limits of every GPU since compute capability 3.0.
    if block[0] * block[1] * block[2] > 1024 or block[0] > 1024 or block[1] > 1024 or block[2] > 64:
        raise EmulatorError(f"block {block} exceeds CUDA's limits (1024 threads, 1024 x 1024 x 64)")
    if grid[0] >= 2**31 or grid[1] > 65535 or grid[2] > 65535:
        raise EmulatorError(f"grid {grid} exceeds CUDA's limits (2^31-1 x 65535 x 65535)")


def _scalar(param: Param, value: object) -> np.ndarray:
    """The argument as a 0-d array of the parameter's exact type, refusing what CuPy would pass with another size."""
    want = param.dtype
    if isinstance(value, np.ndarray) and value.ndim > 0:
        raise EmulatorError(f"parameter {param.ctype} {param.name} is a scalar, got an array")
    if isinstance(value, (np.generic, np.ndarray)):
        got = value.dtype
    elif isinstance(value, bool):
        got = np.dtype(np.bool_)
    elif isinstance(value, int):
        got = np.dtype(np.int64)  # CuPy passes a Python int as long long
    elif isinstance(value, float):
        got = np.dtype(np.float64)  # and a Python float as double
    else:
        raise EmulatorError(f"parameter {param.ctype} {param.name}: unsupported argument {type(value).__name__}")
    if got != want:
        raise EmulatorError(
            f"parameter {param.ctype} {param.name} needs {want}, got {got} "
            "(CuPy would pass it unchecked; wrap it as np.<type>(value))"
        )
    return np.array(value, dtype=want)


def _pointer(param: Param, value: object) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise EmulatorError(f"parameter {param.ctype}* {param.name} needs an array, got {type(value).__name__}")
    if param.dtype is not None and value.dtype != param.dtype:
        raise EmulatorError(f"parameter {param.ctype}* {param.name} needs {param.dtype}, got {value.dtype} array")
    if not value.flags.c_contiguous:
        raise EmulatorError(f"parameter {param.name}: CuPy ignores strides, pass a C-contiguous array")
    return np.array(value.ctypes.data, dtype=np.uintp)


class EmulatedKernel:
    """A kernel of `source` compiled for the CPU; called like cupy.RawKernel with NumPy arrays as device memory."""

    def __init__(self, source: str, name: str) -> None:
        self.source = source
        self.name = name
        self.params = parse_kernel_params(source, name)
        self.uses_fibers = uses_collectives(source)
        self.library_path = _build(source, name, self.params)
        self._lib = _load(self.library_path)

    def __call__(
        self,
        grid: int | tuple[int, ...],
        block: int | tuple[int, ...],
        args: tuple[object, ...],
        order: str = "forward",
        seed: int = 0,
        shared_mem: int = 0,
    ) -> None:
        """Run every block, one after another; threads of a block in `order` ("forward", "reverse", "shuffle")."""
        if order not in ORDERS:
            raise EmulatorError(f"order must be one of {sorted(ORDERS)}, got {order!r}")
        grid3, block3 = _dims(grid, "grid"), _dims(block, "block")
        _check_launch(grid3, block3)
        if len(args) != len(self.params):
            raise EmulatorError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        values = [_pointer(p, a) if p.pointer else _scalar(p, a) for p, a in zip(self.params, args)]
        addresses = np.array([v.ctypes.data for v in values] or [0], dtype=np.uintp)
        dims = np.array(grid3 + block3, dtype=np.uint32)
        with _launch_lock:
            failed = self._lib.cuda_emu_launch(
                dims.ctypes.data, shared_mem, ORDERS[order], seed, int(self.uses_fibers), addresses.ctypes.data
            )
            message = self._lib.cuda_emu_last_error().decode() if failed else ""
        if failed:
            raise EmulatorError(f"{self.name}: {message}")
