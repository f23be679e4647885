"""NumPy `ndarray` methods on Tensor (lazyarr/frontend/ndarray_methods.py), compared with the same method on the
same NumPy array; the PyTorch keyword forms of sort/argsort/nonzero against torch when it is installed."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest

from lazyarr import Tensor
from tests.helpers import assert_matches

A = np.array([[3.0, 1.0, np.nan, 2.0], [0.0, 5.0, 4.0, 5.0], [-1.0, 5.0, 7.0, -2.0]], np.float32)
CHOICE = np.array([[2, 0, 1], [1, 1, 0]], np.int64)

CALLS = [
    ("swapaxes", lambda a: a.swapaxes(0, 1)),
    ("swapaxes neg", lambda a: a.swapaxes(-1, 0)),
    ("cumprod", lambda a: a.cumprod(1)),
    ("cumprod flat", lambda a: a.cumprod()),
    ("take flat", lambda a: a.take([0, 5, -1])),
    ("take axis", lambda a: a.take([2, 0], axis=1)),
    ("diagonal", lambda a: a.diagonal()),
    ("diagonal offset", lambda a: a.diagonal(1)),
    ("diagonal past the edge", lambda a: a.diagonal(9)),
    ("diagonal past the edge neg", lambda a: a.diagonal(-5)),
    ("trace past the edge", lambda a: a.trace(-7)),
    ("trace", lambda a: a.trace()),
    ("conj", lambda a: a.conj()),
    ("real", lambda a: a.real),
    ("imag", lambda a: a.imag),
    ("argsort", lambda a: a.argsort(kind="stable")),
    ("argsort axis0", lambda a: a.argsort(0, kind="stable")),
    ("argpartition", lambda a: np.sort(a.argpartition(1), axis=-1)),
    ("compress", lambda a: a.compress([True, False, True], axis=0)),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_method_matches_numpy(name, call):
    assert_matches(call(Tensor(A)), call(A.copy()))


@pytest.mark.parametrize("name,call", [
    ("sort", lambda a: a.sort()), ("sort axis0", lambda a: a.sort(axis=0)), ("fill", lambda a: a.fill(-7.5)),
    ("fill int", lambda a: a.fill(3)), ("put", lambda a: a.put([0, 11, -1], [9.0, 8.0])),
    ("partition", lambda a: a.partition(2)),
], ids=lambda x: x if isinstance(x, str) else "")
def test_in_place_method_matches_numpy(name, call):
    t, ref = Tensor(A.copy()), A.copy()
    view = t[1]  # a view made before the write sees it, as in NumPy
    assert call(t) is None and call(ref) is None
    assert_matches(t, ref)
    assert_matches(view, ref[1])


def test_conj_keeps_bool():
    b = A > 1  # ndarray.conj() of a real array keeps its dtype (np.conjugate of bool would give int8)
    assert_matches(Tensor(b).conj(), b.conj())
    assert_matches(Tensor(b).conjugate(), b.conjugate())


def test_nonzero_searchsorted_choose_bytes():
    a = np.array([[0, 2, 0], [1, 0, 3]], np.int32)
    for got, ref in zip(Tensor(a).nonzero(), a.nonzero()):
        assert_matches(got, ref)
    assert_matches(Tensor(a).nonzero(as_tuple=False), np.argwhere(a))
    s = np.array([1.0, 2.0, 2.0, 5.0], np.float32)
    assert_matches(Tensor(s).searchsorted([2.0, 6.0], side="right"), s.searchsorted([2.0, 6.0], side="right"))
    choices = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert_matches(Tensor(CHOICE).choose(choices), CHOICE.choose(choices))
    assert Tensor(A).tobytes() == A.tobytes() and Tensor(A).tobytes("F") == A.tobytes("F")
    buf = io.BytesIO()
    Tensor(A).dump(buf)
    assert_matches(pickle.loads(buf.getvalue()), A)
    assert_matches(pickle.loads(Tensor(A).dumps()), A)


def test_bad_input_raises_like_numpy():
    t = Tensor(A)
    with pytest.raises(np.exceptions.AxisError):
        t.swapaxes(0, 2)
    with pytest.raises(IndexError):
        t.take([12])
    with pytest.raises(ValueError):
        Tensor(np.float32(1)).diagonal()
    with pytest.raises(np.exceptions.AxisError):
        Tensor(A.copy()).sort(axis=None)
    with pytest.raises(TypeError, match="alias"):
        t.cumprod(axis=0, dim=1)
    with pytest.raises((TypeError, ValueError)):  # NumPy: ValueError; lazyarr's setitem: TypeError (not numeric)
        Tensor(A.copy()).fill("x")


@pytest.mark.parametrize("descending", [False, True])
def test_torch_sort_keywords(descending):
    torch = pytest.importorskip("torch")
    values, indices = Tensor(A).sort(dim=1, descending=descending)
    tv, ti = torch.from_numpy(A).sort(dim=1, descending=descending, stable=True)
    assert_matches(values, tv.numpy())
    assert_matches(indices, ti.numpy())
    assert_matches(Tensor(A).argsort(dim=0, descending=descending),
                   torch.from_numpy(A).argsort(dim=0, descending=descending, stable=True).numpy())
    assert_matches(Tensor(A), A)  # sort with PyTorch keywords leaves the tensor unchanged


WRITES = {
    "+=": lambda v: v.__iadd__(100),
    "setitem": lambda v: v.__setitem__(0, 1),
    "slice setitem": lambda v: v[1:].__setitem__(0, 1),
    "fill": lambda v: v.fill(7),
    "np.copyto": lambda v: np.copyto(v, 7.0),
    "out=": lambda v: np.add(v, 1, out=v),
}


@pytest.mark.parametrize("realized", [False, True])
@pytest.mark.parametrize("make", [lambda a: a.diagonal(), lambda a: np.diagonal(a, 1), lambda a: np.diag(a),
                                  lambda a: np.linalg.diagonal(a)], ids=["method", "np.diagonal", "np.diag",
                                                                         "np.linalg.diagonal"])
@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
def test_diagonal_is_read_only(write, make, realized):
    """NumPy's diagonal is a read-only view: every write raises ValueError (lazyarr's, a computed copy, took
    `v += 100` silently and left the source unchanged). Reading it, and writing a copy of it, still work."""
    a = A.copy()
    with pytest.raises(ValueError, match="read-only"):
        write(make(a))
    t = Tensor(a)
    v = make(t)
    if realized:
        v.realize()  # its storage computed (the diagonal's own result, which v views, is gone by then)
    with pytest.raises(ValueError, match="read-only"):
        write(v)
    assert_matches(v, make(a))
    assert_matches(t, a)
    c, ref = v.copy(), make(a).copy()
    write(c)
    write(ref)
    assert_matches(c, ref)


@pytest.mark.parametrize("realized", [False, True])
@pytest.mark.parametrize("make", [lambda a: a.diagonal(), lambda a: np.diagonal(a, 1), lambda a: np.diag(a),
                                  lambda a: np.diagonal(a[::-1, 1:].T), lambda a: a.diagonal()[::-1],
                                  lambda a: np.broadcast_to(a.diagonal(), (2, 3))],
                         ids=["method", "np.diagonal", "np.diag", "of a view", "a view of it", "broadcast"])
def test_diagonal_sees_later_writes(make, realized):
    """NumPy's diagonal is a view: a write to its array shows through it. lazyarr's kept the values it had when it
    was made (d = np.diagonal(a); a[0, 0] = 100; d[0] was still 3.0, NumPy's 100.0)."""
    results = []
    for a in (A.copy(), Tensor(A.copy())):
        d = make(a)
        with pytest.raises(ValueError, match="read-only"):
            np.place(d, d > 100, [1.0])
        k = d * 2  # a value computed before the writes keeps the old diagonal
        if realized and isinstance(a, Tensor):
            d.realize()
        a[0, 0] = 100.0
        a[:, 1:] += 1.0
        first = np.array(d)
        a[...] = np.arange(12.0, dtype=np.float32).reshape(3, 4)
        results.append((first, np.array(d), np.array(k)))
    for got, want in zip(results[1], results[0]):
        assert_matches(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_diagonal_keeps_negative_zeros(dtype):
    """np.diagonal of a -0.0 gave +0.0: the off-diagonal elements it summed with were +0.0."""
    a = np.array([[-0.0, 1.0, -0.0], [3.0, -0.0, 5.0]], dtype)
    for make in (lambda x: np.diagonal(x), lambda x: np.diagonal(x, 2), lambda x: np.diagonal(x[:, ::-1])):
        got, want = make(Tensor(a)).numpy(), make(a)
        assert_matches(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("repeats, axis", [(2, None), (3, 0), (2, 1), (2, -1), ([1, 0, 2], 0), ([0, 1, 2, 1], 1),
                                           ([2] * 12, None)], ids=str)
def test_repeat_with_axis_keyword_is_numpy_repeat(repeats, axis):
    """`a.repeat(repeats, axis=...)` repeats each element as NumPy's (it raised TypeError; without `axis=` the method
    keeps PyTorch's tiling), and np.repeat gives NumPy's answer."""
    assert_matches(Tensor(A).repeat(repeats, axis=axis), A.repeat(repeats, axis=axis))
    assert_matches(np.repeat(Tensor(A), repeats, axis=axis), np.repeat(A, repeats, axis=axis))


def test_repeat_without_axis_tiles_like_pytorch():
    assert_matches(Tensor(A).repeat(2, 3), np.tile(A, (2, 3)))
    assert_matches(Tensor(A[0]).repeat(2), np.tile(A[0], 2))
    with pytest.raises(TypeError, match="one repeats argument"):
        Tensor(A).repeat(2, 3, axis=0)


ARGS_CALLS = [
    ("clip keywords", lambda a: a.clip(min=0.5, max=4.0)),
    ("clip min keyword", lambda a: a.clip(min=1.0)),
    ("clip max keyword", lambda a: a.clip(max=1.0)),
    ("clip positional", lambda a: a.clip(0.0, 3.0)),
    ("clip nothing", lambda a: a.clip()),
    ("cumsum dtype", lambda a: a.cumsum(dtype=np.float64)),
    ("cumsum axis dtype", lambda a: a.cumsum(1, np.int32)),
    ("cumprod dtype", lambda a: a.cumprod(axis=0, dtype=np.float64)),
    ("cumsum of ints in int8", lambda a: a.astype(np.int16).cumsum(0, dtype=np.int8)),
    ("max initial", lambda a: a.max(initial=100.0)),
    ("min initial axis", lambda a: a.min(axis=1, initial=-3.0)),
    ("max where initial", lambda a: a.max(axis=0, where=a > 2, initial=-1.0)),
    ("min where initial", lambda a: a.min(where=a < 3, initial=9.0)),
    ("max empty initial", lambda a: a[:, :0].max(axis=1, initial=0.0)),
    ("max keepdims initial", lambda a: a.max(0, keepdims=True, initial=4.0)),
    ("sum where", lambda a: a.sum(axis=1, where=a > 2)),
    ("sum initial", lambda a: a.sum(initial=10.0)),
    ("sum out", lambda a: a.sum(axis=0, out=np.zeros(4, np.float64))),
    ("prod where initial", lambda a: a.prod(axis=0, where=a < 4, initial=2.0)),
    ("any where", lambda a: a.any(axis=0, where=a > 3)),
    ("all where keepdims", lambda a: (a > 1).all(axis=1, where=a < 5, keepdims=True)),
    ("mean where", lambda a: a.mean(axis=1, where=a > 1)),
    ("mean out", lambda a: a.mean(axis=1, out=np.zeros(3, np.float32))),
    ("var where ddof", lambda a: a.var(axis=0, ddof=1, where=a > -1.5)),
    ("std where", lambda a: a.std(where=a > 0)),
    ("std dtype", lambda a: a.std(axis=1, dtype=np.float64)),
    ("item flat", lambda a: a.item(5)),
    ("item flat negative", lambda a: a.item(-2)),
    ("item multi", lambda a: a.item(2, 1)),
    ("item tuple", lambda a: a.item((1, -1))),
    ("view", lambda a: a.view()),
    ("view int32", lambda a: a.view(np.int32)),
    ("view uint32 keyword", lambda a: a.view(dtype=np.uint32)),
    ("view int64 of float64", lambda a: a.astype(np.float64).view(np.int64)),
    ("view float32 of int32", lambda a: a.astype(np.int32).view("float32")),
    ("view uint8 of int8", lambda a: a.astype(np.int8).view(np.uint8)),
    ("view uint8 of bool", lambda a: (a > 2).view(np.uint8)),
    ("view uint16 of int16", lambda a: a.astype(np.int16).view(np.uint16)),
]


@pytest.mark.parametrize("name,call", ARGS_CALLS, ids=[c[0] for c in ARGS_CALLS])
def test_method_arguments_match_numpy(name, call):
    """ndarray methods with NumPy's arguments (clip's min=/max=, cumsum's dtype=, max's initial=/where=, sum's,
    prod's, any's, all's, mean's, var's and std's where=/out=/initial=/dtype=, item's indices, view() and
    view(dtype)) as NumPy's; they raised TypeError."""
    a = np.where(np.isnan(A), 1.5, A)
    ref = call(a.copy())
    got = call(Tensor(a))
    if isinstance(ref, (np.ndarray, np.generic)):
        assert_matches(got, ref)
    else:  # item(): a Python scalar
        assert got == ref and type(got) is type(ref)


@pytest.mark.parametrize("name, call, err, match", [
    ("max where without initial", lambda a: a.max(where=a > 0), ValueError, "to use a where mask"),
    ("min of empty without initial", lambda a: a[:0].min(axis=0), ValueError, "zero-size array"),
    ("item out of range", lambda a: a.item(12), IndexError, "out of bounds for size 12"),
    ("item axis out of range", lambda a: a.item(0, 4), IndexError, "out of bounds for axis 1 with size 4"),
    ("item wrong count", lambda a: a.item(0, 1, 2), ValueError, "incorrect number of indices"),
    ("item float", lambda a: a.item(1.5), TypeError, "cannot be interpreted as an integer"),
    ("item of many", lambda a: a.item(), ValueError, "can only convert"),
    ("flatten order", lambda a: a.flatten("X"), ValueError, "order must be one of"),
    ("flatten order keyword", lambda a: a.flatten(order="CF"), ValueError, "order must be one of"),
    ("ravel order", lambda a: a.ravel("Q"), ValueError, "order must be one of"),
])
def test_method_argument_errors_match_numpy(name, call, err, match):
    with pytest.raises(err, match=match):
        call(A.copy())
    with pytest.raises(err, match=match):
        call(Tensor(A))


def test_method_outs_and_pytorch_forms():
    """out= of clip, cumsum, max and min writes into the given tensor and returns it; PyTorch's forms keep
    PyTorch's meaning (cumsum(dim=) of a 0-d tensor is 0-d; view(*shape) reshapes; flatten(start_dim) is a view)."""
    t = Tensor(A)
    for call, ref in [(lambda x, o: x.clip(0.0, 1.0, out=o), np.clip(A, 0.0, 1.0)),
                      (lambda x, o: x.cumsum(1, out=o), A.cumsum(1))]:
        o = Tensor(np.zeros((3, 4), np.float32))
        assert call(t, o) is o
        assert_matches(o, ref)
    o = Tensor(np.zeros(4, np.float32))
    assert t.max(0, out=o) is o
    assert_matches(o, A.max(0))
    assert_matches(Tensor(np.float32(2.5)).cumsum(dim=0), np.float32(2.5))
    assert_matches(Tensor(np.float32(2.5)).cumsum(0), np.float32(2.5).reshape(()).cumsum(0))
    assert t.view(4, 3).shape == (4, 3) and t.view((2, 6)).shape == (2, 6) and t.view(-1).shape == (12,)
    s = Tensor(A.copy())
    f = s.flatten(0)
    s[0, 0] = 100.0
    assert f.numpy()[0] == 100.0


LAYOUTS = {
    "c": lambda a: a,
    "transposed": lambda a: a.transpose(2, 0, 1),
    "flipped": lambda a: a[::-1, :, ::-1],
    "permuted flipped": lambda a: a.transpose(1, 2, 0)[:, ::-1],
    "strided": lambda a: a[:, ::2, 1:],
    "row": lambda a: a[1],
    "size-1 dims": lambda a: a[:1, 1:2],
    "broadcast": lambda a: np.broadcast_to(a[:, :1], (2, 3, 4)),
    "0-d": lambda a: a[1, 2, 3, ...],
    "empty": lambda a: a[:, :0],
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_strides_flags_and_orders_of_views_match_numpy(layout):
    """strides and flags of a strided view of storage are NumPy's for the same view (a size-1 dim's stride and an
    empty array's are those of a new NumPy array: any stride stands there); flatten/ravel in each order read as
    NumPy's ('A' and 'K' follow that layout); flatten is a copy."""
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    ref = LAYOUTS[layout](a)
    t = LAYOUTS[layout](Tensor(a.copy()))
    new = np.zeros(ref.shape).strides
    assert t.strides == tuple(s if n > 1 and ref.size else c for s, n, c in zip(ref.strides, ref.shape, new))
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "C", "F", "FORC", "FNC", "CONTIGUOUS", "FORTRAN", "ALIGNED", "X"):
        assert t.flags[key] == ref.flags[key], key
    assert (t.flags.c_contiguous, t.flags.f_contiguous) == (ref.flags.c_contiguous, ref.flags.f_contiguous)
    assert t.flags.writeable == ref.flags.writeable
    for order in ("C", "F", "A", "K", "k", None):
        assert_matches(t.flatten(order), ref.flatten(order))
        assert_matches(t.ravel(order), ref.ravel(order))
        assert_matches(np.ravel(t, order), np.ravel(ref, order))
    flat = t.flatten()
    if flat.size:
        flat[0] = -1.0
        assert_matches(t, ref)


@pytest.mark.parametrize("layout", [k for k in LAYOUTS if k != "0-d"])
def test_reshape_orders_of_views_match_numpy(layout):
    """np.reshape and the method read 'A' as NumPy does (F order for an F- but not C-contiguous view: np.reshape
    read a transpose in C order; the method took no order); 'K' raises, as NumPy's."""
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    ref, t = LAYOUTS[layout](a), LAYOUTS[layout](Tensor(a.copy()))
    for order in ("C", "F", "A", "a", None):
        assert_matches(np.reshape(t, (-1, 1), order=order), np.reshape(ref, (-1, 1), order=order))
        assert_matches(t.reshape(-1, 1, order=order), ref.reshape(-1, 1, order=order))
    with pytest.raises(ValueError, match="order 'K' is not permitted"):
        np.reshape(t, -1, order="K")


@pytest.mark.parametrize("layout", [*LAYOUTS, "column", "strided 1-d"])
def test_ravel_is_a_view_exactly_where_numpys_is(layout):
    """ravel views its input only where it lies contiguous in the order asked for, as NumPy's: a write to the result
    reaches the input exactly when it does in NumPy (`a[:, 0].ravel()` is a copy, though a reshape would be a view)."""
    make = {"column": lambda a: a[:, :, 0], "strided 1-d": lambda a: a.reshape(-1)[::3], **LAYOUTS}[layout]
    for order in ("C", "F", "A", "K"):
        a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
        base = Tensor(a.copy())
        ref, t = make(a), make(base)
        ref_flat, flat = ref.ravel(order), t.ravel(order)
        if ref.size:
            ref_flat[0] = flat[0] = -1.0
        assert_matches(flat, ref_flat)
        assert_matches(t, ref)
        assert_matches(base, a)


def test_flags_ownership_writeability_and_lazy_layout():
    """OWNDATA is False for a view of another tensor's array, True for a tensor made from data or computed;
    WRITEABLE is False for a diagonal and a bit view; a lazy value reports C order (np.asarray's layout); flags are
    read-only."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = Tensor(a)
    assert t.flags.owndata and t.flags["O"] and t.flags.writeable and t.flags["W"] and t.flags.behaved
    assert not t[1].flags.owndata and not t.T.flags.owndata and not t.reshape(4, 3).flags.owndata
    assert (t + 1).flags.owndata and t.copy().flags.owndata and t.flatten().flags.owndata
    assert not t.diagonal().flags.writeable and not t.view(np.int32).flags.writeable
    assert not np.broadcast_to(t, (2, 3, 4)).flags.writeable
    lazy = (t + 1).T
    assert lazy.strides == np.asarray(lazy).strides == (12, 4) and lazy.flags.c_contiguous
    assert "C_CONTIGUOUS : True" in repr(t.flags)
    with pytest.raises(AttributeError, match="read-only"):
        t.flags.writeable = False
    with pytest.raises(KeyError):
        t.flags["c_contiguous"]
    with pytest.raises(ValueError, match="read-only"):
        t.view(np.int32)[0] = 1
    with pytest.raises(ValueError, match="same itemsize"):
        t.view(np.float64)


def test_flat_reads_writes_and_iterates_in_c_order_as_numpy():
    """`t.flat`: reads are copies in C order, writes reach the tensor (values repeated as np.put) whatever its
    layout, iteration and len as NumPy's; out-of-range indices raise IndexError."""
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    base = Tensor(a.copy())
    ref, t = a.T[:, ::2], base.T[:, ::2]
    for idx in (3, slice(1, 5), [0, 5, 2], np.arange(8) % 3 == 0, Ellipsis):
        assert_matches(t.flat[idx], ref.flat[idx])
    ref.flat[1:4] = [7.0, 8.0]
    t.flat[1:4] = [7.0, 8.0]
    ref.flat[-1] = -1.0
    t.flat[-1] = -1.0
    assert_matches(t, ref)
    assert_matches(base, a)
    assert [float(x) for x in t.flat] == [float(x) for x in ref.flat] and len(t.flat) == len(ref.flat)
    assert_matches(np.asarray(t.flat), np.asarray(ref.flat))
    with pytest.raises(IndexError):
        t.flat[8] = 0.0
    with pytest.raises(IndexError):
        t.flat[8]


def _both(program):
    """`program(make)` run on NumPy arrays and on Tensors (`make` wraps a fresh copy of its argument): the values it
    returns, or the type and message of what it raised."""
    out = []
    for make in (lambda x: x.copy(), lambda x: Tensor(x.copy())):
        try:
            res = program(make)
            out.append(tuple(np.asarray(r).tolist() if not isinstance(r, tuple) else r for r in res))
        except (AttributeError, ValueError, TypeError) as e:
            out.append((type(e).__name__, str(e)))
    return out


SHAPES_SET = [(3, 2), (6,), -1, (-1, 2), (2, -2), (4,), "ab", None, (3.0, 2), (1, 6, 1), (), (2, 3, 1, 1)]
SOURCES = {
    "contiguous": lambda make: make(np.arange(6.0)).reshape(2, 3),
    "transposed": lambda make: make(np.arange(6.0)).reshape(2, 3).T,
    "strided": lambda make: make(np.arange(12.0))[::2],
    "column pairs": lambda make: make(np.arange(12.0)).reshape(3, 4)[:, 1:3],
    "broadcast": lambda make: np.broadcast_to(make(np.arange(3.0)), (2, 3)),
    "lazy": lambda make: make(np.arange(6.0)).reshape(2, 3) * 2,
    "empty": lambda make: make(np.zeros((0, 3))),
}


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("shape", SHAPES_SET, ids=repr)
def test_setting_shape_reshapes_in_place_where_numpy_does(source: str, shape) -> None:
    """`t.shape = s` is NumPy's: a reshape of the tensor itself where it is a view of the same data, NumPy's
    AttributeError ("Incompatible shape for in-place modification...") where only a copy has that shape, its
    ValueError and TypeError for a wrong size or no shape."""

    def program(make):
        a = SOURCES[source](make)
        a.shape = shape
        return a.shape, a

    numpy_result, lazyarr_result = _both(program)
    assert lazyarr_result == numpy_result


def test_setting_shape_keeps_sharing_data_with_the_array_and_its_views() -> None:
    def program(make):
        a = make(np.arange(12.0))
        head = a[:6]
        b = a[::2]
        a.shape = (3, 4)
        a[0, 0] = 100  # seen by head (a view made before)
        head[1] = 7  # seen by a
        b.shape = (2, 3)  # a strided view reshaped in place: still a view of a
        b[1, 2] = -1  # a[10]
        a[2] += 1
        t = a.T
        t[0, 0] = 50
        u = a * 1  # a value computed before the next write keeps its values
        a.shape = (12,)
        a[3] = 33
        return a, head, b, u, a.shape

    numpy_result, lazyarr_result = _both(program)
    assert lazyarr_result == numpy_result


def test_setting_shape_of_a_tensor_that_requires_grad_raises() -> None:
    t = Tensor(np.arange(6.0), requires_grad=True)
    with pytest.raises(AttributeError, match="requires grad"):
        t.shape = (2, 3)
    t.shape = (6,)  # its own shape changes nothing
    assert t.shape == (6,)


RESIZES = {
    "grow 2-D": lambda make: _resized(make(np.arange(6.0)), 2, 4),
    "grow tuple": lambda make: _resized(make(np.arange(6.0)), (3, 4)),
    "shrink int16": lambda make: _resized(make(np.arange(6, dtype=np.int16).reshape(2, 3)), (2,)),
    "same size": lambda make: _resized(make(np.arange(6.0)), 3, 2),
    "to 0-d": lambda make: _resized(make(np.arange(6.0)), ()),
    "to empty and back": lambda make: _resized(_resized(make(np.arange(6.0)), 0), 2),
    "from empty": lambda make: _resized(make(np.zeros(0, np.int32)), 3),
    "no arguments": lambda make: _resized(make(np.arange(6.0))),
    "None": lambda make: _resized(make(np.arange(6.0)), None),
    "negative": lambda make: _resized(make(np.arange(6.0)), -1),
    "negative in tuple": lambda make: _resized(make(np.arange(6.0)), (2, -3)),
    "float": lambda make: _resized(make(np.arange(6.0)), 2.0),
    "str": lambda make: _resized(make(np.arange(6.0)), 2, "x"),
    "float in tuple": lambda make: _resized(make(np.arange(6.0)), (2.0,)),
    "bool": lambda make: _resized(make(np.arange(6.0)), True),
    "bool in tuple": lambda make: _resized(make(np.arange(6.0)), (True, 2)),
    "a view of another": lambda make: _resized(make(np.arange(6.0))[:2], 8),
    "viewed by another": lambda make: _resized_with_view(make(np.arange(6.0))),
    "lazy value": lambda make: _resized(make(np.arange(6.0)) + 1, 8),
    "then written": lambda make: _write_after_resize(make(np.arange(6.0))),
}


def _resized(a, *shape):
    r = a.resize(*shape)
    return a, a.shape, r


def _resized_with_view(a):
    view = a[:2]
    a.resize(8)
    return a, view


def _write_after_resize(a):
    before = a + 1  # computed from the old values
    a.resize(2, 4)
    row = a[1]
    row[:] = 5
    return a, row, before


@pytest.mark.parametrize("name", list(RESIZES))
def test_resize_in_place_as_numpy(name: str) -> None:
    """ndarray.resize: in place, the values in C order, zeros past them; NumPy's errors for a bad shape, a tensor
    that views another's data and one that others view."""
    numpy_result, lazyarr_result = _both(RESIZES[name])
    assert lazyarr_result == numpy_result


def test_resize_with_refcheck_false_and_a_live_view_raises_instead_of_leaving_it_dangling() -> None:
    a = Tensor(np.arange(6.0))
    view = a[:2]
    with pytest.raises(ValueError, match="other tensors view"):
        a.resize(8, refcheck=False)
    assert view.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("shape", [(3, 4), 4, (0,), (2, 0), (), (-1, 3), 7.0])
def test_np_resize_repeats_the_values_in_a_new_array(shape) -> None:
    def program(make):
        a = make(np.arange(6.0).reshape(2, 3))
        out = np.resize(a, shape)
        out[...] = -1  # a new array: a keeps its values
        return np.resize(a, shape), a

    numpy_result, lazyarr_result = _both(program)
    assert lazyarr_result == numpy_result


@pytest.mark.parametrize("kwargs", [dict(casting="safe"), dict(casting="same_kind"), dict(casting="unsafe"),
                                    dict(casting="bogus"), dict(order="F"), dict(order="X"), dict(subok=False),
                                    dict(casting="no", copy=False)])
@pytest.mark.parametrize("dtype", ["int32", "float64", "float32"])
def test_astype_takes_numpys_order_casting_and_subok(kwargs, dtype: str) -> None:
    def program(make):
        return (make(np.array([1.5, -2.0, 3.0])).astype(dtype, **kwargs),)

    numpy_result, lazyarr_result = _both(program)
    assert lazyarr_result == numpy_result


def test_resize_takes_an_array_as_its_shape_and_refuses_an_impossible_size() -> None:
    numpy_result, lazyarr_result = _both(lambda make: _resized(make(np.arange(3.0)), np.array([2, 2])))
    assert lazyarr_result == numpy_result
    with pytest.raises(MemoryError):
        Tensor(np.arange(3.0)).resize(2**40, 2**40)
