"""Tensor: the user-facing lazy array. Every method builds UOps; `realize()` (and anything that reads data) runs them.

Semantics follow tinygrad's `Tensor` (laziness, views, weak scalars) with NumPy 2's dtype promotion and NumPy's
error types. Topic modules (`elementwise`, `movement`, `reduce`, `creation`) attach their methods to this class.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.frontend.autograd import AutogradMixin, detach_uop, grad_mode_uop, is_grad_enabled
from lazyarr.frontend.creation import CreationMixin
from lazyarr.frontend.elementwise import ElementwiseMixin
from lazyarr.frontend.inplace import (
    RECENT_CAP,
    InplaceMixin,
    all_tensors,
    hold,
    is_realized,
    is_view_of,
    join_views,
    own_buffer,
    recent,
    stand_in_view,
)
from lazyarr.frontend.movement import MovementMixin
from lazyarr.frontend.ndarray_methods import NdarrayMethodsMixin
from lazyarr.frontend.nn_ops import NNMixin
from lazyarr.frontend.numpy_api import NumpyMixin
from lazyarr.frontend.realisation import realize_tensors
from lazyarr.frontend.reduce import ReduceMixin
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import chain_view, strip_movement
from lazyarr.graph.uop import UOp
from lazyarr.graph.view import strides_for_shape
from lazyarr.helpers import flag, prod
from lazyarr.kernels import realize as realize_module
from lazyarr.kernels.device import Buffer, canonical_device

_BUFFER = Ops.BUFFER  # a module constant: an Enum member lookup is slow on Python 3.11


class Tensor(CreationMixin, ElementwiseMixin, MovementMixin, ReduceMixin, InplaceMixin, AutogradMixin, NNMixin,
             NumpyMixin, NdarrayMethodsMixin):
    """A lazy n-d array of `dtype` on `device` (tinygrad/PyTorch-style methods, NumPy-style dtypes and errors).

    `Tensor(data, dtype=None, device=None)` takes a Python scalar, a nested list/tuple, a NumPy array (any strides;
    its dtype is kept) or another Tensor. Python floats default to float32, ints to int64, bools to bool.

    Raises:
        TypeError: data that is not numeric, or a dtype lazyarr does not support.
        ValueError: ragged nested lists, or an unknown device.
    """

    __slots__ = ("uop", "device", "_requires_grad", "_grad", "_ctx", "_group", "__weakref__")
    __array_priority__ = 100

    def __init__(self, data: Any, dtype: Any = None, device: str | None = None,
                 requires_grad: bool | None = None) -> None:
        dt = None if dtype is None else dtypes.to_dtype(dtype)
        if isinstance(data, Tensor):
            self.device = canonical_device(device, data.device)
            src = data if self.device == data.device else data.to(self.device)
            uop = src.uop if dt is None else src.uop.cast(dt)
        elif isinstance(data, UOp):
            self.device = canonical_device(device, flag("DEVICE"))
            uop = data
        else:
            self.device = canonical_device(device, flag("DEVICE"))
            uop = _uop_from_data(data, dt, self.device)
        self.uop: UOp = uop
        self._requires_grad: bool | None = None
        self._grad: Tensor | None = None
        self._ctx: Any = None
        self._group: Any = None  # the array this tensor views (see frontend/inplace.py)
        all_tensors.add(self)
        hold(self)
        if len(recent) < RECENT_CAP:
            recent.append(weakref.ref(self))
        if not isinstance(data, (Tensor, UOp)):
            own_buffer(self)  # storage made from the data here belongs to this tensor
        if requires_grad is not None:
            self.requires_grad = requires_grad

    # ---- basic properties ----
    @property
    def shape(self) -> tuple[int, ...]:
        return self.uop.shape

    @shape.setter
    def shape(self, value: Any) -> None:
        self._set_shape(value)  # NumPy's in-place reshape (see NdarrayMethodsMixin._set_shape)

    @property
    def dtype(self) -> DType:
        return self.uop.dtype

    @property
    def ndim(self) -> int:
        return len(self.uop.shape)

    @property
    def size(self) -> int:
        return prod(self.uop.shape)

    def numel(self) -> int:
        return self.size

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def _new(self, uop: UOp) -> Tensor:
        """A tensor on the same device holding `uop`."""
        t = Tensor.__new__(Tensor)
        t.uop, t.device, t._requires_grad, t._grad, t._ctx, t._group = uop, self.device, None, None, None, None
        all_tensors.add(t)
        if len(recent) < RECENT_CAP:
            recent.append(weakref.ref(t))
        if uop is self.uop or is_view_of(uop, self.uop):
            if not is_grad_enabled():
                t.uop = detach_uop(uop)  # a view made under no_grad carries no gradient (PyTorch); still a view
            join_views(self, t)  # a view: it sees writes to self's array (NumPy semantics)
        else:
            t.uop = grad_mode_uop(uop)  # computed under no_grad: detached
        hold(t)
        return t

    # ---- realisation ----
    def realize(self, *others: Tensor) -> Tensor:
        """Compute this tensor (and `others`) now, in one schedule, with every pending write they depend on; returns
        self. Views of buffers stay views; every live tensor that shared the computed graphs now reads the result."""
        realize_tensors((self, *others))
        return self

    def _buffer_view(self) -> tuple[Buffer, Any]:
        """(Buffer, View) of the realised tensor, materialising a copy when it is not a plain strided view."""
        self.realize()
        chain, base = strip_movement(self.uop)
        if base.op is Ops.CONST:
            buf = Buffer.from_numpy(np.full((), base.arg, dtype=self.dtype.np_name), self.dtype)
            base, chain = UOp(Ops.BUFFER, self.dtype, (), buf), chain
            view = chain_view(chain, ())
            if view is None or view.mask is not None:
                return self.contiguous_copy()._buffer_view()
            return buf, view
        view = chain_view(chain, base.shape)
        if view is None or view.mask is not None:
            return self.contiguous_copy()._buffer_view()
        return base.arg, view

    def contiguous_copy(self) -> Tensor:
        """A realised C-ordered copy."""
        return self.clone().realize()

    def numpy(self) -> np.ndarray:
        """The values as a NumPy array (a copy; realises the tensor)."""
        _check_read("numpy()")
        if self.size == 0:
            return np.zeros(self.shape, dtype=self.dtype.np_name)
        self.realize()
        if self.uop.op is _BUFFER:  # a whole storage (an eager op's usual result)
            return self.uop.arg.numpy().copy()
        buf, view = self._buffer_view()
        base = buf.numpy()
        if _c_ordered(view):  # a run of the storage in C order: a reshape, not the costlier as_strided
            return base[view.offset:view.offset + view.size].reshape(view.shape).copy()
        item = base.itemsize
        out = np.lib.stride_tricks.as_strided(base[view.offset:], shape=view.shape,
                                              strides=tuple(s * item for s in view.strides))
        return out.copy()

    def to(self, device: str) -> Tensor:
        """This tensor on `device` ("CPU" or "CUDA"): itself when it is there already, else a realised copy.

        Raises:
            ValueError: an unknown device.
            RuntimeError: CUDA without CuPy or without a usable GPU.
        """
        target = canonical_device(device, self.device)
        if target == self.device:
            return self
        out = Tensor(self.numpy(), device=target)
        out.requires_grad = self.requires_grad
        return out

    def cpu(self) -> Tensor:
        return self.to("CPU")

    def cuda(self) -> Tensor:
        return self.to("CUDA")

    def tolist(self) -> Any:
        """The values as (nested) Python lists of Python scalars."""
        _check_read("tolist()")
        return self.numpy().tolist()

    def item(self, *args: Any) -> Any:
        """One value as a Python scalar: `item()` of a 1-element tensor (PyTorch's and NumPy's); with NumPy's
        arguments, `item(i)` the element at flat (C-order) index i, `item(i, j, ...)` or `item((i, j, ...))` the one
        at that index (negative indices count from the end). Reads only that element's view.

        Raises:
            ValueError: no arguments and not one element; a number of indices that is neither 1 nor ndim.
            IndexError: an index out of range. TypeError: an index that is not an integer.
        """
        _check_read("item()")
        idx = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
        if not idx:
            if self.size != 1:
                raise ValueError(f"can only convert a tensor of size 1 to a Python scalar, not shape {self.shape}")
            return self.numpy().reshape(()).item()
        if len(idx) == 1:
            return self.reshape(-1)[_item_index(idx, (self.size,), True)].numpy().item()
        return self[_item_index(idx, self.shape, False)].numpy().item()

    def data(self) -> np.ndarray:
        return self.numpy()

    def __repr__(self) -> str:
        if realize_module.capturing:  # printing inside a function being captured must not bake a value in
            return f"<Tensor shape={self.shape} dtype={self.dtype.name} device={self.device!r} (captured by @jit)>"
        body = np.array2string(self.numpy(), separator=", ", prefix="Tensor(")
        return f"Tensor({body}, dtype={self.dtype.name}, device={self.device!r})"

    def __str__(self) -> str:
        if realize_module.capturing:
            return repr(self)
        return str(self.numpy())

    def __bool__(self) -> bool:
        """The truth of a 1-element tensor; ValueError for any other size (NumPy's and PyTorch's)."""
        _check_read("bool()")
        if self.size == 0:
            raise ValueError("The truth value of an empty tensor is ambiguous. Use `t.size > 0` to check that a "
                             "tensor is not empty.")
        if self.size != 1:
            raise ValueError("The truth value of a tensor with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(self.item())

    def _scalar(self, what: str) -> Any:
        """The single value for int(), float(), complex(): TypeError for a tensor of another size, as NumPy's (a
        1-element tensor of any shape converts, as in PyTorch; NumPy 2.4 takes 0-d arrays only)."""
        _check_read(f"{what}()")
        if self.size != 1:
            raise TypeError(f"only tensors of one element can be converted to Python scalars ({what}() of a tensor "
                            f"of shape {self.shape})")
        return self.item()

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        """The value of a 1-element integer (or bool) tensor as an index; TypeError otherwise (NumPy's)."""
        _check_read("an index")
        if (not self.dtype.is_int and not self.dtype.is_bool) or self.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    # ---- dtype ----
    def cast(self, dtype: Any) -> Tensor:
        """Values converted to `dtype` (NumPy's astype: floats truncate toward zero into ints, ints wrap). The tensor
        itself when it already has that dtype (tinygrad's cast, PyTorch's `.to`)."""
        dt = dtypes.to_dtype(dtype)
        return self if dt is self.dtype else self._new(self.uop.cast(dt))

    def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
               copy: bool = True) -> Tensor:
        """This tensor's values as `dtype` (NumPy's ndarray.astype): always a new array with its own storage, unless
        `copy` is False and the tensor already has that dtype, when it is returned itself. `casting` refuses casts
        as NumPy's does (TypeError; 'same_value', which reads the values, is not supported); `order` is checked
        (the values are the same in any order) and `subok` has no effect."""
        target = dtypes.to_dtype(dtype)
        if casting == "same_value":
            raise NotImplementedError("astype(casting='same_value') is not supported by lazyarr")
        if casting != "unsafe" or order != "K":  # NumPy's own checks (ValueError, TypeError), on a 1-element stand-in
            np.zeros(1, self.dtype.np_name).astype(target.np_name, order=order, casting=casting)
        if self.dtype is target:
            return self.clone() if copy else self
        return self.cast(dtype)

    def float(self) -> Tensor:
        return self.cast(dtypes.float32)

    def half(self) -> Tensor:
        return self.cast(dtypes.float16)

    def double(self) -> Tensor:
        return self.cast(dtypes.float64)

    def int(self) -> Tensor:
        return self.cast(dtypes.int32)

    def long(self) -> Tensor:
        return self.cast(dtypes.int64)

    def bool(self) -> Tensor:
        return self.cast(dtypes.bool_)

    def is_floating_point(self) -> bool:
        return self.dtype.is_float

    def contiguous(self) -> Tensor:
        """A tensor stored in C order when computed. When this tensor already is a C-ordered view of storage, the
        result is an alias (writes to either are seen by both, like `np.ascontiguousarray`); see `clone` for a copy."""
        chain, base = strip_movement(self.uop)
        if base.op in (Ops.BUFFER, Ops.ASSIGN) and _c_ordered(chain_view(chain, base.shape)):
            # a jit capture's contiguous copy of a view input (or a view of that copy) is C-ordered, but stands for
            # the caller's view: an alias of it would be written back to the caller where without jit it is a copy
            stand_in, view = stand_in_view(self)
            if not stand_in or _c_ordered(view):
                return self._new(self.uop)
        return self._new(UOp(Ops.CONTIGUOUS, self.dtype, (self.uop,)))

    def clone(self) -> Tensor:
        """A copy with its own storage, holding this tensor's value at the time of the call (later writes to this
        tensor do not reach it, even before it is computed)."""
        return self._new(UOp(Ops.CONTIGUOUS, self.dtype, (self.uop,), "clone"))

    def detach(self) -> Tensor:
        """The same values, outside the autograd graph (gradients stop here)."""
        return self._new(detach_uop(self.uop))


def _item_index(idx: tuple[Any, ...], shape: tuple[int, ...], flat: bool) -> tuple[int, ...]:
    """`item`'s indices checked against `shape` (one flat index of a `flat` size, else one per dim), NumPy's errors."""
    if len(idx) != len(shape):
        raise ValueError("incorrect number of indices for array")
    out = tuple(operator.index(i) for i in idx)
    for axis, (i, n) in enumerate(zip(out, shape)):
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for size {n}" if flat else
                             f"index {i} is out of bounds for axis {axis} with size {n}")
    return out


def _check_read(what: str) -> None:
    """Reading data while `@lazyarr.jit` captures a function raises JitError (the value would be frozen)."""
    if realize_module.capturing:
        realize_module.check_data_read(what)


def _c_ordered(v: Any) -> bool:
    """True for a View without padding whose strides are C order (at any offset)."""
    if v is None or v.mask is not None:
        return False
    return all(n == 1 or s == e for n, s, e in zip(v.shape, v.strides, strides_for_shape(v.shape)))


_is_realized = is_realized


# ---- building UOps from Python/NumPy data ----


def _uop_from_data(data: Any, dt: DType | None, device: str = "CPU") -> UOp:
    if isinstance(data, (bool, int, float, np.number, np.bool_)):
        if dt is not None:
            out_dt = dt
        else:
            out_dt = dtypes.scalar_dtype(data) if isinstance(data, (np.generic, bool, float)) else _int_dtype([data])
        value = data.item() if isinstance(data, np.generic) else data
        if out_dt.is_int and isinstance(value, int) and not isinstance(value, bool) and not _fits(value, out_dt):
            raise OverflowError(f"Python integer {value} out of bounds for {out_dt.name}")
        return UOp.const(value, out_dt)
    if isinstance(data, np.ndarray):
        return _from_numpy(data, dt or dtypes.from_numpy(data.dtype), device)
    if isinstance(data, range):  # like np.array(range(n)) and torch.tensor(range(n))
        data = list(data)
    if isinstance(data, (list, tuple)):
        arr = _array_from_nested(data, dt)
        return _from_numpy(arr, dt or dtypes.from_numpy(arr.dtype), device)
    if hasattr(data, "__array__") or hasattr(data, "__array_interface__"):
        arr = np.asarray(data)
        return _from_numpy(arr, dt or dtypes.from_numpy(arr.dtype), device)
    raise TypeError(f"cannot make a Tensor from {type(data).__name__} (expected a number, a nested list/tuple of "
                    f"numbers, a NumPy array or a Tensor)")


def _fits(value: Any, dt: DType) -> bool:
    if dt.is_int and not isinstance(value, bool):
        info = np.iinfo(dt.np_name)
        return isinstance(value, int) and info.min <= value <= info.max
    return True


def _int_dtype(values: list[int]) -> DType:
    """int64 for Python ints, uint64 when one needs it (like NumPy); OverflowError beyond both."""
    lo, hi = min(values), max(values)
    if lo >= -(2**63) and hi < 2**63:
        return dtypes.default_int
    if lo >= 0 and hi < 2**64:
        return dtypes.uint64
    raise OverflowError(f"Python integer {hi if hi >= 2**63 else lo} out of bounds for int64 and uint64")


def _array_from_nested(data: Sequence[Any], dt: DType | None) -> np.ndarray:
    """A NumPy array of nested lists/tuples of numbers (and arrays/Tensors). Without `dt`, NumPy scalars, arrays and
    Tensors inside are strong and Python scalars weak (NEP 50, as for operators); Python scalars alone give bool,
    int64 (uint64 if needed) or float32.

    Raises:
        TypeError: a non-numeric element. ValueError: a ragged nesting. OverflowError: an int that fits no dtype.
    """
    strong: list[DType] = []
    weak: list[Any] = []

    def leaf(x: Any) -> Any:
        if isinstance(x, (list, tuple)):
            return [leaf(e) for e in x]
        if isinstance(x, Tensor):
            strong.append(x.dtype)
            return x.numpy()
        if isinstance(x, np.ndarray):
            strong.append(dtypes.from_numpy(x.dtype))
            return x
        if isinstance(x, np.generic):
            strong.append(dtypes.from_numpy(x.dtype))
            return x
        if not isinstance(x, (bool, int, float)):
            raise TypeError(f"cannot make a Tensor from a sequence containing {type(x).__name__} {x!r:.40} (lazyarr "
                            f"holds bool, integer and float numbers)")
        weak.append(x)
        return x

    converted = leaf(data)
    if dt is None:
        if strong:
            dt = dtypes.result_type(*strong)
            for w in weak:
                dt = dtypes.weak_result(dt, w)
        else:
            kinds = {dtypes.scalar_kind(w) for w in weak}
            if "f" in kinds or not kinds:
                dt = dtypes.default_float
            elif "i" in kinds:
                dt = _int_dtype([int(w) for w in weak])
            else:
                dt = dtypes.bool_
    try:
        return np.array(converted, dtype=dt.np_name)
    except ValueError as e:  # a ragged nesting, or a value the dtype cannot hold (NaN as an integer)
        raise ValueError(f"cannot make a Tensor of dtype {dt.name} from this nested sequence (ragged, or holding a "
                         f"value the dtype cannot): {e}") from e


def _from_numpy(arr: np.ndarray, dt: DType, device: str = "CPU") -> UOp:
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"lazyarr does not support NumPy dtype {arr.dtype}")
    buf = Buffer.from_numpy(np.array(arr, dtype=dt.np_name, order="C", copy=True), dt, device)
    return UOp(Ops.BUFFER, dt, (), buf).reshape(arr.shape)


