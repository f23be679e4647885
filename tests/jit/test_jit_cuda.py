"""@lazyarr.jit on the CUDA device, run by the CPU emulator of tests/cuda (replays go through the launch loop)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import runtime_cuda

sys.path.insert(0, str(Path(__file__).parents[1] / "cuda"))

from emu_backend import EmulatorBackend  # noqa: E402


@pytest.fixture
def emulated() -> Iterator[EmulatorBackend]:
    backend = EmulatorBackend(order="shuffle")
    previous = runtime_cuda.set_backend(backend)
    try:
        yield backend
    finally:
        runtime_cuda.set_backend(previous)


def test_jit_on_cuda_replays_with_fresh_outputs_and_rng(emulated: EmulatorBackend) -> None:
    @lazyarr.jit
    def f(x: Tensor) -> tuple[Tensor, Tensor]:
        return (x * 2 + 1).sum(axis=0), Tensor.rand(4, device="CUDA")

    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(4)]
    Tensor.manual_seed(1)
    outs = [f(Tensor(x, device="CUDA")) for x in xs]
    for x, (s, _) in zip(xs, outs):
        assert s.device == "CUDA"
        np.testing.assert_allclose(s.numpy(), (x * 2 + 1).sum(axis=0), rtol=1e-5)
    draws = [r.numpy() for _, r in outs]
    assert len({d.tobytes() for d in draws}) == 4
    Tensor.manual_seed(1)
    again = [f(Tensor(x, device="CUDA"))[1].numpy() for x in xs]
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)
    assert next(iter(f.captures.values())).mode == 2
