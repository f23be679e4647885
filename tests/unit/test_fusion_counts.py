"""Kernel-count tests that pin fusion behaviour, and the schedule cache."""

import numpy as np

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(1)


def arrays(n: int, shape: tuple[int, ...] = (64,)) -> list[np.ndarray]:
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]


def test_elementwise_then_reduce_is_one_kernel() -> None:
    a, b, c, d = arrays(4)
    with kernel_count(1):
        out = ((Tensor(a) * Tensor(b) + Tensor(c)).exp() * 2 - Tensor(d)).sum().realize()
    assert_matches(out, (np.exp(a * b + c) * 2 - d).sum(), rtol=1e-5)


def test_twenty_op_chain_is_one_kernel_fused_and_twenty_unfused() -> None:
    (a,) = arrays(1)
    def chain(x):  # noqa: ANN001, ANN202
        for k in range(10):
            x = x * 0.5 + (k + 1)
        return x
    ref = chain(a)
    with kernel_count(1):
        fused = chain(Tensor(a)).realize()
    with lazyarr.Context(FUSE=0), kernel_count(20):
        unfused = chain(Tensor(a)).realize()
    assert_matches(fused, ref)
    np.testing.assert_array_equal(fused.numpy(), unfused.numpy())  # identical numerics


def test_views_of_realised_tensors_launch_nothing() -> None:
    t = Tensor(np.arange(24, dtype=np.float32)).realize()
    with kernel_count(0):
        v = t.reshape(2, 3, 4).permute(2, 0, 1)[1:, ::2].flip(0).realize()
        values = v.numpy()
    ref = np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(2, 0, 1)[1:, ::2][::-1]
    np.testing.assert_array_equal(values, ref)


def test_broadcast_after_reduce_and_softmax_are_one_kernel() -> None:
    (x,) = arrays(1, (8, 33))
    t = Tensor(x)
    with kernel_count(1):
        centred = (t - t.max(axis=1, keepdims=True)).realize()
    assert_matches(centred, x - x.max(axis=1, keepdims=True))
    with kernel_count(1):
        sm = t.softmax(1).realize()
    e = np.exp(x - x.max(1, keepdims=True))
    assert_matches(sm, e / e.sum(1, keepdims=True), rtol=1e-5)
    with kernel_count(1):
        t.log_softmax(1).realize()


def test_reduction_with_several_users_is_stored_once() -> None:
    (x,) = arrays(1, (16, 8))
    t = Tensor(x)
    m = t.sum(1)
    with kernel_count(2):  # the sum is stored once, then one kernel computes both consumers from it
        a, b = m * 2, m + 1
        a.realize(b)
    assert_matches(a, x.sum(1) * 2, rtol=1e-5)
    assert_matches(b, x.sum(1) + 1, rtol=1e-5)


def test_value_with_broadcast_inputs_is_recomputed_not_stored() -> None:
    # y = x * w + b - max reads one full-size array (x) and broadcast ones (w, b, the stored row max): reading them
    # again in each of its users costs less than storing y, so each row sum computes y itself: three kernels (the
    # max, then one per sum), not four (y stored as well)
    x, w, b = arrays(1, (32, 16))[0], *arrays(2, (16,))
    t = Tensor(x)
    with kernel_count(3):
        z = t * Tensor(w) + Tensor(b)
        y = z - z.max(1, keepdims=True)
        s1, s2 = y.sum(1), (y * y).sum(1)
        s1.realize(s2)
    ref = x * w + b - (x * w + b).max(1, keepdims=True)
    assert_matches(s1, ref.sum(1), rtol=1e-5, atol=1e-5)
    assert_matches(s2, (ref * ref).sum(1), rtol=1e-5)


def test_value_reading_many_full_size_inputs_is_stored_for_several_users() -> None:
    a, b, c, d = arrays(4, (32, 16))
    with kernel_count(3):  # a*b + c*d (4 full-size inputs) is stored once, then read by both reductions
        z = Tensor(a) * Tensor(b) + Tensor(c) * Tensor(d)
        s1, s2 = z.sum(1), z.max(1)
        s1.realize(s2)
    assert_matches(s1, (a * b + c * d).sum(1), rtol=1e-5, atol=1e-5)
    assert_matches(s2, (a * b + c * d).max(1))


def test_cross_entropy_backward_through_a_broadcast_affine_map_fuses() -> None:
    # logits z = x * w + b (w, b broadcast over the batch): the gradient wrt the logits, (softmax(z) - onehot) / n,
    # is recomputed inside the two column sums that give dw and db instead of being built from stored pieces
    (x,) = arrays(1, (64, 10))
    w0, b0 = arrays(2, (10,))
    labels = rng.integers(0, 10, 64)
    w, b = Tensor(w0, requires_grad=True), Tensor(b0, requires_grad=True)
    with kernel_count(8):  # 14 before the recompute rule weighed kernels and per-element work, 9 before the
        # targets of the mean were counted without a pass over the classes
        loss = lazyarr.nn.functional.cross_entropy(Tensor(x) * w + b, Tensor(labels))
        loss.backward()
        loss.realize(w.grad, b.grad)
    z = (x * w0 + b0).astype(np.float64)
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    dz = (p - np.eye(10)[labels]) / 64
    assert_matches(loss, -np.log(p[np.arange(64), labels]).mean(), rtol=1e-5, check_dtype=False)
    assert_matches(w.grad, (x * dz).sum(0), rtol=1e-4, atol=1e-6, check_dtype=False)
    assert_matches(b.grad, dz.sum(0), rtol=1e-4, atol=1e-6, check_dtype=False)


def test_gradient_of_a_composed_ufunc_is_one_kernel() -> None:
    # arctan2's polynomial and its branches are used many times by its gradient, but every use is in the one kernel
    # computing the gradient, so nothing is stored in between (before: 36 kernels)
    x0 = np.linspace(-3, 3, 50)
    y0 = np.cos(x0 * 1.7)
    x, y = Tensor(x0, requires_grad=True), Tensor(y0, requires_grad=True)
    np.arctan2(y, x).sum().backward()
    with kernel_count(1):
        x.grad.realize(y.grad)
    r2 = x0 * x0 + y0 * y0
    assert_matches(x.grad, -y0 / r2, rtol=1e-12, atol=1e-15)
    assert_matches(y.grad, x0 / r2, rtol=1e-12, atol=1e-15)


def test_numpy_call_and_put_prices_are_one_kernel() -> None:
    # both outputs need the same two normal CDFs (over 24 ops each): one kernel stores call and put together and
    # computes each CDF once, instead of storing the CDFs first
    s0, k0 = np.linspace(5, 30, 40), np.linspace(30, 5, 40)
    def cdf(d):  # noqa: ANN001, ANN202  (Abramowitz and Stegun 26.2.17)
        k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
        poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
        tail = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
        return np.where(d > 0, 1.0 - tail, tail)
    def prices(s, k):  # noqa: ANN001, ANN202
        d1 = np.log(s / k) + 0.5
        d2 = d1 - 0.3
        return s * cdf(d1) - k * cdf(d2), k * (1 - cdf(d2)) - s * (1 - cdf(d1))
    with kernel_count(1):
        call, put = prices(Tensor(s0), Tensor(k0))
        call.realize(put)
    ref_call, ref_put = prices(s0, k0)
    assert_matches(call, ref_call, rtol=1e-12, atol=1e-12)
    assert_matches(put, ref_put, rtol=1e-12, atol=1e-12)


def test_square_by_python_two_is_a_product() -> None:
    x0 = np.array([1.5, -3.0, 1e200, 1e-200, np.nan, -np.inf, -0.0, 0.1])
    with np.errstate(over="ignore", under="ignore"):
        ref = x0 * x0
    for got in (Tensor(x0) ** 2, Tensor(x0) ** 2.0, np.power(Tensor(x0), 2)):
        np.testing.assert_array_equal(got.numpy(), ref)  # exactly rounded, as NumPy's own ** 2
    i0 = np.array([-7, 3, 46341, 2**31 - 1], np.int32)
    np.testing.assert_array_equal((Tensor(i0) ** 2).numpy(), i0 * i0)  # wraps like NumPy


def test_two_layer_mlp_gradients_kernel_count() -> None:
    # forward, loss and the three gradients of relu(x @ w1 + b1) @ w2 under a mean squared error: 9 kernels (11 when
    # the pieces of the loss gradient were stored); values against NumPy's hand-written backward pass
    x0, t0 = rng.standard_normal((16, 8)), rng.standard_normal((16, 4))
    w10, b10, w20 = rng.standard_normal((8, 12)), rng.standard_normal(12), rng.standard_normal((12, 4))
    w1, b1, w2 = (Tensor(a.astype(np.float32), requires_grad=True) for a in (w10, b10, w20))
    with kernel_count(9):
        loss = (((Tensor(x0.astype(np.float32)) @ w1 + b1).relu() @ w2 - Tensor(t0.astype(np.float32))) ** 2).mean()
        loss.backward()
        loss.realize(w1.grad, b1.grad, w2.grad)
    pre = x0 @ w10 + b10
    h = np.maximum(pre, 0)
    dy = 2 * (h @ w20 - t0) / t0.size
    dpre = (dy @ w20.T) * (pre > 0)
    assert_matches(loss, ((h @ w20 - t0) ** 2).mean(), rtol=1e-5, check_dtype=False)
    assert_matches(w2.grad, h.T @ dy, rtol=1e-4, atol=1e-6, check_dtype=False)
    assert_matches(w1.grad, x0.T @ dpre, rtol=1e-4, atol=1e-6, check_dtype=False)
    assert_matches(b1.grad, dpre.sum(0), rtol=1e-4, atol=1e-6, check_dtype=False)


def test_value_with_many_readers_is_stored_when_recomputing_repeats_much_work() -> None:
    # three tanh layers over one full-size input and broadcast weights (9 ops, about 1 full-size read): cheap to
    # recompute for two kernels, but six reductions would run the chain six times: it is stored once (one kernel)
    # and each reduction reads it (six), not recomputed in each (six kernels, six times the tanh; 20 reductions of
    # five such layers over 1000x1000 took 275 ms instead of 15)
    (x,) = arrays(1, (32, 16))
    ws = arrays(6, (16,))
    def chain(z, ws):  # noqa: ANN001, ANN202
        for w, b in zip(ws[::2], ws[1::2]):
            z = np.tanh(z * w + b)
        return [(z * (k + 1)).sum(1) if k % 2 else (z - k).max(0) for k in range(6)]
    with kernel_count(7):
        outs = chain(Tensor(x), [Tensor(w) for w in ws])
        outs[0].realize(*outs[1:])
    for out, ref in zip(outs, chain(x.astype(np.float64), ws)):
        assert_matches(out, ref, rtol=1e-5, atol=1e-5, check_dtype=False)


def test_root_stored_under_another_roots_dependency_is_stored_once() -> None:
    # z and z / |z|.sum() are same-shape roots (one multi-output kernel), but z is stored first, as the input of the
    # |z| that the sum reads: storing it again in the joint kernel made two producers of z and a cycle in the order
    (x,) = arrays(1, (1, 7))
    w, b = arrays(2, (7,))
    (c,) = arrays(1, (1, 1))
    z = Tensor(x) * Tensor(w) + Tensor(b) - Tensor(c)
    y = z / np.abs(z).sum()
    outs = [z.sum(1), z.max(0), z, y.sum(1), y.max(0), y]
    outs[0].realize(*outs[1:])
    zr = x * w + b - c
    yr = zr / np.abs(zr).sum()
    for out, ref in zip(outs, [zr.sum(1), zr.max(0), zr, yr.sum(1), yr.max(0), yr]):
        assert_matches(out, ref, rtol=1e-5, atol=1e-6)


def test_matrix_product_read_by_two_outputs_is_computed_once() -> None:
    # relu(a @ w + b) and a select over a @ w: the product is stored by one kernel and both outputs come from a
    # second, not one product per output
    a0, w0 = rng.standard_normal((24, 8)).astype(np.float32), rng.standard_normal((8, 16)).astype(np.float32)
    b0, m0 = rng.standard_normal(16).astype(np.float32), rng.standard_normal((24, 16)) > 0
    with kernel_count(2):
        p = Tensor(a0) @ Tensor(w0)
        x, y = (p + Tensor(b0)).relu(), Tensor(m0).where(0.0, p)
        x.realize(y)
    ref = a0.astype(np.float64) @ w0
    assert_matches(x, np.maximum(ref + b0, 0), rtol=1e-5, atol=1e-5, check_dtype=False)
    assert_matches(y, np.where(m0, 0.0, ref), rtol=1e-5, atol=1e-5, check_dtype=False)


def test_schedule_cache_reuses_structure_on_new_data() -> None:
    (x,) = arrays(1, (5, 7))
    def program(t: Tensor) -> Tensor:
        return (t * 3 + 1).sum(0)
    program(Tensor(x)).realize()
    before = lazyarr.stats().schedules_created
    for _ in range(3):
        y = rng.standard_normal((5, 7)).astype(np.float32)
        assert_matches(program(Tensor(y)).realize(), (y * 3 + 1).sum(0), rtol=1e-5)
    assert lazyarr.stats().schedules_created == before


def test_long_repeating_chain_runs_as_alike_kernels_compiled_once() -> None:
    # a chain whose one kernel would take seconds to compile is cut into kernels of one structure (compiled once);
    # every x feeds two branches, so a cut must store x itself, or each kernel would compute the chain from the start
    (a,) = arrays(1, (300,))
    def chain(x, steps, f):  # noqa: ANN001, ANN202
        for _ in range(steps):
            x = 0.5 * x + 0.1 * f(x)
        return x
    for steps, f in ((60, lambda x: np.exp(-x)), (30, np.sin)):
        with lazyarr.Context(FUSE=0):
            unfused = chain(Tensor(a), steps, f).realize()
        before = lazyarr.stats()
        fused = chain(Tensor(a), steps, f).realize()
        after = lazyarr.stats()
        launched = after.kernels_launched - before.kernels_launched
        made = after.kernels_compiled - before.kernels_compiled + after.disk_cache_hits - before.disk_cache_hits
        assert 2 <= launched <= 6 and made <= 3, (launched, made)
        assert_matches(fused, chain(a.astype(np.float64), steps, f).astype(np.float32), rtol=1e-4, atol=1e-5)
        np.testing.assert_array_equal(fused.numpy(), unfused.numpy())  # cutting changes no bits


def test_ten_thousand_chained_adds_realise() -> None:
    # each kernel's path is bounded, so neither the scheduler's recursion nor the compile time grows with the chain
    y = Tensor(np.zeros(5, np.float32))
    for _ in range(10_000):
        y = y + 1
    with kernel_count() as box:
        out = y.numpy()
    np.testing.assert_array_equal(out, np.full(5, 10_000, np.float32))
    assert 2 <= box["kernels"] <= 30


def test_value_read_by_many_passes_of_a_kernel_is_stored() -> None:
    # y = y + y.sum(1) in a loop: fused into one kernel, each reduction's pass would compute every earlier y again
    # (n * n steps of code and work); a y read by several passes costing more than RECOMPUTE_MAX_OPS is stored
    (a,) = arrays(1, (8, 16))
    y, ref = Tensor(a), a.astype(np.float64)
    for _ in range(30):
        y = y + y.sum(1, keepdims=True) * 1e-2
        ref = ref + ref.sum(1, keepdims=True) * 1e-2
    before = lazyarr.stats()
    assert_matches(y.realize(), ref.astype(np.float32), rtol=1e-4, atol=1e-5)
    after = lazyarr.stats()
    assert after.kernels_compiled - before.kernels_compiled + after.disk_cache_hits - before.disk_cache_hits <= 3
    assert 10 <= after.kernels_launched - before.kernels_launched <= 30


def test_softmax_of_a_costly_value_stays_one_kernel() -> None:
    # a value read by the passes of one kernel is computed in each while that costs little: softmax(tanh(x) * 3)
    (a,) = arrays(1, (8, 16))
    with kernel_count(1):
        out = (Tensor(a).tanh() * 3).softmax(1).realize()
    e = np.exp(np.tanh(a) * 3 - (np.tanh(a) * 3).max(1, keepdims=True))
    assert_matches(out, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_value_read_through_several_views_is_stored_before_it_multiplies() -> None:
    # x = x[1:-1] + x[2:] + x[:-2] (a stencil) or x + roll(x) in a loop: each view computes x again at other
    # positions, so one kernel would compute the start at 3 ** n positions; a value read through several views is
    # stored once that costs more than RECOMPUTE_MAX_OPS (the repeating steps compile once)
    g = rng.standard_normal((40, 24)).astype(np.float32)
    programs = {
        "stencil": lambda x: x[1:-1] * 0.5 + (x[2:] + x[:-2]) * 0.25,
        "roll": lambda x: x * 0.8 + np.roll(x, 1, 0) * 0.2,
        "heat": lambda x: np.pad(x[1:-1, 1:-1] + 0.1 * (x[2:, 1:-1] + x[:-2, 1:-1] + x[1:-1, 2:] + x[1:-1, :-2]
                                                         - 4 * x[1:-1, 1:-1]), 1),
    }
    for name, step in programs.items():
        x, ref = Tensor(g), g.astype(np.float64)
        steps = 14 if name == "stencil" else 40
        for _ in range(steps):
            x, ref = step(x), step(ref)
        before = lazyarr.stats()
        assert_matches(x.realize(), ref.astype(np.float32), rtol=1e-4, atol=1e-5)
        after = lazyarr.stats()
        made = after.kernels_compiled - before.kernels_compiled + after.disk_cache_hits - before.disk_cache_hits
        assert 2 <= after.kernels_launched - before.kernels_launched <= steps + 2 and made <= 4, (name, made)
