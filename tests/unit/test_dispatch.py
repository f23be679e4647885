"""The eager path's bookkeeping: realising repoints the tensors holding the realised graph, and a cached plan runs on
the right buffers when the same structure comes back with new data."""

from __future__ import annotations

import numpy as np

import lazyarr
from lazyarr import Tensor
from tests.helpers import kernel_count


def test_realize_repoints_every_tensor_holding_the_graph() -> None:
    x = Tensor(np.arange(6, dtype=np.float32)).realize()
    y = x * 3 + 1
    alias = Tensor(y)  # holds the very same UOp
    other = x * 3 + 2
    with kernel_count(1):
        y.realize()
    with kernel_count(0):
        np.testing.assert_array_equal(alias.numpy(), np.arange(6, dtype=np.float32) * 3 + 1)
    assert alias.uop is y.uop
    with kernel_count(1):
        np.testing.assert_array_equal(other.numpy(), np.arange(6, dtype=np.float32) * 3 + 2)


def test_cached_plan_runs_on_the_buffers_of_the_new_call() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(5).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    ta, tb = Tensor(a).realize(), Tensor(b).realize()
    np.testing.assert_array_equal((ta - tb * 2).numpy(), a - b * 2)
    created = lazyarr.stats().schedules_created
    np.testing.assert_array_equal((tb - ta * 2).numpy(), b - a * 2)  # same structure, operands swapped
    np.testing.assert_array_equal((ta - ta * 2).numpy(), a - a * 2)  # one buffer twice: a different structure
    c = Tensor(rng.standard_normal(5).astype(np.float32)).realize()
    np.testing.assert_array_equal((c - ta * 2).numpy(), c.numpy() - a * 2)
    assert lazyarr.stats().schedules_created == created + 1


def test_split_launches_cover_every_chunk_exactly_once() -> None:
    from lazyarr.kernels import runtime_numba

    x = np.arange(1001, dtype=np.float32)
    seen: list[tuple[int, int]] = []

    def fake_kernel(out: np.ndarray, src: np.ndarray, start: int, end: int, n: int) -> None:
        seen.append((start, end))
        out[start:end] = src[start:end] * 2

    out = np.zeros_like(x)
    with lazyarr.Context(NUM_THREADS=3, PARALLEL_MIN=1):
        runtime_numba.launch(fake_kernel, [out, x], [1001], True, 1001, 1001)
    np.testing.assert_array_equal(out, x * 2)
    # little work: one chunk per thread (each chunk is a dispatcher call); covering every element exactly once
    assert sorted(seen)[0][0] == 0 and sorted(seen)[-1][1] == 1001 and len(seen) == 3
    assert all(a[1] == b[0] for a, b in zip(sorted(seen), sorted(seen)[1:]))
    with lazyarr.Context(NUM_THREADS=3, PARALLEL_MIN=1):
        t = Tensor(np.arange(50000, dtype=np.float32)).realize()
        ref = np.sin(np.arange(50000, dtype=np.float32) * 3 + 1)
        np.testing.assert_allclose((t * 3 + 1).sin().numpy(), ref, rtol=0, atol=2e-7)
