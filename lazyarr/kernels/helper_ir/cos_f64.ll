; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v86B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7cos_f64B3v87B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_reduce_f64B3v62B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8_two_sumB3v63B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_sin_ddB3v67B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_cos_ddB3v64B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: write, errnomem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_cos_f64(ptr noalias writeonly captures(none) %retptr, ptr noalias writeonly captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
B0:
  %.6 = alloca double, align 8
  %excinfo.1 = alloca ptr, align 8
  %.10 = call i32 @_ZN7lazyarr7kernels14transcendental7cos_f64B3v87B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEd(ptr nonnull %.6, ptr nonnull %excinfo.1, double %arg.x0)
  %cond = icmp eq i32 %.10, 0
  br i1 %cond, label %B0.endif, label %B0.if.if, !prof !0

common.ret:                                       ; preds = %B0.if.if, %B0.endif
  ret i32 %.10

B0.endif:                                         ; preds = %B0
  %.20 = load double, ptr %.6, align 8
  store double %.20, ptr %retptr, align 8
  br label %common.ret

B0.if.if:                                         ; preds = %B0
  store ptr null, ptr %excinfo, align 8
  br label %common.ret
}

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: write, errnomem: write)
define linkonce_odr noundef range(i32 -1, -2) i32 @_ZN7lazyarr7kernels14transcendental7cos_f64B3v87B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEd(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x) local_unnamed_addr #0 {
B0:
  %.8 = tail call double @llvm.fabs.f64(double %arg.x)
  %.9 = fcmp ult double %.8, 0x41C0000000000000
  br i1 %.9, label %B84.endif, label %B52

common.ret:                                       ; preds = %B3566, %B52
  %storemerge = phi double [ %.12, %B52 ], [ %spec.select, %B3566 ]
  store double %storemerge, ptr %retptr, align 8
  ret i32 0

B52:                                              ; preds = %B0
  %.12 = tail call double @cos(double %arg.x)
  br label %common.ret

B3504:                                            ; preds = %B84.endif
  %.7.i2 = fmul double %.6.i15.i, %.6.i4
  %.40.i = tail call double @llvm.fmuladd.f64(double %.6.i4, double 0x3DE5D8DF42784D24, double 0xBE5AE5E544DC03FA)
  %.42.i = tail call double @llvm.fmuladd.f64(double %.40.i, double %.6.i4, double 0x3EC71DE35600DDAC)
  %.44.i = tail call double @llvm.fmuladd.f64(double %.42.i, double %.6.i4, double 0xBF2A01A019BF541C)
  %.46.i = tail call double @llvm.fmuladd.f64(double %.44.i, double %.6.i4, double 0x3F8111111110F78D)
  %.54.i3 = tail call double @llvm.fmuladd.f64(double %.46.i, double %.6.i4, double 0xBFC5555555555548)
  %.55.i = fmul double %.7.i2, %.54.i3
  %.56.i = fmul double %.6.i4, 5.000000e-01
  %.57.i = fsub double 1.000000e+00, %.56.i
  %.58.i = fmul double %.57.i, %.11.i20.i
  %.59.i = fadd double %.58.i, %.55.i
  %.60.i = fadd double %.6.i15.i, %.59.i
  br label %B3566

B3536:                                            ; preds = %B84.endif
  %.7.i5 = fmul double %.6.i4, 5.000000e-01
  %.8.i = fsub double 1.000000e+00, %.7.i5
  %.9.i = fsub double 1.000000e+00, %.8.i
  %.10.i = fsub double %.9.i, %.7.i5
  %.11.i = fmul double %.6.i4, %.6.i4
  %.44.i6 = tail call double @llvm.fmuladd.f64(double %.6.i4, double 0xBDA8F7D885202132, double 0x3E21EE98B012D9D0)
  %.46.i7 = tail call double @llvm.fmuladd.f64(double %.44.i6, double %.6.i4, double 0xBE927E4F77975E2B)
  %.48.i = tail call double @llvm.fmuladd.f64(double %.46.i7, double %.6.i4, double 0x3EFA01A019BEA06C)
  %.50.i = tail call double @llvm.fmuladd.f64(double %.48.i, double %.6.i4, double 0xBF56C16C16C149B6)
  %.58.i8 = tail call double @llvm.fmuladd.f64(double %.50.i, double %.6.i4, double 0x3FA5555555555548)
  %.59.i9 = fmul double %.11.i, %.58.i8
  %.60.i10 = fmul double %.6.i15.i, %.11.i20.i
  %.61.i = fsub double %.59.i9, %.60.i10
  %.62.i = fadd double %.10.i, %.61.i
  %.63.i = fadd double %.8.i, %.62.i
  br label %B3566

B3566:                                            ; preds = %B3536, %B3504
  %cos_f64_small_v88__vphi114_0.2.0.in.sroa.speculated = phi double [ %.60.i, %B3504 ], [ %.63.i, %B3536 ]
  %.143 = add nsw i64 %0, 1
  %.146 = and i64 %.143, 2
  %.147.not = icmp eq i64 %.146, 0
  %.150 = fneg double %cos_f64_small_v88__vphi114_0.2.0.in.sroa.speculated
  %spec.select = select i1 %.147.not, double %cos_f64_small_v88__vphi114_0.2.0.in.sroa.speculated, double %.150
  br label %common.ret

B84.endif:                                        ; preds = %B0
  %.5.i = fmul double %arg.x, 0x3FE45F306DC9C883
  %.6.i = fadd double %.5.i, 0x4338000000000000
  %.7.i = fadd double %.6.i, 0xC338000000000000
  %.29.i = fmul double %.7.i, 0x3FF921FB40000000
  %.30.i = fsub double %arg.x, %.29.i
  %.54.i = fmul double %.7.i, 0xBE74442D00000000
  %.6.i.i = fadd double %.54.i, %.30.i
  %.7.i.i = fsub double %.6.i.i, %.30.i
  %.8.i.i = fsub double %.6.i.i, %.7.i.i
  %.9.i.i = fsub double %.30.i, %.8.i.i
  %.10.i.i = fsub double %.54.i, %.7.i.i
  %.11.i.i = fadd double %.10.i.i, %.9.i.i
  %.112.i = fmul double %.7.i, 0xBCF8469880000000
  %.6.i1.i = fadd double %.112.i, %.6.i.i
  %.7.i2.i = fsub double %.6.i1.i, %.6.i.i
  %.8.i3.i = fsub double %.6.i1.i, %.7.i2.i
  %.9.i4.i = fsub double %.6.i.i, %.8.i3.i
  %.10.i5.i = fsub double %.112.i, %.7.i2.i
  %.11.i6.i = fadd double %.10.i5.i, %.9.i4.i
  %.168.i = fmul double %.7.i, 0xBB78CC5140000000
  %.6.i8.i = fadd double %.168.i, %.6.i1.i
  %.7.i9.i = fsub double %.6.i8.i, %.6.i1.i
  %.8.i10.i = fsub double %.6.i8.i, %.7.i9.i
  %.9.i11.i = fsub double %.6.i1.i, %.8.i10.i
  %.10.i12.i = fsub double %.168.i, %.7.i9.i
  %.11.i13.i = fadd double %.10.i12.i, %.9.i11.i
  %.201.i = fadd double %.11.i.i, %.11.i6.i
  %.202.i = fadd double %.201.i, %.11.i13.i
  %.224.i = fmul double %.7.i, 0x3A080DC1CD129025
  %.225.i = fsub double %.202.i, %.224.i
  %.6.i15.i = fadd double %.6.i8.i, %.225.i
  %.7.i16.i = fsub double %.6.i15.i, %.6.i8.i
  %.8.i17.i = fsub double %.6.i15.i, %.7.i16.i
  %.9.i18.i = fsub double %.6.i8.i, %.8.i17.i
  %.10.i19.i = fsub double %.225.i, %.7.i16.i
  %.11.i20.i = fadd double %.10.i19.i, %.9.i18.i
  %0 = bitcast double %.6.i to i64
  %.64 = and i64 %0, 1
  %.65.not = icmp eq i64 %.64, 0
  %.6.i4 = fmul double %.6.i15.i, %.6.i15.i
  br i1 %.65.not, label %B3536, label %B3504
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double) #1

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @cos(double) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nounwind willreturn memory(argmem: write, errnomem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nofree nounwind willreturn memory(errnomem: write) }

!0 = !{!"branch_weights", i32 49, i32 1}
