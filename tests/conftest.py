"""Test-wide settings: the graph verifier on, and helpers importable as `tests.helpers`."""

import os
import sys

os.environ.setdefault("LAZYARR_VERIFY", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# LAZYARR_CUDA_CHECK=1: also render every kernel as CUDA C and compile it with NVRTC (see the plugin's docstring)
pytest_plugins = ["tests.cuda.nvrtc_check_plugin"]
