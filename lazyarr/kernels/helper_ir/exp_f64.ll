; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB2v2B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7exp_f64B4v122B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_exp_ddB4v123B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd8UniTupleIdLi10EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_exp_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4607182418800017408 to i64
  %.15.i.i.i = fcmp olt double %arg.x0, -7.460000e+02
  %"$phi22.0.2.0.i.i.i" = select i1 %.15.i.i.i, double -7.460000e+02, double %arg.x0
  %.42.i.i.i = fcmp ogt double %"$phi22.0.2.0.i.i.i", 7.100000e+02
  %"$phi42.0.2.0.i.i.i" = select i1 %.42.i.i.i, double 7.100000e+02, double %"$phi22.0.2.0.i.i.i"
  %.93.i.i = fmul double %"$phi42.0.2.0.i.i.i", 0x3FF71547652B82FE
  %.94.i.i = fadd double %.93.i.i, 0x4338000000000000
  %.95.i.i = fadd double %.94.i.i, 0xC338000000000000
  %.96.i.i = fmul double %.95.i.i, 0x3FE62E42FEFA3800
  %.97.i.i = fsub double %"$phi42.0.2.0.i.i.i", %.96.i.i
  %.98.i.i = fmul double %.95.i.i, 0x3D2EF35793C76730
  %.99.i.i = fsub double 0.000000e+00, %.98.i.i
  %.100.i.i = fadd double %.97.i.i, %.99.i.i
  %.101.i.i = fmul double %.100.i.i, %.100.i.i
  %.127.i.i = tail call double @llvm.fmuladd.f64(double %.100.i.i, double 0x3E5AD7F715303616, double 0x3E928AD73B4FA416)
  %.129.i.i = tail call double @llvm.fmuladd.f64(double %.127.i.i, double %.100.i.i, double 0x3EC71DF254F7B222)
  %.131.i.i = tail call double @llvm.fmuladd.f64(double %.129.i.i, double %.100.i.i, double 0x3EFA0199A0B5243D)
  %.133.i.i = tail call double @llvm.fmuladd.f64(double %.131.i.i, double %.100.i.i, double 0x3F2A01A012A595C8)
  %.135.i.i = tail call double @llvm.fmuladd.f64(double %.133.i.i, double %.100.i.i, double 0x3F56C16C1842A823)
  %.137.i.i = tail call double @llvm.fmuladd.f64(double %.135.i.i, double %.100.i.i, double 0x3F81111111127BE0)
  %.139.i.i = tail call double @llvm.fmuladd.f64(double %.137.i.i, double %.100.i.i, double 0x3FA555555555087A)
  %.141.i.i = tail call double @llvm.fmuladd.f64(double %.139.i.i, double %.100.i.i, double 0x3FC55555555554FA)
  %.153.i.i = tail call double @llvm.fmuladd.f64(double %.141.i.i, double %.100.i.i, double 0x3FE000000000000A)
  %.154.i.i = fmul double %.101.i.i, %.153.i.i
  %.155.i.i = fadd double %.100.i.i, %.154.i.i
  %.156.i.i = fadd double %.155.i.i, 1.000000e+00
  %.158.i.i = bitcast double %.94.i.i to i64
  %.159.i.i = add nsw i64 %.158.i.i, -4843621399236968448
  %.6.i.i.i = ashr i64 %.159.i.i, 1
  %.7.i.i.i = shl i64 %.6.i.i.i, 52
  %.8.i.i.i = add i64 %.7.i.i.i, %const
  %.9.i.i.i = bitcast i64 %.8.i.i.i to double
  %.10.i.i.i = fmul double %.156.i.i, %.9.i.i.i
  %.11.i.i.i = sub i64 %.158.i.i, %.6.i.i.i
  %.12.i.i.i = shl i64 %.11.i.i.i, 52
  %.13.i.i.i = add i64 %.12.i.i.i, %const
  %.14.i.i.i = bitcast i64 %.13.i.i.i to double
  %.15.i1.i.i = fmul double %.10.i.i.i, %.14.i.i.i
  store double %.15.i1.i.i, ptr %retptr, align 8
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
