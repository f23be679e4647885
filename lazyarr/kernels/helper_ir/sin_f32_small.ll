; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v150B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef i32 @lazyarr_helper_sin_f32_small(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
B0:
  %.5 = tail call float @llvm.fmuladd.f32(float %arg.x0, float 0x3FD45F3060000000, float 0x4168000000000000)
  %.10 = fadd float %.5, 0xC168000000000000
  %.28 = tail call float @llvm.fmuladd.f32(float %.10, float 0xC00921FB40000000, float %arg.x0)
  %.46 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBE84442D00000000, float %.28)
  %.64 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBD08469880000000, float %.46)
  %.70 = fmul float %.64, %.64
  %.72 = fmul float %.64, %.70
  %.95 = tail call float @llvm.fmuladd.f32(float %.70, float 0x3EC5D81940000000, float 0xBF29F6BF00000000)
  %.97 = tail call float @llvm.fmuladd.f32(float %.95, float %.70, float 0x3F8110EBE0000000)
  %.103 = tail call float @llvm.fmuladd.f32(float %.97, float %.70, float 0xBFC55554C0000000)
  %.105 = tail call float @llvm.fmuladd.f32(float %.72, float %.103, float %.64)
  %.111 = fcmp oeq float %.64, 0.000000e+00
  %sin_f32_small_v151__vphi378_0.2.0 = select i1 %.111, float %.64, float %.105
  %.137 = bitcast float %.5 to i32
  %.141 = and i32 %.137, 1
  %.143.not = icmp eq i32 %.141, 0
  %.146 = fneg float %sin_f32_small_v151__vphi378_0.2.0
  %sin_f32_small_v151__vphi456_0.2.0 = select i1 %.143.not, float %sin_f32_small_v151__vphi378_0.2.0, float %.146
  store float %sin_f32_small_v151__vphi456_0.2.0, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
