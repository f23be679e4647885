; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v20B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8log2_f64B3v21B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_log_partsB4v222B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B4v223B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log1p_termsB4v224B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi7EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log_specialB4v228B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_log2_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4843621399236968394 to i64
  %.8.i.i = fcmp olt double %arg.x0, 0x10000000000000
  %.18.i.i = fmul double %arg.x0, 0x4350000000000000
  %.3713.in.in.i.i = select i1 %.8.i.i, double %.18.i.i, double %arg.x0
  %.3713.in.i.i = bitcast double %.3713.in.in.i.i to i64
  %.3713.i.i = add nsw i64 %.3713.in.i.i, -4604544271217802189
  %.4215.i.i = ashr i64 %.3713.i.i, 52
  %const_mat = add i64 %const, 54
  %.59.i.i = select i1 %.8.i.i, i64 %const, i64 %const_mat
  %.5.i.i.i = add nsw i64 %.4215.i.i, %.59.i.i
  %.6.i.i.i = bitcast i64 %.5.i.i.i to double
  %.7.i.i.i = fadd double %.6.i.i.i, 0xC338000000000000
  %.92.i.i = and i64 %.3713.i.i, 4503599627370495
  %.95.i.i = add nuw nsw i64 %.92.i.i, 4604544271217802189
  %.96.i.i = bitcast i64 %.95.i.i to double
  %.97.i.i = fadd double %.96.i.i, -1.000000e+00
  %.26.i.i = fadd double %.97.i.i, 2.000000e+00
  %.30.i.i = fdiv double %.97.i.i, %.26.i.i
  %.31.i.i = fmul double %.30.i.i, %.30.i.i
  %.32.i.i = fmul double %.97.i.i, 5.000000e-01
  %.33.i.i = fmul double %.97.i.i, %.32.i.i
  %.50.i.i = tail call double @llvm.fmuladd.f64(double %.31.i.i, double 0x3FC2F03B6C55D114, double 0x3FC39A1E7CC23CCF)
  %.52.i.i = tail call double @llvm.fmuladd.f64(double %.50.i.i, double %.31.i.i, double 0x3FC74663D0E80E63)
  %.54.i.i = tail call double @llvm.fmuladd.f64(double %.52.i.i, double %.31.i.i, double 0x3FCC71C5212ED789)
  %.56.i.i = tail call double @llvm.fmuladd.f64(double %.54.i.i, double %.31.i.i, double 0x3FD24924941E4AA0)
  %.58.i.i = tail call double @llvm.fmuladd.f64(double %.56.i.i, double %.31.i.i, double 0x3FD999999997FEA7)
  %.67.i.i = tail call double @llvm.fmuladd.f64(double %.58.i.i, double %.31.i.i, double 0x3FE5555555555592)
  %.68.i.i = fmul double %.31.i.i, %.67.i.i
  %.69.i.i = fadd double %.33.i.i, %.68.i.i
  %.70.i.i = fmul double %.30.i.i, %.69.i.i
  %0 = fsub double %.70.i.i, %.33.i.i
  %.110.i = fadd double %.97.i.i, %0
  %.111.i = fmul double %.110.i, 0x3FF71547652B82FE
  %.112.i = fadd double %.7.i.i.i, %.111.i
  %.15.i.i = fcmp oeq double %arg.x0, 0.000000e+00
  %"$phi24.0.2.0.i.i" = select i1 %.15.i.i, double 0xFFF0000000000000, double %.112.i
  %.39.i.i = fcmp oeq double %arg.x0, 0x7FF0000000000000
  %"$phi44.0.2.0.i.i" = select i1 %.39.i.i, double 0x7FF0000000000000, double %"$phi24.0.2.0.i.i"
  %.62.i.i = fcmp oge double %arg.x0, 0.000000e+00
  %"$phi70.0.2.0.i.i" = select i1 %.62.i.i, double %"$phi44.0.2.0.i.i", double 0x7FF8000000000000
  store double %"$phi70.0.2.0.i.i", ptr %retptr, align 8
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
