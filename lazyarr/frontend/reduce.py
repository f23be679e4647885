"""Reductions and scans (sum, prod, mean, var, std, max, min, argmax, argmin, any, all, logsumexp, softmax,
log_softmax, and the `scan` behind cumsum and cumprod) and matmul. Axis handling follows NumPy: None, an int or a
tuple, negative axes, keepdims.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp
from lazyarr.helpers import normalize_axis, prod

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """Reduction axes: None for all, an int or a tuple/list of ints (not bools: TypeError, as NumPy and PyTorch)."""
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and not isinstance(axis, (tuple, list, bool, np.bool_)) and operator.index(axis) in (0, -1):
        return ()  # a 0-d tensor reduces over axis 0 or -1 to itself (NumPy's ufunc reductions, PyTorch)
    axes = tuple(normalize_axis(a, ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return axes


def keepdims_flag(keepdims: Any) -> bool:
    """`keepdims` as a bool: a bool or an int (NumPy takes 0 and 1); TypeError for anything else (a str, None)."""
    if isinstance(keepdims, (bool, np.bool_)):
        return bool(keepdims)
    if not hasattr(type(keepdims), "__index__"):
        raise TypeError(f"keepdims must be a bool, got {type(keepdims).__name__}")
    return bool(operator.index(keepdims))


class ReduceMixin:
    """Reductions (mixed into Tensor). `keepdim` (PyTorch) is accepted as an alias of `keepdims` (NumPy)."""

    __slots__ = ()

    uop: UOp

    def _reduce(self: Tensor, op: Ops, axis: Any, keepdims: bool) -> Tensor:
        keepdims = keepdims_flag(keepdims)
        axes = _axes(axis, self.ndim)
        if not axes:  # axis=(): the values themselves, in a new array (NumPy), never a view of this one
            return self.clone()
        out = self._new(self.uop.reduce(op, axes))
        return out if keepdims else out.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axes))

    def _accumulate(self: Tensor, op: Ops, axis: Any, keepdims: bool, dtype: Any) -> Tensor:
        """sum/prod: small ints and bool accumulate in (u)int64 (NumPy); float16 accumulates in float32."""
        if dtype is not None:
            x = self.cast(dtype)
        elif self.dtype.is_bool or (self.dtype.is_int and self.dtype.itemsize < 8):
            x = self.cast(dtypes.uint64 if self.dtype.is_unsigned else dtypes.int64)
        else:
            x = self
        acc = x.cast(dtypes.float32) if x.dtype is dtypes.float16 else x
        out = acc._reduce(op, axis, keepdims)
        if op is Ops.ADD and out.dtype.is_float:
            # NumPy's float sums start from +0.0, so a sum of -0.0s (or of nothing) is +0.0; the kernels start from
            # -0.0, the exact identity, and adding +0.0 once changes no other value (NaN payloads included)
            out = out + 0.0
        return out.cast(x.dtype)

    def sum(self: Tensor, axis: Any = None, keepdims: bool = False, dtype: Any = None,
            keepdim: bool | None = None, *, out: Any = None, initial: Any = np._NoValue, where: Any = True) -> Tensor:
        """Sum over `axis` (NumPy's accumulation dtypes; float16 accumulates in float32). NumPy's keywords, as
        `ndarray.sum`: `initial`, `where` (a bool mask of the elements summed), `out`."""
        keepdims = keepdim if keepdim is not None else keepdims
        if out is not None or initial is not np._NoValue or where is not True:
            return np.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)
        return self._accumulate(Ops.ADD, axis, keepdims, dtype)

    def prod(self: Tensor, axis: Any = None, keepdims: bool = False, dtype: Any = None,
             keepdim: bool | None = None, *, out: Any = None, initial: Any = np._NoValue, where: Any = True) -> Tensor:
        """Product over `axis` (NumPy's accumulation dtypes; float16 accumulates in float32), with `sum`'s NumPy
        keywords."""
        keepdims = keepdim if keepdim is not None else keepdims
        if out is not None or initial is not np._NoValue or where is not True:
            return np.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)
        return self._accumulate(Ops.MUL, axis, keepdims, dtype)

    def max(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None, *, out: Any = None,
            initial: Any = np._NoValue, where: Any = True) -> Tensor:
        """Largest value over `axis` (NaN propagates). NumPy's keywords, as `ndarray.max`: `initial` takes part in
        every maximum, `where` (a bool mask broadcast to the tensor) picks the elements that do (it needs
        `initial`, ValueError otherwise), `out` receives the result.

        Raises:
            ValueError: an empty reduction without `initial` (NumPy: maximum has no identity), `where` without it.
        """
        return self._extreme(np.max, Ops.MAX, axis, keepdim if keepdim is not None else keepdims, out, initial, where)

    def min(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None, *, out: Any = None,
            initial: Any = np._NoValue, where: Any = True) -> Tensor:
        """Smallest value over `axis`, with `max`'s arguments and errors."""
        return self._extreme(np.min, Ops.MIN, axis, keepdim if keepdim is not None else keepdims, out, initial, where)

    def _extreme(self: Tensor, fn: Any, op: Ops, axis: Any, keepdims: Any, out: Any, initial: Any,
                 where: Any) -> Tensor:
        """max/min: NumPy's function when one of its keywords is given (`np.max` is lazy), else one reduction."""
        if out is not None or initial is not np._NoValue or where is not True:
            return fn(self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)
        self._check_nonempty(axis, "maximum" if op is Ops.MAX else "minimum")
        return self._reduce(op, axis, keepdims)

    amax = max
    amin = min

    def _check_nonempty(self: Tensor, axis: Any, name: str) -> None:
        if any(self.shape[a] == 0 for a in _axes(axis, self.ndim)) or (axis is None and self.size == 0):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")

    def mean(self: Tensor, axis: Any = None, keepdims: bool = False, dtype: Any = None,
             keepdim: bool | None = None, *, out: Any = None, where: Any = True) -> Tensor:
        """Arithmetic mean; integers give the default float. An empty reduction gives NaN (NumPy, without the
        warning). NumPy's `where` and `out`, as `ndarray.mean` (computed by np.mean in this method's dtype)."""
        keepdims = keepdim if keepdim is not None else keepdims
        if out is not None or where is not True:
            return np.mean(self, axis=axis, dtype=dtype or self._mean_dtype(), out=out, keepdims=keepdims,
                           where=where)
        x = self.cast(dtype) if dtype is not None else self if self.dtype.is_float else self.cast(dtypes.default_float)
        n = prod(self.shape[a] for a in _axes(axis, self.ndim))
        total = x.sum(axis, keepdims)
        return total / n  # empty: 0/0, the NaN NumPy gives (x86's default NaN has its sign bit set)

    def _mean_dtype(self: Tensor) -> Any:
        return self.dtype if self.dtype.is_float else dtypes.default_float

    def var(self: Tensor, axis: Any = None, keepdims: bool = False, ddof: int = 0, correction: int | None = None,
            keepdim: bool | None = None, *, dtype: Any = None, out: Any = None, where: Any = True) -> Tensor:
        """Variance with `ddof` (NumPy; PyTorch's `correction` is accepted too), computed as mean((x-mean)^2).
        NumPy's `dtype`, `where` and `out`, as `ndarray.var` (computed by np.var in this method's dtype)."""
        keepdims = keepdim if keepdim is not None else keepdims
        ddof = correction if correction is not None else ddof
        if dtype is not None or out is not None or where is not True:
            return np.var(self, axis=axis, dtype=dtype or self._mean_dtype(), out=out, ddof=ddof, keepdims=keepdims,
                          where=where)
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        n = prod(self.shape[a] for a in _axes(axis, self.ndim))
        centered = x - x.mean(axis, keepdims=True)
        sq = (centered * centered).sum(axis, keepdims)
        return sq / max(n - ddof, 0)  # NumPy's: nothing left to divide by is 0/0 (NaN) or x/0 (inf)

    def std(self: Tensor, axis: Any = None, keepdims: bool = False, ddof: int = 0, correction: int | None = None,
            keepdim: bool | None = None, *, dtype: Any = None, out: Any = None, where: Any = True) -> Tensor:
        """Standard deviation: `var`'s square root, with its arguments; where the variance is 0 the gradient is 0, as
        PyTorch's (sqrt's infinite slope there times the variance's zero slope would be NaN)."""
        keepdims = keepdim if keepdim is not None else keepdims
        ddof = correction if correction is not None else ddof
        if dtype is not None or out is not None or where is not True:
            return np.std(self, axis=axis, dtype=dtype or self._mean_dtype(), out=out, ddof=ddof, keepdims=keepdims,
                          where=where)
        v = self.var(axis, keepdims, ddof)
        zero = v == 0
        return zero.where(0, zero.where(1, v).sqrt())

    def any(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None, *, out: Any = None,
            where: Any = True) -> Tensor:
        """Whether any element over `axis` is nonzero; NumPy's `where` and `out`, as `ndarray.any`."""
        keepdims = keepdim if keepdim is not None else keepdims
        if out is not None or where is not True:
            return np.any(self, axis=axis, out=out, keepdims=keepdims, where=where)
        return self.bool()._reduce(Ops.MAX, axis, keepdims)

    def all(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None, *, out: Any = None,
            where: Any = True) -> Tensor:
        """Whether every element over `axis` is nonzero; NumPy's `where` and `out`, as `ndarray.all`."""
        keepdims = keepdim if keepdim is not None else keepdims
        if out is not None or where is not True:
            return np.all(self, axis=axis, out=out, keepdims=keepdims, where=where)
        return self.bool()._reduce(Ops.MIN, axis, keepdims)

    def _arg_extreme(self: Tensor, axis: Any, keepdims: bool, largest: bool) -> Tensor:
        keepdims = keepdims_flag(keepdims)
        if isinstance(axis, (tuple, list)):  # one axis only, as NumPy's and PyTorch's (a 0-d tensor's () too)
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
        if axis is None or (self.ndim == 0 and _axes(axis, 0) == ()):
            return self.reshape(-1)._arg_extreme(0, False, largest).reshape((1,) * self.ndim if keepdims else ())
        a = normalize_axis(axis, self.ndim)
        n = self.shape[a]
        if n == 0:
            raise ValueError(f"attempt to get {'argmax' if largest else 'argmin'} of an empty sequence")
        m = self.max(a, keepdims=True) if largest else self.min(a, keepdims=True)
        hit = self == m
        if self.dtype.is_float:
            hit = hit | ((m != m) & (self != self))  # the first NaN wins, like NumPy
        idx = self._new(UOp(Ops.IOTA, dtypes.int64, (), n)).reshape([n if i == a else 1 for i in range(self.ndim)])
        return hit.where(idx, n).min(a, keepdims=keepdims)

    def argmax(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None) -> Tensor:
        """Index (int64) of the first largest value along `axis` (flattened when None)."""
        return self._arg_extreme(axis, keepdim if keepdim is not None else keepdims, True)

    def argmin(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None) -> Tensor:
        return self._arg_extreme(axis, keepdim if keepdim is not None else keepdims, False)

    def logsumexp(self: Tensor, axis: Any = None, keepdims: bool = False, keepdim: bool | None = None) -> Tensor:
        keepdims = keepdim if keepdim is not None else keepdims
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        if x.size == 0:  # no max to shift by (an empty row's sum is 0: -inf, as PyTorch)
            return x.exp().sum(axis, keepdims=keepdims).log()
        m = x.max(axis, keepdims=True)
        m = (m.isinf()).where(0, m)
        out = (x - m).exp().sum(axis, keepdims=True).log() + m
        if keepdims:
            return out
        return out.reshape(tuple(s for i, s in enumerate(self.shape) if i not in _axes(axis, self.ndim)))

    def softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        """exp(x - max) / sum(exp(x - max)) along `axis` (one fused kernel per row block). Like PyTorch, each row is
        scaled by the reciprocal of its sum (one division per row instead of one per element; within 1.5 ulp of the
        quotient; the sum is at least 1, so the reciprocal is finite)."""
        a = dim if dim is not None else axis
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        e = x._minus_max(a).exp()
        return e * e.sum(a, keepdims=True).reciprocal()

    def _minus_max(self: Tensor, axis: int, detach: bool = False) -> Tensor:
        """x - max(x, axis) (keepdims), the shift that keeps a softmax's exp finite (its max `detach`ed if asked); an
        empty x as it is: it has no max, and nothing to compute."""
        if not self.size:
            return self
        m = self.max(axis, keepdims=True)
        return self - (m.detach() if detach else m)

    def log_softmax(self: Tensor, axis: int = -1, dim: int | None = None) -> Tensor:
        a = dim if dim is not None else axis
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        shifted = x._minus_max(a)
        return shifted - shifted.exp().sum(a, keepdims=True).log()

    def matmul(self: Tensor, other: Any) -> Tensor:
        """Matrix product with NumPy's rules: 1-D operands are promoted and the added dim removed; batch dims
        broadcast."""
        cls = type(self)
        o = other if isinstance(other, cls) else cls(other, device=self.device)
        if self.ndim == 0 or o.ndim == 0:
            raise ValueError("matmul: Input operand does not have enough dimensions")
        dt = dtypes.promote(self.dtype, o.dtype)
        calc = dtypes.float32 if dt is dtypes.float16 else dt  # float16: exact products, one rounding (NumPy's)
        a, b = self.cast(calc), o.cast(calc)
        a2 = a.reshape(1, -1) if a.ndim == 1 else a
        b2 = b.reshape(-1, 1) if b.ndim == 1 else b
        if a2.shape[-1] != b2.shape[-2]:
            raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                             f"(n?,k),(k,m?)->(n?,m?) (size {b2.shape[-2]} is different from {a2.shape[-1]})")
        prod_ = a2.unsqueeze(-1) * b2.unsqueeze(-3)
        out = prod_.sum(-2, dtype=dt) if dt.is_int or dt.is_bool else prod_.sum(-2)
        if dt.is_bool:
            out = out.cast(dtypes.bool_)
        if a.ndim == 1:
            out = out.squeeze(-2)
        if b.ndim == 1:
            out = out.squeeze(-1)
        return out.cast(dt)

    def dot(self: Tensor, other: Any) -> Tensor:
        return self.matmul(other)

    def __matmul__(self: Tensor, other: Any) -> Tensor:
        return self.matmul(other)

    def __rmatmul__(self: Tensor, other: Any) -> Tensor:
        return type(self)(other, device=self.device).matmul(self)


def scan(x: Tensor, axis: int, op: Ops) -> Tensor:
    """Inclusive scan of `x` along `axis` with the reduction `op` (ADD, MUL, MAX or MIN), lazily: one SCAN node, a
    kernel of its own that runs along the axis in order (element i is op(element i - 1, x[i]), NumPy's order, so the
    same floats as NumPy's cumsum/cumprod/accumulate), with the elementwise work on `x` fused into it."""
    if x.size == 0:
        return x
    return x._new(x.uop.scan(op, axis))
