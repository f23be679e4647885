"""View movement ops checked against NumPy through a small reference realiser (flat buffer + View -> array)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.lib.stride_tricks import as_strided

from lazyarr.graph.view import View, strides_for_shape

MAX_SIZE = 256


def positions(view: View) -> tuple[np.ndarray, np.ndarray]:
    """Flat position and validity of every element, straight from the View's definition."""
    idx = np.indices(view.shape, dtype=np.int64)
    pos = np.full(view.shape, view.offset, dtype=np.int64)
    valid = np.ones(view.shape, dtype=bool)
    mask = view.mask if view.mask is not None else tuple((0, d) for d in view.shape)
    for d, (stride, (lo, hi)) in enumerate(zip(view.strides, mask)):
        pos += idx[d] * stride
        valid &= (idx[d] >= lo) & (idx[d] < hi)
    return pos, valid


def realise(buf: np.ndarray, view: View) -> np.ndarray:
    """The logical array a View reads from `buf`: masked-off elements are 0, valid ones must be in bounds."""
    pos, valid = positions(view)
    used = pos[valid]
    assert ((used >= 0) & (used < buf.size)).all(), f"{view} reads outside a buffer of {buf.size}"
    out = np.zeros(view.shape, dtype=buf.dtype)
    out[valid] = buf[used]
    return out


def check(buf: np.ndarray, view: View, ref: np.ndarray) -> None:
    got = realise(buf, view)
    assert got.shape == ref.shape
    np.testing.assert_array_equal(got, ref)
    pos, valid = positions(view)
    used = pos[valid]
    expected = (0, 0) if used.size == 0 else (int(used.min()), int(used.max()) + 1)
    assert view.index_ranges() == expected
    # canonical form: recreating a View from its fields changes nothing
    assert View.create(view.shape, view.strides, view.offset, view.mask) == view


def numpy_strided(buf: np.ndarray, view: View) -> np.ndarray:
    """The unmasked View as a NumPy strided array over `buf`, for NumPy's own copy decision."""
    assert view.mask is None
    if view.size == 0:
        return np.zeros(view.shape, dtype=buf.dtype)
    item = buf.itemsize
    # start at offset so negative strides point back into buf; the realiser has checked every position is in bounds
    return as_strided(buf[view.offset :], view.shape, tuple(s * item for s in view.strides), writeable=False)


def numpy_copies(arr: np.ndarray, new_shape: tuple[int, ...]) -> bool:
    try:
        np.reshape(arr, new_shape, copy=False)
    except ValueError:
        return True
    return False


# ---------------------------------------------------------------- random op chains


def factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


@st.composite
def reshape_target(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[int, ...]:
    size = math.prod(shape)
    if size == 0:
        dims = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
        dims[draw(st.integers(0, len(dims) - 1))] = 0
        return tuple(dims)
    kind = draw(st.sampled_from(["factor", "merge", "split", "ones"]))
    if kind == "merge" and len(shape) >= 2:
        i = draw(st.integers(0, len(shape) - 2))
        j = draw(st.integers(i + 2, len(shape)))
        return shape[:i] + (math.prod(shape[i:j]),) + shape[j:]
    if kind == "split" and shape:
        i = draw(st.integers(0, len(shape) - 1))
        fs = factors(shape[i])
        cut = draw(st.integers(0, len(fs)))
        picked = draw(st.permutations(fs))
        return shape[:i] + (math.prod(picked[:cut]), math.prod(picked[cut:])) + shape[i + 1 :]
    if kind == "ones":
        dims = [d for d in shape if draw(st.booleans()) or d != 1]
        for _ in range(draw(st.integers(0, 2))):
            dims.insert(draw(st.integers(0, len(dims))), 1)
        return tuple(dims)
    fs = draw(st.permutations(factors(size)))
    ndim = draw(st.integers(1, 4))
    buckets = [1] * ndim
    for f in fs:
        buckets[draw(st.integers(0, ndim - 1))] *= f
    return tuple(buckets)


def apply_random_op(
    data: st.DataObject, buf: np.ndarray, view: View, ref: np.ndarray
) -> tuple[np.ndarray, View, np.ndarray, str]:
    shape = view.shape
    ops = ["reshape", "permute", "shrink", "flip"]
    if view.size * 4 <= MAX_SIZE:
        ops += ["pad", "expand"]
    op = data.draw(st.sampled_from(ops), label="op")
    if op == "reshape":
        new = data.draw(reshape_target(shape), label="reshape")
        out = view.reshape(new)
        new_ref = ref.reshape(new)
        if view.mask is None:
            # None exactly when NumPy cannot reshape the same strided array without a copy
            assert (out is None) == numpy_copies(numpy_strided(buf, view), new), (view, new)
        if out is None:
            # materialise so the chain keeps going
            return new_ref.ravel().copy(), View.create(new), new_ref, f"reshape{new}->None"
        return buf, out, new_ref, f"reshape{new}"
    if op == "permute":
        order = tuple(data.draw(st.permutations(range(len(shape))), label="permute"))
        return buf, view.permute(order), ref.transpose(order), f"permute{order}"
    if op == "shrink":
        arg = []
        for d in shape:
            b = data.draw(st.integers(0, d))
            arg.append((b, data.draw(st.integers(b, d))))
        arg_t = tuple(arg)
        return buf, view.shrink(arg_t), ref[tuple(slice(b, e) for b, e in arg_t)], f"shrink{arg_t}"
    if op == "flip":
        axes = tuple(data.draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)), label="flip"))
        flipped = np.flip(ref, tuple(i for i, f in enumerate(axes) if f)) if any(axes) else ref
        return buf, view.flip(axes), flipped, f"flip{axes}"
    if op == "pad":
        arg_t = tuple((data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))) for _ in shape)
        padded = np.pad(ref, arg_t) if arg_t else ref  # np.pad rejects an empty pad_width for 0-d arrays
        return buf, view.pad(arg_t), padded, f"pad{arg_t}"
    new = tuple(data.draw(st.integers(0, 3)) if d == 1 else d for d in shape)
    return buf, view.expand(new), np.broadcast_to(ref, new), f"expand{new}"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=0, max_size=4).filter(lambda s: math.prod(s) <= MAX_SIZE),
    st.data(),
)
def test_random_chains_match_numpy(shape: list[int], data: st.DataObject) -> None:
    buf = np.arange(1, math.prod(shape) + 1, dtype=np.int64)  # nonzero, so padding is visible
    view = View.create(tuple(shape))
    ref = buf.reshape(shape)
    check(buf, view, ref)
    for _ in range(data.draw(st.integers(1, 8), label="steps")):
        buf, view, ref, note = apply_random_op(data, buf, view, ref)
        data.draw(st.just(note), label="applied")
        check(buf, view, ref)


# ---------------------------------------------------------------- reshape: None only where NumPy copies


def ordered_shapes(size: int, max_dims: int) -> list[tuple[int, ...]]:
    """Every shape with at most max_dims dims and product `size`, size-1 dims included."""
    out: list[tuple[int, ...]] = [()] if size == 1 else []
    frontier: list[tuple[int, ...]] = [()]
    for _ in range(max_dims):
        frontier = [s + (d,) for s in frontier for d in range(1, size + 1) if size % (math.prod(s) * d) == 0]
        out += [s for s in frontier if math.prod(s) == size]
    return out


def unmasked_bases() -> dict[str, View]:
    c = View.create((2, 3, 4))
    return {
        "contiguous": c,
        "transposed": c.permute((2, 1, 0)),
        "partly_transposed": c.permute((0, 2, 1)),
        "flipped": c.flip((False, True, False)),
        "sliced": View.create((4, 6)).shrink(((1, 3), (0, 6))).reshape((2, 3, 2)),
        "strided_slice": View.create((4, 6)).shrink(((0, 4), (1, 4))),
        "broadcast": View.create((2, 1, 4)).expand((2, 3, 4)),
        "all_broadcast": View.create((1, 1)).expand((4, 6)),
        "offset": View.create((30,)).shrink(((6, 30),)).reshape((4, 6)),
    }


@pytest.mark.parametrize("name", list(unmasked_bases()))
def test_reshape_none_only_where_numpy_copies(name: str) -> None:
    view = unmasked_bases()[name]
    buf = np.arange(1, 31, dtype=np.int64)
    arr = numpy_strided(buf, view)
    ref = realise(buf, view)
    np.testing.assert_array_equal(arr, ref)
    mismatches, nones = [], 0
    for new in ordered_shapes(view.size, 4):
        out = view.reshape(new)
        nones += out is None
        if (out is None) != numpy_copies(arr, new):
            mismatches.append(new)
        if out is not None:
            check(buf, out, ref.reshape(new))
    assert mismatches == [], f"{name}: reshape disagrees with NumPy's copy decision for {mismatches}"
    if view.contiguous:
        assert nones == 0


def test_reshape_simple_cases() -> None:
    t = View.create((4, 6)).permute((1, 0))  # shape (6, 4), strides (1, 6)
    assert t.reshape((2, 3, 4)) == View.create((2, 3, 4), (3, 1, 6))
    assert t.reshape((6, 2, 2)) == View.create((6, 2, 2), (1, 12, 6))
    assert t.reshape((24,)) is None
    assert t.reshape((1, 6, 1, 4, 1)) == View.create((1, 6, 1, 4, 1), (0, 1, 0, 6, 0))
    assert View.create((2, 3, 4)).reshape((6, 4)) == View.create((6, 4))
    assert View.create((3, 1)).expand((3, 4)).reshape((3, 2, 2)) == View.create((3, 2, 2), (1, 0, 0))
    assert View.create((3, 1)).expand((3, 4)).reshape((12,)) is None
    assert View.create((1,)).expand((12,)).reshape((3, 4)) == View.create((3, 4), (0, 0))
    assert View.create((0, 3)).reshape((3, 0, 5, 0)) == View.create((3, 0, 5, 0))


def test_reshape_masked() -> None:
    buf = np.arange(1, 7, dtype=np.int64)
    base = buf.reshape(2, 3)
    # padding only the outer dim keeps each padded row whole: flattening works
    v = View.create((2, 3)).pad(((1, 1), (0, 0)))
    out = v.reshape((12,))
    assert out is not None and out.mask == ((3, 9),)
    check(buf, out, np.pad(base, ((1, 1), (0, 0))).reshape(12))
    # a padded size-1 dim has a single valid index, so its stride is free and it flattens into its neighbour
    row = View.create((1, 3)).pad(((1, 2), (0, 0)))
    flat = row.reshape((12,))
    assert flat is not None
    check(buf[:3], flat, np.pad(buf[:3].reshape(1, 3), ((1, 2), (0, 0))).reshape(12))
    # padding the inner dim leaves holes in every row: no single View
    assert View.create((2, 3)).pad(((0, 0), (1, 1))).reshape((10,)) is None
    # ... even when the strides would merge: shrink then pad back gives strides (5, 1) but holes at the row ends
    hole = View.create((2, 5)).shrink(((0, 2), (1, 4))).pad(((0, 0), (1, 1)))
    assert hole.strides == (5, 1) and hole.reshape((10,)) is None
    # size-1 dims in and out of a masked view
    p = View.create((3,)).pad(((1, 1),))
    assert p.reshape((1, 5, 1)) == View.create((1, 5, 1), (0, 1, 0), -1, ((0, 1), (1, 4), (0, 1)))
    # splitting a padded dim only works when the mask falls on row boundaries
    assert View.create((4,)).pad(((2, 2),)).reshape((4, 2)) == View.create((4, 2), (2, 1), -2, ((1, 3), (0, 2)))
    assert View.create((3,)).pad(((1, 2),)).reshape((3, 2)) is None
    # all-masked views reshape freely, except into 0-d which cannot say "invalid"
    empty = View.create((2, 3)).pad(((1, 1), (0, 0))).shrink(((0, 1), (0, 3)))
    assert empty.reshape((3, 1)) == View.create((3, 1), mask=((0, 0), (0, 0)))
    assert View.create((1,)).pad(((1, 0),)).shrink(((0, 1),)).reshape(()) is None


# ---------------------------------------------------------------- create, properties, index_ranges


def test_create_canonicalises() -> None:
    assert strides_for_shape((2, 1, 3)) == (3, 0, 1)
    assert strides_for_shape(()) == ()
    v = View.create((2, 1, 3), (3, 7, 1), 0, ((0, 2), (0, 1), (0, 3)))
    assert v == View.create((2, 1, 3)) and v.mask is None and v.strides == (3, 0, 1)
    assert v.contiguous and v.size == 6
    assert not View.create((2, 3)).permute((1, 0)).contiguous
    assert not View.create((4,)).shrink(((1, 3),)).contiguous
    assert not View.create((4,)).pad(((1, 0),)).contiguous
    assert View.create((2, 3), (5, 9), 4, ((1, 1), (0, 3))) == View.create((2, 3), (0, 0), 0, ((0, 0), (0, 0)))
    assert View.create((0, 3), (5, 9), 4) == View.create((0, 3))
    assert View.create(()).contiguous and View.create(()).size == 1


def test_index_ranges() -> None:
    assert View.create((2, 3)).index_ranges() == (0, 6)
    assert View.create((2, 3)).flip((True, True)).index_ranges() == (0, 6)
    assert View.create((4, 6)).shrink(((1, 3), (2, 5))).index_ranges() == (8, 17)
    assert View.create((3,)).pad(((2, 2),)).index_ranges() == (0, 3)
    assert View.create((1,)).expand((5,)).index_ranges() == (0, 1)
    assert View.create((0, 4)).index_ranges() == (0, 0)
    assert View.create((2,)).pad(((1, 1),)).shrink(((0, 1),)).index_ranges() == (0, 0)
    assert View.create((), (), 7).index_ranges() == (7, 8)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "call",
    [
        lambda: View.create((2, -1)),
        lambda: View.create((2, 3), (1,)),
        lambda: View.create((2, 3), mask=((0, 2),)),
        lambda: View.create((2, 3), mask=((0, 3), (0, 3))),
        lambda: View.create((2, 3)).reshape((5,)),
        lambda: View.create((2, 3)).reshape((-2, -3)),
        lambda: View.create((2, 3)).permute((0,)),
        lambda: View.create((2, 3)).permute((0, 0)),
        lambda: View.create((2, 3)).permute((0, 2)),
        lambda: View.create((2, 3)).expand((4, 3)),
        lambda: View.create((2, 1)).expand((2, 3, 4)),
        lambda: View.create((2, 1)).expand((2, -1)),
        lambda: View.create((2, 3)).shrink(((0, 2),)),
        lambda: View.create((2, 3)).shrink(((0, 3), (0, 3))),
        lambda: View.create((2, 3)).shrink(((1, 0), (0, 3))),
        lambda: View.create((2, 3)).shrink(((-1, 1), (0, 3))),
        lambda: View.create((2, 3)).pad(((0, 0),)),
        lambda: View.create((2, 3)).pad(((0, -1), (0, 0))),
        lambda: View.create((2, 3)).flip((True,)),
    ],
)
def test_invalid_arguments_raise(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match=r"\(2, "):
        call()


@pytest.mark.parametrize("shape", [(10,), (9,), (3, 7), (1, 5)])
@pytest.mark.parametrize("steps_last", [1, 2, 3, 7])
def test_stride_matches_numpy_slicing(shape: tuple[int, ...], steps_last: int) -> None:
    buf = np.arange(int(np.prod(shape)) + 5, dtype=np.int64)
    v = View.create(shape, offset=2)
    steps = (1,) * (len(shape) - 1) + (steps_last,)
    arr = buf[2 : 2 + int(np.prod(shape))].reshape(shape)
    np.testing.assert_array_equal(realise(buf, v.stride(steps)), arr[..., ::steps_last])
    padded = v.pad(tuple((1, 2) for _ in shape))
    want = np.pad(arr, [(1, 2)] * len(shape))[..., ::steps_last]
    np.testing.assert_array_equal(realise(buf, padded.stride(steps)), want)
