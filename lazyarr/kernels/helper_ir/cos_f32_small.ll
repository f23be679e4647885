; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v157B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef i32 @lazyarr_helper_cos_f32_small(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
B0:
  %.5 = tail call float @llvm.fmuladd.f32(float %arg.x0, float 0x3FE45F3060000000, float 0x4168000000000000)
  %.6 = fadd float %.5, 0xC168000000000000
  %.24 = tail call float @llvm.fmuladd.f32(float %.6, float 0xBFF921FB40000000, float %arg.x0)
  %.42 = fmul float %.6, 0xBE74442D00000000
  %.60 = fneg float %.42
  %.61 = tail call float @llvm.fmuladd.f32(float %.6, float 0xBE74442D00000000, float %.60)
  %.62 = fadd float %.24, %.42
  %.63 = fsub float %.62, %.24
  %.64 = fsub float %.62, %.63
  %.65 = fsub float %.24, %.64
  %.66 = fsub float %.42, %.63
  %.67 = fadd float %.66, %.65
  %.102 = fadd float %.61, %.67
  %.103 = tail call float @llvm.fmuladd.f32(float %.6, float 0xBB78CC5180000000, float %.102)
  %.104 = tail call float @llvm.fmuladd.f32(float %.6, float 0xBCF8469880000000, float %.103)
  %.105 = bitcast float %.5 to i32
  %.113 = add i32 %.105, 1
  %.125 = fmul float %.62, %.62
  %.131 = fmul float %.62, %.125
  %.150 = tail call float @llvm.fmuladd.f32(float %.125, float 0xBF29877D00000000, float 0x3F81104CA0000000)
  %.155 = tail call float @llvm.fmuladd.f32(float %.150, float %.125, float 0xBFC55553E0000000)
  %.157 = tail call float @llvm.fmuladd.f32(float %.131, float %.155, float %.104)
  %.159 = fadd float %.62, %.157
  %.165 = fcmp oeq float %.62, 0.000000e+00
  %cos_f32_small_v158__sin_qr_f32_v160__vphi142_0.2.0 = select i1 %.165, float %.62, float %.159
  %.210 = tail call float @llvm.fmuladd.f32(float %.125, float 0x3EF99C7300000000, float 0xBF56C0C6E0000000)
  %.212 = tail call float @llvm.fmuladd.f32(float %.210, float %.125, float 0x3FA55554C0000000)
  %.218 = tail call float @llvm.fmuladd.f32(float %.212, float %.125, float -5.000000e-01)
  %0 = fneg float %.104
  %.226 = fmul float %.62, %0
  %.228 = tail call float @llvm.fmuladd.f32(float %.125, float %.218, float %.226)
  %.231 = fadd float %.228, 1.000000e+00
  %1 = and i32 %.105, 1
  %.239.not.not = icmp eq i32 %1, 0
  %cos_f32_small_v158__sin_qr_f32_v160__vphi304_0.2.0 = select i1 %.239.not.not, float %.231, float %cos_f32_small_v158__sin_qr_f32_v160__vphi142_0.2.0
  %.266 = and i32 %.113, 2
  %.270.not = icmp eq i32 %.266, 0
  %.273 = fneg float %cos_f32_small_v158__sin_qr_f32_v160__vphi304_0.2.0
  %cos_f32_small_v158__sin_qr_f32_v160__vphi356_0.2.0 = select i1 %.270.not, float %cos_f32_small_v158__sin_qr_f32_v160__vphi304_0.2.0, float %.273
  store float %cos_f32_small_v158__sin_qr_f32_v160__vphi356_0.2.0, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
