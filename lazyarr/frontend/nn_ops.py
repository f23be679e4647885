"""Neural-network ops as Tensor methods, built from existing ops so they fuse and get gradients for free: linear,
conv2d (im2col from strided views, then one matrix product), pooling (a reduction over blocks, or sums over
strided views), normalisation, dropout, embedding and the losses. Numerics and signatures follow PyTorch;
`lazyarr.nn.functional` exposes them under PyTorch's names.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lazyarr import dtypes
from lazyarr.frontend.autograd import add_pending, new_tensor
from lazyarr.frontend.movement import check_in_capture
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import chain_view, strip_movement
from lazyarr.graph.uop import UOp
from lazyarr.kernels.realize import capturing

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor

REDUCTIONS = ("none", "mean", "sum")


def pair(x: Any, n: int = 2, name: str = "argument") -> tuple[int, ...]:
    """`x` as an n-tuple of ints (an int is repeated, like PyTorch's `_pair`); TypeError for a float (it was
    truncated: stride=1.5 ran as 1), as PyTorch's."""
    items = x if isinstance(x, (list, tuple)) else (x,) * n
    if len(items) != n:
        raise ValueError(f"{name} must be an int or a tuple of {n} ints, got {x}")
    try:
        return tuple(operator.index(v) for v in items)
    except TypeError:
        raise TypeError(f"{name} must be an int or a tuple of {n} ints, got {x!r}") from None


def _reduce_loss(loss: Tensor, reduction: str, denominator: Any = None) -> Tensor:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "none":
        return loss
    total = loss.sum()
    if reduction == "sum":
        return total
    if denominator is None:
        return loss.mean()
    return _weighted_mean(total, denominator)


def _weighted_mean(total: Tensor, denominator: Any) -> Tensor:
    """total / denominator; a zero (tensor) denominator — every target ignored — gives NaN with a zero gradient, as
    PyTorch does (a plain division would send NaN gradients into the weights)."""
    if not isinstance(denominator, type(total)):
        return total / denominator
    empty = denominator == 0
    # the NaN term in total's dtype: a where of two Python floats is float32, which promoted a float16 loss
    return total / empty.where(1, denominator) + empty.where(float("nan"), 0).cast(total.dtype).detach()


def shifted_views(x: Tensor, kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int],
                  out: Sequence[int]) -> list[Tensor]:
    """For each kernel offset (row-major), the strided view of x's last two axes that the offset reads:
    view[..., o1, o2] = x[..., o1*s1 + k1*d1, o2*s2 + k2*d2]. Each is a plain strided view (no copy, no index
    division), so a convolution or pooling is a short sum of fused terms.

    Callers pad x one element past what the last window reads: then no view's slice is the whole axis, every offset
    builds the same ops (offsets are runtime arguments), and their gradient kernels compile once."""
    views = []
    (k1, k2), (s1, s2), (d1, d2), (o1, o2) = kernel, stride, dilation, out
    for i in range(k1):
        for j in range(k2):
            views.append(x[..., i * d1 : i * d1 + s1 * (o1 - 1) + 1 : s1, j * d2 : j * d2 + s2 * (o2 - 1) + 1 : s2])
    return views


def _out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    span = n + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1  # the last window must start inside the input or the left padding (PyTorch)
    return out


class NNMixin:
    """Layers, pooling, normalisation and losses as Tensor methods (mixed into Tensor)."""

    __slots__ = ()

    uop: UOp

    # ---- linear and convolution ----
    def linear(self: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
        """self @ weight.T + bias, with self (..., in) and weight (out, in) (PyTorch's `F.linear`)."""
        out = self @ weight.T
        return out + bias if bias is not None else out

    def conv2d(self: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
               dilation: Any = 1, groups: int = 1) -> Tensor:
        """2-D cross-correlation (PyTorch's `F.conv2d`): self (N, C, H, W) or (C, H, W), weight (O, C/groups, kH, kW).

        `padding` is an int, a pair, 'valid' or 'same' (stride 1 only). Lowered to im2col (one strided view of the
        input per kernel offset, stored once as (N*OH*OW, C*kH*kW)) and one matrix product with the weight (a BLAS
        call on the CPU, and so are the weight's and the columns' gradients); the input's gradient (col2im) is one
        sum of padded slices of the columns' gradient.

        Raises:
            ValueError: shapes that do not fit together, a kernel larger than the padded input, bad arguments.
        """
        if self.ndim == 3:
            return self.unsqueeze(0).conv2d(weight, bias, stride, padding, dilation, groups).squeeze(0)
        if self.ndim != 4 or weight.ndim != 4:
            raise ValueError(f"conv2d expects a 4-D input and weight, got shapes {self.shape} and {weight.shape}")
        n, c, _, _ = self.shape
        o, cg, kh, kw = weight.shape
        if min(kh, kw) < 1:
            raise ValueError(f"conv2d: kernel size must be positive, got weight of shape {weight.shape}")
        s, d = pair(stride, name="stride"), pair(dilation, name="dilation")
        if groups < 1 or c % groups or o % groups or cg != c // groups:
            raise ValueError(f"conv2d: input with {c} channels, weight {weight.shape} and groups={groups} do not fit")
        if min(s) < 1 or min(d) < 1:
            raise ValueError(f"conv2d: stride {s} and dilation {d} must be positive")
        if isinstance(padding, str):
            if padding == "valid":
                pads = [(0, 0), (0, 0)]
            elif padding == "same":
                if s != (1, 1):
                    raise ValueError("padding='same' is not supported for strided convolutions")
                tot = [dd * (k - 1) for dd, k in zip(d, (kh, kw))]
                pads = [(t // 2, t - t // 2) for t in tot]
            else:
                raise ValueError(f"invalid padding string {padding!r}, should be one of 'valid' or 'same'")
        else:
            pads = [(p, p) for p in pair(padding, name="padding")]
            if min(pads)[0] < 0:
                raise ValueError(f"conv2d: negative padding {padding} is not supported")
        # the input is stored first: each of the kernel's kH*kW views re-reads it, which must not recompute it; so
        # is its gradient (col2im, a sum of kH*kW padded views), rather than recomputed through the views of the
        # layer before (a pooling's blocks, say: index divisions for every term)
        x = _stored_both_ways(self).pad([(0, 0), (0, 0), *pads])
        for size, k, dd, name in zip(x.shape[2:], (kh, kw), d, ("height", "width")):
            if dd * (k - 1) + 1 > size:
                raise ValueError(f"conv2d: kernel {name} {k} (dilation {dd}) is larger than the padded input ({size})")
        oh, ow = ((size - dd * (k - 1) - 1) // ss + 1 for size, k, dd, ss in zip(x.shape[2:], (kh, kw), d, s))
        x = x.pad([(0, 0), (0, 0), (0, 1), (0, 1)])  # see shifted_views
        # im2col: cols[n, oh, ow, c, kh*kw], stored once; each kernel offset is a strided view of x, so the gradient
        # (col2im) is a sum of padded slices of the columns' gradient, one fused kernel without index divisions
        views = shifted_views(x, (kh, kw), s, d, (oh, ow))
        # placed by zero padding along the new axis and added (a where-chain's gradient would be a chain too)
        kk = len(views)
        cols = _sum([v.unsqueeze(-1).pad([(0, 0)] * 4 + [(i, kk - 1 - i)]) for i, v in enumerate(views)])
        cols = cols.permute(0, 2, 3, 1, 4).contiguous()
        m, kg = n * oh * ow, cg * kh * kw
        wr = weight.cast(x.dtype).reshape(groups, o // groups, kg)
        if groups == 1:  # one matrix product (N*OH*OW, C*kH*kW) @ (C*kH*kW, O): one BLAS call each way
            out = cols.reshape(m, kg) @ wr[0].T
        else:
            out = (cols.reshape(m, groups, kg).permute(1, 0, 2) @ wr.permute(0, 2, 1)).permute(1, 0, 2)
        out = out.reshape(n, oh, ow, o).permute(0, 3, 1, 2)
        return out + bias.reshape(1, o, 1, 1) if bias is not None else out

    # ---- pooling ----
    def _pool_geometry(self: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                       ceil_mode: bool) -> tuple[tuple[int, ...], ...]:
        """(kernel, stride, padding, dilation, output sizes) of a 2-D pooling of self's last two axes (checked)."""
        if self.ndim not in (3, 4):
            raise ValueError(f"pooling expects a 3-D or 4-D input, got shape {self.shape}")
        k = pair(kernel_size, name="kernel_size")
        s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else pair(stride, name="stride")
        p, d = pair(padding, name="padding"), pair(dilation, name="dilation")
        if min(s) < 1 or min(d) < 1 or min(k) < 1 or min(p) < 0:
            raise ValueError(f"pooling: kernel {k}, stride {s} and dilation {d} must be positive, padding {p} >= 0")
        if any(pp > kk // 2 for pp, kk in zip(p, k)):
            raise ValueError(f"pad should be at most half of effective kernel size, got padding {p} and kernel {k}")
        sizes = self.shape[-2:]
        outs = tuple(_out_size(n, kk, ss, pp, dd, ceil_mode) for n, kk, ss, pp, dd in zip(sizes, k, s, p, d))
        if min(outs) < 1:
            raise ValueError(f"pooling: output size {outs} is too small for input {self.shape}")
        return k, s, p, d, outs

    def _pool_views(self: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                    fill: float, extra_fill: float | None = None) -> list[Tensor]:
        """The strided views (..., OH, OW) that each pooling-window offset reads, of the last two axes padded with
        `fill`; what a ceil_mode window reads past the padding is `extra_fill` (default `fill`)."""
        k, s, p, d, outs = self._pool_geometry(kernel_size, stride, padding, dilation, ceil_mode)
        sizes = self.shape[-2:]
        lead = [(0, 0)] * (self.ndim - 2)
        # ceil_mode windows may read past the padded input; +1: see shifted_views
        spans = [(o - 1) * ss + dd * (kk - 1) + 1 for o, ss, dd, kk in zip(outs, s, d, k)]
        extra = [max(0, sp - n - 2 * pp) + 1 for sp, n, pp in zip(spans, sizes, p)]
        if extra_fill is None or extra_fill == fill:
            x = self.pad(lead + [(pp, pp + e) for pp, e in zip(p, extra)], value=fill)
        else:
            x = self.pad(lead + [(pp, pp) for pp in p], value=fill)
            x = x.pad(lead + [(0, e) for e in extra], value=extra_fill)
        return shifted_views(x, k, s, d, outs)

    def _pool_blocks(self: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                     fill: float, extra_fill: float | None = None) -> Tensor | None:
        """For windows that tile the input (stride = kernel, no dilation): the last two axes padded like
        `_pool_views` and cut into blocks, (..., OH, kH, OW, kW) by a reshape; else None. A reduction over the block
        axes pools, and its gradient is a reshape back (no per-offset strided spreads)."""
        k, s, p, d, outs = self._pool_geometry(kernel_size, stride, padding, dilation, ceil_mode)
        if s != k or d != (1, 1):
            return None
        lead = [(0, 0)] * (self.ndim - 2)
        x = self.pad(lead + [(pp, pp) for pp in p], value=fill)
        rest = [o * kk - n for o, kk, n in zip(outs, k, x.shape[-2:])]  # > 0: ceil_mode windows read past the end
        if max(rest) > 0:
            x = x.pad(lead + [(0, max(0, r)) for r in rest], value=fill if extra_fill is None else extra_fill)
        if min(rest) < 0:
            x = x.shrink([None] * len(lead) + [(0, o * kk) for o, kk in zip(outs, k)])
        return x.reshape(*x.shape[:-2], outs[0], k[0], outs[1], k[1])

    def max_pool2d(self: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                   ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
        """2-D max pooling over the last two axes (PyTorch's `F.max_pool2d`; padding reads -inf).

        The gradient goes to the first largest element of each window, as in PyTorch; NaN propagates.
        Raises NotImplementedError for `return_indices=True`.
        """
        if return_indices:
            raise NotImplementedError("max_pool2d(return_indices=True) is not supported")
        fill = -math.inf if self.dtype.is_float else dtypes.min_value(self.dtype)
        blocks = self._pool_blocks(kernel_size, stride, padding, dilation, ceil_mode, fill)
        if blocks is not None:
            return blocks._max_pool_blocks()
        views = self._pool_views(kernel_size, stride, padding, dilation, ceil_mode, fill)
        biggest = views[0]
        for v in views[1:]:
            biggest = biggest.maximum(v)
        biggest = biggest.detach()
        # the offset of each window's first largest element (or first NaN), stored once so that neither the
        # forward sum nor its gradient recomputes the whole window for every offset
        first: Any = len(views)
        for k in reversed(range(len(views))):
            v = views[k]
            hit = (v == biggest) | (v != v) if v.dtype.is_float else v == biggest
            first = hit.where(k, first)
        first = first.cast(dtypes.int32).contiguous()
        # the offsets as views of an index tensor, not constants: the per-offset gradient kernels are all one kernel
        offsets = type(self).arange(len(views), dtype=dtypes.int32, device=self.device)
        return _sum([(first == offsets[k]).where(v, 0) for k, v in enumerate(views)])

    def _max_pool_blocks(self: Tensor) -> Tensor:
        """Max pooling of blocks (..., OH, kH, OW, kW) (see `_pool_blocks`) -> (..., OH, OW), the gradient going to
        each block's first largest element (or first NaN)."""
        kh, kw = self.shape[-3], self.shape[-1]
        biggest = self.max((-3, -1), keepdims=True).detach()
        hit = (self == biggest) | (self != self) if self.dtype.is_float else self == biggest
        # each block element's offset, row-major; the first hit's offset is stored once, so that neither the forward
        # sum nor its gradient recomputes the block's maximum
        offsets = type(self).arange(kh * kw, dtype=dtypes.int32, device=self.device).reshape(kh, 1, kw)
        first = hit.where(offsets, kh * kw).min((-3, -1), keepdims=True).contiguous()
        return (first == offsets).where(self, 0).sum((-3, -1), dtype=self.dtype)

    def avg_pool2d(self: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                   count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
        """2-D average pooling over the last two axes (PyTorch's `F.avg_pool2d`, same divisor rules; ValueError for a
        divisor_override of 0)."""
        if divisor_override is not None and divisor_override == 0:
            raise ValueError("avg_pool2d: divisor must be not zero")
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        blocks = x._pool_blocks(kernel_size, stride, padding, 1, ceil_mode, 0.0)
        if blocks is not None:  # windows that tile the input: one sum over the block axes
            total = blocks.sum((-3, -1))
        else:
            total = _sum(x._pool_views(kernel_size, stride, padding, 1, ceil_mode, 0.0))
        if divisor_override is not None:
            return total / divisor_override
        # the divisor counts the window's elements inside the input (and inside the padding when count_include_pad)
        ones = new_tensor(x, UOp.const(1.0, x.dtype, (1, *x.shape[-2:])))
        fills = (kernel_size, stride, padding, 1, ceil_mode, float(count_include_pad), 0.0)
        if blocks is not None:
            count = ones._pool_blocks(*fills).sum((-3, -1))  # type: ignore[union-attr]
        else:
            count = _sum(ones._pool_views(*fills))
        return total / count.contiguous()  # stored once, not recomputed by each offset's gradient

    # ---- normalisation ----
    def layer_norm(self: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None,
                   eps: float = 1e-5) -> Tensor:
        """Normalise over the trailing `normalized_shape` axes (biased variance), then scale and shift (PyTorch)."""
        shape = tuple(normalized_shape) if isinstance(normalized_shape, (list, tuple)) else (int(normalized_shape),)
        if self.shape[self.ndim - len(shape):] != shape:
            raise ValueError(f"layer_norm: normalized_shape {shape} does not match the input's trailing dims "
                             f"{self.shape}")
        axes = tuple(range(self.ndim - len(shape), self.ndim))
        mean = self.mean(axes, keepdims=True)
        centered = self - mean
        out = centered * ((centered * centered).mean(axes, keepdims=True) + eps).rsqrt()
        if weight is not None:
            out = out * weight
        return out + bias if bias is not None else out

    def batch_norm(self: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
                   bias: Tensor | None = None, training: bool = False, momentum: float | None = 0.1,
                   eps: float = 1e-5, num_batches_tracked: Tensor | None = None) -> Tensor:
        """Batch normalisation over every axis but 1 (PyTorch's `F.batch_norm`).

        Training uses the batch statistics and, when running stats are given, updates them in place (unbiased
        variance, `momentum`; momentum=None means a cumulative average over `num_batches_tracked`). Evaluation uses
        the running statistics.
        """
        if self.ndim < 2:
            raise ValueError(f"batch_norm expects at least 2 dims (N, C, ...), got shape {self.shape}")
        axes = tuple(i for i in range(self.ndim) if i != 1)
        shape = tuple(s if i == 1 else 1 for i, s in enumerate(self.shape))
        if training:
            count = self.size // self.shape[1] if self.shape[1] else 0
            if count == 1:
                raise ValueError(f"Expected more than 1 value per channel when training, got input size {self.shape}")
            mean = self.mean(axes, keepdims=True)
            centered = self - mean
            var = (centered * centered).mean(axes, keepdims=True)
            if count == 0 and num_batches_tracked is not None:  # an empty batch: no statistics to track (PyTorch)
                num_batches_tracked.assign(num_batches_tracked.detach() + 1)
                add_pending(num_batches_tracked)
            elif count and running_mean is not None and running_var is not None:
                if momentum is None:
                    if num_batches_tracked is None:
                        raise ValueError("batch_norm with momentum=None needs num_batches_tracked")
                    factor: Any = 1.0 / (num_batches_tracked.detach() + 1).cast(self.dtype)
                else:
                    factor = momentum
                m, v = mean.detach().reshape(-1), var.detach().reshape(-1) * (count / (count - 1))
                running_mean.assign((running_mean.detach() * (1 - factor) + m * factor).cast(running_mean.dtype))
                running_var.assign((running_var.detach() * (1 - factor) + v * factor).cast(running_var.dtype))
                add_pending(running_mean)  # computed by the next optimizer step at the latest
                add_pending(running_var)
                if num_batches_tracked is not None:
                    num_batches_tracked.assign(num_batches_tracked.detach() + 1)
                    add_pending(num_batches_tracked)
            out = centered * (var + eps).rsqrt()
        else:
            if running_mean is None or running_var is None:
                raise ValueError("batch_norm in evaluation mode needs running_mean and running_var")
            out = (self - running_mean.reshape(shape)) * (running_var.reshape(shape) + eps).rsqrt()
        if weight is not None:
            out = out * weight.reshape(shape)
        return out + bias.reshape(shape) if bias is not None else out

    # ---- dropout and embedding ----
    def dropout(self: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
        """Zero each element with probability p and scale the rest by 1/(1-p) (lazy RNG); identity when not training."""
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        if not training or p == 0:
            return self
        if p == 1:
            return self * 0
        keep = type(self).rand(*self.shape, device=self.device) >= p
        return keep.where(self * (1 / (1 - p)), 0)

    def embedding(self: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
        """Rows of `weight` (num, dim) picked by the integer indices in self: shape self.shape + (dim,).

        Rows at `padding_idx` get no gradient (PyTorch). IndexError for indices out of range, negative ones too
        (a computed index is computed first; inside @lazyarr.jit, jit checks after each call).
        """
        if not self.dtype.is_int:
            raise TypeError(f"embedding indices must be integers, got {self.dtype.name}")
        _check_targets(self, weight.shape[0], None, "Index")
        out = weight[self]
        if padding_idx is None:
            return out
        pad = padding_idx % weight.shape[0]
        return (self != pad).unsqueeze(-1).where(out, out.detach())

    def one_hot(self: Tensor, num_classes: int = -1) -> Tensor:
        """int64 one-hot encoding along a new last axis (PyTorch's `F.one_hot`); IndexError for a class outside
        [0, num_classes) (as for class targets, `_check_targets`)."""
        if not self.dtype.is_int:
            raise TypeError(f"one_hot is only applicable to index tensors, got {self.dtype.name}")
        if num_classes < 0:
            num_classes = int(self.max().item()) + 1 if self.size else 0
        _check_targets(self, num_classes, None, "Class")
        classes = new_tensor(self, UOp(Ops.IOTA, dtypes.int64, (), num_classes))
        return (self.unsqueeze(-1).cast(dtypes.int64) == classes).cast(dtypes.int64)

    # ---- losses ----
    def _class_log_softmax(self: Tensor, axis: int) -> Tensor:
        x = self if self.dtype.is_float else self.cast(dtypes.default_float)
        shifted = x._minus_max(axis, detach=True)
        return shifted - shifted.exp().sum(axis, keepdims=True).log()

    def nll_loss(self: Tensor, target: Any, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> Tensor:
        """Negative log-likelihood of class indices (PyTorch's `F.nll_loss`): self (N, C, ...) or (C,) holds
        log-probabilities, target (N, ...) or () class indices; 'mean' divides by the summed weights of the
        non-ignored targets.

        Raises:
            IndexError: a target outside [0, C) that is not `ignore_index` (`_check_targets`).
            ValueError: shapes that do not fit.
        """
        logp, tgt = self, _as_tensor(self, target)
        if logp.ndim == 1:
            logp, tgt = logp.unsqueeze(0), tgt.unsqueeze(0)
        if not tgt.dtype.is_int:
            raise TypeError(f"nll_loss expects integer class indices, got {tgt.dtype.name}")
        n_cls = logp.shape[1]
        if tgt.shape != logp.shape[:1] + logp.shape[2:]:
            raise ValueError(f"Expected target of shape {logp.shape[:1] + logp.shape[2:]}, got {tgt.shape}")
        _check_targets(tgt, n_cls, ignore_index)
        tgt = tgt.cast(dtypes.int64)
        classes = new_tensor(self, UOp(Ops.IOTA, dtypes.int64, (), n_cls)).reshape([n_cls if i == 1 else 1
                                                                           for i in range(logp.ndim)])
        # the entry of each target is selected, not multiplied by a one-hot mask: a -inf (or NaN) log-probability of
        # another class stays out of the loss and its gradient, as in PyTorch, which reads logp[n, target[n]] alone
        picked = (tgt.unsqueeze(1) == classes) & (tgt != ignore_index).unsqueeze(1)
        w = picked.cast(logp.dtype) if weight is None else \
            picked.where(weight.cast(logp.dtype).reshape(classes.shape), 0)
        if weight is None:  # a target in range picks one class: count them without a pass over the classes
            picked_w = ((tgt >= 0) & (tgt < n_cls) & (tgt != ignore_index)).cast(logp.dtype)
        else:
            picked_w = w.sum(1)
        loss = -picked.where(logp * w, 0).sum(1)
        out = _reduce_loss(loss, reduction, picked_w.sum())
        return out.squeeze(0) if self.ndim == 1 and reduction == "none" else out

    def cross_entropy(self: Tensor, target: Any, weight: Tensor | None = None, ignore_index: int = -100,
                      reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
        """Cross entropy between logits self (N, C, ...) or (C,) and target (PyTorch's `F.cross_entropy`).

        target holds class indices (N, ...) — with `weight`, `ignore_index`, `label_smoothing` and 'mean' over the
        summed target weights — or class probabilities of self's shape ('mean' over N * ...).
        """
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        tgt = _as_tensor(self, target)
        axis = 0 if self.ndim == 1 else 1
        logp = self._class_log_softmax(axis)
        n_cls = self.shape[axis]
        cls_shape = [n_cls if i == axis else 1 for i in range(self.ndim)]
        wb = weight.cast(logp.dtype).reshape(cls_shape) if weight is not None else None
        if tgt.dtype.is_float:  # class probabilities
            if tgt.shape != self.shape:
                raise ValueError(f"Expected target of shape {self.shape} for class probabilities, got {tgt.shape}")
            probs = tgt.cast(logp.dtype)
            if label_smoothing > 0:
                probs = probs * (1 - label_smoothing) + label_smoothing / n_cls
            terms = logp * probs if wb is None else logp * probs * wb
            loss = -terms.sum(axis)
            return _reduce_loss(loss, reduction, self.size // n_cls)
        nll = logp.nll_loss(tgt, weight, ignore_index, reduction)
        if label_smoothing == 0:
            return nll
        tgt_b = tgt if self.ndim > 1 else tgt.unsqueeze(0)
        lp = logp if self.ndim > 1 else logp.unsqueeze(0)
        smooth = -(lp if wb is None else lp * wb.reshape([n_cls if i == 1 else 1 for i in range(lp.ndim)])).sum(1)
        valid = tgt_b != ignore_index
        smooth = valid.where(smooth, 0)
        if reduction == "mean":
            if weight is None:
                denom: Any = valid.cast(logp.dtype).sum()
            else:
                denom = nll_weights_sum(tgt_b, weight.cast(logp.dtype), ignore_index)
            ret = _weighted_mean(smooth.sum(), denom)
        elif reduction == "sum":
            ret = smooth.sum()
        else:
            ret = smooth if self.ndim > 1 else smooth.squeeze(0)
        return nll * (1 - label_smoothing) + ret * (label_smoothing / n_cls)

    def mse_loss(self: Tensor, target: Any, reduction: str = "mean") -> Tensor:
        """Mean squared error (PyTorch's `F.mse_loss`; operands broadcast)."""
        diff = self - _as_tensor(self, target)
        return _reduce_loss(diff * diff, reduction)

    def l1_loss(self: Tensor, target: Any, reduction: str = "mean") -> Tensor:
        """Mean absolute error (PyTorch's `F.l1_loss`)."""
        return _reduce_loss((self - _as_tensor(self, target)).abs(), reduction)

    def binary_cross_entropy_with_logits(self: Tensor, target: Any, weight: Any = None, reduction: str = "mean",
                                         pos_weight: Any = None) -> Tensor:
        """Sigmoid + binary cross entropy in one stable formula (PyTorch's `F.binary_cross_entropy_with_logits`)."""
        y = _as_tensor(self, target).cast(self.dtype)
        if y.shape != self.shape:
            raise ValueError(f"Target size ({y.shape}) must be the same as input size ({self.shape})")
        neg_part = (-self).maximum(0)
        # log(1 + exp(-x)) without overflow: m + log(exp(-m) + exp(-x - m)) with m = max(-x, 0)
        log1pexp = neg_part + ((-neg_part).exp() + (-self - neg_part).exp()).log()
        if pos_weight is not None:
            lw = (_as_tensor(self, pos_weight) - 1) * y + 1
            loss = (1 - y) * self + lw * log1pexp
        else:
            loss = (1 - y) * self + log1pexp
        if weight is not None:
            loss = loss * weight
        return _reduce_loss(loss, reduction)

    def binary_cross_entropy(self: Tensor, target: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
        """Binary cross entropy of probabilities self (PyTorch's `F.binary_cross_entropy`; logs clamped at -100).

        The gradient is PyTorch's (x - y) / max(x * (1 - x), 1e-12): where x * (1 - x) < 1e-12 (x at or next to 0
        or 1) the loss is the clamped value with that gradient (the clamped logs' own is 0 * inf = NaN at 0 and 1).
        ValueError when target's shape is not self's."""
        y = _as_tensor(self, target).cast(self.dtype)
        if y.shape != self.shape:
            raise ValueError(f"Using a target size ({y.shape}) that is different to the input size ({self.shape})")
        x = self.detach()
        clamped = -(y * x.log().maximum(-100) + (1 - y) * (1 - x).log().maximum(-100))
        inside = x * (1 - x) >= 1e-12
        safe = inside.where(self, 0.5)
        exact = -(y * safe.log() + (1 - y) * (1 - safe).log())
        # (self - x) is 0: the value stays `clamped`, the gradient is PyTorch's
        edge = clamped + (self - x) * ((x - y) / 1e-12).detach()
        loss = inside.where(exact, edge)
        if weight is not None:
            loss = loss * weight
        return _reduce_loss(loss, reduction)

    def logsigmoid(self: Tensor) -> Tensor:
        """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)) (PyTorch's form): accurate where the result is tiny
        (large x, where log(1 + e) would round e away), -inf at -inf, and one exp."""
        x = self._as_float()
        pos = x >= 0
        return pos.where(0, x) - pos.where(-x, x).exp().log1p()


def nll_weights_sum(target: Tensor, weight: Tensor, ignore_index: int) -> Tensor:
    """Sum of weight[target] over the targets that are not `ignore_index`."""
    n_cls = weight.shape[0]
    classes = new_tensor(target, UOp(Ops.IOTA, dtypes.int64, (), n_cls))
    hot = (target.cast(dtypes.int64).unsqueeze(-1) == classes) & (target != ignore_index).unsqueeze(-1)
    return hot.where(weight, 0).sum()


def _stored_both_ways(x: Tensor) -> Tensor:
    """x stored (like `contiguous`), and the gradient flowing back through it stored as well."""
    chain, base = strip_movement(x.uop)
    if base.op is Ops.BUFFER and (v := chain_view(chain, base.shape)) is not None and v.contiguous:
        return x  # stored data (an input batch): nothing to store, and its gradient is a final result
    return x._new(UOp(Ops.CONTIGUOUS, x.dtype, (x.uop,), "grad"))


def _sum(terms: list[Tensor]) -> Tensor:
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


def _as_tensor(like: Tensor, x: Any) -> Tensor:
    return x if isinstance(x, type(like)) else type(like)(x, device=like.device)


def _check_targets(target: Tensor, n_classes: int, ignore_index: int | None, what: str = "Target") -> None:
    """IndexError for class indices out of range (`ignore_index` aside): read on the host (a computed target is
    computed first), or, while @lazyarr.jit captures, checked by jit after the call and each replay."""
    if target.size == 0:
        return
    if capturing:
        t64 = target.cast(dtypes.int64)
        out = (t64 < 0) | (t64 >= n_classes)
        check_in_capture(t64, out if ignore_index is None else out & (t64 != ignore_index),
                         f"{what} {{}} is out of bounds for {n_classes} classes")
        return
    vals = target.numpy()
    out = (vals < 0) | (vals >= n_classes)
    bad = vals[out if ignore_index is None else out & (vals != ignore_index)]
    if bad.size:
        raise IndexError(f"{what} {int(bad.flat[0])} is out of bounds for {n_classes} classes")


__all__ = ["NNMixin", "shifted_views", "pair"]
