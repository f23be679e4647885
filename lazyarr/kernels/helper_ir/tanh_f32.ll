; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v105B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8tanh_f32B4v106B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7exp_f32B3v10B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB3v11B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_ldexp_f32B3v13B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfi = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_tanh_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.8.i = tail call float @llvm.fabs.f32(float %arg.x0)
  %.9.i = fmul float %arg.x0, %arg.x0
  %.10.i = fmul float %.8.i, %.9.i
  %.38.i = tail call float @llvm.fmuladd.f32(float %.9.i, float 0xBF795001C0000000, float 0x3F9582FB00000000)
  %.40.i = tail call float @llvm.fmuladd.f32(float %.38.i, float %.9.i, float 0xBFAB909460000000)
  %.42.i = tail call float @llvm.fmuladd.f32(float %.40.i, float %.9.i, float 0x3FC110C720000000)
  %.49.i = tail call float @llvm.fmuladd.f32(float %.42.i, float %.9.i, float 0xBFD5555480000000)
  %.50.i = fmul float %.10.i, %.49.i
  %.51.i = fadd float %.8.i, %.50.i
  %.42.i.i = fcmp ogt float %.8.i, 1.000000e+01
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, float 1.000000e+01, float %.8.i
  %.88.i = fmul float %"$phi42.0.2.0.i.i", 2.000000e+00
  %.42.i.i.i = fcmp ogt float %.88.i, 8.900000e+01
  %"$phi42.0.2.0.i.i.i" = select i1 %.42.i.i.i, float 8.900000e+01, float %.88.i
  %.34.i.i = tail call float @llvm.fmuladd.f32(float %"$phi42.0.2.0.i.i.i", float 0x3FF7154760000000, float 0x4168000000000000)
  %.35.i.i = fadd float %.34.i.i, 0xC168000000000000
  %.38.i.i = tail call float @llvm.fmuladd.f32(float %.35.i.i, float 0xBFE62E4000000000, float %"$phi42.0.2.0.i.i.i")
  %.39.i.i = tail call float @llvm.fmuladd.f32(float %.35.i.i, float 0xBEB7F7D1C0000000, float %.38.i.i)
  %.41.i.i = fmul float %.39.i.i, %.39.i.i
  %.69.i.i = tail call float @llvm.fmuladd.f32(float %.39.i.i, float 0x3F56A24320000000, float 0x3F81239E20000000)
  %.71.i.i = tail call float @llvm.fmuladd.f32(float %.69.i.i, float %.39.i.i, float 0x3FA5558F20000000)
  %.73.i.i = tail call float @llvm.fmuladd.f32(float %.71.i.i, float %.39.i.i, float 0x3FC5554920000000)
  %.80.i.i = tail call float @llvm.fmuladd.f32(float %.73.i.i, float %.39.i.i, float 0x3FDFFFFFC0000000)
  %.81.i.i = tail call float @llvm.fmuladd.f32(float %.41.i.i, float %.80.i.i, float %.39.i.i)
  %.82.i.i = fadd float %.81.i.i, 1.000000e+00
  %.84.i.i = bitcast float %.34.i.i to i32
  %.86.i.i = add i32 %.84.i.i, -1262485504
  %.7.i.i.i = ashr i32 %.86.i.i, 1
  %.8.i.i.i = sub i32 %.84.i.i, %.7.i.i.i
  %.10.i.i.i = shl i32 %.7.i.i.i, 23
  %.12.i.i.i = add i32 %.10.i.i.i, 1065353216
  %.13.i.i.i = bitcast i32 %.12.i.i.i to float
  %.14.i.i.i = fmul float %.82.i.i, %.13.i.i.i
  %.16.i.i.i = shl i32 %.8.i.i.i, 23
  %.18.i.i.i = add i32 %.16.i.i.i, 1065353216
  %.19.i.i.i = bitcast i32 %.18.i.i.i to float
  %.20.i.i.i = fmul float %.14.i.i.i, %.19.i.i.i
  %.114.i = fadd float %.20.i.i.i, 1.000000e+00
  %.118.i = fdiv float 2.000000e+00, %.114.i
  %.119.i = fsub float 1.000000e+00, %.118.i
  %.124.i = fcmp olt float %.8.i, 5.625000e-01
  %"$phi410.2.2.0.i" = select i1 %.124.i, float %.51.i, float %.119.i
  %.148.i = tail call float @llvm.copysign.f32(float %"$phi410.2.2.0.i", float %arg.x0)
  store float %.148.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fabs.f32(float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.copysign.f32(float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
