"""pytest-benchmark view of `lazyarr.bench`: every workload under every contender (lazyarr fused and FUSE=0, NumPy,
numexpr, PyTorch eager/compiled, JAX), skipped where a library is missing or cannot express the workload.

    python -m pytest benchmarks/test_workloads.py --benchmark-only -k "chain or softmax"
    python -m pytest benchmarks/ --benchmark-only --benchmark-json=out.json

`python -m lazyarr.bench` prints the same measurements as one side-by-side table with ratios and limits.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from lazyarr.bench import runner
from lazyarr.bench.workloads import Workload, all_workloads

WORKLOADS = all_workloads()
# peers' own deprecation and performance warnings are not ours to fail on
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]
_data: dict[str, dict[str, np.ndarray]] = {}


def _inputs(w: Workload) -> dict[str, np.ndarray]:
    if w.name not in _data:
        _data.clear()  # one workload's inputs at a time: the STREAM arrays are large
        _data[w.name] = w.data(np.random.default_rng(0))
    return _data[w.name]


@pytest.mark.parametrize("contender", runner.CONTENDERS)
@pytest.mark.parametrize("w", WORKLOADS, ids=[w.name.replace(" ", "_") for w in WORKLOADS])
def test_workload(benchmark: Any, w: Workload, contender: str) -> None:
    d = _inputs(w)
    try:
        thunk = runner.make_thunk(w, contender, d)
    except runner.UnsupportedError as e:
        pytest.skip(str(e))
    out = thunk()  # compile outside the timed rounds
    if w.check:
        assert runner.close(runner.to_numpy(out), runner.to_numpy(w.numpy(d)())), f"{contender} differs from NumPy"
    benchmark.group = w.name
    benchmark.extra_info.update({"ideal_bytes": w.ideal_bytes, "flops": w.flops})
    if contender in runner.LAZY:
        import lazyarr

        before = lazyarr.stats()
        thunk()
        after = lazyarr.stats()
        benchmark.extra_info.update({"kernels": after.kernels_launched - before.kernels_launched,
                                     "bytes_moved": after.bytes_moved - before.bytes_moved})
    benchmark(thunk)
