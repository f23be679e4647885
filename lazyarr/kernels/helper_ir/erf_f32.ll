; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v113B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_exp_neg_f32B4v119B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_erf_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.9 = tail call float @llvm.fabs.f32(float %arg.x0)
  %.71 = fcmp olt float %.9, 4.000000e+00
  %erf_f32_v114__vphi182_0.2.0 = select i1 %.71, float %.9, float 4.000000e+00
  %.151 = fmul float %erf_f32_v114__vphi182_0.2.0, %erf_f32_v114__vphi182_0.2.0
  %.6.i = tail call float @llvm.fmuladd.f32(float %.151, float 0xBFF7154760000000, float 0x4168000000000000)
  %.7.i = fadd float %.6.i, 0xC168000000000000
  %.8.i = tail call float @llvm.fmuladd.f32(float %.7.i, float 0x3FE62E4300000000, float %.151)
  %0 = fneg float %.8.i
  %.11.i = fmul float %.8.i, %0
  %.39.i = tail call float @llvm.fmuladd.f32(float %.8.i, float 0x3F56A24320000000, float 0xBF81239E20000000)
  %.41.i = tail call float @llvm.fmuladd.f32(float %.39.i, float %.8.i, float 0x3FA5558F20000000)
  %.43.i = tail call float @llvm.fmuladd.f32(float %.41.i, float %.8.i, float 0xBFC5554920000000)
  %.50.i = tail call float @llvm.fmuladd.f32(float %.43.i, float %.8.i, float 0x3FDFFFFFC0000000)
  %.51.i = tail call float @llvm.fmuladd.f32(float %.11.i, float %.50.i, float %.8.i)
  %.52.i = fsub float 1.000000e+00, %.51.i
  %.53.i = bitcast float %.6.i to i32
  %.56.i = shl i32 %.53.i, 23
  %.58.i = add i32 %.56.i, 1065353216
  %.59.i = bitcast i32 %.58.i to float
  %.86 = fadd float %erf_f32_v114__vphi182_0.2.0, -1.500000e+00
  %.129 = tail call float @llvm.fmuladd.f32(float %.86, float 0xBF3EAD6A20000000, float 0x3F60F0B360000000)
  %.131 = tail call float @llvm.fmuladd.f32(float %.129, float %.86, float 0xBF75D03B40000000)
  %.133 = tail call float @llvm.fmuladd.f32(float %.131, float %.86, float 0x3F8B411A60000000)
  %.135 = tail call float @llvm.fmuladd.f32(float %.133, float %.86, float 0xBFA0D77AE0000000)
  %.137 = tail call float @llvm.fmuladd.f32(float %.135, float %.86, float 0x3FB37F5960000000)
  %.139 = tail call float @llvm.fmuladd.f32(float %.137, float %.86, float 0xBFC4F1A220000000)
  %.149 = tail call float @llvm.fmuladd.f32(float %.139, float %.86, float 0x3FD494DA20000000)
  %.15 = fmul float %arg.x0, %arg.x0
  %.48 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBF43A17E00000000, float 0x3F7473BAA0000000)
  %.50 = tail call float @llvm.fmuladd.f32(float %.48, float %.15, float 0xBF9B68B540000000)
  %.52 = tail call float @llvm.fmuladd.f32(float %.50, float %.15, float 0x3FBCE1A6A0000000)
  %.54 = tail call float @llvm.fmuladd.f32(float %.52, float %.15, float 0xBFD8126E60000000)
  %.62 = tail call float @llvm.fmuladd.f32(float %.54, float %.15, float 0x3FC06EBA60000000)
  %.65 = tail call float @llvm.fmuladd.f32(float %.9, float %.62, float %.9)
  %1 = fneg float %.59.i
  %.178 = fmul float %.52.i, %1
  %.180 = tail call float @llvm.fmuladd.f32(float %.178, float %.149, float 1.000000e+00)
  %.186 = fcmp ogt float %.9, 9.218750e-01
  %erf_f32_v114__vphi438_2.2.0 = select i1 %.186, float %.180, float %.65
  %.212 = tail call float @llvm.copysign.f32(float %erf_f32_v114__vphi438_2.2.0, float %arg.x0)
  store float %.212, ptr %retptr, align 4
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
