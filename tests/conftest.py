"""Test-wide settings: the graph verifier on, and helpers importable as `tests.helpers`."""

import os
import sys

os.environ.setdefault("LAZYARR_VERIFY", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
