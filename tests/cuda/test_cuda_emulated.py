"""The CUDA backend end to end without a GPU: programs run on device "CUDA" with the generated CUDA C executed by the
CPU emulator (emu/), in forward, reverse and shuffled thread order and with 1, 32 and 128 lanes per reduced row, and
compared with the same programs on the CPU (Numba) backend.

Integer results, RNG bits and float arithmetic without transcendentals must be identical; float results that go
through libm functions are compared with a tolerance.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.kernels import render_cuda, runtime_cuda

sys.path.insert(0, str(Path(__file__).parent))

from emu_backend import EmulatorBackend

ORDERS = ["forward", "reverse", "shuffle"]
# (thread order, lanes per reduced row): a thread per row, a warp per row (shuffles only), a block per row (barriers)
REDUCE_CONFIGS = [("forward", 1), ("forward", 32), ("reverse", 128), ("shuffle", 32), ("shuffle", 128)]

R = np.random.default_rng(7)
F32 = R.standard_normal((6, 40)).astype(np.float32)
F32B = R.standard_normal(40).astype(np.float32)
F32_NAN = F32.copy()
F32_NAN[2, 5] = np.nan
F32_NAN[4, :] = -np.inf
CUBE = R.standard_normal((3, 4, 37)).astype(np.float32)
F16 = (R.standard_normal((5, 40)) * 3).astype(np.float16)
EDGE_F = np.array([7.0, -7.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 3.5, -2.5, 1e30, 5.0, -1.0], dtype=np.float32)
EDGE_D = np.array([2.0, -2.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, 3.0, 1e-30, -3.0, 7.0], dtype=np.float32)
I8 = np.array([-128, -7, -1, 0, 1, 5, 7, 100, 127, -100, 64, 3], dtype=np.int8)
I8B = np.array([-1, 2, -3, 3, 0, -2, 7, 9, 1, 5, -128, 2], dtype=np.int8)
I64 = np.array([-(2**63), -7, -1, 0, 1, 5, 2**62, 100, 2**63 - 1, -100, 2**40, 3], dtype=np.int64)
I64B = np.array([2, 2, -3, 3, 0, -2, 7, 9, 1, 5, -6, 2], dtype=np.int64)
U32 = np.array([0, 1, 2**31, 2**32 - 1, 7, 12345, 99, 3, 2**16, 5, 6, 8], dtype=np.uint32)
SHIFT = np.array([0, 1, 7, 8, 31, 32, 63, 64, 3, 2, 5, 1], dtype=np.int64)
IDX = np.array([[3, 0, 5], [1, 1, 2]], dtype=np.int64)


def T(a: np.ndarray, dev: str) -> Tensor:
    return Tensor(a, device=dev)


def _int_ops(x: Tensor, y: Tensor, shift: Tensor) -> list[Tensor]:
    return [x * y + x, x - y, -x, x.abs(), x // y, x % y, x << shift, x >> shift, ~x ^ y, x.maximum(y)]


def _float_div(a: np.ndarray, b: np.ndarray, d: str) -> list[Tensor]:
    return [T(a, d) // T(b, d), T(a, d) % T(b, d)]


def _casts(d: str) -> list[Tensor]:
    x = T(F32, d)
    return [(x * 40).cast(lazyarr.int8), x.cast(lazyarr.float16), (x * 1e5).cast(lazyarr.int64).cast(lazyarr.float64),
            x.cast(lazyarr.bool_), x.cast(lazyarr.float64).cast(lazyarr.float16), T(U32, d).cast(lazyarr.float32)]


# name -> (program, exact): the program builds Tensors on a device; `exact` asks for bitwise-equal results
ELEMENTWISE: dict[str, tuple[Callable[[str], Tensor | list[Tensor]], bool]] = {
    "fused_exp_sin": (lambda d: T(F32, d) * T(F32B, d) + T(F32, d) * (-T(F32B, d)).exp() * T(F32, d).sin(), False),
    "arith_exact": (lambda d: (T(F32, d) * 3 - T(F32B, d)) / (T(F32B, d) * T(F32B, d) + 1.5) + T(F32, d).sqrt(), True),
    "broadcast_views": (lambda d: (T(CUBE, d).flip(2)[:, 1:, ::3] + T(CUBE[0], d)[1:, ::3]).permute(2, 0, 1)
                        .pad(((1, 2), (0, 0), (0, 1)), value=0.5), True),
    "float_floordiv_mod": (lambda d: _float_div(EDGE_F.repeat(12), np.tile(EDGE_D, 12), d), True),
    "float64_floordiv_mod": (lambda d: _float_div(EDGE_F.astype(np.float64), EDGE_D.astype(np.float64), d), True),
    "int8_ops": (lambda d: _int_ops(T(I8, d), T(I8B, d), T(np.abs(I8B) % 9, d)), True),
    "int64_ops": (lambda d: _int_ops(T(I64, d), T(I64B, d), T(SHIFT, d)), True),
    "uint32_ops": (lambda d: _int_ops(T(U32, d), T(U32[::-1].copy(), d), T(SHIFT.astype(np.uint32), d)), True),
    "float16": (lambda d: (T(F16, d) * T(F16[::-1].copy(), d) + 1.5) / (T(F16, d).abs() + 0.25) - T(F16, d) * 0.1,
                True),
    "casts": (_casts, True),
    "compare_where_bool": (lambda d: ((T(F32, d) > 0.5) & ~(T(F32, d) < -1) | (T(F32, d) == T(F32, d)[:, ::-1]))
                           .where(T(F32, d), T(F32, d) * -2), True),
    "gather_rows": (lambda d: T(F32, d)[T(IDX, d)], True),
    "gather_cols": (lambda d: T(F32, d)[:, T(IDX[0], d)] * 2, True),
}

REDUCTIONS: dict[str, tuple[Callable[[str], Tensor], bool]] = {
    "sum_row": (lambda d: T(F32, d).sum(1), False),
    "sum_col": (lambda d: T(F32, d).sum(0), False),
    "sum_full": (lambda d: T(F32, d).sum(), False),
    "sum_axes_0_2": (lambda d: T(CUBE, d).sum((0, 2)), False),
    "prod_row": (lambda d: (T(F32, d) * 0.5 + 1).prod(1), False),
    "max_row_nan": (lambda d: T(F32_NAN, d).max(1), True),
    "min_col_nan": (lambda d: T(F32_NAN, d).min(0), True),
    "max_full": (lambda d: T(F32, d).max(), True),
    "min_full_nan": (lambda d: T(F32_NAN, d).min(), True),
    "int64_sum_wraps": (lambda d: (T(I64, d).reshape(3, 4) * 3).sum(1), True),
    "int8_max_min": (lambda d: T(I8, d).reshape(3, 4).max(1) - T(I8, d).reshape(3, 4).min(1), True),
    "any_all": (lambda d: T(F32, d).gt(1.5).any(1).cast(lazyarr.int32) + T(F32, d).gt(-3).all(0).sum(), True),
    "float16_sum": (lambda d: T(F16, d).sum(1), False),
    "softmax": (lambda d: T(F32, d).softmax(-1), False),
    "log_softmax_col": (lambda d: T(F32, d).log_softmax(0), False),
    "logsumexp": (lambda d: T(F32, d).logsumexp(1), False),
    "argmax_row": (lambda d: T(F32_NAN, d).argmax(1), True),
    "argmax_full": (lambda d: T(F32, d).argmax(), True),
    "mean_var": (lambda d: T(F32, d).var(1) + T(F32, d).mean(1), False),
    "matmul": (lambda d: T(F32, d) @ T(F32.T.copy(), d), False),
    "cumsum": (lambda d: T(F32, d).cumsum(1), True),
    "cumsum_col_fused": (lambda d: (T(CUBE, d) * 2 + 1).cumsum(1), True),
    "cumprod_col": (lambda d: (T(F32, d) * 0.25 + 1).cumprod(0), True),
    "max_accumulate_nan": (lambda d: np.maximum.accumulate(T(F32_NAN, d), axis=1), True),
    "min_accumulate_edges": (lambda d: np.minimum.accumulate(T(EDGE_F, d)), True),
    "float16_cumsum": (lambda d: np.cumsum(T(F16, d), axis=1), True),
    "int8_cumsum_wraps": (lambda d: np.cumsum(T(I8, d), dtype=np.int8), True),
}


@pytest.fixture
def emulated(request: pytest.FixtureRequest) -> Iterator[EmulatorBackend]:
    backend = EmulatorBackend(order=getattr(request, "param", "forward"), seed=3)
    previous = runtime_cuda.set_backend(backend)
    try:
        yield backend
    finally:
        runtime_cuda.set_backend(previous)


def _values(out: Tensor | list[Tensor]) -> list[np.ndarray]:
    outs = out if isinstance(out, list) else [out]
    Tensor.realize(*outs)
    return [o.numpy() for o in outs]


def compare(program: Callable[[str], Tensor | list[Tensor]], exact: bool, backend: EmulatorBackend) -> None:
    wants = _values(program("CPU"))
    before = len(backend.launches)
    outs = program("CUDA")
    assert all(o.device == "CUDA" for o in (outs if isinstance(outs, list) else [outs]))
    gots = _values(outs)
    assert len(backend.launches) > before, "no kernel ran on the emulated device"
    for got, want in zip(gots, wants):
        assert got.dtype == want.dtype and got.shape == want.shape
        if exact:
            bits = f"u{got.itemsize}" if got.dtype.kind == "f" else got.dtype
            np.testing.assert_array_equal(got.view(bits), want.view(bits))
        else:
            tol = 2e-3 if got.dtype == np.float16 else 2e-5
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("emulated", ORDERS, indirect=True)
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_matches_cpu(name: str, emulated: EmulatorBackend) -> None:
    compare(*ELEMENTWISE[name], emulated)


@pytest.mark.parametrize(("emulated", "lanes"), REDUCE_CONFIGS, indirect=["emulated"])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reduction_matches_cpu(name: str, emulated: EmulatorBackend, lanes: int) -> None:
    with lazyarr.Context(CUDA_LANES=lanes):
        compare(*REDUCTIONS[name], emulated)
    assert all(block[0] == lanes for _, block in emulated.launches if block[0] != render_cuda.ELEMENTWISE_BLOCK)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_rand_is_bitwise_identical_to_cpu(dtype: str, emulated: EmulatorBackend) -> None:
    draws = []
    for dev in ("CPU", "CUDA"):
        Tensor.manual_seed(1234)
        first = Tensor.rand(3, 50, dtype=dtype, device=dev).numpy()
        second = Tensor.rand(70, dtype=dtype, device=dev).numpy()
        ints = Tensor.randint(40, low=-5, high=1000, device=dev).numpy()
        draws.append((first, second, ints))
    for cpu, cuda in zip(*draws):
        assert cpu.dtype == cuda.dtype
        np.testing.assert_array_equal(cpu.view(f"u{cpu.itemsize}"), cuda.view(f"u{cuda.itemsize}"))


def test_randn_matches_cpu(emulated: EmulatorBackend) -> None:
    outs = []
    for dev in ("CPU", "CUDA"):
        Tensor.manual_seed(99)
        outs.append(Tensor.randn(200, device=dev).numpy())
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["broadcast_views", "int64_ops", "gather_cols"])
def test_wide_indexing_matches_cpu(name: str, emulated: EmulatorBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 64-bit index variant (used for buffers near 2**31 elements) computes the same values."""
    monkeypatch.setattr(render_cuda, "WIDE_LIMIT", 1)
    compare(*ELEMENTWISE[name], emulated)


@pytest.mark.parametrize("lanes", [1, 32, 128])
def test_wide_reduction_matches_cpu(lanes: int, emulated: EmulatorBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_cuda, "WIDE_LIMIT", 1)
    with lazyarr.Context(CUDA_LANES=lanes):
        compare(*REDUCTIONS["softmax"], emulated)
        compare(*REDUCTIONS["sum_axes_0_2"], emulated)


def test_fused_chain_is_one_kernel(emulated: EmulatorBackend) -> None:
    a, b = T(F32, "CUDA"), T(F32B, "CUDA")
    before = len(emulated.launches)
    ((a * b).exp() + a.sin() * 2 - b).realize()
    assert len(emulated.launches) - before == 1


SPLIT = ["sum_row", "sum_full", "sum_axes_0_2", "max_row_nan", "min_full_nan", "int64_sum_wraps", "mean_var",
         "float16_sum", "any_all"]


@pytest.mark.parametrize(("emulated", "lanes"), [("forward", 64), ("reverse", 128), ("shuffle", 0)],
                         indirect=["emulated"])
@pytest.mark.parametrize("name", SPLIT)
def test_rows_split_over_blocks_match_cpu(name: str, emulated: EmulatorBackend, lanes: int,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Few long rows: each row's reduction spread over several blocks, combined by the last block to finish."""
    monkeypatch.setattr(runtime_cuda, "choose_parts", lambda rows, reduce_size, lanes, sm_count: 3)
    monkeypatch.setattr(runtime_cuda, "SPLIT_LANES", 64)
    with lazyarr.Context(CUDA_LANES=lanes):
        compare(*REDUCTIONS[name], emulated)
        compare(*REDUCTIONS[name], emulated)  # counters were reset: a second launch is right too
    # var(1) + mean(1) is one multi-pass kernel (its squeezed results fuse with the add), which is not split
    assert any(grid[1] > 1 for grid, _ in emulated.launches) or name == "mean_var"


def test_float_constants_are_args_of_one_kernel(emulated: EmulatorBackend) -> None:
    """Kernels that differ only in float constants share one CUDA source; each launch passes its own values."""
    x64 = EDGE_F.astype(np.float64)
    compiled = len(runtime_cuda._compiled)
    with np.errstate(all="ignore"):
        for c, d in [(2.5, 0.75), (-0.0, np.inf), (np.nan, 1e-45), (1e38, -3.0), (2.5, 0.75)]:
            for x in (EDGE_F, x64):
                got = (T(x, "CUDA") * c + d).numpy()
                want = (T(x, "CPU") * c + d).numpy()
                bits = f"u{got.itemsize}"
                np.testing.assert_array_equal(got.view(bits), want.view(bits))
    assert len(runtime_cuda._compiled) - compiled <= 2  # one float32 and one float64 kernel


def test_float64_to_float16_rounds_once(emulated: EmulatorBackend) -> None:
    """float64 -> float16 matches NumPy bit for bit: rounded once, not to float32 first (1 + 2**-11 + 2**-40 is above
    a float16 midpoint that float32 rounds onto, then to even); float32 -> float16 is unaffected."""
    h = np.arange(0x3C00, 0x3C40, dtype=np.uint16).view(np.float16).astype(np.float64)
    sub = np.arange(0, 9, dtype=np.uint16).view(np.float16).astype(np.float64)  # float16 subnormals from 0
    mid = np.concatenate([(h[:-1] + h[1:]) / 2, (sub[:-1] + sub[1:]) / 2])  # ties: to even
    edges = [65504.0, 65519.99, 65520.0, 65520.0 * (1 - 2.0**-40), 1e300, 5e-324, 0.0, np.inf, np.nan]
    x = np.concatenate([mid, np.nextafter(mid, 0), mid * (1 + 2.0**-40), mid * (1 - 2.0**-40), edges])
    x = np.concatenate([x, -x])
    with np.errstate(over="ignore"):
        want = x.astype(np.float16)
        want32 = x.astype(np.float32).astype(np.float16)
    for src, expect in ((x, want), (x.astype(np.float32), want32)):
        got = T(src, "CUDA").cast(lazyarr.float16).numpy()
        assert got.dtype == np.float16
        nan = np.isnan(expect)
        np.testing.assert_array_equal(np.isnan(got), nan)  # a GPU may not keep a NaN's payload
        np.testing.assert_array_equal(got.view(np.uint16)[~nan], expect.view(np.uint16)[~nan])
