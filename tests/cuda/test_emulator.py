"""Hand-written CUDA C kernels run under the CPU emulation (tests/cuda/emu) and compared with NumPy.

They prove the emulator catches what it is for: reads of unwritten shared memory, missing barriers, divergent
barriers, wrong argument types, and names that NVRTC lacks. test_nvrtc.py compiles the same kernels with NVRTC.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/ is not a package: make `emu` importable from anywhere

from emu.emulator import (
    EmulatedKernel,
    EmulatorCompileError,
    EmulatorError,
    parse_kernel_params,
)

ORDERS = [("forward", 0), ("reverse", 0), ("shuffle", 1), ("shuffle", 2)]

ELEMENTWISE = r"""
extern "C" __global__ void axpy_exp(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + expf(y[i]);
    }
}
"""

# One block per row; a shared-memory tree with a barrier after every step.
TREE_REDUCE = r"""
extern "C" __global__ void row_sum_tree(const float* x, float* out, int cols) {
    __shared__ float partial[128];
    const float* row = x + (long long)blockIdx.x * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += row[c];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
"""

# The same tree without the barrier between filling `partial` and the first step: a race that a GPU may or may not
# show, and that the emulator shows in forward order (thread 0 reads slots nobody has written yet: poison).
TREE_REDUCE_RACY = TREE_REDUCE.replace("row_sum_tree", "row_sum_racy").replace(
    "partial[threadIdx.x] = acc;\n    __syncthreads();", "partial[threadIdx.x] = acc;"
)

# One block per row: warp shuffles (down for the sum, xor for the max, so every lane holds it) then one shared
# slot per warp.
WARP_REDUCE = r"""
__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}
__device__ __forceinline__ float warp_max(float v) {
    for (int mask = 16; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}
extern "C" __global__ void __launch_bounds__(256) row_sum_max_warp(const float* x, float* sums, float* maxes,
                                                                   int cols) {
    __shared__ float warp_sums[32];
    __shared__ float warp_maxes[32];
    const float* row = x + (long long)blockIdx.x * cols;
    float acc = 0.0f;
    float mx = -__int_as_float(0x7f800000);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        acc += row[c];
        mx = fmaxf(mx, row[c]);
    }
    acc = warp_sum(acc);
    mx = warp_max(mx);
    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    if (lane == 0) warp_sums[warp] = acc;
    if (lane == 31) warp_maxes[warp] = mx;
    __syncthreads();
    if (warp == 0) {
        const int n_warps = blockDim.x / warpSize;
        acc = warp_sum(lane < n_warps ? warp_sums[lane] : 0.0f);
        mx = warp_max(lane < n_warps ? warp_maxes[lane] : -__int_as_float(0x7f800000));
        if (lane == 0) {
            sums[blockIdx.x] = acc;
            maxes[blockIdx.x] = mx;
        }
    }
}
"""

HISTOGRAM = r"""
extern "C" __global__ void histogram(const int* values, unsigned int* bins, double* total, long long n) {
    long long step = (long long)blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step) {
        atomicAdd(&bins[values[i]], 1u);
        atomicAdd(total, (double)values[i]);
    }
}
"""

# Kernels test_nvrtc.py compiles too: name -> source.
KERNELS = {
    "axpy_exp": ELEMENTWISE,
    "row_sum_tree": TREE_REDUCE,
    "row_sum_racy": TREE_REDUCE_RACY,
    "row_sum_max_warp": WARP_REDUCE,
    "histogram": HISTOGRAM,
}


@pytest.fixture(scope="module")
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


@pytest.mark.parametrize(("order", "seed"), ORDERS)
def test_grid_stride_elementwise(order: str, seed: int, rng: np.random.Generator) -> None:
    kernel = EmulatedKernel(ELEMENTWISE, "axpy_exp")
    assert not kernel.uses_fibers
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    expected = np.float32(1.5) * x + np.exp(y)
    kernel((3,), (64,), (x, y, np.float32(1.5), np.int32(n)), order=order, seed=seed)  # 192 threads stride over n
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)  # glibc's expf, not NumPy's


@pytest.mark.parametrize(("order", "seed"), ORDERS)
def test_tree_reduction_with_shared_memory(order: str, seed: int, rng: np.random.Generator) -> None:
    kernel = EmulatedKernel(TREE_REDUCE, "row_sum_tree")
    x = rng.standard_normal((6, 300)).astype(np.float32)
    out = np.zeros(6, np.float32)
    kernel(6, 128, (x, out, np.int32(300)), order=order, seed=seed)
    np.testing.assert_allclose(out, x.sum(axis=1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize(("order", "seed"), ORDERS)
def test_warp_shuffle_reduction(order: str, seed: int, rng: np.random.Generator) -> None:
    kernel = EmulatedKernel(WARP_REDUCE, "row_sum_max_warp")
    x = rng.standard_normal((5, 700)).astype(np.float32)
    sums, maxes = np.zeros(5, np.float32), np.zeros(5, np.float32)
    kernel(5, 256, (x, sums, maxes, np.int32(700)), order=order, seed=seed)
    np.testing.assert_allclose(sums, x.sum(axis=1), rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(maxes, x.max(axis=1))


def test_missing_barrier_is_caught(rng: np.random.Generator) -> None:
    x = rng.standard_normal((4, 300)).astype(np.float32)
    racy = EmulatedKernel(TREE_REDUCE_RACY, "row_sum_racy")
    fixed = EmulatedKernel(TREE_REDUCE, "row_sum_tree")
    wrong_orders = []
    for order, seed in ORDERS:
        out = np.zeros(4, np.float32)
        racy(4, 128, (x, out, np.int32(300)), order=order, seed=seed)
        if not np.allclose(out, x.sum(axis=1), rtol=1e-5, atol=1e-4):
            wrong_orders.append(order)
        out[:] = 0
        fixed(4, 128, (x, out, np.int32(300)), order=order, seed=seed)
        np.testing.assert_allclose(out, x.sum(axis=1), rtol=1e-5, atol=1e-4)
    assert "forward" in wrong_orders  # thread 0 adds partial[64] before thread 64 has stored it
    assert "reverse" not in wrong_orders  # the highest thread stores first: the race hides in this order


@pytest.mark.parametrize(("order", "seed"), ORDERS)
def test_atomic_histogram(order: str, seed: int, rng: np.random.Generator) -> None:
    kernel = EmulatedKernel(HISTOGRAM, "histogram")
    values = rng.integers(0, 10, size=2000).astype(np.int32)
    bins = np.zeros(10, np.uint32)
    total = np.zeros(1, np.float64)
    kernel(4, 128, (values, bins, total, 2000), order=order, seed=seed)  # a Python int passes as long long
    np.testing.assert_array_equal(bins, np.bincount(values, minlength=10))
    assert total[0] == values.sum()


@pytest.mark.parametrize(("order", "seed"), ORDERS)
def test_warp_primitives_follow_cuda_semantics(order: str, seed: int) -> None:
    source = r"""
    extern "C" __global__ void warp_ops(int* out) {
        const unsigned int full = 0xffffffffu;
        int lane = threadIdx.x % 32;
        int* o = out + 7 * threadIdx.x;
        o[0] = __shfl_sync(full, lane, 3, 8);
        o[1] = __shfl_up_sync(full, lane, 2, 16);
        o[2] = __shfl_down_sync(full, lane, 4, 8);
        o[3] = __shfl_xor_sync(full, lane, 5);
        o[4] = __shfl_xor_sync(full, lane, 8, 8);  // later segments are out of reach: own value
        o[5] = (int)__ballot_sync(full, lane % 3 == 0);
        o[6] = __syncthreads_count(threadIdx.x % 4 == 0);
    }
    """
    out = np.zeros((64, 7), np.int32)
    EmulatedKernel(source, "warp_ops")(1, 64, (out,), order=order, seed=seed)
    lane = np.arange(64) % 32
    ballot = sum(1 << b for b in range(0, 32, 3))
    expected = [
        lane // 8 * 8 + 3,
        np.where(lane % 16 >= 2, lane - 2, lane),
        np.where(lane % 8 < 4, lane + 4, lane),
        lane ^ 5,
        np.where(lane % 16 >= 8, lane ^ 8, lane),
        np.full(64, np.array(ballot, np.uint32).view(np.int32)),
        np.full(64, 16),
    ]
    np.testing.assert_array_equal(out, np.stack(expected, axis=1))


def test_thread_and_block_indices_in_three_dimensions() -> None:
    source = r"""
    extern "C" __global__ void coords(int* out) {
        int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        int i = block * blockDim.x * blockDim.y * blockDim.z + thread;
        out[4 * i] = blockIdx.x * 100 + blockIdx.y * 10 + blockIdx.z;
        out[4 * i + 1] = threadIdx.x;
        out[4 * i + 2] = threadIdx.y;
        out[4 * i + 3] = threadIdx.z;
    }
    """
    grid, block = (2, 3, 2), (4, 2, 3)
    out = np.full((2 * 3 * 2 * 4 * 2 * 3, 4), -1, np.int32)
    EmulatedKernel(source, "coords")(grid, block, (out,), order="shuffle", seed=7)
    bz, by, bx, tz, ty, tx = np.indices((2, 3, 2, 3, 2, 4)).reshape(6, -1)
    np.testing.assert_array_equal(out, np.stack([bx * 100 + by * 10 + bz, tx, ty, tz], axis=1))


def test_unwritten_shared_memory_reads_as_nan() -> None:
    source = r"""
    extern "C" __global__ void read_neighbour(float* out) {
        __shared__ float tile[64];
        if (threadIdx.x % 2 == 0) tile[threadIdx.x] = 1.0f;
        __syncthreads();
        out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
    }
    """
    out = np.zeros(128, np.float32)
    EmulatedKernel(source, "read_neighbour")(2, 64, (out,))
    assert np.all(out[0::2] == 1.0)
    assert np.all(np.isnan(out[1::2]))  # every block starts from poisoned shared memory, not the last block's data


def test_dynamic_shared_memory(rng: np.random.Generator) -> None:
    source = r"""
    extern "C" __global__ void reverse_rows(const double* x, double* out, int cols) {
        extern __shared__ double row[];
        for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = x[blockIdx.x * cols + c];
        __syncthreads();
        for (int c = threadIdx.x; c < cols; c += blockDim.x) out[blockIdx.x * cols + c] = row[cols - 1 - c];
    }
    """
    x = rng.standard_normal((3, 100))
    out = np.zeros_like(x)
    EmulatedKernel(source, "reverse_rows")(3, 32, (x, out, np.int32(100)), order="reverse", shared_mem=100 * 8)
    np.testing.assert_array_equal(out, x[:, ::-1])


def test_barrier_after_early_exit_is_an_error() -> None:
    source = r"""
    extern "C" __global__ void early_exit(float* x, int n) {
        __shared__ float tile[64];
        if (threadIdx.x >= n) return;
        tile[threadIdx.x] = x[threadIdx.x];
        __syncthreads();
        x[threadIdx.x] = tile[n - 1 - threadIdx.x];
    }
    """
    kernel = EmulatedKernel(source, "early_exit")
    x = np.arange(64, dtype=np.float32)
    kernel(1, 64, (x, np.int32(64)))
    np.testing.assert_array_equal(x, np.arange(64)[::-1])
    with pytest.raises(EmulatorError, match="exited"):
        kernel(1, 64, (x, np.int32(40)))


def test_shuffle_naming_an_exited_lane_is_an_error() -> None:
    source = r"""
    extern "C" __global__ void shuffle_after_exit(float* x, int n) {
        if (threadIdx.x >= n) return;
        x[threadIdx.x] = __shfl_down_sync(0xffffffffu, x[threadIdx.x], 1);
    }
    """
    x = np.arange(32, dtype=np.float32)
    with pytest.raises(EmulatorError, match="has exited"):
        EmulatedKernel(source, "shuffle_after_exit")(1, 32, (x, np.int32(20)))


def test_trap_and_assert_report_the_thread() -> None:
    source = r"""
    extern "C" __global__ void checked(const int* x) {
        assert(x[threadIdx.x] >= 0);
    }
    """
    x = np.zeros(32, np.int32)
    kernel = EmulatedKernel(source, "checked")
    kernel(1, 32, (x,))
    x[17] = -1
    with pytest.raises(EmulatorError, match=r"thread \(17,0,0\).*assertion failed"):
        kernel(1, 32, (x,))


def test_half_conversions_round_like_numpy() -> None:
    source = r"""
    #include <cuda_fp16.h>
    extern "C" __global__ void round_trip(const float* x, __half* h, float* back, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            h[i] = __float2half(x[i]);
            back[i] = __half2float(h[i]);
        }
    }
    """
    special = [0.0, -0.0, 1.0, 65504.0, 65520.0, 1e6, 6e-8, 3e-8, 2.98e-8, 1e-9, 6.1e-5, 1.00048828125, 1.000732421875]
    rng = np.random.default_rng(5)
    x = np.concatenate([np.array(special + [-v for v in special], np.float32), np.float32(np.nan)[None]])
    x = np.concatenate([x, (rng.standard_normal(2000) * 10.0 ** rng.integers(-9, 6, 2000)).astype(np.float32)])
    h, back = np.zeros(x.size, np.float16), np.zeros(x.size, np.float32)
    EmulatedKernel(source, "round_trip")(8, 256, (x, h, back, np.int32(x.size)))
    finite = ~np.isnan(x)
    assert np.isnan(h[~finite]).all() and np.isnan(back[~finite]).all()
    with np.errstate(over="ignore"):  # 65520 and up round to infinity
        expected = x[finite].astype(np.float16)
    np.testing.assert_array_equal(h.view(np.uint16)[finite], expected.view(np.uint16))
    np.testing.assert_array_equal(back[finite], expected.astype(np.float32))


def test_arguments_are_checked_like_their_c_types() -> None:
    kernel = EmulatedKernel(ELEMENTWISE, "axpy_exp")
    x, y = np.zeros(8, np.float32), np.zeros(8, np.float32)
    with pytest.raises(EmulatorError, match="needs int32, got int64"):
        kernel(1, 8, (x, y, np.float32(1), 8))  # CuPy would pass 8 bytes for a 4-byte int
    with pytest.raises(EmulatorError, match="needs float32, got float64 array"):
        kernel(1, 8, (x.astype(np.float64), y, np.float32(1), np.int32(8)))
    with pytest.raises(EmulatorError, match="C-contiguous"):
        kernel(1, 8, (np.zeros(16, np.float32)[::2], y, np.float32(1), np.int32(8)))
    with pytest.raises(EmulatorError, match="takes 4 arguments"):
        kernel(1, 8, (x, y))
    with pytest.raises(EmulatorError, match="exceeds"):
        kernel(1, 2048, (x, y, np.float32(1), np.int32(8)))


def test_parse_kernel_params() -> None:
    source = """
    // extern "C" __global__ void k(int commented_out)
    extern "C" __global__ void k(const float* __restrict__ a, unsigned n, long long m, unsigned long long int s,
                                 const void* raw, signed char c, size_t z) {}
    """
    params = [(p.name, p.ctype, p.pointer) for p in parse_kernel_params(source, "k")]
    assert params == [
        ("a", "float", True),
        ("n", "unsigned int", False),
        ("m", "long long", False),
        ("s", "unsigned long long", False),
        ("raw", "void", True),
        ("c", "signed char", False),
        ("z", "size_t", False),
    ]
    with pytest.raises(ValueError, match="extern"):
        parse_kernel_params("__global__ void k(int n) {}", "k")  # CuPy cannot find a C++-mangled kernel either


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("float v = INFINITY;", "not declared"),  # NVRTC has no <math.h> macros: use __int_as_float(0x7f800000)
        ("float v = M_PI;", "not declared"),
        ("int64_t v = 0;", "not declared"),  # nor <stdint.h> types: use long long
        ("float v = max(1.0f, 2);", "ambiguous"),  # CUDA's min/max overloads make mixed float/int ambiguous
        ("long long v = 0; atomicAdd(&v, 1LL);", "invalid conversion"),  # no signed 64-bit atomicAdd in CUDA
    ],
)
def test_names_nvrtc_rejects_are_rejected_here_too(statement: str, message: str) -> None:
    source = f'extern "C" __global__ void rejected(float* out) {{ {statement} out[0] = 0.0f; }}'
    with pytest.raises(EmulatorCompileError, match=message):
        EmulatedKernel(source, "rejected")
