"""Reductions, scans and matmul against NumPy: every op over the dtypes, axis None/int/tuple/negative, keepdims,
empty reductions, float16 accumulation in float32, non-contiguous inputs, and batched/broadcast matmul.

Means, variances and the softmax family of integer or bool tensors are float32 (lazyarr's float ops on integers;
NumPy gives float64): their reference is NumPy's value cast to float32.
"""

import warnings

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import DTYPES, assert_close, sample


def _logsumexp(x: np.ndarray, axis, keepdims: bool = False) -> np.ndarray:
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isinf(m), 0, m)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    s = x - np.max(x, axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _float(x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind == "f" else x.astype(np.float64)


# name -> (lazyarr call, NumPy reference, "float" when integer inputs give float32)
REDUCE_OPS = {
    "sum": (lambda t, ax: t.sum(ax), lambda a, ax: np.sum(a, ax), None),
    "prod": (lambda t, ax: t.prod(ax), lambda a, ax: np.prod(a, ax), None),
    "max": (lambda t, ax: t.max(ax), lambda a, ax: np.max(a, ax), None),
    "min": (lambda t, ax: t.min(ax), lambda a, ax: np.min(a, ax), None),
    "any": (lambda t, ax: t.any(ax), lambda a, ax: np.any(a, ax), None),
    "all": (lambda t, ax: t.all(ax), lambda a, ax: np.all(a, ax), None),
    "argmax": (lambda t, ax: t.argmax(ax), lambda a, ax: np.argmax(a, ax), None),
    "argmin": (lambda t, ax: t.argmin(ax), lambda a, ax: np.argmin(a, ax), None),
    "mean": (lambda t, ax: t.mean(ax), lambda a, ax: np.mean(_float(a), ax), "float"),
    "var": (lambda t, ax: t.var(ax), lambda a, ax: np.var(_float(a), ax), "float"),
    "std": (lambda t, ax: t.std(ax, ddof=1), lambda a, ax: np.std(_float(a), ax, ddof=1), "float"),
    "logsumexp": (lambda t, ax: t.logsumexp(ax), lambda a, ax: _logsumexp(_float(a), ax), "float"),
    "softmax": (lambda t, ax: t.softmax(ax), lambda a, ax: _softmax(_float(a), ax), "float"),
    "log_softmax": (lambda t, ax: t.log_softmax(ax), lambda a, ax: _log_softmax(_float(a), ax), "float"),
    "cumsum": (lambda t, ax: t.cumsum(ax), lambda a, ax: np.cumsum(a, ax), None),
}


def _expected_dtype(name: str, a: np.ndarray, ref: np.ndarray) -> str:
    if REDUCE_OPS[name][2] == "float" and a.dtype.kind != "f":
        return "float32"
    return ref.dtype.name


def _reduce_input(name: str, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    if name == "prod" and dtype != "bool":
        return sample(dtype, shape, low=-3, high=3, special=False)  # no overflow, no zeros dominating
    return sample(dtype, shape, special=name in ("max", "min", "argmax", "argmin", "any", "all", "sum"))


@pytest.mark.parametrize("dtype", [*DTYPES, "float16"])
@pytest.mark.parametrize("name", list(REDUCE_OPS))
def test_reduce_op(name: str, dtype: str) -> None:
    fn, ref_fn, kind = REDUCE_OPS[name]
    a = _reduce_input(name, dtype, (3, 5))
    if kind == "float" and dtype in ("int64", "bool"):  # cast to float32, then the float32 op: dtype check only
        assert fn(Tensor(a), 1).dtype.name == "float32"
        return
    axes = (
        [1]
        if dtype not in ("float32", "int32")
        else [1, 0]
        if name in ("softmax", "log_softmax", "cumsum")
        else [1, None]
    )
    for axis in axes:
        with np.errstate(all="ignore"):
            ref = np.asarray(ref_fn(a, axis))
        out = fn(Tensor(a), axis)
        out_dt = _expected_dtype(name, a, ref)
        assert out.dtype.name == out_dt, f"{name}({dtype}, axis={axis}): {out.dtype.name}, expected {out_dt}"
        tol = {"float16": 4e-3, "float32": 2e-6, "float64": 1e-12}.get(out_dt)
        assert_close(out, ref, out_dt, rtol=tol, atol=tol, msg=f"{name}({dtype}, axis={axis}) of {a!r}")


AXES = {
    (): [None, ()],
    (1,): [None, 0, -1],
    (7,): [None, 0, (0,)],
    (3, 5): [None, 0, 1, -2, (0, 1), ()],
    (2, 3, 4): [None, 0, 1, 2, -1, (0, 2), (-1, -3), (0, 1), (1, 2), (2, 1, 0)],
    (0,): [None, 0],
    (3, 0): [None, 0, 1],
    (2, 0, 4): [1, (0, 2)],
}


@pytest.mark.parametrize("shape", list(AXES), ids=str)
def test_sum_and_max_axes_keepdims(shape: tuple[int, ...]) -> None:
    a = sample("float32", shape)
    b = sample("int32", shape, 1)
    for axis in AXES[shape]:
        for keepdims in (False, True):
            out = Tensor(a).sum(axis, keepdims=keepdims)
            assert_close(out, np.sum(a, axis=axis, keepdims=keepdims), msg=f"sum {shape} axis={axis} {keepdims}")
            assert_close(Tensor(a).sum(axis=axis, keepdim=keepdims), np.sum(a, axis=axis, keepdims=keepdims))
            axes = (axis,) if isinstance(axis, int) else range(len(shape)) if axis is None else axis
            if all(shape[x] for x in axes):
                ref = np.max(b, axis=axis, keepdims=keepdims)
                assert_close(Tensor(b).max(axis, keepdims=keepdims), ref, msg=f"max {shape} axis={axis} {keepdims}")
            else:
                with pytest.raises(ValueError):
                    Tensor(b).max(axis, keepdims=keepdims)
                with pytest.raises(ValueError):
                    np.max(b, axis=axis, keepdims=keepdims)


def test_reduce_noncontiguous_inputs() -> None:
    a = sample("float64", (4, 6))
    t = Tensor(a)
    for view in (lambda x: x.T, lambda x: x[::-1, 1::2], lambda x: x[:, ::-1].T[1:]):
        assert_close(view(t).sum(0), view(a).sum(0))
        assert_close(view(t).max(1, keepdims=True), view(a).max(1, keepdims=True))
        assert_close(view(t).argmin(1), view(a).argmin(1))
        assert_close(view(t).cumsum(1), view(a).cumsum(1))


def test_empty_reductions() -> None:
    e = np.zeros((0, 3), dtype=np.float32)
    t = Tensor(e)
    assert_close(t.sum(), np.float32(0))
    assert_close(t.sum(0), np.zeros(3, np.float32))
    assert_close(t.prod(0), np.ones(3, np.float32))
    assert_close(t.max(1), np.zeros((0,), np.float32))  # reduces non-empty rows of which there are none
    assert_close(t.any(), np.False_)
    assert_close(t.all(0), np.ones(3, bool))
    assert_close(Tensor(np.zeros((0,), np.int32)).sum(), np.int64(0))
    assert_close(t.cumsum(0), np.cumsum(e, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_close(t.mean(0), np.mean(e, 0))
        assert_close(t.var(), np.float32(np.nan))
    for fn in (lambda x: x.max(), lambda x: x.min(0), lambda x: x.argmax(), lambda x: x.argmin(0)):
        with pytest.raises(ValueError, match="empty|zero-size"):
            fn(t)
    with lazyarr.Context(NULL=0):
        pass


def test_float16_sums_accumulate_in_float32() -> None:
    x = np.full(4096, 0.1, dtype=np.float16)
    ref = x.astype(np.float32).sum().astype(np.float16)
    assert Tensor(x).sum().numpy() == ref  # float16 accumulation would stall near 256
    assert Tensor(x).mean().numpy() == np.float16(x.astype(np.float32).mean())
    assert Tensor(x).sum().dtype.name == "float16"
    cs = Tensor(x).cumsum().numpy()
    assert cs.dtype == np.float16 and cs[-1] == ref


def test_argmax_ties_and_nan() -> None:
    a = np.array([[1.0, 3.0, 3.0, np.nan, np.nan], [2.0, 2.0, -1.0, -1.0, 0.0]], dtype=np.float32)
    t = Tensor(a)
    assert_close(t.argmax(1), np.argmax(a, 1))
    assert_close(t.argmin(1), np.argmin(a, 1))
    assert_close(t.argmax(), np.argmax(a))
    assert_close(t.argmax(0, keepdims=True), np.argmax(a, 0, keepdims=True))
    assert_close(t.max(1), np.max(a, 1))
    assert_close(t.min(0), np.min(a, 0))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_nan_and_signed_zeros(dtype: str) -> None:
    # rows of 300 (a vectorised loop and a tail) with a NaN at the start, middle, tail or nowhere, rows whose max/min
    # is a zero, rows of infinities; a NaN propagates (NumPy), and max/min order -0 < +0 (IEEE 754-2019 maximum and
    # minimum: NumPy's own choice of zero depends on the order it visits them)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((12, 300)).astype(dtype)
    for row, col in ((0, 0), (1, 150), (2, 299), (3, 17)):
        a[row, col] = np.nan
    a[4] = -np.abs(a[4])
    a[4, [3, 200]] = [-0.0, 0.0]  # max +0
    a[5] = -np.abs(a[5])
    a[5, [10, 250]] = -0.0  # max -0
    a[6] = np.abs(a[6])
    a[6, [7, 299]] = [0.0, -0.0]  # min -0
    a[7] = np.abs(a[7])
    a[7, 40] = 0.0  # min +0
    a[8] = -np.inf
    a[9] = np.inf
    a[10, 5] = np.inf
    t = Tensor(a)
    for got, ref in ((t.max(1), np.max(a, 1)), (t.min(1), np.min(a, 1)), (t.max(), np.max(a)),
                     (t.min(0), np.min(a, 0)), (t[4:8].max((0, 1)), np.max(a[4:8])), (t[1:].min(), np.min(a[1:]))):
        assert_close(got, ref)
    signs = [np.signbit(t[4].max().numpy()), np.signbit(t[5].max().numpy()), np.signbit(t[6].min().numpy()),
             np.signbit(t[7].min().numpy()), np.signbit(t[4:6].max().numpy()), np.signbit(t[6:8].min().numpy())]
    assert signs == [False, True, True, False, False, True]
    x = a[[0, 4, 5, 11]]
    assert_close(Tensor(x).softmax(1), _softmax(x, 1))


def test_var_std_ddof_and_keepdims() -> None:
    a = sample("float64", (2, 3, 4))
    t = Tensor(a)
    assert_close(t.var((0, 2), keepdims=True, ddof=1), np.var(a, (0, 2), keepdims=True, ddof=1))
    assert_close(t.std(-1, correction=0), np.std(a, -1))
    assert_close(t.var(), np.var(a))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_close(Tensor(a[:1]).var(0, ddof=1), np.var(a[:1], 0, ddof=1))  # n - ddof = 0: NaN


def test_softmax_family_extremes() -> None:
    a = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [np.inf, 0.0, 1.0], [1000.0, 1000.0, -1000.0]])
    t = Tensor(a)
    with np.errstate(all="ignore"):
        assert_close(t.logsumexp(1), _logsumexp(a, 1))
        assert_close(t.logsumexp(1, keepdims=True), _logsumexp(a, 1, keepdims=True))
        assert_close(t[[0, 3]].softmax(-1), _softmax(a[[0, 3]], -1))
        assert_close(t[[0, 3]].log_softmax(1), _log_softmax(a[[0, 3]], 1))
        assert_close(t.logsumexp(), _logsumexp(a, None))


def test_softmax_family_over_an_empty_axis() -> None:
    # no max to shift by (it raised NumPy's empty-reduction ValueError): empty results, and -inf sums (PyTorch's)
    from lazyarr.nn import functional as F

    e = Tensor(np.zeros((2, 0), np.float32))
    assert_close(e.logsumexp(1), np.full(2, -np.inf, np.float32))
    for out in (e.softmax(1), e.log_softmax(1), F.softmax(e, 1), F.log_softmax(e, 1)):
        assert out.shape == (2, 0)


def test_cumsum_axes() -> None:
    a = sample("int32", (2, 3, 4))
    for axis in (None, 0, 1, -1):
        assert_close(Tensor(a).cumsum(axis), np.cumsum(a, axis))
    b = sample("bool", (5,))
    assert_close(Tensor(b).cumsum(), np.cumsum(b))
    assert_close(Tensor(np.float32(2.5)).cumsum(), np.cumsum(np.float32(2.5)))


def test_cumsum_inf_nan_stay_out_of_earlier_prefixes() -> None:
    a = np.array([[1.0, np.inf, 2.0, np.nan, 3.0], [1.0, -np.inf, 2.0, 3.0, 4.0]], np.float32)
    assert_close(Tensor(a).cumsum(1), np.cumsum(a, 1))  # a 0/1-triangle product gave NaN for every prefix
    assert_close(Tensor(a.T).cumsum(0), np.cumsum(a.T, 0))


def test_cumsum_of_a_long_axis_is_not_quadratic() -> None:
    x = np.arange(10_001, dtype=np.int64) % 7 - 3
    lazyarr.reset_stats()
    assert_close(Tensor(x).cumsum(), np.cumsum(x))
    assert lazyarr.stats().flops < 400 * x.size  # a triangle over the whole axis is 2 * 10_001**2
    assert_close(np.maximum.accumulate(Tensor(x[::-1])), np.maximum.accumulate(x[::-1]))


def test_sum_prod_dtype_argument() -> None:
    a = sample("int32", (3, 5))
    assert_close(Tensor(a).sum(1, dtype="int32"), np.sum(a, 1, dtype=np.int32))
    assert_close(Tensor(a).sum(dtype=lazyarr.float64), np.sum(a, dtype=np.float64))
    assert_close(Tensor(a.astype(np.uint8)).sum(), np.sum(a.astype(np.uint8)))
    assert_close(Tensor(a).prod(0, dtype=np.float32), np.prod(a, 0, dtype=np.float32))


# ---- matmul ----

MATMUL_SHAPES = [
    ((3, 4), (4, 5)),
    ((4,), (4, 2)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((2, 3, 4), (4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((3, 4), (2, 4, 5)),
    ((0, 4), (4, 3)),
    ((3, 0), (0, 2)),
]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES, ids=str)
def test_matmul_shapes(sa, sb) -> None:
    a, b = sample("float32", sa, 0), sample("float32", sb, 1)
    assert_close(Tensor(a) @ Tensor(b), a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float64", "int32", "int64", "bool", "float16"])
def test_matmul_dtypes(dtype: str) -> None:
    a, b = sample(dtype, (3, 4), 0), sample(dtype, (4, 2), 1)
    out = Tensor(a).matmul(Tensor(b))
    ref = a @ b
    assert out.dtype.name == ref.dtype.name
    tol = 3e-3 if dtype == "float16" else None
    assert_close(out, ref, rtol=tol, atol=tol)


def test_matmul_mixed_dot_and_views() -> None:
    a, b = sample("float32", (4, 3), 0), sample("int32", (4, 2), 1)
    assert_close(Tensor(a).T @ Tensor(b), a.T @ b)  # float32 @ int32 promotes to float64 like NumPy
    assert_close(Tensor(a).dot(Tensor(a)[::-1].T), a.dot(a[::-1].T), rtol=1e-5, atol=1e-5)
    # lists of Python floats are float32 tensors
    assert_close(a[:, 0].tolist() @ Tensor(a), a[:, 0] @ a, rtol=1e-5, atol=1e-5)
    assert_close(Tensor(a) @ a[0].tolist(), a @ a[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axis", [0, -1])
def test_zero_dim_reduces_over_axis_0_or_minus_1(axis):
    """NumPy's ufunc reductions and argmax, and PyTorch's reductions, accept axis 0/-1 on a 0-d array."""
    a = np.array(2.5, np.float32)
    for name in ("sum", "max", "min", "prod", "argmax", "argmin"):
        assert_close(getattr(Tensor(a), name)(axis=axis), getattr(a, name)(axis=axis))
    assert_close(np.add.reduce(Tensor(a), axis=axis), np.add.reduce(a, axis=axis))
    with pytest.raises(lazyarr.AxisError):
        Tensor(a).sum(axis=1)
    with pytest.raises(lazyarr.AxisError):
        Tensor(a).sum(axis=(0,))  # a tuple is checked strictly, as NumPy does


def test_bool_axis_and_non_bool_keepdims_raise_type_error():
    """A bool axis is not an integer to NumPy's reductions or PyTorch's (TypeError, not axis 0 or 1); keepdims takes a
    bool or NumPy's 0/1 and nothing else. Tensor methods, NumPy functions and ufunc reductions alike."""
    a = np.ones((3, 4), np.float32)
    t = Tensor(a)
    calls = [lambda ax: t.sum(ax), lambda ax: t.mean(ax), lambda ax: t.max(axis=ax), lambda ax: t.argmax(ax),
             lambda ax: t.sum((0, ax)), lambda ax: np.sum(t, axis=ax), lambda ax: np.add.reduce(t, axis=ax),
             lambda ax: Tensor(np.float32(2)).sum(ax), lambda ax: Tensor(np.float32(2)).argmax(ax)]
    for call in calls:
        for ax in (True, False, np.True_):
            with pytest.raises(TypeError):
                call(ax)
    for bad in ("yes", None, 1.0):
        with pytest.raises(TypeError):
            t.sum(1, keepdims=bad)
        with pytest.raises(TypeError):
            np.mean(t, 1, keepdims=bad)
        with pytest.raises(TypeError):
            t.argmax(None, keepdims=bad)
    assert t.sum(1, keepdims=1).shape == a.sum(1, keepdims=1).shape == (3, 1)
    assert np.sum(t, 0, keepdims=np.True_).shape == (1, 4)
    assert t.sum(np.int64(1)).shape == (3,)


def test_any_all_and_bool_max_min_run_as_or_and_with_numpys_values() -> None:
    # bool max/min reductions and elementwise ops render as | and & (vectorised: tests/unit/test_perf_kernels.py);
    # values over sparse and dense bools, rows and columns, and bool tensors computed in the kernel
    rng = np.random.default_rng(0)
    for shape in ((1000,), (33, 77), (300, 5), (4, 129, 3)):
        for density in (0.0, 0.001, 0.5, 1.0):
            b = rng.random(shape) < density
            t = Tensor(b)
            for ax in (None, 0, -1):
                np.testing.assert_array_equal(t.any(ax).numpy(), b.any(ax))
                np.testing.assert_array_equal(t.all(ax).numpy(), b.all(ax))
                np.testing.assert_array_equal(t.max(ax).numpy(), b.max(ax))
                np.testing.assert_array_equal(t.min(ax).numpy(), b.min(ax))
            np.testing.assert_array_equal(np.maximum(t, ~t[::-1]).numpy(), np.maximum(b, ~b[::-1]))
            np.testing.assert_array_equal(np.minimum(t, ~t[::-1]).numpy(), np.minimum(b, ~b[::-1]))
    x = rng.standard_normal((64, 50)).astype(np.float32)
    x[3, 7] = np.nan
    np.testing.assert_array_equal(np.isnan(Tensor(x)).any(1).numpy(), np.isnan(x).any(1))


def _signs(x) -> list:
    return np.signbit(np.asarray(x)).ravel().tolist()


SIGNED_ZERO_SUMS = {
    "sum": (lambda x, ax: x.sum(axis=ax), lambda a, ax: a.sum(axis=ax)),
    "np.sum": (lambda x, ax: np.sum(x, axis=ax), None),
    "add.reduce": (lambda x, ax: np.add.reduce(x, axis=ax), None),
    "sum keepdims": (lambda x, ax: np.sum(x, axis=ax, keepdims=True), None),
    "sum where": (lambda x, ax: np.sum(x, axis=ax, where=np.ones(x.shape, bool)), None),
    "sum initial=-0.0": (lambda x, ax: np.sum(x, axis=ax, initial=-0.0), None),
    "sum initial=+0.0": (lambda x, ax: np.sum(x, axis=ax, initial=0.0), None),
    "sum initial=-0.0 where": (lambda x, ax: np.sum(x, axis=ax, initial=-0.0, where=np.eye(*x.shape, dtype=bool)
                                                     if x.ndim == 2 else True), None),
    "sum float64": (lambda x, ax: np.sum(x, axis=ax, dtype=np.float64), None),
    "mean": (lambda x, ax: x.mean(axis=ax), lambda a, ax: a.mean(axis=ax)),
    "np.mean": (lambda x, ax: np.mean(x, axis=ax), None),
    "prod": (lambda x, ax: np.prod(x, axis=ax), None),
    "cumsum": (lambda x, ax: np.cumsum(x, axis=ax), None),
    "cumprod": (lambda x, ax: np.cumprod(x, axis=ax), None),
    "nansum": (lambda x, ax: np.nansum(x, axis=ax), None),
    "trace": (lambda x, ax: np.trace(x) if x.ndim == 2 else np.sum(x), None),
    "matmul": (lambda x, ax: x @ np.ones(x.shape[-1:], x.dtype), lambda a, ax: a @ np.ones(a.shape[-1:], a.dtype)),
}


@pytest.mark.parametrize("name", list(SIGNED_ZERO_SUMS))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((5,), None), ((1,), None), ((3, 4), 0), ((3, 4), 1), ((3, 4), None),
                                        ((1, 4), 0), ((3, 4), ()), ((200,), None), ((0,), None), ((2, 0), 0)])
def test_sums_of_negative_zeros_match_numpy_sign(name: str, dtype: str, shape, axis) -> None:
    """NumPy's float sums start from +0.0: a sum of -0.0s is +0.0 (sum, add.reduce, mean, matmul), unless `initial`
    is -0.0; a cumsum starts from the first element, so it stays -0.0; a product keeps the sign of its factors."""
    fn, ref = SIGNED_ZERO_SUMS[name]
    a = np.full(shape, -0.0, dtype)
    if name in ("cumsum", "cumprod") and ((axis is None and a.ndim > 1) or axis == ()):
        return  # one axis only
    if name in ("trace", "matmul") and axis not in (None, 0):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = (ref or fn)(a, axis)
        got = fn(Tensor(a), axis)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    assert _signs(got) == _signs(expected)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


def _bits(x) -> list:
    a = np.asarray(x)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]).ravel().tolist()


NAN_MOMENTS = {
    "mean": lambda x: x.mean(), "np.mean": np.mean, "np.nanmean": np.nanmean,
    "var": lambda x: x.var(), "var ddof=1": lambda x: x.var(ddof=1), "var ddof=2": lambda x: x.var(ddof=2),
    "np.var ddof=3": lambda x: np.var(x, ddof=3), "std": lambda x: x.std(), "np.std": np.std,
    "np.std ddof=2": lambda x: np.std(x, ddof=2), "np.nanvar": np.nanvar,
    "mean axis 1": lambda x: x.reshape(1, -1).mean(axis=1) if x.size else x.reshape(2, 0).mean(axis=1),
}


@pytest.mark.parametrize("name", list(NAN_MOMENTS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("values", [[], [1.0], [1.0, 2.0], [3.0, 3.0], [np.nan]])
def test_moments_without_data_give_numpys_nan_or_inf_bits(name: str, dtype: str, values) -> None:
    """A mean of nothing and a variance with no degrees of freedom left are NumPy's 0/0 and x/0: inf, or the NaN the
    hardware gives (sign bit set on x86), bit for bit; a NaN in the data comes through as it is."""
    a = np.array(values, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = NAN_MOMENTS[name](a)
        got = NAN_MOMENTS[name](Tensor(a))
    assert _bits(got) == _bits(expected)


def test_nan_constants_of_either_sign_stay_apart() -> None:
    """-nan and +nan constants are different nodes (float.hex() is "nan" for both: the second built became the first),
    and a kernel keeps a NaN constant's sign."""
    a = np.zeros(3, np.float32)
    for first, second in ((np.nan, -np.nan), (-np.nan, np.nan)):
        x, y = Tensor(a) + np.float32(first), Tensor(a) + np.float32(second)
        assert _bits(x) == _bits(a + np.float32(first))
        assert _bits(y) == _bits(a + np.float32(second))
