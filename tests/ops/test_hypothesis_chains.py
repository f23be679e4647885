"""Random programs: chains of 1-8 ops (elementwise, broadcasting, reductions, movement, casts) on random shapes and
dtypes, run in lazyarr (fused) and in NumPy, compared. The NumPy side applies lazyarr's documented dtype rules (float
ops on integers compute in float32) so both compute the same thing."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazyarr import Tensor
from tests.helpers import assert_matches

DTYPES = ["float32", "float64", "int32", "int64", "bool"]


def _floatify(a: np.ndarray, t: Tensor) -> tuple[np.ndarray, Tensor]:
    """Both sides as floats (integers and bools become float32, lazyarr's rule for float ops)."""
    if a.dtype.kind == "f":
        return a, t
    return a.astype(np.float32), t.float()


def _numeric(a: np.ndarray, t: Tensor) -> tuple[np.ndarray, Tensor]:
    """Bools become int32 (for ops NumPy does not define on bool, like subtraction)."""
    return (a.astype(np.int32), t.int()) if a.dtype == np.bool_ else (a, t)


def _random_operand(draw, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """An array of a shape that broadcasts with `shape` (some dims 1, maybe fewer dims)."""
    drop = draw(st.integers(0, len(shape)))
    sub = tuple(1 if draw(st.booleans()) else s for s in shape[drop:])
    return _values(draw, sub, dtype)


def _values(draw, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-5, 6, shape).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


def op_unary(draw, a, t):
    name = draw(st.sampled_from(["neg", "abs", "tanh", "sin", "sqrt_abs", "floor", "square"]))
    if name == "neg":
        a, t = _numeric(a, t)
        return -a, -t
    if name == "abs":
        return np.abs(a), t.abs()
    if name == "square":
        a, t = _numeric(a, t)
        return np.square(a), t.square()
    if name == "floor":
        return np.floor(a) if a.dtype.kind == "f" else a, t.floor()
    a, t = _floatify(a, t)
    if name == "sqrt_abs":
        return np.sqrt(np.abs(a)), t.abs().sqrt()
    return getattr(np, name)(a), getattr(t, name)()


def op_binary(draw, a, t):
    dtype = draw(st.sampled_from(DTYPES))
    b = _random_operand(draw, a.shape, dtype)
    u = Tensor(b)
    if draw(st.booleans()):  # the other operand is a non-contiguous (negative-stride) view half of the time
        u = Tensor(np.flip(b).copy()).flip()
    name = draw(st.sampled_from(["add", "mul", "sub", "maximum", "lt", "where"]))
    if name == "where":
        return np.where(a > 0, a, b) if np.result_type(a, b).kind != "b" else np.where(a, a, b), (t > 0).where(
            t, u
        ) if np.result_type(a, b).kind != "b" else t.where(t, u)
    if name in ("sub", "add", "mul") and np.result_type(a, b) == np.bool_:
        a, t = _numeric(a, t)
    if name == "lt":
        return a < b, t < u
    if name == "maximum":
        return np.maximum(a, b), t.maximum(u)
    return getattr(np, {"add": "add", "mul": "multiply", "sub": "subtract"}[name])(a, b), {
        "add": t.__add__,
        "mul": t.__mul__,
        "sub": t.__sub__,
    }[name](u)


def op_scalar(draw, a, t):
    scalar = draw(st.sampled_from([2, -1, 0.5, 3]))
    a, t = _numeric(a, t)
    if isinstance(scalar, float):
        a, t = _floatify(a, t)
    name = draw(st.sampled_from(["add", "mul", "rsub"]))
    if name == "add":
        return a + scalar, t + scalar
    if name == "mul":
        return a * scalar, t * scalar
    return scalar - a, scalar - t


def op_reduce(draw, a, t):
    if a.ndim == 0 or a.size == 0:
        return a, t
    axis = draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    keepdims = draw(st.booleans())
    name = draw(st.sampled_from(["sum", "max", "mean"]))
    if name == "sum":
        return np.sum(a, axis=axis, keepdims=keepdims), t.sum(axis, keepdims=keepdims)
    if name == "max":
        return np.max(a, axis=axis, keepdims=keepdims), t.max(axis, keepdims=keepdims)
    a, t = _floatify(a, t)
    return np.mean(a, axis=axis, keepdims=keepdims), t.mean(axis, keepdims=keepdims)


def op_movement(draw, a, t):
    name = draw(st.sampled_from(["T", "reshape", "flip", "step", "reverse", "unsqueeze", "pad", "expand"]))
    if name == "T":
        return a.T, t.T
    if name == "reshape":
        return a.reshape(-1), t.reshape(-1)
    if name == "unsqueeze":
        return a[None], t.unsqueeze(0)
    if a.ndim == 0:
        return a, t
    axis = draw(st.integers(0, a.ndim - 1))
    index = tuple(slice(None, None, 2) if d == axis else slice(None) for d in range(a.ndim))
    if name == "flip":
        return np.flip(a, axis), t.flip(axis)
    if name == "step":
        return a[index], t[index]
    if name == "reverse":
        index = tuple(slice(None, None, -1) if d == axis else slice(None) for d in range(a.ndim))
        return a[index], t[index]
    if name == "pad":
        pads = tuple((1, 2) if d == axis else (0, 0) for d in range(a.ndim))
        return np.pad(a, pads), t.pad(pads)
    shape = (2, *a.shape)
    return np.broadcast_to(a, shape), t.expand(shape)


def op_cast(draw, a, t):
    dtype = draw(st.sampled_from(DTYPES))
    if a.dtype.kind == "f" and dtype.startswith("int"):
        a, t = np.clip(a, -1e6, 1e6), t.clip(-1e6, 1e6)  # NumPy leaves out-of-range float->int undefined
    return a.astype(dtype), t.cast(dtype)


OPS = [op_unary, op_binary, op_scalar, op_reduce, op_movement, op_cast]


# hypothesis's failure report imports mypy_extensions, whose DeprecationWarning must not hide the failure
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_op_chains_match_numpy(data) -> None:
    draw = data.draw
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(1, 4)) for _ in range(ndim))
    dtype = draw(st.sampled_from(DTYPES))
    a = _values(draw, shape, dtype)
    t = Tensor(a)
    steps = []
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(OPS))
        with np.errstate(all="ignore"):
            a, t = op(draw, a, t)
        a = np.asarray(a)
        steps.append((op.__name__, a.dtype.name, a.shape))
        assert t.shape == a.shape, steps
        assert t.dtype.name == a.dtype.name, steps
    tol = 1e-4 if a.dtype == np.float32 else 1e-10
    try:
        assert_matches(t, a, rtol=tol, atol=tol)
    except AssertionError as e:
        raise AssertionError(f"chain {steps}: {e}") from None
