"""The NVRTC check (LAZYARR_CUDA_CHECK=1): every kernel the CPU backend lowers is also rendered as CUDA C, and the
sources are compiled to PTX with NVRTC (CuPy's RawKernel options), so CUDA codegen is checked without a GPU.

`record` renders (cheap) and queues; `compile_pending` compiles the queue in batches (one NVRTC program holds many
kernels: NVRTC's fixed cost per program dominates) and names the failing kernels. Sources that compiled are also
remembered on disk, so a second run compiles only what changed.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field

from lazyarr.helpers import cache_dir
from lazyarr.kernels import render_cuda
from lazyarr.kernels.lower import Lowered
from lazyarr.kernels.nvrtc import CUPY_RAWKERNEL_OPTIONS, NVRTCError, compile_to_ptx, nvrtc_version

OPTIONS = (*CUPY_RAWKERNEL_OPTIONS, *render_cuda.NVRTC_OPTIONS)
BATCH = 48


@dataclass
class CheckState:
    """What this process has checked: distinct programs, distinct sources (programs x index widths), failures."""

    programs: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    pending: dict[str, str] = field(default_factory=dict)  # digest -> source
    failures: dict[str, str] = field(default_factory=dict)  # digest -> source + error


STATE = CheckState()
_lock = threading.Lock()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def record(low: Lowered, buffer_sizes: tuple[int, ...]) -> None:
    """Render `low` as CUDA C with 32-bit and with 64-bit indices and queue both for `compile_pending`."""
    program_key = repr(low.program)
    with _lock:
        STATE.programs.add(_digest(program_key))
        for wide in (False, True):
            try:
                source = render_cuda.render(low.program, "kernel", wide).source
            except Exception as err:  # a render failure is a check failure, not a crash of the CPU run
                STATE.failures[_digest(f"{program_key}{wide}")] = f"render failed: {err!r}\n{program_key}"
                continue
            key = _digest(source)
            if key not in STATE.sources:
                STATE.sources.add(key)
                STATE.pending[key] = source


def _known_good_path() -> str:
    major, minor = nvrtc_version()
    return os.path.join(cache_dir(), f"cuda_check_ok_nvrtc{major}.{minor}_{_digest(' '.join(OPTIONS))}.txt")


def _known_good() -> set[str]:
    try:
        with open(_known_good_path()) as f:
            return {line.strip() for line in f}
    except OSError:
        return set()


def _remember(keys: list[str]) -> None:
    if not keys:
        return
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        with open(_known_good_path(), "a") as f:
            f.write("".join(f"{k}\n" for k in keys))  # one short append: atomic enough between test workers
    except OSError:
        pass


def _batch_source(sources: list[str]) -> str:
    bodies = []
    for i, src in enumerate(sources):
        body = src[len(render_cuda.PRELUDE):]
        bodies.append(body.replace(" kernel(", f" kernel_{i}(", 1))
    return render_cuda.PRELUDE + "\n".join(bodies)


def compile_pending() -> tuple[int, int]:
    """Compile every queued source; returns (sources compiled now, failures so far)."""
    with _lock:
        good = _known_good()
        todo = [(k, s) for k, s in STATE.pending.items() if k not in good]
        STATE.pending.clear()
    ok: list[str] = []
    for start in range(0, len(todo), BATCH):
        chunk = todo[start:start + BATCH]
        try:
            compile_to_ptx(_batch_source([s for _, s in chunk]), name="lazyarr_check.cu", options=OPTIONS)
            ok.extend(k for k, _ in chunk)
            continue
        except NVRTCError:
            pass
        for key, source in chunk:  # find the culprits one by one
            try:
                compile_to_ptx(source, name=f"kernel_{key}.cu", options=OPTIONS)
                ok.append(key)
            except NVRTCError as err:
                with _lock:
                    STATE.failures[key] = f"{source}\n{err}"
    _remember(ok)
    return len(todo), len(STATE.failures)
