"""LLVM renderer: a lowered elementwise `Program` in, LLVM IR out, compiled with llvmlite alone (no Numba).

A kernel whose loops only compute and store elementwise float values (no reductions, no BLAS, no float16) is built
here as LLVM IR and compiled by llvmlite: a process whose kernels all take this path never imports Numba, so a cold
first call costs a few hundred milliseconds instead of over a second. Every other kernel goes through
`render_numba` and Numba. The IR computes exactly what the Numba kernel computes: the same IEEE operations in the
same order, the same transcendental functions (their IR, as Numba compiles them, is shipped: `helper_ir`), and the
same structure for ranged loops (small variants, then checked blocks when an argument was out of range), so fused,
unfused, Numba-compiled and LLVM-compiled kernels give the same bits; so do loops the Numba renderer splits (fission:
the same stages over blocks, through scratch arrays on the stack).

The kernel is the native entry point `i32 lazyarr_native_entry(i64 ptr0, i64 size0, ..., i64 int0, ..., double f0,
...)` that `native.load` links (argument order as `render_numba`: buffers, then start/end of a parallel loop, int
params, float params), so the same object is saved in the native kernel cache and loaded by later processes.
"""

from __future__ import annotations

import functools
import platform
import threading
from typing import Any

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import Ops
from lazyarr.helpers import flag
from lazyarr.kernels import helper_ir, native
from lazyarr.kernels.lower import Instr, Loop, Program, Stmt, Store
from lazyarr.kernels.render_numba import (
    FISSION_BLOCK,
    RANGED,
    TILE_ALIAS,
    TILE_COLS,
    TILE_ROWS,
    TRANSCENDENTAL,
    TRIG,
    TRIG_BLOCK,
    _Renderer,
    ranged_kind,
    reads_what_it_stores,
)

FLOATS = ("float32", "float64")

# Non-temporal stores. A loop of a launch with a large output (`Program.stream`) writes the cache-line-aligned middle
# of its range with non-temporal stores: they go to memory without first reading each line into the cache
# (read-for-ownership), so a loop reading 4 arrays and writing 1 moves 5/6 of the bytes, and the output does not
# push its inputs out of the cache.
STREAM_ALIGN = 64  # bytes: a cache line
# how many vector iterations LLVM runs side by side in the hot loops of large kernels: the streamed middle of an
# elementwise loop and the stages of a split loop (benchmarks/bench_interleave.py: the chain at 2**22 1.13-1.17x,
# Black-Scholes 1.11-1.13x; a plain loop over 2**16 gained nothing, so other loops keep LLVM's choice, and the
# object code and compile time stay smaller)
INTERLEAVE = 2
STREAM_BLOCK = 128  # a multiple of the widest vector loop step (16 lanes x 8 interleaved), so no scalar tail runs


@functools.cache
def _host_has_avx512() -> bool:
    """Whether this CPU runs AVX-512F, as NumPy's own dispatch found (a warm-cache call never loads LLVM)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features  # NumPy 2
    except ImportError:
        try:
            from numpy.core._multiarray_umath import __cpu_features__ as features  # NumPy 1.26
        except ImportError:
            return False
    return bool(features.get("AVX512F", False))


def vector_width() -> int:
    """The vector width in bits the kernels built here ask LLVM to prefer (`LAZYARR_VECTOR_WIDTH`; 0: LLVM's default
    for the host). Automatic: 512 on a host with AVX-512, where LLVM's default is 256 (Black-Scholes 1.18-1.22x
    faster on a 2-core Emerald Rapids; `benchmarks/bench_vector_width.py`). The flag itself only takes 0, 128, 256
    or 512 (ValueError when read or set)."""
    width = flag("VECTOR_WIDTH")
    if width == 0 and platform.machine() in ("x86_64", "AMD64") and _host_has_avx512():
        return 512
    return width


class UnsupportedError(Exception):
    """The program needs something this renderer does not build; the kernel compiles through Numba."""


_FLOAT_BINARY = {Ops.ADD: "fadd", Ops.SUB: "fsub", Ops.MUL: "fmul", Ops.DIV: "fdiv"}
_INT_BINARY = {Ops.ADD: "add", Ops.SUB: "sub", Ops.MUL: "mul"}
_FLOAT_CMP = {Ops.CMPLT: ("fcmp_ordered", "<"), Ops.CMPLE: ("fcmp_ordered", "<="), Ops.CMPEQ: ("fcmp_ordered", "=="),
              Ops.CMPNE: ("fcmp_unordered", "!=")}
_INT_CMP = {Ops.CMPLT: "<", Ops.CMPLE: "<=", Ops.CMPEQ: "==", Ops.CMPNE: "!="}


def supports(prog: Program) -> bool:
    """Whether `prog` can be compiled here (see the module docstring)."""
    if not helper_ir.available():
        return False
    if any(dt.name not in FLOATS for dt in prog.buf_dtypes):
        return False
    return _check(prog.body)


def _check(stmts: list[Stmt]) -> bool:
    for s in stmts:
        if isinstance(s, Loop):
            if s.blocked or s.lanes:
                return False
            if not _check(s.body):
                return False
        elif isinstance(s, Instr):
            if not _instr_ok(s):
                return False
        elif not isinstance(s, Store):
            return False
    return True


def _instr_ok(s: Instr) -> bool:
    dt = s.dtype
    if dt.name == "float16":
        return False
    if s.op == "const":
        return dt.is_float or dt.name == "int64"
    if s.op == "fparam":
        return dt.is_float
    if s.op == "load":
        return len(s.srcs) == 1
    if s.op == "cast":  # to a float, or int64 from int64 or bool (index arithmetic: arange)
        return dt.is_float or dt.name == "int64"
    if not isinstance(s.op, Ops):
        return False
    if dt.is_float:
        return s.op in _FLOAT_BINARY or s.op in TRANSCENDENTAL or s.op in (
            Ops.NEG, Ops.SQRT, Ops.RECIPROCAL, Ops.MAX, Ops.MIN, Ops.ABS, Ops.WHERE)
    if dt.name == "int64":
        return s.op in _INT_BINARY
    if dt.is_bool:
        return s.op in _FLOAT_CMP or s.op in (Ops.AND, Ops.OR)
    return False


class _Builder:
    def __init__(self, prog: Program) -> None:
        from llvmlite import ir

        self.ir, self.prog = ir, prog
        self.i64, self.i1, self.i32 = ir.IntType(64), ir.IntType(1), ir.IntType(32)
        self.ptr = ir.PointerType()
        self.module = ir.Module(name="lazyarr_kernel")
        nb = len(prog.buf_dtypes)
        n_int = (2 if prog.parallel else 0) + len(prog.int_params)
        fnty = ir.FunctionType(self.i32, [self.i64] * (2 * nb + n_int) + [ir.DoubleType()] * len(prog.float_params))
        self.fn = ir.Function(self.module, fnty, native.ENTRY)
        self.b = ir.IRBuilder(self.fn.append_basic_block("entry"))
        args = list(self.fn.args)
        self.bufs = [self.b.inttoptr(args[2 * i], self.ptr) for i in range(nb)]
        ints = args[2 * nb: 2 * nb + n_int]
        names = (["start", "end"] if prog.parallel else []) + list(prog.int_params)
        self.values: dict[str, Any] = dict(zip(names, ints))
        self.values.update(zip(prog.float_params, args[2 * nb + n_int:]))
        self.dtypes: dict[str, DType] = {n: dtypes.int64 for n in names}
        self.dtypes.update({n: dtypes.float64 for n in prog.float_params})
        self.helpers: dict[str, Any] = {}
        self.used: set[str] = set()
        self.retslot: dict[str, Any] = {}
        self.streaming = False  # stores are non-temporal (set while `streamed` builds its aligned middle loop)
        # the alignment the streamed middle loop's stores claim: one vector of the preferred width (see `streamed`)
        self.stream_claim = STREAM_ALIGN if prog.vector_width == 512 else STREAM_ALIGN // 2
        self.loops = 0  # loop IDs made (loop_id)

    # ---- types and values ----

    def ty(self, dt: DType) -> Any:
        if dt.is_bool:
            return self.i1
        if dt.name == "float32":
            return self.ir.FloatType()
        if dt.name == "float64":
            return self.ir.DoubleType()
        if dt.name == "int64":
            return self.i64
        raise UnsupportedError(dt.name)

    def value(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        return self.ir.Constant(self.i64, int(name))  # an extent or index given as a literal

    def helper(self, name: str, args: list[Any], dt: DType) -> Any:
        """Call transcendental helper `name` (Numba's calling convention: the result comes back through a slot)."""
        ir, b = self.ir, self.b
        if name not in self.helpers:
            t = self.ty(dt)
            fnty = ir.FunctionType(self.i32, [self.ptr, self.ptr] + [t] * len(args))
            self.helpers[name] = ir.Function(self.module, fnty, helper_ir.symbol(name))
            self.used.add(name)
        if dt.name not in self.retslot:
            with b.goto_block(self.fn.entry_basic_block):
                b.position_at_start(self.fn.entry_basic_block)
                self.retslot[dt.name] = b.alloca(self.ty(dt))
        slot = self.retslot[dt.name]
        b.call(self.helpers[name], [slot, ir.Constant(self.ptr, None), *args], attrs=("alwaysinline",))
        return b.load(slot, typ=self.ty(dt))

    def smaller(self, x: Any, y: Any) -> Any:
        """The smaller of two i64 values (a loop's end clipped to the range's)."""
        return self.b.select(self.b.icmp_signed("<", x, y), x, y)

    def intrinsic(self, name: str, dt: DType, args: list[Any]) -> Any:
        fn = self.module.declare_intrinsic(name, [self.ty(dt)])
        return self.b.call(fn, args)

    # ---- statements ----

    def instr(self, s: Instr, trig: str) -> Any:
        """The value of `s`; `trig` is "small" or "full": which variants of the ranged ops (render_numba.RANGED:
        sin/cos/tan, float32 exp) to call."""
        ir, b = self.ir, self.b
        dt = s.dtype
        self.dtypes[s.name] = dt
        src = [self.value(x) for x in s.srcs]
        if s.op == "const":
            return ir.Constant(self.ty(dt), bool(s.arg) if dt.is_bool else float(s.arg) if dt.is_float else int(s.arg))
        if s.op == "fparam":
            v = self.value(s.arg)
            return v if dt.name == "float64" else b.fptrunc(v, self.ty(dt))  # exact: the value is a float32
        if s.op == "load":
            p = b.gep(self.bufs[s.arg], [src[0]], source_etype=self.ty(self.prog.buf_dtypes[s.arg]))
            return b.load(p, typ=self.ty(self.prog.buf_dtypes[s.arg]))
        if s.op == "cast":
            from_dt = self.dtypes[s.srcs[0]]
            if from_dt == dt:
                return src[0]
            if from_dt.is_float:
                widen = dt.itemsize > from_dt.itemsize
                return b.fpext(src[0], self.ty(dt)) if widen else b.fptrunc(src[0], self.ty(dt))
            if dt.name == "int64":  # from bool (int64 from int64 returned above; a float source is not built)
                if not from_dt.is_bool:
                    raise UnsupportedError(f"cast {from_dt.name} -> int64")
                return b.zext(src[0], self.i64)
            if from_dt.is_bool:
                return b.uitofp(src[0], self.ty(dt))
            if from_dt.name == "int64":
                return b.sitofp(src[0], self.ty(dt))
            raise UnsupportedError(f"cast {from_dt.name} -> {dt.name}")
        assert isinstance(s.op, Ops)
        op = s.op
        operand = self.dtypes[s.srcs[-1]]
        if dt.is_bool:
            if op in (Ops.AND, Ops.OR):
                return b.and_(*src) if op is Ops.AND else b.or_(*src)
            if operand.is_float:
                kind, pred = _FLOAT_CMP[op]
                return getattr(b, kind)(pred, src[0], src[1])
            if operand.is_bool:  # False < True, as Python's bools (a signed i1 would make True -1)
                return b.icmp_unsigned(_INT_CMP[op], src[0], src[1])
            return b.icmp_signed(_INT_CMP[op], src[0], src[1])
        if dt.name == "int64":
            return getattr(b, _INT_BINARY[op])(src[0], src[1])
        if op in _FLOAT_BINARY:
            return getattr(b, _FLOAT_BINARY[op])(src[0], src[1])
        if op is Ops.NEG:
            return b.fneg(src[0])
        if op is Ops.RECIPROCAL:
            return b.fdiv(ir.Constant(self.ty(dt), 1.0), src[0])
        if op is Ops.SQRT:
            return self.intrinsic("llvm.sqrt", dt, src)
        if op is Ops.ABS:
            return self.intrinsic("llvm.fabs", dt, src)
        if op in (Ops.MAX, Ops.MIN):  # numba_support.fmax/fmin: a if (a > b or a != a) else b
            a, c = src
            first = b.fcmp_ordered(">" if op is Ops.MAX else "<", a, c)
            return b.select(b.or_(first, b.fcmp_unordered("uno", a, a)), a, c)
        if op is Ops.WHERE:
            return b.select(src[0], src[1], src[2])
        if op in TRANSCENDENTAL:
            name = f"{TRANSCENDENTAL[op]}_{'f64' if dt.itemsize == 8 else 'f32'}"
            if trig == "small" and ranged_kind(s):
                name += "_small"
            return self.helper(name, src, dt)
        raise UnsupportedError(str(op))

    def stmts(self, stmts: list[Stmt], trig: str = "full") -> None:
        for s in stmts:
            if isinstance(s, Instr):
                self.values[s.name] = self.instr(s, trig)
            elif isinstance(s, Store):
                dt = self.prog.buf_dtypes[s.buf]
                p = self.b.gep(self.bufs[s.buf], [self.value(s.index)], source_etype=self.ty(dt))
                if self.streaming:  # the aligned middle of a streamed loop: see `streamed`
                    st = self.b.store(self.value(s.src), p, align=self.stream_claim)
                    st.set_metadata("nontemporal", self.module.add_metadata([self.ir.Constant(self.i32, 1)]))
                else:
                    self.b.store(self.value(s.src), p)
            elif isinstance(s, Loop):
                self.loop(s)
            else:
                raise UnsupportedError(type(s).__name__)

    def counted(self, lo: Any, hi: Any, body: Any, carried: Any = None, step: int = 1, interleave: int = 0) -> Any:
        """`for i in range(lo, hi, step): body(i)`; with `carried` (an i1 start value), body(i, c) returns the next c
        and the final c is returned. `interleave`: LLVM's interleave count for the loop once vectorised (0: its own
        choice)."""
        ir, b = self.ir, self.b
        pre = b.block
        head, inner, done = (self.fn.append_basic_block() for _ in range(3))
        b.branch(head)
        b.position_at_end(head)
        i = b.phi(self.i64)
        i.add_incoming(lo, pre)
        c = None
        if carried is not None:
            c = b.phi(self.i1)
            c.add_incoming(carried, pre)
        b.cbranch(b.icmp_signed("<", i, hi), inner, done)
        b.position_at_end(inner)
        nxt = body(i) if c is None else body(i, c)
        i.add_incoming(b.add(i, ir.Constant(self.i64, step)), b.block)
        if c is not None:
            c.add_incoming(nxt, b.block)
        latch = b.branch(head)
        if interleave:
            latch.set_metadata("llvm.loop", self.loop_id(interleave))
        b.position_at_end(done)
        return c

    def loop_id(self, interleave: int) -> Any:
        """A loop's `!llvm.loop` node asking for `interleave` (llvm.loop.interleave.count). Its first operand is the
        node itself, as LLVM requires of a loop ID; each loop gets its own."""
        ir, module = self.ir, self.module
        hint = module.add_metadata([ir.MetaDataString(module, "llvm.loop.interleave.count"),
                                    ir.Constant(self.i32, interleave)])
        self.loops += 1  # a new node per loop (add_metadata returns the same node for the same operands)
        node = module.add_metadata([ir.MetaDataString(module, f"lazyarr.loop.{self.loops}")])
        node.operands = (node, hint)
        return node

    def loop(self, loop: Loop) -> None:
        """`loop` with the structure `render_numba` gives it: a ranged loop, a split loop (fission) or a plain one."""
        self.dtypes[loop.var] = dtypes.int64
        lo, hi = (self.value("start"), self.value("end")) if loop.parallel else (self.ir.Constant(self.i64, 0),
                                                                                 self.value(loop.extent))
        numba_view = _Renderer(self.prog)
        if strides := numba_view.tile_strides(loop):
            self.tiled_loop(loop, lo, hi, strides)
            return
        self.untiled_loop(loop, lo, hi, numba_view)

    def untiled_loop(self, loop: Loop, lo: Any, hi: Any, numba_view: _Renderer) -> None:
        if not any(isinstance(s, Loop) for s in loop.body):
            if numba_view.ranged_checks(loop)[0]:
                self.ranged_loop(loop, lo, hi, [s for s in loop.body if isinstance(s, Instr) and ranged_kind(s)])
                return
            if len(stages := numba_view.fission_stages(loop)) > 1:
                self.fission_loop(loop, lo, hi, stages)
                return

        def plain(i: Any) -> None:
            self.values[loop.var] = i
            self.stmts(loop.body)
        self.streamed(loop, lo, hi, plain)

    def tiled_loop(self, loop: Loop, lo: Any, hi: Any, strides: list[tuple[str, int]]) -> None:
        """As `render_numba.tiled_loop`: the nest in tiles of TILE_ROWS x TILE_COLS iterations when a stride it reads
        its inner loop at is a multiple of TILE_ALIAS bytes, else as it is."""
        ir, b = self.ir, self.b
        const = functools.partial(ir.Constant, self.i64)
        m = next(s for s in loop.body if isinstance(s, Loop))
        self.dtypes[m.var] = dtypes.int64
        test = None
        for p, size in strides:
            hit = b.icmp_signed("==", b.srem(b.mul(self.value(p), const(size)), const(TILE_ALIAS)), const(0))
            test = hit if test is None else b.or_(test, hit)
        with b.if_else(test) as (tiled, plain):
            with tiled:
                n = self.value(m.extent)

                def tile(t0: Any) -> None:
                    e0 = self.smaller(b.add(t0, const(TILE_ROWS)), hi)

                    def column(t1: Any) -> None:
                        e1 = self.smaller(b.add(t1, const(TILE_COLS)), n)

                        def row(i0: Any) -> None:
                            self.values[loop.var] = i0
                            for s in loop.body:
                                if s is m:
                                    self.counted(t1, e1, lambda i1: self.inner(m, i1))
                                else:
                                    self.stmts([s])
                        self.counted(t0, e0, row)
                    self.counted(const(0), n, column, step=TILE_COLS)
                self.counted(lo, hi, tile, step=TILE_ROWS)
            with plain:
                self.untiled_loop(loop, lo, hi, _Renderer(self.prog))

    def inner(self, loop: Loop, i: Any) -> None:
        """One iteration `i` of innermost `loop`."""
        self.values[loop.var] = i
        self.stmts(loop.body)

    def stream_itemsize(self, loop: Loop) -> int:
        """The element size of what `loop` stores when it may use non-temporal stores (see `streamed`), else 0: an
        innermost loop of the kernel's outermost level on x86-64, storing floats of one size at its own index only,
        into buffers it does not read."""
        stores = [s for s in loop.body if isinstance(s, Store)]
        sizes = {self.prog.buf_dtypes[s.buf].itemsize for s in stores}
        if not self.prog.stream or not loop.parallel or not stores or len(sizes) != 1 or \
                any(s.index != loop.var for s in stores):
            return 0
        if reads_what_it_stores(loop.body) or platform.machine() not in ("x86_64", "AMD64"):
            return 0
        return sizes.pop()

    def streamed(self, loop: Loop, lo: Any, hi: Any, body: Any, carried: Any = None) -> Any:
        """`counted(lo, hi, body, carried)`, where an eligible loop (`stream_itemsize`) runs the part of [lo, hi) whose
        stores start on a cache line, in STREAM_BLOCK steps, with non-temporal stores, then an sfence (the stores are
        visible to the thread that waits for this one), then the rest of the range with plain stores. Every element's
        value is the same either way; only how it reaches memory differs. A launch whose stored buffers are not
        equally aligned uses plain stores only.

        The middle loop's scalar stores claim the alignment of one vector (32 bytes, 64 where 512-bit vectors are
        preferred): LLVM only vectorises a loop with non-temporal stores it can emit as aligned vector stores, and
        takes their alignment from the scalar store. The claim holds for every vector store (the middle starts on a
        cache line and steps by whole vectors); no scalar iteration of it runs, since its trip count is a multiple of
        STREAM_BLOCK, which every vector step divides."""
        size = self.stream_itemsize(loop)
        if not size:
            return self.counted(lo, hi, body, carried)
        ir, b = self.ir, self.b
        const = functools.partial(ir.Constant, self.i64)
        stored = sorted({s.buf for s in loop.body if isinstance(s, Store)})
        offsets = [b.and_(b.add(b.ptrtoint(self.bufs[k], self.i64), b.mul(lo, const(size))), const(STREAM_ALIGN - 1))
                   for k in stored]
        ok = b.icmp_signed("==", b.and_(offsets[0], const(size - 1)), const(0))
        for other in offsets[1:]:
            ok = b.and_(ok, b.icmp_signed("==", other, offsets[0]))
        head = b.sdiv(b.and_(b.sub(const(STREAM_ALIGN), offsets[0]), const(STREAM_ALIGN - 1)), const(size))
        a = b.add(lo, head)
        a = b.select(b.and_(ok, b.icmp_signed("<", a, hi)), a, hi)
        m = b.add(a, b.and_(b.sub(hi, a), const(-STREAM_BLOCK)))
        self.streaming = True
        carried = self.counted(a, m, body, carried, interleave=INTERLEAVE)
        self.streaming = False
        b.call(self.module.declare_intrinsic("llvm.x86.sse.sfence", fnty=ir.FunctionType(ir.VoidType(), [])), [])

        def rest(k: Any, c: Any = None) -> Any:  # [lo, a), then [m, hi)
            first = b.icmp_signed("==", k, const(0))
            return self.counted(b.select(first, lo, m), b.select(first, a, hi), body, c)
        return self.counted(const(0), const(2), rest, carried)

    def fission_loop(self, loop: Loop, lo: Any, hi: Any, stages: list[list[Stmt]], trig: str = "full",
                     checked: Any = None, hot: bool = True) -> Any:
        """As `render_numba.fission_loop`: `loop` in blocks of FISSION_BLOCK, each block running `stages` one after
        another; values a later stage needs pass through scratch arrays on the stack (loads, constants and index
        arithmetic are computed again). `trig`: which variants of the ranged ops to call; with `checked` (an i1 start
        value), returns it or'ed with whether an argument of a ranged op was out of range (see `big`). `hot`: the
        stage loops are interleaved INTERLEAVE times (not the run again with the full functions, which is rare)."""
        ir, b = self.ir, self.b
        redo, reads, passed = _Renderer.fission_plan(loop, stages)
        defs = {s.name: s for s in loop.body if isinstance(s, Instr)}
        scratch = {}
        with b.goto_block(self.fn.entry_basic_block):
            b.position_at_start(self.fn.entry_basic_block)
            for name in sorted(passed):
                scratch[name] = b.alloca(ir.ArrayType(self.ty(defs[name].dtype), FISSION_BLOCK))
        zero = ir.Constant(self.i64, 0)

        def slot(name: str, q: Any) -> Any:
            return b.gep(scratch[name], [zero, q], inbounds=True)

        def block(f: Any, flag: Any = None) -> Any:
            nxt = b.add(f, ir.Constant(self.i64, FISSION_BLOCK))
            count = b.sub(self.smaller(nxt, hi), f)
            for k, stage in enumerate(stages):
                def body(q: Any, flag: Any = None, k: int = k, stage: list[Stmt] = stage) -> Any:
                    self.values[loop.var] = b.add(f, q)
                    for s in loop.body:  # what this stage reads from earlier stages, in the original order
                        if isinstance(s, Instr) and s.name in redo[k]:
                            self.values[s.name] = self.instr(s, "full")
                        elif isinstance(s, Instr) and s.name in reads[k]:
                            self.dtypes[s.name] = s.dtype
                            self.values[s.name] = b.load(slot(s.name, q), typ=self.ty(s.dtype))
                    for s in stage:
                        self.stmts([s], trig)
                        if isinstance(s, Instr) and s.name in passed:
                            b.store(self.values[s.name], slot(s.name, q))
                    if flag is None:
                        return None
                    return self.big([s for s in stage if isinstance(s, Instr) and ranged_kind(s)], flag)
                flag = self.counted(zero, count, body, flag, interleave=INTERLEAVE if hot else 0)
            return flag

        return self.counted(lo, hi, block, checked, step=FISSION_BLOCK)

    def big(self, checks: list[Instr], flag: Any) -> Any:
        """flag | (any ranged argument is out of its small variant's range: large, inf or NaN), as
        `render_numba.ranged_check` computes it."""
        b = self.b
        for s in checks:
            lo, hi = (self.ir.Constant(self.ty(s.dtype), v) for v in RANGED[(s.op, ranged_kind(s))])
            x = self.value(s.srcs[0])
            if lo.constant == -hi.constant:
                small = b.fcmp_ordered("<", self.intrinsic("llvm.fabs", s.dtype, [x]), hi)
            else:
                small = b.and_(b.fcmp_ordered(">", x, lo), b.fcmp_ordered("<", x, hi))
            flag = b.or_(flag, b.not_(small))
        return flag

    def ranged_loop(self, loop: Loop, lo: Any, hi: Any, checks: list[Instr]) -> None:
        """As `render_numba`'s ranged loops: a loop that can run twice runs whole with the small variants, noting an
        argument out of range; then (or at once, for other loops with sin/cos/tan) in blocks of TRIG_BLOCK, each block
        checked first and run with the small variants or, when an argument is out of range, with the full functions
        (a loop with no sin/cos/tan runs whole with the full functions instead)."""
        ir, b = self.ir, self.b
        false = ir.Constant(self.i1, 0)
        rerun = _Renderer.can_rerun(loop.body)

        def run(trig: str) -> Any:
            def body(i: Any, flag: Any) -> Any:
                self.values[loop.var] = i
                self.stmts(loop.body, trig)
                return self.big(checks, flag) if trig == "small" else flag
            return body

        trig = any(s.op in TRIG for s in checks)
        stages = [loop.body] if trig else _Renderer(self.prog).fission_stages(loop)  # split loops can run twice
        if rerun:
            if len(stages) > 1:
                any_big = self.fission_loop(loop, lo, hi, stages, "small", false)
            else:
                any_big = self.streamed(loop, lo, hi, run("small"), false)
            blocked, after = self.fn.append_basic_block(), self.fn.append_basic_block()
            b.cbranch(any_big, blocked, after)
            b.position_at_end(blocked)
            if not trig:  # exp, log: the full functions vectorise, so all of it again
                if len(stages) > 1:
                    self.fission_loop(loop, lo, hi, stages, hot=False)
                else:
                    self.counted(lo, hi, lambda i: run("full")(i, false))
                b.branch(after)
                b.position_at_end(after)
                return
        needed = _Renderer(self.prog).ranged_checks(loop)[1]

        def check(i: Any, flag: Any) -> Any:
            self.values[loop.var] = i
            self.stmts([s for s in loop.body if isinstance(s, Instr) and s.name in needed], "full")
            return self.big(checks, flag)

        def block(t: Any) -> None:  # elements [t, e) checked, then run with the small or the full variants
            nxt = b.add(t, ir.Constant(self.i64, TRIG_BLOCK))
            e = self.smaller(nxt, hi)
            block_big = self.counted(t, e, check, false)
            full, small, joined = (self.fn.append_basic_block() for _ in range(3))
            b.cbranch(block_big, full, small)
            for blk, trig in ((full, "full"), (small, "small")):
                b.position_at_end(blk)
                self.counted(t, e, lambda i, trig=trig: run(trig)(i, false))
                b.branch(joined)
            b.position_at_end(joined)

        self.counted(lo, hi, block, step=TRIG_BLOCK)
        if rerun:
            b.branch(after)
            b.position_at_end(after)

    def build(self) -> str:
        self.stmts(self.prog.body)
        self.b.ret(self.ir.Constant(self.i32, 0))
        text = str(self.module)
        if self.prog.vector_width:  # a string attribute, which llvmlite's IR builder cannot attach
            head = f'define i32 @"{native.ENTRY}"('
            at = text.index(head)
            end = text.index(")\n{", at) + 1
            text = text[:end] + " #0" + text[end:] + \
                f'\nattributes #0 = {{ "prefer-vector-width"="{self.prog.vector_width}" }}\n'
        return text


def build_ir(prog: Program) -> tuple[str, list[str]]:
    """(LLVM IR of the kernel's entry point, the helpers it calls). Raises UnsupportedError."""
    builder = _Builder(prog)
    return builder.build(), sorted(builder.used)


def kinds(prog: Program) -> str:
    """The entry point's argument kinds, as `native` records them ("i" int64, "d" double)."""
    return "ii" * len(prog.buf_dtypes) + "i" * ((2 if prog.parallel else 0) + len(prog.int_params)) + \
        "d" * len(prog.float_params)


_lock = threading.Lock()


@functools.cache
def _target_machine() -> Any:
    from llvmlite import binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # small code model, position-independent: constants are addressed relative to the code (one instruction where
    # the JIT's large code model takes two); the JIT linker keeps each object's sections together
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3, codemodel="small",
        reloc="pic")


def compile_object(prog: Program) -> bytes:
    """Object code of `prog`'s entry point, optimised for this host (O3, the host's vector width). Raises
    UnsupportedError."""
    from llvmlite import binding as llvm

    text, used = build_ir(prog)
    with _lock:  # one LLVM context: parsing and optimising are not safe from several threads at once
        tm = _target_machine()
        module = llvm.parse_assembly(text)
        module.triple = llvm.get_process_triple()
        module.data_layout = str(tm.target_data)
        for name in used:
            helper = llvm.parse_assembly(helper_ir.ir_text(name))
            helper.triple, helper.data_layout = module.triple, module.data_layout
            module.link_in(helper)
        for fn in module.functions:  # only the entry point is visible: the rest inlines and disappears
            if fn.name != native.ENTRY and not fn.is_declaration:
                fn.linkage = "internal"
        module.verify()
        tuning = llvm.create_pipeline_tuning_options(speed_level=3)
        passes = llvm.create_pass_builder(tm, tuning)
        passes.getModulePassManager().run(module, passes)
        return bytes(tm.emit_object(module))
