"""Regression: a kernel compiled in one process loads from the disk cache in the next (no recompilation)."""

import os
import subprocess
import sys

SCRIPT = """
import numpy as np, lazyarr
from lazyarr import Tensor
(Tensor(np.arange(6, dtype=np.float64)) * 3 + 1).numpy()
s = lazyarr.stats()
print(s.kernels_compiled, s.disk_cache_hits)
"""


def _run(cache_dir: str) -> tuple[int, int]:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "LAZYARR_CACHE_DIR": cache_dir, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    compiled, hits = out.stdout.split()
    return int(compiled), int(hits)


def test_second_process_loads_from_disk(tmp_path) -> None:
    assert _run(str(tmp_path)) == (1, 0)
    assert _run(str(tmp_path)) == (0, 1)
