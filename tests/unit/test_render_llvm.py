"""Kernels built as LLVM IR by `render_llvm` (no Numba) give the bits the Numba-compiled kernels give."""

from __future__ import annotations

import ctypes
import glob
import hashlib
import json
import operator
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyarr as la
from lazyarr import Tensor
from lazyarr.graph.schedule import normalize, schedule
from lazyarr.helpers import env_flag
from lazyarr.kernels import helper_ir, realize, render_llvm, runtime_numba
from lazyarr.kernels.lower import Store, lower
from lazyarr.kernels.native import NativeKernel
from tests.helpers import option_prices

rng = np.random.default_rng(7)


def _run(fn: Callable[..., Tensor], hosts: list[np.ndarray], llvm: int) -> tuple[np.ndarray, list[object]]:
    """fn's result with every kernel compiled by render_llvm (llvm=1) or by Numba (0), and the compiled kernels."""
    realize._kernels.clear()
    runtime_numba._compiled.clear()
    with la.Context(LLVM=llvm, NATIVE=0):  # no saved objects (a Numba kernel's too): a NativeKernel is render_llvm's
        out = fn(*(Tensor(h) for h in hosts)).numpy()
    return out, list(runtime_numba._compiled.values())


def _inputs(n: int, dtype: type, large: bool) -> list[np.ndarray]:
    hosts = [rng.standard_normal(n).astype(dtype) * 3 for _ in range(4)]
    if large:  # trig and exp arguments the small variants do not cover, in some blocks only
        hosts[0][[1, n // 2, n - 1]] = [3.0e9, np.inf, np.nan]
        hosts[3][[2, n // 3, n - 2]] = [-95.0, 100.0, np.nan]  # exp(-d): overflow, a subnormal result, NaN
    return hosts


EXPRESSIONS: dict[str, Callable[..., Tensor]] = {
    "chain": lambda a, b, c, d: a * b + c * (-d).exp() * a.sin(),
    "trig": lambda a, b, c, d: a.cos() - (a * 0.5).tan() + b.sin(),
    "exp": lambda a, b, c, d: (-d).exp() - (b * 30).exp(),  # b * 30 leaves (-87, 88) often: the loop runs again
    # long enough that both renderers split the loop into stages (fission): Black-Scholes call and put prices
    "option_prices": lambda a, b, c, d: operator.mul(*option_prices(a.abs() + 5, b.abs() + 1, c.abs() + 0.25)),
    "logs": lambda a, b, c, d: (a.abs() + 1).log() + b.exp2().log2(),
    "tanh_erf": lambda a, b, c, d: c.tanh() + (d * 0.3).erf(),
    "log1p_expm1": lambda a, b, c, d: (c.abs() * 0.01).log1p() + (d * 0.1).expm1(),
    "pow": lambda a, b, c, d: (a.abs() + 0.5) ** (b * 0.25),
    "select": lambda a, b, c, d: a.maximum(b).abs().sqrt() / c.minimum(d) + (a < b).where(c, d).reciprocal(),
    "broadcast": lambda a, b, c, d: a.reshape(-1, 1)[:8] * b.reshape(1, -1) + c.reshape(1, -1).sin(),
    "arange": lambda a, b, c, d: a * Tensor.arange(a.shape[0], dtype=a.dtype)
    + (Tensor.arange(a.shape[0]) * 3).float().cos(),
}


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
@pytest.mark.parametrize("name", list(EXPRESSIONS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_llvm_kernels_give_the_numba_kernels_bits(name: str, dtype: type) -> None:
    for n, large in ((1000, False), (1537, True)):
        hosts = _inputs(n, dtype, large)
        with np.errstate(all="ignore"):
            got, built = _run(EXPRESSIONS[name], hosts, 1)
            want, numba_built = _run(EXPRESSIONS[name], hosts, 0)
        assert built and all(isinstance(k, NativeKernel) for k in built)
        assert not any(isinstance(k, NativeKernel) for k in numba_built)
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_llvm_chain_matches_numpy_and_writes_in_place() -> None:
    a, b, c, d = _inputs(5000, np.float32, True)
    with np.errstate(all="ignore"):
        # in float64, except that c * exp(-d) is rounded to float32 as the kernel rounds it: c * exp(95) overflows to
        # inf even where the whole expression in float64 would be finite (with inputs drawn in another test order,
        # it was)
        # it was). The sum of two float32 terms of up to ~10 may cancel: the bound scales with the terms, not the sum
        scaled = (c * np.exp(-d.astype(np.float64))).astype(np.float32).astype(np.float64)
        terms = a.astype(np.float64) * b, scaled * np.sin(a.astype(np.float64))
        want = terms[0] + terms[1]
        got, _ = _run(EXPRESSIONS["chain"], [a, b, c, d], 1)
        for kind in (np.isnan, np.isposinf, np.isneginf):
            np.testing.assert_array_equal(kind(got), kind(want.astype(np.float32)))
        finite = np.isfinite(want.astype(np.float32))
        bound = 1e-5 * np.abs(want) + 4e-7 * (np.abs(terms[0]) + np.abs(terms[1])) + 1e-30
        assert np.all(np.abs(got[finite] - want[finite]) <= bound[finite])
        x = Tensor(a.copy()).realize()
        x[1:] = x[:-1].sin()  # a trig loop reading the buffer it writes: checked blocks only
        expect = a.copy()
        expect[1:] = np.sin(a[:-1].astype(np.float64)).astype(np.float32)
        np.testing.assert_allclose(x.numpy(), expect, rtol=4 * np.finfo(np.float32).eps, atol=1e-7)


def test_shipped_helper_ir_matches_its_source() -> None:
    # regenerate with `python scripts/gen_helper_ir.py` after changing transcendental.py or numba_support.py
    with open(helper_ir.MANIFEST) as f:
        manifest = json.load(f)
    assert manifest["source"] == helper_ir.source_digest()
    assert set(manifest["functions"]) == set(helper_ir.FUNCTIONS)
    for name in helper_ir.FUNCTIONS:
        with open(os.path.join(helper_ir.DIR, f"{name}.ll"), "rb") as f:
            data = f.read()
        assert f"@{manifest['functions'][name]}(" in data.decode()
        assert manifest["files"][name] == hashlib.sha256(data).hexdigest()
    assert helper_ir.available() == (manifest["toolchain"] == helper_ir.toolchain())


def test_reductions_and_matmuls_compile_through_numba() -> None:
    x = rng.standard_normal((64, 32)).astype(np.float32)
    out, _ = _run(lambda t, *_: t.sum(1) + (t @ t.T).max(1), [x], 1)
    np.testing.assert_allclose(out, x.sum(1) + (x @ x.T).max(1), rtol=1e-5)
    reducing = [fn for source, fn in runtime_numba._compiled.items() if re.search(r"\bacc\d+ =|np\.dot\(", source)]
    assert len(reducing) >= 2 and not any(isinstance(k, NativeKernel) for k in reducing)


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_cold_first_call_of_the_chain_never_imports_numba(tmp_path: object) -> None:
    program = (
        "import sys, numpy as np, lazyarr\n"
        "from lazyarr import Tensor\n"
        "a, b, c, d = (Tensor(np.full(4096, 0.5, np.float32)) for _ in range(4))\n"
        "r = (a * b + c * (-d).exp() * a.sin()).numpy()\n"
        "s = lazyarr.stats()\n"
        "print(s.kernels_compiled, 'numba' in sys.modules, float(r[0]), 'llvmlite.binding' in sys.modules)\n")
    env = {**os.environ, "LAZYARR_CACHE_DIR": str(tmp_path)}
    # an empty cache, then the object the first process saved, then LAZYARR_LLVM=0: Numba compiles (it never loads
    # an object render_llvm built)
    # with a C compiler, the second process opens the shared library the first one linked: no llvmlite binding
    binding = "False" if shutil.which("cc") or shutil.which("gcc") or shutil.which("clang") else "True"
    runs = (("1", "1", "False", "True"), ("1", "0", "False", binding), ("0", "1", "True", "True"))
    for llvm, compiled, numba, llvmlite_binding in runs:
        out = subprocess.run([sys.executable, "-c", program], env={**env, "LAZYARR_LLVM": llvm}, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        n, numba_loaded, value, binding_loaded = out.stdout.split()
        assert (n, numba_loaded, binding_loaded) == (compiled, numba, llvmlite_binding)
        assert float(value) == pytest.approx(0.25 + 0.5 * np.exp(-0.5) * np.sin(0.5), rel=1e-6)


def test_damaged_shared_library_is_not_opened(tmp_path: object) -> None:
    from lazyarr.kernels import native

    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")) or not native.shared_host_key():
        pytest.skip("no C compiler or /proc/cpuinfo here: kernels are never saved as shared libraries")
    a, b = (rng.standard_normal(300).astype(np.float32) for _ in range(2))
    kernel = (lambda x, y: (x * 0.75 - y).sin())
    want = np.sin(a * np.float32(0.75) - b)
    with la.Context(CACHE_DIR=str(tmp_path)):
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        np.testing.assert_allclose(kernel(Tensor(a), Tensor(b)).numpy(), want, rtol=1e-6, atol=1e-7)
        for t in threading.enumerate():  # the background link
            if t.name == "lazyarr-link":
                t.join()
        libs = glob.glob(str(tmp_path / "kernels" / f"*{native.SHARED_SUFFIX}"))
        assert len(libs) == 1
        first = kernel(Tensor(a), Tensor(b)).numpy()
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        np.testing.assert_array_equal(kernel(Tensor(a), Tensor(b)).numpy(), first)
        (loaded,) = runtime_numba._compiled.values()
        assert isinstance(loaded._tracker, ctypes.CDLL)  # opened from the shared library
        with open(libs[0], "r+b") as f:  # one byte changed: the checksum no longer matches
            f.seek(100)
            byte = f.read(1)
            f.seek(100)
            f.write(bytes([byte[0] ^ 0xFF]))
        assert native.load_shared(libs[0], "k") is None and not os.path.exists(libs[0])
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        np.testing.assert_allclose(kernel(Tensor(a), Tensor(b)).numpy(), want, rtol=1e-6, atol=1e-7)


def test_saved_kernel_files_only_open_under_their_own_name_and_kinds(tmp_path: object) -> None:
    from lazyarr.kernels import native

    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")) or not native.shared_host_key():
        pytest.skip("no C compiler or /proc/cpuinfo here: kernels are never saved as shared libraries")
    a, b = (rng.standard_normal(300).astype(np.float32) for _ in range(2))
    kernels = {"sin": (lambda x, y: (x * 0.75 - y).sin(), np.sin(a * np.float32(0.75) - b)),
               "exp": (lambda x, y: x * y.exp(), a * np.exp(b))}
    with la.Context(CACHE_DIR=str(tmp_path)):
        files = {}
        for key, (fn, want) in kernels.items():
            realize._kernels.clear()
            runtime_numba._compiled.clear()
            np.testing.assert_allclose(fn(Tensor(a), Tensor(b)).numpy(), want, rtol=1e-6, atol=1e-7)
            (kernel,) = runtime_numba._compiled.values()
            files[key] = os.path.join(runtime_numba._kernel_dir(), kernel.name)
        for t in threading.enumerate():  # the background links
            if t.name == "lazyarr-link":
                t.join()
        lib = {k: native.shared_path_for(f + ".py") for k, f in files.items()}
        obj = {k: native.path_for(f + ".py", "llvm") for k, f in files.items()}
        # a sidecar whose kinds lost two arguments (its checksum unchanged): the call would pass the wrong arguments
        with open(lib["sin"] + ".json") as f:
            meta = json.load(f)
        with open(lib["sin"] + ".json", "w") as f:
            json.dump({**meta, "args": meta["args"][:-2]}, f)
        assert native.load_shared(lib["sin"], "k") is None and not os.path.exists(lib["sin"])
        for suffix in ("", ".json"):
            shutil.copy(lib["exp"] + suffix, lib["exp"] + suffix + ".keep")
        with open(lib["exp"] + ".json", "w") as f:  # too deeply nested for json: a RecursionError leaked
            f.write("[" * 100000)
        assert native.load_shared(lib["exp"], "k") is None and not os.path.exists(lib["exp"])
        for suffix in ("", ".json"):
            os.replace(lib["exp"] + suffix + ".keep", lib["exp"] + suffix)
        # a library whose sidecar is not there yet (its writer is between the two): left alone, opened once it is
        os.rename(lib["exp"] + ".json", lib["exp"] + ".json.later")
        assert native.load_shared(lib["exp"], "k") is None and os.path.exists(lib["exp"])
        os.rename(lib["exp"] + ".json.later", lib["exp"] + ".json")
        assert native.load_shared(lib["exp"], "k") is not None
        # the other kernel's files copied onto this one's names: not opened (they would compute the other kernel)
        for suffix in ("", ".json"):
            shutil.copy(lib["exp"] + suffix, lib["sin"] + suffix)
        shutil.copy(obj["exp"], obj["sin"])
        realize._kernels.clear()
        runtime_numba._compiled.clear()
        fn, want = kernels["sin"]
        np.testing.assert_allclose(fn(Tensor(a), Tensor(b)).numpy(), want, rtol=1e-6, atol=1e-7)


def test_kernel_compiled_at_interpreter_exit_keeps_its_shared_library(tmp_path: object) -> None:
    from lazyarr.kernels import native

    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")) or not native.shared_host_key():
        pytest.skip("no C compiler or /proc/cpuinfo here: kernels are never saved as shared libraries")
    # an atexit handler runs after the interpreter stopped waiting for threads (and from 3.12 none can start)
    program = ("import atexit, numpy as np, lazyarr\n"
               "def late():\n"
               "    a = np.linspace(-3, 3, 50, dtype=np.float32)\n"
               "    r = ((lazyarr.Tensor(a) * 3.5).sin() - lazyarr.Tensor(a)).numpy()\n"
               "    print(bool(np.allclose(r, np.sin(a * np.float32(3.5)) - a, rtol=1e-6, atol=1e-6)))\n"
               "atexit.register(late)\n")
    out = subprocess.run([sys.executable, "-c", program], env={**os.environ, "LAZYARR_CACHE_DIR": str(tmp_path)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["True"] and "Traceback" not in out.stderr, out.stderr
    kernels = os.listdir(tmp_path / "kernels")
    assert len([f for f in kernels if f.endswith(native.SHARED_SUFFIX)]) == 1
    assert all(os.path.isfile(tmp_path / "kernels" / f) for f in kernels if f not in ("__pycache__", ".links"))
    assert not os.listdir(tmp_path / "kernels" / ".links")  # no link folder left


def test_supports_declines_what_it_cannot_build() -> None:
    from lazyarr import dtypes
    from lazyarr.graph.ops import Ops
    from lazyarr.kernels.lower import Instr, Loop, Program, Store

    loop = Loop("i0", "n0", [Instr("v1", "load", dtypes.int32, ("i0",), 1), Store(0, "i0", "v1")])
    assert not render_llvm.supports(Program("k", [dtypes.int32, dtypes.int32], ["n0"], [loop], False))
    f = dtypes.float32
    loop = Loop("i0", "n0", [Instr("v1", "load", f, ("i0",), 1), Instr("v2", Ops.FLOOR, f, ("v1",)),
                             Store(0, "i0", "v2")])
    assert not render_llvm.supports(Program("k", [f, f], ["n0"], [loop], False))


def test_a_failing_llvm_compile_falls_back_to_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(prog: object) -> bytes:
        raise RuntimeError("LLVM failed")

    monkeypatch.setattr(render_llvm, "compile_object", broken)
    a, b = (rng.standard_normal(300).astype(np.float32) for _ in range(2))
    out, built = _run(lambda x, y: (x * 1.25 + y).exp(), [a, b], 1)
    np.testing.assert_allclose(out, np.exp(a * np.float32(1.25) + b), rtol=2e-6)
    assert built and not any(isinstance(k, NativeKernel) for k in built)


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_llvm_orders_booleans_false_before_true() -> None:
    a = np.array([1.0, 2.0, np.nan, 0.0], np.float32)
    b = np.array([2.0, 1.0, 1.0, 0.0], np.float32)
    got, built = _run(lambda x, y: ((x < y) < (y < x)).where(x, y) * 4 + ((x < y) >= (y <= x)).where(x, y), [a, b], 1)
    assert built and all(isinstance(k, NativeKernel) for k in built)
    want = np.where((a < b) < (b < a), a, b) * 4 + np.where((a < b) >= (b <= a), a, b)
    np.testing.assert_array_equal(got, want)


def _truncate(d: str) -> None:
    with open(os.path.join(d, "sin_f32.ll"), "r+b") as f:
        f.truncate(3000)


def _not_a_dict(d: str) -> None:
    with open(os.path.join(d, "manifest.json"), "w") as f:
        f.write("[1]")


def _rename_symbol(d: str) -> None:
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    m["functions"]["sin_f32"] = "not_defined"
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(m, f)


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
@pytest.mark.parametrize("damage", [_truncate, _rename_symbol, _not_a_dict,
                                    lambda d: os.remove(os.path.join(d, "tan_f64.ll"))])
def test_damaged_helper_ir_falls_back_to_numba(tmp_path, monkeypatch, damage: Callable[[str], None]) -> None:  # noqa: ANN001
    d = str(tmp_path / "helper_ir")
    shutil.copytree(helper_ir.DIR, d)
    damage(d)
    monkeypatch.setattr(helper_ir, "DIR", d)
    monkeypatch.setattr(helper_ir, "MANIFEST", os.path.join(d, "manifest.json"))
    helper_ir.manifest.cache_clear()
    try:
        x = np.array([0.5, 3.0e9, -2.0], np.float32)
        got, built = _run(lambda t: t.sin() * 2, [x], 1)
    finally:
        helper_ir.manifest.cache_clear()
    assert built and not any(isinstance(k, NativeKernel) for k in built)
    np.testing.assert_allclose(got, np.sin(x.astype(np.float64)) * 2, rtol=1e-6)


def test_kernel_names_depend_on_what_builds_llvm_kernels() -> None:
    # a native object render_llvm saved is found by the kernel's name: a changed renderer or helper IR must not load it
    files = runtime_numba._support_files()
    assert os.path.abspath(render_llvm.__file__) in files and helper_ir.MANIFEST in files


RACE_PROGRAM = """
import sys, threading, numpy as np
from lazyarr import Tensor
x = np.linspace(-3, 3, 4096).astype(np.float32)
(Tensor(x) * 2).realize()  # built by render_llvm: Numba is not imported yet
errors, started, stop = [], threading.Barrier(3), threading.Event()
def launch():  # kernels split over threads ask for Numba's thread count while another thread imports Numba
    started.wait()
    try:
        while not stop.is_set():
            (Tensor(x) * 2).numpy()
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=launch) for _ in range(2)]
[t.start() for t in threads]
started.wait()
total = float(Tensor(x).sum().numpy())  # a reduction: compiled through Numba, imported now
stop.set()
[t.join() for t in threads]
print("numba" in sys.modules, errors, total)
"""


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_launches_while_another_thread_imports_numba(tmp_path: object) -> None:
    env = {**os.environ, "LAZYARR_CACHE_DIR": str(tmp_path), "LAZYARR_PARALLEL_MIN": "1024"}
    env.pop("LAZYARR_NUM_THREADS", None)
    out = subprocess.run([sys.executable, "-c", RACE_PROGRAM], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["True", "[]"], out.stdout


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_helpers_are_inlined_so_the_loops_vectorise() -> None:
    # as in the Numba kernels (transcendental's inline="always"): an out-of-line sin_f64_small made a float64 sin
    # loop scalar, 3x slower than the Numba kernel
    objects: list[bytes] = []
    compile_object = render_llvm.compile_object

    def spy(prog: object) -> bytes:
        objects.append(compile_object(prog))  # type: ignore[arg-type]
        return objects[-1]

    x = rng.standard_normal(100)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render_llvm, "compile_object", spy)
        out, _ = _run(lambda t: t.sin() + t.cos() * t.tan(), [x], 1)
    np.testing.assert_allclose(out, np.sin(x) + np.cos(x) * np.tan(x), rtol=1e-13)
    assert objects and not any(b"lazyarr_helper_" in obj for obj in objects)


def test_link_folders_of_killed_processes_are_removed(tmp_path: object) -> None:
    # a process killed (or ended by os._exit) while linking leaves its folder under .links; the next link removes it
    import time

    from lazyarr.kernels import native

    links = tmp_path / ".links"  # type: ignore[operator]
    (links / "killed").mkdir(parents=True)
    (links / "killed" / "k.o").write_bytes(b"\0")
    (links / "running").mkdir()
    old = time.time() - 2 * native.STALE_LINK_S
    os.utime(links / "killed", (old, old))
    native._remove_stale(str(links))
    assert sorted(p.name for p in links.iterdir()) == ["running"]


def _streamed_runs(fn: Callable[..., Tensor], hosts: list[list[np.ndarray]], llvm: int,
                   width: int = 0) -> list[np.ndarray]:
    """fn's results on each input list, every launch treated as a large one (`Program.stream`) and split over 2
    threads in uneven chunks, kernels compiled by render_llvm (llvm=1, preferring `width`-bit vectors) or Numba (0)
    once for all the lists."""
    realize._kernels.clear()
    runtime_numba._compiled.clear()
    with pytest.MonkeyPatch.context() as mp, \
            la.Context(LLVM=llvm, NATIVE=0, PARALLEL_MIN=1, NUM_THREADS=2, VECTOR_WIDTH=width):
        mp.setattr(realize, "STREAM_MIN_BYTES", 0)
        outs = [fn(*(Tensor(h) for h in hs)).numpy() for hs in hosts]
        assert isinstance(next(iter(runtime_numba._compiled.values())), NativeKernel) == bool(llvm)
    return outs


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_streamed_stores_give_the_numba_kernels_bits(dtype: type) -> None:
    # non-temporal stores over each chunk's cache-line-aligned middle, plain ones before and after it: sizes around
    # the 128-element steps, so that the middle is empty, exact or followed by a tail
    hosts = [_inputs(n, dtype, n == 1537) for n in (5, 127, 128, 300, 1537, 4096 + 17)]
    for name, fn in (("chain", EXPRESSIONS["chain"]), ("exp", EXPRESSIONS["exp"]), ("two", _two_outputs)):
        with np.errstate(all="ignore"):
            got, want = _streamed_runs(fn, hosts, 1), _streamed_runs(fn, hosts, 0)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.view(f"u{g.itemsize}"), w.view(f"u{w.itemsize}"), err_msg=name)


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
@pytest.mark.parametrize("width", [128, 256, 512])
def test_every_vector_width_gives_the_numba_kernels_bits(width: int) -> None:
    # 512-bit vectors where the host has them (the automatic choice there), else the widest it has: the same values,
    # streamed stores included (they claim one vector's alignment)
    hosts = [_inputs(n, np.float32, n == 1537) for n in (127, 1537, 4096 + 17)]
    for name in ("chain", "option_prices", "tanh_erf", "select"):
        fn = EXPRESSIONS[name]
        with np.errstate(all="ignore"):
            got, want = _streamed_runs(fn, hosts, 1, width), _streamed_runs(fn, hosts, 0)
            plain = [_run(fn, hs, 1)[0] for hs in hosts] if width == 512 else []
        for g, w in zip(got + plain, want + want):
            np.testing.assert_array_equal(g.view("u4"), w.view("u4"), err_msg=name)


def test_vector_width_attribute_and_bad_widths() -> None:
    x = Tensor(np.ones(300, np.float32))
    for width, attribute in ((256, '"prefer-vector-width"="256"'), (512, '"prefer-vector-width"="512"')):
        with la.Context(VECTOR_WIDTH=width):
            norm, _ = normalize([(x.exp() + 1).uop])
            program = lower(schedule(norm).items[0]).program
            program.vector_width = render_llvm.vector_width()
            ir_text, _ = render_llvm.build_ir(program)
        assert program.vector_width == width and ir_text.count(attribute) == 1
    for bad in (7, 100, -128, "wide"):  # refused when the Context is made, before anything runs
        with pytest.raises(ValueError, match="VECTOR_WIDTH="):
            la.Context(VECTOR_WIDTH=bad)


def test_bad_vector_width_in_the_environment_raises_for_any_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # an integer kernel is not built as LLVM IR: a bad width used to pass unnoticed there
    monkeypatch.setenv("LAZYARR_VECTOR_WIDTH", "64")
    env_flag.cache_clear()
    try:
        with pytest.raises(ValueError, match="LAZYARR_VECTOR_WIDTH='64': use one of 0, 128, 256, 512"):
            (Tensor(np.arange(5)) * 2).numpy()
    finally:
        monkeypatch.undo()
        env_flag.cache_clear()


def _two_outputs(a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
    """Two results of one kernel (two stores a step), stacked by a second kernel."""
    x, y = a * b + c, (a - d).exp()
    x.realize(y)
    return Tensor.stack([x, y])


def _program(fn: Callable[..., Tensor], stream: bool) -> Any:
    """The Program of the first kernel `fn` compiles, lowered as for a large launch (`stream`) or a small one."""
    programs: list[Any] = []
    compile_object = render_llvm.compile_object

    def spy(prog: Any) -> bytes:
        programs.append(prog)
        return compile_object(prog)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render_llvm, "compile_object", spy)
        mp.setattr(realize, "STREAM_MIN_BYTES", 0 if stream else 1 << 62)
        _run(fn, _inputs(64, np.float32, False), 1)
    return programs[0]


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
def test_only_large_launches_stream_their_stores() -> None:
    assert "!nontemporal" in render_llvm.build_ir(_program(EXPRESSIONS["chain"], True))[0]
    assert "nontemporal" not in render_llvm.build_ir(_program(EXPRESSIONS["chain"], False))[0]
    big = Tensor(np.ones(5 << 20, np.float32))  # 40 MiB moved: over the default threshold
    realize._kernels.clear()
    out = (big * 2).realize()
    assert all(k.lowered.program.stream for k in realize._kernels.values())
    np.testing.assert_array_equal(out.numpy()[[0, -1]], [2, 2])
    realize._kernels.clear()
    np.testing.assert_array_equal((Tensor(np.ones(1000, np.float32)) * 2).numpy(), np.full(1000, 2, np.float32))
    assert realize._kernels and not any(k.lowered.program.stream for k in realize._kernels.values())


def test_hot_loops_ask_llvm_to_interleave() -> None:
    # the streamed middle of a large launch and each stage of a split loop carry a loop ID asking for INTERLEAVE; the
    # loop of a small launch does not (IR only: the bits tests above run these kernels)
    def ir_of(fn: Callable[..., Tensor], stream: bool) -> str:
        norm, _ = normalize([fn(*(Tensor(h) for h in _inputs(64, np.float32, False))).uop])
        prog = lower(schedule(norm).items[0]).program
        prog.stream = stream
        return render_llvm.build_ir(prog)[0]

    hint = f'!{{ !"llvm.loop.interleave.count", i32 {render_llvm.INTERLEAVE} }}'
    loop_ids = re.compile(r"^(!\d+) = !{ \1, !\d+ }$", re.M)  # a node whose first operand is itself
    streamed, small, split = (ir_of(EXPRESSIONS["chain"], True), ir_of(EXPRESSIONS["chain"], False),
                              ir_of(EXPRESSIONS["option_prices"], False))
    assert hint in streamed and len(loop_ids.findall(streamed)) == streamed.count("!llvm.loop ") == 1
    assert "llvm.loop" not in small
    assert hint in split and len(loop_ids.findall(split)) == split.count("!llvm.loop ") >= 3


@pytest.mark.skipif(not helper_ir.available(), reason="the shipped helper IR is for another Numba/llvmlite version")
@pytest.mark.parametrize("shifts", [(0, 0), (36, 36), (0, 4), (4, 0), (2, 2), (0, 2)])
def test_streamed_kernel_writes_outputs_at_any_offset(shifts: tuple[int, int]) -> None:
    # a streamed kernel's two outputs at raw addresses `shifts` bytes past a cache line. Non-temporal vector stores
    # need aligned addresses: outputs at different offsets from a line (or not float-aligned: 2) must take the plain
    # path; every element is written once either way
    prog = _program(_two_outputs, True)
    kernel = runtime_numba.native.link("stream_shift", render_llvm.kinds(prog), render_llvm.compile_object(prog))
    n = 1000
    hosts = _inputs(n, np.float32, False)
    want = _two_outputs(*(Tensor(h) for h in hosts)).numpy()
    stored = sorted({st.buf for st in prog.body[0].body if isinstance(st, Store)})
    loaded = iter(hosts)
    raws, args = [], []
    for slot in range(len(prog.buf_dtypes)):
        if slot in stored:
            raw = np.zeros(4 * n + 128, np.uint8)
            base = (-raw.ctypes.data) % 64 + shifts[stored.index(slot)]
            raws.append((raw, base))
            args += [raw.ctypes.data + base, n]
        else:
            args += [next(loaded).ctypes.data, n]
    assert prog.parallel and len(stored) == 2
    kernel.raw(*args, 0, n, n)
    got = [np.frombuffer(raw[base: base + 4 * n].tobytes(), np.float32) for raw, base in raws]
    np.testing.assert_array_equal(np.stack(got), want)
