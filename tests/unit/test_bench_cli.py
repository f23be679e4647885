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


def _planned(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """(workload names, contenders) that `python -m lazyarr.bench argv` would run (nothing is run)."""
    seen: dict[str, Any] = {}

    def fake_run(workloads: list[Workload], contenders: list[str], **_: Any) -> list[runner.Result]:
        seen.update(workloads=[w.name for w in workloads], contenders=contenders)
        raise SystemExit(0)

    monkeypatch.setattr(runner, "run", fake_run)
    with pytest.raises(SystemExit):
        bench_main.main(argv)
    return seen["workloads"], seen["contenders"]


def test_only_pulls_in_the_probes_its_limits_need(monkeypatch: pytest.MonkeyPatch) -> None:
    names, _ = _planned(["--only", "dispatch"], monkeypatch)
    assert names == ["dispatch x+1 (16)"]  # no limit: no STREAM probes
    names, _ = _planned(["--only", " chain 2**16 , "], monkeypatch)
    assert names == ["STREAM copy", "STREAM triad", "read-only sum", "chain 2**16"]
    names, _ = _planned(["--only", "relu"], monkeypatch)  # its limit is the best matmul rate
    assert names == ["matmul 1024^3", "relu(x@w+b) 1024"]


def test_contender_names_are_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _planned(["--contenders", "numpy, lazyarr jit"], monkeypatch)[1] == ["numpy", "lazyarr jit"]


@pytest.mark.parametrize("argv, message", [
    (["--contenders", ""], "--contenders names none"),  # ran every contender, torch.compile included
    (["--contenders", " , "], "--contenders names none"),
    (["--contenders", "numpy,numpy"], "twice"),  # the table showed the second median in both columns
    (["--only", ""], "matches no workload"),  # ran the whole benchmark
])
def test_empty_or_repeated_names_fail_before_the_run(argv: list[str], message: str,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    ran = []
    monkeypatch.setattr(runner, "run", lambda *a, **k: ran.append(1))
    with pytest.raises(SystemExit) as e:
        bench_main.main(argv)
    assert e.value.code == 2 and not ran
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("repeat, rounds", [(0, 3), (-1, 3), (5, 0), (5, 2.5), (True, 3)])
def test_the_runner_rejects_bad_sample_counts(repeat: Any, rounds: Any) -> None:
    with pytest.raises(ValueError, match="repeat|rounds"):
        runner.run([_logging_workload([])], ["torch"], repeat=repeat, rounds=rounds)


def test_a_lazyarr_contender_failing_on_its_kernel_count_call_is_skipped() -> None:
    w = _logging_workload([])
    calls = {"n": 0}

    measured = 2 + 3 * 2  # prepared (2 calls), then 3 rounds of an untimed call and 1 sample

    def make(d: dict[str, np.ndarray], _: Any) -> Callable[[], Any]:
        def call() -> Any:
            calls["n"] += 1
            if calls["n"] > measured:  # the call that counts kernels
                raise RuntimeError("broke on the last call")
            return d["x"] + 1
        return call

    w.custom["lazyarr"] = make
    results = runner.run_workload(w, ["lazyarr", "torch"], repeat=3, warmup=0, sample_min_s=0.0, rounds=3)
    by = {r.contender: r for r in results}
    assert calls["n"] == measured + 1
    assert by["lazyarr"].skipped == "failed: RuntimeError: broke on the last call"
    assert by["lazyarr"].median_s is None and by["lazyarr"].kernels is None
    assert by["torch"].median_s is not None


def test_the_unfused_column_of_a_custom_workload_runs_unfused() -> None:
    import lazyarr

    seen: list[int] = []
    w = _logging_workload([])
    w.custom["lazyarr FUSE=0"] = lambda d, _: lambda: seen.append(lazyarr.helpers.flag("FUSE"))
    runner.make_thunk(w, "lazyarr FUSE=0", {})()
    assert seen == [0]
