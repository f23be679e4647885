"""The graph verifier: checks dtype and shape invariants of every node (switched on by LAZYARR_VERIFY=1, as in
tests)."""

from __future__ import annotations

from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.uop import UOp


class GraphError(AssertionError):
    """A malformed UOp graph: a bug in lazyarr, never the user's fault."""


def verify_graph(root: UOp) -> None:
    """Raise GraphError naming the first node that breaks an invariant."""
    for u in root.toposort():
        problem = _check(u)
        if problem:
            raise GraphError(f"{u.op.name} {u.dtype.name}{list(u.shape)}: {problem}")


def _check(u: UOp) -> str | None:
    if u.op in GroupOp.ALU:
        operands = u.src[1:] if u.op is Ops.WHERE else u.src
        if any(s.dtype is not operands[0].dtype for s in operands):
            return f"operand dtypes differ: {[s.dtype.name for s in operands]}"
        if any(s.shape != u.shape for s in u.src):
            return "operand shapes differ"
        if u.op is Ops.WHERE and not u.src[0].dtype.is_bool:
            return "condition is not bool"
        if u.op in GroupOp.Comparison and not u.dtype.is_bool:
            return "comparison does not produce bool"
        if u.op in GroupOp.FloatOnly and not operands[0].dtype.is_float:
            return "float-only op on non-float operands"
        if u.op in GroupOp.IntOnly and operands[0].dtype.is_float:
            return "integer-only op on float operands"
        if u.op not in GroupOp.Comparison and u.dtype is not operands[0].dtype:
            return "result dtype differs from operands"
    if u.op is Ops.SCAN and (u.arg.op not in GroupOp.Reducible or not 0 <= u.arg.axis < u.ndim):
        return f"{u.arg.op.name} along axis {u.arg.axis} is not a scan"
    if u.op is Ops.REDUCE and u.arg.op not in GroupOp.Reducible:
        return f"{u.arg.op.name} is not a reduction op"
    if u.op in GroupOp.Movement and u.dtype is not u.src[0].dtype:
        return "movement op changes dtype"
    if u.op is Ops.ASSIGN:
        target, value = u.src
        if target.shape != value.shape or target.dtype is not value.dtype:
            return (f"target {target.dtype.name}{list(target.shape)} and value "
                    f"{value.dtype.name}{list(value.shape)} differ")
        if any(s == 0 for s in target.shape):
            return "zero-size target (a write of nothing must not reach the scheduler)"
    if u.op is Ops.IOTA and not u.dtype.is_int:
        return "IOTA must be an integer"
    return None
