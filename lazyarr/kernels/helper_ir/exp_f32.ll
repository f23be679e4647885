; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB2v1B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7exp_f32B3v10B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB3v11B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_ldexp_f32B3v13B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfi = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_exp_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.15.i.i = fcmp olt float %arg.x0, -1.040000e+02
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i, float -1.040000e+02, float %arg.x0
  %.42.i.i = fcmp ogt float %"$phi22.0.2.0.i.i", 8.900000e+01
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, float 8.900000e+01, float %"$phi22.0.2.0.i.i"
  %.34.i = tail call float @llvm.fmuladd.f32(float %"$phi42.0.2.0.i.i", float 0x3FF7154760000000, float 0x4168000000000000)
  %.35.i = fadd float %.34.i, 0xC168000000000000
  %.38.i = tail call float @llvm.fmuladd.f32(float %.35.i, float 0xBFE62E4000000000, float %"$phi42.0.2.0.i.i")
  %.39.i = tail call float @llvm.fmuladd.f32(float %.35.i, float 0xBEB7F7D1C0000000, float %.38.i)
  %.41.i = fmul float %.39.i, %.39.i
  %.69.i = tail call float @llvm.fmuladd.f32(float %.39.i, float 0x3F56A24320000000, float 0x3F81239E20000000)
  %.71.i = tail call float @llvm.fmuladd.f32(float %.69.i, float %.39.i, float 0x3FA5558F20000000)
  %.73.i = tail call float @llvm.fmuladd.f32(float %.71.i, float %.39.i, float 0x3FC5554920000000)
  %.80.i = tail call float @llvm.fmuladd.f32(float %.73.i, float %.39.i, float 0x3FDFFFFFC0000000)
  %.81.i = tail call float @llvm.fmuladd.f32(float %.41.i, float %.80.i, float %.39.i)
  %.82.i = fadd float %.81.i, 1.000000e+00
  %.84.i = bitcast float %.34.i to i32
  %.86.i = add i32 %.84.i, -1262485504
  %.7.i.i = ashr i32 %.86.i, 1
  %.8.i.i = sub i32 %.84.i, %.7.i.i
  %.10.i.i = shl i32 %.7.i.i, 23
  %.12.i.i = add i32 %.10.i.i, 1065353216
  %.13.i.i = bitcast i32 %.12.i.i to float
  %.14.i.i = fmul float %.82.i, %.13.i.i
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
