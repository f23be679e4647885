"""The eager path's bookkeeping: realising repoints the tensors holding the realised graph, and a cached plan runs on
the right buffers when the same structure comes back with new data."""

from __future__ import annotations

import numpy as np

import lazyarr
from lazyarr import Tensor
from tests.helpers import kernel_count


def test_realize_repoints_every_tensor_holding_the_graph() -> None:
    x = Tensor(np.arange(6, dtype=np.float32)).realize()
    y = x * 3 + 1
    alias = Tensor(y)  # holds the very same UOp
    other = x * 3 + 2
    with kernel_count(1):
        y.realize()
    with kernel_count(0):
        np.testing.assert_array_equal(alias.numpy(), np.arange(6, dtype=np.float32) * 3 + 1)
    assert alias.uop is y.uop
    with kernel_count(1):
        np.testing.assert_array_equal(other.numpy(), np.arange(6, dtype=np.float32) * 3 + 2)


def test_cached_plan_runs_on_the_buffers_of_the_new_call() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(5).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    ta, tb = Tensor(a).realize(), Tensor(b).realize()
    np.testing.assert_array_equal((ta - tb * 2).numpy(), a - b * 2)
    created = lazyarr.stats().schedules_created
    np.testing.assert_array_equal((tb - ta * 2).numpy(), b - a * 2)  # same structure, operands swapped
    np.testing.assert_array_equal((ta - ta * 2).numpy(), a - a * 2)  # one buffer twice: a different structure
    c = Tensor(rng.standard_normal(5).astype(np.float32)).realize()
    np.testing.assert_array_equal((c - ta * 2).numpy(), c.numpy() - a * 2)
    assert lazyarr.stats().schedules_created == created + 1
