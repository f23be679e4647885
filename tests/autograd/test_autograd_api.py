"""The PyTorch-style autograd API: requires_grad, backward, .grad accumulation, detach, no_grad, gradient(), errors."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor

rng = np.random.default_rng(0)
A = rng.standard_normal((2, 3))


def test_requires_grad_argument_property_and_propagation() -> None:
    x = Tensor(A, requires_grad=True)
    y = Tensor(A)
    assert x.requires_grad and not y.requires_grad
    assert (x * y).requires_grad and not (y * 2).requires_grad
    assert x.is_leaf and not (x * 2).is_leaf
    y.requires_grad = True
    assert y.requires_grad
    assert not x.detach().requires_grad
    assert x.requires_grad_(False) is x and not x.requires_grad


def test_grad_accumulates_and_zero_grad_style_reset() -> None:
    x = Tensor(A, requires_grad=True)
    (x * 2).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + 2 * A)
    x.grad = None
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full_like(A, 3))


def test_backward_with_gradient_argument_and_inputs() -> None:
    x = Tensor(A, requires_grad=True)
    w = Tensor(A.T.copy(), requires_grad=True)
    seed = rng.standard_normal((2, 2))
    (x @ w).backward(Tensor(seed), inputs=[x])
    np.testing.assert_allclose(x.grad.numpy(), seed @ A, rtol=1e-12)
    assert w.grad is None
    (x * 2).backward(gradient=1.0)  # a scalar seed broadcasts
    np.testing.assert_allclose(x.grad.numpy(), seed @ A + 2, rtol=1e-12)


def test_errors() -> None:
    x = Tensor(A, requires_grad=True)
    with pytest.raises(ValueError, match="scalar outputs"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="scalar outputs"):  # PyTorch's error type too
        (x * 2).backward()
    with pytest.raises(TypeError, match="floating point"):
        Tensor(np.arange(3), requires_grad=True)
    with pytest.raises(TypeError, match="floating point"):
        Tensor([True, False]).requires_grad = True
    with pytest.raises(TypeError, match="int64"):
        (x.sum() > 0).cast(lazyarr.int64).backward()
    with pytest.raises(TypeError, match="int32"):
        lazyarr.gradient(x.sum(), Tensor(np.arange(3, dtype=np.int32)))
    with pytest.raises(ValueError, match="does not require grad"):
        Tensor(A).sum().backward()
    with pytest.raises(ValueError, match="shape"):
        (x * 2).backward(Tensor(np.ones((3, 2))))


def test_integer_paths_carry_no_gradient() -> None:
    x = Tensor(A, requires_grad=True)
    (x * (x > 0).cast(lazyarr.float64) + x.argmax(1).cast(lazyarr.float64).reshape(2, 1)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), (A > 0).astype(np.float64))


def test_detach_and_no_grad_stop_gradients() -> None:
    x = Tensor(A, requires_grad=True)
    with lazyarr.no_grad():
        y = x * 2
        assert not lazyarr.is_grad_enabled()
        with lazyarr.enable_grad():
            z = x * 3
    assert lazyarr.is_grad_enabled()
    assert not y.requires_grad and z.requires_grad
    (y * x + x.detach() * x + z).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * A + A + 3, rtol=1e-12)

    @lazyarr.no_grad()
    def frozen(t: Tensor) -> Tensor:
        return t * t

    assert not frozen(x).requires_grad


def test_functional_gradient_does_not_touch_grad() -> None:
    x = Tensor(A, requires_grad=True)
    b = Tensor(rng.standard_normal(3))
    unused = Tensor(A)
    gx, gb, gu = lazyarr.gradient((x * b).exp().sum(), x, b, unused)
    np.testing.assert_allclose(gx.numpy(), np.exp(A * b.numpy()) * b.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), (np.exp(A * b.numpy()) * A).sum(0), rtol=1e-12)
    np.testing.assert_array_equal(gu.numpy(), np.zeros_like(A))
    assert x.grad is None


def test_higher_order_with_create_graph() -> None:
    x = Tensor(A, requires_grad=True)
    (gx,) = lazyarr.gradient((x**3).sum(), x)
    (ggx,) = lazyarr.gradient(gx.sum(), x)
    np.testing.assert_allclose(ggx.numpy(), 6 * A, rtol=1e-12)
    (x**3).sum().backward(create_graph=True)
    assert x.grad.requires_grad


def test_backward_after_reading_values() -> None:
    # realising the loss or an intermediate does not cut the graph (PyTorch users print before backward)
    x = Tensor(A, requires_grad=True)
    h = (x * 2).exp()
    h.numpy()
    loss = (h * x).sum()
    assert loss.item() == pytest.approx(float((np.exp(2 * A) * A).sum()))
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp(2 * A) * (2 * A + 1), rtol=1e-12)


def test_leaf_from_a_constant_gets_its_own_storage() -> None:
    # Tensor.zeros(...) is a shared constant until it gets storage: a gradient must reach only this leaf
    w = Tensor.zeros(3, dtype=lazyarr.float64).requires_grad_()
    other = Tensor.zeros(3, dtype=lazyarr.float64)
    ((w + other + 1) ** 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 2.0))


def test_zero_size_and_float16() -> None:
    x = Tensor(np.zeros((0, 3)), requires_grad=True)
    (x * 2).sum().backward()
    assert x.grad.shape == (0, 3)
    h = Tensor(np.array([0.5, 1.5], np.float16), requires_grad=True)
    (h * h).sum().backward()
    assert h.grad.dtype == lazyarr.float16
    np.testing.assert_allclose(h.grad.numpy(), [1.0, 3.0])


def _numeric_grad(fn, a: np.ndarray, w: np.ndarray, eps: float = 1e-6) -> np.ndarray:  # noqa: ANN001
    """Central differences of sum(fn(a) * w) in float64."""
    out = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[i] += eps
        lo[i] -= eps
        out[i] = ((fn(Tensor(hi)).numpy() - fn(Tensor(lo)).numpy()) * w).sum() / (2 * eps)
    return out


def _write_basic(x: Tensor) -> Tensor:
    y = x * 2
    y[0, 1:] = x[1, :2].exp()  # the old contents survive outside the write: their gradient reaches x
    return y


def _write_through_views(x: Tensor) -> Tensor:
    y = x.exp()
    y.T[::-2] *= x.T[:2]  # a write through a transposed, negatively strided view
    y.reshape(3, 2)[1:] += y.reshape(3, 2)[:2]
    return y


def _write_scatter_repeated(x: Tensor) -> Tensor:
    y = (x * 3).realize()
    y[[0, 1, 0], [2, 0, 2]] = x[1] * x[0]  # (0, 2) is written twice: only the last value reaches the result
    return y


@pytest.mark.parametrize("fn", [_write_basic, _write_through_views, _write_scatter_repeated])
def test_gradient_through_partial_writes(fn) -> None:  # noqa: ANN001
    # used to raise AssertionError (shape mismatch in the ASSIGN rule) or lose the old contents' gradient
    w = rng.standard_normal((2, 3))
    x = Tensor(A, requires_grad=True)
    (fn(x) * Tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _numeric_grad(fn, A, w), rtol=1e-6, atol=1e-8)


def test_gradients_through_and_of_realised_values() -> None:
    x = Tensor(A, requires_grad=True)
    y = x * x
    y.numpy()
    loss = (y * 2).sum()  # reaches x only through the realised y
    loss.item()
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), 4 * A, rtol=1e-12)
    (gy, gx) = lazyarr.gradient(loss, y, x)  # a realised intermediate is a target of its own
    np.testing.assert_allclose(gy.numpy(), np.full_like(A, 2.0), rtol=1e-12)
    np.testing.assert_allclose(gx.numpy(), 4 * A, rtol=1e-12)


def test_views_made_under_no_grad_and_integer_paths_do_not_require_grad() -> None:
    x = Tensor(A, requires_grad=True)
    with lazyarr.no_grad():
        v = x[:, 1:].T
    assert not v.requires_grad and not x.int().float().requires_grad
    (x * v.T.sum()).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full_like(A, A[:, 1:].sum()), rtol=1e-12)
    with lazyarr.no_grad():
        v[0] = 0.0  # still a view: the write reaches x
    np.testing.assert_array_equal(x.numpy()[:, 1], [0.0, 0.0])


# ---- tensors written in place between forward and backward (PyTorch: version counters) ----

STALE = "modified by an inplace operation"


def _leaf_write_case(realise_y: bool, realise_write: bool) -> Tensor:
    """y = exp(x) computed, then x -= 1 under no_grad, then (y * x).sum().backward(): returns x."""
    x = Tensor(A, requires_grad=True)
    y = x.exp()
    if realise_y:
        y.numpy()
    with lazyarr.no_grad():
        x -= 1
    if realise_write:
        x.numpy()
    (y * x).sum().backward()
    return x


@pytest.mark.parametrize("realise_y,realise_write", [(False, False), (True, False), (False, True)])
def test_leaf_written_in_place_after_forward_counts_every_use(realise_y: bool, realise_write: bool) -> None:
    # PyTorch: one variable used twice (old value inside exp, new value in the product): both terms count
    x = _leaf_write_case(realise_y, realise_write)
    np.testing.assert_allclose(x.grad.numpy(), np.exp(A) + (A - 1) * np.exp(A), rtol=1e-5)


def test_leaf_written_in_place_after_realised_forward_raises() -> None:
    # the forward value y was realised and x's old contents were then overwritten: exp(x_old) cannot be recomputed
    with pytest.raises(RuntimeError, match=STALE):
        _leaf_write_case(True, True)


def test_leaf_written_in_place_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    xt = torch.tensor(A, requires_grad=True)
    yt = xt.exp()
    with torch.no_grad():
        xt -= 1
    (yt * xt).sum().backward()
    for realise_y, realise_write in [(False, False), (True, False), (False, True)]:
        x = _leaf_write_case(realise_y, realise_write)
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-5)


def test_leaf_partial_write_counts_each_position_once() -> None:
    c = rng.standard_normal(A.shape)
    x = Tensor(A, requires_grad=True)
    y = x.sin()
    with lazyarr.no_grad():
        x[0, 1] = 5.0
    (x * Tensor(c)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), c, rtol=1e-6)
    x.grad = None
    (y * x).sum().backward()  # old contents inside sin, new contents in the product (the exact derivative)
    new = A.copy()
    new[0, 1] = 5.0
    np.testing.assert_allclose(x.grad.numpy(), np.cos(A) * new + np.sin(A), rtol=1e-5)
    g, = lazyarr.gradient((y * x).sum(), x)
    np.testing.assert_allclose(g.numpy(), np.cos(A) * new + np.sin(A), rtol=1e-5)


@pytest.mark.parametrize("realise_loss", [False, True])
def test_optimizer_step_between_forward_and_backward(realise_loss: bool) -> None:
    x = Tensor(A, requires_grad=True)
    opt = lazyarr.optim.SGD([x], lr=0.5)
    x.grad = Tensor(np.ones_like(A))
    loss = x.sin().sum()
    if realise_loss:
        loss.numpy()
    opt.step()
    x.grad = None
    if realise_loss:  # the old weights are gone (PyTorch raises the same error)
        with pytest.raises(RuntimeError, match=STALE):
            loss.backward()
    else:  # the lazy loss kept a copy of the old weights: its exact gradient
        loss.backward()
        np.testing.assert_allclose(x.grad.numpy(), np.cos(A), rtol=1e-5)


@pytest.mark.parametrize("how", ["setitem", "assign"])
@pytest.mark.parametrize("realise_y", [False, True])
def test_intermediate_written_in_place_after_use(how: str, realise_y: bool) -> None:
    x = Tensor(A, requires_grad=True)
    h = x * 2
    y = h.sin()
    if realise_y:
        y.numpy()
    if how == "setitem":
        h[0, 1] = 5.0
        new, dnew = 2 * A, np.full_like(A, 2.0)
        new[0, 1], dnew[0, 1] = 5.0, 0.0
    else:
        h.assign(x * 3)
        new, dnew = 3 * A, np.full_like(A, 3.0)
    (y * h).sum().backward()
    # d/dx sum(sin(2x) * h_new(x)): the exact derivative (PyTorch refuses: sin saved h, which was modified)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(2 * A) * new + np.sin(2 * A) * dnew, rtol=1e-5)


@pytest.mark.parametrize("index", [(0, 1), ([0, 1], [1, 2])])
@pytest.mark.parametrize("realise_write", [False, True])
def test_realised_intermediate_written_in_place_after_use(index: tuple, realise_write: bool) -> None:
    x = Tensor(A, requires_grad=True)
    h = x * 2
    h.numpy()
    y = h.sin()
    y.numpy()
    h[index] = 5.0
    new, dnew = 2 * A, np.full_like(A, 2.0)
    new[index], dnew[index] = 5.0, 0.0
    if realise_write:
        h.numpy()  # h's storage (read by y's remembered graph) is overwritten: sin(h_old) cannot be recomputed
        with pytest.raises(RuntimeError, match=STALE):
            (y * h).sum().backward()
    else:
        (y * h).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(2 * A) * new + np.sin(2 * A) * dnew, rtol=1e-5)


def _written_then_realised(x: Tensor) -> Tensor:
    h = x * 2
    h[0, 1] = 5.0  # a write into a value never computed before
    h.numpy()
    z = Tensor(np.zeros((2, 3)))
    z.numpy()
    z[1] = x[0].exp()  # a write into a computed array that has no gradient of its own
    z.numpy()
    return h.softmax(-1) + z.softmax(-1) * h


def test_values_written_in_place_then_realised_keep_their_gradient() -> None:
    # the graph of the writes is remembered under the result: h = x * 2; h[0, 1] = 5; h.numpy() lost h's gradient
    # (x.grad silently missed it), as did z after z[1] = exp(x[0]); z.numpy()
    w = rng.standard_normal((2, 3))
    x = Tensor(A, requires_grad=True)
    out = _written_then_realised(x)
    assert out.requires_grad
    (out * Tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _numeric_grad(_written_then_realised, A, w), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("row", [0, 1])
def test_realised_write_that_read_what_it_overwrote_raises(row: int) -> None:
    # z[row] = z[0] * x[0] read z's old contents; once computed they are gone (PyTorch raises here too)
    x = Tensor(A, requires_grad=True)
    z = Tensor(np.ones((2, 3)))
    z.numpy()
    z[row] = z[0] * x[0]
    z.numpy()
    with pytest.raises(RuntimeError, match=STALE):
        z.sum().backward()
    z2 = Tensor(np.ones((2, 3)))
    z2.numpy()
    z2[row] = z2[0] * x[0]
    x.grad = None
    z2.sum().backward()  # not computed: the old contents are still read lazily
    want = np.zeros_like(A)
    want[0] = 1.0
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)


def test_lazy_reader_of_realised_intermediate_keeps_its_gradient_after_a_write() -> None:
    # y reads h lazily; h (realised) is then overwritten: y keeps a copy of h's old contents, and the copy still
    # carries h's gradient back to x
    x = Tensor(A, requires_grad=True)
    h = x * 2
    h.numpy()
    y = h.sin()
    h[0, 1] = 5.0
    h.numpy()
    (y + x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(2 * A) + 1, rtol=1e-5)



@pytest.mark.parametrize("make, grad", [
    (lambda x: x * 1, lambda a: np.full_like(a, 3.0)),
    (lambda x: x.T * 1, lambda a: np.full_like(a, 3.0)),
    (lambda x: x[1:] * 1, lambda a: np.where(np.arange(2)[:, None] >= 1, 3.0, 0.0) + 0 * a),
    (lambda x: x.exp().realize() * 1, lambda a: 3 * np.exp(a)),
], ids=["x*1", "x.T*1", "x[1:]*1", "realised_exp*1"])
def test_backward_through_a_realised_value_that_folded_to_its_input(make, grad) -> None:  # noqa: ANN001
    # x * 1 realises to a view of an array it reads: remembering x * 1 under that view made backward recurse until
    # RecursionError
    x = Tensor(A, requires_grad=True)
    a = make(x)
    a.numpy()
    (a * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), grad(A), rtol=1e-12)


def test_a_value_that_folded_to_a_constant_keeps_its_graph_to_itself() -> None:
    # the mean of an empty batch is the constant NaN; its graph was remembered under that interned constant, so any
    # later graph holding a NaN (here `+ nan`) reached b too: a gradient for b, or InplaceModifiedError once b changed
    b = Tensor(np.ones(3), requires_grad=True)
    loss = (Tensor(np.zeros((0, 3))) * b).mean()
    assert np.isnan(loss.item())
    loss.backward()  # PyTorch: zeros
    np.testing.assert_array_equal(b.grad.numpy(), np.zeros(3))
    with lazyarr.no_grad():
        b += 1
    b.grad = None
    c = Tensor(np.arange(3.0), requires_grad=True)
    ((c * c).sum() + float("nan")).backward()
    assert b.grad is None
    np.testing.assert_array_equal(c.grad.numpy(), 2 * np.arange(3.0))


def test_std_of_constant_values_has_torchs_zero_gradient() -> None:
    # sqrt's slope at a zero variance is infinite, times the variance's zero slope: NaN (PyTorch: 0)
    torch = pytest.importorskip("torch")
    a = np.array([[1.0, 1.0, 1.0], [0.5, -2.0, 3.0]])
    for kw, tkw in [({"axis": 1}, {"dim": 1, "correction": 0}), ({"axis": 1, "ddof": 1}, {"dim": 1}),
                    ({"axis": 0, "keepdims": True}, {"dim": 0, "keepdim": True, "correction": 0})]:
        x, xt = Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
        for base, tbase in [(x, xt), (x[:, :1], xt[:, :1])][: 1 if "ddof" in kw else 2]:  # ddof 1 of 1 value: NaN
            (base.std(**kw) * 2).sum().backward()
            (tbase.std(**tkw) * 2).sum().backward()
            np.testing.assert_allclose(base.std(**kw).numpy(), tbase.std(**tkw).detach().numpy(), rtol=1e-12)
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("write", [
    lambda t: t.__iadd__(1), lambda t: t.__setitem__(0, 5.0), lambda t: t[1:].__imul__(2),
    lambda t: t.assign(t * 2) if isinstance(t, Tensor) else t.copy_(t * 2),
    lambda t: np.add(t, 1, out=t) if isinstance(t, Tensor) else t.add_(1),
], ids=["iadd", "setitem", "view-imul", "assign", "ufunc-out"])
def test_in_place_write_into_a_leaf_that_requires_grad_raises(write) -> None:  # type: ignore[no-untyped-def]
    # PyTorch raises; the write went through, and the gradient was then silently taken at the written value
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        write(torch.tensor(A[0], requires_grad=True))
    x = Tensor(A[0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad is being used in an in-place operation"):
        write(x)
    np.testing.assert_array_equal(x.numpy(), A[0])  # nothing was written
    with lazyarr.no_grad():
        write(x)  # allowed, as in PyTorch (an optimizer's update)
    write(x.detach())  # the data, without the gradient: allowed
    h = x * 1
    write(h)  # not a leaf: allowed


def test_assigning_a_grad_of_another_shape_dtype_or_kind_raises() -> None:
    # PyTorch raises at the assignment; it was taken, and failed later (optimizer step) or broadcast (backward)
    torch = pytest.importorskip("torch")
    x, xt = Tensor(A, requires_grad=True), torch.tensor(A, requires_grad=True)
    for ours, theirs, error in [(Tensor(A[0]), torch.tensor(A[0]), RuntimeError),
                                (Tensor(A.astype(np.float32)), torch.tensor(A).float(), RuntimeError),
                                (A, A, TypeError)]:
        with pytest.raises(error):
            xt.grad = theirs
        with pytest.raises(error):
            x.grad = ours
        assert x.grad is None
    x.grad = Tensor(np.ones_like(A))
    (x * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full_like(A, 3.0))


@pytest.mark.parametrize("scatter", [
    lambda h, y: h.__setitem__([0, 2], y[:, :3]),
    lambda h, y: h.__setitem__(([1, 2], [0, 2]), y[0, :2]),
    lambda h, y: h.__setitem__(h > 0.5, h[h > 0.5] * 2),
], ids=["rows", "points", "mask-read-modify-write"])
def test_value_written_by_a_scatter_keeps_its_gradient_once_realised(scatter) -> None:  # type: ignore[no-untyped-def]
    # realising h after an advanced-index write lost its graph: backward raised 'does not require grad'
    torch = pytest.importorskip("torch")
    b = rng.standard_normal((3, 3))
    x, y = Tensor(b, requires_grad=True), Tensor(A, requires_grad=True)
    xt, yt = torch.tensor(b, requires_grad=True), torch.tensor(A, requires_grad=True)
    h, ht = x * 2, xt * 2
    scatter(h, y)
    scatter(ht, yt)
    np.testing.assert_allclose(h.numpy(), ht.detach().numpy(), rtol=1e-12)
    (h * h).sum().backward()
    (ht * ht).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-12)
    if yt.grad is None:  # the mask write reads no y
        assert y.grad is None
    else:
        np.testing.assert_allclose(y.grad.numpy(), yt.grad.numpy(), rtol=1e-12)


def test_requires_grad_false_on_a_computed_value_raises_and_parameter_takes_data() -> None:
    # it was taken: the value said requires_grad False while its gradient still reached x (PyTorch raises); and
    # nn.Parameter(x * 2, requires_grad=False) kept the graph, sending x a gradient (PyTorch: a new leaf of the data)
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf variables"):
        (torch.tensor(A, requires_grad=True) * 2).requires_grad_(False)
    x = Tensor(A, requires_grad=True)
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf variables"):
        (x * 2).requires_grad_(False)
    (Tensor(A) * 2).requires_grad_(False)  # computed from no leaf: a leaf itself, as in PyTorch
    xt = torch.tensor(A, requires_grad=True)
    p, pt = lazyarr.nn.Parameter(x * 2, requires_grad=False), torch.nn.Parameter(xt * 2, requires_grad=False)
    (p * x).sum().backward()
    (pt * xt).sum().backward()
    assert p.is_leaf and not p.requires_grad
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-12)
