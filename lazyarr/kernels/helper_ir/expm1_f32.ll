; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v31B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9expm1_f32B3v32B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9_expm1_64B3v33B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi6EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_expm1_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4607182418800017408 to i64
  %.6.i = fpext float %arg.x0 to double
  %.15.i.i.i = fcmp olt double %.6.i, -6.000000e+01
  %"$phi22.0.2.0.i.i.i" = select i1 %.15.i.i.i, double -6.000000e+01, double %.6.i
  %.42.i.i.i = fcmp ogt double %"$phi22.0.2.0.i.i.i", 7.100000e+02
  %"$phi42.0.2.0.i.i.i" = select i1 %.42.i.i.i, double 7.100000e+02, double %"$phi22.0.2.0.i.i.i"
  %.54.i.i = fmul double %"$phi42.0.2.0.i.i.i", 0x3FF71547652B82FE
  %.55.i.i = fadd double %.54.i.i, 0x4338000000000000
  %.56.i.i = fadd double %.55.i.i, 0xC338000000000000
  %.57.i.i = fmul double %.56.i.i, 0x3FE62E42FEFA3800
  %.59.i.i = fsub double %"$phi42.0.2.0.i.i.i", %.57.i.i
  %.60.i.i = fmul double %.56.i.i, 0x3D2EF35793C76730
  %.61.i.i = fsub double %.59.i.i, %.60.i.i
  %.62.i.i = fsub double %.59.i.i, %.61.i.i
  %.63.i.i = fsub double %.62.i.i, %.60.i.i
  %.64.i.i = fmul double %.61.i.i, %.61.i.i
  %.79.i.i = tail call double @llvm.fmuladd.f64(double %.61.i.i, double 0x3F2A032BE80E4EDE, double 0x3F56D71F7344BE1F)
  %.81.i.i = tail call double @llvm.fmuladd.f64(double %.79.i.i, double %.61.i.i, double 0x3F811118966F5092)
  %.83.i.i = tail call double @llvm.fmuladd.f64(double %.81.i.i, double %.61.i.i, double 0x3FA5554B12F20D42)
  %.85.i.i = tail call double @llvm.fmuladd.f64(double %.83.i.i, double %.61.i.i, double 0x3FC555554EF8F507)
  %.93.i.i = tail call double @llvm.fmuladd.f64(double %.85.i.i, double %.61.i.i, double 0x3FE00000025EFA3E)
  %.94.i.i = fmul double %.64.i.i, %.93.i.i
  %.95.i.i = fadd double %.61.i.i, 1.000000e+00
  %.96.i.i = fmul double %.95.i.i, %.63.i.i
  %.97.i.i = fadd double %.96.i.i, %.94.i.i
  %.98.i.i = fadd double %.61.i.i, %.97.i.i
  %.99.i.i = bitcast double %.55.i.i to i64
  %.100.i.i = add nsw i64 %.99.i.i, -4843621399236968448
  %.114.i.i = fadd double %.98.i.i, 1.000000e+00
  %.6.i.i.i = ashr i64 %.100.i.i, 1
  %.7.i.i.i = shl i64 %.6.i.i.i, 52
  %.8.i.i.i = add i64 %.7.i.i.i, %const
  %.9.i.i.i = bitcast i64 %.8.i.i.i to double
  %.10.i.i.i = fmul double %.114.i.i, %.9.i.i.i
  %.11.i.i.i = sub i64 %.99.i.i, %.6.i.i.i
  %.12.i.i.i = shl i64 %.11.i.i.i, 52
  %.13.i.i.i = add i64 %.12.i.i.i, %const
  %.14.i.i.i = bitcast i64 %.13.i.i.i to double
  %.15.i1.i.i = fmul double %.10.i.i.i, %.14.i.i.i
  %.101.i.i = shl i64 %.99.i.i, 52
  %.102.i.i = add i64 %.101.i.i, %const
  %.103.i.i = bitcast i64 %.102.i.i to double
  %.104.i.i = fmul double %.98.i.i, %.103.i.i
  %.108.i.i = fadd double %.103.i.i, -1.000000e+00
  %.109.i.i = fadd double %.108.i.i, %.104.i.i
  %.139.i.i = fadd double %.15.i1.i.i, -1.000000e+00
  %.143.i.i = icmp sgt i64 %.99.i.i, 4843621399236968501
  %"$phi512.0.2.0.i.i" = select i1 %.143.i.i, double %.139.i.i, double %.109.i.i
  %.169.i.i = fcmp oeq double %"$phi42.0.2.0.i.i.i", 0.000000e+00
  %"$phi532.0.2.0.i.i" = select i1 %.169.i.i, double %"$phi42.0.2.0.i.i.i", double %"$phi512.0.2.0.i.i"
  %.63.i = fptrunc double %"$phi532.0.2.0.i.i" to float
  store float %.63.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
