; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v139B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB2v3B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental13exp_f32_smallB4v145B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_erf_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.9 = tail call float @llvm.fabs.f32(float %arg.x0)
  %.10 = fmul float %arg.x0, %arg.x0
  %.48 = tail call float @llvm.fmuladd.f32(float %.10, float 0x3F15F11440000000, float 0xBF4AAE9860000000)
  %.50 = tail call float @llvm.fmuladd.f32(float %.48, float %.10, float 0x3F754DAD80000000)
  %.52 = tail call float @llvm.fmuladd.f32(float %.50, float %.10, float 0xBF9B8107C0000000)
  %.54 = tail call float @llvm.fmuladd.f32(float %.52, float %.10, float 0x3FBCE2E200000000)
  %.56 = tail call float @llvm.fmuladd.f32(float %.54, float %.10, float 0xBFD8127440000000)
  %.65 = tail call float @llvm.fmuladd.f32(float %.56, float %.10, float 0x3FC06EBA80000000)
  %.66 = fmul float %.9, %.65
  %.67 = fadd float %.9, %.66
  %.15.i = fcmp olt float %.9, 9.218750e-01
  %"$phi22.0.2.0.i" = select i1 %.15.i, float 9.218750e-01, float %.9
  %.42.i = fcmp ogt float %"$phi22.0.2.0.i", 4.000000e+00
  %"$phi42.0.2.0.i" = select i1 %.42.i, float 4.000000e+00, float %"$phi22.0.2.0.i"
  %0 = fneg float %"$phi42.0.2.0.i"
  %.176 = fmul float %"$phi42.0.2.0.i", %0
  %.5.i = tail call float @llvm.fmuladd.f32(float %.176, float 0x3FF7154760000000, float 0x4168000000000000)
  %.6.i = fadd float %.5.i, 0xC168000000000000
  %.9.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBFE62E4000000000, float %.176)
  %.10.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBEB7F7D1C0000000, float %.9.i)
  %.12.i = fmul float %.10.i, %.10.i
  %.40.i = tail call float @llvm.fmuladd.f32(float %.10.i, float 0x3F56A24320000000, float 0x3F81239E20000000)
  %.42.i1 = tail call float @llvm.fmuladd.f32(float %.40.i, float %.10.i, float 0x3FA5558F20000000)
  %.44.i = tail call float @llvm.fmuladd.f32(float %.42.i1, float %.10.i, float 0x3FC5554920000000)
  %.51.i = tail call float @llvm.fmuladd.f32(float %.44.i, float %.10.i, float 0x3FDFFFFFC0000000)
  %.52.i = fmul float %.12.i, %.51.i
  %.53.i = fadd float %.10.i, %.52.i
  %.54.i = fadd float %.53.i, 1.000000e+00
  %.55.i = bitcast float %.5.i to i32
  %.58.i = shl i32 %.55.i, 23
  %.60.i = add i32 %.58.i, 1065353216
  %.61.i = bitcast i32 %.60.i to float
  %.62.i = fmul float %.54.i, %.61.i
  %.101 = fadd float %"$phi42.0.2.0.i", -1.500000e+00
  %.149 = tail call float @llvm.fmuladd.f32(float %.101, float 0x3F210D90E0000000, float 0xBF46A32D80000000)
  %.151 = tail call float @llvm.fmuladd.f32(float %.149, float %.101, float 0x3F603F1F40000000)
  %.153 = tail call float @llvm.fmuladd.f32(float %.151, float %.101, float 0xBF75126820000000)
  %.155 = tail call float @llvm.fmuladd.f32(float %.153, float %.101, float 0x3F8B554640000000)
  %.157 = tail call float @llvm.fmuladd.f32(float %.155, float %.101, float 0xBFA0DC8760000000)
  %.159 = tail call float @llvm.fmuladd.f32(float %.157, float %.101, float 0x3FB37ED360000000)
  %.161 = tail call float @llvm.fmuladd.f32(float %.159, float %.101, float 0xBFC4F19680000000)
  %.172 = tail call float @llvm.fmuladd.f32(float %.161, float %.101, float 0x3FD494DAE0000000)
  %.201 = fmul float %.172, %.62.i
  %.202 = fsub float 1.000000e+00, %.201
  %.207 = fcmp ole float %.9, 9.218750e-01
  %erf_f32_v140__vphi426_2.2.0 = select i1 %.207, float %.67, float %.202
  %.231 = tail call float @llvm.copysign.f32(float %erf_f32_v140__vphi426_2.2.0, float %arg.x0)
  store float %.231, ptr %retptr, align 4
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
