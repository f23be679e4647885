"""Regression: a second process loads kernels from the disk cache instead of compiling them again (kernels whose
Numba environment is rebuilt from the cache used to fail to import their own module and were recompiled)."""

import json
import os
import subprocess
import sys

PROGRAM = """
import json, numpy as np, lazyarr
from lazyarr import Tensor
x = Tensor(np.linspace(-2, 2, 8, dtype=np.float32))
((x > 0).where(x, 1.0).exp() + 1).numpy()
s = lazyarr.stats()
print(json.dumps({"compiled": s.kernels_compiled, "hits": s.disk_cache_hits}))
"""


def _run(cache: str) -> dict[str, int]:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, LAZYARR_CACHE_DIR=cache, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_second_process_hits_disk_cache(tmp_path) -> None:
    first = _run(str(tmp_path))
    assert first["compiled"] >= 1
    second = _run(str(tmp_path))
    assert second == {"compiled": 0, "hits": first["compiled"] + first["hits"]}
