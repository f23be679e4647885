"""`python -m lazyarr.bench`: every workload, fused and unfused lazyarr against NumPy and whichever of numexpr,
PyTorch (eager and torch.compile) and JAX are installed; prints a markdown table, optionally writes JSON and a plot.

    python -m lazyarr.bench                  # the full run (several minutes; torch.compile compiles each workload)
    python -m lazyarr.bench --quick          # under 2 minutes: fewer samples, no torch.compile
    python -m lazyarr.bench --json out.json --plot out.png --only chain,softmax
    python -m lazyarr.bench --first-call     # also: the chain's first call in fresh processes (cold and warm cache)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from lazyarr.bench import first_call, report, runner
from lazyarr.bench.workloads import all_workloads
from lazyarr.helpers import Context


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lazyarr.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="5 samples, no torch.compile (under 2 minutes)")
    p.add_argument("--json", metavar="PATH", help="write every sample, the limits and the environment as JSON")
    p.add_argument("--plot", metavar="PATH", help="write a bar chart of median times (log scale), e.g. out.png")
    p.add_argument("--only", metavar="NAMES", help="comma-separated substrings of workload names to run")
    p.add_argument("--contenders", metavar="NAMES", help=f"comma-separated subset of: {', '.join(runner.CONTENDERS)}")
    p.add_argument("--repeat", type=_positive, help="samples per measurement (default 15, 5 with --quick)")
    p.add_argument("--rounds", type=_positive, default=3,
                   help="rounds the samples are taken in, every contender of a workload in turn (default 3)")
    p.add_argument("--threads", type=_positive, help="threads for lazyarr, torch and numexpr (default: each one's own)")
    p.add_argument("--first-call", action="store_true", help="time the chain's first call in fresh processes")
    args = p.parse_args(argv)
    if args.plot:
        try:  # before the run, not after it
            import matplotlib  # noqa: F401
        except ImportError:
            p.error('--plot needs matplotlib: pip install -e ".[bench]"')
    for option, path in (("--json", args.json), ("--plot", args.plot)):  # a bad path fails now, not after the run
        folder = os.path.dirname(os.path.abspath(path)) if path else ""
        if path and (os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK)):
            p.error(f"{option} {path}: not a file in a folder that exists and can be written")

    contenders = list(runner.CONTENDERS)
    if args.contenders is not None:
        contenders = [c.strip() for c in args.contenders.split(",") if c.strip()]
        if not contenders:
            p.error(f"--contenders names none; choose from {runner.CONTENDERS}")
        unknown = set(contenders) - set(runner.CONTENDERS)
        if unknown:
            p.error(f"unknown contenders {sorted(unknown)}; choose from {runner.CONTENDERS}")
        if len(set(contenders)) < len(contenders):
            p.error(f"--contenders names one twice: {args.contenders!r}")
    elif args.quick:
        contenders.remove("torch.compile")
    workloads = all_workloads()
    if args.only is not None:
        keys = [k.strip().lower() for k in args.only.split(",") if k.strip()]
        chosen = [w for w in workloads if any(k in w.name.lower() for k in keys)]
        if not chosen:
            p.error(f"--only {args.only!r} matches no workload; the workloads are: "
                    + ", ".join(w.name for w in workloads))
        # ratios to the limits need their probes in the same run: the STREAM probes for a memory-bound workload, the
        # matmuls for a compute-bound one
        memory = any(c.kind == "memory" and not c.stream for c in chosen)
        compute = any(c.kind == "compute" for c in chosen)
        workloads = [w for w in workloads if w in chosen or (w.stream and memory)
                     or (compute and w.name.startswith("matmul"))]
    repeat = args.repeat or (5 if args.quick else 15)
    rounds = min(args.rounds, repeat)  # as runner.shares caps them
    start = time.perf_counter()
    with Context(**({"NUM_THREADS": args.threads} if args.threads else {})):
        if args.threads:
            _set_peer_threads(args.threads)
        results = runner.run(workloads, contenders, repeat=repeat, warmup=1 if args.quick else 2,
                             sample_min_s=1e-3 if args.quick else 2e-3, rounds=rounds,
                             progress=lambda line: print(line, file=sys.stderr, flush=True))
        env = report.environment()
    lim = runner.limits(workloads, results)
    print(f"\nlazyarr benchmarks: median of {repeat} samples in {rounds} rounds, "
          f"{time.perf_counter() - start:.0f} s in all; "
          f"{env['cpus']} CPUs, lazyarr threads {env['lazyarr threads']}; BLAS env {env['blas env'] or 'default'}\n")
    print(report.table(workloads, results, lim, contenders))
    print()
    print(report.notes(workloads, results, lim))
    extra = {}
    if args.first_call:
        extra["first call"] = first_call.measure()
        print()
        print(first_call.describe(extra["first call"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"environment": env, "repeat": repeat, "rounds": rounds, "quick": args.quick,
                       **runner.as_dict(results, lim), **extra}, f, indent=1)
    if args.plot:
        report.plot(workloads, results, contenders, args.plot)
    return 0


def _positive(text: str) -> int:
    """argparse type of --repeat, --rounds and --threads: an int >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _set_peer_threads(n: int) -> None:
    try:
        import torch

        torch.set_num_threads(n)
    except ImportError:
        pass
    try:
        import numexpr

        numexpr.set_num_threads(n)
    except ImportError:
        pass


if __name__ == "__main__":
    sys.exit(main())
