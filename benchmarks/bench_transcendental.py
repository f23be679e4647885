"""Float32 throughput of lazyarr.kernels.transcendental: a Numba loop calling each function, the same loop calling
Numba's own math/NumPy function (a scalar libm call), NumPy's ufunc, and a copy of the same bytes.

    python benchmarks/bench_transcendental.py [--n 22] [--repeat 15]

Prints milliseconds (median of --repeat runs after a warm-up), one thread everywhere, preallocated outputs.

    LAZYARR_NUM_THREADS=1 python benchmarks/bench_transcendental.py --kernels [--n 22] [--repeat 15]

instead times each op as a lazyarr kernel (eager `.realize()`, so a fresh output's page faults are included), in
float32 and float64, and prints best-of-repeat ns/element and the excess over `x + 1` (the same bytes moved).
"""

from __future__ import annotations

import argparse
import math
import time
import types
from collections.abc import Callable

import numba
import numpy as np

import lazyarr as la
from lazyarr.kernels import transcendental as T

try:  # NumPy has no erf ufunc; SciPy's is the usual stand-in
    from scipy.special import erf as _scipy_erf
except ImportError:  # pragma: no cover
    _scipy_erf = None


def _np_sigmoid(x: np.ndarray, out: np.ndarray) -> None:
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    np.reciprocal(out, out=out)


# op -> (input range, NumPy version, Numba builtin with a scalar libm call)
CASES: dict[str, tuple[tuple[float, float], Callable[..., object] | None, Callable[..., float]]] = {
    "exp": ((-80, 80), lambda x, o: np.exp(x, out=o), math.exp),
    "exp2": ((-120, 120), lambda x, o: np.exp2(x, out=o), lambda v: 2.0**v),
    "expm1": ((-20, 20), lambda x, o: np.expm1(x, out=o), math.expm1),
    "log": ((1e-3, 1e3), lambda x, o: np.log(x, out=o), math.log),
    "log2": ((1e-3, 1e3), lambda x, o: np.log2(x, out=o), math.log2),
    "log1p": ((-0.9, 1e3), lambda x, o: np.log1p(x, out=o), math.log1p),
    "sin": ((-100, 100), lambda x, o: np.sin(x, out=o), math.sin),
    "cos": ((-100, 100), lambda x, o: np.cos(x, out=o), math.cos),
    "tan": ((-100, 100), lambda x, o: np.tan(x, out=o), math.tan),
    "tanh": ((-10, 10), lambda x, o: np.tanh(x, out=o), math.tanh),
    "sigmoid": ((-20, 20), _np_sigmoid, lambda v: 1.0 / (1.0 + math.exp(-v))),
    "erf": ((-4, 4), (lambda x, o: _scipy_erf(x, out=o)) if _scipy_erf else None, math.erf),
    "pow": ((0.01, 10), lambda x, o: np.power(x, o, out=o), math.pow),  # y in [-8, 8] is preloaded into out
}


def _loop(f: Callable[..., object], binary: bool) -> Callable[..., None]:
    """The kind of loop the renderer emits, calling f by name so that Numba/LLVM inline and vectorise it."""
    if binary:

        @numba.njit(error_model="numpy", nogil=True)
        def loop2(x, out):  # type: ignore[no-untyped-def]
            for i in range(x.size):
                out[i] = f(x[i], out[i])

        return loop2

    @numba.njit(error_model="numpy", nogil=True)
    def loop1(x, out):  # type: ignore[no-untyped-def]
        for i in range(x.size):
            out[i] = f(x[i])

    return loop1


def _scalar_libm(g: Callable[..., float], binary: bool) -> Callable[..., object]:
    """A float32 -> float32 wrapper around Numba's builtin (libm, computed in float64 like NumPy's reference)."""
    g = g if isinstance(g, types.BuiltinFunctionType) else numba.njit(g)
    if binary:
        return numba.njit(lambda a, b: np.float32(g(np.float64(a), np.float64(b))))
    return numba.njit(lambda a: np.float32(g(np.float64(a))))


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1e3


def _best_s(fn: Callable[[], object], repeat: int) -> float:
    fn()
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _kernel_op(op: str, x: la.Tensor, y: la.Tensor) -> Callable[[], object]:
    if op == "x+1":
        return lambda: (x + 1).realize()
    if op == "pow":
        return lambda: (x**y).realize()
    return lambda: getattr(x, op)().realize()


def kernels_main(n: int, repeat: int) -> None:
    """ns/element of each op as a lazyarr kernel, and its excess over x + 1."""
    rng = np.random.default_rng(0)
    print(f"lazyarr kernels, n = {n}, best of {repeat}: ns/element (excess over x + 1)")
    for dtype in (np.float32, np.float64):
        base = math.nan
        for op, ((lo, hi), _, _) in {"x+1": ((-10, 10), None, None), **CASES}.items():
            x = la.Tensor(rng.uniform(lo, hi, n).astype(dtype)).realize()
            y = la.Tensor(rng.uniform(-8, 8, n).astype(dtype)).realize()
            ns = _best_s(_kernel_op(op, x, y), repeat) / n * 1e9
            base = ns if op == "x+1" else base
            print(f"{np.dtype(dtype).name:8s} {op:8s} {ns:6.2f}" + ("" if op == "x+1" else f" ({ns - base:+.2f})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=22, help="log2 of the element count")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--kernels", action="store_true", help="time lazyarr kernels per op and dtype instead")
    args = parser.parse_args()
    if args.kernels:
        kernels_main(2**args.n, args.repeat)
        return
    n = 2**args.n
    rng = np.random.default_rng(0)
    out = np.empty(n, dtype=np.float32)
    print(f"float32, n = 2**{args.n}, median of {args.repeat} (ms); numpy {np.__version__}, numba {numba.__version__}")
    print(f"{'op':8s} {'lazyarr':>8s} {'numba+libm':>10s} {'numpy':>8s} {'copy':>6s}  {'numpy/lazyarr':>13s}")
    for op, ((lo, hi), np_fn, builtin) in CASES.items():
        binary = op == "pow"
        x = rng.uniform(lo, hi, n).astype(np.float32)
        y = rng.uniform(-8, 8, n).astype(np.float32)
        ours = _loop(getattr(T, f"{op}_f32"), binary)
        libm = _loop(_scalar_libm(builtin, binary), binary)

        def run(
            kernel: Callable[..., object], x: np.ndarray = x, y: np.ndarray | None = y if binary else None
        ) -> Callable[[], None]:
            def go() -> None:
                if y is not None:
                    out[:] = y  # pow's exponent; every column pays for this copy
                kernel(x, out)

            return go

        t_ours = _median_ms(run(ours), args.repeat)
        t_libm = _median_ms(run(libm), args.repeat)
        t_np = _median_ms(run(np_fn), args.repeat) if np_fn else math.nan
        t_copy = _median_ms(run(lambda a, o: np.copyto(o, a)), args.repeat)
        print(f"{op:8s} {t_ours:8.2f} {t_libm:10.2f} {t_np:8.2f} {t_copy:6.2f}  {t_np / t_ours:13.2f}")


if __name__ == "__main__":
    main()
