"""`python -m lazyarr.bench` fails early, before the run, on bad arguments and when an optional library is missing."""

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


@pytest.mark.parametrize("argv, message", [
    (["--repeat", "0"], "--repeat: must be at least 1"),
    (["--repeat", "-3"], "--repeat: must be at least 1"),  # ran, then failed taking the median of no samples
    (["--threads", "0"], "--threads: must be at least 1"),  # 0 was taken as "each one's own"
    (["--threads", "-1"], "--threads: must be at least 1"),  # torch.set_num_threads raised RuntimeError
    (["--only", "no such workload"], "matches no workload"),  # printed an empty table
    (["--json", "/nonexistent-folder/out.json"], "--json"),  # FileNotFoundError after the whole run
    (["--json", "."], "--json"),
])
def test_bad_arguments_fail_before_the_run(argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    ran = []
    monkeypatch.setattr(runner, "run", lambda *a, **k: ran.append(1))
    with pytest.raises(SystemExit) as e:
        bench_main.main(["--quick", *argv])
    assert e.value.code == 2 and not ran
    assert message in capsys.readouterr().err
