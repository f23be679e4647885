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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lazyarr.dtypes import DType
from lazyarr.graph.alias import overlaps, simplify
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.pattern import PatternMatcher, UPat, graph_rewrite
from lazyarr.graph.rules import pushdown, symbolic
from lazyarr.graph.uop import ParamArg, UOp, arg_key, assign_storage, toposort
from lazyarr.graph.verify import verify_graph
from lazyarr.graph.view import View
from lazyarr.helpers import flag, prod

# a value several kernels read is stored rather than computed in each when the work that repeats (operations per
# element, times the kernels after the first) or its reads per element (in elements of its size) pass these
RECOMPUTE_MAX_OPS = 24
RECOMPUTE_MAX_LEAVES = 3
# operations a transcendental costs in `_Scheduler.cost` (range reduction and a polynomial: about ten arithmetic ops)
_OP_COST = {op: 8 for op in (Ops.EXP, Ops.EXP2, Ops.LOG, Ops.LOG2, Ops.LOG1P, Ops.EXPM1, Ops.SIN, Ops.COS, Ops.TAN,
                             Ops.TANH, Ops.ERF, Ops.POW)}
# A kernel's longest path of operations ends in a stored value once its compile cost reaches KERNEL_MAX_PATH_COST, so
# a long chain (`x = f(x)` in a loop) runs as kernels of the same few structures, each compiled once, instead of one
# kernel whose compile time grows faster than the chain (measured with LLVM -O3: 1000 chained adds 0.9 s, 2000 47 s;
# 8 chained float32 sines 1.4 s, 16 6 s). Costs are in simple operations (about 1.3 ms each to compile); a float32
# exp, log, tanh or erf compiles in about 45 ms, a sine, cosine, tangent or pow in 100-150 ms.
KERNEL_MAX_PATH_COST = 512
_STORED_OPS = (Ops.REDUCE, Ops.SCAN, Ops.CONTIGUOUS, Ops.ASSIGN, Ops.COPY)  # where a walk over one kernel's work stops
_COMPILE_COST = {**{op: 24 for op in GroupOp.Transcendental}, **{op: 64 for op in (Ops.SIN, Ops.COS, Ops.TAN, Ops.POW)}}
_KERNELS_TRACKED = 64  # `_Scheduler._shared_values` counts the kernels computing a node up to this many

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


def structure_key(roots: list[UOp], nodes: list[UOp] | None = None) -> tuple[tuple[Any, ...], list[Any]]:
    """A hashable key equal for two lists of roots exactly when `normalize` makes the same graphs of them, and the
    BUFFER args in slot order (what `normalize` returns second). Builds no UOps, so it is cheaper than `normalize`.

    One depth-first walk in `toposort`'s order (sources in order, each node after its sources). A node that reads no
    storage (`UOp.storage_free`: a broadcast constant, say) is its own entry and is not walked: `normalize` leaves it as
    it is, and being hash-consed, it is the same object exactly when it is the same graph. Every other node is
    appended to `nodes` when given (each ASSIGN among them)."""
    index: dict[UOp, int] = {}
    args: list[Any] = []
    key: list[Any] = []
    buffer_op, param_op = Ops.BUFFER, Ops.PARAM  # locals: an Enum member lookup is slow on Python 3.11
    for root in roots:
        stack: list[tuple[UOp, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node in index:
                continue
            if not expanded:
                if node.storage_free:
                    index[node] = len(key)
                    key.append(node)
                    continue
                if node.src:
                    stack.append((node, True))
                    for s in reversed(node.src):
                        if s not in index:
                            stack.append((s, False))
                    continue
            if node.op is buffer_op:  # (each node comes here once: its slot is the next one)
                entry: Any = (param_op, node.dtype, len(args), node.arg.size)
                args.append(node.arg)
            else:
                entry = (node.op, node.dtype, arg_key(node.arg), tuple(map(index.__getitem__, node.src)))
            index[node] = len(key)
            key.append(entry)
            if nodes is not None:
                nodes.append(node)
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
    """(movement ops from the top down, the node under them). DETACH counts as a view: it only stops gradients."""
    chain = []
    while u.op in VIEW_OPS:
        chain.append(u)
        u = u.src[0]
    return chain, u


# what strip_movement strips: a set, not `Ops.DETACH` per step (an Enum member lookup is slow on Python 3.11)
VIEW_OPS = GroupOp.Movement | {Ops.DETACH}


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


@dataclass(frozen=True)
class MatmulAxes:
    """A matmul-shaped reduction: sum over axis `k` of `a * b`, where `a` is constant along axis `m` and `b` along
    axis `n`, and both vary along `k`; every other axis of size > 1 is a batch axis, except `rows`: axes right before
    `n` along which `a` varies and `b` does not ((batch, n, k) @ (k, m)), which the product takes as more rows of
    `a` when the kernel's views let them merge with `n` (lower.py), and `inner`: reduced axes right before `k`
    (the weight gradient of such a product sums over batch and rows), summed as more of `k` when they merge."""

    n: int
    k: int
    m: int
    a: UOp
    b: UOp
    rows: tuple[int, ...] = ()
    inner: tuple[int, ...] = ()


def _read_through(u: UOp) -> Iterator[tuple[UOp, list[UOp], UOp]]:
    """(node, its movement chain, the base under it) for every non-elementwise node `u`'s elementwise graph reads."""
    seen, stack = set(), [u]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n.op in GroupOp.Elementwise:
            stack.extend(n.src)
            continue
        chain, base = strip_movement(n)
        yield n, chain, base


def _along(v: View, axis: int) -> bool:
    """Whether reading through `v` depends on the index along `axis` (a stride, or a mask that cuts the axis)."""
    return v.strides[axis] != 0 or (v.mask is not None and v.mask[axis] != (0, v.shape[axis]))


def _varies(u: UOp, axis: int) -> bool | None:
    """Whether `u` depends on the index along `axis`, judged from its elementwise graph down to the views it reads
    (of leaves, or of anything else: a reduction, a gather); None when such a view is not a single strided View."""
    found = False
    for _, chain, base in _read_through(u):
        v = chain_view(chain, base.shape)
        if v is None:
            return None
        found = found or _along(v, axis)
    return found


def _varies_lenient(u: UOp, axis: int) -> bool:
    """Whether `u` may depend on the index along `axis`, like `_varies` but never unknown: where the views a node is
    read through are no single View, the longest run of them from the top that is one judges (taking the node under
    that run as varying along all of its axes)."""
    for n, chain, _ in _read_through(u):
        v = next((v for j in range(len(chain), 0, -1)
                  if (v := chain_view(chain[:j], chain[j - 1].src[0].shape)) is not None), None)
        if (n.shape[axis] > 1) if v is None else _along(v, axis):
            return True
    return False


def matmul_axes(red: UOp, lenient: bool = False) -> MatmulAxes | None:
    """The axes of `red` if it is a float ADD over one axis of a product of two operands broadcast along different
    axes (what `Tensor.matmul` builds for two matrices), else None. Such a reduction may run as one BLAS call (see
    lower.py); the decision depends on shapes and broadcasting only, so fused and unfused kernels make the same.

    `lenient`: an operand read through a view that is not one strided View (a padded reshape, say) counts as
    varying along every axis, instead of making the answer None (what staging an operand into a buffer fixes)."""
    if red.op is not Ops.REDUCE or red.arg.op is not Ops.ADD or red.dtype.name not in ("float32", "float64"):
        return None
    src = red.src[0]
    ks = sorted(a for a in red.arg.axes if src.shape[a] > 1)
    if src.op is not Ops.MUL or not ks or any(src.shape[e] > 1 for e in range(ks[0], ks[-1]) if e not in ks):
        return None
    x, y = src.src
    n = m = None
    rows: list[int] = []  # earlier axes along which only x varies, each right before the next (size-1 axes between)
    for d, size in enumerate(src.shape):
        if d in ks or size == 1:
            continue
        vx, vy = (_varies_lenient(x, d), _varies_lenient(y, d)) if lenient else (_varies(x, d), _varies(y, d))
        if vx is None or vy is None:
            return None
        if vx and not vy:
            if n is not None:
                if any(src.shape[e] > 1 for e in range(n + 1, d)):
                    return None
                rows.append(n)
            n = d
        elif vy and not vx:
            if m is not None:
                return None
            m = d
    # a matrix-vector product is memory-bound: a fused loop beats BLAS there, and needs no operand copies
    vary = _varies_lenient if lenient else _varies
    if n is None or m is None or not all(vary(x, k) and vary(y, k) for k in ks):
        return None
    return MatmulAxes(n, ks[-1], m, x, y, tuple(rows), tuple(ks[:-1]))


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


def _stage_repeated_views(roots: list[UOp]) -> list[UOp]:
    """`roots` where an elementwise value that one kernel would compute at several positions per element (read
    through several different views: `x[1:] + x[:-1]`, `x + np.roll(x, 1)`) is stored (CONTIGUOUS) when its
    operations (see `_view_cost`) times the extra positions exceed RECOMPUTE_MAX_OPS. The push-down of views copies
    such a value once per view, so a stencil `x = x[1:-1] + x[2:] + x[:-2]` run n times would compute its start at
    3 ** n positions. Counted from the roots down (users before sources), each view giving its source positions of
    its own, each reduction one pass of its own; work that several roots share is `_Scheduler._shared_values`'
    concern."""
    order = toposort(list(roots))
    at: dict[UOp, frozenset[Any]] = dict.fromkeys(roots, frozenset((None,)))  # node -> the positions computing it
    staged: set[UOp] = set()
    for n in reversed(order):
        runs = at.get(n, frozenset())
        if len(runs) > 1 and n.op in GroupOp.ALU and _view_cost(n, RECOMPUTE_MAX_OPS / (len(runs) - 1), staged):
            staged.add(n)
        if n in staged or n.op in GroupOp.Leaf or n.op in _STORED_OPS:
            give = frozenset((n,))
        elif n.op in GroupOp.Movement:
            give = frozenset((n, r) for r in runs)
        else:
            give = runs
        for src in n.src:
            at[src] = _union(at.get(src), give)
    return _store_staged(roots, order, staged)


def _store_staged(roots: list[UOp], order: list[UOp], staged: set[UOp]) -> list[UOp]:
    """`roots` rebuilt with every node of `staged` stored (wrapped in a CONTIGUOUS); `order` is their toposort."""
    if not staged:
        return roots
    memo: dict[UOp, UOp] = {}
    for n in order:
        new = UOp(n.op, n.dtype, tuple(memo[s] for s in n.src), n.arg) if n.src else n
        memo[n] = UOp(Ops.CONTIGUOUS, n.dtype, (new,)) if n in staged else new
    return [memo[r] for r in roots]


def _view_cost(u: UOp, limit: float, staged: set[UOp]) -> bool:
    """Whether computing `u` takes more than `limit` operations per element (a transcendental counts `_OP_COST`),
    counting each node once and stopping at leaves, reductions, stored values and `staged` nodes."""
    ops = 0.0
    seen: set[UOp] = set()
    stack = [u]
    while stack:
        n = stack.pop()
        if n in seen or n.op in GroupOp.Leaf or n.op in _STORED_OPS:
            continue
        if n is not u and n in staged:
            continue
        seen.add(n)
        if n.op in GroupOp.ALU:
            ops += _OP_COST.get(n.op, 1)
            if ops > limit:
                return True
        stack.extend(n.src)
    return False


def _stage_shared_matmul_operands(roots: list[UOp]) -> list[UOp]:
    """`roots` where a matmul operand computed by work that other computations share (a layer's activation, a
    gradient) is stored (CONTIGUOUS) before it is broadcast into the product: otherwise the push-down of that
    broadcast copies the shared work out to the product's full (batch, in, out) shape. So is the matrix under an
    operand's broadcast when it is no strided view of what it reads. An operand only the product reads stays fused
    (the gemm kernel computes it into operand scratch). Decided on the graph as given."""
    users: dict[UOp, set[UOp]] = {}  # node -> the computations that read it (through any views)
    order = toposort(list(roots))
    for n in order:
        if n.op not in GroupOp.Movement:
            for src in n.src:
                users.setdefault(strip_movement(src)[1], set()).add(n)
    staged: set[UOp] = set()
    for n in order:
        if matmul_axes(n, lenient=True) is not None:
            for operand in n.src[0].src:
                base = strip_movement(operand)[1]
                if base.op not in GroupOp.Leaf and base.op not in (Ops.CONTIGUOUS, Ops.ASSIGN) \
                        and len(users.get(base, ())) >= 2:
                    staged.add(base)
                chain, _ = strip_movement(operand)
                j = next((i for i, mv in enumerate(chain) if mv.op is Ops.EXPAND), None)
                if j is not None and j + 1 < len(chain) and chain_view(chain[j + 1:], base.shape) is None:
                    # the matrix under the broadcast is no strided view of what it reads (an (N, C, H, W) tensor
                    # read as (N*H*W, C), say): copied to one, so the product can be a BLAS call
                    staged.add(chain[j].src[0])
    return _store_staged(roots, order, staged)


# long reductions into few outputs become two reductions (partial results per row of a split axis, then those)
split_reductions = PatternMatcher([
    (UPat(Ops.REDUCE, name="x"), _split_reduce),  # reduce(x, big) -> reduce(reduce(x reshaped, per row), rows)
])


class _Scheduler:
    def __init__(self, roots: tuple[UOp, ...]) -> None:
        memo: dict[UOp, UOp] = {}
        views = [_root_view(r) for r in roots]
        bases = [graph_rewrite(graph_rewrite(b, symbolic, "symbolic", {}), split_reductions, "split") for _, b in views]
        bases = _stage_shared_matmul_operands(bases)
        if flag("FUSE"):
            bases = _stage_repeated_views(bases)
        self.roots = []
        for (chain, _), b in zip(views, bases):
            b = graph_rewrite(graph_rewrite(b, pushdown, "pushdown", memo), symbolic, "symbolic")
            for mv in reversed(chain):
                b = UOp(mv.op, mv.dtype, (b,), mv.arg)
            self.roots.append(b)
        if flag("VERIFY"):
            for r in self.roots:
                verify_graph(r)
        nodes = toposort(self.roots)
        self.users: dict[UOp, int] = {}  # distinct nodes using each node (x * x uses x once)
        for n in nodes:
            for s in dict.fromkeys(n.src):
                self.users[s] = self.users.get(s, 0) + 1
        # the product under a matmul-shaped reduction is part of that one op, fused or not
        self.matmul_products = {n.src[0] for n in nodes if matmul_axes(n) is not None}
        self.n_inputs = max((n.arg.slot + 1 for r in roots for n in r.toposort() if n.op is Ops.PARAM), default=0)
        self.buffers: list[int | NewBuffer] = list(range(self.n_inputs))
        self.items: list[ScheduleItem] = []
        self.buffer_of: dict[UOp, int] = {}  # materialised node -> buffer index
        self.infos: list[_KernelInfo] = []  # per item: what it reads and writes
        self.fuse = bool(flag("FUSE"))
        # storage versions some ASSIGN overwrites (a PARAM, an earlier ASSIGN, or a materialised base)
        self.overwritten = {assign_storage(n.src[0]) for n in nodes if n.op is Ops.ASSIGN}
        self.shared = self._shared_values(nodes) if self.fuse else set()
        if self.fuse:
            self.shared |= self._path_cuts(nodes)

    def _shared_values(self, nodes: list[UOp]) -> set[UOp]:
        """The elementwise values with several users that are stored: those several kernels would compute (not only
        several nodes of one kernel, which computes a value once) and that cost more to recompute than to store.

        One pass from the roots down: a node belongs to the kernel of each stored node above it with nothing stored
        in between (the roots' bases and every node stored on the way are kernel outputs; elementwise roots of one
        shape without reductions share a kernel). A node that belongs to k >= 2 kernels is stored when the work
        recomputing repeats, its operations per element times k - 1, exceeds RECOMPUTE_MAX_OPS, or its reads exceed
        RECOMPUTE_MAX_LEAVES (see `cost`): twenty reductions of one tanh chain read it from a buffer instead of running
        it twenty times.

        A kernel with reductions runs one loop over each reduction's input (a pass) before the loop computing its
        outputs, and computes a value again in every pass that reads it. A value that belongs to k >= 2 passes is
        stored when its operations per element times k - 1 exceed RECOMPUTE_MAX_OPS: in `y = y + y.sum(1, keepdims=
        True)` run n times, each `y` would be computed again in every later pass, n * n steps for n."""
        # output -> its kernel: elementwise outputs of one shape are stored by one kernel (`fuse_outputs`)
        outputs: dict[UOp, Any] = {}
        groups: dict[tuple[int, ...], Any] = {}
        for r in self.roots:
            base = strip_movement(r)[1]
            together = base.op in GroupOp.Elementwise and base not in self.overwritten and not self._reduces(base)
            outputs[base] = groups.setdefault(base.shape, object()) if together else base
        kernels: dict[UOp, frozenset[Any]] = {}  # node -> the kernels computing it (at most _KERNELS_TRACKED)
        passes: dict[UOp, frozenset[Any]] = {}  # node -> the passes computing it (a kernel's output, or a reduction)
        shared: set[UOp] = set()
        for n in reversed(nodes):  # users before their sources
            own, runs = kernels.get(n, frozenset()), passes.get(n, frozenset())
            if len(own) > 1 and n.op is Ops.REDUCE:
                shared.add(n)  # a reduction several kernels need (through views, say) is stored, as one with users
            elif len(runs) > 1 and n.op in GroupOp.ALU and n not in self.matmul_products:
                ops, leaves = self.cost(n)
                if len(own) > 1 and (ops * (len(own) - 1) > RECOMPUTE_MAX_OPS or leaves > RECOMPUTE_MAX_LEAVES):
                    shared.add(n)
                elif self.cost(n, reductions=False)[0] * (len(runs) - 1) > RECOMPUTE_MAX_OPS:
                    shared.add(n)  # passes of one kernel read its inputs again from the cache: only its ops count
            if n in outputs:
                give = give_pass = frozenset((outputs[n],))
            elif n in shared or self._stored_anyway(n):
                give = give_pass = frozenset((n,))
            else:
                give, give_pass = own, frozenset((n,)) if n.op is Ops.REDUCE else runs
            for src in n.src:
                kernels[src] = _union(kernels.get(src), give)
                passes[src] = _union(passes.get(src), give_pass)
        return shared

    def _path_cuts(self, nodes: list[UOp]) -> set[UOp]:
        """The elementwise nodes stored so that no kernel holds a path of operations costing KERNEL_MAX_PATH_COST or
        more to compile (see `_COMPILE_COST`).

        A node's path is its own cost plus the dearest path among its sources that are not stored. One pass from the
        leaves up (`nodes` in topological order) cuts where a node's path plus the dearest of its users' own costs
        (seen through views) reaches the limit, so its users start again from 0. The cut stores the values of the
        node's kernel that other kernels would compute again (in `x = 0.5 * x + exp(-x)`, each `x` that `-x` and
        `0.5 * x` both read), then the node itself if its path is still too long. The cuts depend only on the graph
        above the stored values, so the kernels of a long repeating chain are alike and compile once."""
        def own(n: UOp) -> int:
            return _COMPILE_COST.get(n.op, 1) if n.op in GroupOp.ALU or n.op is Ops.REDUCE else 0

        users: dict[UOp, list[UOp]] = {}
        dearest_user: dict[UOp, int] = {}
        for n in reversed(nodes):  # users before their sources
            cost = dearest_user.get(n, 0) if n.op in GroupOp.Movement else own(n)
            for s in n.src:
                dearest_user[s] = max(dearest_user.get(s, 0), cost)
                users.setdefault(s, []).append(n)
        order = {n: i for i, n in enumerate(nodes)}
        path: dict[UOp, int] = {}
        stored: set[UOp] = set()
        cuts: set[UOp] = set()

        def update(n: UOp) -> None:
            path[n] = own(n) + max((path[s] for s in n.src if s not in stored), default=0)

        def too_long(n: UOp) -> bool:
            return (path[n] + dearest_user.get(n, 0) >= KERNEL_MAX_PATH_COST and n.op in GroupOp.ALU
                    and n not in self.matmul_products)

        for n in nodes:
            update(n)
            if n.op is Ops.PARAM or n in self.shared or self._stored_anyway(n):
                stored.add(n)
            elif too_long(n):
                kernel = self._unstored_cone(n, stored)
                leaks = {strip_movement(x)[1] for x in kernel if x is not n and any(u not in kernel for u in users[x])}
                leaks = {x for x in leaks if x in kernel and x.op in GroupOp.ALU and x not in self.matmul_products}
                stored |= leaks
                cuts |= leaks
                for x in nodes[min(map(order.__getitem__, leaks), default=order[n]):order[n] + 1]:
                    update(x)  # the paths through the values just stored start again
                if too_long(n):
                    stored.add(n)
                    cuts.add(n)
        return cuts

    @staticmethod
    def _unstored_cone(n: UOp, stored: set[UOp]) -> set[UOp]:
        """`n` and every node it reads without passing a node in `stored`: what a kernel storing `n` computes."""
        cone: set[UOp] = set()
        stack = [n]
        while stack:
            x = stack.pop()
            if x not in cone:
                cone.add(x)
                stack.extend(s for s in x.src if s not in stored)
        return cone

    # ---- decisions ----
    def must_materialize(self, u: UOp) -> bool:
        if u.op in (Ops.CONTIGUOUS, Ops.ASSIGN, Ops.COPY, Ops.SCAN):
            return self._stored_anyway(u)
        if u.op in GroupOp.Leaf or u.op in GroupOp.Movement or u in self.matmul_products:
            return False
        if not self.fuse:
            return True
        if u in self.shared:
            return True
        return u.op is Ops.REDUCE and self.users.get(u, 0) > 1

    def cost(self, u: UOp, reductions: bool = True) -> tuple[float, float]:
        """(ops, leaves) of recomputing `u` in each kernel that uses it, both per element of `u`: its ALU and REDUCE
        operations (a transcendental counts `_OP_COST`; a reduction inside `u` runs again over its whole input: a
        matrix product over k counts 2k), and the elements it reads: a bias or a row statistic broadcast over `u`
        costs little to read again, a full-size input a whole `u`, the input of a reduction inside `u` all of that
        input. The walk stops at what is stored anyway: inputs, stored nodes, a reduction with several users, and
        writes, copies and clones; with `reductions=False` also at every reduction (the cost of recomputing `u` in
        another pass of the kernel computing it, where each reduction ran once in a pass of its own)."""
        ops, leaves = 0.0, 0.0
        size = max(u.size, 1)
        seen: set[UOp] = set()
        stack = [(u, u.size)]  # (node, elements of the loop it is computed in)
        while stack:
            n, loop = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if n.op is Ops.IOTA:
                continue  # computed from the index: nothing to read
            if n.op is Ops.PARAM or (n is not u and (n in self.buffer_of or self._stored_anyway(n))):
                leaves += min(n.size, loop) / size
                continue
            if n.op is Ops.REDUCE and not reductions:
                continue
            inner = n.src[0].size if n.op is Ops.REDUCE else loop
            if n.op in GroupOp.ALU or n.op is Ops.REDUCE:
                ops += _OP_COST.get(n.op, 1) * inner / size
            stack.extend((s, inner) for s in n.src)
        return ops, leaves

    def _reduces(self, u: UOp) -> bool:
        """Whether computing `u` runs a reduction (one not stored anyway): `fuse_outputs` leaves such a root a kernel
        of its own."""
        seen: set[UOp] = set()
        stack = [u]
        while stack:
            n = stack.pop()
            if n in seen or n.op is Ops.PARAM or (n is not u and self._stored_anyway(n)):
                continue
            if n.op is Ops.REDUCE:
                return True
            seen.add(n)
            stack.extend(n.src)
        return False

    def _stored_anyway(self, n: UOp) -> bool:
        """Whether `n` gets a buffer of its own whatever its users do (`must_materialize` without the cost test)."""
        if n.op is Ops.CONTIGUOUS:
            return n.arg == "clone" or not is_contiguous_param_view(n.src[0])
        # a scan is a kernel of its own (its loop stores at every step), read by its users from its buffer
        return n.op in (Ops.ASSIGN, Ops.COPY, Ops.SCAN) or (n.op is Ops.REDUCE and self.users.get(n, 0) > 1)

    # ---- kernel construction ----
    def materialize(self, u: UOp) -> int:
        """Make (once) the kernel that stores `u`; returns the index of the buffer holding it.

        An ASSIGN stores its value into its target's storage (the buffer of the version it overwrites); anything else
        gets a new buffer. Each kernel's reads and writes of storage versions are recorded for `order`.
        """
        if u in self.buffer_of:
            return self.buffer_of[u]
        value = u.src[0] if u.op is Ops.CONTIGUOUS else u.src[1] if u.op is Ops.ASSIGN else u
        own = assign_storage(u.src[0]) if u.op is Ops.ASSIGN else None
        while value.op is Ops.CONTIGUOUS and value not in self.buffer_of and not self._snapshot(value, own):
            value = value.src[0]  # storing is already a copy
        if value is not u and value.op in (Ops.ASSIGN, Ops.COPY, Ops.CONTIGUOUS):
            self.materialize(value)  # a write, copy or snapshot runs as its own kernel; this one reads its result
        target = u.src[0] if u.op is Ops.ASSIGN else None
        full_shape, reduce_axes, deps = self.loop_space(value, squeeze=target is None)
        if reduce_axes and target is None and not self.rerankable(value, full_shape, reduce_axes):
            full_shape, reduce_axes, deps = self.loop_space(value, squeeze=False)
        if reduce_axes:
            deps |= self.unravelled_reads(value, deps)
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
        kept = tuple(1 if i in reduce_axes else n for i, n in enumerate(full_shape))
        squeezed = kept if reduce_axes and target is None and _squeezed_of(value.shape, kept) else None
        local, reads, out_view, body = self.kernel_body(out_view_src, value, out_idx, overwrites, squeezed)
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

    def unravelled_reads(self, value: UOp, deps: set[UOp]) -> set[UOp]:
        """The views through which a reduction kernel computing `value` would read stored data that no single View
        describes (a reshape merging dims of a permuted array: `x.permute(0, 2, 1, 3).reshape(b, s, h * d).sum(2)`).
        Each is stored first by a copy kernel of its own, which loops over the dims before that reshape
        (`lower.refine_loop_space`), and the reduction reads the copy: unravelling each element's position there
        costs a division and remainder per dim. The sums keep their order (FUSE=0 stores such a view too)."""
        out: set[UOp] = set()
        seen: set[UOp] = set()
        stack = [value]
        while stack:
            n = stack.pop()
            if n in seen or n in self.buffer_of or n in deps or (n is not value and self.must_materialize(n)):
                continue
            seen.add(n)
            chain, base = strip_movement(n)
            if chain and (base.op is Ops.PARAM or base in self.buffer_of):
                if n.size > 1 and chain_view(chain, base.shape) is None:
                    out.add(n)
            elif base.op is not Ops.GATHER:
                stack.extend(base.src)
        return out

    def _snapshot(self, u: UOp, own: UOp | None) -> bool:
        """Whether `u` is a clone of a storage version that another write of this schedule overwrites: it must run as
        a kernel of its own before that write, not be read through by the kernel storing it (which may itself have
        to run after that write: `v[...] = b; v[...] = old_v` cycles when the second write reads `old_v` directly)."""
        if u.arg != "clone":
            return False
        base = strip_movement(u.src[0])[1]
        return base in self.overwritten and base is not own

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

    def kernel_body(self, out_view_src: UOp, value: UOp, out_idx: int, overwrites: tuple[int, UOp] | None,
                    kept: tuple[int, ...] | None = None) -> tuple[dict[int, int], set[tuple[int, UOp]], UOp, UOp]:
        """(global -> local buffer slots, storage versions read, output view, value) of one kernel. With `kept` (a
        reduction's kept shape, when `value` is its squeezed result) both are built at that shape (`rerank`)."""
        local: dict[int, int] = {out_idx: 0}
        reads: set[tuple[int, UOp]] = set()
        out_view = self.rebuild(out_view_src, local, {}, reads)
        reads.discard(overwrites)  # the target's own storage is written, not read (a scatter index may read)
        if kept is not None:
            return local, reads, out_view.reshape(kept), self.rerank(value, kept, local, {}, reads)
        body = self.rebuild(value, local, {}, reads)
        return local, reads, out_view, body

    def materialize_together(self, us: list[UOp]) -> None:
        """One elementwise kernel storing every value in `us` (same shape, no reductions): shared work runs once."""
        for u in us:
            full_shape, reduce_axes, deps = self.loop_space(u)
            assert not reduce_axes and full_shape == us[0].shape
            for n in self.stored_inputs([u], deps):
                self.materialize(n)
        # one may have been stored meanwhile, under a dependency of another (V0 under abs(V0).sum() that V0 / that
        # reads): a second kernel storing it would be a second producer of it, and the order a cycle
        us = [u for u in us if u not in self.buffer_of]
        if len(us) < 2:
            return  # `_realize_root` stores what is left
        local: dict[int, int] = {}
        memo: dict[UOp, UOp] = {}
        reads: set[tuple[int, UOp]] = set()
        outputs = []
        for u in us:
            idx = len(self.buffers)
            self.buffers.append(NewBuffer(u.size, u.dtype))
            local[idx] = len(local)
            out = UOp(Ops.PARAM, u.dtype, (), ParamArg(idx, u.size)).reshape(u.shape)
            out_view = self.rebuild(out, local, memo, set())
            outputs.append(UOp(Ops.ASSIGN, u.dtype, (out_view, self.rebuild(u, local, memo, reads))))
            self.buffer_of[u] = idx
        bufs = [0] * len(local)
        for g, loc in local.items():
            bufs[loc] = g
        self.items.append(ScheduleItem(outputs[0], us[0].shape, (), tuple(bufs), tuple(outputs[1:])))
        self.infos.append(_KernelInfo(frozenset(reads), None, us[0], tuple(us[1:])))

    def fuse_outputs(self) -> None:
        """Store the roots that are elementwise values of one shape from one kernel (when fusing)."""
        if not self.fuse:
            return
        groups: dict[tuple[int, ...], list[UOp]] = {}
        for r in self.roots:
            base = strip_movement(r)[1]
            group = groups.setdefault(base.shape, [])
            if base.op in GroupOp.Elementwise and base not in self.buffer_of and base not in group \
                    and base not in self.overwritten:
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
            if base in self.buffer_of:
                continue  # read from its buffer through views (not computed again: nothing below it is in this loop)
            if chain and base is not value and base.op is not Ops.REDUCE and self.must_materialize(base):
                deps.add(base)  # read through views (a stored index broadcast back over its window, say)
                continue
            if value.op is Ops.SCAN and base.op in (Ops.REDUCE, Ops.GATHER):
                deps.add(base)  # a scan kernel is one loop nest over its input's shape: only elementwise work fuses
                continue
            if base.op is Ops.REDUCE and base is not value:
                # a reduction stored anyway (several users) is read from its buffer, not fused into this loop space
                if not self.must_materialize(base) and fits(base, n.shape, chain):
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

    def rerankable(self, value: UOp, full_shape: tuple[int, ...], reduce_axes: tuple[int, ...]) -> bool:
        """Whether `rerank` can move `value` to the kernel's kept shape: everything computed at `value`'s shape is
        elementwise, over views of leaves, stored buffers or the reduction."""
        kept = tuple(1 if i in reduce_axes else n for i, n in enumerate(full_shape))
        if not _squeezed_of(value.shape, kept):
            return True
        stack, seen = [value], set()
        while stack:
            n = stack.pop()
            if n in seen or n.shape != value.shape or n in self.buffer_of:
                continue
            if n is not value and self.must_materialize(n):
                continue
            seen.add(n)
            base = strip_movement(n)[1]
            if n.op in GroupOp.Elementwise:
                stack.extend(n.src)
            elif base.op not in (GroupOp.Leaf | {Ops.REDUCE}) and base not in self.buffer_of:
                return False
        return True

    def rerank(self, u: UOp, kept: tuple[int, ...], local: dict[int, int], memo: dict[UOp, UOp],
               reads: set[tuple[int, UOp]]) -> UOp:
        """`rebuild` of `u`, with the elementwise work at `u`'s (squeezed) shape done at the `kept` shape instead."""
        if u.op in GroupOp.Elementwise and u not in self.buffer_of and u.shape != kept:
            return UOp(u.op, u.dtype, tuple(self.rerank(s, kept, local, memo, reads) if s.shape == u.shape
                                            else self.rebuild(s, local, memo, reads) for s in u.src), u.arg)
        return self.rebuild(u, local, memo, reads).reshape(kept)

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
        producer = {node: i for i, info in enumerate(self.infos) for node in (info.produces, *info.also_produces)}
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


def _union(seen: frozenset[Any] | None, give: frozenset[Any]) -> frozenset[Any]:
    """`seen | give`, kept to _KERNELS_TRACKED members (`_Scheduler._shared_values`)."""
    union = give if seen is None or seen is give else seen | give
    return union if len(union) <= _KERNELS_TRACKED else frozenset(list(union)[:_KERNELS_TRACKED])


@dataclass(frozen=True)
class _KernelInfo:
    """What one kernel touches: storage versions read as (buffer, version node), the version it overwrites (an
    ASSIGN's target storage) and the node whose value it stores."""

    reads: frozenset[tuple[int, UOp]]
    overwrites: tuple[int, UOp] | None
    produces: UOp
    also_produces: tuple[UOp, ...] = ()  # the further outputs of a multi-output kernel


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


def _drop_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(n for n in shape if n != 1)


def _squeezed_of(shape: tuple[int, ...], kept: tuple[int, ...]) -> bool:
    """`shape` is `kept` with some size-1 dims dropped or added (and is not `kept` itself)."""
    return shape != kept and _drop_ones(shape) == _drop_ones(kept)


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
    s.fuse_outputs()
    results = [_realize_root(s, r) for r in s.roots]
    order = s.order()
    if order is None:
        s = _Scheduler(snapshot_rewrite(tuple(s.roots)))
        s.fuse_outputs()
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
