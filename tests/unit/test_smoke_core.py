"""End-to-end smoke tests of the core slice: graph -> schedule -> Numba kernel -> values, and kernel counts."""

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(0)
A = rng.standard_normal((3, 5)).astype(np.float32)
B = rng.standard_normal((3, 5)).astype(np.float32)
C = rng.standard_normal((2, 3, 4)).astype(np.float32)

CASES = {
    "add": (lambda a, b: a + b, A, B),
    "broadcast_row": (lambda a, b: a - b[0], A, B),
    "transposed": (lambda a, b: a.T * b.T, A, B),
    "negative_strides": (lambda a, b: a[::-1, ::2].sum(1), A, B),
    "step3": (lambda a, b: a[:, ::3] + 1, A, B),
    "sum_axes": (lambda a, b: a.sum((0, 2)), C, C),
    "max_axis": (lambda a, b: a.max(1), A, B),
    "broadcast_after_reduce": (lambda a, b: a - a.max(1, keepdims=True), A, B),
    "var": (lambda a, b: a.var(1), A, B),
    "matmul": (lambda a, b: a @ b.T, A, B),
    "reshape_of_transpose": (lambda a, b: (a + b).T.reshape(15) * 2, A, B),
    "argmax": (lambda a, b: a.argmax(1), A, B),
    "cumsum": (lambda a, b: a.cumsum(1), A, B),
    "fancy": (lambda a, b: a[[2, 0, -1], 1:], A, B),
    "mask": (lambda a, b: a[a > 0], A, B),
    "int_floor_ops": (lambda a, b: (a // 3) + (a % -4), np.arange(-6, 9).reshape(3, 5).astype(np.int32), B),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy(name: str) -> None:
    fn, a, b = CASES[name]
    assert_matches(fn(Tensor(a), Tensor(b)), fn(a, b), check_dtype=name not in ("argmax",))


def test_softmax_is_one_kernel() -> None:
    x = Tensor(A)
    with kernel_count(1):
        out = x.softmax(1).numpy()
    e = np.exp(A - A.max(1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(1, keepdims=True), rtol=1e-5)


def test_elementwise_chain_then_sum_is_one_kernel() -> None:
    a, b, c, d = (Tensor(rng.standard_normal(64).astype(np.float32)) for _ in range(4))
    with kernel_count(1):
        ((a * b + c).exp() * 2 - d).sum().realize()


def test_fuse_off_is_one_kernel_per_op() -> None:
    x = Tensor(A)
    y = x
    for _ in range(20):
        y = y + 0.25
    with lazyarr.Context(FUSE=0), kernel_count(20):
        y.realize()


def test_integer_power_passes_the_verifier() -> None:
    # regression: POW was listed as float-only, so int ** int failed graph verification though ipow renders it
    a = np.arange(-3, 5, dtype=np.int32)
    assert_matches(Tensor(a) ** Tensor(np.full(8, 3, np.int32)), a**3)


def test_reduction_then_elementwise_then_reshape_root_is_one_kernel() -> None:
    # regression: the root's own reshape (dropping keepdims axes) was pushed below the division, splitting it from
    # the reduction into a second kernel
    x = Tensor(A)
    with kernel_count(1):
        out = (x.exp().sum(axis=1, keepdims=True) / 5).reshape(3).numpy()
    np.testing.assert_allclose(out, np.exp(A).sum(1) / 5, rtol=1e-5)


def test_deep_graph_rewrite_does_not_hit_the_recursion_limit() -> None:
    # regression: pushing a movement op through a long elementwise chain recursed once per level in graph_rewrite
    y = Tensor(A)
    for _ in range(200):
        y = y * 1.0001 + 0.001
    with lazyarr.Context(NULL=1), kernel_count(1):  # schedule and render only: compiling 400 ops is slow
        y[1:, ::2].realize()


def test_zero_dim_constant_to_numpy_keeps_shape() -> None:
    # regression: a 0-d constant tensor came back from numpy() with shape (1,)
    for value in (1.5, 2, True, np.float32(-0.5)):
        out = Tensor(value).numpy()
        assert out.shape == () and out == np.asarray(value)
