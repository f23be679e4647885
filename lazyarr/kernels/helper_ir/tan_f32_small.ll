; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v168B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef i32 @lazyarr_helper_tan_f32_small(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
B0:
  %.9 = tail call float @llvm.fmuladd.f32(float %arg.x0, float 0x3FE45F3060000000, float 0x4168000000000000)
  %.10 = fadd float %.9, 0xC168000000000000
  %.28 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBFF921FB40000000, float %arg.x0)
  %.46 = fmul float %.10, 0xBE74442D00000000
  %.64 = fneg float %.46
  %.65 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBE74442D00000000, float %.64)
  %.66 = fadd float %.28, %.46
  %.67 = fsub float %.66, %.28
  %.68 = fsub float %.66, %.67
  %.69 = fsub float %.28, %.68
  %.70 = fsub float %.46, %.67
  %.71 = fadd float %.70, %.69
  %.106 = fadd float %.65, %.71
  %.107 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBB78CC5180000000, float %.106)
  %.108 = tail call float @llvm.fmuladd.f32(float %.10, float 0xBCF8469880000000, float %.107)
  %.109 = bitcast float %.9 to i32
  %.116 = fmul float %.66, %.66
  %.117 = fmul float %.66, %.116
  %.155 = tail call float @llvm.fmuladd.f32(float %.116, float 0x3F74BD2020000000, float 0xBF560D7360000000)
  %.157 = tail call float @llvm.fmuladd.f32(float %.155, float %.116, float 0x3F8894A780000000)
  %.159 = tail call float @llvm.fmuladd.f32(float %.157, float %.116, float 0x3F95519900000000)
  %.161 = tail call float @llvm.fmuladd.f32(float %.159, float %.116, float 0x3FABB9D2C0000000)
  %.163 = tail call float @llvm.fmuladd.f32(float %.161, float %.116, float 0x3FC11092E0000000)
  %.172 = tail call float @llvm.fmuladd.f32(float %.163, float %.116, float 0x3FD5555720000000)
  %.173 = fmul float %.117, %.172
  %.174 = fadd float %.66, %.173
  %.176 = tail call float @llvm.fmuladd.f32(float %.174, float %.174, float 1.000000e+00)
  %.177 = tail call float @llvm.fmuladd.f32(float %.108, float %.176, float %.173)
  %.178 = fadd float %.66, %.177
  %.183 = fsub float %.66, %.178
  %.184 = fadd float %.177, %.183
  %.190 = fdiv float 1.000000e+00, %.178
  %.191 = fneg float %.190
  %.194 = tail call float @llvm.fmuladd.f32(float %.191, float %.178, float 1.000000e+00)
  %.195 = fmul float %.190, %.184
  %.196 = fsub float %.194, %.195
  %.197 = tail call float @llvm.fmuladd.f32(float %.190, float %.196, float %.190)
  %.202 = and i32 %.109, 1
  %.204.not = icmp eq i32 %.202, 0
  %.209 = fneg float %.197
  %tan_f32_small_v169__vphi422_0.2.0 = select i1 %.204.not, float %.178, float %.209
  %.232 = fcmp oeq float %arg.x0, 0.000000e+00
  %tan_f32_small_v169__vphi468_0.2.0 = select i1 %.232, float %arg.x0, float %tan_f32_small_v169__vphi422_0.2.0
  store float %tan_f32_small_v169__vphi468_0.2.0, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
