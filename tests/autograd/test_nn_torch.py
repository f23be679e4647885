"""Layers, pooling, normalisation, activations and losses against PyTorch (forward values and gradients), float32."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor, nn
from lazyarr.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

rng = np.random.default_rng(0)


def compare(fn: Callable[..., Tensor], tfn: Callable[..., Any], *arrays: np.ndarray,
            grads: tuple[int, ...] | None = None, rtol: float = 1e-4, atol: float = 1e-5) -> None:
    """fn on lazyarr Tensors and tfn on torch tensors give the same values, and the same gradients of
    sum(out * w) for the float operands listed in `grads` (default: all float operands)."""
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    grads = tuple(floats) if grads is None else grads
    ours = [Tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    theirs = [torch.tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    out, tout = fn(*ours), tfn(*theirs)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=rtol, atol=atol, err_msg="forward")
    if not grads:
        return
    w = rng.standard_normal(tuple(tout.shape)).astype(np.float32)
    (out * Tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    for i in grads:
        np.testing.assert_allclose(ours[i].grad.numpy(), theirs[i].grad.numpy(), rtol=rtol, atol=atol,
                                   err_msg=f"gradient of operand {i}")


def f32(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


# ---- convolution and pooling ----

CONV = {
    "plain": dict(stride=1, padding=1, dilation=1, groups=1),
    "strided_dilated_groups": dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2),
}


@pytest.mark.parametrize("name", list(CONV))
def test_conv2d(name: str) -> None:
    kw = CONV[name]
    g = kw["groups"]
    compare(lambda x, w, b: F.conv2d(x, w, b, **kw), lambda x, w, b: TF.conv2d(x, w, b, **kw),
            f32(2, 4, 7, 6), f32(6, 4 // g, 3, 2), f32(6))


def test_conv2d_unbatched_same_no_bias_non_contiguous_input() -> None:
    x = f32(5, 6, 4)
    compare(lambda x, w: x.permute(0, 2, 1).conv2d(w, padding="same", dilation=2),
            lambda x, w: TF.conv2d(x.permute(0, 2, 1), w, padding="same", dilation=2), x, f32(3, 5, 2, 3))


POOL = {
    "max_k3_s2_p1_ceil": (lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
                          lambda x: TF.max_pool2d(x, 3, 2, 1, ceil_mode=True)),
    "avg_k3_s2_p1_ceil": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
                          lambda x: TF.avg_pool2d(x, 3, 2, 1, ceil_mode=True)),
    "avg_exclude_pad": (lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
                        lambda x: TF.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
    # windows that tile the input (stride = kernel) pool over reshaped blocks: cut short, padded past the end, padded
    "max_k3_tiles_cut": (lambda x: F.max_pool2d(x, 3), lambda x: TF.max_pool2d(x, 3)),
    "max_k2_tiles_ceil": (lambda x: F.max_pool2d(x, 2, ceil_mode=True), lambda x: TF.max_pool2d(x, 2, ceil_mode=True)),
    "avg_k2_tiles_pad": (lambda x: F.avg_pool2d(x, 2, padding=1, count_include_pad=False),
                         lambda x: TF.avg_pool2d(x, 2, padding=1, count_include_pad=False)),
}


@pytest.mark.parametrize("name", list(POOL))
def test_pool(name: str) -> None:
    fn, tfn = POOL[name]
    compare(fn, tfn, f32(2, 3, 7, 8))


def test_max_pool_ties_send_the_gradient_to_the_first_max() -> None:
    # relu before a pool makes windows of equal zeros: PyTorch routes the gradient to one element, not all
    x = np.maximum(f32(1, 2, 4, 4), 0) * (rng.random((1, 2, 4, 4)) > 0.5)
    x = x.astype(np.float32)
    compare(lambda x: F.max_pool2d(x, 2), lambda x: TF.max_pool2d(x, 2), x)


# ---- normalisation ----


def test_batchnorm2d_train_eval_and_running_stats() -> None:
    bn, tbn = nn.BatchNorm2d(3), torch.nn.BatchNorm2d(3)
    with torch.no_grad():
        tbn.weight.copy_(torch.tensor(f32(3)))
        tbn.bias.copy_(torch.tensor(f32(3)))
    bn.load_state_dict(tbn.state_dict())
    for _ in range(2):  # the second step starts from updated running statistics
        compare(bn, tbn, f32(4, 3, 5, 2) * 2 + 1)
    np.testing.assert_allclose(bn.weight.grad.numpy(), tbn.weight.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.bias.grad.numpy(), tbn.bias.grad.numpy(), rtol=1e-4, atol=1e-5)
    sd, tsd = bn.state_dict(), tbn.state_dict()
    assert list(sd) == list(tsd)
    for k in sd:
        np.testing.assert_allclose(sd[k].numpy(), tsd[k].numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
    bn.eval()
    tbn.eval()
    compare(bn, tbn, f32(4, 3, 5, 2))


def test_layer_norm() -> None:
    compare(lambda x, w, b: F.layer_norm(x, (3, 4), w, b), lambda x, w, b: TF.layer_norm(x, (3, 4), w, b),
            f32(2, 3, 4), f32(3, 4), f32(3, 4))


# ---- activations ----

ACT = {
    "relu": (F.relu, TF.relu),  # the gradient at exactly 0 is 0
    # a value equal to a bound (0 and 120 below) passes its whole gradient, as in torch.clamp
    "clamp": (lambda x: x.clamp(0.0, 120.0), lambda x: x.clamp(0.0, 120.0)),
    "sigmoid": (F.sigmoid, torch.sigmoid),
    "gelu_tanh": (lambda x: F.gelu(x, "tanh"), lambda x: TF.gelu(x, approximate="tanh")),
    "softplus": (lambda x: F.softplus(x, 2.0, 5.0), lambda x: TF.softplus(x, 2.0, 5.0)),
    "elu": (F.elu, TF.elu),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.5), lambda x: TF.hardtanh(x, -0.5, 0.5)),
    "logsigmoid": (F.logsigmoid, TF.logsigmoid),
    "softmax": (lambda x: F.softmax(x, 1), lambda x: TF.softmax(x, 1)),
}


@pytest.mark.parametrize("shape", [(4, 3, 5), (2, 3, 4, 5)])
@pytest.mark.parametrize("layer", ["Softmax", "LogSoftmax"])
def test_softmax_layers_without_dim_use_torchs_implicit_dim(layer: str, shape: tuple[int, ...]) -> None:
    # nn.Softmax() took the last axis; PyTorch's (and F.softmax's) implicit dim is 0 for 3-D input, 1 for 4-D

    def theirs(x: Any) -> Any:
        with warnings.catch_warnings():  # PyTorch warns that the implicit dim is deprecated
            warnings.simplefilter("ignore", UserWarning)
            return getattr(torch.nn, layer)()(x)

    compare(getattr(nn, layer)(), theirs, f32(*shape))


@pytest.mark.parametrize("name", list(ACT))
def test_activation(name: str) -> None:
    fn, tfn = ACT[name]
    x = f32(3, 5) * 4
    x[0, :3] = [-120.0, 0.0, 120.0]  # far tails: no overflow in value or gradient
    compare(fn, tfn, x)


# ---- losses ----

LOGITS = f32(6, 5)
TARGET = np.array([0, 4, 2, 2, 1, 3])
WEIGHT = rng.uniform(0.5, 2.0, 5).astype(np.float32)

LOSSES = {
    "ce": (lambda x: x.cross_entropy(Tensor(TARGET)), lambda x: TF.cross_entropy(x, torch.tensor(TARGET))),
    "ce_weight_ignore_smooth": (
        lambda x: F.cross_entropy(x, Tensor(np.where(TARGET == 2, -1, TARGET)), Tensor(WEIGHT), ignore_index=-1,
                                  label_smoothing=0.2),
        lambda x: TF.cross_entropy(x, torch.tensor(np.where(TARGET == 2, -1, TARGET)), torch.tensor(WEIGHT),
                                   ignore_index=-1, label_smoothing=0.2)),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_class_index_losses(name: str) -> None:
    fn, tfn = LOSSES[name]
    compare(fn, tfn, LOGITS)


@pytest.mark.parametrize("name", ["ce", "ce_ignore_smooth"])
def test_class_index_losses_keep_float16(name: str) -> None:
    # the mean's all-ignored NaN term was float32 and promoted a float16 loss to float32 (PyTorch: float16)
    tgt = np.where(TARGET == 2, -100, TARGET)
    fn, tfn = LOSSES["ce"] if name == "ce" else (
        lambda x: F.cross_entropy(x, Tensor(tgt), label_smoothing=0.2),
        lambda x: TF.cross_entropy(x, torch.tensor(tgt), label_smoothing=0.2))
    x = LOGITS.astype(np.float16)
    out, tout = fn(Tensor(x)), tfn(torch.tensor(x))
    assert out.dtype.name == "float16" and tout.dtype == torch.float16
    np.testing.assert_allclose(out.numpy().astype(np.float32), tout.float().numpy(), rtol=2e-3)


def test_cross_entropy_probabilities_with_smoothing_and_weight() -> None:
    probs = rng.dirichlet(np.ones(5), 6).astype(np.float32)
    compare(lambda x, p: F.cross_entropy(x, p, Tensor(WEIGHT), label_smoothing=0.3),
            lambda x, p: TF.cross_entropy(x, p, torch.tensor(WEIGHT), label_smoothing=0.3), LOGITS, probs, grads=(0, 1))


def test_cross_entropy_spatial_targets() -> None:
    # (N, C, H, W) logits with (N, H, W) targets: classes on axis 1, a mean over every position
    target = rng.integers(0, 3, (2, 4, 5))
    compare(lambda x: F.cross_entropy(x, Tensor(target)), lambda x: TF.cross_entropy(x, torch.tensor(target)),
            f32(2, 3, 4, 5))


def test_regression_and_binary_losses() -> None:
    y = f32(4, 3)
    bin_y = (rng.random((4, 3)) > 0.5).astype(np.float32)
    pos = rng.uniform(0.5, 3, 3).astype(np.float32)
    compare(lambda x: F.mse_loss(x, Tensor(y)), lambda x: TF.mse_loss(x, torch.tensor(y)), f32(4, 3))
    compare(lambda x: F.binary_cross_entropy_with_logits(x, Tensor(bin_y), pos_weight=Tensor(pos)),
            lambda x: TF.binary_cross_entropy_with_logits(x, torch.tensor(bin_y), pos_weight=torch.tensor(pos)),
            f32(4, 3) * 30)


def test_nll_loss_rejects_out_of_range_targets() -> None:
    with pytest.raises(IndexError, match="out of bounds"):
        F.nll_loss(Tensor(LOGITS), Tensor(np.array([0, 5, 1, 1, 1, 1])))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_and_cross_entropy_with_minus_inf_logits_of_other_classes(weighted: bool, reduction: str) -> None:
    # masked logits (-inf at classes that are not the target) give PyTorch's finite loss and gradient; a one-hot
    # product turned each -inf * 0 into NaN
    x = LOGITS.copy()
    x[0, 1], x[1, [0, 3]], x[4, 2] = -np.inf, -np.inf, -np.inf
    target = np.array([0, 1, 2, 0, 1, 0])
    assert np.isfinite(x[np.arange(6), target]).all()
    w = (Tensor(WEIGHT),) if weighted else ()
    tw = (torch.tensor(WEIGHT),) if weighted else ()
    compare(lambda x: F.cross_entropy(x, Tensor(target), *w, reduction=reduction),
            lambda x: TF.cross_entropy(x, torch.tensor(target), *tw, reduction=reduction), x)
    compare(lambda x: F.nll_loss(x.log_softmax(1), Tensor(target), *w, reduction=reduction),
            lambda x: TF.nll_loss(x.log_softmax(1), torch.tensor(target), *tw, reduction=reduction), x)


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_with_every_target_ignored_has_zero_gradient(smoothing: float) -> None:
    # the mean over zero weights is NaN (as in PyTorch) but the gradient is 0, not NaN
    ignored = np.full(6, -100)
    compare(lambda x: F.cross_entropy(x, Tensor(ignored), label_smoothing=smoothing),
            lambda x: TF.cross_entropy(x, torch.tensor(ignored), label_smoothing=smoothing), LOGITS)


# ---- embedding, linear, dropout ----


def test_embedding_padding_idx_gets_no_gradient() -> None:
    emb = nn.Embedding(7, 3, padding_idx=2)
    temb = torch.nn.Embedding(7, 3, padding_idx=2)
    temb.load_state_dict({k: torch.tensor(v.numpy()) for k, v in emb.state_dict().items()})
    np.testing.assert_array_equal(emb.weight.numpy()[2], 0)
    idx = np.array([[1, 2, 6], [2, 2, 0]])
    w = f32(2, 3, 3)
    (emb(Tensor(idx)) * Tensor(w)).sum().backward()
    (temb(torch.tensor(idx)) * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(emb.weight.grad.numpy(), temb.weight.grad.numpy(), rtol=1e-6)


def test_linear_matches_torch_and_default_init_bounds() -> None:
    lazyarr.Tensor.manual_seed(1)
    lin = nn.Linear(40, 30)
    w = lin.weight.numpy()
    bound = 1 / np.sqrt(40)
    assert w.shape == (30, 40) and np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert abs(w.mean()) < 0.01 and abs(w.std() - bound / np.sqrt(3)) < 0.01
    assert np.abs(lin.bias.numpy()).max() <= bound
    conv = nn.Conv2d(4, 6, 3, groups=2)
    assert np.abs(conv.weight.numpy()).max() <= 1 / np.sqrt(2 * 9)
    compare(lambda x, w, b: F.linear(x, w, b), lambda x, w, b: TF.linear(x, w, b), f32(2, 3, 4), f32(5, 4), f32(5))


def test_dropout_train_and_eval() -> None:
    lazyarr.Tensor.manual_seed(3)
    drop = nn.Dropout(0.25)
    x = Tensor(np.ones((200, 50), np.float32), requires_grad=True)
    out = drop(x)
    out.sum().backward()
    y, g = out.numpy(), x.grad.numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    np.testing.assert_array_equal(g, y)  # d(sum)/dx is the same mask and scale
    drop.eval()
    assert drop(x) is x
    assert (drop.train()(x).numpy() != y).any()  # a new draw each call


def test_binary_cross_entropy_at_zero_and_one_has_torchs_gradient() -> None:
    # the clamped logs' own gradient was 0 * inf = NaN at probabilities 0 and 1
    p = np.array([0, 1, 0.5, 1, 0, 1e-13, 1 - 6e-8, 0.3], np.float32)
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0.2], np.float32)
    compare(lambda x: F.binary_cross_entropy(x, Tensor(y), weight=Tensor(y + 1)),
            lambda x: TF.binary_cross_entropy(x, torch.tensor(y), weight=torch.tensor(y + 1)), p, rtol=1e-5, atol=0)
    with pytest.raises(ValueError, match="target size"):
        F.binary_cross_entropy(Tensor(p.reshape(2, 4)), Tensor(y[:2].reshape(2, 1)))


EXTREMES = np.array([-1e4, -200, -89, -88, -20, -1, 0, 1, 20, 88, 89, 200, 1e4], np.float32)


@pytest.mark.parametrize("name", ["sigmoid", "silu", "softplus", "bce_sigmoid"])
def test_activations_at_extreme_inputs(name: str) -> None:
    # sigmoid's gradient was NaN below -88.7 (exp(-x) overflowed); Tensor.softplus was inf above 88.7
    fns = {"sigmoid": (Tensor.sigmoid, torch.sigmoid), "silu": (Tensor.silu, TF.silu),
           "softplus": (lambda x: x.softplus(), TF.softplus),
           "bce_sigmoid": (lambda x: F.binary_cross_entropy(x.sigmoid(), Tensor(EXTREMES > 0).float()),
                           lambda x: TF.binary_cross_entropy(x.sigmoid(), torch.tensor(EXTREMES > 0).float()))}
    compare(*fns[name], EXTREMES, rtol=1e-5, atol=1e-8)


def test_bad_arguments_raise_like_torch() -> None:
    x = Tensor(f32(1, 2, 4, 4))
    with pytest.raises(ValueError, match="negative padding"):
        F.conv2d(x, Tensor(f32(3, 2, 3, 3)), padding=-1)
    with pytest.raises(ValueError, match="divisor"):
        F.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(IndexError, match="-1 is out of bounds"):
        nn.Embedding(4, 3)(Tensor(np.array([0, -1])))
    for classes in ([0, 3], [0, -1]):
        with pytest.raises(IndexError, match="out of bounds for 3 classes"):
            F.one_hot(Tensor(np.array(classes)), 3)
    with pytest.raises(ValueError, match="kernel size must be positive"):  # was an IndexError from inside conv2d
        F.conv2d(x, Tensor(f32(3, 2, 0, 3)))


@pytest.mark.parametrize("momentum", [0.1, None])
def test_batchnorm_training_on_an_empty_batch_matches_torch(momentum: float | None) -> None:
    # it raised 'Expected more than 1 value per channel'; PyTorch returns the empty output, keeps the running
    # statistics and counts the batch
    ours, theirs = nn.BatchNorm1d(3, momentum=momentum), torch.nn.BatchNorm1d(3, momentum=momentum)
    for x in (f32(5, 3), f32(0, 3), f32(4, 3)):
        compare(ours, theirs, x)
        for k, v in theirs.state_dict().items():
            np.testing.assert_allclose(ours.state_dict()[k].numpy(), v.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)


FLOAT_SIZES = {
    "conv-stride": (lambda x: F.conv2d(x, Tensor.ones(2, 2, 3, 3), stride=1.5),
                    lambda x: TF.conv2d(x, torch.ones(2, 2, 3, 3), stride=1.5)),
    "maxpool-kernel": (lambda x: F.max_pool2d(x, 2.5), lambda x: TF.max_pool2d(x, 2.5)),
    "avgpool-padding": (lambda x: F.avg_pool2d(x, 2, padding=0.5), lambda x: TF.avg_pool2d(x, 2, padding=0.5)),
}


@pytest.mark.parametrize("name", list(FLOAT_SIZES))
def test_float_sizes_raise_type_error_like_torch(name: str) -> None:
    # they were truncated (stride=1.5 ran as stride 1)
    fn, tfn = FLOAT_SIZES[name]
    x = f32(1, 2, 6, 6)
    with pytest.raises(TypeError):
        tfn(torch.tensor(x))
    with pytest.raises(TypeError, match="ints"):
        fn(Tensor(x))
