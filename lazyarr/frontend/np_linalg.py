"""Lazy products and norms for NumPy functions (NEP 18): dot, vdot, inner, outer, tensordot, einsum and
`np.linalg.norm` (with the NumPy 2 `vector_norm`/`matrix_norm`). Every contraction is one broadcast multiply
feeding one reduction, so it fuses with the elementwise work around it. Norms that need an SVD fall back to NumPy.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.np_functions import call, finish, result_dtype
from lazyarr.frontend.np_shape import diagonal
from lazyarr.frontend.np_ufuncs import as_tensor, operator_index, reduce_axes
from lazyarr.frontend.numpy_api import implements, numpy_fallback
from lazyarr.frontend.tensor import Tensor
from lazyarr.helpers import normalize_axis


def _sum_no_upcast(p: Tensor, axes: tuple[int, ...], dt: DType) -> Tensor:
    """Sum over `axes` in `dt` (integers wrap, bool is any(), float16 accumulates in float32), like NumPy's dot."""
    if not axes:
        return p
    return p.sum(axes, dtype=dt) if not dt.is_bool else p.sum(axes, dtype=dtypes.bool_)


def contract(x: Tensor, y: Tensor, ax_x: list[int], ax_y: list[int]) -> Tensor:
    """tensordot: sum over x's `ax_x` against y's `ax_y`; result axes are x's free axes then y's."""
    dt = dtypes.promote(x.dtype, y.dtype)
    if [x.shape[i] for i in ax_x] != [y.shape[j] for j in ax_y]:
        raise ValueError("shape-mismatch for sum")
    free_x = [i for i in range(x.ndim) if i not in ax_x]
    free_y = [j for j in range(y.ndim) if j not in ax_y]
    fa, ks, fb = [x.shape[i] for i in free_x], [x.shape[i] for i in ax_x], [y.shape[j] for j in free_y]
    calc = dtypes.float32 if dt is dtypes.float16 else dt  # NumPy's float16 dot: exact products, one rounding
    xa = x.cast(calc).permute(free_x + ax_x).reshape(tuple(fa + ks + [1] * len(fb)))
    yb = y.cast(calc).permute(ax_y + free_y).reshape(tuple([1] * len(fa) + ks + fb))
    return _sum_no_upcast(xa * yb, tuple(range(len(fa), len(fa) + len(ks))), calc).cast(dt)


@implements(np.dot)
def _dot(a: Any, b: Any, out: Any = None) -> Any:
    x = as_tensor(a)
    y = as_tensor(b, x)
    if x.ndim == 0 or y.ndim == 0:
        return call(np.multiply, x, y, out=out)
    ay = 0 if y.ndim == 1 else y.ndim - 2
    if x.shape[-1] != y.shape[ay]:
        raise ValueError(f"shapes {x.shape} and {y.shape} not aligned: {x.shape[-1]} (dim {x.ndim - 1}) != "
                         f"{y.shape[ay]} (dim {ay})")
    r = contract(x, y, [x.ndim - 1], [ay])
    if out is not None and np.dtype(r.dtype.np_name) != np.dtype(getattr(out.dtype, "np_name", out.dtype)):
        raise ValueError("output array is not acceptable (must have the right datatype, number of dimensions, and be "
                         "a C-Array)")
    return finish(r, out, "dot")


@implements(np.vdot)
def _vdot(a: Any, b: Any) -> Any:
    x = as_tensor(a).reshape(-1)
    y = as_tensor(b, x)
    if y.size != x.size:
        raise ValueError(f"cannot reshape array of size {y.size} into shape ({x.size},)")
    return contract(x, y.reshape(-1), [0], [0])


@implements(np.inner)
def _inner(a: Any, b: Any) -> Any:
    x = as_tensor(a)
    y = as_tensor(b, x)
    if x.ndim == 0 or y.ndim == 0:
        return call(np.multiply, x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"shapes {x.shape} and {y.shape[::-1]} not aligned: {x.shape[-1]} (dim {x.ndim - 1}) != "
                         f"{y.shape[-1]} (dim 0)")
    return contract(x, y, [x.ndim - 1], [y.ndim - 1])


@implements(np.outer)
def _outer(a: Any, b: Any, out: Any = None) -> Any:
    x = as_tensor(a)
    y = as_tensor(b, x)
    return call(np.multiply, x.reshape(-1, 1), y.reshape(1, -1), out=out)


def _as_list(axes: Any) -> list[Any]:
    return list(axes) if isinstance(axes, (list, tuple)) else [axes]


@implements(np.tensordot)
def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    x = as_tensor(a)
    y = as_tensor(b, x)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > min(x.ndim, y.ndim):
            raise ValueError("shape-mismatch for sum")
        ax_x, ax_y = list(range(x.ndim - n, x.ndim)), list(range(n))
    else:
        ax_a, ax_b = axes
        ax_x = [normalize_axis(operator_index(i), x.ndim) for i in _as_list(ax_a)]
        ax_y = [normalize_axis(operator_index(i), y.ndim) for i in _as_list(ax_b)]
        if len(ax_x) != len(ax_y):
            raise ValueError("shape-mismatch for sum")
        if len(set(ax_x)) != len(ax_x) or len(set(ax_y)) != len(ax_y):
            raise ValueError("duplicate axes are not allowed in tensordot")
    return contract(x, y, ax_x, ax_y)


# ---- einsum ----

_ELL = "..."


def _parse_spec(spec: str) -> list[str]:
    labels: list[str] = []
    i = 0
    while i < len(spec):
        if spec.startswith(_ELL, i):
            labels.append(_ELL)
            i += 3
            continue
        c = spec[i]
        if not c.isalpha():
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters")
        labels.append(c)
        i += 1
    return labels


def _expand_ellipsis(labels: list[str], ndim: int, index: int) -> tuple[list[str], int]:
    explicit = [lab for lab in labels if lab != _ELL]
    if _ELL not in labels:
        if ndim > len(explicit):
            raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        if ndim < len(explicit):
            raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {index}")
        return labels, 0
    n = ndim - len(explicit)
    if n < 0:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {index}")
    k = labels.index(_ELL)
    return labels[:k] + [f"...{-n + i}" for i in range(n)] + labels[k + 1:], n


@implements(np.einsum)
def _einsum(*operands: Any, out: Any = None, optimize: Any = False, **kwargs: Any) -> Any:
    """Einstein summation in the subscripts-string form (implicit and explicit output, '...', repeated indices for
    diagonals) as one broadcast product and one reduction. The interleaved (operand, sublist) form falls back."""
    if not operands or not isinstance(operands[0], str) or set(kwargs) - {"dtype", "casting", "order"}:
        return numpy_fallback(np.einsum, operands, dict(kwargs, out=out, optimize=optimize), "einsum")
    spec = operands[0].replace(" ", "")
    ts = [as_tensor(o) for o in operands[1:]]
    ins, _, outs = spec.partition("->")
    in_specs = ins.split(",")
    if len(in_specs) > len(ts):
        raise ValueError("fewer operands provided to einstein sum function than specified in the subscripts string")
    if len(in_specs) < len(ts):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string")
    dt = dtypes.to_dtype(kwargs["dtype"]) if kwargs.get("dtype") is not None else result_dtype(*ts)
    casting = kwargs.get("casting", "safe")
    for i, t in enumerate(ts):
        if not np.can_cast(t.dtype.np_name, dt.np_name, casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from dtype('{t.dtype.np_name}') to "
                            f"dtype('{dt.np_name}') according to the rule '{casting}'")
    labelled: list[tuple[Tensor, list[str]]] = []
    counts: dict[str, int] = {}  # occurrences in the subscripts: implicit output keeps labels seen exactly once
    n_ell = 0
    for i, (t, s) in enumerate(zip(ts, in_specs)):
        labels, n = _expand_ellipsis(_parse_spec(s), t.ndim, i)
        n_ell = max(n_ell, n)
        for lab in labels:
            counts[lab] = counts.get(lab, 0) + 1
        t = t.cast(dt)
        while (dup := next((lab for lab in labels if labels.count(lab) > 1), None)) is not None:
            p, q = labels.index(dup), labels.index(dup, labels.index(dup) + 1)
            if t.shape[p] != t.shape[q]:
                raise ValueError(f"dimensions in single operand for collapsing index '{dup}' don't match "
                                 f"({t.shape[p]} != {t.shape[q]})")
            t = diagonal(t, 0, p, q, view=False)
            labels = [lab for k, lab in enumerate(labels) if k not in (p, q)] + [dup]
        labelled.append((t, labels))
    ell = [f"...{-n_ell + i}" for i in range(n_ell)]
    if "->" in spec:
        out_spec = _parse_spec(outs)
        if n_ell and _ELL not in out_spec:  # NumPy sums over no broadcast dimension, even one of size 1
            raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        out_labels = []
        for lab in out_spec:
            if lab == _ELL:
                out_labels += ell
                continue
            if lab not in counts:
                raise ValueError(f"einstein sum subscripts string included output subscript '{lab}' which never "
                                 "appeared in an input")
            if lab in out_labels:
                raise ValueError(f"einstein sum subscripts string includes output subscript '{lab}' multiple times")
            out_labels.append(lab)
    else:
        out_labels = ell + sorted(lab for lab, c in counts.items() if c == 1 and not lab.startswith(_ELL))
    sizes: dict[str, int] = {}
    for t, labels in labelled:
        for lab, s in zip(labels, t.shape):
            if sizes.get(lab, 1) not in (1, s) and s != 1:
                raise ValueError(f"operands could not be broadcast together with remapped shapes: subscript '{lab}' "
                                 f"has sizes {sizes[lab]} and {s}")
            sizes[lab] = max(sizes.get(lab, 1), s) if s != 0 and sizes.get(lab) != 0 else 0
    order = out_labels + [lab for lab in sizes if lab not in out_labels]
    product: Tensor | None = None
    for t, labels in labelled:
        perm = sorted(range(len(labels)), key=lambda k: order.index(labels[k]))
        placed = t.permute(perm) if perm else t
        shape = tuple(t.shape[labels.index(lab)] if lab in labels else 1 for lab in order)
        aligned = placed.reshape(shape)
        product = aligned if product is None else product * aligned
    assert product is not None
    product = product.broadcast_to(tuple(sizes[lab] for lab in order))
    res = _sum_no_upcast(product, tuple(range(len(out_labels), len(order))), dt)
    return finish(res, out, "einsum", casting)


# ---- norms ----


def _float(x: Tensor) -> Tensor:
    return x if x.dtype.is_float else x.cast(dtypes.float64)


def _vector_norm(x: Tensor, ord: Any, axes: tuple[int, ...], keepdims: bool) -> Tensor:
    """Vector norm over `axes`; reduced dims are dropped only at the end so the work after the sum fuses."""
    ax = x.abs()
    if ord is None or ord == 2:
        r = (x * x).sum(axes, keepdims=True).sqrt()
    elif ord == math.inf:
        r = ax.max(axes, keepdims=True, initial=0)  # 0 for an empty vector, as NumPy's
    elif ord == -math.inf:
        r = ax.min(axes, keepdims=True)
    elif ord == 0:
        r = (x != 0).cast(x.dtype).sum(axes, keepdims=True)
    elif ord == 1:
        r = ax.sum(axes, keepdims=True)
    elif isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    else:
        r = (ax ** float(ord)).sum(axes, keepdims=True) ** (1.0 / float(ord))
    return r if keepdims else r.squeeze(axes)


def _matrix_norm(x: Tensor, ord: Any, axes: tuple[int, ...], keepdims: bool) -> Tensor | None:
    row, col = axes
    if ord in (None, "fro", "f"):
        r = (x * x).sum(axes, keepdims=True).sqrt()
    elif ord in (1, -1, math.inf, -math.inf):
        s_axis, e_axis = (row, col) if ord in (1, -1) else (col, row)
        sums = x.abs().sum(s_axis, keepdims=True)
        # max with initial=0: 0 for an empty matrix, as NumPy's
        r = sums.max(e_axis, keepdims=True, initial=0) if ord in (1, math.inf) else sums.min(e_axis, keepdims=True)
    elif ord in (2, -2, "nuc"):
        return None  # needs singular values
    else:
        raise ValueError("Invalid norm order for matrices.")
    return r if keepdims else r.squeeze(axes)


@implements(np.linalg.norm)
def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """np.linalg.norm: vector norms over one axis, matrix norms over two ('fro', 1, -1, inf, -inf; 2, -2 and
    'nuc' need an SVD and fall back to NumPy). Integer input computes in float64 like NumPy."""
    t = _float(as_tensor(x))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and t.ndim == 2) or (ord == 2 and t.ndim == 1):
            r = (t * t).sum(keepdims=True).sqrt()
            return r if keepdims else r.reshape(())
        axes = tuple(range(t.ndim))
    else:
        axes = reduce_axes(axis, t.ndim, of_0d=False)
    if len(axes) == 1:
        return _vector_norm(t, ord, axes, keepdims)
    if len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError("Duplicate axes given.")
        r = _matrix_norm(t, ord, axes, keepdims)
        if r is None:
            return numpy_fallback(np.linalg.norm, (x,), {"ord": ord, "axis": axis, "keepdims": keepdims},
                                  "linalg.norm")
        return r
    raise ValueError("Improper number of dimensions to norm.")


@implements(np.linalg.vector_norm)
def _vector_norm_api(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    t = _float(as_tensor(x))
    if axis is None:
        r = _vector_norm(t.reshape(-1), ord, (0,), False)
        return r.reshape((1,) * t.ndim) if keepdims else r
    return _vector_norm(t, ord, reduce_axes(axis, t.ndim, of_0d=False), keepdims)


@implements(np.linalg.matrix_norm)
def _matrix_norm_api(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    t = _float(as_tensor(x))
    if t.ndim < 2:
        raise ValueError(f"The input array must be at least 2-dimensional, but it has {t.ndim} dimensions")
    return _norm(t, ord, (-2, -1), keepdims)


@implements(np.linalg.matmul)
def _linalg_matmul(x1: Any, x2: Any, /) -> Any:
    return np.matmul(x1, x2)


@implements(np.linalg.tensordot)
def _linalg_tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return _tensordot(x1, x2, axes)


@implements(np.linalg.outer)
def _linalg_outer(x1: Any, x2: Any, /) -> Any:
    x, y = as_tensor(x1), as_tensor(x2)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x.ndim} and x2.ndim={y.ndim}.")
    return _outer(x, y)


@implements(np.linalg.trace)
def _linalg_trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    return np.trace(as_tensor(x), offset, -2, -1, dtype)


@implements(np.linalg.diagonal)
def _linalg_diagonal(x: Any, /, *, offset: int = 0) -> Any:
    return diagonal(as_tensor(x), operator_index(offset), -2, -1)


@implements(np.linalg.vecdot)
def _linalg_vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    return np.vecdot(x1, x2, axis=axis)


@implements(np.linalg.matrix_transpose, returns_view=True)
def _linalg_matrix_transpose(x: Any, /) -> Any:
    return np.matrix_transpose(x)
