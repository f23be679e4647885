"""Flags and `Context`: values a flag cannot take are refused when the Context is made (or the environment is read),
with the flag named; nested Contexts restore what they override."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.helpers import flag


@pytest.mark.parametrize("name, bad", [
    ("NUM_THREADS", -1), ("NUM_THREADS", "-2"), ("PARALLEL_MIN", -1), ("JIT_PARALLEL_MIN", -5), ("POOL_BYTES", -1),
    ("DEBUG", -1), ("FUSE", -1), ("FUSE", 2), ("FUSE", 1.5), ("JIT", 3), ("JIT_SPLIT", 2), ("LLVM", 5),
    ("NATIVE", -1), ("SCHEDULE_CACHE", 7), ("VERIFY", 2), ("NULL", 2), ("CUDA_CHECK", 9), ("FUSE", "yes"),
])
def test_a_value_a_flag_cannot_take_is_refused_when_the_context_is_made(name: str, bad: object) -> None:
    with pytest.raises(ValueError, match=f"LAZYARR_{name}="):
        lazyarr.Context(**{name: bad})


def test_a_value_of_another_kind_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="LAZYARR_FUSE"):
        lazyarr.Context(FUSE=None)
    with pytest.raises(TypeError, match="LAZYARR_NUM_THREADS"):
        lazyarr.Context(NUM_THREADS=[2])


def test_valid_values_are_taken_as_ints() -> None:
    with lazyarr.Context(FUSE=True, NUM_THREADS="2", JIT=2, DEBUG=0, PARALLEL_MIN=0, POOL_BYTES=0):
        assert (flag("FUSE"), flag("NUM_THREADS"), flag("JIT"), flag("POOL_BYTES")) == (1, 2, 2, 0)
        x = np.arange(6, dtype=np.float32)
        np.testing.assert_array_equal((Tensor(x) * 2 + 1).numpy(), x * 2 + 1)


def test_nested_contexts_restore_each_value_per_thread() -> None:
    before = (flag("FUSE"), flag("NUM_THREADS"))
    seen: list[int] = []
    with lazyarr.Context(FUSE=0, NUM_THREADS=1):
        with lazyarr.Context(NUM_THREADS=2):
            assert (flag("FUSE"), flag("NUM_THREADS")) == (0, 2)
            other = threading.Thread(target=lambda: seen.append(flag("FUSE")))  # another thread sees no override
            other.start()
            other.join()
        assert (flag("FUSE"), flag("NUM_THREADS")) == (0, 1)
    assert (flag("FUSE"), flag("NUM_THREADS")) == before
    assert seen == [before[0]]


def test_a_bad_value_in_the_environment_raises_a_clear_error() -> None:
    code = "import numpy as np, lazyarr; print((lazyarr.Tensor(np.ones(3, np.float32)) + 1).numpy())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LAZYARR_FUSE": "-1"})
    assert done.returncode != 0 and "ValueError: LAZYARR_FUSE='-1': use one of 0, 1" in done.stderr
