"""The CUDA device without a GPU: errors when CuPy or a GPU is missing, device placement and copies, mixed-device
errors, launch-size selection, and properties of the generated source. Kernels run on the CPU emulator."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import render_cuda, runtime_cuda
from lazyarr.kernels.render_cuda import CudaKernel
from lazyarr.kernels.runtime_cuda import CudaUnavailableError, choose_lanes, launch_config

sys.path.insert(0, str(Path(__file__).parent))

from emu_backend import EmulatorBackend

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def emulated() -> Iterator[EmulatorBackend]:
    backend = EmulatorBackend(order="shuffle")
    previous = runtime_cuda.set_backend(backend)
    try:
        yield backend
    finally:
        runtime_cuda.set_backend(previous)


@pytest.fixture
def no_backend() -> Iterator[None]:
    previous = runtime_cuda.set_backend(None)
    try:
        yield
    finally:
        runtime_cuda.set_backend(previous)


def test_import_lazyarr_does_not_import_cupy() -> None:
    code = "import sys, lazyarr; lazyarr.Tensor([1.0]).numpy(); print('cupy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    assert out.stdout.strip() == "False"


def test_missing_cupy_is_a_clear_error(no_backend: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    with pytest.raises(CudaUnavailableError, match=r"needs CuPy: pip install 'lazyarr\[cuda\]'"):
        Tensor([1.0, 2.0], device="CUDA")
    assert not runtime_cuda.available()
    with pytest.raises(RuntimeError, match="needs CuPy"):
        Tensor.zeros(3, device="cuda:0")


def test_no_gpu_is_a_clear_error(no_backend: None, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("cupy")
    fake.is_available = lambda: False  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", fake)
    with pytest.raises(CudaUnavailableError, match=r"no GPU is usable \(cupy.is_available\(\) is False\)"):
        Tensor([1.0]).to("CUDA")


def test_cpu_tensors_work_without_cuda(no_backend: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)
    assert (Tensor([1.0, 2.0]) * 2).tolist() == [2.0, 4.0]


@pytest.mark.parametrize("dtype", ["float16", "bool", "int8", "uint64", "float64"])
def test_to_and_back_keeps_values_and_dtype(dtype: str, emulated: EmulatorBackend) -> None:
    a = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    t = Tensor(a).permute(2, 0, 1)[1:]  # a view: copied as its values, not its storage
    on_gpu = t.to("CUDA")
    assert on_gpu.device == "CUDA" and on_gpu.dtype == t.dtype
    back = on_gpu.to("CPU")
    assert back.device == "CPU"
    np.testing.assert_array_equal(back.numpy(), a.transpose(2, 0, 1)[1:])
    assert on_gpu.to("cuda") is on_gpu and t.cpu() is t


def test_tensors_made_on_cuda(emulated: EmulatorBackend) -> None:
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device="CUDA")
    assert isinstance(a.uop.src[0].arg.array, np.ndarray) and a.uop.src[0].arg.device == "CUDA"
    e = Tensor.empty(2, 3, device="CUDA")
    z = Tensor.zeros(2, 3, device="CUDA") + a + e
    assert z.device == "CUDA"
    np.testing.assert_array_equal(z.numpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(Tensor(Tensor([1, 2]), device="CUDA").numpy(), [1, 2])
    assert Tensor.arange(5, device="CUDA").sum().item() == 10
    assert Tensor.zeros(0, 3, device="CUDA").sum(1).numpy().shape == (0,)


def test_default_device_flag(emulated: EmulatorBackend) -> None:
    with lazyarr.Context(DEVICE="CUDA"):
        t = Tensor([1.0, 2.0])
        r = Tensor.rand(4)
        assert t.device == "CUDA" and r.device == "CUDA" and Tensor.ones(2).device == "CUDA"
        assert (t * 3).sum().item() == 9.0
    assert Tensor([1.0]).device == "CPU"


def test_ops_between_devices_raise(emulated: EmulatorBackend) -> None:
    a, b = Tensor([1.0, 2.0]), Tensor([1.0, 2.0], device="CUDA")
    with pytest.raises(ValueError, match="different devices: CPU and CUDA"):
        a + b
    with pytest.raises(ValueError, match="different devices"):
        b * a
    with pytest.raises(ValueError):
        a @ b


def test_debug_prints_cuda_launches(emulated: EmulatorBackend, capsys: pytest.CaptureFixture[str]) -> None:
    a = Tensor(np.ones(8, np.float32), device="CUDA")
    with lazyarr.Context(DEBUG=2):
        (a * 5 + 1).realize()
    out = capsys.readouterr().out
    assert 'extern "C" __global__' in out and "*** kernel" in out


def test_null_device_counts_without_launching(emulated: EmulatorBackend) -> None:
    a = Tensor(np.ones(8, np.float32), device="CUDA")
    before = len(emulated.launches)
    with lazyarr.Context(NULL=1):
        (a * 7 - 2).realize()
    assert len(emulated.launches) == before


def test_invalid_lanes_flag(emulated: EmulatorBackend) -> None:
    a = Tensor(np.ones((4, 64), np.float32), device="CUDA")
    with lazyarr.Context(CUDA_LANES=48), pytest.raises(ValueError, match="LAZYARR_CUDA_LANES=48"):
        a.sum(1).realize()


def _spec(rows: tuple[str, ...], red: tuple[str, ...], contiguous: bool) -> CudaKernel:
    return CudaKernel("kernel", "", (), ("n0", "n1"), rows, red, contiguous, False)


def test_launch_config() -> None:
    sms = 132
    grid, block = launch_config(_spec(("n0",), (), False), [1 << 24, 1], sms)
    assert block == (256, 1, 1) and grid == (sms * 32, 1, 1)  # grid-stride beyond that
    assert launch_config(_spec(("n0",), (), False), [10, 1], sms) == ((1, 1, 1), (256, 1, 1))
    # a row reduction: a warp per row for short rows, a block for a few long rows, one block for a full reduction
    assert launch_config(_spec(("n0",), ("n1",), True), [4096, 512], sms)[1] == (32, 8, 1)
    assert launch_config(_spec(("n0",), ("n1",), True), [8, 1 << 20], sms)[1] == (1024, 1, 1)
    assert launch_config(_spec((), ("n1",), True), [0, 1 << 24], sms) == ((1, 1, 1), (1024, 1, 1))
    # a column reduction: a thread per output when there are enough of them
    assert launch_config(_spec(("n0",), ("n1",), False), [1 << 20, 4096], sms)[1] == (1, 256, 1)
    # few long rows are spread over several blocks (grid.y) when the kernel can combine them
    split = CudaKernel("kernel", "", (), ("n0", "n1"), (), ("n1",), True, False, 1)
    grid, block = launch_config(split, [0, 1 << 24], sms)
    assert block == (256, 1, 1) and grid[0] == 1 and grid[1] == sms * 4
    assert launch_config(split, [0, 1000], sms) == ((1, 1, 1), (32, 8, 1))  # short: one warp, no split
    assert choose_lanes(100, 8, True, sms) == 1
    assert choose_lanes(100, 4096, False, sms) == 32


def _source_of(fn: object) -> str:
    a = Tensor(np.ones((3, 40), np.float16))
    from lazyarr.kernels import realize

    before = set(realize._kernels)
    fn(a).realize()  # type: ignore[operator]
    new = [k for k in realize._kernels if k not in before]
    return "\n".join(render_cuda.render(realize._kernels[k].lowered.program).source for k in new)


def test_generated_source_properties() -> None:
    src = _source_of(lambda a: (a.max(1, keepdims=True) - a).exp().sum(1).cast(lazyarr.float16))
    for macro in ("INFINITY", "NAN", "M_PI", "FLT_MAX", "int64_t", "#include"):
        assert macro not in src
    # every helper is a device function; the kernel is extern "C" so CuPy finds it by name
    for line in src.splitlines():
        if re.match(r"^(template <[^>]*> )?[A-Za-z_][\w ]*\blz_\w+\(.*\) ?\{", line):
            assert "__device__" in line, line
    assert 'extern "C" __global__' in src and "unsigned short* __restrict__ b0" in src  # float16 as its bits
    assert "lz_allreduce" in src and "__shared__" in src


def test_compile_counters(emulated: EmulatorBackend, tmp_path: Path) -> None:
    """A new source counts as compiled; in a later process (memory cache empty) as served by the disk cache."""
    from lazyarr.kernels import realize

    a = Tensor(np.arange(12, dtype=np.float32), device="CUDA")
    with lazyarr.Context(CACHE_DIR=str(tmp_path)):
        for expect_compiled, expect_disk in ((1, 0), (0, 1)):
            realize._kernels.clear()
            runtime_cuda.set_backend(emulated)  # forgets compiled kernels, as a new process would
            lazyarr.reset_stats()
            (a * 3 - 1.5).realize()
            s = lazyarr.stats()
            assert (s.kernels_compiled, s.disk_cache_hits) == (expect_compiled, expect_disk)
