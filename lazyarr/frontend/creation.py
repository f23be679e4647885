"""Tensor constructors (zeros, ones, full, empty, arange, linspace, eye, *_like) and the lazy counter-based RNG
(`manual_seed`, rand, randn, randint, uniform, normal): random bits are a hash of (seed, counter + element index)
computed inside kernels, so random tensors are lazy, reproducible, and the same on every device.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from lazyarr import dtypes
from lazyarr.graph.ops import Ops
from lazyarr.graph.uop import UOp
from lazyarr.helpers import flag, prod
from lazyarr.kernels.device import Buffer, canonical_device

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def _shape(shape: tuple[Any, ...]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    out = tuple(int(s) for s in shape)
    if any(s < 0 for s in out):
        raise ValueError(f"negative dimensions are not allowed: {out}")
    return out


class RNGState:
    """The generator's seed and, per device, its state tensors: a draw counter and a key (uint64[1] buffers).

    The state lives in device buffers updated in place, so a function captured by `lazyarr.jit` draws fresh numbers
    on every replay, and `manual_seed` (which rewrites those buffers) makes replays reproducible too.
    """

    seed: int = 0
    devices: dict[str, tuple[Tensor, Tensor]] = {}


def _key_of(seed: int) -> int:
    return (int(seed) * 0xD1B54A32D192ED03 + 0x9E3779B97F4A7C15) & (2**64 - 1)


def _rng_state(cls: type[Tensor], device: str | None) -> tuple[Tensor, Tensor]:
    """(counter, key) of `device`, created on first use from the current seed."""
    dev = canonical_device(device, flag("DEVICE"))
    if dev not in RNGState.devices:
        counter = cls(np.zeros(1, dtype=np.uint64), device=dev)
        key = cls(np.array([_key_of(RNGState.seed)], dtype=np.uint64), device=dev)
        RNGState.devices[dev] = (counter, key)
    return RNGState.devices[dev]


def _write_state(t: Tensor, value: int) -> None:
    """Overwrite a state tensor's storage in place (its buffer identity is what captured functions hold)."""
    base = t.uop.src[0] if t.uop.op is Ops.RESHAPE else t.uop
    assert base.op is Ops.BUFFER, "RNG state tensors are plain buffers"
    base.arg.array[0] = value


def _splitmix(x: Tensor) -> Tensor:
    """The splitmix64 finaliser over uint64 values (a bijective mixing function with good avalanche)."""
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * 0x94D049BB133111EB
    return x ^ (x >> 31)


class CreationMixin:
    """Constructors (classmethods on Tensor)."""

    __slots__ = ()

    @classmethod
    def full(cls, shape: Any, fill_value: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        """A tensor of `shape` filled with `fill_value` (np.full; without `dtype`: bool, int64 or float32 for Python
        scalars, a NumPy scalar's own dtype). OverflowError for an integer that `dtype` cannot hold, like NumPy."""
        shape = _shape(shape if isinstance(shape, (tuple, list)) else (shape,))
        dt = dtypes.to_dtype(dtype) if dtype is not None else dtypes.scalar_dtype(fill_value)
        value = fill_value.item() if isinstance(fill_value, np.generic) else fill_value
        if dt.is_int and isinstance(value, int) and not isinstance(value, bool):
            info = np.iinfo(dt.np_name)
            if not info.min <= value <= info.max:
                raise OverflowError(f"Python integer {value} out of bounds for {dt.name}")
        return cls(UOp.const(value, dt, shape), device=device)

    @classmethod
    def zeros(cls, *shape: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        return cls.full(_shape(shape), 0, dtype or dtypes.default_float, device)

    @classmethod
    def ones(cls, *shape: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        return cls.full(_shape(shape), 1, dtype or dtypes.default_float, device)

    @classmethod
    def empty(cls, *shape: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        """An uninitialised tensor with its own storage (zero-filled here)."""
        dt = dtypes.to_dtype(dtype or dtypes.default_float)
        s = _shape(shape)
        buf = Buffer.from_numpy(np.zeros(prod(s), dt.np_name), dt, canonical_device(device, flag("DEVICE")))
        return cls(UOp(Ops.BUFFER, dt, (), buf).reshape(s), device=device)

    def zeros_like(self: Tensor, dtype: Any = None) -> Tensor:
        return type(self).full(self.shape, 0, dtype or self.dtype, self.device)

    def ones_like(self: Tensor, dtype: Any = None) -> Tensor:
        return type(self).full(self.shape, 1, dtype or self.dtype, self.device)

    def full_like(self: Tensor, fill_value: Any, dtype: Any = None) -> Tensor:
        return type(self).full(self.shape, fill_value, dtype or self.dtype, self.device)

    def empty_like(self: Tensor, dtype: Any = None) -> Tensor:
        return type(self).empty(self.shape, dtype=dtype or self.dtype, device=self.device)

    @classmethod
    def arange(
        cls, start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, device: str | None = None
    ) -> Tensor:
        """Evenly spaced values in [start, stop) (np.arange); int64 for integer arguments, else float32."""
        if stop is None:
            start, stop = 0, start
        if step == 0:
            raise ValueError("arange: step must not be zero")
        is_float = any(isinstance(v, float) for v in (start, stop, step))
        n = max(0, math.ceil((stop - start) / step) if is_float else -((start - stop) // step))
        dt = dtypes.to_dtype(dtype) if dtype is not None else dtypes.default_float if is_float else dtypes.default_int
        idx = cls(UOp(Ops.IOTA, dtypes.int64, (), n), device=device)
        calc = dtypes.float64 if dt.is_float or is_float else dtypes.int64
        return (idx.cast(calc) * step + start).cast(dt) if n else cls.full((0,), 0, dt, device)

    @classmethod
    def linspace(
        cls,
        start: float,
        stop: float,
        num: int = 50,
        endpoint: bool = True,
        dtype: Any = None,
        device: str | None = None,
    ) -> Tensor:
        """`num` evenly spaced values from start to stop (np.linspace), computed in float64; float32 by default, and
        rounded toward -inf for an integer `dtype` (NumPy 2)."""
        if num < 0:
            raise ValueError(f"Number of samples, {num}, must be non-negative.")
        dt = dtypes.to_dtype(dtype) if dtype is not None else dtypes.default_float
        div = (num - 1) if endpoint else num
        step = (stop - start) / div if div > 0 else 0.0
        idx = cls(UOp(Ops.IOTA, dtypes.int64, (), num), device=device).cast(dtypes.float64)
        out = idx * step + start
        if endpoint and num > 1:
            out = (idx == num - 1).where(float(stop), out)
        return (out if dt.is_float or dt.is_bool else out.floor()).cast(dt)

    @classmethod
    def eye(cls, n: int, m: int | None = None, k: int = 0, dtype: Any = None, device: str | None = None) -> Tensor:
        """An n x m matrix with ones on diagonal `k` (np.eye; float32 by default)."""
        m = n if m is None else m
        if n < 0 or m < 0:
            raise ValueError(f"negative dimensions are not allowed: ({n}, {m})")
        i = cls.arange(n, device=device).reshape(n, 1)
        j = cls.arange(m, device=device).reshape(1, m)
        return (i + k == j).cast(dtype or dtypes.default_float)

    # ---- random ----
    @staticmethod
    def manual_seed(seed: int = 0) -> None:
        """Seed the generator: the same seed gives the same random tensors, on every device (also inside functions
        captured by `lazyarr.jit`, whose replays read the same state)."""
        RNGState.seed = int(seed)
        for counter, key in RNGState.devices.values():
            _write_state(counter, 0)
            _write_state(key, _key_of(seed))

    @classmethod
    def _random_bits(cls, shape: tuple[int, ...], device: str | None) -> Tensor:
        """uint64 random bits of `shape`: splitmix64 twice over ((draw << 32) + element index) ^ key.

        Each draw takes the device's draw counter (a snapshot, realised now) and increments it in place: two tiny
        kernels, whatever the shape, so draws of every size share compiled code and a captured function's replays
        advance the counter.
        """
        n = prod(shape)
        counter, key = _rng_state(cls, device)
        draw = counter.clone()
        counter.assign(counter + 1)
        draw.realize(counter)  # one schedule: the snapshot is stored before the increment
        idx = cls(UOp(Ops.IOTA, dtypes.uint64, (), n), device=counter.device)
        start = (draw << 32).reshape(()).broadcast_to((n,))
        return _splitmix(_splitmix((idx + start) ^ key.reshape(()).broadcast_to((n,)))).reshape(shape)

    @classmethod
    def rand(cls, *shape: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        """Uniform [0, 1) values (float32 by default), from the top bits of the generator."""
        s = _shape(shape)
        dt = dtypes.to_dtype(dtype or dtypes.default_float)
        if not dt.is_float:
            raise TypeError(f"rand needs a float dtype, got {dt.name}")
        bits = cls._random_bits(s, device)
        # as many random bits as the dtype's significand holds, so every value is exact and below 1
        mant = {2: 11, 4: 24, 8: 53}[dt.itemsize]
        calc = dtypes.float64 if dt.itemsize == 8 else dtypes.float32
        return ((bits >> (64 - mant)).cast(calc) * (2.0**-mant)).cast(dt)

    @classmethod
    def uniform(
        cls, *shape: Any, low: float = 0.0, high: float = 1.0, dtype: Any = None, device: str | None = None
    ) -> Tensor:
        return cls.rand(*shape, dtype=dtype, device=device) * (high - low) + low

    @classmethod
    def randn(cls, *shape: Any, dtype: Any = None, device: str | None = None) -> Tensor:
        """Standard normal values (Box-Muller over two uniform draws)."""
        s = _shape(shape)
        dt = dtypes.to_dtype(dtype or dtypes.default_float)
        u = cls.rand(2, *s, dtype=dtypes.float32, device=device)  # one draw for both uniforms
        u1, u2 = u[0], u[1]
        return ((1 - u1).log() * -2).sqrt().mul((u2 * (2 * math.pi)).cos()).cast(dt)

    @classmethod
    def normal(
        cls, *shape: Any, mean: float = 0.0, std: float = 1.0, dtype: Any = None, device: str | None = None
    ) -> Tensor:
        return cls.randn(*shape, dtype=dtype, device=device) * std + mean

    @classmethod
    def randint(cls, *shape: Any, low: int = 0, high: int = 10, dtype: Any = None, device: str | None = None) -> Tensor:
        """Uniform integers in [low, high) (int32 by default, like tinygrad)."""
        if high <= low:
            raise ValueError(f"low >= high in randint ({low} >= {high})")
        s = _shape(shape)
        dt = dtypes.to_dtype(dtype or dtypes.int32)
        bits = cls._random_bits(s, device)
        return ((bits % (high - low)).cast(dtypes.int64) + low).cast(dt)

    def rand_like(self: Tensor, dtype: Any = None) -> Tensor:
        return type(self).rand(*self.shape, dtype=dtype or self.dtype, device=self.device)

    def randn_like(self: Tensor, dtype: Any = None) -> Tensor:
        return type(self).randn(*self.shape, dtype=dtype or self.dtype, device=self.device)
