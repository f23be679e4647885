"""The `numpy.ndarray` methods NumPy code calls on arrays (mixed into Tensor): `swapaxes`, `cumsum`/`cumprod`,
`take`, `diagonal`, `trace`, `conj`, `real`/`imag`, `nonzero`, `sort`/`argsort`, `partition`/`argpartition`,
`searchsorted`, `compress`, `choose`, `fill`, `put`, `flat`, `flatten`, `view`, `strides`, `flags`, `tobytes`, `tofile`,
`dump`/`dumps`.

Each one calls the NumPy function of the same name on the tensor, so it stays lazy where that function has a lazy
implementation and otherwise runs NumPy on the realised values (see `numpy_api.numpy_fallback`). Methods that
NumPy defines in place (`sort`, `partition`, `fill`, `put`) write the tensor in place, as `t[...] = ...` does.
Where PyTorch/tinygrad give the same method another meaning, PyTorch's arguments select PyTorch's behaviour:
`sort(dim=..., descending=..., stable=...)` returns `(values, indices)`, `nonzero(as_tuple=False)` returns an
(N, ndim) int64 tensor, `flatten(start_dim, end_dim)` and `view(*shape)` are views, `cumsum(dim=...)` of a 0-d
tensor is 0-d; `dim`/`dim1`/`dim2` are accepted as aliases of NumPy's `axis`/`axis1`/`axis2`.
"""

from __future__ import annotations

import operator
import pickle
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.inplace import (
    become_new_array,
    is_computed_view,
    is_owner,
    mark_readonly,
    other_views,
    reshape_in_place,
)
from lazyarr.frontend.layout import Flags, byte_strides, dense_in_array, order_axes
from lazyarr.helpers import normalize_axis, prod

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor

_UNSET: Any = object()


def _alias(numpy_value: Any, torch_value: Any, numpy_name: str, torch_name: str, default: Any) -> Any:
    """The value of a NumPy keyword that PyTorch spells differently; TypeError if both spellings are given."""
    if torch_value is not _UNSET:
        if numpy_value is not _UNSET:
            raise TypeError(f"got both {numpy_name}= and its PyTorch alias {torch_name}=")
        return torch_value
    return default if numpy_value is _UNSET else numpy_value


def _stable_order(values: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Indices that sort `values` along `axis`, stably (equal elements keep their order); NaN last when ascending and
    first when descending (PyTorch's order)."""
    if not descending:
        return np.argsort(values, axis=axis, kind="stable")
    n = values.shape[axis]
    return (n - 1) - np.flip(np.argsort(np.flip(values, axis), axis=axis, kind="stable"), axis)


def _cumulative(fn: Any, t: Tensor, axis: Any, dtype: Any, out: Any, dim: Any) -> Tensor:
    """np.cumsum / np.cumprod of `t`, 0-d for a 0-d `t` when PyTorch's `dim` is given. float16 without dtype= or
    out= accumulates in float32, as `Tensor.sum` and PyTorch's cumsum do (np.cumsum in float16, as NumPy's)."""
    ax = _alias(axis, dim, "axis", "dim", None)
    if t.dtype is dtypes.float16 and dtype is None and out is None:
        r = fn(t.cast(dtypes.float32), axis=ax).cast(dtypes.float16)
    else:
        r = fn(t, axis=ax, dtype=dtype, out=out)
    return r.reshape(()) if dim is not _UNSET and t.ndim == 0 and out is None else r


def _resize_dims(shape: Any) -> tuple[int, ...]:
    """ndarray.resize's shape: an int or a sequence of ints, none negative (NumPy's TypeError and ValueError)."""
    if isinstance(shape, np.ndarray) and shape.ndim == 1:
        shape = shape.tolist()  # a sequence of integers, as NumPy takes it
    if not isinstance(shape, (tuple, list)):
        if isinstance(shape, (bool, np.bool_)) or not hasattr(type(shape), "__index__"):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{shape}'")
        shape = (shape,)
    if any(isinstance(d, (bool, np.bool_)) for d in shape):
        raise TypeError("an integer is required")
    dims = [operator.index(d) for d in shape]  # TypeError: "'float' object cannot be interpreted as an integer"
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions not allowed")
    return tuple(dims)


def _dtype_arg(x: Any) -> DType | None:
    """`x` as a dtype when it names one (a DType, NumPy dtype or scalar type, a string, float/int/bool), None when
    it is a shape (ints, a tuple or list)."""
    if isinstance(x, (tuple, list)) or (hasattr(type(x), "__index__") and not isinstance(x, type)):
        return None
    return dtypes.to_dtype(x)


class FlatIter:
    """`ndarray.flat` of a tensor: its elements in C order whatever its layout. Reading (`t.flat[3]`, `t.flat[2:5]`,
    a mask or integer array) gives a copy; `t.flat[idx] = values` writes into the tensor (`values` repeated as
    needed, as `np.put`); iterating yields NumPy scalars."""

    __slots__ = ("base",)

    def __init__(self, t: Tensor) -> None:
        self.base = t

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self) -> Any:
        return iter(self.base.flatten().numpy())

    def __getitem__(self, idx: Any) -> Tensor:
        return self.base.flatten()[idx]

    def __setitem__(self, idx: Any, values: Any) -> None:
        np.put(self.base, np.arange(self.base.size)[idx], values)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.base.flatten().numpy(), dtype)

    def copy(self) -> Tensor:
        return self.base.flatten()


class NdarrayMethodsMixin:
    """NumPy `ndarray` methods on Tensor; see the module docstring for the PyTorch keyword rules."""

    __slots__ = ()

    def swapaxes(self: Tensor, axis1: int, axis2: int) -> Tensor:
        """`np.swapaxes`: a view with `axis1` and `axis2` exchanged. AxisError (a ValueError and IndexError) when
        an axis is out of range."""
        return np.swapaxes(self, axis1, axis2)

    def cumsum(self: Tensor, axis: Any = _UNSET, dtype: Any = None, out: Any = None, *, dim: Any = _UNSET) -> Tensor:
        """`np.cumsum`: running sum along `axis`, of the flattened tensor when None (a 0-d tensor as 1-D), computed
        in `dtype` when given, else in NumPy's (small ints and bool in (u)int64), into `out` when given. PyTorch's
        `dim` (torch.cumsum): a 0-d tensor stays 0-d."""
        return _cumulative(np.cumsum, self, axis, dtype, out, dim)

    def cumprod(self: Tensor, axis: Any = _UNSET, dtype: Any = None, out: Any = None, *, dim: Any = _UNSET) -> Tensor:
        """`np.cumprod`: running product, with `cumsum`'s arguments."""
        return _cumulative(np.cumprod, self, axis, dtype, out, dim)

    def take(self: Tensor, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise") -> Tensor:
        """`np.take`: elements at integer `indices` along `axis` (of the flattened tensor when None, as
        `torch.take`). IndexError for an out-of-range index with mode='raise'."""
        return np.take(self, indices, axis=axis, out=out, mode=mode)

    def diagonal(self: Tensor, offset: int = 0, axis1: Any = _UNSET, axis2: Any = _UNSET, *, dim1: Any = _UNSET,
                 dim2: Any = _UNSET) -> Tensor:
        """`np.diagonal`: the `offset` diagonal of the (axis1, axis2) planes, moved to the last axis. ValueError
        for fewer than 2 dimensions or equal axes."""
        return np.diagonal(self, offset, _alias(axis1, dim1, "axis1", "dim1", 0),
                           _alias(axis2, dim2, "axis2", "dim2", 1))

    def trace(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
              out: Any = None) -> Tensor:
        """`np.trace`: the sum along the `offset` diagonal of the (axis1, axis2) planes."""
        return np.trace(self, offset, axis1, axis2, dtype=dtype, out=out)

    def conj(self: Tensor) -> Tensor:
        """`ndarray.conj`: lazyarr has no complex dtypes, so the tensor itself, dtype kept (bool stays bool, as in
        NumPy's method and `torch.conj`; only the ufunc `np.conjugate` turns bool into int8)."""
        return self

    def conjugate(self: Tensor) -> Tensor:
        """`ndarray.conjugate` (same as `conj`)."""
        return self

    @property
    def real(self: Tensor) -> Tensor:
        """`np.real`: the tensor itself (lazyarr has no complex dtypes)."""
        return np.real(self)

    @property
    def imag(self: Tensor) -> Tensor:
        """`np.imag`: zeros of the same shape and dtype (lazyarr has no complex dtypes)."""
        return np.imag(self)

    def nonzero(self: Tensor, *, as_tuple: bool | None = None) -> Any:
        """`np.nonzero`: a tuple of int64 index tensors, one per axis (as_tuple=None or True). With PyTorch's
        `as_tuple=False`, one (N, ndim) int64 tensor of coordinates. Realises the tensor (the output shape depends
        on its values); ValueError for a 0-d tensor, like NumPy 2."""
        parts = np.nonzero(self)
        if as_tuple is None or as_tuple:
            return parts
        return type(self)(np.stack([np.asarray(p) for p in parts], axis=-1) if parts else np.zeros((0, 0), np.int64))

    def sort(self: Tensor, axis: Any = _UNSET, kind: str | None = None, order: Any = None, *, dim: Any = _UNSET,
             descending: Any = _UNSET, stable: Any = _UNSET) -> Any:
        """NumPy's `ndarray.sort(axis=-1)`: sort in place along `axis` (None flattens is not allowed in place, as in
        NumPy), return None. With any of PyTorch's keywords `dim`, `descending`, `stable`, follow `torch.sort`:
        return `(values, indices)` (int64) and leave the tensor unchanged; equal elements keep their order and NaN
        sorts last (first when descending). Realises the tensor; `values` keeps autograd through a gather."""
        if dim is _UNSET and descending is _UNSET and stable is _UNSET:
            if order is not None:
                raise ValueError("Cannot specify order when the array has no fields.")
            a = -1 if axis is _UNSET else axis
            if a is None:
                raise np.exceptions.AxisError("axis None is not allowed for an in-place sort; use np.sort(a, None)")
            self[...] = np.sort(self, axis=a, kind=kind)
            return None
        a = normalize_axis(_alias(axis, dim, "axis", "dim", -1), max(self.ndim, 1))
        cls = type(self)
        if self.ndim == 0:
            return self, cls(np.zeros((), np.int64), device=self.device)
        idx = cls(_stable_order(self.numpy(), a, bool(descending is not _UNSET and descending)), device=self.device)
        return np.take_along_axis(self, idx, a), idx

    def argsort(self: Tensor, axis: Any = _UNSET, kind: str | None = None, order: Any = None, *, dim: Any = _UNSET,
                descending: bool = False, stable: bool = False) -> Tensor:
        """`np.argsort(axis=-1)` (int64 indices; `dim`, `descending`, `stable` as in `torch.argsort`, where the
        order of equal elements is always kept). Realises the tensor."""
        if order is not None:
            raise ValueError("Cannot specify order when the array has no fields.")
        a = _alias(axis, dim, "axis", "dim", -1)
        if not descending:
            return np.argsort(self, axis=a, kind=kind)
        if a is None:
            return type(self)(_stable_order(self.numpy().reshape(-1), 0, True), device=self.device)
        return type(self)(_stable_order(self.numpy(), normalize_axis(a, max(self.ndim, 1)), True), device=self.device)

    def partition(self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None) -> None:
        """`ndarray.partition`: in place, the element at each `kth` position becomes the one a sort would put there,
        smaller ones before it and larger ones after it. Returns None."""
        self[...] = np.partition(self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None) -> Tensor:
        """`np.argpartition`: the indices that would partition the tensor (see `partition`)."""
        return np.argpartition(self, kth, axis=axis, kind=kind, order=order)

    def searchsorted(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Any:
        """`np.searchsorted`: insertion indices of `v` into this sorted 1-D tensor (int64)."""
        return np.searchsorted(self, v, side=side, sorter=sorter)

    def compress(self: Tensor, condition: Any, axis: int | None = None, out: Any = None) -> Tensor:
        """`np.compress`: the slices along `axis` (of the flattened tensor when None) where `condition` is true."""
        return np.compress(condition, self, axis=axis, out=out)

    def choose(self: Tensor, choices: Any, out: Any = None, mode: str = "raise") -> Tensor:
        """`np.choose`: this integer tensor picks, element by element, which of `choices` to take from."""
        return np.choose(self, choices, out=out, mode=mode)

    def fill(self: Tensor, value: Any) -> None:
        """`ndarray.fill`: set every element to `value` in place (cast to the tensor's dtype as NumPy does)."""
        self[...] = value

    def put(self: Tensor, indices: Any, values: Any, mode: str = "raise") -> None:
        """`np.put`: in place, set the flattened elements at `indices` to `values` (repeated as needed)."""
        np.put(self, indices, values, mode=mode)

    @property
    def flat(self: Tensor) -> FlatIter:
        """`ndarray.flat`: index, assign and iterate the elements in C order (`FlatIter`)."""
        return FlatIter(self)

    def flatten(self: Tensor, start_dim: Any = None, end_dim: Any = None, *, order: Any = "C") -> Tensor:
        """Two libraries' `flatten`, told apart by their arguments.

        NumPy's `ndarray.flatten(order='C')` (no arguments, or an order: 'C', 'F', 'A' or 'K' in any case, None for
        'C', positional or `order=`): a new 1-D array with its own storage (writes to either do not reach the
        other), read in that index order ('A' and 'K' from the layout `strides` reports). TypeError for an order
        that is not a str, ValueError for another string.
        PyTorch's `flatten(start_dim=0, end_dim=-1)` (a dim given): dims start_dim..end_dim merged into one, a view
        where a reshape is one (torch's flatten may return the original, a view or a copy). AxisError for a dim out
        of range, ValueError when start_dim comes after end_dim.
        """
        if isinstance(start_dim, str) or (start_dim is None and end_dim is None):
            axes = order_axes(self, start_dim if isinstance(start_dim, str) else order)
            return self.permute(axes).reshape(-1).clone()
        start_dim, end_dim = 0 if start_dim is None else start_dim, -1 if end_dim is None else end_dim
        if self.ndim == 0:
            return self.reshape(1)
        s, e = normalize_axis(start_dim, self.ndim), normalize_axis(end_dim, self.ndim)
        if s > e:
            raise ValueError(f"flatten(): start_dim ({start_dim}) cannot come after end_dim ({end_dim})")
        return self.reshape(*self.shape[:s], prod(self.shape[s : e + 1]), *self.shape[e + 1 :])

    def ravel(self: Tensor, order: Any = "C") -> Tensor:
        """`ndarray.ravel`: the values as 1-D in the index `order` of `flatten`: a view of a tensor whose elements lie
        contiguous in that order, else a copy (NumPy's rule, stricter than reshape's: `a[:, 0].ravel()` is a copy)."""
        ordered = self.permute(order_axes(self, order))
        return ordered.reshape(-1) if dense_in_array(ordered) else ordered.reshape(-1).clone()

    def view(self: Tensor, *shape: Any, dtype: Any = None, type: Any = None) -> Tensor:  # noqa: A002 (NumPy's)
        """Two libraries' `view`: of a shape, of a dtype, or of nothing.

        `view()` (NumPy): a new view of the same array (writes to either reach the other).
        `view(*shape)` (PyTorch's, as `reshape`): the values in a new shape, a view where a reshape is one.
        `view(dtype)` (NumPy's and PyTorch's): the same bytes read as `dtype`, of the same itemsize: 4 or 8 bytes
        (float32/int32/uint32, float64/int64/uint64), 2 (int16/uint16) or 1 (int8/uint8, bool read as 0/1). It is
        read-only (ValueError on a write), as lazyarr cannot make it write into this tensor's storage; it holds the
        bits at the time they are computed.

        Raises:
            ValueError: a dtype of another itemsize (lazyarr keeps the shape; NumPy would change the last dim).
            TypeError: float16/bfloat16 bit views, `type=` (lazyarr has no ndarray subclasses), shape and dtype
                together.
        """
        if type is not None:
            raise TypeError("view(type=...): lazyarr Tensors have no ndarray subclasses")
        if dtype is None and len(shape) == 1 and (dt := _dtype_arg(shape[0])) is not None:
            dtype, shape = dt, ()
        if dtype is not None:
            if shape:
                raise TypeError("view() takes a shape or a dtype, not both")
            return self._bit_view(dtypes.to_dtype(dtype))
        return self.reshape(*shape) if shape else self.reshape(self.shape)

    def _bit_view(self: Tensor, dt: DType) -> Tensor:
        """This tensor's bits read as `dt` (see `view`)."""
        src = self.dtype
        if dt is src:
            return self.reshape(self.shape)
        if dt.itemsize != src.itemsize:
            raise ValueError(f"view({dt.name}) of a {src.name} tensor: lazyarr reads the bytes as a dtype of the same "
                             f"itemsize only ({src.itemsize} bytes, {dt.name} has {dt.itemsize})")
        if dt.itemsize == 2 and (dt.is_float or src.is_float):
            raise TypeError(f"view({dt.name}) of a {src.name} tensor: lazyarr has no float16/bfloat16 bit views")
        out = self.cast(dt) if dt.is_bool or src.is_bool else self._new(self.uop.bitcast(dt))
        mark_readonly(out, f"view({dt.name}) is a reinterpreted copy; a write would not reach the {src.name} tensor")
        return out

    def _set_shape(self: Tensor, value: Any) -> None:
        """`t.shape = value`: NumPy's in-place reshape, allowed only where the new shape is a view of the same data
        (AttributeError "Incompatible shape for in-place modification..." otherwise, and NumPy's ValueError and
        TypeError for a wrong size or a shape that is no shape). The tensor keeps sharing its data with the array it
        views and with that array's other views."""
        # NumPy's own checks on a stand-in with the tensor's layout (no data is read or allocated)
        stand_in = np.lib.stride_tricks.as_strided(np.empty(1, (np.void, self.itemsize)), self.shape, self.strides,
                                                   writeable=False)
        stand_in.shape = value
        dims = tuple(stand_in.shape)
        if dims == self.shape:
            return
        if self.requires_grad:
            raise AttributeError("cannot set the shape of a tensor that requires grad in place (autograd holds its "
                                 "graph); use .reshape()")
        if is_computed_view(self):
            raise AttributeError("lazyarr cannot change the shape of a computed read-only view (such as "
                                 "np.diagonal's) in place; use .reshape()")
        reshape_in_place(self, dims)

    def resize(self: Tensor, *new_shape: Any, refcheck: bool = True) -> None:
        """`ndarray.resize`: change the tensor's shape and size in place; the values keep their C order, a larger
        tensor is filled with zeros (np.resize repeats them instead, in a new array). No arguments or None change
        nothing.

        Raises:
            ValueError: a negative dimension; the size changes and the tensor views another's data ("does not own its
                data") or other tensors view it (NumPy's refcheck error; with refcheck=False NumPy resizes anyway
                and leaves those views pointing at freed memory, lazyarr refuses); a same-size resize of a tensor
                that is not C-contiguous (NumPy gives it the strides of its own order; lazyarr does not).
            TypeError: a shape that is not integers.
        """
        if not new_shape or (len(new_shape) == 1 and new_shape[0] is None):
            return
        dims = _resize_dims(new_shape[0] if len(new_shape) == 1 else new_shape)
        n = prod(dims)
        if n * self.itemsize >= 1 << 63:
            raise MemoryError(f"cannot resize to shape {dims}: {n * self.itemsize} bytes")  # NumPy's: overflow
        if n == self.size:
            if not self.flags.c_contiguous:
                raise ValueError("lazyarr cannot resize a tensor that is not C-contiguous in place; use np.resize or "
                                 ".reshape()")
            if dims != self.shape:
                self._set_shape(dims)
            return
        if not is_owner(self):
            raise ValueError("cannot resize this array: it does not own its data")
        if other_views(self):
            if refcheck:
                raise ValueError("cannot resize an array that references or is referenced\nby another object in "
                                 "this way.\nUse the np.resize function to get a new resized copy or\n set "
                                 "refcheck=False to disable this check")
            raise ValueError("lazyarr cannot resize an array that other tensors view, even with refcheck=False (they "
                             "would keep the old storage); use the np.resize function")
        if self.requires_grad:
            raise RuntimeError("cannot resize a tensor that requires grad in place")
        flat = self.reshape(-1)
        if n < self.size:
            flat = flat[:n]
        else:
            flat = flat.cat(type(self).zeros(n - self.size, dtype=self.dtype, device=self.device))
        become_new_array(self, flat.reshape(dims).clone().uop)

    @property
    def strides(self: Tensor) -> tuple[int, ...]:
        """`ndarray.strides`: the bytes to step along each dim. A tensor that is a strided view of its storage
        reports that layout (as `np.asarray(t, copy=False)` shows it); any other (a lazy value) C order's, the
        layout `np.asarray(t)` gives it (see `lazyarr.frontend.layout`). Computes nothing."""
        return byte_strides(self)

    @property
    def flags(self: Tensor) -> Flags:
        """`ndarray.flags`, read-only: `flags.c_contiguous`, `flags['C_CONTIGUOUS']`, `f_contiguous`, `writeable`
        (False for a broadcast view or a read-only array such as a diagonal), `owndata` (False for a view of
        another tensor's array), ... (see `lazyarr.frontend.layout.Flags`). Computes nothing."""
        return Flags(self)

    def tobytes(self: Tensor, order: str = "C") -> bytes:
        """`ndarray.tobytes`: the raw bytes of the realised values (C or Fortran order)."""
        return self.numpy().tobytes(order)

    def tofile(self: Tensor, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002 (NumPy's name)
        """`ndarray.tofile`: write the realised values to a file (binary, or text with `sep`)."""
        self.numpy().tofile(fid, sep=sep, format=format)

    def dumps(self: Tensor) -> bytes:
        """`ndarray.dumps`: the pickle of the tensor (`pickle.loads` gives it back)."""
        return pickle.dumps(self)

    def dump(self: Tensor, file: Any) -> None:
        """`ndarray.dump`: pickle the tensor to `file` (a path or a binary file object)."""
        if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
            with open(file, "wb") as f:
                pickle.dump(self, f)
        else:
            pickle.dump(self, file)
