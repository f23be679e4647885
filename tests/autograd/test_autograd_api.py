"""The PyTorch-style autograd API: requires_grad, backward, .grad accumulation, detach, no_grad, gradient(), errors."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor

rng = np.random.default_rng(0)
A = rng.standard_normal((2, 3))


def test_requires_grad_argument_property_and_propagation() -> None:
    x = Tensor(A, requires_grad=True)
    y = Tensor(A)
    assert x.requires_grad and not y.requires_grad
    assert (x * y).requires_grad and not (y * 2).requires_grad
    assert x.is_leaf and not (x * 2).is_leaf
    y.requires_grad = True
    assert y.requires_grad
    assert not x.detach().requires_grad
    assert x.requires_grad_(False) is x and not x.requires_grad


def test_grad_accumulates_and_zero_grad_style_reset() -> None:
    x = Tensor(A, requires_grad=True)
    (x * 2).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + 2 * A)
    x.grad = None
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full_like(A, 3))


def test_backward_with_gradient_argument_and_inputs() -> None:
    x = Tensor(A, requires_grad=True)
    w = Tensor(A.T.copy(), requires_grad=True)
    seed = rng.standard_normal((2, 2))
    (x @ w).backward(Tensor(seed), inputs=[x])
    np.testing.assert_allclose(x.grad.numpy(), seed @ A, rtol=1e-12)
    assert w.grad is None
    (x * 2).backward(gradient=1.0)  # a scalar seed broadcasts
    np.testing.assert_allclose(x.grad.numpy(), seed @ A + 2, rtol=1e-12)


def test_errors() -> None:
    x = Tensor(A, requires_grad=True)
    with pytest.raises(ValueError, match="scalar outputs"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="scalar outputs"):  # PyTorch's error type too
        (x * 2).backward()
    with pytest.raises(TypeError, match="floating point"):
        Tensor(np.arange(3), requires_grad=True)
    with pytest.raises(TypeError, match="floating point"):
        Tensor([True, False]).requires_grad = True
    with pytest.raises(TypeError, match="int64"):
        (x.sum() > 0).cast(lazyarr.int64).backward()
    with pytest.raises(TypeError, match="int32"):
        lazyarr.gradient(x.sum(), Tensor(np.arange(3, dtype=np.int32)))
    with pytest.raises(ValueError, match="does not require grad"):
        Tensor(A).sum().backward()
    with pytest.raises(ValueError, match="shape"):
        (x * 2).backward(Tensor(np.ones((3, 2))))


def test_integer_paths_carry_no_gradient() -> None:
    x = Tensor(A, requires_grad=True)
    (x * (x > 0).cast(lazyarr.float64) + x.argmax(1).cast(lazyarr.float64).reshape(2, 1)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), (A > 0).astype(np.float64))


def test_detach_and_no_grad_stop_gradients() -> None:
    x = Tensor(A, requires_grad=True)
    with lazyarr.no_grad():
        y = x * 2
        assert not lazyarr.is_grad_enabled()
        with lazyarr.enable_grad():
            z = x * 3
    assert lazyarr.is_grad_enabled()
    assert not y.requires_grad and z.requires_grad
    (y * x + x.detach() * x + z).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * A + A + 3, rtol=1e-12)

    @lazyarr.no_grad()
    def frozen(t: Tensor) -> Tensor:
        return t * t

    assert not frozen(x).requires_grad


def test_functional_gradient_does_not_touch_grad() -> None:
    x = Tensor(A, requires_grad=True)
    b = Tensor(rng.standard_normal(3))
    unused = Tensor(A)
    gx, gb, gu = lazyarr.gradient((x * b).exp().sum(), x, b, unused)
    np.testing.assert_allclose(gx.numpy(), np.exp(A * b.numpy()) * b.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), (np.exp(A * b.numpy()) * A).sum(0), rtol=1e-12)
    np.testing.assert_array_equal(gu.numpy(), np.zeros_like(A))
    assert x.grad is None


def test_higher_order_with_create_graph() -> None:
    x = Tensor(A, requires_grad=True)
    (gx,) = lazyarr.gradient((x**3).sum(), x)
    (ggx,) = lazyarr.gradient(gx.sum(), x)
    np.testing.assert_allclose(ggx.numpy(), 6 * A, rtol=1e-12)
    (x**3).sum().backward(create_graph=True)
    assert x.grad.requires_grad


def test_backward_after_reading_values() -> None:
    # realising the loss or an intermediate does not cut the graph (PyTorch users print before backward)
    x = Tensor(A, requires_grad=True)
    h = (x * 2).exp()
    h.numpy()
    loss = (h * x).sum()
    assert loss.item() == pytest.approx(float((np.exp(2 * A) * A).sum()))
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp(2 * A) * (2 * A + 1), rtol=1e-12)


def test_leaf_from_a_constant_gets_its_own_storage() -> None:
    # Tensor.zeros(...) is a shared constant until it gets storage: a gradient must reach only this leaf
    w = Tensor.zeros(3, dtype=lazyarr.float64).requires_grad_()
    other = Tensor.zeros(3, dtype=lazyarr.float64)
    ((w + other + 1) ** 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 2.0))


def test_zero_size_and_float16() -> None:
    x = Tensor(np.zeros((0, 3)), requires_grad=True)
    (x * 2).sum().backward()
    assert x.grad.shape == (0, 3)
    h = Tensor(np.array([0.5, 1.5], np.float16), requires_grad=True)
    (h * h).sum().backward()
    assert h.grad.dtype == lazyarr.float16
    np.testing.assert_allclose(h.grad.numpy(), [1.0, 3.0])


def _numeric_grad(fn, a: np.ndarray, w: np.ndarray, eps: float = 1e-6) -> np.ndarray:  # noqa: ANN001
    """Central differences of sum(fn(a) * w) in float64."""
    out = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[i] += eps
        lo[i] -= eps
        out[i] = ((fn(Tensor(hi)).numpy() - fn(Tensor(lo)).numpy()) * w).sum() / (2 * eps)
    return out


def _write_basic(x: Tensor) -> Tensor:
    y = x * 2
    y[0, 1:] = x[1, :2].exp()  # the old contents survive outside the write: their gradient reaches x
    return y


def _write_through_views(x: Tensor) -> Tensor:
    y = x.exp()
    y.T[::-2] *= x.T[:2]  # a write through a transposed, negatively strided view
    y.reshape(3, 2)[1:] += y.reshape(3, 2)[:2]
    return y


def _write_scatter_repeated(x: Tensor) -> Tensor:
    y = (x * 3).realize()
    y[[0, 1, 0], [2, 0, 2]] = x[1] * x[0]  # (0, 2) is written twice: only the last value reaches the result
    return y


@pytest.mark.parametrize("fn", [_write_basic, _write_through_views, _write_scatter_repeated])
def test_gradient_through_partial_writes(fn) -> None:  # noqa: ANN001
    # used to raise AssertionError (shape mismatch in the ASSIGN rule) or lose the old contents' gradient
    w = rng.standard_normal((2, 3))
    x = Tensor(A, requires_grad=True)
    (fn(x) * Tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _numeric_grad(fn, A, w), rtol=1e-6, atol=1e-8)


def test_gradients_through_and_of_realised_values() -> None:
    x = Tensor(A, requires_grad=True)
    y = x * x
    y.numpy()
    loss = (y * 2).sum()  # reaches x only through the realised y
    loss.item()
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), 4 * A, rtol=1e-12)
    (gy, gx) = lazyarr.gradient(loss, y, x)  # a realised intermediate is a target of its own
    np.testing.assert_allclose(gy.numpy(), np.full_like(A, 2.0), rtol=1e-12)
    np.testing.assert_allclose(gx.numpy(), 4 * A, rtol=1e-12)


def test_views_made_under_no_grad_and_integer_paths_do_not_require_grad() -> None:
    x = Tensor(A, requires_grad=True)
    with lazyarr.no_grad():
        v = x[:, 1:].T
    assert not v.requires_grad and not x.int().float().requires_grad
    (x * v.T.sum()).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full_like(A, A[:, 1:].sum()), rtol=1e-12)
    with lazyarr.no_grad():
        v[0] = 0.0  # still a view: the write reaches x
    np.testing.assert_array_equal(x.numpy()[:, 1], [0.0, 0.0])
