"""@lazyarr.jit: lifecycle, input signatures, outputs, errors, RNG, replay modes. Values are checked against NumPy."""

from __future__ import annotations

import re
import sys
import threading
import warnings
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import JitError, JitWarning, Tensor
from tests.helpers import kernel_count

rng = np.random.default_rng(5)


def arr(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


class Counted:
    """A function of (x, y) that counts how often its Python body runs."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, x: Tensor, y: Tensor) -> Tensor:
        self.calls += 1
        return (x * 2 + y).sum(axis=1)


def test_lifecycle_runs_body_twice_then_replays() -> None:
    body = Counted()
    f = lazyarr.jit(body)
    y = arr(4, 3)
    for i in range(5):
        x = arr(4, 3)
        np.testing.assert_allclose(f(Tensor(x), Tensor(y)).numpy(), (x * 2 + y).sum(axis=1), rtol=1e-5)
        assert body.calls == min(i + 1, 2)
    assert len(f.captures) == 1


def test_kernels_per_replay_equal_kernels_captured() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> tuple[Tensor, Tensor]:
        h = (x @ x.T).realize()
        return h.exp().sum(axis=0), (h - h.max(axis=1, keepdims=True)).exp()

    x = Tensor(arr(5, 5))
    f(x)
    with kernel_count() as captured:
        f(x)
    with kernel_count(captured["kernels"]):
        a, b = f(Tensor(arr(5, 5)))
    assert next(iter(f.captures.values())).n_kernels == captured["kernels"]


def test_inputs_in_kwargs_lists_and_dicts_are_swapped() -> None:
    @lazyarr.jit
    def f(a: Tensor, pair: list[Tensor], d: dict[str, Tensor], *, scale: Tensor) -> Tensor:
        return (a + pair[0] * pair[1] - d["u"]) * scale

    for _ in range(4):
        a, p0, p1, u, s = arr(6), arr(6), arr(6), arr(6), arr(6)
        out = f(Tensor(a), [Tensor(p0), Tensor(p1)], {"u": Tensor(u)}, scale=Tensor(s))
        np.testing.assert_allclose(out.numpy(), (a + p0 * p1 - u) * s, rtol=1e-5)


def test_changed_batch_size_recaptures() -> None:
    body = Counted()
    f = lazyarr.jit(body)
    y = arr(1, 3)
    for rows in (8, 8, 8, 3, 3, 3, 8):
        x = arr(rows, 3)
        out = f(Tensor(x), Tensor(np.broadcast_to(y, (rows, 3)).copy()))
        np.testing.assert_allclose(out.numpy(), (x * 2 + y).sum(axis=1), rtol=1e-5)
    assert body.calls == 4 and len(f.captures) == 2


def test_single_tensor_argument_recaptures_on_shape_and_dtype() -> None:
    """One whole-buffer Tensor argument takes Jit.__call__'s inline key: a new shape or dtype is a new capture."""
    calls = []

    def body(x: Tensor) -> Tensor:
        calls.append(1)
        return x * 3 - 1

    f = lazyarr.jit(body)
    for shape, dt in [((4,), np.float32)] * 3 + [((5,), np.float32)] * 3 + [((4,), np.float64)] * 3:
        x = np.random.default_rng(len(shape)).standard_normal(shape).astype(dt)
        out = f(Tensor(x))
        assert out.dtype == dt and out.shape == shape
        np.testing.assert_allclose(out.numpy(), x * 3 - 1, rtol=1e-6)
    assert len(calls) == 6 and len(f.captures) == 3


def test_changed_python_scalar_recaptures() -> None:
    calls = []

    @lazyarr.jit
    def f(x: Tensor, mult: float) -> Tensor:
        calls.append(mult)
        return x * mult

    x = arr(5)
    for mult in (1.5, 1.5, 1.5, 2.5, 2.5, 2.5, 1.5):
        np.testing.assert_allclose(f(Tensor(x), mult).numpy(), x * mult, rtol=1e-6)
    assert calls == [1.5, 1.5, 2.5, 2.5]


def test_capture_bound_warns_and_runs_eagerly() -> None:
    f = lazyarr.jit(lambda x, k: x + k, max_captures=2)
    x = arr(3)
    for k in (1, 2):
        for _ in range(3):
            f(Tensor(x), k)
    with pytest.warns(JitWarning, match="2 input signatures"):
        out = f(Tensor(x), 3)
    np.testing.assert_allclose(out.numpy(), x + 3)
    for _ in range(3):
        np.testing.assert_allclose(f(Tensor(x), 4).numpy(), x + 4)
    assert len(f.captures) == 2


def test_outputs_of_a_call_keep_their_values_after_later_calls() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> tuple[Tensor, Tensor]:
        y = x * 3
        return y, y.reshape(2, 3).T

    xs = [arr(6) for _ in range(5)]
    outs = [f(Tensor(x)) for x in xs]
    for x, (a, b) in zip(xs, outs):
        np.testing.assert_allclose(a.numpy(), x * 3, rtol=1e-6)
        np.testing.assert_allclose(b.numpy(), (x * 3).reshape(2, 3).T, rtol=1e-6)


def test_previous_output_fed_back_as_input() -> None:
    @lazyarr.jit
    def step(x: Tensor) -> Tensor:
        return x * 0.5 + 1

    x0 = arr(7)
    t, ref = Tensor(x0), x0
    history = []
    for _ in range(6):
        t = step(t)
        ref = ref * 0.5 + 1
        history.append((t, ref.copy()))
    for got, want in history:
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_unrealized_and_view_inputs() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> Tensor:
        return x + 1

    for _ in range(4):
        base = arr(4, 6)
        lazy = Tensor(base) * 2  # realised before the call
        np.testing.assert_allclose(f(lazy).numpy(), base * 2 + 1, rtol=1e-6)
    for _ in range(4):
        base = arr(6, 4)
        np.testing.assert_allclose(f(Tensor(base).T).numpy(), base.T + 1, rtol=1e-6)  # a view: copied first


def test_methods_are_jitted_per_instance() -> None:
    class Scale:
        def __init__(self, w: np.ndarray) -> None:
            self.w = Tensor(w)
            self.calls = 0

        @lazyarr.jit
        def __call__(self, x: Tensor) -> Tensor:
            self.calls += 1
            return x * self.w

    a, b = Scale(arr(5)), Scale(arr(5))
    for _ in range(4):
        x = arr(5)
        np.testing.assert_allclose(a(Tensor(x)).numpy(), x * a.w.numpy(), rtol=1e-6)
        np.testing.assert_allclose(b(Tensor(x)).numpy(), x * b.w.numpy(), rtol=1e-6)
    assert a.calls == 2 and b.calls == 2


def test_non_tensor_results_are_returned_as_captured() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> dict[str, object]:
        return {"y": x - 1, "shape": x.shape, "name": "f"}

    for _ in range(4):
        x = arr(2, 2)
        out = f(Tensor(x))
        assert out["shape"] == (2, 2) and out["name"] == "f"
        np.testing.assert_allclose(out["y"].numpy(), x - 1)


# ---- errors ----


@pytest.mark.parametrize("read", [
    lambda t: t.numpy(), lambda t: t.item(), lambda t: t.tolist(), lambda t: bool(t), lambda t: float(t),
    lambda t: int(t), lambda t: np.asarray(t), lambda t: np.asarray(t, copy=False),
], ids=["numpy", "item", "tolist", "bool", "float", "int", "asarray", "asarray-nocopy"])
def test_reading_data_during_capture_raises(read) -> None:  # type: ignore[no-untyped-def]
    @lazyarr.jit
    def f(x: Tensor) -> Tensor:
        s = x.sum()
        read(s)
        return s

    f(Tensor(arr(3)))  # the first call runs eagerly: reads are fine
    with pytest.raises(JitError, match="read tensor data while @lazyarr.jit was capturing"):
        f(Tensor(arr(3)))


def test_integer_tensor_index_replays_with_new_index_values() -> None:
    # gathering by a Tensor index read the index values (a JitError while capturing); now the index is a kernel
    # input: negative values wrap, as NumPy's, on every replay
    @lazyarr.jit
    def f(x: Tensor, i: Tensor, j: Tensor) -> Tensor:
        return x[i] * 2 + x[:, j].sum()

    r = np.random.default_rng(6)  # not the module's generator: later tests' data stays as it was
    x = r.standard_normal((6, 5)).astype(np.float32)
    for _ in range(4):
        i, j = r.integers(-6, 6, (3, 2)), r.integers(-5, 5, 4)
        np.testing.assert_allclose(f(Tensor(x), Tensor(i), Tensor(j)).numpy(), x[i] * 2 + x[:, j].sum(), rtol=1e-6,
                                   atol=1e-5)


def test_returning_a_python_value_computed_from_data_raises() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> tuple[Tensor, float]:
        loss = (x * x).mean()
        return loss, loss.item()

    f(Tensor(arr(4)))
    with pytest.raises(JitError, match=r"item\(\).*return the Tensor instead of \.item\(\)"):
        f(Tensor(arr(4)))


def test_function_that_launches_nothing_raises() -> None:
    f = lazyarr.jit(lambda x: x.reshape(2, 2))
    f(Tensor(arr(4)))
    with pytest.raises(JitError, match="captured no kernel launches"):
        f(Tensor(arr(4)))


def test_nested_jit_raises() -> None:
    inner = lazyarr.jit(lambda x: x + 1)
    outer = lazyarr.jit(lambda x: inner(x) * 2)
    with pytest.raises(JitError, match="nested jit"):
        outer(Tensor(arr(3)))


def test_same_buffer_as_two_inputs_raises() -> None:
    f = lazyarr.jit(lambda a, b: a + b)
    x = Tensor(arr(3))
    with pytest.raises(JitError, match="share one buffer"):
        f(x, x)
    with pytest.raises(JitError, match="share one buffer"):
        f(x, x.reshape(1, 3))


def test_unhashable_argument_raises() -> None:
    f = lazyarr.jit(lambda x, a: x + 1)
    with pytest.raises(JitError, match="not hashable"):
        f(Tensor(arr(3)), np.zeros(3))


# ---- random numbers ----


def test_rng_inside_jit_is_fresh_each_call_and_reproducible() -> None:
    @lazyarr.jit
    def noisy(x: Tensor) -> Tensor:
        return x + Tensor.rand(*x.shape)

    x = Tensor(np.zeros(64, np.float32))
    Tensor.manual_seed(7)
    first = [noisy(x).numpy() for _ in range(5)]
    assert len({a.tobytes() for a in first}) == 5
    assert all(((0 <= a) & (a < 1)).all() for a in first)
    Tensor.manual_seed(7)
    again = [noisy(x).numpy() for _ in range(5)]  # all replays now
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_rng_matches_eager_draws() -> None:
    def draw(x: Tensor) -> Tensor:
        return Tensor.randn(*x.shape) * x

    x = Tensor(np.ones(32, np.float32))
    Tensor.manual_seed(3)
    eager = [draw(x).numpy() for _ in range(4)]
    f = lazyarr.jit(draw)
    Tensor.manual_seed(3)
    jitted = [f(x).numpy() for _ in range(4)]
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(a, b)


# ---- replay paths ----


def chain(x: Tensor) -> Tensor:
    for _ in range(3):
        x = (x * 1.5 - 0.25).realize()
    return x.sum(axis=0)


@pytest.mark.parametrize("mode", [1, 2], ids=["driver", "loop"])
def test_replay_modes_agree(mode: int) -> None:
    with lazyarr.Context(JIT=mode):
        f = lazyarr.jit(chain)
        for _ in range(4):
            x = arr(8, 4)
            np.testing.assert_allclose(f(Tensor(x)).numpy(), chain(Tensor(x)).numpy(), rtol=1e-5)


def test_threaded_kernels_between_driver_segments() -> None:
    with lazyarr.Context(PARALLEL_MIN=16, JIT_PARALLEL_MIN=16, NUM_THREADS=2, JIT_SPLIT=1):
        f = lazyarr.jit(chain)
        for _ in range(4):
            x = arr(64, 4)
            np.testing.assert_allclose(f(Tensor(x)).numpy(), ((x * 1.5 - 0.25) * 1.5 - 0.25).__mul__(1.5).__sub__(
                0.25).sum(axis=0), rtol=1e-5)
        program = next(iter(f.captures.values()))
        assert not program.single


def test_jit_off_runs_eagerly() -> None:
    body = Counted()
    f = lazyarr.jit(body)
    with lazyarr.Context(JIT=0):
        for _ in range(3):
            f(Tensor(arr(2, 2)), Tensor(arr(2, 2)))
    assert body.calls == 3 and not f.captures


def test_input_that_is_storage_the_program_writes_is_copied_first() -> None:
    kept: dict[str, Tensor] = {}

    @lazyarr.jit
    def f(x: Tensor) -> Tensor:
        h = (x.flip(0) * 2).realize()  # an intermediate the program writes on every replay
        kept["h"] = h
        return h + 1

    x = arr(8)
    for _ in range(3):
        f(Tensor(x))
    h = kept["h"]  # the capture's intermediate: passing it in makes the input alias the kernel's output
    expected = h.numpy()[::-1] * 2 + 1
    np.testing.assert_allclose(f(h).numpy(), expected, rtol=1e-6)


def test_returned_inputs_and_dtypes() -> None:
    @lazyarr.jit
    def f(h: Tensor, m: Tensor, i: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        return (h * 2).cast("float32") + m.cast("float32") + i.cast("float32"), h > 1, i * 3, m

    for k in range(4):
        h = (rng.random(6) * 3).astype(np.float16)
        m = rng.random(6) > 0.5
        i = np.arange(6, dtype=np.int64) + k
        a, b, c, d = f(Tensor(h), Tensor(m), Tensor(i))
        np.testing.assert_allclose(a.numpy(), (h * 2).astype(np.float32) + m + i, rtol=1e-3)
        np.testing.assert_array_equal(b.numpy(), h > 1)
        np.testing.assert_array_equal(c.numpy(), i * 3)
        np.testing.assert_array_equal(d.numpy(), m)


@pytest.mark.skipif(not hasattr(Tensor, "assign"), reason="needs in-place writes")
def test_returned_buffer_made_inside_and_partly_written() -> None:
    @lazyarr.jit
    def f(x: Tensor) -> Tensor:
        t = Tensor(np.full(6, 7, np.float32))  # storage made in the body, then partly overwritten
        t[:3] = x * 2
        return t

    outs = []
    for _ in range(4):
        x = arr(3)
        outs.append((f(Tensor(x)), x))
    for out, x in outs:
        np.testing.assert_allclose(out.numpy(), np.concatenate([x * 2, np.full(3, 7, np.float32)]), rtol=1e-6)


def test_multi_output_kernel_outputs_are_fresh_each_replay() -> None:
    # both results come from one multi-output kernel: each replay must give both new storage, like a call
    @lazyarr.jit
    def two(x: Tensor) -> tuple[Tensor, Tensor]:
        e = (x * 0.5).exp()
        a, b = e + x, e - x
        a.realize(b)
        return a, b

    outs = []
    for k in range(4):
        x = np.full(6, float(k), np.float32)
        a, b = two(Tensor(x))
        outs.append((a, b, x))
    for a, b, x in outs:
        e = np.exp(x * np.float32(0.5))
        np.testing.assert_allclose(a.numpy(), e + x, rtol=1e-6)
        np.testing.assert_allclose(b.numpy(), e - x, rtol=1e-6)


# ---- found by the break-it pass ----


def test_writes_made_between_calls_are_seen_by_replays() -> None:
    c = Tensor(np.ones(3, np.float32))
    f = lazyarr.jit(lambda x: x * c)
    x = np.arange(3, dtype=np.float32)
    for _ in range(3):
        f(Tensor(x))
    c.assign(Tensor(np.full(3, 5, np.float32)))  # deferred writes outside the function, then a replay
    np.testing.assert_array_equal(f(Tensor(x)).numpy(), x * 5)
    c[0] = 7
    c += 1
    np.testing.assert_array_equal(f(Tensor(x)).numpy(), x * np.array([8, 6, 6], np.float32))


def test_learning_rate_set_between_jitted_steps_is_used() -> None:
    w = Tensor(np.ones(4, np.float32), requires_grad=True)
    opt = lazyarr.optim.SGD([w], lr=0.1)

    @lazyarr.jit
    def step(x: Tensor) -> Tensor:
        opt.zero_grad()
        loss = (w * x).sum()
        loss.backward()
        opt.step()
        return loss

    x, want = arr(4), np.ones(4, np.float32)
    for lr in (0.1, 0.1, 0.1, 0.0, 0.5, 0.5):
        opt.param_groups[0]["lr"] = lr
        step(Tensor(x))
        want = want - np.float32(lr) * x
        np.testing.assert_allclose(w.numpy(), want, rtol=1e-5)


def test_a_pending_write_to_an_earlier_result_is_not_captured() -> None:
    f = lazyarr.jit(lambda x: x * 2)
    outs = []
    for _ in range(5):
        x = arr(3)
        o = f(Tensor(x))
        o += 1  # pending when the next call captures: it must not become part of the replayed program
        outs.append((o, x * 2 + 1))
    for o, want in outs:
        np.testing.assert_allclose(o.numpy(), want, rtol=1e-6)


def test_signed_zero_and_nan_scalars() -> None:
    f = lazyarr.jit(lambda x, s: x / s)
    x = np.array([1, -2, 3], np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        for s in (0.0, 0.0, 0.0, -0.0, -0.0, -0.0):
            np.testing.assert_array_equal(f(Tensor(x), s).numpy(), x / np.float32(s))
    g = lazyarr.jit(lambda x, s: x + s)
    for _ in range(4):  # a fresh nan object each call is still one signature
        assert np.isnan(g(Tensor(x), float("nan")).numpy()).all()
    assert len(g.captures) == 1


def test_in_place_write_to_a_view_input_reaches_its_base() -> None:
    @lazyarr.jit
    def f(x: Tensor, v: Tensor) -> Tensor:
        x[0] = v.sum()
        x *= 2
        return x.sum()

    for _ in range(5):
        a, v = arr(6, 4), arr(3)
        base = Tensor(a)
        out = f(base[1:, ::2], Tensor(v))  # a strided view: the capture and replays run on a copy of it
        want = a.copy()
        view = want[1:, ::2]
        view[0] = v.sum()
        view *= 2
        # float32 sums in another order: an absolute tolerance for a v.sum() near 0 (the data depends on the order
        # in which pytest-xdist hands this module's tests to a worker)
        np.testing.assert_allclose(base.numpy(), want, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(out.numpy(), view.sum(), rtol=1e-5, atol=1e-5)


class EqualScale:
    """Every instance compares equal (and hashes alike): per-instance captures must go by identity."""

    __slots__ = ("w", "__weakref__")

    def __init__(self, w: np.ndarray) -> None:
        self.w = Tensor(w)

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    @lazyarr.jit
    def apply(self, x: Tensor) -> Tensor:
        return x * self.w


class JitModel(lazyarr.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = lazyarr.nn.Linear(4, 2)

    @lazyarr.jit
    def forward(self, x: Tensor) -> Tensor:
        return self.lin(x)


def test_methods_bind_by_identity_and_copies_get_their_own() -> None:
    import copy
    import pickle

    a, b = EqualScale(arr(3)), EqualScale(arr(3))
    for _ in range(4):
        x = arr(3)
        np.testing.assert_allclose(a.apply(Tensor(x)).numpy(), x * a.w.numpy(), rtol=1e-6)
        np.testing.assert_allclose(b.apply(Tensor(x)).numpy(), x * b.w.numpy(), rtol=1e-6)
    m, x = JitModel(), arr(3, 4)
    for _ in range(3):
        m(Tensor(x))
    shallow, deep = copy.copy(m), copy.deepcopy(m)
    shallow.lin, deep.lin.weight = lazyarr.nn.Linear(4, 2), Tensor(arr(2, 4), requires_grad=True)
    for c in (shallow, deep, pickle.loads(pickle.dumps(m))):
        want = x @ c.lin.weight.numpy().T + c.lin.bias.numpy()
        for _ in range(3):
            np.testing.assert_allclose(c(Tensor(x)).numpy(), want, rtol=1e-5, atol=1e-6)


def test_an_input_also_reached_through_a_closure_stays_fixed() -> None:
    w = Tensor(np.arange(3.0, dtype=np.float32))
    f = lazyarr.jit(lambda x: x + w)
    for x in (w, w, Tensor(arr(3)), w, Tensor(arr(3))):  # captured with w as the input, replayed with others
        want = x.numpy() + np.arange(3.0, dtype=np.float32)
        np.testing.assert_array_equal(f(x).numpy(), want)


def _returns_input(x: Tensor) -> tuple[Tensor, Tensor]:
    return x, x * 2


def _returns_views(x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    return x.T, x[1], x.sum()


def _adds_in_place(x: Tensor) -> Tensor:
    x += 1
    return x


def _writes_a_row(x: Tensor) -> tuple[Tensor, Tensor]:
    x[0] = 5
    return x[0], x.sum()


@pytest.mark.parametrize("body", [_returns_input, _returns_views, _adds_in_place, _writes_a_row])
def test_inputs_returned_viewed_or_written_in_place_match_eager(body) -> None:
    f = lazyarr.jit(body)
    for _ in range(5):
        a = arr(2, 3)
        x_eager, x_jit = Tensor(a), Tensor(a)
        want, got = body(x_eager), f(x_jit)
        want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
        np.testing.assert_array_equal(x_jit.numpy(), x_eager.numpy())
    f, x = lazyarr.jit(body), Tensor(arr(2, 3))
    for _ in range(2):  # the eager call and the capture give the caller's tensor (or views of it) back
        out = f(x)
    if body is _returns_input:
        assert out[0] is x
    if body is _returns_views:
        out[1][0] = 7  # a write through a returned view reaches the input, as in NumPy
        assert x.numpy()[1, 0] == 7


@pytest.mark.parametrize("mode", [1, 2])
def test_input_no_kernel_reads_beside_one_written_in_place(mode: int) -> None:
    # the last input is read by no kernel and nothing new is returned: its slot lies past every launch's
    def body(x: Tensor, unused: Tensor) -> Tensor:
        x[:, ::2] *= 2
        return x

    with lazyarr.Context(JIT=mode):
        f = lazyarr.jit(body)
        for _ in range(4):
            a = arr(2, 3)
            want = a.copy()
            want[:, ::2] *= 2
            x = Tensor(a)
            assert f(x, Tensor(arr(2, 3))) is x
            np.testing.assert_array_equal(x.numpy(), want)


def _state_and_inputs(jitted: bool) -> list[np.ndarray]:
    """Lazy values built before eager/capture/replay calls that write state (and an input) in place."""
    c = Tensor(np.ones(3, np.float32)).realize()

    def step(x: Tensor) -> Tensor:
        c.assign(c + x)
        return (c * 2).sum()

    def bump(y: Tensor) -> Tensor:
        y += 1
        return y * 3

    f = lazyarr.jit(step) if jitted else step
    g = lazyarr.jit(bump) if jitted else bump
    x, y = Tensor(np.full(3, 2.0, np.float32)), Tensor(np.zeros(3, np.float32)).realize()
    lazy = []
    for i in range(5):
        lazy.append(c * 10 + i)  # before the eager call, the capture and the replays
        lazy.append(f(x))
        lazy.append(y * 10)
        lazy.append(g(y))
    c.assign(c + 100)  # a write outside the function, then a lazy value of it
    lazy.append(c * 10)
    f(x)
    _ = [Tensor(1.0) for _ in range(5000)]  # more new tensors than jit tracks one by one: it looks at all of them
    lazy.append(c - 1)
    f(x)
    return [t.numpy().copy() for t in [*lazy, c, y]]


def test_lazy_values_built_before_a_call_keep_their_eager_values() -> None:
    for want, got in zip(_state_and_inputs(False), _state_and_inputs(True)):
        np.testing.assert_array_equal(got, want)


def test_fast_path_outputs_are_ordinary_tensors() -> None:
    f = lazyarr.jit(lambda t: t + 1)
    x = arr(16)
    outs = [f(Tensor(x)) for _ in range(4)]
    assert next(iter(f.captures.values())).replay.__name__ == "_replay_single"  # the one-kernel fast path
    view = outs[-1][2:5]
    outs[-1] += 1  # a write to a returned tensor reaches its views
    keep = outs[-1]
    del outs
    for _ in range(3):  # dropped outputs' storage is reused; storage still viewed or held is not
        np.testing.assert_allclose(f(Tensor(x)).numpy(), x + 1, rtol=1e-6)
    np.testing.assert_allclose(view.numpy(), x[2:5] + 2, rtol=1e-6)
    np.testing.assert_allclose(keep.numpy(), x + 2, rtol=1e-6)
    with lazyarr.no_grad():
        np.testing.assert_allclose(f(Tensor(x)).numpy(), x + 1, rtol=1e-6)


def test_fast_path_returns_reshaped_and_reduced_outputs_with_their_shapes() -> None:
    """A returned tensor that is a view of the output storage (a 2-D result, a reduction's 0-d or 1-D result) takes
    the one-kernel fast path too; outputs still held, or viewed, keep their storage."""
    # atol: float32 sums in another order than NumPy's, of data that depends on which tests xdist ran first
    cases = [(lambda t: t.reshape(4, 4) * 2, lambda x: x.reshape(4, 4) * 2),
             (lambda t: t.sum(), lambda x: x.sum()),
             (lambda t: t.reshape(4, 4).max(axis=1), lambda x: x.reshape(4, 4).max(axis=1))]
    for fn, ref in cases:
        f = lazyarr.jit(fn)
        x = arr(16)
        outs = [f(Tensor(x + k)) for k in range(4)]
        assert next(iter(f.captures.values())).replay.__name__ == "_replay_single"
        for k, out in enumerate(outs):  # every output held: none was overwritten by a later replay
            assert out.shape == np.shape(ref(x + k))
            np.testing.assert_allclose(out.numpy(), ref(x + k), rtol=1e-6, atol=1e-6)
        keep, view = outs[-1], outs[-2].reshape(-1)[:1]
        del outs
        for k in range(3):  # dropped outputs' storage is reused; storage still held or viewed is not
            np.testing.assert_allclose(f(Tensor(x - k)).numpy(), ref(x - k), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(keep.numpy(), ref(x + 3), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(view.numpy(), np.reshape(ref(x + 2), -1)[:1], rtol=1e-6, atol=1e-6)
    f = lazyarr.jit(lambda t: t.reshape(4, 4) + 1)
    x = arr(16)
    outs = [f(Tensor(x)) for _ in range(3)]
    row = outs[-1][1]
    outs[-1] += 1  # a write to a returned 2-D tensor reaches its views
    np.testing.assert_allclose(row.numpy(), x.reshape(4, 4)[1] + 2, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(outs[0].numpy(), x.reshape(4, 4) + 1, rtol=1e-6, atol=1e-6)


def test_storage_under_a_pending_write_of_a_dropped_result_is_not_reused() -> None:
    """A partial write into a returned tensor that is still pending when the tensor is dropped: a lazy value built
    on the write still reads the storage, so a later replay must not write its result there; and that result's
    writes reach its views."""
    cases = [(lambda t: t + 1, lambda x: x + 1, slice(1, 3), "_replay_single"),
             (lambda t: t.reshape(4, 4) + 1, lambda x: x.reshape(4, 4) + 1, 1, "_replay_single"),
             (lambda t: (t.reshape(4, 4) + 1, t * 2), lambda x: x.reshape(4, 4) + 1, 1, "replay")]
    for fn, ref, idx, path in cases:
        f = lazyarr.jit(fn)
        x = arr(16)
        for _ in range(3):
            f(Tensor(x))
        assert next(iter(f.captures.values())).replay.__name__ == path
        out = f(Tensor(x))
        t = out[0] if isinstance(out, tuple) else out
        t[idx] = 5  # pending: nothing realises it
        lazy = t * 2
        del out, t
        out = f(Tensor(x - 1))
        later = out[0] if isinstance(out, tuple) else out
        view = later.reshape(-1)[:2]
        later += 1
        expected = ref(x)
        expected[idx] = 5
        np.testing.assert_allclose(lazy.numpy(), expected * 2, rtol=1e-6)
        np.testing.assert_allclose(later.numpy(), ref(x - 1) + 1, rtol=1e-6)
        np.testing.assert_allclose(view.numpy(), ref(x - 1).reshape(-1)[:2] + 1, rtol=1e-6)


def test_a_returned_pad_of_an_output_is_an_array_of_its_own() -> None:
    """A returned pad of stored values is a new array (np.pad), as without jit: a write into it reaches its views."""
    cases = [(lambda y: y.pad(((1, 0), (0, 1))), lambda y: np.pad(y, ((1, 0), (0, 1)))),
             (lambda y: y.pad(((1, 1), (0, 0)))[1:], lambda y: np.pad(y, ((1, 1), (0, 0)))[1:])]
    for view, ref in cases:
        f = lazyarr.jit(lambda t, view=view: view((t + 1).realize()))
        x = arr(2, 3)
        for _ in range(4):  # eager, capture, replays
            out = f(Tensor(x))
            rows = out[1:]
            out[1, 1] = 9
            expected = ref(x + 1)
            expected[1, 1] = 9
            np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
            np.testing.assert_allclose(rows.numpy(), expected[1:], rtol=1e-6)


def test_a_returned_input_or_view_of_one_is_the_callers_tensor_on_every_call() -> None:
    """Without jit, a function returning its argument returns the caller's tensor, and a view of it is a view of the
    caller's tensor: writes through either reach the other. Replays keep that (not a new tensor over the storage)."""
    for shape, view in (((16,), lambda t: t[1:5]), ((4, 4), lambda t: t[1]), ((4, 4), lambda t: t.T)):
        f = lazyarr.jit(lambda t, view=view: ((t * 2).sum(), t, view(t)))
        for k in range(4):
            x = arr(*shape) + k
            a = Tensor(x.copy())
            s, same, v = f(a)
            np.testing.assert_allclose(s.numpy(), (x * 2).sum(), rtol=1e-5)
            assert same is a
            np.testing.assert_allclose(v.numpy(), view(x), rtol=1e-6)
            v += 100  # a write through the returned view reaches the caller's tensor...
            want = x.copy()
            view(want)[...] += 100
            np.testing.assert_allclose(a.numpy(), want, rtol=1e-6)
            a += 1  # ...and a write to the caller's tensor reaches the returned view
            np.testing.assert_allclose(v.numpy(), view(want + 1), rtol=1e-6)
    g = lazyarr.jit(lambda t: (t + 1, t))  # an input that is a view of a bigger array: copied for the call
    base = arr(8, 4)
    for _ in range(3):
        b = Tensor(base.copy())
        col = b[:, 1]
        out, same = g(col)
        np.testing.assert_allclose(out.numpy(), base[:, 1] + 1, rtol=1e-6)
        assert same is col
        same[0] = -5
        assert b.numpy()[0, 1] == -5


def test_returned_arrays_over_an_inputs_storage_that_view_no_input_are_not_the_callers_tensor() -> None:
    """Only the input, or a view of it, is the caller's tensor (or that view of it). A computed value the schedule
    leaves on the input's storage (x * 1 is x) and a view of a pad of the input (a pad is a new array, np.pad) are
    arrays of their own, as without jit: writes to the caller's tensor do not reach them, nor theirs the caller's."""
    for body in (lambda t: ((t * 2).sum(), t * 1), lambda t: ((t * 2).sum(), t.reshape(16) * 1)):
        f = lazyarr.jit(body)
        for _ in range(4):  # eager, capture, replays
            x = arr(4, 4)
            a = Tensor(x.copy())
            _, y = f(a)
            assert y is not a
            a += 1
            np.testing.assert_array_equal(y.numpy(), body(Tensor(x))[1].numpy())
            y[0] = 7
            np.testing.assert_array_equal(a.numpy(), x + 1)
    cases = [(lambda t: t.pad(((1, 1), (0, 0)))[1:], lambda x: np.pad(x, ((1, 1), (0, 0)))[1:]),
             (lambda t: t.pad(((1, 0), (0, 1))).T, lambda x: np.pad(x, ((1, 0), (0, 1))).T)]
    for view, ref in cases:
        f = lazyarr.jit(lambda t, view=view: ((t * 2).sum(), view(t)))
        for _ in range(4):  # eager, capture, replays
            x = arr(2, 4)
            a = Tensor(x.copy())
            _, p = f(a)
            p[0:1] += 100  # a write through a view of the returned pad...
            want = ref(x)
            want[0:1] += 100
            np.testing.assert_allclose(p.numpy(), want, rtol=1e-6)  # ...reaches the pad...
            np.testing.assert_array_equal(a.numpy(), x)  # ...and not the caller's tensor
            a += 1  # nor does a write to the caller's tensor reach the pad
            np.testing.assert_allclose(p.numpy(), want, rtol=1e-6)


def test_returned_state_tensors_are_the_state_itself_as_without_jit() -> None:
    """A jitted body that returns state it reads through a closure (a weight, a view of it, state it updates in place)
    returns that tensor, or a view of it in its in-place group, on replays too: writes through the results reach the
    state, as without jit."""

    def run(jit: bool) -> list[np.ndarray]:
        w = Tensor(np.array([1.0, -1.0, 0.0, 0.0], np.float32))
        acc = Tensor(np.zeros(4, np.float32))

        def body(x: Tensor) -> tuple[Tensor, ...]:
            acc.assign(acc + x)
            return x + w, w, w[1:], acc

        f = lazyarr.jit(body) if jit else body
        seen = []
        for k in range(5):
            s, same, tail, total = f(Tensor(np.full(4, k, np.float32)))
            if jit and k >= 2:
                assert same is w and total is acc
            same *= 2
            tail += 1
            seen += [s.numpy(), w.numpy().copy(), tail.numpy(), total.numpy()]
        return seen

    for got, want in zip(run(True), run(False)):
        np.testing.assert_array_equal(got, want)


def test_returned_tensors_the_body_makes_over_state_are_new_objects_on_every_replay() -> None:
    """A tensor the body makes over state's storage (a view w[1:], a pad w.pad(...) that is still a view of w's
    storage, w * 1 left on it) is a new tensor on every call without jit: a replay must not return the capture's
    object again, or a write through one call's result reaches another call's result (a pad and w * 1 are arrays of
    their own)."""
    rets = {"slice": lambda w: w[1:], "pad": lambda w: w.pad(((1, 1),)), "times one": lambda w: w * 1,
            "transpose": lambda w: w.reshape(2, 2).T}

    def run(jit: bool, ret: Any) -> list[np.ndarray]:
        w = Tensor(np.arange(4, dtype=np.float32))

        def body(x: Tensor) -> tuple[Tensor, Tensor]:
            return x + w, ret(w)

        f = lazyarr.jit(body) if jit else body
        results = [f(Tensor(np.full(4, k, np.float32)))[1] for k in range(4)]
        assert results[2] is not results[1] and results[3] is not results[2]
        results[2] += 10
        return [r.numpy() for r in results] + [w.numpy()]

    for name, ret in rets.items():
        for got, want in zip(run(True, ret), run(False, ret)):
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_replay_of_small_matmuls_caps_blas_threads_and_restores_them() -> None:
    import threadpoolctl
    f = lazyarr.jit(lambda a, b: (a @ b).relu())
    a, b = arr(8, 4), arr(4, 6)
    f(Tensor(a), Tensor(b))  # the first matmul loads SciPy's BLAS (Numba calls BLAS through it)
    before = [(i["filepath"], i["num_threads"]) for i in threadpoolctl.threadpool_info()]
    for _ in range(3):  # a capture, then replays
        np.testing.assert_allclose(f(Tensor(a), Tensor(b)).numpy(), np.maximum(a @ b, 0), rtol=1e-5, atol=1e-6)
    program = next(iter(f.captures.values()))
    assert program.small_gemms == bool(program.gemm_kernels)  # a matmul kernel calls BLAS (with SciPy)
    assert [(i["filepath"], i["num_threads"]) for i in threadpoolctl.threadpool_info()] == before
    if not program.gemm_kernels:
        return
    # SMALL_BLAS_THREADS is read at each replay, as eager realisation reads it, not frozen at capture
    def blas_counts() -> list[int]:
        return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]

    seen: list[list[int]] = []
    run_driver = program._run_driver
    program._run_driver = lambda arrays: (seen.append(blas_counts()), run_driver(arrays))
    for cap, want in ((1, [min(n, 1) for n in blas_counts()]), (0, blas_counts())):
        seen.clear()
        with lazyarr.Context(SMALL_BLAS_THREADS=cap):
            np.testing.assert_allclose(f(Tensor(a), Tensor(b)).numpy(), np.maximum(a @ b, 0), rtol=1e-5, atol=1e-6)
        assert seen == [want]
    with lazyarr.Context(SMALL_BLAS_THREADS=-1), pytest.raises(ValueError, match="SMALL_BLAS_THREADS"):
        f(Tensor(a), Tensor(b))
    assert [(i["filepath"], i["num_threads"]) for i in threadpoolctl.threadpool_info()] == before


def test_intermediates_nothing_else_holds_stop_costing_a_step_per_replay() -> None:
    held: list[Tensor] = []

    def body(t: Tensor, keep: bool) -> Tensor:
        a = (t * 2).realize()
        b = (a + 1).realize()
        if keep:
            held.append(b)  # an intermediate that outlives the capture: its version must still change per replay
        return b.exp()

    x = arr(16)
    for keep in (False, True):
        f = lazyarr.jit(lambda t, keep=keep: body(t, keep))
        for k in range(6):
            np.testing.assert_allclose(f(Tensor(x + k)).numpy(), np.exp((x + k) * 2 + 1), rtol=1e-6)
        program = next(iter(f.captures.values()))
        if not keep:  # the two intermediates were dropped, and the one-kernel-style fast path applies
            assert program.written_bufs == [] and program.replay.__name__ == "_replay_single"
        else:
            buf = held[-1].uop.arg
            assert [b is buf for b in program.written_bufs].count(True) == 1
            before = buf.version
            f(Tensor(x))
            assert buf.version == before + 1
            np.testing.assert_allclose(held[-1].numpy(), x * 2 + 1, rtol=1e-6)  # the latest replay's value


def test_one_jitted_function_called_from_several_threads() -> None:
    # a program's pointer table and output pool are shared: concurrent replays must take turns, or one thread's
    # inputs and output storage leak into another's call
    f = lazyarr.jit(lambda x: (x * 2 + 1).exp().log())
    errors: list[tuple[float, float]] = []

    def worker(k: int) -> None:
        for i in range(150):
            x = np.full(4096, k + i / 1000, np.float32)
            got = f(Tensor(x)).numpy()
            if not np.allclose(got, x * 2 + 1, rtol=1e-5):
                errors.append((float(got[0]), float(x[0] * 2 + 1)))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, in the middle of a replay
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []


def test_backward_through_a_replayed_result_raises() -> None:
    # a replay runs kernels, not graphs: its result has no autograd graph, so a backward through it must say so
    # (it used to raise "does not require grad", and the same code without jit computes the gradient)
    w = Tensor(np.ones(3, np.float32), requires_grad=True)
    f = lazyarr.jit(lambda x: (x * w).sum())
    for i in range(4):
        x = arr(3) + i
        loss = f(Tensor(x))
        np.testing.assert_allclose(loss.numpy(), x.sum(), rtol=1e-6)
        assert loss.requires_grad
        w.grad = None
        if i < 2:  # run by the Python body: a graph
            loss.backward()
            np.testing.assert_allclose(w.grad.numpy(), x, rtol=1e-6)
        else:
            with pytest.raises(JitError, match="no autograd graph"):
                (loss * 2).backward()
    with lazyarr.no_grad():
        assert not f(Tensor(arr(3))).requires_grad


def test_inputs_that_require_grad_run_eagerly() -> None:
    # a replay cannot set an input's .grad (Python state the body makes): such signatures run eagerly, with a warning
    def f(x: Tensor) -> Tensor:
        loss = (x * x).sum()
        loss.backward()
        return loss

    jf = lazyarr.jit(f)
    with pytest.warns(JitWarning, match="requires grad"):
        for i in range(5):
            x = arr(3) + i
            t = Tensor(x, requires_grad=True)
            np.testing.assert_allclose(jf(t).numpy(), (x * x).sum(), rtol=1e-6)
            np.testing.assert_allclose(t.grad.numpy(), 2 * x, rtol=1e-6)
    assert len(jf.captures) == 0
    w = Tensor(np.ones(3, np.float32), requires_grad=True)  # a parameter passed as the input: updated every call
    opt = lazyarr.optim.SGD([w], lr=0.1)

    @lazyarr.jit
    def step(p: Tensor) -> Tensor:
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        opt.step()
        return loss

    with pytest.warns(JitWarning, match="requires grad"):
        for _ in range(5):
            step(w)
    np.testing.assert_allclose(w.numpy(), np.full(3, 0.8**5, np.float32), rtol=1e-5)


def test_view_inputs_see_the_view_semantics_of_the_tensor_passed() -> None:
    # a view input runs as a contiguous copy that stands in for it: a movement of the copy must be a view or a copy
    # as that movement of the caller's tensor is (a reshape merging a transpose's axes is a copy: writing to it must
    # not reach the caller's base, as it did through the copy's write-back), and writes to the input itself, or to
    # a true view of it, still reach the base
    def through_reshape(x: Tensor) -> Tensor:
        y = x.reshape(-1)
        y += 1
        return y * 2

    def own_and_view(x: Tensor) -> Tensor:
        x += 1
        x.T[0] += 10
        return x * 1

    def flat_of_rows(x: Tensor) -> Tensor:
        y = x.reshape(-1)  # rows of a C-ordered array: a view either way
        y[1:3] = 7
        return x + 0

    views = {"transpose": lambda b: b.T, "columns": lambda b: b[:, 1:], "rows": lambda b: b[1:],
             "step": lambda b: b[:, ::2]}
    for body in (through_reshape, own_and_view, flat_of_rows):
        for name, view in views.items():
            results = {}
            for jit in (False, True):
                f = lazyarr.jit(body) if jit else body
                got = []
                for k in range(4):  # eager, capture, replays
                    base = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) * (k + 1))
                    x = view(base)
                    out = f(x)
                    got.append((out.numpy(), x.numpy(), base.numpy()))
                results[jit] = got
            for (a, b) in zip(results[False], results[True]):
                for u, v in zip(a, b):
                    np.testing.assert_array_equal(v, u, err_msg=f"{body.__name__} {name}")


def _jit_matches_eager(body: Any, make: Any, calls: int = 5) -> None:
    """`lazyarr.jit(body)` gives what `body` gives (results, and the contents of every tensor `make(k)` lists to
    observe after the call) on the eager call, the capture and replays, with fresh inputs each call."""
    results = {}
    for jit in (False, True):
        f = lazyarr.jit(body) if jit else body
        got = []
        for k in range(calls):
            args, observed = make(k)
            out = f(*args)
            got.append([t.numpy() for t in (out if isinstance(out, tuple) else (out,))] + [t.numpy() for t in observed])
        results[jit] = got
    for k, (want, have) in enumerate(zip(results[False], results[True])):
        for i, (w, h) in enumerate(zip(want, have)):
            np.testing.assert_array_equal(h, w, err_msg=f"{body.__name__}: call {k}, value {i}")


def test_a_view_of_a_padded_input_is_a_view_of_it() -> None:
    # a pad is a new array; its detach is a view of that array: writing it changes the padded input, and a replay
    # returns it written (it returned the input's old values: the view joined no group, so missed the write-back)
    def add_through_detach(x: Tensor) -> Tensor:
        y = x.detach()
        y += 1
        return y

    def make(k: int) -> tuple[tuple[Tensor], list[Tensor]]:
        base = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) * (k + 1))
        x = base.pad(((1, 0), (0, 1)))
        return (x,), [x, base]

    _jit_matches_eager(add_through_detach, make)


def test_contiguous_of_a_view_input_is_a_copy_as_without_jit() -> None:
    # a view input runs as a contiguous copy standing in for it; contiguous() of the caller's transposed (or sliced,
    # or padded) tensor is a copy, so writing it must not reach the input nor its base (the stand-in is C-ordered,
    # so contiguous() aliased it, and the write-back carried the write to the caller); a C-ordered view's alias
    # (a row) still reaches them
    def add_to_contiguous(x: Tensor) -> Tensor:
        y = x.contiguous()
        y += 1
        return y

    def add_to_a_row(x: Tensor) -> Tensor:
        y = x[0].contiguous()
        y += 1
        return y

    views = {"transpose": lambda b: b.T, "columns": lambda b: b[:, 1:], "step": lambda b: b[:, ::2],
             "flip": lambda b: b.flip(0), "pad": lambda b: b.pad(((1, 0), (0, 1))),
             "expand": lambda b: b[:1].expand(3, 4)}
    for body in (add_to_contiguous, add_to_a_row):
        for name, view in views.items():
            if body is add_to_a_row and name == "expand":
                continue  # a write to a broadcast input: test_inputs_that_overlap_in_storage_and_are_written_...
            def make(k: int, view: Any = view) -> tuple[tuple[Tensor], list[Tensor]]:
                base = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) * (k + 1))
                x = view(base)
                return (x,), [x, base]

            _jit_matches_eager(body, make)


def test_inputs_that_overlap_in_storage_and_are_written_run_as_without_jit() -> None:
    # each view input runs as a copy of its own: with two inputs viewing one array (or a broadcast input, whose
    # elements share storage), a write through one did not reach the other, and the write-backs undid each other.
    # A body that writes such inputs runs eagerly then (JitWarning); one that only reads them is still replayed
    def add_to_both(x: Tensor, y: Tensor) -> Tensor:
        x += 1
        y += 1
        return x.sum() + y.sum()

    def write_then_read(x: Tensor, y: Tensor) -> Tensor:
        x[0] = 100
        return y + 0

    def row(x: Tensor, y: Tensor) -> Tensor:
        r = x[0]  # a row of a broadcast input is writable (x[0] += 1 would also set x[0]: read-only)
        r += 1
        return y * 1

    pairs = {"transpose and base": lambda b, c: (b.T, b), "overlapping columns": lambda b, c: (b[:, 1:], b[:, :-1]),
             "same view twice": lambda b, c: (b[1:], b[1:]), "broadcast": lambda b, c: (b[:1].expand(3, 4), c)}
    for body in (add_to_both, write_then_read, row):
        for name, pair in pairs.items():
            if body is not row and name == "broadcast":
                continue  # the broadcast input is written itself: read-only, eager raises too

            def make(k: int, pair: Any = pair) -> tuple[tuple[Tensor, Tensor], list[Tensor]]:
                base = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) * (k + 1))
                other = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - k)
                x, y = pair(base, other)
                return (x, y), [x, y, base, other]

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", JitWarning)
                _jit_matches_eager(body, make)
    # disjoint views of one array, and overlapping ones only read, are still captured and replayed
    calls = []

    def product(x: Tensor, y: Tensor) -> Tensor:
        calls.append(1)
        return x @ y

    def bump_rows(x: Tensor, y: Tensor) -> Tensor:
        calls.append(1)
        x += 1
        y *= 2
        return x * 1

    for f, pair in ((product, lambda b: (b, b.T)), (bump_rows, lambda b: (b[0], b[1]))):
        jitted = lazyarr.jit(f)
        calls.clear()
        for k in range(4):
            a = np.arange(9, dtype=np.float32).reshape(3, 3) + k
            base = Tensor(a)
            with warnings.catch_warnings():
                warnings.simplefilter("error", JitWarning)
                out = jitted(*pair(base))
            if f is product:
                np.testing.assert_array_equal(out.numpy(), a @ a.T)
            else:
                np.testing.assert_array_equal(base.numpy(), np.stack([a[0] + 1, a[1] * 2, a[2]]))
        assert len(calls) == 2, f.__name__  # the eager call and the capture; then replays


@pytest.mark.parametrize("snapshot", [lambda w: w * 1, lambda w: w + 0, lambda w: (w * 1)[1:]])
def test_an_alias_of_state_keeps_its_value_across_replays(snapshot: Any) -> None:
    # w * 1 is left on w's storage, an array of its own: a later write to w must not reach it (copy-on-write without
    # jit). A capture recorded that copy and every replay reran it over the snapshot; replays wrote w under it
    w = Tensor(np.zeros(4, np.float32))

    @lazyarr.jit
    def step(x: Tensor) -> Tensor:
        w.assign(w + x)
        return x * 2

    held, expected = [], []
    for i in range(6):
        step(Tensor(np.full(4, i + 1, np.float32)))
        held.append(snapshot(w).realize())
        expected.append(snapshot(w.numpy().copy()))
    for h, e in zip(held, expected):
        np.testing.assert_array_equal(h.numpy(), e)
    np.testing.assert_array_equal(w.numpy(), np.full(4, 21, np.float32))


def test_a_returned_alias_of_state_is_not_overwritten_by_later_replays() -> None:
    w = Tensor(np.zeros(3, np.float32))

    @lazyarr.jit
    def step(x: Tensor) -> tuple[Tensor, Tensor]:
        w.assign(w + x)
        return w * 1, w + 0.5

    held, acc = [], np.zeros(3, np.float32)
    for i in range(6):
        acc = acc + (i + 1)
        held.append((step(Tensor(np.full(3, i + 1, np.float32))), acc.copy()))
    for (same, shifted), e in held:
        np.testing.assert_array_equal(same.numpy(), e)
        np.testing.assert_array_equal(shifted.numpy(), e + 0.5)


@pytest.mark.parametrize("view", [False, True], ids=["whole", "view"])
def test_an_input_that_is_an_alias_is_written_and_not_the_storage_under_it(view: bool) -> None:
    # a = w * 1 reads w's storage without owning it: the body's write to a gives a a value of its own (without jit),
    # never writes w; replays wrote w's storage (and, for a while, left a with the old value)
    @lazyarr.jit
    def bump(x: Tensor) -> Tensor:
        x += 1
        return x * 2

    for _ in range(5):
        w = Tensor(np.full((2, 3), 10, np.float32))
        a = (w * 1).realize()
        out = bump(a[:, 1:] if view else a)
        want = np.full((2, 3), 10, np.float32)
        if view:
            want[:, 1:] += 1
        else:
            want += 1
        np.testing.assert_array_equal(a.numpy(), want)
        np.testing.assert_array_equal(out.numpy(), want[:, 1:] * 2 if view else want * 2)
        np.testing.assert_array_equal(w.numpy(), np.full((2, 3), 10, np.float32))


def test_an_alias_of_an_input_the_body_writes_keeps_its_value() -> None:
    @lazyarr.jit
    def bump(x: Tensor) -> Tensor:
        x += 1
        return x * 2

    for i in range(5):
        w = Tensor(np.full(3, i, np.float32))
        a = (w * 1).realize()
        out = bump(w)
        np.testing.assert_array_equal(w.numpy(), np.full(3, i + 1, np.float32))
        np.testing.assert_array_equal(out.numpy(), np.full(3, 2 * (i + 1), np.float32))
        np.testing.assert_array_equal(a.numpy(), np.full(3, i, np.float32))


_CONSTANT_INDEX_WRITES = {
    "array": lambda t, x: t.__setitem__(np.array([0, 2]), x[:2]),
    "list-iadd": lambda t, x: t.__setitem__([0, 2], t[[0, 2]] + x[:2]),
    "repeated": lambda t, x: t.__setitem__([1, 3, 1], x[:3]),  # the last write wins
    "negative": lambda t, x: t.__setitem__(np.array([-1, 0]), x[:2]),
    "mask": lambda t, x: t.__setitem__(np.array([True, False, True, False]), x[:2]),
    "rows": lambda t, x: t.reshape(2, 2).__setitem__(([1, 0], [0, 1]), x[:2]),
    "int-and-array": lambda t, x: t.reshape(2, 2).__setitem__((1, [1, 0]), x[:2]),
    "gather": lambda t, x: t.__setitem__(slice(None), t[np.array([3, 2, 2, 0])] * x[:4]),
}


@pytest.mark.parametrize("write", list(_CONSTANT_INDEX_WRITES), ids=list(_CONSTANT_INDEX_WRITES))
def test_scatter_with_constant_indices_replays(write: str) -> None:
    # a scatter by a NumPy array or list read its index back from a tensor (to check it and let the last write win),
    # a JitError while capturing; constant indices are now checked and resolved on the host
    fn = _CONSTANT_INDEX_WRITES[write]

    def body(t, x):  # type: ignore[no-untyped-def]
        t = t * 1
        fn(t, x)
        return t * 2

    jitted = lazyarr.jit(body)
    r = np.random.default_rng(8)
    for _ in range(5):
        t, x = r.standard_normal(4), r.standard_normal(4)
        want = body(t.copy(), x)
        np.testing.assert_array_equal(jitted(Tensor(t), Tensor(x)).numpy(), want)


def test_scatter_into_state_with_constant_indices_replays() -> None:
    state = Tensor(np.zeros(5))
    want = np.zeros(5)

    @lazyarr.jit
    def step(x: Tensor) -> Tensor:
        state[[0, 2]] += x
        state[np.array([4])] = x.sum()
        return state * 1

    r = np.random.default_rng(9)
    for _ in range(5):
        x = r.standard_normal(2)
        want[[0, 2]] += x
        want[4] = x.sum()
        np.testing.assert_allclose(step(Tensor(x)).numpy(), want)
        np.testing.assert_allclose(state.numpy(), want)


def test_constant_index_out_of_range_in_capture_raises_index_error() -> None:
    @lazyarr.jit
    def f(t: Tensor) -> Tensor:
        t = t * 1
        t[np.array([0, 7])] = 1.0
        return t

    for _ in range(3):  # every call, the capturing one too, checks the constant index on the host
        with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
            f(Tensor(np.zeros(4)))


def test_scatter_by_tensor_index_in_capture_says_what_to_do() -> None:
    @lazyarr.jit
    def f(t: Tensor, i: Tensor) -> Tensor:
        t = t * 1
        t[i] = 1.0
        return t

    np.testing.assert_array_equal(f(Tensor(np.zeros(3)), Tensor(np.array([2]))).numpy(), [0, 0, 1])
    with pytest.raises(JitError, match="Pass the index as a NumPy array or list"):
        f(Tensor(np.zeros(3)), Tensor(np.array([2])))


_COMPUTED_INDEX_READS = {
    "getitem": (lambda x, i: x[i * 3], lambda x, i: x[i * 3]),
    "take": (lambda x, i: np.take(x, i * 3), lambda x, i: np.take(x, i * 3)),
    "column": (lambda x, i: x.reshape(2, 2)[:, i - 1], lambda x, i: x.reshape(2, 2)[:, i - 1]),
}


@pytest.mark.parametrize("read", list(_COMPUTED_INDEX_READS), ids=list(_COMPUTED_INDEX_READS))
def test_computed_index_out_of_range_in_jit_raises_index_error(read: str) -> None:
    # a Tensor index computed inside a capture was clamped into range, silently: x[[3, 6]] of 4 elements gave x[[3, 3]]
    # on every replay. The kernels still clamp (no read outside the buffer), and jit raises NumPy's IndexError after a
    # capture or replay whose index was out of range; in-range calls before and after keep replaying
    lz, ref = _COMPUTED_INDEX_READS[read]
    f = lazyarr.jit(lz)
    x = np.arange(4.0)
    for k in [0, 1, 2, 1, 2, 0, -2, 1]:  # call 2 (the capture) is out of range too
        i = np.array([1, k])
        try:
            want = ref(x, i)
        except IndexError as e:
            with pytest.raises(IndexError, match=re.escape(str(e))):
                f(Tensor(x), Tensor(i))
        else:
            np.testing.assert_array_equal(f(Tensor(x), Tensor(i)).numpy(), want)


def test_class_targets_out_of_range_in_jit_raise_index_error() -> None:
    torch = pytest.importorskip("torch")
    nn = pytest.importorskip("lazyarr.nn")
    emb = nn.Embedding(4, 2)
    logits = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)

    @lazyarr.jit
    def f(i: Tensor) -> Tensor:
        return nn.functional.cross_entropy(Tensor(logits), i * 2) + emb(i).sum()

    for k in [0, 1, 2, 1, 2, 0]:
        i = np.array([1, k])
        try:
            want = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(i * 2)).item()
        except IndexError:
            with pytest.raises(IndexError, match="Target 4 is out of bounds for 3 classes"):
                f(Tensor(i))
        else:
            got = f(Tensor(i)).numpy() - emb(Tensor(i)).sum().numpy()
            np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("op", ["cross_entropy", "one_hot"])
def test_computed_class_targets_out_of_range_raise_index_error(op: str) -> None:
    # class targets were range-checked only when they were stored data: a computed target out of range gave a loss
    # (or a row of zeros) instead of PyTorch's error
    torch = pytest.importorskip("torch")
    t = Tensor(np.array([1, 2])) * 2
    with pytest.raises((IndexError, RuntimeError)):  # torch's one_hot raises RuntimeError
        torch.nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([2, 4])) if op == "cross_entropy" else \
            torch.nn.functional.one_hot(torch.tensor([2, 4]), 4)
    with pytest.raises(IndexError, match="4 is out of bounds"):
        if op == "cross_entropy":
            lazyarr.nn.functional.cross_entropy(Tensor(np.zeros((2, 3), np.float32)), t).numpy()
        else:
            t.one_hot(4).numpy()
