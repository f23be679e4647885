"""Edge cases of the array API namespace (`lazyarr.array_api`) checked against NumPy 2's implementation of the
same standard functions: default and float keywords, out-of-range Python bounds."""

from __future__ import annotations

import numpy as np
import pytest

from lazyarr import Tensor
from lazyarr import array_api as xp
from tests.numpy.helpers import rng, same

D = rng.standard_normal((3, 4, 5)).astype(np.float32)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("kw", [{}, {"axis": 1}, {"axis": (0, 2), "keepdims": True}, {"correction": 1.5},
                                {"axis": 0, "correction": 1.0}])
def test_var_std_default_and_float_correction(name, kw):
    ddof = kw.get("correction", 0.0)
    np_kw = {k: v for k, v in kw.items() if k != "correction"}
    same(getattr(xp, name)(Tensor(D), **kw), getattr(np, name)(D, ddof=ddof, **np_kw))


U = np.array([0, 1, 200, 255], np.uint8)
I8 = np.array([-128, -3, 0, 5, 127], np.int8)


@pytest.mark.parametrize("a, lo, hi", [(U, -5, 100), (U, None, 1000), (I8, -1000, 3), (I8, -2, 200), (U, 3, 7)])
def test_clip_python_int_bounds_beyond_the_dtype(a, lo, hi):
    same(xp.clip(Tensor(a), min=lo, max=hi), np.clip(a, lo, hi))


@pytest.mark.parametrize("lo, hi", [(300, None), (None, -3)])
def test_clip_bound_beyond_the_dtype_on_the_other_side_raises(lo, hi):
    with pytest.raises(OverflowError):
        np.clip(U, lo, hi)
    with pytest.raises(OverflowError):
        xp.clip(Tensor(U), min=lo, max=hi)


H1 = (rng.standard_normal((2, 5, 7)) * 3).astype(np.float16)
H2 = (rng.standard_normal((7, 6)) * 3).astype(np.float16)


@pytest.mark.parametrize("matmul", [xp.matmul, np.matmul, lambda a, b: a @ b])
@pytest.mark.parametrize("a, b", [(H1, H2), (H1[0, 0], H2), (H1, H2[:, 0])])
def test_float16_matmul_rounds_once_as_numpy(matmul, a, b):
    # NumPy's float16 matmul multiplies exactly and accumulates in float32; products rounded to float16 were ulps off
    np.testing.assert_array_equal(matmul(Tensor(a), Tensor(b)).numpy(), np.matmul(a, b))


@pytest.mark.parametrize("shape, axis", [((0,), None), ((3, 0), 1), ((0, 2), 0)])
def test_cumulative_sum_include_initial_of_an_empty_axis(shape, axis):
    a = np.zeros(shape, np.float32)
    same(xp.cumulative_sum(Tensor(a), axis=axis, include_initial=True),
         np.cumulative_sum(a, axis=axis, include_initial=True))


@pytest.mark.parametrize("args, kw, err", [((2.5,), {}, TypeError), ((2, 2.0), {}, TypeError),
                                           ((2,), {"k": 0.5}, TypeError), ((-1,), {}, ValueError),
                                           ((2, -3), {}, ValueError)])
def test_eye_bad_sizes_raise_as_numpy(args, kw, err):
    with pytest.raises(err):
        np.eye(*args, **kw)
    with pytest.raises(err):
        xp.eye(*args, **kw)


def test_eye_numpy_integer_sizes():
    same(xp.eye(np.int64(2), np.int32(3), k=np.int8(1)), np.eye(2, 3, k=1, dtype=np.float32))


A24 = np.arange(24.0).reshape(2, 3, 4)
VIEWS = {"transposed": lambda a: a.transpose(1, 0, 2), "strided": lambda a: a[:, ::2], "contiguous": lambda a: a,
         "reversed_axes": lambda a: a.transpose(2, 1, 0)}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("shape", [(-1,), (2, -1), (4, -1), (2, 1, -1)])
def test_reshape_copy_false_refuses_a_copy_as_numpy(view, shape):
    ref_src = VIEWS[view](A24)
    src = VIEWS[view](Tensor(A24))
    try:
        ref = np.reshape(ref_src, shape, copy=False)
    except ValueError:
        with pytest.raises(ValueError):
            xp.reshape(src, shape, copy=False)
        return
    same(xp.reshape(src, shape, copy=False), ref)
