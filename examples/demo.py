"""Demo: the same computation fused and unfused, with kernel counts and times (until the training example lands)."""

import time

import numpy as np

import lazyarr as la
from lazyarr import Tensor


def chain(a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
    return a * b + c * (-d).exp() * a.sin()


def main() -> None:
    n = 1 << 22
    rng = np.random.default_rng(0)
    a, b, c, d = (Tensor(rng.standard_normal(n).astype(np.float32)) for _ in range(4))
    ref = a.numpy() * b.numpy() + c.numpy() * np.exp(-d.numpy()) * np.sin(a.numpy())
    for fuse in (1, 0):
        with la.Context(FUSE=fuse):
            chain(a, b, c, d).realize()  # compile
            la.reset_stats()
            start = time.perf_counter()
            out = chain(a, b, c, d).realize()
            elapsed = time.perf_counter() - start
            kernels = la.stats().kernels_launched
        err = np.abs(out.numpy() - ref).max()
        print(f"FUSE={fuse}: {kernels:2d} kernels, {elapsed * 1e3:7.2f} ms, max abs error vs NumPy {err:.2e}")


if __name__ == "__main__":
    main()
