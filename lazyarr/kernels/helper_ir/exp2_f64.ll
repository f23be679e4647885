; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB2v8B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8exp2_f64B2v9B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_exp2_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4607182418800017408 to i64
  %.15.i.i = fcmp olt double %arg.x0, -1.076000e+03
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i, double -1.076000e+03, double %arg.x0
  %.42.i.i = fcmp ogt double %"$phi22.0.2.0.i.i", 1.025000e+03
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, double 1.025000e+03, double %"$phi22.0.2.0.i.i"
  %.32.i = fadd double %"$phi42.0.2.0.i.i", 0x4338000000000000
  %.33.i = fadd double %.32.i, 0xC338000000000000
  %.34.i = fsub double %"$phi42.0.2.0.i.i", %.33.i
  %.93.i = tail call double @llvm.fmuladd.f64(double %.34.i, double 0x3DFE79992DF645E2, double 0x3E3E61B759DAF96A)
  %.95.i = tail call double @llvm.fmuladd.f64(double %.93.i, double %.34.i, double 0x3E7B5267E86C8B72)
  %.97.i = tail call double @llvm.fmuladd.f64(double %.95.i, double %.34.i, double 0x3EB62BFC7883EFF6)
  %.99.i = tail call double @llvm.fmuladd.f64(double %.97.i, double %.34.i, double 0x3EEFFCBFBA89633E)
  %.101.i = tail call double @llvm.fmuladd.f64(double %.99.i, double %.34.i, double 0x3F24309130EE0BC5)
  %.103.i = tail call double @llvm.fmuladd.f64(double %.101.i, double %.34.i, double 0x3F55D87FE78CDA55)
  %.105.i = tail call double @llvm.fmuladd.f64(double %.103.i, double %.34.i, double 0x3F83B2AB6FBA00F5)
  %.107.i = tail call double @llvm.fmuladd.f64(double %.105.i, double %.34.i, double 0x3FAC6B08D7049FE7)
  %.109.i = tail call double @llvm.fmuladd.f64(double %.107.i, double %.34.i, double 0x3FCEBFBDFF82C5A4)
  %.122.i = tail call double @llvm.fmuladd.f64(double %.109.i, double %.34.i, double 0x3FE62E42FEFA39EF)
  %.123.i = fmul double %.34.i, %.122.i
  %.124.i = fadd double %.123.i, 1.000000e+00
  %.125.i = bitcast double %.32.i to i64
  %.126.i = add nsw i64 %.125.i, -4843621399236968448
  %.6.i.i = ashr i64 %.126.i, 1
  %.7.i.i = shl i64 %.6.i.i, 52
  %.8.i.i = add i64 %.7.i.i, %const
  %.9.i.i = bitcast i64 %.8.i.i to double
  %.10.i.i = fmul double %.124.i, %.9.i.i
  %.11.i.i = sub i64 %.125.i, %.6.i.i
  %.12.i.i = shl i64 %.11.i.i, 52
  %.13.i.i = add i64 %.12.i.i, %const
  %.14.i.i = bitcast i64 %.13.i.i to double
  %.15.i1.i = fmul double %.10.i.i, %.14.i.i
  store double %.15.i1.i, ptr %retptr, align 8
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
