; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v15B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8log2_f32B3v16B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental14_log_parts_f32B3v22B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log_specialB3v24B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEfff = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_log2_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
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
  %.93.i = tail call float @llvm.fmuladd.f32(float %.101.i.i, float 0xBFBC25A760000000, float 0x3FC7D494C0000000)
  %.95.i = tail call float @llvm.fmuladd.f32(float %.93.i, float %.101.i.i, float 0xBFC874BE80000000)
  %.97.i = tail call float @llvm.fmuladd.f32(float %.95.i, float %.101.i.i, float 0x3FCA305A60000000)
  %.99.i = tail call float @llvm.fmuladd.f32(float %.97.i, float %.101.i.i, float 0xBFCEABC880000000)
  %.101.i = tail call float @llvm.fmuladd.f32(float %.99.i, float %.101.i.i, float 0x3FD277E360000000)
  %.103.i = tail call float @llvm.fmuladd.f32(float %.101.i, float %.101.i.i, float 0xBFD715A760000000)
  %.105.i = tail call float @llvm.fmuladd.f32(float %.103.i, float %.101.i.i, float 0x3FDEC70960000000)
  %.107.i = tail call float @llvm.fmuladd.f32(float %.105.i, float %.101.i.i, float 0xBFE7154700000000)
  %.119.i = tail call float @llvm.fmuladd.f32(float %.107.i, float %.101.i.i, float 0x3FDC551DA0000000)
  %.120.i = fmul float %.101.i.i, %.119.i
  %.121.i = fadd float %.101.i.i, %.120.i
  %.122.i = fadd float %.121.i, %.91.i.i
  %.16.i.i = fcmp oeq float %arg.x0, 0.000000e+00
  %"$phi24.0.2.0.i.i" = select i1 %.16.i.i, float 0xFFF0000000000000, float %.122.i
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
