"""In-place semantics: which tensors see a write (NumPy's base array and its views), `assign`, `__setitem__` and the
in-place operators; `realisation` does the bookkeeping at realisation that keeps every live tensor's value what
running each line eagerly would give.

Model. A `_Group` is one array in NumPy's sense: its `base` UOp and the live tensors that view it (each member's UOp
is a movement chain over `base`). A group that owns a Buffer has `base` = BUFFER(buffer), or a chain of pending
ASSIGNs over it (each ASSIGN stands for the whole storage after one write). A group without storage has a lazy value
as its base. A write makes a new base and repoints every view; lazy graphs built before it keep the old base node, so
they keep the old value. At realisation, a buffer about to be overwritten that some live lazy graph still reads is
copied first (copy-on-write), and every live graph is repointed at what was computed ("becomes").
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.movement import _getitem
from lazyarr.frontend.write_values import value_for
from lazyarr.graph.alias import all_valid, is_broadcast
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.schedule import VIEW_OPS, chain_view, strip_movement, view_stack_of
from lazyarr.graph.uop import UOp, assign_storage, toposort
from lazyarr.graph.view import View
from lazyarr.kernels.device import Buffer

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor

# every live Tensor, so a realised graph can repoint all tensors that share it

# weak references to the tensors made (or given a new lazy value by a write) since `lazyarr.jit` last looked, at most
# RECENT_CAP (then jit looks at every live tensor once): before a replay writes state in place, jit realises the lazy
# tensors that read it, so they keep the value eager execution gives them
recent: list[weakref.ref[Tensor]] = []
RECENT_CAP = 4096

# called with {computed graph: its result} and the buffers the schedule wrote in place (their versions already bumped)
# before live tensors are repointed (autograd keeps the graphs it needs)
realize_hooks: list[Callable[[dict[UOp, UOp], set[Buffer]], None]] = []

# called with the tensor an in-place write goes into, before anything is written (autograd refuses writes into a leaf
# that requires grad while gradients are tracked, as PyTorch does)
write_checks: list[Callable[[Tensor], None]] = []

# set by every deferred in-place write (an ASSIGN on storage): `lazyarr.jit` completes such writes before a call, so
# a replay (which reads storage directly) sees them and a capture does not record them as part of the function
pending_writes: list[bool] = [False]


_ref = weakref.ref  # a plain weak reference (no callback) to an object is made once and then shared
SETS_LOCK = threading.RLock()  # reentrant: a small jit program holds it through its replay, which makes tensors
_acquire, _release = SETS_LOCK.acquire, SETS_LOCK.release  # prebound: a with-statement costs about 3x more
# one thread at a time writes into an array or realises (`realisation`): a write reads its array's current base and
# makes the next one, and a realisation repoints every tensor of the arrays it computes, so interleaved they lost one
# thread's write or built it on a base the other had just replaced (an AssertionError in `write`)
WRITE_LOCK = threading.RLock()


class IdentitySet:
    """A set of live tensors by identity, held weakly (a WeakSet would compare tensors with `==`, which is
    elementwise). Adding is cheap (no callback runs when a member dies): dead entries are dropped in one sweep each
    time the table has doubled since the last one. Changes take `SETS_LOCK` (one for every set), so a sweep in one
    thread never loses an entry another thread adds or removes meanwhile."""

    __slots__ = ("refs", "limit")

    def __init__(self) -> None:
        self.refs: dict[int, weakref.ref[Tensor]] = {}
        self.limit = 8

    def add(self, t: Tensor) -> None:
        ref = _ref(t)
        _acquire()
        try:
            refs = self.refs
            refs[id(t)] = ref  # replaces a dead tensor's entry under a reused id (a member's own ref is shared)
            if len(refs) > self.limit:
                self.sweep()
        finally:
            _release()

    def sweep(self) -> None:
        """Drop the dead entries (the caller holds `SETS_LOCK`)."""
        self.refs = {k: r for k, r in self.refs.items() if r() is not None}
        self.limit = max(8, 2 * len(self.refs))

    def discard(self, t: Tensor) -> None:
        _acquire()
        try:
            self.refs.pop(id(t), None)
        finally:
            _release()

    def __iter__(self) -> Iterator[Tensor]:
        return iter([t for r in list(self.refs.values()) if (t := r()) is not None])

    def __contains__(self, t: Tensor) -> bool:
        r = self.refs.get(id(t))
        return r is not None and r() is t

    def __len__(self) -> int:
        return sum(1 for r in list(self.refs.values()) if r() is not None)


all_tensors = IdentitySet()  # every live Tensor, so a realised graph can repoint all tensors that share it


def hold(t: Tensor) -> None:
    """Register `t` as holding its graph (call after giving a tensor a new one): a realisation repoints the tensors
    holding a node over what it computed (`uop.readers`, `uop.holding`) without looking at every live tensor."""
    t.uop.add_holder(_ref(t))


_Ops = tuple[tuple[Ops, Any], ...]  # a movement chain (top-down) as (op, arg) pairs


class _ReadonlyView:
    """A read-only view of a writable array (`mark_readonly_view`, `view_computed`): `why` writes are refused, and
    `compute`, where the view is no movement of the array (np.diagonal), gives its value from `anchor`'s (a plain
    view of the array, kept up to date as every view is) after each write to the array."""

    __slots__ = ("ref", "why", "anchor", "compute")

    def __init__(self, t: Tensor, why: str, anchor: Tensor | None = None,
                 compute: Callable[[UOp], UOp] | None = None) -> None:
        self.why, self.compute = why, compute
        self.anchor = None if anchor is None else _ref(anchor)
        if anchor is None:
            self.ref = _ref(t)
        else:  # the anchor lives while the view does; the group holds it weakly (it is a member: no cycle)
            key = id(t)
            _ANCHORS[key] = anchor
            self.ref = weakref.ref(t, lambda _, key=key: _ANCHORS.pop(key, None))


_ANCHORS: dict[int, Tensor] = {}  # id of a computed view -> its anchor (`_ReadonlyView`)


class _Group:
    """One array: `base` and the live tensors viewing it; `buffer` is the storage it owns and writes in place.
    `origin`: set on a contiguous copy that stands in for a view (`stand_in_for`), to judge its members' views as
    the same movements of the original would be judged: (the copy's ops over its base, the original's ops over its
    group's base, that base's shape, (the original's ops over its storage, the storage's shape) or None when it is
    not a movement of storage)."""

    __slots__ = ("base", "buffer", "members", "origin", "readonly", "owner", "readonly_views")

    def __init__(self, base: UOp, buffer: Buffer | None = None, owner: Tensor | None = None) -> None:
        self.base, self.buffer = base, buffer
        self.members = IdentitySet()
        # the tensor the array was made as (not as a view of another tensor), while it lives: NumPy's OWNDATA
        self.owner = None if owner is None else _ref(owner)
        self.origin: tuple[_Ops, _Ops, tuple[int, ...], tuple[_Ops, tuple[int, ...]] | None] | None = None
        self.readonly: str | None = None  # why writes to this array are refused (`mark_readonly`), or None
        # members that are read-only views of a writable array, by id (`_readonly_view`), or None
        self.readonly_views: dict[int, _ReadonlyView] | None = None


def group_of(t: Tensor) -> _Group:
    """The group `t` belongs to (a tensor made by a non-view op is, until it is viewed, an array of its own)."""
    g = t._group
    if g is None:
        g = t._group = _Group(t.uop, owner=t)
        g.members.add(t)
    return g


def join_views(src: Tensor, t: Tensor) -> None:
    """Record that `t` (a movement of `src`) may view `src`'s array; `_settle` checks it when a write needs to know."""
    # padding makes a new array (np.pad); but only a pad among the movements from `src` does: a padded tensor is
    # itself an array (a PAD node), and its detach or alias (same shape reshape, contiguous) is a view of it
    chain = _chain_over(t.uop, src.uop)
    if any(mv.op is Ops.PAD for mv in chain) if chain is not None else \
            (t.uop.src[0] if t.uop.op is Ops.DETACH else t.uop).op is Ops.PAD:
        return
    g = group_of(src)
    if _reshaped_over(src.uop, g.base):
        # a view of a view: a src NumPy would have copied (a.T.reshape(-1)) is an array of its own now, so t views
        # that copy (c[:3] sees writes to c) rather than the array src was computed from
        g, _ = _settle(src)
    g.members.add(t)
    t._group = g
    if (r := _readonly_view(g, src)) is not None:  # a view of a read-only view is read-only (NumPy's flag)
        compute = r.compute
        if compute is not None:  # and a movement of a computed view is computed after writes, as it is
            compute = functools.partial(_moved, chain or [], compute)
        _add_readonly_view(g, _ReadonlyView(t, r.why, None if r.anchor is None else r.anchor(), compute))


def _moved(chain: list[UOp], compute: Callable[[UOp], UOp], anchor: UOp) -> UOp:
    return _on(chain, compute(anchor))


def _readonly_view(g: _Group | None, t: Tensor) -> _ReadonlyView | None:
    """`t`'s record as a read-only view in its group `g`, or None."""
    if g is None or g.readonly_views is None:
        return None
    r = g.readonly_views.get(id(t))
    return r if r is not None and r.ref() is t else None


def _add_readonly_view(g: _Group, r: _ReadonlyView) -> None:
    if g.readonly_views is None:
        g.readonly_views = {}
    elif len(g.readonly_views) >= 32:  # drop the records of views that died
        g.readonly_views = {k: v for k, v in g.readonly_views.items() if v.ref() is not None}
    g.readonly_views[id(r.ref())] = r


def _reshaped_over(u: UOp, base: UOp) -> bool:
    """Whether the movement chain from `base` up to `u` reshapes after its first op (only a reshape can be a copy in
    NumPy; one straight over the base, such as a buffer's shape, never is)."""
    while u is not base and u.op in VIEW_OPS:
        if u.op is Ops.RESHAPE and u.src[0] is not base:
            return True
        u = u.src[0]
    return False


def mark_readonly_view(t: Tensor, why: str) -> None:
    """Refuse writes to `t` (a view) and to its views (`why`), but not to the array it views nor to copies of it:
    NumPy's np.broadcast_to result is read-only even where it repeats nothing (a shape it already has, added 1-dims,
    a zero-size shape), and so are the views taken of it, e.g. a slice that picks one copy."""
    g = group_of(t)
    if _readonly_view(g, t) is None:  # a view of a read-only view keeps its record (np.diagonal's is computed)
        _add_readonly_view(g, _ReadonlyView(t, why))


def view_computed(src: Tensor, t: Tensor, compute: Callable[[UOp], UOp], why: str) -> None:
    """Make `t`, which is `compute(src.uop)` (np.diagonal: no movement of `src`), a read-only view of src's array:
    after a write to that array `t` is `compute` of src's new value, as NumPy's view shows the write."""
    g, _ = _settle(src)
    r = _readonly_view(g, src)
    if r is not None and r.compute is not None:  # src is itself computed from the array
        anchor, inner = r.anchor(), r.compute
        compute = functools.partial(_computed, inner, compute)
    else:
        anchor = src._new(src.uop)  # a plain view of the array that stays one as the array is written
    if t._group is not None:
        t._group.members.discard(t)
    g.members.add(t)
    t._group = g
    _add_readonly_view(g, _ReadonlyView(t, why, anchor, compute))


def _computed(inner: Callable[[UOp], UOp], outer: Callable[[UOp], UOp], anchor: UOp) -> UOp:
    return outer(inner(anchor))


def is_computed_view(t: Tensor) -> bool:
    """Whether `t` is a view of its array that a kernel computes (`view_computed`): it is realised alone."""
    r = _readonly_view(t._group, t)
    return r is not None and r.compute is not None


def mark_readonly(t: Tensor, why: str) -> None:
    """Refuse writes to `t` and to its views, as NumPy refuses them for a read-only array: ValueError naming `why`.
    A copy of it (including a reshape that NumPy would copy) is writable."""
    group_of(t).readonly = why


def check_writable(t: Tensor, what: str = "assignment destination") -> _Group:
    """`t`'s group, after checking that `t` may be written.

    Raises:
        ValueError: `t` is a broadcast view or a view of a read-only array ("{what} is read-only", NumPy's words).
    """
    g, kind = _settle(t)
    if kind == "broadcast":
        raise ValueError(f"{what} is read-only: a broadcast view of shape {t.shape}")
    if (r := _readonly_view(g, t)) is not None:
        raise ValueError(f"{what} is read-only: {r.why}")
    if g.readonly is not None:
        raise ValueError(f"{what} is read-only: {g.readonly}")
    return g


def is_writable(t: Tensor) -> bool:
    """Whether a write to `t` is allowed (`check_writable` would pass), found without moving `t` between arrays."""
    g = t._group
    if g is not None and (r := _readonly_view(g, t)) is not None:  # writable as the copy NumPy would make
        return r.compute is None and _kind(_chain_over(t.uop, g.base) or [], g) == "copy"
    chain = None if g is None else _chain_over(t.uop, g.base)
    if g is None or chain is None:
        return True  # an array of its own
    kind = _kind(chain, g)
    return kind == "copy" or (kind == "view" and g.readonly is None)


def is_owner(t: Tensor) -> bool:
    """Whether `t` is an array of its own, not a view of another tensor's (NumPy's OWNDATA)."""
    g = t._group
    if is_computed_view(t):
        return False
    if g is None or (chain := _chain_over(t.uop, g.base)) is None or _kind(chain, g) == "copy":
        return True
    return g.owner is not None and g.owner() is t


def reshape_in_place(t: Tensor, shape: tuple[int, ...]) -> None:
    """`t.shape = shape` (NumPy's in-place reshape, already checked to be a view): `t` becomes that reshape of itself
    and stays a member of its array, so it keeps sharing writes with the array and the array's other views."""
    group_of(t)  # an array of its own is recorded as one before its node becomes a reshape of it
    t.uop = t.uop.reshape(shape)
    hold(t)


def other_views(t: Tensor) -> bool:
    """Whether a live tensor other than `t` views `t`'s array (or the array `t` views)."""
    g = t._group
    return g is not None and any(m is not t for m in g.members)


def become_new_array(t: Tensor, value: UOp) -> None:
    """Make `t` a new array of its own holding `value` (ndarray.resize: new storage, no view of the old one)."""
    if t._group is not None:
        t._group.members.discard(t)
        t._group = None
    t.uop = value
    hold(t)


def own_buffer(t: Tensor) -> None:
    """Make `t` (a view of a fresh BUFFER, e.g. made from NumPy data) the owner of that storage."""
    base = strip_movement(t.uop)[1]
    if base.op is Ops.BUFFER:
        t._group = _Group(base, base.arg, t)
        t._group.members.add(t)


def _chain_over(u: UOp, base: UOp) -> list[UOp] | None:
    """The movement ops (top-down) that make `u` from `base`, or None when `u` is not a movement chain over it."""
    chain = []
    while u is not base:
        if u.op not in GroupOp.Movement and u.op is not Ops.DETACH:  # detach() is a view that stops gradients
            return None
        chain.append(u)
        u = u.src[0]
    return chain


def chain_in_array(u: UOp, base: UOp) -> list[UOp] | None:
    """The movement ops (top-down) that make `u` from its array's `base`, or None (`_chain_over`)."""
    return _chain_over(u, base)


def is_view_of(u: UOp, src: UOp) -> bool:
    """True when `u` is a movement chain (or detach) over `src` (a graph that merely ends in a movement op, e.g. a
    broadcast index or constant, is not a view of `src`)."""
    return u.op in VIEW_OPS and _chain_over(u, src) is not None


def _drop_detach(u: UOp, base: UOp) -> UOp:
    """A write target without DETACH nodes in its movement chain above its array's `base` (detach only matters to
    autograd; a base that is itself a DETACH, e.g. after `t[...] = t.detach()`, stays as it is)."""
    if u.op is Ops.GATHER:  # a scatter target: its data is the chain over the storage
        return UOp(u.op, u.dtype, (_drop_detach(u.src[0], base), u.src[1]), u.arg)
    chain = []
    while u.op in VIEW_OPS and u is not base:
        if u.op is not Ops.DETACH:
            chain.append(u)
        u = u.src[0]
    return _on(chain, u)


def _on(chain: list[UOp], base: UOp) -> UOp:
    """`chain` (top-down) applied to a new base."""
    for mv in reversed(chain):
        base = UOp(mv.op, mv.dtype, (base,), mv.arg)
    return base


def _kind(chain: list[UOp], g: _Group) -> str:
    """'view' (writable), 'broadcast' (a read-only view) or 'copy' (NumPy would have copied) for the chain of a member
    of `g` over `g.base`. In a stand-in's group (`stand_in_for`), a movement of the stand-in is judged as that
    movement of the original tensor: a reshape that merges a transpose's axes is a copy there, as without the
    stand-in (the stand-in itself is the original's view: writes to it go back to the original)."""
    ops = tuple((mv.op, mv.arg) for mv in chain)
    if g.origin is not None:
        top, original, shape, _ = g.origin
        above = len(ops) - len(top)
        if above > 0 and ops[above:] == top:
            return _kind_of(ops[:above] + original, shape)
    return _kind_of(ops, g.base.shape)


def stand_in_view(t: Tensor) -> tuple[bool, View | None]:
    """(whether `t` is a stand-in (`stand_in_for`) or a movement of one, the single View that the same movement of the
    original tensor makes of the original's storage: None when it needs a view stack or the original is no movement
    of storage). Layout questions (is it C-ordered, so that `contiguous()` may alias it?) must be asked of that view,
    not of the stand-in's contiguous storage: an alias of the stand-in is written back to the caller's tensor, where
    without jit it is a copy."""
    g = t._group
    if g is None or g.origin is None or (chain := _chain_over(t.uop, g.base)) is None:
        return False, None
    ops = _ops(chain)
    top, _, _, storage = g.origin
    above = len(ops) - len(top)
    if above < 0 or ops[above:] != top:
        return False, None
    return True, None if storage is None else _view_of(ops[:above] + storage[0], storage[1])


@functools.lru_cache(maxsize=4096)
def _view_of(ops: _Ops, base_shape: tuple[int, ...]) -> View | None:
    return chain_view(_rebuild(ops, base_shape), base_shape)


def stand_in_for(copy: Tensor, original: Tensor) -> None:
    """Make `copy` (a contiguous copy of the view `original`, run in its place: a jit capture's input) judge views of
    itself as views of `original` would be judged (`_kind`)."""
    g = group_of(original)
    below = _chain_over(original.uop, g.base)
    mine = group_of(copy)
    top = _chain_over(copy.uop, mine.base)
    if below is not None and top is not None:
        chain, storage = strip_movement(original.uop)
        mine.origin = (_ops(top), _ops(below), g.base.shape,
                       (_ops(chain), storage.shape) if storage.op in (Ops.BUFFER, Ops.ASSIGN) else None)


def _ops(chain: list[UOp]) -> _Ops:
    return tuple((mv.op, mv.arg) for mv in chain)


@functools.lru_cache(maxsize=4096)
def _kind_of(ops: tuple[tuple[Ops, Any], ...], base_shape: tuple[int, ...]) -> str:
    stack, copied = view_stack_of(_rebuild(ops, base_shape), base_shape)
    if copied or not all_valid(stack):
        return "copy"
    return "broadcast" if is_broadcast(stack) else "view"


def _rebuild(ops: tuple[tuple[Ops, Any], ...], base_shape: tuple[int, ...]) -> list[UOp]:
    """The movement chain (top-down) of `ops` over a placeholder base of `base_shape`."""
    chain, u = [], UOp(Ops.CONST, dtypes.bool_, (), False).reshape((1,) * len(base_shape)).expand(base_shape)
    for op, arg in reversed(ops):
        u = UOp(op, u.dtype, (u,), arg)
        chain.insert(0, u)
    return chain


def _settle(t: Tensor) -> tuple[_Group, str]:
    """`t`'s group and how `t` views it; a tensor that is really a copy leaves to become an array of its own."""
    g = group_of(t)
    if is_computed_view(t):
        return g, "view"
    chain = _chain_over(t.uop, g.base)
    kind = "copy" if chain is None else _kind(chain, g)
    if kind == "copy":
        g.members.discard(t)
        t._group = None
        return group_of(t), "view"
    return g, kind


def _repoint(g: _Group, new_base: UOp) -> None:
    """Point every view of `g` at `new_base` (same shape as `g.base`); members that are copies keep the old value."""
    old = g.base
    moved: dict[UOp, UOp | None] = {}  # many members often share one uop
    computed = []
    for m in list(g.members):
        if is_computed_view(m):
            computed.append(m)
            continue
        if m.uop not in moved:
            chain = _chain_over(m.uop, old)
            moved[m.uop] = None if chain is None or _kind(chain, g) == "copy" else _on(chain, new_base)
        new = moved[m.uop]
        if new is None:
            g.members.discard(m)
            m._group = None
        else:
            m.uop = new
            hold(m)
    for m in computed:  # after the plain views: their anchors now view new_base
        r = _readonly_view(g, m)
        anchor = None if r is None or r.anchor is None else r.anchor()
        assert r is not None and r.compute is not None and anchor is not None
        m.uop = r.compute(anchor.uop)
        hold(m)
    g.base = new_base


def _substitute(u: UOp, mapping: dict[UOp, UOp]) -> UOp:
    """`u` with every node in `mapping` replaced (simultaneously: replacements are not searched again)."""
    memo: dict[UOp, UOp] = {}
    for n in toposort([u]):
        if n in mapping:
            memo[n] = mapping[n]
        elif n.src:
            srcs = tuple(memo[s] for s in n.src)
            memo[n] = n if srcs == n.src else UOp(n.op, n.dtype, srcs, n.arg)
        else:
            memo[n] = n
    return memo[u]


def write(owner: Tensor, lvalue: UOp, value: UOp) -> None:
    """Write `value` into `lvalue`: `owner.uop` itself (a basic view), or a GATHER over a chain from it (a scatter).

    `value` has lvalue's shape and dtype. Every live view of owner's array sees the write once it is computed; lazy
    values built before it keep the old contents.

    Raises:
        ValueError: owner is read-only: a broadcast view or a view of a read-only array (`check_writable`).
    """
    for check in write_checks:
        check(owner)
    g = check_writable(owner)
    lvalue = _drop_detach(lvalue, g.base)
    if g.buffer is None:
        if lvalue is g.base:
            _repoint(g, value)  # the whole array gets a new value: no storage needed yet
            if len(recent) < RECENT_CAP:
                recent.extend(weakref.ref(m) for m in g.members)
            return
        old = g.base
        storage = Buffer(old.size, old.dtype, owner.device)
        stack, _ = view_stack_of(_chain_over(lvalue, old) or [], old.shape) if lvalue.op is not Ops.GATHER else ((), 0)
        covers = lvalue.op is not Ops.GATHER and stack[-1].size == old.size and not is_broadcast(stack)
        fresh = UOp(Ops.BUFFER, old.dtype, (), storage)
        # the old contents survive where the write does not reach: copy them in first
        init = fresh if covers else UOp(Ops.ASSIGN, old.dtype, (fresh.reshape(old.shape), old))
        g.buffer = storage
        _repoint(g, init.reshape(old.shape))
        g.base = init
        lvalue = _substitute(lvalue, {old: init.reshape(old.shape)})
    new = UOp(Ops.ASSIGN, g.base.dtype, (lvalue, value))
    assert assign_storage(lvalue) is g.base, "an in-place write must target its own array's storage"
    _repoint(g, new)
    pending_writes[0] = True


def _last_write_wins(owner: Tensor, target: UOp, value: UOp, known: np.ndarray | None = None) -> UOp:
    """The value for scatter `target` (a GATHER) with every repeated position writing the value of its last
    occurrence, so the kernel may store in any order and still give NumPy's result (the last write wins). `known`:
    the flat positions when the indices were known on the host (else the index is read, which a capture refuses)."""
    index, axis = target.src[1], target.arg.axis
    if known is not None:
        positions = known.reshape(-1)
    else:
        positions = owner._new(index).numpy()[(..., *([0] * (index.ndim - axis - 1)))].reshape(-1)
    _, first, inverse = np.unique(positions, return_index=True, return_inverse=True)
    if first.size == positions.size:
        return value
    last = np.full(first.size, -1, np.int64)
    np.maximum.at(last, inverse.reshape(-1), np.arange(positions.size))
    winner = last[inverse.reshape(-1)]
    cls = type(owner)
    flat = cls(value, device=owner.device).reshape((positions.size, *value.shape[axis + 1 :]))
    # the losing occurrences carry the winner's value detached: only the winning value gets a gradient
    is_winner = cls(winner == np.arange(positions.size), device=owner.device)
    is_winner = is_winner.reshape((positions.size,) + (1,) * (flat.ndim - 1))
    return is_winner.where(flat, flat[winner].detach()).reshape(value.shape).uop


def _peel_scatter(lvalue: UOp, value: UOp) -> tuple[UOp, UOp]:
    """Move the reshapes/permutes above a scatter's GATHER onto the value (their inverses), so the target is the
    GATHER itself."""
    chain, base = strip_movement(lvalue)
    if base.op is not Ops.GATHER:
        return lvalue, value
    for mv in chain:  # top-down: undo the outermost op first
        if mv.op is Ops.RESHAPE:
            value = value.reshape(mv.src[0].shape)
        elif mv.op is Ops.PERMUTE:
            value = value.permute(tuple(int(i) for i in np.argsort(mv.arg)))
        else:
            raise AssertionError(f"unexpected {mv.op.name} above a scatter target")
    return base, value


# ---- realisation ----


_BUFFER, _CONST, _ASSIGN = Ops.BUFFER, Ops.CONST, Ops.ASSIGN  # module constants: an Enum member lookup is slow


def is_realized(u: UOp) -> bool:
    """True when `u` needs no kernel: a view of a buffer, or a plain constant."""
    base = u
    while base.op in VIEW_OPS:  # strip_movement without building the chain: this runs for every live tensor
        base = base.src[0]
    return base.op is _BUFFER or (base.op is _CONST and u is base)


def _storage_buffer(u: UOp) -> UOp:
    """The BUFFER node under a chain of ASSIGNs."""
    while u.op is Ops.ASSIGN:
        u = assign_storage(u.src[0])
    return u



# ---- the Tensor methods ----


class InplaceMixin:
    """assign, __setitem__ and the in-place operators (mixed into Tensor)."""

    __slots__ = ()

    def assign(self: Tensor, x: Any) -> Tensor:
        """Write `x` into this tensor's storage (deferred until realisation); returns self.

        `x` is a Tensor (same dtype and device), a NumPy array (same dtype), a Python scalar or a nested list (cast
        to this dtype); it is broadcast to this shape. Every live view of the same array sees the write; values
        computed from this tensor before the write keep the old contents. A tensor with no storage yet simply takes
        the value. A zero-size target or a self-assign does nothing.

        Raises:
            TypeError: a dtype mismatch (naming both dtypes).
            ValueError: a device mismatch, a shape that does not broadcast, or a read-only destination (a broadcast
                view, np.diagonal's result).
        """
        with WRITE_LOCK:
            v = value_for(self, x, strict=True)
            if self.size == 0 or v.uop is self.uop:
                if x is not self:
                    check_writable(self)  # nothing to write, but a read-only destination still refuses (NumPy)
                return self
            write(self, self.uop, v.uop)
        return self

    def _leave_array(self: Tensor) -> None:
        """Stop viewing the array `self` was made from: later writes to that array do not reach `self`, whose value
        stays what it was when it was made (copied first at realisation where a write would overwrite it)."""
        if self._group is not None:
            self._group.members.discard(self)
        self._group = None

    def __setitem__(self: Tensor, idx: Any, value: Any) -> None:
        """NumPy's `a[idx] = value`: basic indices write through a view, integer arrays and boolean masks scatter
        (the last write wins for repeated indices). `value` is cast to this dtype and broadcast to `a[idx]`'s shape.

        Raises:
            IndexError: an out-of-range or invalid index (before anything is written).
            ValueError: a shape that does not broadcast, or a read-only destination (a broadcast view, np.diagonal).
        """
        with WRITE_LOCK:  # the target is a view of the array as it is now: no other thread writes meanwhile
            check_writable(self)
            if _whole_mask(self, idx) and np.ndim(value) == 0:
                # a[mask] = 3 with a mask of a's shape: a select, which needs no mask values now (and works in jit)
                if self.size:
                    write(self, self.uop, idx.where(value_for(self, value, strict=False), self).uop)
                return
            positions: list[np.ndarray] = []  # the scatter's flat positions, when the indices are known on the host
            target = _getitem(self, idx, store_data=False, positions=positions)
            v = value_for(target, value, strict=False)
            if target.size == 0:
                return
            if _is_scatter(target.uop, self.uop):
                lvalue, value = _peel_scatter(target.uop, v.uop)
                write(self, lvalue, _last_write_wins(self, lvalue, value, positions[0] if positions else None))
            elif v.uop is not target.uop:
                write(target, target.uop, v.uop)

    def _inplace(self: Tensor, name: str, result: Tensor) -> Tensor:
        """Store `result` (this tensor op something) back into this tensor with NumPy's in-place casting rules
        (ValueError for a read-only tensor, as `check_writable`)."""
        check_writable(self, "output array")
        if result.dtype is not self.dtype and not np.can_cast(result.dtype.np_name, self.dtype.np_name, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{name}' output from dtype('{result.dtype.np_name}') to "
                            f"dtype('{self.dtype.np_name}') with casting rule 'same_kind'")
        if result.shape != self.shape:
            raise ValueError(f"non-broadcastable output operand with shape {self.shape} doesn't match the broadcast "
                             f"shape {result.shape}")
        return self.assign(result.cast(self.dtype))

    def __iadd__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("add", self + o)

    def __isub__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("subtract", self - o)

    def __imul__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("multiply", self * o)

    def __itruediv__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("divide", self / o)

    def __ifloordiv__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("floor_divide", self // o)

    def __imod__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("remainder", self % o)

    def __ipow__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("power", self**o)

    def __iand__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("bitwise_and", self & o)

    def __ior__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("bitwise_or", self | o)

    def __ixor__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("bitwise_xor", self ^ o)

    def __ilshift__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("left_shift", self << o)

    def __irshift__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("right_shift", self >> o)

    def __imatmul__(self: Tensor, o: Any) -> Tensor:
        return self._inplace("matmul", self @ o)


def _whole_mask(t: Tensor, idx: Any) -> bool:
    """Whether `idx` is a boolean Tensor of t's shape on t's device (`t[idx] = value` selects, element by element)."""
    return type(idx) is type(t) and idx.dtype is dtypes.bool_ and idx.shape == t.shape and idx.device == t.device


def _is_scatter(u: UOp, owner: UOp) -> bool:
    """Whether `u` (an indexing result of a tensor whose value is `owner`) gathers through an index of its own: a
    scatter target. A GATHER at the bottom of owner itself is owner's value (the copy fancy indexing made earlier),
    which a basic index views and writes in place."""
    base = strip_movement(u)[1]
    return base.op is Ops.GATHER and base is not strip_movement(owner)[1]
