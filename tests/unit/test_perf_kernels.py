"""Performance features of the CPU kernels that must not change results: transcendentals and row sums vectorise with
the same numerics fused and unfused (FUSE=0), long reductions split over threads, row-wise softmax/log_softmax/
layer norm/cross-entropy stay at most 2 kernels, and the generated machine code is packed SIMD."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Context, Tensor
from lazyarr.graph.schedule import normalize, schedule
from lazyarr.kernels import helper_ir, realize, render_numba, runtime_numba
from lazyarr.kernels.lower import lower
from lazyarr.kernels.native import NativeKernel
from tests.helpers import assert_matches, kernel_count, option_prices

rng = np.random.default_rng(8)


def both_ways(fn, *arrays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    """`fn` on Tensors of `arrays`, fused and with FUSE=0."""
    fused = fn(*[Tensor(a) for a in arrays]).numpy()
    with lazyarr.Context(FUSE=0):
        unfused = fn(*[Tensor(a) for a in arrays]).numpy()
    return fused, unfused


def chain(a: Tensor, b: Tensor) -> Tensor:
    return a * b + (a * 0.5).sin() * (-b.abs()).exp() + (b.abs() + 1).log() * a.tanh() - (a * 0.3).erf() + a.cos()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_transcendental_chain_same_bits_fused_and_unfused(dtype: type) -> None:
    a, b = (rng.standard_normal(1000).astype(dtype) * 3 for _ in range(2))
    fused, unfused = both_ways(chain, a, b)
    np.testing.assert_array_equal(fused, unfused)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    erf = np.vectorize(__import__("math").erf)
    ref = a64 * b64 + np.sin(a64 * 0.5) * np.exp(-np.abs(b64)) + np.log(np.abs(b64) + 1) * np.tanh(a64) \
        - erf(a64 * 0.3) + np.cos(a64)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(fused, ref, rtol=tol, atol=tol)


def test_pow_and_float16_transcendentals() -> None:
    x = rng.uniform(0.1, 4, 300).astype(np.float32)
    y = rng.uniform(-3, 3, 300).astype(np.float32)
    assert_matches(Tensor(x) ** Tensor(y), np.power(x, y), rtol=1e-6)
    h = x.astype(np.float16)
    out = Tensor(h).exp().numpy()
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.exp(h))  # float32 exp rounded once to float16, like NumPy


# shapes x reduced axes: row reductions (last axis, blocked), column-like ones, short and odd lengths
# (rows and last blocks shorter than render_numba.SHORT_BLOCK are summed by short_sum: 10, 31, 128 + 31; not 32, 160)
REDUCTIONS = [((3, 1), (1,)), ((4, 127), (1,)), ((4, 128), (1,)), ((3, 129), (1,)), ((5, 1000), (1,)),
              ((7, 300), (0, 1)), ((6, 5, 260), (1, 2)), ((6, 5, 260), (0, 2)), ((40, 33), (0,)), ((4, 5, 6), (0, 1)),
              ((9, 10), (1,)), ((5, 31), (1,)), ((5, 32), (1,)), ((4, 159), (1,)), ((4, 160), (1,))]


@pytest.mark.parametrize("shape,axes", REDUCTIONS)
def test_sums_same_bits_fused_and_unfused(shape: tuple[int, ...], axes: tuple[int, ...]) -> None:
    x, y = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    fused, unfused = both_ways(lambda a, b: ((a * 1.5 + b).exp() * 0.01).sum(axes), x, y)
    np.testing.assert_array_equal(fused, unfused)
    ref = (np.exp(x.astype(np.float64) * 1.5 + y) * 0.01).sum(axes)
    np.testing.assert_allclose(fused, ref, rtol=2e-6, atol=1e-6)
    m_fused, m_unfused = both_ways(lambda a, b: (a - b).max(axes), x, y)
    np.testing.assert_array_equal(m_fused, m_unfused)
    np.testing.assert_array_equal(m_fused, (x - y).max(axes))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_short_rows_are_summed_in_the_documented_order(dtype: type) -> None:
    # a row shorter than SHORT_BLOCK goes to 8 running sums, then ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)):
    # the same bits as that order in NumPy, fused and unfused; a row of SHORT_BLOCK is a padded block sum instead
    assert render_numba.SHORT_BLOCK == 32
    for n in (2, 3, 8, 10, 17, 31):
        x = (rng.standard_normal((6, n)) * 10.0 ** rng.integers(-3, 4, (6, n))).astype(dtype)
        s = [np.full(6, -0.0, dtype) for _ in range(8)]
        for i in range(n):
            s[i % 8] = s[i % 8] + x[:, i]
        want = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
        (src,) = _sources(lambda x=x: Tensor(x).sum(1))
        assert "short_sum(" in src
        fused, unfused = both_ways(lambda a: a.sum(1), x)
        np.testing.assert_array_equal(fused, want)
        np.testing.assert_array_equal(unfused, want)
    # the kernel's blocks and padding keep a sum of -0.0s -0.0 (seen through initial=-0.0); the sum itself starts
    # from +0.0, as NumPy's
    z = np.full((2, 10), -0.0, dtype)
    assert np.signbit(np.sum(Tensor(z), axis=1, initial=-0.0).numpy()).all()
    assert not np.signbit(Tensor(z).sum(1).numpy()).any() and not np.signbit(z.sum(1)).any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_of_loaded_rows_give_the_blocked_loops_bits(dtype: type) -> None:
    # a row sum over a buffer's consecutive elements sums its full blocks in a loop of their own and a short last block
    # where it lies (render_numba.loaded_sum); a transposed buffer's rows are strided, so they take the general blocked
    # loop (copied to scratch): the same blocks in the same order, so the same bits
    own = np.random.default_rng(81)  # not the module's generator: the tests after this one keep their data
    for n in (1, 10, 31, 32, 127, 128, 129, 159, 160, 300, 1000, 1024 + 40):
        x = (own.standard_normal((5, n + 3)) * 10.0 ** own.integers(-3, 4, (5, n + 3))).astype(dtype)
        (src,) = _sources(lambda x=x: Tensor(x).sum(1))
        assert "_f = np.int64(" in src and "min(REDUCE_BLOCK" not in src
        strided = Tensor(np.ascontiguousarray(x.T)).T
        (general,) = _sources(lambda strided=strided: strided.sum(1))
        assert "min(REDUCE_BLOCK" in general
        np.testing.assert_array_equal(Tensor(x).sum(1).numpy(), strided.sum(1).numpy())
        np.testing.assert_array_equal(Tensor(x)[:, 3:].sum(1).numpy(), strided[:, 3:].sum(1).numpy())
        np.testing.assert_allclose(Tensor(x).sum(1).numpy(), x.astype(np.float64).sum(1),
                                   rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-3)


def test_max_and_min_propagate_nan_and_sum_keeps_negative_zero() -> None:
    x = rng.standard_normal((3, 300)).astype(np.float32)
    x[1, 200] = np.nan
    assert_matches(Tensor(x).max(1), x.max(1))
    assert_matches(Tensor(x).min(1), x.min(1))
    z = np.full((2, 200), -0.0, dtype=np.float32)
    assert np.signbit(np.sum(Tensor(z), axis=1, initial=-0.0).numpy()).all()  # the kernel's blocks keep -0.0
    assert not np.signbit(Tensor(z).sum(1).numpy()).any() and not np.signbit(z.sum(1)).any()  # NumPy's starts at +0


def test_long_reductions_split_over_two_kernels_with_the_same_bits_unfused() -> None:
    n = 1 << 18
    x = rng.standard_normal(n).astype(np.float32)
    t = Tensor(x).realize()
    with kernel_count(2):
        s = (t * 2).sum().realize()
    np.testing.assert_allclose(s.numpy(), (x.astype(np.float64) * 2).sum(), rtol=1e-5, atol=1e-3)
    with lazyarr.Context(FUSE=0):
        unfused = (Tensor(x) * 2).sum().numpy()
    np.testing.assert_array_equal(s.numpy(), unfused)
    assert_matches(t.max(), x.max())
    assert_matches((t - t.mean()).abs().max(), np.abs(x - x.mean(dtype=np.float64)).max().astype(np.float32), rtol=1e-5)
    wide = rng.standard_normal((3, 1 << 17)).astype(np.float32)  # few outputs, long rows
    assert_matches(Tensor(wide).sum(1), wide.astype(np.float64).sum(1).astype(np.float32), rtol=1e-5)
    tall = rng.standard_normal((1 << 17, 3)).astype(np.float32)  # few outputs, long columns
    # in order down each column, like NumPy's axis-0 sum: float32 rounding grows with the column's length
    assert_matches(Tensor(tall).sum(0), tall.astype(np.float64).sum(0).astype(np.float32), rtol=1e-5, atol=1e-2)


def _layer_norm(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) * (x - mean)).mean(-1, keepdims=True)
    return (x - mean) / (var + 1e-5).sqrt() * w + b


def _cross_entropy(logits: Tensor, onehot: Tensor) -> Tensor:
    return -(logits.log_softmax(-1) * onehot).sum(-1).mean()


def test_row_softmax_family_kernel_counts() -> None:
    x = rng.standard_normal((64, 100)).astype(np.float32)
    w, b = rng.standard_normal(100).astype(np.float32), rng.standard_normal(100).astype(np.float32)
    labels = rng.integers(0, 100, 64)
    onehot = np.eye(100, dtype=np.float32)[labels]
    t, tw, tb, th = Tensor(x).realize(), Tensor(w).realize(), Tensor(b).realize(), Tensor(onehot).realize()
    e = np.exp(x - x.max(-1, keepdims=True))
    with kernel_count(1):
        sm = t.softmax(-1).realize()
    assert_matches(sm, e / e.sum(-1, keepdims=True), rtol=1e-5)
    with kernel_count(1):
        lsm = t.log_softmax(-1).realize()
    ref_lsm = x - x.max(-1, keepdims=True) - np.log(e.sum(-1, keepdims=True))
    assert_matches(lsm, ref_lsm, rtol=1e-5, atol=1e-5)
    with kernel_count(1):
        ln = _layer_norm(t, tw, tb).realize()
    ref_ln = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b
    assert_matches(ln, ref_ln, rtol=1e-4, atol=1e-4)
    with kernel_count(2):
        ce = _cross_entropy(t, th).realize()
    assert_matches(ce, np.float32(-ref_lsm[np.arange(64), labels].mean()), rtol=1e-5)


# ---- the machine code: packed SIMD in the hot loops ----
_PACKED = re.compile(r"\bv(?:add|sub|mul|div|max|min|blendv|and|or|cmp\w*)p[sd]\s[^\n]*%[yz]mm")


def _fresh_asm(source: str, tmp_path, name: str) -> str:  # noqa: ANN001
    """Assembly of a rendered kernel, compiled from scratch (no disk cache: cached code cannot be inspected)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source.replace("cache=True", "cache=False"))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    fn = module.kernel
    return fn.inspect_asm(fn.signatures[0])


def _sources(fn) -> list[str]:  # noqa: ANN001
    """The rendered kernels that realising `fn()` runs."""
    norm, _ = normalize([fn().uop])
    blas = runtime_numba.blas_route()
    return [render_numba.render(lower(item, blas=blas).program, "kernel") for item in schedule(norm).items]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_trig_blocks_with_large_inf_nan_arguments_match_numpy(op: str, dtype: type) -> None:
    # trig loops run per block of 512 with the small-argument variants unless an argument in the block is large,
    # inf or NaN; every element's value must not depend on which blocks its neighbours put it in
    x = rng.uniform(-50, 50, 2000).astype(dtype)
    big = x.copy()
    big[[10, 700, 1500]] = [3.0e9, np.inf, np.nan]
    small_out = getattr(Tensor(x), op)().numpy()
    big_out = getattr(Tensor(big), op)().numpy()
    with np.errstate(invalid="ignore"):
        want = getattr(np, op)(big.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(big_out, want, rtol=4 * np.finfo(dtype).eps, atol=0)
    keep = np.ones(x.size, bool)
    keep[[10, 700, 1500]] = False
    np.testing.assert_array_equal(big_out[keep], small_out[keep])
    fused, unfused = both_ways(lambda a, b: a * b + getattr(a, op)(), big, x)
    np.testing.assert_array_equal(fused, unfused)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_trig_loops_writing_in_place_with_large_arguments_match_numpy(dtype: type) -> None:
    # a trig loop that stores into buffers it does not read runs first with the small variants and again in checked
    # blocks when an argument was large; a loop writing where it reads (in place, a view, a shifted overlap) must not
    h = rng.uniform(-50, 50, 3000).astype(dtype)
    h[[5, 900, 2500]] = [3.0e9, np.inf, np.nan]
    tol = {"rtol": 4 * np.finfo(dtype).eps, "atol": 1e-6}
    with np.errstate(invalid="ignore"):
        x = Tensor(h.copy()).realize()
        x.assign(x.sin() * 2 + 1).realize()
        np.testing.assert_allclose(x.numpy(), (np.sin(h.astype(np.float64)) * 2 + 1).astype(dtype), **tol)
        for target, source in ((slice(None, None, 2), slice(None, None, 2)), (slice(1, None), slice(None, -1))):
            x = Tensor(h.copy()).realize()
            x[target] = x[source].sin()
            want = h.copy()
            want[target] = np.sin(h[source].astype(np.float64)).astype(dtype)
            np.testing.assert_allclose(x.numpy(), want, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp_arguments_outside_the_small_range_match_numpy(dtype: type) -> None:
    # a float32 exp loop that can run twice runs with exp_f32_small (x in (-87, 88)) and again with the full exp when
    # an argument was outside: overflow, subnormal and zero results, NaN and infinities, elementwise, in place and in
    # the row sums of softmax and log_softmax
    h = rng.uniform(-80, 80, 3000).astype(dtype)
    h[[5, 900, 2500, 2999]] = [-95.0, 100.0, np.nan, -np.inf]
    tol = {"rtol": 4 * np.finfo(dtype).eps, "atol": 2 * float(np.finfo(dtype).smallest_subnormal)}
    with np.errstate(all="ignore"):
        want = np.exp(h.astype(np.float64)).astype(dtype)
        np.testing.assert_allclose(Tensor(h).exp().numpy(), want, **tol)
        x = Tensor(h.copy()).realize()
        x[1:] = x[:-1].exp()  # reads the buffer it writes: the full exp only
        shifted = h.copy()
        shifted[1:] = want[:-1]
        np.testing.assert_allclose(x.numpy(), shifted, **tol)
        rows = rng.uniform(-5, 5, (6, 700)).astype(dtype)
        rows[0, :300] -= 95  # exp(x - max) subnormal or zero
        rows[1, 3], rows[2, 600], rows[3, :] = -np.inf, np.nan, -np.inf
        r64 = rows.astype(np.float64)
        e = np.exp(r64 - r64.max(1, keepdims=True))
        np.testing.assert_allclose(Tensor(rows).softmax(1).numpy(), (e / e.sum(1, keepdims=True)).astype(dtype),
                                   rtol=1e-5, atol=2 * float(np.finfo(dtype).smallest_subnormal))
        want_log = r64 - r64.max(1, keepdims=True) - np.log(e.sum(1, keepdims=True))
        np.testing.assert_allclose(Tensor(rows).log_softmax(1).numpy(), want_log.astype(dtype), rtol=1e-5, atol=1e-5)


def test_split_loops_with_log_and_exp_arguments_out_of_range_match_numpy() -> None:
    # Black-Scholes prices: a loop split into stages (fission) that runs with the small float32 log and exp, and
    # again whole with the full functions when an argument was out of range: log of 0, subnormal, negative, inf and
    # NaN quotients, exp overflow
    s = rng.uniform(5, 30, 2000).astype(np.float32)
    k = rng.uniform(1, 100, 2000).astype(np.float32)
    t = rng.uniform(0.25, 10, 2000).astype(np.float32)
    tiny = float(np.finfo(np.float32).smallest_subnormal)
    for i, (si, ki, ti) in enumerate([(0.0, 1.0, 1.0), (tiny, 1.0, 1.0), (-5.0, 10.0, 1.0), (5.0, 0.0, 1.0),
                                      (np.nan, 1.0, 1.0), (5.0, 10.0, -6000.0)]):
        s[300 * i + 7], k[300 * i + 7], t[300 * i + 7] = si, ki, ti
    with np.errstate(all="ignore"):
        got = [x.numpy() for x in option_prices(Tensor(s), Tensor(k), Tensor(t))]
        want = _np_option_prices(s.astype(np.float64), k.astype(np.float64), t.astype(np.float64))
        with Context(FUSE=0):
            unfused = [x.numpy() for x in option_prices(Tensor(s), Tensor(k), Tensor(t))]
    for g, w, plain in zip(got, want, unfused):
        np.testing.assert_array_equal(g, plain)
        np.testing.assert_allclose(g, w.astype(np.float32), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_epilogues_with_arguments_out_of_range_match_numpy(dtype: type) -> None:
    # the product goes straight into the output block, which the exp/sin loop after the BLAS call then overwrites:
    # that loop must not run a second time (with the full functions), or it reads exp(product) back as its argument
    a = np.array([[10.0, 0.0], [0.0, 1.0]], dtype)
    b = np.array([[10.0, 0.0], [0.0, 0.5]], dtype)  # a @ b = [[100, 0], [0, 0.5]]
    c = np.array([[3.0e9, 1.0], [0.0, 1.0]], dtype)  # c @ b: sin of 3e10, a large argument
    p, q = (a @ b).astype(np.float64), (c @ b).astype(np.float64)
    with np.errstate(over="ignore"):
        np.testing.assert_allclose((Tensor(a) @ Tensor(b)).exp().numpy(), np.exp(p).astype(dtype), rtol=1e-6)
        np.testing.assert_allclose((-(Tensor(a) @ Tensor(b))).sigmoid().numpy(), 1 / (1 + np.exp(p)), rtol=1e-6,
                                   atol=1e-30)
    np.testing.assert_allclose((Tensor(c) @ Tensor(b)).sin().numpy(), np.sin(q), rtol=1e-6, atol=1e-6)


def _np_option_prices(s: np.ndarray, k: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    erf = np.vectorize(__import__("math").erf)
    sq = np.sqrt(t) * 0.3
    d1 = (np.log(s / k) + 0.065 * t) / sq
    disc = k * np.exp(t * -0.02)
    c1, c2 = 0.5 + 0.5 * erf(d1 * 0.7071067811865476), 0.5 + 0.5 * erf((d1 - sq) * 0.7071067811865476)
    return s * c1 - disc * c2, disc * (1 - c2) - s * (1 - c1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_split_loops_match_numpy_and_unfused_over_views_and_chunks(dtype: type) -> None:
    # a long elementwise body runs as stages over blocks of FISSION_BLOCK: every element must get the bits the plain
    # loop gives, for lengths that are not whole blocks, strided/broadcast/transposed inputs and threaded chunks
    s_all = rng.uniform(5, 30, (7, 2 * 301)).astype(dtype)
    k_row = rng.uniform(1, 100, 301).astype(dtype)
    t_t = rng.uniform(0.25, 10, (301, 7)).astype(dtype)
    arrays = (s_all[:, ::2], k_row, t_t.T)
    assert all("_f in range(" not in src for src in _sources(lambda: Tensor(k_row).exp()))
    srcs = _sources(lambda: option_prices(*[Tensor(a) for a in arrays])[0])
    assert len(srcs) == 1 and "_f in range(" in srcs[0] and "_s[" in srcs[0]
    want = _np_option_prices(*(a.astype(np.float64) for a in arrays))
    with Context(PARALLEL_MIN=500, NUM_THREADS=2):
        call, put = option_prices(*[Tensor(a) for a in arrays])
        call.realize(put)
    with Context(FUSE=0):
        unfused = [x.numpy() for x in option_prices(*[Tensor(a) for a in arrays])]
    for got, ref, plain in zip((call.numpy(), put.numpy()), want, unfused):
        np.testing.assert_array_equal(got, plain)
        np.testing.assert_allclose(got, ref, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-4)


def test_loop_storing_to_a_buffer_it_reads_is_not_split() -> None:
    x = rng.uniform(1, 2, 1000).astype(np.float32)
    def step(t: Tensor) -> Tensor:
        return t.assign((t.log() / t.sqrt() + (t * 0.3).erf() + (-t).exp()).erf() / t)

    (src,) = _sources(lambda: step(Tensor(x).realize()))
    assert "_f in range(" not in src
    t = Tensor(x).realize()
    step(t).realize()
    x64 = x.astype(np.float64)
    erf = np.vectorize(__import__("math").erf)
    np.testing.assert_allclose(t.numpy(), erf(np.log(x64) / np.sqrt(x64) + erf(x64 * 0.3) + np.exp(-x64)) / x64,
                               rtol=1e-5)


@pytest.mark.parametrize("llvm", [1, 0])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_transposed_loops_run_tiled_with_numpys_values(dtype: type, llvm: int) -> None:
    # a nest reading its inner loop at a stride of a multiple of TILE_ALIAS bytes runs in tiles (both renderers);
    # tails in both loops, thread chunks that are no multiple of a tile, flipped and batched views, a transposed
    # write into the buffer it reads, and a stride that keeps the plain nest must all give NumPy's values
    cols = render_numba.TILE_ALIAS // np.dtype(dtype).itemsize
    base = rng.standard_normal((45, cols)).astype(dtype)
    square = rng.standard_normal((cols, cols)).astype(dtype)
    batch = rng.standard_normal((3, 40, cols)).astype(dtype)
    other = rng.standard_normal((45, cols + 3)).astype(dtype)
    (src,) = _sources(lambda: Tensor(base).T + 1)
    assert "_t in range(" in src and f"% {render_numba.TILE_ALIAS} == 0" in src
    assert all("_t in range(" not in s for s in _sources(lambda: Tensor(base) + 1))
    cases = [
        (lambda x: x.T + 1, base, base.T + 1),
        (lambda x: x[:, :300].T * 2, base, base[:, :300].T * 2),
        (lambda x: x.T[::-1, ::-1] - 3, base, base.T[::-1, ::-1] - 3),
        (lambda x: x + x.T, square, square + square.T),
        (lambda x: x.permute(0, 2, 1) * 0.5, batch, batch.transpose(0, 2, 1) * dtype(0.5)),
        (lambda x: x[:, :cols].T + 1, other, other[:, :cols].T + 1),
    ]
    realize._kernels.clear()
    runtime_numba._compiled.clear()
    with Context(LLVM=llvm, NATIVE=0, PARALLEL_MIN=1000, NUM_THREADS=2):
        for fn, host, want in cases:
            np.testing.assert_array_equal(fn(Tensor(host)).numpy(), want)
        t = Tensor(square).realize()
        t.assign(t.T + 1).realize()
        np.testing.assert_array_equal(t.numpy(), square.T + 1)
    native = [isinstance(k, NativeKernel) for k in runtime_numba._compiled.values()]
    assert any(native) == bool(llvm and helper_ir.available())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_reductions_of_transposed_views_run_rows_side_by_side_with_their_own_bits(dtype: type) -> None:
    # a row reduction reading its rows down the columns of a buffer runs rows side by side (lanes), each row summed in
    # its own blocks: the bits of the same sum over a contiguous copy (and of FUSE=0), NumPy's values; row counts that
    # are not a multiple of the lanes, rows shorter than a short block, between a short and a full block, several
    # blocks with a tail, thread chunks, and max/min with NaN and signed zeros
    for rows, length in ((37, 10), (20, 77), (50, 300), (3, 128)):
        w = rng.standard_normal((length, rows + 16)).astype(dtype)  # rows of a are read at a stride of 16 or more
        w[length // 2, 1] = np.nan
        w[:, 2] = -np.abs(w[:, 2])
        w[[0, length - 1], 2] = [-0.0, 0.0]
        b = rng.standard_normal((rows, length)).astype(dtype)
        c = np.ascontiguousarray(w[:, :rows].T)

        def rows_of(x: Tensor) -> Tensor:
            return x[:, :rows].T  # noqa: B023

        srcs = _sources(lambda: rows_of(Tensor(w)).sum(1))  # noqa: B023
        assert len(srcs) == 1 and f"range(start, end, {render_numba.ROW_LANES})" in srcs[0]
        with Context(PARALLEL_MIN=64, NUM_THREADS=2):
            for fn in (lambda x: x.sum(1), lambda x: x.mean(1), lambda x: x.var(1), lambda x: (x * 3).sum(1),
                       lambda x: x.max(1), lambda x: x.min(1), lambda x: x.exp().sum(1)):
                got = fn(rows_of(Tensor(w))).numpy()
                np.testing.assert_array_equal(got, fn(Tensor(c)).numpy())
            fused, unfused = both_ways(lambda x, y: (rows_of(x) * y).sum(1), w, b)
            np.testing.assert_array_equal(fused, unfused)
        np.testing.assert_allclose(fused, (c.astype(np.float64) * b).sum(1), rtol=1e-5, atol=1e-5)
        got = rows_of(Tensor(w)).max(1).numpy()
        np.testing.assert_array_equal(got, np.max(c, 1))
        np.testing.assert_array_equal(np.signbit(got), np.signbit(np.max(c, 1)))
        np.testing.assert_allclose(rows_of(Tensor(w)).sum(1).numpy(), c.astype(np.float64).sum(1), rtol=1e-5,
                                   atol=1e-5)


def test_chain_and_softmax_kernels_are_packed_simd(tmp_path) -> None:  # noqa: ANN001
    a, b, c, d = (Tensor(rng.standard_normal(256).astype(np.float32)).realize() for _ in range(4))
    (src,) = _sources(lambda: a * b + c * (-d).exp() * a.sin())
    assert len(_PACKED.findall(_fresh_asm(src, tmp_path, "lk_test_chain"))) >= 30
    x = Tensor(rng.standard_normal((8, 300)).astype(np.float32)).realize()
    (src,) = _sources(lambda: x.softmax(-1))
    asm = _fresh_asm(src, tmp_path, "lk_test_softmax")
    assert re.search(r"\bvmaxps\s[^\n]*%ymm", asm) and re.search(r"\bvaddps\s[^\n]*%ymm", asm)


# ---- matmul: one BLAS call per kernel, with the elementwise work before and after it fused ----
MATMULS = [((33, 17), (17, 9)), ((17,), (17, 9)), ((33, 17), (17,)), ((17,), (17,)), ((4, 5, 6), (4, 6, 3)),
           ((4, 5, 6), (6, 3)), ((2, 1, 5, 6), (3, 6, 2))]


@pytest.mark.parametrize("sa,sb", MATMULS)
def test_matmul_shapes_match_numpy_fused_and_unfused(sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a, b = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    fused, unfused = both_ways(lambda x, y: x @ y, a, b)
    np.testing.assert_array_equal(fused, unfused)
    np.testing.assert_allclose(fused, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sa,sb", MATMULS[:2] + MATMULS[4:5])
def test_matmul_without_blas_is_a_loop_kernel_with_numpy_values(sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a, b = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    with Context(BLAS=0):
        (src,) = _sources(lambda: Tensor(a) @ Tensor(b))
        out = (Tensor(a) @ Tensor(b)).numpy()
    assert "np.dot(" not in src and "numpy_gemm(" not in src
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


def test_matmul_and_cumsum_work_when_scipy_is_not_installed(tmp_path) -> None:  # noqa: ANN001
    # Numba calls BLAS only through SciPy, which is not a dependency: without it matmuls still compile and run, calling
    # NumPy's own BLAS when it has a 64-bit-integer gemm (the same bits as numpy.matmul); a second process links the
    # cached kernel's call to it again (llvmlite resolves the name when it loads the object code)
    script = textwrap.dedent("""
        import json, sys
        sys.modules["scipy"] = None  # import scipy now raises ImportError, as when it is not installed
        import numpy as np, lazyarr
        from lazyarr.kernels import numpy_blas, runtime_numba
        rng = np.random.default_rng(5)
        a, b = rng.standard_normal((37, 20)).astype(np.float32), rng.standard_normal((20, 11)).astype(np.float32)
        out = (lazyarr.Tensor(a) @ lazyarr.Tensor(b)).numpy()
        if numpy_blas.available():
            np.testing.assert_array_equal(out, a @ b)
        np.testing.assert_allclose(out, a @ b, rtol=1e-5)
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        np.testing.assert_allclose(lazyarr.Tensor(a).cumsum(1).numpy(), a.cumsum(1))
        s = lazyarr.stats()
        print(json.dumps([runtime_numba.blas_route(), numpy_blas.available(), s.kernels_compiled]))
    """)
    env = dict(os.environ, LAZYARR_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
            for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr[-3000:]
    (route, numpy_has_blas, compiled), (_, _, compiled_again) = (json.loads(r.stdout.splitlines()[-1]) for r in runs)
    assert route == ("numpy" if numpy_has_blas else "")
    assert compiled >= 2 and compiled_again == 0


@pytest.mark.skipif(not runtime_numba.numpy_blas.available(), reason="NumPy's BLAS has no 64-bit-integer gemm")
def test_numpy_blas_route_gives_numpy_matmul_bits_and_scipy_route_agrees() -> None:
    # BLAS=1 calls NumPy's own gemm: for C-ordered matrices the same call numpy.matmul makes, so the same bits; BLAS=2
    # (SciPy's, through Numba's np.dot) differs only by rounding; an empty sum is 0 (BLAS wants K >= 1)
    cases = [((37, 20), (20, 11), np.float32), ((2, 16, 9), (2, 9, 8), np.float64), ((6, 0), (0, 5), np.float32),
             ((0, 4), (4, 3), np.float64), ((1, 1), (1, 1), np.float32)]
    for sa, sb, dt in cases:
        a, b = rng.standard_normal(sa).astype(dt), rng.standard_normal(sb).astype(dt)
        with Context(BLAS=1):
            out = (Tensor(a) @ Tensor(b)).numpy()
            if len(sa) == 2:  # a batch may be one product of more rows, which BLAS may sum in another order
                np.testing.assert_array_equal(out, a @ b)
            np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)
            srcs = _sources(lambda a=a, b=b: Tensor(a) @ Tensor(b))
        if runtime_numba._scipy_installed() and sa == cases[0][0]:  # one case: each route compiles its own kernels
            with Context(BLAS=2):
                np.testing.assert_allclose((Tensor(a) @ Tensor(b)).numpy(), a @ b, rtol=1e-5, atol=1e-5)
        if min(sa[-2], sa[-1], sb[-1]) > 1:  # a matrix-vector product or an empty one is a loop kernel
            assert [src.count("numpy_gemm(") for src in srcs] == [1] and "np.dot(" not in srcs[0]
    with Context(BLAS=3), pytest.raises(ValueError, match="LAZYARR_BLAS"):
        (Tensor(a) @ Tensor(b)).realize()
    x, w = rng.standard_normal((64, 48)).astype(np.float32), rng.standard_normal((48, 32)).astype(np.float32)
    with Context(BLAS=1), kernel_count(1):  # the epilogue stays fused after NumPy's gemm
        out = (Tensor(x) @ Tensor(w) * 2 + 1).relu().realize()
    np.testing.assert_array_equal(out.numpy(), np.maximum((x @ w) * np.float32(2) + np.float32(1), 0))


class _Watch:
    """A `realize.Capturer` that only watches: `on_launch(item)` for every kernel launch, just before it runs (an eager
    plan launches through `ExecItem.run` while one is registered)."""

    def __init__(self, on_launch: Callable[[Any], None]) -> None:
        self.add = on_launch

    def on_data_read(self, what: str) -> None:
        pass


@pytest.mark.skipif(not runtime_numba.numpy_blas.available(), reason="NumPy's BLAS has no 64-bit-integer gemm")
@pytest.mark.skipif(not runtime_numba.numpy_blas.available(), reason="NumPy's BLAS has no 64-bit-integer gemm")
def test_blas_flag_changed_in_process_takes_effect(monkeypatch) -> None:  # noqa: ANN001
    # an eager op's cached plan holds compiled kernels: the loop kernel made under BLAS=0 must not be what a later
    # BLAS=1 run of the same structure launches (it gives numpy.matmul's bits), nor the gemm kernel under BLAS=0
    from lazyarr.kernels import realize

    launched: list[str] = []
    monkeypatch.setattr(realize, "capturing", [_Watch(lambda item: launched.append(item.kernel.source))])
    a, b = rng.standard_normal((13, 21)).astype(np.float32), rng.standard_normal((21, 11)).astype(np.float32)
    for mode in (0, 1, 0):
        launched.clear()
        with Context(BLAS=mode):
            out = (Tensor(a) @ Tensor(b)).numpy()
        assert len(launched) == 1 and ("numpy_gemm(" in launched[0]) == (mode == 1)
        if mode == 1:
            np.testing.assert_array_equal(out, a @ b)
        np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not runtime_numba.blas_available(), reason="no BLAS for matmul kernels")
def test_eager_small_matmuls_run_blas_on_small_blas_threads_and_restore_it(monkeypatch) -> None:  # noqa: ANN001
    # waking OpenBLAS's other threads for a small product costs more than it saves, and on a 2-core machine one
    # left spinning slows the next kernel's threads: an eager realisation whose matmuls are all under 2**25 flops
    # runs them on SMALL_BLAS_THREADS threads, then gives BLAS its own count back; a large one is left alone
    import threadpoolctl

    from lazyarr.kernels import realize

    def blas_counts() -> list[int]:
        return [c.num_threads for c in threadpoolctl.ThreadpoolController().lib_controllers if c.user_api == "blas"]

    seen: list[list[int]] = []
    monkeypatch.setattr(realize, "capturing", [_Watch(lambda item: seen.append(blas_counts()))])
    (Tensor(np.ones((4, 4), np.float32)) @ Tensor(np.ones((4, 4), np.float32))).realize()  # BLAS loaded
    before = blas_counts()
    small = (rng.standard_normal((64, 48)).astype(np.float32), rng.standard_normal((48, 32)).astype(np.float32))
    large = (rng.standard_normal((256, 256)).astype(np.float32), rng.standard_normal((256, 256)).astype(np.float32))
    for (a, b), cap, want in ((small, 1, [min(n, 1) for n in before]), (small, 0, before), (large, 1, before)):
        seen.clear()
        with Context(SMALL_BLAS_THREADS=cap):
            out = ((Tensor(a) @ Tensor(b)) + 1).relu().numpy()
        np.testing.assert_allclose(out, np.maximum(a @ b + 1, 0), rtol=1e-5, atol=1e-4)
        assert seen == [want] and blas_counts() == before
    with Context(SMALL_BLAS_THREADS=-1), pytest.raises(ValueError, match="SMALL_BLAS_THREADS"):
        (Tensor(small[0]) @ Tensor(small[1])).realize()
    assert blas_counts() == before


def test_batch_of_rows_times_a_matrix_is_one_blas_product_with_its_epilogue() -> None:
    # (b, n, k) @ (k, m) folds the batch into rows, as torch does: one gemm and the bias/relu after it in one kernel
    # (as a batch against a broadcast matrix it was a loop kernel, 4x slower than NumPy at (8, 256, 512) @ (512, 512))
    x, w = rng.standard_normal((3, 10, 12)).astype(np.float32), rng.standard_normal((12, 7)).astype(np.float32)
    bias = rng.standard_normal(7).astype(np.float32)
    tx, tw, tb = (Tensor(v).realize() for v in (x, w, bias))
    with kernel_count(1):
        out = (tx @ tw + tb).relu().realize()
    np.testing.assert_allclose(out.numpy(), np.maximum(x @ w + bias, 0), rtol=1e-5, atol=1e-5)
    if runtime_numba.blas_available():
        (src,) = _sources(lambda: (tx @ tw + tb).relu())
        assert src.count("numpy_gemm(") + src.count("np.dot(") == 1
    xt = x.transpose(1, 0, 2)  # rows that do not merge: one product per index of the batch axis
    assert_matches(tx.permute(1, 0, 2) @ tw, xt @ w, rtol=1e-5, atol=1e-5)
    if runtime_numba.blas_available():
        (src,) = _sources(lambda: tx.permute(1, 0, 2) @ tw)
        call = "numpy_gemm(" if "numpy_gemm(" in src else "np.dot("
        assert src.count(call) == 1 and src.index("for i0 in range(n0):") < src.index(call)  # in the batch loop
    assert_matches(tx @ tw[:, 0], x @ w[:, 0], rtol=1e-5, atol=1e-5)
    assert_matches(Tensor(np.zeros((0, 2, 12), np.float32)) @ tw, np.zeros((0, 2, 7), np.float32))
    # the weight's gradient sums over batch and rows: one (k, b*n) @ (b*n, m) product, not a loop over b*n
    g = Tensor(rng.standard_normal((3, 10, 7)).astype(np.float32)).realize()
    if runtime_numba.blas_available():  # what autograd builds for d(x @ w)/dw (its values: the backward below)
        (src,) = _sources(lambda: (tx.unsqueeze(-1) * g.unsqueeze(-2)).sum((0, 1)))
        assert src.count("numpy_gemm(") + src.count("np.dot(") == 1
    w_ = Tensor(w, requires_grad=True)
    (tx @ w_).relu().sum().backward()
    np.testing.assert_allclose(w_.grad.numpy(), np.einsum("bnk,bnm->km", x, (x @ w > 0).astype(np.float32)),
                               rtol=1e-5, atol=1e-4)


def test_matmul_views_dtypes_and_fused_epilogue() -> None:
    a, b = rng.standard_normal((40, 24)), rng.standard_normal((24, 30))
    bias = rng.standard_normal(30)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    x, w, bb = Tensor(a32).realize(), Tensor(b32).realize(), Tensor(bias.astype(np.float32)).realize()
    ref = np.maximum(a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32), 0)
    with kernel_count(1):
        out = (x @ w + bb).relu().realize()
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-5)
    (src,) = _sources(lambda: (x @ w + bb).relu())
    assert {"numpy": "numpy_gemm(", "scipy": "np.dot("}[runtime_numba.blas_route()] in src
    with kernel_count(1):  # elementwise work on an operand is computed inside the kernel, before the BLAS call
        out = ((x * 2).relu() @ w).realize()
    np.testing.assert_allclose(out.numpy(), np.maximum(a32 * 2, 0) @ b32, rtol=1e-5, atol=1e-5)
    views = ((lambda t: t.T.T, lambda t: t), (lambda t: t[::2], lambda t: t[:, 3:]), (lambda t: t, lambda t: t[::-1]))
    for fa, fb in views:
        assert_matches(fa(x) @ fb(w), fa(a32) @ fb(b32), rtol=1e-5, atol=1e-5)
    assert_matches(Tensor(a.T.copy()).T @ Tensor(b), a @ b, rtol=1e-12, atol=1e-12)  # float64, transposed operand
    assert_matches((x @ w).cast(lazyarr.float64) * 2, (a32 @ b32).astype(np.float64) * 2, rtol=1e-5, atol=1e-5)
    ai, bi = (a * 10).astype(np.int32), (b * 10).astype(np.int32)
    assert_matches(Tensor(ai) @ Tensor(bi), ai @ bi)  # integers: the loop kernel
    if hasattr(Tensor, "assign"):  # a strided output: computed in scratch, then stored
        out_view = Tensor(np.zeros((40, 60), np.float32)).realize()
        out_view[:, ::2].assign(x @ w).realize()
        np.testing.assert_allclose(out_view.numpy()[:, ::2], a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5,
                                   atol=1e-5)


def test_softmax_computes_each_exp_once_and_keeps_inputs_intact() -> None:
    x = rng.standard_normal((16, 300)).astype(np.float32)
    t = Tensor(x).realize()
    (src,) = _sources(lambda: t.softmax(-1))
    # the sum's pass stores exp(x - max) in the output (the small variant, or the full exp again for a block with an
    # argument out of its range); the last pass rescales it
    assert src.count("exp_f32_small(") == 1 and src.count("exp_f32(") == 1
    e = np.exp(x - x.max(-1, keepdims=True))
    fused, unfused = both_ways(lambda a: a.softmax(-1), x)
    np.testing.assert_array_equal(fused, unfused)
    np.testing.assert_allclose(fused, e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-7)
    h = x.astype(np.float16)
    eh = np.exp((h - h.max(-1, keepdims=True)).astype(np.float32))
    np.testing.assert_allclose(Tensor(h).softmax(-1).numpy().astype(np.float32), eh / eh.sum(-1, keepdims=True),
                               rtol=2e-2, atol=1e-3)
    np.testing.assert_array_equal(t.numpy(), x)


def test_long_row_kernels_prefetch_and_sum_blocks_in_place_with_numpy_values() -> None:
    # enough rows that blocked row loops prefetch the next row (the last row's "next row" lies past the buffer), and
    # full blocks of a loaded or spilled row are summed where they lie: views included, values as NumPy's
    x = rng.standard_normal((133, 1031)).astype(np.float32)
    t = Tensor(x).realize()
    (src,) = _sources(lambda: t.softmax(-1))
    assert "prefetch(b1" in src and "block_sum_f32(b0" in src  # the spill: summed in the output row
    (src,) = _sources(lambda: t.sum(-1))
    assert "prefetch(b1" in src and "block_sum_f32(b1" in src
    for view in (lambda a: a, lambda a: a[::-1, 3:], lambda a: a.T.T[1:]):
        xv = view(x)
        e = np.exp(xv - xv.max(-1, keepdims=True))
        assert_matches(view(t).softmax(-1), e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-7)
        assert_matches(view(t).sum(-1), xv.astype(np.float64).sum(-1).astype(np.float32), rtol=1e-5, atol=1e-4)
    tt = Tensor(x.T.copy()).realize().T  # rows at stride 133: positions do not run consecutively, no in-place sums
    (src,) = _sources(lambda: tt.sum(-1))
    assert "block_sum_f32(b1" not in src
    assert_matches(tt.sum(-1), x.astype(np.float64).sum(-1).astype(np.float32), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16, np.bool_])
def test_column_reductions_run_lanes_side_by_side(dtype: type) -> None:
    x = (rng.standard_normal((3, 37, 1100)) * 4).astype(dtype)
    t = Tensor(x).realize()
    (src,) = _sources(lambda: t.max(1))
    assert "LANES" in src  # the columns of each batch run side by side
    assert_matches(t.max(1), x.max(1))
    assert_matches(t.min(0), x.min(0))
    if dtype is np.bool_:
        assert_matches(t.any(1), x.any(1))
        return
    ref = x.astype(np.float64).sum(1) if x.dtype.kind == "f" else x.sum(1)
    assert_matches(t.sum(1), ref.astype(t.sum(1).numpy().dtype), rtol=1e-3 if dtype is np.float16 else 1e-5,
                   atol=1e-1 if dtype is np.float16 else 1e-4)
    if x.dtype.kind == "f":
        xf = x.astype(np.float64)
        col = np.exp(xf - xf.max(1, keepdims=True))
        fused, unfused = both_ways(lambda a: a.softmax(1), x)
        np.testing.assert_array_equal(fused, unfused)
        np.testing.assert_allclose(fused, col / col.sum(1, keepdims=True), rtol=1e-2 if dtype is np.float16 else 1e-5,
                                   atol=1e-3 if dtype is np.float16 else 1e-7)


def test_results_of_one_realize_share_one_elementwise_kernel() -> None:
    s, k = rng.uniform(5, 30, 500).astype(np.float32), rng.uniform(1, 100, 500).astype(np.float32)
    ts, tk = Tensor(s).realize(), Tensor(k).realize()

    def both(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
        d1 = (a / b).log() * 0.7 + 0.2
        c1 = 0.5 + 0.5 * (d1 * 0.70710677).erf()
        return a * c1 - b, (b - a * c1).cast(lazyarr.float16)

    call, put = both(ts, tk)
    with kernel_count(1):  # the shared work (log, erf) runs once for both outputs
        call.realize(put)
    with lazyarr.Context(FUSE=0):
        call0, put0 = both(Tensor(s), Tensor(k))
        call0.realize(put0)
    np.testing.assert_array_equal(call.numpy(), call0.numpy())
    np.testing.assert_array_equal(put.numpy(), put0.numpy())
    assert put.dtype == lazyarr.float16
    y = ts * 2
    z = y + 1
    with kernel_count(1):
        y.realize(z)
    np.testing.assert_array_equal(z.numpy(), s * 2 + 1)
    np.testing.assert_array_equal(y.numpy(), s * 2)


def test_training_step_matmuls_never_store_the_product() -> None:
    # forward and backward matmuls of a small MLP all run as BLAS calls: no kernel writes a (batch, in, out) product
    b, i, h, o = 64, 32, 48, 10
    x = Tensor(rng.standard_normal((b, i)).astype(np.float32)).realize()
    w1 = Tensor((rng.standard_normal((i, h)) / 6).astype(np.float32), requires_grad=True).realize()
    w2 = Tensor((rng.standard_normal((h, o)) / 7).astype(np.float32), requires_grad=True).realize()
    onehot = Tensor(np.eye(o, dtype=np.float32)[rng.integers(0, o, b)]).realize()
    loss = -((x @ w1).relu() @ w2).log_softmax(1).mul(onehot).sum(1).mean()
    loss.backward()
    norm, _ = normalize([loss.uop, w1.grad.uop, w2.grad.uop])
    for item in schedule(norm).items:
        assert all(out.src[0].size not in (b * i * h, b * h * o) for out in item.outputs)  # no stored product
        if len(item.full_shape) == 3:
            for blas, call in (("numpy", "numpy_gemm("), ("scipy", "np.dot(")):
                assert call in render_numba.render(lower(item, blas=blas).program, "kernel")
    loss.realize(w1.grad, w2.grad)
    xn, w1n, w2n = x.numpy(), w1.numpy(), w2.numpy()
    hid = np.maximum(xn @ w1n, 0)
    logits = hid @ w2n
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    g = (p - onehot.numpy()) / b
    np.testing.assert_allclose(w2.grad.numpy(), hid.T @ g, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(w1.grad.numpy(), xn.T @ ((g @ w2n.T) * (hid > 0)), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("rows,cols", [(13, 29), (16, 8), (1, 9), (0, 5)])
def test_mat_c_copies_every_layout_in_c_order(rows: int, cols: int) -> None:
    from numba import njit

    from lazyarr.kernels.numba_support import mat_c as compiled

    # called through an uncached njit function, as kernels call it: after some kernels from a shared disk cache are
    # loaded, a direct call from Python fails in mat_c's own Python wrapper ("In 'NRT_adapt_ndarray_to_python',
    # 'descr' is NULL": its environment symbol apparently binds to the copy such a kernel's library defines)
    mat_c = njit(lambda buf, offset, rows, cols, rs, cs: compiled(buf, offset, rows, cols, rs, cs))
    buf = rng.standard_normal(4 * rows * cols + 7).astype(np.float32)
    dense = buf[5:5 + rows * cols]
    layouts = {  # (offset, row_stride, col_stride) -> the matrix NumPy reads there
        "transposed": (5, 1, rows, dense.reshape(cols, rows).T),
        "rows": (5, cols + 1, 1, np.lib.stride_tricks.as_strided(buf[5:], (rows, cols), (4 * (cols + 1), 4))),
        "reversed": (5 + rows * cols - 1, -cols, -1, dense.reshape(rows, cols)[::-1, ::-1]),
        "strided": (1, 2 * cols, 2, np.lib.stride_tricks.as_strided(buf[1:], (rows, cols), (8 * cols, 8))),
    }
    for name, (offset, rs, cs, want) in layouts.items():
        got = mat_c(buf, offset, rows, cols, rs, cs)
        assert got.flags.c_contiguous, name
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.skipif(not runtime_numba.blas_available(), reason="no BLAS for matmul kernels")
def test_blas_thread_caps_of_several_threads_at_once_restore_blas_own_count(monkeypatch) -> None:  # noqa: ANN001
    # BLAS's thread count is one setting for the process: a block that opened inside another thread's cap found the
    # capped count and saved it; when it closed last, BLAS kept that count (a 4-thread BLAS left at 2 for good)
    import threading

    import threadpoolctl

    from lazyarr.kernels import realize

    def blas_counts() -> list[int]:
        return [c.num_threads for c in threadpoolctl.ThreadpoolController().lib_controllers if c.user_api == "blas"]

    (Tensor(np.ones((4, 4), np.float32)) @ Tensor(np.ones((4, 4), np.float32))).realize()  # BLAS loaded
    with threadpoolctl.threadpool_limits(4, user_api="blas"):  # the user's limit: lazyarr must give it back
        before = blas_counts()
        outer, inner = runtime_numba.blas_threads(2), runtime_numba.blas_threads(1)
        outer.__enter__()  # two threads' realisations, interleaved: the first opens, the second opens, first closes
        inner.__enter__()
        outer.__exit__(None, None, None)
        inner.__exit__(None, None, None)
        assert blas_counts() == before
        execute = realize.ExecItem.execute
        entered = threading.Barrier(3)

        def slow(self: Any) -> Any:  # every thread is inside its block before any closes
            try:
                entered.wait(timeout=10)
            except threading.BrokenBarrierError:
                pass
            return execute(self)

        monkeypatch.setattr(realize.ExecItem, "execute", slow)
        results: dict[int, bool] = {}

        def work(cap: int) -> None:
            a, b = rng.standard_normal((16, 8)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
            with Context(SMALL_BLAS_THREADS=cap):
                results[cap] = np.allclose((Tensor(a) @ Tensor(b)).numpy(), a @ b, rtol=1e-5, atol=1e-5)

        threads = [threading.Thread(target=work, args=(cap,)) for cap in (3, 1, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == {1: True, 2: True, 3: True} and blas_counts() == before

        def fail(self: Any) -> Any:
            raise RuntimeError("kernel failed")

        monkeypatch.setattr(realize.ExecItem, "execute", fail)
        with pytest.raises(RuntimeError, match="kernel failed"):
            (Tensor(np.ones((8, 8), np.float32)) @ Tensor(np.ones((8, 8), np.float32))).realize()
        assert blas_counts() == before


def test_gathers_load_their_index_once_per_row_with_numpys_values() -> None:
    # the load of a gathered row's index (and the arithmetic on it) sits outside the loop along the row, so that loop
    # reads consecutive addresses and vectorises; the values are NumPy's for row, column and batched gathers, and for
    # an index buffer the kernel also writes (then nothing moves)
    rng = np.random.default_rng(0)
    host = rng.standard_normal((6, 40, 33)).astype(np.float32)
    rows, cols = np.array([5, 0, 5, 2, 3]), np.array([32, 0, 7, 7])
    x = Tensor(host).realize()
    cases = {"x[rows]": (lambda: x[Tensor(rows)], host[rows]),
             "x[:, rows]": (lambda: x[:, Tensor(rows)], host[:, rows]),
             "x[rows, 3:]": (lambda: x[Tensor(rows), 3:], host[rows, 3:]),
             "x[..., cols] * 2": (lambda: x[..., Tensor(cols)] * 2, host[..., cols] * 2),
             "x[rows][:, ::-1]": (lambda: x[Tensor(rows)][:, ::-1] + 1, host[rows][:, ::-1] + 1)}
    for name, (fn, want) in cases.items():
        np.testing.assert_array_equal(fn().numpy(), want, err_msg=name)
    source = next(s for s in _sources(lambda: x[Tensor(rows)]) if "for i2 in" in s)
    inner = source[source.index("for i2 in"):]
    assert "b2[" not in inner and "b2[" in source, source  # the index buffer is read before the row loop
    t = Tensor(np.array([2, 0, 1, 1])).realize()
    t[...] = t[t]
    np.testing.assert_array_equal(t.numpy(), np.array([2, 0, 1, 1])[np.array([2, 0, 1, 1])])
    plain = [render_numba.Loop("i1", "n1", [render_numba.Instr("v1", "load", lazyarr.dtypes.int64, ("i0",), 1),
                                            render_numba.Store(1, "i1", "v1")])]
    assert render_numba.hoist_index_math(plain)[0].body == plain[0].body  # a buffer it stores into: nothing moves


def test_reshapes_that_merge_permuted_dims_loop_over_the_dims_before_them_with_numpys_values() -> None:
    # a kernel reading a permuted array through a reshape (an attention head merge), np.tile and np.repeat loops over
    # the dims before that reshape: its index is a sum of strides, with no division or remainder per element
    rng = np.random.default_rng(0)
    h = rng.standard_normal((4, 6, 3, 5)).astype(np.float32)
    g = rng.standard_normal((12, 6, 5)).astype(np.float32)
    v = rng.standard_normal(7).astype(np.float32)
    x, y, t = Tensor(h).realize(), Tensor(g).realize(), Tensor(v).realize()
    cases = {
        "head merge": (lambda: x.permute(0, 2, 1, 3).reshape(12, 6, 5) * 2,
                       h.transpose(0, 2, 1, 3).reshape(12, 6, 5) * 2),
        "plus a plain input": (lambda: x.permute(0, 2, 1, 3).reshape(12, 6, 5) + y,
                               h.transpose(0, 2, 1, 3).reshape(12, 6, 5) + g),
        "flipped, sliced": (lambda: x[:, ::-1].permute(2, 0, 1, 3)[1:].reshape(8, 30) * 3 - 2,
                            h[:, ::-1].transpose(2, 0, 1, 3)[1:].reshape(8, 30) * 3 - 2),
        "padded": (lambda: x.pad(((0, 0), (1, 1), (0, 0), (0, 0))).permute(0, 2, 1, 3).reshape(12, 40) + 1,
                   np.pad(h, ((0, 0), (1, 1), (0, 0), (0, 0))).transpose(0, 2, 1, 3).reshape(12, 40) + 1),
        "tile": (lambda: np.tile(t, (3, 2)), np.tile(v, (3, 2))),
        "repeat": (lambda: np.repeat(t, 3) - 1, np.repeat(v, 3) - 1),
        "size-1 dims": (lambda: x.reshape(4, 1, 6, 3, 5).permute(1, 0, 3, 2, 4).reshape(12, 30),
                        h.reshape(4, 1, 6, 3, 5).transpose(1, 0, 3, 2, 4).reshape(12, 30)),
    }
    for name, (fn, want) in cases.items():
        for fuse in (1, 0):
            with Context(FUSE=fuse):
                np.testing.assert_array_equal(fn().numpy(), want, err_msg=f"{name}, FUSE={fuse}")
    out = Tensor(np.zeros((5, 12, 6), np.float32)).realize()
    out.T.assign(x.permute(0, 2, 1, 3).reshape(12, 6, 5).permute(1, 0, 2).reshape(6, 12, 5) + 0)  # a strided output
    np.testing.assert_array_equal(out.numpy(), (h.transpose(0, 2, 1, 3).reshape(12, 6, 5).transpose(1, 0, 2)
                                                 .reshape(6, 12, 5) + 0).T)
    for fn in (lambda: x.permute(0, 2, 1, 3).reshape(12, 6, 5) * 2, lambda: np.tile(t, (3, 2)),
               lambda: np.repeat(t, 3) - 1):
        for source in _sources(fn):
            body = source[source.index("def kernel"):]
            assert "idiv(" not in body and not re.search(r"% p\d", body), source  # no unravelling of a position


def test_reductions_of_reshapes_merging_permuted_dims_read_a_copy_with_the_unfused_bits() -> None:
    # a reduction reading a permuted array through a reshape that merges its dims reads a copy stored first (a kernel
    # with no division per element) instead of unravelling each position: 2 kernels, the bits of FUSE=0, NumPy's
    # values
    rng = np.random.default_rng(1)
    h = rng.standard_normal((3, 4, 5, 6)).astype(np.float32)
    x = Tensor(h).realize()
    merged = h.transpose(0, 2, 1, 3).reshape(3, 5, 24)
    cases = {"sum(2)": (lambda t: t.sum(2), merged.sum(2, dtype=np.float64)),
             "mean(1)": (lambda t: t.mean(1), merged.mean(1, dtype=np.float64)),
             "max(2)": (lambda t: t.max(2), merged.max(2)),
             "softmax(2)": (lambda t: t.softmax(2), np.exp(merged - merged.max(2, keepdims=True))
                            / np.exp(merged - merged.max(2, keepdims=True)).sum(2, keepdims=True)),
             "(t * 2).var(2)": (lambda t: (t * 2).var(2), (merged.astype(np.float64) * 2).var(2))}
    for name, (fn, want) in cases.items():
        with kernel_count(2):
            got = fn(x.permute(0, 2, 1, 3).reshape(3, 5, 24)).numpy()
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6, err_msg=name)
        with Context(FUSE=0):
            unfused = fn(x.permute(0, 2, 1, 3).reshape(3, 5, 24)).numpy()
        np.testing.assert_array_equal(got.view(np.uint32), unfused.view(np.uint32), err_msg=name)
    for source in _sources(lambda: x.permute(0, 2, 1, 3).reshape(3, 5, 24).sum(2)):
        body = source[source.index("def kernel"):]
        assert "idiv(" not in body and not re.search(r"% p\d", body), source  # no unravelling of a position


def test_any_and_all_reduce_with_or_and_and() -> None:
    # Python's max/min on bools left the reduction scalar (isnan(x).any() of 2**20 floats 0.50 -> 0.14 ms)
    x = Tensor(np.ones((64, 50), np.float32))
    (source,) = _sources(lambda: np.isnan(x).any(1))
    assert "acc1 = acc1 | " in source and "max(acc1" not in source, source
    (source,) = _sources(lambda: (x > 0).all(1))
    assert "acc1 = acc1 & " in source and "min(acc1" not in source, source
