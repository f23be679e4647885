"""PyTorch-style autograd on lazy tensors: `requires_grad`, `backward()`, `.grad`, `no_grad`, `gradient()`, plus the
Gradients are lazy graphs built by `lazyarr.graph.autograd`, so they fuse with the
forward pass and with the optimizer update that consumes them.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from lazyarr.frontend.inplace import own_buffer, realize_hooks
from lazyarr.graph.autograd import compute_gradient
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor

F = TypeVar("F", bound=Callable[..., Any])


class GradTypeError(TypeError, RuntimeError):
    """A gradient asked of (or through) a tensor that cannot have one: integer or bool dtype (TypeError and, as in
    PyTorch, RuntimeError)."""


class GradValueError(ValueError, RuntimeError):
    """A gradient request that does not make sense: a non-scalar loss without `gradient`, a tensor that does not
    require grad, a `gradient` of the wrong shape (ValueError and, as in PyTorch, RuntimeError)."""


class _GradMode:
    enabled = True


def is_grad_enabled() -> bool:
    """False inside `no_grad()`."""
    return _GradMode.enabled


class set_grad_enabled:  # noqa: N801 (PyTorch's name)
    """Context manager (and decorator) that turns gradient tracking on or off, like `torch.set_grad_enabled`."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self.prev: list[bool] = []

    def __enter__(self) -> None:
        self.prev.append(_GradMode.enabled)
        _GradMode.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        _GradMode.enabled = self.prev.pop()

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with set_grad_enabled(self.mode):
                return fn(*args, **kwargs)

        return wrapped  # type: ignore[return-value]


class no_grad(set_grad_enabled):  # noqa: N801 (PyTorch's name)
    """Inside `with no_grad():` (or a function decorated with `@no_grad()`), results carry no gradient: they are
    detached, so a later `backward()` treats them as constants. Use it for evaluation and manual parameter updates."""

    def __init__(self) -> None:
        super().__init__(False)


class enable_grad(set_grad_enabled):  # noqa: N801 (PyTorch's name)
    """Turns gradient tracking back on inside a `no_grad` block."""

    def __init__(self) -> None:
        super().__init__(True)


def new_tensor(like: Tensor, u: UOp) -> Tensor:
    """A new tensor holding `u` on like's device, in no array of like's (`like._new` would make a view of like)."""
    return type(like)(u, device=like.device)


def detach_uop(u: UOp) -> UOp:
    """`u` behind a DETACH node (gradients stop there; the scheduler removes it)."""
    return u if u.op is Ops.DETACH else UOp(Ops.DETACH, u.dtype, (u,))


def grad_mode_uop(u: UOp) -> UOp:
    """What a new computed (non-view) tensor holds: `u`, detached when gradient tracking is off."""
    return u if _GradMode.enabled or u.op in (Ops.CONST, Ops.IOTA) else detach_uop(u)


# Registries keyed by id (a WeakSet would compare Tensors with `==`, which is elementwise here).
# Leaves: every live tensor with requires_grad=True set on it.
_leaves: weakref.WeakValueDictionary[int, Tensor] = weakref.WeakValueDictionary()
# Values an optimizer step computes before it writes parameters (loss roots of backward, running statistics): once
# the parameters change, their pending graphs would read the new values.
_pending: weakref.WeakValueDictionary[int, Tensor] = weakref.WeakValueDictionary()


def add_pending(t: Tensor) -> None:
    """Ask the next optimizer step to compute `t` before it updates any parameter."""
    _pending[id(t)] = t


def take_pending() -> list[Tensor]:
    """The tensors registered with `add_pending` (the registry is emptied)."""
    out = list(_pending.values())
    _pending.clear()
    return out


# realised value (a view of a buffer) -> the graph it was computed from, kept while a gradient could flow through it
_history: weakref.WeakKeyDictionary[UOp, UOp] = weakref.WeakKeyDictionary()


def _record_history(mapping: dict[UOp, UOp]) -> None:
    """A realisation hook: for each computed graph through which a gradient could reach a leaf, remember the graph
    under the value that replaces it in every live tensor."""
    if not _GradMode.enabled:
        return
    leaves = _grad_leaf_uops()
    if not leaves:
        return
    for graph, result in mapping.items():
        if graph.op is not Ops.ASSIGN and graph is not result and graph not in leaves and \
                result.op is not Ops.ASSIGN and _reaches_leaf(graph, leaves):
            _history[result] = graph


realize_hooks.append(_record_history)


def forget_history() -> None:
    """Drop every remembered graph (an optimizer step changed the values they would recompute)."""
    _history.clear()


def with_history(root: UOp) -> UOp:
    """`root` with each realised value that has a remembered graph replaced by that graph (recursively)."""
    if not _history:
        return root
    memo: dict[UOp, UOp] = {}
    for node in root.toposort():
        past = _history.get(node)
        if past is not None:
            memo[node] = with_history(past)
            continue
        src = tuple(memo[s] for s in node.src)
        memo[node] = node if src == node.src else UOp(node.op, node.dtype, src, node.arg)
    return memo[root]


def _grad_leaf_uops() -> dict[UOp, list[Tensor]]:
    leaves: dict[UOp, list[Tensor]] = {}
    for t in list(_leaves.values()):
        if t._requires_grad:
            leaves.setdefault(t.uop, []).append(t)
    return leaves


class AutogradMixin:
    """`requires_grad`, `backward`, `grad`, `gradient`, `requires_grad_`, `is_leaf` (mixed into Tensor)."""

    __slots__ = ()

    uop: UOp
    _requires_grad: bool | None
    _group: Any
    grad: Tensor | None

    # ---- requires_grad ----
    @property
    def requires_grad(self: Tensor) -> bool:
        """True for leaves created or marked with `requires_grad=True` and for values computed from them."""
        if self._requires_grad is not None:
            return self._requires_grad
        return _reaches_leaf(self._graph(), _grad_leaf_uops())

    @requires_grad.setter
    def requires_grad(self: Tensor, value: bool | None) -> None:
        if value is None or value is False:
            self._requires_grad = value
            _leaves.pop(id(self), None)
            return
        if not self.dtype.is_float:
            raise GradTypeError(f"only tensors of floating point dtype can require gradients, not {self.dtype.name}")
        # a leaf needs storage of its own: a lazy value (e.g. a broadcast constant) may be shared by other tensors,
        # and optimizers write into the leaf in place
        if not _is_storage(self.uop) or self._group is None or self._group.buffer is None:
            if self._group is not None:
                self._group.members.discard(self)
                self._group = None
            if not _is_storage(self.uop):
                self.uop = self.clone().realize().uop
            own_buffer(self)
        self._requires_grad = True
        _leaves[id(self)] = self

    def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
        """Set `requires_grad` in place; returns self."""
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self: Tensor) -> bool:
        """True unless the tensor was computed from tensors that require grad (PyTorch's definition)."""
        return self._requires_grad is not None or not self.requires_grad

    def _graph(self: Tensor) -> UOp:
        """The graph gradients are taken through: realised values that came from graphs reaching a leaf are
        replaced by those graphs, so `y.numpy(); f(y).backward()` still reaches the leaves. A target of a gradient
        is found in it as `target._graph()` (UOps are interned)."""
        return with_history(self.uop)

    # ---- backward ----
    def backward(self: Tensor, gradient: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
                 inputs: Any = None) -> None:
        """Accumulate d(self)/d(leaf) into `leaf.grad` for every leaf with `requires_grad` that self depends on.

        `gradient` seeds the chain rule (needed when self is not a scalar); it is broadcast to self's shape.
        `inputs` limits which leaves get a `.grad`. Gradients stay lazy until used (e.g. by `optimizer.step()`).
        Without `create_graph` the stored gradients are detached. `retain_graph` is accepted for PyTorch
        compatibility: lazy graphs are never freed by backward.

        Raises:
            GradValueError: self is not a scalar and no `gradient` was given, or self does not require grad.
            GradTypeError: self is not a float tensor.
        """
        seed = self._seed(gradient)
        if inputs is not None:
            wanted = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
            leaves: dict[UOp, list[Tensor]] = {}
            for t in wanted:
                leaves.setdefault(t._graph(), []).append(t)
        else:
            leaves = _grad_leaf_uops()
        root = self._graph()
        grads = compute_gradient(root, seed, set(leaves)) if leaves else {}
        if not grads:
            raise GradValueError("element 0 of tensors does not require grad and does not have a grad_fn")
        for u, g in grads.items():
            for t in leaves[u]:
                gt = new_tensor(t, g if create_graph else detach_uop(g))
                t.grad = gt if t.grad is None else t.grad + gt
        add_pending(self)

    def _seed(self: Tensor, gradient: Any) -> UOp:
        if not self.dtype.is_float:
            raise GradTypeError(f"cannot differentiate a tensor of dtype {self.dtype.name}: only float tensors have "
                                "gradients")
        if gradient is None:
            if self.size != 1:
                raise GradValueError(f"grad can be implicitly created only for scalar outputs, got shape {self.shape}"
                                     "; pass `gradient`")
            return UOp.const(1, self.dtype, self.shape)
        g = gradient if isinstance(gradient, type(self)) else type(self)(gradient, dtype=self.dtype)
        if g.shape != self.shape:
            try:
                g = g.broadcast_to(self.shape)
            except ValueError:
                raise GradValueError(f"gradient has shape {g.shape}, but the tensor has shape {self.shape}") from None
        return g.cast(self.dtype).uop

    def gradient(self: Tensor, *targets: Tensor, gradient: Any = None) -> list[Tensor]:
        """d(self)/d(t) for each target as new lazy tensors (no `.grad` is touched); see `lazyarr.gradient`."""
        for t in targets:
            if not t.dtype.is_float:
                raise GradTypeError(f"cannot take a gradient with respect to a tensor of dtype {t.dtype.name}")
        wanted = [t._graph() for t in targets]  # a realised intermediate is found as the graph it came from
        grads = compute_gradient(self._graph(), self._seed(gradient), set(wanted))
        return [new_tensor(t, grads[w]) if w in grads else t.zeros_like() for t, w in zip(targets, wanted)]


def _reaches_leaf(root: UOp, leaves: dict[UOp, list[Tensor]]) -> bool:
    """True when a gradient could flow from `root` to one of `leaves`: a path of float values, not through DETACH,
    and through the remembered graphs of realised values."""
    if not leaves:
        return False
    seen: set[UOp] = set()
    stack = [root]
    while stack:
        u = stack.pop()
        if u in leaves:
            return True
        if u in seen or u.op is Ops.DETACH or not u.dtype.is_float:
            continue
        seen.add(u)
        stack.extend(u.src)
        past = _history.get(u)
        if past is not None:
            stack.append(past)
    return False


def _is_storage(u: UOp) -> bool:
    while u.op in (Ops.RESHAPE, Ops.PERMUTE, Ops.SHRINK, Ops.FLIP, Ops.STRIDE, Ops.DETACH):
        u = u.src[0]
    return u.op is Ops.BUFFER


def gradient(loss: Tensor, *targets: Tensor, grad_output: Any = None) -> list[Tensor]:
    """d(loss)/d(t) for each of `targets`, as lazy tensors (tinygrad's `Tensor.gradient`, JAX's `grad` in spirit).

    `loss` must be a scalar unless `grad_output` (the seed, broadcast to loss's shape) is given. A target that loss
    does not depend on gets zeros. No `.grad` attribute is read or written.

    Raises:
        GradValueError: a non-scalar loss without `grad_output`.
        GradTypeError: a non-float loss or target.
    """
    return loss.gradient(*targets, gradient=grad_output)
