"""Capture and replay of kernel launches: `lazyarr.jit` (see `lazyarr.jit.jit`)."""

from lazyarr.helpers import JitError
from lazyarr.jit.capture import CapturedProgram
from lazyarr.jit.lifecycle import Jit, JitWarning, jit

__all__ = ["jit", "Jit", "JitError", "JitWarning", "CapturedProgram"]
