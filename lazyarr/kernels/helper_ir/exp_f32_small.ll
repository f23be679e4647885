; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v176B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental13exp_f32_smallB2v6B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_exp_f32_small(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.5.i = tail call float @llvm.fmuladd.f32(float %arg.x0, float 0x3FF7154760000000, float 0x4168000000000000)
  %.6.i = fadd float %.5.i, 0xC168000000000000
  %.9.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBFE62E4000000000, float %arg.x0)
  %.10.i = tail call float @llvm.fmuladd.f32(float %.6.i, float 0xBEB7F7D1C0000000, float %.9.i)
  %.12.i = fmul float %.10.i, %.10.i
  %.40.i = tail call float @llvm.fmuladd.f32(float %.10.i, float 0x3F56A24320000000, float 0x3F81239E20000000)
  %.42.i = tail call float @llvm.fmuladd.f32(float %.40.i, float %.10.i, float 0x3FA5558F20000000)
  %.44.i = tail call float @llvm.fmuladd.f32(float %.42.i, float %.10.i, float 0x3FC5554920000000)
  %.51.i = tail call float @llvm.fmuladd.f32(float %.44.i, float %.10.i, float 0x3FDFFFFFC0000000)
  %.52.i = tail call float @llvm.fmuladd.f32(float %.12.i, float %.51.i, float %.10.i)
  %.53.i = fadd float %.52.i, 1.000000e+00
  %.54.i = bitcast float %.5.i to i32
  %.57.i = shl i32 %.54.i, 23
  %.59.i = add i32 %.57.i, 1065353216
  %.60.i = bitcast i32 %.59.i to float
  %.61.i = fmul float %.53.i, %.60.i
  store float %.61.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
