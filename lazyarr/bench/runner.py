"""Timing: every workload under every contender (median of repeated samples after warm-up), lazyarr's kernel counts
and bytes moved, outputs checked against NumPy, and the limits (bandwidth from the STREAM probes, flop rate from
matmul) that ratios are taken against. Libraries that are not installed are skipped, with the reason recorded.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from lazyarr.bench.workloads import Workload

CONTENDERS = ["lazyarr", "lazyarr FUSE=0", "lazyarr jit", "numpy", "numexpr", "torch", "torch.compile", "jax"]
LAZY = ("lazyarr", "lazyarr FUSE=0", "lazyarr jit")


def fmt_time(s: float | None) -> str:
    """Seconds as µs, ms or s, 3-4 significant digits; None as a dash."""
    if s is None:
        return "–"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


class UnsupportedError(Exception):
    """A contender cannot run a workload (library missing, op unsupported); the message says why."""


@dataclass
class Result:
    """One (workload, contender) measurement; times in seconds (None when skipped)."""

    workload: str
    contender: str
    median_s: float | None = None
    min_s: float | None = None
    samples: list[float] = field(default_factory=list)
    first_call_s: float | None = None
    kernels: int | None = None
    bytes_moved: int | None = None
    correct: bool | None = None
    skipped: str = ""


def _module(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError as e:
        raise UnsupportedError(f"{name} not installed") from e


def make_thunk(w: Workload, contender: str, d: dict[str, np.ndarray]) -> Callable[[], Any]:
    """A no-argument callable that runs `w` once under `contender` (inputs prepared beforehand)."""
    if contender in w.custom:
        try:
            thunk = w.custom[contender](d, contender == "torch.compile")
        except ImportError as e:  # worded as for the other workloads, so the notes group them
            raise UnsupportedError(f"{e.name} not installed" if e.name else str(e)) from e
        except (NotImplementedError, AttributeError) as e:
            raise UnsupportedError(str(e)) from e
        return _unfused(thunk) if contender == "lazyarr FUSE=0" else thunk
    if contender == "numpy":
        return w.numpy(d)
    if contender == "numexpr":
        ne = _module("numexpr")  # "not installed" first: it says what to do
        if w.numexpr is None:
            raise UnsupportedError("not expressible in numexpr")
        return w.numexpr(d, ne)
    if contender in LAZY:
        import lazyarr
        from lazyarr import Tensor

        if w.lazy is None:
            raise UnsupportedError("not available in lazyarr yet")
        ts = [Tensor(a).realize() for a in d.values()]
        fn = w.lazy
        if contender == "lazyarr jit":
            if not hasattr(lazyarr, "jit"):
                raise UnsupportedError("lazyarr.jit not on this branch")
            fn = lazyarr.jit(fn)
        if contender == "lazyarr FUSE=0":
            return _unfused(lambda: fn(*ts))
        return lambda: fn(*ts)
    if contender in ("torch", "torch.compile"):
        torch = _module("torch")
        if w.torch is None:
            raise UnsupportedError("not written for torch")
        args = [torch.from_numpy(a) for a in d.values()]
        tfn = torch.compile(w.torch) if contender == "torch.compile" else w.torch
        return lambda: tfn(*args)
    if contender == "jax":
        jax = _module("jax")
        if w.jax is None:
            raise UnsupportedError("not written for jax")
        jargs = [jax.numpy.asarray(a) for a in d.values()]
        jfn = jax.jit(w.jax)
        return lambda: jax.block_until_ready(jfn(*jargs))
    raise UnsupportedError(f"unknown contender {contender}")


def _failure(e: BaseException) -> str:
    """A Result's `skipped` text for a contender that raised `e`."""
    return f"failed: {type(e).__name__}: {str(e)[:120]}"


def _unfused(thunk: Callable[[], Any]) -> Callable[[], Any]:
    """`thunk` run with FUSE=0 (one kernel per op)."""
    import lazyarr

    def unfused() -> Any:
        with lazyarr.Context(FUSE=0):
            return thunk()
    return unfused


def to_numpy(out: Any) -> Any:
    """A contender's output as NumPy arrays (tuples stay tuples)."""
    if isinstance(out, (tuple, list)):
        return tuple(to_numpy(o) for o in out)
    if hasattr(out, "numpy") and not isinstance(out, np.ndarray):
        return np.asarray(out.detach().numpy() if hasattr(out, "detach") else out.numpy())
    return np.asarray(out)


def close(got: Any, ref: Any) -> bool:
    """Same shapes and values within float32 tolerances (different algorithms round differently)."""
    if isinstance(ref, tuple):
        return isinstance(got, tuple) and len(got) == len(ref) and all(close(g, r) for g, r in zip(got, ref))
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
    return got.shape == ref.shape and bool(np.allclose(got, ref, rtol=2e-3, atol=2e-4 * scale))


def calls_per_sample(thunk: Callable[[], Any], sample_min_s: float) -> int:
    """How many calls of `thunk` one sample averages: enough to last `sample_min_s`, so microsecond workloads are not
    timer noise (one timed call decides)."""
    start = time.perf_counter()
    thunk()
    once = max(time.perf_counter() - start, 1e-7)
    return max(1, int(sample_min_s / once))


def sample(thunk: Callable[[], Any], calls: int, count: int) -> list[float]:
    """`count` samples of `thunk`, each the mean seconds per call over `calls` back-to-back calls, after one untimed
    call (the contender timed before may have left its threads asleep or the caches full of its data)."""
    thunk()
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        for _ in range(calls):
            thunk()
        samples.append((time.perf_counter() - start) / calls)
    return samples


def shares(repeat: int, rounds: int) -> list[int]:
    """`repeat` samples split over `rounds` rounds as evenly as possible (earlier rounds take the remainder); rounds
    is capped at repeat, so every round takes at least one sample. Raises ValueError unless both are ints >= 1."""
    for name, value in (("repeat", repeat), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, not {value!r}")
    rounds = min(rounds, repeat)
    return [repeat // rounds + (k < repeat % rounds) for k in range(rounds)]


@dataclass
class _Contender:
    """A contender of one workload while it is being measured."""

    result: Result
    thunk: Callable[[], Any]
    calls: int


def _prepare(w: Workload, contender: str, d: dict[str, np.ndarray], ref: Any, warmup: int,
             sample_min_s: float) -> _Contender | Result:
    """Build `contender`'s thunk, time its first call, check its output against `ref`, warm it up and choose its calls
    per sample; a contender that cannot run (or fails) comes back as a Result whose `skipped` says why."""
    res = Result(w.name, contender)
    try:
        thunk = make_thunk(w, contender, d)
        start = time.perf_counter()
        out = thunk()
        res.first_call_s = time.perf_counter() - start
        if w.check and ref is not None:
            try:
                res.correct = close(to_numpy(out), ref)
            except Exception:  # an output we cannot compare: leave it unknown
                res.correct = None
        del out
        for _ in range(warmup):
            thunk()
        calls = calls_per_sample(thunk, sample_min_s)
    except UnsupportedError as e:
        res.skipped = str(e)
        return res
    except Exception as e:  # a contender failing must not stop the run: record why
        res.skipped = _failure(e)
        return res
    return _Contender(res, thunk, calls)


def _count_kernels(c: _Contender) -> None:
    """lazyarr's kernels launched and bytes moved by one more call."""
    import lazyarr

    before = lazyarr.stats()
    c.thunk()
    after = lazyarr.stats()
    c.result.kernels = after.kernels_launched - before.kernels_launched
    c.result.bytes_moved = after.bytes_moved - before.bytes_moved


def run_workload(w: Workload, contenders: list[str], repeat: int, warmup: int, sample_min_s: float,
                 rounds: int = 3, progress: Callable[[str], None] | None = None) -> list[Result]:
    """`w` under every contender, in the order given. Each contender is first prepared (`_prepare`: its first call,
    the check of its output, its warm-up); then the samples are taken in `rounds` rounds, each contender taking its
    share of `repeat` samples in turn and the order reversed every round. So a machine whose speed drifts while a
    workload is measured (other tenants, clock changes) slows every contender alike, and the ratios between them are
    those of the same minutes; within a round each contender's samples are back-to-back calls, as in a user's loop.
    Every contender's state (its compiled function, its copy of the inputs) is alive until the last round, so peak
    memory is the sum of theirs. `progress` gets a line as each contender is prepared and as each result is done.
    Raises ValueError when repeat or rounds is not an int >= 1."""
    plan = shares(repeat, rounds)
    d = w.data(np.random.default_rng(0))
    ref = to_numpy(w.numpy(d)()) if w.check else None
    prepared = []
    for c in contenders:
        p = _prepare(w, c, d, ref, warmup, sample_min_s)
        prepared.append(p)
        if progress is not None and isinstance(p, _Contender):
            progress(f"{w.name:<22} {c:<16} first call {fmt_time(p.result.first_call_s)}, "
                     f"{p.calls} call(s) per sample")
    live = [p for p in prepared if isinstance(p, _Contender)]
    for k, count in enumerate(plan):
        for c in live if k % 2 == 0 else live[::-1]:
            if c.result.skipped:
                continue
            try:
                c.result.samples += sample(c.thunk, c.calls, count)
            except Exception as e:  # failed after it had run: record why, keep the others going
                c.result.skipped = _failure(e)
                c.result.samples = []
    results = []
    for p in prepared:
        if isinstance(p, Result):
            results.append(p)
            continue
        res = p.result
        if res.samples and res.contender in LAZY:
            try:
                _count_kernels(p)
            except Exception as e:  # as a failure in the rounds: its samples cannot be trusted
                res.skipped = _failure(e)
                res.samples, res.kernels, res.bytes_moved = [], None, None
        if res.samples:
            res.median_s, res.min_s = statistics.median(res.samples), min(res.samples)
        results.append(res)
    return results


@dataclass
class Limits:
    """The best bandwidth (bytes/s) seen on the STREAM probes and the best flop rate seen on matmul."""

    bandwidth: float | None
    bandwidth_from: str
    flop_rate: float | None
    flop_rate_from: str

    def of(self, w: Workload) -> float | None:
        """The limit time of `w` (None for dispatch, or when no probe ran)."""
        if w.kind == "memory" and self.bandwidth and w.ideal_bytes:
            return w.ideal_bytes / self.bandwidth
        if w.kind == "compute" and self.flop_rate and w.flops:
            return w.flops / self.flop_rate
        return None


def limits(workloads: list[Workload], results: list[Result]) -> Limits:
    by_name = {w.name: w for w in workloads}
    bw: tuple[float | None, str] = (None, "")
    rate: tuple[float | None, str] = (None, "")
    for r in results:
        w = by_name[r.workload]
        if r.median_s is None or r.correct is False:
            continue
        if w.stream and (bw[0] is None or w.ideal_bytes / r.median_s > bw[0]):
            bw = (w.ideal_bytes / r.median_s, f"{r.workload} / {r.contender}")
        if w.name.startswith("matmul") and (rate[0] is None or w.flops / r.median_s > rate[0]):
            rate = (w.flops / r.median_s, f"{r.workload} / {r.contender}")
    return Limits(bw[0], bw[1], rate[0], rate[1])


def run(workloads: list[Workload], contenders: list[str], repeat: int = 15, warmup: int = 2,
        sample_min_s: float = 2e-3, rounds: int = 3, progress: Callable[[str], None] | None = None) -> list[Result]:
    """Every workload under every contender, one workload at a time (inputs shared by all contenders; see
    `run_workload` for how the samples are taken)."""
    shares(repeat, rounds)  # bad arguments fail before any workload runs
    results = []
    for w in workloads:
        for r in run_workload(w, contenders, repeat, warmup, sample_min_s, rounds, progress):
            results.append(r)
            if progress is not None:
                progress(f"{w.name:<22} {r.contender:<16} " + (r.skipped or f"median {fmt_time(r.median_s)}"))
    return results


def as_dict(results: list[Result], lim: Limits) -> dict[str, Any]:
    return {"results": [asdict(r) for r in results], "limits": asdict(lim)}
