"""Elementwise kernels that read an array through a reshape merging dims its view cannot merge (an attention head
merge `x.permute(0, 2, 1, 3).reshape(b * h, s, d)`, `np.tile`, `np.repeat`): looped over the dims before that reshape
(`lower.refine_loop_space`, a sum of strides per index) against over the merged shape (a division and remainder per
dim per element, `lower.REFINE_RESHAPES = False`), built both ways and timed alternately in one process under
`lazyarr.jit`; then NumPy and PyTorch (when installed) on the same work, side by side. A reduction over such a
reshape (`.sum(2)`, `.softmax(2)`) reads a copy of it stored first (`schedule._Scheduler.unravelled_reads`) in both
settings: the copy kernel is what the settings change.

Run: `PYTHONPATH=$PWD python benchmarks/bench_reshape_loops.py [--rounds 20] [--threads N]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import settings_ab
from timing import median_ms


def main() -> None:
    args = settings_ab.parse_args(__doc__, "reshape-loops")
    import lazyarr as la
    from lazyarr.kernels import lower

    rng = np.random.default_rng(0)
    heads = rng.standard_normal((64, 128, 8, 64)).astype(np.float32)
    flat = rng.standard_normal((1024, 1024)).astype(np.float32)
    vec = rng.standard_normal(1 << 20).astype(np.float32)
    attn = rng.standard_normal((16, 8, 128, 64)).astype(np.float32)
    x, m, v, a = (la.Tensor(h).realize() for h in (heads, flat, vec, attn))
    workloads: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "head merge * 2, 64x128x8x64": (lambda x: (x.permute(0, 2, 1, 3).reshape(512, 128, 64) * 2).realize(), [x]),
        "np.tile(x, (2, 2)), 1024x1024": (lambda m: np.tile(m, (2, 2)).realize(), [m]),
        "np.repeat(v, 2), 2**20": (lambda v: np.repeat(v, 2).realize(), [v]),
        "head merge .sum(2), 16x8x128x64": (lambda a: a.permute(0, 2, 1, 3).reshape(16, 128, 512).sum(2).realize(),
                                            [a]),
        "head merge .softmax(2), 16x8x128x64": (
            lambda a: a.permute(0, 2, 1, 3).reshape(16, 128, 512).softmax(2).realize(), [a]),
    }
    peers: dict[str, dict[str, Callable[[], Any]]] = {
        "head merge * 2, 64x128x8x64": {"numpy": lambda: heads.transpose(0, 2, 1, 3).reshape(512, 128, 64) * 2},
        "np.tile(x, (2, 2)), 1024x1024": {"numpy": lambda: np.tile(flat, (2, 2))},
        "np.repeat(v, 2), 2**20": {"numpy": lambda: np.repeat(vec, 2)},
        "head merge .sum(2), 16x8x128x64": {"numpy": lambda: attn.transpose(0, 2, 1, 3).reshape(16, 128, 512).sum(2)},
    }
    try:
        import torch

        th, tf, tv = (torch.from_numpy(a) for a in (heads, flat, vec))
        peers["head merge * 2, 64x128x8x64"]["torch"] = lambda: th.permute(0, 2, 1, 3).reshape(512, 128, 64) * 2
        peers["np.tile(x, (2, 2)), 1024x1024"]["torch"] = lambda: tf.tile((2, 2))
        peers["np.repeat(v, 2), 2**20"]["torch"] = lambda: tv.repeat_interleave(2)
        ta = torch.from_numpy(attn)
        peers["head merge .sum(2), 16x8x128x64"]["torch"] = lambda: ta.permute(0, 2, 1, 3).reshape(16, 128, 512).sum(2)
        peers["head merge .softmax(2), 16x8x128x64"] = {
            "torch": lambda: ta.permute(0, 2, 1, 3).reshape(16, 128, 512).softmax(2)}
    except ImportError:
        pass

    def refine(on: bool) -> Callable[[], None]:
        return lambda: setattr(lower, "REFINE_RESHAPES", on)

    fns = settings_ab.build({"merged": refine(False), "refined": refine(True)}, workloads)
    medians = settings_ab.alternate(fns, args.rounds, lambda name: 3)
    settings_ab.report(medians, ("merged", "refined"))
    print(f"peers, median of {args.rounds} calls:")
    for name, calls in peers.items():
        print(f"  {name:<40}" + "".join(f"{peer} {median_ms(fn, args.rounds):8.3f}ms  " for peer, fn in calls.items()))


if __name__ == "__main__":
    main()
