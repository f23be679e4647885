"""Cold compile time of kernels with many selects and integer divisions: the backward of a write through a
transposed, negatively strided view (the graph `tests/autograd/test_autograd_api.py` differentiates), in a fresh
process with an empty kernel cache, so every kernel compiles.

Run: `PYTHONPATH=$PWD python benchmarks/bench_compile_time.py [--repeat 3]`.
Prints per run the kernels compiled and lazyarr's compile time (s) for the forward and for the backward.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = """
import json, numpy as np, lazyarr
from lazyarr import Tensor
def f(x):
    y = x.exp()
    y.T[::-2] *= x.T[:2]
    y.reshape(3, 2)[1:] += y.reshape(3, 2)[:2]
    return y
a = np.random.default_rng(0).standard_normal((2, 3))
f(Tensor(a)).numpy()
s0 = lazyarr.stats()
x = Tensor(a, requires_grad=True)
(f(x) * Tensor(a)).sum().backward()
x.grad.numpy()
s1 = lazyarr.stats()
print(json.dumps([s0.kernels_compiled, s0.compile_time, s1.kernels_compiled - s0.kernels_compiled,
                  s1.compile_time - s0.compile_time]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "LAZYARR_CACHE_DIR": cache}
            out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
            fwd_n, fwd_s, bwd_n, bwd_s = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"forward: {fwd_n} kernels compiled in {fwd_s:.2f} s; backward: {bwd_n} kernels in {bwd_s:.2f} s")


if __name__ == "__main__":
    main()
