"""UOp: the immutable, hash-consed node of every lazyarr graph, with shape inference and builders.

Two UOps built from the same (op, dtype, src, arg) are the same Python object, so equal subgraphs are shared and
identity comparison is structural comparison. Shapes are concrete tuples of ints, computed when a node is built.
"""

from __future__ import annotations

import functools
import struct
import threading
import weakref
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import GroupOp, Ops, truncate
from lazyarr.helpers import prod

_F64 = struct.Struct("<d")  # float args are keyed by their bits


@dataclass(frozen=True)
class ReduceArg:
    """Argument of a REDUCE: the combining op (ADD, MUL, MAX, MIN) and the reduced axes (sorted, kept as size 1)."""

    op: Ops
    axes: tuple[int, ...]


@dataclass(frozen=True)
class ScanArg:
    """Argument of a SCAN: the combining op (ADD, MUL, MAX, MIN) and the scanned axis. Element i along the axis is
    op(element i - 1 of the result, element i of the source), in that order (NumPy's `ufunc.accumulate`)."""

    op: Ops
    axis: int


@dataclass(frozen=True)
class ParamArg:
    """Argument of a PARAM: the position of the buffer it stands for, and that buffer's element count."""

    slot: int
    size: int


@dataclass(frozen=True)
class GatherArg:
    """Argument of a GATHER: `data` (a materialised tensor) read along `axis` at the integer positions in `index`.

    The result has `index`'s shape; `data` is reshaped so its other axes broadcast against it.
    """

    axis: int


class _Node:
    """UOp's fields. `UOp.__new__` fills a _Node with plain attribute writes (a third of the cost of calling each
    slot's descriptor, which UOp's own `__setattr__` leaves as the only way in) and then makes it a UOp."""

    __slots__ = ("op", "dtype", "src", "arg", "shape", "users", "holders", "storage_free", "__weakref__")


class UOp(_Node):
    """One node: `op` applied to `src` with static `arg`, producing `dtype` values of `shape`."""

    # equality and hashing are object identity (object's own, in C): hash-consing makes identity structural
    __slots__ = ()

    op: Ops
    dtype: DType
    src: tuple[UOp, ...]
    arg: Any
    shape: tuple[int, ...]
    # bookkeeping beside the node's value: weak references to the nodes made over it, and to the objects (tensors)
    # that registered as holding it (`add_holder`); both keep dead or stale entries until a sweep
    users: list[weakref.ref[UOp]]
    holders: list[weakref.ref[Any]] | None
    # no BUFFER or ASSIGN is below (or is) the node: it reads no storage, so it is the same under every renumbering of
    # buffers (`schedule.normalize` leaves it as it is, and `schedule.structure_key` takes it as one entry)
    storage_free: bool

    def __new__(cls, op: Ops, dtype: DType, src: tuple[UOp, ...] = (), arg: Any = None) -> UOp:
        # arg_key inlined: this runs for every node of every eager op
        key = (op, dtype, tuple(map(id, src)), ("float", _F64.pack(arg)) if isinstance(arg, float) else arg)
        ref = _cache.get(key)
        if ref is not None and (hit := ref()) is not None:
            return hit
        src = tuple(src)
        shape = _infer_shape(op, src, arg)
        free = op not in _STORAGE_OPS
        for s in src:
            if not s.storage_free:
                free = False
                break
        node = object.__new__(_Node)
        node.op, node.dtype, node.src, node.arg, node.shape = op, dtype, src, arg, shape
        node.users, node.holders, node.storage_free = [], None, free
        node.__class__ = cls  # immutable from here on
        ref = _cache[key] = weakref.ref(node, functools.partial(_drop_cached, key))
        for s in src:  # this runs for every source of every new node
            users = s.users
            n = len(users)
            if n >= 16 and not n & (n - 1):
                _prune(users)
            users.append(ref)
        return node  # type: ignore[return-value]  (a UOp since the class assignment)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("UOp is immutable")

    def __reduce__(self) -> tuple:
        return UOp, (self.op, self.dtype, self.src, self.arg)

    def __repr__(self) -> str:
        return pretty(self)

    def held(self) -> bool:
        """Whether a live object registered with `add_holder` still holds this node (as its `uop`)."""
        return any((h := r()) is not None and h.uop is self for r in self.holders or ())

    def add_holder(self, ref: weakref.ref[Any]) -> None:
        """Note that the object behind `ref` holds this node (`holding` finds it while it still does). At 16, 32,
        64, ... entries the ones that no longer count are dropped first: dead objects, objects that hold another
        node now, and repeats (a tensor written in place in a loop comes back to the same node each step, and
        `held` would scan one entry per step)."""
        holders = self.holders
        if holders is None:
            _set_holders(self, [ref])
            return
        n = len(holders)
        if n >= 16 and not n & (n - 1):
            _prune_holders(self, holders)
        holders.append(ref)

    # ---- properties ----
    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def toposort(self) -> list[UOp]:
        """Every node of the graph below (and including) self, sources before users."""
        return toposort([self])

    # ---- builders ----
    def alu(self, op: Ops, *others: UOp) -> UOp:
        srcs = (self, *others)
        out_dtype = dtypes.bool_ if op in GroupOp.Comparison else srcs[-1].dtype
        return UOp(op, out_dtype, srcs)

    def cast(self, dtype: DType) -> UOp:
        return self if dtype is self.dtype else UOp(Ops.CAST, dtype, (self,))

    def bitcast(self, dtype: DType) -> UOp:
        return UOp(Ops.BITCAST, dtype, (self,))

    def reshape(self, shape: tuple[int, ...]) -> UOp:
        return self if tuple(shape) == self.shape else UOp(Ops.RESHAPE, self.dtype, (self,), tuple(shape))

    def permute(self, order: tuple[int, ...]) -> UOp:
        return self if tuple(order) == tuple(range(self.ndim)) else UOp(Ops.PERMUTE, self.dtype, (self,), tuple(order))

    def expand(self, shape: tuple[int, ...]) -> UOp:
        return self if tuple(shape) == self.shape else UOp(Ops.EXPAND, self.dtype, (self,), tuple(shape))

    def shrink(self, arg: tuple[tuple[int, int], ...]) -> UOp:
        if all(b == 0 and e == s for (b, e), s in zip(arg, self.shape)):
            return self
        return UOp(Ops.SHRINK, self.dtype, (self,), tuple(arg))

    def pad(self, arg: tuple[tuple[int, int], ...]) -> UOp:
        return self if all(b == 0 and a == 0 for b, a in arg) else UOp(Ops.PAD, self.dtype, (self,), tuple(arg))

    def flip(self, axes: tuple[bool, ...]) -> UOp:
        return self if not any(axes) else UOp(Ops.FLIP, self.dtype, (self,), tuple(axes))

    def stride(self, steps: tuple[int, ...]) -> UOp:
        return self if all(k == 1 for k in steps) else UOp(Ops.STRIDE, self.dtype, (self,), tuple(steps))

    def reduce(self, op: Ops, axes: tuple[int, ...]) -> UOp:
        axes = tuple(sorted(set(axes)))
        return self if not axes else UOp(Ops.REDUCE, self.dtype, (self,), ReduceArg(op, axes))

    def scan(self, op: Ops, axis: int) -> UOp:
        return UOp(Ops.SCAN, self.dtype, (self,), ScanArg(op, axis))

    @staticmethod
    def const(value: Any, dtype: DType, shape: tuple[int, ...] = ()) -> UOp:
        """A scalar constant broadcast to `shape` (RESHAPE + EXPAND of a 0-d CONST)."""
        key = (type(value), arg_key(value), dtype, tuple(shape))
        if (hit := _recent_consts.get(key)) is not None:
            return hit
        c = UOp(Ops.CONST, dtype, (), truncate(value, dtype))
        out = c.reshape((1,) * len(shape)).expand(tuple(shape)) if shape else c
        if len(_recent_consts) >= 1024:
            _recent_consts.clear()
        _recent_consts[key] = out
        return out


# constants built lately, kept alive so that `x * 2.0` in a loop finds its three nodes instead of building them again
_recent_consts: dict[tuple, UOp] = {}

_STORAGE_OPS = frozenset({Ops.BUFFER, Ops.ASSIGN})  # the nodes that make a graph read storage (`storage_free`)

# live UOps by (op, dtype, ids of sources, arg key); an entry goes when its UOp dies. A plain dict of weak references
# (rather than a WeakValueDictionary) because building UOps is on the path of every eager op.
_cache: dict[tuple, weakref.ref[UOp]] = {}


def _drop_cached(key: tuple, ref: weakref.ref[UOp]) -> None:
    if _cache.get(key) is ref:
        del _cache[key]


# a UOp's holder list is set through the slot's descriptor (its own __setattr__ refuses, so that UOps stay immutable)
_set_holders = _Node.__dict__["holders"].__set__
_prune_lock = threading.Lock()


def _prune(refs: list[weakref.ref[Any]]) -> None:
    """Drop the dead entries of a `users` list (UOp.__new__ calls it at 16, 32, 64, ... entries: a node read by every
    step of a loop keeps about twice its live users). Entries are deleted by index, last first, by one thread at a
    time, so an entry another thread appends meanwhile is never lost (a realisation finds the tensors to repoint
    through them)."""
    with _prune_lock:
        for i in reversed([i for i, r in enumerate(refs) if r() is None]):
            del refs[i]


def _prune_holders(node: UOp, refs: list[weakref.ref[Any]]) -> None:
    """Drop the entries of `node.holders` whose object is dead, holds another node or is listed earlier. An object
    given `node` again meanwhile in another thread is appended again after that (`inplace.hold`), and entries are
    deleted by index, last first, so that entry is never lost."""
    with _prune_lock:
        seen: set[int] = set()
        drop = []
        for i, r in enumerate(refs):
            if (h := r()) is None or h.uop is not node or id(r) in seen:
                drop.append(i)
            else:
                seen.add(id(r))
        for i in reversed(drop):
            del refs[i]


def readers(nodes: list[UOp]) -> set[UOp]:
    """`nodes` and every live node made over any of them, directly or not (through `UOp.users`)."""
    found: set[UOp] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n not in found:
            found.add(n)
            for r in n.users:  # (a loop, not a generator: most nodes an eager op computes have no live users)
                if (u := r()) is not None and u not in found:
                    stack.append(u)
    return found


def holding(nodes: set[UOp]) -> list[Any]:
    """The live objects registered (`UOp.add_holder`) as holding one of `nodes` that still hold it (their `uop`)."""
    out: dict[int, Any] = {}
    for n in nodes:
        for r in n.holders or ():
            if (h := r()) is not None and h.uop is n:
                out[id(h)] = h
    return list(out.values())


def arg_key(arg: Any) -> Any:
    # 0.0 == -0.0 and nan != nan, so floats are keyed by their bits (not by float.hex(), which is "nan" for a NaN of
    # either sign: a -nan constant became a +nan one built before it)
    return ("float", _F64.pack(arg)) if isinstance(arg, float) else arg


def _movement_shape(op: Ops, src_shape: tuple[int, ...], arg: Any) -> tuple[int, ...]:
    if op is Ops.RESHAPE:
        if prod(arg) != prod(src_shape):
            raise ValueError(f"cannot reshape array of size {prod(src_shape)} into shape {arg}")
        return tuple(arg)
    if op is Ops.PERMUTE:
        if sorted(arg) != list(range(len(src_shape))):
            raise ValueError(f"axes {arg} don't match array of dimension {len(src_shape)}")
        return tuple(src_shape[i] for i in arg)
    if op is Ops.EXPAND:
        if len(arg) != len(src_shape) or any(s != n and s != 1 for s, n in zip(src_shape, arg)):
            raise ValueError(f"cannot broadcast shape {src_shape} to {tuple(arg)}")
        return tuple(arg)
    if op is Ops.SHRINK:
        if len(arg) != len(src_shape) or any(not 0 <= b <= e <= s for (b, e), s in zip(arg, src_shape)):
            raise ValueError(f"invalid shrink {arg} of shape {src_shape}")
        return tuple(e - b for b, e in arg)
    if op is Ops.PAD:
        if len(arg) != len(src_shape) or any(b < 0 or a < 0 for b, a in arg):
            raise ValueError(f"invalid pad {arg} of shape {src_shape}")
        return tuple(s + b + a for s, (b, a) in zip(src_shape, arg))
    if op is Ops.STRIDE:
        if len(arg) != len(src_shape) or any(k <= 0 for k in arg):
            raise ValueError(f"invalid stride {arg} of shape {src_shape}")
        return tuple(-(-s // k) for s, k in zip(src_shape, arg))
    if op is Ops.DETACH:
        return src_shape
    if len(arg) != len(src_shape):  # FLIP
        raise ValueError(f"invalid flip {arg} of shape {src_shape}")
    return src_shape


def _infer_shape(op: Ops, src: tuple[UOp, ...], arg: Any) -> tuple[int, ...]:
    if op not in _SHAPE_FROM_ARG:  # elementwise: every source has the result's shape
        shape = src[0].shape
        for s in src[1:]:
            if s.shape != shape:
                raise ValueError(f"{op.name} operands have shapes {shape} and {s.shape} (broadcast them first)")
        return shape
    if op in GroupOp.Movement:  # (first: each `Ops.X` below costs an Enum lookup, slow on Python 3.11)
        return _movement_shape(op, src[0].shape, arg)
    if op is Ops.BUFFER or op is Ops.PARAM:
        return (arg.size,)
    if op is Ops.CONST:
        return ()
    if op is Ops.IOTA:
        return (arg,)
    if op is Ops.REDUCE:
        return tuple(1 if i in arg.axes else s for i, s in enumerate(src[0].shape))
    if op is Ops.ASSIGN:
        return assign_storage(src[0]).shape  # the whole storage after the write
    return src[1].shape  # GATHER


# ops whose shape is not simply their sources' shape
_SHAPE_FROM_ARG = frozenset({Ops.BUFFER, Ops.PARAM, Ops.CONST, Ops.IOTA, Ops.REDUCE, Ops.ASSIGN, Ops.GATHER,
                             *GroupOp.Movement})


def assign_storage(target: UOp) -> UOp:
    """The storage node an ASSIGN target writes into: under its movement ops (and under a scatter's GATHER).

    A target is a movement chain over a storage node (a BUFFER/PARAM, an earlier ASSIGN, or a value materialised
    into a new buffer), or a GATHER whose data is such a chain (a scatter: data is written at the index positions).
    """
    while target.op in GroupOp.Movement or target.op is Ops.GATHER:
        target = target.src[0]
    return target


def toposort(roots: list[UOp], stop: Container[UOp] = ()) -> list[UOp]:
    """Every node reachable from `roots` without passing a node in `stop` (those are left out), each after all of its
    sources (iterative: deep graphs don't recurse)."""
    order: list[UOp] = []
    seen: set[int] = set()
    for root in roots:
        stack: list[tuple[UOp, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
                continue
            if id(node) in seen or node in stop:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((s, False) for s in reversed(node.src) if id(s) not in seen)
    return order


def substitute(root: UOp, memo: dict[UOp, UOp], leaf: Callable[[UOp], UOp | None]) -> UOp:
    """`root` rebuilt from the bottom up: a node for which `leaf` returns a UOp becomes that UOp (its sources are not
    visited); any other node is rebuilt over its sources' results (the same node when none of them changed). `memo`
    holds each node's result and is shared by calls that rebuild several roots (iterative: deep graphs don't
    recurse)."""
    stack = [(root, False)]
    while stack:
        n, expanded = stack.pop()
        if n in memo:
            continue
        if not expanded:
            if (new := leaf(n)) is not None:
                memo[n] = new
                continue
            stack.append((n, True))
            stack.extend((s, False) for s in n.src if s not in memo)
        else:
            srcs = tuple(memo[s] for s in n.src)
            memo[n] = n if srcs == n.src else UOp(n.op, n.dtype, srcs, n.arg)
    return memo[root]


def pretty(root: UOp, limit: int = 60) -> str:
    """A readable multi-line listing of the graph below `root` (one node per line, sources by number)."""
    nodes = root.toposort()
    index = {id(n): i for i, n in enumerate(nodes)}
    lines = []
    for i, n in enumerate(nodes[-limit:], start=max(0, len(nodes) - limit)):
        srcs = ",".join(f"%{index[id(s)]}" for s in n.src)
        arg = "" if n.arg is None else f" {n.arg!r}"
        lines.append(f"%{i} = {n.op.name}({srcs}){arg} : {n.dtype.name}{list(n.shape)}")
    return "\n".join(lines)
