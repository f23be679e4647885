"""On a real GPU (marked `gpu`, skipped without CuPy and a GPU): the emulated programs run through CuPy and match the
CPU backend, RNG is bitwise identical, and a buffer past 2**31 elements takes the 64-bit index path."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import runtime_cuda
from lazyarr.kernels.runtime_cuda import CudaUnavailableError, CupyBackend

sys.path.insert(0, str(Path(__file__).parent))

from test_cuda_emulated import ELEMENTWISE, REDUCTIONS


def _gpu() -> CupyBackend | None:
    try:
        return CupyBackend()
    except CudaUnavailableError:
        return None


GPU = _gpu()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(GPU is None, reason="needs CuPy and a CUDA GPU")]


@pytest.fixture
def gpu() -> Iterator[CupyBackend]:
    assert GPU is not None
    previous = runtime_cuda.set_backend(GPU)
    try:
        yield GPU
    finally:
        runtime_cuda.set_backend(previous)


def _compare(program, exact: bool) -> None:  # type: ignore[no-untyped-def]
    want = program("CPU").numpy()
    got = program("CUDA").numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        tol = 4e-3 if got.dtype == np.float16 else 1e-4
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_on_gpu(name: str, gpu: CupyBackend) -> None:
    _compare(*ELEMENTWISE[name])


@pytest.mark.parametrize("lanes", [0, 1, 32, 256])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions_on_gpu(name: str, lanes: int, gpu: CupyBackend) -> None:
    with lazyarr.Context(CUDA_LANES=lanes):
        _compare(*REDUCTIONS[name])


def test_rand_bitwise_on_gpu(gpu: CupyBackend) -> None:
    out = []
    for dev in ("CPU", "CUDA"):
        Tensor.manual_seed(42)
        out.append((Tensor.rand(1000, 37, device=dev).numpy(), Tensor.randint(999, high=77, device=dev).numpy()))
    for cpu, cuda in zip(*out):
        np.testing.assert_array_equal(cpu, cuda)


def test_large_sizes_on_gpu(gpu: CupyBackend) -> None:
    n = 2**31 + 7  # past int32: 64-bit indices
    x = Tensor.ones(n, dtype=lazyarr.int8, device="CUDA").contiguous()
    assert x.sum().item() == n
    y = (x * 2).realize()
    assert y[n - 1].item() == 2 and y[0].item() == 2
    big = Tensor.rand(4096, 8192, device="CUDA")
    np.testing.assert_allclose(big.sum(1).numpy(), big.numpy().astype(np.float64).sum(1), rtol=1e-4)
    np.testing.assert_allclose(big.max(0).numpy(), big.numpy().max(0))
