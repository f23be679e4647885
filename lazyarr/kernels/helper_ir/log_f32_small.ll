; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v177B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental13log_f32_smallB3v17B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_log_f32_small(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.5.i = bitcast float %arg.x0 to i32
  %.7.i = add i32 %.5.i, -1060439283
  %.9.i = ashr i32 %.7.i, 23
  %.10.i = sitofp i32 %.9.i to float
  %.12.i = and i32 %.7.i, 8388607
  %.14.i = add nuw nsw i32 %.12.i, 1060439283
  %.15.i = bitcast i32 %.14.i to float
  %.17.i = fadd float %.15.i, -1.000000e+00
  %.18.i = tail call float @llvm.fmuladd.f32(float %.10.i, float 0x3FE62E4000000000, float %.17.i)
  %.19.i = fmul float %.17.i, %.17.i
  %.67.i = tail call float @llvm.fmuladd.f32(float %.17.i, float 0xBFB3830220000000, float 0x3FC0848660000000)
  %.69.i = tail call float @llvm.fmuladd.f32(float %.67.i, float %.17.i, float 0xBFC0F37660000000)
  %.71.i = tail call float @llvm.fmuladd.f32(float %.69.i, float %.17.i, float 0x3FC22719C0000000)
  %.73.i = tail call float @llvm.fmuladd.f32(float %.71.i, float %.17.i, float 0xBFC54276E0000000)
  %.75.i = tail call float @llvm.fmuladd.f32(float %.73.i, float %.17.i, float 0x3FC99A3F20000000)
  %.77.i = tail call float @llvm.fmuladd.f32(float %.75.i, float %.17.i, float 0xBFD0004260000000)
  %.79.i = tail call float @llvm.fmuladd.f32(float %.77.i, float %.17.i, float 0x3FD5555500000000)
  %.90.i = tail call float @llvm.fmuladd.f32(float %.79.i, float %.17.i, float 0xBFDFFFFF80000000)
  %.91.i = fmul float %.19.i, %.90.i
  %.92.i = fmul float %.10.i, 0x3EB7F7D1C0000000
  %.93.i = fadd float %.92.i, %.91.i
  %.94.i = fadd float %.18.i, %.93.i
  store float %.94.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
