"""PyTorch's `torch.nn.functional` names and signatures over lazyarr Tensors. Layers, pooling, normalisation and
losses are Tensor methods (lazyarr.frontend.nn_ops); activations are written here so their gradients stay finite
where a naive formula overflows (e.g. sigmoid of a large negative number).
"""

from __future__ import annotations

import math
from typing import Any

from lazyarr.frontend.tensor import Tensor

# ---- activations ----


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002 (PyTorch's argument name)
    """max(x, 0); the gradient at 0 is 0 (PyTorch)."""
    return input.relu()


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x clipped to [min_val, max_val]; the gradient is 1 strictly inside, else 0 (PyTorch)."""
    inside = (input > min_val) & (input < max_val)
    return inside.where(input, input.clip(min_val, max_val).detach())


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return hardtanh(input, 0.0, 6.0)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    return (input > 0).where(input, input * negative_slope)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    pos = input > 0
    return pos.where(input, pos.where(0.0, input).expm1() * alpha)


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x)) for x >= 0 and exp(x) / (1 + exp(x)) below, each branch fed only its own half of the
    inputs, so neither the value nor the gradient overflows."""
    pos = input >= 0
    e_neg, e_pos = (-pos.where(input, 0.0)).exp(), pos.where(0.0, input).exp()
    return pos.where(1 / (1 + e_neg), e_pos / (1 + e_pos))


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return input.logsigmoid()


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    return input.tanh()


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * sigmoid(x) (float16 in float32, as `Tensor._in_f32`)."""
    return input._in_f32(lambda x: x * sigmoid(x))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    """GELU: exact (erf) by default, or the tanh approximation with approximate='tanh' (PyTorch)."""
    if approximate == "none":
        return input.gelu()
    if approximate == "tanh":
        def tanh_form(x: Tensor) -> Tensor:
            inner = (x + x * x * x * 0.044715) * math.sqrt(2 / math.pi)
            return x * 0.5 * (1 + inner.tanh())
        return input._in_f32(tanh_form)
    raise ValueError(f"approximate argument must be either none or tanh, got {approximate!r}")


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (PyTorch; float16 in float32, as
    `Tensor._in_f32`: exp(x) overflows float16 above 11.1)."""
    def form(x: Tensor) -> Tensor:
        linear = x * beta > threshold
        return linear.where(x, (linear.where(0.0, x) * beta).exp().log1p() / beta)
    return input._in_f32(form)


def _default_dim(x: Tensor, dim: int | None) -> int:
    # PyTorch's implicit dim for softmax called without one
    return dim if dim is not None else 0 if x.ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """exp(x - max) / sum(exp(x - max)) along `dim`."""
    x = input.cast(dtype) if dtype is not None else input if input.dtype.is_float else input.float()
    d = _default_dim(x, dim)
    e = (x - x.max(d, keepdims=True).detach() if x.size else x).exp()  # empty: no max, nothing to compute
    return e / e.sum(d, keepdims=True)


def log_softmax(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """x - logsumexp(x) along `dim`."""
    x = input.cast(dtype) if dtype is not None else input
    return x._class_log_softmax(_default_dim(x, dim))


# ---- layers ----


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    return input.linear(weight, bias)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,  # noqa: A002
           dilation: Any = 1, groups: int = 1) -> Tensor:
    return input.conv2d(weight, bias, stride, padding, dilation, groups)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    return input.max_pool2d(kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,  # noqa: A002
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    return input.avg_pool2d(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,  # noqa: A002
               eps: float = 1e-5) -> Tensor:
    return input.layer_norm(normalized_shape, weight, bias, eps)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa: A002
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalisation; in training the running statistics (when given) are updated in place."""
    return input.batch_norm(running_mean, running_var, weight, bias, training, momentum, eps)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    return input.dropout(p, training)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:  # noqa: A002
    return input.embedding(weight, padding_idx)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    return tensor.one_hot(num_classes)


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:  # noqa: A002
    """Constant padding with PyTorch's flat (last dim first) `pad` tuple."""
    if mode != "constant":
        raise NotImplementedError(f"pad mode {mode!r} is not supported (only 'constant')")
    return input.pad(tuple(pad), value=0.0 if value is None else value)


# ---- losses ----


def cross_entropy(input: Tensor, target: Any, weight: Tensor | None = None, size_average: Any = None,  # noqa: A002
                  ignore_index: int = -100, reduce: Any = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy of logits (class indices or class probabilities as target); see `Tensor.cross_entropy`."""
    return input.cross_entropy(target, weight, ignore_index, _legacy(size_average, reduce, reduction), label_smoothing)


def nll_loss(input: Tensor, target: Any, weight: Tensor | None = None, size_average: Any = None,  # noqa: A002
             ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> Tensor:
    return input.nll_loss(target, weight, ignore_index, _legacy(size_average, reduce, reduction))


def mse_loss(input: Tensor, target: Any, size_average: Any = None, reduce: Any = None,  # noqa: A002
             reduction: str = "mean") -> Tensor:
    return input.mse_loss(target, _legacy(size_average, reduce, reduction))


def l1_loss(input: Tensor, target: Any, size_average: Any = None, reduce: Any = None,  # noqa: A002
            reduction: str = "mean") -> Tensor:
    return input.l1_loss(target, _legacy(size_average, reduce, reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Any, weight: Any = None, size_average: Any = None,  # noqa: A002
                                     reduce: Any = None, reduction: str = "mean", pos_weight: Any = None) -> Tensor:
    return input.binary_cross_entropy_with_logits(target, weight, _legacy(size_average, reduce, reduction), pos_weight)


def binary_cross_entropy(input: Tensor, target: Any, weight: Any = None, size_average: Any = None,  # noqa: A002
                         reduce: Any = None, reduction: str = "mean") -> Tensor:
    return input.binary_cross_entropy(target, weight, _legacy(size_average, reduce, reduction))


def _legacy(size_average: Any, reduce: Any, reduction: str) -> str:
    # PyTorch's deprecated size_average/reduce pair, mapped onto `reduction`
    if size_average is None and reduce is None:
        return reduction
    if reduce is False:
        return "none"
    return "sum" if size_average is False else "mean"


__all__ = ["relu", "relu6", "hardtanh", "leaky_relu", "elu", "sigmoid", "logsigmoid", "tanh", "silu", "gelu",
           "softplus", "softmax", "log_softmax", "linear", "conv2d", "max_pool2d", "avg_pool2d", "layer_norm",
           "batch_norm", "dropout", "embedding", "one_hot", "pad", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
           "binary_cross_entropy_with_logits", "binary_cross_entropy"]
