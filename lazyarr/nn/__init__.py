"""lazyarr.nn: PyTorch-style layers (Linear, Conv2d, pooling, BatchNorm, LayerNorm, Embedding, Dropout, Sequential,
activations, losses) built on Tensor ops, with PyTorch's default initialisation drawn from lazyarr's RNG.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from lazyarr import dtypes
from lazyarr.frontend.nn_ops import pair
from lazyarr.frontend.tensor import Tensor
from lazyarr.nn import (
    functional,
    state,  # `nn.state.save(...)`, as the README writes it
)
from lazyarr.nn import functional as F
from lazyarr.nn.module import IncompatibleKeys, Module, Parameter, StateDictError, is_parameter


def _uniform(shape: tuple[int, ...], bound: float, dtype: Any) -> Tensor:
    return Parameter(Tensor.uniform(*shape, low=-bound, high=bound, dtype=dtype or dtypes.default_float))


def _fan_in_bound(fan_in: int) -> float:
    # kaiming_uniform(a=sqrt(5)) and PyTorch's bias init both give U(-1/sqrt(fan_in), 1/sqrt(fan_in))
    return 1 / math.sqrt(fan_in) if fan_in > 0 else 0.0


# ---- containers ----


class Sequential(Module):
    """Modules applied in order; `Sequential(a, b)` names them "0", "1"; an OrderedDict gives its names."""

    def __init__(self, *modules: Any) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, x: Any) -> Any:
        for m in self._modules.values():
            x = m(x)
        return x

    def __getitem__(self, i: int | slice) -> Any:
        mods = list(self._modules.values())
        return Sequential(*mods[i]) if isinstance(i, slice) else mods[i]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self._modules)), module)
        return self


class ModuleList(Module):
    """A list of modules, registered as "0", "1", ..."""

    def __init__(self, modules: Iterable[Module] = ()) -> None:
        super().__init__()
        for m in modules:
            self.append(m)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self._modules)), module)
        return self

    def __getitem__(self, i: int) -> Module:
        return list(self._modules.values())[i]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())


# ---- layers ----


class Identity(Module):
    def forward(self, x: Tensor) -> Tensor:
        return x


class Linear(Module):
    """y = x @ weight.T + bias; weight (out, in) and bias (out,) drawn from U(-1/sqrt(in), 1/sqrt(in)) (PyTorch)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = _fan_in_bound(in_features)
        self.weight = _uniform((out_features, in_features), bound, dtype)
        self.bias = _uniform((out_features,), bound, dtype) if bias else None
        if not bias:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return x.linear(self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Conv2d(Module):
    """2-D convolution (PyTorch's `nn.Conv2d`: stride, padding (int, pair, 'same', 'valid'), dilation, groups, bias;
    only padding_mode='zeros'). Weight (out, in/groups, kH, kW) and bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(f"in_channels ({in_channels}) and out_channels ({out_channels}) must be divisible by "
                             f"groups ({groups})")
        if padding_mode != "zeros":
            raise NotImplementedError(f"padding_mode={padding_mode!r} is not supported (only 'zeros')")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride, self.dilation = pair(kernel_size), pair(stride), pair(dilation)
        self.padding = padding if isinstance(padding, str) else pair(padding)
        kh, kw = self.kernel_size
        bound = _fan_in_bound(in_channels // groups * kh * kw)
        self.weight = _uniform((out_channels, in_channels // groups, kh, kw), bound, dtype)
        self.bias = _uniform((out_channels,), bound, dtype) if bias else None
        if not bias:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return x.conv2d(self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        return (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}")


class MaxPool2d(Module):
    """2-D max pooling (PyTorch's `nn.MaxPool2d`; stride defaults to kernel_size)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        return x.max_pool2d(self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                            self.return_indices)


class AvgPool2d(Module):
    """2-D average pooling (PyTorch's `nn.AvgPool2d`)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def forward(self, x: Tensor) -> Tensor:
        return x.avg_pool2d(self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                            self.divisor_override)


class _BatchNorm(Module):
    expected_ndims: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dt = dtype or dtypes.default_float
        if affine:
            self.weight = Parameter(Tensor.ones(num_features, dtype=dt))
            self.bias = Parameter(Tensor.zeros(num_features, dtype=dt))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor.zeros(num_features, dtype=dt))
            self.register_buffer("running_var", Tensor.ones(num_features, dtype=dt))
            self.register_buffer("num_batches_tracked", Tensor.zeros((), dtype=dtypes.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim not in self.expected_ndims:
            dims = " or ".join(f"{n}D" for n in self.expected_ndims)
            raise ValueError(f"expected {dims} input (got {x.ndim}D input)")
        if x.shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: expected {self.num_features} channels, got shape {x.shape}")
        use_batch = self.training or self.running_mean is None
        update = self.training and self.track_running_stats
        return x.batch_norm(self.running_mean if update or not use_batch else None,
                            self.running_var if update or not use_batch else None, self.weight, self.bias,
                            use_batch, self.momentum, self.eps, self.num_batches_tracked if update else None)

    def extra_repr(self) -> str:
        return f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}"


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs (PyTorch's `nn.BatchNorm1d`)."""

    expected_ndims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs (PyTorch's `nn.BatchNorm2d`)."""

    expected_ndims = (4,)


class LayerNorm(Module):
    """Normalisation over the trailing `normalized_shape` dims, with elementwise weight (ones) and bias (zeros)."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        shape = tuple(normalized_shape) if isinstance(normalized_shape, (list, tuple)) else (int(normalized_shape),)
        self.normalized_shape, self.eps = shape, eps
        dt = dtype or dtypes.default_float
        self.weight = Parameter(Tensor.ones(*shape, dtype=dt)) if elementwise_affine else None
        self.bias = Parameter(Tensor.zeros(*shape, dtype=dt)) if elementwise_affine and bias else None
        if self.weight is None:
            self.register_parameter("weight", None)
        if self.bias is None:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return x.layer_norm(self.normalized_shape, self.weight, self.bias, self.eps)


class Embedding(Module):
    """A lookup table (num_embeddings, embedding_dim) initialised from N(0, 1); row `padding_idx` is zero and gets
    no gradient (PyTorch's `nn.Embedding`)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError("padding_idx must be within num_embeddings")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        w = Tensor.randn(num_embeddings, embedding_dim, dtype=dtype or dtypes.default_float)
        if self.padding_idx is not None:
            rows = Tensor.arange(num_embeddings).reshape(num_embeddings, 1)
            w = (rows == self.padding_idx).where(0.0, w)
        self.weight = Parameter(w)

    def forward(self, idx: Tensor) -> Tensor:
        return idx.embedding(self.weight, self.padding_idx)


class Dropout(Module):
    """Zero elements with probability p in training (scaling the rest by 1/(1-p)); identity in eval."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p

    def forward(self, x: Tensor) -> Tensor:
        return x.dropout(self.p, self.training)


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x: Tensor) -> Tensor:
        return x.flatten(self.start_dim, self.end_dim)


# ---- activations ----


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return F.relu(x)


class LeakyReLU(Module):
    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.negative_slope)


class Sigmoid(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class Tanh(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(x, self.approximate)


class SiLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(x)


class ELU(Module):
    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha

    def forward(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha)


class Softplus(Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, x: Tensor) -> Tensor:
        return F.softplus(x, self.beta, self.threshold)


class Softmax(Module):
    """`F.softmax` along `dim`; without one, along PyTorch's implicit dim (0 for 0-, 1- and 3-D inputs, else 1)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return F.softmax(x, self.dim)


class LogSoftmax(Module):
    """`F.log_softmax` along `dim`; without one, along PyTorch's implicit dim (0 for 0-, 1- and 3-D inputs, else 1)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return F.log_softmax(x, self.dim)


# ---- losses ----


class CrossEntropyLoss(Module):
    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__()
        self.weight, self.ignore_index, self.reduction, self.label_smoothing = (weight, ignore_index, reduction,
                                                                                label_smoothing)

    def forward(self, input: Tensor, target: Any) -> Tensor:  # noqa: A002 (PyTorch's name)
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class NLLLoss(Module):
    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__()
        self.weight, self.ignore_index, self.reduction = weight, ignore_index, reduction

    def forward(self, input: Tensor, target: Any) -> Tensor:  # noqa: A002
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class MSELoss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Any) -> Tensor:  # noqa: A002
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(MSELoss):
    def forward(self, input: Tensor, target: Any) -> Tensor:  # noqa: A002
        return F.l1_loss(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(Module):
    def __init__(self, weight: Tensor | None = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> None:
        super().__init__()
        self.weight, self.reduction, self.pos_weight = weight, reduction, pos_weight

    def forward(self, input: Tensor, target: Any) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


__all__ = ["Module", "Parameter", "is_parameter", "StateDictError", "IncompatibleKeys", "Sequential", "ModuleList",
           "Identity", "Linear", "Conv2d", "MaxPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm",
           "Embedding", "Dropout", "Flatten", "ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "SiLU", "ELU", "Softplus",
           "Softmax", "LogSoftmax", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "BCEWithLogitsLoss",
           "functional", "state"]
