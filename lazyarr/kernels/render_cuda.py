"""CUDA renderer: a lowered `Program` in, the CUDA C source of a `cupy.RawKernel` (and how to launch it) out.

The Program is the one the Numba renderer prints. Its outer loops (a perfect nest) are flattened into one `row`
index that a grid-stride loop walks; everything inside the innermost outer loop is one row's work. An elementwise
kernel gets one thread per row (`blockDim.x` threads per block). A kernel with reduction loops gets `blockDim.x`
lanes per row (1, 32 = one warp, or a multiple of 32 = one block) and `blockDim.y` rows per block: the lanes split
every loop of the row between them, and after a loop each accumulator it updated is combined across the lanes with
warp shuffles (and shared memory across warps), so that every lane holds the row's result.

Semantics follow the CPU renderer: integers wrap (arithmetic in unsigned types), `//` and `%` floor like NumPy, max
and min propagate NaN, float16 is stored as uint16 bits and computed in float with a rounding after every op, and
constants are exact (hex floats; no INFINITY/NAN macros, which NVRTC lacks). Transcendentals use CUDA's math
functions (expf, sinf, ...). Indices are `int` unless a buffer or the loop space is near 2**31 (`wide`). Float
constants lifted to params by lowering (`Program.float_params`) arrive as `double`s after the int params, and are read
back in their own type (exact: the value is one of that type's).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.kernels.lower import AccInit, AccUpdate, Instr, Loop, Program, Stmt, Store

# Options our kernels need besides CuPy's RawKernel defaults: no FMA contraction, so + - * / round like the CPU.
NVRTC_OPTIONS: tuple[str, ...] = ("--fmad=false",)
WIDE_LIMIT = 2**30  # indices are 64-bit when any size, extent or index argument reaches this
ELEMENTWISE_BLOCK = 256
MAX_THREADS = 1024

C_TYPE = {"bool": "bool", "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
          "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
          "uint64": "unsigned long long", "float16": "float", "float32": "float", "float64": "double"}
# integer arithmetic happens in these (C's promotion), wrapping in the unsigned counterpart
_PROMOTED = {"int8": "int", "int16": "int", "int32": "int", "uint8": "int", "uint16": "int", "uint32": "unsigned int",
             "int64": "long long", "uint64": "unsigned long long", "bool": "int"}
_UNSIGNED = {"int": "unsigned int", "unsigned int": "unsigned int", "long long": "unsigned long long",
             "unsigned long long": "unsigned long long"}


def reg_type(dt: DType) -> str:
    """C type of a value of dtype `dt` in registers (float16 values live in floats)."""
    return C_TYPE[dt.name]


def buf_type(dt: DType) -> str:
    """C element type of a buffer of dtype `dt` (float16 as its uint16 bit pattern, like the CPU kernels)."""
    return "unsigned short" if dt.name == "float16" else C_TYPE[dt.name]


def _fn(dt: DType, name: str) -> str:
    return name if dt.name == "float64" else f"{name}f"


def render_const(value: object, dt: DType) -> str:
    """An exact C literal of `value` as dtype `dt` (float16 constants are float32 values, as on the CPU)."""
    if dt.is_bool:
        return "true" if value else "false"
    if dt.is_float:
        v = float(value)  # type: ignore[arg-type]
        double = dt.name == "float64"
        if math.isnan(v):  # its sign kept, as the CPU renderer keeps it (0/0 folded is x86's -nan)
            neg = math.copysign(1.0, v) < 0
            if double:
                return f"__longlong_as_double(0x{'f' if neg else '7'}ff8000000000000LL)"
            return f"__int_as_float(0x{'f' if neg else '7'}fc00000)"
        if math.isinf(v):
            inf = "__longlong_as_double(0x7ff0000000000000LL)" if double else "__int_as_float(0x7f800000)"
            return inf if v > 0 else f"(-{inf})"
        if not double:
            v = float(np.float32(v))
        suffix = "" if double else "f"
        if v == int(v) and abs(v) < 2**24 and not (v == 0 and math.copysign(1, v) < 0):
            return f"{int(v)}.0{suffix}"
        return f"{v.hex()}{suffix}"
    v = int(value)  # type: ignore[call-overload]
    if dt.name == "int64":
        return "(-9223372036854775807LL - 1)" if v == -(2**63) else f"{v}LL"
    if dt.name == "uint64":
        return f"{v}ULL"
    return f"(({C_TYPE[dt.name]}){v})"


def identity(op: Ops, dt: DType) -> object:
    """The starting value of an accumulator of `op`."""
    return {Ops.ADD: 0, Ops.MUL: 1, Ops.MAX: dtypes.min_value(dt), Ops.MIN: dtypes.max_value(dt)}[op]


# ---- helpers every kernel carries (templates and overloads cost nothing unless used) ----


def _int_helpers() -> str:
    out = []
    for p in ("int", "long long", "unsigned int", "unsigned long long"):
        u = _UNSIGNED[p]
        signed = not p.startswith("unsigned")
        if signed:
            out.append(f"""__device__ __forceinline__ {p} lz_idiv({p} a, {p} b) {{
    if (b == 0) return 0;
    if (b == -1) return ({p})(({u})0 - ({u})a);
    {p} q = a / b;
    return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}}
__device__ __forceinline__ {p} lz_mod({p} a, {p} b) {{
    if (b == 0 || b == -1) return 0;
    {p} r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}}
__device__ __forceinline__ {p} lz_shl({p} a, {p} b, int bits) {{
    return (b >= 0 && b < bits) ? ({p})(({u})a << b) : 0;
}}
__device__ __forceinline__ {p} lz_shr({p} a, {p} b, int bits) {{
    return (b >= 0 && b < bits) ? (a >> b) : (a < 0 ? -1 : 0);
}}
__device__ __forceinline__ {p} lz_ipow({p} a, {p} b) {{
    if (b < 0) return a == 1 ? a : (a == -1 ? ((b & 1) ? a : ({p})(({u})0 - ({u})a)) : 0);
    {u} r = 1, base = ({u})a;
    while (b) {{
        if (b & 1) r *= base;
        base *= base;
        b >>= 1;
    }}
    return ({p})r;
}}""")
        else:
            out.append(f"""__device__ __forceinline__ {p} lz_idiv({p} a, {p} b) {{ return b == 0 ? 0 : a / b; }}
__device__ __forceinline__ {p} lz_mod({p} a, {p} b) {{ return b == 0 ? 0 : a % b; }}
__device__ __forceinline__ {p} lz_shl({p} a, {p} b, int bits) {{ return b < ({p})bits ? a << b : 0; }}
__device__ __forceinline__ {p} lz_shr({p} a, {p} b, int bits) {{ return b < ({p})bits ? a >> b : 0; }}
__device__ __forceinline__ {p} lz_ipow({p} a, {p} b) {{
    {p} r = 1;
    while (b) {{
        if (b & 1) r *= a;
        a *= a;
        b >>= 1;
    }}
    return r;
}}""")
    return "\n".join(out)


def _float_helpers() -> str:
    out = []
    for t, sfx in (("float", "f"), ("double", "")):
        out.append(f"""// NumPy's floor_divide and remainder (npy_divmod): the quotient snapped to an integer, the
// remainder with the divisor's sign; x // 0 is x / 0 and x % 0 is NaN
__device__ __forceinline__ {t} lz_floordiv({t} a, {t} b) {{
    if (b == 0) return a / b;
    {t} mod = fmod{sfx}(a, b);
    {t} div = (a - mod) / b;
    if (mod != 0) {{
        if ((b < 0) != (mod < 0)) div -= 1;
    }}
    if (div != 0) {{
        {t} fl = floor{sfx}(div);
        if (div - fl > ({t})0.5) fl += 1;
        return fl;
    }}
    return copysign{sfx}(({t})0, a / b);
}}
__device__ __forceinline__ {t} lz_remainder({t} a, {t} b) {{
    {t} mod = fmod{sfx}(a, b);
    if (b == 0) return mod;
    if (mod != 0) {{
        if ((b < 0) != (mod < 0)) mod += b;
    }} else {{
        mod = copysign{sfx}(({t})0, b);
    }}
    return mod;
}}""")
    return "\n".join(out)


def _shuffle_helpers() -> str:
    out = []
    for t in ("int", "unsigned int", "long long", "unsigned long long", "float", "double"):
        out.append(f"__device__ __forceinline__ {t} lz_shfl_xor({t} v, int m) "
                   "{ return __shfl_xor_sync(0xffffffffu, v, m); }")
    for t in ("bool", "signed char", "short", "unsigned char", "unsigned short"):
        out.append(f"__device__ __forceinline__ {t} lz_shfl_xor({t} v, int m) "
                   f"{{ return ({t})__shfl_xor_sync(0xffffffffu, (int)v, m); }}")
    return "\n".join(out)


PRELUDE = f"""// generated by lazyarr (render_cuda.py)
// float16 <-> float: the hardware conversions on a GPU, the same rounding in plain C elsewhere (the CPU emulator)
__device__ __forceinline__ float lz_h2f(unsigned short h) {{
#ifdef __CUDA_ARCH__
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    unsigned int sign = (unsigned int)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1fu) return __uint_as_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {{
        float mag = (float)man * 5.9604644775390625e-08f;
        return sign ? -mag : mag;
    }}
    return __uint_as_float(sign | ((exp + 112u) << 23) | (man << 13));
#endif
}}
__device__ __forceinline__ unsigned short lz_f2h(float f) {{
#ifdef __CUDA_ARCH__
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    unsigned int x = __float_as_uint(f);
    unsigned int sign = (x >> 16) & 0x8000u, man = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xffu);
    if (exp == 0xff) return (unsigned short)(sign | 0x7c00u | (man ? 0x200u : 0u));
    int e = exp - 127 + 15;
    if (e >= 0x1f) return (unsigned short)(sign | 0x7c00u);
    if (e <= 0) {{
        if (e < -10) return (unsigned short)sign;
        man |= 0x800000u;
        unsigned int shift = (unsigned int)(14 - e), half = 1u << (shift - 1u), rest = man & ((1u << shift) - 1u);
        unsigned int out = man >> shift;
        if (rest > half || (rest == half && (out & 1u))) out += 1u;
        return (unsigned short)(sign | out);
    }}
    unsigned int out = ((unsigned int)e << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (out & 1u))) out += 1u;
    return (unsigned short)(sign | out);
#endif
}}
// a float rounded to the nearest float16 value
__device__ __forceinline__ float lz_rh(float f) {{ return lz_h2f(lz_f2h(f)); }}
// a double as float rounded to odd (an inexact result is the neighbour of d with an odd last bit): rounded on to
// float16 it gives float16(d) rounded once, where (float)d could round twice (float keeps 24 bits, more than 11 + 2)
__device__ __forceinline__ float lz_d2f_odd(double d) {{
    float f = (float)d;
    if ((double)f != d && d == d) {{
        unsigned int x = __float_as_uint(f);
        // the other neighbour, one unit of the magnitude toward d (inf: float's max)
        if (!(x & 1u)) x = fabs((double)f) > fabs(d) ? x - 1u : x + 1u;
        f = __uint_as_float(x);
    }}
    return f;
}}
// np.maximum / np.minimum: NaN wins
template <class T> __device__ __forceinline__ T lz_max(T a, T b) {{ return (a > b || a != a) ? a : b; }}
template <class T> __device__ __forceinline__ T lz_min(T a, T b) {{ return (a < b || a != a) ? a : b; }}
{_int_helpers()}
{_float_helpers()}
{_shuffle_helpers()}
// `v` combined over the blockDim.x lanes of a row (1, 32, or a multiple of 32); every lane gets the result.
// `smem` holds 32 slots of 8 bytes; the barriers are reached by the whole block (blockDim.x > 32: one row per block).
template <class T, class F>
__device__ __forceinline__ T lz_allreduce(T v, F f, unsigned long long* smem) {{
    if (blockDim.x == 1) return v;
    for (int m = 16; m > 0; m >>= 1) v = f(v, lz_shfl_xor(v, m));
    if (blockDim.x <= 32) return v;
    T* slots = reinterpret_cast<T*>(smem);
    __syncthreads();
    if ((threadIdx.x & 31u) == 0) slots[threadIdx.x >> 5] = v;
    __syncthreads();
    v = slots[0];
    for (unsigned int w = 1; w < (blockDim.x >> 5); ++w) v = f(v, slots[w]);
    return v;
}}
"""


@dataclass(frozen=True)
class CudaKernel:
    """Rendered CUDA C plus what the runtime needs to launch it.

    `row_extents` / `reduce_extents` name the int params (or literals) whose products are the number of rows and the
    iterations of the first reduction loop nest (empty: an elementwise kernel). `reduce_contiguous` says whether that
    loop walks some buffer with unit stride (a row reduction: lanes read adjacent elements).
    """

    name: str
    source: str
    buf_dtypes: tuple[DType, ...]
    int_params: tuple[str, ...]
    row_extents: tuple[str, ...]
    reduce_extents: tuple[str, ...]
    reduce_contiguous: bool
    wide: bool
    split_accs: int = 0  # >0: the kernel takes (ws, count) workspace args and its rows may span gridDim.y blocks
    float_params: tuple[str, ...] = ()  # `double` params after the int params (before any workspace args)

    @property
    def has_reduce(self) -> bool:
        return bool(self.reduce_extents)


def needs_wide(work: int, buffer_sizes: tuple[int, ...] | list[int], int_args: list[int]) -> bool:
    """Whether a kernel over `work` loop iterations and these buffers/args needs 64-bit indices."""
    return max([work, *buffer_sizes, *(abs(a) for a in int_args), 0]) >= WIDE_LIMIT


def _outer_chain(prog: Program) -> tuple[list[Loop], list[Stmt]]:
    """The perfect nest of outer loops and the statements of one row (inside the innermost of them)."""
    loops: list[Loop] = []
    stmts = prog.body
    while len(stmts) == 1 and isinstance(stmts[0], Loop):
        loops.append(stmts[0])
        stmts = stmts[0].body
    return loops, stmts


def _perfect_nest(loop: Loop) -> tuple[list[Loop], list[Stmt]]:
    nest = [loop]
    while len(nest[-1].body) == 1 and isinstance(nest[-1].body[0], Loop):
        nest.append(nest[-1].body[0])  # type: ignore[arg-type]
    return nest, nest[-1].body


def _walk(stmts: list[Stmt]) -> list[Stmt]:
    out: list[Stmt] = []
    for s in stmts:
        out.append(s)
        if isinstance(s, Loop):
            out.extend(_walk(s.body))
    return out


class _Renderer:
    def __init__(self, prog: Program, name: str, wide: bool) -> None:
        self.prog, self.name, self.wide = prog, name, wide
        self.idx = "long long" if wide else "int"
        self.dtypes: dict[str, DType] = {}
        self.index_names: set[str] = set()  # loop indices, int params and int64 arithmetic on them only
        self.lines: list[str] = []
        self.outer, self.row_stmts = _outer_chain(prog)
        # a scan's loop runs in one thread per row, in order, as an elementwise kernel's row does
        self.has_reduce = any(isinstance(s, Loop) and not s.scan for s in self.row_stmts)
        # one reduction loop and nothing looped after it: a row may be split over several blocks (gridDim.y)
        loops = [s for s in self.row_stmts if isinstance(s, Loop) and not s.scan]
        inside = _walk(loops[0].body) if len(loops) == 1 else []
        self.split_accs = list(dict.fromkeys(s.acc for s in inside if isinstance(s, AccUpdate)))
        if any(isinstance(s, Store) for s in inside):
            self.split_accs = []
        stored = {s.buf for s in _walk(prog.body) if isinstance(s, Store)}
        self.stored = stored

    # ---- expressions ----
    def ctype(self, name: str) -> str:
        return self.idx if name in self.index_names else reg_type(self.dtypes[name])

    def binary(self, op: Ops, dt: DType, a: str, b: str, index: bool = False) -> str:
        """`a op b` for operands of dtype `dt`, with the CPU renderer's result (wrapping ints, rounded float16)."""
        expr = self.alu(op, dt, [a, b], index)
        return f"lz_rh({expr})" if dt.name == "float16" and op not in GroupOp.Comparison else expr

    def alu(self, op: Ops, dt: DType, s: list[str], index: bool = False) -> str:
        """The expression of ALU `op` on operands `s` of dtype `dt` (before float16 rounding)."""
        if op is Ops.WHERE:
            return f"({s[0]} ? {s[1]} : {s[2]})"
        if op in GroupOp.Comparison:
            sym = {Ops.CMPLT: "<", Ops.CMPLE: "<=", Ops.CMPEQ: "==", Ops.CMPNE: "!="}[op]
            return f"({s[0]} {sym} {s[1]})"
        if dt.is_bool:
            return self.bool_alu(op, s)
        if dt.is_float:
            return self.float_alu(op, dt, s)
        return self.index_alu(op, s) if index else self.int_alu(op, dt, s)

    def bool_alu(self, op: Ops, s: list[str]) -> str:
        table = {Ops.NEG: "(!{0})", Ops.NOT: "(!{0})", Ops.ABS: "{0}", Ops.ADD: "({0} | {1})", Ops.OR: "({0} | {1})",
                 Ops.MAX: "({0} | {1})", Ops.SUB: "({0} ^ {1})", Ops.XOR: "({0} ^ {1})", Ops.MUL: "({0} & {1})",
                 Ops.AND: "({0} & {1})", Ops.MIN: "({0} & {1})"}
        if op not in table:
            raise NotImplementedError(f"{op.name} on bool in the CUDA renderer")
        return f"(bool){table[op].format(*s)}"

    def float_alu(self, op: Ops, dt: DType, s: list[str]) -> str:
        unary = {Ops.SQRT: "sqrt", Ops.EXP: "exp", Ops.EXP2: "exp2", Ops.LOG: "log", Ops.LOG2: "log2",
                 Ops.LOG1P: "log1p", Ops.EXPM1: "expm1", Ops.SIN: "sin", Ops.COS: "cos", Ops.TAN: "tan",
                 Ops.TANH: "tanh", Ops.ERF: "erf", Ops.FLOOR: "floor", Ops.CEIL: "ceil", Ops.TRUNC: "trunc",
                 Ops.RINT: "rint", Ops.ABS: "fabs"}
        if op in unary:
            return f"{_fn(dt, unary[op])}({s[0]})"
        one = render_const(1.0, dt)
        table: dict[Ops, Callable[[list[str]], str]] = {
            Ops.NEG: lambda s: f"(-{s[0]})",
            Ops.RECIPROCAL: lambda s: f"({one} / {s[0]})",
            Ops.ADD: lambda s: f"({s[0]} + {s[1]})",
            Ops.SUB: lambda s: f"({s[0]} - {s[1]})",
            Ops.MUL: lambda s: f"({s[0]} * {s[1]})",
            Ops.DIV: lambda s: f"({s[0]} / {s[1]})",
            Ops.IDIV: lambda s: f"lz_floordiv({s[0]}, {s[1]})",
            Ops.MOD: lambda s: f"lz_remainder({s[0]}, {s[1]})",
            Ops.MAX: lambda s: f"lz_max({s[0]}, {s[1]})",
            Ops.MIN: lambda s: f"lz_min({s[0]}, {s[1]})",
            Ops.POW: lambda s: f"{_fn(dt, 'pow')}({s[0]}, {s[1]})",
        }
        if op not in table:
            raise NotImplementedError(f"{op.name} on {dt.name} in the CUDA renderer")
        return table[op](s)

    def int_alu(self, op: Ops, dt: DType, s: list[str]) -> str:
        t, p = C_TYPE[dt.name], _PROMOTED[dt.name]
        u = _UNSIGNED[p]
        w = [f"({u}){x}" for x in s]
        c = [f"({p}){x}" for x in s]
        table: dict[Ops, Callable[[], str]] = {
            Ops.ADD: lambda: f"({t})({w[0]} + {w[1]})",
            Ops.SUB: lambda: f"({t})({w[0]} - {w[1]})",
            Ops.MUL: lambda: f"({t})({w[0]} * {w[1]})",
            Ops.NEG: lambda: f"({t})(({u})0 - {w[0]})",
            Ops.ABS: lambda: s[0] if dt.is_unsigned else f"({s[0]} < 0 ? ({t})(({u})0 - {w[0]}) : {s[0]})",
            Ops.NOT: lambda: f"({t})(~{s[0]})",
            Ops.AND: lambda: f"({t})({s[0]} & {s[1]})",
            Ops.OR: lambda: f"({t})({s[0]} | {s[1]})",
            Ops.XOR: lambda: f"({t})({s[0]} ^ {s[1]})",
            Ops.IDIV: lambda: f"({t})lz_idiv({c[0]}, {c[1]})",
            Ops.MOD: lambda: f"({t})lz_mod({c[0]}, {c[1]})",
            Ops.MAX: lambda: f"lz_max({s[0]}, {s[1]})",
            Ops.MIN: lambda: f"lz_min({s[0]}, {s[1]})",
            Ops.POW: lambda: f"({t})lz_ipow({c[0]}, {c[1]})",
            Ops.SHL: lambda: f"({t})lz_shl({c[0]}, {c[1]}, {dt.bits})",
            Ops.SHR: lambda: f"({t})lz_shr({c[0]}, {c[1]}, {dt.bits})",
        }
        if op not in table:
            raise NotImplementedError(f"{op.name} on {dt.name} in the CUDA renderer")
        return table[op]()

    def index_alu(self, op: Ops, s: list[str]) -> str:
        """Index arithmetic: small enough never to wrap, so plain C (floor division kept for negative strides)."""
        table = {Ops.ADD: "({0} + {1})", Ops.SUB: "({0} - {1})", Ops.MUL: "({0} * {1})", Ops.NEG: "(-{0})",
                 Ops.IDIV: "lz_idiv({0}, {1})", Ops.MOD: "lz_mod({0}, {1})", Ops.MAX: "lz_max({0}, {1})",
                 Ops.MIN: "lz_min({0}, {1})"}
        return table[op].format(*s)

    def cast(self, src: str, src_dt: DType, dt: DType) -> str:
        if dt.is_bool:
            return src if src_dt.is_bool else f"({src} != 0)"
        if dt.name == "float16":  # from float64 through float rounded to odd: rounded once, as NumPy
            return f"lz_rh(lz_d2f_odd({src}))" if src_dt.name == "float64" else f"lz_rh((float){src})"
        return f"({C_TYPE[dt.name]}){src}"

    def bitcast(self, src: str, src_dt: DType, dt: DType) -> str:
        if src_dt.itemsize != dt.itemsize or src_dt.is_bool or dt.is_bool:
            raise NotImplementedError(f"bitcast {src_dt.name} -> {dt.name}")
        t = C_TYPE[dt.name]
        if src_dt.is_float == dt.is_float:
            return f"({t}){src}" if not dt.is_float else src
        if src_dt.is_float:  # float bits -> integer
            bits = {2: f"lz_f2h({src})", 4: f"__float_as_int({src})", 8: f"__double_as_longlong({src})"}
            return f"({t}){bits[dt.itemsize]}"
        value = {2: f"lz_h2f((unsigned short){src})", 4: f"__int_as_float((int){src})",
                 8: f"__longlong_as_double((long long){src})"}
        return value[dt.itemsize]

    def instr(self, ins: Instr) -> str:
        if ins.op == "const":
            return render_const(ins.arg, ins.dtype)
        if ins.op == "fparam":  # a double param holding a value of ins.dtype: the conversion is exact
            return ins.arg if ins.dtype.name == "float64" else f"({reg_type(ins.dtype)}){ins.arg}"
        if ins.op == "load":
            load = f"b{ins.arg}[{ins.srcs[0]}]"
            if ins.dtype.name == "float16":
                load = f"lz_h2f({load})"
            if len(ins.srcs) == 2:  # masked: never touch memory outside the valid region
                return f"({ins.srcs[1]} ? {load} : {render_const(0, ins.dtype)})"
            return load
        if ins.op == "cast":
            return self.cast(ins.srcs[0], self.dtypes[ins.srcs[0]], ins.dtype)
        if ins.op == "bitcast":
            return self.bitcast(ins.srcs[0], self.dtypes[ins.srcs[0]], ins.dtype)
        if not isinstance(ins.op, Ops):
            raise NotImplementedError(f"instruction {ins.op!r} in the CUDA renderer")
        operand_dt = self.dtypes[ins.srcs[-1]]
        is_index = ins.name in self.index_names
        if ins.op in GroupOp.Binary:
            return self.binary(ins.op, operand_dt, ins.srcs[0], ins.srcs[1], is_index)
        expr = self.alu(ins.op, operand_dt, list(ins.srcs), is_index)
        return f"lz_rh({expr})" if ins.dtype.name == "float16" else expr

    def classify(self, ins: Instr) -> None:
        self.dtypes[ins.name] = ins.dtype
        if (isinstance(ins.op, Ops) and ins.dtype.name == "int64" and ins.srcs
                and ins.op in {Ops.ADD, Ops.SUB, Ops.MUL, Ops.NEG, Ops.IDIV, Ops.MOD, Ops.MAX, Ops.MIN}
                and all(s in self.index_names for s in ins.srcs)):
            self.index_names.add(ins.name)

    def index_var(self, name: str) -> None:
        self.index_names.add(name)
        self.dtypes[name] = dtypes.int64

    # ---- statements ----
    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)

    def stmts(self, stmts: list[Stmt], depth: int, in_loop: bool) -> None:
        for s in stmts:
            if isinstance(s, Instr):
                self.classify(s)
                self.emit(f"const {self.ctype(s.name)} {s.name} = {self.instr(s)};", depth)
            elif isinstance(s, AccInit):
                self.dtypes[s.acc] = s.dtype
                self.emit(f"{reg_type(s.dtype)} {s.acc} = {render_const(identity(s.op, s.dtype), s.dtype)};", depth)
            elif isinstance(s, AccUpdate) and s.scan and self.dtypes[s.acc].is_float and s.op in (Ops.MAX, Ops.MIN):
                # NumPy's accumulate on a tie (see lower.AccUpdate): float16 keeps the running value, others take src
                cmp = (">" if s.op is Ops.MAX else "<") + ("=" if self.dtypes[s.acc].name == "float16" else "")
                self.emit(f"{s.acc} = ({s.acc} {cmp} {s.src} || {s.acc} != {s.acc}) ? {s.acc} : {s.src};", depth)
            elif isinstance(s, AccUpdate):
                self.emit(f"{s.acc} = {self.binary(s.op, self.dtypes[s.acc], s.acc, s.src)};", depth)
            elif isinstance(s, Store):
                dt = self.prog.buf_dtypes[s.buf]
                value = f"lz_f2h({s.src})" if dt.name == "float16" else s.src
                guard = "if (threadIdx.x == 0) " if self.has_reduce and not in_loop else ""
                self.emit(f"{guard}b{s.buf}[{s.index}] = {value};", depth)
            elif isinstance(s, Loop):
                if in_loop or s.scan:
                    self.index_var(s.var)
                    self.emit(f"for ({self.idx} {s.var} = 0; {s.var} < {s.extent}; ++{s.var}) {{", depth)
                    self.stmts(s.body, depth + 1, True)
                    self.emit("}", depth)
                else:
                    self.split_loop(s, depth)

    def split_loop(self, loop: Loop, depth: int) -> None:
        """A loop of the row, its iterations dealt out to the lanes; then its accumulators combined across lanes."""
        nest, body = _perfect_nest(loop)
        for lp in nest:
            self.index_var(lp.var)
        if len(nest) == 1:
            v = loop.var
            self.emit(f"for ({self.idx} {v} = lane; {v} < {loop.extent}; {v} += lanes) {{", depth)
        else:
            flat = f"{loop.var}_flat"
            total = " * ".join(lp.extent for lp in nest)
            self.emit(f"for ({self.idx} {flat} = lane; {flat} < {total}; {flat} += lanes) {{", depth)
            rest = flat
            for k in range(len(nest) - 1, 0, -1):
                self.emit(f"const {self.idx} {nest[k].var} = {rest} % {nest[k].extent};", depth + 1)
                nxt = f"{loop.var}_q{k}"
                self.emit(f"const {self.idx} {nxt} = {rest} / {nest[k].extent};", depth + 1)
                rest = nxt
            self.emit(f"const {self.idx} {loop.var} = {rest};", depth + 1)
        self.stmts(body, depth + 1, True)
        self.emit("}", depth)
        updated: dict[str, Ops] = {}
        for s in _walk(body):
            if isinstance(s, AccUpdate):
                updated.setdefault(s.acc, s.op)
        for acc, op in updated.items():
            dt = self.dtypes[acc]
            t = reg_type(dt)
            combine = self.binary(op, dt, "x", "y")
            self.emit(f"const auto {acc}_f = [](const {t} x, const {t} y) -> {t} {{ return {combine}; }};", depth)
            self.emit(f"{acc} = lz_allreduce({acc}, {acc}_f, lz_smem);", depth)
        if self.split_accs:
            self.cross_block(depth)

    def cross_block(self, depth: int) -> None:
        """Blocks that share a row publish their partial results; the last to finish combines them in block order
        (the same result whatever order the blocks ran in) and goes on with the row, the others skip it."""
        n = len(self.split_accs)
        self.emit("if (gridDim.y > 1) {", depth)
        d = depth + 1
        self.emit("if (threadIdx.x == 0) {", d)
        for k, acc in enumerate(self.split_accs):
            t = reg_type(self.dtypes[acc])
            self.emit(f"reinterpret_cast<{t}*>(lz_ws + (row * {n} + {k}) * gridDim.y)[blockIdx.y] = {acc};", d + 1)
        self.emit("__threadfence();", d + 1)
        self.emit("lz_last = atomicAdd(&lz_count[row], 1u) == gridDim.y - 1u;", d + 1)
        self.emit("}", d)
        self.emit("__syncthreads();", d)
        self.emit("const bool last = lz_last;", d)
        self.emit("__syncthreads();", d)
        self.emit("if (!last) continue;", d)
        self.emit("__threadfence();", d)
        for k, acc in enumerate(self.split_accs):
            t = reg_type(self.dtypes[acc])
            # volatile: read from L2, where the other blocks' fenced writes are, not from a stale L1 line
            self.emit(f"const volatile {t}* {acc}_parts = "
                      f"reinterpret_cast<const volatile {t}*>(lz_ws + (row * {n} + {k}) * gridDim.y);", d)
            self.emit(f"{acc} = {acc}_parts[0];", d)
            self.emit(f"for (unsigned int p = 1; p < gridDim.y; ++p) {acc} = {acc}_f({acc}, {acc}_parts[p]);", d)
        self.emit("if (threadIdx.x == 0) lz_count[row] = 0;  // ready for the next launch", d)
        self.emit("}", depth)

    def render(self) -> str:
        p = self.prog
        for name in p.int_params:
            self.index_var(name)
        params = []
        for i, dt in enumerate(p.buf_dtypes):
            const = "" if i in self.stored else "const "
            params.append(f"{const}{buf_type(dt)}* __restrict__ b{i}")
        params += [f"const {self.idx} {name}" for name in p.int_params]
        params += [f"const double {name}" for name in p.float_params]
        if self.split_accs:
            params += ["unsigned long long* __restrict__ lz_ws", "unsigned int* __restrict__ lz_count"]
        bound = MAX_THREADS if self.has_reduce else ELEMENTWISE_BLOCK
        head = f'extern "C" __global__ void __launch_bounds__({bound}) {self.name}({", ".join(params)}) {{'
        rows = " * ".join(lp.extent for lp in self.outer) or "1"
        idx = self.idx
        if self.has_reduce:
            self.emit("__shared__ unsigned long long lz_smem[32];", 1)
            if self.split_accs:
                self.emit("__shared__ bool lz_last;", 1)
                self.emit(f"const {idx} lane = ({idx})blockIdx.y * ({idx})blockDim.x + ({idx})threadIdx.x;", 1)
                self.emit(f"const {idx} lanes = ({idx})gridDim.y * ({idx})blockDim.x;", 1)
            else:
                self.emit(f"const {idx} lane = ({idx})threadIdx.x, lanes = ({idx})blockDim.x;", 1)
            self.emit(f"const {idx} rows = {rows};", 1)
            start = f"({idx})blockIdx.x * ({idx})blockDim.y + ({idx})threadIdx.y"
            step = f"({idx})gridDim.x * ({idx})blockDim.y"
        else:
            self.emit(f"const {idx} rows = {rows};", 1)
            start = f"({idx})blockIdx.x * ({idx})blockDim.x + ({idx})threadIdx.x"
            step = f"({idx})gridDim.x * ({idx})blockDim.x"
        self.emit(f"for ({idx} row = {start}; row < rows; row += {step}) {{", 1)
        rest = "row"
        for k in range(len(self.outer) - 1, -1, -1):
            lp = self.outer[k]
            self.index_var(lp.var)
            if k == 0:
                self.emit(f"const {idx} {lp.var} = {rest};", 2)
            else:
                self.emit(f"const {idx} {lp.var} = {rest} % {lp.extent};", 2)
                self.emit(f"const {idx} row_q{k} = {rest} / {lp.extent};", 2)
                rest = f"row_q{k}"
        self.stmts(self.row_stmts, 2, False)
        self.emit("}", 1)
        return PRELUDE + "\n" + head + "\n" + "\n".join(self.lines) + "\n}\n"


def _reduce_info(prog: Program, row_stmts: list[Stmt]) -> tuple[tuple[str, ...], bool]:
    loops = [s for s in row_stmts if isinstance(s, Loop) and not s.scan]
    if not loops:
        return (), False
    nest, _ = _perfect_nest(loops[0])
    inner = nest[-1].var
    # unit stride: the loop index is a term of some load or store position as it is (not multiplied by a stride)
    contiguous = False
    for s in _walk(prog.body):
        if isinstance(s, Instr) and ((s.op is Ops.ADD and inner in s.srcs) or (s.op == "load" and s.srcs[0] == inner)):
            contiguous = True
        if isinstance(s, Store) and s.index == inner:
            contiguous = True
    return tuple(lp.extent for lp in nest), contiguous


def render(prog: Program, name: str = "kernel", wide: bool = False) -> CudaKernel:
    """CUDA C for `prog` as `extern "C" __global__ void name(...)`: buffers b0.., the int params (as `int`, or
    `long long` when `wide`), then the float params (as `double`)."""
    r = _Renderer(prog, name, wide)
    source = r.render()
    reduce_extents, contiguous = _reduce_info(prog, r.row_stmts)
    return CudaKernel(name, source, tuple(prog.buf_dtypes), tuple(prog.int_params),
                      tuple(lp.extent for lp in r.outer), reduce_extents, contiguous, wide, len(r.split_accs),
                      tuple(prog.float_params))
