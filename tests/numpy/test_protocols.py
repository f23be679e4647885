"""Python and NumPy protocols of Tensor: __array__ (dtype=, copy=), iteration, `in`, format, copy/deepcopy,
pickle, DLPack, scalar conversions and the array attributes NumPy-style code reads."""

from __future__ import annotations

import copy
import operator
import pickle

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.numpy.helpers import is_lazy, same

A = np.arange(12, dtype=np.float32).reshape(3, 4) - 5


def test_array_protocol_dtype_and_copy():
    t = Tensor(A) * 2
    arr = np.asarray(t)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32
    np.testing.assert_array_equal(arr, A * 2)
    np.testing.assert_array_equal(np.asarray(t, dtype=np.int64), (A * 2).astype(np.int64))
    view = np.asarray(t.realize(), copy=False)  # a realised tensor can be viewed without a copy (read-only)
    assert not view.flags.writeable
    np.testing.assert_array_equal(view, A * 2)
    with pytest.raises(ValueError, match="avoid copy"):
        np.asarray(Tensor(A)[:, :2].pad(((0, 0), (1, 0))), copy=False)
    assert np.array(Tensor(A)[1:, ::2]).tolist() == A[1:, ::2].tolist()


def test_iteration_contains_len():
    t = Tensor(A)
    rows = list(t)
    assert len(rows) == 3 and all(is_lazy(r) or isinstance(r, Tensor) for r in rows)
    same(rows[2], A[2])
    assert [float(x) for x in Tensor(A[0])] == A[0].tolist()
    with pytest.raises(TypeError, match="0-d"):
        iter(Tensor(np.float32(1)))
    assert 3.0 in t and 100 not in t and len(t) == 3
    a, b = Tensor(np.array([1, 2]))
    assert (int(a), int(b)) == (1, 2)


def test_format_and_scalar_conversions():
    s = Tensor(np.float64(3.14159))
    assert f"{s:.2f}" == "3.14" and f"{Tensor(np.int64(7)):03d}" == "007"
    assert f"{Tensor(A[0])}" == str(A[0])
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{Tensor(A):.2f}"
    assert float(s) == 3.14159 and int(Tensor(np.int32(9))) == 9 and complex(s) == complex(3.14159)
    assert [10, 20, 30][Tensor(np.int64(1))] == 20
    assert bool(Tensor(np.array([1.0])))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor(A))


@pytest.mark.parametrize("convert", [int, float, complex, operator.index, bool, lambda a: a.item()],
                         ids=["int", "float", "complex", "index", "bool", "item"])
@pytest.mark.parametrize("a", [np.array([5, 6]), np.array([]), np.ones((2, 2))], ids=["2 elements", "empty", "2x2"])
def test_scalar_conversion_of_many_elements_raises_numpys_error(convert, a):
    """int(), float(), complex() and operator.index of a tensor of more or fewer than one element raise NumPy's
    TypeError (they raised ValueError); bool() and item() NumPy's ValueError."""
    with pytest.raises(Exception) as ref:  # noqa: PT011 (NumPy's own error is the reference)
        convert(a)
    with pytest.raises(ref.type):
        convert(Tensor(a))


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("value", ["abc", "7", "1.5", "", "-1", b"3", None, ["1", "2"], [1, None], object(), 1 + 2j,
                                   np.array(["1", "x"])], ids=lambda v: "object" if type(v) is object else repr(v))
def test_setitem_of_strings_and_objects_as_numpy(dtype, value):
    """`a[...] = x` for a string, None or an object stores what NumPy stores ("7" is 7, None is NaN in floats) or
    raises NumPy's error (ValueError for 'abc'; lazyarr raised TypeError for every string)."""
    a = np.zeros(2, dtype)
    try:
        a[...] = value
    except Exception as e:  # noqa: BLE001 (NumPy's own error is the reference)
        with pytest.raises(type(e)):
            Tensor(np.zeros(2, dtype))[...] = value
        return
    t = Tensor(np.zeros(2, dtype))
    t[...] = value
    same(t, a)


def test_attributes():
    t = Tensor(np.zeros((2, 3, 4), np.float64))
    assert (t.ndim, t.size, t.itemsize, t.nbytes) == (3, 24, 8, 192)
    assert t.T.shape == (4, 3, 2) and t.mT.shape == (2, 4, 3)
    same(t.astype(np.int16), np.zeros((2, 3, 4), np.int16))
    assert t.device == "CPU" and t.to_device("cpu") is t


def test_copy_and_deepcopy_snapshot():
    t = Tensor(A) + 1
    c1, c2, c3 = copy.copy(t), copy.deepcopy(t), t.copy()
    for c in (c1, c2, c3):
        assert c is not t
        same(c, A + 1)
    assert not is_lazy(c1) and not is_lazy(c2)
    box = copy.deepcopy({"w": t, "again": t})
    assert box["w"] is box["again"]


def test_pickle_round_trip():
    for arr in (A, np.arange(5, dtype=np.uint8), np.array([True, False]), np.float16([1.5, -2.25])):
        t = pickle.loads(pickle.dumps(Tensor(arr)[::-1]))
        assert isinstance(t, Tensor) and t.dtype.np_name == arr.dtype.name
        same(t, arr[::-1])


def test_dlpack_export_and_import():
    t = Tensor(A) * 3
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, A * 3)
    assert t.__dlpack_device__() == (1, 0)
    u = lazyarr.from_dlpack(np.arange(6.0).reshape(2, 3))
    assert isinstance(u, Tensor)
    same(u, np.arange(6.0).reshape(2, 3))
    same(lazyarr.from_dlpack(Tensor(A)[:, 1]), A[:, 1])
    with pytest.raises(BufferError):
        Tensor(A)[:, ::2].__dlpack__(copy=False)


def test_array_namespace():
    ns = Tensor(A).__array_namespace__()
    assert ns.__name__ == "lazyarr.array_api" and ns.__array_api_version__ == "2023.12"
    with pytest.raises(ValueError, match="version"):
        Tensor(A).__array_namespace__(api_version="1999.01")


@pytest.mark.parametrize("legacy", [True, False])
def test_shuffle_of_a_1d_tensor_and_the_row_shuffle_idiom_match_numpys_shuffle(legacy: bool) -> None:
    """np.random.shuffle / Generator.shuffle go through `x[i], x[j] = x[j], x[i]` for a Tensor: right for 1-D (an
    element is a value), duplicating for rows (views, as NumPy's own would through that loop; see the README); the
    documented idiom t[...] = t[rng.permutation(n)] gives NumPy's shuffle of an ndarray, along either axis."""

    def rng(seed: int):
        if legacy:
            np.random.seed(seed)
            return np.random
        return np.random.default_rng(seed)

    a = np.arange(10.0)
    t = Tensor(a.copy())
    rng(3).shuffle(a)
    with pytest.warns(UserWarning, match="not a subclass of 'Sequence'"):
        rng(3).shuffle(t)
    np.testing.assert_array_equal(t.numpy(), a)
    m = np.arange(24.0).reshape(8, 3)
    rows = Tensor(m.copy())
    rng(5).shuffle(m)
    rows[...] = rows[rng(5).permutation(len(rows))]
    np.testing.assert_array_equal(rows.numpy(), m)
    if not legacy:
        m = np.arange(24.0).reshape(3, 8)
        cols = Tensor(m.copy())
        np.random.default_rng(7).shuffle(m, axis=1)
        cols[...] = cols[:, np.random.default_rng(7).permutation(cols.shape[1])]
        np.testing.assert_array_equal(cols.numpy(), m)
        perm = np.random.default_rng(9).permutation(Tensor(np.arange(24.0).reshape(8, 3)))
        np.testing.assert_array_equal(perm, np.random.default_rng(9).permutation(np.arange(24.0).reshape(8, 3)))
