"""Hypothesis conformance of the array API namespace (`lazyarr.array_api`) against NumPy 2's implementation of the
same standard functions: for every function, random shapes and dtypes from the standard's allowed set.

Passing examples are counted per function family; the counts are printed at the end of the run (terminal summary).
The dtype pool and shapes are small on purpose: each (function, dtype) pair compiles one kernel the first time.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lazyarr
from lazyarr import Tensor
from lazyarr import array_api as xp
from tests.numpy.helpers import same

PASSES: Counter[str] = Counter()
FAMILY: dict[str, str] = {}

INT = ["int8", "int64", "uint8"]
FLT = ["float32", "float64"]
NUM = INT + FLT
BOOL = ["bool"]
ALL = NUM + BOOL
SHAPES = [(), (5,), (2, 3), (3, 1, 4), (0, 3)]


def values(dtype: str, shape: tuple[int, ...], seed: int, kind: str = "any") -> np.ndarray:
    return np.asarray(_values(dtype, shape, seed, kind))


def _values(dtype: str, shape: tuple[int, ...], seed: int, kind: str) -> Any:
    r = np.random.default_rng(seed)
    if dtype == "bool":
        return r.random(shape) < 0.5
    if dtype.startswith("float"):
        if kind == "unit":
            x = r.uniform(-1.2, 1.2, shape)
        elif kind == "positive":
            x = r.uniform(0.5, 5, shape)
        else:
            x = r.standard_normal(shape) * 3
            if x.size and kind == "any":
                flat = x.reshape(-1)
                flat[r.integers(0, flat.size, max(1, flat.size // 5))] = r.choice([np.nan, np.inf, -np.inf, 0.0, -0.0])
        return x.astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = (0, 6) if kind in ("small", "positive") else (max(info.min, -20), min(info.max, 20))
    return r.integers(lo, hi, shape, endpoint=True).astype(dtype)


def compare(got: Any, ref: Any) -> None:
    if isinstance(ref, tuple) and all(isinstance(r, int) for r in ref):  # a shape
        assert tuple(got) == ref
    elif isinstance(ref, (tuple, list)):
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            compare(g, r)
    elif isinstance(ref, (bool, np.bool_)) and not isinstance(got, Tensor):
        assert got == ref
    else:
        assert isinstance(got, Tensor), type(got)
        same(got, ref, rtol=8e-6 if np.asarray(ref).dtype == np.float32 else None)


# ---- specs: name -> (family, example builder); a builder draws inputs and returns (lazyarr result, NumPy result) ----

SPECS: dict[str, tuple[str, Callable[[Any], tuple[Any, Any]]]] = {}


def spec(family: str, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        SPECS[name] = (family, fn)
        FAMILY[name] = family
        return fn

    return register


def _draw_array(data: Any, dtypes: list[str], kind: str = "any", shapes: list[tuple[int, ...]] = SHAPES):
    dt = data.draw(st.sampled_from(dtypes), label="dtype")
    shape = data.draw(st.sampled_from(shapes), label="shape")
    return values(dt, shape, data.draw(st.integers(0, 2**16), label="seed"), kind)


def _broadcastable(data: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    drop = data.draw(st.integers(0, len(shape)), label="drop")
    return tuple(1 if data.draw(st.booleans(), label="one") else s for s in shape[drop:])


UNARY = {
    "abs": (NUM, "any"), "acos": (FLT, "unit"), "acosh": (FLT, "positive"), "asin": (FLT, "unit"),
    "asinh": (FLT, "any"), "atan": (FLT, "any"), "atanh": (FLT, "unit"), "bitwise_invert": (INT + BOOL, "any"),
    "ceil": (NUM, "any"), "conj": (NUM, "any"), "cos": (FLT, "any"), "cosh": (FLT, "any"), "exp": (FLT, "any"),
    "expm1": (FLT, "any"), "floor": (NUM, "any"), "isfinite": (NUM, "any"), "isinf": (NUM, "any"),
    "isnan": (NUM, "any"), "log": (FLT, "any"), "log1p": (FLT, "any"), "log2": (FLT, "any"), "log10": (FLT, "any"),
    "logical_not": (BOOL, "any"), "negative": (NUM, "any"), "positive": (NUM, "any"), "real": (NUM, "any"),
    "round": (NUM, "any"), "sign": (NUM, "any"), "signbit": (FLT, "any"), "sin": (FLT, "any"), "sinh": (FLT, "any"),
    "square": (NUM, "any"), "sqrt": (FLT, "any"), "tan": (FLT, "any"), "tanh": (FLT, "any"), "trunc": (NUM, "any"),
}
BINARY = {
    "add": NUM, "atan2": FLT, "bitwise_and": INT + BOOL, "bitwise_left_shift": INT, "bitwise_or": INT + BOOL,
    "bitwise_right_shift": INT, "bitwise_xor": INT + BOOL, "copysign": FLT, "divide": FLT, "equal": ALL,
    "floor_divide": NUM, "greater": NUM, "greater_equal": NUM, "hypot": FLT, "less": NUM, "less_equal": NUM,
    "logaddexp": FLT, "logical_and": BOOL, "logical_or": BOOL, "logical_xor": BOOL, "maximum": NUM, "minimum": NUM,
    "multiply": NUM, "not_equal": ALL, "pow": NUM, "remainder": NUM, "subtract": NUM,
}
NP_NAME = {"conj": "conjugate", "round": "round"}


def _unary(name: str, dts: list[str], kind: str) -> None:
    @spec("elementwise", name)
    def build(data: Any) -> tuple[Any, Any]:
        x = _draw_array(data, dts, kind)
        return getattr(xp, name)(xp.asarray(x)), getattr(np, NP_NAME.get(name, name))(x)


def _binary(name: str, dts: list[str]) -> None:
    @spec("elementwise", name)
    def build(data: Any) -> tuple[Any, Any]:
        kind = "small" if name in ("pow", "bitwise_left_shift", "bitwise_right_shift") else "any"
        a = _draw_array(data, dts, kind)
        b = values(data.draw(st.sampled_from(dts), label="dtype2"), _broadcastable(data, a.shape),
                   data.draw(st.integers(0, 2**16), label="seed2"), kind)
        return getattr(xp, name)(xp.asarray(a), xp.asarray(b)), getattr(np, name)(a, b)


for _n, (_d, _k) in UNARY.items():
    _unary(_n, _d, _k)
for _n, _d in BINARY.items():
    _binary(_n, _d)


@spec("elementwise", "clip")
def _clip(data):
    x = _draw_array(data, NUM)
    lo, hi = sorted(int(v) for v in data.draw(st.tuples(st.integers(-5, 5), st.integers(-5, 5))))
    lo = max(lo, 0) if x.dtype.kind == "u" else lo
    return xp.clip(xp.asarray(x), min=lo, max=hi), np.clip(x, np.asarray(lo, x.dtype), np.asarray(hi, x.dtype))


def _axis(data: Any, ndim: int) -> Any:
    if ndim == 0:
        return None
    return data.draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1)), label="axis")


def _stat(name: str, dts: list[str], extra: Callable[[Any], dict[str, Any]] = lambda d: {}) -> None:
    @spec("statistical" if name not in ("all", "any") else "utility", name)
    def build(data: Any) -> tuple[Any, Any]:
        x = _draw_array(data, dts, shapes=[s for s in SHAPES if 0 not in s] if name in ("max", "min") else SHAPES)
        kw = {"axis": _axis(data, x.ndim), "keepdims": data.draw(st.booleans(), label="keepdims"), **extra(data)}
        np_kw = dict(kw)
        if "correction" in np_kw:
            np_kw["ddof"] = np_kw.pop("correction")
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "Mean of empty slice", "Degrees of freedom <= 0"
            ref = getattr(np, name)(x, **np_kw)
        return getattr(xp, name)(xp.asarray(x), **kw), ref


for _n in ("sum", "prod", "max", "min"):
    _stat(_n, NUM)
for _n in ("all", "any"):
    _stat(_n, ALL)
_stat("mean", FLT)
_stat("var", FLT, lambda d: {"correction": d.draw(st.sampled_from([0, 1]), label="correction")})
_stat("std", FLT, lambda d: {"correction": d.draw(st.sampled_from([0, 1]), label="correction")})


@spec("statistical", "cumulative_sum")
def _cumsum(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if s])
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis") if x.ndim > 1 else None
    inc = data.draw(st.booleans(), label="include_initial")
    return (xp.cumulative_sum(xp.asarray(x), axis=axis, include_initial=inc),
            np.cumulative_sum(x, axis=axis, include_initial=inc))


# ---- manipulation ----
@spec("manipulation", "concat")
def _concat(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if s])
    axis = data.draw(st.sampled_from([None, 0, -1]), label="axis")
    y = x[..., :1] if axis == -1 else x[:1]
    return xp.concat([xp.asarray(x), xp.asarray(y)], axis=axis), np.concat([x, y], axis=axis)


@spec("manipulation", "stack")
def _stack(data):
    x = _draw_array(data, ALL)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    return xp.stack([xp.asarray(x), xp.asarray(x)], axis=axis), np.stack([x, x], axis=axis)


@spec("manipulation", "expand_dims")
def _expand_dims(data):
    x = _draw_array(data, ALL)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    return xp.expand_dims(xp.asarray(x), axis=axis), np.expand_dims(x, axis)


@spec("manipulation", "flip")
def _flip(data):
    x = _draw_array(data, ALL)
    axis = _axis(data, x.ndim)
    return xp.flip(xp.asarray(x), axis=axis), np.flip(x, axis)


@spec("manipulation", "moveaxis")
def _moveaxis(data):
    x = _draw_array(data, ALL, shapes=[s for s in SHAPES if s])
    a, b = data.draw(st.integers(0, x.ndim - 1), label="src"), data.draw(st.integers(-x.ndim, x.ndim - 1), label="dst")
    return xp.moveaxis(xp.asarray(x), a, b), np.moveaxis(x, a, b)


@spec("manipulation", "permute_dims")
def _permute(data):
    x = _draw_array(data, ALL)
    axes = tuple(data.draw(st.permutations(range(x.ndim)), label="axes"))
    return xp.permute_dims(xp.asarray(x), axes), np.permute_dims(x, axes)


@spec("manipulation", "repeat")
def _repeat(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if s])
    axis = data.draw(st.sampled_from([None, 0]), label="axis")
    r = data.draw(st.integers(0, 3), label="repeats")
    return xp.repeat(xp.asarray(x), r, axis=axis), np.repeat(x, r, axis=axis)


@spec("manipulation", "reshape")
def _reshape(data):
    x = _draw_array(data, ALL)
    shape = data.draw(st.sampled_from([(-1,), (x.size, 1), (1, -1, 1)]), label="shape")
    return xp.reshape(xp.asarray(x), shape), np.reshape(x, shape)


@spec("manipulation", "roll")
def _roll(data):
    x = _draw_array(data, NUM)
    shift = data.draw(st.integers(-7, 7), label="shift")
    axis = _axis(data, x.ndim)
    return xp.roll(xp.asarray(x), shift, axis=axis), np.roll(x, shift, axis=axis)


@spec("manipulation", "squeeze")
def _squeeze(data):
    x = _draw_array(data, ALL, shapes=[(1,), (3, 1, 4), (1, 2, 1)])
    axis = data.draw(st.sampled_from([i for i, s in enumerate(x.shape) if s == 1]), label="axis")
    return xp.squeeze(xp.asarray(x), axis), np.squeeze(x, axis)


@spec("manipulation", "tile")
def _tile(data):
    x = _draw_array(data, NUM)
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3), label="reps"))
    return xp.tile(xp.asarray(x), reps), np.tile(x, reps)


@spec("manipulation", "unstack")
def _unstack(data):
    x = _draw_array(data, ALL, shapes=[s for s in SHAPES if s])
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    return xp.unstack(xp.asarray(x), axis=axis), np.unstack(x, axis=axis)


@spec("manipulation", "broadcast_to")
def _broadcast_to(data):
    x = _draw_array(data, ALL)
    shape = (2,) + x.shape
    return xp.broadcast_to(xp.asarray(x), shape), np.broadcast_to(x, shape)


@spec("manipulation", "broadcast_arrays")
def _broadcast_arrays(data):
    x = _draw_array(data, ALL)
    y = values(str(x.dtype), _broadcastable(data, x.shape), 3)
    return xp.broadcast_arrays(xp.asarray(x), xp.asarray(y)), list(np.broadcast_arrays(x, y))


# ---- searching, sets, sorting ----
@spec("searching", "argmax")
def _argmax(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if 0 not in s])
    axis, kd = _axis(data, x.ndim), data.draw(st.booleans(), label="keepdims")
    return xp.argmax(xp.asarray(x), axis=axis, keepdims=kd), np.argmax(x, axis=axis, keepdims=kd)


@spec("searching", "argmin")
def _argmin(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if 0 not in s])
    axis, kd = _axis(data, x.ndim), data.draw(st.booleans(), label="keepdims")
    return xp.argmin(xp.asarray(x), axis=axis, keepdims=kd), np.argmin(x, axis=axis, keepdims=kd)


@spec("searching", "nonzero")
def _nonzero(data):
    x = _draw_array(data, ALL, shapes=[s for s in SHAPES if s])
    return xp.nonzero(xp.asarray(x)), np.nonzero(x)


@spec("searching", "where")
def _where(data):
    x = _draw_array(data, NUM)
    c = values("bool", _broadcastable(data, x.shape), 5)
    return xp.where(xp.asarray(c), xp.asarray(x), xp.asarray(-x)), np.where(c, x, -x)


@spec("searching", "searchsorted")
def _searchsorted(data):
    x = np.sort(_draw_array(data, NUM, "any", [(5,), (0,)]))
    v = values(str(x.dtype), (4,), 9)
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    return xp.searchsorted(xp.asarray(x), xp.asarray(v), side=side), np.searchsorted(x, v, side=side)


for _n in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
    def _set(name: str) -> None:
        @spec("set", name)
        def build(data: Any) -> tuple[Any, Any]:
            x = _draw_array(data, NUM)
            return getattr(xp, name)(xp.asarray(x)), getattr(np, name)(x)

    _set(_n)


@spec("sorting", "sort")
def _sort(data):
    x = _draw_array(data, NUM, shapes=[s for s in SHAPES if s])
    axis, desc = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis"), data.draw(st.booleans(), label="desc")
    ref = np.sort(x, axis=axis)
    return xp.sort(xp.asarray(x), axis=axis, descending=desc), np.flip(ref, axis) if desc else ref


@spec("sorting", "argsort")
def _argsort(data):
    x = _draw_array(data, INT, shapes=[s for s in SHAPES if s])
    axis, desc = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis"), data.draw(st.booleans(), label="desc")
    ref = np.apply_along_axis(lambda v: np.array(sorted(range(len(v)), key=lambda i: -int(v[i]) if desc else
                                                        int(v[i])), dtype=np.int64), axis, x) if x.size else \
        np.zeros(x.shape, np.int64)
    return xp.argsort(xp.asarray(x), axis=axis, descending=desc), ref


# ---- creation ----
@spec("creation", "asarray")
def _asarray(data):
    x = _draw_array(data, ALL)
    as_list = data.draw(st.booleans(), label="as_list")
    if as_list and x.dtype.kind in "fb":
        return xp.asarray(x.tolist()), x.astype(np.float32 if x.dtype.kind == "f" else bool)
    return xp.asarray(x), x


@spec("creation", "arange")
def _arange(data):
    start, stop = data.draw(st.integers(-5, 5), label="start"), data.draw(st.integers(-5, 20), label="stop")
    step = data.draw(st.sampled_from([1, 2, -1, 0.5]), label="step")
    dt = np.float32 if isinstance(step, float) else np.int64
    return xp.arange(start, stop, step), np.arange(start, stop, step, dtype=dt)


@spec("creation", "linspace")
def _linspace(data):
    num, endpoint = data.draw(st.integers(0, 9), label="num"), data.draw(st.booleans(), label="endpoint")
    dt = data.draw(st.sampled_from(FLT), label="dtype")
    return xp.linspace(-2.0, 3.5, num, dtype=dt, endpoint=endpoint), np.linspace(-2.0, 3.5, num, dtype=dt,
                                                                                 endpoint=endpoint)


@spec("creation", "eye")
def _eye(data):
    n, m, k = data.draw(st.integers(0, 4), label="n"), data.draw(st.integers(0, 4), label="m"), \
        data.draw(st.integers(-3, 3), label="k")
    dt = data.draw(st.sampled_from(ALL), label="dtype")
    return xp.eye(n, m, k=k, dtype=dt), np.eye(n, m, k=k, dtype=dt)


def _creation(name: str) -> None:
    @spec("creation", name)
    def build(data: Any) -> tuple[Any, Any]:
        shape = data.draw(st.sampled_from(SHAPES), label="shape")
        dt = data.draw(st.sampled_from(ALL), label="dtype")
        if name == "full":
            return xp.full(shape, 3, dtype=dt), np.full(shape, 3, dtype=dt)
        if name == "empty":
            return xp.empty(shape, dtype=dt).shape, np.empty(shape, dtype=dt).shape
        return getattr(xp, name)(shape, dtype=dt), getattr(np, name)(shape, dtype=dt)


def _creation_like(name: str) -> None:
    @spec("creation", name)
    def build(data: Any) -> tuple[Any, Any]:
        x = _draw_array(data, ALL)
        if name == "full_like":
            return xp.full_like(xp.asarray(x), 1), np.full_like(x, 1)
        if name == "empty_like":
            return xp.empty_like(xp.asarray(x)).shape, np.empty_like(x).shape
        return getattr(xp, name)(xp.asarray(x)), getattr(np, name)(x)


for _n in ("zeros", "ones", "full", "empty"):
    _creation(_n)
for _n in ("zeros_like", "ones_like", "full_like", "empty_like"):
    _creation_like(_n)


@spec("creation", "tril")
def _tril(data):
    x = _draw_array(data, ALL, shapes=[(3, 4), (2, 3, 3)])
    k = data.draw(st.integers(-3, 3), label="k")
    return xp.tril(xp.asarray(x), k=k), np.tril(x, k)


@spec("creation", "triu")
def _triu(data):
    x = _draw_array(data, ALL, shapes=[(3, 4), (2, 3, 3)])
    k = data.draw(st.integers(-3, 3), label="k")
    return xp.triu(xp.asarray(x), k=k), np.triu(x, k)


@spec("creation", "meshgrid")
def _meshgrid(data):
    a, b = _draw_array(data, NUM, shapes=[(3,), (0,)]), values("int64", (4,), 1)
    indexing = data.draw(st.sampled_from(["xy", "ij"]), label="indexing")
    return xp.meshgrid(xp.asarray(a), xp.asarray(b), indexing=indexing), list(np.meshgrid(a, b, indexing=indexing))


@spec("creation", "from_dlpack")
def _from_dlpack(data):
    x = _draw_array(data, ALL)
    return xp.from_dlpack(x), x


# ---- data type functions ----
@spec("data-type", "astype")
def _astype(data):
    x = _draw_array(data, NUM, "positive")
    to = data.draw(st.sampled_from(ALL), label="to")
    return xp.astype(xp.asarray(x), getattr(xp, to)), x.astype(to)


@spec("data-type", "result_type")
def _result_type(data):
    a, b = data.draw(st.sampled_from(ALL), label="a"), data.draw(st.sampled_from(ALL), label="b")
    got = xp.result_type(getattr(xp, a), xp.asarray(np.zeros(2, b)))
    return got.np_name == np.result_type(a, b).name, True


@spec("data-type", "can_cast")
def _can_cast(data):
    a, b = data.draw(st.sampled_from(ALL), label="a"), data.draw(st.sampled_from(ALL), label="b")
    return xp.can_cast(getattr(xp, a), getattr(xp, b)), np.can_cast(a, b)


@spec("data-type", "isdtype")
def _isdtype(data):
    a = data.draw(st.sampled_from(ALL), label="a")
    kind = data.draw(st.sampled_from(["bool", "signed integer", "unsigned integer", "integral", "real floating",
                                      "numeric", ("integral", "bool")]), label="kind")
    return xp.isdtype(getattr(xp, a), kind), np.isdtype(np.dtype(a), kind)


@spec("data-type", "finfo")
def _finfo(data):
    a = data.draw(st.sampled_from(FLT), label="a")
    f, n = xp.finfo(getattr(xp, a)), np.finfo(a)
    return (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (n.bits, n.eps, n.max, n.min, n.smallest_normal), True


@spec("data-type", "iinfo")
def _iinfo(data):
    a = data.draw(st.sampled_from(INT), label="a")
    f, n = xp.iinfo(getattr(xp, a)), np.iinfo(a)
    return (f.bits, f.max, f.min) == (n.bits, n.max, n.min), True


# ---- linear algebra, indexing ----
@spec("linalg", "matmul")
def _matmul(data):
    dt = data.draw(st.sampled_from(NUM), label="dtype")
    a, b = values(dt, (2, 3, 4), 1), values(dt, data.draw(st.sampled_from([(4,), (4, 2), (1, 4, 3)]), label="bs"), 2)
    return xp.matmul(xp.asarray(a), xp.asarray(b)), np.matmul(a, b)


@spec("linalg", "matrix_transpose")
def _mt(data):
    x = _draw_array(data, ALL, shapes=[(2, 3), (3, 1, 4)])
    return xp.matrix_transpose(xp.asarray(x)), np.matrix_transpose(x)


@spec("linalg", "tensordot")
def _tensordot(data):
    dt = data.draw(st.sampled_from(NUM), label="dtype")
    a, b = values(dt, (2, 3, 4), 1), values(dt, (3, 4, 2), 2)
    axes = data.draw(st.sampled_from([0, 1, 2, ([1], [0]), ([0, 2], [2, 1])]), label="axes")
    b2 = b if axes != 1 else values(dt, (4, 5), 3)
    return xp.tensordot(xp.asarray(a), xp.asarray(b2), axes=axes), np.tensordot(a, b2, axes=axes)


@spec("linalg", "vecdot")
def _vecdot(data):
    x = _draw_array(data, FLT + ["int64"], shapes=[(5,), (2, 3), (3, 1, 4)])
    axis = data.draw(st.integers(-x.ndim, -1), label="axis")
    return xp.vecdot(xp.asarray(x), xp.asarray(x), axis=axis), np.vecdot(x, x, axis=axis)


@spec("indexing", "take")
def _take(data):
    x = _draw_array(data, ALL, shapes=[(5,), (2, 3), (3, 1, 4)])
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis") if x.ndim > 1 else None
    n = x.shape[axis if axis is not None else 0]
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=4), label="idx"), dtype=np.int64)
    return xp.take(xp.asarray(x), xp.asarray(idx), axis=axis), np.take(x, idx, axis=axis)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_conforms(name):
    family, build = SPECS[name]

    @settings(max_examples=4, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data):
        with np.errstate(all="ignore"):
            got, ref = build(data)
        compare(got, ref)
        PASSES[family] += 1

    check()


def test_namespace_lists_the_standard_functions():
    for name in SPECS:
        assert name in xp.__all__ and callable(getattr(xp, name))
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] is xp.float32 and "CPU" in info.devices()
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                   "uint64"}
    assert Tensor([1.0]).__array_namespace__() is xp is lazyarr.array_api
