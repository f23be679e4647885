"""The scheduler: value graphs in, a list of fused kernels (ScheduleItems) out.

Input graphs have their buffers replaced by PARAM(slot) leaves (`normalize`), so a schedule depends only on graph
structure and is cached by it. Fusion: elementwise work fuses into its consumer; a reduction fuses with the
elementwise work feeding it and using it, and with other reductions over the same axes whose results are broadcast
back over those axes (softmax, layernorm: one kernel that loops over each row several times). A kernel's loop space
is `full_shape`; the axes in `reduce_axes` are looped inside, the rest outside (and split across threads).
"""

from __future__ import annotations

import heapq
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from lazyarr.dtypes import DType
from lazyarr.graph.alias import overlaps, simplify
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.pattern import graph_rewrite
from lazyarr.graph.rules import pushdown, symbolic
from lazyarr.graph.uop import ParamArg, UOp, assign_storage, toposort
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
    """(movement ops from the top down, the node under them). DETACH counts as a view: it only stops gradients."""
    chain = []
    while u.op in GroupOp.Movement or u.op is Ops.DETACH:
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
    if mv.op is Ops.DETACH:  # a view that only stops gradients
        return v
    return v.flip(mv.arg)


def is_contiguous_param_view(u: UOp) -> bool:
    """True when `u` is a view of a PARAM that is its storage's prefix in C order (no copy needed to be contiguous)."""
    chain, base = strip_movement(u)
    return base.op is Ops.PARAM and (v := chain_view(chain, base.shape)) is not None and v.contiguous


class _Scheduler:
    def __init__(self, roots: tuple[UOp, ...]) -> None:
        memo: dict[UOp, UOp] = {}
        self.roots = []
        for r in roots:
            chain, base = _root_view(r)
            b = graph_rewrite(graph_rewrite(base, symbolic, "symbolic", {}), pushdown, "pushdown", memo)
            b = graph_rewrite(b, symbolic, "symbolic")
            for mv in reversed(chain):
                b = UOp(mv.op, mv.dtype, (b,), mv.arg)
            self.roots.append(b)
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
        self.infos: list[_KernelInfo] = []  # per item: what it reads and writes
        self.fuse = bool(flag("FUSE"))
        # storage versions some ASSIGN overwrites (a PARAM, an earlier ASSIGN, or a materialised base)
        self.overwritten = {assign_storage(n.src[0]) for r in self.roots for n in r.toposort() if n.op is Ops.ASSIGN}

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
        """Make (once) the kernel that stores `u`; returns the index of the buffer holding it.

        An ASSIGN stores its value into its target's storage (the buffer of the version it overwrites); anything else
        gets a new buffer. Each kernel's reads and writes of storage versions are recorded for `order`.
        """
        if u in self.buffer_of:
            return self.buffer_of[u]
        value = u.src[0] if u.op is Ops.CONTIGUOUS else u.src[1] if u.op is Ops.ASSIGN else u
        while value.op is Ops.CONTIGUOUS and value not in self.buffer_of:
            value = value.src[0]  # storing is already a copy
        if value is not u and value.op in (Ops.ASSIGN, Ops.COPY):
            self.materialize(value)  # a write (or copy) runs as its own kernel; this one reads its result
        target = u.src[0] if u.op is Ops.ASSIGN else None
        full_shape, reduce_axes, deps = self.loop_space(value)
        scatter_index = [target.src[1]] if target is not None and target.op is Ops.GATHER else []
        for n in self.stored_inputs([value, *scatter_index], deps):
            self.materialize(n)
        overwrites: tuple[int, UOp] | None = None
        if target is not None:
            storage = assign_storage(target)
            out_idx = self.slot_of(storage)  # the version this write replaces is stored first
            overwrites = (out_idx, storage)
            out_view_src = target
        else:
            out_idx = len(self.buffers)
            self.buffers.append(NewBuffer(u.size, u.dtype))
            out_view_src = UOp(Ops.PARAM, u.dtype, (), ParamArg(out_idx, u.size)).reshape(u.shape)
        local, reads, out_view, body = self.kernel_body(out_view_src, value, out_idx, overwrites)
        if target is not None and inplace_hazard(out_view, body):
            # the value reads the storage it overwrites at other positions: compute it into a buffer first
            staged = UOp(Ops.CONTIGUOUS, value.dtype, (value,), "clone")
            self.materialize(staged)
            local, reads, out_view, body = self.kernel_body(out_view_src, staged, out_idx, overwrites)
            full_shape, reduce_axes = value.shape, ()
        self.buffer_of[u] = out_idx
        bufs = [0] * len(local)
        for g, loc in local.items():
            bufs[loc] = g
        self.items.append(ScheduleItem(UOp(Ops.ASSIGN, value.dtype, (out_view, body)), full_shape, reduce_axes,
                                       tuple(bufs)))
        self.infos.append(_KernelInfo(frozenset(reads), overwrites, u))
        return out_idx

    def stored_inputs(self, roots: list[UOp], deps: set[UOp]) -> list[UOp]:
        """The nodes a kernel computing `roots` reads from buffers: the first stored nodes below them (the walk does
        not look inside a stored node, e.g. into an ASSIGN's target)."""
        out: list[UOp] = []
        seen: set[UOp] = set()
        stack = list(roots)
        while stack:
            n = stack.pop()
            if n in seen or n in self.buffer_of:
                continue
            seen.add(n)
            if n is not roots[0] and (n in deps or self.must_materialize(n)):
                out.append(n)
            else:
                stack.extend(n.src)
        return out

    def kernel_body(self, out_view_src: UOp, value: UOp, out_idx: int, overwrites: tuple[int, UOp] | None
                    ) -> tuple[dict[int, int], set[tuple[int, UOp]], UOp, UOp]:
        """(global -> local buffer slots, storage versions read, output view, value) of one kernel."""
        local: dict[int, int] = {out_idx: 0}
        reads: set[tuple[int, UOp]] = set()
        out_view = self.rebuild(out_view_src, local, {}, reads)
        reads.discard(overwrites)  # the target's own storage is written, not read (a scatter index may read)
        body = self.rebuild(value, local, {}, reads)
        return local, reads, out_view, body

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
            if base.op is Ops.GATHER:  # its data is read at computed positions: it must be stored
                if chain and base is not value:  # the lowering indexes a fused gather at its own shape
                    deps.add(base)
                    continue
                data = strip_movement(base.src[0])[1]
                if data.op is not Ops.PARAM:
                    deps.add(data)
                stack.append(base.src[1])
                continue
            stack.extend(base.src)
        full_shape, reduce_axes = space[0] if space else (value.shape, ())
        return full_shape, reduce_axes, deps

    def rebuild(self, u: UOp, local: dict[int, int], memo: dict[UOp, UOp], reads: set[tuple[int, UOp]]) -> UOp:
        """`u` with PARAMs renumbered to kernel-local slots and stored children replaced by loads of their buffer.

        Every storage version read (a PARAM, or a stored node) is added to `reads` as (global buffer, version node).
        """
        if u in memo:
            return memo[u]
        if u.op is Ops.PARAM:
            reads.add((u.arg.slot, u))
            out = UOp(Ops.PARAM, u.dtype, (), ParamArg(local.setdefault(u.arg.slot, len(local)), u.arg.size))
        elif u.op is Ops.CONTIGUOUS and u.arg is None and u not in self.buffer_of:
            out = self.rebuild(u.src[0], local, memo, reads)  # an aliasing contiguous() is its source
        elif u in self.buffer_of:
            g = self.buffer_of[u]
            reads.add((g, u))
            size = self.buffers[g].size if isinstance(self.buffers[g], NewBuffer) else u.size
            out = UOp(Ops.PARAM, u.dtype, (), ParamArg(local.setdefault(g, len(local)), size)).reshape(u.shape)
        else:
            out = UOp(u.op, u.dtype, tuple(self.rebuild(s, local, memo, reads) for s in u.src), u.arg)
        memo[u] = out
        return out

    # ---- execution order ----
    def order(self) -> list[int] | None:
        """Kernel indices in an order that respects every dependency, or None when there is none (a cycle).

        Besides reading what an earlier kernel stored, a kernel that reads a storage version must run before the
        kernel that overwrites that version. Ties keep the order kernels were made in.
        """
        producer = {info.produces: i for i, info in enumerate(self.infos)}
        readers: dict[tuple[int, UOp], list[int]] = {}
        for i, info in enumerate(self.infos):
            for key in info.reads:
                readers.setdefault(key, []).append(i)
        after: list[set[int]] = [set() for _ in self.infos]
        for i, info in enumerate(self.infos):
            for _, node in info.reads:
                if node in producer and producer[node] != i:
                    after[producer[node]].add(i)
            if info.overwrites is not None:
                if info.overwrites[1] in producer:
                    after[producer[info.overwrites[1]]].add(i)
                for j in readers.get(info.overwrites, []):
                    if j != i:
                        after[j].add(i)
        indegree = [0] * len(self.infos)
        for succ in after:
            for j in succ:
                indegree[j] += 1
        ready = [i for i, d in enumerate(indegree) if d == 0]
        heapq.heapify(ready)
        out: list[int] = []
        while ready:
            i = heapq.heappop(ready)
            out.append(i)
            for j in after[i]:
                indegree[j] -= 1
                if indegree[j] == 0:
                    heapq.heappush(ready, j)
        return out if len(out) == len(self.infos) else None


@dataclass(frozen=True)
class _KernelInfo:
    """What one kernel touches: storage versions read as (buffer, version node), the version it overwrites (an
    ASSIGN's target storage) and the node whose value it stores."""

    reads: frozenset[tuple[int, UOp]]
    overwrites: tuple[int, UOp] | None
    produces: UOp


def view_stack_of(chain: list[UOp], base_shape: tuple[int, ...]) -> tuple[tuple[View, ...], bool]:
    """(view stack, copied) of movement `chain` (top-down) over a contiguous `base_shape`; `copied` is True when a
    reshape of an unpadded view needed a new level (NumPy would have copied instead of returning a view)."""
    stack = [View.create(base_shape)]
    copied = False
    for mv in reversed(chain):
        nxt = apply_movement(stack[-1], mv)
        if nxt is None:
            copied = copied or stack[-1].mask is None
            stack.append(View.create(mv.arg))
        else:
            stack[-1] = nxt
            stack = list(simplify(stack))
    return tuple(stack), copied


def inplace_hazard(out_view: UOp, body: UOp) -> bool:
    """True when a kernel storing `body` into `out_view` (over local PARAM 0) could read a position of its output
    storage that it has already written: it reads that storage through another view whose positions overlap the
    written ones, or either side is a scatter/gather. Reading exactly the element being written is safe."""
    scatter = out_view.op is Ops.GATHER
    written = view_stack_of(*_chain_and_shape(out_view.src[0] if scatter else out_view))[0]
    accesses: list[tuple[UOp, bool]] = []  # (chain over the output storage, read at data-dependent positions)
    roots = [body, out_view.src[1]] if scatter else [body]
    for n in toposort(roots):
        if n.op in GroupOp.Movement:
            continue  # only whole chains count: look at them from their consumer
        for k, s in enumerate(n.src):
            if s.op in GroupOp.Movement or s.op is Ops.PARAM:
                accesses.append((s, n.op is Ops.GATHER and k == 0))
    if body.op in GroupOp.Movement or body.op is Ops.PARAM:
        accesses.append((body, False))
    for chain_top, gathered in accesses:
        chain, base = strip_movement(chain_top)
        if base.op is not Ops.PARAM or base.arg.slot != 0:
            continue
        stack = view_stack_of(chain, base.shape)[0]
        if not (scatter or gathered) and stack == written:
            continue
        if overlaps(stack, written):
            return True
    return False


def _chain_and_shape(u: UOp) -> tuple[list[UOp], tuple[int, ...]]:
    chain, base = strip_movement(u)
    return chain, base.shape


def snapshot_rewrite(roots: tuple[UOp, ...]) -> tuple[UOp, ...]:
    """`roots` where every read of a storage version that an ASSIGN overwrites goes through a copy of it
    (CONTIGUOUS clone), so each overwrite can run after all its readers without any cycle."""
    overwritten = {assign_storage(n.src[0]) for n in toposort(list(roots)) if n.op is Ops.ASSIGN}
    memo: dict[UOp, UOp] = {}

    def read(n: UOp) -> UOp:
        new = version(n)
        return UOp(Ops.CONTIGUOUS, new.dtype, (new,), "clone") if n in overwritten else new

    def target(t: UOp) -> UOp:
        if t.op in GroupOp.Movement:
            return UOp(t.op, t.dtype, (target(t.src[0]),), t.arg)
        if t.op is Ops.GATHER:
            return UOp(t.op, t.dtype, (target(t.src[0]), read(t.src[1])), t.arg)
        return version(t)  # the storage itself is written, not read

    def version(n: UOp) -> UOp:
        if n not in memo:
            if n.op is Ops.ASSIGN:
                memo[n] = UOp(n.op, n.dtype, (target(n.src[0]), read(n.src[1])), n.arg)
            else:
                memo[n] = UOp(n.op, n.dtype, tuple(read(s) for s in n.src), n.arg)
        return memo[n]

    return tuple(version(r) for r in roots)


def _root_view(r: UOp) -> tuple[list[UOp], UOp]:
    """(reshapes, base) of a root whose own reshapes of a computed reduction stay a view of the kernel's output.

    Pushing such a reshape (e.g. dropping keepdims axes after `sum(...) / n`) below the elementwise work would
    separate that work from the reduction and cost a second kernel.
    """
    chain, base = strip_movement(r)
    if chain and all(mv.op is Ops.RESHAPE for mv in chain) and base.op in GroupOp.ALU | {Ops.CAST} and \
            any(n.op is Ops.REDUCE for n in base.toposort()):
        return chain, base
    return [], r


def create_schedule(roots: tuple[UOp, ...]) -> Schedule:
    """Schedule normalized `roots` (see module docstring).

    Writes (ASSIGN) are ordered after every kernel that reads the version they overwrite; when no order exists (a
    kernel reads two versions of one buffer, or two writes each read what the other overwrites) the overwritten
    versions are copied first (`snapshot_rewrite`) and the graph is scheduled again.
    """
    s = _Scheduler(roots)
    results = [_realize_root(s, r) for r in s.roots]
    order = s.order()
    if order is None:
        s = _Scheduler(snapshot_rewrite(tuple(s.roots)))
        results = [_realize_root(s, r) for r in s.roots]
        order = s.order()
        assert order is not None, "snapshot_rewrite left a cycle between in-place writes"
    return Schedule([s.items[i] for i in order], s.buffers, results)


def _realize_root(s: _Scheduler, r: UOp) -> UOp:
    chain, base = strip_movement(r)
    if base in s.overwritten:
        base, chain = UOp(Ops.CONTIGUOUS, r.dtype, (r,), "clone"), []  # its storage is written later in this schedule
    if base.op is Ops.PARAM or (base.op is Ops.CONST and not chain):
        return r
    if base.op in (Ops.CONST, Ops.IOTA):
        base, chain = r, []  # a broadcast constant or index has no storage: compute it
    if base.op is Ops.CONTIGUOUS and base.arg is None and is_contiguous_param_view(base.src[0]) \
            and strip_movement(base.src[0])[1] not in s.overwritten:
        return base.src[0]  # already contiguous storage: alias it
    g = s.materialize(base)
    out: UOp = UOp(Ops.PARAM, base.dtype, (), ParamArg(g, base.size)).reshape(base.shape)
    for mv in reversed(chain):
        out = UOp(mv.op, mv.dtype, (out,), mv.arg)
    return out
