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
from lazyarr.graph.pattern import PatternMatcher, UPat, graph_rewrite
from lazyarr.graph.rules import pushdown, symbolic
from lazyarr.graph.uop import ParamArg, UOp, arg_key
from lazyarr.graph.verify import verify_graph
from lazyarr.graph.view import View
from lazyarr.helpers import flag, prod

# a node with several users is stored rather than recomputed when its fused subgraph is bigger than this
RECOMPUTE_MAX_OPS = 24
RECOMPUTE_MAX_LEAVES = 3

# A reduction with fewer outputs than SPLIT_OUTPUTS_MAX and at least SPLIT_MIN inputs per output runs in two kernels,
# the first spread over threads; each row of the first keeps at least SPLIT_CHUNK inputs. These depend on shapes only
# (never on the thread count or on fusion), so a result never depends on either.
SPLIT_OUTPUTS_MAX = 32
SPLIT_MIN = 1 << 17
SPLIT_CHUNK = 1 << 14
SPLIT_ROWS = (64, 32, 16, 8, 4, 2)


@dataclass(frozen=True)
class NewBuffer:
    """A buffer the schedule allocates: `size` elements of `dtype`."""

    size: int
    dtype: DType


@dataclass(frozen=True)
class ScheduleItem:
    """One kernel. `ast` is ASSIGN(output view over PARAM 0, value); PARAM k reads `buffers[bufs[k]]`.

    `extra` holds further ASSIGN(output view, value) pairs the same kernel computes over the same loop space
    (elementwise kernels only: several results of one realize that share work, like Black-Scholes' call and put)."""

    ast: UOp
    full_shape: tuple[int, ...]
    reduce_axes: tuple[int, ...]
    bufs: tuple[int, ...]
    extra: tuple[UOp, ...] = ()

    @property
    def outputs(self) -> tuple[UOp, ...]:
        """Every ASSIGN(output view, value) of the kernel, `ast` first."""
        return (self.ast, *self.extra)


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


def structure_key(roots: list[UOp]) -> tuple[tuple[Any, ...], list[Any]]:
    """A hashable key equal for two lists of roots exactly when `normalize` makes the same graphs of them, and the
    BUFFER args in slot order (what `normalize` returns second). Builds no UOps, so it is cheaper than `normalize`.

    One depth-first walk in `toposort`'s order (sources in order, each node after its sources)."""
    index: dict[UOp, int] = {}
    slots: dict[UOp, int] = {}
    args: list[Any] = []
    key: list[Any] = []
    for root in roots:
        stack: list[tuple[UOp, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node in index:
                continue
            if not expanded and node.src:
                stack.append((node, True))
                stack.extend((s, False) for s in reversed(node.src) if s not in index)
                continue
            if node.op is Ops.BUFFER:
                if node not in slots:
                    slots[node] = len(args)
                    args.append(node.arg)
                key.append((Ops.PARAM, node.dtype, slots[node], node.arg.size))
            else:
                key.append((node.op, node.dtype, arg_key(node.arg), tuple([index[s] for s in node.src])))
            index[node] = len(index)
        key.append(index[root])
    return tuple(key), args


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


@dataclass(frozen=True)
class MatmulAxes:
    """A matmul-shaped reduction: sum over axis `k` of `a * b`, where `a` is constant along axis `m` and `b` along
    axis `n`, and both vary along `k`; every other axis of size > 1 is a batch axis."""

    n: int
    k: int
    m: int
    a: UOp
    b: UOp


def _varies(u: UOp, axis: int) -> bool | None:
    """Whether elementwise `u` (over views of leaves) depends on the index along `axis`; None when it is not such a
    graph (it reads a reduction, a gather, or a view that is not a single strided View)."""
    found, seen, stack = False, set(), [u]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n.op in GroupOp.Elementwise:
            stack.extend(n.src)
            continue
        chain, base = strip_movement(n)
        v = chain_view(chain, base.shape) if base.op in GroupOp.Leaf else None
        if v is None:
            return None
        found = found or v.strides[axis] != 0 or (v.mask is not None and v.mask[axis] != (0, v.shape[axis]))
    return found


def matmul_axes(red: UOp) -> MatmulAxes | None:
    """The axes of `red` if it is a float ADD over one axis of a product of two operands broadcast along different
    axes (what `Tensor.matmul` builds for two matrices), else None. Such a reduction may run as one BLAS call (see
    lower.py); the decision depends on shapes and broadcasting only, so fused and unfused kernels make the same."""
    if red.op is not Ops.REDUCE or red.arg.op is not Ops.ADD or red.dtype.name not in ("float32", "float64"):
        return None
    src = red.src[0]
    ks = [a for a in red.arg.axes if src.shape[a] > 1]
    if src.op is not Ops.MUL or len(ks) != 1:
        return None
    x, y = src.src
    n = m = None
    for d, size in enumerate(src.shape):
        if d == ks[0] or size == 1:
            continue
        vx, vy = _varies(x, d), _varies(y, d)
        if vx is None or vy is None:
            return None
        if vx and not vy:
            if n is not None:
                return None
            n = d
        elif vy and not vx:
            if m is not None:
                return None
            m = d
    # a matrix-vector product is memory-bound: a fused loop beats BLAS there, and needs no operand copies
    if n is None or m is None or not _varies(x, ks[0]) or not _varies(y, ks[0]):
        return None
    return MatmulAxes(n, ks[0], m, x, y)


def _split_reduce(x: UOp) -> UOp | None:
    src, op, axes = x.src[0], x.arg.op, x.arg.axes
    outputs = prod(x.shape)
    if outputs >= SPLIT_OUTPUTS_MAX or src.size < SPLIT_MIN * outputs:
        return None
    last = src.ndim - 1
    others = tuple(a for a in axes if a != last and src.shape[a] > 1)
    if last in axes and others and src.shape[last] >= 256:
        # the last axis first, then the others: the same sums in the same order as one kernel (see lower.py)
        return src.reduce(op, (last,)).reduce(op, others)
    per_output = src.size // outputs
    for a in axes:
        n = src.shape[a]
        rows = next((p for p in SPLIT_ROWS if n % p == 0 and per_output // p >= SPLIT_CHUNK), None)
        if rows is None:
            continue
        split = src.reshape(src.shape[:a] + (rows, n // rows) + src.shape[a + 1:])
        partial = split.reduce(op, tuple(b + 1 if b >= a else b for b in axes))
        return partial.reduce(op, (a,)).reshape(x.shape)
    return None


# long reductions into few outputs become two reductions (partial results per row of a split axis, then those)
split_reductions = PatternMatcher([
    (UPat(Ops.REDUCE, name="x"), _split_reduce),  # reduce(x, big) -> reduce(reduce(x reshaped, per row), rows)
])


class _Scheduler:
    def __init__(self, roots: tuple[UOp, ...]) -> None:
        memo: dict[UOp, UOp] = {}
        roots = tuple(graph_rewrite(graph_rewrite(r, symbolic, "symbolic", {}), split_reductions, "split") for r in roots)
        self.roots = [graph_rewrite(r, pushdown, "pushdown", memo) for r in roots]
        self.roots = [graph_rewrite(r, symbolic, "symbolic") for r in self.roots]
        if flag("VERIFY"):
            for r in self.roots:
                verify_graph(r)
        self.users: dict[UOp, int] = {}
        for r in self.roots:
            for n in r.toposort():
                for s in n.src:
                    self.users[s] = self.users.get(s, 0) + 1
        # the product under a matmul-shaped reduction is part of that one op, fused or not
        self.matmul_products = {n.src[0] for r in self.roots for n in r.toposort() if matmul_axes(n) is not None}
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
        if u.op in GroupOp.Leaf or u.op in GroupOp.Movement or u in self.matmul_products:
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
        if reduce_axes and not self.rerankable(value, full_shape, reduce_axes):
            full_shape, reduce_axes, deps = self.loop_space(value, squeeze=False)
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
        kept = tuple(1 if i in reduce_axes else n for i, n in enumerate(full_shape))
        if reduce_axes and _squeezed_of(value.shape, kept):  # the reduction's result, squeezed: compute at its kept shape
            out_view = out_view.reshape(kept)
            body = self.rerank(value, kept, local, memo)
        self.buffer_of[u] = out_idx
        bufs = [0] * len(local)
        for g, loc in local.items():
            bufs[loc] = g
        self.items.append(ScheduleItem(UOp(Ops.ASSIGN, value.dtype, (out_view, body)), full_shape, reduce_axes,
                                       tuple(bufs)))
        return out_idx

    def materialize_together(self, us: list[UOp]) -> None:
        """One elementwise kernel storing every value in `us` (same shape, no reductions): shared work runs once."""
        for u in us:
            full_shape, reduce_axes, deps = self.loop_space(u)
            assert not reduce_axes and full_shape == us[0].shape
            for n in u.toposort():
                if n is not u and n not in self.buffer_of and (n in deps or self.must_materialize(n)):
                    self.materialize(n)
        local: dict[int, int] = {}
        memo: dict[UOp, UOp] = {}
        outputs = []
        for u in us:
            idx = len(self.buffers)
            self.buffers.append(NewBuffer(u.size, u.dtype))
            local[idx] = len(local)
            out_view = self.rebuild(UOp(Ops.PARAM, u.dtype, (), ParamArg(idx, u.size)).reshape(u.shape), local, memo)
            outputs.append(UOp(Ops.ASSIGN, u.dtype, (out_view, self.rebuild(u, local, memo))))
            self.buffer_of[u] = idx
        bufs = [0] * len(local)
        for g, loc in local.items():
            bufs[loc] = g
        self.items.append(ScheduleItem(outputs[0], us[0].shape, (), tuple(bufs), tuple(outputs[1:])))

    def fuse_outputs(self) -> None:
        """Store the roots that are elementwise values of one shape from one kernel (when fusing)."""
        if not self.fuse:
            return
        groups: dict[tuple[int, ...], list[UOp]] = {}
        for r in self.roots:
            base = strip_movement(r)[1]
            group = groups.setdefault(base.shape, [])
            if base.op in GroupOp.Elementwise and base not in self.buffer_of and base not in group:
                group.append(base)
        for us in groups.values():
            spaces = [self.loop_space(u) for u in us]
            needed = set().union(*(deps for _, _, deps in spaces))
            # a root another one needs stored first, or one with a reduction, keeps its own kernel
            together = [u for u, (_, red, _) in zip(us, spaces) if not red and u not in needed]
            if len(together) >= 2:
                self.materialize_together(together)

    def slot_of(self, base: UOp) -> int:
        return base.arg.slot if base.op is Ops.PARAM else self.materialize(base)

    def loop_space(self, value: UOp, squeeze: bool = True) -> tuple[tuple[int, ...], tuple[int, ...], set[UOp]]:
        """(full_shape, reduce_axes) of the kernel computing `value`, and the nodes it needs stored first.

        With `squeeze`, a reduction whose result is reshaped to `value`'s shape by dropping size-1 dims (`x.sum()`,
        `x.mean(1)`) fuses with the elementwise work after it; `materialize` then computes that work at the
        reduction's kept shape (`rerank`)."""
        space: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        matmul: list[bool] = []
        if value.op is Ops.REDUCE:
            space.append((value.src[0].shape, value.arg.axes))
            matmul.append(matmul_axes(value) is not None)
        deps: set[UOp] = set()

        def fits(red: UOp, consumer_shape: tuple[int, ...], chain: list[UOp]) -> bool:
            if chain:  # the result must be used as is, or broadcast straight back over the reduced axes
                v = chain_view(chain, red.shape)
                as_is = consumer_shape == red.shape and v == View.create(red.shape)
                expanded = consumer_shape == red.src[0].shape and v == View.create(red.shape).expand(consumer_shape)
                squeezed = squeeze and consumer_shape == value.shape and all(m.op is Ops.RESHAPE for m in chain) \
                    and _drop_ones(consumer_shape) == _drop_ones(red.shape)
                if not (as_is or expanded or squeezed):
                    return False
            cand = (red.src[0].shape, red.arg.axes)
            if not space:
                space.append(cand)
                matmul.append(matmul_axes(red) is not None)
                return True
            # a matmul-shaped reduction keeps its kernel to itself (one BLAS call per kernel)
            return space[0] == cand and not matmul[0] and matmul_axes(red) is None

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
                if chain:  # the lowering indexes a fused gather at its own shape: a view of it must read a buffer
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

    def rerankable(self, value: UOp, full_shape: tuple[int, ...], reduce_axes: tuple[int, ...]) -> bool:
        """Whether `rerank` can move `value` to the kernel's kept shape: everything computed at `value`'s shape is
        elementwise, over views of leaves, stored buffers or the reduction."""
        kept = tuple(1 if i in reduce_axes else n for i, n in enumerate(full_shape))
        if not _squeezed_of(value.shape, kept):
            return True
        stack, seen = [value], set()
        while stack:
            n = stack.pop()
            if n in seen or n.shape != value.shape or n in self.buffer_of or (n is not value and self.must_materialize(n)):
                continue
            seen.add(n)
            if n.op in GroupOp.Elementwise:
                stack.extend(n.src)
            elif strip_movement(n)[1].op not in (GroupOp.Leaf | {Ops.REDUCE}) and strip_movement(n)[1] not in self.buffer_of:
                return False
        return True

    def rerank(self, u: UOp, kept: tuple[int, ...], local: dict[int, int], memo: dict[UOp, UOp]) -> UOp:
        """`rebuild` of `u`, with the elementwise work at `u`'s (squeezed) shape done at the `kept` shape instead."""
        if u.op in GroupOp.Elementwise and u not in self.buffer_of and u.shape != kept:
            return UOp(u.op, u.dtype, tuple(self.rerank(s, kept, local, memo) if s.shape == u.shape
                                            else self.rebuild(s, local, memo) for s in u.src), u.arg)
        return self.rebuild(u, local, memo).reshape(kept)

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


def _drop_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(n for n in shape if n != 1)


def _squeezed_of(shape: tuple[int, ...], kept: tuple[int, ...]) -> bool:
    """`shape` is `kept` with some size-1 dims dropped or added (and is not `kept` itself)."""
    return shape != kept and _drop_ones(shape) == _drop_ones(kept)


def create_schedule(roots: tuple[UOp, ...]) -> Schedule:
    """Schedule normalized `roots` (see module docstring)."""
    s = _Scheduler(roots)
    s.fuse_outputs()
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
