"""Execution: normalized roots in, the schedule run on real buffers, the roots' results (over BUFFERs) out.

Every kernel launch goes through `ExecItem.run`, except an eager plan's CPU kernels while nobody captures
(`Plan._run_direct`, the same launches without the per-launch bookkeeping); while `capturing` is non-empty each launch
is also handed to the capturers (the JIT), and the frontend asks them before it reads tensor data
(`check_data_read`), so this module never imports the JIT.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from lazyarr.graph import schedule as schedule_module
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import (
    NewBuffer,
    Schedule,
    ScheduleItem,
    chain_view,
    normalize,
    schedule,
    strip_movement,
    structure_key,
)
from lazyarr.graph.uop import UOp, toposort
from lazyarr.helpers import flag, flags, prod
from lazyarr.kernels import cuda_check, native, render_llvm, render_numba, runtime_cuda, runtime_numba
from lazyarr.kernels.device import Buffer
from lazyarr.kernels.lower import STREAM_MIN_BYTES, Lowered, lower
from lazyarr.kernels.stats import COUNTERS


class Capturer(Protocol):
    """What the JIT implements to watch execution while it captures a function."""

    def add(self, item: ExecItem) -> None:
        """A kernel launch (called before it runs; it still runs)."""

    def on_data_read(self, what: str) -> None:
        """Tensor data is about to be read on the host (`what`: e.g. "item()"); may raise to forbid it."""


capturing: list[Capturer] = []


def check_data_read(what: str) -> None:
    """Tell the capturers that tensor data is being read (they raise `JitError` during a capture)."""
    for c in capturing:
        c.on_data_read(what)


@dataclass
class CompiledKernel:
    """A lowered, rendered and compiled kernel with the runtime int args of the shapes (and float args of the constants)
    it was lowered for; `fn` is shared by every kernel of the same source, the args are this one's own.
    `full_write`: the kernel writes every element of its output buffer (slot 0)."""

    lowered: Lowered
    source: str
    fn: Any
    bytes_per_launch: int
    full_write: bool
    outputs: tuple[int, ...] = (0,)  # the kernel-local buffer slots it writes (a multi-output kernel has several)


class _KernelCache(dict):  # type: ignore[type-arg]
    """Compiled kernels by (item, buffer sizes, device). Clearing it also forgets the cached plans holding them."""

    def clear(self) -> None:
        super().clear()
        _plans.clear()


_kernels: dict[tuple[ScheduleItem, tuple[int, ...], str, str, int], CompiledKernel] = _KernelCache()


def _out_slot(out: UOp) -> int:
    """The kernel-local slot an ASSIGN(output view, value) of a kernel writes (through a scatter's data view too)."""
    view = out.src[0].src[0] if out.src[0].op is Ops.GATHER else out.src[0]
    return int(strip_movement(view)[1].arg.slot)


def get_kernel(item: ScheduleItem, buffer_sizes: tuple[int, ...], device: str = "CPU") -> CompiledKernel:
    """Lower, render and compile `item` for `device` (cached by the item, its buffers' sizes and the device)."""
    blas = runtime_numba.blas_route() if device == "CPU" else ""
    key = (item, buffer_sizes, device, blas, flag("VECTOR_WIDTH"))
    if key in _kernels:
        return _kernels[key]
    outs = {_out_slot(o): o for o in item.outputs}
    out_bytes = sum(prod(o.src[0].shape) * o.dtype.itemsize for o in outs.values())
    in_bytes = sum(min(n.arg.size, prod(item.full_shape)) * n.dtype.itemsize
                   for n in toposort(list(item.outputs)) if n.op is Ops.PARAM and n.arg.slot not in outs)
    fn: Any
    if device == "CUDA":
        low = lower(item)
        prog = runtime_cuda.build(low, buffer_sizes, compile=not flag("NULL"))
        source, fn = prog.spec.source, None if flag("NULL") else prog
    else:
        low = lower(item, blas=blas)
        # (only for kernels render_llvm builds: for others the flag would only split the kernel cache)
        if render_llvm.supports(low.program):
            low.program.stream = out_bytes + in_bytes >= STREAM_MIN_BYTES
            low.program.vector_width = render_llvm.vector_width()
        source = render_numba.render(low.program, "kernel")
        fn = None if flag("NULL") else runtime_numba.compile_source(source, low.program)
        if flag("CUDA_CHECK"):
            cuda_check.record(lower(item), buffer_sizes)
    if flag("DEBUG") >= 2:
        print(source)
    chain, base = strip_movement(item.ast.src[0])
    out_view = chain_view(chain, base.shape)
    full = out_view is not None and out_view.contiguous and out_view.size == buffer_sizes[0]
    ck = CompiledKernel(low, source, fn, out_bytes + in_bytes, full, tuple(outs))
    _kernels[key] = ck
    return ck


@dataclass
class ExecItem:
    """One launch: a compiled kernel and the buffers it runs on (slot order)."""

    kernel: CompiledKernel
    bufs: list[Buffer]

    @property
    def written(self) -> list[Buffer]:
        """The buffers this launch writes (`bufs[0]`, and more for a multi-output kernel)."""
        return [self.bufs[i] for i in self.kernel.outputs]

    def run(self) -> None:
        for c in capturing:
            c.add(self)
        self.execute()

    def execute(self) -> None:
        """Launch the kernel on `bufs` (counted in the stats; not seen by capturers)."""
        k = self.kernel
        COUNTERS.kernels_launched += 1
        COUNTERS.bytes_moved += k.bytes_per_launch
        COUNTERS.flops += k.lowered.flops
        fn = k.fn
        if fn is None:
            return
        low = k.lowered
        start = time.perf_counter()
        if fn.__class__ is runtime_numba.NativeKernel:  # the usual CPU kernel: each buffer as its (address, size)
            arrays = [x for b in self.bufs for x in (b.address(), b.size)]
            runtime_numba.launch(fn.raw, arrays, low.args, low.program.parallel, low.outer_size, low.work,
                                 low.split_unit)
            elapsed = time.perf_counter() - start
        elif isinstance(fn, runtime_cuda.CudaProgram):
            timed = runtime_cuda.launch(fn, [b.kernel_array() for b in self.bufs], low.int_args, low.float_args)
            elapsed = time.perf_counter() - start if timed is None else timed
        else:
            if isinstance(fn, runtime_numba.NativeKernel):
                fn, arrays = fn.raw, [x for b in self.bufs for x in (b.address(), b.size)]
            else:
                arrays = [b.kernel_array() for b in self.bufs]
            runtime_numba.launch(fn, arrays, low.args, low.program.parallel, low.outer_size, low.work,
                                 low.split_unit)
            elapsed = time.perf_counter() - start
        COUNTERS.kernel_time += elapsed
        if flag("DEBUG") >= 1:
            print(f"*** kernel {runtime_numba.kernel_name(k.source)[:11]} work {low.work:>10} "
                  f"{elapsed * 1e6:9.1f} us {k.bytes_per_launch / max(elapsed, 1e-9) / 1e9:7.2f} GB/s")


@dataclass
class Plan:
    """A schedule with its compiled kernels (one per item): what realising one graph structure takes. `launches` is
    derived once: a cached plan runs for every eager op of its structure."""

    schedule: Schedule
    kernels: list[CompiledKernel]
    launches: list[tuple[CompiledKernel, tuple[int, ...]]] = field(init=False)
    small_gemms: bool = field(init=False)
    # when every kernel is a CPU one (native, or a Numba dispatcher), the launches `ExecItem.execute` makes, without an
    # ExecItem and its checks (see `_run_direct`)
    direct: list[_Direct] | None = field(init=False)
    counts: tuple[int, int, int] = field(init=False)  # kernels, bytes moved and flops of one run (for COUNTERS)

    def __post_init__(self) -> None:
        self.launches = [(k, item.bufs) for k, item in zip(self.kernels, self.schedule.items)]
        # its matmuls are all small: BLAS runs them on SMALL_BLAS_THREADS threads (waking OpenBLAS's other threads
        # for a small product costs more than it saves, and a spinning one slows the next kernel's threads)
        self.small_gemms = runtime_numba.small_gemms([k.lowered for k in self.kernels])
        cpu = all(k.fn is not None and not isinstance(k.fn, runtime_cuda.CudaProgram) for k in self.kernels)
        self.direct = [_Direct(k, slots) for k, slots in self.launches] if cpu and not self.small_gemms else None
        self.counts = (len(self.kernels), sum(k.bytes_per_launch for k in self.kernels),
                       sum(k.lowered.flops for k in self.kernels))

    def run(self, inputs: list[Buffer], device: str) -> list[UOp]:
        """Launch the kernels on `inputs` (and new buffers on `device`); returns each root's value over BUFFERs."""
        bufs = [Buffer(b.size, b.dtype, device) if isinstance(b, NewBuffer) else inputs[b]
                for b in self.schedule.buffers]
        if self.direct is not None and not capturing and not flag("DEBUG"):
            self._run_direct(bufs)
        elif self.small_gemms and (cap := runtime_numba.small_blas_threads()):
            with runtime_numba.blas_threads(cap):
                for kernel, slots in self.launches:
                    ExecItem(kernel, [bufs[i] for i in slots]).run()
        else:
            for kernel, slots in self.launches:
                ExecItem(kernel, [bufs[i] for i in slots]).run()
        return [_substitute(r, bufs) for r in self.schedule.results]

    def _run_direct(self, bufs: list[Buffer]) -> None:
        """The kernels launched as `ExecItem.execute` launches them (an eager op's usual path: no capturer watches, no
        DEBUG line to print); the counters are added once for the whole plan."""
        start = time.perf_counter()
        parallel_min = flag("PARALLEL_MIN")
        for d in self.direct or ():
            if d.native:
                arrays: list[Any] = []
                for i in d.slots:
                    b = bufs[i]
                    arrays += (b._address or b.address(), b.size)
            else:
                arrays = [bufs[i].kernel_array() for i in d.slots]
            if not d.parallel or d.work < parallel_min or d.outer <= d.unit:
                status = d.fn(*arrays, *d.whole)
                if status:
                    native.check(status, str(d.fn))
            else:
                runtime_numba.launch(d.fn, arrays, d.scalars, True, d.outer, d.work, d.unit)
        kernels, moved, flops = self.counts
        COUNTERS.kernels_launched += kernels
        COUNTERS.bytes_moved += moved
        COUNTERS.flops += flops
        COUNTERS.kernel_time += time.perf_counter() - start


class _Direct:
    """One launch of `Plan._run_direct`: the callable (a native kernel's ctypes entry point, taking each buffer as its
    (address, size), or a Numba dispatcher, taking arrays), the plan's buffer indices, and the scalars after the
    buffers of a launch over the whole first loop (`whole`: ctypes values for a native kernel, converted once) or of a
    split one (`scalars`, `runtime_numba.launch`'s)."""

    __slots__ = ("fn", "slots", "native", "whole", "scalars", "parallel", "outer", "work", "unit")

    def __init__(self, kernel: CompiledKernel, slots: tuple[int, ...]) -> None:
        low = kernel.lowered
        self.native = isinstance(kernel.fn, runtime_numba.NativeKernel)
        self.fn = kernel.fn.raw if self.native else kernel.fn
        self.slots = slots
        self.scalars = list(low.args)
        self.parallel, self.outer, self.work, self.unit = low.program.parallel, low.outer_size, low.work, low.split_unit
        whole = [0, low.outer_size, *low.args] if low.program.parallel else list(low.args)
        if self.native:  # a value of the parameter's own ctypes type passes unconverted (0.3 of a 1.4 us call)
            kinds = self.fn.argtypes[2 * len(slots):]
            assert len(kinds) == len(whole), f"kernel takes {len(kinds)} scalars, given {len(whole)}"
            whole = [kind(v) for kind, v in zip(kinds, whole)]
        self.whole = tuple(whole)


# plans by `structure_key`, the device and the flags that change a schedule or its kernels (BLAS: a matmul is a BLAS
# call or a loop kernel); an eager op on new data only looks its plan up (no normalize, no schedule or kernel cache
# lookups)
_plans: dict[tuple[Any, ...], Plan] = {}
_PLAN_FLAGS = ("FUSE", "VERIFY", "BLAS", "VECTOR_WIDTH", "SCHEDULE_CACHE")  # SCHEDULE_CACHE last: read on its own
PLAN_CACHE_SIZE = 2048


def realize_uops(roots: list[UOp], device: str = "CPU",
                 structure: tuple[tuple[Any, ...], list[Buffer]] | None = None) -> list[UOp]:
    """Compute `roots` (graphs over BUFFER leaves) on `device`; returns each root's value as a view of a BUFFER, or a
    constant. `structure`: what `structure_key(roots)` returns, when the caller has it. Raises ValueError when a root
    reads a buffer on another device."""
    key, inputs = structure or structure_key(roots)
    for b in inputs:
        if b.device != device:
            raise ValueError(f"a computation on {device} reads a tensor on {b.device}; move it with .to({device!r})")
    settings = flags(_PLAN_FLAGS)
    plan_key = (key, device, settings)
    cached = settings[-1]  # SCHEDULE_CACHE
    plan = _plans.get(plan_key) if cached else None
    if plan is None:
        norm, norm_inputs = normalize(roots)
        # a cached plan is run on the buffers structure_key finds, so they must be normalize's, in its slot order
        assert len(norm_inputs) == len(inputs) and all(a is b for a, b in zip(norm_inputs, inputs))
        before = schedule_module.schedules_created
        sched = schedule(norm)
        COUNTERS.schedules_created += schedule_module.schedules_created - before
        plan = Plan(sched, [get_kernel(item, _sizes(sched, item, inputs), device) for item in sched.items])
        if cached:
            if len(_plans) >= PLAN_CACHE_SIZE:
                del _plans[next(iter(_plans))]
            _plans[plan_key] = plan
    return plan.run(inputs, device)


def _sizes(sched: Schedule, item: ScheduleItem, inputs: list[Buffer]) -> tuple[int, ...]:
    return tuple(b.size if isinstance(b := sched.buffers[i], NewBuffer) else inputs[b].size for i in item.bufs)


def run_schedule(sched: Schedule, inputs: list[Buffer], device: str | None = None,
                 kernels: list[CompiledKernel] | None = None) -> list[Buffer]:
    """Allocate the schedule's new buffers on `device` (default: the inputs') and launch its kernels in order
    (compiling them unless `kernels` are given); returns every buffer by index."""
    device = device or (inputs[0].device if inputs else "CPU")
    bufs = [Buffer(b.size, b.dtype, device) if isinstance(b, NewBuffer) else inputs[b] for b in sched.buffers]
    for k, item in enumerate(sched.items):
        item_bufs = [bufs[i] for i in item.bufs]
        kernel = kernels[k] if kernels is not None else get_kernel(item, tuple(b.size for b in item_bufs), device)
        ExecItem(kernel, item_bufs).run()
    return bufs


_PARAM, _BUFFER = Ops.PARAM, Ops.BUFFER  # module constants: an Enum member lookup is slow on Python 3.11


def _substitute(u: UOp, bufs: list[Buffer]) -> UOp:
    if u.op is _PARAM:
        return UOp(_BUFFER, u.dtype, (), bufs[u.arg.slot])
    if not u.src:
        return u
    return UOp(u.op, u.dtype, tuple(_substitute(s, bufs) for s in u.src), u.arg)
