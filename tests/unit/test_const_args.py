"""Float constants are runtime kernel arguments: kernels that differ only in a float constant's value share one
compiled kernel (CPU, native cache, JIT driver, CUDA C), and every launch gets its own values (NumPy's results, bit
for bit, NaN, infinities, -0.0 and subnormals included)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import realize, runtime_numba

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
X = np.array([1.5, -2.25, 0.0, -0.0, np.inf, -np.inf, np.nan, 3e-39, 1e30, -7.0, 0.1, 65504.0])
# (c, d) of t * c + d: each dtype rounds them to its own values (d is never -0.0: x + -0.0 folds to x, another kernel)
CONSTS = [(2.5, 0.75), (-0.0, 0.0), (np.inf, -1.0), (np.nan, 2.0), ("sub", "-sub"), (1e38, 1e38), (-3.0, np.nan),
          (5e-324, 5e-324), (0.1, -np.inf)]  # "sub": the dtype's smallest subnormal


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Equal bits, except that NaNs only need to be NaN (their payload is not NumPy's contract)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    bits = f"u{got.itemsize}"
    np.testing.assert_array_equal(got[~nan].view(bits), want[~nan].view(bits))


def _sources() -> int:
    s = lazyarr.stats()
    return s.kernels_compiled + s.disk_cache_hits


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_float_constants_compile_one_kernel(dtype: str) -> None:
    x = X.astype(dtype)
    t = Tensor(x)
    t.realize()
    sub = float(np.finfo(dtype).smallest_subnormal)
    consts = [tuple({"sub": sub, "-sub": -sub}.get(v, v) for v in pair) for pair in CONSTS]  # type: ignore[call-overload]
    realize._kernels.clear()  # and the plans: a pair another test ran would skip the compiled-kernel lookup counted
    before, hits = _sources(), lazyarr.stats().memory_cache_hits
    with np.errstate(all="ignore"):
        for c, d in [*consts, consts[0]]:  # the first again: a cached kernel still gets its own values
            _same_bits((t * c + d).numpy(), x * np.dtype(dtype).type(c) + np.dtype(dtype).type(d))
    new = _sources() - before
    assert new <= 1, f"{new} kernels compiled for {len(CONSTS)} values of the constants"
    # every other distinct pair of values found the same compiled kernel in memory
    assert new + lazyarr.stats().memory_cache_hits - hits >= len(CONSTS)


def test_equal_constants_do_not_change_the_kernel() -> None:
    """`t * a + b` with a == b (one hash-consed CONST node) renders the source a != b does."""
    x = np.linspace(-3, 3, 16, dtype=np.float32)
    t = Tensor(x)
    t.realize()
    (t * 0.5 + 0.25).realize()
    before = _sources()
    for v in (0.5, 0.0, 3.0):
        np.testing.assert_array_equal((t * v + v).numpy(), x * np.float32(v) + np.float32(v))
    assert _sources() == before


def test_jit_recaptures_per_float_with_its_own_values() -> None:
    @lazyarr.jit
    def f(t: Tensor, c: float) -> Tensor:
        return (t * c - 1.25).sum(axis=1)

    x = np.random.default_rng(3).standard_normal((4, 9)).astype(np.float32)
    values = [0.5, -0.0, 3.75, np.inf]
    with np.errstate(all="ignore"):
        for _ in range(3):  # eager, capture, replay: each float its own program, none sees another's constant
            for c in values:
                np.testing.assert_allclose(f(Tensor(x), c).numpy(), (x * np.float32(c) - np.float32(1.25)).sum(axis=1),
                                           rtol=1e-6)
    assert len(f.captures) == len(values)


def test_lazyarr_null_renders_float_params() -> None:
    with lazyarr.Context(NULL=1):
        (Tensor(np.ones(8, np.float32)) * 1.125 + 6.5).realize()


PROGRAM = textwrap.dedent("""
    import json, sys
    import numpy as np
    import lazyarr
    from lazyarr import Tensor
    c, d = float(sys.argv[1]), float(sys.argv[2])
    x = np.linspace(-4, 4, 50, dtype=np.float32)
    out = (Tensor(x) * c + d).numpy()
    ref = x * np.float32(c) + np.float32(d)
    s = lazyarr.stats()
    print(json.dumps({"compiled": s.kernels_compiled, "numba": "numba" in sys.modules,
                      "ok": out.view(np.uint32).tolist() == ref.view(np.uint32).tolist()}))
""")


def test_native_warm_process_passes_float_args(tmp_path) -> None:  # noqa: ANN001
    """A second process loads the kernel's native object (no Numba) and runs it with constants the first never saw."""
    def run(c: str, d: str) -> dict:
        out = subprocess.run([sys.executable, "-c", PROGRAM, c, d], capture_output=True, text=True, timeout=240,
                             env={**os.environ, "LAZYARR_CACHE_DIR": str(tmp_path), "PYTHONPATH": ROOT})
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    first = run("1.75", "0.5")
    assert first["ok"] and first["compiled"] == 1
    warm = run("-0.3", "-1e30")
    assert warm["ok"] and warm["compiled"] == 0 and not warm["numba"]


def test_source_has_no_float_literals_of_the_constants() -> None:
    from lazyarr.kernels import realize

    t = Tensor(np.arange(6, dtype=np.float64))
    before = set(realize._kernels)  # other tests in this process left kernels (some only rendered, never compiled)
    (t * 1.2345678 + 9.87654321).realize()
    sources = [k.source for key, k in realize._kernels.items() if key not in before and "cf1" in k.source]
    assert sources and not any("1.2345678" in s or "9.87654321" in s for s in sources)
    assert all(s in runtime_numba._compiled for s in sources)
