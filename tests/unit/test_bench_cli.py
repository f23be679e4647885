"""`python -m lazyarr.bench` fails early and says what to install when an optional library is missing."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from lazyarr.bench import __main__ as bench_main
from lazyarr.bench import runner
from lazyarr.bench.workloads import softmax_workload


def test_plot_without_matplotlib_fails_before_the_run(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    ran = []
    monkeypatch.setattr(runner, "run", lambda *a, **k: ran.append(1))
    with pytest.raises(SystemExit) as e:
        bench_main.main(["--quick", "--only", "chain 2**16", "--plot", "out.png"])
    assert e.value.code == 2 and not ran
    assert "matplotlib" in capsys.readouterr().err


def test_a_missing_numexpr_is_reported_as_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numexpr", None)
    w = softmax_workload(4, 8)  # numexpr cannot express softmax either: "not installed" is what to act on
    with pytest.raises(runner.UnsupportedError, match="numexpr not installed"):
        runner.make_thunk(w, "numexpr", w.data(np.random.default_rng(0)))
