"""`python -m lazyarr.bench` fails early, before the run, on bad arguments and when an optional library is missing."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from lazyarr.bench import __main__ as bench_main
from lazyarr.bench import runner
from lazyarr.bench.workloads import Workload, softmax_workload


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


def test_samples_are_split_over_rounds_evenly() -> None:
    assert runner.shares(15, 3) == [5, 5, 5]
    assert runner.shares(5, 3) == [2, 2, 1]
    assert runner.shares(2, 3) == [1, 1]  # never a round without a sample
    assert runner.shares(4, 1) == [4]
    assert sum(runner.shares(7, 4)) == 7


def _logging_workload(log: list[str], fail_after: int | None = None) -> Workload:
    """A workload whose two contenders (named torch and numexpr, as customs) log each call; numexpr raises from its
    `fail_after`-th call on."""
    def thunk(name: str) -> Callable[[dict[str, np.ndarray], Any], Callable[[], Any]]:
        def make(d: dict[str, np.ndarray], _: Any) -> Callable[[], Any]:
            def call() -> Any:
                log.append(name)
                if fail_after is not None and name == "N" and log.count("N") > fail_after:
                    raise RuntimeError("broke mid-run")
                return d["x"] + 1
            return call
        return make

    return Workload("logged", lambda rng: {"x": rng.standard_normal(8)}, numpy=lambda d: lambda: d["x"] + 1,
                    custom={"torch": thunk("T"), "numexpr": thunk("N")})


def test_contenders_take_their_samples_in_alternating_rounds() -> None:
    log: list[str] = []
    results = runner.run_workload(_logging_workload(log), ["torch", "numexpr"], repeat=5, warmup=0,
                                  sample_min_s=0.0, rounds=3)
    # each prepared (first call, then the call timing how many calls a sample takes); then 3 rounds of 2, 2 and 1
    # samples, each after one untimed call, the order reversed in the middle round
    assert "".join(log) == "TTNN" + "TTTNNN" + "NNNTTT" + "TTNN"
    for r in results:
        assert len(r.samples) == 5 and r.correct is True and r.median_s is not None and not r.skipped


def test_a_contender_failing_mid_run_is_skipped_and_the_others_are_measured() -> None:
    results = runner.run_workload(_logging_workload([], fail_after=4), ["torch", "numexpr"], repeat=6, warmup=0,
                                  sample_min_s=0.0, rounds=3)
    by = {r.contender: r for r in results}
    assert by["numexpr"].skipped == "failed: RuntimeError: broke mid-run" and by["numexpr"].median_s is None
    assert not by["numexpr"].samples
    assert len(by["torch"].samples) == 6 and by["torch"].median_s is not None
