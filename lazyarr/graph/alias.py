"""Aliasing arithmetic on view stacks: which storage positions a movement chain touches, whether all of its elements
are real (not padding), and whether two of its elements share a position (a broadcast).

A view stack lists Views bottom first: the bottom View indexes the flat storage, and each View above indexes the
C-order positions of the one below (a reshape that no single View expresses starts a new level). The in-place write
hazard check (scheduler) and NumPy view-ness (frontend) are built on these answers. All answers are conservative:
a range may be wider than the positions really touched, never narrower.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyarr.graph.view import View
from lazyarr.helpers import prod

Stack = tuple[View, ...]


def _bounding_box(lo: int, hi: int, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The smallest per-dim box of multi-indices (C order over `shape`) containing the linear interval [lo, hi)."""
    box: list[tuple[int, int]] = []
    for d in range(len(shape)):
        inner = prod(shape[d + 1 :])
        first, last = lo // inner, (hi - 1) // inner
        if first == last:
            box.append((first, first + 1))
            lo, hi = lo - first * inner, hi - first * inner
            continue
        # the interval spans several rows of this dim: every inner index may occur
        box.append((first, last + 1))
        box.extend((0, s) for s in shape[d + 1 :])
        break
    return tuple(box)


def fold(upper: View, lower: View) -> View | None:
    """The single View equal to `upper` indexing the C-order positions of `lower`, or None when there is none.

    It exists when each stride of `upper` moves one digit of `lower`'s multi-index (in mixed radix `lower.shape`)
    and no digit ever carries into the next, and when every element it reaches is inside `lower`'s mask. This is
    what a strided slice (pad, split the dim, keep one column) leaves behind.
    """
    if upper.mask is not None or upper.size == 0:
        return None
    dims = [d for d, n in enumerate(lower.shape) if n > 1]
    inner = {d: prod(lower.shape[d + 1 :]) for d in dims}
    if not 0 <= upper.offset < max(1, lower.size):
        return None
    digit = {d: (upper.offset // inner[d]) % lower.shape[d] for d in dims}
    low, high = dict(digit), dict(digit)
    strides: list[int] = []
    for n, s in zip(upper.shape, upper.strides):
        if n == 1 or s == 0:
            strides.append(0)
            continue
        d = next((d for d in dims if abs(s) % inner[d] == 0), None)  # the outermost digit the stride moves
        if d is None:
            return None
        c = s // inner[d]
        low[d] += min(0, c * (n - 1))
        high[d] += max(0, c * (n - 1))
        strides.append(c * lower.strides[d])
    box = {d: (low[d], high[d] + 1) for d in dims}
    if any(not (0 <= lo and hi <= lower.shape[d]) for d, (lo, hi) in box.items()):
        return None  # a digit would carry
    if lower.mask is not None and any(not (lower.mask[d][0] <= lo and hi <= lower.mask[d][1])
                                      for d, (lo, hi) in box.items()):
        return None
    if lower.mask is not None and any(not lower.mask[d][0] <= 0 < lower.mask[d][1]
                                      for d, n in enumerate(lower.shape) if n == 1):
        return None
    offset = lower.offset + sum(digit[d] * lower.strides[d] for d in dims)
    return View.create(upper.shape, tuple(strides), offset)


def simplify(stack: Sequence[View]) -> Stack:
    """`stack` with each level folded into the one below while `fold` can (same elements, fewer levels)."""
    out = list(stack)
    while len(out) > 1 and (merged := fold(out[-1], out[-2])) is not None:
        out[-2:] = [merged]
    return tuple(out)


def _levels(stack: Sequence[View]) -> list[View] | None:
    """Each level restricted to the part the level above reaches, top first; None when nothing is touched."""
    top = stack[-1]
    if top.size == 0:
        return None
    out = [top]
    lo, hi = top.index_ranges()
    for v in reversed(stack[:-1]):
        if hi <= lo:
            return None
        v = v.shrink(_bounding_box(lo, hi, v.shape))
        out.append(v)
        lo, hi = v.index_ranges()
    return out if hi > lo else None


def touched_range(stack: Sequence[View]) -> tuple[int, int]:
    """[lo, hi) containing every storage position a valid element of the stack reads or writes; (0, 0) for none."""
    levels = _levels(stack)
    return levels[-1].index_ranges() if levels else (0, 0)


def all_valid(stack: Sequence[View]) -> bool:
    """True when no element of the stack is padding (every element maps to a storage position)."""
    levels = _levels(stack)
    return levels is None or all(v.mask is None for v in levels)


def is_broadcast(stack: Sequence[View]) -> bool:
    """True when two elements may share a storage position (a stride-0 dim of size > 1 somewhere in the stack)."""
    levels = _levels(stack)
    return levels is not None and any(s == 0 and n > 1 for v in levels for s, n in zip(v.strides, v.shape))


def overlaps(a: Sequence[View], b: Sequence[View]) -> bool:
    """True when the storage positions of two stacks over the same storage may intersect."""
    (alo, ahi), (blo, bhi) = touched_range(a), touched_range(b)
    return alo < ahi and blo < bhi and alo < bhi and blo < ahi
