; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v13B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7log_f32B3v21B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental14_log_parts_f32B3v22B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log_specialB3v24B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_log_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %.9.i.i = fcmp olt float %arg.x0, 0x3810000000000000
  %.26.i.i = fmul float %arg.x0, 0x4160000000000000
  %.4713.in.in.i.i = select i1 %.9.i.i, float %.26.i.i, float %arg.x0
  %"$phi208.4.2.0.neg.i.i" = select i1 %.9.i.i, i32 -23, i32 0
  %.4713.in.i.i = bitcast float %.4713.in.in.i.i to i32
  %.4713.i.i = add i32 %.4713.in.i.i, -1060439283
  %.5715.i.i = ashr i32 %.4713.i.i, 23
  %.82.i.i = add nsw i32 %.5715.i.i, %"$phi208.4.2.0.neg.i.i"
  %.91.i.i = sitofp i32 %.82.i.i to float
  %.94.i.i = and i32 %.4713.i.i, 8388607
  %.98.i.i = add nuw nsw i32 %.94.i.i, 1060439283
  %.99.i.i = bitcast i32 %.98.i.i to float
  %.101.i.i = fadd float %.99.i.i, -1.000000e+00
  %.40.i = tail call float @llvm.fmuladd.f32(float %.91.i.i, float 0x3FE62E4000000000, float %.101.i.i)
  %.41.i = fmul float %.101.i.i, %.101.i.i
  %.89.i = tail call float @llvm.fmuladd.f32(float %.101.i.i, float 0xBFB3830220000000, float 0x3FC0848660000000)
  %.91.i = tail call float @llvm.fmuladd.f32(float %.89.i, float %.101.i.i, float 0xBFC0F37660000000)
  %.93.i = tail call float @llvm.fmuladd.f32(float %.91.i, float %.101.i.i, float 0x3FC22719C0000000)
  %.95.i = tail call float @llvm.fmuladd.f32(float %.93.i, float %.101.i.i, float 0xBFC54276E0000000)
  %.97.i = tail call float @llvm.fmuladd.f32(float %.95.i, float %.101.i.i, float 0x3FC99A3F20000000)
  %.99.i = tail call float @llvm.fmuladd.f32(float %.97.i, float %.101.i.i, float 0xBFD0004260000000)
  %.101.i = tail call float @llvm.fmuladd.f32(float %.99.i, float %.101.i.i, float 0x3FD5555500000000)
  %.112.i = tail call float @llvm.fmuladd.f32(float %.101.i, float %.101.i.i, float 0xBFDFFFFF80000000)
  %.113.i = fmul float %.41.i, %.112.i
  %.114.i = fmul float %.91.i.i, 0x3EB7F7D1C0000000
  %.115.i = fadd float %.114.i, %.113.i
  %.116.i = fadd float %.40.i, %.115.i
  %.16.i.i = fcmp oeq float %arg.x0, 0.000000e+00
  %"$phi24.0.2.0.i.i" = select i1 %.16.i.i, float 0xFFF0000000000000, float %.116.i
  %.40.i.i = fcmp oeq float %arg.x0, 0x7FF0000000000000
  %"$phi44.0.2.0.i.i" = select i1 %.40.i.i, float 0x7FF0000000000000, float %"$phi24.0.2.0.i.i"
  %.64.i.i = fcmp oge float %arg.x0, 0.000000e+00
  %"$phi70.0.2.0.i.i" = select i1 %.64.i.i, float %"$phi44.0.2.0.i.i", float 0x7FF8000000000000
  store float %"$phi70.0.2.0.i.i", ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
