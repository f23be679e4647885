; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v134B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEff = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_log64B4v136B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi4EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_log_partsB4v222B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B4v223B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_log1p_termsB3v24B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd8UniTupleIdLi4EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_exp_ddB4v137B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd8UniTupleIdLi6EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_pow_specialB4v140B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEffffff = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_pow_f32(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x0, float %arg.x1) local_unnamed_addr #0 {
B0.endif.endif:
  %const5 = bitcast i64 4843621399236968394 to i64
  %const = bitcast i64 4607182418800017408 to i64
  %0 = tail call float @llvm.fabs.f32(float %arg.x0)
  %.11 = fpext float %0 to double
  %.8.i.i = fcmp olt double %.11, 0x10000000000000
  %.18.i.i = fmul double %.11, 0x4350000000000000
  %.3713.in.in.i.i = select i1 %.8.i.i, double %.18.i.i, double %.11
  %.3713.in.i.i = bitcast double %.3713.in.in.i.i to i64
  %.3713.i.i = add nsw i64 %.3713.in.i.i, -4604544271217802189
  %.4215.i.i = ashr i64 %.3713.i.i, 52
  %const_mat = add i64 %const5, 54
  %.59.i.i = select i1 %.8.i.i, i64 %const5, i64 %const_mat
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
  %.93.i = fmul double %.7.i.i.i, 0x3FE62E42FEFA3800
  %.94.i = fmul double %.7.i.i.i, 0x3D2EF35793C76730
  %.95.i = fadd double %.94.i, %.46.i.i
  %1 = fsub double %.95.i, %.24.i.i
  %.97.i = fadd double %.97.i.i, %1
  %.98.i = fadd double %.93.i, %.97.i
  %.8 = fpext float %arg.x1 to double
  %.58 = fmul double %.98.i, %.8
  %.15.i.i = fcmp olt double %.58, -7.460000e+02
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i, double -7.460000e+02, double %.58
  %.42.i.i = fcmp ogt double %"$phi22.0.2.0.i.i", 7.100000e+02
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, double 7.100000e+02, double %"$phi22.0.2.0.i.i"
  %.81.i = fmul double %"$phi42.0.2.0.i.i", 0x3FF71547652B82FE
  %.82.i = fadd double %.81.i, 0x4338000000000000
  %.83.i = fadd double %.82.i, 0xC338000000000000
  %.84.i = fmul double %.83.i, 0x3FE62E42FEFA3800
  %.85.i = fsub double %"$phi42.0.2.0.i.i", %.84.i
  %.86.i = fmul double %.83.i, 0x3D2EF35793C76730
  %.87.i = fsub double 0.000000e+00, %.86.i
  %.88.i = fadd double %.85.i, %.87.i
  %.89.i = fmul double %.88.i, %.88.i
  %.107.i = tail call double @llvm.fmuladd.f64(double %.88.i, double 0x3F29F08966968361, double 0x3F56D8D06D0C54EF)
  %.109.i = tail call double @llvm.fmuladd.f64(double %.107.i, double %.88.i, double 0x3F8111270B2CC365)
  %.111.i = tail call double @llvm.fmuladd.f64(double %.109.i, double %.88.i, double 0x3FA55548DC49DF68)
  %.113.i = tail call double @llvm.fmuladd.f64(double %.111.i, double %.88.i, double 0x3FC555554433C3E9)
  %.121.i = tail call double @llvm.fmuladd.f64(double %.113.i, double %.88.i, double 0x3FE0000003A2372D)
  %.122.i = fmul double %.89.i, %.121.i
  %.123.i = fadd double %.88.i, %.122.i
  %.124.i = fadd double %.123.i, 1.000000e+00
  %.126.i = bitcast double %.82.i to i64
  %.127.i = add nsw i64 %.126.i, -4843621399236968448
  %.6.i.i = ashr i64 %.127.i, 1
  %.7.i.i = shl i64 %.6.i.i, 52
  %.8.i.i1 = add i64 %.7.i.i, %const
  %.9.i.i = bitcast i64 %.8.i.i1 to double
  %.10.i.i = fmul double %.124.i, %.9.i.i
  %.11.i.i = sub i64 %.126.i, %.6.i.i
  %.12.i.i = shl i64 %.11.i.i, 52
  %.13.i.i = add i64 %.12.i.i, %const
  %.14.i.i = bitcast i64 %.13.i.i to double
  %.15.i1.i = fmul double %.10.i.i, %.14.i.i
  %.114 = fptrunc double %.15.i1.i to float
  %.34.le.i = tail call float @llvm.floor.f32(float %arg.x1)
  %.40.i = fcmp oeq float %.34.le.i, %arg.x1
  %.45.i = tail call float @llvm.fabs.f32(float %arg.x1)
  %.46.i = fcmp olt float %.45.i, 0x4170000000000000
  %.51.i = fmul double %.8, 5.000000e-01
  %.59.le.i = tail call double @llvm.floor.f64(double %.51.i)
  %.65.i = fmul double %.59.le.i, 2.000000e+00
  %.68.i = fcmp une double %.65.i, %.8
  %2 = and i1 %.46.i, %.68.i
  %.69.i = and i1 %.40.i, %2
  %.80.i = fcmp olt float %arg.x0, 0.000000e+00
  %.82.i2 = and i1 %.80.i, %.69.i
  %.85.i3 = fneg float %.114
  %"$phi224.0.2.0.i" = select i1 %.82.i2, float %.85.i3, float %.114
  %.110.i = fcmp one float %arg.x0, 0xFFF0000000000000
  %.113.i4 = xor i1 %.40.i, true
  %3 = and i1 %.110.i, %.113.i4
  %.116.i = and i1 %.80.i, %3
  %"$phi274.0.2.0.i" = select i1 %.116.i, float 0x7FF8000000000000, float %"$phi224.0.2.0.i"
  %.160.i = fcmp oeq float %arg.x0, 0.000000e+00
  br i1 %.160.i, label %B338.i, label %B368.i

common.ret:                                       ; preds = %B462.i, %B502.i, %B518.i
  %"$phi556.0.4.0.i" = phi float [ %spec.select7.i, %B518.i ], [ 1.000000e+00, %B502.i ], [ %"$phi462.0.4.0.i", %B462.i ]
  %.325.i = fcmp uno float %arg.x0, %arg.x1
  %spec.select8.i = select i1 %.325.i, float 0x7FF8000000000000, float %"$phi556.0.4.0.i"
  %.354.i = fcmp oeq float %arg.x0, 1.000000e+00
  %.359.i = fcmp oeq float %arg.x1, 0.000000e+00
  %.364.i = or i1 %.354.i, %.359.i
  %"$phi630.0.2.0.i" = select i1 %.364.i, float 1.000000e+00, float %spec.select8.i
  store float %"$phi630.0.2.0.i", ptr %retptr, align 4
  ret i32 0

B338.i:                                           ; preds = %B0.endif.endif
  %.143.i = tail call float @llvm.copysign.f32(float 0x7FF0000000000000, float %arg.x0)
  %"$phi324.0.2.0.i" = select i1 %.69.i, float %.143.i, float 0x7FF0000000000000
  %.166.i = fcmp olt float %arg.x1, 0.000000e+00
  br i1 %.166.i, label %B368.i, label %B354.i

B354.i:                                           ; preds = %B338.i
  br i1 %.69.i, label %B374.i, label %B418.i

B368.i:                                           ; preds = %B338.i, %B0.endif.endif
  %"$phi368.0.4.0.i" = phi float [ %"$phi274.0.2.0.i", %B0.endif.endif ], [ %"$phi324.0.2.0.i", %B338.i ]
  br i1 %.69.i, label %B374.i, label %B418.i

B374.i:                                           ; preds = %B368.i, %B354.i
  %"$phi368.0.4.03.i" = phi float [ %"$phi368.0.4.0.i", %B368.i ], [ %arg.x0, %B354.i ]
  %.205.i = tail call float @llvm.copysign.f32(float 0.000000e+00, float %arg.x0)
  br label %B418.i

B418.i:                                           ; preds = %B374.i, %B368.i, %B354.i
  %"$phi368.0.4.02.i" = phi float [ %"$phi368.0.4.03.i", %B374.i ], [ %"$phi368.0.4.0.i", %B368.i ], [ 0.000000e+00, %B354.i ]
  %"$phi418.0.2.0.i" = phi float [ %.205.i, %B374.i ], [ 0.000000e+00, %B368.i ], [ 0.000000e+00, %B354.i ]
  %4 = call i1 @llvm.is.fpclass.f32(float %arg.x0, i32 516)
  br i1 %4, label %B432.i, label %B462.i

B432.i:                                           ; preds = %B418.i
  %.228.i = fcmp olt float %arg.x1, 0.000000e+00
  br i1 %.228.i, label %B462.i, label %B448.i

B448.i:                                           ; preds = %B432.i
  %spec.select.i = select i1 %.69.i, float %arg.x0, float 0x7FF0000000000000
  br label %B462.i

B462.i:                                           ; preds = %B448.i, %B432.i, %B418.i
  %"$phi462.0.4.0.i" = phi float [ %spec.select.i, %B448.i ], [ %"$phi418.0.2.0.i", %B432.i ], [ %"$phi368.0.4.02.i", %B418.i ]
  %5 = call i1 @llvm.is.fpclass.f32(float %arg.x1, i32 516)
  br i1 %5, label %B502.i, label %common.ret

B502.i:                                           ; preds = %B462.i
  %.278.i = fcmp oeq float %0, 1.000000e+00
  br i1 %.278.i, label %common.ret, label %B518.i

B518.i:                                           ; preds = %B502.i
  %.289.i = fcmp olt float %0, 1.000000e+00
  %6 = fcmp uge float %arg.x1, 0.000000e+00
  %.295.i = xor i1 %.289.i, %6
  %spec.select7.i = select i1 %.295.i, float 0x7FF0000000000000, float 0.000000e+00
  br label %common.ret
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fabs.f32(float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.floor.f32(float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.floor.f64(double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.copysign.f32(float, float) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.is.fpclass.f32(float, i32 immarg) #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
