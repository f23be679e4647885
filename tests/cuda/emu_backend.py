"""A `runtime_cuda` backend that runs lazyarr's CUDA C on the CPU emulator (emu/): "device" arrays are NumPy arrays
filled with garbage when allocated, launches run the unchanged kernel source in a chosen thread order."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from emu.emulator import EmulatedKernel


class EmulatorBackend:
    """Device memory and launches for `runtime_cuda.set_backend`; `order` is "forward", "reverse" or "shuffle".

    `sm_count` is small so that grid-stride loops go round several times; `launches` records (grid, block).
    """

    def __init__(self, order: str = "forward", seed: int = 0, sm_count: int = 2) -> None:
        self.order, self.seed, self._sm = order, seed, sm_count
        self.launches: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []

    def empty(self, size: int, np_dtype: str) -> Any:
        out = np.empty(size, dtype=np_dtype)
        out.view(np.uint8)[:] = 0xFF  # unwritten elements read as NaN / -1
        return out

    def from_host(self, a: np.ndarray) -> Any:
        return np.array(a, copy=True)

    def to_host(self, a: Any) -> np.ndarray:
        return np.array(a, copy=True)

    def compile(self, source: str, name: str) -> Any:
        return EmulatedKernel(source, name)

    def launch(self, fn: Any, grid: tuple[int, int, int], block: tuple[int, int, int], args: tuple[Any, ...],
               timed: bool) -> float | None:
        self.launches.append((grid, block))
        fn(grid, block, args, order=self.order, seed=self.seed)
        return None

    def sm_count(self) -> int:
        return self._sm
