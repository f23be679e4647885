"""The eager path's bookkeeping: realising repoints exactly the tensors holding the realised graph (without scanning
every live tensor), and a cached plan runs on the right buffers when the same structure comes back with new data."""

from __future__ import annotations

import gc

import numpy as np

import lazyarr
from lazyarr import Tensor
from lazyarr.frontend import tensor as tensor_module
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


def test_dead_tensors_leave_the_registry() -> None:
    x = Tensor(np.ones(4, np.float32)).realize()
    before = len(tensor_module._holders)
    temps = [x + k for k in range(50)]
    assert len(tensor_module._holders) >= before + 50
    del temps
    gc.collect()
    assert len(tensor_module._holders) <= before + 1


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


def test_many_live_tensors_do_not_slow_realize_down() -> None:
    keep = [Tensor(np.ones(2, np.float32)) for _ in range(20000)]
    x = Tensor(np.ones(3, np.float32)).realize()
    (x + 1).realize()
    for _ in range(50):  # would take seconds if every realize visited every live tensor
        (x + 1).realize()
    assert len(keep) == 20000
