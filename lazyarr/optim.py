"""Optimizers (PyTorch's SGD, Adam, AdamW numerics) that update parameters in place with `assign`.

Each parameter's state (moments and a step counter) lives in one buffer, one row per moment, so a step is two fused
kernels per parameter with state (state, then parameter) and one without. The learning rate is a float64 Tensor:
changing it writes a buffer and recompiles nothing. Gradients (and the loss `backward()` was called on) are computed
before any parameter is written, so the update never reads half-updated weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.autograd import enable_grad, forget_history, no_grad, take_pending
from lazyarr.frontend.tensor import Tensor


def _scalar_buffer(value: float, device: str) -> Tensor:
    """A 0-d float64 tensor with its own storage (a buffer, not a constant baked into kernels)."""
    return Tensor(np.array([value], dtype=np.float64), device=device).reshape(())


class ParamGroup(dict):
    """A parameter group: 'params' and hyperparameters. Setting 'lr' writes the group's learning-rate Tensor."""

    lr_tensor: Tensor

    def __setitem__(self, key: str, value: Any) -> None:
        if key == "lr":
            value = float(value.item() if isinstance(value, Tensor) else value)
            if value < 0:
                raise ValueError(f"Invalid learning rate: {value}")
            if hasattr(self, "lr_tensor"):
                self.lr_tensor.assign(_scalar_buffer(value, self.lr_tensor.device))
        super().__setitem__(key, value)


class Optimizer:
    """Base class: parameter groups, `zero_grad()`, `step()`; subclasses write `_update(p, grad, group)`.

    `params` is an iterable of tensors that require grad, or of dicts {'params': [...], hyperparameter: value}.
    """

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        self.defaults = defaults
        self.param_groups: list[ParamGroup] = []
        self.state: dict[int, Tensor] = {}  # id(param) -> its state buffer (see `_state`)
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, group: dict[str, Any]) -> None:
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, got {type(p).__name__}")
            if not p.dtype.is_float:
                raise TypeError(f"optimizer can only optimize float tensors, got {p.dtype.name}")
            if p._requires_grad is not True:
                raise ValueError("optimizer got a tensor that is not a leaf requiring grad (set requires_grad=True)")
            if id(p) in seen:
                raise ValueError("some parameters appear in more than one parameter group")
            seen.add(id(p))
        pg = ParamGroup()
        for k, v in {**self.defaults, **group}.items():
            if k != "lr":
                dict.__setitem__(pg, k, v)
        dict.__setitem__(pg, "params", params)
        lr = float(group.get("lr", self.defaults["lr"]))
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        pg.lr_tensor = _scalar_buffer(lr, params[0].device if params else "CPU")
        dict.__setitem__(pg, "lr", lr)
        self.param_groups.append(pg)

    @property
    def lr(self) -> Tensor:
        """The first group's learning rate as a 0-d float64 Tensor; assigning a number sets every group's."""
        return self.param_groups[0].lr_tensor

    @lr.setter
    def lr(self, value: float) -> None:
        for g in self.param_groups:
            g["lr"] = value

    @property
    def params(self) -> list[Tensor]:
        return [p for g in self.param_groups for p in g["params"]]

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients (set `.grad` to None, or to zeros when `set_to_none=False`)."""
        for p in self.params:
            p.grad = None if set_to_none or p.grad is None else p.zeros_like()  # PyTorch: a missing grad stays None

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns closure's loss when a closure is given."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        work = [(p, g) for g in self.param_groups for p in g["params"] if p.grad is not None]
        # everything that reads the current weights is computed before the first weight is written
        pending = [*[p.grad for p, _ in work], *take_pending()]
        if pending:
            Tensor.realize(*pending)
        updated: list[Tensor] = []
        with no_grad():  # the parameters are leaves that require grad: their update is no step of a graph
            for p, group in work:
                assert p.grad is not None
                if p.grad.shape != p.shape:
                    raise ValueError(f"gradient of shape {p.grad.shape} for a parameter of shape {p.shape}")
                updated += self._update(p, p.grad.detach().cast(p.dtype), group)
            if updated:
                Tensor.realize(*updated)
        forget_history()  # remembered forward graphs would now recompute with the new weights
        return loss

    def _update(self, p: Tensor, grad: Tensor, group: ParamGroup) -> list[Tensor]:
        raise NotImplementedError

    def _state(self, p: Tensor, slots: int, counter: bool) -> Tensor:
        """p's state, zeros on first use: with `counter`, a (slots, n + 1) buffer, one flat row per slot (n = p.size)
        and the step count at [0, n]; without, a (slots, *p.shape) buffer (a slot has p's layout, so a kernel that
        updates it from a gradient that is a transposed view indexes both without unravelling a flat position)."""
        st = self.state.get(id(p))
        if st is None:
            dt = dtypes.float32 if p.dtype is dtypes.float16 else p.dtype
            shape = (slots, p.size + 1) if counter else (slots, *p.shape)
            st = Tensor.zeros(*shape, dtype=dt, device=p.device).clone().realize()
            self.state[id(p)] = st
        return st

    @staticmethod
    def _update_state(st: Tensor, grad: Tensor, rules: list[Callable[[Tensor, Tensor], Tensor]],
                      shape: tuple[int, ...]) -> tuple[list[Tensor], Tensor | None]:
        """Write slot k of `st` as rules[k](slot, grad) and add 1 to the step count (when st has one); returns views
        of the slots (shaped `shape`) and of the count that read the written values.

        Every rule sees the whole state at the position it writes, so the write reads nothing it overwrites
        elsewhere and needs no copy first: one kernel per parameter."""
        slots, n = st.shape[0], grad.size
        counted = st.shape[1:] != shape  # a flat (slots, n + 1) state (see `_state`)
        if not counted and slots == 1:  # one slot, no count (SGD's momentum): no row selection to build
            st.assign(rules[0](st, grad.reshape(1, *shape).cast(st.dtype)).cast(st.dtype))
            return [st.reshape(shape)], None
        if counted:
            width = st.shape[1]
            g = grad.reshape(1, n).cast(st.dtype).pad(((0, 0), (0, width - n)))
            row = Tensor.arange(slots, device=st.device).reshape(slots, 1)
        else:
            g = grad.reshape(1, *shape).cast(st.dtype)
            row = Tensor.arange(slots, device=st.device).reshape(slots, *(1,) * len(shape))
        new = rules[-1](st, g)
        for k in reversed(range(slots - 1)):
            new = (row == k).where(rules[k](st, g), new)
        if counted:
            col = Tensor.arange(width, device=st.device).reshape(1, width)
            new = (col == n).where((row == 0).where(st + 1, 0), new)
        st.assign(new.cast(st.dtype))
        if counted:
            return [st[k, :n].reshape(shape) for k in range(slots)], st[0, n]
        return [st[k] for k in range(slots)], None


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening, Nesterov momentum and (L2) weight decay,
    exactly as torch.optim.SGD (the first step's momentum buffer is the gradient itself)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: float = 0.0, nesterov: bool = False, maximize: bool = False) -> None:
        if momentum < 0 or weight_decay < 0:
            raise ValueError(f"Invalid momentum {momentum} or weight_decay {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize})

    def _update(self, p: Tensor, grad: Tensor, group: ParamGroup) -> list[Tensor]:
        pd = p.detach()
        g = -grad if group["maximize"] else grad
        if group["weight_decay"]:
            g = g + pd * group["weight_decay"]
        out = []
        mu, damp = group["momentum"], group["dampening"]
        if mu:
            # the buffer starts at zero, so the first step gives buf = g, as PyTorch's; with dampening the first step
            # needs the count (a read of another position: the state is copied before the write)
            st = self._state(p, 1, counter=bool(damp))
            if damp:
                first = st[0, p.size] == 0
                rule = lambda buf, gr: first.where(gr, buf * mu + gr * (1 - damp))
            else:
                rule = lambda buf, gr: buf * mu + gr
            (buf,), _ = self._update_state(st, g, [rule], p.shape)
            g = g + buf * mu if group["nesterov"] else buf
            out.append(st)
        lr = group.lr_tensor.cast(p.dtype)
        out.append(p.assign((pd + g * -lr).cast(p.dtype)))
        return out


class Adam(Optimizer):
    """Adam (torch.optim.Adam numerics: bias corrections in float64, L2 weight decay added to the gradient).
    `AdamW` decouples the weight decay. amsgrad is not supported."""

    decoupled = False

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0, amsgrad: bool = False, maximize: bool = False) -> None:
        if amsgrad:
            raise NotImplementedError("amsgrad is not supported")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1) or eps < 0 or weight_decay < 0:
            raise ValueError(f"Invalid betas {betas}, eps {eps} or weight_decay {weight_decay}")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                                  "maximize": maximize})

    def _update(self, p: Tensor, grad: Tensor, group: ParamGroup) -> list[Tensor]:
        b1, b2 = group["betas"]
        wd, eps = group["weight_decay"], group["eps"]
        lr64 = group.lr_tensor
        pd = p.detach()
        g = -grad if group["maximize"] else grad
        if wd and not self.decoupled:
            g = g + pd * wd
        st = self._state(p, 2, counter=True)
        rules = [lambda m, gr: m + (gr - m) * (1 - b1), lambda v, gr: v * b2 + gr * gr * (1 - b2)]
        (m1, v1), step1 = self._update_state(st, g, rules, p.shape)
        assert step1 is not None
        t = step1.cast(dtypes.float64)
        bias1 = 1 - Tensor(b1, dtype=dtypes.float64) ** t
        bias2_sqrt = (1 - Tensor(b2, dtype=dtypes.float64) ** t).sqrt()
        step_size = (lr64 / bias1).cast(p.dtype)
        denom = v1.sqrt() / bias2_sqrt.cast(p.dtype) + eps
        base = pd * (1 - lr64 * wd).cast(p.dtype) if wd and self.decoupled else pd
        return [st, p.assign((base + (m1 / denom) * -step_size).cast(p.dtype))]


class AdamW(Adam):
    """Adam with decoupled weight decay (torch.optim.AdamW; default weight_decay 0.01)."""

    decoupled = True

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.01, amsgrad: bool = False, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)


__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "ParamGroup"]
