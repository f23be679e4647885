// CPU emulation of the CUDA C dialect that NVRTC accepts, so that unchanged kernel source compiles with g++.
// Compiled twice by emulator.py: plainly in front of the kernel source (the declarations a kernel sees), and with
// CUDA_EMU_RUNTIME defined as the runtime (block scheduler, fibers, barriers, warp exchange).
//
// The kernel's translation unit includes no system header, so what NVRTC lacks stays undefined here too
// (INFINITY, NAN, M_PI, FLT_MAX, int64_t, <math.h>), and min/max carry CUDA's overload set, so ambiguous calls
// such as max(float, int) fail here as they do under NVRTC. Blocks run one after another; the threads of a block
// run as ucontext fibers that switch at every barrier and warp collective, in forward, reverse or shuffled order.

// ---- shared by both translation units ------------------------------------------------------------------------------
#ifndef CUDA_EMU_CORE
#define CUDA_EMU_CORE
typedef decltype(sizeof(0)) size_t;
typedef decltype(static_cast<int*>(nullptr) - static_cast<int*>(nullptr)) ptrdiff_t;

struct uint3 {
    unsigned int x, y, z;
};
struct dim3 {
    unsigned int x, y, z;
};

namespace cuda_emu {
extern uint3 thread_idx, block_idx;
extern dim3 block_dim, grid_dim;
extern unsigned char* dynamic_shared;
void syncthreads(int kind, int* predicate);
unsigned long long* warp_exchange(unsigned int mask, unsigned long long value);
unsigned int lane_id();
unsigned int active_mask();
[[noreturn]] void trap(const char* why);
}  // namespace cuda_emu
#endif  // CUDA_EMU_CORE

// ---- the kernel's dialect (not for the runtime: glibc's headers use names such as __noinline__) --------------------
#if !defined(CUDA_EMU_RUNTIME) && !defined(CUDA_EMU_DIALECT)
#define CUDA_EMU_DIALECT

#define __global__
#define __device__
#define __host__
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __constant__
// Function-local statics are one object per process: the threads (fibers) of a block share it, and blocks run one
// after another. The section lets the runtime poison every __shared__ byte before each block.
#define __shared__ __attribute__((section("cuda_emu_shared"))) static

// Macros rather than variables: read-only, and re-read after every barrier because the runtime's functions are
// opaque to the kernel's translation unit.
#define threadIdx (static_cast<const uint3&>(cuda_emu::thread_idx))
#define blockIdx (static_cast<const uint3&>(cuda_emu::block_idx))
#define blockDim (static_cast<const dim3&>(cuda_emu::block_dim))
#define gridDim (static_cast<const dim3&>(cuda_emu::grid_dim))
#define warpSize 32

// ---- synchronisation ---------------------------------------------------------------------------------------------
inline void __syncthreads() { cuda_emu::syncthreads(0, nullptr); }
inline int __syncthreads_count(int p) { return cuda_emu::syncthreads(1, &p), p; }
inline int __syncthreads_and(int p) { return cuda_emu::syncthreads(2, &p), p; }
inline int __syncthreads_or(int p) { return cuda_emu::syncthreads(3, &p), p; }
inline void __syncwarp(unsigned int mask = 0xffffffffu) { cuda_emu::warp_exchange(mask, 0); }
inline void __threadfence() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __trap() { cuda_emu::trap("__trap() called"); }
#define assert(cond) ((cond) ? (void)0 : cuda_emu::trap("assertion failed: " #cond))
extern "C" int printf(const char*, ...);

inline unsigned int __activemask() { return cuda_emu::active_mask(); }

namespace cuda_emu {
template <class T>
inline unsigned long long to_bits(T v) {
    static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &v, sizeof(T));
    return bits;
}
template <class T>
inline T from_bits(unsigned long long bits) {
    T v;
    __builtin_memcpy(&v, &bits, sizeof(T));
    return v;
}
// Lanes of one `width` segment see each other; a source outside the caller's segment returns the caller's value.
template <class T>
inline T shuffle(unsigned int mask, T var, int src, int width) {
    unsigned int lane = lane_id();
    unsigned long long* slots = warp_exchange(mask, to_bits(var));
    int base = static_cast<int>(lane) & ~(width - 1);
    if (src < base || src >= base + width) return var;
    return from_bits<T>(slots[src]);
}
}  // namespace cuda_emu

template <class T>
inline T __shfl_sync(unsigned int mask, T var, int src_lane, int width = warpSize) {
    int base = static_cast<int>(cuda_emu::lane_id()) & ~(width - 1);
    return cuda_emu::shuffle(mask, var, base + (src_lane & (width - 1)), width);
}
template <class T>
inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize) {
    return cuda_emu::shuffle(mask, var, static_cast<int>(cuda_emu::lane_id() + delta), width);
}
template <class T>
inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize) {
    return cuda_emu::shuffle(mask, var, static_cast<int>(cuda_emu::lane_id()) - static_cast<int>(delta), width);
}
template <class T>
inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = warpSize) {
    int lane = static_cast<int>(cuda_emu::lane_id());
    int src = lane ^ lane_mask;
    // Lanes may read earlier segments but not later ones (CUDA programming guide, warp shuffle functions).
    return src >= (lane & ~(width - 1)) + width ? cuda_emu::shuffle(mask, var, lane, width)
                                                : cuda_emu::shuffle(mask, var, src, 32);
}
inline unsigned int __ballot_sync(unsigned int mask, int predicate) {
    unsigned long long* slots = cuda_emu::warp_exchange(mask, predicate != 0);
    unsigned int ballot = 0;
    for (int lane = 0; lane < 32; ++lane)
        if ((mask >> lane & 1u) && slots[lane] == 1) ballot |= 1u << lane;
    return ballot;
}
inline int __any_sync(unsigned int mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }
inline int __all_sync(unsigned int mask, int predicate) { return __ballot_sync(mask, predicate) == mask; }

// ---- atomics: CUDA's overload set (no atomicAdd(long long*), no float atomicMax); no two fibers run at once ----
#define CUDA_EMU_ATOMIC(name, T, expr) \
    inline T name(T* address, T val) { \
        T old = *address; \
        *address = (expr); \
        return old; \
    }
CUDA_EMU_ATOMIC(atomicAdd, int, old + val) CUDA_EMU_ATOMIC(atomicAdd, unsigned int, old + val)
CUDA_EMU_ATOMIC(atomicAdd, unsigned long long, old + val) CUDA_EMU_ATOMIC(atomicAdd, float, old + val)
CUDA_EMU_ATOMIC(atomicAdd, double, old + val)
CUDA_EMU_ATOMIC(atomicSub, int, old - val) CUDA_EMU_ATOMIC(atomicSub, unsigned int, old - val)
CUDA_EMU_ATOMIC(atomicExch, int, val) CUDA_EMU_ATOMIC(atomicExch, unsigned int, val)
CUDA_EMU_ATOMIC(atomicExch, unsigned long long, val) CUDA_EMU_ATOMIC(atomicExch, float, val)
#define CUDA_EMU_ATOMIC_MAX(T) CUDA_EMU_ATOMIC(atomicMax, T, old > val ? old : val)
#define CUDA_EMU_ATOMIC_MIN(T) CUDA_EMU_ATOMIC(atomicMin, T, old < val ? old : val)
CUDA_EMU_ATOMIC_MAX(int) CUDA_EMU_ATOMIC_MAX(unsigned int) CUDA_EMU_ATOMIC_MAX(long long)
CUDA_EMU_ATOMIC_MAX(unsigned long long)
CUDA_EMU_ATOMIC_MIN(int) CUDA_EMU_ATOMIC_MIN(unsigned int) CUDA_EMU_ATOMIC_MIN(long long)
CUDA_EMU_ATOMIC_MIN(unsigned long long)
#undef CUDA_EMU_ATOMIC_MAX
#undef CUDA_EMU_ATOMIC_MIN
CUDA_EMU_ATOMIC(atomicAnd, int, old & val) CUDA_EMU_ATOMIC(atomicAnd, unsigned int, old & val)
CUDA_EMU_ATOMIC(atomicAnd, unsigned long long, old & val)
CUDA_EMU_ATOMIC(atomicOr, int, old | val) CUDA_EMU_ATOMIC(atomicOr, unsigned int, old | val)
CUDA_EMU_ATOMIC(atomicOr, unsigned long long, old | val)
CUDA_EMU_ATOMIC(atomicXor, int, old ^ val) CUDA_EMU_ATOMIC(atomicXor, unsigned int, old ^ val)
CUDA_EMU_ATOMIC(atomicXor, unsigned long long, old ^ val)
CUDA_EMU_ATOMIC(atomicInc, unsigned int, old >= val ? 0u : old + 1u)
CUDA_EMU_ATOMIC(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1u)
#undef CUDA_EMU_ATOMIC
#define CUDA_EMU_ATOMIC_CAS(T) \
    inline T atomicCAS(T* address, T compare, T val) { \
        T old = *address; \
        if (old == compare) *address = val; \
        return old; \
    }
CUDA_EMU_ATOMIC_CAS(int) CUDA_EMU_ATOMIC_CAS(unsigned int) CUDA_EMU_ATOMIC_CAS(unsigned long long)
CUDA_EMU_ATOMIC_CAS(unsigned short)
#undef CUDA_EMU_ATOMIC_CAS

// ---- math: glibc's functions under the CUDA names (no FMA contraction, no flush-to-zero, not libdevice) ----------
#define CUDA_EMU_UNARY(fn) \
    extern "C" float fn##f(float) noexcept; \
    extern "C" double fn(double) noexcept; \
    inline float fn(float x) { return fn##f(x); }
#define CUDA_EMU_BINARY(fn) \
    extern "C" float fn##f(float, float) noexcept; \
    extern "C" double fn(double, double) noexcept; \
    inline float fn(float x, float y) { return fn##f(x, y); }
CUDA_EMU_UNARY(exp) CUDA_EMU_UNARY(exp2) CUDA_EMU_UNARY(exp10) CUDA_EMU_UNARY(expm1) CUDA_EMU_UNARY(log)
CUDA_EMU_UNARY(log2) CUDA_EMU_UNARY(log10) CUDA_EMU_UNARY(log1p) CUDA_EMU_UNARY(sin) CUDA_EMU_UNARY(cos)
CUDA_EMU_UNARY(tan) CUDA_EMU_UNARY(asin) CUDA_EMU_UNARY(acos) CUDA_EMU_UNARY(atan) CUDA_EMU_UNARY(sinh)
CUDA_EMU_UNARY(cosh) CUDA_EMU_UNARY(tanh) CUDA_EMU_UNARY(asinh) CUDA_EMU_UNARY(acosh) CUDA_EMU_UNARY(atanh)
CUDA_EMU_UNARY(sqrt) CUDA_EMU_UNARY(cbrt) CUDA_EMU_UNARY(erf) CUDA_EMU_UNARY(erfc) CUDA_EMU_UNARY(lgamma)
CUDA_EMU_UNARY(tgamma) CUDA_EMU_UNARY(floor) CUDA_EMU_UNARY(ceil) CUDA_EMU_UNARY(trunc) CUDA_EMU_UNARY(round)
CUDA_EMU_UNARY(rint) CUDA_EMU_UNARY(nearbyint) CUDA_EMU_UNARY(fabs) CUDA_EMU_UNARY(logb)
CUDA_EMU_BINARY(pow) CUDA_EMU_BINARY(atan2) CUDA_EMU_BINARY(fmod) CUDA_EMU_BINARY(remainder) CUDA_EMU_BINARY(copysign)
CUDA_EMU_BINARY(fmax) CUDA_EMU_BINARY(fmin) CUDA_EMU_BINARY(fdim) CUDA_EMU_BINARY(hypot) CUDA_EMU_BINARY(nextafter)
#undef CUDA_EMU_UNARY
#undef CUDA_EMU_BINARY
extern "C" float fmaf(float, float, float) noexcept;
extern "C" double fma(double, double, double) noexcept;
inline float fma(float x, float y, float z) { return fmaf(x, y, z); }
extern "C" float ldexpf(float, int) noexcept;
extern "C" double ldexp(double, int) noexcept;
extern "C" float frexpf(float, int*) noexcept;
extern "C" double frexp(double, int*) noexcept;
extern "C" float modff(float, float*) noexcept;
extern "C" double modf(double, double*) noexcept;
extern "C" int ilogbf(float) noexcept;
extern "C" int ilogb(double) noexcept;
extern "C" void sincosf(float, float*, float*) noexcept;
extern "C" void sincos(double, double*, double*) noexcept;
extern "C" int abs(int) noexcept;
extern "C" long long llabs(long long) noexcept;
inline long long abs(long long x) { return llabs(x); }
inline float abs(float x) { return fabsf(x); }
inline double abs(double x) { return fabs(x); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
inline float cospif(float x) { return cosf(3.14159265358979323846f * x); }
inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752); }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }

template <class T>
inline bool isnan(T x) { return __builtin_isnan(x); }
template <class T>
inline bool isinf(T x) { return __builtin_isinf(x); }
template <class T>
inline bool isfinite(T x) { return __builtin_isfinite(x); }
template <class T>
inline bool signbit(T x) { return __builtin_signbit(x); }

// CUDA's min/max overloads (math_functions.hpp): mixed signedness picks the unsigned type.
#define CUDA_EMU_MINMAX(R, A, B) \
    inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
    inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); }
CUDA_EMU_MINMAX(int, int, int)
CUDA_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_EMU_MINMAX(unsigned int, int, unsigned int)
CUDA_EMU_MINMAX(unsigned int, unsigned int, int)
CUDA_EMU_MINMAX(long, long, long)
CUDA_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
CUDA_EMU_MINMAX(unsigned long, long, unsigned long)
CUDA_EMU_MINMAX(unsigned long, unsigned long, long)
CUDA_EMU_MINMAX(long long, long long, long long)
CUDA_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
CUDA_EMU_MINMAX(unsigned long long, long long, unsigned long long)
CUDA_EMU_MINMAX(unsigned long long, unsigned long long, long long)
CUDA_EMU_MINMAX(float, float, float)
CUDA_EMU_MINMAX(double, double, double)
CUDA_EMU_MINMAX(double, float, double)
CUDA_EMU_MINMAX(double, double, float)
#undef CUDA_EMU_MINMAX

// ---- bit casts, conversions and integer intrinsics ----------------------------------------------------------------
inline float __int_as_float(int x) { return cuda_emu::from_bits<float>(static_cast<unsigned int>(x)); }
inline float __uint_as_float(unsigned int x) { return cuda_emu::from_bits<float>(x); }
inline int __float_as_int(float x) { return static_cast<int>(cuda_emu::to_bits(x)); }
inline unsigned int __float_as_uint(float x) { return static_cast<unsigned int>(cuda_emu::to_bits(x)); }
inline double __longlong_as_double(long long x) { return cuda_emu::from_bits<double>(x); }
inline long long __double_as_longlong(double x) { return static_cast<long long>(cuda_emu::to_bits(x)); }
inline int __float2int_rn(float x) { return static_cast<int>(rintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(rintf(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(rint(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(rintf(x)); }
inline long long __double2ll_rn(double x) { return static_cast<long long>(rint(x)); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline int __mul24(int x, int y) { return (x << 8 >> 8) * (y << 8 >> 8); }
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
template <class T>
inline T __ldg(const T* p) { return *p; }

// ---- vector types ---------------------------------------------------------------------------------------------------
#define CUDA_EMU_VEC2(T, name) \
    struct __align__(2 * sizeof(T)) name { T x, y; }; \
    inline name make_##name(T x, T y) { return name{x, y}; }
#define CUDA_EMU_VEC4(T, name) \
    struct __align__(4 * sizeof(T)) name { T x, y, z, w; }; \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
CUDA_EMU_VEC2(float, float2)
CUDA_EMU_VEC4(float, float4)
CUDA_EMU_VEC2(int, int2)
CUDA_EMU_VEC4(int, int4)
CUDA_EMU_VEC2(unsigned int, uint2)
CUDA_EMU_VEC4(unsigned int, uint4)
CUDA_EMU_VEC2(double, double2)
CUDA_EMU_VEC2(long long, longlong2)
#undef CUDA_EMU_VEC2
#undef CUDA_EMU_VEC4
struct float3 {
    float x, y, z;
};
inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }

#endif  // CUDA_EMU_DIALECT

// ---- __half: only after `#include <cuda_fp16.h>`, as under NVRTC (emulator.py provides that header) ---------------
#if defined(CUDA_EMU_WANT_FP16) && !defined(CUDA_EMU_FP16_DONE)
#define CUDA_EMU_FP16_DONE
struct __half {
    unsigned short __x;
};
inline __half __ushort_as_half(unsigned short bits) { return __half{bits}; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline float __half2float(__half h) {
    unsigned int sign = (h.__x & 0x8000u) << 16;
    unsigned int exp = (h.__x >> 10) & 0x1fu;
    unsigned int man = h.__x & 0x3ffu;
    unsigned int bits;
    if (exp == 0x1fu) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else {  // subnormal half: normalise
        int shift = __builtin_clz(man) - 21;
        bits = sign | ((113u - static_cast<unsigned int>(shift)) << 23) | ((man << shift) & 0x3ffu) << 13;
    }
    return __uint_as_float(bits);
}
// Round to nearest even, overflow to infinity, NaN kept quiet.
inline __half __float2half_rn(float f) {
    unsigned int x = __float_as_uint(f);
    unsigned short sign = static_cast<unsigned short>((x >> 16) & 0x8000u);
    unsigned int absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) return __half{static_cast<unsigned short>(sign | 0x7e00u)};
    if (absx >= 0x477ff000u) return __half{static_cast<unsigned short>(sign | 0x7c00u)};
    if (absx < 0x38800000u) {  // result is subnormal or zero: scale by 2^24 and round as an integer
        float scaled = __uint_as_float(absx) * 16777216.0f;
        return __half{static_cast<unsigned short>(sign | static_cast<unsigned short>(rintf(scaled)))};
    }
    unsigned int mant_odd = (absx >> 13) & 1u;
    absx += 0xfffu + mant_odd;
    return __half{static_cast<unsigned short>(sign | ((absx - 0x38000000u) >> 13))};
}
inline __half __float2half(float f) { return __float2half_rn(f); }
inline __half __double2half(double d) { return __float2half_rn(static_cast<float>(d)); }
inline __half __int2half_rn(int i) { return __float2half_rn(static_cast<float>(i)); }
inline int __half2int_rz(__half h) { return static_cast<int>(__half2float(h)); }
// One float operation then one rounding to half is exactly the correctly rounded half result for + - * /.
inline __half __hadd(__half a, __half b) { return __float2half_rn(__half2float(a) + __half2float(b)); }
inline __half __hsub(__half a, __half b) { return __float2half_rn(__half2float(a) - __half2float(b)); }
inline __half __hmul(__half a, __half b) { return __float2half_rn(__half2float(a) * __half2float(b)); }
inline __half __hdiv(__half a, __half b) { return __float2half_rn(__half2float(a) / __half2float(b)); }
inline __half __hneg(__half a) { return __half{static_cast<unsigned short>(a.__x ^ 0x8000u)}; }
// Rounded three times (double, float, half): within one ulp of the fused result, not always equal to it.
inline __half __hfma(__half a, __half b, __half c) {
    double product = static_cast<double>(__half2float(a)) * __half2float(b);
    return __float2half_rn(static_cast<float>(product + __half2float(c)));
}
inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline bool operator==(__half a, __half b) { return __half2float(a) == __half2float(b); }
inline bool operator!=(__half a, __half b) { return __half2float(a) != __half2float(b); }
inline bool operator<(__half a, __half b) { return __half2float(a) < __half2float(b); }
inline bool operator<=(__half a, __half b) { return __half2float(a) <= __half2float(b); }
inline bool operator>(__half a, __half b) { return __half2float(a) > __half2float(b); }
inline bool operator>=(__half a, __half b) { return __half2float(a) >= __half2float(b); }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline __half hexp(__half a) { return __float2half_rn(expf(__half2float(a))); }
inline __half hlog(__half a) { return __float2half_rn(logf(__half2float(a))); }
inline __half hsqrt(__half a) { return __float2half_rn(sqrtf(__half2float(a))); }
#endif  // CUDA_EMU_WANT_FP16

// ---- runtime: compiled once, in its own translation unit -----------------------------------------------------------
#if defined(CUDA_EMU_RUNTIME) && !defined(CUDA_EMU_RUNTIME_DONE)
#define CUDA_EMU_RUNTIME_DONE
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <csetjmp>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// The linker defines these around the section that holds every __shared__ variable; absent, they are null.
extern "C" char __start_cuda_emu_shared[] __attribute__((weak, visibility("hidden")));
extern "C" char __stop_cuda_emu_shared[] __attribute__((weak, visibility("hidden")));

namespace cuda_emu {

uint3 thread_idx, block_idx;
dim3 block_dim, grid_dim;
unsigned char* dynamic_shared;

enum Order { FORWARD = 0, REVERSE = 1, SHUFFLE = 2 };
enum State { RUNNABLE, AT_BLOCK_BARRIER, AT_WARP_EXCHANGE, DONE };

struct Fiber {
    ucontext_t context;
    State state;
    unsigned int mask;  // lanes named by the pending warp collective
    uint3 idx;
};

struct Warp {
    unsigned long long slots[2][32];  // double-buffered: a lane can be one exchange ahead of a lane still reading
    unsigned int generation;
};

// One launch at a time per loaded library (emulator.py holds a lock around each call).
struct Launch {
    void (*body)(void**);
    void** args;
    bool fibers;
    int n_threads;
    int current;
    std::vector<Fiber> fiber;
    std::vector<Warp> warps;
    std::vector<int> predicates[2];
    unsigned int block_generation;
    ucontext_t scheduler;
    std::string error;
    unsigned long long rng;
};

static Launch L;
static char* g_stacks;
static size_t g_stack_bytes, g_stack_count;
static const size_t kStackSize = 64 * 1024;
static jmp_buf g_plain_exit;  // where trap() leaves a thread run without a fiber

static size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// splitmix64: the same permutations for a seed on every platform.
static unsigned long long next_random() {
    unsigned long long z = (L.rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_order(std::vector<int>& order, int n, int kind) {
    order.resize(n);
    for (int i = 0; i < n; ++i) order[i] = kind == REVERSE ? n - 1 - i : i;
    if (kind == SHUFFLE)
        for (int i = n - 1; i > 0; --i) {
            int j = static_cast<int>(next_random() % static_cast<unsigned long long>(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
}

static void fail(const char* fmt, ...) {
    if (!L.error.empty()) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    L.error = buf;
}

static void set_thread(int t) {
    L.current = t;
    thread_idx = L.fiber[t].idx;
}

// Called by a fiber: hand control back to the scheduler until it is released.
static void yield_to_scheduler() {
    Fiber& self = L.fiber[L.current];
    swapcontext(&self.context, &L.scheduler);
    set_thread(static_cast<int>(&self - L.fiber.data()));
}

static void require_fibers() {
    if (!L.fibers) {
        trap("a barrier or warp collective in a launch without fibers (emulator.py looks for them in the source)");
    }
}

void trap(const char* why) {
    fail("thread (%u,%u,%u) of block (%u,%u,%u): %s", thread_idx.x, thread_idx.y, thread_idx.z, block_idx.x,
         block_idx.y, block_idx.z, why);
    // The scheduler abandons the block; this thread is never resumed.
    if (L.fibers) swapcontext(&L.fiber[L.current].context, &L.scheduler);
    longjmp(g_plain_exit, 1);
}

void syncthreads(int kind, int* predicate) {
    require_fibers();
    unsigned int gen = L.block_generation & 1u;
    if (predicate) L.predicates[gen][L.current] = *predicate != 0;
    L.fiber[L.current].state = AT_BLOCK_BARRIER;
    yield_to_scheduler();
    if (!predicate) return;
    int count = 0, all = 1, any = 0;
    for (int t = 0; t < L.n_threads; ++t) {
        count += L.predicates[gen][t];
        all &= L.predicates[gen][t];
        any |= L.predicates[gen][t];
    }
    *predicate = kind == 1 ? count : (kind == 2 ? all : any);
}

unsigned int lane_id() { return static_cast<unsigned int>(L.current) & 31u; }

// Lanes of the caller's warp that exist and have not exited (threads between barriers count as converged).
unsigned int active_mask() {
    unsigned int mask = 0;
    int first = L.current & ~31;
    for (int lane = 0; lane < 32 && first + lane < L.n_threads; ++lane)
        if (L.fiber[first + lane].state != DONE) mask |= 1u << lane;
    return mask;
}

unsigned long long* warp_exchange(unsigned int mask, unsigned long long value) {
    require_fibers();
    unsigned int lane = lane_id();
    if (!(mask >> lane & 1u)) trap("warp collective called by a lane that is not in its mask");
    Warp& warp = L.warps[L.current / 32];
    unsigned int gen = warp.generation & 1u;
    warp.slots[gen][lane] = value;
    L.fiber[L.current].mask = mask;
    L.fiber[L.current].state = AT_WARP_EXCHANGE;
    yield_to_scheduler();
    return warp.slots[gen];
}

static void fiber_entry() {
    L.body(L.args);
    L.fiber[L.current].state = DONE;
    // uc_link returns to the scheduler
}

static void ensure_stacks(size_t count) {
    size_t page = page_size();
    size_t per_fiber = kStackSize + page;  // the lowest page of each stack is a guard page
    if (g_stack_count >= count) return;
    if (g_stacks) munmap(g_stacks, g_stack_bytes);
    g_stack_bytes = per_fiber * count;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void* mem = mmap(nullptr, g_stack_bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (mem == MAP_FAILED) {
        g_stacks = nullptr;
        g_stack_count = 0;
        fail("cannot map %zu fiber stacks", count);
        return;
    }
    g_stacks = static_cast<char*>(mem);
    g_stack_count = count;
    for (size_t i = 0; i < count; ++i) mprotect(g_stacks + i * per_fiber, page, PROT_NONE);
}

static void describe_deadlock() {
    std::string at_block, at_warp, done;
    for (int t = 0; t < L.n_threads; ++t) {
        std::string* list = L.fiber[t].state == AT_BLOCK_BARRIER ? &at_block
                            : L.fiber[t].state == AT_WARP_EXCHANGE ? &at_warp
                            : L.fiber[t].state == DONE             ? &done
                                                                   : nullptr;
        if (list && list->size() < 200) *list += " " + std::to_string(t);
    }
    fail("deadlock in block (%u,%u,%u): threads at __syncthreads:%s; at warp collectives:%s; exited:%s", block_idx.x,
         block_idx.y, block_idx.z, at_block.c_str(), at_warp.c_str(), done.c_str());
}

// Releases the warps whose collective is complete and the block barrier when every live thread waits at it.
static bool release_barriers() {
    bool released = false;
    int n_warps = static_cast<int>(L.warps.size());
    for (int w = 0; w < n_warps; ++w) {
        unsigned int named = 0, waiting = 0;
        for (int lane = 0; lane < 32 && w * 32 + lane < L.n_threads; ++lane) {
            const Fiber& f = L.fiber[w * 32 + lane];
            if (f.state == AT_WARP_EXCHANGE) {
                named |= f.mask;
                waiting |= 1u << lane;
            }
        }
        if (!waiting || (named & ~waiting)) {
            for (int lane = 0; lane < 32 && named; ++lane) {
                int t = w * 32 + lane;
                if ((named >> lane & 1u) && (t >= L.n_threads || L.fiber[t].state == DONE)) {
                    fail("warp collective in block (%u,%u,%u) names lane %d of warp %d, which %s", block_idx.x,
                         block_idx.y, block_idx.z, lane, w, t >= L.n_threads ? "does not exist" : "has exited");
                    return false;
                }
            }
            continue;
        }
        Warp& warp = L.warps[w];
        ++warp.generation;
        // Unwritten slots of the next exchange read as NaN / -1.
        memset(warp.slots[warp.generation & 1u], 0xff, sizeof warp.slots[0]);
        for (int lane = 0; lane < 32; ++lane)
            if (waiting >> lane & 1u) L.fiber[w * 32 + lane].state = RUNNABLE;
        released = true;
    }
    int at_barrier = 0, exited = 0;
    for (int t = 0; t < L.n_threads; ++t) {
        at_barrier += L.fiber[t].state == AT_BLOCK_BARRIER;
        exited += L.fiber[t].state == DONE;
    }
    if (at_barrier > 0 && at_barrier + exited == L.n_threads) {
        if (exited > 0) {
            fail("__syncthreads in block (%u,%u,%u) waits for %d threads that have exited", block_idx.x, block_idx.y,
                 block_idx.z, exited);
            return false;
        }
        ++L.block_generation;
        for (int t = 0; t < L.n_threads; ++t) L.fiber[t].state = RUNNABLE;
        released = true;
    }
    return released;
}

static void run_block_with_fibers(int order_kind) {
    size_t page = page_size();
    ensure_stacks(static_cast<size_t>(L.n_threads));
    if (!L.error.empty()) return;
    for (int t = 0; t < L.n_threads; ++t) {
        Fiber& f = L.fiber[t];
        f.state = RUNNABLE;
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = g_stacks + static_cast<size_t>(t) * (kStackSize + page) + page;
        f.context.uc_stack.ss_size = kStackSize;
        f.context.uc_link = &L.scheduler;
        makecontext(&f.context, fiber_entry, 0);
    }
    L.block_generation = 0;
    for (Warp& w : L.warps) {
        w.generation = 0;
        memset(w.slots, 0xff, sizeof w.slots);
    }
    std::vector<int> order;
    int remaining = L.n_threads;
    while (remaining > 0) {
        fill_order(order, L.n_threads, order_kind);
        bool ran = false;
        for (int t : order) {
            if (L.fiber[t].state != RUNNABLE) continue;
            set_thread(t);
            swapcontext(&L.scheduler, &L.fiber[t].context);
            if (!L.error.empty()) return;
            ran = true;
            remaining -= L.fiber[t].state == DONE;
        }
        bool released = release_barriers();
        if (!L.error.empty()) return;
        if (!ran && !released && remaining > 0) {
            describe_deadlock();
            return;
        }
    }
}

static void run_block_plain(int order_kind) {
    std::vector<int> order;
    fill_order(order, L.n_threads, order_kind);
    for (int t : order) {
        set_thread(t);
        if (setjmp(g_plain_exit) != 0) return;
        L.body(L.args);
    }
}

// dims: grid x, y, z, block x, y, z. Returns 0, or 1 with the message in last_error().
int launch(const unsigned int* dims, size_t shared_bytes, int order_kind, unsigned long long seed, int use_fibers,
           void (*body)(void**), void** args) {
    L.error.clear();
    L.body = body;
    L.args = args;
    L.fibers = use_fibers != 0;
    L.rng = seed;
    grid_dim = dim3{dims[0], dims[1], dims[2]};
    block_dim = dim3{dims[3], dims[4], dims[5]};
    L.n_threads = static_cast<int>(dims[3] * dims[4] * dims[5]);
    L.fiber.assign(static_cast<size_t>(L.n_threads), Fiber());
    for (int t = 0; t < L.n_threads; ++t) {
        unsigned int u = static_cast<unsigned int>(t);
        L.fiber[t].idx = uint3{u % dims[3], u / dims[3] % dims[4], u / (dims[3] * dims[4])};
    }
    L.warps.assign(static_cast<size_t>((L.n_threads + 31) / 32), Warp());
    L.predicates[0].assign(static_cast<size_t>(L.n_threads), 0);
    L.predicates[1].assign(static_cast<size_t>(L.n_threads), 0);
    std::vector<unsigned char> dynamic(shared_bytes + 16);
    dynamic_shared = dynamic.data() + (16 - reinterpret_cast<size_t>(dynamic.data()) % 16) % 16;

    int n_blocks = static_cast<int>(dims[0] * dims[1] * dims[2]);
    std::vector<int> block_order;
    fill_order(block_order, n_blocks, order_kind);
    for (int b : block_order) {
        unsigned int u = static_cast<unsigned int>(b);
        block_idx = uint3{u % dims[0], u / dims[0] % dims[1], u / (dims[0] * dims[1])};
        // Poison: reads of shared memory that no thread of this block wrote come back as NaN / -1.
        size_t static_shared = static_cast<size_t>(+__stop_cuda_emu_shared - +__start_cuda_emu_shared);
        if (static_shared > 0) memset(__start_cuda_emu_shared, 0xff, static_shared);
        memset(dynamic_shared, 0xff, shared_bytes);
        if (L.fibers)
            run_block_with_fibers(order_kind);
        else
            run_block_plain(order_kind);
        if (!L.error.empty()) break;
    }
    dynamic_shared = nullptr;
    return L.error.empty() ? 0 : 1;
}

const char* last_error() { return L.error.c_str(); }

}  // namespace cuda_emu
#endif  // CUDA_EMU_RUNTIME
