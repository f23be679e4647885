"""`assign` and the in-place operators against NumPy: values, broadcasting, dtype/device rules, buffer identity,
storage-less targets, zero-size targets, and kernel counts."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from lazyarr import Tensor
from lazyarr.graph.schedule import strip_movement
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(3)
F = rng.standard_normal((3, 4)).astype(np.float32)
INTS = rng.integers(-20, 20, (3, 4)).astype(np.int32)
B = rng.integers(0, 2, (3, 4)).astype(bool)
DATA = {"float32": F, "int32": INTS, "bool": B}


def _buffer(t: Tensor):
    return strip_movement(t.uop)[1].arg


def _target(a: np.ndarray, realized: bool) -> Tensor:
    t = Tensor(a.copy())
    return t.realize() if realized else t.clone()  # an unrealised clone has no storage yet


@pytest.mark.parametrize("realized", [True, False])
@pytest.mark.parametrize("dtype", list(DATA))
def test_assign_tensor_scalar_list_and_broadcast(dtype: str, realized: bool) -> None:
    a = DATA[dtype]
    row = a[::-1][0].copy()
    for value, ref in [(Tensor(a[::-1].copy()), a[::-1]), (Tensor(row), np.broadcast_to(row, a.shape)),
                       (row.tolist(), np.broadcast_to(row, a.shape)), (a.flat[5].item(), np.full(a.shape, a.flat[5]))]:
        t = _target(a, realized)
        assert t.assign(value) is t
        assert_matches(t, ref.astype(a.dtype))


def test_assign_keeps_buffer_identity_and_views_see_it() -> None:
    x = Tensor(F.copy()).realize()
    buf = _buffer(x)
    v = x[1:, ::2]
    x.assign(x * 2).realize()
    assert _buffer(x) is buf and _buffer(v) is buf
    assert_matches(v, (F * 2)[1:, ::2])
    for _ in range(3):
        x.assign(x + 1)
    x.realize()
    assert _buffer(x) is buf
    assert_matches(x, F * 2 + 3)


def test_assign_errors_name_both_dtypes() -> None:
    x = Tensor(INTS.copy())
    with pytest.raises(TypeError, match="float32.*int32"):
        x.assign(Tensor(F))
    with pytest.raises(TypeError, match="float64.*int32"):
        x.assign(F.astype(np.float64))
    with pytest.raises(ValueError, match="broadcast"):
        x.assign(Tensor(np.zeros((2, 4), np.int32)))
    with pytest.raises(OverflowError):
        Tensor(np.zeros(2, np.int8)).assign(300)
    assert_matches(x, INTS)  # nothing was written


def test_python_scalars_are_weak() -> None:
    h = Tensor(np.zeros(3, np.float16)).assign(2.5)
    assert_matches(h, np.full(3, 2.5, np.float16))
    i = Tensor(np.zeros(3, np.int8)).assign(-7)
    assert_matches(i, np.full(3, -7, np.int8))


def test_self_assign_is_a_no_op() -> None:
    x = Tensor(F.copy()).realize()
    u = x.uop
    with kernel_count(0):
        x.assign(x)
        x[...] = x
        x[1:] = x[1:]
        x.realize()
    assert x.uop is u


def test_assign_to_tensor_without_storage_initialises_it() -> None:
    y = Tensor(F) + 1  # lazy: no storage, so the pending value is dead and never computed
    y.assign(Tensor(INTS).float())
    with kernel_count(1):
        y.realize()
    assert_matches(y, INTS.astype(np.float32))
    y.assign(y * 2).realize()
    assert_matches(y, INTS.astype(np.float32) * 2)
    z = Tensor.zeros(3, 4)
    z[1] = 5.0
    ref = np.zeros((3, 4), np.float32)
    ref[1] = 5
    assert_matches(z, ref)


def test_zero_size_targets_launch_nothing() -> None:
    x = Tensor(np.zeros((0, 3), np.float32))
    with kernel_count(0):
        x.assign(1.0)
        x[:] = 2.0
        x += 1
        x.realize()
    y = Tensor(F.copy()).realize()
    with kernel_count(0):
        y[2:2] = 7.0
        y[[]] = 7.0
        y.realize()
    assert_matches(y, F)


IOPS = {
    "iadd": operator.iadd, "isub": operator.isub, "imul": operator.imul, "itruediv": operator.itruediv,
    "ifloordiv": operator.ifloordiv, "imod": operator.imod, "ipow": operator.ipow, "iand": operator.iand,
    "ior": operator.ior, "ixor": operator.ixor, "ilshift": operator.ilshift, "irshift": operator.irshift,
}
FLOAT_OPS = ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow"]
INT_OPS = ["iadd", "isub", "imul", "ifloordiv", "imod", "iand", "ior", "ixor", "ilshift", "irshift"]


@pytest.mark.parametrize("name", FLOAT_OPS)
def test_inplace_operators_float(name: str) -> None:
    op = IOPS[name]
    a, b = np.abs(F) + 0.5, (np.abs(F[0]) + 0.25).astype(np.float32)
    x = Tensor(a.copy()).realize()
    buf = _buffer(x)
    y = x
    y = op(y, Tensor(b))
    assert y is x and _buffer(x.realize()) is buf
    ref = a.copy()
    assert_matches(x, op(ref, b), rtol=1e-5)


@pytest.mark.parametrize("name", INT_OPS)
def test_inplace_operators_int(name: str) -> None:
    op = IOPS[name]
    a, b = INTS.copy(), (np.abs(INTS[0]) % 5 + 1).astype(np.int32)
    x = Tensor(a.copy())
    op(x, Tensor(b))
    ref = a.copy()
    assert_matches(x, op(ref, b))
    x = Tensor(a.copy()).realize()
    op(x, 3)
    assert_matches(x, op(a.copy(), 3))


@pytest.mark.parametrize("name", ["iand", "ior", "ixor"])
def test_inplace_operators_bool(name: str) -> None:
    op = IOPS[name]
    x = Tensor(B.copy())
    op(x, Tensor(B[::-1].copy()))
    assert_matches(x, op(B.copy(), B[::-1]))


def test_inplace_matmul() -> None:
    a, b = F[:, :3].copy(), rng.standard_normal((3, 3)).astype(np.float32)
    x = Tensor(a.copy()).realize()
    x @= Tensor(b)
    assert_matches(x, a @ b, rtol=1e-5)
    with pytest.raises(ValueError, match="non-broadcastable"):
        x @= Tensor(F)


def test_inplace_casting_follows_numpy_same_kind() -> None:
    x = Tensor(INTS.copy())
    with pytest.raises(TypeError, match="same_kind"):
        x += 1.5
    with pytest.raises(TypeError, match="same_kind"):
        x /= 2
    with pytest.raises(TypeError):
        b = Tensor(B.copy())
        b += 1
    x += Tensor(INTS.astype(np.int64))  # int64 -> int32 is a same-kind cast: allowed, like NumPy
    assert_matches(x, INTS + INTS)
    f = Tensor(F.copy())
    f *= Tensor(F.astype(np.float64))
    assert_matches(f, F * F)
    with pytest.raises(ValueError, match="non-broadcastable"):
        Tensor(F[0].copy()).__iadd__(Tensor(F))


def test_kernel_counts() -> None:
    a = Tensor(np.zeros(6, np.float32)).realize()
    b = Tensor(np.ones(2, np.float32)).realize()
    with kernel_count(1):
        a[1:3] = b
        a.realize()
    w = Tensor(F.copy()).realize()
    g = Tensor(INTS.astype(np.float32)).realize()
    lr = 0.1
    with kernel_count(1):
        w -= lr * g
        w.realize()
    assert_matches(w, F - np.float32(lr) * INTS.astype(np.float32))
    with kernel_count(3):  # three updates, each applied once
        for _ in range(3):
            w -= lr * g
        w.realize()
    assert_matches(w, F - 4 * np.float32(lr) * INTS.astype(np.float32), rtol=1e-5)


def test_write_loop_keeps_holders_bounded() -> None:
    """`x += 1` realised 300 times: each step puts x back on its storage node; the node's holder list is swept of
    repeats and stale entries (a realisation scans it, so an unbounded list made each step slower than the last),
    and a view taken before the loop still sees the writes."""
    a = np.arange(16, dtype=np.float32)
    x = Tensor(a.copy())
    v = x[2:5]
    for _ in range(300):
        x += 1
        x.realize()
    np.testing.assert_array_equal(x.numpy(), a + 300)
    np.testing.assert_array_equal(v.numpy(), a[2:5] + 300)
    holders = x.uop.holders or []
    assert len(holders) < 64, len(holders)
    assert any(r() is x for r in holders)
