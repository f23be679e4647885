"""Lowering: a ScheduleItem (kernel AST + loop space) and its buffers' sizes in, a backend-neutral `Program` out.

A Program is nested loops over SSA instructions. Sizes, strides, offsets and mask bounds are runtime integer
arguments, so one Program (and one compiled kernel) serves every shape of the same rank and layout class:
per-dimension stride class (0, 1 or other), zero/non-zero offset, and masked or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.schedule import ScheduleItem, apply_movement, strip_movement
from lazyarr.graph.uop import UOp
from lazyarr.graph.view import View

REDUCE_IDENTITY_NAMES = {Ops.ADD: "zero", Ops.MUL: "one", Ops.MAX: "min", Ops.MIN: "max"}


@dataclass(frozen=True)
class Instr:
    """`name = op(srcs; arg)` of type `dtype`. op: an ALU Ops, or 'const', 'load', 'cast', 'bitcast', 'int'."""

    name: str
    op: Ops | str
    dtype: DType
    srcs: tuple[str, ...] = ()
    arg: Any = None


@dataclass
class Loop:
    """`for var in range(extent)`; the kernel's first outer loop runs `range(start, end)` chunks when `parallel`."""

    var: str
    extent: str
    body: list[Stmt] = field(default_factory=list)
    parallel: bool = False


@dataclass(frozen=True)
class AccInit:
    acc: str
    dtype: DType
    op: Ops


@dataclass(frozen=True)
class AccUpdate:
    acc: str
    op: Ops
    src: str


@dataclass(frozen=True)
class Store:
    buf: int
    index: str
    src: str


Stmt = Instr | Loop | AccInit | AccUpdate | Store


@dataclass
class Program:
    """A lowered kernel: buffer params (slot order, dtypes), int params (names), and the loop nest."""

    name: str
    buf_dtypes: list[DType]
    int_params: list[str]
    body: list[Stmt]
    parallel: bool  # the first statement is a Loop whose range is split across threads


@dataclass
class Lowered:
    """A Program plus the runtime values of its int params, the extent of its first (parallel) loop, the number of
    loop iterations in all (`work`) and a flop estimate."""

    program: Program
    int_args: list[int]
    outer_size: int
    work: int
    flops: int


def view_stack(chain: list[UOp], base_shape: tuple[int, ...]) -> list[View]:
    """Views (bottom first) that `chain` (movement ops, top-down) makes of a contiguous `base_shape`."""
    stack = [View.create(base_shape)]
    for mv in reversed(chain):
        nxt = apply_movement(stack[-1], mv)
        if nxt is None:  # a reshape that needs a copy: index through the C-order position instead
            stack.append(View.create(mv.arg))
        else:
            stack[-1] = nxt
    return stack


def _squeeze_merge(full: tuple[int, ...], reduce_axes: tuple[int, ...], tops: list[View]) -> tuple[list[list[int]], tuple[int, ...]]:
    """Groups of original dims that collapse into one loop dim, and the new reduce axes."""
    keep = [d for d in range(len(full)) if full[d] != 1]
    groups: list[list[int]] = []
    for d in keep:
        if groups:
            prev = groups[-1][-1]
            same_kind = (prev in reduce_axes) == (d in reduce_axes)
            if same_kind and all(_mergeable(v, prev, d) for v in tops):
                groups[-1].append(d)
                continue
        groups.append([d])
    new_reduce = tuple(i for i, g in enumerate(groups) if g[0] in reduce_axes)
    return groups, new_reduce


def _mergeable(v: View, a: int, b: int) -> bool:
    if v.mask is not None and (v.mask[a] != (0, v.shape[a]) or v.mask[b] != (0, v.shape[b])):
        return False
    return v.strides[a] == v.strides[b] * v.shape[b]


def _regroup(v: View, groups: list[list[int]], full: tuple[int, ...]) -> View:
    """`v` (shape = full or full with reduced dims 1) with dims collapsed per `groups` (size-1 dims dropped)."""
    shape, strides, mask = [], [], []
    for g in groups:
        shape.append(1 if all(v.shape[d] == 1 for d in g) else _prod(v.shape[d] for d in g))
        strides.append(v.strides[g[-1]] if shape[-1] != 1 else 0)
        mask.append((0, shape[-1]) if v.mask is None else (v.mask[g[0]] if len(g) == 1 else (0, shape[-1])))
    dropped_ok = all(v.mask is None or v.mask[d][0] == 0 for d in range(len(full)) if full[d] == 1)
    offset = v.offset
    m = None if v.mask is None else tuple(mask)
    if not dropped_ok:
        m = tuple((0, 0) for _ in shape)
    return View(tuple(shape), tuple(strides), offset, m)


def _prod(xs: Any) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


class _Lowerer:
    def __init__(self, item: ScheduleItem) -> None:
        self.item = item
        self.ints: list[str] = []
        self.int_vals: list[int] = []
        self.count = 0
        self.flops = 0
        self.tags: dict[UOp, str] = {}
        out_view, self.root = item.ast.src
        leaves = [n for n in item.ast.toposort() if n.op in GroupOp.Movement or n.op in GroupOp.Leaf]
        # every chain top: the view stack of each maximal movement chain (and bare leaves)
        self.stacks: dict[UOp, list[View]] = {}
        for n in [out_view, *leaves]:
            if n in self.stacks:
                continue
            chain, base = strip_movement(n)
            if base.op in GroupOp.Leaf:
                self.stacks[n] = view_stack(chain, base.shape)
        self.has_gather = any(n.op is Ops.GATHER for n in item.ast.toposort())
        full, red = item.full_shape, item.reduce_axes
        if self.has_gather:
            self.groups = [[d] for d in range(len(full))]
            self.reduce_axes = red
        else:
            tops = [s[-1] for n, s in self.stacks.items() if self._at_kernel_shape(n)]
            self.groups, self.reduce_axes = _squeeze_merge(full, red, tops)
        self.full = full
        self.shape = tuple(_prod(full[d] for d in g) for g in self.groups)
        self.out_view, self.red_set = out_view, set(self.reduce_axes)

    def _at_kernel_shape(self, n: UOp) -> bool:
        full, red = self.item.full_shape, self.item.reduce_axes
        return n.shape == full or n.shape == tuple(1 if i in red else s for i, s in enumerate(full))

    # ---- names ----
    def new(self, prefix: str = "v") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def int_arg(self, name: str, value: int) -> str:
        if name in self.ints:
            assert self.int_vals[self.ints.index(name)] == int(value), f"int arg {name} bound twice"
            return name
        self.ints.append(name)
        self.int_vals.append(int(value))
        return name

    # ---- index arithmetic ----
    def index_of(self, stmts: list[Stmt], stack: list[View], idx: list[str | None], tag: str) -> tuple[str, str | None]:
        """(flat position, validity or None) of the element at loop index `idx` in a view stack."""
        pos, valid = self.view_index(stmts, stack[-1], idx, f"{tag}v{len(stack) - 1}")
        for level in range(len(stack) - 2, -1, -1):
            v = stack[level]
            # unravel the C-order position `pos` over v.shape, then index v
            sub: list[str | None] = []
            rest = pos
            for d in range(len(v.shape) - 1, -1, -1):
                if v.shape[d] == 1:
                    sub.append(None)
                    continue
                n = self.int_arg(f"{tag}v{level}n{d}", v.shape[d])
                sub.append(self.emit(stmts, Ops.MOD, dtypes.int64, (rest, n)))
                rest = self.emit(stmts, Ops.IDIV, dtypes.int64, (rest, n))
            p2, v2 = self.view_index(stmts, v, sub[::-1], f"{tag}v{level}")
            pos = p2
            valid = self.and_(stmts, valid, v2)
        return pos, valid

    def view_index(self, stmts: list[Stmt], v: View, idx: list[str | None], tag: str) -> tuple[str, str | None]:
        terms: list[str] = []
        valid: str | None = None
        if v.mask is not None and any(lo >= hi for lo, hi in v.mask):
            return self.const(stmts, 0, dtypes.int64), self.const(stmts, False, dtypes.bool_)
        for d, (i, st) in enumerate(zip(idx, v.strides)):
            if i is None:
                continue
            if v.mask is not None and v.mask[d] != (0, v.shape[d]):
                lo, hi = v.mask[d]
                ok = self.emit(stmts, Ops.AND, dtypes.bool_, (
                    self.emit(stmts, Ops.CMPLE, dtypes.bool_, (self.int_arg(f"{tag}lo{d}", lo), i)),
                    self.emit(stmts, Ops.CMPLT, dtypes.bool_, (i, self.int_arg(f"{tag}hi{d}", hi)))))
                valid = self.and_(stmts, valid, ok)
            if st == 0:
                continue
            terms.append(i if st == 1 else self.emit(stmts, Ops.MUL, dtypes.int64, (i, self.int_arg(f"{tag}s{d}", st))))
        if v.offset != 0:
            terms.append(self.int_arg(f"{tag}off", v.offset))
        if not terms:
            return self.const(stmts, 0, dtypes.int64), valid
        pos = terms[0]
        for t in terms[1:]:
            pos = self.emit(stmts, Ops.ADD, dtypes.int64, (pos, t))
        return pos, valid

    def and_(self, stmts: list[Stmt], a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return a or b
        return self.emit(stmts, Ops.AND, dtypes.bool_, (a, b))

    def emit(self, stmts: list[Stmt], op: Ops | str, dtype: DType, srcs: tuple[str, ...], arg: Any = None) -> str:
        name = self.new()
        stmts.append(Instr(name, op, dtype, srcs, arg))
        return name

    def const(self, stmts: list[Stmt], value: Any, dtype: DType) -> str:
        return self.emit(stmts, "const", dtype, (), value)

    # ---- values ----
    def loop_index(self, node_shape: tuple[int, ...], loop_vars: list[str | None]) -> list[str | None]:
        """Loop variables per dim of a view at `node_shape` regrouped like the kernel's dims (None: index 0)."""
        out: list[str | None] = []
        for g, var in zip(self.groups, loop_vars):
            out.append(None if all(node_shape[d] == 1 for d in g) else var)
        return out

    def regrouped_stack(self, n: UOp) -> list[View]:
        stack = self.stacks[n]
        return [*stack[:-1], _regroup(stack[-1], self.groups, self.full)]

    def value(self, n: UOp, scope: _Scope) -> str:
        memo = scope.memo_for(self.is_inner(n))
        if n in memo:
            return memo[n]
        stmts = scope.stmts_for(self.is_inner(n))
        out = self._value(n, scope, stmts)
        memo[n] = out
        return out

    def is_inner(self, n: UOp) -> bool:
        if not self.red_set:
            return False
        full_red = self.item.reduce_axes
        return n.op is not Ops.REDUCE and any(n.shape[d] != 1 for d in full_red) if n.shape == self.full else False

    def _value(self, n: UOp, scope: _Scope, stmts: list[Stmt]) -> str:
        if n in self.stacks:
            chain, base = strip_movement(n)
            idx = self.loop_index(n.shape, scope.vars)
            pos, valid = self.index_of(stmts, self.regrouped_stack(n), idx, self.tag(n))
            if base.op is Ops.PARAM:
                return self.emit(stmts, "load", n.dtype, (pos,) if valid is None else (pos, valid), base.arg.slot)
            if base.op is Ops.IOTA:
                v = self.emit(stmts, "cast", n.dtype, (pos,))
            else:
                v = self.const(stmts, base.arg, n.dtype)
            if valid is None:
                return v
            return self.emit(stmts, Ops.WHERE, n.dtype, (valid, v, self.const(stmts, 0, n.dtype)))
        if n.op is Ops.REDUCE:
            return scope.reduce_result(n)
        if n.op in GroupOp.Movement:  # a fused reduction broadcast back over its axes
            return self.value(strip_movement(n)[1], scope)
        if n.op is Ops.GATHER:
            return self.gather(n, scope, stmts)
        srcs = tuple(self.value(s, scope) for s in n.src)
        if n.op is Ops.CAST or n.op is Ops.BITCAST:
            return self.emit(stmts, n.op.name.lower(), n.dtype, srcs)
        self.flops += 1
        return self.emit(stmts, n.op, n.dtype, srcs)

    def gather(self, n: UOp, scope: _Scope, stmts: list[Stmt]) -> str:
        data, index = n.src
        pos_value = self.value(index, scope)
        as_int = self.emit(stmts, "cast", dtypes.int64, (pos_value,))
        chain, base = strip_movement(data)
        idx = self.loop_index(data.shape, scope.vars)
        idx[n.arg.axis] = as_int
        pos, valid = self.index_of(stmts, self.stacks[data], idx, self.tag(data))
        return self.emit(stmts, "load", n.dtype, (pos,) if valid is None else (pos, valid), base.arg.slot)

    def tag(self, n: UOp) -> str:
        """A name prefix for the runtime args of one view stack (one per distinct chain)."""
        if n not in self.tags:
            base = strip_movement(n)[1]
            kind = f"p{base.arg.slot}" if base.op is Ops.PARAM else "c"
            self.tags[n] = f"{kind}_{len(self.tags)}"
        return self.tags[n]

    # ---- the loop nest ----
    def lower(self) -> Lowered:
        outer = [d for d in range(len(self.shape)) if d not in self.red_set]
        inner = [d for d in range(len(self.shape)) if d in self.red_set]
        extents = {d: self.int_arg(f"n{d}", self.shape[d]) for d in range(len(self.shape))}
        body: list[Stmt] = []
        vars_: list[str | None] = [None] * len(self.shape)
        cur = body
        loops: list[Loop] = []
        for d in outer:
            loop = Loop(f"i{d}", extents[d])
            vars_[d] = loop.var
            cur.append(loop)
            loops.append(loop)
            cur = loop.body
        if loops:
            loops[0].parallel = True
        scope = _Scope(self, cur, vars_, inner, extents)
        for r in [n for n in self.value_root().toposort() if n.op is Ops.REDUCE]:
            scope.reduce_result(r)
        root_inner = self.is_inner(self.value_root())
        if root_inner:
            stmts = scope.open_inner()
            v = self.value(self.value_root(), scope)
            self.store(stmts, scope, v)
            scope.close_inner()
        else:
            v = self.value(self.value_root(), scope)
            self.store(cur, scope, v)
        prog = Program("k", self.buf_dtypes(), self.ints, body, bool(loops))
        first_loop = self.shape[outer[0]] if outer else 1
        return Lowered(prog, self.int_vals, first_loop, _prod(self.full), self.flops * _prod(self.full))

    def value_root(self) -> UOp:
        return self.root

    def store(self, stmts: list[Stmt], scope: _Scope, v: str) -> None:
        n = self.out_view
        if n.op is Ops.GATHER:  # a scatter: store at the positions the index gives (repeats store equal values)
            data, index = n.src
            as_int = self.emit(stmts, "cast", dtypes.int64, (self.value(index, scope),))
            idx = self.loop_index(data.shape, scope.vars)
            idx[n.arg.axis] = as_int
            pos, _ = self.index_of(stmts, self.stacks[data], idx, self.tag(data))
            stmts.append(Store(strip_movement(data)[1].arg.slot, pos, v))
            return
        chain, base = strip_movement(n)
        idx = self.loop_index(n.shape, scope.vars)
        pos, valid = self.index_of(stmts, self.regrouped_stack(n), idx, self.tag(n))
        stmts.append(Store(base.arg.slot, pos, v))

    def buf_dtypes(self) -> list[DType]:
        params = {n.arg.slot: n.dtype for n in self.item.ast.toposort() if n.op is Ops.PARAM}
        return [params[i] for i in range(len(params))]


class _Scope:
    """The statements of one outer iteration, with the reduction loops opened inside it."""

    def __init__(self, lo: _Lowerer, stmts: list[Stmt], vars_: list[str | None], inner: list[int],
                 extents: dict[int, str]) -> None:
        self.lo, self.outer_stmts, self.vars, self.inner, self.extents = lo, stmts, vars_, inner, extents
        self.outer_memo: dict[UOp, str] = {}
        self.inner_memo: dict[UOp, str] | None = None
        self.inner_stmts: list[Stmt] | None = None
        self.reduced: dict[UOp, str] = {}

    def memo_for(self, inner: bool) -> dict[UOp, str]:
        if inner:
            assert self.inner_memo is not None, "inner value outside a reduction loop"
            return self.inner_memo
        return self.outer_memo

    def stmts_for(self, inner: bool) -> list[Stmt]:
        if inner:
            assert self.inner_stmts is not None
            return self.inner_stmts
        return self.outer_stmts

    def open_inner(self) -> list[Stmt]:
        """Open the nest of loops over the reduced dims; returns the innermost statement list."""
        outer_loop_container = self.outer_stmts
        cur = outer_loop_container
        first: Loop | None = None
        for d in self.inner:
            loop = Loop(f"r{d}_{self.lo.new('')}", self.extents[d])
            self.vars[d] = loop.var
            if first is None:
                first = loop
            else:
                cur.append(loop)
            cur = loop.body
        self._pending = first
        self.inner_stmts, self.inner_memo = cur, {}
        return cur

    def close_inner(self) -> None:
        assert self._pending is not None
        self.outer_stmts.append(self._pending)
        for d in self.inner:
            self.vars[d] = None
        self.inner_stmts, self.inner_memo, self._pending = None, None, None

    def reduce_result(self, red: UOp) -> str:
        if red in self.reduced:
            return self.reduced[red]
        if self.inner_stmts is not None:
            raise AssertionError("a reduction nested in an open reduction loop")
        for nested in [n for n in red.src[0].toposort() if n.op is Ops.REDUCE]:
            self.reduce_result(nested)
        acc = self.lo.new("acc")
        # operands of the reduction that are outer-level (or nested reductions) are computed before the loop
        self.outer_stmts.append(AccInit(acc, red.dtype, red.arg.op))
        stmts = self.open_inner()
        v = self.lo.value(red.src[0], self)
        stmts.append(AccUpdate(acc, red.arg.op, v))
        self.close_inner()
        self.reduced[red] = acc
        return acc


def lower(item: ScheduleItem) -> Lowered:
    """Lower one scheduled kernel to a Program with its runtime integer arguments."""
    return _Lowerer(item).lower()
