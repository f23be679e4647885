"""pytest plugin for the CUDA backend's whole-suite checks without a GPU.

LAZYARR_CUDA_CHECK=1: every kernel the CPU suite lowers is also rendered as CUDA C and compiled with NVRTC
(lazyarr/kernels/cuda_check.py). The sources are compiled in batches when the session ends; a source NVRTC rejects
fails the run. Works with pytest-xdist: workers report to the controller through a folder.

    LAZYARR_CUDA_CHECK=1 python -m pytest -n 2 -q

LAZYARR_CUDA_EMULATE=1 (tests only): the CUDA device runs on the CPU emulator (tests/cuda/emu), so that
`LAZYARR_DEVICE=CUDA LAZYARR_CUDA_EMULATE=1 python -m pytest tests/unit` exercises the CUDA device plumbing and
codegen with the suite's own tests (slow: g++ builds every kernel once).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from lazyarr.helpers import flag
from lazyarr.kernels import cuda_check, runtime_cuda

_DIR_KEY = "lazyarr_cuda_check_dir"
_summary: dict[str, Any] = {}


def _enabled() -> bool:
    return bool(flag("CUDA_CHECK"))


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("LAZYARR_CUDA_EMULATE") == "1":
        sys.path.insert(0, str(Path(__file__).parent))
        from emu_backend import EmulatorBackend

        runtime_cuda.set_backend(EmulatorBackend(order="shuffle"))
    if _enabled() and not hasattr(config, "workerinput"):
        config._lazyarr_cuda_check_dir = tempfile.mkdtemp(prefix="lazyarr-cuda-check-")  # type: ignore[attr-defined]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:  # xdist controller: tell each worker where to report
    folder = getattr(node.config, "_lazyarr_cuda_check_dir", None)
    if folder:
        node.workerinput[_DIR_KEY] = folder


def _local_result() -> dict[str, Any]:
    cuda_check.compile_pending()
    state = cuda_check.STATE
    return {"programs": sorted(state.programs), "sources": sorted(state.sources), "failures": state.failures}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _enabled():
        return
    config = session.config
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        if _DIR_KEY in worker:
            result = _local_result()
            Path(worker[_DIR_KEY], f"{worker.get('workerid', os.getpid())}.json").write_text(json.dumps(result))
        return
    results = [_local_result()]
    folder = getattr(config, "_lazyarr_cuda_check_dir", None)
    if folder:
        results += [json.loads(p.read_text()) for p in Path(folder).glob("*.json")]
    programs = {p for r in results for p in r["programs"]}
    sources = {s for r in results for s in r["sources"]}
    failures: dict[str, str] = {}
    for r in results:
        failures.update(r["failures"])
    _summary.update(programs=len(programs), sources=len(sources), failures=failures)
    if failures and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _summary:
        return
    tr = terminalreporter
    for key, text in list(_summary["failures"].items())[:5]:
        tr.write_sep("-", f"CUDA check failure {key}")
        tr.write_line(text[-4000:])
    tr.write_sep("=", f"CUDA check: {_summary['programs']} distinct kernels rendered as CUDA C, {_summary['sources']} "
                      f"sources (32- and 64-bit indices) compiled with NVRTC, {len(_summary['failures'])} failures")
