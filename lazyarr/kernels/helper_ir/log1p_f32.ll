; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v22B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9log1p_f32B3v23B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_log_partsB4v222B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B4v223B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log1p_termsB3v24B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi4EE = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_log1p_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4843621399236968394 to i64
  %.5.i = fpext float %arg.x0 to double
  %.10.i = fadd double %.5.i, 1.000000e+00
  %.8.i.i = fcmp olt double %.10.i, 0x10000000000000
  %.18.i.i = fmul double %.10.i, 0x4350000000000000
  %.3713.in.in.i.i = select i1 %.8.i.i, double %.18.i.i, double %.10.i
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
  %.17.i.i = fadd double %.97.i.i, 2.000000e+00
  %.21.i.i = fdiv double %.97.i.i, %.17.i.i
  %.22.i.i = fmul double %.21.i.i, %.21.i.i
  %.23.i.i = fmul double %.97.i.i, 5.000000e-01
  %.24.i.i = fmul double %.97.i.i, %.23.i.i
  %.35.i.i = tail call double @llvm.fmuladd.f64(double %.22.i.i, double 0x3FCE2F3921D18DBB, double 0x3FD2438ECAB27324)
  %.37.i.i = tail call double @llvm.fmuladd.f64(double %.35.i.i, double %.22.i.i, double 0x3FD999A7A2BC6385)
  %.43.i.i = tail call double @llvm.fmuladd.f64(double %.37.i.i, double %.22.i.i, double 0x3FE555554FDD9BB7)
  %.44.i.i = fmul double %.22.i.i, %.43.i.i
  %.45.i.i = fadd double %.24.i.i, %.44.i.i
  %.46.i.i = fmul double %.21.i.i, %.45.i.i
  %.99.i = fmul double %.7.i.i.i, 0x3FE62E42FEFA3800
  %.100.i = fmul double %.7.i.i.i, 0x3D2EF35793C76730
  %.101.i = fadd double %.100.i, %.46.i.i
  %0 = fsub double %.101.i, %.24.i.i
  %.103.i = fadd double %.97.i.i, %0
  %.104.i = fadd double %.99.i, %.103.i
  %.109.i = tail call double @llvm.fabs.f64(double %.5.i)
  %.110.i = fcmp olt double %.109.i, 0x3E20000000000000
  %.115.i = fmul double %.5.i, 5.000000e-01
  %.117.i = fmul double %.115.i, %.5.i
  %.119.i = fsub double %.5.i, %.117.i
  %"$phi250.0.2.0.i" = select i1 %.110.i, double %.119.i, double %.104.i
  %.137.i = fcmp oeq float %arg.x0, -1.000000e+00
  %.159.i = fcmp oeq float %arg.x0, 0x7FF0000000000000
  %.180.i = fcmp oge float %arg.x0, -1.000000e+00
  %1 = fptrunc double %"$phi250.0.2.0.i" to float
  %2 = select i1 %.137.i, float 0xFFF0000000000000, float %1
  %3 = select i1 %.159.i, float 0x7FF0000000000000, float %2
  %.200.i = select i1 %.180.i, float %3, float 0x7FF8000000000000
  store float %.200.i, ptr %retptr, align 4
  ret i32 0
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
