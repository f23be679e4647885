"""Creation against NumPy: Tensor(x) from scalars, nested lists/tuples and arrays (any strides), dtype spellings,
zeros/ones/full/empty/arange/linspace/eye/*_like, the seeded random generators, and the data accessors (shape, ndim,
size, dtype, device, realize, numpy, tolist, item, repr).

Python floats make float32 tensors (lazyarr's default float; NumPy would use float64), so those references are cast.
"""

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_close, kernel_count, sample


def test_from_python_scalars() -> None:
    for value, dt in [(True, "bool"), (3, "int64"), (-2.5, "float32"), (2**63, "uint64")]:
        t = Tensor(value)
        assert t.dtype.name == dt and t.shape == () and t.ndim == 0 and t.size == 1
        assert t.item() == value and type(t.item()) is type(value)
    for value, dt in [
        (np.float16(1.5), "float16"),
        (np.int8(-3), "int8"),
        (np.uint32(7), "uint32"),
        (np.bool_(True), "bool"),
        (np.float64(0.1), "float64"),
    ]:
        t = Tensor(value)
        assert t.dtype.name == dt
        assert_close(t, np.array(value))
    assert_close(Tensor(3.7, dtype="int32"), np.array(3.7).astype(np.int32))
    assert_close(Tensor(True, dtype=lazyarr.float16), np.float16(1))


def test_from_nested_sequences() -> None:
    cases = [
        [1, 2, 3],
        [[1, 2], [3, 4]],
        ((1, 2), (3, 4)),
        [[1, 2], (3, 4)],
        [True, False],
        [[[0.5]]],
        [1, 2.5],
        [True, 2],
        [],
        [[], []],
        [[1.0, -0.0], [np.inf, np.nan]],
    ]
    for data in cases:
        ref = np.array(data)
        if ref.dtype == np.float64:
            ref = ref.astype(np.float32)  # Python floats: the default float
        assert_close(Tensor(data), ref, msg=repr(data))
    assert_close(Tensor([np.float16(1), 2.5]), np.array([1, 2.5], np.float16))  # NumPy scalars are strong
    assert_close(Tensor([np.int8(1), 2]), np.array([1, 2], np.int8))
    assert_close(Tensor([Tensor(np.float64(1.5)), 2]), np.array([1.5, 2.0]))
    assert_close(Tensor([np.array([1, 2], np.int16), [3, 4]]), np.array([[1, 2], [3, 4]], np.int16))
    assert_close(Tensor([[1, 2]], dtype="float64"), np.array([[1, 2]], np.float64))
    assert_close(Tensor([1.7, -1.7], dtype=np.int32), np.array([1.7, -1.7]).astype(np.int32))


@pytest.mark.parametrize(
    "dtype",
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"],
)
def test_from_numpy_every_dtype(dtype: str) -> None:
    a = (
        sample(dtype, (3, 4))
        if dtype in ("bool", "int32", "int64") or dtype.startswith("float")
        else np.arange(12).reshape(3, 4).astype(dtype)
    )
    t = Tensor(a)
    assert t.dtype.name == dtype and t.shape == (3, 4)
    assert_close(t, a)
    assert_close(Tensor(a[::-1, ::2]), a[::-1, ::2])  # negative and stepped strides are copied in C order
    assert_close(Tensor(a.T), a.T)
    assert_close(Tensor(np.asfortranarray(a)), a)
    assert_close(Tensor(a[1]), a[1])
    assert_close(Tensor(np.array(a[0, 0])), np.array(a[0, 0]))


def test_from_numpy_copies() -> None:
    a = np.arange(6.0)
    t = Tensor(a)
    a[0] = 100
    assert t.numpy()[0] == 0
    out = t.numpy()
    out[1] = 50
    assert t.numpy()[1] == 1
    assert_close(Tensor(np.zeros((2, 0, 3), np.int32)), np.zeros((2, 0, 3), np.int32))


def test_from_tensor() -> None:
    t = Tensor(np.array([1.5, -2.5]))
    assert_close(Tensor(t), np.array([1.5, -2.5]))
    assert_close(Tensor(t, dtype="int64"), np.array([1, -2]))


def test_dtype_spellings() -> None:
    spellings = [lazyarr.float32, lazyarr.dtypes.float32, np.float32, np.dtype("float32"), "float32", "f4"]
    for s in spellings:
        assert Tensor([1, 2], dtype=s).dtype is lazyarr.float32, s
        assert Tensor.zeros(2, dtype=s).dtype is lazyarr.float32, s
        assert Tensor([1.0]).dtype == s and s == Tensor([1.0]).dtype, s  # NumPy code's `x.dtype == np.float32`
        assert Tensor([1.0]).dtype != np.float64 and not Tensor([1], dtype=lazyarr.int32).dtype == s, s
    assert lazyarr.float32 != None and lazyarr.float32 != 4 and lazyarr.float32 != "no such dtype"  # noqa: E711
    assert lazyarr.dtypes.bool is lazyarr.bool_
    assert lazyarr.bool is lazyarr.bool_  # NumPy 2's np.bool, torch.bool
    swapped = np.arange(-3, 3, dtype=">i4")  # non-native byte order, e.g. read from a big-endian file
    assert_close(Tensor(swapped) * 2, swapped.astype(np.int32) * 2)
    assert Tensor([1], dtype=">f8").dtype is lazyarr.float64
    assert Tensor([1], dtype="bool").dtype is lazyarr.dtypes.bool
    assert np.dtype(lazyarr.int16) == np.int16
    assert Tensor([1], dtype=lazyarr.uint64).dtype.name == "uint64"


# ---- constructors ----


def test_zeros_ones_full_empty() -> None:
    assert_close(Tensor.zeros(2, 3), np.zeros((2, 3), np.float32))
    assert_close(Tensor.zeros((2, 3), dtype="int32"), np.zeros((2, 3), np.int32))
    assert_close(Tensor.ones(4, dtype=lazyarr.bool_), np.ones(4, bool))
    assert_close(Tensor.ones(()), np.ones((), np.float32))
    assert_close(Tensor.zeros(0, 5), np.zeros((0, 5), np.float32))
    assert_close(Tensor.full((2, 2), 7), np.full((2, 2), 7))
    assert_close(Tensor.full((2, 2), 2.5), np.full((2, 2), 2.5, np.float32))
    assert_close(Tensor.full(3, True), np.full(3, True))
    assert_close(Tensor.full((2,), np.float16(1.5)), np.full((2,), np.float16(1.5)))
    assert_close(Tensor.full((2, 1), 255, dtype="uint8"), np.full((2, 1), 255, np.uint8))
    assert_close(Tensor.full((3,), np.nan, dtype="float64"), np.full(3, np.nan))
    e = Tensor.empty(3, 2, dtype="int16")
    assert e.shape == (3, 2) and e.dtype.name == "int16" and e.numpy().shape == (3, 2)
    with pytest.raises(ValueError):
        Tensor.zeros(2, -1)
    for value, dt in ((300, "int8"), (-1, "uint8")):
        with pytest.raises(OverflowError):
            np.full((2,), value, dtype=dt)
        with pytest.raises(OverflowError):
            Tensor.full((2,), value, dtype=dt)


def test_like_constructors() -> None:
    t = Tensor(sample("int32", (2, 3)))
    assert_close(t.zeros_like(), np.zeros((2, 3), np.int32))
    assert_close(t.ones_like(dtype="float64"), np.ones((2, 3)))
    assert_close(t.full_like(4), np.full((2, 3), 4, np.int32))
    e = t.empty_like()
    assert e.shape == (2, 3) and e.dtype.name == "int32"
    r = t.rand_like(dtype="float32").numpy()
    assert r.shape == (2, 3) and ((r >= 0) & (r < 1)).all()
    assert Tensor.zeros(3).randn_like().shape == (3,)


def test_arange() -> None:
    for args in [(5,), (2, 9), (2, 9, 3), (10, 0, -3), (0,), (5, 2), (-3, 3, 2)]:
        assert_close(Tensor.arange(*args), np.arange(*args), msg=str(args))
    for args in [(0, 1, 0.1), (3.5,), (1.0, -1.0, -0.25), (0, 2, 0.3)]:
        assert_close(Tensor.arange(*args), np.arange(*args).astype(np.float32), msg=str(args))
    assert_close(Tensor.arange(5, dtype="float64"), np.arange(5, dtype=np.float64))
    assert_close(Tensor.arange(1, 4, dtype=lazyarr.int8), np.arange(1, 4, dtype=np.int8))
    with pytest.raises(ValueError):
        Tensor.arange(0, 5, 0)


def test_linspace_eye() -> None:
    for args, kw in [
        ((0, 1, 5), {}),
        ((0, 1, 5), {"endpoint": False}),
        ((2, -3, 7), {}),
        ((1, 1, 1), {}),
        ((0, 1, 0), {}),
    ]:
        assert_close(Tensor.linspace(*args, **kw), np.linspace(*args, **kw).astype(np.float32), msg=str(args))
    assert_close(Tensor.linspace(-5, 5, 4, dtype="int32"), np.linspace(-5, 5, 4, dtype=np.int32))
    assert_close(Tensor.linspace(0, 1, 11, dtype="float64"), np.linspace(0, 1, 11))
    assert_close(Tensor.eye(3), np.eye(3, dtype=np.float32))
    assert_close(Tensor.eye(2, 4, dtype="int32"), np.eye(2, 4, dtype=np.int32))
    assert_close(Tensor.eye(4, 3, k=1), np.eye(4, 3, k=1, dtype=np.float32))
    assert_close(Tensor.eye(3, k=-2, dtype=bool), np.eye(3, k=-2, dtype=bool))
    with pytest.raises(ValueError):
        Tensor.linspace(0, 1, -1)


# ---- random ----


def test_random_reproducible_with_manual_seed() -> None:
    Tensor.manual_seed(1234)
    a = [Tensor.rand(50).numpy(), Tensor.randn(3, 4).numpy(), Tensor.randint(20, low=3, high=9).numpy()]
    Tensor.manual_seed(1234)
    b = [Tensor.rand(50).numpy(), Tensor.randn(3, 4).numpy(), Tensor.randint(20, low=3, high=9).numpy()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(Tensor.rand(50).numpy(), a[0])  # a new draw continues the stream
    Tensor.manual_seed(1235)
    assert not np.array_equal(Tensor.rand(50).numpy(), a[0])


def test_random_is_lazy() -> None:
    # a draw only snapshots and bumps the device's counter (2 tiny kernels); the values are computed when realised,
    # in one kernel fused with what uses them
    Tensor.manual_seed(0)
    with kernel_count() as created:
        t = Tensor.rand(8, 8) * 2 + Tensor.randn(8, 8)
    assert created["kernels"] <= 4
    assert t.shape == (8, 8)
    with kernel_count(1):
        t.realize()


def test_random_ranges_and_moments() -> None:
    Tensor.manual_seed(7)
    n = 20000
    u = Tensor.rand(n).numpy()
    assert u.dtype == np.float32 and u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.02 and abs(u.var() - 1 / 12) < 0.01
    for dt in ("float16", "float64"):
        v = Tensor.rand(n, dtype=dt).numpy()
        assert v.dtype == dt and v.min() >= 0 and v.max() < 1 and abs(v.mean() - 0.5) < 0.02
    g = Tensor.randn(n).numpy()
    assert g.dtype == np.float32 and np.isfinite(g).all()
    assert abs(g.mean()) < 0.05 and abs(g.std() - 1) < 0.05
    assert abs(np.mean(g**3)) < 0.1 and abs(np.mean(g**4) - 3) < 0.3  # symmetric, Gaussian tails
    w = Tensor.uniform(n, low=-3.0, high=5.0).numpy()
    assert w.min() >= -3 and w.max() < 5 and abs(w.mean() - 1) < 0.15
    m = Tensor.normal(n, mean=10.0, std=0.5, dtype="float64").numpy()
    assert m.dtype == np.float64 and abs(m.mean() - 10) < 0.05 and abs(m.std() - 0.5) < 0.05
    r = Tensor.randint(n, low=-5, high=5).numpy()
    assert r.dtype == np.int32 and r.min() == -5 and r.max() == 4
    assert np.all(np.abs(np.bincount(r + 5) / n - 0.1) < 0.02)
    assert Tensor.randint(3, 4, high=3, dtype="int64").dtype.name == "int64"
    assert Tensor.rand(2, 0).numpy().shape == (2, 0) and Tensor.rand().shape == ()
    with pytest.raises(ValueError):
        Tensor.randint(3, low=5, high=5)
    with pytest.raises(TypeError):
        Tensor.rand(3, dtype="int32")


# ---- properties and data access ----


def test_properties_and_accessors() -> None:
    a = sample("float64", (2, 3, 4), special=False)
    t = Tensor(a)
    assert t.shape == (2, 3, 4) and t.ndim == 3 and t.size == 24 and t.dtype is lazyarr.float64
    assert t.device == "CPU" and len(t) == 2 and t.numel() == 24 and t.nbytes == 24 * 8
    assert t.realize() is t
    r = (t * 2).realize()
    assert_close(r, a * 2)
    assert (t + 1).tolist() == (a + 1).tolist()
    assert Tensor(np.int32(5)).tolist() == 5
    assert Tensor([[1, 2]]).tolist() == [[1, 2]]
    assert t[1, 2, 3].item() == a[1, 2, 3]
    assert Tensor([[7]]).item() == 7 and isinstance(Tensor([[7]]).item(), int)
    assert isinstance(Tensor([True]).item(), bool)
    assert float(Tensor(2.5)) == 2.5 and int(Tensor(3)) == 3 and bool(Tensor([1])) is True
    with pytest.raises(ValueError):
        t.item()
    with pytest.raises(ValueError):
        bool(t)
    with pytest.raises(TypeError):
        len(Tensor(1.0))


def test_repr_shows_values_like_numpy() -> None:
    for a in [
        np.array([1.0, 2.5, -3.0], np.float32),
        np.arange(6).reshape(2, 3),
        np.array([True, False]),
        np.zeros((0, 2), np.float32),
        np.float64(3.25),
        np.full((2, 2), np.nan, np.float16),
    ]:
        t = Tensor(a)
        text = repr(t)
        body = np.array2string(np.asarray(a), separator=", ", prefix="Tensor(")
        assert text.startswith("Tensor(") and body in text and f"dtype={np.asarray(a).dtype.name}" in text, text
        assert str(t) == str(np.asarray(a))
    big = repr(Tensor(np.arange(5000)))
    assert "..." in big  # summarised like NumPy


def test_range_and_values_the_dtype_cannot_hold() -> None:
    t = Tensor(range(2, 7))
    assert t.dtype == lazyarr.int64
    np.testing.assert_array_equal(t.numpy(), np.arange(2, 7))
    with pytest.raises(ValueError, match="NaN"):
        Tensor([np.nan], dtype=lazyarr.int32)
    with pytest.raises(ValueError, match="inhomogeneous"):
        Tensor([[1, 2], [3]])
