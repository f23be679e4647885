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
