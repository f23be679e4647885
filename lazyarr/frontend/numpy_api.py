"""NumPy interop: the NEP 13/18 protocols (`__array__`, `__array_ufunc__`, `__array_function__`), the Python protocols
NumPy-style code relies on (iteration, `in`, format, copy, pickle, DLPack), and the NumPy fallback.

Lazy implementations live in tables filled by `np_ufuncs.py` (`UFUNC_METHODS`) and `np_functions.py`
(`FUNCTIONS`, via `@implements`). A NumPy function with no entry falls back: its Tensor inputs are realised, NumPy
runs it, and array results come back as Tensors (counted in `lazyarr.stats().numpy_fallbacks`; with
`LAZYARR_DEBUG>=1` one `NumpyFallbackWarning` per function name).
"""

from __future__ import annotations

import copy as _copy
import importlib
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.inplace import check_writable, is_view_of
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import chain_view, strip_movement
from lazyarr.helpers import flag
from lazyarr.kernels import realize as realize_module
from lazyarr.kernels.device import Buffer
from lazyarr.kernels.stats import COUNTERS

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor

# ufunc method name ("__call__", "reduce", ...) -> handler(ufunc, inputs, kwargs); filled by np_ufuncs.py
UFUNC_METHODS: dict[str, Callable[..., Any]] = {}
# NumPy function -> lazy implementation with NumPy's signature; filled by np_functions.py
FUNCTIONS: dict[Callable[..., Any], Callable[..., Any]] = {}
# NumPy functions whose result may view an argument (np.reshape, np.transpose; np.astype with copy=False): their
# implementations decide; the others return new arrays (`new_arrays`)
RETURNS_VIEW: set[Callable[..., Any]] = set()
# NumPy functions that write into an argument: name of the function -> index of the written positional argument
MUTATING: dict[str, int] = {"copyto": 0, "put": 0, "place": 0, "putmask": 0, "fill_diagonal": 0,
                            "put_along_axis": 0}

_warned: set[str] = set()


class NumpyFallbackWarning(UserWarning):
    """A NumPy function ran on realised copies of lazyarr inputs (no lazy implementation); `LAZYARR_DEBUG>=1` only."""


def implements(*np_funcs: Callable[..., Any],
               returns_view: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a lazy implementation of the given NumPy functions (used as a decorator). `returns_view`: NumPy's
    result may view an argument, so the implementation's may; otherwise `__array_function__` copies a result that
    would (`new_arrays`)."""

    def register(impl: Callable[..., Any]) -> Callable[..., Any]:
        for f in np_funcs:
            FUNCTIONS[f] = impl
            if returns_view:
                RETURNS_VIEW.add(f)
        return impl

    return register


def is_tensor(x: Any) -> bool:
    return isinstance(x, NumpyMixin)


def _tensors_in(tree: Any) -> list[Any]:
    """The Tensors in `tree` (nested lists, tuples and dict values)."""
    if is_tensor(tree):
        return [tree]
    items = tree.values() if isinstance(tree, dict) else tree if isinstance(tree, (list, tuple)) else ()
    return [t for e in items for t in _tensors_in(e)]


def new_array(r: Tensor, inputs: Any) -> Tensor:
    """`r`, or a copy of it when it is one of the Tensor `inputs` or a view of one: NumPy's functions and ufuncs
    that do not return views return new arrays, so a later write to an input must not show through the result, nor
    the reverse (np.positive(t), np.sum(t, axis=()) and np.tile(t, 1) compute nothing and would alias `t`)."""
    for x in inputs:
        if is_tensor(x) and (r.uop is x.uop or is_view_of(r.uop, x.uop)):
            return r.clone()
    return r


def new_arrays(result: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`result` (a Tensor, or a tuple or list of them) of a NumPy function called with `args` and `kwargs`, with
    `new_array` applied to each Tensor but the `out=` argument (which NumPy returns as it is)."""
    outs = kwargs.get("out")
    keep = outs if isinstance(outs, tuple) else (outs,)
    if is_tensor(result):
        if any(result is o for o in keep):
            return result
        return new_array(result, _tensors_in((args, {k: v for k, v in kwargs.items() if k != "out"})))
    if isinstance(result, (tuple, list)) and not hasattr(result, "_fields"):
        return type(result)(new_arrays(r, args, kwargs) for r in result)
    return result


def _realise_tree(x: Any) -> Any:
    """`x` with every Tensor (inside lists, tuples and dicts) replaced by its values as a NumPy array."""
    if is_tensor(x):
        return x.numpy()
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_realise_tree(e) for e in x)
    if isinstance(x, tuple):  # a namedtuple
        return type(x)(*(_realise_tree(e) for e in x))
    if isinstance(x, dict):
        return {k: _realise_tree(v) for k, v in x.items()}
    return x


def wrap_result(x: Any, cls: type, device: str) -> Any:
    """NumPy results as Tensors: arrays of a dtype lazyarr holds become Tensors (recursively inside tuples and lists);
    NumPy scalars, Python objects and arrays of other dtypes (complex, strings, objects) are returned unchanged."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "biuf" and x.dtype != np.longdouble:
            return cls(x, device=device)
        return x
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*(wrap_result(e, cls, device) for e in x))
    if isinstance(x, (list, tuple)):
        return type(x)(wrap_result(e, cls, device) for e in x)
    return x


def _first_tensor(tree: Any) -> Any:
    if is_tensor(tree):
        return tree
    items = tree.values() if isinstance(tree, dict) else tree if isinstance(tree, (list, tuple)) else ()
    for e in items:
        if (t := _first_tensor(e)) is not None:
            return t
    return None


def note_fallback(name: str) -> None:
    """Count one NumPy fallback and warn once per function name when LAZYARR_DEBUG>=1."""
    COUNTERS.numpy_fallbacks += 1
    if flag("DEBUG") >= 1 and name not in _warned:
        _warned.add(name)
        warnings.warn(f"lazyarr: numpy.{name} has no lazy implementation; it ran in NumPy on realised inputs",
                      NumpyFallbackWarning, stacklevel=4)


def write_into(target: Any, value: Tensor, name: str) -> None:
    """Store `value` into `target` (a Tensor via `assign`, or a NumPy array in place), for `out=` and mutators."""
    if isinstance(target, np.ndarray):
        np.copyto(target, value.numpy(), casting="unsafe")
        return
    if not hasattr(target, "assign"):
        raise TypeError(f"numpy.{name} writes into a lazyarr Tensor, which needs Tensor.assign (in-place support)")
    target.assign(value.cast(target.dtype).broadcast_to(target.shape))


def numpy_fallback(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], name: str | None = None,
                   written: int | None = None) -> Any:
    """Run NumPy's `func` on realised copies of the Tensor arguments and wrap array results as Tensors.

    A Tensor passed as `out=` (or as the written argument of an in-place function such as `np.copyto`) receives the
    result through `assign`. Raises TypeError naming the function when such a write is impossible.
    """
    name = name or getattr(func, "__name__", repr(func))
    first = _first_tensor((args, kwargs))
    cls, device = type(first), first.device
    kwargs = dict(kwargs)
    outs = kwargs.pop("out", None)
    written = MUTATING.get(name) if written is None else written
    if written is not None and is_tensor(args[written]) and not hasattr(args[written], "assign"):
        raise TypeError(f"numpy.{name} writes into its argument and cannot fall back to NumPy for a lazyarr Tensor "
                        "without Tensor.assign")
    if written is not None and is_tensor(args[written]):
        check_writable(args[written], f"{name}: output array")  # before NumPy checks the indices on a writable copy
    note_fallback(name)
    np_args, np_kwargs = _realise_tree(args), _realise_tree(kwargs)
    out_list = outs if isinstance(outs, tuple) else (outs,)
    # a Tensor out= goes in as a copy of its values, so NumPy writes it as it writes an array (only where `where=`
    # is True, with NumPy's casting checks), and the copy comes back whole
    np_outs = tuple(np.array(o.numpy()) if is_tensor(o) else o for o in out_list)
    if outs is not None:
        np_kwargs["out"] = np_outs if isinstance(outs, tuple) else np_outs[0]
    result = func(*np_args, **np_kwargs)
    if written is not None and is_tensor(args[written]):
        write_into(args[written], cls(np_args[written], device=device), name)
    if outs is not None:  # NumPy returns out= itself
        for o, arr in zip(out_list, np_outs):
            if is_tensor(o):
                write_into(o, cls(arr, device=device), name)
        return outs[0] if isinstance(outs, tuple) and len(outs) == 1 else outs  # a ufunc's out is always a tuple
    return wrap_result(result, cls, device)


def _foreign(types: Any) -> bool:
    """True when another array type (not ndarray, not a Tensor) takes part: NumPy should ask it instead."""
    return any(not issubclass(t, (np.ndarray, NumpyMixin)) and hasattr(t, "__array_function__") for t in types)


class NumpyMixin:
    """NumPy and Python protocols (mixed into Tensor)."""

    __slots__ = ()

    # ---- NEP 13 / NEP 18 ----
    def __array__(self: Tensor, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """The values as a NumPy array (realises). `copy=False` gives a read-only view of the tensor's storage when
        it is a realised strided view, else raises ValueError (NumPy 2 semantics)."""
        if realize_module.capturing:  # @lazyarr.jit: reading data while capturing raises JitError
            realize_module.check_data_read("np.asarray() (__array__)")
        if copy is False:
            arr = self._storage_view()
            if arr is None or (dtype is not None and np.dtype(dtype) != arr.dtype):
                raise ValueError("Unable to avoid copy while creating an array as requested: this lazyarr Tensor "
                                 "has no storage to view (use copy=None)")
            return arr
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NEP 13: NumPy ufuncs on Tensors build lazy Tensors (see np_ufuncs.py); unknown ones fall back to NumPy."""
        outs = kwargs.get("out", ())
        for x in inputs + (outs if isinstance(outs, tuple) else (outs,)):
            if hasattr(x, "__array_ufunc__") and not isinstance(x, (np.ndarray, NumpyMixin)):
                return NotImplemented
        handler = UFUNC_METHODS.get(method)
        if handler is None:  # `at` writes into its first argument
            return numpy_fallback(getattr(ufunc, method), inputs, kwargs, f"{ufunc.__name__}.{method}",
                                  written=0 if method == "at" else None)
        return handler(ufunc, inputs, kwargs)

    def __array_function__(self, func: Callable[..., Any], types: Any, args: tuple[Any, ...],
                           kwargs: dict[str, Any]) -> Any:
        """NEP 18: NumPy functions with a lazy implementation in `FUNCTIONS` stay lazy; others fall back to NumPy."""
        if _foreign(types):
            return NotImplemented
        impl = FUNCTIONS.get(func)
        if impl is None:
            return numpy_fallback(func, args, kwargs, _qualname(func))
        result = impl(*args, **kwargs)
        return result if func in RETURNS_VIEW else new_arrays(result, args, kwargs)

    def __array_namespace__(self, *, api_version: str | None = None) -> Any:
        """The array API (2023.12) namespace, `lazyarr.array_api`."""
        if api_version not in (None, "2021.12", "2022.12", "2023.12"):
            raise ValueError(f"lazyarr does not support array API version {api_version!r} (newest: 2023.12)")
        return importlib.import_module("lazyarr.array_api")

    # ---- Python protocols ----
    def __iter__(self: Tensor) -> Any:
        """Iterate over the first axis (each item a lazy view); TypeError for a 0-d tensor, like NumPy."""
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __contains__(self: Tensor, value: Any) -> bool:
        """`value in t` is `(t == value).any()` (NumPy)."""
        return bool((self == value).any())

    def __format__(self: Tensor, spec: str) -> str:
        """0-d tensors format like their Python scalar; others only with an empty spec (NumPy's rule)."""
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to lazyarr.Tensor.__format__")
        return str(self)

    def __complex__(self: Tensor) -> complex:
        return complex(self._scalar("complex"))

    def copy(self: Tensor) -> Tensor:
        """A copy with its own storage (lazy, like `clone`)."""
        return self.clone()

    def __copy__(self: Tensor) -> Tensor:
        """`copy.copy`: a realised copy, so later in-place writes to the original don't show through."""
        return self.clone().realize()

    def __deepcopy__(self: Tensor, memo: dict[int, Any]) -> Tensor:
        out = self.clone().realize()
        out.requires_grad = self.requires_grad
        if self.grad is not None:
            out.grad = _copy.deepcopy(self.grad, memo)
        memo[id(self)] = out
        return out

    def __reduce__(self: Tensor) -> tuple[Any, ...]:
        """Pickle as (values, dtype name, device); realises the tensor."""
        return (_rebuild, (type(self), self.numpy(), self.dtype.name, self.device, self.requires_grad))

    def to_device(self: Tensor, device: Any, /, *, stream: Any = None) -> Tensor:
        """The tensor on `device` (array API); the same tensor when it is already there."""
        if str(device).upper().split(":")[0] == self.device:
            return self
        return type(self)(self.numpy(), device=device)

    def __dlpack_device__(self: Tensor) -> tuple[int, int]:
        """(device type, device id) for DLPack: lazyarr exports host memory (kDLCPU)."""
        return (1, 0)

    def __dlpack__(self: Tensor, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: bool | None = None) -> Any:
        """A DLPack capsule of the values (realises). Shares the tensor's storage when it is a realised contiguous
        buffer and `copy` is not True; `copy=False` raises BufferError when a copy is needed."""
        arr = None if copy else self._storage_view(readonly=False)
        if arr is not None and not arr.flags.c_contiguous:
            arr = None
        if arr is None:
            if copy is False:
                raise BufferError("this lazyarr Tensor has no contiguous storage to share (use copy=None)")
            arr = self.numpy()
        kw: dict[str, Any] = {"stream": stream}
        if max_version is not None:
            kw["max_version"] = max_version
        if dl_device is not None:
            kw["dl_device"] = dl_device
        return arr.__dlpack__(**kw)

    def _storage_view(self: Tensor, readonly: bool = True) -> np.ndarray | None:
        """A NumPy view of this tensor's buffer (read-only unless asked) when it is a realised, unmasked strided
        view, else None."""
        self.realize()
        chain, base = strip_movement(self.uop)
        if base.op is not Ops.BUFFER or base.arg.device != "CPU":
            return None
        view = chain_view(chain, base.shape)
        if view is None or view.mask is not None:
            return None
        buf: Buffer = base.arg
        flat = buf.array if buf.allocated else buf.numpy()
        out = np.lib.stride_tricks.as_strided(flat[view.offset:], shape=view.shape,
                                              strides=tuple(s * flat.itemsize for s in view.strides))
        if readonly:
            out.flags.writeable = False
        return out


def _rebuild(cls: type, values: np.ndarray, dtype_name: str, device: str, requires_grad: bool | None) -> Tensor:
    return cls(values, dtype=dtypes.BY_NAME[dtype_name], device=device, requires_grad=requires_grad)


def _qualname(func: Any) -> str:
    mod = getattr(func, "__module__", "") or ""
    name = getattr(func, "__name__", repr(func))
    for sub in ("linalg", "fft", "random", "ma", "polynomial"):
        if f".{sub}" in mod or mod.endswith(sub):
            return f"{sub}.{name}"
    return name
