"""The kernel one workload compiles to in two lazyarr checkouts, timed side by side in one process (A/B).

Run: `python benchmarks/compare_kernels.py softmax 4096 --a /path/to/old/checkout --b .` (workloads: softmax,
log_softmax, row_sum, with `rows` x `--cols` (1024) float32; sum, 2**24 floats, `rows` ignored). Each checkout renders
its kernel in a subprocess; both are then compiled here (each with its own copy of that checkout's Numba helper
modules), run one thread at a time on the same input, interleaved, and timed by this thread's CPU time (the minimum;
wall time below 2**20 elements), so the other work of a busy machine changes both alike. Prints the times and
whether both give the same bits.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np

_RENDER = """
import sys, numpy as np, lazyarr as la
from lazyarr.kernels import realize
what, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
x = la.Tensor(np.random.rand(rows, cols).astype(np.float32)).realize()
b = la.Tensor(np.random.rand(1 << 24).astype(np.float32)).realize()
before = set(realize._kernels)
{"softmax": lambda: x.softmax(1), "log_softmax": lambda: x.log_softmax(1), "row_sum": lambda: x.sum(1),
 "sum": lambda: b.sum()}[what]().realize()
k = max((realize._kernels[k] for k in realize._kernels if k not in before), key=lambda k: k.lowered.work)
print(repr((k.source, k.lowered.args, k.lowered.outer_size)))
"""
HELPERS = ("numba_support", "transcendental")


def load_kernel(tree: str, tag: str, what: str, rows: int, cols: int, tmp: str) -> tuple[Any, list[Any], int, bool]:
    """(kernel, scalar args, outer size, parallel) of `what` as checkout `tree` renders it, compiled here."""
    tree = os.path.abspath(tree)
    env = {**os.environ, "PYTHONPATH": tree}
    command = [sys.executable, "-c", _RENDER, what, str(rows), str(cols)]
    out = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True).stdout
    source, args, outer = ast.literal_eval(out.strip().splitlines()[-1])
    for helper in HELPERS:
        shutil.copy(os.path.join(tree, "lazyarr", "kernels", f"{helper}.py"), os.path.join(tmp, f"{tag}_{helper}.py"))
        source = source.replace(f"from lazyarr.kernels.{helper} import", f"from {tag}_{helper} import")
    source = source.replace("cache=True", "cache=False")
    path = os.path.join(tmp, f"{tag}_kernel.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(f"{tag}_kernel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.kernel, args, outer, "start, end" in source


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workload", choices=["softmax", "log_softmax", "row_sum", "sum"])
    parser.add_argument("rows", type=int, nargs="?", default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--a", required=True, help="first checkout (its root directory)")
    parser.add_argument("--b", default=".", help="second checkout (default: this one)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    n = (1 << 24) if args.workload == "sum" else args.rows * args.cols
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    out_size = {"softmax": n, "log_softmax": n, "row_sum": args.rows, "sum": 64}[args.workload]
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        trees = {"a": args.a, "b": args.b}
        kernels = {tag: load_kernel(tree, tag, args.workload, args.rows, args.cols, tmp) for tag, tree in trees.items()}
        outs = {tag: np.zeros(out_size, np.float32) for tag in kernels}

        def call(tag: str) -> None:
            fn, scalars, outer, parallel = kernels[tag]
            if parallel:
                fn(outs[tag], x, 0, outer, *scalars)
            else:
                fn(outs[tag], x, *scalars)

        best = {tag: float("inf") for tag in kernels}
        # CPU time is counted in coarse steps on some systems: wall time for kernels too short for it
        clock = time.thread_time if n >= 1 << 20 else time.perf_counter
        reps = max(3, (1 << 21) // n)
        for tag in kernels:
            call(tag)
        for _ in range(args.rounds):
            for tag in kernels:
                for _ in range(reps):
                    start = clock()
                    call(tag)
                    best[tag] = min(best[tag], clock() - start)
    print(f"{args.workload} ({args.rows} x {args.cols}): a {best['a'] * 1e3:.3f} ms, b {best['b'] * 1e3:.3f} ms "
          f"(b/a {best['b'] / best['a']:.2f}); same bits: {np.array_equal(outs['a'], outs['b'])}")


if __name__ == "__main__":
    main()
