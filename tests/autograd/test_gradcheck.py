"""Every differentiable primitive's gradient rule against central finite differences (float64) of the NumPy function,
through the Tensor methods that build it; broadcasting, reductions over several axes and non-contiguous inputs."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from lazyarr import Tensor
from lazyarr.graph.autograd import GRADIENT_RULES, NO_GRADIENT
from lazyarr.graph.ops import Ops

rng = np.random.default_rng(0)
np_erf = np.vectorize(math.erf)


def numeric_grad(f: Callable[..., np.ndarray], arrays: list[np.ndarray], w: np.ndarray, i: int,
                 h: float = 1e-6) -> np.ndarray:
    """d/d arrays[i] of sum(f(*arrays) * w), by central differences."""
    out = np.zeros_like(arrays[i])
    for k in range(arrays[i].size):
        args_p = [a.copy() for a in arrays]
        args_m = [a.copy() for a in arrays]
        args_p[i].flat[k] += h
        args_m[i].flat[k] -= h
        out.flat[k] = ((f(*args_p) * w).sum() - (f(*args_m) * w).sum()) / (2 * h)
    return out


def check_grad(fn: Callable[..., Tensor], ref: Callable[..., np.ndarray], *arrays: np.ndarray,
               rtol: float = 1e-6, atol: float = 1e-7, views: Callable[[Tensor], Tensor] | None = None) -> None:
    """Gradients of sum(fn(*tensors) * w) match finite differences of sum(ref(*arrays) * w) for a random w."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    leaves = [Tensor(a, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    expected = np.asarray(ref(*arrays))
    assert out.shape == expected.shape, f"forward shape {out.shape} != {expected.shape}"
    w = rng.standard_normal(expected.shape)
    (out * Tensor(w)).sum().backward()
    Tensor.realize(*[t.grad for t in leaves])
    for i, t in enumerate(leaves):
        assert t.grad is not None and t.grad.shape == t.shape
        np.testing.assert_allclose(t.grad.numpy(), numeric_grad(ref, arrays, w, i), rtol=rtol, atol=atol,
                                   err_msg=f"gradient of operand {i}")


X = rng.uniform(0.2, 0.9, (3, 4))  # inside every unary op's domain, away from kinks

UNARY: dict[str, tuple[Callable[[Tensor], Tensor], Callable[[np.ndarray], np.ndarray]]] = {
    "neg": (lambda t: -t, np.negative),
    "abs": (lambda t: (t - 0.5).abs(), lambda a: np.abs(a - 0.5)),
    "sqrt": (Tensor.sqrt, np.sqrt),
    "reciprocal": (Tensor.reciprocal, np.reciprocal),
    "exp": (Tensor.exp, np.exp),
    "exp2": (Tensor.exp2, np.exp2),
    "log": (Tensor.log, np.log),
    "log2": (Tensor.log2, np.log2),
    "log1p": (Tensor.log1p, np.log1p),
    "expm1": (Tensor.expm1, np.expm1),
    "sin": (lambda t: (t * 3).sin(), lambda a: np.sin(a * 3)),
    "cos": (lambda t: (t * 3).cos(), lambda a: np.cos(a * 3)),
    "tan": (Tensor.tan, np.tan),
    "tanh": (lambda t: (t * 2 - 1).tanh(), lambda a: np.tanh(a * 2 - 1)),
    "erf": (lambda t: (t * 2 - 1).erf(), lambda a: np_erf(a * 2 - 1)),
    "cast": (lambda t: t.float().double() * 1.5, lambda a: a * 1.5),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary(name: str) -> None:
    fn, ref = UNARY[name]
    check_grad(fn, ref, X, rtol=1e-5 if name in ("cast",) else 1e-6)


def test_rounding_has_zero_gradient() -> None:
    x = Tensor(X * 5, requires_grad=True)
    ((x.floor() + x.ceil() + x.trunc() + x.round()) * 2 + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones_like(X))
    y = Tensor(X, requires_grad=True)
    (y.floor() + y // 2).sum().backward()  # only through rounding: zeros, as in PyTorch (not an error)
    np.testing.assert_array_equal(y.grad.numpy(), np.zeros_like(X))


A = rng.uniform(0.5, 1.5, (2, 3))
B = rng.uniform(0.5, 1.5, (2, 3))

BINARY: dict[str, tuple[Callable[..., Tensor], Callable[..., np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "add": (lambda a, b: a + b, np.add, (A, B)),
    "sub": (lambda a, b: a - b, np.subtract, (A, B)),
    "mul": (lambda a, b: a * b, np.multiply, (A, B)),
    "div": (lambda a, b: a / b, np.divide, (A, B)),
    "pow": (lambda a, b: a**b, np.power, (A, B)),
    "maximum": (Tensor.maximum, np.maximum, (A, B)),
    "minimum": (Tensor.minimum, np.minimum, (A, B)),
    "mod": (lambda a, b: a % b, np.mod, (A * 3, B)),
    # broadcasting: the broadcast operand's gradient is summed back over the expanded axes
    "broadcast_mul": (lambda a, b: a * b, np.multiply, (rng.standard_normal((3, 1, 4)), rng.standard_normal((2, 4)))),
    "broadcast_sub": (lambda a, b: a - b, np.subtract, (rng.standard_normal((4,)), rng.standard_normal((3, 4)))),
}


@pytest.mark.parametrize("name", list(BINARY))
def test_binary(name: str) -> None:
    fn, ref, (a, b) = BINARY[name]
    check_grad(fn, ref, a, b)


def test_where() -> None:
    cond = rng.standard_normal((3, 4)) > 0
    check_grad(lambda a, b: Tensor(cond).where(a, b), lambda a, b: np.where(cond, a, b), X, X + 1)


C = rng.standard_normal((2, 3, 4))

REDUCE: dict[str, tuple[Callable[[Tensor], Tensor], Callable[[np.ndarray], np.ndarray], np.ndarray]] = {
    "sum_axes_0_2": (lambda t: t.sum((0, 2)), lambda a: a.sum((0, 2)), C),
    "max_axes_1_2": (lambda t: t.max((1, 2)), lambda a: a.max((1, 2)), C),
    "min_axis_0": (lambda t: t.min(0), lambda a: a.min(0), C),
    "prod_axis_2": (lambda t: t.prod(2), lambda a: a.prod(2), C),
    "var_axes": (lambda t: t.var((0, 2)), lambda a: a.var((0, 2)), C),
    "logsumexp": (lambda t: t.logsumexp(1), lambda a: np.log(np.exp(a).sum(1)), C),
    "matmul": (lambda t: t @ t.transpose(1, 2), lambda a: a @ a.transpose(0, 2, 1), C),
}


@pytest.mark.parametrize("name", list(REDUCE))
def test_reduce(name: str) -> None:
    fn, ref, x = REDUCE[name]
    check_grad(fn, ref, x)


def test_prod_with_zeros() -> None:
    # one zero in a row: only that element gets a gradient; two zeros: none does
    x = np.array([[2.0, 0.0, 3.0, 4.0], [0.0, 5.0, 0.0, 1.0], [1.5, 2.0, 0.5, 3.0]])
    check_grad(lambda t: t.prod(1), lambda a: a.prod(1), x)


MOVE: dict[str, tuple[Callable[[Tensor], Tensor], Callable[[np.ndarray], np.ndarray], np.ndarray]] = {
    "reshape_permute": (lambda t: t.reshape(4, 6).T.reshape(2, 2, 6).permute(2, 0, 1),
                        lambda a: a.reshape(4, 6).T.reshape(2, 2, 6).transpose(2, 0, 1), C),
    "expand": (lambda t: t[:, None].expand(2, 5, 3, 4) * 1.0, lambda a: np.broadcast_to(a[:, None], (2, 5, 3, 4)), C),
    "slices_non_contiguous": (lambda t: t.permute(2, 0, 1)[::2, :, 1:][..., ::-1],
                              lambda a: a.transpose(2, 0, 1)[::2, :, 1:][..., ::-1], C),
    "stride": (lambda t: t[::2, 1::2, ::3], lambda a: a[::2, 1::2, ::3], rng.standard_normal((3, 5, 7))),
    "pad_value": (lambda t: t.pad(((0, 1), (1, 1), (0, 0)), value=2.0),
                  lambda a: np.pad(a, ((0, 1), (1, 1), (0, 0)), constant_values=2.0), C),
    "flip": (lambda t: t.flip((0, 2)), lambda a: np.flip(a, (0, 2)), C),
    "gather_2d": (lambda t: t[:, [2, 0, 2], [1, 3, 3]], lambda a: a[:, [2, 0, 2], [1, 3, 3]], C),
    "contiguous": (lambda t: t.T.contiguous() * 2, lambda a: a.T * 2, C),
}


@pytest.mark.parametrize("name", list(MOVE))
def test_movement(name: str) -> None:
    fn, ref, x = MOVE[name]
    check_grad(fn, ref, x)


def test_non_contiguous_leaf_view_gets_its_own_shape() -> None:
    # the leaf itself is a non-contiguous view of a buffer
    base = rng.standard_normal((4, 6))
    x = Tensor(base).T[1:5:2]
    x.requires_grad = True
    (x.exp() * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.exp(base.T[1:5:2]), rtol=1e-12)


def test_every_op_has_a_gradient_rule_or_none() -> None:
    # a new primitive must get a gradient rule (or be declared non-differentiable) here
    leaves_and_effects = {Ops.BUFFER, Ops.CONST, Ops.IOTA, Ops.PARAM, Ops.COPY}
    missing = [op.name for op in Ops if op not in GRADIENT_RULES and op not in NO_GRADIENT
               and op not in leaves_and_effects]
    assert not missing, f"ops without a gradient rule: {missing}"


def test_gradients_of_numpy_inverse_trig_composites_have_no_nan():
    # np.arctan / np.arcsinh / np.arctan2 on Tensors are where() composites: the branch a where() drops must not turn
    # the gradient into NaN (0 * inf), and the slope at 0 is the function's own (abs' is 0 there)
    x = np.array([0.0, -0.0, 0.3, -0.7, 1.0, -2.5, 40.0, 3e8, -1e200])
    t = Tensor(x, requires_grad=True)
    (np.arctan(t) + np.arcsinh(t)).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), 1 / (1 + x * x) + 1 / np.hypot(1, x), rtol=1e-12, atol=1e-300)
    # arctan2 with one operand a signed zero too (PyTorch's gradient there; arcsin and arccos at 0 go through these)
    y, xs = np.array([0.5, -3.0, 1e-3, 2.0, -7.0, 0.0, -0.0, 0.0, 1.5, -2.0]), \
        np.array([2.0, 0.25, -4.0, -1e-3, -7.0, 3.0, 3.0, -0.5, 0.0, -0.0])
    ty, tx = Tensor(y, requires_grad=True), Tensor(xs, requires_grad=True)
    np.arctan2(ty, tx).sum().backward()
    r2 = xs * xs + y * y
    np.testing.assert_allclose(ty.grad.numpy(), xs / r2, rtol=1e-12)
    np.testing.assert_allclose(tx.grad.numpy(), -y / r2, rtol=1e-12)
    for fn, slope in ((np.arcsin, 1.0), (np.arccos, -1.0)):
        z = Tensor(np.zeros(2), requires_grad=True)
        fn(z).sum().backward()
        np.testing.assert_allclose(z.grad.numpy(), [slope, slope], rtol=1e-12)
