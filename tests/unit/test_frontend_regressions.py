"""Regressions found by the op tests (tests/ops) whose fix lives in graph/ or kernels/."""

import numpy as np

from lazyarr import Tensor


def test_integer_pow_passes_the_verifier() -> None:
    # POW was in GroupOp.FloatOnly, so the verifier rejected integer powers that the renderer supports
    a, b = np.array([3, -2, 5], np.int32), np.array([2, 3, 0], np.int32)
    np.testing.assert_array_equal((Tensor(a) ** Tensor(b)).numpy(), a**b)


def test_signed_floor_division_of_the_minimum_by_minus_one_wraps() -> None:
    # Numba's int64 floor division gives 0 for INT64_MIN // -1; NumPy wraps to INT64_MIN
    for dt in (np.int8, np.int32, np.int64):
        a = np.array([np.iinfo(dt).min, 7], dt)
        b = np.array([-1, -1], dt)
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal((Tensor(a) // Tensor(b)).numpy(), a // b)


def test_gather_root_reads_computed_data() -> None:
    # a GATHER that is the kernel's root fused its (computed) data instead of storing it: the lowering crashed
    from lazyarr.graph.ops import Ops
    from lazyarr.graph.uop import GatherArg, UOp

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    data = (Tensor(a) + 1).T  # computed, then permuted: not a view of a buffer
    index = Tensor(np.array([[2], [0]], dtype=np.int64)).expand(2, 3)
    out = data._new(UOp(Ops.GATHER, data.dtype, (data.uop, index.uop), GatherArg(0)))
    np.testing.assert_array_equal(out.numpy(), (a + 1).T[[2, 0]])
