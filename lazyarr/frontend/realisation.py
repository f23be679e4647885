"""Realisation of tensors: their graphs computed in one schedule per device, then every live tensor that shared
what was computed repointed at the results ("becomes"), after copying first any storage a write overwrites that a
live lazy graph still reads (copy-on-write). The tensors to look at are found from the computed nodes up
(`UOp.users`, `UOp.holders`), so a realisation costs nothing per unrelated live tensor. See `inplace` for the model
of arrays, views and writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lazyarr.frontend.inplace import (
    _ASSIGN,
    _BUFFER,
    WRITE_LOCK,
    _Group,
    _storage_buffer,
    group_of,
    hold,
    is_computed_view,
    is_realized,
    realize_hooks,
)
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import strip_movement, structure_key
from lazyarr.graph.uop import UOp, assign_storage, holding, readers, substitute
from lazyarr.kernels.device import Buffer
from lazyarr.kernels.realize import realize_uops

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def realize_tensors(tensors: Iterable[Tensor]) -> None:
    """Compute `tensors` (one schedule per device) and repoint every live tensor at the results (see module
    docstring)."""
    todo = [t for t in tensors if not is_realized(t.uop)]
    if not todo:
        return
    with WRITE_LOCK:  # (another thread's write or realisation would change the arrays this one repoints)
        devices = dict.fromkeys(t.device for t in todo) if len(todo) > 1 else (todo[0].device,)
        if len(devices) == 1:
            _realize_on(todo[0].device, todo)
            return
        for device in devices:
            _realize_on(device, [t for t in todo if t.device == device])


def _realize_on(device: str, tensors: list[Tensor]) -> None:
    roots: list[UOp] = []
    owners: dict[UOp, _Group] = {}  # root -> the group that will own the buffer it is stored in
    solo: dict[UOp, Tensor] = {}  # root -> a tensor realised alone (not its whole array)
    for t in tensors:
        if is_realized(t.uop):
            continue
        g = t._group
        if g is not None and not is_computed_view(t) and (g.buffer is not None or len(g.members) > 1
                                                         or t.uop is g.base):
            root = g.base  # the whole array, so every view of it shares the storage
            owners.setdefault(root, g)
        else:
            root = t.uop
            solo.setdefault(root, t)
        if root not in roots:
            roots.append(root)
    if not roots:
        return
    nodes: list[UOp] = []
    structure = structure_key(roots, nodes)  # the walk toposort would make, and the plan's key
    writes = [n for n in nodes if n.op is _ASSIGN]
    written: set[Buffer] = set()
    if writes:
        overwritten = list(dict.fromkeys(assign_storage(a.src[0]) for a in writes))
        snapshots, clones = _outside_readers(overwritten, set(roots) | set(writes))
        # each array's last write is computed too: the rules may fold away the part of a root that reads it (a
        # zero-size value, np.where(c, 1, 1)), and every write here is taken as done
        last = [a for a in writes if a not in overwritten]
        extra = list(dict.fromkeys(n for n in [*snapshots.values(), *clones, *last] if n not in roots))
        results = realize_uops(roots + extra, device, None if extra else structure)
        mapping = dict(zip(roots + extra, results))
        for v, snap in snapshots.items():
            mapping[v] = mapping[snap]
        for a in writes:
            if a not in overwritten and a not in mapping:
                mapping[a] = _storage_buffer(a)
            written.add(_storage_buffer(a).arg)
        for b in written:
            b.version += 1
    else:  # the usual eager op: nothing is written in place, so no live graph needs a copy of old contents
        mapping = dict(zip(roots, realize_uops(roots, device, structure)))
    for hook in realize_hooks:
        hook(mapping, written)
    root = roots[0]
    if not writes and len(mapping) == 1 and root in solo and solo[root]._group is None and \
            not any(r() is not None for r in root.users):
        _apply_alone(root, mapping[root], solo[root], structure[1])
    else:
        _apply(mapping, roots, owners, solo, set(structure[1]))


def _outside_readers(overwritten: list[UOp], executed: set[UOp]) -> tuple[dict[UOp, UOp], list[UOp]]:
    """Storage versions this schedule overwrites that a live lazy graph outside it still reads, each with a copy to
    compute first (a CONTIGUOUS clone); and lazy clones that read such a version directly (computed now instead).

    A version is read from outside when a live tensor holds it or a node made over it through nodes that are not
    computed by this schedule (`executed`), not another overwritten version and not such a clone; the walk goes up
    from each version (`UOp.users`, in the order the nodes were made, so the same program gives the same order)."""
    versions = set(overwritten)
    stops = executed | versions
    snapshots: dict[UOp, UOp] = {}
    clones: list[UOp] = []
    for v in overwritten:
        if _held_above(v, stops, versions, clones):
            snapshots[v] = UOp(Ops.CONTIGUOUS, v.dtype, (v,), "clone")
    return snapshots, clones


def _held_above(start: UOp, stops: set[UOp], versions: set[UOp], clones: list[UOp] | None) -> bool:
    """Whether a live tensor holds `start` or a node made over it without passing a node in `stops` or a lazy clone
    of one of `versions` (under views); such clones that are themselves held so are appended to `clones` (when
    given)."""
    found = False
    seen: set[UOp] = set()
    stack = [start]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n is not start:
            if n in stops:
                continue
            if n.op is Ops.CONTIGUOUS and n.arg == "clone" and strip_movement(n.src[0])[1] in versions:
                if clones is not None and n not in clones and _held_above(n, stops, versions, None):
                    clones.append(n)
                continue
        if not found and n.held():
            found = True
            if clones is None:
                return True
        stack.extend(u for r in reversed(n.users) if (u := r()) is not None and u not in seen)
    return found


def _apply_alone(root: UOp, result: UOp, t: Tensor, inputs: list[Buffer]) -> None:
    """`_apply` for one computed graph that no live node reads (an eager op's usual case), realised for tensor `t`, a
    view of no array: every tensor holding `root` (`t`, and any other that was given the same node) now holds
    `result`, an array whose base was `root` now has `result` as its base, and `t` owns the new storage."""
    for h in holding({root}):
        if (g := h._group) is not None and g.base is root:
            g.base = result
        h.uop = result
        hold(h)
    base = strip_movement(result)[1]
    if base.op is _BUFFER and base.arg not in inputs:
        t._group = _Group(base, base.arg, t)
        t._group.members.add(t)


def _apply(mapping: dict[UOp, UOp], roots: list[UOp], owners: dict[UOp, _Group], solo: dict[UOp, Tensor],
           inputs: set[Any]) -> None:
    """Repoint every live tensor and group base through `mapping`; give each realised array its new buffer."""
    # only the tensors holding a node made over a replaced one can change (found from the replaced nodes up); every
    # node of a view of storage (or of a bare constant) is one too, so when `mapping` replaces no such node (no
    # storage was overwritten), such a graph needs no walk
    keep_realized = not any(map(is_realized, mapping))
    changing = readers(list(mapping))
    # no live node reads a replaced one (an eager op's usual case): every node to rebuild is itself replaced
    replaced_only = len(changing) == len(mapping)
    memo: dict[UOp, UOp] = {}

    def stop_at(n: UOp) -> UOp | None:  # what stops the rebuild: replaced nodes and at nodes that read no replaced node
        return mapping[n] if n in mapping else (n if n not in changing else None)

    def sub(u: UOp) -> UOp:
        return substitute(u, memo, stop_at)

    groups: dict[int, _Group] = {}
    for t in holding(changing):
        if (g := t._group) is not None:
            groups[id(g)] = g
        u = t.uop
        if keep_realized and (u.op is _BUFFER or is_realized(u)):  # most live tensors are whole realised arrays
            continue
        new = mapping[u] if replaced_only else memo.get(u) or sub(u)
        if new is not u:
            t.uop = new
            hold(t)
    for g in groups.values():
        if not (keep_realized and is_realized(g.base)):
            g.base = mapping.get(g.base, g.base) if replaced_only else sub(g.base)
    claimed: set[int] = set()
    for root in roots:
        result = mapping[root]
        base = strip_movement(result)[1]
        fresh = base.op is _BUFFER and base.arg not in inputs and id(base.arg) not in claimed
        if fresh:
            claimed.add(id(base.arg))
        if root in owners:
            g = owners[root]
            if g.buffer is None and fresh:
                g.buffer, g.base = base.arg, base  # members are chains over the result, itself a view of base
        elif root in solo:
            t = solo[root]
            if is_computed_view(t):
                continue  # it stays a view of its array: a write to the array computes it again
            old = t._group
            if old is not None:
                old.members.discard(t)
            t._group = None
            if fresh:
                t._group = _Group(base, base.arg, t)
                t._group.members.add(t)
            if old is not None and old.readonly is not None:
                group_of(t).readonly = old.readonly  # computed alone, it is still a view of a read-only array
