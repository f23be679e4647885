"""PyTorch-style autograd on lazy tensors: `requires_grad`, `backward()`, `.grad`, `no_grad`, `gradient()`, plus the
Gradients are lazy graphs built by `lazyarr.graph.autograd`, so they fuse with the
forward pass and with the optimizer update that consumes them.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from lazyarr.frontend.inplace import (
    _chain_over,
    _on,
    _storage_buffer,
    hold,
    is_writable,
    own_buffer,
    realize_hooks,
    write_checks,
)
from lazyarr.graph.autograd import compute_gradient
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.schedule import strip_movement
from lazyarr.graph.uop import UOp, substitute
from lazyarr.helpers import JitError
from lazyarr.kernels.device import Buffer

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


# called with (tensor, its `.grad`, True for a write or False for a read) on every access to a `.grad` while
# @lazyarr.jit captures: a replay does not run the body, so jit sets each `.grad` the body left and checks that the
# `.grad` the body read is still the same tensor
grad_watchers: list[Callable[[Tensor, Tensor | None, bool], None]] = []


def add_pending(t: Tensor) -> None:
    """Ask the next optimizer step to compute `t` before it updates any parameter."""
    _pending[id(t)] = t


def take_pending() -> list[Tensor]:
    """The tensors registered with `add_pending` (the registry is emptied)."""
    out = list(_pending.values())
    _pending.clear()
    return out


class InplaceModifiedError(RuntimeError):
    """A gradient needs a value that an in-place write has since overwritten (PyTorch's RuntimeError for a tensor
    saved for backward and modified in place)."""


_STALE_MSG = ("one of the variables needed for gradient computation has been modified by an inplace operation: {what}"
              ". lazyarr recomputes forward values from the arrays the graph read, and their old contents are gone. "
              "Call backward() (or realise the gradients) before writing, or write a clone().")


class _Entry:
    """A remembered forward graph and the (buffer, version) pairs it read; `graph` None once known to be stale."""

    __slots__ = ("graph", "stamps", "why")

    def __init__(self, graph: UOp | None, stamps: tuple[tuple[Buffer, int], ...], why: str = "") -> None:
        self.graph, self.stamps, self.why = graph, stamps, why

    def stale(self) -> str | None:
        """None while every array the graph read still holds what it read; otherwise why not."""
        if self.graph is None:
            return self.why
        for b, v in self.stamps:
            if b.version != v:
                return f"an array of {b.size} elements read by the forward pass was written {b.version - v} time(s)"
        return None


# realised value (a view of a buffer) -> the graph it was computed from, kept while a gradient could flow through it
_history: weakref.WeakKeyDictionary[UOp, _Entry] = weakref.WeakKeyDictionary()
# a copy made of a leaf's storage before an in-place write (copy-on-write for lazy readers) -> that storage: the copy
# is an older version of the leaf, so gradients reaching it belong to the leaf (as in PyTorch)
_old_versions: weakref.WeakKeyDictionary[UOp, weakref.ref[Buffer]] = weakref.WeakKeyDictionary()


def _record_history(mapping: dict[UOp, UOp], written: set[Buffer]) -> None:
    """A realisation hook: for each computed graph through which a gradient could reach a leaf, remember the graph
    (and the versions of the arrays it read) under the value that replaces it in every live tensor."""
    _moved_keys.clear()
    if written:
        _note_old_versions(mapping)
        if _history:
            _move_history_to_copies(mapping)
    if not _GradMode.enabled or not _leaves:  # no tensor requires grad: nothing to remember (the usual eager op)
        return
    leaves = _grad_leaf_uops()
    if not leaves:
        return
    writes = []
    for graph, result in mapping.items():
        if graph.op is Ops.ASSIGN:
            writes.append((graph, result))
        elif graph is not result and graph not in leaves and result.op is not Ops.ASSIGN and \
                result not in _old_versions and _reaches_leaf(graph, leaves) and not _reads_own_result(graph, result):
            if strip_movement(result)[1].op is Ops.CONST:
                result = mapping[graph] = _own_storage(graph, result)
            _history[result] = _settled(graph, result, mapping, written)
    # after the others: a copy of a storage's old contents made now must not find the writes' graph under it
    for graph, result in writes:
        if graph not in leaves and result.op is not Ops.ASSIGN and _reaches_leaf(graph, leaves):
            _remember_writes(graph, result, mapping, written, leaves)


def _remember_writes(graph: UOp, result: UOp, mapping: dict[UOp, UOp], written: set[Buffer],
                     leaves: dict[UOp, list[Tensor]]) -> None:
    """Remember the graph of realised in-place writes under their result (`h = x * 2; h[0, 1] = 5; h.numpy()`: h
    keeps the gradient of the elements the writes kept, as in PyTorch), when the writes went into storage of no leaf
    and no remembered graph. The graph reads that storage as the array it writes into, where `with_history` keeps it
    as it is (what the writes did not overwrite is still there); a graph that also reads the storage's old contents
    elsewhere (`h[1] = h[0] * x`, h computed before) is remembered as stale, so a backward through it raises
    InplaceModifiedError instead of losing the gradient."""
    node = graph
    while node.op is Ops.ASSIGN or node.op is Ops.GATHER:  # a scatter (`h[[0, 2]] = y`) writes through a GATHER
        node = strip_movement(node.src[0])[1]
    storage = node
    if storage.op is not Ops.BUFFER or storage in leaves or storage in _old_versions or \
            strip_movement(result)[1] is not storage or any(b is storage.arg for b in _leaf_buffers()) or \
            any(strip_movement(k)[1] is storage for k in list(_history.keys())):
        return
    nodes = graph.toposort()
    # the storage and views of it (not of a write into it): the graph may read them only as what a write writes into
    bare = {n for n in nodes if strip_movement(n)[1] is storage}
    scattered = {t for n in nodes if n.op is Ops.ASSIGN and (t := strip_movement(n.src[0])[1]).op is Ops.GATHER}
    if any(s in bare and not (i == 0 and (n.op is Ops.ASSIGN or n in bare or n in scattered))
           for n in nodes for i, s in enumerate(n.src)):
        _history[result] = _Entry(None, (), "an array written in place was read before the write")
        return
    _history[result] = _settled(graph, result, mapping, written - {storage.arg})


def _own_storage(graph: UOp, result: UOp) -> UOp:
    """A value that folded to a constant (a mean over an empty batch is NaN), as an array of its own holding it: the
    constant is interned, so a graph remembered under it would be spliced into every later graph holding that
    constant (cross_entropy's own NaN for an all-ignored batch), sending it gradients or stale-graph errors."""
    const = strip_movement(result)[1]
    device = next((n.arg.device for n in graph.toposort() if n.op is Ops.BUFFER), "CPU")
    buf = Buffer.from_numpy(np.full(result.size, const.arg), const.dtype, device)
    return UOp(Ops.BUFFER, const.dtype, (), buf).reshape(result.shape)


def _reads_own_result(graph: UOp, result: UOp) -> bool:
    """Whether `result` is a view of an array `graph` reads (the graph folded to one of its inputs, e.g. `x * 1`):
    gradients already reach through it, and remembering `graph` under it would make the value its own history (a
    backward recursed until RecursionError)."""
    base = strip_movement(result)[1]
    return base.op is Ops.BUFFER and any(n is base for n in graph.toposort())


realize_hooks.append(_record_history)


def _check_leaf_write(t: Tensor) -> None:
    """An in-place write into a leaf that requires grad (or a view of one that carries its gradient) while gradients
    are tracked raises, as in PyTorch: the leaf's gradient would silently be taken at the written value."""
    if not _GradMode.enabled or not _leaves:
        return
    g = t._group
    if g is None or g.buffer is None or not any(b is g.buffer for b in _leaf_buffers()) or not t.requires_grad:
        return
    what = "a leaf" if t._requires_grad else "a view of a leaf"
    raise RuntimeError(f"{what} Variable that requires grad is being used in an in-place operation: write it inside "
                       "`with lazyarr.no_grad():` (as optimizers do), or write into its .detach()")


write_checks.append(_check_leaf_write)


def _leaf_buffers() -> list[Buffer]:
    """The storage of every leaf that requires grad (a write into it is the leaf's own business, not a history)."""
    return [b for t in list(_leaves.values()) if t._requires_grad and t._group is not None
            and (b := t._group.buffer) is not None]


def _note_old_versions(mapping: dict[UOp, UOp]) -> None:
    """Register the copies this realisation made of older contents of a leaf's storage (see `_old_versions`)."""
    copies = []
    for version, result in mapping.items():
        if version.op is Ops.BUFFER:
            storage = version.arg
        elif version.op is Ops.ASSIGN:
            storage = _storage_buffer(version).arg
        else:
            continue
        base = strip_movement(result)[1]
        if base.op is Ops.BUFFER and base.arg is not storage:
            copies.append((storage, result))
    if not copies:
        return
    leaf_bufs = {id(b) for b in _leaf_buffers()}
    for storage, result in copies:
        if id(storage) in leaf_bufs:
            _old_versions[result] = weakref.ref(storage)


_moved_keys: list[UOp] = []


def _move_history_to_copies(mapping: dict[UOp, UOp]) -> None:
    """A realised value with a remembered graph whose storage was just overwritten, while lazy readers kept a copy of
    it: the copy (what those readers now read) takes over the remembered graph."""
    copies = {}
    for version, result in mapping.items():
        if version.op is Ops.BUFFER:
            base = strip_movement(result)[1]
            if base.op is Ops.BUFFER and base.arg is not version.arg:
                copies[version] = (result, base.arg)
    if not copies:
        return
    for key, entry in list(_history.items()):
        old = strip_movement(key)[1]
        if old not in copies:
            continue
        result, buf = copies[old]
        chain = _chain_over(key, old)
        if chain is None:
            continue
        # fresh before this write: the overwritten storage (its own) was bumped once, everything else unchanged
        fresh = entry.graph is not None and all(b.version == v + (b is old.arg) for b, v in entry.stamps)
        stamps = tuple((b, b.version) for b, _ in entry.stamps if b is not old.arg) + ((buf, buf.version),)
        new_key = _on(chain, result)
        _moved_keys.append(new_key)  # alive until the live graphs are repointed at it (UOps are interned weakly)
        why = entry.why or "a realised value was overwritten"
        _history[new_key] = _Entry(entry.graph, stamps) if fresh else _Entry(None, (), why)


def _settled(graph: UOp, result: UOp, mapping: dict[UOp, UOp], written: set[Buffer]) -> _Entry:
    """`graph` with every other graph this realisation computed replaced by its result (in-place writes by the
    storage they wrote, older contents by their copies), stamped with the versions of the arrays it reads; stale
    at once when it read the old contents of an array this realisation overwrote without keeping a copy."""
    memo: dict[UOp, UOp] = {}
    stale = False

    def computed(n: UOp) -> UOp | None:
        nonlocal stale
        if n is not graph and n in mapping and mapping[n] is not result:
            return mapping[n]
        if n.op is Ops.BUFFER:
            stale = stale or n.arg in written
            return n
        return None

    out = substitute(graph, memo, computed)
    bufs = {n.arg for n in memo.values() if n.op is Ops.BUFFER}
    bufs.update(n.arg for n in out.toposort() if n.op is Ops.BUFFER)
    own = strip_movement(result)[1]
    if own.op is Ops.BUFFER:
        bufs.add(own.arg)
    if stale:
        return _Entry(None, (), "the forward pass read an array that was overwritten in the same realisation")
    return _Entry(out, tuple((b, b.version) for b in bufs))


class _NoGraph(_Entry):
    """A value whose graph is not known (a result of a `@lazyarr.jit` replay): a backward through it raises
    `JitError` with `why`."""

    __slots__ = ()


def mark_without_graph(u: UOp, why: str) -> None:
    """Record that the realised value `u` came from graphs that reached a leaf but are not known (a jit replay runs
    kernels, not graphs): it requires grad, and a backward through it raises `JitError(why)` instead of passing no
    gradient. Under `no_grad` nothing is recorded (and an earlier mark of `u` is dropped)."""
    if _GradMode.enabled:
        _history[u] = _NoGraph(None, (), why)
    else:
        _history.pop(u, None)


def forget_history() -> None:
    """Drop the remembered graphs that an in-place write (e.g. an optimizer step) made stale: a backward through
    them raises `InplaceModifiedError` (PyTorch's error) instead of recomputing with the new values."""
    for key, entry in list(_history.items()):
        why = entry.stale()
        if why is not None and entry.graph is not None:
            _history[key] = _Entry(None, (), why)


def with_history(root: UOp, expanding: frozenset[UOp] = frozenset()) -> UOp:
    """`root` with each realised value that has a remembered graph replaced by that graph (recursively). Inside the
    graph of a value, the value itself stays as it is (`expanding`): the graph of in-place writes reads the storage
    it wrote into (see `_remember_writes`).

    Raises:
        InplaceModifiedError: a remembered graph read an array that has been written in place since.
    """
    if not _history:
        return root
    memo: dict[UOp, UOp] = {}
    for node in root.toposort():
        entry = _history.get(node) if node not in expanding else None
        if entry is not None:
            why = entry.stale()
            if why is not None:
                if isinstance(entry, _NoGraph):
                    raise JitError(why)
                raise InplaceModifiedError(_STALE_MSG.format(what=why))
            assert entry.graph is not None
            memo[node] = with_history(entry.graph, expanding | {node})
            continue
        if node.op is Ops.ASSIGN and (rewritten := _assign_over_history(node, memo)) is not None:
            memo[node] = rewritten
            continue
        src = tuple(memo[s] for s in node.src)
        memo[node] = node if src == node.src else UOp(node.op, node.dtype, src, node.arg)
    return memo[root]


def _assign_over_history(node: UOp, memo: dict[UOp, UOp]) -> UOp | None:
    """A pending write into a realised value that has a remembered graph, as a write into a fresh copy of that graph
    (so the contents the write keeps carry their gradient); None when the write's storage has no remembered graph."""
    chain = []
    u = node.src[0]
    while u not in _history and (u.op in GroupOp.Movement or u.op is Ops.GATHER):
        chain.append(u)
        u = u.src[0]
    if u not in _history:
        return None
    base = strip_movement(u)[1]
    device = base.arg.device if base.op is Ops.BUFFER else "CPU"
    fresh = UOp(Ops.BUFFER, u.dtype, (), Buffer(u.size, u.dtype, device))
    target = UOp(Ops.ASSIGN, u.dtype, (fresh.reshape(u.shape), memo[u])).reshape(u.shape)
    for mv in reversed(chain):
        target = UOp(mv.op, mv.dtype, (target, *(memo[s] for s in mv.src[1:])), mv.arg)
    return UOp(Ops.ASSIGN, node.dtype, (target, memo[node.src[1]]), node.arg)


def _grad_leaf_uops() -> dict[UOp, list[Tensor]]:
    """The leaves with requires_grad by UOp; a leaf with a pending in-place write is also found as its contents
    before the write (a graph built before it reads those)."""
    leaves: dict[UOp, list[Tensor]] = {}
    for t in list(_leaves.values()):
        if t._requires_grad:
            leaves.setdefault(t.uop, []).append(t)
            g = t._group
            if g is not None and g.buffer is not None and g.base.op is not Ops.BUFFER:
                chain = _chain_over(t.uop, g.base)
                if chain is not None:
                    leaves.setdefault(_on(chain, UOp(Ops.BUFFER, g.base.dtype, (), g.buffer)), []).append(t)
    return leaves


def _grad_targets(wanted: list[Tensor], root: UOp, as_graph: bool = True) -> tuple[dict[UOp, list[Tensor]], set[UOp]]:
    """The nodes of `root` whose gradients go to the tensors `wanted`, and the nodes gradients stop at.

    A leaf written in place appears in `root` once per version of its storage that the graph read: the storage
    before the writes, each pending write (ASSIGN), a copy kept for lazy readers. Like PyTorch (one variable, many
    uses), the leaf's gradient is the sum over all of them; each version is a target that gradients stop at."""
    targets: dict[UOp, list[Tensor]] = {}
    owned: dict[int, list[tuple[Tensor, list[UOp]]]] = {}
    for t in wanted:
        u = t._graph() if as_graph else t.uop  # a realised intermediate is found as the graph it came from
        targets.setdefault(u, []).append(t)
        g = t._group
        if t._requires_grad and g is not None and g.buffer is not None:
            chain = _chain_over(t.uop, g.base)
            if chain is not None and (g.base.op is not Ops.BUFFER or _old_versions):
                owned.setdefault(id(g.buffer), []).append((t, chain))
    stop: set[UOp] = set()
    if not owned:
        return targets, stop
    nodes = root.toposort()
    present = set(nodes)
    for n in nodes:
        if n in _old_versions:
            storage: Buffer | None = _old_versions[n]()
        elif n.op is Ops.BUFFER:
            storage = n.arg
        elif n.op is Ops.ASSIGN:
            storage = _storage_buffer(n).arg
        else:
            continue
        for t, chain in owned.get(id(storage), ()):
            if n.shape != t._group.base.shape:
                continue
            leaf_view = _on(chain, n)
            if leaf_view in present:
                if t not in targets.get(leaf_view, ()):
                    targets.setdefault(leaf_view, []).append(t)
                stop.update((leaf_view, n))
    return targets, stop


class AutogradMixin:
    """`requires_grad`, `backward`, `grad`, `gradient`, `requires_grad_`, `is_leaf` (mixed into Tensor)."""

    __slots__ = ()

    uop: UOp
    _requires_grad: bool | None
    _group: Any
    _grad: Tensor | None

    # ---- grad ----
    @property
    def grad(self: Tensor) -> Tensor | None:
        """The accumulated gradient (None until a backward reaches this leaf)."""
        if grad_watchers:
            for watch in grad_watchers:
                watch(self, self._grad, False)
        return self._grad

    @grad.setter
    def grad(self: Tensor, value: Tensor | None) -> None:
        """Set the gradient: None, or a tensor of this one's shape, dtype and device (TypeError / ValueError, both
        RuntimeError as in PyTorch, otherwise: an optimizer would fail on it later, or a backward broadcast it)."""
        if value is not None:
            if not isinstance(value, type(self)):
                raise GradTypeError(f"assigned grad expected to be a Tensor or None but got {type(value).__name__}")
            if value.shape != self.shape:
                raise GradValueError(f"attempting to assign a gradient of shape {value.shape} to a tensor of shape "
                                     f"{self.shape}")
            if value.dtype is not self.dtype or value.device != self.device:
                raise GradTypeError(f"assigned grad has dtype {value.dtype.name} on {value.device}, but the tensor has "
                                    f"{self.dtype.name} on {self.device}")
        if grad_watchers:
            for watch in grad_watchers:
                watch(self, value, True)
        self._grad = value

    # ---- requires_grad ----
    @property
    def requires_grad(self: Tensor) -> bool:
        """True for leaves created or marked with `requires_grad=True` and for values computed from them."""
        if self._requires_grad is not None:
            return self._requires_grad
        return _reaches_leaf(self.uop, _grad_leaf_uops())

    @requires_grad.setter
    def requires_grad(self: Tensor, value: bool | None) -> None:
        if value is None or value is False:
            if value is False and self._requires_grad is None and self.requires_grad:
                raise GradValueError("you can only change requires_grad flags of leaf variables: the gradient flows "
                                     "through a computed value regardless; use value.detach() to stop it")
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
                hold(self)
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
        else:
            wanted = [t for t in list(_leaves.values()) if t._requires_grad]
        root = self._graph()
        leaves, stop = _grad_targets(wanted, root, inputs is not None)
        grads = compute_gradient(root, seed, set(leaves), stop) if leaves else {}
        if not grads:
            raise GradValueError("element 0 of tensors does not require grad and does not have a grad_fn")
        for u, g in grads.items():
            for t in leaves[u]:
                gt = new_tensor(t, g if create_graph else detach_uop(g))
                old = t.grad
                if old is None:
                    t.grad = gt
                elif create_graph or not is_writable(old):
                    t.grad = old + gt
                else:
                    # in place, as PyTorch accumulates: a @lazyarr.jit replay then adds into the same storage on
                    # every call (a new tensor is Python state, which a replay does not update)
                    old.assign(old + gt)
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
        root = self._graph()
        found, stop = _grad_targets(list(targets), root)  # a realised intermediate is found as its graph
        grads = compute_gradient(root, self._seed(gradient), set(found), stop)
        out: list[Tensor | None] = [None] * len(targets)
        for u, g in grads.items():
            for t in found[u]:
                for i, w in enumerate(targets):
                    if w is t:
                        gt = new_tensor(t, g)
                        out[i] = gt if out[i] is None else out[i] + gt
        return [t.zeros_like() if o is None else o for t, o in zip(targets, out)]


def _reaches_leaf(root: UOp, leaves: dict[UOp, list[Tensor]]) -> bool:
    """True when a gradient could flow from `root` to one of `leaves`: a path of float values, not through DETACH,
    and through the remembered graphs of realised values."""
    if not leaves:
        return False
    seen: set[UOp] = set()
    stack = [root]
    while stack:
        u = stack.pop()
        if u in leaves or u in _old_versions:
            return True
        if u in seen or u.op is Ops.DETACH or not u.dtype.is_float:
            continue
        seen.add(u)
        stack.extend(u.src)
        past = _history.get(u)
        if past is not None:
            if past.graph is None:
                return True  # it did reach one (a backward through it raises InplaceModifiedError)
            stack.append(past.graph)
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
