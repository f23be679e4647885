"""In-place writes on the CUDA device, run by the CPU emulator of the launch model (blocks in shuffled order)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from lazyarr import Tensor
from lazyarr.kernels import runtime_cuda
from tests.helpers import assert_matches

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cuda"))

from emu_backend import EmulatorBackend  # noqa: E402


@pytest.fixture
def emulated() -> Iterator[EmulatorBackend]:
    backend = EmulatorBackend(order="shuffle")
    previous = runtime_cuda.set_backend(backend)
    try:
        yield backend
    finally:
        runtime_cuda.set_backend(previous)


def test_device_mismatch_raises_value_error(emulated: EmulatorBackend) -> None:
    x = Tensor(np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="CUDA.*CPU"):
        x.assign(Tensor(np.ones(3, np.int32), device="CUDA"))
    with pytest.raises(ValueError, match="CUDA.*CPU"):
        x[0] = Tensor(np.ones((), np.int32), device="CUDA")


def test_writes_and_hazards_on_cuda(emulated: EmulatorBackend) -> None:
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = Tensor(a.copy(), device="CUDA").realize()
    kept = x * 1
    x[:, 1:] = x[:, :-1]
    x[[0, 2, 0]] = Tensor(np.array([[1.0], [2.0], [3.0]], np.float32), device="CUDA")
    x += x[::-1]
    ref = a.copy()
    ref[:, 1:] = ref[:, :-1].copy()
    ref[[0, 2, 0]] = [[1.0], [2.0], [3.0]]
    ref += ref[::-1].copy()
    assert_matches(x, ref)
    assert_matches(kept, a)
