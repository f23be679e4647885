"""Numba renderer: a lowered `Program` in, the Python source of an `@numba.njit` kernel out.

Buffers arrive as 1-D C-contiguous arrays (float16 as uint16 bits); integer params as int64. A parallel kernel takes
(start, end) of its first loop first, so the runtime can run chunks of it on several threads (the GIL is released).
Every op is one entry of `ALU_RENDER`; integer results are cast back to their dtype, so they wrap like NumPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from lazyarr import dtypes
from lazyarr.dtypes import DType
from lazyarr.graph.ops import Ops
from lazyarr.kernels.lower import AccInit, AccUpdate, Instr, Loop, Program, Stmt, Store

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
        text = "np.nan" if math.isnan(v) else ("np.inf" if v > 0 else "-np.inf") if math.isinf(v) else repr(v)
        return f"{np_type(dt)}({text})"
    return f"{np_type(dt)}({int(value)})"  # type: ignore[call-overload]


def _unary(fmt: str) -> Callable[[DType, list[str]], str]:
    return lambda dt, s: fmt.format(*s)


# op -> (dtype of the operands, operand names) -> expression; results are then cast to the op's dtype
ALU_RENDER: dict[Ops, Callable[[DType, list[str]], str]] = {
    Ops.NEG: lambda dt, s: f"not {s[0]}" if dt.is_bool else f"-{s[0]}",
    Ops.ABS: lambda dt, s: s[0] if dt.is_bool or dt.is_unsigned else f"abs({s[0]})",
    Ops.SQRT: _unary("np.sqrt({0})"),
    Ops.RECIPROCAL: lambda dt, s: f"{render_const(1.0, dt)} / {s[0]}",
    Ops.EXP: _unary("np.exp({0})"),
    Ops.EXP2: _unary("np.exp2({0})"),
    Ops.LOG: _unary("np.log({0})"),
    Ops.LOG2: _unary("np.log2({0})"),
    Ops.LOG1P: _unary("np.log1p({0})"),
    Ops.EXPM1: _unary("np.expm1({0})"),
    Ops.SIN: _unary("np.sin({0})"),
    Ops.COS: _unary("np.cos({0})"),
    Ops.TAN: _unary("np.tan({0})"),
    Ops.TANH: _unary("np.tanh({0})"),
    Ops.ERF: _unary("math.erf({0})"),
    Ops.FLOOR: _unary("np.floor({0})"),
    Ops.CEIL: _unary("np.ceil({0})"),
    Ops.TRUNC: _unary("np.trunc({0})"),
    Ops.RINT: _unary("np.rint({0})"),
    Ops.NOT: lambda dt, s: f"not {s[0]}" if dt.is_bool else f"~{s[0]}",
    Ops.ADD: lambda dt, s: f"{s[0]} | {s[1]}" if dt.is_bool else f"{s[0]} + {s[1]}",
    Ops.SUB: lambda dt, s: f"{s[0]} ^ {s[1]}" if dt.is_bool else f"{s[0]} - {s[1]}",
    Ops.MUL: lambda dt, s: f"{s[0]} & {s[1]}" if dt.is_bool else f"{s[0]} * {s[1]}",
    Ops.DIV: lambda dt, s: f"{s[0]} / {s[1]}",
    # x // -1 is -x (wrapping for the minimum): Numba's own int64 floor division gives 0 there
    Ops.IDIV: lambda dt, s: f"-{s[0]} if {s[1]} == -1 else {s[0]} // {s[1]}" if dt.kind == "i" else f"{s[0]} // {s[1]}",
    Ops.MOD: lambda dt, s: f"{s[0]} % {s[1]}",
    Ops.MAX: lambda dt, s: f"fmax({s[0]}, {s[1]})" if dt.is_float else f"max({s[0]}, {s[1]})",
    Ops.MIN: lambda dt, s: f"fmin({s[0]}, {s[1]})" if dt.is_float else f"min({s[0]}, {s[1]})",
    Ops.POW: lambda dt, s: f"{s[0]} ** {s[1]}" if dt.is_float else f"ipow({s[0]}, {s[1]})",
    Ops.CMPLT: lambda dt, s: f"{s[0]} < {s[1]}",
    Ops.CMPLE: lambda dt, s: f"{s[0]} <= {s[1]}",
    Ops.CMPEQ: lambda dt, s: f"{s[0]} == {s[1]}",
    Ops.CMPNE: lambda dt, s: f"{s[0]} != {s[1]}",
    Ops.AND: lambda dt, s: f"{s[0]} & {s[1]}",
    Ops.OR: lambda dt, s: f"{s[0]} | {s[1]}",
    Ops.XOR: lambda dt, s: f"{s[0]} ^ {s[1]}",
    Ops.SHL: lambda dt, s: f"shl({s[0]}, {s[1]}, {dt.bits})",
    Ops.SHR: lambda dt, s: f"shr({s[0]}, {s[1]}, {dt.bits})",
    Ops.WHERE: lambda dt, s: f"{s[1]} if {s[0]} else {s[2]}",
}


class _Renderer:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.dtypes: dict[str, DType] = {}
        self.lines: list[str] = []

    def cast(self, expr: str, dt: DType) -> str:
        if dt.name == "float16":
            return f"round_f16(np.float32({expr}))"
        return f"{np_type(dt)}({expr})"

    def instr(self, ins: Instr) -> str:
        self.dtypes[ins.name] = ins.dtype
        if ins.op == "const":
            return render_const(ins.arg, ins.dtype)
        if ins.op == "load":
            buf = f"b{ins.arg}"
            load = f"{buf}[np.uint64({ins.srcs[0]})]"
            if ins.dtype.name == "float16":
                load = f"f16_bits_to_f32({load})"
            if len(ins.srcs) == 2:  # masked: never touch memory outside the valid region
                return f"{load} if {ins.srcs[1]} else {render_const(0, ins.dtype)}"
            return load
        if ins.op == "cast":
            src_dt = self.dtypes[ins.srcs[0]]
            if ins.dtype.is_bool and not src_dt.is_bool:
                return f"{ins.srcs[0]} != 0"
            return self.cast(ins.srcs[0], ins.dtype)
        if ins.op == "bitcast":
            src_dt = self.dtypes[ins.srcs[0]]
            if src_dt.itemsize != ins.dtype.itemsize or "float16" in (src_dt.name, ins.dtype.name) or src_dt.is_bool:
                raise NotImplementedError(f"bitcast {src_dt.name} -> {ins.dtype.name} on CPU")
            return f"bitcast({ins.srcs[0]}, {np_type(ins.dtype)})"
        assert isinstance(ins.op, Ops)
        operand_dt = self.dtypes[ins.srcs[-1]]
        expr = ALU_RENDER[ins.op](operand_dt, list(ins.srcs))
        if ins.dtype.is_bool:
            return expr
        return self.cast(expr, ins.dtype)

    def stmt(self, s: Stmt, depth: int) -> None:
        pad = "    " * depth
        if isinstance(s, Instr):
            self.lines.append(f"{pad}{s.name} = {self.instr(s)}")
        elif isinstance(s, Loop):
            self.dtypes[s.var] = dtypes.int64
            rng = "range(start, end)" if s.parallel else f"range({s.extent})"
            self.lines.append(f"{pad}for {s.var} in {rng}:")
            for inner in s.body:
                self.stmt(inner, depth + 1)
            if not s.body:
                self.lines.append(f"{pad}    pass")
        elif isinstance(s, AccInit):
            self.dtypes[s.acc] = s.dtype
            self.lines.append(f"{pad}{s.acc} = {render_const(_identity(s.op, s.dtype), s.dtype)}")
        elif isinstance(s, AccUpdate):
            dt = self.dtypes[s.acc]
            expr = ALU_RENDER[s.op](dt, [s.acc, s.src])
            self.lines.append(f"{pad}{s.acc} = {expr if dt.is_bool else self.cast(expr, dt)}")
        elif isinstance(s, Store):
            dt = self.prog.buf_dtypes[s.buf]
            value = f"f32_to_f16_bits({s.src})" if dt.name == "float16" else s.src
            self.lines.append(f"{pad}b{s.buf}[np.uint64({s.index})] = {value}")

    def render(self, name: str) -> str:
        p = self.prog
        params = [f"b{i}" for i in range(len(p.buf_dtypes))] + (["start", "end"] if p.parallel else []) + p.int_params
        sig_parts = [array_type(dt) for dt in p.buf_dtypes] + ["types.int64"] * (len(params) - len(p.buf_dtypes))
        head = [
            "import math",
            "import numpy as np",
            "from numba import njit, types",
            "from lazyarr.kernels.numba_support import bitcast, f16_bits_to_f32, f32_to_f16_bits, fmax, fmin, ipow, "
            "round_f16, shl, shr",
            "",
            f"SIGNATURE = types.void({', '.join(sig_parts)})",
            "",
            "",
            '@njit(SIGNATURE, nogil=True, cache=True, error_model="numpy", boundscheck=False)',
            f"def {name}({', '.join(params)}):",
        ]
        for name_ in p.int_params:
            self.dtypes[name_] = dtypes.int64
        for s in p.body:
            self.stmt(s, 1)
        if not p.body:
            self.lines.append("    pass")
        return "\n".join(head + self.lines) + "\n"


def _identity(op: Ops, dt: DType) -> object:
    return {Ops.ADD: 0, Ops.MUL: 1, Ops.MAX: dtypes.min_value(dt), Ops.MIN: dtypes.max_value(dt)}[op]


def render(prog: Program, name: str) -> str:
    """Python source of a module defining the njit kernel `name` (and its `SIGNATURE`)."""
    return _Renderer(prog).render(name)
