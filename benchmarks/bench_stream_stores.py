"""Non-temporal stores (`Program.stream`, built by `render_llvm.streamed`) against plain stores: the kernels of a few
float32 elementwise workloads built both ways at several sizes, timed alternately in one process (a busy machine
affects both alike; the order is reversed every round). Both settings are forced at every size, to show where the
`lower.STREAM_MIN_BYTES` threshold (32 MiB loaded and stored per launch) should sit.

Run: `PYTHONPATH=$PWD python benchmarks/bench_stream_stores.py [--rounds 20] [--threads N]`.
Prints per workload the median per-call time of each setting and the ratio plain / streamed (above 1: streaming is
faster).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab


def main() -> None:
    args = settings_ab.parse_args(__doc__, "stream")
    import lazyarr as la
    from lazyarr.kernels import realize

    rng = np.random.default_rng(0)
    inputs = {n: [la.Tensor(rng.standard_normal(1 << n).astype(np.float32)).realize() for _ in range(4)]
              for n in (20, 21, 22, 24)}
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {}
    for n in (20, 21, 22):
        workloads[f"a + b 2**{n}"] = (lambda a, b: (a + b).realize(), inputs[n][:2])
        workloads[f"chain 2**{n}"] = (lambda a, b, c, d: (a * b + c * (-d).exp() * a.sin()).realize(), inputs[n])
    workloads["copy 2**24"] = (lambda a: a.clone().realize(), inputs[24][:1])
    workloads["triad 2**24"] = (lambda a, b: (a + 3.0 * b).realize(), inputs[24][:2])
    fns = settings_ab.build({"plain": lambda: setattr(realize, "STREAM_MIN_BYTES", 1 << 62),
                             "streamed": lambda: setattr(realize, "STREAM_MIN_BYTES", 0)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 5)
    settings_ab.report(medians, ("plain", "streamed"))


if __name__ == "__main__":
    main()
