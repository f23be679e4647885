"""Scans (cumsum, cumprod, maximum/minimum.accumulate): bit for bit NumPy's results over dtypes, axes, views,
NaN/inf and empty axes; gradients against PyTorch; one kernel per scan."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from lazyarr.graph.schedule import normalize, schedule
from lazyarr.kernels import render_cuda, render_numba
from lazyarr.kernels.lower import AccUpdate, Loop, Program, lower
from tests.helpers import kernel_count

SCANS: dict[str, Callable[..., np.ndarray]] = {
    "cumsum": lambda a, axis: np.cumsum(a, axis=axis),
    "cumprod": lambda a, axis: np.cumprod(a, axis=axis),
    "maximum": lambda a, axis: np.maximum.accumulate(a, axis=axis),
    "minimum": lambda a, axis: np.minimum.accumulate(a, axis=axis),
}
DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "bool"]
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30, -1e30, 65504.0]


def data(dtype: str, shape: tuple[int, ...], seed: int = 0, specials: bool = True) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    a = (rng.standard_normal(shape) * 2).astype(dtype)
    if specials and a.size:
        flat = a.reshape(-1)
        picks = rng.integers(0, flat.size, min(flat.size // 4, 12))
        flat[picks] = np.array(SPECIALS, dtype=np.float64)[rng.integers(0, len(SPECIALS), picks.size)].astype(dtype)
    return a


def same_bits(got: np.ndarray | Tensor, want: np.ndarray) -> None:
    got = got.numpy() if isinstance(got, Tensor) else np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind == "f":
        # NaN payloads aside (NumPy's SIMD loops may pick either NaN operand), every bit equal
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        bits = f"u{want.itemsize}"
        np.testing.assert_array_equal(np.where(nan, 0, got).view(bits), np.where(nan, 0, want).view(bits))
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(SCANS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_scan_matches_numpy_bit_for_bit(name: str, dtype: str) -> None:
    a = data(dtype, (5, 37, 6))
    if name == "cumprod" and np.dtype(dtype).kind == "f":
        a = (1 + a / 16).astype(dtype)  # products that stay in range a while
    with np.errstate(all="ignore"):
        for axis in (0, 1, 2, -1):
            same_bits(SCANS[name](Tensor(a), axis), SCANS[name](a, axis))


@pytest.mark.parametrize("name", sorted(SCANS))
def test_scan_of_views(name: str) -> None:
    a = data("float32", (9, 70))
    views: list[Callable[[np.ndarray], np.ndarray]] = [
        lambda v: v.T, lambda v: v[::-1], lambda v: v[:, ::-3], lambda v: v[2:7, 5:60:2],
        lambda v: v.reshape(3, 3, 70).transpose(2, 0, 1), lambda v: v[:, 3:4], lambda v: v[None, 4]]
    with np.errstate(all="ignore"):
        for view in views:
            for axis in range(view(a).ndim):
                same_bits(SCANS[name](view(Tensor(a)), axis), SCANS[name](view(a), axis))


def test_scan_special_cases() -> None:
    x = np.array([1.0, np.nan, 2.0, -np.inf, np.inf, 0.0, -0.0, 3.0], np.float32)
    with np.errstate(all="ignore"):
        for fn in SCANS.values():
            same_bits(fn(Tensor(x), 0), fn(x, 0))
    for dt in ("float16", "float32", "float64"):  # the sign of a zero NumPy's max/min accumulate keeps on a tie
        for z in ([-0.0, 0.0, -0.0, 0.0], [0.0, -0.0, 0.0, -0.0]):
            v = np.array(z, dt)
            for name in ("maximum", "minimum"):
                same_bits(SCANS[name](Tensor(v), 0), SCANS[name](v, 0))
    h = np.array([6e4, 6e4, -6e4, 1.0], np.float16)  # float16 runs in float16, as NumPy's: the overflow stays inf
    with np.errstate(all="ignore"):
        same_bits(np.cumsum(Tensor(h)), np.cumsum(h))


def test_float16_cumsum_rounds_every_step() -> None:
    a = (np.random.default_rng(1).random((3000, 4)) * 3).astype(np.float16)
    with np.errstate(all="ignore"):
        same_bits(np.cumsum(Tensor(a), axis=0), np.cumsum(a, axis=0))
        same_bits(np.cumsum(Tensor(a.T), axis=1), np.cumsum(a.T, axis=1))


@pytest.mark.parametrize("shape", [(0,), (0, 4), (4, 0), (3, 1), (1, 3), (1,), (1, 1)])
def test_scan_empty_and_length_one(shape: tuple[int, ...]) -> None:
    a = data("float32", shape, specials=False)
    for fn in SCANS.values():
        for axis in range(len(shape)):
            same_bits(fn(Tensor(a), axis), fn(a, axis))
    same_bits(np.cumsum(Tensor(a)), np.cumsum(a))


def test_long_scans_and_other_entry_points() -> None:
    x = data("float32", (1 << 17,), specials=False)
    same_bits(np.cumsum(Tensor(x)), np.cumsum(x))
    same_bits(Tensor(x).cumsum(0), np.cumsum(x))
    m = data("float64", (300, 301), specials=False)
    same_bits(np.cumsum(Tensor(m), axis=0), np.cumsum(m, axis=0))
    same_bits(np.add.accumulate(Tensor(m), axis=1), np.add.accumulate(m, axis=1))
    same_bits(np.cumsum(Tensor(m) * 2 + 1, axis=0), np.cumsum(m * 2 + 1, axis=0))
    if hasattr(np, "cumulative_sum"):
        same_bits(np.cumulative_sum(Tensor(m), axis=1), np.cumulative_sum(m, axis=1))
        same_bits(np.cumulative_prod(Tensor(m[:5] / 8 + 1), axis=0), np.cumulative_prod(m[:5] / 8 + 1, axis=0))
    i = data("int8", (40, 50))
    same_bits(np.cumsum(Tensor(i), axis=1), np.cumsum(i, axis=1))  # int64, as NumPy's
    same_bits(np.cumsum(Tensor(i), axis=1, dtype=np.int8), np.cumsum(i, axis=1, dtype=np.int8))  # wraps


def test_fuse_off_gives_the_same_bits() -> None:
    m = data("float32", (64, 65), specials=False)
    fused = np.cumsum(np.exp(Tensor(m)) * 3, axis=0).numpy()
    with lazyarr.Context(FUSE=0):
        unfused = np.cumsum(np.exp(Tensor(m)) * 3, axis=0).numpy()
    same_bits(unfused, fused)


def test_scan_kernel_counts() -> None:
    t = Tensor(data("float32", (64, 65), specials=False)).realize()
    with kernel_count(1):
        t.cumsum(0).realize()
    with kernel_count(1):
        np.cumsum(t.T, axis=1).realize()
    with kernel_count(1):  # the elementwise work on its input fuses into the scan
        (t * 2 + 1).exp().cumsum(1).realize()
    with kernel_count(2):  # and the work after it is a kernel of its own
        (t.cumsum(1) * 2).realize()


def _program(t: Tensor) -> Program:
    norm, _ = normalize([t.uop])
    items = schedule(norm).items
    assert len(items) == 1
    return lower(items[0]).program


def test_scan_lowers_to_an_ordered_loop_and_columns_run_side_by_side() -> None:
    t = Tensor(data("float32", (64, 65), specials=False)).realize()
    rows = _program(t.cumsum(1))  # along the last axis: a (parallel) loop over rows around the scan loop
    outer = rows.body[0]
    assert isinstance(outer, Loop) and outer.parallel and not outer.lanes
    step = outer.body[-1]
    assert isinstance(step, Loop) and step.scan and not step.blocked
    assert any(isinstance(s, AccUpdate) and s.scan for s in step.body)
    cols = _program(t.cumsum(0))  # along axis 0: the columns are a `lanes` loop, each column scanned in order
    outer = cols.body[0]
    assert isinstance(outer, Loop) and outer.lanes and isinstance(outer.body[-1], Loop) and outer.body[-1].scan
    body = render_numba.render(cols, "kernel").split("def kernel(")[1]
    assert "block_sum" not in body and "LANES" in body
    cuda = render_cuda.render(_program(t.cumsum(1)))
    assert not cuda.has_reduce  # one thread per scanned row


def test_scan_inside_jit() -> None:
    @lazyarr.jit
    def step(x: Tensor) -> Tensor:
        return (x * 2).cumsum(1)

    for k in range(4):
        a = data("float32", (8, 33), seed=k, specials=False)
        same_bits(step(Tensor(a)), np.cumsum(a * 2, axis=1))


def test_scan_into_its_own_input() -> None:
    a = data("float32", (6, 20), specials=False)
    t = Tensor(a.copy())
    np.cumsum(t, axis=1, out=t)
    same_bits(t, np.cumsum(a, axis=1))
    t = Tensor(a.copy())
    t[:, :] = np.cumsum(t[:, ::-1], axis=1)  # reads what it overwrites at other positions
    same_bits(t, np.cumsum(a[:, ::-1], axis=1))


torch = pytest.importorskip("torch")


def _grad(fn: Callable[[Tensor], Tensor], a: np.ndarray, g: np.ndarray) -> np.ndarray:
    t = Tensor(a, requires_grad=True)
    (fn(t) * Tensor(g)).sum().backward()
    assert t.grad is not None
    return t.grad.numpy()


def _torch_grad(fn: Callable[..., object], a: np.ndarray, g: np.ndarray) -> np.ndarray:
    t = torch.tensor(a, requires_grad=True)
    (fn(t) * torch.tensor(g)).sum().backward()
    return t.grad.numpy()


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_scan_gradients_match_torch(axis: int) -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((7, 9))
    g = rng.standard_normal((7, 9))
    a_zero = a.copy()
    a_zero[2, 3] = a_zero[5, 3] = a_zero[4, 6] = a_zero[0, 0] = 0.0  # cumprod through zeros, one or two per line
    a_tie = np.round(a * 2) / 2  # cummax/cummin ties
    cases = [
        (lambda t: t.cumsum(axis), lambda t: torch.cumsum(t, axis), a),
        (lambda t: t.cumprod(axis), lambda t: torch.cumprod(t, axis), a),
        (lambda t: t.cumprod(axis), lambda t: torch.cumprod(t, axis), a_zero),
        (lambda t: np.maximum.accumulate(t, axis=axis), lambda t: torch.cummax(t, axis).values, a_tie),
        (lambda t: np.minimum.accumulate(t, axis=axis), lambda t: torch.cummin(t, axis).values, a_tie),
        (lambda t: (t.exp() * 2).cumsum(axis).sin(), lambda t: torch.cumsum(t.exp() * 2, axis).sin(), a),
    ]
    for ours, theirs, x in cases:
        np.testing.assert_allclose(_grad(ours, x, g), _torch_grad(theirs, x, g), rtol=1e-9, atol=1e-9)


def test_scan_gradient_float32_and_finite_differences() -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 6))
    g = rng.standard_normal((4, 6))
    got = _grad(lambda t: t.cumprod(1), a.astype(np.float32), g.astype(np.float32))
    np.testing.assert_allclose(got, _torch_grad(lambda t: torch.cumprod(t, 1), a, g), rtol=1e-4, atol=1e-5)
    eps, num = 1e-6, np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[idx] += eps
        lo[idx] -= eps
        num[idx] = ((np.cumsum(hi, 0) * g).sum() - (np.cumsum(lo, 0) * g).sum()) / (2 * eps)
    np.testing.assert_allclose(_grad(lambda t: t.cumsum(0), a, g), num, rtol=1e-6, atol=1e-6)
