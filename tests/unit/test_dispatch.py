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


def test_split_launches_cover_every_chunk_exactly_once() -> None:
    from lazyarr.kernels import runtime_numba

    x = np.arange(1001, dtype=np.float32)
    seen: list[tuple[int, int]] = []

    def fake_kernel(out: np.ndarray, src: np.ndarray, start: int, end: int, n: int) -> None:
        seen.append((start, end))
        out[start:end] = src[start:end] * 2

    out = np.zeros_like(x)
    with lazyarr.Context(NUM_THREADS=3, PARALLEL_MIN=1):
        runtime_numba.launch(fake_kernel, [out, x], [1001], True, 1001, 1001)
    np.testing.assert_array_equal(out, x * 2)
    # little work: one chunk per thread (each chunk is a dispatcher call); covering every element exactly once
    assert sorted(seen)[0][0] == 0 and sorted(seen)[-1][1] == 1001 and len(seen) == 3
    assert all(a[1] == b[0] for a, b in zip(sorted(seen), sorted(seen)[1:]))
    with lazyarr.Context(NUM_THREADS=3, PARALLEL_MIN=1):
        t = Tensor(np.arange(50000, dtype=np.float32)).realize()
        ref = np.sin(np.arange(50000, dtype=np.float32) * 3 + 1)
        np.testing.assert_allclose((t * 3 + 1).sin().numpy(), ref, rtol=0, atol=2e-7)


def test_split_launches_cut_at_multiples_of_the_unit() -> None:
    from lazyarr.kernels import runtime_numba

    seen: list[tuple[int, int]] = []

    def fake_kernel(out: np.ndarray, start: int, end: int) -> None:
        seen.append((start, end))
        out[start:end] += 1

    for outer, unit, threads in ((5000, 1024, 2), (5000, 1024, 8), (3000, 1024, 2), (1000, 1024, 4), (1000, 1, 4)):
        seen.clear()
        out = np.zeros(outer)
        with lazyarr.Context(NUM_THREADS=threads, PARALLEL_MIN=1):
            runtime_numba.launch(fake_kernel, [out], [], True, outer, 1 << 24, unit)
        np.testing.assert_array_equal(out, np.ones(outer))  # every column once
        cuts = sorted(seen)
        assert all(start % unit == 0 for start, _ in cuts), (outer, unit, cuts)
        assert len(cuts) == min(-(-outer // unit), threads * runtime_numba.CHUNKS_PER_THREAD)


def test_column_reductions_split_over_threads_in_whole_units_with_numpys_values() -> None:
    rng = np.random.default_rng(3)
    for shape in ((300, 2500), (2000, 64), (40, 3, 1100)):
        host = rng.standard_normal(shape).astype(np.float32)
        x = Tensor(host).realize()
        with lazyarr.Context(NUM_THREADS=3, PARALLEL_MIN=1):
            np.testing.assert_allclose(x.sum(0).numpy(), host.sum(0, dtype=np.float64), rtol=2e-5, atol=2e-4)
            np.testing.assert_allclose((x * 2).mean(0).numpy(), (host.astype(np.float64) * 2).mean(0), rtol=2e-5,
                                       atol=2e-5)
    # a column reduction (its first loop is the output columns) is cut at COLUMN_SPLIT columns; a row sum, or a
    # column reduction whose first loop is a batch, at any column
    from lazyarr.graph.schedule import normalize, schedule
    from lazyarr.kernels.lower import COLUMN_SPLIT, lower

    units = {}
    for name, shape, axis in (("column", (64, 48), 0), ("row", (64, 48), 1), ("batched", (40, 3, 50), 1)):
        norm, _ = normalize([Tensor(rng.standard_normal(shape).astype(np.float32)).sum(axis).uop])
        units[name] = [lower(item).split_unit for item in schedule(norm).items]
    assert units == {"column": [COLUMN_SPLIT], "row": [1], "batched": [1]}


def test_realize_repoints_readers_of_the_graph_made_before_and_after_it() -> None:
    # the tensors to repoint are found from the realised nodes up (`uop.readers`), not by looking at every tensor:
    # a reader made before the realised tensor (hash-consing gives it the same node), one made after, a view, and a
    # reader of a reader are repointed; lazy tensors that read other graphs keep their graphs
    x = Tensor(np.arange(6, dtype=np.float32)).realize()
    before = x * 3 + 1
    y = x * 3 + 1
    after = (y * 2).reshape(2, 3)
    deeper = after.sum(1)
    others = [x * 5 + k for k in range(50)]
    graphs = [t.uop for t in others]
    with kernel_count(1):
        y.realize()
    assert before.uop is y.uop and all(t.uop is g for t, g in zip(others, graphs))
    with kernel_count(1):  # only y * 2 and the row sum: y's value is read, not computed again
        deeper.realize()
    with kernel_count(1):
        np.testing.assert_array_equal(after.numpy(), ((np.arange(6) * 3 + 1) * 2).reshape(2, 3).astype(np.float32))
    np.testing.assert_array_equal(deeper.numpy(), ((np.arange(6) * 3 + 1) * 2).reshape(2, 3).sum(1))
    np.testing.assert_array_equal(others[7].numpy(), np.arange(6, dtype=np.float32) * 5 + 7)


def test_realising_each_of_many_lazy_results_in_turn() -> None:
    # [float(r) for r in results] over thousands of pending results: each realisation repoints only its readers
    # (it walked every live tensor's graph: 70 s for 4000 results, now about 2 s)
    rng = np.random.default_rng(3)
    data = [rng.standard_normal(4).astype(np.float32) for _ in range(600)]
    sums = [Tensor(d).sum() for d in data]
    with kernel_count(600):
        got = [float(s) for s in sums]
    np.testing.assert_allclose(got, [d.astype(np.float64).sum() for d in data], rtol=1e-5, atol=1e-6)


def test_write_read_by_a_pending_graph_keeps_its_plan_step_after_step() -> None:
    # a lazy reader of storage that a realisation overwrites gets a copy of the old contents (found from the storage
    # up, in the order nodes were made, so every step schedules the same structure and reuses its plan)
    w0 = np.linspace(-1, 1, 8).astype(np.float32)
    w, ref = Tensor(w0.copy()).realize(), w0.copy()
    created = None
    for step in range(6):
        loss = (w * 2).sum()  # reads w's storage, still pending when w is written
        w -= w * np.float32(0.25)
        w.realize()
        np.testing.assert_allclose(loss.item(), (ref * 2).sum(), rtol=1e-6, atol=1e-6)
        ref = ref - ref * np.float32(0.25)
        np.testing.assert_array_equal(w.numpy(), ref)
        if step == 2:
            created = lazyarr.stats().schedules_created
    assert lazyarr.stats().schedules_created == created


def test_cached_plan_misses_on_every_change_but_the_data() -> None:
    # an eager op's plan is looked up by the structure of its graph, where a subgraph that reads no storage (a
    # broadcast constant) is its own hash-consed node: a plan is reused only for new data, never for another
    # constant (not even -0.0 for 0.0), dtype, shape, view, constant shape, operand order or FUSE setting
    rng = np.random.default_rng(4)
    a32 = rng.standard_normal(12).astype(np.float32)
    ta, tb = Tensor(a32).realize(), Tensor(rng.standard_normal(12).astype(np.float32)).realize()
    t64, ti = Tensor(a32.astype(np.float64)).realize(), Tensor(np.arange(12, dtype=np.int32)).realize()
    cases = [
        (lambda: ta + 1.0, lambda: a32 + np.float32(1)),
        (lambda: ta + 2.0, lambda: a32 + np.float32(2)),
        (lambda: ta * 0.0, lambda: a32 * np.float32(0)),
        (lambda: ta * -0.0, lambda: a32 * np.float32(-0.0)),
        (lambda: t64 + 1.0, lambda: a32.astype(np.float64) + 1),
        (lambda: ti + 1, lambda: np.arange(12, dtype=np.int32) + 1),
        (lambda: ta[::2] + 1.0, lambda: a32[::2] + np.float32(1)),
        (lambda: ta[1:7] + 1.0, lambda: a32[1:7] + np.float32(1)),
        (lambda: ta.reshape(3, 4) + 1.0, lambda: a32.reshape(3, 4) + np.float32(1)),
        (lambda: ta.reshape(3, 4) + Tensor.full((3, 4), 1.0), lambda: a32.reshape(3, 4) + np.float32(1)),
        (lambda: ta.reshape(3, 4) + Tensor.full((1, 4), 1.0), lambda: a32.reshape(3, 4) + np.float32(1)),
        (lambda: ta - ta * 2.0, lambda: a32 - a32 * np.float32(2)),
        (lambda: ta - tb * 2.0, lambda: a32 - tb.numpy() * np.float32(2)),
        (lambda: tb - ta * 2.0, lambda: tb.numpy() - a32 * np.float32(2)),
        (lambda: Tensor.full((12,), 3.0) * 2.0, lambda: np.full(12, 6, np.float32)),
        (lambda: Tensor.full((12,), 3.0) * 3.0, lambda: np.full(12, 9, np.float32)),
    ]
    for build, ref in cases:
        got = build().numpy()
        np.testing.assert_array_equal(got, ref())
        assert got.dtype == ref().dtype and np.array_equal(np.signbit(got), np.signbit(ref()))
    created, compiled = lazyarr.stats().schedules_created, lazyarr.stats().kernels_compiled
    for build, ref in cases:  # every structure is in the cache now: no new schedule or kernel, the same values
        np.testing.assert_array_equal(build().numpy(), ref())
    assert lazyarr.stats().schedules_created == created and lazyarr.stats().kernels_compiled == compiled
    with lazyarr.Context(FUSE=0), kernel_count(2):
        np.testing.assert_array_equal(((ta + 1.0) * 2.0).numpy(), (a32 + np.float32(1)) * np.float32(2))
    with kernel_count(1):
        np.testing.assert_array_equal(((ta + 1.0) * 2.0).numpy(), (a32 + np.float32(1)) * np.float32(2))


def _holders_of_one_node() -> list[np.ndarray]:
    """Tensors sharing the realised node in the ways an eager realisation repoints: another tensor given the same
    (hash-consed) node, which is also an array's base (a view of it was made and dropped), then writes and reads."""
    x = Tensor(np.arange(16, dtype=np.float32)).realize()
    t = x + 1
    same = x + 1
    view = same.reshape(4, 4)
    del view
    before = lazyarr.stats().kernels_launched
    t.realize()
    node = t.uop
    # both registered as holding the result (a later realisation finds them from it), the array's base repointed
    out = [np.array([same.uop is node, same._group.base is node, sum(r() is t for r in node.holders or ()),
                     sum(r() is same for r in node.holders or ())]), t.numpy(), same.numpy()]
    same[0] = 100.0
    t[1] = -5.0
    later = t * 2 + same
    out += [t.numpy(), same.numpy(), later.numpy(), x.numpy()]
    return [*out, np.array([lazyarr.stats().kernels_launched - before])]


def test_realising_one_unread_graph_repoints_as_the_general_path(monkeypatch) -> None:  # noqa: ANN001
    # `_apply_alone` (one computed graph no live node reads) must leave every tensor as `_apply` would
    from lazyarr.frontend import realisation

    fast = _holders_of_one_node()
    monkeypatch.setattr(realisation, "_apply_alone", lambda root, result, t, inputs: realisation._apply(
        {root: result}, [root], {}, {root: t}, set(inputs)))
    general = _holders_of_one_node()
    for a, b in zip(fast, general):
        np.testing.assert_array_equal(a, b)
    ref = np.arange(16, dtype=np.float32) + 1
    np.testing.assert_array_equal(fast[0], [1, 1, 1, 1])
    np.testing.assert_array_equal(fast[1], ref)
    np.testing.assert_array_equal(fast[2], ref)


def test_eager_plans_launch_numba_dispatcher_kernels_directly() -> None:
    # a kernel compiled through Numba in this process (no native object, no LLVM build) is a dispatcher; an eager
    # plan launches it without an ExecItem too, whole or split over threads, with the same values and counts
    from lazyarr.kernels import realize, runtime_numba

    x = np.linspace(-3, 3, 5000).astype(np.float32)
    tx = Tensor(x).realize()
    realize._kernels.clear()  # (and the plans holding them: compiled again, or loaded from Numba's disk cache)
    with lazyarr.Context(NATIVE=0, LLVM=0):
        with kernel_count(1):
            first = (tx * 1.2345678 + 0.5).numpy()
        (plan,) = realize._plans.values()
        assert plan.direct is not None
        with kernel_count(1):
            again = (tx * 1.2345678 + 0.5).numpy()
        with lazyarr.Context(PARALLEL_MIN=1, NUM_THREADS=2), kernel_count(1):
            split = (tx * 1.2345678 + 0.5).numpy()
    ref = x * np.float32(1.2345678) + np.float32(0.5)
    for got in (first, again, split):
        np.testing.assert_array_equal(got, ref)
    if not isinstance(plan.kernels[0].fn, runtime_numba.NativeKernel):  # (an earlier test may have built it natively)
        assert not plan.direct[0].native
