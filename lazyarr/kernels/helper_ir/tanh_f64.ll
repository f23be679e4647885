; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v110B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8tanh_f64B4v111B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_tanh64B4v112B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi10EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9_expm1_64B3v39B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi10EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_tanh_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4607182418800017408 to i64
  %.37.i.i = tail call double @llvm.fabs.f64(double %arg.x0)
  %.42.i.i.i = fcmp ogt double %.37.i.i, 2.000000e+01
  %"$phi42.0.2.0.i.i.i" = select i1 %.42.i.i.i, double 2.000000e+01, double %.37.i.i
  %.64.i.i = fmul double %"$phi42.0.2.0.i.i.i", 2.000000e+00
  %.42.i.i.i.i = fcmp ogt double %.64.i.i, 7.100000e+02
  %"$phi42.0.2.0.i.i.i.i" = select i1 %.42.i.i.i.i, double 7.100000e+02, double %.64.i.i
  %.66.i.i.i = fmul double %"$phi42.0.2.0.i.i.i.i", 0x3FF71547652B82FE
  %.67.i.i.i = fadd double %.66.i.i.i, 0x4338000000000000
  %.68.i.i.i = fadd double %.67.i.i.i, 0xC338000000000000
  %.69.i.i.i = fmul double %.68.i.i.i, 0x3FE62E42FEFA3800
  %.71.i.i.i = fsub double %"$phi42.0.2.0.i.i.i.i", %.69.i.i.i
  %.72.i.i.i = fmul double %.68.i.i.i, 0x3D2EF35793C76730
  %.73.i.i.i = fsub double %.71.i.i.i, %.72.i.i.i
  %.74.i.i.i = fsub double %.71.i.i.i, %.73.i.i.i
  %.75.i.i.i = fsub double %.74.i.i.i, %.72.i.i.i
  %.76.i.i.i = fmul double %.73.i.i.i, %.73.i.i.i
  %.99.i.i.i = tail call double @llvm.fmuladd.f64(double %.73.i.i.i, double 0x3E5AE6BC0C202223, double 0x3E928A1E05411AD8)
  %.101.i.i.i = tail call double @llvm.fmuladd.f64(double %.99.i.i.i, double %.73.i.i.i, double 0x3EC71DE87F798EA7)
  %.103.i.i.i = tail call double @llvm.fmuladd.f64(double %.101.i.i.i, double %.73.i.i.i, double 0x3EFA019A76EE60AE)
  %.105.i.i.i = tail call double @llvm.fmuladd.f64(double %.103.i.i.i, double %.73.i.i.i, double 0x3F2A01A01751B3D1)
  %.107.i.i.i = tail call double @llvm.fmuladd.f64(double %.105.i.i.i, double %.73.i.i.i, double 0x3F56C16C17EDBCC8)
  %.109.i.i.i = tail call double @llvm.fmuladd.f64(double %.107.i.i.i, double %.73.i.i.i, double 0x3F81111111118F99)
  %.111.i.i.i = tail call double @llvm.fmuladd.f64(double %.109.i.i.i, double %.73.i.i.i, double 0x3FA55555555522B7)
  %.113.i.i.i = tail call double @llvm.fmuladd.f64(double %.111.i.i.i, double %.73.i.i.i, double 0x3FC5555555555539)
  %.125.i.i.i = tail call double @llvm.fmuladd.f64(double %.113.i.i.i, double %.73.i.i.i, double 0x3FE0000000000005)
  %.126.i.i.i = fmul double %.76.i.i.i, %.125.i.i.i
  %.127.i.i.i = fadd double %.73.i.i.i, 1.000000e+00
  %.128.i.i.i = fmul double %.127.i.i.i, %.75.i.i.i
  %.129.i.i.i = fadd double %.128.i.i.i, %.126.i.i.i
  %.130.i.i.i = fadd double %.73.i.i.i, %.129.i.i.i
  %.131.i.i.i = bitcast double %.67.i.i.i to i64
  %.132.i.i.i = add nsw i64 %.131.i.i.i, -4843621399236968448
  %.146.i.i.i = fadd double %.130.i.i.i, 1.000000e+00
  %.6.i.i.i.i = ashr i64 %.132.i.i.i, 1
  %.7.i.i.i.i = shl i64 %.6.i.i.i.i, 52
  %.8.i.i.i.i = add i64 %.7.i.i.i.i, %const
  %.9.i.i.i.i = bitcast i64 %.8.i.i.i.i to double
  %.10.i.i.i.i = fmul double %.146.i.i.i, %.9.i.i.i.i
  %.11.i.i.i.i = sub i64 %.131.i.i.i, %.6.i.i.i.i
  %.12.i.i.i.i = shl i64 %.11.i.i.i.i, 52
  %.13.i.i.i.i = add i64 %.12.i.i.i.i, %const
  %.14.i.i.i.i = bitcast i64 %.13.i.i.i.i to double
  %.15.i1.i.i.i = fmul double %.10.i.i.i.i, %.14.i.i.i.i
  %.133.i.i.i = shl i64 %.131.i.i.i, 52
  %.134.i.i.i = add i64 %.133.i.i.i, %const
  %.135.i.i.i = bitcast i64 %.134.i.i.i to double
  %.136.i.i.i = fmul double %.130.i.i.i, %.135.i.i.i
  %.140.i.i.i = fadd double %.135.i.i.i, -1.000000e+00
  %.141.i.i.i = fadd double %.140.i.i.i, %.136.i.i.i
  %.171.i.i.i = fadd double %.15.i1.i.i.i, -1.000000e+00
  %.175.i.i.i = icmp sgt i64 %.131.i.i.i, 4843621399236968501
  %"$phi512.0.2.0.i.i.i" = select i1 %.175.i.i.i, double %.171.i.i.i, double %.141.i.i.i
  %.201.i.i.i = fcmp oeq double %"$phi42.0.2.0.i.i.i.i", 0.000000e+00
  %"$phi532.0.2.0.i.i.i" = select i1 %.201.i.i.i, double %"$phi42.0.2.0.i.i.i.i", double %"$phi512.0.2.0.i.i.i"
  %.109.i.i = fadd double %"$phi532.0.2.0.i.i.i", 2.000000e+00
  %.113.i.i = fdiv double %"$phi532.0.2.0.i.i.i", %.109.i.i
  %.114.i.i = tail call double @llvm.copysign.f64(double %.113.i.i, double %arg.x0)
  store double %.114.i.i, ptr %retptr, align 8
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.copysign.f64(double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
