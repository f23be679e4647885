; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB2v3B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8exp2_f32B2v4B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB3v11B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_ldexp_f32B3v13B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfi = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_exp2_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.15.i.i = fcmp olt float %arg.x0, -1.510000e+02
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i, float -1.510000e+02, float %arg.x0
  %.42.i.i = fcmp ogt float %"$phi22.0.2.0.i.i", 1.290000e+02
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, float 1.290000e+02, float %"$phi22.0.2.0.i.i"
  %.34.i = fadd float %"$phi42.0.2.0.i.i", 0x4168000000000000
  %.35.i = fadd float %.34.i, 0xC168000000000000
  %.36.i = fsub float %"$phi42.0.2.0.i.i", %.35.i
  %.71.i = tail call float @llvm.fmuladd.f32(float %.36.i, float 0x3F241FBA00000000, float 0x3F55F3E800000000)
  %.73.i = tail call float @llvm.fmuladd.f32(float %.71.i, float %.36.i, float 0x3F83B2D4E0000000)
  %.75.i = tail call float @llvm.fmuladd.f32(float %.73.i, float %.36.i, float 0x3FAC6AEE80000000)
  %.77.i = tail call float @llvm.fmuladd.f32(float %.75.i, float %.36.i, float 0x3FCEBFBDC0000000)
  %.85.i = tail call float @llvm.fmuladd.f32(float %.77.i, float %.36.i, float 0x3FE62E4300000000)
  %.86.i = fmul float %.36.i, %.85.i
  %.87.i = fadd float %.86.i, 1.000000e+00
  %.88.i = bitcast float %.34.i to i32
  %.90.i = add i32 %.88.i, -1262485504
  %.7.i.i = ashr i32 %.90.i, 1
  %.8.i.i = sub i32 %.88.i, %.7.i.i
  %.10.i.i = shl i32 %.7.i.i, 23
  %.12.i.i = add i32 %.10.i.i, 1065353216
  %.13.i.i = bitcast i32 %.12.i.i to float
  %.14.i.i = fmul float %.87.i, %.13.i.i
  %.16.i.i = shl i32 %.8.i.i, 23
  %.18.i.i = add i32 %.16.i.i, 1065353216
  %.19.i.i = bitcast i32 %.18.i.i to float
  %.20.i.i = fmul float %.14.i.i, %.19.i.i
  store float %.20.i.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
