"""The scheduler: value graphs in, a list of fused kernels (ScheduleItems) out.

Input graphs have their buffers replaced by PARAM(slot) leaves (`normalize`), so a schedule depends only on graph
structure and is cached by it. Fusion: elementwise work fuses into its consumer; a reduction fuses with the
elementwise work feeding it and using it, and with other reductions over the same axes whose results are broadcast
back over those axes (softmax, layernorm: one kernel that loops over each row several times). A kernel's loop space
is `full_shape`; the axes in `reduce_axes` are looped inside, the rest outside (and split across threads).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from lazyarr.dtypes import DType
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.pattern import graph_rewrite
from lazyarr.graph.rules import pushdown, symbolic
from lazyarr.graph.uop import ParamArg, UOp
from lazyarr.graph.verify import verify_graph
from lazyarr.graph.view import View
from lazyarr.helpers import flag

# a node with several users is stored rather than recomputed when its fused subgraph is bigger than this
RECOMPUTE_MAX_OPS = 24
RECOMPUTE_MAX_LEAVES = 3


@dataclass(frozen=True)
class NewBuffer:
    """A buffer the schedule allocates: `size` elements of `dtype`."""

    size: int
    dtype: DType


@dataclass(frozen=True)
class ScheduleItem:
    """One kernel. `ast` is ASSIGN(output view over PARAM 0, value); PARAM k reads `buffers[bufs[k]]`."""

    ast: UOp
    full_shape: tuple[int, ...]
    reduce_axes: tuple[int, ...]
    bufs: tuple[int, ...]


@dataclass
class Schedule:
    """Kernels in execution order over `buffers` (first the inputs, by PARAM slot; then `NewBuffer`s).

    `results[i]` is the value of root i afterwards: a movement chain over PARAM(buffer index), or a constant.
    """

    items: list[ScheduleItem]
    buffers: list[int | NewBuffer]
    results: list[UOp]
    extra: dict[str, Any] = field(default_factory=dict)


def normalize(roots: list[UOp]) -> tuple[tuple[UOp, ...], list[Any]]:
    """Replace every BUFFER by PARAM(slot), numbered in order of first appearance; returns (roots, buffer args)."""
    found: dict[UOp, UOp] = {}
    args: list[Any] = []
    memo: dict[UOp, UOp] = {}
    for node in (n for r in roots for n in r.toposort()):
        if node in memo:
            continue
        if node.op is Ops.BUFFER:
            if node not in found:
                found[node] = UOp(Ops.PARAM, node.dtype, (), ParamArg(len(args), node.arg.size))
                args.append(node.arg)
            memo[node] = found[node]
        else:
            new_src = tuple(memo[s] for s in node.src)
            memo[node] = node if new_src == node.src else UOp(node.op, node.dtype, new_src, node.arg)
    return tuple(memo[r] for r in roots), args


_cache: OrderedDict[tuple[Any, ...], Schedule] = OrderedDict()
SCHEDULE_CACHE_SIZE = 512
# schedules built from scratch (cache misses) since import; read by lazyarr.stats()
schedules_created = 0


def schedule(roots: tuple[UOp, ...]) -> Schedule:
    """The (cached) schedule computing normalized `roots`; the cache key is the roots themselves (hash-consed)."""
    key = (roots, flag("FUSE"))
    if flag("SCHEDULE_CACHE") and key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    global schedules_created
    schedules_created += 1
    out = create_schedule(roots)
    if flag("SCHEDULE_CACHE"):
        _cache[key] = out
        if len(_cache) > SCHEDULE_CACHE_SIZE:
            _cache.popitem(last=False)
    return out


def strip_movement(u: UOp) -> tuple[list[UOp], UOp]:
    """(movement ops from the top down, the node under them)."""
    chain = []
    while u.op in GroupOp.Movement:
        chain.append(u)
        u = u.src[0]
    return chain, u


def chain_view(chain: list[UOp], base_shape: tuple[int, ...]) -> View | None:
    """The single View that `chain` (top-down) makes of a contiguous `base_shape`, or None if it needs a view stack."""
    v: View | None = View.create(base_shape)
    for mv in reversed(chain):
        v = apply_movement(v, mv) if v is not None else None
    return v


def apply_movement(v: View, mv: UOp) -> View | None:
    """`v` with one movement op applied (None when a reshape cannot be a single View)."""
    if mv.op is Ops.RESHAPE:
        return v.reshape(mv.arg)
    if mv.op is Ops.PERMUTE:
        return v.permute(mv.arg)
    if mv.op is Ops.EXPAND:
        return v.expand(mv.arg)
    if mv.op is Ops.SHRINK:
        return v.shrink(mv.arg)
    if mv.op is Ops.PAD:
        return v.pad(mv.arg)
    if mv.op is Ops.STRIDE:
        return v.stride(mv.arg)
    return v.flip(mv.arg)


def is_contiguous_param_view(u: UOp) -> bool:
    """True when `u` is a view of a PARAM that is its storage's prefix in C order (no copy needed to be contiguous)."""
    chain, base = strip_movement(u)
    return base.op is Ops.PARAM and (v := chain_view(chain, base.shape)) is not None and v.contiguous


class _Scheduler:
    def __init__(self, roots: tuple[UOp, ...]) -> None:
        memo: dict[UOp, UOp] = {}
        self.roots = [graph_rewrite(graph_rewrite(r, symbolic, "symbolic", {}), pushdown, "pushdown", memo) for r in roots]
        self.roots = [graph_rewrite(r, symbolic, "symbolic") for r in self.roots]
        if flag("VERIFY"):
            for r in self.roots:
                verify_graph(r)
        self.users: dict[UOp, int] = {}
        for r in self.roots:
            for n in r.toposort():
                for s in n.src:
                    self.users[s] = self.users.get(s, 0) + 1
        self.n_inputs = max((n.arg.slot + 1 for r in roots for n in r.toposort() if n.op is Ops.PARAM), default=0)
        self.buffers: list[int | NewBuffer] = list(range(self.n_inputs))
        self.items: list[ScheduleItem] = []
        self.buffer_of: dict[UOp, int] = {}  # materialised node -> buffer index
        self.fuse = bool(flag("FUSE"))

    # ---- decisions ----
    def must_materialize(self, u: UOp) -> bool:
        if u.op is Ops.CONTIGUOUS:
            return u.arg == "clone" or not is_contiguous_param_view(u.src[0])
        if u.op in (Ops.ASSIGN, Ops.COPY):
            return True
        if u.op in GroupOp.Leaf or u.op in GroupOp.Movement:
            return False
        if not self.fuse:
            return True
        if self.users.get(u, 0) > 1:
            if u.op is Ops.REDUCE:
                return True
            ops, leaves = self.cost(u)
            return ops > RECOMPUTE_MAX_OPS or leaves > RECOMPUTE_MAX_LEAVES
        return False

    def cost(self, u: UOp) -> tuple[int, int]:
        ops, leaves, seen, stack = 0, set(), set(), [u]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if n.op in (Ops.PARAM, Ops.IOTA) or (n is not u and n in self.buffer_of):
                leaves.add(n)
                continue
            ops += n.op in GroupOp.ALU or n.op is Ops.REDUCE
            stack.extend(n.src)
        return ops, len(leaves)

    # ---- kernel construction ----
    def materialize(self, u: UOp) -> int:
        """Make (once) the kernel that stores `u`; returns the index of the buffer holding it."""
        if u in self.buffer_of:
            return self.buffer_of[u]
        value = u.src[0] if u.op is Ops.CONTIGUOUS else u.src[1] if u.op is Ops.ASSIGN else u
        full_shape, reduce_axes, deps = self.loop_space(value)
        for n in value.toposort():
            if n is not value and n not in self.buffer_of and (n in deps or self.must_materialize(n)):
                self.materialize(n)
        if u.op is Ops.ASSIGN:
            out_idx = self.slot_of(strip_movement(u.src[0])[1])
            out_view_src = u.src[0]
        else:
            out_idx = len(self.buffers)
            self.buffers.append(NewBuffer(u.size, u.dtype))
            out_view_src = UOp(Ops.PARAM, u.dtype, (), ParamArg(out_idx, u.size)).reshape(u.shape)
        local: dict[int, int] = {out_idx: 0}
        memo: dict[UOp, UOp] = {}
        out_view = self.rebuild(out_view_src, local, memo)
        body = self.rebuild(value, local, memo)
        self.buffer_of[u] = out_idx
        bufs = [0] * len(local)
        for g, loc in local.items():
            bufs[loc] = g
        self.items.append(ScheduleItem(UOp(Ops.ASSIGN, value.dtype, (out_view, body)), full_shape, reduce_axes,
                                       tuple(bufs)))
        return out_idx

    def slot_of(self, base: UOp) -> int:
        return base.arg.slot if base.op is Ops.PARAM else self.materialize(base)

    def loop_space(self, value: UOp) -> tuple[tuple[int, ...], tuple[int, ...], set[UOp]]:
        """(full_shape, reduce_axes) of the kernel computing `value`, and the nodes it needs stored first."""
        space: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        if value.op is Ops.REDUCE:
            space.append((value.src[0].shape, value.arg.axes))
        deps: set[UOp] = set()

        def fits(red: UOp, consumer_shape: tuple[int, ...], chain: list[UOp]) -> bool:
            if chain:  # the result must be used as is, or broadcast straight back over the reduced axes
                v = chain_view(chain, red.shape)
                as_is = consumer_shape == red.shape and v == View.create(red.shape)
                expanded = consumer_shape == red.src[0].shape and v == View.create(red.shape).expand(consumer_shape)
                if not (as_is or expanded):
                    return False
            cand = (red.src[0].shape, red.arg.axes)
            if not space:
                space.append(cand)
            return space[0] == cand

        seen: set[UOp] = set()
        stack = [value]
        while stack:
            n = stack.pop()
            if n in seen or n in self.buffer_of:
                continue
            seen.add(n)
            if n is not value and self.must_materialize(n):
                deps.add(n)
                continue
            chain, base = strip_movement(n)
            if base.op is Ops.REDUCE and base is not value:
                if fits(base, n.shape, chain):
                    stack.extend(base.src)
                else:
                    deps.add(base)
                continue
            if base.op is Ops.GATHER and base is not value:
                data = strip_movement(base.src[0])[1]
                if data.op is not Ops.PARAM:
                    deps.add(data)
                stack.append(base.src[1])
                continue
            stack.extend(base.src)
        full_shape, reduce_axes = space[0] if space else (value.shape, ())
        return full_shape, reduce_axes, deps

    def rebuild(self, u: UOp, local: dict[int, int], memo: dict[UOp, UOp]) -> UOp:
        """`u` with PARAMs renumbered to kernel-local slots and stored children replaced by loads of their buffer."""
        if u in memo:
            return memo[u]
        if u.op is Ops.PARAM:
            out = UOp(Ops.PARAM, u.dtype, (), ParamArg(local.setdefault(u.arg.slot, len(local)), u.arg.size))
        elif u.op is Ops.CONTIGUOUS and u.arg is None and u not in self.buffer_of:
            out = self.rebuild(u.src[0], local, memo)  # an aliasing contiguous() is its source
        elif u in self.buffer_of and u.op is Ops.ASSIGN:
            out = self.rebuild(u.src[0], local, memo)  # reading an assign reads its target after the write
        elif u in self.buffer_of:
            g = self.buffer_of[u]
            size = self.buffers[g].size if isinstance(self.buffers[g], NewBuffer) else u.size
            out = UOp(Ops.PARAM, u.dtype, (), ParamArg(local.setdefault(g, len(local)), size)).reshape(u.shape)
        else:
            out = UOp(u.op, u.dtype, tuple(self.rebuild(s, local, memo) for s in u.src), u.arg)
        memo[u] = out
        return out


def create_schedule(roots: tuple[UOp, ...]) -> Schedule:
    """Schedule normalized `roots` (see module docstring)."""
    s = _Scheduler(roots)
    return Schedule(s.items, s.buffers, [_realize_root(s, r) for r in s.roots])


def _realize_root(s: _Scheduler, r: UOp) -> UOp:
    chain, base = strip_movement(r)
    if base.op is Ops.PARAM or (base.op is Ops.CONST and not chain):
        return r
    if base.op in (Ops.CONST, Ops.IOTA):
        base, chain = r, []  # a broadcast constant or index has no storage: compute it
    if base.op is Ops.CONTIGUOUS and base.arg is None and is_contiguous_param_view(base.src[0]):
        return base.src[0]  # already contiguous storage: alias it
    g = s.materialize(base)
    if base.op is Ops.ASSIGN:
        return base.src[0] if strip_movement(base.src[0])[1].op is Ops.PARAM else r
    out: UOp = UOp(Ops.PARAM, base.dtype, (), ParamArg(g, base.size)).reshape(base.shape)
    for mv in reversed(chain):
        out = UOp(mv.op, mv.dtype, (out,), mv.arg)
    return out
