"""View: how an N-d logical tensor maps onto a flat 1-D buffer (shape, strides, offset, validity mask).

Movement ops (reshape, permute, expand, shrink, pad, flip) take a View and return the composed View; reshape returns
None when no single View can express the result (NumPy would have to copy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Mask = tuple[tuple[int, int], ...]
Shape = tuple[int, ...]


def _as_int(value: object, what: str) -> int:
    # __index__ accepts ints and int-like scalars but rejects floats, which would silently truncate with int()
    try:
        return value.__index__()  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(f"{what}: expected an integer, got {value!r}") from None


def _as_shape(shape: Shape, what: str) -> tuple[int, ...]:
    out = tuple(_as_int(d, what) for d in shape)
    if any(d < 0 for d in out):
        raise ValueError(f"{what}: negative dimension in shape {out}")
    return out


def _as_pairs(arg: Mask, ndim: int, what: str, shape: tuple[int, ...]) -> Mask:
    pairs = tuple((_as_int(a, what), _as_int(b, what)) for a, b in arg)
    if len(pairs) != ndim:
        raise ValueError(f"{what}: got {len(pairs)} pairs {pairs} for shape {shape} with {ndim} dims")
    return pairs


def strides_for_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """C-contiguous strides in elements; size-1 dims get stride 0 so equal layouts compare equal."""
    strides: list[int] = []
    running = 1
    for dim in reversed(shape):
        strides.append(0 if dim == 1 else running)
        running *= dim
    return tuple(reversed(strides))


def _merge_box(box: Mask, sizes: tuple[int, ...]) -> tuple[int, int] | None:
    """The linear-index interval [lo, hi) equal to a non-empty box in mixed radix `sizes`, or None if it has holes."""
    first = last = 0
    for (lo, hi), size in zip(box, sizes):
        first = first * size + lo
        last = last * size + hi - 1
    count = math.prod(hi - lo for lo, hi in box)
    # the box lies inside [first, last]; it fills that interval exactly when the element counts agree
    return (first, last + 1) if last + 1 - first == count else None


def _split_interval(lo: int, hi: int, sizes: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """The per-dim box equal to the non-empty linear interval [lo, hi) in mixed radix `sizes`, or None if not a box."""
    out: list[tuple[int, int]] = []
    for k in range(len(sizes)):
        inner = math.prod(sizes[k + 1 :])
        if lo % inner == 0 and hi % inner == 0:
            # whole rows of the inner dims: only this dim is restricted
            return out + [(lo // inner, hi // inner)] + [(0, size) for size in sizes[k + 1 :]]
        row = lo // inner
        if row != (hi - 1) // inner:
            # a partial row followed by more rows is not a product of ranges
            return None
        out.append((row, row + 1))
        lo, hi = lo - row * inner, hi - row * inner
    return out  # not reached: inner is 1 at the last dim, which always divides


def _merge_group(group: list[tuple[int, int, tuple[int, int]]]) -> tuple[int, int, tuple[int, int]] | None:
    """Merge old dims (size, stride, mask) into one: (stride, offset change, valid interval), or None if impossible.

    A dim whose mask keeps a single index is "free": only that index is ever read, so its stride can be anything
    once the offset absorbs the difference. This lets e.g. a padded size-1 dim flatten into its neighbours.
    """
    sizes = tuple(size for size, _, _ in group)
    interval = _merge_box(tuple(m for _, _, m in group), sizes)
    if interval is None:
        return None
    inner = [math.prod(sizes[a + 1 :]) for a in range(len(sizes))]
    stride: int | None = None
    for (_, s, (lo, hi)), block in zip(group, inner):
        if hi - lo == 1:
            continue
        # merged stride S must give this dim stride block * S
        if s % block != 0 or (stride is not None and stride != s // block):
            return None
        stride = s // block
    if stride is None:
        stride = 0
    offset_delta = sum(lo * (s - block * stride) for (_, s, (lo, hi)), block in zip(group, inner) if hi - lo == 1)
    return stride, offset_delta, interval


@dataclass(frozen=True)
class View:
    """Element at multi-index idx is valid iff every idx[d] lies in mask[d]; it then lives at offset + sum(idx*strides).

    Invalid elements read as 0 (padding). Build Views with View.create so that equal layouts compare equal.
    """

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int
    mask: Mask | None

    @staticmethod
    def create(
        shape: Shape,
        strides: Shape | None = None,
        offset: int = 0,
        mask: Mask | None = None,
    ) -> View:
        """Validate and canonicalise: size-1 strides 0, full masks None, empty views in one fixed form."""
        shape_t = _as_shape(shape, "View.create")
        ndim = len(shape_t)
        strides_t = strides_for_shape(shape_t) if strides is None else tuple(_as_int(s, "View.create") for s in strides)
        if len(strides_t) != ndim:
            raise ValueError(f"View.create: strides {strides_t} do not match shape {shape_t}")
        offset_i = _as_int(offset, "View.create")
        mask_t = None if mask is None else _as_pairs(mask, ndim, "View.create mask", shape_t)
        if mask_t is not None and any(
            not (0 <= lo <= dim and 0 <= hi <= dim) for (lo, hi), dim in zip(mask_t, shape_t)
        ):
            raise ValueError(f"View.create: mask {mask_t} out of range for shape {shape_t}")
        if math.prod(shape_t) == 0:
            # no elements: every layout is equivalent, so pick the contiguous one
            return View(shape_t, strides_for_shape(shape_t), 0, None)
        if mask_t is not None and any(lo >= hi for lo, hi in mask_t):
            # nothing valid: strides and offset are meaningless, one form keeps equal views equal
            return View(shape_t, (0,) * ndim, 0, ((0, 0),) * ndim)
        strides_t = tuple(0 if dim == 1 else s for dim, s in zip(shape_t, strides_t))
        if mask_t is not None and all(lo == 0 and hi == dim for (lo, hi), dim in zip(mask_t, shape_t)):
            mask_t = None
        return View(shape_t, strides_t, offset_i, mask_t)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def contiguous(self) -> bool:
        if self.offset != 0 or self.mask is not None:
            return False
        expected = strides_for_shape(self.shape)
        return all(dim == 1 or s == e for dim, s, e in zip(self.shape, self.strides, expected))

    @property
    def _all_masked(self) -> bool:
        return self.mask is not None and any(lo >= hi for lo, hi in self.mask)

    def _full_mask(self) -> Mask:
        return self.mask if self.mask is not None else tuple((0, dim) for dim in self.shape)

    def reshape(self, new_shape: Shape) -> View | None:
        """np.reshape (C order) of the logical tensor; None when no single View expresses it."""
        new_shape_t = _as_shape(new_shape, f"reshape of shape {self.shape}")
        if math.prod(new_shape_t) != self.size:
            raise ValueError(f"reshape: cannot reshape shape {self.shape} (size {self.size}) into {new_shape_t}")
        if new_shape_t == self.shape:
            return self
        if self.size == 0:
            return View.create(new_shape_t)
        if self._all_masked:
            # a 0-d view has no mask dims to mark its single element invalid
            return View.create(new_shape_t, mask=((0, 0),) * len(new_shape_t)) if new_shape_t else None

        # size-1 dims are fully valid here (an empty one would be all-masked) and have stride 0: drop them
        old = [(dim, s, m) for dim, s, m in zip(self.shape, self.strides, self._full_mask()) if dim != 1]
        new_big = tuple(dim for dim in new_shape_t if dim != 1)
        big_strides: list[int] = []
        big_mask: list[tuple[int, int]] = []
        offset = self.offset
        oi = ni = 0
        # walk minimal groups of old and new dims with equal products, as NumPy's _attempt_nocopy_reshape does
        while oi < len(old):
            oj, nj = oi + 1, ni + 1
            old_prod, new_prod = old[oi][0], new_big[ni]
            while old_prod != new_prod:
                if old_prod < new_prod:
                    old_prod *= old[oj][0]
                    oj += 1
                else:
                    new_prod *= new_big[nj]
                    nj += 1
            merged = _merge_group(old[oi:oj])
            if merged is None:
                return None
            stride, offset_delta, (lo, hi) = merged
            group_sizes = new_big[ni:nj]
            group_mask = _split_interval(lo, hi, group_sizes)
            if group_mask is None:
                return None
            offset += offset_delta
            big_strides.extend(stride * math.prod(group_sizes[k + 1 :]) for k in range(len(group_sizes)))
            big_mask.extend(group_mask)
            oi, ni = oj, nj

        strides: list[int] = []
        mask: list[tuple[int, int]] = []
        big_iter = iter(zip(big_strides, big_mask))
        for dim in new_shape_t:
            stride, dim_mask = (0, (0, 1)) if dim == 1 else next(big_iter)
            strides.append(stride)
            mask.append(dim_mask)
        return View.create(new_shape_t, strides, offset, mask)

    def permute(self, order: Shape) -> View:
        """np.transpose: new dim k is old dim order[k]."""
        order_t = tuple(_as_int(o, "permute") for o in order)
        if sorted(order_t) != list(range(len(self.shape))):
            raise ValueError(f"permute: {order_t} is not a permutation of the dims of shape {self.shape}")
        return View.create(
            tuple(self.shape[o] for o in order_t),
            tuple(self.strides[o] for o in order_t),
            self.offset,
            None if self.mask is None else tuple(self.mask[o] for o in order_t),
        )

    def expand(self, new_shape: Shape) -> View:
        """np.broadcast_to without adding dims: only size-1 dims may change size (they read with stride 0)."""
        new_shape_t = _as_shape(new_shape, f"expand of shape {self.shape}")
        if len(new_shape_t) != len(self.shape) or any(
            old != new and old != 1 for old, new in zip(self.shape, new_shape_t)
        ):
            raise ValueError(f"expand: cannot expand shape {self.shape} to {new_shape_t}")
        if new_shape_t == self.shape:
            return self
        mask = None
        if self.mask is not None:
            # a size-1 dim's mask is (0, 1) or empty; either way it applies to every copy
            mask = tuple(
                m if old == new else ((0, new) if m[0] < m[1] else (0, 0))
                for m, old, new in zip(self.mask, self.shape, new_shape_t)
            )
        return View.create(new_shape_t, self.strides, self.offset, mask)

    def shrink(self, arg: Mask) -> View:
        """Basic slicing: dim d keeps [arg[d][0], arg[d][1])."""
        arg_t = _as_pairs(arg, len(self.shape), "shrink", self.shape)
        if any(not (0 <= b <= e <= dim) for (b, e), dim in zip(arg_t, self.shape)):
            raise ValueError(f"shrink: {arg_t} out of range for shape {self.shape}")
        if all(b == 0 and e == dim for (b, e), dim in zip(arg_t, self.shape)):
            return self
        offset = self.offset + sum(b * s for (b, _), s in zip(arg_t, self.strides))
        mask = None
        if self.mask is not None:
            mask = tuple((min(max(lo, b), e) - b, max(min(hi, e), b) - b) for (lo, hi), (b, e) in zip(self.mask, arg_t))
        return View.create(tuple(e - b for b, e in arg_t), self.strides, offset, mask)

    def pad(self, arg: Mask) -> View:
        """np.pad with zeros: dim d gains arg[d][0] masked elements before and arg[d][1] after."""
        arg_t = _as_pairs(arg, len(self.shape), "pad", self.shape)
        if any(b < 0 or a < 0 for b, a in arg_t):
            raise ValueError(f"pad: negative padding {arg_t} for shape {self.shape}")
        if all(b == 0 and a == 0 for b, a in arg_t):
            return self
        offset = self.offset - sum(b * s for (b, _), s in zip(arg_t, self.strides))
        mask = tuple((lo + b, hi + b) for (lo, hi), (b, _) in zip(self._full_mask(), arg_t))
        return View.create(tuple(dim + b + a for dim, (b, a) in zip(self.shape, arg_t)), self.strides, offset, mask)

    def stride(self, steps: tuple[int, ...]) -> View:
        """Every steps[d]-th element of each dim, starting at 0 (basic slicing `[::k]` with k > 0)."""
        steps_t = tuple(_as_int(k, "View.stride") for k in steps)
        if len(steps_t) != len(self.shape) or any(k <= 0 for k in steps_t):
            raise ValueError(f"View.stride: steps {steps_t} invalid for shape {self.shape}")
        shape = tuple(-(-s // k) for s, k in zip(self.shape, steps_t))
        strides = tuple(st * k for st, k in zip(self.strides, steps_t))
        mask = None
        if self.mask is not None:
            mask = tuple((-(-lo // k), max(-(-lo // k), -(-hi // k))) for (lo, hi), k in zip(self.mask, steps_t))
        return View.create(shape, strides, self.offset, mask)

    def flip(self, axes: tuple[bool, ...]) -> View:
        """np.flip on the dims whose flag is set."""
        axes_t = tuple(bool(a) for a in axes)
        if len(axes_t) != len(self.shape):
            raise ValueError(f"flip: {len(axes_t)} flags {axes_t} for shape {self.shape}")
        if self.size == 0 or not any(axes_t):
            return self
        offset = self.offset + sum((dim - 1) * s for dim, s, f in zip(self.shape, self.strides, axes_t) if f)
        strides = tuple(-s if f else s for s, f in zip(self.strides, axes_t))
        mask = None
        if self.mask is not None:
            mask = tuple(
                (dim - hi, dim - lo) if f else (lo, hi) for (lo, hi), dim, f in zip(self.mask, self.shape, axes_t)
            )
        return View.create(self.shape, strides, offset, mask)

    def index_ranges(self) -> tuple[int, int]:
        """(min, max + 1) of the flat buffer positions the valid elements touch; (0, 0) when none are valid."""
        if self.size == 0 or self._all_masked:
            return (0, 0)
        low = high = self.offset
        for (lo, hi), s in zip(self._full_mask(), self.strides):
            # each dim's extreme contributions come from its first or last valid index, whichever the stride's sign
            # favours
            ends = (lo * s, (hi - 1) * s)
            low += min(ends)
            high += max(ends)
        return (low, high + 1)
