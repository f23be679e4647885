"""Casts between dtypes (NumPy's astype: floats truncate toward zero into integers, integers wrap, anything nonzero
is True), the dtype methods, `where` and `clip` against NumPy."""

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_close, sample

CAST_DTYPES = ("bool", "uint8", "int32", "int64", "float16", "float32", "float64")


def _source_values(src: str, dst: str) -> np.ndarray:
    """Values of `src` whose conversion to `dst` NumPy defines (no NaN/inf/out-of-range floats into integers)."""
    if src.startswith("float"):
        vals = [0.0, -0.0, 0.5, -0.5, 1.0, 1.7, -1.7, 2.5, -2.5, 100.9, -100.9, 250.3, 1e-3]
        if dst.startswith("float") or dst == "bool":
            vals += [np.nan, np.inf, -np.inf, 70000.0, 1e-8, 1 / 3]
        if dst in ("uint8",):
            vals = [v for v in vals if 0 <= v < 256]
        return np.array(vals, dtype=np.float64).astype(src)
    if src == "bool":
        return np.array([True, False, True])
    info = np.iinfo(src)
    vals = [0, 1, 2, 127, 128, 255, 256, 300, info.max, info.min, 16777217, 2049]
    if info.min:
        vals += [-1, -129, -300]
    return np.array([v for v in vals if info.min <= v <= info.max], dtype=src)


@pytest.mark.parametrize("src", CAST_DTYPES)
@pytest.mark.parametrize("dst", CAST_DTYPES)
def test_cast(src: str, dst: str) -> None:
    if src == dst:
        t = Tensor(_source_values(src, dst))
        assert t.cast(dst) is not None and t.cast(dst).uop is t.uop  # a cast to the same dtype is free
        return
    a = _source_values(src, dst)
    with np.errstate(all="ignore"):
        ref = a.astype(dst)
    out = Tensor(a).cast(dst)
    assert out.dtype.name == dst
    got = out.numpy()
    assert_close(got, ref, msg=f"{src} -> {dst}: {a!r}")
    if dst.startswith("float") and src.startswith("float"):
        assert np.array_equal(np.signbit(got), np.signbit(ref)), "sign of zero"


def test_cast_accepts_every_dtype_spelling() -> None:
    t = Tensor(np.array([1.5, -2.5], dtype=np.float64))
    for spelling in (lazyarr.int32, lazyarr.dtypes.int32, np.int32, np.dtype("int32"), "int32", "i4"):
        out = t.cast(spelling)
        assert out.dtype is lazyarr.int32, spelling
    assert_close(t.astype("int32"), np.array([1, -2], dtype=np.int32))
    assert t.astype(float).dtype is lazyarr.float64  # the Python type float is float64, as np.dtype(float)
    assert Tensor(np.ones(2, np.float32), dtype=float).dtype is lazyarr.float64  # and PyTorch's dtype=float
    assert Tensor.zeros(2, dtype=float).dtype is lazyarr.float64 and Tensor.zeros(2).dtype is lazyarr.float32
    assert np.zeros_like(Tensor(np.ones(2, np.int32)), dtype=float).dtype == np.float64
    assert t.astype(int).dtype is lazyarr.int64
    assert t.astype(bool).dtype is lazyarr.bool_


def test_dtype_methods() -> None:
    a = np.array([-1.5, 0.0, 2.7, 300.2], dtype=np.float32)
    t = Tensor(a)
    expected = {
        "float": "float32",
        "half": "float16",
        "double": "float64",
        "int": "int32",
        "long": "int64",
        "bool": "bool",
    }
    for method, dt in expected.items():
        out = getattr(t, method)()
        assert out.dtype.name == dt, method
    assert_close(t.int(), a.astype(np.int32))
    assert_close(t.half(), a.astype(np.float16))
    assert_close(t.bool(), a.astype(bool))
    assert_close(Tensor(np.array([3, -2])).float(), np.array([3.0, -2.0], dtype=np.float32))
    assert t.is_floating_point() and not t.int().is_floating_point()


def test_cast_of_noncontiguous_and_empty() -> None:
    a = sample("float64", (4, 6))
    assert_close(Tensor(a)[::-1, 1::2].T.cast("int32"), a[::-1, 1::2].T.astype(np.int32))
    assert_close(Tensor(np.zeros((0, 3))).cast("int8"), np.zeros((0, 3), dtype=np.int8))
    assert_close(Tensor(np.float64(2.7)).cast("int64"), np.int64(2))


def test_float64_to_float16_rounds_once() -> None:
    # float64 -> float16 as NumPy rounds it: once, not to float32 first (1 + 2**-11 + 2**-40 is above the midpoint
    # between two float16s, float32 rounds it onto the midpoint, then to even); neighbours of midpoints, overflow
    h = np.arange(0x3C00, 0x3C40, dtype=np.uint16).view(np.float16).astype(np.float64)
    mid = (h[:-1] + h[1:]) / 2
    edges = [65519.99, 65520.0, 1e300, 2.0**-25 * (1 + 2.0**-40), 5e-324, np.inf, np.nan]
    x = np.concatenate([mid, np.nextafter(mid, 0), mid * (1 + 2.0**-40), edges])
    x = np.concatenate([x, -x])
    with np.errstate(over="ignore"):
        want = x.astype(np.float16)
    for fuse in (1, 0):
        with lazyarr.Context(FUSE=fuse):
            got = Tensor(x).cast("float16").numpy()
        np.testing.assert_array_equal(got, want)


def test_float16_float32_conversions_keep_numpys_bits_for_every_pattern() -> None:
    # every float16 bit pattern through float32 and back, and float32 patterns at rounding edges, subnormals, overflow
    # and NaNs with payloads (NumPy keeps a NaN's payload and does not quiet a signalling one), in a kernel and in the
    # portable helpers hosts without F16C use
    from numba import njit

    from lazyarr.kernels import numba_support as ns

    h = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(0)
    f32_bits = np.concatenate([
        rng.integers(0, 1 << 32, 200_000, dtype=np.uint64).astype(np.uint32),
        np.arange(0x33000000, 0x33800000, 97, dtype=np.uint32),  # float16's subnormal range, rounding edges
        np.arange(0x477FE000, 0x47800100, dtype=np.uint32),  # around 65520, where rounding overflows to inf
        np.arange(0x7F800000, 0x7F804000, dtype=np.uint32), np.arange(0xFFBFE000, 0xFFC02000, dtype=np.uint32)])
    f = f32_bits.view(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        want_up, want_down = h.astype(np.float32), f.astype(np.float16)
    np.testing.assert_array_equal(Tensor(h).cast("float32").numpy().view(np.uint32), want_up.view(np.uint32))
    np.testing.assert_array_equal(Tensor(f).cast("float16").numpy().view(np.uint16), want_down.view(np.uint16))
    np.testing.assert_array_equal((Tensor(h) * 1).numpy().view(np.uint16), h.view(np.uint16))  # load, then store

    @njit
    def portable(bits16: np.ndarray, floats: np.ndarray, up: np.ndarray, down: np.ndarray) -> None:
        for i in range(bits16.size):
            up[i] = ns.f16_bits_to_f32_portable(bits16[i])
        for i in range(floats.size):
            down[i] = ns.f32_to_f16_bits_portable(floats[i])

    up, down = np.empty(h.size, np.float32), np.empty(f.size, np.uint16)
    portable(h.view(np.uint16), f, up, down)
    np.testing.assert_array_equal(up.view(np.uint32), want_up.view(np.uint32))
    np.testing.assert_array_equal(down, want_down.view(np.uint16))


# ---- where ----


def test_where_tensor_operands_broadcast() -> None:
    c = sample("bool", (3, 1), 0)
    x = sample("float32", (1, 5), 1)
    y = sample("int32", (5,), 2)
    assert_close(Tensor(c).where(Tensor(x), Tensor(y)), np.where(c, x, y))
    assert_close(Tensor(c).where(Tensor(y), Tensor(y * 2)), np.where(c, y, y * 2))
    ci = sample("int32", (2, 3, 4), 3)  # a non-bool condition means "nonzero"
    xf = sample("float64", (2, 3, 4), 4)
    assert_close(Tensor(ci).where(Tensor(xf), 0.0), np.where(ci, xf, 0.0))
    assert_close(Tensor(xf).where(1, Tensor(ci)), np.where(xf, 1, ci))


def test_where_scalar_operands() -> None:
    c = sample("bool", (7,), 0)
    out = Tensor(c).where(1, 2.5)  # two Python scalars: weak, so the default float (NumPy would give float64)
    assert out.dtype.name == "float32"
    assert_close(out, np.where(c, 1, 2.5), "float32")
    assert Tensor(c).where(1, 2).dtype.name == "int64"
    assert Tensor(c).where(True, False).dtype.name == "bool"
    x = sample("float16", (7,), 1)
    out = Tensor(c).where(Tensor(x), 3)
    assert out.dtype.name == "float16"
    assert_close(out, np.where(c, x, np.float16(3)))
    y = sample("int8", (7,), 2)
    assert Tensor(c).where(2, Tensor(y)).dtype.name == "int8"
    assert_close(Tensor(np.array(True)).where(Tensor(x), Tensor(x) * 2), np.where(True, x, x * 2))


def test_where_noncontiguous_and_nan() -> None:
    a = sample("float32", (5, 3), 0)
    t = Tensor(a)
    assert_close((t.T > 0).where(t.T, t.T[::-1]), np.where(a.T > 0, a.T, a.T[::-1]))
    assert_close(t.isnan().where(0.0, t), np.where(np.isnan(a), np.float32(0), a))


def test_where_keeps_64_bit_integers_exact() -> None:
    # the kernel's select of two values must not pass through a float (bits above 2**53) or lose a wrapped minimum
    u = np.array([2**64 - 1, 2**63 + 12345, 2**53 + 1, 5], np.uint64)
    i = np.array([np.iinfo(np.int64).min, 2**62 + 7, -(2**53) - 1, 3], np.int64)
    tu, ti = Tensor(u), Tensor(i)
    np.testing.assert_array_equal((tu > 10).where(tu - 1, tu + 3).numpy(), np.where(u > 10, u - 1, u + 3))
    np.testing.assert_array_equal((tu > 10).where(2**64 - 3, tu).numpy(), np.where(u > 10, np.uint64(2**64 - 3), u))
    got = (ti < 0).where(ti // -1, ti % 7).sum()  # INT64_MIN // -1 wraps to itself, as in NumPy
    assert got.numpy() == np.where(i < 0, i // -1, i % 7).sum()


# ---- clip ----


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_clip(dtype: str) -> None:
    a = sample(dtype, (3, 5), 0)
    t = Tensor(a)
    assert_close(t.clip(-1, 2), np.clip(a, np.array(-1, dtype), np.array(2, dtype)))
    assert_close(t.clip(None, 0), np.clip(a, None, np.array(0, dtype)))
    assert_close(t.clip(min=1), np.clip(a, np.array(1, dtype), None))
    lo, hi = sample(dtype, (5,), 1), sample(dtype, (3, 1), 2)
    assert_close(t.clip(Tensor(lo), Tensor(hi)), np.minimum(np.maximum(a, lo), hi))  # lo > hi gives hi (NumPy)
    assert_close(t.clip(None, None), np.clip(a, None, None))


def test_clip_nan_and_dtype() -> None:
    a = np.array([np.nan, -3.0, 0.5, 7.0], dtype=np.float32)
    assert_close(Tensor(a).clip(0, 1), np.clip(a, 0, 1))
    assert_close(Tensor(a).clamp(0, 1), np.clip(a, 0, 1))
    i = np.array([-5, 0, 5], dtype=np.int32)
    out = Tensor(i).clip(-0.5, 2.5)  # a Python float bound: the default float (NumPy would give float64)
    assert out.dtype.name == "float32"
    assert_close(out, np.clip(i, -0.5, 2.5), "float32")


def _unrepresentable(src: str) -> np.ndarray:
    """NaN, infinities, values out of every integer range and in none but some, and the edges around each range."""
    vals = [np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 1e10, -1e10, 3e9, -3e9, 70000.5, -70000.5, 300.5, -300.5,
            -1.5, -0.5, 255.9, 65504.0, -65504.0, 1e19, -1e19, 2.0**64 * 3]
    for p in (7, 8, 15, 16, 31, 32, 63, 64):
        for b in (2.0**p, -(2.0**p)):
            vals += [b, b - 1, b + 1, b - 0.5, b + 0.5, b * (1 - 2.0**-20), b * (1 + 2.0**-20)]
    with np.errstate(over="ignore"):
        return np.array(vals, np.float64).astype(src)


def _numpy_scalar_astype(a: np.ndarray, dst: str) -> np.ndarray:
    """NumPy's astype by its scalar loop (a strided view): its contiguous float -> uint32 loop gives out-of-range values
    a second, position-dependent result (see dtypes.float_to_int); every other pair is the same either way."""
    spread = np.empty(a.size * 2, a.dtype)
    spread[::2] = a
    return spread[::2].astype(dst)


@pytest.mark.parametrize("src", ["float16", "float32", "float64"])
@pytest.mark.parametrize("dst", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_float_to_int_of_nan_inf_and_out_of_range_gives_numpys_values(src: str, dst: str) -> None:
    """x86 NumPy: INT_MIN from the truncating conversion through int32 (int8/16/32, uint8/16) or int64 (int64,
    uint32), then wrapped; uint64 through x - 2**63. The same from a loaded buffer, a fused expression, a constant
    folded on the host and a large (vectorised) kernel."""
    a = _unrepresentable(src)
    with np.errstate(invalid="ignore"):
        want = _numpy_scalar_astype(a, dst)
    if dst != "uint32":
        np.testing.assert_array_equal(a.astype(dst), want)  # NumPy's contiguous loop agrees
    np.testing.assert_array_equal(Tensor(a).astype(dst).numpy(), want)
    np.testing.assert_array_equal(Tensor(a).cast(dst).numpy(), want)
    np.testing.assert_array_equal(np.astype(Tensor(a), dst).numpy(), want)
    np.testing.assert_array_equal((Tensor(a) * 1).astype(dst).numpy(), want)  # fused into an elementwise kernel
    big = np.repeat(a, 97)
    np.testing.assert_array_equal(Tensor(big).astype(dst).numpy(), np.repeat(want, 97))
    for v, w in zip(a, want):  # folded on the host
        np.testing.assert_array_equal(Tensor.full((2,), v, dtype=src).astype(dst).numpy(), np.full(2, w))


def test_float16_float64_casts_keep_signalling_nans_as_numpy() -> None:
    # NumPy's float16 <-> float64 casts move a NaN's bits (a signalling NaN stays signalling; float64 -> float16 keeps
    # the top of the payload, 1 when that is 0); the hardware's float32 <-> float64 conversions quiet it
    h = np.concatenate([np.arange(0x7C00, 0x8000), np.arange(0xFC00, 0x10000), [0x3C00, 0x0001, 0x7BFF]])
    h = h.astype(np.uint16).view(np.float16)
    d_bits = np.array([0x7FF0000000000001, 0x7FF4000000000000, 0x7FF8000000000001, 0x7FF0040000000000,
                       0xFFF0100000000000, 0x7FF0020000000000, 0x7FF0000020000000, 0xFFF7FFFFFFFFFFFF,
                       0x7FF8000000000000, 0x3FF0000000000000], np.uint64)
    d = np.concatenate([d_bits.view(np.float64), h.astype(np.float64)])
    with np.errstate(invalid="ignore"):
        want_up, want_down = h.astype(np.float64), d.astype(np.float16)
    for fuse in (1, 0):
        with lazyarr.Context(FUSE=fuse):
            np.testing.assert_array_equal(Tensor(h).cast("float64").numpy().view(np.uint64), want_up.view(np.uint64))
            np.testing.assert_array_equal(Tensor(d).cast("float16").numpy().view(np.uint16), want_down.view(np.uint16))
