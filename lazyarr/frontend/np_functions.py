"""Lazy implementations of NumPy functions (NEP 18) for reductions and statistics, selection, comparison and
dtype queries. Each takes NumPy's signature and gives NumPy's result dtype (found by NumPy's own resolution or by
probing NumPy on a 1-element array), so `np.mean(t, axis=0)` is a lazy Tensor that fuses with its neighbours.
Manipulation lives in `np_shape.py`, products and norms in `np_linalg.py`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.elementwise import broadcast_shape, clip_bounds
from lazyarr.frontend.np_ufuncs import (
    _NoValue,
    accumulate,
    accumulate_axis,
    as_tensor,
    const_like,
    describe,
    operand,
    reduce,
    reduce_axes,
    scan,
    ufunc_call,
)
from lazyarr.frontend.numpy_api import implements, is_tensor, numpy_fallback, write_into
from lazyarr.frontend.reduce import keepdims_flag
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp
from lazyarr.helpers import normalize_axis, prod


def call(ufunc: np.ufunc, *args: Any, **kwargs: Any) -> Any:
    """`ufunc(*args)` through the lazy ufunc machinery (NumPy's dtype rules)."""
    return ufunc_call(ufunc, args, kwargs)


def result_dtype(*values: Any) -> DType:
    """np.result_type of arrays, Tensors, dtypes and (weak) Python scalars."""
    def one(v: Any) -> Any:
        if isinstance(v, (int, float, bool, np.dtype)):
            return v
        return np.dtype(v.np_name) if isinstance(v, DType) else describe(v)

    return dtypes.from_numpy(np.result_type(*[one(v) for v in values]))


def probe(func: Callable[..., Any], *dts: DType, **kw: Any) -> DType:
    """The dtype NumPy's `func` gives for 1-element arrays of `dts` (NumPy's TypeError when it has no loop)."""
    with np.errstate(all="ignore"):
        return dtypes.from_numpy(np.asarray(func(*[np.ones(1, d.np_name) for d in dts], **kw)).dtype)


def _kd(keepdims: Any) -> bool:
    return False if keepdims is _NoValue else keepdims_flag(keepdims)


def _wh(where: Any) -> Any:
    return True if where is _NoValue else where


def finish(r: Tensor, out: Any, name: str, casting: str = "unsafe") -> Any:
    """Return `r`, or write it into `out` (a Tensor or NumPy array of the same shape) and return `out`. `casting`:
    the rule r's dtype must cast to out's by (NumPy's rule for the function; TypeError otherwise)."""
    if out is None:
        return r
    if tuple(out.shape) != r.shape:
        raise ValueError(f"{name}: output array has shape {tuple(out.shape)}, expected {r.shape}")
    src, dst = np.dtype(r.dtype.np_name), np.dtype(out.dtype.np_name if isinstance(out.dtype, DType) else out.dtype)
    if not np.can_cast(src, dst, casting):
        raise TypeError(f"{name}: cannot cast the output from dtype('{src}') to dtype('{dst}') with casting rule "
                        f"'{casting}'")
    write_into(out, r, name)
    return out


# ---- reductions ----


@implements(np.sum)
def _sum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
         where: Any = True) -> Any:
    return reduce(np.add, as_tensor(a), axis, dtype, out, _kd(keepdims), initial, _wh(where))


@implements(np.prod)
def _prod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
          where: Any = True) -> Any:
    return reduce(np.multiply, as_tensor(a), axis, dtype, out, _kd(keepdims), initial, _wh(where))


@implements(np.max, np.amax)
def _max(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
         where: Any = True) -> Any:
    return reduce(np.maximum, as_tensor(a), axis, None, out, _kd(keepdims), initial, _wh(where))


@implements(np.min, np.amin)
def _min(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
         where: Any = True) -> Any:
    return reduce(np.minimum, as_tensor(a), axis, None, out, _kd(keepdims), initial, _wh(where))


@implements(np.any)
def _any(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = True) -> Any:
    return reduce(np.logical_or, as_tensor(a).bool(), axis, None, out, _kd(keepdims), _NoValue, _wh(where))


@implements(np.all)
def _all(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = True) -> Any:
    return reduce(np.logical_and, as_tensor(a).bool(), axis, None, out, _kd(keepdims), _NoValue, _wh(where))


def _squeeze_axes(r: Tensor, axes: tuple[int, ...], keepdims: bool) -> Tensor:
    return r if keepdims else r.reshape(tuple(s for i, s in enumerate(r.shape) if i not in axes))


def _count(x: Tensor, axes: tuple[int, ...], where: Any, dt: DType) -> Any:
    """Elements counted per output position: a Python int, or a Tensor (keepdims) with a where mask."""
    if where is True:
        return prod(x.shape[a] for a in axes)
    mask = as_tensor(where, x).bool().broadcast_to(x.shape)
    return mask.cast(dt)._new(mask.cast(dt).uop.reduce(Ops.ADD, axes))


def _calc_dtype(res_dt: DType) -> DType:
    return dtypes.float32 if res_dt is dtypes.float16 else res_dt


@implements(np.mean)
def _mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, *,
          where: Any = True) -> Any:
    """Arithmetic mean with NumPy's dtypes: integers give float64, float16 accumulates in float32. AxisError for an
    int axis of a 0-d array, as NumPy's (np.nanmean takes axis 0 or -1 there)."""
    x = as_tensor(a)
    res_dt = probe(np.mean, x.dtype, dtype=dtype)
    calc = _calc_dtype(res_dt)
    axes = reduce_axes(axis, x.ndim, of_0d=False)
    where = _wh(where)
    total = reduce(np.add, x.cast(calc), axes, calc, None, True, _NoValue, where)
    r = (total / _count(x, axes, where, calc)).cast(res_dt)
    return finish(_squeeze_axes(r, axes, _kd(keepdims)), out, "mean")


def _moment(a: Any, axis: Any, dtype: Any, ddof: Any, keepdims: Any, where: Any, mean: Any, correction: Any,
            nan_without_dof: bool = False) -> tuple[Tensor, tuple[int, ...], DType]:
    """The variance (keepdims), its reduced axes and result dtype. Where the degrees of freedom (count - ddof) are
    not positive: the sum of squares over 0 (inf, or NaN for a zero sum) as np.var gives, or NaN with
    `nan_without_dof` as np.nanvar of floats gives (without NumPy's RuntimeWarning: the count may not be known yet).
    An int axis of a 0-d array is an AxisError, as np.var's, but not with `nan_without_dof` (np.nanvar of floats)."""
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = as_tensor(a)
    # as NumPy's: the mean and the sum of squares in res_dt, the deviations and squares in x's dtype promoted with
    # it; float16 stays float16 (its squares round and overflow there). The counts are exact and the divisions by
    # them run in `calc` (float32 for float16), as NumPy's divide by an integer count, and round to res_dt.
    res_dt = probe(np.var, x.dtype, dtype=dtype)
    calc = _calc_dtype(res_dt)
    axes = reduce_axes(axis, x.ndim, of_0d=nan_without_dof)
    where = _wh(where)
    count = _count(x, axes, where, calc)
    if mean is not _NoValue:
        m = as_tensor(mean, x).cast(res_dt)
    else:
        m = (reduce(np.add, x.cast(res_dt), axes, res_dt, None, True, _NoValue, where).cast(calc) / count).cast(res_dt)
    d = x.cast(result_dtype(x.dtype, res_dt)) - m
    sq = reduce(np.add, d * d, axes, res_dt, None, True, _NoValue, where).cast(calc)
    dof = count - ddof  # a Python number (a float for a float ddof) unless `where` is an array
    static = not isinstance(dof, Tensor)
    r = sq / (max(dof, 0) if static else dof.maximum(0))
    if nan_without_dof:
        r = (r * math.nan if dof <= 0 else r) if static else (dof <= 0).where(math.nan, r)
    return r.cast(res_dt), axes, res_dt


@implements(np.var)
def _var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0, keepdims: Any = False, *,
         where: Any = True, mean: Any = _NoValue, correction: Any = _NoValue) -> Any:
    r, axes, res_dt = _moment(a, axis, dtype, ddof, keepdims, where, mean, correction)
    return finish(_squeeze_axes(r.cast(res_dt), axes, _kd(keepdims)), out, "var")


@implements(np.std)
def _std(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0, keepdims: Any = False, *,
         where: Any = True, mean: Any = _NoValue, correction: Any = _NoValue) -> Any:
    r, axes, res_dt = _moment(a, axis, dtype, ddof, keepdims, where, mean, correction)
    return finish(_squeeze_axes(r.sqrt().cast(res_dt), axes, _kd(keepdims)), out, "std")


@implements(np.argmax)
def _argmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    return finish(as_tensor(a).argmax(axis, keepdims=_kd(keepdims)), out, "argmax")


@implements(np.argmin)
def _argmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    return finish(as_tensor(a).argmin(axis, keepdims=_kd(keepdims)), out, "argmin")


@implements(np.ptp)
def _ptp(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False) -> Any:
    x = as_tensor(a)
    return call(np.subtract, _max(x, axis, keepdims=keepdims), _min(x, axis, keepdims=keepdims), out=out)


def _cumulative(func: Callable[..., Any], ufunc: np.ufunc, a: Any, axis: Any, dtype: Any, out: Any) -> Any:
    """np.cumsum / np.cumprod: a running sum or product along `axis`, of the flattened array when None; a 0-d array
    is taken as 1-D, as NumPy takes it (np.cumsum(0-d, axis=0) has shape (1,)). float16 runs in float16, as NumPy's
    accumulation does: a running value that overflows stays inf (in float32 a later prefix came back finite)."""
    x = as_tensor(a)
    if axis is None or x.ndim == 0:
        x, axis = x.reshape(-1), 0 if axis is None else axis
    res_dt = probe(func, x.dtype, dtype=dtype)
    ax = normalize_axis(axis, x.ndim)
    if x.shape[ax] == 0:
        return finish(x.cast(res_dt), out, func.__name__)
    r = scan(x.cast(res_dt), ax, Ops.ADD if ufunc is np.add else Ops.MUL)
    return finish(r, out, func.__name__)


@implements(np.cumsum)
def _cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumulative(np.cumsum, np.add, a, axis, dtype, out)


@implements(np.cumprod)
def _cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumulative(np.cumprod, np.multiply, a, axis, dtype, out)


def _cumulative_std(func: Callable[..., Any], ufunc: np.ufunc, x: Any, axis: Any, dtype: Any, out: Any,
                    include_initial: bool) -> Any:
    """np.cumulative_sum / np.cumulative_prod: a 0-d array is taken as 1-D, the axis as `ufunc.accumulate` takes it
    (an int or a 1-tuple); None only for a 1-D array (ValueError otherwise)."""
    t = as_tensor(x)
    t = t.reshape(1) if t.ndim == 0 else t
    if axis is None:
        if t.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    ax = accumulate_axis(axis, t.ndim)
    r = _cumulative(func, ufunc, t, ax, dtype, None)
    if include_initial:
        shape = tuple(1 if i == ax else s for i, s in enumerate(r.shape))  # r's axis may be empty: no shrink
        first = r._new(UOp.const(0 if ufunc is np.add else 1, r.dtype, shape))
        r = first.cat(r, dim=ax)
    return finish(r, out, func.__name__)


if hasattr(np, "cumulative_sum"):  # NumPy >= 2.1

    @implements(np.cumulative_sum)
    def _cumulative_sum(x: Any, /, *, axis: Any = None, dtype: Any = None, out: Any = None,
                        include_initial: bool = False) -> Any:
        return _cumulative_std(np.cumsum, np.add, x, axis, dtype, out, include_initial)

    @implements(np.cumulative_prod)
    def _cumulative_prod(x: Any, /, *, axis: Any = None, dtype: Any = None, out: Any = None,
                         include_initial: bool = False) -> Any:
        return _cumulative_std(np.cumprod, np.multiply, x, axis, dtype, out, include_initial)


# ---- NaN-ignoring reductions ----


def _nan_to(x: Tensor, value: Any) -> Tensor:
    return x.isnan().where(value, x) if x.dtype.is_float else x


@implements(np.nansum)
def _nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
            initial: Any = _NoValue, where: Any = True) -> Any:
    return _sum(_nan_to(as_tensor(a), 0), axis, dtype, out, keepdims, initial, where)


@implements(np.nanprod)
def _nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
             initial: Any = _NoValue, where: Any = True) -> Any:
    return _prod(_nan_to(as_tensor(a), 1), axis, dtype, out, keepdims, initial, where)


def _nan_extreme(a: Any, axis: Any, out: Any, keepdims: Any, initial: Any, where: Any, largest: bool) -> Any:
    x = as_tensor(a)
    if not x.dtype.is_float:
        return (_max if largest else _min)(x, axis, out, keepdims, initial, where)
    fill = dtypes.min_value(x.dtype) if largest else dtypes.max_value(x.dtype)
    r = (_max if largest else _min)(_nan_to(x, fill), axis, None, keepdims, initial, where)
    if initial is not _NoValue and initial is not None:  # NumPy's fmax.reduce: an all-NaN slice gives the initial
        return finish(r, out, "nanmax" if largest else "nanmin")
    all_nan = _all(x.isnan(), axis, keepdims=keepdims)
    return finish(all_nan.where(float("nan"), r), out, "nanmax" if largest else "nanmin")


@implements(np.nanmax)
def _nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
            where: Any = True) -> Any:
    return _nan_extreme(a, axis, out, keepdims, initial, where, True)


@implements(np.nanmin)
def _nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, initial: Any = _NoValue,
            where: Any = True) -> Any:
    return _nan_extreme(a, axis, out, keepdims, initial, where, False)


def _valid(x: Tensor, where: Any) -> Any:
    valid = ~x.isnan() if x.dtype.is_float else const_like(x, True, dtypes.bool_)
    return valid if _wh(where) is True else valid & as_tensor(where, x).bool()


@implements(np.nanmean)
def _nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, *,
             where: Any = True) -> Any:
    x = as_tensor(a)
    axes = reduce_axes(axis, x.ndim) if x.dtype.is_float else axis  # NumPy's nanmean of integers is np.mean
    return _mean(x, axes, dtype, out, keepdims, where=_valid(x, where))


@implements(np.nanvar)
def _nanvar(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0, keepdims: Any = False, *,
            where: Any = True, mean: Any = _NoValue, correction: Any = _NoValue) -> Any:
    """np.var over the non-NaN elements; NaN where they are no more than `ddof` (np.var gives inf there; NumPy's
    nanvar of an integer array is its np.var)."""
    x = as_tensor(a)
    r, axes, res_dt = _moment(x, axis, dtype, ddof, keepdims, _valid(x, where), mean, correction, x.dtype.is_float)
    return finish(_squeeze_axes(r.cast(res_dt), axes, _kd(keepdims)), out, "nanvar")


@implements(np.nanstd)
def _nanstd(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0, keepdims: Any = False, *,
            where: Any = True, mean: Any = _NoValue, correction: Any = _NoValue) -> Any:
    """np.std over the non-NaN elements; NaN where they are no more than `ddof` (np.std gives inf there; NumPy's
    nanstd of an integer array is its np.std)."""
    x = as_tensor(a)
    r, axes, res_dt = _moment(x, axis, dtype, ddof, keepdims, _valid(x, where), mean, correction, x.dtype.is_float)
    return finish(_squeeze_axes(r.sqrt().cast(res_dt), axes, _kd(keepdims)), out, "nanstd")


@implements(np.nancumsum)
def _nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumsum(_nan_to(as_tensor(a), 0), axis, dtype, out)


@implements(np.nancumprod)
def _nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumprod(_nan_to(as_tensor(a), 1), axis, dtype, out)


@implements(np.average)
def _average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *, keepdims: Any = False) -> Any:
    """NumPy's weighted average (integers give float64).

    Raises:
        ZeroDivisionError: weights that sum to zero along `axis` (NumPy's check: it reads the weights' sums, so
            Tensor weights are computed then; host weights are summed by NumPy).
        TypeError, ValueError: weights whose shape fits neither `a` nor `a`'s `axis` (NumPy's).
        AxisError: an axis out of range, any int axis of a 0-d array included (NumPy's).
    """
    x = as_tensor(a)
    reduce_axes(axis, x.ndim, of_0d=False)
    if weights is None:
        avg = _mean(x, axis, keepdims=keepdims)
        scl = const_like(avg, prod(x.shape) // max(1, prod(avg.shape)), avg.dtype)
    else:
        w = as_tensor(weights, x)
        dt = result_dtype(x, w, dtypes.float64) if not x.dtype.is_float else result_dtype(x, w)
        if w.shape != x.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if w.ndim != 1 or w.shape[0] != x.shape[normalize_axis(axis, x.ndim)]:
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            ax = normalize_axis(axis, x.ndim)
            w = w.reshape(tuple(s if i == ax else 1 for i, s in enumerate(x.shape)))
        scl = _sum(w.cast(dt), axis, keepdims=keepdims)
        if _sum_has_zero(weights, w, scl, axis, dt):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _sum((x.cast(dt) * w.cast(dt)), axis, keepdims=keepdims) / scl
    if returned:
        return avg, scl.broadcast_to(avg.shape)
    return avg


def _sum_has_zero(weights: Any, w: Tensor, scl: Tensor, axis: Any, dt: DType) -> bool:
    """Whether a sum of the weights is zero: summed by NumPy from host `weights` (`w`, their tensor, reshaped for
    `axis`, is not computed), else read from `scl`, the sums of Tensor weights."""
    if is_tensor(weights):
        return bool((scl == 0).any())
    host = np.asarray(weights, dtype=dt.np_name).reshape(w.shape)
    return bool(np.any(np.sum(host, axis=axis) == 0))


# ---- selection and elementwise helpers ----


@implements(np.where)
def _where(condition: Any, *xy: Any) -> Any:
    """np.where(c, x, y) with NumPy's promotion (weak Python scalars); np.where(c) is np.nonzero(c)."""
    if not xy:
        return np.nonzero(condition)
    if len(xy) != 2:
        raise ValueError("either both or neither of x and y should be given")
    x, y = xy
    c = as_tensor(condition).bool()
    dt = result_dtype(x, y)
    xt, yt = operand(x, dt, c.device), operand(y, dt, c.device)
    shape = broadcast_shape(c.shape, xt.shape, yt.shape)
    return c.broadcast_to(shape).where(xt.broadcast_to(shape), yt.broadcast_to(shape))


@implements(np.clip)
def _clip(a: Any, a_min: Any = _NoValue, a_max: Any = _NoValue, out: Any = None, *, min: Any = _NoValue,
          max: Any = _NoValue, **kwargs: Any) -> Any:
    """minimum(maximum(a, min), max) with NumPy's dtype rules (NaN propagates, like np.clip). As NumPy's, a Python
    int bound beyond an integer dtype on its own side (min below it, max above it) is dropped; one beyond it on the
    other side is cast, and raises OverflowError."""
    if min is not _NoValue:
        if a_min is not _NoValue:
            raise ValueError("Passed more than one argument for the minimum; use either a_min or min")
        a_min = min
    if max is not _NoValue:
        if a_max is not _NoValue:
            raise ValueError("Passed more than one argument for the maximum; use either a_max or max")
        a_max = max
    x = as_tensor(a)
    lo, hi = clip_bounds(x.dtype, None if a_min is _NoValue else a_min, None if a_max is _NoValue else a_max)
    if lo is None and hi is None:
        return finish(x, out, "clip")
    if lo is not None:
        x = call(np.maximum, x, lo, **({} if hi is not None else dict(kwargs, out=out)))
    if hi is not None:
        x = call(np.minimum, x, hi, out=out, **kwargs)
    return x


@implements(np.round, np.around)
def _round(a: Any, decimals: int = 0, out: Any = None) -> Any:
    """Round half to even at `decimals` places, computed as NumPy does (`Tensor.round`)."""
    x = as_tensor(a)
    if x.dtype.is_bool or (not x.dtype.is_float and decimals < 0):
        return numpy_fallback(np.round, (x, decimals), {"out": out}, "round")
    if not x.dtype.is_float:
        return finish(x, out, "round", "same_kind")
    return finish(x.round(decimals), out, "round", "same_kind")  # NumPy's rint/multiply ufuncs' rule


@implements(np.fix)
def _fix(x: Any, out: Any = None) -> Any:
    return call(np.trunc, as_tensor(x), out=out)


@implements(np.nan_to_num, returns_view=True)
def _nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
    """NaN and infinities of a float array replaced by finite values: a new array, or with `copy=False` written into
    `x` in place and `x` returned (NumPy's)."""
    t = as_tensor(x)
    if not t.dtype.is_float:
        return t.clone() if copy else t
    info = np.finfo(t.dtype.np_name)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    r = t.isnan().where(nan, (t == float("inf")).where(hi, (t == float("-inf")).where(lo, t)))
    if copy:
        return r
    t[...] = r
    return t


@implements(np.select)
def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = []
    for i, c in enumerate(condlist):
        ct = as_tensor(c)
        if not ct.dtype.is_bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
        conds.append(ct)
    dt = result_dtype(*choicelist, default)
    dev = conds[0].device
    choices = [operand(c, dt, dev) for c in choicelist]
    shape = broadcast_shape(*[t.shape for t in conds + choices], np.shape(default) if not is_tensor(default)
                            else default.shape)
    out = operand(default, dt, dev).broadcast_to(shape)
    for c, v in zip(reversed(conds), reversed(choices)):
        out = c.broadcast_to(shape).where(v.broadcast_to(shape), out)
    return out


@implements(np.count_nonzero)
def _count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Any:
    x = as_tensor(a)
    return reduce(np.add, (x != 0) if not x.dtype.is_bool else x, axis, dtypes.int64, None, keepdims)


@implements(np.isin)
def _isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False, *,
          kind: Any = None) -> Any:
    e = as_tensor(element)
    t = as_tensor(test_elements, e).reshape(-1)
    if t.size == 0:
        return const_like(e, invert, dtypes.bool_)
    hit = reduce(np.logical_or, call(np.equal, e.unsqueeze(-1), t), -1)
    return ~hit if invert else hit


# ---- creation from a prototype ----


def _like(a: Any, dtype: Any, shape: Any) -> tuple[Tensor, DType, tuple[int, ...]]:
    x = as_tensor(a)
    dt = x.dtype if dtype is None else dtypes.to_dtype(dtype)
    given = shape if isinstance(shape, (tuple, list)) else (shape,)
    given = shape.tolist() if isinstance(shape, np.ndarray) and shape.ndim else given
    dims = x.shape if shape is None else tuple(int(s) for s in given)
    return x, dt, dims


@implements(np.zeros_like)
def _zeros_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
                device: Any = None) -> Any:
    x, dt, dims = _like(a, dtype, shape)
    return Tensor.full(dims, 0, dt, x.device)


@implements(np.ones_like)
def _ones_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: Any = None) -> Any:
    x, dt, dims = _like(a, dtype, shape)
    return Tensor.full(dims, 1, dt, x.device)


@implements(np.empty_like)
def _empty_like(prototype: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
                device: Any = None) -> Any:
    x, dt, dims = _like(prototype, dtype, shape)
    return Tensor.empty(dims, dtype=dt, device=x.device)


@implements(np.full_like)
def _full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: Any = None) -> Any:
    """An array like `a` filled with `fill_value` cast to the dtype (unsafe casting, like NumPy; but a Python int
    the integer dtype cannot hold is NumPy's OverflowError, not wrapped)."""
    x, dt, dims = _like(a, dtype, shape)
    if type(fill_value) is int and dt.is_int:
        return Tensor.full(dims, fill_value, dt, x.device)
    if isinstance(fill_value, (bool, int, float, np.generic)):
        return Tensor.full(dims, dtypes.cast_scalar(fill_value, dt), dt, x.device)
    return as_tensor(fill_value, x).cast(dt).broadcast_to(dims)


@implements(np.copy)
def _copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    return as_tensor(a).clone()


# ---- comparison of whole arrays ----


@implements(np.isclose)
def _isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """NumPy's isclose: |a - b| <= atol + rtol * |b| computed in b's float dtype, infinities equal when equal."""
    x, y = (v if isinstance(v, (int, float)) or is_tensor(v) else np.asanyarray(v) for v in (a, b))
    if hasattr(y, "dtype"):
        y = operand(y, result_dtype(y, 1.0), _device(x, y))
    elif isinstance(y, int):
        y = float(y)
    close = _call(np.less_equal, _call(np.absolute, _call(np.subtract, x, y)),
                  _call(np.add, atol, _call(np.multiply, rtol, _call(np.absolute, y))))
    result = _call(np.bitwise_or, _call(np.bitwise_and, close, _call(np.isfinite, y)), _call(np.equal, x, y))
    if equal_nan:
        result = _call(np.bitwise_or, result, _call(np.bitwise_and, _call(np.isnan, x), _call(np.isnan, y)))
    return result


def _call(ufunc: np.ufunc, *args: Any) -> Any:
    """`call`, or NumPy's own ufunc when no argument is a Tensor (a Python scalar or NumPy array operand of
    isclose: `call` needs a Tensor to take the device from)."""
    return call(ufunc, *args) if any(is_tensor(v) for v in args) else ufunc(*args)


def _device(*xs: Any) -> str:
    return next((x.device for x in xs if is_tensor(x)), "CPU")


@implements(np.allclose)
def _allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> bool:
    return bool(as_tensor(_isclose(a, b, rtol, atol, equal_nan)).all())


@implements(np.array_equal)
def _array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    x, y = as_tensor(a1), as_tensor(a2)
    if x.shape != y.shape:
        return False
    eq = call(np.equal, x, y)
    if equal_nan and (x.dtype.is_float or y.dtype.is_float):
        eq = eq | (call(np.isnan, x) & call(np.isnan, y))
    return bool(eq.all())


@implements(np.array_equiv)
def _array_equiv(a1: Any, a2: Any) -> bool:
    x, y = as_tensor(a1), as_tensor(a2)
    try:
        broadcast_shape(x.shape, y.shape)
    except ValueError:
        return False
    return bool(call(np.equal, x, y).all())


# ---- dtype and shape queries (no data needed) ----


def _dtype_or_value(x: Any) -> Any:
    return np.dtype(x.dtype.np_name) if is_tensor(x) else x


@implements(np.result_type)
def _result_type(*arrays_and_dtypes: Any) -> np.dtype:
    return np.result_type(*[_dtype_or_value(x) for x in arrays_and_dtypes])


@implements(np.can_cast)
def _can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    return bool(np.can_cast(_dtype_or_value(from_), _dtype_or_value(to), casting))


@implements(np.shape)
def _shape(a: Any) -> tuple[int, ...]:
    return as_tensor(a).shape


@implements(np.ndim)
def _ndim(a: Any) -> int:
    return as_tensor(a).ndim


@implements(np.size)
def _size(a: Any, axis: Any = None) -> int:
    t = as_tensor(a)
    return t.size if axis is None else t.shape[normalize_axis(axis, t.ndim)]


@implements(np.iscomplexobj)
def _iscomplexobj(x: Any) -> bool:
    return False


@implements(np.isrealobj)
def _isrealobj(x: Any) -> bool:
    return True


@implements(np.iscomplex)
def _iscomplex(x: Any) -> Any:
    return const_like(as_tensor(x), False, dtypes.bool_)


@implements(np.isreal)
def _isreal(x: Any) -> Any:
    return const_like(as_tensor(x), True, dtypes.bool_)


@implements(np.real, returns_view=True)
def _real(val: Any) -> Any:
    return as_tensor(val)


@implements(np.imag)
def _imag(val: Any) -> Any:
    return const_like(as_tensor(val), 0)


@implements(np.may_share_memory, np.shares_memory)
def _shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """Whether the storage of two arrays overlaps (a lazy Tensor has no storage until realised: it is realised)."""
    views = [x._storage_view() if is_tensor(x) else np.asarray(x) for x in (a, b)]
    if any(v is None for v in views):
        return False
    return bool(np.shares_memory(views[0], views[1]))


def _into_shape(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    """`x` broadcast to `shape` after dropping its leading 1s beyond `shape`'s dims (NumPy's `dst[...] = x`)."""
    while x.ndim > len(shape) and x.shape[0] == 1:
        x = x.reshape(x.shape[1:])
    return x.broadcast_to(shape)


@implements(np.copyto)
def _copyto(dst: Any, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Write `src` into `dst` (a Tensor is written with `assign`), with NumPy's casting check and `where` mask."""
    dst_dt = np.dtype(dst.dtype.np_name) if is_tensor(dst) else dst.dtype
    src_desc = describe(src)
    if not isinstance(src_desc, type) and not np.can_cast(src_desc, dst_dt, casting):
        raise TypeError(f"Cannot cast array data from {src_desc!r} to {dst_dt!r} according to the rule '{casting}'")
    if src is dst or (is_tensor(src) and is_tensor(dst) and src.uop is dst.uop):
        return  # the same view of the same data: NumPy copies nothing, and does not ask whether dst is writable
    dev = _device(dst, src)
    value = _into_shape(operand(src, dtypes.from_numpy(dst_dt), dev), tuple(dst.shape))
    if where is not True:
        old = as_tensor(dst).cast(dtypes.from_numpy(dst_dt))
        value = _into_shape(as_tensor(where, value).bool(), value.shape).where(value, old)
    write_into(dst, value, "copyto")


if hasattr(np, "astype"):  # NumPy >= 2.1

    @implements(np.astype, returns_view=True)
    def _astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        t = as_tensor(x)
        dt = dtypes.to_dtype(dtype)
        if dt is t.dtype:
            return t.clone() if copy else t
        return t.cast(dt)


__all__ = ["call", "result_dtype", "probe", "finish", "accumulate"]
