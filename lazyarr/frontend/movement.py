"""Movement Tensor methods: reshape, permute, expand, shrink, pad, flip and what is built from them (squeeze, cat,
stack, split, repeat, basic and advanced indexing). Views of a buffer launch no kernel.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import strip_movement
from lazyarr.graph.uop import GatherArg, UOp
from lazyarr.helpers import AxisError, JitError, normalize_axis, prod
from lazyarr.kernels import realize as realize_module

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def _is_int(i: Any) -> bool:
    return isinstance(i, (int, np.integer)) and not isinstance(i, bool)


def _shape_arg(shape: tuple[Any, ...]) -> tuple[Any, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def _tensor_args(first: Any, others: tuple[Any, ...], name: str) -> list[Tensor]:
    """The tensors of cat/stack: `first` and `others`, or the tensors of a sequence `first` (the class-level call)."""
    from lazyarr.frontend.tensor import Tensor

    if isinstance(first, (list, tuple)):
        if others:
            raise TypeError(f"{name}() takes tensors, or one sequence of tensors, not both")
        if not first:
            raise ValueError(f"{name}() needs at least one tensor")
        first, others = first[0], tuple(first[1:])
    for t in (first, *others):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}() expects Tensors, got {type(t).__name__}")
    return [first, *others]


_NO_AXIS: Any = object()  # `repeat` called without NumPy's axis keyword


class MovementMixin:
    """Shape-changing methods (mixed into Tensor)."""

    __slots__ = ()

    uop: UOp

    def reshape(self: Tensor, *shape: Any, order: Any = "C") -> Tensor:
        """Same values in C order with a new shape; one dimension may be -1 (inferred). ValueError when sizes differ.
        `order` ('F', 'A'): `ndarray.reshape`'s index order, as `np.reshape` reads it."""
        if order != "C":
            return np.reshape(self, _shape_arg(shape), order=order)
        new = [int(s) for s in _shape_arg(shape)]
        if new.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if any(s < -1 for s in new):
            raise ValueError(f"negative dimensions not allowed in shape {tuple(new)}")
        if -1 in new:
            known = prod(s for s in new if s != -1)
            if known == 0 or self.size % known:
                raise ValueError(f"cannot reshape array of size {self.size} into shape {tuple(new)}")
            new[new.index(-1)] = self.size // known
        if prod(new) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {tuple(new)}")
        return self._new(self.uop.reshape(tuple(new)))

    def permute(self: Tensor, *order: Any) -> Tensor:
        axes = tuple(normalize_axis(operator.index(a), self.ndim) for a in _shape_arg(order))
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"axes {tuple(_shape_arg(order))} don't match array of dimension {self.ndim}")
        return self._new(self.uop.permute(axes))

    def transpose(self: Tensor, *axes: Any, dim0: int | None = None, dim1: int | None = None) -> Tensor:
        """Transpose, with NumPy's and PyTorch's calls agreeing where they overlap.

        `t.transpose()` reverses every axis and `t.transpose((2, 0, 1))` or `t.transpose(2, 0, 1)` permutes them
        (NumPy's `ndarray.transpose`); `t.transpose(dim0, dim1)` swaps two axes (PyTorch's signature; on a 2-D
        tensor both readings agree). AxisError for an axis out of range; ValueError for a permutation that repeats
        or misses an axis."""
        if dim0 is not None or dim1 is not None:
            if axes or dim0 is None or dim1 is None:
                raise TypeError("transpose() takes either axes or both dim0= and dim1=")
            axes = (dim0, dim1)
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            return self.permute(tuple(axes[0]))
        if not axes or axes == (None,):
            return self.permute(tuple(range(self.ndim))[::-1])
        if len(axes) != 2:
            return self.permute(axes)
        order = list(range(self.ndim))
        a, b = normalize_axis(axes[0], self.ndim), normalize_axis(axes[1], self.ndim)
        order[a], order[b] = order[b], order[a]
        return self.permute(order)

    @property
    def T(self: Tensor) -> Tensor:  # noqa: N802
        """All axes reversed (NumPy's `.T`)."""
        return self.permute(tuple(range(self.ndim))[::-1])

    @property
    def mT(self: Tensor) -> Tensor:  # noqa: N802
        """The last two axes swapped."""
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.transpose(-2, -1)

    def expand(self: Tensor, *shape: Any) -> Tensor:
        """Broadcast to `shape` (-1 keeps a dimension), adding leading dims as needed."""
        new = _shape_arg(shape)
        lead = len(new) - self.ndim
        if lead < 0:
            raise ValueError(f"cannot broadcast shape {self.shape} to {tuple(new)}")
        target = tuple(self.shape[i - lead] if s == -1 else int(s) for i, s in enumerate(new))
        return self.broadcast_to(target)

    def broadcast_to(self: Tensor, shape: Any) -> Tensor:
        shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        if shape == self.shape:
            return self
        lead = len(shape) - self.ndim
        if lead < 0 or any(s != n and s != 1 for s, n in zip(self.shape, shape[lead:])):
            raise ValueError(f"operands could not be broadcast together with remapped shapes {self.shape} -> {shape}")
        return self._new(self.uop.reshape((1,) * lead + self.shape).expand(shape))

    def squeeze(self: Tensor, axis: Any = None) -> Tensor:
        """A view without the size-1 dims in `axis` (all of them when None); a 0-d tensor takes axis 0 or -1 (NumPy,
        PyTorch). ValueError for a dim whose size is not 1; AxisError for one out of range."""
        if self.ndim == 0 and isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and axis in (0, -1):
            return self.reshape(())
        if axis is None:
            return self.reshape(tuple(s for s in self.shape if s != 1))
        axes = {normalize_axis(a, self.ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
        for a in axes:
            if self.shape[a] != 1:
                raise ValueError(
                    f"cannot select an axis to squeeze out which has size not equal to one (axis {a} of "
                    f"shape {self.shape})"
                )
        return self.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axes))

    def unsqueeze(self: Tensor, dim: int) -> Tensor:
        d = normalize_axis(dim, self.ndim + 1)
        return self.reshape(self.shape[:d] + (1,) + self.shape[d:])

    def expand_dims(self: Tensor, axis: int) -> Tensor:
        return self.unsqueeze(axis)

    def shrink(self: Tensor, arg: Sequence[tuple[int, int] | None]) -> Tensor:
        """Keep [begin, end) of each dimension (None keeps the whole dimension)."""
        full = tuple((0, s) if a is None else (int(a[0]), int(a[1])) for a, s in zip(arg, self.shape))
        return self._new(self.uop.shrink(full))

    def pad(self: Tensor, padding: Sequence[tuple[int, int]] | Sequence[int], value: float = 0.0) -> Tensor:
        """Pad with `value`: per-dim (before, after) pairs for every dim (NumPy), or a flat PyTorch-style tuple that
        pads the last dims first."""
        if padding and isinstance(padding[0], (tuple, list)):
            pairs = [tuple(int(x) for x in p) for p in padding]
            if len(pairs) != self.ndim:
                raise ValueError(f"padding {padding} does not match {self.ndim} dimensions")
        else:
            flat = [int(x) for x in padding]  # type: ignore[arg-type]
            if len(flat) % 2 or len(flat) // 2 > self.ndim:
                raise ValueError(f"padding length {len(flat)} is invalid for {self.ndim} dimensions")
            pairs = [(0, 0)] * self.ndim
            for i in range(len(flat) // 2):
                pairs[self.ndim - 1 - i] = (flat[2 * i], flat[2 * i + 1])
        if any(b < 0 or a < 0 for b, a in pairs):
            # negative padding crops, like PyTorch
            crop = tuple((max(0, -b), s - max(0, -a)) for (b, a), s in zip(pairs, self.shape))
            return self.shrink(crop).pad([(max(0, b), max(0, a)) for b, a in pairs], value)
        out = self._new(self.uop.pad(tuple(pairs)))  # type: ignore[arg-type]
        if value == 0 and not np.signbit(value):  # -0.0 pads with -0.0 (NumPy), not with the zeros of a plain pad
            return out
        mask = self._new(UOp.const(True, dtypes.bool_, self.shape).pad(tuple(pairs)))  # type: ignore[arg-type]
        return mask.where(out, value)

    def flip(self: Tensor, axis: Any = None) -> Tensor:
        axes = (
            range(self.ndim)
            if axis is None
            else [normalize_axis(a, self.ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
        )
        flags = tuple(i in set(axes) for i in range(self.ndim))
        return self._new(self.uop.flip(flags))

    def _step(self: Tensor, dim: int, begin: int, step: int, count: int) -> Tensor:
        """Elements begin, begin+step, ... (count of them, step > 0) along `dim`, as a view."""
        shr = [(0, s) for s in self.shape]
        shr[dim] = (begin, min(self.shape[dim], begin + count * step))
        x = self.shrink(shr)
        if step == 1 or count == 0:
            return x
        return x._new(x.uop.stride(tuple(step if d == dim else 1 for d in range(x.ndim))))

    # ---- joining and splitting ----
    def cat(self: Tensor, *others: Tensor, dim: int = 0) -> Tensor:
        """Concatenate along `dim` (np.concatenate); dtypes are promoted, other dims must match. Called on the class,
        it also takes one sequence of tensors, as torch.cat does: ``Tensor.cat([a, b], dim=1)``.

        Raises:
            TypeError: an argument that is not a Tensor.
            ValueError: no tensors, 0-d tensors, or other dims that differ."""
        tensors = _tensor_args(self, others, "cat")
        self = tensors[0]
        if self.ndim == 0:
            raise ValueError("zero-dimensional arrays cannot be concatenated")
        d = normalize_axis(dim, self.ndim)
        dt = dtypes.result_type(*[t.dtype for t in tensors])
        for t in tensors:
            if t.ndim != self.ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, self.shape)) if i != d):
                raise ValueError(
                    f"all the input array dimensions except for the concatenation axis must match "
                    f"exactly, but got shapes {self.shape} and {t.shape}"
                )
        total = sum(t.shape[d] for t in tensors)
        placed: list[tuple[Tensor, tuple[tuple[int, int], ...]]] = []
        offset = 0
        for t in tensors:
            pads = [(0, 0)] * self.ndim
            pads[d] = (offset, total - offset - t.shape[d])
            if t.shape[d]:
                placed.append((t.cast(dt), tuple(pads)))
            offset += t.shape[d]
        if not placed:
            return self.cast(dt)
        # each piece is selected inside its region (adding zero-padded pieces would turn -0.0 into +0.0)
        last, last_pads = placed[-1]
        out = last._new(last.uop.pad(last_pads))
        for t, pads in reversed(placed[:-1]):
            inside = t._new(UOp.const(True, dtypes.bool_, t.shape).pad(pads))
            out = inside.where(t._new(t.uop.pad(pads)), out)
        return out

    def stack(self: Tensor, *others: Tensor, dim: int = 0) -> Tensor:
        """Join tensors of one shape along a new axis `dim` (np.stack); dtypes are promoted. Called on the class, it
        also takes one sequence of tensors, as torch.stack does: ``Tensor.stack([a, b])``.

        Raises:
            TypeError: an argument that is not a Tensor.
            ValueError: no tensors, or shapes that differ."""
        tensors = _tensor_args(self, others, "stack")
        self = tensors[0]
        for t in tensors:
            if t.shape != self.shape:
                raise ValueError(f"all input arrays must have the same shape, got {self.shape} and {t.shape}")
        d = normalize_axis(dim, self.ndim + 1)
        return tensors[0].unsqueeze(d).cat(*[t.unsqueeze(d) for t in tensors[1:]], dim=d)

    def split(self: Tensor, sizes: int | Sequence[int], dim: int = 0) -> list[Tensor]:
        """PyTorch's split: chunks of `sizes` (an int: equal chunks, the last smaller) along `dim`."""
        d = normalize_axis(dim, self.ndim)
        n = self.shape[d]
        if isinstance(sizes, int):
            if sizes <= 0:
                raise ValueError("split size must be positive")
            sizes = [min(sizes, n - i) for i in range(0, n, sizes)] or [0]
        if sum(sizes) != n:
            raise ValueError(f"split sizes {list(sizes)} don't add up to {n}")
        out, start = [], 0
        for s in sizes:
            arg = [(0, x) for x in self.shape]
            arg[d] = (start, start + s)
            out.append(self.shrink(arg))
            start += s
        return out

    def chunk(self: Tensor, chunks: int, dim: int = 0) -> list[Tensor]:
        if chunks <= 0:
            raise ValueError("chunk expects `chunks` to be greater than 0")
        n = self.shape[normalize_axis(dim, self.ndim)]
        return self.split(max(1, -(-n // chunks)), dim)

    def repeat(self: Tensor, *repeats: Any, axis: Any = _NO_AXIS) -> Tensor:
        """Two libraries' `repeat`, told apart by NumPy's `axis` keyword.

        Without `axis` (PyTorch's `Tensor.repeat(*sizes)`, NumPy's `np.tile`): tile the tensor, `t.repeat(2, 3)` of
        shape (a, b) has shape (2a, 3b) (leading dims are added when more sizes than dims are given; ValueError for
        fewer). NumPy code calling `a.repeat(2)` without `axis=` gets this meaning, not NumPy's.
        With `axis=` (NumPy's `ndarray.repeat(repeats, axis)`, `np.repeat`): repeat each element `repeats` times (an
        int or one count per element) along `axis`, or of the flattened tensor when `axis=None`:
        `t.repeat(2, axis=None)` of [1, 2] is [1, 1, 2, 2].
        """
        if axis is not _NO_AXIS:
            if len(repeats) != 1:
                raise TypeError("repeat(repeats, axis=...) takes one repeats argument (NumPy's ndarray.repeat)")
            return np.repeat(self, repeats[0], axis=axis)
        reps = tuple(int(r) for r in _shape_arg(repeats))
        if len(reps) < self.ndim:
            raise ValueError("number of repeat dims can not be smaller than number of tensor dims")
        x = self.reshape((1,) * (len(reps) - self.ndim) + self.shape)
        expanded = []
        for s in x.shape:
            expanded += [1, s]
        target = []
        for r, s in zip(reps, x.shape):
            target += [r, s]
        return x.reshape(expanded).expand(target).reshape(tuple(r * s for r, s in zip(reps, x.shape)))

    # ---- indexing ----
    def __getitem__(self: Tensor, idx: Any) -> Tensor:
        """NumPy indexing: ints, slices (any step), None, Ellipsis, integer tensors/lists/arrays and boolean masks.
        Basic indices make views; integer arrays gather (IndexError for out-of-range values, checked first; a Tensor
        index inside a @lazyarr.jit capture cannot be read: an out-of-range value is clamped in the kernel and jit
        raises IndexError after the call). An int for every
        dim gives a 0-d value that is not a view: NumPy's `a[i, j]` is a scalar, a copy, so a later write to `a`
        does not change it (`old = a[i]; a[i] = old + h` keeps `old`)."""
        r = _getitem(self, idx)
        items = idx if isinstance(idx, tuple) else (idx,)
        if len(items) == self.ndim and all(_is_int(i) for i in items):
            r = self._new(r.uop) if r is self else r  # `a[()]` of a 0-d array
            r._leave_array()
        return r


# range checks of Tensor indices used while @lazyarr.jit captures, whose values cannot be read then: (out of range,
# offending value, message) with a 0-d bool tensor, a 0-d int64 tensor and an IndexError text with {} for the value.
# jit computes them with the captured call and raises IndexError after the capture or a replay that finds one
capture_checks: list[tuple[Tensor, Tensor, str]] = []


def check_in_capture(index: Tensor, bad: Tensor, message: str) -> None:
    """Have jit check, after the call being captured and after every replay, that no element of `index` is `bad`."""
    if index.size:
        i64 = index.cast(dtypes.int64)
        capture_checks.append((bad.any(), bad.where(i64, -(2**63)).max(), message))


_INDEX_TYPES_MSG = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
    "arrays are valid indices"
)


def _normalize_index(t: Tensor, idx: Any) -> list[Any]:
    """Index items: None, Ellipsis, slices and ints as given; ("bool0", value) for a 0-d boolean; ("mask", array) for
    a boolean array (it consumes mask.ndim dims); an int64 NumPy array for every integer array or list (values known
    on the host: checked there, even inside a @lazyarr.jit capture) and an integer Tensor as given."""
    cls = type(t)
    items: list[Any] = []
    for i in idx if isinstance(idx, tuple) else (idx,):
        if isinstance(i, (list, tuple)):
            try:
                i = np.asarray(i)
            except ValueError:
                raise IndexError(f"cannot index with a ragged nested sequence: {i!r}") from None
            if i.dtype.kind not in "biu":
                if i.size:
                    raise IndexError("arrays used as indices must be of integer (or boolean) type")
                i = i.astype(np.int64)  # [] indexes nothing
        if isinstance(i, (bool, np.bool_)):
            items.append(("bool0", bool(i)))
        elif isinstance(i, cls) and i.dtype.is_bool or isinstance(i, np.ndarray) and i.dtype == np.bool_:
            mask = i.numpy() if isinstance(i, cls) else i
            items.append(("bool0", bool(mask)) if mask.ndim == 0 else ("mask", mask))
        elif isinstance(i, np.ndarray):
            if i.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            items.append(i.astype(np.int64))
        elif isinstance(i, cls):
            if not i.dtype.is_int:
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            items.append(i)
        elif i is None or i is Ellipsis or isinstance(i, slice):
            items.append(i)
        else:
            try:
                items.append(int(i.__index__()) if not isinstance(i, int) else i)
            except (AttributeError, TypeError):
                raise IndexError(_INDEX_TYPES_MSG) from None
    return items


def _dims_used(item: Any) -> int:
    if item is None or item is Ellipsis or isinstance(item, tuple) and item[0] == "bool0":
        return 0
    return item[1].ndim if isinstance(item, tuple) else 1


def _getitem(t: Tensor, idx: Any, store_data: bool = True, positions: list[np.ndarray] | None = None) -> Tensor:
    """NumPy indexing. Basic items are views; integer arrays (and, when one is present, integer scalars, which NumPy
    then treats as 0-d arrays) are gathered after the basic items are applied, see `_gather_advanced` (which appends
    the gathered positions to `positions` when they are known on the host)."""
    cls = type(t)
    items = _normalize_index(t, idx)
    if sum(1 for i in items if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(_dims_used(i) for i in items)
    if consumed > t.ndim:
        raise IndexError(f"too many indices for array: array is {t.ndim}-dimensional, but {consumed} were indexed")
    e = next((k for k, i in enumerate(items) if i is Ellipsis), len(items))
    items = items[:e] + [slice(None)] * (t.ndim - consumed) + items[e + 1 :]
    has_adv = any(isinstance(i, (cls, np.ndarray)) or isinstance(i, tuple) and i[0] == "mask" for i in items)
    x = t
    dim = 0
    adv: list[tuple[int, Tensor | np.ndarray]] = []
    for i in items:
        if i is None:
            x = x.unsqueeze(dim)
            dim += 1
        elif isinstance(i, tuple) and i[0] == "bool0":
            x = x.unsqueeze(dim)
            if not i[1]:
                x = x.shrink([(0, s) if k != dim else (0, 0) for k, s in enumerate(x.shape)])
            dim += 1
        elif isinstance(i, tuple):  # a boolean mask over the next mask.ndim dims: their nonzero() positions
            mask = i[1]
            for k, (n, m) in enumerate(zip(x.shape[dim:], mask.shape)):
                if n != m:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {dim + k}; size of axis "
                        f"is {n} but size of corresponding boolean axis is {m}"
                    )
            for nonzero in np.nonzero(mask):
                adv.append((dim, nonzero.astype(np.int64)))
                dim += 1
        elif isinstance(i, slice):
            n = x.shape[dim]
            start, stop, step = i.indices(n)
            count = len(range(start, stop, step))
            if step < 0:
                x = x.flip(dim)
                start = n - 1 - start
                step = -step
            x = x._step(dim, start if count else 0, step, count)
            dim += 1
        elif isinstance(i, (cls, np.ndarray)):
            adv.append((dim, i))
            dim += 1
        else:
            n = x.shape[dim]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            if has_adv:  # NumPy: an integer among advanced indices is a 0-d advanced index (it affects placement)
                adv.append((dim, np.array(i % n, dtype=np.int64)))
                dim += 1
                continue
            k = i % n
            x = x.shrink([(k, k + 1) if d == dim else (0, s) for d, s in enumerate(x.shape)])
            x = x.reshape(x.shape[:dim] + x.shape[dim + 1 :])
    if adv:
        x = _gather_advanced(x, adv, store_data, positions)
    return x


def _gather_advanced(x: Tensor, adv: list[tuple[int, Tensor | np.ndarray]], store_data: bool = True,
                     positions: list[np.ndarray] | None = None) -> Tensor:
    """NumPy advanced indexing with integer indices at dims `adv` (index values are checked before any kernel):
    NumPy arrays (values known on the host, also while @lazyarr.jit captures) or integer tensors.

    With `store_data`, computed data is stored first; a scatter target (`__setitem__`) keeps its own storage. When
    every index is known on the host and `positions` is given, the flat positions gathered (of the broadcast index
    shape) are appended to it (a scatter needs them to let the last write win, and may not read a tensor in a
    capture)."""
    from lazyarr.frontend.elementwise import broadcast_shape

    if store_data and strip_movement(x.uop)[1].op not in (Ops.BUFFER, Ops.ASSIGN):
        x = x.contiguous()  # computed data is stored once, before it is permuted and broadcast against the index
    dims = [d for d, _ in adv]
    try:
        bshape = broadcast_shape(*[tuple(i.shape) for _, i in adv])
    except ValueError:
        shapes = " ".join(str(tuple(i.shape)) for _, i in adv)
        raise IndexError(
            f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}"
        ) from None
    checked = []
    host: list[np.ndarray] = []  # the checked values of the indices known on the host
    for d, i in adv:
        n = x.shape[d]
        if isinstance(i, type(x)) and realize_module.capturing and not store_data:
            raise JitError(
                "a scatter (t[index] = v, t[index] += v) by a Tensor index inside a function @lazyarr.jit captures: "
                "its values are read on the host (to check their range and let the last of repeated positions win), "
                "and a replay does not run the Python body. Pass the index as a NumPy array or list (constant across "
                "calls), or compute the result without a scatter (e.g. with a one-hot mask and Tensor.where).")
        if isinstance(i, type(x)) and realize_module.capturing:
            # @lazyarr.jit capturing: the values cannot be read (a replay would keep them), so a negative index wraps
            # and an out-of-range one is clamped inside the kernel (no stray read); jit raises IndexError after the
            # call when one was out of range (`check_in_capture`)
            if n == 0 and i.size:
                raise IndexError(f"index is out of bounds for axis {d} with size 0")
            i64 = i.cast(dtypes.int64)
            check_in_capture(i64, (i64 < -n) | (i64 >= n), f"index {{}} is out of bounds for axis {d} with size {n}")
            checked.append((i64 < 0).where(i64 + n, i64).clip(0, max(n - 1, 0)).broadcast_to(bshape))
            continue
        vals = i.astype(np.int64) if isinstance(i, np.ndarray) else i.numpy().astype(np.int64)
        if vals.size and (vals.min() < -n or vals.max() >= n):
            bad = vals[(vals < -n) | (vals >= n)].flat[0]
            raise IndexError(f"index {bad} is out of bounds for axis {d} with size {n}")
        vals = np.where(vals < 0, vals + n, vals).reshape(i.shape)
        if isinstance(i, np.ndarray):
            host.append(vals)
        checked.append(type(x)(vals, device=x.device).broadcast_to(bshape))
    if positions is not None and len(host) == len(adv):
        flat = np.zeros(bshape, np.int64)
        for k, vals in enumerate(host):
            flat = flat + vals * prod(x.shape[dd] for dd in dims[k + 1 :])
        positions.append(flat)
    # flatten the advanced dims into one position, then gather along it
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    order = dims + [d for d in range(x.ndim) if d not in dims]
    xp = x.permute(order)
    rest = xp.shape[len(dims) :]
    flat_pos = None
    for k, c in enumerate(checked):
        stride = prod(x.shape[dd] for dd in dims[k + 1 :])
        term = c * stride if stride != 1 else c
        flat_pos = term if flat_pos is None else flat_pos + term
    assert flat_pos is not None
    data = xp.reshape((prod(x.shape[d] for d in dims),) + rest)
    nb = len(bshape)
    idx = flat_pos.reshape(bshape + (1,) * len(rest)).expand(bshape + rest)
    data_b = data.reshape((1,) * (nb - 1) + data.shape).expand(bshape[:-1] + data.shape) if nb else data
    if nb == 0:
        idx = flat_pos.reshape((1,) + (1,) * len(rest)).expand((1,) + rest)
        data_b = data
        out = x._new(UOp(Ops.GATHER, x.dtype, (data_b.uop, idx.cast(dtypes.int64).uop), GatherArg(0)))
        out = out.reshape(rest)
    else:
        out = x._new(UOp(Ops.GATHER, x.dtype, (data_b.uop, idx.cast(dtypes.int64).uop), GatherArg(nb - 1)))
    if adjacent and dims[0] != 0:
        # NumPy keeps the broadcast index dims in place when the advanced indices are adjacent
        before = list(range(nb, nb + dims[0]))
        order2 = before + list(range(nb)) + list(range(nb + dims[0], out.ndim))
        out = out.permute(order2)
    return out


__all__ = ["MovementMixin", "AxisError", "capture_checks", "check_in_capture"]
