"""`@lazyarr.jit`: a function (or method, per instance) in; a callable that captures its kernels and replays them out.

Lifecycle per input signature (TinyJit's): call 1 runs the function eagerly (kernels compile), call 2 runs it while
capturing every launch, calls 3+ replay the capture with the new inputs' buffers and do not run the Python body.
"""

from __future__ import annotations

import functools
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np

from lazyarr.frontend.autograd import grad_watchers
from lazyarr.frontend.inplace import (
    RECENT_CAP,
    _on,
    hold,
    is_realized,
    join_views,
    own_buffer,
    pending_writes,
    recent,
    stand_in_for,
)
from lazyarr.frontend.movement import capture_checks
from lazyarr.frontend.tensor import Tensor, all_tensors
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import chain_view, strip_movement
from lazyarr.graph.uop import UOp, arg_key
from lazyarr.helpers import JitError, env_flag, flag, open_contexts
from lazyarr.jit.capture import Capture, CapturedProgram, caller_view, views_input
from lazyarr.kernels import realize
from lazyarr.kernels.device import Buffer

R = TypeVar("R")

DEFAULT_MAX_CAPTURES = 8
_TENSOR = object()  # marks a Tensor's position in a signature key


class _State(threading.local):
    """Per thread: `running`, the names of the jitted functions running now (no nesting)."""

    def __init__(self) -> None:
        self.running: list[str] = []  # set when a thread first looks: a missing thread-local attribute is slow


_state = _State()
_busy = [0]  # jitted bodies running now, in all threads (while 0, no thread-local read is needed to rule out nesting)
_busy_lock = threading.Lock()
_slow_lock = threading.RLock()  # held by calls that run the body (warm-up, capture, eager) or realise lazy readers
_BUFFER = Ops.BUFFER


class JitWarning(UserWarning):
    """`lazyarr.jit` had to fall back to running a function eagerly (e.g. too many input signatures)."""


def jit(fn: Callable[..., R] | None = None, *, max_captures: int = DEFAULT_MAX_CAPTURES) -> Any:
    """Capture the kernels `fn` launches and replay them on later calls (`@lazyarr.jit` or `@lazyarr.jit(...)`).

    For each input signature: call 1 runs `fn` normally (compiling kernels); call 2 runs it again and captures every
    kernel launch with its buffers; calls 3+ replay those launches on the new inputs' buffers without running the
    Python body. On a method, each instance gets its own captures.

    Inputs are the Tensors among the arguments (positional and keyword, and one level inside lists, tuples and
    dicts), identified by position; unrealised inputs are realised first. The capture runs on copies of the inputs
    (so a Tensor passed as an input and also reached through a closure stays that closure's state), and inputs that
    are views or constants are also replayed on copies; in-place writes to a copy are copied back. The signature
    is the inputs' shapes, dtypes and devices plus the values of the other arguments (which must be hashable): a new
    signature (a smaller last batch, another Python float) starts its own lifecycle. At most `max_captures`
    signatures are captured per function (per instance); beyond that calls run eagerly, with a `JitWarning`. So do
    calls with an input that requires grad (a replay cannot set its `.grad`), also with a `JitWarning`.

    Everything else the function touches is baked in: Tensors reached through closures or `self` are used by buffer
    identity (so update state with `assign`, which writes in place: weights, optimizer moments and the RNG counter
    then change on every replay), and Python values computed in the body are frozen. Returned Tensors get fresh
    storage on every replay, so a result is never overwritten by a later call; other returned values are returned as
    captured. A replay's results have no autograd graph: a backward through one raises `JitError` (call backward()
    inside the function). Pending `assign`s are completed at the end of every call, even when nothing returned
    depends on them, and writes made between calls (`t.assign(...)`, `opt.param_groups[0]["lr"] = ...`) before the
    next one. Lazy values built before a call keep the values eager execution gives them: the lazy tensors that read
    storage a replay writes in place are realised before it (all lazy tensors that read storage, before a capture).

    Raises:
        JitError: reading tensor data (numpy/item/tolist/bool/float/int) during a capture; a function that launches
            no kernels; a jitted function called inside another; the same buffer passed as two inputs; an argument
            that is neither a Tensor nor hashable; a backward through a replay's result.
    """
    if fn is None:
        return lambda f: Jit(f, max_captures=max_captures)
    return Jit(fn, max_captures=max_captures)


class Jit(Generic[R]):
    """A jitted callable (see `jit`). `captures` maps each input signature to its `CapturedProgram`."""

    def __init__(self, fn: Callable[..., R], max_captures: int = DEFAULT_MAX_CAPTURES,
                 owner: weakref.ref[Any] | None = None) -> None:
        self.fn = fn
        self.max_captures = max_captures
        self.owner = owner
        self.name = getattr(fn, "__qualname__", repr(fn))
        self.captures: dict[tuple[Any, ...], CapturedProgram] = {}
        self.warmed: set[tuple[Any, ...]] = set()
        self.eager: set[tuple[Any, ...]] = set()  # signatures with an input that requires grad: always run eagerly
        # per signature, the inputs whose storage its eager call wrote: a capture on inputs that overlap in storage
        # must not run when the body writes them (it writes a separate copy of each: `_overlapping`)
        self.input_writes: dict[tuple[Any, ...], set[int]] = {}
        self.memo: tuple[Any, ...] | None = None  # (shape, dtype, device, program) of the last single-Tensor replay
        self.per_instance: dict[int, Jit[R]] = {}  # id(instance) -> its Jit (removed when the instance dies)
        self.warned = False
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        # one Jit per instance, found by identity (not ==) and kept out of the instance's __dict__, so copies,
        # deep copies and pickles of the instance never carry (or share) another instance's captures
        bound = self.per_instance.get(id(obj))
        if bound is not None and bound.owner is not None and bound.owner() is obj:
            return bound
        if not _weakrefable(obj):  # an object without weak references: bind strongly, keep nothing
            bound = Jit(self.fn.__get__(obj, objtype), self.max_captures)  # type: ignore[attr-defined]
            bound.name = self.name
            return bound
        per_instance, key = self.per_instance, id(obj)

        def forget(ref: weakref.ref[Any]) -> None:
            if (b := per_instance.get(key)) is not None and b.owner is ref:
                del per_instance[key]

        bound = Jit(self.fn, self.max_captures, weakref.ref(obj, forget))
        bound.name = self.name
        per_instance[key] = bound
        return bound

    def reset(self) -> None:
        """Forget every capture: the next call of each signature runs eagerly again."""
        self.captures.clear()
        self.warmed.clear()
        self.eager.clear()
        self.input_writes.clear()
        self.memo = None

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        if _busy[0] and (running := _state.running):  # some thread runs a jitted body: is it this one?
            raise JitError(f"@lazyarr.jit function {self.name} was called inside @lazyarr.jit function "
                           f"{running[-1]}: nested jit is not supported (the inner call would replay outside the "
                           "outer capture). Jit only the outermost function.")
        if self.owner is not None:
            obj = self.owner()
            if obj is None:
                raise JitError(f"the instance of jitted method {self.name} no longer exists")
            args = (obj, *args)
        if not (flag("JIT") if open_contexts[0] else env_flag("JIT")):
            return self.fn(*args, **kwargs)
        if pending_writes[0]:  # writes made before this call: a replay must see them, a capture must not record them
            _complete_writes()
        # one whole-buffer Tensor that does not require grad: the key _signature gives, without its loops
        if not kwargs and len(args) == 1 and self.owner is None and isinstance(a := args[0], Tensor) \
                and (u := a.uop).op is _BUFFER and not a._requires_grad:
            memo = self.memo  # the last single-Tensor signature replayed: equal shapes compare without a key's hash
            if memo is not None and u.dtype is memo[1] and a.device == memo[2] and u.shape == memo[0]:
                program = memo[3]
            else:
                key = ((_TENSOR, u.shape, u.dtype, a.device),)
                program = self.captures.get(key)
                if program is not None:
                    self.memo = (u.shape, u.dtype, a.device, program)
            if program is not None and not (program.writes and (recent or _watch)) and \
                    (not program.grads or program.grads_match()):
                return program.replay([u.arg], [a])  # type: ignore[no-any-return]
            key = ((_TENSOR, u.shape, u.dtype, a.device),)  # (not built on a memo hit)
            tensors, plain = [a], [u.arg]
        else:
            key, tensors, plain = _signature(args, kwargs, self.owner is not None)
        program = self.captures.get(key)
        if program is not None and plain is not None and not (program.writes and (recent or _watch)) and \
                (not program.grads or program.grads_match()):
            return program.replay(plain, tensors)  # type: ignore[no-any-return]
        # everything else looks at or realises other tensors (in every thread): one thread at a time, so a capture
        # never loses its launches to another thread's realisation of its lazy values
        with _slow_lock:
            return self._call_locked(args, kwargs, key, tensors, plain)

    def _call_locked(self, args: tuple[Any, ...], kwargs: dict[str, Any], key: tuple[Any, ...],
                     tensors: list[Tensor], plain: list[Buffer | None] | None) -> Any:
        program = self.captures.get(key)  # (another thread may have captured it meanwhile)
        if program is not None and program.grads and not program.grads_match():
            # a `.grad` the capture read (to add into, or as None) is another tensor now, e.g. zero_grad() ran
            # outside the function: capture again for this state, as eager execution would run differently
            del self.captures[key]
            self.memo = None
            program = None
        if program is not None:
            if plain is not None:
                if program.writes and (recent or _watch) and _keep_old_values(program, plain):
                    plain = [_plain_buffer(t) for t in tensors]  # an input that was an alias has storage of its own
                return program.replay(plain, tensors)  # type: ignore[no-any-return]
            if program.written_inputs and _overlapping(tensors) & set(program.written_inputs):
                return self._overlap_eager(args, kwargs)
            bufs, replaced = _prepare_inputs(tensors)
            if program.writes and (recent or _watch) and _keep_old_values(program, bufs):
                bufs, replaced = _prepare_inputs(tensors)
            out = program.replay(bufs, tensors)
            _write_back(tensors, replaced, {i for i in program.written_inputs if i in replaced})
            return out  # type: ignore[no-any-return]
        if key in self.eager:
            return self._run(args, kwargs, None)
        bufs, replaced = _prepare_inputs(tensors)
        if key not in self.warmed:  # runs eagerly, on the inputs as given (a write to a view input reaches its base)
            if len(self.warmed) >= self.max_captures:
                self._warn_full()
                return self._run(args, kwargs, None)
            versions = [(i, b, b.version) for i, t in enumerate(tensors) if (b := _storage(t)) is not None]
            out = self._run(args, kwargs, None)
            self.warmed.add(key)
            # (a write to storage the input's array does not own gives the array new storage instead)
            self.input_writes[key] = {i for i, b, v in versions if b.version != v or _storage(tensors[i]) is not b}
            return out
        if any(t._requires_grad for t in tensors):
            # a replay would not set the input's .grad nor give the results an autograd graph reaching it: Python
            # state that only the body makes
            self.eager.add(key)
            warnings.warn(f"@lazyarr.jit {self.name}: an input Tensor requires grad; calls with such inputs run "
                          "eagerly, since a replay (which does not run the Python body) cannot set its .grad or give "
                          "the results an autograd graph. To jit it, pass tensors that do not require grad and reach "
                          "parameters through a closure or self.", JitWarning, stacklevel=2)
            return self._run(args, kwargs, None)
        if _overlapping(tensors) & self.input_writes.get(key, set()):
            return self._overlap_eager(args, kwargs)
        # the capture cannot tell which storage the body writes before it runs: every lazy reader of storage is
        # realised first (once per capture), so a write the capture records is never undone for it by a replay
        if _keep_old_values(None, bufs):
            bufs, replaced = _prepare_inputs(tensors)
        # the capture runs on copies of every input (views and constants were copied above): an input slot is then
        # exactly its copy's storage, never the storage of a Tensor the body also reaches through a closure or self
        own = _fresh_copies(tensors, bufs, replaced)
        args, kwargs = _substitute(args, kwargs, replaced)
        cap = Capture(self.name, _live_buffers())
        try:
            out = self._run(args, kwargs, cap)
            self.captures[key] = program = CapturedProgram(self.name, bufs, cap.items, cap.created(), out,
                                                           cap.initial, cap.tensors, cap.grad_records(), cap.checks)
            program.check_indices()
        finally:  # in-place writes to the copies reach the caller's tensors
            _write_back(tensors, replaced, {i for i in replaced if id(bufs[i]) in cap.written})
            _restore_grads(tensors, replaced)
        return _unswap(out, tensors, replaced, own)  # type: ignore[no-any-return]

    def _run(self, args: tuple[Any, ...], kwargs: dict[str, Any], cap: Capture | None) -> Any:
        """Run the body (capturing into `cap` when given), then realise what it returns and its pending assigns."""
        running = _running()
        running.append(self.name)
        with _busy_lock:
            _busy[0] += 1
        if cap is not None:
            realize.capturing.append(cap)
            grad_watchers.append(cap.on_grad)
            capture_checks.clear()
        try:
            out = self.fn(*args, **kwargs)
            if cap is not None:  # the range checks of indices the body used: computed with the call, every replay
                cap.checks = list(capture_checks)
                capture_checks.clear()
            _finish(out, [t for bad, value, _ in cap.checks for t in (bad, value)] if cap is not None else [])
        finally:
            running.pop()
            with _busy_lock:
                _busy[0] -= 1
            if cap is not None:
                realize.capturing.remove(cap)
                grad_watchers.remove(cap.on_grad)
        return out

    def _overlap_eager(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Run a call eagerly whose inputs overlap in storage (views of one array) while the body writes one of them:
        a capture or replay runs on a copy of each view input, so a write through one would not reach the others
        (nor the reads of them that follow), and the write-backs of overlapping copies would undo one another."""
        warnings.warn(f"@lazyarr.jit {self.name}: inputs that share storage (views of one array) and a body that "
                      "writes one of them: this call runs eagerly, since a replay works on a copy of each view "
                      "input. Pass inputs that do not overlap (or copies) to replay it.", JitWarning, stacklevel=4)
        return self._run(args, kwargs, None)

    def _warn_full(self) -> None:
        if not self.warned:
            self.warned = True
            warnings.warn(f"@lazyarr.jit {self.name}: {self.max_captures} input signatures already captured; calls "
                          "with new signatures run eagerly (pass max_captures=... to raise the bound, or keep shapes "
                          "and Python arguments fixed, e.g. by padding the last batch)", JitWarning, stacklevel=3)


def _running() -> list[str]:
    return _state.running


def _weakrefable(obj: Any) -> bool:
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


# ---- inputs ----


def _signature(args: tuple[Any, ...], kwargs: dict[str, Any],
               method: bool) -> tuple[tuple[Any, ...], list[Tensor], list[Buffer | None] | None]:
    """(signature key, input Tensors in order, their buffers if every input is a plain whole buffer else None)."""
    tensors: list[Tensor] = []
    key: list[Any] = []
    bufs: list[Buffer | None] | None = []
    for a in args[1:] if method else args:  # a method's self: the capture belongs to this instance already
        if isinstance(a, Tensor):  # the common case, inline
            u = a.uop
            tensors.append(a)
            key.append((_TENSOR, u.shape, u.dtype, a.device, True) if a._requires_grad else
                       (_TENSOR, u.shape, u.dtype, a.device))
            base = u.src[0] if u.op is Ops.RESHAPE else u  # a reshape keeps the element count: the whole buffer
            if bufs is not None and base.op is Ops.BUFFER:
                bufs.append(base.arg)
            else:
                bufs = None
        else:
            n = len(tensors)
            _key_item(a, tensors, key, True)
            if bufs is not None:
                bufs = _plain_buffers(tensors[n:], bufs)
    if kwargs:
        for name in sorted(kwargs):
            key.append(name)
            n = len(tensors)
            _key_item(kwargs[name], tensors, key, True)
            if bufs is not None:
                bufs = _plain_buffers(tensors[n:], bufs)
    if bufs is not None and len(bufs) > 1 and len({id(b) for b in bufs}) != len(bufs):
        _refuse_duplicates(tensors, bufs)
    return tuple(key), tensors, bufs


def _plain_buffers(new: list[Tensor], bufs: list[Buffer | None]) -> list[Buffer | None] | None:
    for t in new:
        b = _plain_buffer(t)
        if b is None:
            return None
        bufs.append(b)
    return bufs


def _key_item(v: Any, tensors: list[Tensor], key: list[Any], top: bool) -> None:
    if isinstance(v, Tensor):
        tensors.append(v)
        key.append((_TENSOR, v.uop.shape, v.uop.dtype, v.device, True) if v._requires_grad else
                   (_TENSOR, v.uop.shape, v.uop.dtype, v.device))
    elif top and isinstance(v, (list, tuple)):
        key.append((type(v), len(v)))
        for e in v:
            _key_item(e, tensors, key, False)
    elif top and isinstance(v, dict):
        key.append((dict, len(v)))
        for k in sorted(v, key=repr):
            key.append(k)
            _key_item(v[k], tensors, key, False)
    elif isinstance(v, (float, np.floating)):
        # -0.0 == 0.0 and nan != nan, but each is its own signature (its bits: float.hex() is "nan" for both signs)
        key.append((type(v), arg_key(float(v))))
    else:
        try:
            hash(v)
        except TypeError as e:
            raise JitError(f"@lazyarr.jit keys its captures by the values of non-Tensor arguments, and a "
                           f"{type(v).__name__} is not hashable: pass arrays as Tensors, and other values as "
                           "tuples or hashable objects") from e
        key.append((type(v), v))


def _plain_buffer(t: Tensor) -> Buffer | None:
    """The buffer of `t` when `t` is exactly that whole buffer in C order (the common case), else None."""
    u = t.uop
    base = u.src[0] if u.op is Ops.RESHAPE else u  # a reshape keeps the element count
    if base.op is Ops.BUFFER:
        return base.arg  # type: ignore[no-any-return]
    return None


def _prepare_inputs(tensors: list[Tensor]) -> tuple[list[Buffer | None], dict[int, Tensor]]:
    """(buffer per input, {input index: the Tensor to pass instead}); realises inputs, copies views/constants."""
    pending = [t for t in tensors if _plain_buffer(t) is None and t.size]
    if pending:
        Tensor.realize(*pending)
    bufs: list[Buffer | None] = []
    replaced: dict[int, Tensor] = {}
    for i, t in enumerate(tensors):
        b = _plain_buffer(t)
        if b is None and t.size:
            chain, base = strip_movement(t.uop)
            view = chain_view(chain, base.shape) if base.op is Ops.BUFFER else None
            if view is not None and view.contiguous and view.offset == 0 and view.mask is None and \
                    base.arg.size == t.size:
                b = base.arg
            else:
                copy = t.clone().realize()
                stand_in_for(copy, t)
                replaced[i] = copy
                b = _plain_buffer(copy)
                assert b is not None
        if b is not None:
            b.array  # noqa: B018  (allocate: a replay hands its pointer to the kernels)
        bufs.append(b)
    present = [b for b in bufs if b is not None]
    if len({id(b) for b in present}) != len(present):
        _refuse_duplicates(tensors, bufs)
    return bufs, replaced


def _storage(t: Tensor) -> Buffer | None:
    """The storage `t` is a movement of, if any (a lazy value or a constant has none)."""
    base = strip_movement(t.uop)[1]
    return base.arg if base.op is Ops.BUFFER and t.size else None  # type: ignore[no-any-return]


def _overlapping(tensors: list[Tensor]) -> set[int]:
    """The inputs (indices) that share an element of storage with another input: views of one array that overlap
    (`base.T` and `base`, `base[:, 1:]` and `base[:, :-1]`; not `base[0]` and `base[1]`), and broadcast inputs,
    whose elements share storage with one another (a write to `x[0]` of `b[:1].expand(3, 4)` writes `x[1]` too).
    Costs one pass over the storage, only when two inputs view the same storage."""
    by_storage: dict[int, list[int]] = {}
    found: set[int] = set()
    for i, t in enumerate(tensors):
        if (b := _storage(t)) is not None:
            by_storage.setdefault(id(b), []).append(i)
            chain, base = strip_movement(t.uop)
            view = chain_view(chain, base.shape)
            if view is None or any(st == 0 and n > 1 for n, st in zip(view.shape, view.strides)):
                found.add(i)
    for idx in by_storage.values():
        if len(idx) < 2:
            continue
        size = _storage(tensors[idx[0]]).size  # type: ignore[union-attr]
        seen = [_positions(tensors[i], size) for i in idx]
        count = np.zeros(size, np.int32)
        for pos in seen:
            count += pos
        shared = count > 1
        found.update(i for i, pos in zip(idx, seen) if (pos & shared).any())
    return found


def _positions(t: Tensor, size: int) -> np.ndarray:
    """A mask of the storage elements `t` (a movement of storage of `size` elements) reads."""
    chain, base = strip_movement(t.uop)
    view = chain_view(chain, base.shape)
    mask = np.zeros(size, bool)
    if view is None:  # a view stack: take it to reach anything
        mask[:] = True
        return mask
    flat = np.arange(size, dtype=np.int64)
    pos = np.lib.stride_tricks.as_strided(flat[view.offset:], shape=view.shape,
                                          strides=tuple(st * flat.itemsize for st in view.strides))
    if view.mask is not None:  # padding reads nothing
        pos = pos[tuple(slice(lo, hi) for lo, hi in view.mask)]
    mask[pos.reshape(-1)] = True
    return mask


def _refuse_duplicates(tensors: list[Tensor], bufs: list[Buffer | None]) -> None:
    seen: dict[int, int] = {}
    for i, b in enumerate(bufs):
        if b is None:
            continue
        if id(b) in seen:
            raise JitError(f"inputs {seen[id(b)]} and {i} of a @lazyarr.jit function share one buffer: a capture "
                           "identifies inputs by their storage, so it cannot tell them apart. Pass a copy "
                           "(t.clone()) for one of them.")
        seen[id(b)] = i


def _fresh_copies(tensors: list[Tensor], bufs: list[Buffer | None], replaced: dict[int, Tensor]) -> dict[int, Buffer]:
    """Copy every input not copied yet (same shape, dtype and contents, storage of its own) into `replaced` and
    `bufs`; returns {input index: the caller's buffer} for the inputs copied here."""
    own: dict[int, Buffer] = {}
    for i, b in enumerate(bufs):
        if b is not None and i not in replaced:
            own[i] = b
            t = tensors[i]
            bufs[i] = Buffer(b.size, b.dtype, b.device, b.array.copy())  # no kernel: the capture records none
            u = UOp(Ops.BUFFER, b.dtype, (), bufs[i])
            replaced[i] = copy = Tensor(u if t.shape == u.shape else u.reshape(t.shape), device=t.device)
            own_buffer(copy)
    for i, copy in replaced.items():  # a leaf that requires grad: gradients accumulate on the copy, then move back
        t = tensors[i]
        if t._requires_grad:
            copy.requires_grad = True
            copy.grad = t.grad
    return own


def _restore_grads(tensors: list[Tensor], replaced: dict[int, Tensor]) -> None:
    for i, copy in replaced.items():
        if tensors[i]._requires_grad:
            tensors[i].grad = copy.grad


def _unswap(out: Any, tensors: list[Tensor], replaced: dict[int, Tensor], own: dict[int, Buffer]) -> Any:
    """The capture call's return value with the copies of its inputs (view inputs copied by `_prepare_inputs`, the
    rest by `_fresh_copies`) swapped back: a copy itself becomes the caller's Tensor, a view of a copy the same view
    of the caller's Tensor (a member of its in-place group; `caller_view`), as replays return them."""
    if not replaced:
        return out
    by_tensor = {id(c): i for i, c in replaced.items()}
    by_buffer = {id(_plain_buffer(c)): i for i, c in replaced.items()}

    def swap(v: Any) -> Any:
        if isinstance(v, Tensor):
            if id(v) in by_tensor:
                return tensors[by_tensor[id(v)]]
            chain, base = strip_movement(v.uop)
            if base.op is not Ops.BUFFER or id(base.arg) not in by_buffer:
                return v
            i = by_buffer[id(base.arg)]
            t = tensors[i]
            if not views_input(v, base.arg):  # an array of its own over the copy's storage, as without jit
                return v
            if (view := caller_view(t, [(mv.op, mv.arg) for mv in reversed(chain)])) is not None:
                return view
            if i not in own:  # a copy of a view input, under movement ops not taken from its shape: stays a copy
                return v
            u = strip_movement(t.uop)[1]  # a whole-buffer input: the same ops on the caller's storage
            for mv in reversed(chain):
                u = UOp(mv.op, mv.dtype, (u,), mv.arg)
            view = Tensor(u, device=t.device)
            join_views(t, view)
            return view
        if isinstance(v, list):
            return [swap(e) for e in v]
        if isinstance(v, tuple):
            items = [swap(e) for e in v]
            return type(v)(*items) if hasattr(v, "_fields") else type(v)(items)
        if isinstance(v, dict):
            return {k: swap(e) for k, e in v.items()}
        return v

    return swap(out)


def _write_back(tensors: list[Tensor], replaced: dict[int, Tensor], written: set[int]) -> None:
    """Copy the copies of view inputs that the call wrote in place back into those views (and so their bases)."""
    if written:
        for i in sorted(written):
            tensors[i].assign(replaced[i])
        Tensor.realize(*(tensors[i] for i in sorted(written)))


def _substitute(args: tuple[Any, ...], kwargs: dict[str, Any],
                replaced: dict[int, Tensor]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """`args`/`kwargs` with input Tensor number i (in signature order) replaced by `replaced[i]`."""
    counter = iter(range(1 << 62))

    def swap(v: Any, top: bool) -> Any:
        if isinstance(v, Tensor):
            i = next(counter)
            return replaced.get(i, v)
        if top and isinstance(v, list):
            return [swap(e, False) for e in v]
        if top and isinstance(v, tuple):
            items = [swap(e, False) for e in v]
            return type(v)(*items) if hasattr(v, "_fields") else type(v)(items)
        if top and isinstance(v, dict):
            new = {k: swap(v[k], False) for k in sorted(v, key=repr)}  # the order inputs are numbered in
            return {k: new[k] for k in v}
        return v

    new_args = tuple(swap(a, True) for a in args)
    new_kwargs = {k: swap(kwargs[k], True) for k in sorted(kwargs)}
    return new_args, new_kwargs


def _graph_buffers(u: UOp, seen: set[UOp]) -> Iterator[Buffer]:
    """The buffers the graph of `u` reads, skipping nodes in `seen` (which the walk fills)."""
    stack = [u]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n.op is Ops.BUFFER:
            yield n.arg
        stack.extend(n.src)


def _live_buffers() -> dict[int, Buffer]:
    """Every buffer the graphs of live tensors reach, by id."""
    seen: set[UOp] = set()
    return {id(b): b for t in list(all_tensors) for b in _graph_buffers(t.uop, seen)}


# ---- lazy values that a replay's in-place writes must not reach ----

# id(tensor) -> [weak reference, the UOp its buffers were listed for, ids of the buffers its graph reads]: the live
# tensors that may be lazy readers of storage, or aliases of storage they do not own (`_alias_of`), filled from
# `inplace.recent` and pruned as they die or are realised (an alias: once it has storage of its own)
_watch: dict[int, list[Any]] = {}


def _keep_old_values(program: CapturedProgram | None, ins: list[Buffer | None]) -> bool:
    """Realise the live lazy tensors whose graphs read storage that `program` writes in place on inputs `ins`
    (every lazy reader of any storage when `program` is None), so they keep the value eager execution gives them:
    a replay writes storage directly, without the copy-on-write of an eager realisation (frontend/inplace.py). The
    realised aliases of such storage (`_alias_of`: `w * 1` left on `w`'s storage) get storage of their own, for the
    same reason; before a capture every alias does, or the copy-on-write of the captured call would be recorded and
    rerun by every replay, overwriting the alias with the storage's contents of that replay.

    Only the tensors made since the last look (`inplace.recent`) and the lazy readers and aliases already watched are
    looked at; when `recent` filled up, every live tensor. Returns whether an alias got storage of its own (an input
    that was one has other storage now)."""
    if len(recent) >= RECENT_CAP:
        for t in list(all_tensors):
            if not is_realized(t.uop) or _alias_of(t) is not None:
                _watch[id(t)] = [weakref.ref(t), None, frozenset()]
    else:
        for r in recent:
            u = r()
            if u is None or (u.uop.op is _BUFFER and (g := u._group) is not None and g.buffer is u.uop.arg):
                continue  # a whole buffer its array owns: the usual
            if not is_realized(u.uop) or _alias_of(u) is not None:
                _watch[id(u)] = [r, None, frozenset()]
    recent.clear()
    if not _watch:
        return False
    written: set[int] | None = None
    if program is not None:
        written = set(program.written_fixed)
        written.update(id(ins[i]) for i in program.written_inputs)
    hits: list[Tensor] = []
    aliases: list[Tensor] = []
    for key, entry in list(_watch.items()):
        t = entry[0]()
        if t is None:
            _watch.pop(key, None)
            continue
        if is_realized(t.uop):
            if (b := _alias_of(t)) is None:
                _watch.pop(key, None)
            elif written is None or id(b) in written:
                aliases.append(t)
                _watch.pop(key, None)
            continue
        if entry[1] is not t.uop:
            entry[1], entry[2] = t.uop, _buffer_ids(t.uop)
        if not entry[2]:
            _watch.pop(key, None)  # reads no storage (a write that gives it a new value puts it in `recent` again)
        elif written is None or not entry[2].isdisjoint(written):
            hits.append(t)
    if hits:
        Tensor.realize(*hits)
        for t in hits:
            _watch.pop(id(t), None)
    if aliases:
        _copy_aliases(aliases)
    return bool(aliases)


def _alias_of(t: Tensor) -> Buffer | None:
    """The storage realised `t` reads without owning it, or None: `t` is then an array of its own that its schedule
    left on another array's storage (`w * 1` is `w`'s storage), or a view of one, so a write to that storage must not
    reach it (without jit, the realisation that writes copies it first)."""
    base = strip_movement(t.uop)[1]
    if base.op is not _BUFFER or ((g := t._group) is not None and g.buffer is base.arg):
        return None
    return base.arg  # type: ignore[no-any-return]


def _copy_aliases(aliases: list[Tensor]) -> None:
    """Give each alias (`_alias_of`) a copy of the storage it reads; the tensors of one array (an alias and its views)
    keep sharing one copy."""
    copies: dict[int, UOp] = {}
    for t in aliases:
        b = _alias_of(t)
        if b is None:  # moved already, with the array it views
            continue
        if id(b) not in copies:
            copies[id(b)] = UOp(Ops.BUFFER, b.dtype, (), Buffer(b.size, b.dtype, b.device, b.array.copy()))
        new = copies[id(b)]
        g = t._group
        for m in list(g.members) if g is not None else [t]:
            chain, base = strip_movement(m.uop)
            if base.op is _BUFFER and base.arg is b:
                m.uop = _on(chain, new)
                hold(m)
        if g is not None:
            chain, base = strip_movement(g.base)
            if base.op is _BUFFER and base.arg is b:
                g.base = _on(chain, new)


def _buffer_ids(u: UOp) -> frozenset[int]:
    """Ids of the buffers the graph of `u` reads."""
    return frozenset(id(b) for b in _graph_buffers(u, set()))


# ---- after the body ----


def _finish(out: Any, extra: list[Tensor]) -> None:
    """Realise the Tensors in `out`, `extra` and every pending assign, in one schedule."""
    todo: list[Tensor] = list(extra)
    _collect(out, todo)
    todo += _pending_assigns()
    if todo:
        Tensor.realize(*todo)


def _pending_assigns() -> list[Tensor]:
    """The live tensors whose value is a deferred in-place write (this clears `pending_writes`)."""
    pending_writes[0] = False
    return [t for t in list(all_tensors) if strip_movement(t.uop)[1].op is Ops.ASSIGN]


def _complete_writes() -> None:
    """Realise the in-place writes made before a call (outside the function), e.g. a new learning rate set with
    `opt.param_groups[0]["lr"] = ...` or a weight written with `assign`."""
    todo = _pending_assigns()
    if todo:
        Tensor.realize(*todo)


def _collect(v: Any, todo: list[Tensor]) -> None:
    if isinstance(v, Tensor):
        todo.append(v)
    elif isinstance(v, (list, tuple)):
        for e in v:
            _collect(e, todo)
    elif isinstance(v, dict):
        for e in v.values():
            _collect(e, todo)
