"""Rewrite tables over value graphs: constant folding, algebraic simplification, zero-size folding, and the
movement push-down that leaves movement ops only on leaves, reductions and materialised nodes.
"""

from __future__ import annotations

import math
from typing import Any

from lazyarr import dtypes
from lazyarr.graph.ops import GroupOp, Ops, exec_alu
from lazyarr.graph.pattern import PatternMatcher, UPat
from lazyarr.graph.uop import UOp


def const_value(u: UOp) -> Any | None:
    """The value of a uniform constant (a CONST under movement ops without padding), else None."""
    while u.op in GroupOp.Movement and u.op is not Ops.PAD:
        u = u.src[0]
    return u.arg if u.op is Ops.CONST else None


def _fold_alu(x: UOp) -> UOp | None:
    values = [const_value(s) for s in x.src]
    if any(v is None for v in values):
        return None
    return UOp.const(exec_alu(x.op, x.dtype, tuple(values)), x.dtype, x.shape)


def _fold_cast(x: UOp) -> UOp | None:
    v = const_value(x.src[0])
    if v is None or x.op is not Ops.CAST:
        return None
    if x.dtype.is_int and isinstance(v, float):
        v = dtypes.float_to_int(v, x.dtype)  # NumPy's result, NaN and out of range included, as the kernels give it
    return UOp.const(v, x.dtype, x.shape)


def _is(u: UOp, value: Any) -> bool:
    v = const_value(u)
    return v is not None and not isinstance(v, bool) and v == value


def _is_zero(u: UOp, sign: float) -> bool:
    """`u` is a zero that adding (sign -1.0: -0.0) or subtracting (sign 1.0: +0.0) leaves every value as it is: for a
    float only that signed zero (-0.0 + 0.0 is +0.0, so x + 0.0 is not x), for an integer any zero."""
    v = const_value(u)
    return _is(u, 0) and (not isinstance(v, float) or math.copysign(1.0, v) == sign)


def _zero_size(x: UOp) -> UOp | None:
    if x.op in GroupOp.Leaf or x.op in (Ops.ASSIGN, Ops.CONTIGUOUS, Ops.COPY) or 0 not in x.shape:
        return None
    return UOp.const(0, x.dtype, x.shape)


def _reduce_identity(op: Ops, dtype: dtypes.DType) -> Any:
    # a float sum's is -0.0, as the kernels' accumulators: the exact identity (np.sum(empty, initial=-0.0) is -0.0)
    return {Ops.ADD: -0.0 if dtype.is_float else 0, Ops.MUL: 1, Ops.MAX: dtypes.min_value(dtype),
            Ops.MIN: dtypes.max_value(dtype)}[op]


def _simplify_reduce(x: UOp) -> UOp | None:
    src = x.src[0]
    if src.size == 0:  # reducing nothing gives the identity (sum 0, prod 1, max -inf)
        return UOp.const(_reduce_identity(x.arg.op, x.dtype), x.dtype, x.shape)
    if all(src.shape[a] == 1 for a in x.arg.axes):
        return src  # reducing only size-1 axes changes nothing
    return None


# folding and algebraic identities: each rule `before -> after`
symbolic = PatternMatcher([
    (UPat(Ops.DETACH, src=(UPat.var("x"),)), lambda x: x),  # detach(x) -> x (it only matters to autograd)
    (UPat(GroupOp.ALU, name="x"), _fold_alu),  # op(const, const) -> const
    (UPat(Ops.CAST, name="x"), _fold_cast),  # cast(const) -> const
    # 0-size -> const
    (UPat(GroupOp.ALU | GroupOp.Movement | {Ops.CAST, Ops.REDUCE, Ops.SCAN, Ops.BITCAST, Ops.GATHER}, name="x"),
     _zero_size),
    (UPat(Ops.REDUCE, name="x"), _simplify_reduce),  # reduce(empty) -> identity, reduce over 1s -> x
    # x+(-0) -> x (not x+0.0: -0.0 + 0.0 is +0.0)
    (UPat(Ops.ADD, src=(UPat.var("x"), UPat.var("c")), commutative=True),
     lambda x, c: x if _is_zero(c, -1.0) else None),
    (UPat(Ops.SUB, src=(UPat.var("x"), UPat.var("c"))), lambda x, c: x if _is_zero(c, 1.0) else None),  # x-0 -> x
    (UPat(Ops.MUL, src=(UPat.var("x"), UPat.var("c")), commutative=True),
     lambda x, c: x if _is(c, 1) else None),  # x*1 -> x
    (UPat(Ops.DIV, src=(UPat.var("x"), UPat.var("c"))), lambda x, c: x if _is(c, 1) else None),  # x/1 -> x
    (UPat(Ops.NEG, src=(UPat(Ops.NEG, src=(UPat.var("x"),)),)), lambda x: x),  # --x -> x
    (UPat(Ops.CAST, src=(UPat.var("x"),), name="c"),
     lambda c, x: x if c.dtype is x.dtype else None),  # cast(x, same) -> x
    (UPat(Ops.WHERE, src=(UPat.var("c"), UPat.var("a"), UPat.var("b"))),
     lambda c, a, b: a if a is b else None),  # where(c,a,a) -> a
])


# ---- movement push-down: MOVE(elementwise(a, b)) -> elementwise(MOVE(a), MOVE(b)) ----


def _apply_movement(mv: UOp, x: UOp) -> UOp:
    return UOp(mv.op, x.dtype, (x,), mv.arg)


def _push_through(mv: UOp, x: UOp) -> UOp | None:
    if mv.op is Ops.PAD:
        # padding reads 0, and f(0) need not be 0: select 0 outside the valid region explicitly
        valid = UOp.const(True, dtypes.bool_, x.shape).pad(mv.arg)
        inner = UOp(x.op, x.dtype, tuple(_apply_movement(mv, s) for s in x.src), x.arg)
        return UOp(Ops.WHERE, x.dtype, (valid, inner, UOp.const(0, x.dtype, mv.shape)))
    return UOp(x.op, x.dtype, tuple(_apply_movement(mv, s) for s in x.src), x.arg)


def _pad_of_const(mv: UOp, c: UOp) -> UOp | None:
    # padding a uniform +0 with zeros is still a uniform 0 (-0.0 is not: the padding would be +0.0)
    v = const_value(c)
    if v is None or v != 0 or (isinstance(v, float) and math.copysign(1.0, v) < 0):
        return None
    return UOp.const(0, mv.dtype, mv.shape)


pushdown = PatternMatcher([
    # MOVE(f(a)) -> f(MOVE(a))
    (UPat(GroupOp.Movement, name="mv", src=(UPat(GroupOp.Elementwise, name="x"),)), _push_through),
    (UPat(Ops.PAD, name="mv", src=(UPat(GroupOp.Movement | {Ops.CONST}, name="c"),)), _pad_of_const),  # pad(0) -> 0
])
