"""Reporting: the side-by-side table (markdown), ratios to the best peer and to the limit, and the bar chart."""

from __future__ import annotations

from typing import Any

from lazyarr.bench.runner import LAZY, Limits, Result, fmt_time
from lazyarr.bench.workloads import Workload


def best_peer(results: list[Result], workload: str) -> Result | None:
    """The fastest correct non-lazyarr result of `workload`."""
    peers = [r for r in results if r.workload == workload and r.contender not in LAZY and r.median_s is not None
             and r.correct is not False]
    return min(peers, key=lambda r: r.median_s or 0.0, default=None)


def table(workloads: list[Workload], results: list[Result], lim: Limits, contenders: list[str]) -> str:
    """Markdown: one row per workload, a time per contender, then lazyarr's kernels and traffic and the ratios."""
    shown = [c for c in contenders if any(r.contender == c and r.median_s is not None for r in results)]
    head = ["workload", *shown, "kernels", "MB moved", "best peer", "lazyarr / best peer", "limit", "lazyarr / limit"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in workloads:
        row = {r.contender: r for r in results if r.workload == w.name}
        cells = [w.name]
        for c in shown:
            r = row.get(c)
            cell = fmt_time(r.median_s) if r is not None else "–"
            if r is not None and r.correct is False:
                cell += " (WRONG)"
            cells.append(cell)
        lazy = row.get("lazyarr")
        peer = best_peer(results, w.name)
        limit = lim.of(w)
        cells.append("–" if lazy is None or lazy.kernels is None else str(lazy.kernels))
        cells.append("–" if lazy is None or lazy.bytes_moved is None else f"{lazy.bytes_moved / 1e6:.1f}")
        cells.append("–" if peer is None else peer.contender)
        ok = lazy is not None and lazy.median_s is not None
        cells.append(f"{lazy.median_s / peer.median_s:.2f}" if ok and peer and peer.median_s else "–")  # type: ignore[union-attr,operator]
        cells.append(fmt_time(limit))
        cells.append(f"{lazy.median_s / limit:.2f}" if ok and limit else "–")  # type: ignore[union-attr,operator]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(workloads: list[Workload], results: list[Result], lim: Limits) -> str:
    out = []
    if lim.bandwidth:
        out.append(f"- bandwidth limit: {lim.bandwidth / 1e9:.1f} GB/s (best of the STREAM probes: "
                   f"{lim.bandwidth_from})")
    if lim.flop_rate:
        out.append(f"- compute limit: {lim.flop_rate / 1e9:.1f} GFLOP/s (best matmul: {lim.flop_rate_from})")
    for w in workloads:
        if w.note:
            out.append(f"- {w.name}: {w.note}")
    skipped: dict[str, set[str]] = {}
    for r in results:
        if r.skipped:
            skipped.setdefault(f"{r.contender}: {r.skipped}", set()).add(r.workload)
    for reason, names in sorted(skipped.items()):
        out.append(f"- skipped {reason} ({len(names)} workload{'s' if len(names) > 1 else ''})")
    return "\n".join(out)


def plot(workloads: list[Workload], results: list[Result], contenders: list[str], path: str) -> None:
    """A grouped bar chart of median times (log scale), one group per workload."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [c for c in contenders if any(r.contender == c and r.median_s is not None for r in results)]
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(workloads)), 5))
    width = 0.8 / max(1, len(shown))
    for i, c in enumerate(shown):
        xs, ys = [], []
        for j, w in enumerate(workloads):
            r = next((r for r in results if r.workload == w.name and r.contender == c), None)
            if r is not None and r.median_s is not None:
                xs.append(j + (i - (len(shown) - 1) / 2) * width)
                ys.append(r.median_s * 1e3)
        ax.bar(xs, ys, width, label=c)
    ax.set_yscale("log")
    ax.set_ylabel("median time (ms, log scale)")
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels([w.name for w in workloads], rotation=30, ha="right")
    ax.legend(fontsize=8, ncol=2)
    ax.set_title("lazyarr fused vs unfused vs peers (lower is better)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def environment() -> dict[str, Any]:
    """What a reader needs to compare runs: versions, cores, thread settings, BLAS overrides."""
    import os
    import platform

    import numpy as np

    import lazyarr
    from lazyarr.kernels import runtime_numba

    env: dict[str, Any] = {"python": platform.python_version(), "numpy": np.__version__,
                           "lazyarr": lazyarr.__version__, "cpus": os.cpu_count(),
                           "lazyarr threads": runtime_numba.num_threads(),
                           "machine": platform.processor() or platform.machine()}
    for name in ("numba", "numexpr", "torch", "jax"):
        try:
            env[name] = __import__(name).__version__
        except ImportError:
            env[name] = None
    env["blas env"] = {k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "OMP_", "MKL_"))}
    return env
