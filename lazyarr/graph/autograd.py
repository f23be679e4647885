"""Reverse-mode gradients over UOp graphs: a table of gradient rules, one entry per primitive op, and the driver.

`compute_gradient(root, root_grad, targets)` walks the graph from `root` back to `targets` and returns lazy UOp graphs
for d(root)/d(target), so forward, backward and whatever consumes the gradients fuse into the same kernels.
Each rule gets the incoming gradient `g` and the node `ret` and returns one gradient (or None) per source.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from lazyarr import dtypes
from lazyarr.graph.ops import GroupOp, Ops
from lazyarr.graph.uop import GatherArg, UOp

# ---- small builders over UOps of one shape and dtype ----


def _c(like: UOp, value: Any) -> UOp:
    """A constant shaped and typed like `like`."""
    return UOp.const(value, like.dtype, like.shape)


def _add(a: UOp, b: UOp) -> UOp:
    return a.alu(Ops.ADD, b)


def _sub(a: UOp, b: UOp) -> UOp:
    return a.alu(Ops.SUB, b)


def _mul(a: UOp, b: UOp) -> UOp:
    return a.alu(Ops.MUL, b)


def _div(a: UOp, b: UOp) -> UOp:
    return a.alu(Ops.DIV, b)


def _neg(a: UOp) -> UOp:
    return a.alu(Ops.NEG)


def _where(cond: UOp, a: UOp, b: UOp) -> UOp:
    return UOp(Ops.WHERE, a.dtype, (cond, a, b))


def _cmp(op: Ops, a: UOp, b: UOp) -> UOp:
    return a.alu(op, b)


def _sign(x: UOp) -> UOp:
    """-1, 0 or 1 (0 at 0, like PyTorch's abs gradient)."""
    zero = _c(x, 0)
    return _where(_cmp(Ops.CMPLT, zero, x), _c(x, 1), _where(_cmp(Ops.CMPLT, x, zero), _c(x, -1), zero))


def _sum_to(g: UOp, axes: tuple[int, ...]) -> UOp:
    """`g` summed over `axes` (kept as size 1); float16 accumulates in float32."""
    if g.dtype is dtypes.float16:
        return g.cast(dtypes.float32).reduce(Ops.ADD, axes).cast(dtypes.float16)
    return g.reduce(Ops.ADD, axes)


def _expand_grad(g: UOp, ret: UOp) -> UOp:
    # the broadcast dims of an EXPAND are summed back
    x = ret.src[0]
    return _sum_to(g, tuple(i for i, (s, n) in enumerate(zip(x.shape, ret.shape)) if s != n))


def _permute_grad(g: UOp, ret: UOp) -> UOp:
    inverse = [0] * len(ret.arg)
    for i, a in enumerate(ret.arg):
        inverse[a] = i
    return g.permute(tuple(inverse))


def _stride_grad(g: UOp, ret: UOp) -> UOp:
    # out[i] = x[i*k]: spread g back with k-1 zeros after each element, then cut to x's length (then stored)
    x = ret.src[0]
    for axis, k in enumerate(ret.arg):
        if k == 1:
            continue
        n = g.shape[axis]
        pre, post = g.shape[:axis], g.shape[axis + 1 :]
        g = g.reshape(pre + (n, 1) + post)
        g = g.pad(tuple((0, k - 1) if i == axis + 1 else (0, 0) for i in range(g.ndim))).reshape(pre + (n * k,) + post)
        g = g.shrink(tuple((0, x.shape[axis]) if i == axis else (0, s) for i, s in enumerate(g.shape)))
    # stored: the spread is a view with an index division per axis, and pooling/convolution sum one such spread
    # per kernel offset; recomputing them all inside one consumer makes a kernel too big to compile quickly
    return UOp(Ops.CONTIGUOUS, g.dtype, (g,))


def _reduce_grad(g: UOp, ret: UOp) -> UOp:
    x, op = ret.src[0], ret.arg.op
    ge = g.expand(x.shape)
    if op is Ops.ADD:
        return ge
    if op in (Ops.MAX, Ops.MIN):
        # ties share the gradient evenly (PyTorch's amax/amin)
        hit = _cmp(Ops.CMPEQ, x, ret.expand(x.shape)).cast(x.dtype)
        return _div(_mul(ge, hit), _sum_to(hit, ret.arg.axes).expand(x.shape))
    # MUL: d(prod)/dx_i is the product of the others, computed without dividing by zero
    is_zero = _cmp(Ops.CMPEQ, x, _c(x, 0))
    others = _where(is_zero, _c(x, 1), x).reduce(Ops.MUL, ret.arg.axes).expand(x.shape)
    zeros = _sum_to(is_zero.cast(x.dtype), ret.arg.axes).expand(x.shape)
    no_zero = _cmp(Ops.CMPEQ, zeros, _c(zeros, 0))
    lone_zero = _where(_cmp(Ops.CMPEQ, zeros, _c(zeros, 1)), is_zero, _c(is_zero, False))
    return _mul(ge, _where(no_zero, _div(others, x), _where(lone_zero, others, _c(x, 0))))


def _rscan(u: UOp, op: Ops, axis: int) -> UOp:
    """The scan of `u` along `axis` run from the end: element j combines elements j..n-1."""
    flip = tuple(i == axis for i in range(u.ndim))
    return u.flip(flip).scan(op, axis).flip(flip)


def _scan_grad(g: UOp, ret: UOp) -> UOp:
    """Gradient of a scan (out[i] = op(out[i - 1], x[i])) with PyTorch's rules: cumsum's is the sum of the gradient
    from the end; cumprod's is sum over i >= j of g[i] * (product of x[k], k <= i, k != j), by scans only (before the
    first zero dividing out[i] by x[j]; at the first zero, the product before it times the scan from the end of g
    times the products after it; after it 0); cummax/cummin's goes whole to the last position that holds the running
    value (a NaN holds it), as torch.cummax's index does."""
    x, op, axis = ret.src[0], ret.arg.op, ret.arg.axis
    if op is Ops.ADD:
        return _rscan(g, Ops.ADD, axis)
    zero, one = _c(x, 0), _c(x, 1)
    if op is Ops.MUL:
        is_zero = _cmp(Ops.CMPEQ, x, zero)
        zeros = is_zero.cast(x.dtype).scan(Ops.ADD, axis)  # zeros so far
        seen = _cmp(Ops.CMPLT, zero, zeros)
        first = _where(is_zero, _cmp(Ops.CMPEQ, zeros, one), _c(is_zero, False))
        before = _div(_rscan(_where(seen, zero, _mul(g, ret)), Ops.ADD, axis), x)
        after = _where(first, one, _where(seen, x, one)).scan(Ops.MUL, axis)  # products after the first zero
        lead = _where(seen, one, x).scan(Ops.MUL, axis)  # at the first zero: the product before it
        at_zero = _mul(lead, _rscan(_where(seen, _mul(g, after), zero), Ops.ADD, axis))
        return _where(seen, _where(first, at_zero, zero), before)
    # MAX/MIN: position j takes the gradient of every i from j to the end of its run (the last index before the next
    # position that holds the running value): the forward scan of g at that end, less that before j
    n = x.shape[axis]
    hit = _cmp(Ops.CMPEQ, x, ret).alu(Ops.OR, _cmp(Ops.CMPNE, x, x))
    pos = UOp(Ops.IOTA, dtypes.int64, (), n).reshape(tuple(n if i == axis else 1 for i in range(x.ndim)))
    pos = pos.expand(x.shape)
    last = UOp.const(n - 1, dtypes.int64, x.shape)
    starts = _where(hit, pos.alu(Ops.SUB, UOp.const(1, dtypes.int64, x.shape)), last)  # a hit ends the run before
    nxt = starts.shrink(tuple((1, n) if i == axis else (0, s) for i, s in enumerate(x.shape)))
    nxt = nxt.pad(tuple((0, 1) if i == axis else (0, 0) for i in range(x.ndim)))
    nxt = _where(_cmp(Ops.CMPEQ, pos, last), last, nxt)  # (the pad put 0 at the end)
    end = _rscan(nxt, Ops.MIN, axis)  # the end of the run from j: before the next hit after j
    total = g.scan(Ops.ADD, axis)
    run = _add(_sub(UOp(Ops.GATHER, g.dtype, (total, end), GatherArg(axis)), total), g)
    return _where(hit, run, _c(g, 0))


def _pow_grads(g: UOp, ret: UOp) -> tuple[UOp, UOp]:
    # PyTorch's pow_backward: 0 where the exponent is 0; the exponent's gradient is 0 where base == 0 and exp >= 0
    a, b = ret.src
    zero = _c(a, 0)
    da = _where(_cmp(Ops.CMPEQ, b, zero), zero, _mul(b, a.alu(Ops.POW, _sub(b, _c(b, 1)))))
    base0 = _where(_cmp(Ops.CMPEQ, a, zero), _cmp(Ops.CMPLE, zero, b), _c(_cmp(Ops.CMPEQ, a, zero), False))
    db = _where(base0, zero, _mul(ret, a.alu(Ops.LOG)))
    return _mul(g, da), _mul(g, db)


def _minmax_grads(g: UOp, ret: UOp) -> tuple[UOp, UOp]:
    # PyTorch's maximum/minimum: the winner gets the gradient, a tie splits it in half
    a, b = ret.src
    a_wins = _cmp(Ops.CMPLT, b, a) if ret.op is Ops.MAX else _cmp(Ops.CMPLT, a, b)
    b_wins = _cmp(Ops.CMPLT, a, b) if ret.op is Ops.MAX else _cmp(Ops.CMPLT, b, a)
    tie = _cmp(Ops.CMPEQ, a, b)
    half, zero = _mul(g, _c(g, 0.5)), _c(g, 0)
    return _where(a_wins, g, _where(tie, half, zero)), _where(b_wins, g, _where(tie, half, zero))


def _gather_grad(g: UOp, ret: UOp) -> UOp:
    # out[.., i, ..] = data[.., index[.., i, ..], ..]: scatter-add g back as a one-hot sum over i
    data, index = ret.src
    axis = ret.arg.axis
    n_out, n_data = index.shape[axis], data.shape[axis]
    wide = index.shape[: axis + 1] + (n_data,) + index.shape[axis + 1 :]
    unsq = index.shape[: axis + 1] + (1,) + index.shape[axis + 1 :]
    pos = UOp(Ops.IOTA, dtypes.int64, (), n_data).reshape((1,) * (axis + 1) + (n_data,) + (1,) * (len(wide) - axis - 2))
    hit = _cmp(Ops.CMPEQ, index.cast(dtypes.int64).reshape(unsq).expand(wide), pos.expand(wide)).cast(g.dtype)
    summed = _sum_to(_mul(g.reshape(unsq).expand(wide), hit), (axis,))
    return summed.reshape(data.shape[:axis] + (n_data,) + data.shape[axis + 1 :]) if n_out else _c(data, 0)


Rule = Callable[[UOp, UOp], tuple[UOp | None, ...]]

LN2 = math.log(2)

# gradient rules: op -> (g, ret) -> one gradient per source (None: no gradient flows there)
GRADIENT_RULES: dict[Ops, Rule] = {
    Ops.NEG: lambda g, ret: (_neg(g),),
    Ops.ABS: lambda g, ret: (_mul(g, _sign(ret.src[0])),),
    Ops.SQRT: lambda g, ret: (_div(g, _mul(ret, _c(ret, 2))),),
    Ops.RECIPROCAL: lambda g, ret: (_neg(_mul(g, _mul(ret, ret))),),
    Ops.EXP: lambda g, ret: (_mul(g, ret),),
    Ops.EXP2: lambda g, ret: (_mul(g, _mul(ret, _c(ret, LN2))),),
    Ops.LOG: lambda g, ret: (_div(g, ret.src[0]),),
    Ops.LOG2: lambda g, ret: (_div(g, _mul(ret.src[0], _c(ret, LN2))),),
    Ops.LOG1P: lambda g, ret: (_div(g, _add(ret.src[0], _c(ret, 1))),),
    Ops.EXPM1: lambda g, ret: (_mul(g, _add(ret, _c(ret, 1))),),
    Ops.SIN: lambda g, ret: (_mul(g, ret.src[0].alu(Ops.COS)),),
    Ops.COS: lambda g, ret: (_neg(_mul(g, ret.src[0].alu(Ops.SIN))),),
    Ops.TAN: lambda g, ret: (_mul(g, _add(_c(ret, 1), _mul(ret, ret))),),
    Ops.TANH: lambda g, ret: (_mul(g, _sub(_c(ret, 1), _mul(ret, ret))),),
    Ops.ERF: lambda g, ret: (_mul(g, _mul(_c(ret, 2 / math.sqrt(math.pi)),
                                          _neg(_mul(ret.src[0], ret.src[0])).alu(Ops.EXP))),),
    # piecewise constant: a zero gradient (not None: PyTorch gives the leaves zeros rather than no gradient)
    Ops.FLOOR: lambda g, ret: (_c(ret, 0),),
    Ops.CEIL: lambda g, ret: (_c(ret, 0),),
    Ops.TRUNC: lambda g, ret: (_c(ret, 0),),
    Ops.RINT: lambda g, ret: (_c(ret, 0),),
    Ops.IDIV: lambda g, ret: (_c(ret.src[0], 0), _c(ret.src[1], 0)),
    Ops.ADD: lambda g, ret: (g, g),
    Ops.SUB: lambda g, ret: (g, _neg(g)),
    Ops.MUL: lambda g, ret: (_mul(g, ret.src[1]), _mul(g, ret.src[0])),
    Ops.DIV: lambda g, ret: (_div(g, ret.src[1]), _neg(_div(_mul(g, ret), ret.src[1]))),
    Ops.MOD: lambda g, ret: (g, _neg(_mul(g, ret.src[0].alu(Ops.IDIV, ret.src[1])))),
    Ops.MAX: _minmax_grads,
    Ops.MIN: _minmax_grads,
    Ops.POW: _pow_grads,
    Ops.WHERE: lambda g, ret: (None, _where(ret.src[0], g, _c(g, 0)), _where(ret.src[0], _c(g, 0), g)),
    Ops.CAST: lambda g, ret: (g.cast(ret.src[0].dtype),),
    Ops.REDUCE: lambda g, ret: (_reduce_grad(g, ret),),
    Ops.SCAN: lambda g, ret: (_scan_grad(g, ret),),
    Ops.RESHAPE: lambda g, ret: (g.reshape(ret.src[0].shape),),
    Ops.PERMUTE: lambda g, ret: (_permute_grad(g, ret),),
    Ops.EXPAND: lambda g, ret: (_expand_grad(g, ret),),
    Ops.SHRINK: lambda g, ret: (g.pad(tuple((b, s - e) for (b, e), s in zip(ret.arg, ret.src[0].shape))),),
    Ops.PAD: lambda g, ret: (g.shrink(tuple((b, b + s) for (b, _), s in zip(ret.arg, ret.src[0].shape))),),
    Ops.FLIP: lambda g, ret: (g.flip(ret.arg),),
    Ops.STRIDE: lambda g, ret: (_stride_grad(g, ret),),
    Ops.GATHER: lambda g, ret: (_gather_grad(g, ret), None),
    # arg "grad": a boundary both ways, the gradient is stored too (see NNMixin.conv2d)
    Ops.CONTIGUOUS: lambda g, ret: (UOp(Ops.CONTIGUOUS, g.dtype, (g,)) if ret.arg == "grad" else g,),
    Ops.ASSIGN: lambda g, ret: (None, g),  # a write of the whole storage (a partial write: `_assign_grads`)
    Ops.DETACH: lambda g, ret: (None,),
}

# ops whose result is not a differentiable function of their inputs (comparisons, bit ops): nothing flows back
NO_GRADIENT = frozenset({Ops.CMPLT, Ops.CMPLE, Ops.CMPEQ, Ops.CMPNE, Ops.AND, Ops.OR, Ops.XOR, Ops.SHL, Ops.SHR,
                         Ops.NOT, Ops.BITCAST})


def _assign_grads(g: UOp, ret: UOp) -> tuple[UOp, UOp, UOp] | None:
    """For ASSIGN(target, value) writing through a view (or scatter) `target` of storage S: (S, gradient of S,
    gradient of value). The value gets `g` read through the same view; S gets `g` where the write does not reach
    (the old contents survive there). None for a plain write of the whole storage (the value gets `g`)."""
    target, value = ret.src
    chain = []
    u = target
    while u.op in GroupOp.Movement or u.op is Ops.GATHER:
        chain.append(u)
        u = u.src[0]
    if not chain:
        return None
    storage, g_view = u, g
    for mv in reversed(chain):  # the same view over g
        g_view = UOp(mv.op, mv.dtype, (g_view, *mv.src[1:]), mv.arg)
    # the positions the write reaches: the view's own gradient of ones
    reached = compute_gradient(target, UOp.const(1, value.dtype, value.shape), {storage}).get(storage)
    if reached is None:
        return storage, g, g_view
    keep = _where(_cmp(Ops.CMPLT, _c(reached, 0), reached), _c(g, 0), g)
    return storage, keep, g_view


def compute_gradient(root: UOp, root_grad: UOp, targets: set[UOp], stop: frozenset[UOp] | set[UOp] = frozenset()
                     ) -> dict[UOp, UOp]:
    """d(root)/d(t) for each t in `targets` that `root` depends on, as lazy graphs (`root_grad` seeds the chain).

    Only float values carry gradients; a path through an integer or bool value contributes nothing. Gradients do not
    flow below the nodes in `stop` (the versions of one leaf's storage before and after in-place writes are each a
    target of their own: the older contents surviving in a newer version are not counted twice).
    Raises NotImplementedError for an op on the path that has no gradient rule.
    """
    order = root.toposort()
    on_path: set[UOp] = set()  # nodes that have a target at or below them
    for node in order:
        if node in targets or any(s in on_path for s in node.src):
            on_path.add(node)
    grads: dict[UOp, UOp] = {root: root_grad}
    for node in reversed(order):
        g = grads.get(node)
        if g is None or not node.src or node.op in NO_GRADIENT or not node.dtype.is_float or node in stop:
            continue
        if node.op is Ops.ASSIGN and (partial := _assign_grads(g, node)) is not None:
            storage, gs, gv = partial
            pairs = [(storage, gs), (node.src[1], gv)]
        else:
            rule = GRADIENT_RULES.get(node.op)
            if rule is None:
                raise NotImplementedError(f"no gradient rule for {node.op.name}")
            pairs = list(zip(node.src, rule(g, node)))
        for src, sg in pairs:
            if sg is None or src not in on_path or not src.dtype.is_float:
                continue
            if sg.shape != src.shape:
                raise AssertionError(f"gradient of {node.op.name} has shape {sg.shape}, source has {src.shape}")
            grads[src] = _add(grads[src], sg) if src in grads else sg
    return {t: grads[t] for t in targets if t in grads}
