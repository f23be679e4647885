"""Test-wide settings: the graph verifier on, and helpers importable as `tests.helpers`."""

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("LAZYARR_VERIFY", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# LAZYARR_CUDA_CHECK=1: also render every kernel as CUDA C and compile it with NVRTC (see the plugin's docstring)
pytest_plugins = ["tests.cuda.nvrtc_check_plugin"]


@pytest.fixture
def emulated() -> Iterator[Any]:
    """The CUDA device backed by the CPU emulator (threads in shuffled order) for the duration of a test."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda"))
    from emu_backend import EmulatorBackend  # the emulator's helpers live beside the CUDA tests

    from lazyarr.kernels import runtime_cuda

    backend = EmulatorBackend(order="shuffle")
    previous = runtime_cuda.set_backend(backend)
    try:
        yield backend
    finally:
        runtime_cuda.set_backend(previous)
