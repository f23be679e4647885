"""Kernel-count tests that pin fusion behaviour, and the schedule cache."""

import numpy as np

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(1)


def arrays(n: int, shape: tuple[int, ...] = (64,)) -> list[np.ndarray]:
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]


def test_elementwise_then_reduce_is_one_kernel() -> None:
    a, b, c, d = arrays(4)
    with kernel_count(1):
        out = ((Tensor(a) * Tensor(b) + Tensor(c)).exp() * 2 - Tensor(d)).sum().realize()
    assert_matches(out, (np.exp(a * b + c) * 2 - d).sum(), rtol=1e-5)


def test_twenty_op_chain_is_one_kernel_fused_and_twenty_unfused() -> None:
    (a,) = arrays(1)
    def chain(x):  # noqa: ANN001, ANN202
        for k in range(10):
            x = x * 0.5 + (k + 1)
        return x
    ref = chain(a)
    with kernel_count(1):
        fused = chain(Tensor(a)).realize()
    with lazyarr.Context(FUSE=0), kernel_count(20):
        unfused = chain(Tensor(a)).realize()
    assert_matches(fused, ref)
    np.testing.assert_array_equal(fused.numpy(), unfused.numpy())  # identical numerics


def test_views_of_realised_tensors_launch_nothing() -> None:
    t = Tensor(np.arange(24, dtype=np.float32)).realize()
    with kernel_count(0):
        v = t.reshape(2, 3, 4).permute(2, 0, 1)[1:, ::2].flip(0).realize()
        values = v.numpy()
    np.testing.assert_array_equal(values, np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(2, 0, 1)[1:, ::2][::-1])


def test_broadcast_after_reduce_and_softmax_are_one_kernel() -> None:
    (x,) = arrays(1, (8, 33))
    t = Tensor(x)
    with kernel_count(1):
        centred = (t - t.max(axis=1, keepdims=True)).realize()
    assert_matches(centred, x - x.max(axis=1, keepdims=True))
    with kernel_count(1):
        sm = t.softmax(1).realize()
    e = np.exp(x - x.max(1, keepdims=True))
    assert_matches(sm, e / e.sum(1, keepdims=True), rtol=1e-5)
    with kernel_count(1):
        t.log_softmax(1).realize()


def test_reduction_with_several_users_is_stored_once() -> None:
    (x,) = arrays(1, (16, 8))
    t = Tensor(x)
    m = t.sum(1)
    with kernel_count(3):  # the sum is stored once, then each consumer reads it
        a, b = m * 2, m + 1
        a.realize(b)
    assert_matches(a, x.sum(1) * 2, rtol=1e-5)
    assert_matches(b, x.sum(1) + 1, rtol=1e-5)


def test_schedule_cache_reuses_structure_on_new_data() -> None:
    (x,) = arrays(1, (5, 7))
    def program(t: Tensor) -> Tensor:
        return (t * 3 + 1).sum(0)
    program(Tensor(x)).realize()
    before = lazyarr.stats().schedules_created
    for _ in range(3):
        y = rng.standard_normal((5, 7)).astype(np.float32)
        assert_matches(program(Tensor(y)).realize(), (y * 3 + 1).sum(0), rtol=1e-5)
    assert lazyarr.stats().schedules_created == before
