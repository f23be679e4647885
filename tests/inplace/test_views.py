"""Writes through views are seen by every live view of the array (NumPy semantics), on realised and unrealised
arrays, for float32, int32 and bool, repeated 3 times in a loop; `contiguous()` aliases and `clone()` copies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from lazyarr import Tensor
from lazyarr.graph.schedule import strip_movement
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(5)
DATA = {
    "float32": rng.standard_normal((4, 6)).astype(np.float32),
    "int32": rng.integers(-50, 50, (4, 6)).astype(np.int32),
    "bool": rng.integers(0, 2, (4, 6)).astype(bool),
}
# the same view taken of a Tensor and of a NumPy array
VIEWS: dict[str, Callable[[Any], Any]] = {
    "steps": lambda a: a[1:, ::2],
    "negative_steps": lambda a: a[::-2, 4:0:-3],
    "transpose": lambda a: a.T,
    "reshape": lambda a: a.reshape(2, 12),
    "slice_then_reshape": lambda a: a[2:].reshape(-1),
    "int_and_ellipsis": lambda a: a[..., 3],
    "detach": lambda a: a.detach() if isinstance(a, Tensor) else a.view(),
}


def _bump(v: Any, dtype: str) -> None:
    """One in-place write of the view: += for numbers, ^= for bool."""
    if dtype == "bool":
        v ^= True
    elif dtype == "int32":
        v += 3
    else:
        v *= 1.5


def _array(a: np.ndarray, realized: bool) -> Tensor:
    t = Tensor(a.copy())
    return t.realize() if realized else t.clone()


@pytest.mark.parametrize("realized", [True, False], ids=["realised", "lazy"])
@pytest.mark.parametrize("dtype", list(DATA))
@pytest.mark.parametrize("view", list(VIEWS))
def test_write_through_view_three_times(view: str, dtype: str, realized: bool) -> None:
    a = DATA[dtype].copy()
    x = _array(a, realized)
    other = x[1:3]  # another live view of the same array
    kept = x.T[0]
    snapshot = kept * 1  # a lazy value from before the writes keeps the old contents
    old = a.T[0].copy()
    for i in range(3):
        v, nv = VIEWS[view](x), VIEWS[view](a)
        _bump(v, dtype)
        _bump(nv, dtype)
        if i == 1:
            x.realize()  # mix realised and pending writes
    assert_matches(x, a)
    assert_matches(other, a[1:3])
    assert_matches(kept, a.T[0])
    assert_matches(snapshot, old * 1)


@pytest.mark.parametrize("dtype", list(DATA))
def test_setitem_through_kept_view_three_times(dtype: str) -> None:
    a = DATA[dtype].copy()
    x = Tensor(a.copy()).realize()
    v, nv = x[::2, 1::2], a[::2, 1::2]
    for k in range(3):
        value = DATA[dtype][k, : nv.shape[1]]
        v[k % 2] = value
        nv[k % 2] = value
        assert_matches(x, a)
    assert_matches(v, nv)


def test_views_made_before_and_after_a_write() -> None:
    a = DATA["float32"].copy()
    x = Tensor(a.copy()).realize()
    before = x[:, 1]
    x[:, 1] = 7.0
    after = x[:, 1]
    a[:, 1] = 7.0
    assert_matches(before, a[:, 1])
    assert_matches(after, a[:, 1])


def test_copies_do_not_see_writes() -> None:
    a = DATA["float32"].copy()
    x = Tensor(a.copy()).realize()
    flat_copy = x.T.reshape(-1)  # NumPy copies here: no single view can express it
    padded = x.pad(((1, 1), (0, 0)))
    arith = x + 0
    x[0] = 100.0
    assert_matches(flat_copy, a.T.reshape(-1))
    assert_matches(padded, np.pad(a, ((1, 1), (0, 0))))
    assert_matches(arith, a)
    padded[1] = -1.0  # writing the padded copy leaves x alone
    a[0] = 100.0
    assert_matches(x, a)


def test_views_of_a_padded_tensor_see_its_writes() -> None:
    # a pad is a new array (np.pad), but a view of that array (its detach, a slice, a reshape) is a view of it: a
    # write through either reaches the other (a detach or alias of the PAD node did not join its group)
    a = DATA["float32"].copy()
    for realised in (False, True):
        x = Tensor(a.copy())
        p = x.pad(((1, 0), (0, 1)))
        if realised:
            p.realize()
        want = np.pad(a, ((1, 0), (0, 1)))
        d, rows, flat = p.detach(), p[1:], p.reshape(-1)
        d += 1
        want += 1
        rows[0, 0] = 50.0
        want[1, 0] = 50.0
        flat[3] = -4.0
        want.reshape(-1)[3] = -4.0
        for t, w in ((p, want), (d, want), (rows, want[1:]), (flat, want.reshape(-1))):
            assert_matches(t, w)
        assert_matches(x, a)  # the array padded is not the pad's


def test_broadcast_view_is_read_only_but_sees_writes() -> None:
    x = Tensor(np.arange(3, dtype=np.float32)).realize()
    b = x.reshape(1, 3).expand(2, 3)
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1.0
    x[0] = 9.0
    assert_matches(b, np.broadcast_to(np.array([9, 1, 2], np.float32), (2, 3)))


@pytest.mark.parametrize("src, shape, view", [
    ((2, 3), (2, 2, 3), lambda b: b[1:]),  # one copy of the repeats: no stride 0 left, read-only in NumPy
    ((2, 3), (2, 3), lambda b: b),  # the shape it has: nothing repeated
    ((2, 3), (1, 2, 3), lambda b: b[0].T),
    ((0, 3), (2, 0, 3), lambda b: b),  # zero-size
])
def test_np_broadcast_to_and_its_views_are_read_only(src: tuple[int, ...], shape: tuple[int, ...],
                                                     view: Callable[[Any], Any]) -> None:
    # each of these wrote into the source array (or did nothing) where NumPy raises ValueError
    a = np.arange(float(np.prod(src))).reshape(src)
    for x in (a.copy(), Tensor(a.copy())):
        v = view(np.broadcast_to(x, shape))
        for write in (lambda w: w.__setitem__(..., 7.0), lambda w: w.__iadd__(1.0), lambda w: np.copyto(w, 1.0)):
            with pytest.raises(ValueError, match="read-only"):
                write(v)
        assert_matches(x, a)
        b = np.broadcast_to(x, shape)
        c = b.copy()  # a copy is writable
        c[...] = 5.0
        x[...] = -1.0  # the source stays writable, and the broadcast sees its writes
        assert_matches(b, np.full(shape, -1.0))


def test_contiguous_aliases_a_realised_contiguous_tensor() -> None:
    a = DATA["int32"].copy()
    x = Tensor(a.copy()).realize()
    c = x.contiguous()
    with kernel_count(0):
        c.realize()
    c[0, 0] = -1
    assert x.numpy()[0, 0] == -1
    t = x.T.contiguous()  # not contiguous: a new array
    t[0, 0] = 5
    assert x.numpy()[0, 0] == -1


def test_clone_holds_the_value_at_the_time_of_the_call() -> None:
    a = DATA["float32"].copy()
    t = Tensor(a.copy()).realize()
    k = t.clone()
    k2 = t[::2].clone()
    t.assign(Tensor(np.full(a.shape, 9, np.float32))).realize()
    assert_matches(k, a)
    assert_matches(k2, a[::2])
    k += 1  # and its storage is its own
    assert_matches(t, np.full(a.shape, 9, np.float32))
    c1, c2 = t.clone(), t.clone()
    Tensor.realize(c1, c2)
    c1[0] = 0.0
    assert_matches(c2, np.full(a.shape, 9, np.float32))


def test_lazy_value_keeps_old_value_whenever_realised() -> None:
    a = np.abs(DATA["float32"]) + 1
    x = Tensor(a.copy()).realize()
    y = x.log()
    x.assign(x * 2)
    z = x.log()
    assert_matches(z, np.log(a * 2))
    assert_matches(y, np.log(a))
    x.assign(x * 2)
    w = y + x  # mixes the old value (through y) and the current one
    assert_matches(w, np.log(a) + a * 4, rtol=1e-5)
    assert_matches(x, a * 4)


def test_realising_together_orders_reads_before_the_write() -> None:
    a = DATA["float32"].copy()
    x = Tensor(a.copy()).realize()
    y = x.exp()
    x.assign(x + 1)
    with kernel_count(2):  # y is read before x is written: no copy of x needed
        Tensor.realize(x, y)
    assert_matches(y, np.exp(a))
    assert_matches(x, a + 1)


def test_realising_one_tensor_repoints_graphs_that_share_it() -> None:
    a = np.abs(DATA["float32"]) + 1
    x = Tensor(a.copy()).realize()
    y = (x.log() + 1).sum(1)  # materialised separately: a reduction
    z = y * 2
    w = y + 1
    y.realize()
    buf = strip_movement(y.uop)[1]
    assert buf in z.uop.toposort() and buf in w.uop.toposort()  # no recomputation of y later
    x += 1  # and the shared value does not go stale
    assert_matches(z, (np.log(a) + 1).sum(1) * 2, rtol=1e-5)
    assert_matches(w, (np.log(a) + 1).sum(1) + 1, rtol=1e-5)


@pytest.mark.parametrize("lazy", [True, False])
def test_writes_after_copying_in_a_detached_view_of_itself(lazy: bool) -> None:
    # the whole array becomes a DETACH of its old value; later writes (whole, row, through a transpose) must still
    # target its storage (an internal assertion fired here, found by test_random_programs)
    a = np.arange(20, dtype=np.int32).reshape(4, 5)
    base = Tensor(a.copy()) * 1 if lazy else Tensor(a.copy())
    v = base.detach()
    base += 0
    base[...] = v
    base += 3
    a += 3
    base[1] = 7
    a[1] = 7
    w = base.T
    w[0] = -1
    a.T[0] = -1
    np.testing.assert_array_equal(base.numpy(), a)
    np.testing.assert_array_equal(v.numpy(), a)


def test_astype_to_the_same_dtype_is_a_copy_unless_copy_is_false() -> None:
    """NumPy: astype makes a new array by default, so writes to it do not reach the original (they did: it was a
    view); copy=False with the same dtype gives the array itself."""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = Tensor(a.copy())
    v = t.astype(np.float32)
    v[0] = 99
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(v.numpy(), np.where(np.arange(2)[:, None] == 0, 99, a))
    assert t.astype(np.float32, copy=False) is t
    w = t.astype(np.float64, copy=False)  # another dtype: a new array either way
    w[1] = -1
    np.testing.assert_array_equal(t.numpy(), a)


@pytest.mark.parametrize("realized", [True, False])
@pytest.mark.parametrize("dtype", list(DATA))
def test_an_element_read_by_ints_is_a_value_not_a_view(dtype: str, realized: bool) -> None:
    """`a[i, j]` with an int for every dim is NumPy's scalar, a copy: a later write to `a` does not change it (it was
    a 0-d view: `old = x[i]; x[i] = old + h; x[i] = old` left x[i] at old + h). `a[i, ...]` stays a 0-d view."""
    ref = DATA[dtype].copy()
    t = Tensor(ref.copy())
    if realized:
        t.realize()
    got = [t[1, 2], t[-1, 0]]
    want = [ref[1, 2], ref[-1, 0]]
    kept, kept_ref = t[1, 2, ...], ref[1, 2, ...]
    t[1, 2] = t[1, 2] ^ True if dtype == "bool" else t[1, 2] + 1
    ref[1, 2] = ref[1, 2] ^ True if dtype == "bool" else ref[1, 2] + 1
    t[-1] = t[0]
    ref[-1] = ref[0]
    for g, w in zip(got, want):
        assert_matches(g, np.asarray(w))
    assert_matches(kept, kept_ref)
    assert_matches(t, ref)


def test_element_swap_and_finite_differences_as_numpy() -> None:
    x, ref = Tensor(np.arange(5.0)), np.arange(5.0)
    for a in (x, ref):
        a[0], a[4] = a[4], a[0]
        old = a[2]
        a[2] = old + 0.5
        a[1] = (a ** 2).sum()
        a[2] = old - 0.5
        a[3] = (a ** 2).sum()
        a[2] = old
    assert_matches(x, ref)
    z, z_ref = Tensor(np.array(3.0)), np.array(3.0)
    kept, kept_ref = z[()], z_ref[()]
    z[...] = 7.0
    z_ref[...] = 7.0
    assert_matches(kept, np.asarray(kept_ref))
    assert_matches(z, z_ref)


@pytest.mark.parametrize("view", [lambda a: a[::-1], lambda a: a[::2], lambda a: a.reshape(2, 3)[:, 1],
                                  lambda a: np.expand_dims(np.flip(a), -1), lambda a: a[1:4]],
                         ids=["reversed", "step 2", "column", "flip + expand_dims", "dense slice"])
@pytest.mark.parametrize("ravel", [np.ravel, lambda v: v.ravel()], ids=["np.ravel", "method"])
def test_ravel_of_a_view_of_a_lazy_array_copies_as_numpy(view: Callable[[Any], Any],
                                                         ravel: Callable[[Any], Any]) -> None:
    # r = np.ravel((x + 0)[::2]); x[...] = -1 made r all -1 (NumPy's ravel copies a block that is not dense; the lazy
    # array's views reported C order, so ravel took them for a view)
    results = []
    for a in (np.arange(6) + 0, Tensor(np.arange(6)) + 0):
        r = ravel(view(a))
        a[...] = -1
        results.append(np.array(r))
    assert_matches(results[1], results[0])


@pytest.mark.parametrize("lazy", [False, True])
def test_a_view_of_a_reshape_copy_views_the_copy(lazy: bool) -> None:
    # c = a.T.reshape(-1) is a copy in NumPy and v = c[:3] a view of it: after c[0] = 100, v[0] was still a's old
    # value (NumPy: 100.0); v stayed with a's array as a copy of its own instead of following c
    results = []
    for a in (np.arange(6.0).reshape(2, 3), Tensor(np.arange(6.0).reshape(2, 3))):
        a = a + 0 if lazy else a
        c = a.T.reshape(-1)
        v, w = c[:3], c[::-1].reshape(2, 3)
        c[0] = 100.0
        a[...] = -1.0  # reaches neither
        w[0, 0] = 50.0
        results.append([np.array(x) for x in (a, c, v, w)])
    for got, want in zip(results[1], results[0]):
        assert_matches(got, want)


def test_ravel_of_a_view_of_an_array_given_a_constant_copies_as_numpy() -> None:
    # a lazy array given a whole new constant (a[...] = 1) has a broadcast constant as its value, and ravel took
    # np.flip(a, -1) for a dense block: the ravel then showed a later a += 1 (NumPy's is a copy: [1, 1])
    results = []
    for a in (np.array([[3, 1]], np.uint8) + 0, Tensor(np.array([[3, 1]], np.uint8)) + 0):
        a[...] = 1
        r = np.ravel(np.flip(a, -1))
        a += 1
        results.append(np.array(r))
    assert_matches(results[1], results[0])
