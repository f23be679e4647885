"""The host buffer pool: storage of dead buffers is reused by later outputs, never while anything still reads it."""

from __future__ import annotations

import gc

import numpy as np

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels.device import Buffer, host_pool
from tests.helpers import assert_matches

N = 1 << 14  # 64 KiB of float32: the smallest size the pool keeps


def _data(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(N).astype(np.float32)


def test_loop_reuses_storage_and_keeps_values() -> None:
    xs, ys = _data(0), _data(1)
    x, y = Tensor(xs), Tensor(ys)
    before = host_pool.reused
    for _ in range(6):
        x = (x * 0.5 + y).realize()
        xs = xs * np.float32(0.5) + ys
    assert_matches(x, xs)
    assert host_pool.reused > before


def test_zero_copy_views_keep_their_storage() -> None:
    a, b = _data(2), _data(3)
    ta, tb = Tensor(a), Tensor(b)
    t = (ta + tb).realize()
    view = np.asarray(t, copy=False)  # a read-only view of t's storage
    dl = np.from_dlpack(ta * tb)  # a DLPack view of a realised result nobody else holds
    expected = view.copy()
    del t
    gc.collect()
    for k in range(4):  # new outputs of the same size while the views live
        (ta * float(k) - tb).realize()
    np.testing.assert_array_equal(view, expected)
    np.testing.assert_array_equal(dl, a * b)


def test_autograd_saved_values_survive() -> None:
    xs = _data(4)
    x = Tensor(xs, requires_grad=True)
    loss = ((x * x).exp() * x.sin()).sum()
    for k in range(4):
        (Tensor(_data(10 + k)) * 3.0).realize()
    loss.backward()
    x64 = xs.astype(np.float64)
    ref = np.exp(x64 * x64) * (2 * x64 * np.sin(x64) + np.cos(x64))
    assert_matches(x.grad, ref.astype(np.float32), rtol=1e-4, atol=1e-4)


def test_only_own_storage_is_pooled_and_the_pool_is_bounded() -> None:
    user = _data(5)
    buf = Buffer.from_numpy(user, lazyarr.float32)  # a view of the caller's array: never pooled
    del buf
    assert all(a.base is not user and a is not user for arrays in host_pool.free.values() for a in arrays.values())
    with lazyarr.Context(POOL_BYTES=3 * N * 4):
        bufs = [Buffer(N + k, lazyarr.float32) for k in range(6)]
        for b in bufs:
            b.array  # noqa: B018  (allocate)
        del bufs, b
        assert 2 * N * 4 < host_pool.nbytes <= 3 * N * 4
    host_pool.clear()
    assert host_pool.nbytes == 0
