"""The elementwise chain's first call in a fresh process: with an empty kernel cache (everything compiles) and again
with the cache the first process left (nothing compiles). Import time is reported apart from the call itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

PROGRAM = """
import json, time
t0 = time.perf_counter()
import numpy as np
import lazyarr
from lazyarr import Tensor
t1 = time.perf_counter()
a, b, c, d = (Tensor(np.full(1 << 22, 0.5, np.float32)).realize() for _ in range(4))
t2 = time.perf_counter()
(a * b + c * (-d).exp() * a.sin()).realize()
t3 = time.perf_counter()
(a * b + c * (-d).exp() * a.sin()).realize()
t4 = time.perf_counter()
s = lazyarr.stats()
print(json.dumps({"import_s": t1 - t0, "inputs_s": t2 - t1, "first_call_s": t3 - t2, "second_call_s": t4 - t3,
                  "compiled": s.kernels_compiled, "disk_hits": s.disk_cache_hits}))
"""


def _run(cache_dir: str) -> dict[str, Any]:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = root + os.pathsep + os.environ.get("PYTHONPATH", "")
    env = {**os.environ, "LAZYARR_CACHE_DIR": cache_dir, "PYTHONPATH": path}
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return {"error": out.stderr[-500:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure() -> dict[str, Any]:
    """{"cold": ..., "warm": ...}: timings of a fresh process with an empty, then with a filled, kernel cache."""
    with tempfile.TemporaryDirectory(prefix="lazyarr-first-call-") as d:
        cold = _run(d)
        warm = _run(d)
    return {"cold": cold, "warm": warm}


def describe(m: dict[str, Any]) -> str:
    lines = ["| chain 2**22, fresh process | import lazyarr | first call | second call | kernels compiled |",
             "|---|---|---|---|---|"]
    for name in ("cold", "warm"):
        r = m[name]
        if "error" in r:
            lines.append(f"| {name} cache | failed: {r['error'][-80:]} | | | |")
            continue
        lines.append(f"| {name} cache | {r['import_s']:.2f} s | {r['first_call_s']:.3f} s | "
                     f"{r['second_call_s'] * 1e3:.2f} ms | {r['compiled']} |")
    return "\n".join(lines)
