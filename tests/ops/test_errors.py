"""Bad input gets NumPy's error type with a message naming the shapes/dtypes involved, and is caught before any
kernel runs: non-broadcastable shapes, invalid reshapes, axes out of range (lazyarr.AxisError, both a ValueError and
an IndexError), indices out of range (also inside integer-array indexing), unsupported dtypes, non-numeric objects
and ragged lists."""

import operator

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import kernel_count

X = np.zeros((3, 4), np.float32)


def _t() -> Tensor:
    return Tensor(X).realize()


@pytest.mark.parametrize(
    "fn,match",
    [
        (lambda t: t + Tensor(np.zeros(5)), r"\(3, 4\) \(5,\)"),
        (lambda t: t * np.zeros((2, 4)), r"\(3, 4\) \(2, 4\)"),
        (lambda t: t.where(Tensor(np.zeros(5)), 1), r"\(5,\)"),
        (lambda t: t.maximum(Tensor(np.zeros((4, 4)))), r"\(4, 4\)"),
        (lambda t: t.expand(4, 4), r"\(3, 4\).*\(4, 4\)"),
        (lambda t: t.broadcast_to((4,)), r"\(3, 4\)"),
        (lambda t: t @ t, r"size 3 is different from 4"),
        (lambda t: t.cat(Tensor(np.zeros((3, 5)))), r"\(3, 4\) and \(3, 5\)"),
        (lambda t: t.stack(Tensor(np.zeros((4, 3)))), r"\(3, 4\) and \(4, 3\)"),
    ],
)
def test_non_broadcastable_shapes(fn, match: str) -> None:
    with kernel_count(0), pytest.raises(ValueError, match=match):
        fn(_t())


def test_numpy_agrees_on_broadcast_errors() -> None:
    with pytest.raises(ValueError):
        X + np.zeros(5)
    with pytest.raises(ValueError):
        X @ X


@pytest.mark.parametrize("shape", [(5, 3), (-1, 5), (13,), (2, -1, -1), (0, -1)])
def test_invalid_reshape(shape) -> None:
    with pytest.raises(ValueError):
        X.reshape(shape)
    with kernel_count(0), pytest.raises(ValueError, match="12|unknown dimension|negative"):
        _t().reshape(shape)


AXIS_CALLS = {
    "sum": lambda t: t.sum(2),
    "sum_tuple": lambda t: t.sum((0, -3)),
    "max": lambda t: t.max(-3),
    "mean": lambda t: t.mean(2),
    "argmax": lambda t: t.argmax(5),
    "softmax": lambda t: t.softmax(2),
    "cumsum": lambda t: t.cumsum(-3),
    "squeeze": lambda t: t.squeeze(2),
    "unsqueeze": lambda t: t.unsqueeze(4),
    "flip": lambda t: t.flip(2),
    "permute": lambda t: t.permute(0, 2),
    "transpose": lambda t: t.transpose(0, 2),
    "cat": lambda t: t.cat(t, dim=2),
    "stack": lambda t: t.stack(t, dim=-4),
    "split": lambda t: t.split(2, dim=3),
    "flatten": lambda t: t.flatten(3),
    "var": lambda t: t.var(-5),
    "any": lambda t: t.any(9),
}


@pytest.mark.parametrize("name", list(AXIS_CALLS))
def test_axis_out_of_range(name: str) -> None:
    with kernel_count(0), pytest.raises(lazyarr.AxisError, match="out of bounds for array of dimension") as info:
        AXIS_CALLS[name](_t())
    assert isinstance(info.value, ValueError) and isinstance(info.value, IndexError)


def test_bad_axis_values() -> None:
    t = _t()
    with pytest.raises(ValueError, match="duplicate"):
        t.sum((0, 0))
    with pytest.raises(ValueError):
        np.sum(X, (0, 0))
    with pytest.raises(TypeError):
        t.sum(1.5)
    with pytest.raises(TypeError):
        np.sum(X, 1.5)
    with pytest.raises(ValueError, match=r"axes \(0, 0\)"):
        t.permute(0, 0)
    with pytest.raises(ValueError, match="size not equal to one"):
        t.squeeze(0)


@pytest.mark.parametrize(
    "idx",
    [3, -4, (0, 4), (slice(None), -5), (0, 0, 0), [0, 3], ([0, 1], [0, 7]), (slice(None), [[-5]]), (Ellipsis, [4])],
)
def test_index_out_of_range(idx) -> None:
    with pytest.raises(IndexError):
        X[idx]
    t = _t()
    with kernel_count(0), pytest.raises(IndexError, match="out of bounds|too many indices"):
        t[idx]


def test_integer_tensor_index_is_checked_before_any_kernel_reads() -> None:
    t = _t()
    bad = Tensor(np.array([0, 2, 9], np.int64)).realize()
    with kernel_count(0), pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 3"):
        t[bad]
    with kernel_count(0), pytest.raises(IndexError, match="index -9 is out of bounds for axis 1 with size 4"):
        t[1:, Tensor(np.array([[-9]], np.int32)).realize()]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Tensor(np.array([1j])),
        lambda: Tensor(np.array(["a"])),
        lambda: Tensor(np.array([object()])),
        lambda: Tensor(np.array(["2020-01-01"], dtype="datetime64[D]")),
        lambda: Tensor([1], dtype="complex64"),
        lambda: Tensor([1], dtype=object),
        lambda: Tensor([1], dtype="U3"),
        lambda: Tensor(X).cast(np.complex128),
        lambda: Tensor.zeros(2, dtype="float128" if hasattr(np, "float128") else "complex128"),
        lambda: Tensor([1], dtype="not a dtype"),
    ],
)
def test_unsupported_dtypes(make) -> None:
    with pytest.raises(TypeError, match="dtype|data type"):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda: Tensor(None),
        lambda: Tensor("abc"),
        lambda: Tensor({1: 2}),
        lambda: Tensor(object()),
        lambda: Tensor([1, None]),
        lambda: Tensor([[1, 2], ["a", 3]]),
        lambda: Tensor(1j),
        lambda: Tensor([1, 2j]),
        lambda: _t() + "a",
        lambda: "a" + _t(),
        lambda: _t() * None,
        lambda: _t() < object(),
        lambda: _t().where("a", 1),
        lambda: _t() & 1,
        lambda: _t().bitwise_not(),
        lambda: -Tensor([True]),
        lambda: Tensor([True]) - True,
        lambda: Tensor([1.5]) << 1,
        lambda: Tensor([True]).sign(),
    ],
)
def test_non_numeric_or_unsupported_operands(make) -> None:
    with pytest.raises(TypeError):
        make()


def test_ragged_lists() -> None:
    for data in ([[1, 2], [3]], [[1], 2], [[[1, 2]], [[3]]]):
        with pytest.raises(ValueError):
            np.array(data)
        with pytest.raises(ValueError, match="ragged"):
            Tensor(data)


def test_other_numpy_errors() -> None:
    t = _t()
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        Tensor(np.zeros(2, np.int8)) + 300
    with pytest.raises(OverflowError):
        np.zeros(2, np.int8) + 300
    with pytest.raises(ValueError, match="zero-size"):
        Tensor(np.zeros((0, 3))).max()
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        Tensor(np.array([2, 3])) ** -1
    with pytest.raises(ValueError):
        np.array([2, 3]) ** -1
    with pytest.raises(ValueError, match="size 1"):
        t.item()
    with pytest.raises(ValueError, match="unknown device"):
        Tensor([1], device="tpu")
    with pytest.raises(ValueError, match="negative dimensions"):
        Tensor.zeros(2, -1)
    with pytest.raises(ValueError):
        t.pad(((1, 1),))
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        t[::0]


def test_flatten_start_after_end_raises() -> None:
    # PyTorch's RuntimeError; it used to insert a new axis of size 1: (3, 4) -> (3, 1, 4)
    with pytest.raises(ValueError, match="start_dim"):
        _t().flatten(1, 0)
    assert _t().flatten(1, 1).shape == (3, 4) and _t().flatten(-2, 1).shape == (12,)


@pytest.mark.parametrize("value", [2**63, 2**64, -(2**63) - 1], ids=str)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "floordiv", "eq", "lt", "and_", "lshift"])
def test_bool_with_a_python_int_beyond_int64(op, value) -> None:
    """A Python int makes a bool operand int64 (NEP 50), so one beyond int64 is NumPy's OverflowError in either
    order; it was wrapped silently: bool + 2**63 gave -2**63, bool == 2**64 was True where False."""
    fn = getattr(operator, op)
    b = np.array([False, True])
    for args in [(b, value), (value, b)]:
        with pytest.raises(OverflowError):
            fn(*args)
        with pytest.raises(OverflowError):
            fn(*[Tensor(a) if a is b else a for a in args])
    np.testing.assert_array_equal((Tensor(b) + 2**62).numpy(), b + 2**62)
