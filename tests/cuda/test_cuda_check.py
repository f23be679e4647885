"""The NVRTC check mode (LAZYARR_CUDA_CHECK=1) checks what it claims: the CUDA C of kernels the CPU backend runs is
compiled, and a kernel broken on purpose is caught and named."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.graph.ops import Ops
from lazyarr.kernels import cuda_check, render_cuda
from lazyarr.kernels.nvrtc import nvrtc_available

if not nvrtc_available():
    pytest.skip("libnvrtc not found: pip install nvidia-cuda-nvrtc-cu12", allow_module_level=True)


@pytest.fixture
def fresh_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[cuda_check.CheckState]:
    state = cuda_check.CheckState()
    monkeypatch.setattr(cuda_check, "STATE", state)
    with lazyarr.Context(CACHE_DIR=str(tmp_path)):  # no known-good list from earlier runs
        yield state


def _run_some_kernels(scale: float) -> None:
    x = Tensor(np.linspace(-2, 2, 60, dtype=np.float32).reshape(3, 20))
    with lazyarr.Context(CUDA_CHECK=1):
        (x * scale).exp().sum(1).realize()
        (x.softmax(1) + scale).realize()
        (x.cast(lazyarr.int16) // 3).realize()


def test_check_mode_compiles_what_the_cpu_runs(fresh_state: cuda_check.CheckState) -> None:
    _run_some_kernels(1.25)
    assert len(fresh_state.programs) >= 3 and len(fresh_state.pending) == len(fresh_state.sources)
    compiled, failures = cuda_check.compile_pending()
    assert compiled == len(fresh_state.sources) and failures == 0


def test_check_mode_catches_a_broken_kernel(fresh_state: cuda_check.CheckState,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    original = render_cuda._Renderer.float_alu

    def broken(self: render_cuda._Renderer, op: Ops, dt: lazyarr.DType, s: list[str]) -> str:
        return f"no_such_function({s[0]})" if op is Ops.EXP else original(self, op, dt, s)

    monkeypatch.setattr(render_cuda._Renderer, "float_alu", broken)
    _run_some_kernels(2.5)
    _, failures = cuda_check.compile_pending()
    assert failures >= 2  # the exp kernels (both index widths); the integer kernel still compiles
    assert all('identifier "no_such_function" is undefined' in text for text in fresh_state.failures.values())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan_constants_keep_their_sign_in_cuda_c(dtype: str) -> None:
    """A NaN constant's CUDA C literal has the bits of that NaN (a -nan, e.g. 0/0 folded on x86, was written +nan)."""
    uint = np.uint32 if dtype == "float32" else np.uint64
    for value in (np.nan, -np.nan):
        text = render_cuda.render_const(float(value), getattr(lazyarr, dtype))
        assert int(text.split("(")[1].rstrip("L)"), 16) == int(np.array(value, dtype).view(uint))
