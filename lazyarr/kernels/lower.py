"""Lowering: a ScheduleItem (kernel AST + loop space) and its buffers' sizes in, a backend-neutral `Program` out.

A Program is nested loops over SSA instructions. Sizes, strides, offsets and mask bounds are runtime integer
arguments, so one Program (and one compiled kernel) serves every shape of the same rank and layout class:
per-dimension stride class (0, 1 or other), zero/non-zero offset, and masked or not. Float constants of the
computation (`x * 0.37`, `x + dt * i`) are runtime float64 arguments too (`Program.float_params`, exact for every
float dtype, NaN, infinities and -0.0 included), so a loop over Python float scalars compiles one kernel, not one per
value. Integer constants stay in the source: they feed index math, and division by a known integer is cheap code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.schedule import MatmulAxes, ScheduleItem, apply_movement, matmul_axes, strip_movement
from lazyarr.graph.uop import UOp, toposort
from lazyarr.graph.view import View

REDUCE_IDENTITY_NAMES = {Ops.ADD: "zero", Ops.MUL: "one", Ops.MAX: "min", Ops.MIN: "max"}


@dataclass(frozen=True)
class Instr:
    """`name = op(srcs; arg)` of type `dtype`. op: an ALU Ops, or 'const' (arg: the value), 'fparam' (arg: the name of
    a float64 param holding the value, exactly representable in `dtype`), 'load', 'cast', 'bitcast', 'gemm_load'."""

    name: str
    op: Ops | str
    dtype: DType
    srcs: tuple[str, ...] = ()
    arg: Any = None


@dataclass
class Loop:
    """`for var in range(extent)`; the kernel's first outer loop runs `range(start, end)` chunks when `parallel`.

    `blocked` marks the innermost loop of a reduction over the kernel's last axis (a "row" reduction). A renderer
    may sum the float ADD AccUpdates inside it in fixed-size blocks (the Numba renderer does, so that the sums
    vectorise); it must do the same whatever the loop body computes, so fused and unfused kernels agree.
    `lanes` marks the innermost outer loop of a "column" reduction (the kernel's last axis is not reduced): its
    iterations are independent and it holds the reduction loops, so a renderer may run several of them side by side
    (the Numba renderer does, so that the loads along the last axis vectorise; each one still reduces in order).
    `ahead` (on a `blocked` loop inside an outer loop) names the innermost outer loop's variable: the next iteration
    of that loop reads the next row, which a renderer may prefetch while this loop computes (a hint, no semantics).
    `scan` marks the loop along the axis of a scan (`lower_scan`): its body updates an accumulator and stores it at
    every step, so a renderer must run it in order, one step after another (no blocking, no re-running, no splitting
    over lanes or threads); a `lanes` loop around it may still run several scans side by side.
    """

    var: str
    extent: str
    body: list[Stmt] = field(default_factory=list)
    parallel: bool = False
    blocked: bool = False
    lanes: bool = False
    ahead: str = ""
    scan: bool = False


@dataclass(frozen=True)
class AccInit:
    acc: str
    dtype: DType
    op: Ops


@dataclass(frozen=True)
class AccUpdate:
    """`acc = op(acc, src)`. `scan`: a step of a scan, whose float MAX/MIN must pick what NumPy's accumulate picks
    where the two compare equal (+0.0 and -0.0): float16 keeps the running value, float32/float64 take `src`; NaN
    propagates either way."""

    acc: str
    op: Ops
    src: str
    scan: bool = False


@dataclass(frozen=True)
class Store:
    buf: int
    index: str
    src: str


@dataclass(frozen=True)
class Operand:
    """A matrix operand of a `Gemm`, `rows` x `cols` (names of int params or literals).

    Either a strided view of kernel buffer `buf` (element [r, c] at offset + r*row_stride + c*col_stride; `layout`
    "C" when col_stride is 1, "F" when row_stride is 1, else "strided"), or, when `fill` is given, the values that
    the loop nest `fill` computes: `fill` loops rows (outer) and cols (inner), and SSA `value` is element [r, c]."""

    rows: str
    cols: str
    buf: int = -1
    offset: str = "0"
    row_stride: str = "0"
    col_stride: str = "0"
    layout: str = "C"
    fill: Loop | None = None
    value: str = ""


@dataclass
class Gemm:
    """`out` = a @ b, an (a.rows, b.cols) matrix of `dtype` (a BLAS call on CPU), then `body`, the loops over it
    that compute the rest of the kernel; they read it with Instr("gemm_load", srcs=(row, col), arg=out). When `dest`
    (a view of an output buffer) is a C-ordered block at run time, `out` is that block, and `body` is skipped if
    `body_only_copies`. `numpy_blas`: the call goes to NumPy's BLAS (numpy_blas.py), else through Numba's np.dot.
    Emitted only by `lower(..., blas=...)`."""

    out: str
    dtype: DType
    a: Operand
    b: Operand
    dest: Operand | None = None
    body: list[Stmt] = field(default_factory=list)
    body_only_copies: bool = False
    numpy_blas: bool = False


Stmt = Instr | Loop | AccInit | AccUpdate | Store | Gemm


# Launches moving this many bytes or more (loads and stores) get `Program.stream`: about the last-level cache of a
# server CPU, so the output would leave the cache before it is read again anyway. Measured on this project's machine
# (32 MiB L3; benchmarks/bench_stream_stores.py): non-temporal stores lose up to 30% on a + b over 2**20 floats
# (12 MiB moved), break even at 2**21 (24 MiB), and gain 19-60% from 2**22 (48 MiB) and on the chain from 2**21.
STREAM_MIN_BYTES = 32 << 20
# A row reduction reading a buffer at this stride (elements) or more along its row, and at unit stride across rows,
# runs rows side by side (`_Lowerer.strided_rows`): a stride of 16 float32s puts each step of a row on a new cache line.
# benchmarks/bench_strided_rows.py (A/B in one process, two threads, AMD Zen 4): `x.T.sum(1)` 4.4x faster at 1024x1024,
# 5.9x at 4096x4096, 2.8x at 4000x4000, `(x.T * y).sum(1)` 2.5x, a batched `permute(0, 2, 1).mean(2)` 1.5x.
STRIDED_ROW = 16
# A column reduction split over threads along its output columns (its first loop is the `lanes` loop) is cut at
# multiples of this many columns: each chunk reads every row, so a narrow chunk reads a short piece of each row and
# the threads together pull every cache line more than once (see benchmarks/bench_column_split.py).
COLUMN_SPLIT = 1024
# `refine_loop_space` on (False only to measure without it: benchmarks/bench_reshape_loops.py)
REFINE_RESHAPES = True


@dataclass
class Program:
    """A lowered kernel: buffer params (slot order, dtypes), int64 params (names), the loop nest, and float64 params
    (names; they come after the int params)."""

    name: str
    buf_dtypes: list[DType]
    int_params: list[str]
    body: list[Stmt]
    parallel: bool  # the first statement is a Loop whose range is split across threads
    float_params: list[str] = field(default_factory=list)
    # the launch it is lowered for moves at least `STREAM_MIN_BYTES`, too much to stay in the cache: a renderer may
    # store with non-temporal stores (render_llvm does; the values are the same either way)
    stream: bool = False
    # the vector width in bits render_llvm asks LLVM to prefer (render_llvm.vector_width; 0: LLVM's default)
    vector_width: int = 0


@dataclass
class Lowered:
    """A Program plus the runtime values of its int params, the extent of its first (parallel) loop, the number of
    loop iterations in all (`work`), a flop estimate, and the values of its float params (Python floats).

    The compiled kernel is shared by every Lowered with the same Program; the values are this kernel's own, so a
    launch must always take them from here (`args`), never from another Lowered of the same source."""

    program: Program
    int_args: list[int]
    outer_size: int
    work: int
    flops: int
    float_args: list[float] = field(default_factory=list)
    split_unit: int = 1  # a split over threads cuts the first loop at multiples of this (see COLUMN_SPLIT)

    @functools.cached_property
    def args(self) -> list[int | float]:
        """The scalar args of a launch, in the kernel's parameter order: int params, then float params (built once:
        every launch of this kernel passes them)."""
        return [*self.int_args, *self.float_args]

    @functools.cached_property
    def calls_blas(self) -> bool:
        """Whether the kernel's statements call BLAS (a `Gemm`, possibly inside batch loops)."""
        return _has_gemm(self.program.body)


def _has_gemm(body: list[Stmt]) -> bool:
    return any(isinstance(st, Gemm) or (isinstance(st, Loop) and _has_gemm(st.body)) for st in body)


def view_stack(chain: list[UOp], base_shape: tuple[int, ...]) -> list[View]:
    """Views (bottom first) that `chain` (movement ops, top-down) makes of a contiguous `base_shape`. A reshape that
    returns to the shape of the level below, through contiguous views only, drops back to that level."""
    stack = [View.create(base_shape)]
    for mv in reversed(chain):
        nxt = apply_movement(stack[-1], mv)
        if nxt is None:  # a reshape that needs a copy: index through the C-order position instead
            stack.append(View.create(mv.arg))
        else:
            stack[-1] = nxt
        if len(stack) > 1 and stack[-1] == View.create(stack[-2].shape):
            stack.pop()
    return stack


def _refinement(coarse: tuple[int, ...], fine: tuple[int, ...]) -> bool:
    """Whether `fine` splits each dim of `coarse` into consecutive dims (size-1 dims anywhere): (64, 8, 128, 64)
    refines (512, 128, 64)."""
    fine_dims = [n for n in fine if n != 1]
    at = 0
    for n in coarse:
        if n == 1:
            continue
        size = 1
        while size < n and at < len(fine_dims):
            size *= fine_dims[at]
            at += 1
        if size != n:
            return False
    return at == len(fine_dims)


def refine_loop_space(item: ScheduleItem) -> ScheduleItem:
    """`item` computed over a finer loop space when an input is read through a reshape that merges dims its view
    cannot merge (a permuted array reshaped, `x.permute(0, 2, 1, 3).reshape(b * h, s, d)`; `np.tile`; `np.repeat`):
    looping over the dims before that reshape makes its index a plain sum of strides, where over the merged shape
    each element took a division and remainder per dim. Elementwise kernels only; the same elements, in the same
    order, so the values are unchanged."""
    full = item.full_shape
    if item.reduce_axes or not full or not REFINE_RESHAPES:
        return item
    nodes = toposort(list(item.outputs))
    if any(n.op is Ops.GATHER for n in nodes):
        return item
    fine = None
    for n in nodes:
        if n.shape != full or not (n.op in GroupOp.Movement or n.op in GroupOp.Leaf):
            continue
        chain, base = strip_movement(n)
        if base.op not in GroupOp.Leaf or not chain:
            continue
        stack = view_stack(chain, base.shape)
        # (view_stack drops a level whose shape the reshape returns to, so the level below has another shape)
        if len(stack) > 1 and stack[-1] == View.create(full) and _refinement(full, stack[-2].shape):
            fine = stack[-2].shape
            break
    if fine is None:
        return item
    memo: dict[UOp, UOp] = {}
    for n in nodes:
        if n.op is Ops.ASSIGN:
            memo[n] = UOp(Ops.ASSIGN, n.dtype, (n.src[0].reshape(fine), memo[n.src[1]]), n.arg)
        elif n.shape == full and (n.op in GroupOp.Movement or n.op in GroupOp.Leaf):
            memo[n] = n.reshape(fine)
        elif n.op in GroupOp.Elementwise and n.shape == full:
            memo[n] = UOp(n.op, n.dtype, tuple(memo[x] for x in n.src), n.arg)
        elif n.shape == full:
            return item  # a node this rewrite does not know at the kernel's shape
    return replace(item, ast=memo[item.ast], extra=tuple(memo[e] for e in item.extra), full_shape=fine)


def row_reduction(full: tuple[int, ...], reduce_axes: tuple[int, ...]) -> bool:
    """True when a kernel reduces its last axis (of size > 1): that axis gets its own, innermost, `blocked` loop."""
    return bool(full) and len(full) - 1 in reduce_axes and full[-1] > 1


def _squeeze_merge(full: tuple[int, ...], reduce_axes: tuple[int, ...],
                   tops: list[View]) -> tuple[list[list[int]], tuple[int, ...]]:
    """Groups of original dims that collapse into one loop dim, and the new reduce axes.

    The last axis of a row reduction is never merged with the reduced axes before it: how a sum over it is grouped
    must not depend on the layout of the operands (a fused kernel reads views, an unfused one contiguous buffers)."""
    keep = [d for d in range(len(full)) if full[d] != 1]
    lone = len(full) - 1 if row_reduction(full, reduce_axes) else -1
    groups: list[list[int]] = []
    for d in keep:
        if groups:
            prev = groups[-1][-1]
            same_kind = (prev in reduce_axes) == (d in reduce_axes) and d != lone
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
    def __init__(self, item: ScheduleItem, blas: str = "") -> None:
        self.item = item
        self.blas = blas
        self.ints: list[str] = []
        self.int_vals: list[int] = []
        self.floats: list[str] = []
        self.float_vals: list[float] = []
        self.count = 0
        self.flops = 0
        self.tags: dict[UOp, str] = {}
        out_view, self.root = item.ast.src
        self.nodes = toposort(list(item.outputs))
        leaves = [n for n in self.nodes if n.op in GroupOp.Movement or n.op in GroupOp.Leaf]
        # every chain top: the view stack of each maximal movement chain (and bare leaves)
        self.stacks: dict[UOp, list[View]] = {}
        for n in [*(o.src[0] for o in item.outputs), *leaves]:
            if n in self.stacks:
                continue
            chain, base = strip_movement(n)
            if base.op in GroupOp.Leaf:
                self.stacks[n] = view_stack(chain, base.shape)
        # float constants read from params: one param per use, not per node, so that whether two constants happen to
        # be equal (one hash-consed CONST node, or two) never changes the kernel's source
        self.lifted = {n for n in self.stacks if n.dtype.is_float and strip_movement(n)[1].op is Ops.CONST}
        self.has_gather = any(n.op is Ops.GATHER for n in self.nodes)
        full, red = item.full_shape, item.reduce_axes
        self.gemm, self.gemm_reduce = _gemm_of(item, self.root) if blas else (None, None)
        self.gemm_out, self.gemm_vars = "", ()
        self.spill: UOp | None = None
        tops = [s[-1] for n, s in self.stacks.items() if self._at_kernel_shape(n)]
        groups = None  # a gemm kernel's merged rows / summed axes (mm.rows, mm.inner)
        if self.gemm is not None and (self.gemm.rows or self.gemm.inner):
            groups = _gemm_groups(full, self.gemm, tops)
            if groups is None and self.gemm.inner:  # a sum over axes that do not merge: an ordinary loop kernel
                self.gemm = self.gemm_reduce = None
            elif groups is None:  # the rows axes stay batch axes: one product per index along them
                self.gemm = replace(self.gemm, rows=())
        if self.has_gather or (self.gemm is not None and groups is None):
            self.groups = [[d] for d in range(len(full))]
            self.reduce_axes = red
        elif groups is not None:
            self.groups = groups
            self.reduce_axes = tuple(i for i, g in enumerate(groups) if g[0] in red)
        else:
            self.groups, self.reduce_axes = _squeeze_merge(full, red, tops)
        self.full = full
        self.shape = tuple(_prod(full[d] for d in g) for g in self.groups)
        # in a gemm kernel no loop reduces: the reduction is the BLAS call
        self.out_view, self.red_set = out_view, set() if self.gemm is not None else set(self.reduce_axes)
        self.row = row_reduction(full, red)
        # a scan kernel: its loop dim along the scanned axis (None when that axis has length 1)
        self.scan_dim: int | None = None
        if self.root.op is Ops.SCAN:
            self.groups, scanned = _squeeze_merge(full, (self.root.arg.axis,), tops)
            self.shape = tuple(_prod(full[d] for d in g) for g in self.groups)
            self.scan_dim = scanned[0] if scanned else None

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

    def float_const(self, stmts: list[Stmt], value: Any, dtype: DType) -> str:
        """A float constant of the computation, read from a new float64 param (one per use, named by order of
        appearance, so kernels that differ only in these values render the same source)."""
        name = f"cf{len(self.floats)}"
        self.floats.append(name)
        self.float_vals.append(float(value))
        return self.emit(stmts, "fparam", dtype, (), name)

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
        if n not in self.lifted:
            memo[n] = out
        return out

    def is_inner(self, n: UOp) -> bool:
        if not self.red_set:
            return False
        full_red = self.item.reduce_axes
        return n.op is not Ops.REDUCE and any(n.shape[d] != 1 for d in full_red) if n.shape == self.full else False

    def _value(self, n: UOp, scope: _Scope, stmts: list[Stmt]) -> str:
        if self.spill is not None and n is self.spill.src[0] and self.spill in scope.reduced:
            return self.load_output(stmts, scope)  # stored by the pass that summed it (see spill_candidate)
        if n in self.stacks:
            chain, base = strip_movement(n)
            idx = self.loop_index(n.shape, scope.vars)
            pos, valid = self.index_of(stmts, self.regrouped_stack(n), idx, self.tag(n))
            if base.op is Ops.PARAM:
                return self.emit(stmts, "load", n.dtype, (pos,) if valid is None else (pos, valid), base.arg.slot)
            if base.op is Ops.IOTA:
                v = self.emit(stmts, "cast", n.dtype, (pos,))
            elif n.dtype.is_float:
                v = self.float_const(stmts, base.arg, n.dtype)
            else:
                v = self.const(stmts, base.arg, n.dtype)
            if valid is None:
                return v
            return self.emit(stmts, Ops.WHERE, n.dtype, (valid, v, self.const(stmts, 0, n.dtype)))
        if n is self.gemm_reduce:
            return self.emit(stmts, "gemm_load", n.dtype, self.gemm_vars, self.gemm_out)
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
        if self.gemm is not None:
            return self.lower_gemm(self.gemm)
        if self.root.op is Ops.SCAN:
            return self.lower_scan()
        outer = [d for d in range(len(self.shape)) if d not in self.red_set]
        inner = [d for d in range(len(self.shape)) if d in self.red_set]
        extents, body, cur, vars_, loops = self.outer_loops(outer)
        if loops:
            loops[-1].lanes = bool(inner) and (not self.row and outer[-1] == len(self.shape) - 1 or
                                               self.row and not self.is_inner(self.value_root()) and
                                               self.strided_rows(outer[-1]))
        scope = _Scope(self, cur, vars_, inner, extents)
        root_inner = self.is_inner(self.value_root())
        self.spill = self.spill_candidate() if root_inner else None
        for r in [n for n in self.value_root().toposort() if n.op is Ops.REDUCE]:
            scope.reduce_result(r)
        if root_inner:
            stmts = scope.open_inner()
            v = self.value(self.value_root(), scope)
            self.store(stmts, scope, v)
            scope.close_inner()
        else:
            v = self.value(self.value_root(), scope)
            self.store(cur, scope, v)
            for out in self.item.extra:  # further outputs of an elementwise kernel, sharing the values computed
                self.store(cur, scope, self.value(out.src[1], scope), out.src[0])
        prog = Program("k", self.buf_dtypes(), self.ints, body, bool(loops), self.floats)
        first_loop = self.shape[outer[0]] if outer else 1
        column = bool(loops) and loops[0].lanes and not self.row
        return Lowered(prog, self.int_vals, first_loop, _prod(self.full), self.flops * _prod(self.full),
                       self.float_vals, COLUMN_SPLIT if column else 1)

    def outer_loops(self, outer: list[int]) -> tuple[dict[int, str], list[Stmt], list[Stmt], list[str | None],
                                                      list[Loop]]:
        """The nest of loops over the loop dims `outer`, the first `parallel`: (every dim's extent param, the
        kernel's body holding the nest, the innermost body, each dim's loop variable (None for the others), the
        loops)."""
        extents = {d: self.int_arg(f"n{d}", self.shape[d]) for d in range(len(self.shape))}
        body: list[Stmt] = []
        vars_: list[str | None] = [None] * len(self.shape)
        cur, loops = body, []
        for d in outer:
            loop = Loop(f"i{d}", extents[d])
            vars_[d] = loop.var
            cur.append(loop)
            loops.append(loop)
            cur = loop.body
        if loops:
            loops[0].parallel = True
        return extents, body, cur, vars_, loops

    def lower_scan(self) -> Lowered:
        """A scan: loops over the other dims, and inside them an accumulator and a `scan` loop along the scanned dim
        that computes the source's element, updates the accumulator and stores it. When the scanned dim is not the
        last, the innermost outer loop (along the last dim) is `lanes`: its scans are independent, so a renderer may
        run several side by side, each one still in order."""
        scan, sd = self.root, self.scan_dim
        outer = [d for d in range(len(self.shape)) if d != sd]
        extents, body, cur, vars_, loops = self.outer_loops(outer)
        if loops:
            loops[-1].lanes = sd is not None and outer[-1] == len(self.shape) - 1
        if sd is None:  # a scan along an axis of length 1 is its source
            scope = _Scope(self, cur, vars_, [], extents)
            self.store(cur, scope, self.value(scan.src[0], scope))
        else:
            acc = self.new("acc")
            cur.append(AccInit(acc, scan.dtype, scan.arg.op))
            step = Loop(f"s{sd}", extents[sd], scan=True)
            vars_[sd] = step.var
            cur.append(step)
            scope = _Scope(self, step.body, vars_, [], extents)
            step.body.append(AccUpdate(acc, scan.arg.op, self.value(scan.src[0], scope), scan=True))
            self.store(step.body, scope, acc)
        prog = Program("k", self.buf_dtypes(), self.ints, body, bool(loops), self.floats)
        column = bool(loops) and loops[0].lanes
        return Lowered(prog, self.int_vals, self.shape[outer[0]] if outer else 1, _prod(self.full),
                       (self.flops + 1) * _prod(self.full), self.float_vals, COLUMN_SPLIT if column else 1)

    def strided_rows(self, d: int) -> bool:
        """Whether a row reduction reads some buffer at unit stride along loop dim `d` (its innermost outer loop) and
        at a stride of STRIDED_ROW elements or more along the reduced last axis (a sum over the rows of a transposed
        matrix): each step along the row then reads a new cache line, while neighbouring rows read the same lines, so
        the renderer runs several rows side by side (`Loop.lanes`) with each row's sum in its own blocks. Asked only
        of kernels that store per row, not per element (a softmax's per-element stores would then go down columns)."""
        last, inner = len(self.full) - 1, self.groups[d][-1]
        return any(len(stack) == 1 and n.shape == self.full and stack[0].strides[inner] == 1 and
                   abs(stack[0].strides[last]) >= STRIDED_ROW for n, stack in self.stacks.items())

    def value_root(self) -> UOp:
        return self.root

    def spill_candidate(self) -> UOp | None:
        """A reduction whose operand the last pass over the row needs again (softmax's exp(x - max)): its pass also
        stores that operand into the output row, and later passes load it instead of computing it again. Only when
        the operand has the output's dtype and shape, is worth keeping (a transcendental), and the output buffer is
        not also an input (an assign into a tensor this kernel reads)."""
        root = self.value_root()
        if self.out_view.op is Ops.GATHER or self.out_view.shape != self.full \
                or any(n.op is Ops.PARAM and n.arg.slot == 0 for n in root.toposort()):
            return None
        final = _pass_nodes(root)
        for r in (n for n in root.toposort() if n.op is Ops.REDUCE):
            e = r.src[0]
            if e in final and e.dtype == self.item.ast.dtype and e.shape == self.full \
                    and any(n.op in GroupOp.Transcendental for n in _pass_nodes(e)):
                return r
        return None

    def load_output(self, stmts: list[Stmt], scope: _Scope) -> str:
        """The output element at the current loop indices (read back after a spill)."""
        idx = self.loop_index(self.out_view.shape, scope.vars)
        pos, _ = self.index_of(stmts, self.regrouped_stack(self.out_view), idx, self.tag(self.out_view))
        return self.emit(stmts, "load", self.item.ast.dtype, (pos,), 0)

    # ---- a matmul-shaped reduction as one BLAS call, with the elementwise work around it ----
    def lower_gemm(self, mm: MatmulAxes) -> Lowered:
        """Batch loops, then per batch index: operands (views, or computed into scratch), Gemm, and loops over the
        result's rows and cols computing the rest of the kernel from `gemm_load`s."""
        dim = {d: i for i, g in enumerate(self.groups) for d in g}  # original axis -> kernel dim (mm.rows merge)
        extents = {d: self.int_arg(f"n{d}", self.shape[d]) for d in range(len(self.shape))}
        ext = {a: extents[dim[a]] for a in (mm.n, mm.k, mm.m)}
        mat_dims = {dim[a] for a in (mm.n, mm.k, mm.m)}
        body: list[Stmt] = []
        vars_: list[str | None] = [None] * len(self.shape)
        cur = body
        for d in range(len(self.shape)):
            if d not in mat_dims:
                loop = Loop(f"i{d}", extents[d])
                vars_[d] = loop.var
                cur.append(loop)
                cur = loop.body
        a = self.operand(cur, mm.a, mm.n, mm.k, ext, dim, vars_)
        b = self.operand(cur, mm.b, mm.k, mm.m, ext, dim, vars_)
        # the product goes straight into the output when that has its dtype and nothing is computed after it; work
        # after it (a bias, an activation) reads the product from scratch: read from the output it overwrites, it
        # aliases its own stores and LLVM runs it element by element (relu(x @ w + b) and a select over x @ w, one
        # thread, x 4096x64 and w 64x256: 13.1 -> 7.5 ms; x 256x10 and w 10x256: 0.51 -> 0.21 ms)
        dest = None
        only_copies = self.value_root() is self.gemm_reduce
        if self.out_view.dtype == mm.a.dtype and only_copies:
            dest = self.operand(cur, self.out_view, mm.n, mm.m, ext, dim, vars_, view_only=True)
        assert a is not None and b is not None
        self.gemm_out = self.new("g")
        gemm = Gemm(self.gemm_out, mm.a.dtype, a, b, dest, body_only_copies=only_copies,
                    numpy_blas=self.blas == "numpy")
        cur.append(gemm)
        cur = gemm.body
        for axis in sorted((mm.n, mm.m)):
            loop = Loop(f"i{dim[axis]}", extents[dim[axis]])
            vars_[dim[axis]] = loop.var
            cur.append(loop)
            cur = loop.body
        self.gemm_vars = (str(vars_[dim[mm.n]]), str(vars_[dim[mm.m]]))
        scope = _Scope(self, cur, vars_, [], extents)
        self.store(cur, scope, self.value(self.value_root(), scope))
        prog = Program("k", self.buf_dtypes(), self.ints, body, False, self.floats)
        batch = _prod(self.full) // (_prod(self.full[d] for d in (*mm.rows, mm.n, *mm.inner, mm.k, mm.m)))
        flops = 2 * _prod(self.full) + self.flops * _prod(self.full) // _prod(self.full[d] for d in (*mm.inner, mm.k))
        return Lowered(prog, self.int_vals, batch, _prod(self.full), flops, self.float_vals)

    def operand(self, stmts: list[Stmt], u: UOp, rows: int, cols: int, ext: dict[int, str],
                dim: dict[int, int], vars_: list[str | None], view_only: bool = False) -> Operand | None:
        """The (rows x cols) matrix that operand `u` holds at the current batch index (None if `view_only` and it is
        not a plain strided view of a buffer)."""
        if u in self.stacks and len(self.stacks[u]) == 1 and self.stacks[u][0].mask is None \
                and strip_movement(u)[1].op is Ops.PARAM:
            view = self.regrouped_stack(u)[0]
            batch_idx = [v if d not in {dim[rows], dim[cols]} else None for d, v in enumerate(vars_)]
            tag = self.tag(u)
            offset, _ = self.view_index(stmts, view, batch_idx, f"{tag}g")
            rs = self.int_arg(f"{tag}gs{dim[rows]}", view.strides[dim[rows]])
            cs = self.int_arg(f"{tag}gs{dim[cols]}", view.strides[dim[cols]])
            layout = "C" if view.strides[dim[cols]] == 1 else "F" if view.strides[dim[rows]] == 1 else "strided"
            return Operand(ext[rows], ext[cols], strip_movement(u)[1].arg.slot, offset, rs, cs, layout)
        if view_only:
            return None
        # an elementwise expression: computed into a scratch matrix
        fill = Loop(self.new("fr"), ext[rows])
        inner = Loop(self.new("fc"), ext[cols])
        fill.body.append(inner)
        sub = list(vars_)
        sub[dim[rows]], sub[dim[cols]] = fill.var, inner.var
        scope = _Scope(self, inner.body, sub, [], {})
        return Operand(ext[rows], ext[cols], fill=fill, value=self.value(u, scope))

    def store(self, stmts: list[Stmt], scope: _Scope, v: str, out_view: UOp | None = None) -> None:
        n = self.out_view if out_view is None else out_view
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
        params = {n.arg.slot: n.dtype for n in self.nodes if n.op is Ops.PARAM}
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
        outer_vars = [v for d, v in enumerate(self.vars) if d not in self.inner and v is not None]
        for d in self.inner:
            blocked = self.lo.row and d == self.inner[-1]
            ahead = outer_vars[-1] if blocked and outer_vars else ""
            loop = Loop(f"r{d}_{self.lo.new('')}", self.extents[d], blocked=blocked, ahead=ahead)
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
        if red is self.lo.spill:
            self.lo.store(stmts, self, v)
        stmts.append(AccUpdate(acc, red.arg.op, v))
        self.close_inner()
        self.reduced[red] = acc
        return acc


def _pass_nodes(root: UOp) -> set[UOp]:
    """The nodes computed for `root` itself, not inside the reductions it reads."""
    seen, stack = set(), [root]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            if n.op is not Ops.REDUCE:
                stack.extend(n.src)
    return seen


def _gemm_of(item: ScheduleItem, root: UOp) -> tuple[MatmulAxes | None, UOp | None]:
    """(matmul axes, the reduction) of a kernel that can be a BLAS call: its one reduction is matmul-shaped and the
    matrix axes come after every batch axis; else (None, None)."""
    reductions = [n for n in root.toposort() if n.op is Ops.REDUCE]
    if len(reductions) != 1 or (mm := matmul_axes(reductions[0])) is None:
        return None, None
    full = item.full_shape
    batch = [d for d in range(len(full)) if full[d] > 1 and d not in (mm.n, mm.k, mm.m, *mm.rows, *mm.inner)]
    if batch and max(batch) > min(mm.n, mm.k, mm.m, *mm.rows, *mm.inner):
        return None, None
    return mm, reductions[0]


def _gemm_groups(full: tuple[int, ...], mm: MatmulAxes, tops: list[View]) -> list[list[int]] | None:
    """Kernel dims of a gemm kernel: one per axis of size > 1, except that `mm.rows` and `mm.n` make one dim (the
    product's rows), and `mm.inner` and `mm.k` one (the summed axis), when every view merges them; else None."""
    merged = {mm.n: [*mm.rows, mm.n], mm.k: [*mm.inner, mm.k]}
    if not all(_mergeable(v, a, b) for v in tops for g in merged.values() for a, b in zip(g, g[1:])):
        return None
    folded = {*mm.rows, *mm.inner}
    return [merged.get(d, [d]) for d in range(len(full)) if full[d] != 1 and d not in folded]


def lower(item: ScheduleItem, blas: str = "") -> Lowered:
    """Lower one scheduled kernel to a Program with its runtime integer arguments.

    With `blas` ("numpy": NumPy's BLAS, "scipy": Numba's np.dot, which binds SciPy's; see runtime_numba.blas_route),
    a kernel whose reduction is matmul-shaped (`schedule.matmul_axes`) lowers to a `Gemm` statement plus the
    elementwise work before it (into operand scratch) and after it (a loop nest over the result). Raises ValueError
    for any other `blas`."""
    if blas not in ("", "numpy", "scipy"):
        raise ValueError(f"blas must be '', 'numpy' or 'scipy', not {blas!r}")
    return _Lowerer(refine_loop_space(item), blas).lower()
