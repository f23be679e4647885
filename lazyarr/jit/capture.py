"""Capture and replay: the kernel launches of one call in, a `CapturedProgram` that replays them on new buffers out.

While a function is captured, `Capture` (a `realize.capturing` hook) records every launch with its buffers and every
buffer a schedule allocates. `CapturedProgram` sorts those buffers into the call's inputs (replaced by each replay's
input buffers), its outputs (fresh storage every replay, so earlier results are never overwritten) and fixed buffers
(weights, optimizer state, intermediates: reused; state written with assign is updated in place). On CPU the
launches run through one batched native driver (`kernels/batch_numba.py`); elsewhere, or with `JIT=2`, through a
loop over the launches.
"""

from __future__ import annotations

import ctypes
import threading
import time
import weakref
from collections import Counter
from dataclasses import dataclass
from sys import getrefcount
from time import perf_counter
from typing import Any

import numpy as np

from lazyarr.frontend.autograd import mark_without_graph
from lazyarr.frontend.inplace import SETS_LOCK, all_tensors, own_buffer
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import strip_movement
from lazyarr.graph.uop import UOp
from lazyarr.helpers import JitError, flag
from lazyarr.kernels import runtime_numba
from lazyarr.kernels.device import Buffer
from lazyarr.kernels.realize import CompiledKernel, ExecItem
from lazyarr.kernels.stats import COUNTERS, new_tally


class Capture:
    """A `realize.capturing` hook: records launches, forbids reading tensor data.

    `existing` holds every buffer live tensors reached before the call (held, so no new buffer reuses an id): a
    buffer a launch writes that is not among them was created during the call.
    """

    def __init__(self, name: str, existing: dict[int, Buffer]) -> None:
        self.name = name
        self.items: list[ExecItem] = []
        self.existing = existing
        # the tensors alive before the call (weakly, by id): a returned one is state (a closure's or self's tensor),
        # which replays return as itself; a tensor the body makes is a new object on every call, as without jit
        self.tensors = dict(all_tensors.refs)
        self.written: set[int] = set()
        self.initial: dict[int, np.ndarray] = {}  # a new buffer's contents before a launch first wrote part of it
        self.thread = threading.get_ident()
        # id -> (tensor, its `.grad` when the body first read it, or _UNREAD when the body set it first), for the
        # tensors alive before the call whose `.grad` the body touched (`on_grad`)
        self.grads: dict[int, tuple[weakref.ref[Tensor], Any]] = {}
        self.checks: list[tuple[Tensor, Tensor, str]] = []  # the body's index range checks (`check_in_capture`)

    def on_grad(self, t: Tensor, value: Tensor | None, is_set: bool) -> None:
        """An `autograd.grad_watchers` hook: remember the first access to each state tensor's `.grad`."""
        if threading.get_ident() != self.thread or id(t) in self.grads:
            return
        ref = self.tensors.get(id(t))
        if ref is not None and ref() is t:  # a tensor the body makes is a new object on every call
            self.grads[id(t)] = (ref, _UNREAD if is_set else value)

    def grad_records(self) -> list[GradRecord]:
        """After the call: per state tensor whose `.grad` the body touched, what it read and what it left."""
        return [GradRecord(ref, read, t._grad) for ref, read in self.grads.values() if (t := ref()) is not None]

    def add(self, item: ExecItem) -> None:
        if threading.get_ident() != self.thread:
            return  # another thread's launches are not part of this call
        out = item.bufs[0]
        if id(out) not in self.written and id(out) not in self.existing and not item.kernel.full_write:
            self.initial[id(out)] = out.array.copy()
        self.written.update(id(b) for b in item.written)  # a multi-output kernel's further outputs are whole writes
        self.items.append(item)

    def created(self) -> dict[int, Buffer]:
        """Buffers created during the call and written by one of its launches (candidates for fresh outputs)."""
        return {id(b): b for it in self.items for b in it.written if id(b) not in self.existing}

    def on_data_read(self, what: str) -> None:
        if threading.get_ident() != self.thread:
            return
        raise JitError(
            f"{what} read tensor data while @lazyarr.jit was capturing {self.name}: the value would be frozen into "
            "every replay (replays do not run the Python body). Keep tensor values as Tensors inside the jitted "
            "function (use Tensor.where instead of Python `if`, return the Tensor instead of .item()), and read them "
            "after the call.")


def _scalar_source(t: Tensor) -> Any:
    """The Buffer holding realised 0-d `t`, or its value when it is a constant."""
    base = strip_movement(t.uop)[1]
    return base.arg if base.op is Ops.BUFFER else t.numpy().item()


def _scalar(source: Any) -> Any:
    return source.numpy().reshape(-1)[0] if isinstance(source, Buffer) else source


_UNREAD = object()  # GradRecord.read of a `.grad` the body set before it read it


@dataclass
class GradRecord:
    """A state tensor's `.grad` as a captured call used it: `read`, the tensor (or None) the body read before setting
    it (the replay reads or adds into that storage, so the `.grad` must still be it), or _UNREAD; `after`, the
    `.grad` the body left (a replay, which does not run the body, sets it again)."""

    ref: weakref.ref[Tensor]
    read: Any
    after: Tensor | None


# where a returned tensor's storage comes from on a replay
_INPUT, _OUTPUT, _FIXED = 0, 1, 2


@dataclass
class _Leaf:
    """A returned Tensor: its storage (kind, index or fixed base UOp) and the movement ops on top (bottom first);
    `view`: an input's storage under a view of the input (`views_input`)."""

    kind: int
    index: int
    base: UOp | None
    chain: list[tuple[Ops, Any]]
    device: str
    view: bool = False
    # a fixed tensor: the state tensor itself (weakly; None for a tensor the body made) and the in-place group it
    # belongs to
    owner: Any = None
    group: Any = None


@dataclass
class _Step:
    """A launch run from Python on a replay: a kernel and, per buffer, (True, changing-slot) or (False, Buffer)."""

    kernel: CompiledKernel
    where: list[tuple[bool, Any]]
    threaded: bool


class CapturedProgram:
    """The launches of one captured call, replayable with new input buffers.

    `inputs` are the call's input buffers (None for zero-size inputs), `items` the launches in order, `created` the
    buffers created and written during the call (`Capture.created`), `result` the (realised) return value.
    """

    def __init__(self, name: str, inputs: list[Buffer | None], items: list[ExecItem], created: dict[int, Buffer],
                 result: Any, initial: dict[int, np.ndarray] | None = None,
                 before: dict[int, Any] | None = None, grads: list[GradRecord] | None = None,
                 checks: list[tuple[Tensor, Tensor, str]] | None = None) -> None:
        if not items:
            raise JitError(f"@lazyarr.jit captured no kernel launches in {name}: there is nothing to replay (a "
                           "function that only reshapes or returns its inputs, or computes nothing). Call it without "
                           "@lazyarr.jit.")
        self.name = name
        self.n_kernels = len(items)
        self.bytes_moved = sum(it.kernel.bytes_per_launch for it in items)
        self.flops = sum(it.kernel.lowered.flops for it in items)
        input_pos = {id(b): i for i, b in enumerate(inputs) if b is not None}
        self.n_inputs = len(inputs)
        # outputs: storage created during the call and returned; everything else a replay reuses
        self.out_specs: list[tuple[int, Any, str]] = []
        self.grad_outs: list[int] = []  # outputs that required grad when captured: a replay marks them (no graph)
        out_pos: dict[int, int] = {}
        self.template = self._template(result, input_pos, created, out_pos, before or {})
        # outputs whose first write was partial start every replay from their contents before it
        initial = initial or {}
        self.out_initial: list[np.ndarray | None] = [None] * len(self.out_specs)
        for buf_id, j in out_pos.items():
            self.out_initial[j] = initial.get(buf_id)
        # slots: changing buffers first (inputs in order, then outputs), then fixed ones in order of first use
        self.input_slots = [i for i, b in enumerate(inputs) if b is not None]
        n_changing = len(self.input_slots) + len(self.out_specs)
        slot_of: dict[int, int] = {}
        for k, i in enumerate(self.input_slots):
            slot_of[id(inputs[i])] = k
        for buf_id, j in out_pos.items():
            slot_of[buf_id] = len(self.input_slots) + j
        self.fixed: list[Buffer] = []
        written: set[int] = set()
        launches: list[tuple[CompiledKernel, list[int]]] = []
        sizes: dict[int, tuple[int, Any]] = {}
        for it in items:
            slots = []
            for b in it.bufs:
                if id(b) not in slot_of:
                    slot_of[id(b)] = n_changing + len(self.fixed)
                    self.fixed.append(b)
                slots.append(slot_of[id(b)])
                sizes[slot_of[id(b)]] = (b.size, b.dtype)
            written.update(id(b) for b in it.written)
            launches.append((it.kernel, slots))
        self.n_changing = n_changing
        self.written_inputs = [i for i, b in enumerate(inputs) if b is not None and id(b) in written]
        self.pool: list[list[Any] | None] = [None] * len(self.out_specs)
        # replays of this program from several threads take turns (`_plan` may share SETS_LOCK instead)
        self.lock: Any = threading.Lock()
        # the common return value, one new tensor (an output or a view of one), gets a fast path; not a pad of one,
        # which is an array of its own (`_pads`)
        t = self.template
        plain = isinstance(t, _Leaf) and t.kind == _OUTPUT and not _pads(t.chain)
        self.plain_device = t.device if plain else None
        # the movement ops (a reshape, say) that make output 0 the returned tensor on the fast path: built once per
        # output storage (`_new_output`), not per replay
        self.out_chain: list[tuple[Ops, Any]] = t.chain if plain else []
        self.out_chain_index = t.index if plain else -1
        # an input that is storage this program writes (e.g. a gradient buffer passed back in) is copied first
        self.written_bufs = [b for b in self.fixed if id(b) in written]  # their versions are bumped by each replay
        self.written_fixed = {id(b) for b in self.written_bufs}
        self.replays, self.next_prune = 0, 1  # written_bufs is pruned on replays 1, 4, 16, ...
        self.writes = bool(self.written_fixed or self.written_inputs)  # lazy readers of what it writes: lifecycle
        self.grads = grads or []
        # index range checks (`check_in_capture`): (out of range, offending value, message), each a Buffer a replay
        # rewrites or, when the check folded to a constant, its value
        self.checks = [(_scalar_source(bad), _scalar_source(value), msg) for bad, value, msg in checks or []]
        self._plan(launches, sizes, [None if b is None else b.dtype for b in inputs])
        self.acquire, self.release = self.lock.acquire, self.lock.release
        self.shares_sets_lock = self.lock is SETS_LOCK
        self.tally = new_tally(self.n_kernels, self.bytes_moved, self.flops, self.lock)  # _replay_single's counts

    # ---- the return value ----
    def _template(self, value: Any, input_pos: dict[int, int], created: dict[int, Buffer], out_pos: dict[int, int],
                  before: dict[int, Any]) -> Any:
        """The replay template of returned `value`; `before`: the tensors alive before the call (`Capture.tensors`)."""
        if isinstance(value, Tensor):
            chain, base = strip_movement(value.uop)
            ops = [(mv.op, mv.arg) for mv in reversed(chain)]
            if base.op is Ops.BUFFER and id(base.arg) in input_pos:
                return _Leaf(_INPUT, input_pos[id(base.arg)], None, ops, value.device, views_input(value, base.arg))
            if base.op is Ops.BUFFER and id(base.arg) in created:
                buf = base.arg
                if id(buf) not in out_pos:
                    out_pos[id(buf)] = len(self.out_specs)
                    self.out_specs.append((buf.size, buf.dtype, buf.device))
                if value.requires_grad and out_pos[id(buf)] not in self.grad_outs:
                    self.grad_outs.append(out_pos[id(buf)])
                return _Leaf(_OUTPUT, out_pos[id(buf)], None, ops, value.device)
            # only a tensor that existed before the call is state: one the body made (w[1:], w.pad(...), w * 1 left
            # on w's storage) is a new tensor on every call without jit, so a replay must not hand back the captured
            # call's object (kept by the caller, it would be the replay's result too, and writes to one reach both)
            ref = before.get(id(value))
            state = ref is not None and ref() is value
            return _Leaf(_FIXED, 0, value.uop, [], value.device, owner=weakref.ref(value) if state else None,
                         group=value._group)
        if isinstance(value, (tuple, list)):
            items = [self._template(v, input_pos, created, out_pos, before) for v in value]
            return tuple(items) if isinstance(value, tuple) else _ListOf(items)
        if isinstance(value, dict):
            return _DictOf({k: self._template(v, input_pos, created, out_pos, before) for k, v in value.items()})
        return _Const(value)

    def _rebuild(self, t: Any, ins: list[Buffer | None], outs: list[list[Any]],
                 callers: list[Tensor] | None = None) -> Any:
        """The return value of a replay: its template with this replay's inputs and outputs. `callers`: the caller's
        input tensors; a returned input, or a view of one, is made of the caller's tensor (`caller_view`)."""
        if isinstance(t, _Leaf):
            if t.kind == _FIXED:  # state the body reads (a weight, say): as without jit, that tensor or a view of it
                assert t.base is not None
                if t.owner is not None and (same := t.owner()) is not None and same.uop is t.base:
                    return same
                group = t.group if t.group is not None and _in_group(t.base, t.group) else None
                return _owned(Tensor(t.base, device=t.device), group) if group else Tensor(t.base, device=t.device)
            if t.kind == _INPUT:
                if callers is not None and t.view and (view := caller_view(callers[t.index], t.chain)) is not None:
                    return view
                buf = ins[t.index]
                assert buf is not None
                u = UOp(Ops.BUFFER, buf.dtype, (), buf)
                group = None
            else:
                # a pad makes a new array (np.pad): the tensor joins no group, as `join_views` has it without jit
                u, group = outs[t.index][0], None if _pads(t.chain) else outs[t.index][5]
            for op, arg in t.chain:
                u = UOp(op, u.dtype, (u,), arg)
            return _owned(Tensor(u, device=t.device), group) if group is not None else Tensor(u, device=t.device)
        if isinstance(t, tuple):
            return tuple(self._rebuild(v, ins, outs, callers) for v in t)
        if isinstance(t, _ListOf):
            return [self._rebuild(v, ins, outs, callers) for v in t.items]
        if isinstance(t, _DictOf):
            return {k: self._rebuild(v, ins, outs, callers) for k, v in t.items.items()}
        return t.value

    # ---- how a replay runs ----
    def _plan(self, launches: list[tuple[CompiledKernel, list[int]]], sizes: dict[int, tuple[int, Any]],
              inputs_dtypes: list[Any]) -> None:
        self.runnable = all(k.fn is not None for k, _ in launches)
        self.small_gemms = False  # all its matmuls are small: a replay runs BLAS on SMALL_BLAS_THREADS threads
        self.gemm_kernels = 0  # kernels that call BLAS
        self.segments: list[Any] = []  # Driver objects and _Steps, in launch order
        # every changing slot has a row, also an input no kernel reads (a replay writes each input's pointer)
        self.table = np.zeros(max(self.n_changing, len(sizes) and max(sizes) + 1), dtype=np.int64)
        devices = {b.device for b in self.fixed} | {dev for _, _, dev in self.out_specs}
        # the batched driver is for CPU kernels; other devices (and JIT=2) replay through a loop over the launches
        self.mode = 1 if flag("JIT") == 1 and devices <= {"CPU"} else 2
        if not self.runnable:
            return
        if self.mode == 2:
            self.segments = [self._step(k, s, False) for k, s in launches]
            return
        from lazyarr.kernels import batch_numba  # numba stays out of import time until a CPU replay is built

        threads = runtime_numba.num_threads() if flag("JIT_SPLIT") else 1
        slot_info = [batch_numba.SlotInfo(*sizes.get(i, (0, None))) for i in range(len(self.table))]
        run: list[batch_numba.Launch] = []
        split_min = flag("JIT_PARALLEL_MIN")
        work = 0  # in the driver: a short one is called holding the GIL (saves releasing and taking it again)
        for kernel, slots in launches:
            low = kernel.lowered
            work += low.work
            cost = low.work if low.calls_blas else max(low.work, low.flops)  # a transcendental is 1
            if threads > 1 and low.program.parallel and low.outer_size > low.split_unit and cost >= split_min:
                if run:
                    self.segments.append(batch_numba.Driver(run, slot_info))
                    run = []
                self.segments.append(self._step(kernel, slots, True))
                continue
            run.append(batch_numba.Launch(kernel.fn, tuple(slots), tuple(low.args), low.program.parallel,
                                          low.outer_size))
        if run:
            self.segments.append(batch_numba.Driver(run, slot_info))
        self.gemm_kernels = sum(k.lowered.calls_blas for k, _ in launches)
        self.small_gemms = runtime_numba.small_gemms([k.lowered for k, _ in launches])
        self.fixed_arrays = [b.kernel_array() for b in self.fixed]  # held: the driver keeps raw pointers to them
        for i, b in enumerate(self.fixed):
            self.table[self.n_changing + i] = b.address()
        # a replay writes the changing pointers into the table from Python (through this ctypes view of it) and
        # calls the driver through ctypes: cheaper than a Numba dispatcher call, which type-checks every array
        self.ctable = (ctypes.c_int64 * len(self.table)).from_buffer(self.table)  # type: ignore[arg-type]
        self.table_address = self.table.ctypes.data
        first = self.segments[0]
        self.single = len(self.segments) == 1 and isinstance(first, batch_numba.Driver)
        if self.single:
            self.run_first = first.run_holding_gil if work < flag("PARALLEL_MIN") else first.run
            if work < flag("PARALLEL_MIN"):
                # the run holds the GIL, so no other thread runs meanwhile anyway: the tensor registries' lock can
                # serve as this program's lock too, and the one-kernel replay takes one lock instead of two
                self.lock = SETS_LOCK
        self._choose_replay()

    def _choose_replay(self) -> None:
        """Take `_replay_single` when it applies: one driver, no BLAS thread cap, no storage written in place that
        anything outside can see, every input a buffer, and one whole new Tensor returned."""
        fast = self.single and not self.small_gemms and not self.written_fixed and not self.written_inputs \
            and not self.grad_outs and not self.grads and not self.checks
        if fast and self.plain_device is not None and len(self.out_specs) == 1 and self.out_initial[0] is None \
                and len(self.input_slots) == self.n_inputs:
            self.out_device: str = self.plain_device
            self.replay = self._replay_single  # type: ignore[method-assign,assignment]

    def _prune_written(self) -> None:
        """Drop from the storage written in place the buffers nothing outside this program references (intermediates
        of the captured call, once its tensors are gone): no graph can read their versions, since a forward graph's
        stamp holds its buffer, and no reference to them can appear again. Saves a Python step per such buffer per
        replay, and may let the program take `_replay_single`."""
        held = Counter(id(b) for b in self.fixed)
        held.update(id(b) for b in self.written_bufs)
        for seg in self.segments:
            if isinstance(seg, _Step):
                held.update(id(w) for changing, w in seg.where if not changing)
        # a buffer's count: the references counted in `held`, the loop variable and getrefcount's own argument
        self.written_bufs = [b for b in self.written_bufs if getrefcount(b) - 2 > held[id(b)]]
        # nothing can pass a dropped buffer in as an input, and no lazy graph reads one
        self.written_fixed = {id(b) for b in self.written_bufs}
        self.writes = bool(self.written_fixed or self.written_inputs)
        if self.runnable and self.mode == 1:
            self._choose_replay()

    def _step(self, kernel: CompiledKernel, slots: list[int], threaded: bool) -> _Step:
        where = [(True, s) if s < self.n_changing else (False, self.fixed[s - self.n_changing]) for s in slots]
        return _Step(kernel, where, threaded)

    def replay(self, ins: list[Buffer | None], callers: list[Tensor] | None = None) -> Any:
        """Run the captured launches on input buffers `ins` (same sizes and dtypes as captured); returns the outputs.
        `callers`: the caller's input tensors (a returned input is the caller's tensor, as without jit)."""
        with self.lock:  # the pointer table and the output pool are shared: one replay at a time
            start = time.perf_counter()
            if self.written_fixed:
                ins = [_copy(b) if b is not None and id(b) in self.written_fixed else b for b in ins]
            self.replays += 1
            if self.replays == self.next_prune:
                self.next_prune *= 4
                self._prune_written()
            for b in self.written_bufs:  # storage written in place: a remembered forward graph reading it is stale
                b.version += 1
            for i in self.written_inputs:
                ins[i].version += 1  # type: ignore[union-attr]
            arrays = [ins[i].kernel_array() for i in self.input_slots]  # type: ignore[union-attr]
            outs: list[list[Any]] = []
            for j, entry in enumerate(self.pool):
                # last replay's storage when only the pool references it (`_free`)
                if entry is None or not _free(entry):
                    entry = self._new_output(j)
                if self.out_initial[j] is not None:
                    entry[2][...] = self.out_initial[j]
                outs.append(entry)
                arrays.append(entry[3])
            if self.runnable:
                if self.mode == 2:
                    self._run_steps([ins[i] for i in self.input_slots] + [e[1] for e in outs])  # type: ignore[misc]
                else:
                    table = self.ctable
                    for k, i in enumerate(self.input_slots):
                        table[k] = ins[i].address()  # type: ignore[union-attr]
                    k = len(self.input_slots)
                    for j, e in enumerate(outs):
                        table[k + j] = e[6]
                    # read at each replay, as an eager realisation does, so a Context(SMALL_BLAS_THREADS=...) around
                    # the call applies
                    if self.small_gemms and (cap := runtime_numba.small_blas_threads()):
                        with runtime_numba.blas_threads(cap):
                            self._run_driver(arrays)
                    else:
                        self._run_driver(arrays)
            COUNTERS.kernels_launched += self.n_kernels
            COUNTERS.bytes_moved += self.bytes_moved
            COUNTERS.flops += self.flops
            COUNTERS.kernel_time += time.perf_counter() - start
            for j in self.grad_outs:  # eager execution would give it an autograd graph; a replay has none
                mark_without_graph(outs[j][0], f"a tensor returned by a replay of @lazyarr.jit function {self.name} "
                                   "has no autograd graph (a replay runs the captured kernels, not the Python body), "
                                   "so no gradient can flow back through it. Call backward() inside the jitted "
                                   "function (e.g. jit a whole training step), or call the function without jit.")
            for g in self.grads:  # the `.grad` the body left (a training step's gradient, or None after zero_grad)
                if (t := g.ref()) is not None:
                    t._grad = g.after
            if self.checks:
                self.check_indices()
            return self._rebuild(self.template, ins, outs, callers)

    def check_indices(self) -> None:
        """IndexError when an index the call used was out of range (the kernels clamped it: nothing outside a buffer
        was read or written, but the results are not NumPy's)."""
        for bad, value, message in self.checks:
            if _scalar(bad):
                raise IndexError(message.format(int(_scalar(value))))

    def grads_match(self) -> bool:
        """Whether every `.grad` the captured body read before setting is still the tensor (or None) it read: else a
        replay would add into (or overwrite) the wrong storage, or leave the `.grad` eager execution sets unset."""
        for g in self.grads:
            if g.read is not _UNREAD and (t := g.ref()) is not None and t._grad is not g.read:
                return False
        return True

    def _replay_single(self, ins: list[Buffer], callers: list[Tensor] | None = None) -> Tensor:
        """`replay` for the common case: one driver, every input a buffer, one new Tensor returned (a whole output, or
        a view of one: its movement ops were applied once, in `_new_output`)."""
        self.acquire()  # the pointer table and the output pool are shared: one replay at a time (no `with`: slower)
        try:
            start = perf_counter()
            entry = self.pool[0]
            # `_free`, inline
            if entry is None or entry[5].base is not entry[0] or getrefcount(entry[0]) + getrefcount(entry[1]) + \
                    getrefcount(entry[2]) + getrefcount(entry[7]) != entry[4]:
                entry = self._new_output(0)
            table = self.ctable
            k = 0
            for b in ins:
                table[k] = b._address or b.address()
                k += 1
            table[k] = entry[6]
            self.run_first(self.table_address)
            tally = self.tally
            tally.replays += 1
            tally.seconds += perf_counter() - start
            # Tensor._new without what cannot apply: a whole buffer is no view, and it reads no storage but its own
            # (so jit's watch list of lazy readers, `inplace.recent`, would skip it); under no_grad too, as a new leaf
            t = _new_tensor(Tensor)
            t.uop, t.device, t._requires_grad, t.grad, t._ctx = entry[7], self.out_device, None, None, None
            t._group = group = entry[5]
            ref = _ref(t)  # IdentitySet.add, inline, into both sets (one weak reference serves both)
            members = group.members
            if not self.shares_sets_lock:
                sets_acquire()
            try:
                refs = all_tensors.refs
                refs[id(t)] = ref
                if len(refs) > all_tensors.limit:
                    all_tensors.sweep()
                refs = members.refs
                refs[id(t)] = ref
                if len(refs) > members.limit:
                    members.sweep()
            finally:
                if not self.shares_sets_lock:
                    sets_release()
        finally:
            self.release()
        return t

    def _new_output(self, j: int) -> list[Any]:
        """New storage for output j: [BUFFER UOp, Buffer, array, kernel array, reference counts when only the pool
        holds them (`_held`), the in-place group that owns the storage (kept, so a reused buffer needs no new group),
        the storage's address (CPU), the UOp `_replay_single` returns (the BUFFER UOp under `out_chain`, else the
        BUFFER UOp itself)]. The top UOp is counted too: a tensor or view holding it holds the storage without holding
        the BUFFER UOp any more than the pool does."""
        size, dt, dev = self.out_specs[j]
        buf = Buffer(size, dt, dev, np.empty(size, dt.np_name) if dev == "CPU" else None)
        holder = Tensor(UOp(Ops.BUFFER, dt, (), buf), device=dev)
        own_buffer(holder)
        group = holder._group
        group.members.discard(holder)
        address = buf.address() if dev == "CPU" else 0
        top = group.base
        for op, arg in self.out_chain if j == self.out_chain_index else ():
            top = UOp(op, top.dtype, (top,), arg)
        self.pool[j] = [group.base, buf, buf.array, buf.kernel_array(), None, group, address, top]
        del buf, holder, group, top
        entry = self.pool[j]
        entry[4] = _held(entry)
        return entry

    def _run_driver(self, arrays: list[np.ndarray]) -> None:
        if self.single:
            self.run_first(self.table_address)
        else:
            self._run_segments(arrays)

    def _run_segments(self, arrays: list[np.ndarray]) -> None:
        for seg in self.segments:
            if isinstance(seg, _Step):
                low = seg.kernel.lowered
                bufs = [arrays[w] if changing else w.kernel_array() for changing, w in seg.where]
                runtime_numba.launch(seg.kernel.fn, bufs, low.args, low.program.parallel, low.outer_size,
                                     low.work, low.split_unit)
            else:
                seg.run(self.table_address)

    def _run_steps(self, changing: list[Buffer]) -> None:
        for seg in self.segments:
            ExecItem(seg.kernel, [changing[w] if c else w for c, w in seg.where]).execute()
        COUNTERS.kernels_launched -= self.n_kernels  # execute() counted them; replay() counts once for all paths
        COUNTERS.bytes_moved -= self.bytes_moved
        COUNTERS.flops -= self.flops


_new_tensor = Tensor.__new__
_ref = weakref.ref
sets_acquire, sets_release = SETS_LOCK.acquire, SETS_LOCK.release


def _held(entry: list[Any]) -> int:
    """The reference counts of an output pool entry's BUFFER UOp, Buffer, array and top UOp (see `_new_output`)."""
    return getrefcount(entry[0]) + getrefcount(entry[1]) + getrefcount(entry[2]) + getrefcount(entry[7])


def _free(entry: list[Any]) -> bool:
    """Whether only the pool references an output's storage, so a replay may write its result there.

    The sum of the four counts (`_held`) is its value when only the pool holds them iff each count is, since none
    drops below it: the pool holds its own references, a Buffer's array is never replaced, and the in-place group's
    base is the BUFFER UOp. That base is the one reference that moves: a write into the storage that is still
    pending makes it the write (an ASSIGN), which reads the storage through a view (the top UOp, or a shrink of the
    BUFFER UOp), so the counts can sum to their pool-only value while the write, and lazy values built on it, still
    read the storage. So storage under a pending write is not free (once the write is realised, the BUFFER UOp is
    the base again)."""
    return entry[5].base is entry[0] and _held(entry) == entry[4]


def views_input(value: Tensor, buf: Buffer) -> bool:
    """Whether returned `value`, over input storage `buf`, is the input or a view of it: a member of the in-place
    group that owns `buf`. Only then is it the caller's tensor, or that view of it (`caller_view`). Other tensors over
    the storage are arrays of their own, as without jit: a computed value the schedule left on the input's storage
    (x * 1 is x), or a view of a pad of the input (a pad is a new array, np.pad, with its own group)."""
    return value._group is not None and value._group.buffer is buf


def caller_view(caller: Tensor, chain: list[tuple[Ops, Any]]) -> Tensor | None:
    """What a returned input is for the caller: `caller` itself, or a view of it, when the result was the input given
    to the captured call under movement ops `chain` (taken on the input's flat storage, whose first op reshapes it to
    the input's shape unless the input is 1-D); None when the chain does not start from the input's shape (the result
    is then a tensor over the storage, as before). A view is made by the caller's tensor as any view (`Tensor._new`),
    so it joins its in-place group: writes through either reach the other, as without jit."""
    if chain and chain[0] == (Ops.RESHAPE, caller.shape):
        ops = chain[1:]
    elif caller.ndim == 1:
        ops = chain
    else:
        return None
    if not ops:
        return caller
    u = caller.uop
    for op, arg in ops:
        u = UOp(op, u.dtype, (u,), arg)
    return caller._new(u)


def _in_group(u: UOp, group: Any) -> bool:
    """Whether `u` still views the storage `group` owns (its base unchanged since the capture: the storage was written
    in place, not replaced), so a tensor of it belongs in that group: writes through it reach the group's members."""
    base = strip_movement(u)[1]
    return group.buffer is not None and base.op is Ops.BUFFER and base.arg is group.buffer and group.base is base


def _pads(chain: list[tuple[Ops, Any]]) -> bool:
    """Whether a returned tensor's movement ops include a pad: it is then a new array, no view of the storage under
    it, so it is no member of that storage's in-place group (a write into it makes storage of its own, which its
    views, members of its own group, see)."""
    return any(op is Ops.PAD for op, _ in chain)


def _owned(t: Tensor, group: Any) -> Tensor:
    """`t` (a view of `group`'s storage) as a member of the in-place group that owns it, so writes to `t` write that
    storage and reach its other views (frontend/inplace.py)."""
    t._group = group
    group.members.add(t)
    return t


def _copy(b: Buffer) -> Buffer:
    return Buffer(b.size, b.dtype, b.device, b.array.copy())


@dataclass
class _ListOf:
    items: list[Any]


@dataclass
class _DictOf:
    items: dict[Any, Any]


@dataclass
class _Const:
    value: Any
