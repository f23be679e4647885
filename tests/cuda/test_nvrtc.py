"""The kernels of test_emulator.py compiled to PTX by NVRTC in-process, with CuPy's RawKernel options.

Skipped only when libnvrtc is missing (pip install nvidia-cuda-nvrtc-cu12).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lazyarr.kernels.nvrtc import (
    CUPY_RAWKERNEL_OPTIONS,
    NVRTCError,
    compile_to_ptx,
    nvrtc_available,
    nvrtc_version,
)

sys.path.insert(0, str(Path(__file__).parent))

from test_emulator import KERNELS

if not nvrtc_available():
    pytest.skip("libnvrtc not found: pip install nvidia-cuda-nvrtc-cu12", allow_module_level=True)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_emulator_kernels_compile_to_ptx(name: str) -> None:
    ptx = compile_to_ptx(KERNELS[name], name=f"{name}.cu")
    assert ".target sm_90" in ptx
    assert f".entry {name}(" in ptx  # extern "C": the unmangled name CuPy's get_function looks up


def test_ptx_is_cached_by_source() -> None:
    first = compile_to_ptx(KERNELS["axpy_exp"], name="axpy_exp.cu")
    assert compile_to_ptx(KERNELS["axpy_exp"], name="axpy_exp.cu") is first
    other_arch = compile_to_ptx(KERNELS["axpy_exp"], name="axpy_exp.cu", arch="sm_80")
    assert ".target sm_80" in other_arch


def test_syntax_error_raises_with_the_log() -> None:
    source = 'extern "C" __global__ void broken(float* x) {\n    x[threadIdx.x] = 1.0f\n}\n'
    with pytest.raises(NVRTCError, match="NVRTC_ERROR_COMPILATION") as info:
        compile_to_ptx(source, name="broken.cu")
    assert 'broken.cu(3): error: expected a ";"' in info.value.log
    assert info.value.log in str(info.value)


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("float v = INFINITY;", 'identifier "INFINITY" is undefined'),
        ("int64_t v = 0;", 'identifier "int64_t" is undefined'),
        ("float v = max(1.0f, 2);", 'more than one instance of overloaded function "max"'),
        ("long long v = 0; atomicAdd(&v, 1LL);", 'no instance of overloaded function "atomicAdd"'),
    ],
)
def test_names_missing_from_nvrtc(statement: str, message: str) -> None:
    source = f'extern "C" __global__ void rejected(float* out) {{ {statement} out[0] = 0.0f; }}'
    with pytest.raises(NVRTCError, match=message):
        compile_to_ptx(source, name="rejected.cu")


def test_what_generated_code_uses_instead_compiles() -> None:
    source = r"""
    extern "C" __global__ void replacements(float* out, double* total, long long n) {
        float inf = __int_as_float(0x7f800000);
        out[0] = fmaxf(-inf, (float)n) + max(1.0f, (float)2);
        if (isnan(out[0]) || isinf(out[1])) atomicAdd(total, 1.0);
    }
    """
    assert ".entry replacements(" in compile_to_ptx(source)


def test_options_match_cupy_rawkernel() -> None:
    assert CUPY_RAWKERNEL_OPTIONS == ("--std=c++17", "-ftz=true", "--device-as-default-execution-space")
    assert nvrtc_version() >= (12, 0)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas (CUDA toolkit) not on PATH")
def test_ptxas_accepts_the_ptx(tmp_path: Path) -> None:
    # NVRTC newer than ptxas emits a PTX version ptxas rejects: this is why the wheel is pinned.
    ptx = tmp_path / "row_sum_max_warp.ptx"
    ptx.write_text(compile_to_ptx(KERNELS["row_sum_max_warp"], name="row_sum_max_warp.cu"))
    done = subprocess.run(
        ["ptxas", "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
