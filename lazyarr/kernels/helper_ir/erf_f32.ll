; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v139B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental13_exp_erfc_f32B4v145B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_erf_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.9 = tail call float @llvm.fabs.f32(float %arg.x0)
  %.72 = fcmp olt float %.9, 4.000000e+00
  %erf_f32_v140__vphi164_0.2.0 = select i1 %.72, float %.9, float 4.000000e+00
  %0 = fneg float %erf_f32_v140__vphi164_0.2.0
  %.154 = fmul float %erf_f32_v140__vphi164_0.2.0, %0
  %.5.i = tail call float @llvm.fmuladd.f32(float %.154, float 0x3FF7154760000000, float 0x4168000000000000)
  %.6.i = fadd float %.5.i, 0xC168000000000000
  %.8.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBFE62E4300000000, float %.154)
  %.10.i = fmul float %.8.i, %.8.i
  %.38.i = tail call float @llvm.fmuladd.f32(float %.8.i, float 0x3F56A24320000000, float 0x3F81239E20000000)
  %.40.i = tail call float @llvm.fmuladd.f32(float %.38.i, float %.8.i, float 0x3FA5558F20000000)
  %.42.i = tail call float @llvm.fmuladd.f32(float %.40.i, float %.8.i, float 0x3FC5554920000000)
  %.49.i = tail call float @llvm.fmuladd.f32(float %.42.i, float %.8.i, float 0x3FDFFFFFC0000000)
  %.50.i = fmul float %.10.i, %.49.i
  %.51.i = fadd float %.8.i, %.50.i
  %.52.i = fadd float %.51.i, 1.000000e+00
  %.53.i = bitcast float %.5.i to i32
  %.56.i = shl i32 %.53.i, 23
  %.58.i = add i32 %.56.i, 1065353216
  %.59.i = bitcast i32 %.58.i to float
  %.60.i = fmul float %.52.i, %.59.i
  %.87 = fadd float %erf_f32_v140__vphi164_0.2.0, -1.500000e+00
  %.130 = tail call float @llvm.fmuladd.f32(float %.87, float 0xBF3EAD6A20000000, float 0x3F60F0B360000000)
  %.132 = tail call float @llvm.fmuladd.f32(float %.130, float %.87, float 0xBF75D03B40000000)
  %.134 = tail call float @llvm.fmuladd.f32(float %.132, float %.87, float 0x3F8B411A60000000)
  %.136 = tail call float @llvm.fmuladd.f32(float %.134, float %.87, float 0xBFA0D77AE0000000)
  %.138 = tail call float @llvm.fmuladd.f32(float %.136, float %.87, float 0x3FB37F5960000000)
  %.140 = tail call float @llvm.fmuladd.f32(float %.138, float %.87, float 0xBFC4F1A220000000)
  %.150 = tail call float @llvm.fmuladd.f32(float %.140, float %.87, float 0x3FD494DA20000000)
  %.15 = fmul float %arg.x0, %arg.x0
  %.48 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBF43A17E00000000, float 0x3F7473BAA0000000)
  %.50 = tail call float @llvm.fmuladd.f32(float %.48, float %.15, float 0xBF9B68B540000000)
  %.52 = tail call float @llvm.fmuladd.f32(float %.50, float %.15, float 0x3FBCE1A6A0000000)
  %.54 = tail call float @llvm.fmuladd.f32(float %.52, float %.15, float 0xBFD8126E60000000)
  %.62 = tail call float @llvm.fmuladd.f32(float %.54, float %.15, float 0x3FC06EBA60000000)
  %.64 = fmul float %.9, %.62
  %.66 = fadd float %.9, %.64
  %.181 = fmul float %.150, %.60.i
  %.182 = fsub float 1.000000e+00, %.181
  %.188 = fcmp ogt float %.9, 9.218750e-01
  %erf_f32_v140__vphi402_2.2.0 = select i1 %.188, float %.182, float %.66
  %.214 = tail call float @llvm.copysign.f32(float %erf_f32_v140__vphi402_2.2.0, float %arg.x0)
  store float %.214, ptr %retptr, align 4
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
