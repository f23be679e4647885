"""Numba helpers that generated CPU kernels import: bit casts, float16 conversion, and NaN-propagating max/min.

Numba has no float16 arithmetic on CPU, so float16 buffers are passed as uint16 bit patterns, widened to float32 on
load and rounded back (round-half-to-even, like NumPy) on every op and store. This module imports numba.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from lazyarr.kernels import numpy_blas

numpy_blas.register()  # before any kernel that calls NumPy's gemm is linked (a cached one included)

_BITS_FOR = {types.float32: types.uint32, types.float64: types.uint64, types.int32: types.float32,
             types.int64: types.float64, types.uint32: types.float32, types.uint64: types.float64}


@intrinsic
def bitcast(typingctx, value, to):  # type: ignore[no-untyped-def]
    """Reinterpret the bits of `value` as dtype `to` (same width), e.g. ``bitcast(x, np.uint32)``."""
    target = to.instance_type if isinstance(to, types.NumberClass) else to.dtype

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], context.get_value_type(target))

    return target(value, to), codegen


def _float_intrinsic(name: str, flags: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """A two-argument float intrinsic emitting LLVM `name` (an instruction or an llvm.* intrinsic call)."""

    def typer(typingctx, a, b):  # type: ignore[no-untyped-def]
        if not isinstance(a, types.Float) or a != b:
            return None

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            if name == "fadd":
                return builder.fadd(args[0], args[1], flags=flags)
            t = args[0].type
            fn = builder.module.declare_intrinsic(name, [t], ir.FunctionType(t, [t, t]))
            return builder.call(fn, args, fastmath=flags)

        return a(a, b), codegen

    return intrinsic(typer)


@intrinsic(prefer_literal=True)
def stack_empty(typingctx, count, dtype):  # type: ignore[no-untyped-def]
    """An uninitialised 1-D array of `count` (a literal int) elements of `dtype` on the kernel's stack, for scratch
    space: unlike np.empty it calls no Numba runtime function, so the kernel stays loadable natively (native.py)."""
    if not isinstance(count, types.IntegerLiteral):
        return None
    n = count.literal_value
    dt = dtype.instance_type if isinstance(dtype, types.NumberClass) else dtype.dtype
    array_type = types.Array(dt, 1, "C")

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        item = context.get_data_type(dt)
        with builder.goto_entry_block():
            data = builder.alloca(item, size=ir.Constant(ir.IntType(64), n))
            data.align = 64
        ary = context.make_array(array_type)(context, builder)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
        context.populate_array(ary, data=data, shape=[context.get_constant(types.intp, n)], strides=[itemsize],
                               itemsize=itemsize, meminfo=None)
        return ary._getvalue()

    return array_type(count, dtype), codegen


@intrinsic
def _prefetch(typingctx, buf, index):  # type: ignore[no-untyped-def]
    """Hint the CPU to bring buf[index] into cache (llvm.prefetch: read, high locality); `index` must be in bounds."""
    if not isinstance(buf, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        address = builder.bitcast(builder.gep(ary.data, [args[1]]), i8p)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [address, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(buf, index), codegen


# reduction accumulators: fmaximum/fminimum propagate NaN and order -0 < +0, so they are associative and LLVM may
# vectorise a max/min reduction loop without changing its result
fmaximum = _float_intrinsic("llvm.maximum")
fminimum = _float_intrinsic("llvm.minimum")
_add_reassoc = _float_intrinsic("fadd", ("reassoc",))
# max/min for a reduction's fast first pass: maxnum/minnum with the nnan and nsz flags lower to one vmaxps/vminps
# (llvm.maximum takes six instructions on x86), but a NaN operand gives an undefined value and ±0 an arbitrary sign.
# Kernels use them only where a NaN operand or a zero result sends the reduction through fmaximum/fminimum again
# (render_numba.minmax_loop), so results are those of fmaximum/fminimum.
fmax_fast = _float_intrinsic("llvm.maxnum", ("nnan", "nsz"))
fmin_fast = _float_intrinsic("llvm.minnum", ("nnan", "nsz"))

# elements per block of a blocked float sum (see block_sum)
REDUCE_BLOCK = 128
# a blocked row loop prefetches the next row's loads, one per cache line, when the row has at most this many elements
# (a longer row is a long stream the hardware prefetcher follows; its next row would not stay in cache until used)
PREFETCH_ROW_MAX = 8192
# ... and the loop over rows covers at least this many elements (fewer stay in the core's caches)
PREFETCH_MIN = 1 << 17
# iterations a `lanes` loop runs side by side (render_numba.lane_loop): per-lane values take LANES elements each
LANES = 1024

_OPTS = {"nogil": True, "cache": True, "error_model": "numpy"}


# Sum of buf[start:start + REDUCE_BLOCK] as one vectorised tree. The adds may be reassociated, so LLVM vectorises the
# loop; the order it picks is fixed by this loop alone (a constant trip count, the same code in every kernel), so every
# kernel that sums a block gets the same result, whether the block is a kernel's scratch array or a row of one of its
# buffers (both C-contiguous 1-D arrays: one compiled specialisation). Short blocks are copied to scratch and padded
# with -0.0, which leaves any sum unchanged.
@njit(**_OPTS)
def block_sum_f32(buf, start):  # type: ignore[no-untyped-def]
    """Sum of the float32 block buf[start:start + REDUCE_BLOCK] (a fixed vectorised order)."""
    s = np.float32(-0.0)
    for i in range(REDUCE_BLOCK):
        s = _add_reassoc(s, buf[np.uint64(start + i)])
    return s


@njit(**_OPTS)
def block_sum_f64(buf, start):  # type: ignore[no-untyped-def]
    """Sum of the float64 block buf[start:start + REDUCE_BLOCK] (a fixed vectorised order)."""
    s = np.float64(-0.0)
    for i in range(REDUCE_BLOCK):
        s = _add_reassoc(s, buf[np.uint64(start + i)])
    return s


@njit(**_OPTS)
def short_sum(buf, start, m):  # type: ignore[no-untyped-def]
    """Sum of buf[start:start + m] (m >= 0; kernels call it for blocks shorter than `render_numba.SHORT_BLOCK`, in
    scratch or where they lie), in buf's float type and a fixed order: element start + i is added to running sum i % 8
    (each starts at -0.0), then ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7))."""
    z = buf.dtype.type(-0.0)
    s0, s1, s2, s3, s4, s5, s6, s7 = z, z, z, z, z, z, z, z
    i = 0
    while i + 8 <= m:
        s0 += buf[np.uint64(start + i)]
        s1 += buf[np.uint64(start + i + 1)]
        s2 += buf[np.uint64(start + i + 2)]
        s3 += buf[np.uint64(start + i + 3)]
        s4 += buf[np.uint64(start + i + 4)]
        s5 += buf[np.uint64(start + i + 5)]
        s6 += buf[np.uint64(start + i + 6)]
        s7 += buf[np.uint64(start + i + 7)]
        i += 8
    if i < m:
        s0 += buf[np.uint64(start + i)]
    if i + 1 < m:
        s1 += buf[np.uint64(start + i + 1)]
    if i + 2 < m:
        s2 += buf[np.uint64(start + i + 2)]
    if i + 3 < m:
        s3 += buf[np.uint64(start + i + 3)]
    if i + 4 < m:
        s4 += buf[np.uint64(start + i + 4)]
    if i + 5 < m:
        s5 += buf[np.uint64(start + i + 5)]
    if i + 6 < m:
        s6 += buf[np.uint64(start + i + 6)]
    return ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7))


@njit(**_OPTS)
def prefetch(buf, index):  # type: ignore[no-untyped-def]
    """Prefetch buf[index] when `index` (any int) is inside buf; a position outside it is ignored."""
    if 0 <= index < buf.size:
        _prefetch(buf, np.uint64(index))


@njit(**_OPTS)
def c_block(rows, cols, row_stride, col_stride):  # type: ignore[no-untyped-def]
    """Whether the strided matrix (rows, cols, row_stride, col_stride) is one C-ordered block of its buffer."""
    return (col_stride == 1 or cols == 1) and (row_stride == cols or rows == 1)


@njit(**_OPTS)
def out_block(buf, offset, rows, cols, row_stride, col_stride):  # type: ignore[no-untyped-def]
    """The matrix buf[offset + r*row_stride + c*col_stride] as a C-ordered array to write into: a view when it is
    one block of buf, else uninitialised scratch."""
    if c_block(rows, cols, row_stride, col_stride):
        return buf[offset:offset + rows * cols].reshape((rows, cols))
    return np.empty((rows, cols), buf.dtype)


@njit(**_OPTS)
def mat_c(buf, offset, rows, cols, row_stride, col_stride):  # type: ignore[no-untyped-def]
    """The strided matrix buf[offset + r*row_stride + c*col_stride] as a C-ordered 2-D array: a view when it is one
    (row_stride == cols, col_stride == 1), else a copy. BLAS always gets C-ordered operands: its summation order may
    depend on their layout, and a kernel's result must not depend on how its operands happen to be stored."""
    if c_block(rows, cols, row_stride, col_stride):
        return buf[offset:offset + rows * cols].reshape((rows, cols))
    if col_stride == 1:  # rows of the buffer: copied one after another
        out = np.empty((rows, cols), buf.dtype)
        for r in range(rows):
            start = offset + r * row_stride
            out[r, :] = buf[start:start + cols]
        return out
    # any other layout (a transposed block, say) in 8 x 8 tiles of constant trip counts, which LLVM unrolls: the
    # buffer's cache lines a tile reads stay in cache until it has used them all (256 x 256 float32 transposed, one
    # thread: 24 us, against 80-90 for an element-by-element loop or NumPy's ascontiguousarray)
    flat = np.empty(rows * cols, buf.dtype)
    full_r, full_c = rows - rows % 8, cols - cols % 8
    for r0 in range(0, full_r, 8):
        for c0 in range(0, full_c, 8):
            for i in range(8):
                o = (r0 + i) * cols + c0
                src = offset + (r0 + i) * row_stride + c0 * col_stride
                for j in range(8):
                    flat[np.uint64(o + j)] = buf[np.uint64(src + j * col_stride)]
    for r in range(rows):  # the edges: the last columns of the tiled rows, then whole rows below them
        for c in range(full_c if r < full_r else 0, cols):
            flat[np.uint64(r * cols + c)] = buf[np.uint64(offset + r * row_stride + c * col_stride)]
    return flat.reshape((rows, cols))


@intrinsic
def _numpy_gemm(typingctx, a, b, out):  # type: ignore[no-untyped-def]
    """cblas_?gemm of NumPy's BLAS (numpy_blas.SYMBOLS, 64-bit integers): out = a @ b for C-ordered 2-D float32 or
    float64 arrays with a.shape[1] == b.shape[0] >= 1 and b.shape[1] >= 1 (`numpy_gemm` checks)."""
    if not all(isinstance(x, types.Array) and x.ndim == 2 and x.layout == "C" for x in (a, b, out)):
        return None
    if a.dtype not in (types.float32, types.float64) or not a.dtype == b.dtype == out.dtype:
        return None
    symbol = "lazyarr_numpy_sgemm_i64" if a.dtype == types.float32 else "lazyarr_numpy_dgemm_i64"

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i32, i64 = ir.IntType(32), ir.IntType(64)
        real = context.get_value_type(signature.args[0].dtype)
        ptr = real.as_pointer()
        arrays = [context.make_array(t)(context, builder, v) for t, v in zip(signature.args, args)]
        rows, inner = cgutils.unpack_tuple(builder, arrays[0].shape, 2)
        cols = cgutils.unpack_tuple(builder, arrays[1].shape, 2)[1]
        fnty = ir.FunctionType(ir.VoidType(), [i32, i32, i32, i64, i64, i64, real, ptr, i64, ptr, i64, real, ptr, i64])
        fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
        row_major, no_trans = ir.Constant(i32, 101), ir.Constant(i32, 111)  # CblasRowMajor, CblasNoTrans
        data = [builder.bitcast(x.data, ptr) for x in arrays]
        builder.call(fn, [row_major, no_trans, no_trans, rows, cols, inner, ir.Constant(real, 1.0), data[0], inner,
                          data[1], cols, ir.Constant(real, 0.0), data[2], cols])
        return context.get_dummy_value()

    return types.none(a, b, out), codegen


@njit(**_OPTS)
def numpy_gemm(a, b, out):  # type: ignore[no-untyped-def]
    """out = a @ b through NumPy's BLAS, for C-ordered float32/float64 matrices (out (m, n), a (m, k), b (k, n));
    the same bits as `numpy.matmul` when m, n > 1 (NumPy calls gemv otherwise). Kernels call it only when
    `numpy_blas.available()`."""
    if out.shape[0] == 0 or out.shape[1] == 0:
        return
    if a.shape[1] == 0:  # an empty sum; BLAS wants leading dimensions >= 1
        out[:, :] = 0
        return
    _numpy_gemm(a, b, out)


def _host_has_f16c() -> bool:
    try:
        return bool(llvm.get_host_cpu_features().get("f16c", False))
    except RuntimeError:  # llvmlite cannot read this host's features: the portable conversions
        return False


# the host converts between float16 and float32 in hardware (x86 F16C: vcvtph2ps, vcvtps2ph, 8-16 lanes at once);
# read when a kernel is compiled, and Numba's cache of compiled kernels is kept per host CPU
F16C = _host_has_f16c()


@intrinsic
def _f16_to_f32_hw(typingctx, h):  # type: ignore[no-untyped-def]
    """The float32 value of float16 bits `h` (a uint16) by LLVM's `fpext half to float` (vcvtph2ps with F16C), with
    a signalling NaN left unquieted (the hardware sets its quiet bit; NumPy keeps the payload as it is). In 32-bit
    integer IR: in Numba, arithmetic on uint32 widens to 64 bits, which costs a vector loop its width."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i32 = ir.IntType(32)
        value = builder.fpext(builder.bitcast(args[0], ir.HalfType()), ir.FloatType())
        bits, h32 = builder.bitcast(value, i32), builder.zext(args[0], i32)
        signalling = builder.and_(builder.icmp_unsigned("==", builder.and_(h32, i32(0x7E00)), i32(0x7C00)),
                                  builder.icmp_unsigned("!=", builder.and_(h32, i32(0x1FF)), i32(0)))
        bits = builder.select(signalling, builder.and_(bits, i32(~0x400000 & 0xFFFFFFFF)), bits)
        return builder.bitcast(bits, ir.FloatType())

    return types.float32(types.uint16), codegen


@intrinsic
def _f32_to_f16_hw(typingctx, f):  # type: ignore[no-untyped-def]
    """The float16 bits nearest to float32 `f` by LLVM's `fptrunc float to half` (vcvtps2ph with F16C; round half to
    even), with a signalling NaN kept signalling as NumPy keeps it: its payload's top bits, or 1 when they are 0."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i16, i32 = ir.IntType(16), ir.IntType(32)
        h = builder.bitcast(builder.fptrunc(args[0], ir.HalfType()), i16)
        x = builder.bitcast(args[0], i32)
        signalling = builder.and_(builder.icmp_unsigned("==", builder.and_(x, i32(0x7FC00000)), i32(0x7F800000)),
                                  builder.icmp_unsigned("!=", builder.and_(x, i32(0x3FFFFF)), i32(0)))
        top = builder.icmp_unsigned("==", builder.and_(x, i32(0x3FE000)), i32(0))  # payload bits float16 keeps
        fixed = builder.or_(builder.and_(h, i16(~0x200 & 0xFFFF)), builder.zext(top, i16))
        return builder.select(signalling, fixed, h)

    return types.uint16(types.float32), codegen


@njit(**_OPTS)
def f16_bits_to_f32(h):  # type: ignore[no-untyped-def]
    """The float32 value of a float16 bit pattern (exact; a NaN keeps its payload unquieted, as NumPy's cast)."""
    if not F16C:
        return f16_bits_to_f32_portable(h)
    return _f16_to_f32_hw(np.uint16(h))


@njit(**_OPTS)
def f32_to_f16_bits(f):  # type: ignore[no-untyped-def]
    """The float16 bit pattern nearest to float32 `f` (round half to even; overflow to inf; a NaN keeps the top of its
    payload, unquieted, and stays NaN, as NumPy's cast)."""
    if not F16C:
        return f32_to_f16_bits_portable(f)
    return _f32_to_f16_hw(np.float32(f))


@njit(**_OPTS)
def f16_bits_to_f32_portable(h):  # type: ignore[no-untyped-def]
    """`f16_bits_to_f32` in integer arithmetic, for hosts without F16C."""
    h = np.uint32(h)
    sign = (h >> np.uint32(15)) & np.uint32(1)
    exp = (h >> np.uint32(10)) & np.uint32(0x1F)
    man = h & np.uint32(0x3FF)
    if exp == 0x1F:
        bits = (sign << np.uint32(31)) | np.uint32(0x7F800000) | (man << np.uint32(13))
        return bitcast(np.uint32(bits), np.float32)
    if exp == 0:
        mag = np.float32(man) * np.float32(5.9604644775390625e-08)  # man * 2**-24, exact
        return -mag if sign else mag
    bits = (sign << np.uint32(31)) | ((exp + np.uint32(112)) << np.uint32(23)) | (man << np.uint32(13))
    return bitcast(np.uint32(bits), np.float32)


@njit(**_OPTS)
def f32_to_f16_bits_portable(f):  # type: ignore[no-untyped-def]
    """`f32_to_f16_bits` in integer arithmetic, for hosts without F16C."""
    x = bitcast(np.float32(f), np.uint32)
    sign = (x >> np.uint32(16)) & np.uint32(0x8000)
    exp = np.int32((x >> np.uint32(23)) & np.uint32(0xFF))
    man = x & np.uint32(0x7FFFFF)
    if exp == 0xFF:
        return np.uint16(sign | np.uint32(0x7C00) | (max(man >> np.uint32(13), np.uint32(1)) if man else np.uint32(0)))
    e = exp - 127 + 15
    if e >= 0x1F:
        return np.uint16(sign | np.uint32(0x7C00))
    if e <= 0:
        if e < -10:
            return np.uint16(sign)
        man = man | np.uint32(0x800000)
        shift = np.uint32(14 - e)
        half = np.uint32(1) << (shift - np.uint32(1))
        rest = man & ((np.uint32(1) << shift) - np.uint32(1))
        out = man >> shift
        if rest > half or (rest == half and (out & np.uint32(1))):
            out += np.uint32(1)
        return np.uint16(sign | out)
    out = (np.uint32(e) << np.uint32(10)) | (man >> np.uint32(13))
    rest = man & np.uint32(0x1FFF)
    if rest > np.uint32(0x1000) or (rest == np.uint32(0x1000) and (out & np.uint32(1))):
        out += np.uint32(1)  # may carry into the exponent, which rounds up to the next power of two or inf
    return np.uint16(sign | out)


@njit(**_OPTS)
def f64_to_f32_odd(d):  # type: ignore[no-untyped-def]
    """float64 `d` as float32 rounded to odd (an inexact result is the neighbour of `d` with an odd last bit): rounded
    on to float16 (`round_f16`), it gives float16(d) rounded once, where float32(d) rounded to nearest could round
    twice (float32 keeps 24 bits, more than float16's 11 + 2). A signalling NaN stays signalling, with the top of its
    payload (1 when that is 0), so float16 gets NumPy's cast's bits (the hardware's float32(d) quiets it)."""
    if d != d:
        x64 = bitcast(np.float64(d), np.uint64)
        if not (x64 & np.uint64(1 << 51)):
            payload = max((x64 >> np.uint64(29)) & np.uint64(0x3FFFFF), np.uint64(1))
            bits = ((x64 >> np.uint64(32)) & np.uint64(0x80000000)) | np.uint64(0x7F800000) | payload
            return bitcast(np.uint32(bits), np.float32)
    f = np.float32(d)
    if np.float64(f) != d and d == d:
        x = bitcast(f, np.uint32)
        if not (x & np.uint32(1)):  # the other neighbour, one unit of the magnitude toward d (inf: float32's max)
            x = np.uint32(x - np.uint32(1) if abs(np.float64(f)) > abs(d) else x + np.uint32(1))
        f = bitcast(x, np.float32)
    return f


@njit(**_OPTS)
def f16_to_f64(f):  # type: ignore[no-untyped-def]
    """float64 of float32 `f` holding a float16 value, a signalling NaN kept signalling as NumPy's float16 -> float64
    cast keeps it (its bits, shifted; the hardware's float32 -> float64 conversion sets the quiet bit, as NumPy's
    float32 -> float64 cast does, so only a float16 source takes this)."""
    d = np.float64(f)
    x = bitcast(np.float32(f), np.uint32)
    signalling = (x & np.uint32(0x7FC00000)) == np.uint32(0x7F800000) and (x & np.uint32(0x3FFFFF)) != np.uint32(0)
    quiet_bit = np.uint64(1 << 51) if signalling else np.uint64(0)
    return bitcast(bitcast(d, np.uint64) & ~quiet_bit, np.float64)


@njit(**_OPTS)
def round_f16(f):  # type: ignore[no-untyped-def]
    """float32 `f` rounded to the nearest float16 value (kept as float32)."""
    return f16_bits_to_f32(f32_to_f16_bits(f))


@intrinsic
def select(typingctx, cond, a, b):  # type: ignore[no-untyped-def]
    """`a if cond else b` as one LLVM select of two values already computed: no branch, so a kernel's Numba IR keeps
    one block where it had three (Numba's compile time grows faster than linearly in blocks). a and b are unified
    (a literal with a variable of its type)."""
    out = a if a == b else typingctx.unify_pairs(a, b)
    if out is None:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        c = context.cast(builder, args[0], signature.args[0], types.boolean)
        x = context.cast(builder, args[1], signature.args[1], signature.return_type)
        y = context.cast(builder, args[2], signature.args[2], signature.return_type)
        return builder.select(c, x, y)

    return out(cond, a, b), codegen


@njit(**_OPTS)
def idiv(a, b):  # type: ignore[no-untyped-def]
    """Integer floor division a // b, where x // -1 is -x (wrapping for the minimum: Numba's own gives 0 there)."""
    return -a if b == -1 else a // b


@njit(**_OPTS)
def fmax(a, b):  # type: ignore[no-untyped-def]
    """max that propagates NaN (np.maximum)."""
    return a if (a > b or a != a) else b


@njit(**_OPTS)
def fmin(a, b):  # type: ignore[no-untyped-def]
    """min that propagates NaN (np.minimum)."""
    return a if (a < b or a != a) else b


@njit(**_OPTS)
def shl(a, b, bits):  # type: ignore[no-untyped-def]
    """a << b with NumPy's result for shifts of `bits` or more (0) and negative shifts (0)."""
    return a << b if 0 <= b < bits else a ^ a


@njit(**_OPTS)
def shr(a, b, bits):  # type: ignore[no-untyped-def]
    """a >> b (arithmetic for signed a) with NumPy's result for over-wide shifts (0 or -1)."""
    if 0 <= b < bits:
        return a >> b
    zero = a ^ a  # a's own type: mixing uint64 with an int literal would give float64 in Numba
    return ~zero if a < zero else zero


@njit(**_OPTS)
def ipow(a, b, one):  # type: ignore[no-untyped-def]
    """Integer power by squaring, wrapping like NumPy (b < 0 gives 0, except for a of 1 or -1). `one` is 1 in a's
    dtype: an int literal would turn uint64 arithmetic into float64 in Numba."""
    if b < 0:
        if a == one:
            return a
        if a == -one:
            return a if b & 1 else -a
        return a ^ a
    result = one
    base = a
    while b:
        if b & 1:
            result *= base
        base *= base
        b >>= 1
    return result
