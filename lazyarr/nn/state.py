"""Model state: `parameters()`, `state_dict()`, `load_state_dict()` for Modules (and plain objects holding tensors),
and saving/loading state dicts to `.npz` (NumPy) and `.safetensors` files.
"""

from __future__ import annotations

import importlib
import json
import os
from collections import OrderedDict
from typing import Any

import numpy as np

from lazyarr.frontend.tensor import Tensor
from lazyarr.nn.module import IncompatibleKeys, Module, StateDictError

ORDER_KEY = "lazyarr.key_order"


def state_dict(obj: Any, prefix: str = "") -> OrderedDict[str, Tensor]:
    """Tensors reachable from `obj` by dotted name: a Module's own `state_dict()`, else attributes, dict keys and
    list indices walked recursively (tinygrad's `get_state_dict`)."""
    if isinstance(obj, Module):
        return obj.state_dict(prefix=prefix)
    out: OrderedDict[str, Tensor] = OrderedDict()
    _walk(obj, prefix, out, set())
    return out


def _walk(obj: Any, prefix: str, out: OrderedDict[str, Tensor], seen: set[int]) -> None:
    if isinstance(obj, Tensor):
        out[prefix.rstrip(".")] = obj
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Module):
        for k, v in obj.state_dict(keep_vars=True).items():
            out[prefix + k] = v
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            _walk(v, f"{prefix}{i}.", out, seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _walk(v, f"{prefix}{k}.", out, seen)
    elif hasattr(obj, "__dict__"):
        for k, v in vars(obj).items():
            _walk(v, f"{prefix}{k}.", out, seen)


def parameters(obj: Any) -> list[Tensor]:
    """The tensors an optimizer should update: a Module's `parameters()`, else every tensor reachable from `obj`
    that requires grad."""
    if isinstance(obj, Module):
        return list(obj.parameters())
    found: dict[int, Tensor] = {}
    for t in state_dict(obj).values():
        if t.requires_grad:
            found.setdefault(id(t), t)
    return list(found.values())


def load_state_dict(obj: Any, state: dict[str, Any], strict: bool = True) -> IncompatibleKeys:
    """Copy `state` into the tensors of `obj` in place (see `Module.load_state_dict`)."""
    if isinstance(obj, Module):
        return obj.load_state_dict(state, strict=strict)
    own = state_dict(obj)
    holder = Module()
    for i, t in enumerate(own.values()):
        holder.register_buffer(f"_{i}", t)
    names = {f"_{i}": name for i, name in enumerate(own)}
    result = holder.load_state_dict({k: state[v] for k, v in names.items() if v in state}, strict=False)
    missing = [names[k] for k in result.missing_keys]
    unexpected = [k for k in state if k not in names.values()]
    if strict and (missing or unexpected):
        raise StateDictError(f"Error(s) in loading state_dict: missing keys {missing}, unexpected keys {unexpected}")
    return IncompatibleKeys(missing, unexpected)


def _arrays(state: dict[str, Any]) -> dict[str, np.ndarray]:
    return {k: v.numpy() if isinstance(v, Tensor) else np.asarray(v) for k, v in state.items()}


def save(state: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a state dict to `path`: safetensors when it ends in '.safetensors', else NumPy's `.npz`."""
    if str(path).endswith(".safetensors"):
        safe_save(state, path)
    else:
        np.savez(path, **_arrays(state))


def load(path: str | os.PathLike[str]) -> OrderedDict[str, Tensor]:
    """Read a state dict written by `save` (or any .npz / .safetensors file) as Tensors, in file order."""
    if str(path).endswith(".safetensors"):
        return safe_load(path)
    with np.load(path, allow_pickle=False) as f:
        return OrderedDict((k, Tensor(f[k])) for k in f.files)


def _safetensors(module: str, name: str) -> Any:
    """`name` from the optional `safetensors` package; ImportError saying how to install it (or to use .npz)."""
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as e:
        raise ImportError("reading or writing .safetensors files needs the safetensors package (pip install "
                          "safetensors); a path ending in .npz needs nothing more") from e


def safe_save(state: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a state dict as a safetensors file (needs the `safetensors` package); the key order is kept in the
    file's metadata."""
    save_file = _safetensors("safetensors.numpy", "save_file")

    arrays = {k: np.asarray(v, order="C") for k, v in _arrays(state).items()}
    save_file(arrays, str(path), metadata={ORDER_KEY: json.dumps(list(arrays))})


def safe_load(path: str | os.PathLike[str]) -> OrderedDict[str, Tensor]:
    """Read a safetensors file as Tensors (needs the `safetensors` package), in the saved key order when the file
    records one."""
    safe_open = _safetensors("safetensors", "safe_open")

    with safe_open(str(path), framework="np") as f:
        keys = list(f.keys())
        order = json.loads((f.metadata() or {}).get(ORDER_KEY, "[]"))
        if sorted(order) == sorted(keys):
            keys = order
        return OrderedDict((k, Tensor(f.get_tensor(k))) for k in keys)


__all__ = ["state_dict", "parameters", "load_state_dict", "save", "load", "safe_save", "safe_load"]
