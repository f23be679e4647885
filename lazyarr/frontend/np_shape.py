"""Lazy implementations of NumPy's array manipulation functions (NEP 18): reshaping, transposing, joining,
splitting, tiling, padding, rolling, flips, triangles and meshgrids. Results are views or fused kernels; errors
use NumPy's types and messages.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.elementwise import broadcast_shape
from lazyarr.frontend.inplace import check_writable, mark_readonly_view, view_computed
from lazyarr.frontend.layout import order_axes
from lazyarr.frontend.np_functions import call, finish, result_dtype
from lazyarr.frontend.np_ufuncs import _NoValue, as_tensor, const_like, iota, operator_index
from lazyarr.frontend.numpy_api import implements, is_tensor, numpy_fallback
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp
from lazyarr.helpers import normalize_axis, prod


def _axis_slice(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    """x[..., start:stop, ...] along `axis` (0 <= start <= stop <= size) as a view."""
    return x.shrink([(start, stop) if i == axis else (0, s) for i, s in enumerate(x.shape)])


def _axes_tuple(axis: Any) -> tuple[Any, ...]:
    """Axes, a shape or repetitions as a tuple: a sequence (a 1-d NumPy array too) or one value."""
    if isinstance(axis, np.ndarray) and axis.ndim:
        return tuple(axis.tolist())
    return tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)


# ---- shape ----


def _resolve_shape(shape: Any, size: int) -> tuple[int, ...]:
    dims = [operator_index(s) for s in _axes_tuple(shape)]
    if dims.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in dims:
        known = prod(d for d in dims if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {tuple(dims)}")
        dims[dims.index(-1)] = size // known
    if prod(dims) != size or any(d < 0 for d in dims):
        raise ValueError(f"cannot reshape array of size {size} into shape {tuple(dims)}")
    return tuple(dims)


def _reverse_axes(x: Tensor) -> Tensor:
    return x.permute(tuple(range(x.ndim))[::-1])


@implements(np.reshape, returns_view=True)
def _reshape(a: Any, /, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None) -> Any:
    """Reshape in C or Fortran ('F') index order; `copy=True` gives a copy."""
    x = as_tensor(a)
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("reshape() missing required argument 'shape' (pos 2)")
    dims = _resolve_shape(shape, x.size)
    if copy is False and x.size:
        # NumPy's own no-copy rule on a stand-in with x's strides (no data is read): ValueError where a copy is needed
        stand_in = np.lib.stride_tricks.as_strided(np.empty(1, np.uint8), x.shape, x.strides, writeable=False)
        np.reshape(stand_in, dims, order=order, copy=False)
    if isinstance(order, str) and order.upper() == "K":
        raise ValueError("order 'K' is not permitted for reshaping")
    # 'A' reads in F order a tensor that is F- but not C-contiguous (a transpose), as NumPy's; any case
    if order_axes(x, order) == tuple(range(x.ndim)):
        out = x.reshape(dims)
    else:
        out = _reverse_axes(_reverse_axes(x).reshape(dims[::-1]))
    return out.clone() if copy else out


@implements(np.ravel, returns_view=True)
def _ravel(a: Any, order: str = "C") -> Any:
    """The values as 1-D in index `order` ('C', 'F', 'A', 'K' as `Tensor.flatten` reads them), a view if possible."""
    return as_tensor(a).ravel(order)


@implements(np.transpose, returns_view=True)
def _transpose(a: Any, axes: Any = None) -> Any:
    x = as_tensor(a)
    if axes is None:
        return _reverse_axes(x)
    axes = _axes_tuple(axes)
    if len(axes) != x.ndim:
        raise ValueError("axes don't match array")
    perm = tuple(normalize_axis(operator_index(i), x.ndim) for i in axes)
    if len(set(perm)) != len(perm):
        raise ValueError("repeated axis in transpose")
    return x.permute(perm)


def _normalize_axes(axes: Any, ndim: int, name: str) -> list[int]:
    out = [normalize_axis(operator_index(a), ndim) for a in _axes_tuple(axes)]
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in `{name}` argument")
    return out


@implements(np.moveaxis, returns_view=True)
def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    x = as_tensor(a)
    src = _normalize_axes(source, x.ndim, "source")
    dst = _normalize_axes(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.permute(order)


@implements(np.swapaxes, returns_view=True)
def _swapaxes(a: Any, axis1: Any, axis2: Any) -> Any:
    x = as_tensor(a)
    i, j = normalize_axis(operator_index(axis1), x.ndim), normalize_axis(operator_index(axis2), x.ndim)
    order = list(range(x.ndim))
    order[i], order[j] = order[j], order[i]
    return x.permute(order)


if hasattr(np, "permute_dims"):

    @implements(np.permute_dims, returns_view=True)
    def _permute_dims(a: Any, /, axes: Any = None) -> Any:
        return _transpose(a, axes)

    @implements(np.matrix_transpose, returns_view=True)
    def _matrix_transpose(x: Any, /) -> Any:
        t = as_tensor(x)
        if t.ndim < 2:
            raise ValueError(f"Input array must be at least 2-dimensional, but it is {t.ndim}")
        return t.transpose(-2, -1)


@implements(np.expand_dims, returns_view=True)
def _expand_dims(a: Any, axis: Any) -> Any:
    x = as_tensor(a)
    n = x.ndim + len(_axes_tuple(axis))
    axes = _normalize_axes(axis, n, "axis")
    it = iter(x.shape)
    return x.reshape(tuple(1 if i in axes else next(it) for i in range(n)))


@implements(np.squeeze, returns_view=True)
def _squeeze(a: Any, axis: Any = None) -> Any:
    x = as_tensor(a)
    if x.ndim == 0 and not isinstance(axis, (tuple, list)) and axis is not None:
        return x.squeeze(operator_index(axis))  # an int axis 0 or -1 of a 0-d array, as NumPy takes it
    return x.squeeze(None if axis is None else tuple(_axes_tuple(axis)))


@implements(np.broadcast_to, returns_view=True)
def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    x = as_tensor(array)
    dims = tuple(operator_index(s) for s in _axes_tuple(shape))
    if any(d < 0 for d in dims):
        raise ValueError("all elements of broadcast shape must be non-negative")
    if not dims and x.ndim:
        raise ValueError("cannot broadcast a non-scalar to a scalar array")
    lead = len(dims) - x.ndim
    if lead < 0 or any(s != d and s != 1 for s, d in zip(x.shape, dims[lead:])):
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"{x.shape} and requested shape {dims}")
    out = x.broadcast_to(dims)
    out = x._new(x.uop) if out is x else out  # a view of its own: it is read-only, x stays writable
    mark_readonly_view(out, "a view of np.broadcast_to's result (NumPy's is read-only)")
    return out


@implements(np.broadcast_arrays, returns_view=True)
def _broadcast_arrays(*args: Any, subok: bool = False) -> Any:
    ts = [as_tensor(a) for a in args]
    shape = broadcast_shape(*[t.shape for t in ts])
    return tuple(t.broadcast_to(shape) for t in ts)


@implements(np.atleast_1d, returns_view=True)
def _atleast_1d(*arys: Any) -> Any:
    res = [t.reshape(1) if t.ndim == 0 else t for t in map(as_tensor, arys)]
    return res[0] if len(res) == 1 else tuple(res)


@implements(np.atleast_2d, returns_view=True)
def _atleast_2d(*arys: Any) -> Any:
    res = [t.reshape(1, 1) if t.ndim == 0 else t.reshape(1, -1) if t.ndim == 1 else t for t in map(as_tensor, arys)]
    return res[0] if len(res) == 1 else tuple(res)


def _to_3d(t: Tensor) -> Tensor:
    if t.ndim == 0:
        return t.reshape(1, 1, 1)
    if t.ndim == 1:
        return t.reshape(1, -1, 1)
    return t.unsqueeze(-1) if t.ndim == 2 else t


@implements(np.atleast_3d, returns_view=True)
def _atleast_3d(*arys: Any) -> Any:
    res = [_to_3d(as_tensor(a)) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


# ---- joining ----


def _cast_for_join(ts: list[Tensor], dtype: Any, casting: str) -> list[Tensor]:
    """The inputs of a join cast to `dtype` (out's dtype, or their result type when None), each under `casting`."""
    dt = result_dtype(*ts) if dtype is None else dtypes.to_dtype(dtype)
    for t in ts:
        if not np.can_cast(t.dtype.np_name, dt.np_name, casting):
            raise TypeError(f"Cannot cast array data from dtype('{t.dtype.np_name}') to dtype('{dt.np_name}') "
                            f"according to the rule '{casting}'")
    return [t.cast(dt) for t in ts]


@implements(np.concatenate)
def _concatenate(arrays: Sequence[Any], /, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                 casting: str = "same_kind") -> Any:
    ts = [as_tensor(a) for a in arrays]
    if not ts:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        ts, axis = [t.reshape(-1) for t in ts], 0
    if any(t.ndim == 0 for t in ts):
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    first = ts[0]
    for i, t in enumerate(ts[1:], start=1):
        if t.ndim != first.ndim:
            raise ValueError(f"all the input arrays must have same number of dimensions, but the array at index 0 has "
                             f"{first.ndim} dimension(s) and the array at index {i} has {t.ndim} dimension(s)")
    ax = normalize_axis(operator_index(axis), first.ndim)
    for i, t in enumerate(ts[1:], start=1):
        for d in range(first.ndim):
            if d != ax and t.shape[d] != first.shape[d]:
                raise ValueError(f"all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size {first.shape[d]} "
                                 f"and the array at index {i} has size {t.shape[d]}")
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    ts = _cast_for_join(ts, dtype if out is None else out.dtype, casting)
    res = ts[0].cat(*ts[1:], dim=ax) if len(ts) > 1 else ts[0].clone()
    return finish(res, out, "concatenate")


if hasattr(np, "concat"):
    implements(np.concat)(_concatenate)


@implements(np.stack)
def _stack(arrays: Sequence[Any], axis: Any = 0, out: Any = None, *, dtype: Any = None,
           casting: str = "same_kind") -> Any:
    ts = [as_tensor(a) for a in arrays]
    if not ts:
        raise ValueError("need at least one array to stack")
    if any(t.shape != ts[0].shape for t in ts):
        raise ValueError("all input arrays must have the same shape")
    ax = normalize_axis(operator_index(axis), ts[0].ndim + 1)
    return _concatenate([t.unsqueeze(ax) for t in ts], ax, out, dtype=dtype, casting=casting)


@implements(np.vstack)
def _vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    ts = [_atleast_2d(a) for a in tup]
    return _concatenate(ts, 0, dtype=dtype, casting=casting)


@implements(np.hstack)
def _hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> Any:
    ts = [_atleast_1d(a) for a in tup]
    return _concatenate(ts, 0 if ts and ts[0].ndim == 1 else 1, dtype=dtype, casting=casting)


@implements(np.dstack)
def _dstack(tup: Sequence[Any]) -> Any:
    return _concatenate([_atleast_3d(a) for a in tup], 2)


@implements(np.column_stack)
def _column_stack(tup: Sequence[Any]) -> Any:
    ts = [as_tensor(a) for a in tup]
    return _concatenate([t.reshape(-1, 1) if t.ndim < 2 else t for t in ts], 1)


@implements(np.append)
def _append(arr: Any, values: Any, axis: Any = None) -> Any:
    x = as_tensor(arr)
    v = as_tensor(values, x)
    if axis is None:
        return _concatenate([x.reshape(-1), v.reshape(-1)], 0)
    return _concatenate([x, v], axis)


if hasattr(np, "unstack"):

    @implements(np.unstack, returns_view=True)
    def _unstack(x: Any, /, *, axis: int = 0) -> Any:
        t = as_tensor(x)
        if t.ndim == 0:
            raise ValueError("Input array must be at least 1-d.")
        ax = normalize_axis(operator_index(axis), t.ndim)
        return tuple(_axis_slice(t, ax, i, i + 1).squeeze(ax) for i in range(t.shape[ax]))


# ---- splitting ----


def _split_at(x: Tensor, bounds: list[int], ax: int) -> list[Tensor]:
    out = []
    index = [slice(None)] * x.ndim
    for start, stop in zip(bounds[:-1], bounds[1:]):
        index[ax] = slice(start, stop)
        out.append(x[tuple(index)])
    return out


@implements(np.array_split, returns_view=True)
def _array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    x = as_tensor(ary)
    ax = normalize_axis(operator_index(axis), x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (list, tuple, np.ndarray)) or is_tensor(indices_or_sections):
        cuts = [int(i) for i in (indices_or_sections.tolist() if hasattr(indices_or_sections, "tolist")
                                 else indices_or_sections)]
        return _split_at(x, [0] + cuts + [n], ax)
    sections = operator_index(indices_or_sections)
    if sections <= 0:
        raise ValueError("number sections must be larger than 0.")
    each, extra = divmod(n, sections)
    sizes = [0] + extra * [each + 1] + (sections - extra) * [each]
    return _split_at(x, list(np.cumsum(sizes)), ax)


@implements(np.split, returns_view=True)
def _split(ary: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    x = as_tensor(ary)
    if not isinstance(indices_or_sections, (list, tuple, np.ndarray)) and not is_tensor(indices_or_sections):
        n = x.shape[normalize_axis(operator_index(axis), x.ndim)]
        if n % operator_index(indices_or_sections):
            raise ValueError("array split does not result in an equal division")
    return _array_split(x, indices_or_sections, axis)


@implements(np.hsplit, returns_view=True)
def _hsplit(ary: Any, indices_or_sections: Any) -> Any:
    x = as_tensor(ary)
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


@implements(np.vsplit, returns_view=True)
def _vsplit(ary: Any, indices_or_sections: Any) -> Any:
    x = as_tensor(ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split(x, indices_or_sections, 0)


# ---- repetition, flips, rolls ----


@implements(np.tile)
def _tile(A: Any, reps: Any) -> Any:  # noqa: N803
    x = as_tensor(A)
    r = tuple(operator_index(v) for v in _axes_tuple(reps))
    if any(v < 0 for v in r):
        raise ValueError("negative dimensions are not allowed")
    r = (1,) * (x.ndim - len(r)) + r
    x = x.reshape((1,) * (len(r) - x.ndim) + x.shape)
    return x.repeat(r) if r else x.clone()


@implements(np.repeat)
def _repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    """Repeat each element; an integer count stays a view-based expand, per-element counts gather by index."""
    x = as_tensor(a)
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        ax = normalize_axis(operator_index(axis), x.ndim)
    n = x.shape[ax]
    counts = np.asarray(repeats.numpy() if is_tensor(repeats) else repeats)
    if counts.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {counts.dtype!r} to dtype('int64') according to the rule 'safe'")
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    if counts.ndim == 0 or counts.size == 1:
        r = int(counts.reshape(-1)[0])
        y = x.unsqueeze(ax + 1)
        y = y.expand(tuple(r if i == ax + 1 else s for i, s in enumerate(y.shape)))
        return y.reshape(x.shape[:ax] + (n * r,) + x.shape[ax + 1:])
    if counts.shape != (n,):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) {counts.shape}")
    index = np.repeat(np.arange(n), counts)
    sel = [slice(None)] * ax + [Tensor(index, device=x.device)]
    return x[tuple(sel)] if index.size else _axis_slice(x, ax, 0, 0)


@implements(np.flip, returns_view=True)
def _flip(m: Any, axis: Any = None) -> Any:
    x = as_tensor(m)
    return x.flip(None if axis is None else _normalize_axes(axis, x.ndim, "axis"))


@implements(np.fliplr, returns_view=True)
def _fliplr(m: Any) -> Any:
    x = as_tensor(m)
    if x.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return x.flip(1)


@implements(np.flipud, returns_view=True)
def _flipud(m: Any) -> Any:
    x = as_tensor(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return x.flip(0)


@implements(np.rot90, returns_view=True)
def _rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    x = as_tensor(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError("Axes must be different.")
    if not all(-x.ndim <= a < x.ndim for a in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={x.ndim}.")
    a0, a1 = axes[0] % x.ndim, axes[1] % x.ndim
    k %= 4
    if k == 0:
        return x
    if k == 2:
        return x.flip([a0, a1])
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return x.flip(a1).permute(perm) if k == 1 else x.permute(perm).flip(a1)


@implements(np.roll)
def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    """Elements shifted cyclically: two slices joined (lazy); axis=None rolls the flattened array."""
    x = as_tensor(a)
    if axis is None:
        return _roll(x.reshape(-1), shift, 0).reshape(x.shape)
    shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))
    if shifts.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = [0] * x.ndim
    for s, ax in zip(shifts.reshape(-1), axes.reshape(-1)):
        total[normalize_axis(int(ax), x.ndim)] += int(s)
    for ax, s in enumerate(total):
        n = x.shape[ax]
        if n == 0 or s % n == 0:
            continue
        s %= n
        x = _axis_slice(x, ax, n - s, n).cat(_axis_slice(x, ax, 0, n - s), dim=ax)
    return x


@implements(np.diff, returns_view=True)  # n=0 returns the array itself, as NumPy
def _diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = _NoValue, append: Any = _NoValue) -> Any:
    """n-th discrete difference along `axis` (not_equal for bool), with optional prepend/append values."""
    n = operator_index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    x = as_tensor(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = normalize_axis(operator_index(axis), x.ndim)
    if n == 0:
        return x
    parts = []
    for extra in (prepend, append):
        if extra is _NoValue:
            parts.append(None)
            continue
        e = as_tensor(extra, x)
        if e.ndim == 0:
            e = e.reshape((1,) * x.ndim).expand(tuple(1 if i == ax else s for i, s in enumerate(x.shape)))
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        x = _concatenate([p for p in (parts[0], x, parts[1]) if p is not None], ax)
    op = np.not_equal if x.dtype.is_bool else np.subtract
    for _ in range(n):
        m = x.shape[ax]
        # an axis already empty (n past its length) stays empty, as NumPy's
        x = call(op, _axis_slice(x, ax, min(1, m), m), _axis_slice(x, ax, 0, max(m - 1, 0)))
    return x


# ---- triangles, diagonals, grids ----


def _tri_mask(x: Tensor, k: int, lower: bool) -> Tensor:
    rows, cols = (x.shape[-2], x.shape[-1]) if x.ndim >= 2 else (x.shape[-1], x.shape[-1])
    i, j = iota(rows, x).reshape(rows, 1), iota(cols, x).reshape(1, cols)
    return (j - i <= k) if lower else (j - i >= k)


@implements(np.tril)
def _tril(m: Any, k: int = 0) -> Any:
    x = as_tensor(m)
    mask = _tri_mask(x, operator_index(k), True)
    shape = broadcast_shape(mask.shape, x.shape)
    return mask.broadcast_to(shape).where(x.broadcast_to(shape), const_like(x, 0).broadcast_to(shape))


@implements(np.triu)
def _triu(m: Any, k: int = 0) -> Any:
    x = as_tensor(m)
    mask = _tri_mask(x, operator_index(k), False)
    shape = broadcast_shape(mask.shape, x.shape)
    return mask.broadcast_to(shape).where(x.broadcast_to(shape), const_like(x, 0).broadcast_to(shape))


def diagonal(x: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, view: bool = True) -> Tensor:
    """x's diagonal over (axis1, axis2) moved to the last axis, as a masked sum over a square slice (lazy).

    Read-only, as NumPy's (its diagonal is a read-only view): a write to it or to a view of it raises ValueError
    (it would not reach `x`, which a PyTorch-style writable view would change). A view all the same: after a write
    to x's array it shows the write (it is computed again from the array's new value). `view=False`: a plain value
    for a computation (np.trace, einsum's repeated labels), which no one writes or reads after a write."""
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    out = _diagonal_of(x, offset, a1, a2)
    if not view:
        return out  # a value for a computation (np.trace, einsum): no one writes or reads it after a write
    # a view of x's array: after a write to it, the diagonal is computed again from the array's new value
    view_computed(x, out, functools.partial(_diagonal_uop, x.device, offset, a1, a2),
                  "NumPy's diagonal is a read-only view; write into a copy (np.diagonal(a).copy())")
    return out


def _diagonal_uop(device: str, offset: int, a1: int, a2: int, u: UOp) -> UOp:
    return _diagonal_of(Tensor(u, device=device), offset, a1, a2).uop


def _diagonal_of(x: Tensor, offset: int, a1: int, a2: int) -> Tensor:
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]
    y = x.permute(rest + [a1, a2])
    n, m = y.shape[-2], y.shape[-1]
    length = max(0, min(n, m - offset)) if offset >= 0 else max(0, min(n + offset, m))
    # an offset past the edge gives an empty diagonal (NumPy): start the (empty) slice inside the plane
    r0, c0 = (0, min(offset, m)) if offset >= 0 else (min(-offset, n), 0)
    sq = y.shrink([(0, s) for s in y.shape[:-2]] + [(r0, r0 + length), (c0, c0 + length)])
    eye = iota(length, x).reshape(length, 1) == iota(length, x).reshape(1, length)
    # off the diagonal -0.0 for floats: -0.0 + x is x for every x, -0.0 included (a +0.0 turned a -0.0 diagonal +0)
    picked = eye.where(sq, const_like(sq, -0.0 if sq.dtype.is_float else 0))
    return picked._new(picked.uop.reduce(Ops.ADD, (picked.ndim - 1,))).squeeze(-1)


@implements(np.diagonal)
def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    return diagonal(as_tensor(a), operator_index(offset), axis1, axis2)


@implements(np.diag)
def _diag(v: Any, k: int = 0) -> Any:
    x = as_tensor(v)
    if x.ndim == 2:
        return diagonal(x, operator_index(k))
    if x.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n, k = x.shape[0], operator_index(k)
    size = n + abs(k)
    i, j = iota(size, x).reshape(size, 1), iota(size, x).reshape(1, size)
    src = x.pad(((0, abs(k)),))
    vals = src.reshape(size, 1) if k >= 0 else src.reshape(1, size)
    return (j - i == k).where(vals.broadcast_to((size, size)), x._new(UOp.const(0, x.dtype, (size, size))))


@implements(np.trace)
def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Any:
    d = diagonal(as_tensor(a), operator_index(offset), axis1, axis2, view=False)
    return np.sum(d, axis=-1, dtype=dtype, out=out)


@implements(np.meshgrid, returns_view=True)
def _meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> Any:
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ts = [as_tensor(x).reshape(-1) for x in xi]
    out = [t.reshape(tuple(-1 if i == k else 1 for i in range(ndim))) for k, t in enumerate(ts)]
    if indexing == "xy" and ndim > 1:
        out[0] = out[0].reshape((1, -1) + (1,) * (ndim - 2))
        out[1] = out[1].reshape((-1, 1) + (1,) * (ndim - 2))
    if not sparse:
        out = list(_broadcast_arrays(*out))
    return tuple(o.clone() for o in out) if copy else tuple(out)  # copy=False: views of the inputs, as NumPy's


# ---- padding ----


def _pairs(width: Any, ndim: int, name: str) -> list[tuple[Any, Any]]:
    arr = np.asarray(width.numpy() if is_tensor(width) else width)
    try:
        pairs = np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"{arr.shape} and requested shape ({ndim},2)") from None
    if name == "pad_width":
        if pairs.dtype.kind not in "iu":
            raise TypeError("`pad_width` must be of integral type.")
        if (pairs < 0).any():
            raise ValueError("index can't contain negative values")
        return [(int(b), int(a)) for b, a in pairs]
    return [(b.item(), a.item()) for b, a in pairs]


@implements(np.pad)
def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    """np.pad with the 'constant', 'edge', 'reflect' (even), 'symmetric' and 'wrap' modes done lazily (slices and
    joins); other modes, and widths that need NumPy's repeated reflection, fall back to NumPy."""
    x = as_tensor(array)
    if isinstance(pad_width, dict):  # NumPy >= 2.3: {axis: width or (before, after)}, other axes not padded
        seq = [(0, 0)] * x.ndim
        for ax, w in pad_width.items():
            seq[ax] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    widths = _pairs(pad_width, x.ndim, "pad_width")
    fallback = mode not in ("constant", "edge", "reflect", "symmetric", "wrap") or \
        (mode != "constant" and kwargs.get("reflect_type", "even") != "even")
    for (b, a), n in zip(widths, x.shape):
        if (b or a) and mode != "constant" and (n == 0 or (mode == "reflect" and max(b, a) > n - 1)
                                               or max(b, a) > n):
            fallback = True
    if fallback or set(kwargs) - {"constant_values", "reflect_type"}:
        return numpy_fallback(np.pad, (array, pad_width, mode), kwargs, "pad")
    if mode == "constant":
        values = _pairs(kwargs.get("constant_values", 0), x.ndim, "constant_values")
        for ax, ((b, a), (vb, va)) in enumerate(zip(widths, values)):
            x = _pad_constant(x, ax, b, a, vb, va)
        return x
    for ax, (b, a) in enumerate(widths):
        if not (b or a):
            continue
        n = x.shape[ax]
        if mode == "edge":
            before = _piece(x, ax, slice(0, 1)).expand(tuple(b if i == ax else s for i, s in enumerate(x.shape)))
            after = _piece(x, ax, slice(n - 1, n)).expand(tuple(a if i == ax else s for i, s in enumerate(x.shape)))
        elif mode == "reflect":
            before, after = _piece(x, ax, slice(b, 0, -1)), _piece(x, ax, _down(n - 2, a))
        elif mode == "symmetric":
            before = _piece(x, ax, slice(b - 1, None, -1) if b else slice(0, 0))
            after = _piece(x, ax, _down(n - 1, a))
        else:
            before, after = _piece(x, ax, slice(n - b, n)), _piece(x, ax, slice(0, a))
        x = before.cat(x, after, dim=ax)
    return x


def _down(start: int, count: int) -> slice:
    """`count` indices down from `start`; a stop of -1 would mean the last element, so it becomes None."""
    stop = start - count
    return slice(start, stop if stop >= 0 else None, -1)


def _piece(x: Tensor, ax: int, sl: slice) -> Tensor:
    index = [slice(None)] * x.ndim
    index[ax] = sl
    return x[tuple(index)]


def _pad_constant(x: Tensor, ax: int, b: int, a: int, vb: Any, va: Any) -> Tensor:
    if not (b or a):
        return x
    pads = [(b, a) if i == ax else (0, 0) for i in range(x.ndim)]
    padded = x._new(x.uop.pad(tuple(pads)))
    inside = x._new(const_like(x, True, dtypes.bool_).uop.pad(tuple(pads)))
    pos = iota(padded.shape[ax], x).reshape(tuple(-1 if i == ax else 1 for i in range(x.ndim)))
    vb_t, va_t = (Tensor(np.asarray(v).astype(x.dtype.np_name), device=x.device) for v in (vb, va))
    fill = (pos < b).where(vb_t, va_t).broadcast_to(padded.shape)
    return inside.where(padded, fill)


def _take_indices(indices: Any, like: Tensor) -> Tensor:
    """np.take's indices as a tensor of integers, converted as NumPy converts them: an array or Tensor must hold
    integers or bools (TypeError otherwise: NumPy's 'same_kind' rule); anything else (a nested list, a scalar) is
    converted to integers as np.asarray(indices, np.intp) does, so [] is empty and 1.5 is 1."""
    if is_tensor(indices) or isinstance(indices, np.ndarray):
        idx = as_tensor(indices, like)
        if not (idx.dtype.is_int or idx.dtype.is_bool):
            raise TypeError(f"Cannot cast array data from dtype('{idx.dtype.np_name}') to dtype('int64') according "
                            "to the rule 'same_kind'")
        return idx
    return Tensor(np.asarray(indices, dtype=np.intp), device=like.device)


@implements(np.take)
def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    """Elements at `indices` along `axis` (flattened when None); mode 'raise' checks bounds (IndexError),
    'wrap' and 'clip' map indices into range first."""
    x = as_tensor(a)
    if axis is None or x.ndim == 0:  # NumPy takes a 0-d array as 1-D here: its axis 0 or -1 is that one
        x, ax = x.reshape(-1), 0 if axis is None else normalize_axis(operator_index(axis), 1)
    else:
        ax = normalize_axis(operator_index(axis), x.ndim)
    n = x.shape[ax]
    lead = (slice(None),) * ax
    if isinstance(indices, (int, np.integer)) and mode == "raise":
        return finish(x[lead + (int(indices),)], out, "take")
    idx = _take_indices(indices, x)
    if mode in ("wrap", "clip"):
        if n == 0 and idx.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        idx = idx % max(n, 1) if mode == "wrap" else idx.clip(0, max(n - 1, 0))
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    return finish(x[lead + (idx.cast(dtypes.int64),)], out, "take")


@implements(np.take_along_axis)
def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Any:
    x = as_tensor(arr)
    idx = as_tensor(indices, x)
    if axis is None:
        x, axis = x.reshape(-1), 0
    ax = normalize_axis(operator_index(axis), x.ndim)
    if idx.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    grids = [idx if d == ax else iota(x.shape[d], x).reshape(tuple(-1 if i == d else 1 for i in range(x.ndim)))
             for d in range(x.ndim)]
    return x[tuple(grids)]



@implements(np.put)
def _put(a: Any, ind: Any, v: Any, mode: str = "raise") -> None:
    """In place: the flattened elements of Tensor `a` at host indices `ind` (an array, list or int) set to `v`
    (flattened, repeated as needed; the last of repeated indices wins), as a scatter, so it stays lazy and works
    inside @lazyarr.jit. Tensor indices, an empty `a` or `v`, and other arguments go to NumPy (`numpy_fallback`)."""
    idx = None if is_tensor(ind) else np.asarray(ind)
    vals = as_tensor(v, a if is_tensor(a) else None) if is_tensor(a) else None
    if idx is None or vals is None or idx.dtype.kind not in "iu" or mode not in ("raise", "wrap", "clip") or \
            a.ndim == 0 or a.size == 0 or vals.size == 0:
        return numpy_fallback(np.put, (a, ind, v), {"mode": mode}, "put")  # type: ignore[no-any-return]
    check_writable(a, "put: output array")  # before the indices, as NumPy
    idx = idx.reshape(-1).astype(np.int64)
    n = a.size
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = np.clip(idx, 0, n - 1)
    elif idx.size and (idx.min() < -n or idx.max() >= n):
        bad = idx[(idx < -n) | (idx >= n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    if idx.size:
        flat = vals.reshape(-1)
        a[np.unravel_index(idx % n, a.shape)] = flat[np.arange(idx.size) % flat.size].cast(a.dtype)
    return None


@implements(np.put_along_axis)
def _put_along_axis(arr: Any, indices: Any, values: Any, axis: Any) -> None:
    """In place: `arr` at host `indices` along `axis` set to `values` (broadcast to the indices), as a scatter (lazy,
    and inside @lazyarr.jit); Tensor indices and axis=None go to NumPy (`numpy_fallback`)."""
    idx = None if is_tensor(indices) else np.asarray(indices)
    if not is_tensor(arr) or idx is None or axis is None or idx.dtype.kind not in "iu":
        return numpy_fallback(np.put_along_axis, (arr, indices, values, axis), {},  # type: ignore[no-any-return]
                              "put_along_axis")
    check_writable(arr, "put_along_axis: output array")
    ax = normalize_axis(operator_index(axis), arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    grids = tuple(idx if d == ax else np.arange(arr.shape[d]).reshape(tuple(-1 if i == d else 1
                                                                            for i in range(arr.ndim)))
                  for d in range(arr.ndim))
    arr[grids] = values
    return None
