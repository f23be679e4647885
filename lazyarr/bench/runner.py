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
            return w.custom[contender](d, contender == "torch.compile")
        except (ImportError, NotImplementedError, AttributeError) as e:
            raise UnsupportedError(str(e)) from e
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
            def unfused() -> Any:
                with lazyarr.Context(FUSE=0):
                    return fn(*ts)
            return unfused
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


def measure(thunk: Callable[[], Any], repeat: int, warmup: int, sample_min_s: float) -> tuple[float, list[float], Any]:
    """(first call time, per-call sample times, first output). A sample averages enough calls to last
    `sample_min_s`, so microsecond workloads are not timer noise."""
    start = time.perf_counter()
    out = thunk()
    first = time.perf_counter() - start
    for _ in range(warmup):
        thunk()
    start = time.perf_counter()
    thunk()
    once = max(time.perf_counter() - start, 1e-7)
    calls = max(1, int(sample_min_s / once))
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            thunk()
        samples.append((time.perf_counter() - start) / calls)
    return first, samples, out


def run_one(w: Workload, contender: str, d: dict[str, np.ndarray], ref: Any, repeat: int, warmup: int,
            sample_min_s: float) -> Result:
    res = Result(w.name, contender)
    try:
        thunk = make_thunk(w, contender, d)
        first, samples, out = measure(thunk, repeat, warmup, sample_min_s)
    except UnsupportedError as e:
        res.skipped = str(e)
        return res
    except Exception as e:  # a contender failing must not stop the run: record why
        res.skipped = f"failed: {type(e).__name__}: {str(e)[:120]}"
        return res
    res.first_call_s, res.samples = first, samples
    res.median_s, res.min_s = statistics.median(samples), min(samples)
    if w.check and ref is not None:
        try:
            res.correct = close(to_numpy(out), ref)
        except Exception:  # an output we cannot compare: leave it unknown
            res.correct = None
    if contender in LAZY:
        import lazyarr

        before = lazyarr.stats()
        thunk()
        after = lazyarr.stats()
        res.kernels = after.kernels_launched - before.kernels_launched
        res.bytes_moved = after.bytes_moved - before.bytes_moved
    return res


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
        sample_min_s: float = 2e-3, progress: Callable[[str], None] | None = None) -> list[Result]:
    """Every workload under every contender, one workload at a time (inputs shared by all contenders)."""
    results = []
    for w in workloads:
        d = w.data(np.random.default_rng(0))
        ref = to_numpy(w.numpy(d)()) if w.check else None
        for c in contenders:
            r = run_one(w, c, d, ref, repeat, warmup, sample_min_s)
            results.append(r)
            if progress is not None:
                progress(f"{w.name:<22} {c:<16} " + (r.skipped if r.skipped else f"{r.median_s * 1e3:10.3f} ms"))
    return results


def as_dict(results: list[Result], lim: Limits) -> dict[str, Any]:
    return {"results": [asdict(r) for r in results], "limits": asdict(lim)}
