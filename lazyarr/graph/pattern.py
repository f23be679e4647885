"""Pattern matching and rewriting of UOp graphs: `UPat`, `PatternMatcher`, and the one driver `graph_rewrite`.

A rule is `(UPat, fn)`; `fn` receives the named captures as keyword arguments and returns a replacement UOp or None.
No op-specific rule lives here; the tables are in `rules.py` and `schedule.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

from lazyarr.dtypes import DType
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp, toposort

# rewriting a replacement recurses once per level of the graph below it (movement push-down walks to the leaves);
# Python 3.11 runs Python-to-Python calls without C recursion, so a deep limit is safe here
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


class UPat:
    """A pattern over UOps: op (one or a set), dtype, arg, sources (in order, or any order if `commutative`), name."""

    __slots__ = ("ops", "dtypes", "src", "arg", "name", "commutative", "predicate")

    def __init__(
        self,
        op: Ops | Iterable[Ops] | None = None,
        dtype: DType | Iterable[DType] | None = None,
        src: tuple[UPat, ...] | None = None,
        arg: Any = None,
        name: str | None = None,
        commutative: bool = False,
        predicate: Callable[[UOp], bool] | None = None,
    ) -> None:
        self.ops = None if op is None else frozenset([op] if isinstance(op, Ops) else op)
        self.dtypes = None if dtype is None else frozenset([dtype] if isinstance(dtype, DType) else dtype)
        self.src, self.arg, self.name = src, arg, name
        self.commutative, self.predicate = commutative, predicate

    @staticmethod
    def var(name: str | None = None, dtype: DType | Iterable[DType] | None = None) -> UPat:
        """Matches any node."""
        return UPat(dtype=dtype, name=name)

    @staticmethod
    def cvar(name: str | None = None) -> UPat:
        """Matches a 0-d CONST."""
        return UPat(Ops.CONST, name=name)

    def match(self, u: UOp, captures: dict[str, UOp]) -> bool:
        if self.ops is not None and u.op not in self.ops:
            return False
        if self.dtypes is not None and u.dtype not in self.dtypes:
            return False
        if self.arg is not None and u.arg != self.arg:
            return False
        if self.name is not None:
            if self.name in captures and captures[self.name] is not u:
                return False
            captures[self.name] = u
        if self.predicate is not None and not self.predicate(u):
            return False
        if self.src is None:
            return True
        if len(self.src) != len(u.src):
            return False
        orders = [u.src, u.src[::-1]] if self.commutative and len(u.src) == 2 else [u.src]
        for srcs in orders:
            trial = dict(captures)
            if all(p.match(s, trial) for p, s in zip(self.src, srcs)):
                captures.update(trial)
                return True
        return False


Rule = tuple[UPat, Callable[..., UOp | None]]


class PatternMatcher:
    """An ordered table of rules, indexed by op so each node only tries the rules that can match it."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        self.by_op: dict[Ops | None, list[Rule]] = {}
        for pat, fn in rules:
            for op in pat.ops if pat.ops is not None else [None]:
                self.by_op.setdefault(op, []).append((pat, fn))

    def __add__(self, other: PatternMatcher) -> PatternMatcher:
        return PatternMatcher(self.rules + other.rules)

    def rewrite(self, u: UOp) -> UOp | None:
        """The first rule's replacement for `u`, or None when no rule fires."""
        for pat, fn in self.by_op.get(u.op, []) + self.by_op.get(None, []):
            captures: dict[str, UOp] = {}
            if pat.match(u, captures) and (out := fn(**captures)) is not None and out is not u:
                return out
        return None


def graph_rewrite(root: UOp, pm: PatternMatcher, name: str = "", memo: dict[UOp, UOp] | None = None) -> UOp:
    """Rewrite `root` bottom-up with `pm` until no rule fires anywhere (sources are rewritten before their users).

    `name` labels the pass for debugging. `memo` may be shared between calls that rewrite related roots.
    """
    memo = {} if memo is None else memo
    for node in toposort([root], memo):  # a node in memo was rewritten with everything below it
        memo[node] = _rewrite_node(node, pm, memo)
    return memo[root]


def _rewrite_node(node: UOp, pm: PatternMatcher, memo: dict[UOp, UOp]) -> UOp:
    new_src = tuple(memo.get(s, s) for s in node.src)
    cur = node if new_src == node.src else UOp(node.op, node.dtype, new_src, node.arg)
    for _ in range(1000):
        nxt = pm.rewrite(cur)
        if nxt is None:
            return cur
        # the replacement may contain new nodes that need rewriting themselves
        cur = graph_rewrite(nxt, pm, memo=memo) if nxt not in memo else memo[nxt]
    raise RuntimeError(f"graph_rewrite did not converge on {node.op.name}")
