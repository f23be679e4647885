"""NumPy ufuncs on Tensors (NEP 13): every mapped ufunc against NumPy (values, result dtypes, errors), laziness and
fusion, out=/where=/dtype=/casting=, and the reduce/accumulate/outer methods."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.frontend.np_ufuncs import UFUNCS
from tests.helpers import kernel_count
from tests.numpy.helpers import SPECIAL, ints, is_lazy, rng, same

UNARY = sorted((u for u in UFUNCS if u.nin == 1), key=lambda u: u.__name__)
BINARY = sorted((u for u in UFUNCS if u.nin == 2 and u.signature is None), key=lambda u: u.__name__)
TOL = {np.cbrt: 4e-6, np.arccosh: 4e-6, np.arcsinh: 4e-6, np.arctanh: 4e-6, np.sinh: 4e-6, np.cosh: 4e-6}


def _both(fn, *args, **kw):
    """(lazyarr result, NumPy result) of `fn`; either may be the exception it raised."""
    outs = []
    for use_tensor in (True, False):
        a = [Tensor(x) if use_tensor and isinstance(x, np.ndarray) else x for x in args]
        try:
            with np.errstate(all="ignore"):
                outs.append(fn(*a, **kw))
        except Exception as e:  # noqa: BLE001 - compared with NumPy's own error below
            outs.append(e)
    return outs


def _check(got, ref, rtol=None):
    if isinstance(ref, Exception):
        assert isinstance(got, type(ref)) or (isinstance(ref, TypeError) and isinstance(got, TypeError)), (got, ref)
        return
    assert not isinstance(got, Exception), f"raised {got!r}, NumPy gave {ref!r}"
    for g, r in zip(got if isinstance(ref, tuple) else (got,), ref if isinstance(ref, tuple) else (ref,)):
        assert isinstance(g, Tensor)
        same(g, r, rtol=rtol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "bool"])
@pytest.mark.parametrize("ufunc", UNARY, ids=lambda u: u.__name__)
def test_unary(ufunc, dtype):
    x = SPECIAL.reshape(4, 5).astype(dtype) if dtype.startswith("float") else ints(dtype, (4, 5)) \
        if dtype != "bool" else (ints("int8", (4, 5)) > 0)
    got, ref = _both(ufunc, x)
    _check(got, ref, TOL.get(ufunc) if dtype == "float32" else None)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arctan_is_within_two_ulp_of_numpy(dtype):
    # a polynomial after two reductions (1/q above 1, (z - 1)/(z + 1) above tan(pi/8)): each branch and its edges
    t8 = np.tan(np.pi / 8)
    x = np.concatenate([rng.uniform(-4, 4, 3000), np.geomspace(1e-30, 1e30, 600), -np.geomspace(1e-30, 1e30, 600),
                        [t8, np.nextafter(t8, 0), np.nextafter(t8, 1), 1.0, np.nextafter(1.0, 2), 1 / t8]])
    x = x.astype(dtype)
    got, ref = np.arctan(Tensor(x)).numpy(), np.arctan(x)
    assert got.dtype == ref.dtype
    assert np.all(np.abs(got.astype(np.float64) - ref) <= 2 * np.spacing(np.abs(ref)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_arcsin_arccos_arctan2_are_within_three_ulp_of_numpy(dtype):
    # arcsin/arccos are arctan2 of (x, sqrt((1-x)(1+x))): 3 ulp at most (near sin(pi/8) and cos(pi/8)); arctan2's
    # signed zeros and infinities pick NumPy's quadrant and sign exactly; |x| > 1 is NaN
    e = np.finfo(dtype).eps
    x = np.concatenate([rng.uniform(-1, 1, 2000), 1 - np.geomspace(e / 4, 1, 200), np.sin(np.pi / 8) + [-e, 0, e],
                        [0.0, -0.0, 1.0, -1.0, 1 + 2 * e, -1 - 2 * e, np.nan]]).astype(dtype)
    sv = np.array([0.0, -0.0, 1e-3, -2.0, 3e3, np.inf, -np.inf, np.nan], dtype)
    y, z = np.meshgrid(np.concatenate([sv, rng.uniform(-3, 3, 40).astype(dtype)]), np.concatenate([sv, sv * 7]))
    for got, ref in [(np.arcsin(Tensor(x)), np.arcsin(x)), (np.arccos(Tensor(x)), np.arccos(x)),
                     (np.arctan2(Tensor(y), Tensor(z)), np.arctan2(y, z))]:
        got = got.numpy()
        assert got.dtype == ref.dtype and np.array_equal(np.isnan(got), np.isnan(ref))
        ok = ~np.isnan(ref)
        assert np.array_equal(np.signbit(got[ok]), np.signbit(ref[ok]))
        ulp = np.spacing(np.abs(ref[ok])).astype(np.float64)
        assert np.all(np.abs(got[ok].astype(np.float64) - ref[ok]) <= 3 * ulp)
    # a zero or infinite operand: C's exact answers (0, +-pi/4, +-pi/2, +-3pi/4, +-pi rounded once)
    edge = (np.isinf(y) | (y == 0) | np.isinf(z) | (z == 0)) & ~np.isnan(y) & ~np.isnan(z)
    np.testing.assert_array_equal(np.arctan2(Tensor(y), Tensor(z)).numpy()[edge], np.arctan2(y, z)[edge])


@pytest.mark.parametrize("ufunc", [np.exp, np.sin, np.sqrt, np.log1p, np.tanh, np.arctan, np.cbrt, np.sinh, np.rint,
                                   np.signbit, np.isfinite, np.modf, np.reciprocal], ids=lambda u: u.__name__)
def test_unary_float16(ufunc):
    x = np.abs(SPECIAL[[3, 4, 9, 10, 11, 12, 13, 14, 17, 18, 19]]).astype(np.float16)
    got, ref = _both(ufunc, x)
    _check(got, ref, 2e-3)


def _pair(ufunc, combo):
    a = rng.uniform(-4, 4, (3, 4))
    b = rng.uniform(-4, 4, (4,))
    b[1] = 0.0
    if combo == "ff":
        return a.astype(np.float32), b.astype(np.float32)
    if combo == "specials":
        x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 3.0])
        return x[:, None].repeat(8, 1), x[None, :].repeat(8, 0)
    if combo == "ii":
        lo = 0 if ufunc in (np.power, np.left_shift, np.right_shift) else -9
        return ints("int32", (3, 4), -9, 10), ints("int32", (4,), lo, 10)
    if combo == "u8_i8":
        return ints("uint8", (3, 4), 0, 10), ints("int8", (4,), 0, 6)
    if combo == "i16_pyfloat":
        return ints("int16", (3, 4), -9, 10), 2.5
    if combo == "f32_pyint":
        return a.astype(np.float32), 3
    if combo == "bb":
        return ints("int8", (3, 4)) > 0, ints("int8", (4,)) > 0
    raise AssertionError(combo)


@pytest.mark.parametrize("combo", ["ff", "specials", "ii", "u8_i8", "i16_pyfloat", "f32_pyint", "bb"])
@pytest.mark.parametrize("ufunc", BINARY, ids=lambda u: u.__name__)
def test_binary(ufunc, combo):
    a, b = _pair(ufunc, combo)
    got, ref = _both(ufunc, a, b)
    _check(got, ref, 4e-6 if combo == "ff" else None)


def test_results_are_lazy_and_fuse():
    a = Tensor(rng.standard_normal((8, 16)).astype(np.float32))
    y = np.exp(np.multiply(a, 2.0)) + np.sqrt(np.abs(a))
    assert is_lazy(y) and y.dtype is lazyarr.float32
    with kernel_count(1):
        y.realize()


def test_mixed_numpy_and_tensor_inputs_give_tensors():
    x = np.arange(12.0).reshape(3, 4)
    t = Tensor(np.ones(4))
    for out in (x + t, np.add(x, t), t * x, np.maximum(x, t), x > t):
        assert isinstance(out, Tensor)
    same(x + t, x + 1)
    same(x > t, x > 1)


def test_weak_scalars_and_numpy_type_resolution():
    i8 = Tensor(np.arange(4, dtype=np.int8))
    same(np.add(i8, 1), np.add(np.arange(4, dtype=np.int8), 1))
    assert np.add(i8, 1).dtype is lazyarr.int8
    assert np.divide(i8, 2).dtype is lazyarr.float64  # NumPy's answer, not the operator's float32
    assert np.sqrt(Tensor(np.arange(3, dtype=np.int16))).dtype is lazyarr.float32
    assert np.add(i8, np.float32(1)).dtype is lazyarr.float32
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        np.add(i8, 1000)
    with pytest.raises(TypeError):
        np.bitwise_and(Tensor(np.ones(3)), 1)
    with pytest.raises(TypeError):
        np.subtract(Tensor(np.ones(3, bool)), True)


def test_dtype_signature_and_casting():
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    t = Tensor(a)
    same(np.add(t, t, dtype=np.float64), np.add(a, a, dtype=np.float64))
    same(np.multiply(t, 3, dtype="int16"), np.multiply(a, 3, dtype="int16"))
    same(np.add(t, t, signature=(None, None, np.float32)), np.add(a, a, signature=(None, None, np.float32)))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add'"):
        np.add(Tensor(np.ones(3)), 1, dtype=np.int64)
    same(np.add(Tensor(np.ones(3)), 1.5, dtype=np.int64, casting="unsafe"),
         np.add(np.ones(3), 1.5, dtype=np.int64, casting="unsafe"))


def test_broadcast_errors_match_numpy():
    with pytest.raises(ValueError, match="could not be broadcast"):
        np.add(Tensor(np.ones((2, 3))), np.ones(4))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        np.add(Tensor(np.ones((2, 3))), 1, out=np.zeros(3))


def test_out_numpy_array():
    a = rng.standard_normal((3, 4))
    out = np.zeros((3, 4))
    res = np.exp(Tensor(a), out=out)
    assert res is out
    np.testing.assert_allclose(out, np.exp(a), rtol=1e-12)
    out2 = np.zeros((2, 3, 4))  # the output may be larger than the inputs' broadcast shape
    np.add(Tensor(a), 1, out=out2)
    np.testing.assert_allclose(out2, np.broadcast_to(a + 1, (2, 3, 4)))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        np.add(Tensor(a), 1, out=np.zeros((3, 4), np.int64))


def test_where_with_out():
    a = rng.standard_normal((3, 4))
    mask = a > 0
    out, ref = np.full((3, 4), -7.0), np.full((3, 4), -7.0)
    np.sqrt(Tensor(a), out=out, where=Tensor(mask))
    np.sqrt(a, out=ref, where=mask)
    np.testing.assert_allclose(out, ref)
    res = np.add(Tensor(a), 1, where=mask)  # no out: unselected values are unspecified in NumPy (zeros here)
    same(res.numpy()[mask], (a + 1)[mask])
    with pytest.raises(TypeError, match="to dtype\\('bool'\\)"):
        np.add(Tensor(a), 1, where=np.ones((3, 4), int))


def test_divmod_and_modf_two_outputs():
    a, b = ints("int32", (3, 4)), ints("int32", (4,), 1, 9)
    q, r = np.divmod(Tensor(a), Tensor(b))
    same(q, a // b)
    same(r, a % b)
    out = (np.zeros((3, 4), np.int32), np.zeros((3, 4), np.int32))
    res = np.divmod(Tensor(a), b, out=out)
    assert res[0] is out[0]
    np.testing.assert_array_equal(out[1], a % b)


def test_out_tensor_in_place():
    a = rng.standard_normal((3, 4)).astype(np.float32)
    t = Tensor(a)
    res = np.multiply(t, 2, out=t)
    assert res is t
    same(t, a * 2)
    m = Tensor(np.zeros((3, 4), np.float32))
    np.add(Tensor(a), 1, out=m, where=Tensor(a > 0))
    same(m, np.where(a > 0, a + 1, 0).astype(np.float32))


def test_matmul_and_vecdot_ufuncs():
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 5))
    same(np.matmul(Tensor(a), Tensor(b)), a @ b)
    same(Tensor(a) @ b, a @ b)
    same(np.matmul(Tensor(a.astype(np.float32)), b.astype(np.float32)), a.astype(np.float32) @ b.astype(np.float32))
    v = rng.standard_normal((3, 4))
    same(np.vecdot(Tensor(v), v), np.vecdot(v, v))
    same(np.vecdot(Tensor(v), v, axis=0), np.vecdot(v, v, axis=0))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        np.matmul(Tensor(a), np.ones((3, 2)))


REDUCERS = [np.add, np.multiply, np.maximum, np.minimum, np.logical_and, np.logical_or]


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool"])
@pytest.mark.parametrize("ufunc", REDUCERS, ids=lambda u: u.__name__)
def test_reduce(ufunc, dtype):
    x = (ints("int8", (2, 3, 4), -3, 4) if dtype != "float32" else rng.standard_normal((2, 3, 4))).astype(dtype)
    t = Tensor(x)
    for kw in ({}, {"axis": None}, {"axis": (0, 2), "keepdims": True}, {"axis": -1, "initial": 1},
               {"axis": 1, "where": x != 0, "initial": 0}, {"axis": 1, "where": x != 0, "initial": 2}):
        if dtype == "bool" and ufunc in (np.add, np.multiply) and "initial" in kw:
            continue
        got, ref = _both(lambda v, **k: ufunc.reduce(v, **k), x, **kw)
        if isinstance(ref, np.ndarray) and "where" in kw and isinstance(kw["where"], np.ndarray):
            got = ufunc.reduce(t, **dict(kw, where=Tensor(kw["where"])))
        _check(got, np.asarray(ref) if not isinstance(ref, Exception) else ref)


def test_reduce_dtype_out_and_errors():
    x = rng.standard_normal((3, 4))
    same(np.add.reduce(Tensor(x), axis=0, dtype=np.float32), np.add.reduce(x, axis=0, dtype=np.float32))
    out = np.zeros(4)
    assert np.add.reduce(Tensor(x), axis=0, out=out) is out
    np.testing.assert_allclose(out, x.sum(0))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        np.maximum.reduce(Tensor(np.zeros((0, 3))))
    with pytest.raises(ValueError, match="does not have an identity"):
        np.maximum.reduce(Tensor(x), where=Tensor(x > 0))
    with pytest.raises(ValueError, match="out of bounds"):
        np.add.reduce(Tensor(x), axis=2)
    same(np.maximum.reduce(Tensor(np.zeros((0, 3))), axis=0, initial=-1.0),
         np.maximum.reduce(np.zeros((0, 3)), axis=0, initial=-1.0))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_reduce_with_a_signed_zero_or_nan_initial(dtype):
    # `initial` was combined after the reduction by the elementwise maximum/minimum, whose choice between equal
    # operands follows its argument order: np.maximum.reduce(+0s, initial=-0.0) gave -0 (NumPy: +0), and
    # np.minimum.reduce(-0s, initial=0.0) gave +0 (NumPy: -0). `initial` is one more element of the reduction now:
    # max is +0 when any operand is +0, min -0 when any is -0 (NumPy's own result there depends on the order)
    pos, neg = np.zeros((2, 3), dtype), np.full((2, 3), -0.0, dtype)
    for ufunc, x, init, negative in ((np.maximum, pos, -0.0, False), (np.minimum, neg, 0.0, True),
                                     (np.maximum, neg, 0.0, False), (np.minimum, pos, -0.0, True),
                                     (np.maximum, neg, -0.0, True), (np.minimum, pos, 0.0, False),
                                     (np.maximum, pos, np.nan, False), (np.minimum, neg, np.nan, False)):
        for kw in ({"axis": 1}, {"axis": None}, {"axis": 0, "where": np.array([True, False, True])}):
            got = ufunc.reduce(Tensor(x), initial=init, **kw)
            ref = ufunc.reduce(x, initial=init, **kw)
            got = got.numpy() if isinstance(got, Tensor) else np.asarray(got)
            assert got.dtype == ref.dtype and got.shape == np.shape(ref)
            np.testing.assert_array_equal(got, ref)  # NaN propagates
            if not np.isnan(init):  # a column the mask leaves empty reduces `initial` alone
                want = np.where(kw["where"], negative, np.signbit(init)) if "where" in kw else negative
                assert (np.signbit(got) == want).all(), (ufunc.__name__, init, kw, got)


@pytest.mark.parametrize("ufunc", REDUCERS, ids=lambda u: u.__name__)
@pytest.mark.parametrize("shape, where", [((2, 3), None), ((0, 3), None), ((2, 3), [True, False, True])])
def test_reduce_initial_none_is_no_initial_value(ufunc, shape, where):
    """initial=None is NumPy's "no initial value" (not even the identity: an empty or masked add raises); it raised
    'float() argument must be ... not NoneType'."""
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) - 2
    kw = {} if where is None else {"where": np.array(where)}
    got, ref = _both(lambda v: ufunc.reduce(v, axis=0, initial=None, **kw), x)
    _check(got, ref)
    got, ref = _both(lambda v: np.sum(v, axis=0, initial=None, **kw), x)
    _check(got, ref)


def test_signature_as_a_type_string():
    """signature='ff->f' (NumPy's type string) raised 'data type not understood'."""
    a = np.array([[1, -2, 3], [0, 4, -1]], np.int32)
    same(np.add(Tensor(a), Tensor(a), signature="ff->f"), np.add(a, a, signature="ff->f"))
    same(np.divmod(Tensor(a), 2, signature="dd->dd")[1], np.divmod(a, 2, signature="dd->dd")[1])
    with pytest.raises(ValueError, match="type-string for add"):
        np.add(Tensor(a), Tensor(a), signature="ff")


@pytest.mark.parametrize("ufunc", REDUCERS, ids=lambda u: u.__name__)
def test_accumulate(ufunc):
    x = np.array([[1.0, np.inf, 2.0, -1.0], [np.nan, 0.5, 3.0, 0.0], [2.0, 2.0, -np.inf, 1.0]])
    for axis in (0, 1):
        got, ref = _both(lambda v, **k: ufunc.accumulate(v, **k), x, axis=axis)
        _check(got, ref)
    xi = ints("int8", (3, 4), -3, 4)
    got, ref = _both(lambda v: ufunc.accumulate(v, axis=1, dtype=None), xi)
    _check(got, ref)


@pytest.mark.parametrize("axis", [None, (), (0, 1), (0, 5), (-1,), (5,), [0], 1.0, 0, 5])
@pytest.mark.parametrize("shape", [(2, 3), (3,), ()], ids=["2-d", "1-d", "0-d"])
def test_accumulate_axis_and_scalar_errors(shape, axis):
    """ufunc.accumulate takes exactly one axis (an int, a 1-tuple, None for a 1-D array): others are NumPy's
    ValueError 'accumulate does not allow multiple axes' (None was a TypeError), a 0-d array NumPy's TypeError
    (it was a ValueError)."""
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    try:
        ref = np.add.accumulate(x, axis=axis)
    except Exception as e:  # noqa: BLE001 (the test compares whatever NumPy raises)
        with pytest.raises(type(e), match=None if isinstance(e, TypeError) and "scalar" not in str(e) else str(e)):
            np.add.accumulate(Tensor(x), axis=axis)
        return
    same(np.add.accumulate(Tensor(x), axis=axis), ref)


def test_outer_and_fallback_methods():
    a, b = np.arange(3.0), np.arange(4)
    same(np.multiply.outer(Tensor(a), b), np.multiply.outer(a, b))
    same(np.subtract.outer(Tensor(a), Tensor(b)), np.subtract.outer(a, b))
    before = lazyarr.stats().numpy_fallbacks
    same(np.add.reduceat(Tensor(np.arange(8.0)), [0, 4, 6]), np.add.reduceat(np.arange(8.0), [0, 4, 6]))
    assert lazyarr.stats().numpy_fallbacks == before + 1


def test_fallback_ufunc_into_out_with_where_and_what_it_returns():
    """An unmapped ufunc (np.bitwise_count) with out= and where= wrote NumPy's uninitialised values into out where
    the mask is False, and returned a 1-tuple; out= keeps its values there and is what comes back, as NumPy's (an
    ndarray out= too: it came back as a new Tensor)."""
    a, mask = np.array([-1, 0, 7, 255, -128], np.int16), np.array([True, False, True, False, True])
    want = np.bitwise_count(a, out=np.full(5, 9, np.uint8), where=mask)
    out = Tensor(np.full(5, 9, np.uint8))
    assert np.bitwise_count(Tensor(a), out=out, where=Tensor(mask)) is out
    same(out, want)
    host = np.zeros(5, np.uint8)
    assert np.bitwise_count(Tensor(a), out=host) is host
    np.testing.assert_array_equal(host, np.bitwise_count(a))
    host = np.zeros(2)
    assert np.median(Tensor(np.arange(6.0).reshape(3, 2)), axis=0, out=host) is host


F32, U8 = np.arange(3, dtype=np.float32), np.array([0, 7, 255], np.uint8)


@pytest.mark.parametrize("ufunc, a, b", [
    (np.add, F32, 2), (np.add, 2, F32), (np.multiply, F32, 2.5), (np.add, F32, True), (np.add, U8, 300),
    (np.subtract, F32, np.float32(2)), (np.maximum, U8, [1, 2]), (np.greater, U8, -1),
], ids=["f32+int", "int+f32", "f32*float", "f32+bool", "u8+300", "f32-np.float32", "u8 max list", "u8>-1"])
def test_outer_makes_arrays_of_python_scalars(ufunc, a, b):
    """ufunc.outer turns both operands into arrays first (np.asarray), so a Python scalar is not weak there:
    np.add.outer(float32, 2) is float64 (it was float32)."""
    wrap = [Tensor(x) if isinstance(x, np.ndarray) else x for x in (a, b)]
    same(ufunc.outer(*wrap), ufunc.outer(a, b))


def test_unmapped_ufunc_falls_back_once_per_name_warning():
    a, b = ints("int32", (6,), 1, 30), ints("int32", (6,), 1, 30)
    before = lazyarr.stats().numpy_fallbacks
    with lazyarr.Context(DEBUG=1), pytest.warns(lazyarr.NumpyFallbackWarning, match="gcd"):
        r = np.gcd(Tensor(a), Tensor(b))
    with lazyarr.Context(DEBUG=1), warnings.catch_warnings():
        warnings.simplefilter("error")
        np.gcd(Tensor(a), b)  # second call: counted, no second warning
    assert isinstance(r, Tensor)
    same(r, np.gcd(a, b))
    assert lazyarr.stats().numpy_fallbacks == before + 2


def test_foreign_array_types_defer():
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

    assert np.add(Tensor(np.ones(2)), Other()) == "other"


@pytest.mark.parametrize("call, reduces", [
    (lambda a, o: np.sum(a, axis=1, out=o), True),
    (lambda a, o: np.add.reduce(a, axis=1, out=o), True),
    (lambda a, o: np.prod(a, axis=1, out=o), True),
    (lambda a, o: np.add.accumulate(a, axis=1, out=o), False),
])
@pytest.mark.parametrize("src, dst", [("float32", "int32"), ("int8", "int64"), ("float32", "float64")])
def test_reductions_into_out_compute_in_the_dtype_numpy_picks(call: Any, reduces: bool, src: str, dst: str) -> None:
    """NumPy reduces in out's dtype only when the input casts to it within its kind (int8 into int64: no
    overflow); float32 into int32 reduces in float32 and casts the result (lazyarr cast each input to int first)."""
    a = (np.array([[0.6, 0.6, 0.6, 2.5], [1.5, 1.5, -0.9, 3.0]]) * (100 if src == "int8" else 1)).astype(src)
    shape = a.shape[:1] if reduces else a.shape
    want = call(a, np.zeros(shape, dst))
    got = call(Tensor(a), Tensor(np.zeros(shape, dst)))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("call, reduces", [
    (lambda a, o: np.any(a, axis=1, out=o), True),
    (lambda a, o: np.all(a, axis=1, out=o), True),
    (lambda a, o: np.logical_or.reduce(a, axis=1, out=o), True),
    (lambda a, o: np.logical_and.accumulate(a, axis=1, out=o), False),
])
@pytest.mark.parametrize("src, dst", [("int32", "int32"), ("float32", "float64"), ("int8", "float32")])
def test_logical_reductions_into_a_numeric_out(call: Any, reduces: bool, src: str, dst: str) -> None:
    """logical_or/logical_and have bool loops only: NumPy runs them and casts into out; lazyarr raised TypeError."""
    a = np.array([[0, 1, 2], [0, 0, 3], [4, 5, 6]], src)
    want = call(a, np.zeros(a.shape[:1] if reduces else a.shape, dst))
    got = call(Tensor(a), Tensor(np.zeros(want.shape, dst)))
    same(got, want)


@pytest.mark.parametrize("exponent", [-1, np.int8(-2), np.array([1, -1, 2])])
def test_np_power_of_integers_to_negative_host_exponents_raises(exponent: Any) -> None:
    """As NumPy (and `Tensor ** -1`); np.power gave 0 for them."""
    base = np.array([1, 2, 3])
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(base, exponent)
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(Tensor(base), exponent)
    np.testing.assert_array_equal(np.power(Tensor(base), np.abs(exponent)).numpy(), np.power(base, np.abs(exponent)))


COMPARE_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
               ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
               "np.less": np.less, "np.greater_equal": np.greater_equal, "np.equal": np.equal,
               "np.not_equal": np.not_equal}


@pytest.mark.parametrize("value", [-1, 300, -129, 2**64, -(2**70), 5], ids=str)
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int64", "uint64"])
@pytest.mark.parametrize("op", list(COMPARE_OPS))
def test_comparison_with_a_python_int_beyond_the_dtype(op, dtype, value):
    """NEP 50: comparing an integer array with a Python int it cannot hold gives the mathematical answer (uint8 > -1
    is all True); it raised OverflowError. Both operand orders, operators and ufuncs."""
    fn = COMPARE_OPS[op]
    a = ints(dtype, (2, 3), lo=-5 if dtype[0] == "i" else 0, hi=100)
    same(fn(Tensor(a), value), fn(a, value))
    same(fn(value, Tensor(a)), fn(value, a))


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 2**64], ids=str)
@pytest.mark.parametrize("op", list(COMPARE_OPS))
def test_comparison_of_bools_with_a_python_int_beyond_int64_raises(op, value):
    """NumPy compares a bool array with a Python int in int64 (the NEP 50 answer is for integer arrays): OverflowError
    for an int beyond it, as the operators gave; the ufuncs answered."""
    fn = COMPARE_OPS[op]
    with pytest.raises(OverflowError):
        fn(np.array([True, False]), value)
    with pytest.raises(OverflowError):
        fn(Tensor(np.array([True, False])), value)
    with pytest.raises(OverflowError):
        fn(value, Tensor(np.array([True, False])))


@pytest.mark.parametrize("lo, hi", [(-5, 300), (-5, None), (None, 300), (0, 255), (-5, 100), (10, 300), (300, 400),
                                    (-5, -1), (300, -5), (-5.0, 300), (np.int64(-5), 300)], ids=str)
@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_clip_with_python_int_bounds_beyond_the_dtype(dtype, lo, hi):
    """NumPy's clip drops a Python int bound beyond an integer dtype on its own side (min below it, max above it;
    lazyarr raised OverflowError) and casts one beyond it on the other side (OverflowError, as NumPy)."""
    a = ints(dtype, (2, 3), lo=-100, hi=120)
    clips = [lambda x: np.clip(x, lo, hi)]
    if not isinstance(lo, float):  # Tensor methods keep lazyarr's float32 for an integer array op a Python float
        clips.append(lambda x: x.clip(lo, hi))
    for clip in clips:
        try:
            ref = clip(a)
        except OverflowError as e:
            with pytest.raises(OverflowError, match=str(e)):
                clip(Tensor(a))
        else:
            same(clip(Tensor(a)), ref)
