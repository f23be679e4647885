"""Compile counts: kernels are keyed by structure and layout, not sizes; the disk cache serves a second process;
a corrupt cache entry is recompiled, never a crash. Also: `import lazyarr` imports neither numba nor cupy."""

import glob
import json
import os
import subprocess
import sys
import textwrap

import numpy as np

import lazyarr
from lazyarr import Tensor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROGRAM = textwrap.dedent("""
    import json, sys
    import numpy as np
    import lazyarr
    from lazyarr import Tensor
    x = Tensor(np.linspace(-2, 2, 1000, dtype=np.float32))
    y = ((x * 1.75 + 0.125).exp() * x).sum()
    ref = float((np.exp(np.linspace(-2, 2, 1000, dtype=np.float32) * np.float32(1.75) + np.float32(0.125))
                 * np.linspace(-2, 2, 1000, dtype=np.float32)).sum())
    got = y.item()
    s = lazyarr.stats()
    print(json.dumps({"compiled": s.kernels_compiled, "disk": s.disk_cache_hits,
                      "ok": abs(got - ref) <= 1e-4 * abs(ref)}))
""")


def run_program(cache_dir: str) -> dict:
    env = {**os.environ, "LAZYARR_CACHE_DIR": cache_dir, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_one_compile_for_three_sizes() -> None:
    before = lazyarr.stats()
    for n in (1000, 5000, 123457):
        x = Tensor(np.arange(n, dtype=np.float32))
        out = (x * 0.8125 - 3.5).realize().numpy()
        np.testing.assert_allclose(out, np.arange(n, dtype=np.float32) * np.float32(0.8125) - np.float32(3.5))
    after = lazyarr.stats()
    new_kernels = (after.kernels_compiled - before.kernels_compiled) + (after.disk_cache_hits - before.disk_cache_hits)
    assert new_kernels <= 1
    assert after.kernels_launched - before.kernels_launched == 3


def test_second_process_compiles_nothing(tmp_path) -> None:  # noqa: ANN001
    first = run_program(str(tmp_path))
    assert first["ok"] and first["compiled"] >= 1
    second = run_program(str(tmp_path))
    assert second["ok"]
    assert second["compiled"] == 0
    assert second["disk"] == first["compiled"] + first["disk"]


def test_corrupt_cache_entries_are_recompiled(tmp_path) -> None:  # noqa: ANN001
    first = run_program(str(tmp_path))
    assert first["ok"]
    files = (glob.glob(str(tmp_path / "kernels" / "*.py")) + glob.glob(str(tmp_path / "kernels" / "*.native"))
             + glob.glob(str(tmp_path / "kernels" / "__pycache__" / "*")))
    assert files
    for f in files:
        with open(f, "wb") as fh:
            fh.write(b"\x00garbage\xff" * 3)
    again = run_program(str(tmp_path))
    assert again["ok"]
    assert again["compiled"] >= 1


def test_import_does_not_load_numba_or_cupy() -> None:
    code = "import sys, lazyarr; print(int('numba' in sys.modules), int('cupy' in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "0"]


def test_debug_prints_a_line_per_kernel(capsys) -> None:  # noqa: ANN001
    with lazyarr.Context(DEBUG=1):
        (Tensor(np.ones(4, np.float32)) * 3 + 2).realize()
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("*** kernel")]
    assert len(lines) == 1 and "GB/s" in lines[0]


NATIVE_PROGRAM = textwrap.dedent("""
    import json, sys
    import numpy as np
    import lazyarr
    from lazyarr import Tensor
    v = np.linspace(-30, 30, 70000, dtype=np.float32)
    v[:6] = [np.inf, -np.inf, np.nan, -0.0, 3e6, 1e30]
    a, b = Tensor(v), Tensor(v[::-1].copy())
    out = (a * b + (-b).exp() * a.sin()).numpy()
    s = lazyarr.stats()
    print(json.dumps({"compiled": s.kernels_compiled, "numba": "numba" in sys.modules,
                      "out": out.view(np.uint32).tolist()}))
""")


def test_warm_cache_process_runs_native_without_numba(tmp_path) -> None:  # noqa: ANN001
    def run(**env: str) -> dict:
        out = subprocess.run([sys.executable, "-c", NATIVE_PROGRAM], capture_output=True, text=True, timeout=240,
                             env={**os.environ, "LAZYARR_CACHE_DIR": str(tmp_path), "PYTHONPATH": ROOT,
                                  "LAZYARR_LLVM": "0", **env})  # Numba compiles, and its object code is saved
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    first = run()
    assert first["compiled"] == 1 and glob.glob(str(tmp_path / "kernels" / "*.native"))
    warm = run()
    assert warm["compiled"] == 0 and not warm["numba"]
    through_numba = run(LAZYARR_NATIVE="0")
    assert through_numba["compiled"] == 0 and through_numba["numba"]
    assert warm["out"] == first["out"] == through_numba["out"]  # the same machine code: the same bits


def test_damaged_native_header_is_not_loaded(tmp_path) -> None:  # noqa: ANN001
    """The header (argument kinds, stubs, sizes) is checksummed with the code: a wrong argument count that still
    parses would make the ctypes call pass the wrong arguments (a segfault), so such a file must be dropped."""
    from lazyarr.kernels import native, runtime_numba

    # a kernel this process has not compiled (an integer constant of its own: those stay in the source), in an empty
    # cache: Numba compiles it, so its native object is saved
    k = int.from_bytes(os.urandom(3), "little") + 2
    with lazyarr.Context(CACHE_DIR=str(tmp_path / "cache")):
        x = Tensor(np.arange(8, dtype=np.int64))
        got = ((x * k).cast(lazyarr.float64) * 3.25 + 1.5).numpy()
        assert np.array_equal(got, (np.arange(8) * k).astype(np.float64) * 3.25 + 1.5)
        saved = glob.glob(os.path.join(runtime_numba._kernel_dir(), f"*.{native.host_key()}{native.SUFFIX}"))
    assert len(saved) == 1
    with open(saved[0], "rb") as f:
        data = f.read()
    n = int.from_bytes(data[:8], "little")
    meta = json.loads(data[8:8 + n])
    assert native.load(saved[0], "k") is not None
    kinds = meta["args"]
    assert "d" in kinds  # the constants 3.25 and 1.5 are float64 params
    for field, value in (("args", kinds[:-2]), ("args", kinds + "iii"), ("args", kinds.replace("d", "i")),
                         ("entry_size", 0)):
        header = json.dumps({**meta, field: value}).encode()
        path = str(tmp_path / f"{field}{len(str(value))}{hash(str(value)) & 0xffff}.native")
        with open(path, "wb") as f:
            f.write(len(header).to_bytes(8, "little") + header + data[8 + n:])
        assert native.load(path, "k") is None
