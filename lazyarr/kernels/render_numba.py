"""Numba renderer: a lowered `Program` in, the Python source of an `@numba.njit` kernel out.

Buffers arrive as 1-D C-contiguous arrays (float16 as uint16 bits); integer params as int64, then float params as
float64 (each read back in its constant's dtype: exact). A parallel kernel takes (start, end) of its first loop
first, so the runtime can run chunks of it on several threads (the GIL is released).
Every op is one entry of `ALU_RENDER`; integer results are cast back to their dtype, so they wrap like NumPy.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import Ops
from lazyarr.kernels.lower import AccInit, AccUpdate, Gemm, Instr, Loop, Operand, Program, Stmt, Store

NP_NAME = {"bool": "np.bool_", "float16": "np.float32"}  # float16 values live in float32 registers


def np_type(dt: DType) -> str:
    return NP_NAME.get(dt.name, f"np.{dt.name}")


def array_type(dt: DType) -> str:
    """Numba type of a buffer parameter of dtype `dt`."""
    return "types.uint16[::1]" if dt.name == "float16" else f"types.{'boolean' if dt.is_bool else dt.name}[::1]"


def render_const(value: object, dt: DType) -> str:
    if dt.is_bool:
        return "True" if value else "False"
    if dt.is_float:
        v = float(value)  # type: ignore[arg-type]
        nan = "-np.nan" if math.copysign(1.0, v) < 0 else "np.nan"  # the sign of a NaN kept (0/0 folded is -nan on x86)
        text = nan if math.isnan(v) else ("np.inf" if v > 0 else "-np.inf") if math.isinf(v) else repr(v)
        return f"{np_type(dt)}({text})"
    return f"{np_type(dt)}({int(value)})"  # type: ignore[call-overload]


def _cvtt(x: str, bits: int) -> str:
    """x86's truncating conversion of float `x` to a signed int of `bits`: INT_MIN for NaN and when the truncated
    value does not fit. Spelled out, as LLVM's fptosi of such a value is poison (folded or vectorised to anything).
    One comparison: the values just below -2**(bits-1) that truncate into range truncate to INT_MIN anyway."""
    lim = 1 << (bits - 1)
    return f"(np.int{bits}({x}) if abs({x}) < {lim}.0 else np.int{bits}({-lim}))"


def float_to_int(x: str, dt: DType) -> str:
    """Float `x` converted to integer dtype `dt` as NumPy's astype does on x86-64 (see dtypes.float_to_int): through
    int32 or int64 and wrapped; uint64 through x - 2**63 above 2**63 (what LLVM emits for it without AVX-512, whose
    saturating conversions differ from NumPy's)."""
    if dt.name == "uint64":
        big = f"{x} >= 9223372036854775808.0"
        return (f"(np.uint64({_cvtt(f'({x} - 9223372036854775808.0)', 64)}) ^ np.uint64(9223372036854775808) "
                f"if {big} else np.uint64({_cvtt(x, 64)}))")
    via = _cvtt(x, 64 if dt.name in ("int64", "uint32") else 32)
    return via if dt.name in ("int32", "int64") else f"{np_type(dt)}({via})"


def _unary(fmt: str) -> Callable[[DType, list[str]], str]:
    return lambda dt, s: fmt.format(*s)


# ops computed by lazyarr.kernels.transcendental (range reduction + polynomials that LLVM vectorises), the same
# function fused or not; float16 operands live in float32 registers and their results are rounded by the cast after
TRANSCENDENTAL = {Ops.EXP: "exp", Ops.EXP2: "exp2", Ops.LOG: "log", Ops.LOG2: "log2", Ops.LOG1P: "log1p",
                  Ops.EXPM1: "expm1", Ops.SIN: "sin", Ops.COS: "cos", Ops.TAN: "tan", Ops.TANH: "tanh", Ops.ERF: "erf",
                  Ops.POW: "pow"}


def _transcendental(name: str) -> Callable[[DType, list[str]], str]:
    def render(dt: DType, s: list[str]) -> str:
        if not dt.is_float:
            raise NotImplementedError(f"{name} of {dt.name} on CPU (the frontend computes it in a float dtype)")
        return f"{name}_{'f64' if dt.itemsize == 8 else 'f32'}({', '.join(s)})"

    return render


def _arith(sym: str, bool_sym: str) -> Callable[[DType, list[str]], str]:
    """`a sym b`; on bools `a bool_sym b`. int64 operands go through uint64: Numba marks signed arithmetic `nsw`
    (overflow is undefined), so LLVM folded `x + 1 > x` to True and `x + -2**63` to `x | -2**63`; NumPy wraps."""

    def render(dt: DType, s: list[str]) -> str:
        if dt.is_bool:
            return f"{s[0]} {bool_sym} {s[1]}"
        if dt.name == "int64":
            return f"np.uint64({s[0]}) {sym} np.uint64({s[1]})"
        return f"{s[0]} {sym} {s[1]}"

    return render


# op -> (dtype of the operands, operand names) -> expression; results are then cast to the op's dtype
ALU_RENDER: dict[Ops, Callable[[DType, list[str]], str]] = {
    Ops.NEG: lambda dt, s: f"not {s[0]}" if dt.is_bool else f"-{s[0]}",
    Ops.ABS: lambda dt, s: s[0] if dt.is_bool or dt.is_unsigned else f"abs({s[0]})",
    Ops.SQRT: _unary("np.sqrt({0})"),
    Ops.RECIPROCAL: lambda dt, s: f"{render_const(1.0, dt)} / {s[0]}",
    Ops.FLOOR: _unary("np.floor({0})"),
    Ops.CEIL: _unary("np.ceil({0})"),
    Ops.TRUNC: _unary("np.trunc({0})"),
    Ops.RINT: _unary("np.rint({0})"),
    Ops.NOT: lambda dt, s: f"not {s[0]}" if dt.is_bool else f"~{s[0]}",
    Ops.ADD: _arith("+", "|"),
    Ops.SUB: _arith("-", "^"),
    Ops.MUL: _arith("*", "&"),
    Ops.DIV: lambda dt, s: f"{s[0]} / {s[1]}",
    # x // -1 is -x (wrapping for the minimum): Numba's own int64 floor division gives 0 there
    Ops.IDIV: lambda dt, s: f"idiv({s[0]}, {s[1]})" if dt.kind == "i" else f"{s[0]} // {s[1]}",
    Ops.MOD: lambda dt, s: f"{s[0]} % {s[1]}",
    # on bools: or / and (any / all), which LLVM vectorises as a reduction where it leaves Python's max/min scalar
    Ops.MAX: lambda dt, s: f"fmax({s[0]}, {s[1]})" if dt.is_float else f"{s[0]} | {s[1]}" if dt.is_bool else
    f"max({s[0]}, {s[1]})",
    Ops.MIN: lambda dt, s: f"fmin({s[0]}, {s[1]})" if dt.is_float else f"{s[0]} & {s[1]}" if dt.is_bool else
    f"min({s[0]}, {s[1]})",
    Ops.POW: lambda dt, s: (_transcendental("pow")(dt, s) if dt.is_float
                            else f"ipow({s[0]}, {s[1]}, {render_const(1, dt)})"),
    Ops.CMPLT: lambda dt, s: f"{s[0]} < {s[1]}",
    Ops.CMPLE: lambda dt, s: f"{s[0]} <= {s[1]}",
    Ops.CMPEQ: lambda dt, s: f"{s[0]} == {s[1]}",
    Ops.CMPNE: lambda dt, s: f"{s[0]} != {s[1]}",
    Ops.AND: lambda dt, s: f"{s[0]} & {s[1]}",
    Ops.OR: lambda dt, s: f"{s[0]} | {s[1]}",
    Ops.XOR: lambda dt, s: f"{s[0]} ^ {s[1]}",
    Ops.SHL: lambda dt, s: f"shl({s[0]}, {s[1]}, {dt.bits})",
    Ops.SHR: lambda dt, s: f"shr({s[0]}, {s[1]}, {dt.bits})",
    Ops.WHERE: lambda dt, s: f"select({s[0]}, {s[1]}, {s[2]})",
}
ALU_RENDER.update({op: _transcendental(name) for op, name in TRANSCENDENTAL.items() if op is not Ops.POW})


TRANSCENDENTAL_IMPORTS = [f"{name}_{t}" for name in TRANSCENDENTAL.values() for t in ("f32", "f64")]

# Ranged ops: sin/cos/tan, and float32 exp and log, have a cheap "small" variant that gives the same bits as the full
# function over part of its domain: RANGED[(op, "f32"/"f64")] = (lo, hi), the variant applying where lo < x < hi.
# - sin/cos/tan: float32 |x| < 2**20 (no Payne-Hanek), float64 |x| < 2**29 (no libm branch, so the loop vectorises);
# - float32 exp: |x| < 87, where the result is normal (no clamps, one scaling factor; exp_f32_small holds up to 88,
#   but a symmetric range is checked as one compare of |x|, an instruction fewer per vector than two compares);
# - float32 log: normal finite x > 0 (no subnormal scaling, no special cases).
# An innermost loop calling them runs in blocks of TRIG_BLOCK: a first pass over the block checks every argument, then
# the block runs with the small variants, or with the full functions when any argument is outside (large, inf or
# NaN). Each element's value depends on its own inputs only, and nothing is stored before the choice is made. A loop
# that can run twice runs whole with the small variants first (see `ranged_loop`), split into stages if it would be
# (fission); a loop whose only ranged ops are exp and log is ranged only then (the full functions vectorise too:
# checked blocks would not pay for their checking pass).
TRIG = {Ops.SIN: "sin", Ops.COS: "cos", Ops.TAN: "tan"}
TRIG_SMALL = {"f32": 1048576.0, "f64": 536870912.0}  # 2**20, 2**29
RANGED = {**{(op, t): (-w, w) for op in TRIG for t, w in TRIG_SMALL.items()}, (Ops.EXP, "f32"): (-87.0, 87.0),
          (Ops.LOG, "f32"): ((2**23 - 1) * 2.0**-149, math.inf)}  # above the largest subnormal
TRIG_BLOCK = 512

# A block of a row sum shorter than this (the whole row of a reduction over a short axis, or the last block of a
# longer row) is summed by `numba_support.short_sum`: its elements go in turn to 8 running sums, then added in a fixed
# tree. Padded with -0.0 to REDUCE_BLOCK for `block_sum`, as longer blocks are, it took up to 127 stores per row, and
# the block sum's vector loads then waited for the scalar stores of the block's tail. benchmarks/bench_short_rows.py
# (one thread each way, alternated): sums of 16384 rows of 10 float32 0.52 -> 0.34 ms, of 3 0.49 -> 0.30 ms, softmax
# over 10 classes 1.15-1.25x, cross-entropy's gradient 1.28x; from 32 elements on (whole vectors) the padded block sum
# is as fast. The order depends only on the block's length, so every kernel summing a row sums it the same way.
SHORT_BLOCK = 32
# A row sum of values loaded where they lie (a sum over a buffer's last axis, nothing else computed in the loop) sums
# its full blocks in a loop of their own (`loaded_sum`); False renders it as any other blocked loop (A/B benchmarks).
LOADED_SUM = True
# Elements of a row a blocked loop computes (into its output, or a scratch array of this size) before summing their
# blocks (`blocked_loop`): the sums' reduction trees then overlap the next chunk's arithmetic instead of following
# each block. A multiple of REDUCE_BLOCK (128); REDUCE_BLOCK itself sums each block right after computing it (A/B
# benchmarks: benchmarks/bench_row_chunks.py).
ROW_CHUNK = 1024
# Float max/min reductions run a fast first pass and fix up NaN and ±0 results (`minmax_loop`); False renders them
# with fmaximum/fminimum throughout (A/B benchmarks).
FAST_MINMAX = True
# Tiled transposed loops. An elementwise loop nest that reads a buffer along its inner loop at a stride of a multiple
# of TILE_ALIAS bytes (a transpose of a matrix whose rows are 512 float32s, 1024, 1536, 4096, ...) touches a new cache
# line each step, and all those lines map to the same few cache sets, so each is evicted before the next outer
# iteration reads its neighbour. Such a nest runs in tiles of TILE_ROWS outer by TILE_COLS inner iterations
# (`tiled_loop`; a run-time test of the strides picks it, other strides keep the plain nest, which the hardware
# prefetchers serve well and tiling slowed by up to 2x). Each element's value is the same; only the order of the
# iterations changes, and only in nests that store into no buffer they read. Measured on AMD Zen 4
# (benchmarks/bench_transpose.py, two threads): `x.T + 1` 3.97x faster at 1024x1024 float32, 4.78x at 4096x4096,
# 2.51x at 1024x1024 float64, `x + x.T` 3.0x at 2048x2048, a batched transpose 1.70x; rows of 1000 unchanged. Tiles
# of 32 x 8 were the fastest of 4-32 x 4-32 by hand on 1024-4096 squares. 0 for TILE_ROWS renders plain nests (A/B).
# Rows a lane loop runs side by side when it holds a blocked row sum (`lane_blocked`; see `lower.STRIDED_ROW`).
ROW_LANES = 16
TILE_ROWS = 32
TILE_COLS = 8
TILE_ALIAS = 2048
TRANSCENDENTAL_IMPORTS += [f"{TRANSCENDENTAL[op]}_{t}_small" for op, t in RANGED]


def ranged_kind(ins: Instr) -> str | None:
    """"f32"/"f64" when `ins` is a ranged op (RANGED) of that width, else None."""
    if not isinstance(ins.op, Ops) or not ins.dtype.is_float:
        return None
    t = "f64" if ins.dtype.itemsize == 8 else "f32"
    return t if (ins.op, t) in RANGED else None


def ranged_check(arg: str, op: Ops, t: str) -> str:
    """Numba expression: whether `arg` is outside the small variant's range (NaN is)."""
    lo, hi = RANGED[(op, t)]
    bound = {math.inf: "np.inf"}.get(hi, repr(hi))
    if lo == -hi:
        return f"(not (abs({arg}) < np.float{t[1:]}({bound})))"
    return f"(not (({arg} > np.float{t[1:]}({lo!r})) & ({arg} < np.float{t[1:]}({bound}))))"


# Loop fission. An innermost elementwise loop whose body holds several long-latency calls (Black-Scholes: a log, an
# exp, two erfs, divisions) has a vectorised body longer than the CPU's out-of-order window, so one vector iteration
# barely overlaps the next and the loop runs at the latency of its dependency chain. Such a loop runs in blocks of
# FISSION_BLOCK elements, each block as a few shorter loops ("stages", cut at about FISSION_STAGE_COST of the costs
# below) that pass the values a later stage needs through scratch arrays on the stack. Loads, constants and index
# arithmetic are computed again where needed instead. Each element's value is the same; only loops that do not read
# a buffer they store to are split, so the reordering of loads and stores cannot be observed.
FISSION_COST = {Ops.ERF: 4, Ops.POW: 6, Ops.TAN: 4, Ops.TANH: 3, Ops.LOG1P: 3, Ops.EXPM1: 3, Ops.DIV: 1, Ops.SQRT: 1,
                **{op: 2 for op in (Ops.EXP, Ops.EXP2, Ops.LOG, Ops.LOG2, Ops.SIN, Ops.COS)}}
FISSION_STAGE_COST = 6
FISSION_BLOCK = 256


class _Renderer:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.dtypes: dict[str, DType] = {}
        self.lines: list[str] = []
        self.scratch: set[str] = set()  # scratch arrays of blocked sums ("f32", "f64")
        self.ref: dict[str, str] = {}  # SSA name -> how it is read and written, when not as itself (lanes)
        self.lanes: list[str] = []  # SSA names kept per lane, in arrays of LANES elements
        self.trig_small = False  # rendering the small-argument side of a trig loop (see TRIG)
        self.fast_minmax: set[str] = set()  # float max/min accumulators updated by fmax_fast/fmin_fast (minmax_loop)
        self.fission_scratch: list[str] = []  # SSA names passed between the stages of a split loop
        self.lane_scratch: set[str] = set()  # scratch rows of blocked sums inside lane loops ("f32", "f64")
        self.defs = {s.name: s for s in _instrs(prog.body)}  # every SSA instruction by name
        self.trips: dict[str, str] = {}  # loop variable -> its extent (all threads' chunks together), plain loops

    def cast(self, expr: str, dt: DType) -> str:
        if dt.name == "float16":
            return f"round_f16(np.float32({expr}))"
        return f"{np_type(dt)}({expr})"

    def instr(self, ins: Instr) -> str:
        self.dtypes[ins.name] = ins.dtype
        src = [self.ref.get(x, x) for x in ins.srcs]  # how each operand is read (a lane array element in lanes)
        if ins.op == "const":
            return render_const(ins.arg, ins.dtype)
        if ins.op == "fparam":  # a float64 param holding a value of ins.dtype (exact, so no rounding happens here)
            return f"{np_type(ins.dtype)}({ins.arg})"
        if ins.op == "load":
            buf = f"b{ins.arg}"
            load = f"{buf}[np.uint64({src[0]})]"
            if ins.dtype.name == "float16":
                load = f"f16_bits_to_f32({load})"
            if len(src) == 2:  # masked: never touch memory outside the valid region
                return f"{load} if {src[1]} else {render_const(0, ins.dtype)}"
            return load
        if ins.op == "gemm_load":
            return f"{ins.arg}[np.uint64({src[0]}), np.uint64({src[1]})]"
        if ins.op == "cast":
            src_dt = self.dtypes[ins.srcs[0]]
            if ins.dtype.is_bool and not src_dt.is_bool:
                return f"{src[0]} != 0"
            if ins.dtype.name == "float16" and src_dt.name == "float64":  # one rounding, not two through float32
                return f"round_f16(f64_to_f32_odd({src[0]}))"
            if src_dt.is_float and ins.dtype.is_int:
                return float_to_int(src[0], ins.dtype)
            if ins.dtype.name == "float64" and src_dt.name == "float16":  # a signalling NaN stays so, as NumPy's
                return f"f16_to_f64({src[0]})"
            return self.cast(src[0], ins.dtype)
        if ins.op == "bitcast":
            src_dt = self.dtypes[ins.srcs[0]]
            if src_dt.itemsize != ins.dtype.itemsize or "float16" in (src_dt.name, ins.dtype.name) or src_dt.is_bool:
                raise NotImplementedError(f"bitcast {src_dt.name} -> {ins.dtype.name} on CPU")
            return f"bitcast({src[0]}, {np_type(ins.dtype)})"
        assert isinstance(ins.op, Ops)
        operand_dt = self.dtypes[ins.srcs[-1]]
        expr = ALU_RENDER[ins.op](operand_dt, src)
        if self.trig_small and ranged_kind(ins):
            expr = expr.replace("(", "_small(", 1)
        if ins.dtype.is_bool:
            return expr
        return self.cast(expr, ins.dtype)

    def stmt(self, s: Stmt, depth: int) -> None:
        pad = "    " * depth
        if isinstance(s, Instr):
            expr = self.instr(s)
            self.lines.append(f"{pad}{self.ref.get(s.name, s.name)} = {expr}")
        elif isinstance(s, Loop) and s.scan:  # in order, step by step: none of the rewrites below
            self.plain_loop(s, depth)
        elif isinstance(s, Loop) and (strides := self.tile_strides(s)):
            self.tiled_loop(s, strides, depth)
        elif isinstance(s, Loop) and (acc := self.blocked_sum(s)) is not None:
            self.blocked_loop(s, acc, depth)
        elif isinstance(s, Loop) and s.lanes:
            self.lane_loop(s, depth)
        elif isinstance(s, Loop) and (ranged := self.ranged_checks(s))[0]:
            self.ranged_loop(s, *ranged, depth)
        elif isinstance(s, Loop) and len(stages := self.fission_stages(s)) > 1:
            self.fission_loop(s, stages, depth)
        elif isinstance(s, Loop) and (updates := self.minmax_updates(s)):
            self.minmax_loop(s, updates, depth)
        elif isinstance(s, Loop):
            self.plain_loop(s, depth)
        elif isinstance(s, AccInit):
            self.dtypes[s.acc] = s.dtype
            self.lines.append(f"{pad}{self.ref.get(s.acc, s.acc)} = {render_const(_identity(s.op, s.dtype), s.dtype)}")
        elif isinstance(s, AccUpdate):
            dt = self.dtypes[s.acc]
            acc, src = self.ref.get(s.acc, s.acc), self.ref.get(s.src, s.src)
            if s.scan and dt.is_float and s.op in (Ops.MAX, Ops.MIN):
                expr = scan_minmax(s.op, dt, acc, src)
            elif s.acc in self.fast_minmax:  # the fast first pass of minmax_loop
                expr = f"{'fmax_fast' if s.op is Ops.MAX else 'fmin_fast'}({acc}, {src})"
            elif dt.is_float and s.op in (Ops.MAX, Ops.MIN):  # associative max/min: the reduction vectorises
                expr = f"{'fmaximum' if s.op is Ops.MAX else 'fminimum'}({acc}, {src})"
            else:
                expr = ALU_RENDER[s.op](dt, [acc, src])
            self.lines.append(f"{pad}{acc} = {expr if dt.is_bool else self.cast(expr, dt)}")
        elif isinstance(s, Gemm):
            a = self.operand(s.a, s.dtype, f"{s.out}_a", depth)
            b = self.operand(s.b, s.dtype, f"{s.out}_b", depth)
            d = s.dest
            if d is None:
                self.lines.append(f"{pad}{s.out} = np.empty(({s.a.rows}, {s.b.cols}), {np_type(s.dtype)})")
            else:
                self.lines.append(f"{pad}{s.out} = out_block(b{d.buf}, {d.offset}, {d.rows}, {d.cols}, {d.row_stride}, "
                                  f"{d.col_stride})")
            self.lines.append(f"{pad}{'numpy_gemm' if s.numpy_blas else 'np.dot'}({a}, {b}, {s.out})")
            if d is not None and s.body_only_copies:  # the product went straight into the output
                self.lines.append(f"{pad}if not c_block({d.rows}, {d.cols}, {d.row_stride}, {d.col_stride}):")
                depth += 1
            for inner in s.body:
                self.stmt(inner, depth)
        elif isinstance(s, Store):
            dt = self.prog.buf_dtypes[s.buf]
            src, index = self.ref.get(s.src, s.src), self.ref.get(s.index, s.index)
            value = f"f32_to_f16_bits({src})" if dt.name == "float16" else src
            self.lines.append(f"{pad}b{s.buf}[np.uint64({index})] = {value}")

    def plain_loop(self, loop: Loop, depth: int, rng: str = "") -> None:
        """`for var in rng` (default: the loop's own range) over the loop's body."""
        pad = "    " * depth
        self.dtypes[loop.var] = dtypes.int64
        rng = rng or ("range(start, end)" if loop.parallel else f"range({loop.extent})")
        self.trips[loop.var] = loop.extent
        self.lines.append(f"{pad}for {loop.var} in {rng}:")
        for inner in loop.body:
            self.stmt(inner, depth + 1)
        if not loop.body:
            self.lines.append(f"{pad}    pass")

    def tile_strides(self, loop: Loop) -> list[tuple[str, int]]:
        """[(int param, element size in bytes)] of the strides at which `loop`'s only inner loop reads buffers, when
        the nest may run tiled (see TILE_ROWS): `loop` holds instructions and one innermost loop of instructions and
        stores that renders as a plain loop (no reductions, ranged ops or fission) and stores into no buffer it
        reads, and some load's index is the inner variable times an int param. Else []."""
        inner = [s for s in loop.body if isinstance(s, Loop)]
        if not TILE_ROWS or self.ref or self.trig_small or len(inner) != 1 or loop.blocked or loop.lanes or \
                not all(isinstance(s, (Instr, Loop)) for s in loop.body):
            return []
        m = inner[0]
        if m.blocked or m.lanes or not all(isinstance(s, (Instr, Store)) for s in m.body) or \
                not any(isinstance(s, Store) for s in m.body) or reads_what_it_stores(m.body):
            return []
        if any(isinstance(s, Instr) and ranged_kind(s) for s in m.body) or len(self.fission_stages(m)) > 1:
            return []
        params = set(self.prog.int_params)
        scaled = {s.name: next(x for x in s.srcs if x != m.var) for s in m.body
                  if isinstance(s, Instr) and s.op is Ops.MUL and m.var in s.srcs and len(set(s.srcs) - {m.var}) == 1
                  and set(s.srcs) - {m.var} <= params}
        out = []
        for s in m.body:
            if isinstance(s, Instr) and s.op == "load":
                size = self.prog.buf_dtypes[s.arg].itemsize
                out += [(scaled[n], size) for n in sorted(self.sources(m.body, [s.srcs[0]]) & scaled.keys())]
        return sorted(set(out))

    def tiled_loop(self, loop: Loop, strides: list[tuple[str, int]], depth: int) -> None:
        """Nest `loop` (see `tile_strides`) in tiles of TILE_ROWS x TILE_COLS iterations when a stride it reads its
        inner loop at is a multiple of TILE_ALIAS bytes, else as it is."""
        pad = "    " * depth
        m = next(s for s in loop.body if isinstance(s, Loop))
        lo, hi = ("start", "end") if loop.parallel else ("0", loop.extent)
        test = " or ".join(f"({p} * {size}) % {TILE_ALIAS} == 0" for p, size in strides)
        self.lines += [f"{pad}if {test}:",
                       f"{pad}    for {loop.var}_t in range({lo}, {hi}, {TILE_ROWS}):",
                       f"{pad}        for {m.var}_t in range(0, {m.extent}, {TILE_COLS}):"]
        rows = f"range({loop.var}_t, min({loop.var}_t + {TILE_ROWS}, {hi}))"
        cols = f"range({m.var}_t, min({m.var}_t + {TILE_COLS}, {m.extent}))"
        self.dtypes[loop.var] = self.dtypes[m.var] = dtypes.int64
        self.lines.append(f"{pad}            for {loop.var} in {rows}:")
        for s in loop.body:
            if s is m:
                self.plain_loop(m, depth + 4, cols)
            else:
                self.stmt(s, depth + 4)
        self.lines.append(f"{pad}else:")
        self.plain_loop(loop, depth + 1)

    def operand(self, op: Operand, dt: DType, name: str, depth: int) -> str:
        """Statements that make Gemm operand `op` a 2-D array called `name`."""
        pad = "    " * depth
        if op.fill is None:
            self.lines.append(f"{pad}{name} = mat_c(b{op.buf}, {op.offset}, {op.rows}, {op.cols}, {op.row_stride}, "
                              f"{op.col_stride})")
            return name
        self.lines.append(f"{pad}{name} = np.empty(({op.rows}, {op.cols}), {np_type(dt)})")
        inner = op.fill.body[0]
        assert isinstance(inner, Loop)
        self.dtypes[op.fill.var] = self.dtypes[inner.var] = dtypes.int64
        self.lines += [f"{pad}for {op.fill.var} in range({op.fill.extent}):",
                       f"{pad}    for {inner.var} in range({inner.extent}):"]
        for s in inner.body:
            self.stmt(s, depth + 2)
        self.lines.append(f"{pad}        {name}[{op.fill.var}, {inner.var}] = {op.value}")
        return name

    def lane_loop(self, loop: Loop, depth: int) -> None:
        """`loop` run LANES iterations side by side: its own values live in small arrays (one element per lane), and
        every run of statements, including the innermost bodies of the reductions inside, becomes a loop over the
        lanes, which LLVM vectorises. Each lane still reduces in order, so the result is that of the plain loop."""
        pad, v = "    " * depth, loop.var
        start, stop = ("start", "end") if loop.parallel else ("0", loop.extent)
        self.dtypes[v] = dtypes.int64
        for s in loop.body:
            name = s.name if isinstance(s, Instr) else s.acc if isinstance(s, AccInit) else None
            if name is not None:
                self.ref[name] = f"{name}_l[{v}_l]"
                self.lanes.append(name)
        step = ROW_LANES if _has_blocked(loop.body) else "LANES"
        self.lines += [f"{pad}for {v}_b in range({start}, {stop}, {step}):",
                       f"{pad}    {v}_m = min({step}, {stop} - {v}_b)"]
        self.lane_body(loop.body, v, depth + 1)

    def lane_body(self, stmts: list[Stmt], v: str, depth: int) -> None:
        pad = "    " * depth
        run: list[Stmt] = []
        for s in [*stmts, None]:
            if s is not None and not isinstance(s, Loop):
                run.append(s)
                continue
            if run:
                self.lines += [f"{pad}for {v}_l in range({v}_m):", f"{pad}    {v} = {v}_b + {v}_l"]
                for r in run:
                    self.stmt(r, depth + 1)
                run = []
            if s is not None and (upd := self.blocked_sum(s)) is not None:
                self.lane_blocked(s, upd, v, depth)
            elif s is not None:
                assert isinstance(s, Loop) and not s.parallel
                self.dtypes[s.var] = dtypes.int64
                self.lines.append(f"{pad}for {s.var} in range({s.extent}):")
                self.lane_body(s.body, v, depth + 1)

    def lane_blocked(self, loop: Loop, upd: AccUpdate, v: str, depth: int) -> None:
        """Blocked row-sum `loop` inside lane loop `v` (rows side by side, see `lower.STRIDED_ROW`): a block of
        REDUCE_BLOCK elements of every lane's row is computed into a scratch row per lane, then each lane's block is
        summed as `blocked_loop` sums it (`scratch_sum`: block_sum, or short_sum below SHORT_BLOCK elements), and the
        block sums added in order. So each row gets the bits it gets alone; the loop's other statements run for each
        element in the same order along each row."""
        pad, r = "    " * depth, loop.var
        dt = self.dtypes[upd.acc]
        suffix = "f64" if dt.itemsize == 8 else "f32"
        tmp, seg = f"ltmp_{suffix}", f"{upd.acc}_{r}"
        self.lane_scratch.add(suffix)
        self.dtypes[r] = self.dtypes[f"{r}_b"] = dtypes.int64
        self.dtypes[seg] = dt
        self.ref[seg] = f"{seg}_l[{v}_l]"
        self.lanes.append(seg)
        acc, part = self.ref.get(upd.acc, upd.acc), self.ref[seg]
        self.lines += [f"{pad}for {v}_l in range({v}_m):",
                       f"{pad}    {part} = {render_const(-0.0, dt)}",
                       f"{pad}for {r}_b in range(0, {loop.extent}, REDUCE_BLOCK):",
                       f"{pad}    {r}_m = min(REDUCE_BLOCK, {loop.extent} - {r}_b)",
                       f"{pad}    for {r} in range({r}_b, {r}_b + {r}_m):",
                       f"{pad}        for {v}_l in range({v}_m):",
                       f"{pad}            {v} = {v}_b + {v}_l"]
        for inner in loop.body:
            if inner is not upd:
                self.stmt(inner, depth + 3)
        src = self.ref.get(upd.src, upd.src)
        self.lines += [f"{pad}            {tmp}[np.uint64({v}_l * REDUCE_BLOCK + {r} - {r}_b)] = {src}",
                       f"{pad}    for {v}_l in range({v}_m):",
                       *self.scratch_sum(f"{r}_m", part, dt, tmp, f"{pad}        ", f"{v}_l * REDUCE_BLOCK"),
                       f"{pad}for {v}_l in range({v}_m):",
                       f"{pad}    {acc} = {np_type(dt)}({acc} + {part})"]

    def ranged_checks(self, loop: Loop) -> tuple[list[tuple[str, Ops, str]], set[str]]:
        """((argument, op, "f32"/"f64") of each ranged op in innermost `loop`, the names computing the arguments) when
        the loop runs as a ranged loop (see RANGED): no loops or BLAS calls inside, not inside a lane loop, no argument
        depending on a value the loop updates, and, without sin/cos/tan, a loop that can run twice; else
        ([], set())."""
        if self.ref or self.trig_small or any(isinstance(s, (Loop, Gemm)) for s in loop.body):
            return [], set()
        checks = [(s.srcs[0], s.op, t) for s in loop.body if isinstance(s, Instr) and (t := ranged_kind(s))]
        if checks and not any(op in TRIG for _, op, _ in checks) and not self.can_rerun(loop.body):
            return [], set()
        needed = self.sources(loop.body, [a for a, _, _ in checks])
        if needed & {s.acc for s in loop.body if isinstance(s, AccUpdate)}:
            return [], set()
        return checks, needed

    def minmax_updates(self, loop: Loop) -> list[AccUpdate]:
        """The float32/float64 max/min updates of innermost serial `loop` that `minmax_loop` may render, or []: the
        loop must be able to compute their values again (no store into a buffer it reads, no product it overwrites)
        and no value they depend on may be an accumulator the loop updates."""
        body = loop.body
        if not FAST_MINMAX or loop.parallel or self.ref or self.trig_small or \
                any(isinstance(s, (Loop, Gemm)) for s in body):
            return []
        ups = [s for s in body if isinstance(s, AccUpdate) and s.op in (Ops.MAX, Ops.MIN)
               and self.dtypes[s.acc].name in ("float32", "float64")]
        if not ups or not loads_repeat(body):
            return []
        accs = {s.acc for s in body if isinstance(s, AccUpdate)}
        return [u for u in ups if not self.sources(body, [u.src]) & accs]

    @staticmethod
    def sources(body: list[Stmt], names: list[str]) -> set[str]:
        """`names` and every name they are computed from inside `body` (names read from outside it included)."""
        defs = {s.name: s for s in body if isinstance(s, Instr)}
        needed: set[str] = set()
        stack = list(names)
        while stack:
            n = stack.pop()
            if n not in needed:
                needed.add(n)
                stack.extend(defs[n].srcs if n in defs else ())
        return needed

    def minmax_loop(self, loop: Loop, updates: list[AccUpdate], depth: int) -> None:
        """`loop` with its float max/min `updates` by fmax_fast/fmin_fast (one vmaxps/vminps a vector), noting
        whether an operand was NaN. When one was, that accumulator is computed again from its value before the loop
        by fmaximum/fminimum, with only the instructions its operands need (the loop's stores and other updates do
        not run twice); when it came out as ±0 (whose sign the fast pass leaves arbitrary), a pass of the same
        instructions looks for the zero of the winning sign. So every result is the one fmaximum/fminimum give: NaN
        propagates and -0 < +0. A row max of 1024 float32s in cache ran
        1.4-1.55x faster on AMD Zen 4 (benchmarks/bench_minmax.py)."""
        pad, v = "    " * depth, loop.var
        self.dtypes[v] = dtypes.int64
        self.trips[v] = loop.extent
        for u in updates:
            self.lines += [f"{pad}{u.acc}_in = {u.acc}", f"{pad}{u.acc}_nan = {u.acc} != {u.acc}"]
            self.fast_minmax.add(u.acc)
        self.lines.append(f"{pad}for {v} in range({loop.extent}):")
        for s in loop.body:
            self.stmt(s, depth + 1)
        for u in updates:  # (no lane loop here: names are read as themselves)
            self.lines.append(f"{pad}    {u.acc}_nan = {u.acc}_nan | ({u.src} != {u.src})")
            self.fast_minmax.discard(u.acc)
        for u in updates:
            needed = self.sources(loop.body, [u.src])
            slice_ = [s for s in loop.body if isinstance(s, Instr) and s.name in needed]
            self.lines += [f"{pad}if {u.acc}_nan:",
                           f"{pad}    {u.acc} = {u.acc}_in",
                           f"{pad}    for {v} in range({loop.extent}):"]
            for s in [*slice_, u]:
                self.stmt(s, depth + 2)
            # a zero result: every operand is <= 0 (max) or >= 0 (min), so the exact result is the zero of the sign
            # that wins (+0 for max, -0 for min) if the value before the loop or an operand is that zero, else the
            # other one; one compare a vector finds out
            dt = self.dtypes[u.acc]
            bits = f"np.int{8 * dt.itemsize}"
            win = 0 if u.op is Ops.MAX else -(1 << (8 * dt.itemsize - 1))  # the bits of +0 / -0
            zero, other = ("0.0", "-0.0") if u.op is Ops.MAX else ("-0.0", "0.0")
            self.lines += [f"{pad}elif {u.acc} == 0:",
                           f"{pad}    {u.acc}_z = bitcast({u.acc}_in, {bits}) == {bits}({win})",
                           f"{pad}    for {v} in range({loop.extent}):"]
            for s in slice_:
                self.stmt(s, depth + 2)
            self.lines += [f"{pad}        {u.acc}_z = {u.acc}_z | (bitcast({u.src}, {bits}) == {bits}({win}))",
                           f"{pad}    {u.acc} = {np_type(dt)}({zero} if {u.acc}_z else {other})"]

    @staticmethod
    def can_rerun(body: list[Stmt]) -> bool:
        """Whether a loop with `body` can run twice to the same effect: its loads repeat (`loads_repeat`) and it
        updates no accumulator."""
        return loads_repeat(body) and not any(isinstance(s, AccUpdate) for s in body)

    def ranged_loop(self, loop: Loop, checks: list[tuple[str, Ops, str]], needed: set[str], depth: int) -> None:
        """`loop` in blocks of TRIG_BLOCK: check the ranged arguments of the block (computing the names in `needed`),
        then run it with the small variants when all are in range, else with the full functions.

        A loop that can run twice with the same effect first runs whole with the small variants, noting whether any
        argument was out of range; only then does it run again in checked blocks (or, with no sin/cos/tan, whole with
        the full functions). This saves the checking pass and the blocking in the usual case, where every argument is
        in range (about 20% of a float32 `a*b + c*exp(-d)*sin(a)` loop)."""
        pad, v = "    " * depth, loop.var
        start, stop = ("start", "end") if loop.parallel else ("0", loop.extent)
        self.dtypes[v] = dtypes.int64
        trig = any(op in TRIG for _, op, _ in checks)
        stages = [loop.body] if trig else self.fission_stages(loop)  # a split loop can run twice (ranged_checks)
        if self.can_rerun(loop.body):
            self.lines.append(f"{pad}{v}_any = False")
            self.trig_small = True
            if len(stages) > 1:
                self.fission_loop(loop, stages, depth, checked=True)
            else:
                self.lines.append(f"{pad}for {v} in range({start}, {stop}):")
                for s in loop.body:
                    self.stmt(s, depth + 1)
                for check in checks:
                    self.lines.append(f"{pad}    {v}_any = {v}_any | {ranged_check(*check)}")
            self.trig_small = False
            self.lines.append(f"{pad}if {v}_any:")
            pad, depth = pad + "    ", depth + 1
            if not trig:  # exp, log: the full functions vectorise, so all of it again
                if len(stages) > 1:
                    self.fission_loop(loop, stages, depth)
                    return
                self.lines.append(f"{pad}for {v} in range({start}, {stop}):")
                for s in loop.body:
                    self.stmt(s, depth + 1)
                return
        self.lines += [f"{pad}for {v}_t in range({start}, {stop}, {TRIG_BLOCK}):",
                       f"{pad}    {v}_e = min({v}_t + {TRIG_BLOCK}, {stop})",
                       f"{pad}    {v}_big = False",
                       f"{pad}    for {v} in range({v}_t, {v}_e):"]
        for s in loop.body:
            if isinstance(s, Instr) and s.name in needed:
                self.stmt(s, depth + 2)
        for check in checks:
            self.lines.append(f"{pad}        {v}_big = {v}_big | {ranged_check(*check)}")
        for head, small in ((f"if {v}_big:", False), ("else:", True)):
            self.lines += [f"{pad}    {head}", f"{pad}        for {v} in range({v}_t, {v}_e):"]
            self.trig_small = small
            for s in loop.body:
                self.stmt(s, depth + 3)
        self.trig_small = False

    def fission_stages(self, loop: Loop) -> list[list[Stmt]]:
        """The stages of innermost elementwise `loop` when it is worth splitting (see FISSION_BLOCK), else [body]:
        consecutive runs of its instructions, each Store in the last stage."""
        body = loop.body
        if self.ref or self.trig_small or not all(isinstance(s, (Instr, Store)) for s in body):
            return [body]
        if reads_what_it_stores(body):
            return [body]
        cost = [FISSION_COST.get(s.op, 0) if isinstance(s, Instr) and s.dtype.is_float else 0 for s in body]
        count = min((sum(cost) + FISSION_STAGE_COST // 2) // FISSION_STAGE_COST, sum(c > 0 for c in cost))
        if count < 2:
            return [body]
        stages: list[list[Stmt]] = [[]]
        done, target = 0, sum(cost) / count
        for s, c in zip(body, cost):
            if isinstance(s, Store):
                continue
            stages[-1].append(s)
            done += c
            if done >= target * len(stages) and len(stages) < count:
                stages.append([])
        stages[-1] += [s for s in body if isinstance(s, Store)]
        return [st for st in stages if st]

    @staticmethod
    def fission_plan(loop: Loop, stages: list[list[Stmt]]) -> tuple[list[set[str]], list[set[str]], set[str]]:
        """(names each stage computes again, names each stage reads from scratch, names passed through scratch) for
        `loop` split into `stages`: loads, constants and index arithmetic are computed again where needed, other values
        pass through scratch arrays."""
        defs = {s.name: s for s in loop.body if isinstance(s, Instr)}
        stage_of = {s.name: k for k, st in enumerate(stages) for s in st if isinstance(s, Instr)}

        def cheap(name: str) -> bool:  # computed again in a later stage rather than passed through scratch
            ins = defs[name]
            return ins.op in ("const", "fparam", "load") or (not ins.dtype.is_float and not ins.dtype.is_bool and all(
                src not in defs or cheap(src) for src in ins.srcs))

        redo: list[set[str]] = [set() for _ in stages]  # computed again in stage k
        reads: list[set[str]] = [set() for _ in stages]  # read from scratch in stage k
        for k, st in enumerate(stages):
            stack = [src for s in st for src in ((s.index, s.src) if isinstance(s, Store) else s.srcs)]
            while stack:
                name = stack.pop()
                if name not in defs or stage_of[name] == k or name in redo[k]:
                    continue
                if cheap(name):
                    redo[k].add(name)
                    stack.extend(defs[name].srcs)
                else:
                    reads[k].add(name)
        return redo, reads, set().union(*reads)

    def fission_loop(self, loop: Loop, stages: list[list[Stmt]], depth: int, checked: bool = False) -> None:
        """`loop` in blocks of FISSION_BLOCK, each block running `stages` one after another; `checked`: each stage also
        notes in `<var>_any` whether an argument of its ranged ops is out of range (see `ranged_loop`)."""
        pad, v = "    " * depth, loop.var
        start, stop = ("start", "end") if loop.parallel else ("0", loop.extent)
        self.dtypes[v] = dtypes.int64
        redo, reads, passed = self.fission_plan(loop, stages)
        self.lines += [f"{pad}for {v}_f in range({start}, {stop}, {FISSION_BLOCK}):",
                       f"{pad}    for {v}_q in range(min({FISSION_BLOCK}, {stop} - {v}_f)):",
                       f"{pad}        {v} = {v}_f + {v}_q"]
        inner = pad + "        "
        for k, st in enumerate(stages):
            if k:
                self.lines += [f"{pad}    for {v}_q in range(min({FISSION_BLOCK}, {stop} - {v}_f)):",
                               f"{pad}        {v} = {v}_f + {v}_q"]
            for s in loop.body:  # what this stage reads from earlier stages, in the original order
                if isinstance(s, Instr) and s.name in redo[k]:
                    self.stmt(s, depth + 2)
                elif isinstance(s, Instr) and s.name in reads[k]:
                    self.lines.append(f"{inner}{s.name} = {s.name}_s[{v}_q]")
            for s in st:
                self.stmt(s, depth + 2)
                if isinstance(s, Instr) and s.name in passed:
                    self.lines.append(f"{inner}{s.name}_s[{v}_q] = {s.name}")
            for s in st:
                if checked and isinstance(s, Instr) and (t := ranged_kind(s)):
                    self.lines.append(f"{inner}{v}_any = {v}_any | {ranged_check(s.srcs[0], s.op, t)}")
        self.fission_scratch += [n for n in sorted(passed) if n not in self.fission_scratch]

    def blocked_sum(self, loop: Loop) -> AccUpdate | None:
        """The float32/float64 sum a `blocked` loop accumulates, if that is what it does."""
        if not loop.blocked:
            return None
        for s in loop.body:
            if isinstance(s, AccUpdate) and s.op is Ops.ADD and self.dtypes[s.acc].name in ("float32", "float64"):
                return s
        return None

    def blocked_loop(self, loop: Loop, upd: AccUpdate, depth: int) -> None:
        """A row sum in blocks of REDUCE_BLOCK: each block's values are summed by `block_sum` (one fixed vectorised
        order), the block sums are added in order, then added to the accumulator. The loop runs a chunk of
        ROW_CHUNK elements at a time, then sums the chunk's blocks, so their reduction trees overlap the next
        chunk's arithmetic. The values of a full block are summed where they lie when the loop loads or stores them
        (a spill) at consecutive positions of a buffer, else where the loop put them in a scratch array; a block
        shorter than REDUCE_BLOCK is padded with -0.0 in scratch. The same values in the same order either way, so the
        result does not depend on which. A block of fewer than SHORT_BLOCK elements is summed by `short_sum` instead
        (its own fixed order, chosen by the block's length alone)."""
        pad, v = "    " * depth, loop.var
        dt = self.dtypes[upd.acc]
        suffix = "f64" if dt.itemsize == 8 else "f32"
        tmp = f"tmp_{suffix}"
        self.scratch.add(suffix)
        self.dtypes[v] = dtypes.int64
        seg = f"{upd.acc}_{v}"
        rowwise = self.consecutive(loop, upd)
        body = [x for x in loop.body if x is not upd]
        if LOADED_SUM and rowwise is not None and all(isinstance(x, Instr) and not ranged_kind(x) for x in body):
            self.loaded_sum(loop, upd, rowwise, tmp, depth)
            return
        self.lines += [f"{pad}{seg} = {render_const(-0.0, dt)}",
                       f"{pad}for {v}_b in range(0, {loop.extent}, {ROW_CHUNK}):",
                       f"{pad}    {v}_m = min({ROW_CHUNK}, {loop.extent} - {v}_b)"]
        checks = [(x.srcs[0], x.op, t) for x in body if isinstance(x, Instr) and (t := ranged_kind(x))]
        full = depth + 1  # the depth of the loop over the block's elements with the full functions
        if checks and not self.ref and not self.trig_small and self.can_rerun(body) and \
                all(isinstance(x, (Instr, Store)) and upd.acc not in getattr(x, "srcs", ()) for x in body):
            # the block computed with the small variants, and again with the full functions when an argument was
            # out of range (see RANGED; the block only stores, so running it twice is harmless)
            self.lines += [f"{pad}    {v}_any = False", f"{pad}    for {v} in range({v}_b, {v}_b + {v}_m):"]
            self.trig_small = True
            self.block_body(loop, upd, rowwise is None, tmp, depth + 2)
            self.trig_small = False
            for check in checks:
                self.lines.append(f"{pad}        {v}_any = {v}_any | {ranged_check(*check)}")
            self.lines.append(f"{pad}    if {v}_any:")
            full += 1
        self.lines.append(f"{'    ' * full}for {v} in range({v}_b, {v}_b + {v}_m):")
        self.block_body(loop, upd, rowwise is None, tmp, full + 1)
        # the chunk's blocks in order: full ones summed where they lie (scratch or the buffer), short ones in scratch
        self.dtypes[f"{v}_k"] = dtypes.int64
        self.lines += [f"{pad}    for {v}_k in range({v}_b, {v}_b + {v}_m, REDUCE_BLOCK):",
                       f"{pad}        {v}_km = min(REDUCE_BLOCK, {v}_b + {v}_m - {v}_k)"]
        if rowwise is None:
            self.lines += [f"{pad}        {v}_o = {v}_k - {v}_b",
                           *self.scratch_sum(f"{v}_km", seg, dt, tmp, f"{pad}        ", f"{v}_o")]
        else:
            buf, index = rowwise
            first = self.recompute(index, {v: f"{v}_k"}, "_s", loop, f"{pad}        ")
            self.lines += self.buffer_sum(f"{v}_km", seg, dt, tmp, f"b{buf}", first, f"{pad}        ")
        self.prefetch_next_row(loop, depth + 1)
        self.lines.append(f"{pad}{upd.acc} = {np_type(dt)}({upd.acc} + {seg})")

    @staticmethod
    def padded_sum(m: str, seg: str, dt: DType, tmp: str, pad: str, start: str = "0") -> list[str]:
        """Lines adding the sum of scratch `tmp`[start:start + m] to `seg` by `block_sum`, after padding it with -0.0
        to REDUCE_BLOCK elements."""
        suffix = "f64" if dt.itemsize == 8 else "f32"
        return [f"{pad}for {m}_p in range({start} + {m}, {start} + REDUCE_BLOCK):",
                f"{pad}    {tmp}[np.uint64({m}_p)] = {render_const(-0.0, dt)}",
                f"{pad}{seg} = {np_type(dt)}({seg} + block_sum_{suffix}({tmp}, {start}))"]

    def scratch_sum(self, m: str, seg: str, dt: DType, tmp: str, pad: str, start: str = "0") -> list[str]:
        """Lines adding the sum of scratch `tmp`[start:start + m] (a block of `m` elements, `start` a multiple of
        REDUCE_BLOCK) to `seg`: by `short_sum` below SHORT_BLOCK elements, else by `padded_sum`."""
        return [f"{pad}if {m} < {SHORT_BLOCK}:",
                f"{pad}    {seg} = {np_type(dt)}({seg} + short_sum({tmp}, {start}, {m}))",
                f"{pad}else:", *self.padded_sum(m, seg, dt, tmp, f"{pad}    ", start)]

    def buffer_sum(self, m: str, seg: str, dt: DType, tmp: str, buf: str, first: str, pad: str) -> list[str]:
        """Lines adding the sum of the block buf[first:first + m] (at most REDUCE_BLOCK elements) to `seg`: a full
        block by `block_sum` and one shorter than SHORT_BLOCK by `short_sum` where it lies, else copied to scratch
        `tmp` and padded (`padded_sum`); each in the same order as from scratch."""
        suffix = "f64" if dt.itemsize == 8 else "f32"
        return [f"{pad}if {m} == REDUCE_BLOCK:",
                f"{pad}    {seg} = {np_type(dt)}({seg} + block_sum_{suffix}({buf}, {first}))",
                f"{pad}elif {m} < {SHORT_BLOCK}:",
                f"{pad}    {seg} = {np_type(dt)}({seg} + short_sum({buf}, {first}, {m}))",
                f"{pad}else:",
                f"{pad}    for {m}_c in range({m}):",
                f"{pad}        {tmp}[np.uint64({m}_c)] = {buf}[np.uint64({first} + {m}_c)]",
                *self.padded_sum(m, seg, dt, tmp, f"{pad}    ")]

    def loaded_sum(self, loop: Loop, upd: AccUpdate, rowwise: tuple[int, str], tmp: str, depth: int) -> None:
        """`blocked_loop` for a row sum of values loaded from consecutive positions of a buffer, in a loop that computes
        nothing else (no stores, no other sums): the full blocks are summed where they lie, in a loop of their own,
        then the last block: where it lies when shorter than SHORT_BLOCK (`short_sum` reads from any position), else
        from scratch. The same block sums in the same order as `blocked_loop` adds them, so the same result; the loop
        over full blocks is only the block sums (no per-block length and branch, no element loop), which lets the CPU
        keep more of the row's loads in flight: a read-only sum of 2**24 float32s (64 rows, 2 threads) 1.07-1.13x
        faster, rows of 10 float64s 1.2-1.45x (benchmarks/bench_rowsum.py)."""
        pad, v = "    " * depth, loop.var
        dt = self.dtypes[upd.acc]
        suffix = "f64" if dt.itemsize == 8 else "f32"
        seg = f"{upd.acc}_{v}"
        buf, index = rowwise
        self.dtypes[f"{v}_b"] = dtypes.int64
        self.lines += [f"{pad}{seg} = {render_const(-0.0, dt)}",
                       f"{pad}{v}_m = REDUCE_BLOCK",
                       f"{pad}{v}_f = np.int64({loop.extent} - ({loop.extent}) % REDUCE_BLOCK)",
                       f"{pad}for {v}_b in range(0, {v}_f, REDUCE_BLOCK):"]
        first = self.recompute(index, {v: f"{v}_b"}, "_s", loop, f"{pad}    ")
        self.lines.append(f"{pad}    {seg} = {np_type(dt)}({seg} + block_sum_{suffix}(b{buf}, {first}))")
        self.prefetch_next_row(loop, depth + 1)
        self.lines += [f"{pad}if {v}_f < {loop.extent}:",
                       f"{pad}    {v}_b = {v}_f",
                       f"{pad}    {v}_m = np.int64({loop.extent} - {v}_f)"]
        first = self.recompute(index, {v: f"{v}_b"}, "_s", loop, f"{pad}    ")
        self.lines += self.buffer_sum(f"{v}_m", seg, dt, tmp, f"b{buf}", first, f"{pad}    ")
        self.prefetch_next_row(loop, depth + 1)
        self.lines.append(f"{pad}{upd.acc} = {np_type(dt)}({upd.acc} + {seg})")

    def block_body(self, loop: Loop, upd: AccUpdate, to_scratch: bool, tmp: str, depth: int) -> None:
        """The body of a blocked loop (`blocked_loop`) at `depth`: its statements but the sum's update, which copies
        the summed value to scratch `tmp` when `to_scratch`."""
        v = loop.var
        for inner in loop.body:
            if inner is not upd:
                self.stmt(inner, depth)
            elif to_scratch:
                self.lines.append(f"{'    ' * depth}{tmp}[np.uint64({v} - {v}_b)] = {upd.src}")

    def consecutive(self, loop: Loop, upd: AccUpdate) -> tuple[int, str] | None:
        """(buffer slot, name of the position of the block's first element, rendered here) when blocked `loop` sums
        values it loads from, or stores into, consecutive positions of a buffer of the sum's dtype (a position
        `base + var` with `base` the same along the loop); else None. A load counts only in a loop that stores
        nothing (a store could change what the buffer holds before the block is summed)."""
        v, dt = loop.var, self.dtypes[upd.acc]
        stores = [s for s in loop.body if isinstance(s, Store)]
        found: tuple[int, str] | None = None
        for s in loop.body:
            if isinstance(s, Store) and s.src == upd.src:
                found = (s.buf, s.index)
            elif isinstance(s, Instr) and s.name == upd.src and s.op == "load" and len(s.srcs) == 1 and not stores:
                found = (s.arg, s.srcs[0])
        if found is None or self.prog.buf_dtypes[found[0]] != dt:
            return None
        index = self.defs.get(found[1])
        if index is None or index.op is not Ops.ADD or v not in index.srcs:
            return None
        base = index.srcs[1] if index.srcs[0] == v else index.srcs[0]
        if base == v or self.cone(base, {v}) != []:
            return None
        return found

    def recompute(self, name: str, rename: dict[str, str], suffix: str, loop: Loop, pad: str) -> str:
        """Render again the instructions computing `name` from the names in `rename` (loop variables -> other names),
        and those `loop`'s body computes, as new names ending in `suffix`; returns the new name of `name`. `rename`
        gets the new names too."""
        inside = {s.name for s in loop.body if isinstance(s, Instr)}
        for ins in self.cone(name, set(rename), inside) or []:
            if ins.name not in rename:
                rename[ins.name] = f"{ins.name}{suffix}"
                ren = Instr(rename[ins.name], ins.op, ins.dtype, tuple(rename.get(x, x) for x in ins.srcs), ins.arg)
                self.lines.append(f"{pad}{rename[ins.name]} = {self.instr(ren)}")
        return rename.get(name, name)

    def prefetch_next_row(self, loop: Loop, depth: int) -> None:
        """After each block of a blocked loop, prefetch what the same block of the next row will load (the loads'
        positions computed again with `loop.ahead` + 1), one per cache line, when rows are short (PREFETCH_ROW_MAX) and
        many (PREFETCH_MIN elements in all: fewer stay in cache, where prefetching only costs time).
        The hardware prefetcher does not follow a stream into a new page, so each new row would otherwise start with
        misses; here the next row arrives while this one computes. Loads whose position depends on another load
        (gathers), masked loads and loads that are the same in every row are left alone."""
        if not loop.ahead:
            return
        v, ahead = loop.var, loop.ahead
        rename = {v: f"{v}_q", ahead: f"{ahead}_n"}
        self.dtypes[rename[v]] = self.dtypes[rename[ahead]] = dtypes.int64
        lines: list[str] = []
        targets: set[tuple[int, str]] = set()
        itemsize = 1
        for s in loop.body:
            if not (isinstance(s, Instr) and s.op == "load" and len(s.srcs) == 1):
                continue
            cone = self.cone(s.srcs[0], {v, ahead})
            if cone is None or ahead not in {s.srcs[0], *(x for ins in cone for x in ins.srcs)}:
                continue
            saved, self.lines = self.lines, lines
            target = (s.arg, self.recompute(s.srcs[0], rename, "_pf", loop, ""))
            self.lines = saved
            if target not in targets:
                targets.add(target)
                lines.append(f"prefetch(b{target[0]}, {target[1]})")
                itemsize = max(itemsize, 2 if self.prog.buf_dtypes[s.arg].name == "float16"
                               else self.prog.buf_dtypes[s.arg].itemsize)
        if not targets:
            return
        pad = "    " * depth
        rows = self.trips.get(ahead, "PREFETCH_MIN")
        self.lines += [f"{pad}if {loop.extent} <= PREFETCH_ROW_MAX and {loop.extent} * {rows} >= PREFETCH_MIN:",
                       f"{pad}    {rename[ahead]} = np.int64({ahead} + 1)",
                       f"{pad}    for {rename[v]} in range({v}_b, {v}_b + {v}_m, {max(1, 64 // itemsize)}):"]
        self.lines += [f"{pad}        {line}" for line in lines]

    def cone(self, name: str, roots: set[str], inside: frozenset[str] | set[str] = frozenset()) -> list[Instr] | None:
        """The instructions (in dependency order) by which `name` depends on the loop variables `roots`, and those
        among `inside` (names a loop defines) that it reads; None when its computation reads memory (a load)."""
        out: list[Instr] = []
        memo: dict[str, bool] = {}

        def visit(n: str) -> bool:
            if n in roots:
                return True
            if n not in self.defs:
                return False
            if n not in memo:
                ins = self.defs[n]
                if ins.op == "load":
                    raise LookupError(n)
                memo[n] = any([visit(x) for x in ins.srcs])
                if memo[n] or n in inside:
                    out.append(ins)
            return memo[n]

        try:
            visit(name)
        except LookupError:
            return None
        return out

    def render(self, name: str) -> str:
        p = self.prog
        params = [f"b{i}" for i in range(len(p.buf_dtypes))] + (["start", "end"] if p.parallel else []) + p.int_params
        sig_parts = [array_type(dt) for dt in p.buf_dtypes] + ["types.int64"] * (len(params) - len(p.buf_dtypes))
        params += p.float_params
        sig_parts += ["types.float64"] * len(p.float_params)
        head = [
            "import math",
            "import numpy as np",
            "from numba import njit, types",
            "from lazyarr.kernels.numba_support import (LANES, REDUCE_BLOCK, bitcast, block_sum_f32, "
            "block_sum_f64, short_sum, "
            "PREFETCH_MIN, PREFETCH_ROW_MAX, c_block, f16_bits_to_f32, f32_to_f16_bits, fmax, fmax_fast, fmaximum, "
            "fmin, fmin_fast, idiv, "
            "f16_to_f64, f64_to_f32_odd, fminimum, ipow, mat_c, numpy_gemm, out_block, prefetch, round_f16, select, "
            "shl, shr, "
            "stack_empty)",
            f"from lazyarr.kernels.transcendental import {', '.join(TRANSCENDENTAL_IMPORTS)}",
            "",
            f"SIGNATURE = types.void({', '.join(sig_parts)})",
            *(["# large output: render_llvm's build streams its stores (Program.stream)"] if p.stream else []),
            *([f"# render_llvm's build prefers {p.vector_width}-bit vectors"] if p.vector_width else []),
            "",
            "",
            '@njit(SIGNATURE, nogil=True, cache=True, error_model="numpy", boundscheck=False)',
            f"def {name}({', '.join(params)}):",
        ]
        for name_ in p.int_params:
            self.dtypes[name_] = dtypes.int64
        for name_ in p.float_params:
            self.dtypes[name_] = dtypes.float64
        for s in p.body:
            self.stmt(s, 1)
        if not p.body:
            self.lines.append("    pass")
        # block-sum scratch by np.empty: on the stack (stack_empty) LLVM compiled the row sums 2-2.5x slower, so such
        # kernels stay Numba-only (not native.py-loadable); lane scratch is on the stack (no allocation per launch)
        scratch = [f"    tmp_{t} = np.empty({ROW_CHUNK}, np.float{t[1:]})" for t in sorted(self.scratch)]
        scratch += [f"    ltmp_{t} = np.empty({ROW_LANES} * REDUCE_BLOCK, np.float{t[1:]})"
                    for t in sorted(self.lane_scratch)]
        scratch += [f"    {n}_l = stack_empty(LANES, {np_type(self.dtypes[n])})" for n in self.lanes]
        scratch += [f"    {n}_s = stack_empty({FISSION_BLOCK}, {np_type(self.dtypes[n])})"
                    for n in self.fission_scratch]
        return "\n".join(head + scratch + self.lines) + "\n"


def scan_minmax(op: Ops, dt: DType, acc: str, x: str) -> str:
    """A scan step of float max/min as NumPy's accumulate takes it (see `AccUpdate`): NaN propagates; on a tie
    float16 keeps `acc`, float32/float64 take `x`."""
    cmp = (">" if op is Ops.MAX else "<") + ("=" if dt.name == "float16" else "")
    return f"{acc} if ({acc} {cmp} {x} or {acc} != {acc}) else {x}"


def loads_repeat(body: list[Stmt]) -> bool:
    """Whether a loop with `body` finds the same values when it runs again: it stores into no buffer it reads, and
    into no product it reads (a `gemm_load`: the product may be written straight into the output block,
    `Gemm.dest`, that the loop then overwrites)."""
    gemm_store = any(isinstance(s, Store) for s in body) and \
        any(isinstance(s, Instr) and s.op == "gemm_load" for s in body)
    return not reads_what_it_stores(body) and not gemm_store


def _has_blocked(stmts: list[Stmt]) -> bool:
    """Whether `stmts` hold a `blocked` loop, at any depth."""
    return any(isinstance(s, Loop) and (s.blocked or _has_blocked(s.body)) for s in stmts)


def reads_what_it_stores(body: list[Stmt]) -> bool:
    """Whether a loop body loads from a buffer it stores to (then its loads and stores must stay in order)."""
    stored = {s.buf for s in body if isinstance(s, Store)}
    return any(isinstance(s, Instr) and s.op == "load" and s.arg in stored for s in body)


def _instrs(stmts: list[Stmt]) -> list[Instr]:
    """Every Instr in `stmts`, inside loops and BLAS calls too."""
    out: list[Instr] = []
    for s in stmts:
        if isinstance(s, Instr):
            out.append(s)
        elif isinstance(s, Loop):
            out += _instrs(s.body)
        elif isinstance(s, Gemm):
            for op in (s.a, s.b):
                if op.fill is not None:
                    out += _instrs([op.fill])
            out += _instrs(s.body)
    return out


def _identity(op: Ops, dt: DType) -> object:
    # -0.0 is the exact identity of float addition (0.0 + -0.0 would give 0.0)
    return {Ops.ADD: -0.0 if dt.is_float else 0, Ops.MUL: 1, Ops.MAX: dtypes.min_value(dt),
            Ops.MIN: dtypes.max_value(dt)}[op]


def hoist_index_math(body: list[Stmt], stored: set[int] | None = None) -> list[Stmt]:
    """`body` with the integer and bool instructions of each innermost plain loop that do not change with it (the
    load of a gather's index at the outer position, and the arithmetic on it) moved to just before the loop.

    Numba emits no alias information, so LLVM cannot prove a store into the output leaves an index buffer alone: it
    loads the index again on every iteration, and then cannot tell that the gathered row is read at consecutive
    addresses, so the loop is not vectorised. Only loads from buffers the kernel never stores into move, and only out
    of loops that run plain (not `lanes` or `blocked`, whose bodies the renderer rewrites); values are unchanged."""
    if stored is None:
        stored = _stored_buffers(body)
    out: list[Stmt] = []
    for st in body:
        if isinstance(st, Loop):
            st = dataclasses.replace(st, body=hoist_index_math(st.body, stored))
            if not (st.lanes or st.blocked) and not any(isinstance(s, Loop) for s in st.body):
                changing, kept = {st.var}, []
                for s in st.body:
                    if isinstance(s, Instr) and not s.dtype.is_float and s.op != "gemm_load" and \
                            not (s.op == "load" and s.arg in stored) and changing.isdisjoint(s.srcs):
                        out.append(s)
                    else:
                        kept.append(s)
                        if isinstance(s, Instr):
                            changing.add(s.name)
                        elif isinstance(s, AccInit):
                            changing.add(s.acc)
                st.body = kept
        out.append(st)
    return out


def _stored_buffers(stmts: list[Stmt]) -> set[int]:
    """The buffers `stmts` store into, inside loops and BLAS calls too (a product written straight into its output
    block included)."""
    out: set[int] = set()
    for s in stmts:
        if isinstance(s, Store):
            out.add(s.buf)
        elif isinstance(s, Loop):
            out |= _stored_buffers(s.body)
        elif isinstance(s, Gemm):
            out |= _stored_buffers(s.body) | ({s.dest.buf} if s.dest is not None else set())
    return out


def render(prog: Program, name: str) -> str:
    """Python source of a module defining the njit kernel `name` (and its `SIGNATURE`)."""
    return _Renderer(dataclasses.replace(prog, body=hoist_index_math(prog.body))).render(name)
