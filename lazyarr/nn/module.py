"""`Module` (PyTorch-style container of parameters, buffers and submodules, with train/eval and state dicts) and
`Parameter` (a tensor that requires grad and has its own storage).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from lazyarr.frontend.autograd import no_grad
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.ops import Ops

# tensors made by Parameter(), so a module registers them even when requires_grad=False (frozen)
_parameters: weakref.WeakValueDictionary[int, Tensor] = weakref.WeakValueDictionary()


class _ParameterType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return is_parameter(obj)


class Parameter(metaclass=_ParameterType):
    """`Parameter(data=None, requires_grad=True)`: a tensor a Module registers as a parameter — `data` (a Tensor or
    array-like; empty when None) with its own storage, and `requires_grad` (default True).

    lazyarr has one tensor type, so this returns a plain `Tensor` (`isinstance(t, Parameter)` still tells parameters
    apart); when `data` is a realised Tensor it shares its storage, as torch.nn.Parameter does.
    """

    def __new__(cls, data: Any = None, requires_grad: bool = True) -> Tensor:  # type: ignore[misc]
        # a Tensor's data, not its graph (torch.nn.Parameter makes a new leaf of the same storage)
        t = Tensor(np.zeros((0,), np.float32) if data is None else data.detach() if isinstance(data, Tensor) else data)
        if not _has_storage(t):
            t = t.clone().realize()
        t.requires_grad = requires_grad
        _parameters[id(t)] = t
        return t


def is_parameter(t: Any) -> bool:
    """True for tensors made by `Parameter` (or marked `requires_grad=True` on a leaf)."""
    return isinstance(t, Tensor) and (_parameters.get(id(t)) is t or t._requires_grad is True)


def _has_storage(t: Tensor) -> bool:
    u = t.uop
    while u.op in (Ops.RESHAPE, Ops.PERMUTE, Ops.SHRINK, Ops.FLIP, Ops.STRIDE, Ops.DETACH):
        u = u.src[0]
    return u.op is Ops.BUFFER


class StateDictError(RuntimeError, ValueError):
    """A state dict that does not fit the module: missing or unexpected keys, or shape mismatches."""


class IncompatibleKeys(NamedTuple):
    """What `load_state_dict(strict=False)` skipped."""

    missing_keys: list[str]
    unexpected_keys: list[str]


class Module:
    """Base class of layers (PyTorch's `nn.Module`): assigning a Parameter, a buffer (`register_buffer`) or another
    Module to an attribute registers it, in order, under that name; `state_dict()` keys are dotted paths.
    Subclasses implement `forward`; calling the module calls it.
    """

    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    # ---- registration ----
    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign attributes before Module.__init__() call")
        params, bufs, mods = self._parameters, self._buffers, self._modules
        if isinstance(value, Module):
            _drop(name, params, bufs)
            mods[name] = value
        elif is_parameter(value):
            _drop(name, bufs, mods)
            params[name] = value
        elif name in params and value is None:
            params[name] = None
        elif name in bufs and (value is None or isinstance(value, Tensor)):
            bufs[name] = value
        else:
            _drop(name, params, bufs, mods)
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Tensor | None) -> None:
        """Register `param` (a Parameter, or None for an absent optional parameter) under `name`."""
        self._parameters[name] = param if param is None or is_parameter(param) else Parameter(param)

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a non-parameter tensor (e.g. running statistics) that is part of the state; it gets its own
        storage so it can be updated in place. Non-persistent buffers stay out of `state_dict()`."""
        if tensor is not None and not _has_storage(tensor):
            tensor = tensor.clone().realize()
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)

    def register_module(self, name: str, module: Module | None) -> None:
        self._modules[name] = module

    add_module = register_module

    # ---- traversal ----
    def named_modules(self, prefix: str = "", memo: set[int] | None = None) -> Iterator[tuple[str, Module]]:
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(f"{prefix}.{name}" if prefix else name, memo)

    def modules(self) -> Iterator[Module]:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self) -> Iterator[Module]:
        for _, m in self.named_children():
            yield m

    def _named(self, table: str, prefix: str, recurse: bool) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        mods = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for mprefix, m in mods:
            for name, t in getattr(m, table).items():
                if t is None or id(t) in seen:
                    continue
                seen.add(id(t))
                yield (f"{mprefix}.{name}" if mprefix else name), t

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        """(dotted name, parameter) pairs, each parameter once, in registration order."""
        return self._named("_parameters", prefix, recurse)

    def parameters(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ---- modes ----
    def train(self, mode: bool = True) -> Module:
        """Set training mode (dropout active, batch norm uses and updates batch statistics) here and below."""
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.parameters():
            p.grad = None if set_to_none or p.grad is None else p.zeros_like()  # PyTorch: a missing grad stays None

    # ---- state ----
    def state_dict(self, destination: dict[str, Tensor] | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters and persistent buffers by dotted name (PyTorch's keys and order). Pending in-place updates are
        computed first; values are detached tensors sharing the module's storage (the tensors themselves with
        `keep_vars`)."""
        out: OrderedDict[str, Tensor] = OrderedDict() if destination is None else destination  # type: ignore[assignment]
        entries: list[tuple[str, Tensor]] = []
        for mprefix, m in self.named_modules(prefix.rstrip(".")):
            for table in ("_parameters", "_buffers"):
                for name, t in getattr(m, table).items():
                    if t is not None and not (table == "_buffers" and name in m._non_persistent):
                        entries.append((f"{mprefix}.{name}" if mprefix else name, t))
        if entries:
            Tensor.realize(*[t for _, t in entries])
        for key, t in entries:
            out[key] = t if keep_vars else t.detach()
        return out

    def load_state_dict(self, state_dict: Any, strict: bool = True, assign: bool = False) -> IncompatibleKeys:
        """Copy values (Tensors, NumPy arrays or anything `np.asarray` takes, e.g. torch tensors) into this module's
        parameters and buffers, in place (optimizers keep working). Values are cast to each tensor's dtype.

        Raises:
            StateDictError: a shape mismatch, or (with `strict`) missing or unexpected keys; nothing is loaded then.
        """
        own = self.state_dict(keep_vars=True)
        given = dict(state_dict)
        missing = [k for k in own if k not in given]
        unexpected = [k for k in given if k not in own]
        errors = []
        values: list[tuple[Tensor, Any]] = []
        for key, target in own.items():
            if key not in given:
                continue
            value = given[key]
            arr = value if isinstance(value, Tensor) else np.asarray(value)
            if tuple(arr.shape) != target.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {tuple(arr.shape)} from "
                              f"checkpoint, the shape in current model is {target.shape}.")
            else:
                values.append((target, arr))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ".")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ".")
        if errors:
            raise StateDictError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        with no_grad():  # parameters are leaves that require grad: written as data, not as a step of a graph
            for target, arr in values:
                src = arr if isinstance(arr, Tensor) else Tensor(np.array(arr), device=target.device)
                target.assign(src.detach().cast(target.dtype)).realize()
        return IncompatibleKeys(missing, unexpected)

    # ---- calling ----
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not implement forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [f"  ({name}): " + repr(m).replace("\n", "\n  ") for name, m in self._modules.items()]
        head = f"{type(self).__name__}({self.extra_repr()}"
        return head + ("\n" + "\n".join(lines) + "\n)" if lines else ")")


def _drop(name: str, *tables: dict[str, Any]) -> None:
    for table in tables:
        table.pop(name, None)
