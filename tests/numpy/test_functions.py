"""NumPy functions on Tensors (NEP 18): every function of the issue's list against NumPy (values, dtypes, shapes,
keepdims, out=, where=), laziness, NumPy's errors, and the NumPy fallback."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import kernel_count
from tests.numpy.helpers import is_lazy, rng, same

F = rng.standard_normal((3, 4)).astype(np.float32)
D = rng.standard_normal((2, 3, 4))
I = rng.integers(-5, 6, (3, 4)).astype(np.int32)  # noqa: E741
B = I > 0
V = rng.standard_normal(5)
SQ = rng.standard_normal((4, 4))
NANS = np.where(rng.random((3, 4)) < 0.3, np.nan, D[0])
ALL_NAN_COLUMN = np.where(np.arange(4) == 1, np.nan, NANS)  # nanmax/nanmin with initial= give the initial value there

# id -> (function, positional args, keyword args); arrays become Tensors for the lazyarr side
CASES = {
    "sum": (np.sum, (D,), {}),
    "sum_axis_keepdims": (np.sum, (D,), {"axis": (0, 2), "keepdims": True}),
    "sum_int_upcast": (np.sum, (I,), {"axis": 0}),
    "sum_bool": (np.sum, (B,), {}),
    "sum_dtype_initial": (np.sum, (F,), {"axis": 1, "dtype": np.float64, "initial": 2.0}),
    "sum_where": (np.sum, (D, ), {"axis": 2, "where": D > 0}),
    "prod": (np.prod, (F,), {"axis": 1}),
    "prod_int": (np.prod, (I,), {"axis": 0, "keepdims": True}),
    "mean": (np.mean, (D,), {"axis": 1}),
    "mean_int_float64": (np.mean, (I,), {}),
    "mean_where_keepdims": (np.mean, (D,), {"axis": -1, "where": D > -0.5, "keepdims": True}),
    "mean_f32_dtype": (np.mean, (F,), {"axis": 0, "dtype": np.float64}),
    "std": (np.std, (D,), {"axis": 0}),
    "std_ddof": (np.std, (F,), {"axis": 1, "ddof": 1, "keepdims": True}),
    "var": (np.var, (D,), {"axis": (1, 2)}),
    "var_int": (np.var, (I,), {"axis": 1}),
    "var_correction": (np.var, (D,), {"correction": 1}),
    "var_float_ddof": (np.var, (D,), {"axis": 1, "ddof": 1.5}),
    "std_float_ddof_where": (np.std, (D,), {"axis": 2, "ddof": 0.0, "where": D > -1}),
    "nanvar_float_ddof": (np.nanvar, (NANS,), {"axis": 0, "ddof": 1.0}),
    "max": (np.max, (D,), {"axis": 1}),
    "max_initial_where": (np.max, (F,), {"axis": 0, "initial": -1.0, "where": F < 0.5}),
    "min": (np.min, (I,), {"axis": -1, "keepdims": True}),
    "amax": (np.amax, (F,), {}),
    "amin": (np.amin, (D,), {"axis": (0, 1)}),
    "argmax": (np.argmax, (D,), {"axis": 1}),
    "argmax_flat": (np.argmax, (I,), {}),
    "argmin_keepdims": (np.argmin, (F,), {"axis": 0, "keepdims": True}),
    "any": (np.any, (B,), {"axis": 0}),
    "any_float": (np.any, (F > 1,), {}),
    "all": (np.all, (B,), {"axis": 1, "keepdims": True}),
    "all_where": (np.all, (B,), {"where": I != 0}),
    "cumsum": (np.cumsum, (D,), {"axis": 2}),
    "cumsum_flat_int": (np.cumsum, (I,), {}),
    "cumprod": (np.cumprod, (F,), {"axis": 1}),
    "where3": (np.where, (F > 0, F, 0.0), {}),
    "where_mixed": (np.where, (B, I, F), {}),
    "clip": (np.clip, (D, -0.5, 0.5), {}),
    "clip_int_float": (np.clip, (I, -1.5, 2), {}),
    "clip_one_sided": (np.clip, (F,), {"a_min": None, "a_max": 0.0}),
    "clip_arrays": (np.clip, (D, D[0] - 1, 0.3), {}),
    "concatenate": (np.concatenate, ([F, I.astype(np.float32)],), {"axis": 1}),
    "concatenate_none": (np.concatenate, ([F, V],), {"axis": None}),
    "concatenate_dtype": (np.concatenate, ([I, I],), {"dtype": np.float32}),
    "stack": (np.stack, ([F, F * 2],), {"axis": -1}),
    "vstack": (np.vstack, ([V, V],), {}),
    "hstack": (np.hstack, ([F, I],), {}),
    "reshape": (np.reshape, (D, (4, -1)), {}),
    "reshape_F": (np.reshape, (D, (6, 4)), {"order": "F"}),
    "ravel": (np.ravel, (F.T,), {}),
    "ravel_F": (np.ravel, (D,), {"order": "F"}),
    "transpose": (np.transpose, (D,), {}),
    "transpose_axes": (np.transpose, (D, (1, -1, 0)), {}),
    "moveaxis": (np.moveaxis, (D, 0, -1), {}),
    "moveaxis_multi": (np.moveaxis, (D, (0, 1), (2, 0)), {}),
    "swapaxes": (np.swapaxes, (D, 0, 2), {}),
    "expand_dims": (np.expand_dims, (F, (0, -1)), {}),
    "squeeze": (np.squeeze, (D[:, :1, :1],), {}),
    "squeeze_axis": (np.squeeze, (D[:, :1],), {"axis": 1}),
    "broadcast_to": (np.broadcast_to, (V, (2, 5)), {}),
    "broadcast_arrays": (np.broadcast_arrays, (F, V[:4], np.float64(2.0)), {}),
    "zeros_like": (np.zeros_like, (I,), {}),
    "ones_like": (np.ones_like, (F,), {"dtype": np.float64}),
    "full_like": (np.full_like, (I, 2.7), {}),
    "full_like_shape": (np.full_like, (F, 7), {"shape": (2, 2)}),
    "empty_like_shape": (lambda a: np.empty_like(a).shape, (D,), {}),
    "copy": (np.copy, (D,), {}),
    "dot_2d": (np.dot, (F, F.T), {}),
    "dot_nd": (np.dot, (D, SQ), {}),
    "dot_vec": (np.dot, (SQ, V[:4]), {}),
    "dot_scalar": (np.dot, (F, 2.0), {}),
    "dot_int": (np.dot, (I, I.T), {}),
    "matmul": (np.matmul, (D, SQ), {}),
    "einsum_matmul": (np.einsum, ("ij,jk->ik", F, F.T), {}),
    "einsum_implicit": (np.einsum, ("ij,jk", SQ, SQ), {}),
    "einsum_trace": (np.einsum, ("ii", SQ), {}),
    "einsum_diag": (np.einsum, ("ii->i", SQ), {}),
    "einsum_ellipsis": (np.einsum, ("...ij,...jk->...ik", D, SQ), {}),
    "einsum_batch_outer": (np.einsum, ("bi,bj->bij", F, F), {}),
    "einsum_sum_all": (np.einsum, ("ijk->", D), {}),
    "einsum_transpose": (np.einsum, ("ijk->kji", D), {}),
    "einsum_int": (np.einsum, ("ij,ij->i", I, I), {}),
    "tensordot": (np.tensordot, (D, SQ), {"axes": ([2], [0])}),
    "tensordot_int": (np.tensordot, (D, D), {"axes": ([1, 2], [1, 2])}),
    "outer": (np.outer, (V, F), {}),
    "allclose": (np.allclose, (F, F + 1e-9), {}),
    "allclose_false": (np.allclose, (F, F + 1e-3), {}),
    "isclose": (np.isclose, (NANS, NANS), {"equal_nan": True}),
    "isclose_int": (np.isclose, (I, I + 1), {"atol": 1}),
    "isclose_python_float": (np.isclose, (NANS, np.inf), {}),
    "isclose_python_int_first_equal_nan": (np.isclose, (1, NANS), {"equal_nan": True}),
    "isclose_0d_python_float": (np.isclose, (np.array(1.0), 1.0 + 1e-9), {}),
    "allclose_python_float": (np.allclose, (np.ones(3), 1.0), {}),
    "array_equal": (np.array_equal, (I, I.copy()), {}),
    "array_equal_shape": (np.array_equal, (I, I[:2]), {}),
    "array_equal_nan": (np.array_equal, (NANS, NANS), {"equal_nan": True}),
    "round": (np.round, (D * 100, 1), {}),
    "round_neg": (np.round, (D * 100, -1), {}),
    "around_half_even": (np.around, (np.array([0.5, 1.5, 2.5, -0.5, -1.5]),), {}),
    "abs": (np.abs, (I,), {}),
    "sort": (np.sort, (D,), {"axis": 1}),
    "argsort": (np.argsort, (F,), {"axis": -1, "kind": "stable"}),
    "unique": (np.unique, (I,), {}),
    "unique_counts": (np.unique, (I,), {"return_counts": True, "return_index": True}),
    "nonzero": (np.nonzero, (I,), {}),
    "take": (np.take, (D, [2, 0, -1]), {"axis": 2}),
    "take_flat": (np.take, (F, [[0, 5], [11, 3]]), {}),
    "take_wrap": (np.take, (V, [7, -8]), {"mode": "wrap"}),
    "take_clip": (np.take, (V, [7, -8]), {"mode": "clip"}),
    "norm": (np.linalg.norm, (D,), {}),
    "norm_axis": (np.linalg.norm, (D,), {"axis": 1}),
    "norm_ord_inf": (np.linalg.norm, (F,), {"ord": np.inf, "axis": 0}),
    "norm_ord_1_matrix": (np.linalg.norm, (SQ,), {"ord": 1}),
    "norm_fro_keepdims": (np.linalg.norm, (D,), {"axis": (1, 2), "keepdims": True}),
    "norm_p3": (np.linalg.norm, (V,), {"ord": 3}),
    "dot_float16": (np.dot, ((D * 3).astype(np.float16), (SQ * 3).astype(np.float16)), {}),
    "inner_float16": (np.inner, ((F * 3).astype(np.float16), (F * 5).astype(np.float16)), {}),
    "vdot_float16": (np.vdot, ((SQ * 3).astype(np.float16), (SQ * 5).astype(np.float16)), {}),
    "tensordot_float16": (np.tensordot, ((D * 3).astype(np.float16), (D * 5).astype(np.float16)),
                          {"axes": ([1, 2], [1, 2])}),
    "cumulative_sum_empty_initial": (np.cumulative_sum, (np.zeros(0),), {"include_initial": True}),
    "cumulative_prod_empty_axis_initial": (np.cumulative_prod, (np.zeros((2, 0), np.int8),),
                                           {"axis": 1, "include_initial": True}),
    "norm_empty_inf": (np.linalg.norm, (np.zeros((0, 3)),), {"ord": np.inf, "axis": 0}),
    "norm_empty_matrix_1": (np.linalg.norm, (np.zeros((0, 3)),), {"ord": 1, "axis": (1, 0)}),
    "norm_empty_matrix_inf": (np.linalg.norm, (np.zeros((0, 3)),), {"ord": np.inf}),
    "norm_empty_neg_ord": (np.linalg.norm, (np.zeros((0, 3)),), {"ord": -1, "axis": 0}),
    "vector_norm_empty_inf": (np.linalg.vector_norm, (np.zeros((2, 0)),), {"ord": np.inf, "axis": 1}),
    "norm_int": (np.linalg.norm, (I,), {"ord": 0, "axis": 1}),
    "diff": (np.diff, (D,), {}),
    "diff_n2_axis0": (np.diff, (I,), {"n": 2, "axis": 0}),
    "diff_bool": (np.diff, (B,), {}),
    "diff_prepend": (np.diff, (F,), {"prepend": 0.0, "append": F[:, :1]}),
    "tril": (np.tril, (SQ,), {}),
    "tril_k": (np.tril, (D,), {"k": 1}),
    "triu": (np.triu, (F,), {"k": -1}),
    "pad_constant": (np.pad, (F, 2), {}),
    "pad_constant_values": (np.pad, (I, ((1, 2), (0, 3))), {"constant_values": ((7, 8), (9, 10))}),
    "pad_edge": (np.pad, (F, ((1, 2), (2, 1))), {"mode": "edge"}),
    "pad_reflect": (np.pad, (F, ((2, 1), (3, 2))), {"mode": "reflect"}),
    "pad_symmetric": (np.pad, (F, 2), {"mode": "symmetric"}),
    "pad_wrap": (np.pad, (F, ((1, 3), (4, 2))), {"mode": "wrap"}),
    "pad_reflect_full_width": (np.pad, (np.arange(3), 2), {"mode": "reflect"}),  # the after side reaches index 0
    "pad_symmetric_full_width": (np.pad, (np.arange(3), (0, 3)), {"mode": "symmetric"}),
    "pad_fallback_mean": (np.pad, (F, 1), {"mode": "mean"}),
    "tile": (np.tile, (F, (2, 1, 3)), {}),
    "tile_short_reps": (np.tile, (D, 2), {}),
    "repeat": (np.repeat, (F, 2), {"axis": 1}),
    "repeat_flat": (np.repeat, (I, 3), {}),
    "repeat_counts": (np.repeat, (F, [1, 0, 2]), {"axis": 0}),
    "flip": (np.flip, (D,), {"axis": (0, 2)}),
    "flip_all": (np.flip, (F,), {}),
    "roll": (np.roll, (D, 2), {"axis": 2}),
    "roll_flat": (np.roll, (F, -5), {}),
    "roll_multi": (np.roll, (D, (1, -1)), {"axis": (0, 1)}),
    "meshgrid": (np.meshgrid, (V[:3], V), {}),
    "meshgrid_ij_sparse": (np.meshgrid, (V[:3], V, V[:2]), {"indexing": "ij", "sparse": True}),
    "nansum": (np.nansum, (NANS,), {"axis": 1}),
    "nanmean": (np.nanmean, (NANS,), {"axis": 0}),
    "nanmax": (np.nanmax, (NANS,), {}),
    "nanmax_initial_all_nan_column": (np.nanmax, (ALL_NAN_COLUMN,), {"axis": 0, "initial": 0.5}),
    "nanmin_initial_where": (np.nanmin, (ALL_NAN_COLUMN,), {"axis": 1, "initial": 7.0, "where": np.arange(4) == 1}),
    "nanstd": (np.nanstd, (NANS,), {"axis": 1}),
    "ptp": (np.ptp, (D,), {"axis": 1}),
    "average_weights": (np.average, (D, 1, V[:3]), {}),
    "count_nonzero": (np.count_nonzero, (I,), {"axis": 0}),
    "isin": (np.isin, (I, [1, 3, -2]), {}),
    "select": (np.select, ([F > 0.5, F < -0.5], [F, -F], 9.0), {}),
    "nan_to_num": (np.nan_to_num, (np.array([np.nan, np.inf, -np.inf, 1.0]),), {}),
    "diagonal": (np.diagonal, (D,), {"offset": 1, "axis1": 1, "axis2": 2}),
    "diag_vec": (np.diag, (V, -1), {}),
    "trace": (np.trace, (SQ,), {"offset": -1}),
    "split": (np.split, (D, 2), {"axis": 2}),
    "array_split": (np.array_split, (V, 3), {}),
    "append": (np.append, (F, V), {}),
    "rot90": (np.rot90, (D,), {"k": 1, "axes": (1, 2)}),
    "atleast_2d": (np.atleast_2d, (V,), {}),
    "take_along_axis": (np.take_along_axis, (F, np.argsort(F, axis=1)), {"axis": 1}),
    "median_fallback": (np.median, (D,), {"axis": 1}),
    "diff past the length": (np.diff, (F,), {"n": 5}),
    "diff past the length axis 0": (np.diff, (F,), {"n": 3, "axis": 0}),
    "diff past the length bool": (np.diff, (B,), {"n": 4, "axis": 0}),
    "take nothing": (np.take, (F, []), {"axis": 1}),
    "take nothing nested": (np.take, (F, [[]]), {"axis": 0}),
    "take nothing flat": (np.take, (F, ()), {}),
    "take nothing wrap": (np.take, (F, []), {"axis": 1, "mode": "wrap"}),
    "take float list": (np.take, (F, [1.5, 2]), {"axis": 1}),
    "take bool array": (np.take, (F, np.array([True, False])), {"axis": 0}),
}
if np.lib.NumpyVersion(np.__version__) >= "2.3.0":  # pad widths as {axis: width} (it raised TypeError)
    CASES["pad_dict_widths"] = (np.pad, (F, {-1: 2, 0: (0, 1)}), {"mode": "edge"})
    CASES["pad_dict_widths_constant"] = (np.pad, (I, {1: (3, 0)}), {"constant_values": 7})

ALWAYS_FALLBACK = {"sort", "argsort", "unique", "unique_counts", "nonzero", "pad_fallback_mean", "median_fallback"}


def _to_tensors(x):
    if isinstance(x, np.ndarray):
        return Tensor(x)
    if isinstance(x, list):
        return [_to_tensors(e) for e in x]
    return x


def _compare(got, ref):
    if isinstance(ref, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(ref)
        for g, r in zip(got, ref):
            _compare(g, r)
    elif isinstance(ref, (bool, tuple)) or isinstance(got, bool):
        assert got == ref
    else:
        if isinstance(ref, np.ndarray) or isinstance(ref, np.generic):
            assert isinstance(got, Tensor), type(got)
        same(got, ref)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy(name):
    fn, args, kw = CASES[name]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Mean of empty slice" and friends
        ref = fn(*args, **kw)
    before = lazyarr.stats().numpy_fallbacks
    got = fn(*[_to_tensors(a) for a in args], **{k: _to_tensors(v) for k, v in kw.items()})
    _compare(got, ref)
    fell_back = lazyarr.stats().numpy_fallbacks - before
    assert (fell_back > 0) == (name in ALWAYS_FALLBACK), f"{name}: {fell_back} fallbacks"


@pytest.mark.parametrize("fn", [lambda t: np.sum(t * 2, axis=0), lambda t: np.mean(np.exp(t)),
                                lambda t: np.clip(t, 0, 1), lambda t: np.where(t > 0, t, 0.0),
                                lambda t: np.concatenate([t, t]),
                                lambda t: np.einsum("ij,ij->i", t, t), lambda t: np.linalg.norm(t, axis=1),
                                lambda t: np.cumsum(t, axis=1), lambda t: np.tril(t), lambda t: np.roll(t, 1)])
def test_results_stay_lazy_and_fuse(fn):
    t = Tensor(F)
    out = fn(t)
    assert is_lazy(out)
    with kernel_count(1):
        out.realize()


def test_out_numpy_and_keepdims_variants():
    out = np.zeros(4)
    assert np.sum(Tensor(D), axis=(0, 1), out=out) is out
    np.testing.assert_allclose(out, D.sum((0, 1)))
    out2 = np.zeros((3, 4))
    np.concatenate([Tensor(F[:1]), F[1:]], out=out2)
    np.testing.assert_allclose(out2, F)
    out3 = np.zeros((2, 4))
    np.mean(Tensor(D), axis=1, out=out3)
    np.testing.assert_allclose(out3, D.mean(1))
    out4 = np.zeros(3, np.int64)
    np.argmax(Tensor(F), axis=1, out=out4)
    np.testing.assert_array_equal(out4, F.argmax(1))


@pytest.mark.parametrize("call, err, match", [
    (lambda t: np.sum(t, axis=3), ValueError, "out of bounds"),
    (lambda t: np.concatenate([t, t[0]]), ValueError, "same number of dimensions"),
    (lambda t: np.concatenate([t, t[:, :2]], axis=0), ValueError, "along dimension 1"),
    (lambda t: np.stack([t, t[:2]]), ValueError, "same shape"),
    (lambda t: np.reshape(t, (5, -1)), ValueError, "cannot reshape array of size 12"),
    (lambda t: np.transpose(t, (0, 0)), ValueError, "repeated axis"),
    (lambda t: np.moveaxis(t, (0, 1), 0), ValueError, "same number of elements"),
    (lambda t: np.squeeze(t, axis=0), ValueError, "size not equal to one"),
    (lambda t: np.broadcast_to(t, (4, 3)), ValueError, "could not be broadcast"),
    (lambda t: np.dot(t, t), ValueError, "not aligned"),
    (lambda t: np.einsum("ij,jk->ik", t, t), ValueError, "could not be broadcast"),
    (lambda t: np.einsum("ii->i", t), ValueError, "collapsing index"),
    (lambda t: np.einsum("...->", t), ValueError, "no '...' ellipsis provided"),
    (lambda t: np.einsum("i...->", t[:, :1]), ValueError, "no '...' ellipsis provided"),
    (lambda t: np.take(t, [12]), IndexError, "out of bounds"),
    (lambda t: np.take(t, np.array([1.0])), TypeError, "according to the rule 'same_kind'"),
    (lambda t: np.take(t, [np.nan]), ValueError, "NaN"),
    (lambda t: np.diff(t, n=-1), ValueError, "order must be non-negative"),
    (lambda t: np.max(t[:0]), ValueError, "zero-size array to reduction operation maximum"),
    (lambda t: np.argmax(t[:0]), ValueError, "empty sequence"),
    (lambda t: np.repeat(t, [1, 2]), ValueError, "could not be broadcast"),
    (lambda t: np.pad(t, -1), ValueError, "negative"),
    (lambda t: np.linalg.norm(t, ord="fro", axis=0), ValueError, "Invalid norm order"),
    (lambda t: np.swapaxes(t, 0, 5), ValueError, "out of bounds"),
    (lambda t: np.average(t, axis=1, weights=[0, 0, 0, 0]), ZeroDivisionError, "Weights sum to zero"),
    (lambda t: np.average(t, weights=np.where(F > 0, 0, 0)), ZeroDivisionError, "Weights sum to zero"),
    (lambda t: np.average(t, axis=0, weights=[1, -1, 0]), ZeroDivisionError, "Weights sum to zero"),
    (lambda t: np.average(t[:0], weights=np.ones((0, 4))), ZeroDivisionError, "Weights sum to zero"),
])
def test_errors_match_numpy(call, err, match):
    with pytest.raises(err, match=match):
        call(F)
    with pytest.raises(err, match=match):
        call(Tensor(F))


def test_shape_queries_do_not_realise():
    t = Tensor(F) * 2
    assert np.shape(t) == (3, 4) and np.ndim(t) == 2 and np.size(t) == 12 and np.size(t, 1) == 4
    assert np.result_type(t, 1.0) == np.float32 and np.result_type(t, np.float64) == np.float64
    assert np.can_cast(t, np.float64) and not np.can_cast(t, np.int8)
    assert not np.iscomplexobj(t) and np.isrealobj(t)
    assert is_lazy(t)


def test_fallback_counts_and_wraps():
    before = lazyarr.stats().numpy_fallbacks
    h = np.cross(Tensor(np.eye(3)), np.ones(3))
    assert isinstance(h, Tensor)
    same(h, np.cross(np.eye(3), np.ones(3)))
    assert lazyarr.stats().numpy_fallbacks == before + 1
    c = np.fft.fft(Tensor(V))  # a complex result lazyarr cannot hold comes back as NumPy's array
    assert isinstance(c, np.ndarray) and c.dtype == np.complex128


def test_shares_memory_and_copyto_into_numpy():
    t = Tensor(F)
    assert np.shares_memory(t, t[1:]) and not np.shares_memory(t, Tensor(F))
    assert np.may_share_memory(np.asarray(t, copy=False), t)
    dst = np.zeros((3, 4), np.float32)
    np.copyto(dst, Tensor(F), where=F > 0)
    np.testing.assert_array_equal(dst, np.where(F > 0, F, 0))


def test_copyto_drops_the_sources_leading_ones():
    # NumPy broadcasts a (1, 4) source into a (4,) destination, as `dst[...] = src` does (a ValueError before)
    src = np.arange(4.0).reshape(1, 4)
    for dst in (np.zeros(4), Tensor(np.zeros(4))):
        np.copyto(dst, src)
        np.copyto(dst[::-1], Tensor(src.reshape(1, 1, 4)), where=src > 1)
        np.testing.assert_array_equal(np.asarray(dst), [3.0, 2.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        np.copyto(Tensor(np.zeros(4)), np.zeros((2, 4)))


def test_copyto_into_a_read_only_view_of_its_source_raises():
    # np.copyto(np.broadcast_to(a, (2, 3)), a) did nothing where NumPy raises ValueError (the value broadcast to the
    # destination's shape was the destination itself, so the write was skipped before the read-only check)
    for a in (np.arange(3.0), Tensor(np.arange(3.0)) + 0):
        v = np.broadcast_to(a, (2, 3))
        with pytest.raises(ValueError, match="read-only"):
            np.copyto(v, a)
        np.copyto(v, v)  # NumPy copies nothing here, and raises nothing
        np.copyto(v[()], v)  # nor for another tensor that is the same view


@pytest.mark.parametrize("write", [lambda v: np.put(v, [7], [1.0]), lambda v: np.put(v[:0], [0], [1.0]),
                                   lambda v: np.place(v, v > 100, [1.0])], ids=["put out of range", "put empty",
                                                                               "place nothing"])
def test_mutating_fallbacks_refuse_a_read_only_destination_first(write):
    # np.put(np.diagonal(t), [7], [1.0]) raised IndexError (NumPy: ValueError, "put: output array is read-only"):
    # NumPy ran on a writable copy and checked the indices first
    for a in (np.arange(9.0).reshape(3, 3), Tensor(np.arange(9.0).reshape(3, 3))):
        with pytest.raises(ValueError, match="read-only"):
            write(np.diagonal(a))


def test_mutating_functions_write_into_tensors():
    t = Tensor(np.zeros((3, 4), np.float32))
    np.copyto(t, F)
    same(t, F)
    np.fill_diagonal(t, 5.0)
    ref = F.copy()
    np.fill_diagonal(ref, 5.0)
    same(t, ref)
    out = Tensor(np.zeros(4, np.float32))
    np.sum(Tensor(F), axis=0, out=out)
    same(out, F.sum(0))


def test_mutating_function_without_assign_raises_type_error(monkeypatch):
    owner = next((c for c in Tensor.__mro__ if "assign" in c.__dict__), None)
    if owner is not None:
        monkeypatch.delattr(owner, "assign")
    with pytest.raises(TypeError, match="numpy.fill_diagonal"):
        np.fill_diagonal(Tensor(np.zeros((3, 3))), 1.0)


def test_copy_is_a_snapshot_and_in_place_ufuncs_write_through_views():
    t = Tensor(F.copy())
    c = np.copy(t)
    t += 1
    same(c, F)
    same(t, F + 1)
    row = t[1]
    np.multiply(row, 0, out=row)  # a view: the write lands in t
    ref = F + 1
    ref[1] = 0
    same(t, ref)


NEW_ARRAY_CALLS = {
    "np.positive": lambda a: np.positive(a),
    "unary +": lambda a: +a,
    "np.conjugate": lambda a: np.conjugate(a),
    "np.floor of ints": lambda a: np.floor(a),
    "np.sum axis=()": lambda a: np.sum(a, axis=()),
    "np.max axis=()": lambda a: np.max(a, axis=()),
    "np.add.reduce axis=()": lambda a: np.add.reduce(a, axis=()),
    "method sum axis=()": lambda a: a.sum(axis=()),
    "method max axis=()": lambda a: a.max(axis=()),
    "method prod axis=()": lambda a: a.prod(axis=()),
    "np.sum of a 0-d view": lambda a: np.sum(a[1, 2]),
    "flatten": lambda a: a.flatten(),
    "np.round of ints": lambda a: np.round(a),
    "np.clip without bounds": lambda a: np.clip(a, None, None),
    "np.nan_to_num of ints": lambda a: np.nan_to_num(a),
    "np.take of one index": lambda a: np.take(a, 1),
    "np.tile once": lambda a: np.tile(a, 1),
    "np.repeat once": lambda a: np.repeat(a, 1, axis=0),
    "np.roll by 0": lambda a: np.roll(a, 0),
    "np.pad by 0": lambda a: np.pad(a, 0),
    "np.append nothing": lambda a: np.append(a[0], []),
    "np.meshgrid": lambda a: np.meshgrid(a[0], [1, 2])[0],
    "np.concatenate of one": lambda a: np.concatenate([a]),
}


@pytest.mark.parametrize("call", list(NEW_ARRAY_CALLS.values()), ids=list(NEW_ARRAY_CALLS))
def test_results_that_compute_nothing_are_still_new_arrays(call):
    """NumPy's ufuncs, reductions, flatten and functions that return no view return new arrays; those that compute
    nothing (np.positive, a reduction over no axes, the round of integers, np.tile(a, 1)) aliased the input: a later
    write to either showed through the other."""
    a = I.astype(np.int64)
    ref = call(a.copy())
    assert not np.may_share_memory(ref, a)
    t = Tensor(a.copy()).realize()
    r = call(t).realize()
    t[...] = -100  # a write to the input after the call
    same(r, ref)
    t = Tensor(a.copy()).realize()
    r = call(t).realize()
    r[...] = -100  # a write to the result
    same(t, a)



def test_nan_to_num_without_copy_writes_in_place():
    """np.nan_to_num(x, copy=False) replaces x's values in place and returns x (it returned a new array)."""
    a = np.array([np.nan, 1.0, np.inf, -np.inf])
    t = Tensor(a.copy())
    ref = np.nan_to_num(a, copy=False)
    assert np.nan_to_num(t, copy=False) is t
    same(t, ref)


@pytest.mark.parametrize("fn", [np.nanvar, np.nanstd, np.var, np.std])
@pytest.mark.parametrize("ddof", [1, 3])
@pytest.mark.parametrize("a", [NANS, NANS.astype(np.float32), I], ids=["float64", "float32", "int32"])
def test_variance_without_degrees_of_freedom(fn, ddof, a):
    """Where count - ddof <= 0, np.nanvar/np.nanstd of floats give NaN (they gave inf); np.var/np.std, and the nan
    functions of integers (NumPy calls np.var for them), give the sum of squares over 0 (inf, or NaN for 0/0)."""
    x = a.copy()
    if a is NANS:
        x[2] = np.nan  # a row with no value at all
        x[1, :3] = np.nan  # and one with a single value
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Degrees of freedom <= 0 for slice"
        ref = fn(x, axis=1, ddof=ddof)
        ref_all = fn(x, ddof=ddof + 9)
    same(fn(Tensor(x), axis=1, ddof=ddof), ref)
    same(fn(Tensor(x), ddof=ddof + 9), ref_all)


@pytest.mark.parametrize("weights", [[1.0, -1.0, 0.0], [0.0, 2.0, 1.0]])
def test_average_with_tensor_weights_that_sum_to_zero_raises(weights):
    """np.average reads the sums of Tensor weights to raise NumPy's ZeroDivisionError (it gave NaN)."""
    w = np.array(weights)
    try:
        ref = np.average(F, axis=0, weights=w)
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
            np.average(Tensor(F), axis=0, weights=Tensor(w))
    else:
        same(np.average(Tensor(F), axis=0, weights=Tensor(w)), ref)


ZERO_D_CALLS = {name: getattr(np, name) for name in (
    "sum", "prod", "max", "min", "any", "all", "mean", "std", "var", "average", "argmax", "argmin", "ptp", "cumsum",
    "cumprod", "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nancumsum", "nancumprod",
    "count_nonzero", "cumulative_sum", "cumulative_prod", "squeeze", "flip", "expand_dims")}
ZERO_D_CALLS.update({"linalg.norm": np.linalg.norm, "linalg.vector_norm": np.linalg.vector_norm,
                     "take": lambda a, axis: np.take(a, 0, axis=axis)})


@pytest.mark.parametrize("axis", [0, -1, 1, (0,), ()], ids=str)
@pytest.mark.parametrize("value", [np.array(2.5), np.array(3, np.int32)], ids=["float", "int"])
@pytest.mark.parametrize("name", list(ZERO_D_CALLS))
def test_axes_of_a_0d_array(name, value, axis):
    """A 0-d array has no axis 0; NumPy's ufunc reductions (sum, max, and nanmean of floats, built on them) take
    axis 0 or -1 anyway, while mean, std, var, average and the norms raise AxisError (they gave a value); cumsum and
    take treat the 0-d array as 1-D, squeeze takes axis 0 or -1 (they raised); argmax takes no tuple (TypeError),
    np.cumulative_sum a 1-tuple."""
    fn = ZERO_D_CALLS[name]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            ref = fn(value, axis=axis)
        except Exception as e:  # noqa: BLE001 (the test compares whatever NumPy raises)
            with pytest.raises(type(e)):
                fn(Tensor(value), axis=axis)
            return
        same(fn(Tensor(value), axis=axis), ref)


def test_views_stay_views_and_out_is_returned_as_it_is():
    """The functions whose NumPy result views the input keep viewing it (a write to the input shows through), and
    a function with out= returns that out, even when it views the input."""
    t = Tensor(F.copy())
    views = [np.reshape(t, (4, 3)), np.transpose(t), np.squeeze(t[None]), np.ravel(t), np.flip(t, 0),
             np.broadcast_to(t, (2, 3, 4)), np.split(t, 3)[1], np.diff(t, n=0)]
    t[...] = 7
    for v in views:
        same(v, np.full(v.shape, 7, np.float32))
    o = Tensor(np.zeros(4, np.float32))
    assert np.sum(t, axis=0, out=o) is o
    row = t[0]
    assert np.sum(t, axis=0, out=row) is row
    assert np.multiply(row, 1, out=row) is row
    same(t[0], np.full(4, 21, np.float32))
    x = Tensor(np.array([1.0, 2.0]))
    grid = np.meshgrid(x, x, copy=False)[0]
    x[0] = 5  # copy=False: views of the inputs, as NumPy's
    same(grid, np.meshgrid([5.0, 2.0], [5.0, 2.0])[0])


def test_float16_running_sum_and_product_overflow_as_numpy():
    """np.cumsum/cumprod and ufunc.accumulate of float16 run in float16, as NumPy's: a running value that overflows
    stays inf, and inf * 0 is NaN (in float32 a later prefix came back finite: cumsum [6e4, 6e4, -6e4] gave
    [6e4, inf, 6e4], cumprod [300, 300, 0] gave [300, inf, 0]). The Tensor method accumulates in float32, as
    Tensor.sum and PyTorch's cumsum (tests/ops/test_reduce.py), except into an out= array, as np.cumsum."""
    x = np.array([60000, 60000, -60000, 1], np.float16)
    y = np.array([300, 300, 0, 2], np.float16)
    long = np.concatenate([np.full(70, 1024, np.float16), np.full(70, -1024, np.float16)])  # exact until inf
    with np.errstate(all="ignore"):
        for fn in [np.cumsum, np.add.accumulate, lambda v: v.cumsum(0, out=np.empty(v.shape, v.dtype))]:
            same(fn(Tensor(x)), fn(x))
            same(fn(Tensor(long)), fn(long))
        for fn in [np.cumprod, np.multiply.accumulate]:
            same(fn(Tensor(y)), fn(y))
        same(np.cumsum(Tensor(x.reshape(2, 2)), axis=0), np.cumsum(x.reshape(2, 2), axis=0))


@pytest.mark.parametrize("decimals", [1, 3, 5, -1, -5, 25, 38, 300, 309, 400, -400])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_round_decimals_as_numpy(dtype, decimals):
    """np.round and Tensor.round compute x * 10**d, rint, / 10**d in x's dtype with NumPy's power of ten (float16
    was rounded in float32: np.round(float16(-0.3745), 3) gave -0.375, NumPy -0.374, and 60000 at 1 decimal stayed
    60000, NumPy inf; float64 at 38 decimals was 1 ulp off), and a power of ten past the float range is inf, NaN
    results as NumPy's (decimals=310 raised OverflowError)."""
    x = (rng.standard_normal(500) * 10.0 ** rng.integers(-6, 6, 500)).astype(dtype)
    x[:4] = [0, -0.3745, 60000, -1e4]
    with np.errstate(all="ignore"):
        ref = np.round(x, decimals)
    for got in [np.round(Tensor(x), decimals), Tensor(x).round(decimals)]:
        g = got.numpy()
        assert g.dtype == ref.dtype
        np.testing.assert_array_equal(g, ref)


@pytest.mark.parametrize("dtype, casting", [(np.int8, "safe"), (np.float32, "safe"), (np.float16, "safe"),
                                            (np.int8, "same_kind")])
def test_einsum_dtype_follows_the_casting_rule(dtype, casting):
    # NumPy refuses a dtype= its operands do not cast to under `casting` (default 'safe'); it was cast silently
    a = SQ * 10
    with pytest.raises(TypeError):
        np.einsum("ij,jk", a, a, dtype=dtype, casting=casting)
    with pytest.raises(TypeError, match="could not be cast"):
        np.einsum("ij,jk", Tensor(a), Tensor(a), dtype=dtype, casting=casting)


@pytest.mark.parametrize("kw", [{"dtype": np.float32, "casting": "same_kind"}, {"dtype": np.int8, "casting": "unsafe"}])
def test_einsum_dtype_allowed_by_casting(kw):
    a = SQ * 10
    got = np.einsum("ij,jk", Tensor(a), Tensor(a), **kw)
    same(got, np.einsum("ij,jk", a, a, **kw), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("axes", [([0, 0], [0, 1]), ([0, 1], [1, 1])])
def test_tensordot_duplicate_axes_raise(axes):
    with pytest.raises(ValueError, match="duplicate axes"):
        np.tensordot(Tensor(SQ), Tensor(SQ), axes)


def test_isclose_of_a_numpy_array_and_a_tensor():
    # a NumPy array or Python scalar operand raised StopIteration (no Tensor to take the device from)
    x = np.array([np.inf, -np.inf, 1.0, np.nan, 0.0], np.float32)
    same(np.isclose(x, Tensor(x), equal_nan=True), np.isclose(x, x, equal_nan=True))
    same(np.isclose(Tensor(x), np.nan, equal_nan=True), np.isclose(x, np.nan, equal_nan=True))


@pytest.mark.parametrize("fn", [np.var, np.std, np.nanvar, np.nanstd])
@pytest.mark.parametrize("kw", [{}, {"axis": -1, "ddof": 1}])
def test_float16_variance_rounds_in_float16_as_numpy(fn, kw):
    # NumPy squares float16 deviations in float16: 3000 - 1200 squared overflows to inf (lazyarr squared in float32)
    a = np.array([[1000, 3000, 0.5, 7, 2000], [200, 300, 0.5, 1.5, 9]], np.float16)
    with np.errstate(all="ignore"):
        same(fn(Tensor(a), **kw), fn(a, **kw), rtol=0, atol=0)


@pytest.mark.parametrize("fn", [np.var, np.nanstd])
@pytest.mark.parametrize("n", [5001, 70001])
def test_float16_variance_divides_by_an_exact_count(fn, n):
    # the count is exact and the division wider than float16 (NumPy divides by an integer count): 5001 is not a
    # float16, 70001 is beyond it (inf / inf gave NaN where NumPy's sum overflows to inf)
    a = (np.random.default_rng(0).standard_normal(n) + 3).astype(np.float16)
    with np.errstate(all="ignore"):
        same(fn(Tensor(a)), fn(a), rtol=0, atol=0)


def test_variance_with_a_narrower_dtype_squares_in_the_wider_one():
    # np.var(float32, dtype=float16): the mean in float16, deviations and squares in float32, their sum in float16
    # (past 65504 here: inf, as NumPy's)
    a = np.random.default_rng(5).standard_normal((5, 7)).astype(np.float32) * 100
    with np.errstate(all="ignore"):
        same(np.var(Tensor(a), axis=1, dtype=np.float16), np.var(a, axis=1, dtype=np.float16), rtol=0, atol=0)


@pytest.mark.parametrize("call", [
    lambda a: np.reshape(a, np.array([4, -1])),
    lambda a: np.transpose(a, np.array([1, 0])),
    lambda a: np.broadcast_to(a[0], np.array([2, 4])),
    lambda a: np.tile(a, np.array([2, 1])),
    lambda a: np.moveaxis(a, np.array([0, 1]), np.array([1, 0])),
    lambda a: np.zeros_like(a, shape=np.array([2, 5])),
])
def test_shapes_and_axes_given_as_numpy_arrays(call):
    # a 1-d integer array for a shape, axes or repetitions raised TypeError ('only integer scalar arrays ...')
    a = F.copy()
    same(call(Tensor(a)), call(a))


@pytest.mark.parametrize("dtype, value", [("int8", 300), ("uint8", -1), ("int16", -(2**15) - 1)])
def test_full_like_with_a_python_int_the_dtype_cannot_hold_raises(dtype, value):
    # NumPy's OverflowError; it was wrapped into the dtype (np.full_like(int8, 300) gave 44)
    a = np.zeros(3, dtype)
    with pytest.raises(OverflowError, match="out of bounds"):
        np.full_like(a, value)
    with pytest.raises(OverflowError, match="out of bounds"):
        np.full_like(Tensor(a), value)
    same(np.full_like(Tensor(a), np.int64(300)), np.full_like(a, np.int64(300)))  # a NumPy int still wraps


@pytest.mark.parametrize("call", [
    lambda x, i: np.concatenate([x, i], casting="no"),
    lambda x, i: np.stack([x, i > 2], casting="equiv"),
    lambda x, i: np.concatenate([x, x], out=np.zeros((6, 4), np.int32)),
    lambda x, i: np.stack([x, i], out=np.zeros((2, 3, 4), np.int8), casting="same_kind"),
    lambda x, i: np.concatenate([x, x], out=np.zeros((6, 4)), dtype=np.float64),
])
def test_joins_check_casting_into_their_result_and_out(call):
    # the inputs were cast to out's dtype (or their result type) without `casting`'s check: float32 into an int32
    # out was truncated where NumPy raises TypeError
    with pytest.raises(TypeError):
        call(F, I)
    with pytest.raises(TypeError):
        call(Tensor(F), Tensor(I))


def test_joins_into_out_under_unsafe_casting():
    want = np.concatenate([F, I], out=np.zeros((6, 4), np.int8), casting="unsafe")
    same(np.concatenate([Tensor(F), Tensor(I)], out=Tensor(np.zeros((6, 4), np.int8)), casting="unsafe"), want)


@pytest.mark.parametrize("call, err", [
    (lambda x, o: np.round(x, out=o), TypeError),
    (lambda x, o: np.around(x, 1, out=o), TypeError),
    (lambda x, o: np.einsum("ij->ji", x, out=o), TypeError),
    (lambda x, o: np.dot(x, x, out=o), ValueError),
])
def test_out_of_another_kind_raises_as_numpy(call, err):
    # float32 results were cast into an int32 out= where NumPy refuses (round's ufuncs: same_kind; einsum: its
    # casting, 'safe'; dot: out must have the result's dtype)
    x = SQ.astype(np.float32)
    with pytest.raises(err):
        call(x, np.zeros((4, 4), np.int32))
    with pytest.raises(err):
        call(Tensor(x), Tensor(np.zeros((4, 4), np.int32)))
    out = Tensor(np.zeros((4, 4), np.float32))
    assert call(Tensor(x), out) is out
    same(out, call(x, np.zeros((4, 4), np.float32)), rtol=1e-5, atol=1e-5)
