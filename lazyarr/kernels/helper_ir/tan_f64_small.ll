; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v174B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_reduce_f64B3v62B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8_two_sumB3v63B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_sin_ddB3v67B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_cos_ddB3v64B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_tan_f64_small(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
B0.endif.endif.endif:
  %.5.i = fmul double %arg.x0, 0x3FE45F306DC9C883
  %.6.i = fadd double %.5.i, 0x4338000000000000
  %.7.i = fadd double %.6.i, 0xC338000000000000
  %.29.i = fmul double %.7.i, 0x3FF921FB40000000
  %.30.i = fsub double %arg.x0, %.29.i
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
  %.6.i1 = fmul double %.6.i15.i, %.6.i15.i
  %.7.i2 = fmul double %.6.i15.i, %.6.i1
  %.40.i = tail call double @llvm.fmuladd.f64(double %.6.i1, double 0x3DE5D8DF42784D24, double 0xBE5AE5E544DC03FA)
  %.42.i = tail call double @llvm.fmuladd.f64(double %.40.i, double %.6.i1, double 0x3EC71DE35600DDAC)
  %.44.i = tail call double @llvm.fmuladd.f64(double %.42.i, double %.6.i1, double 0xBF2A01A019BF541C)
  %.46.i = tail call double @llvm.fmuladd.f64(double %.44.i, double %.6.i1, double 0x3F8111111110F78D)
  %.54.i3 = tail call double @llvm.fmuladd.f64(double %.46.i, double %.6.i1, double 0xBFC5555555555548)
  %.55.i = fmul double %.7.i2, %.54.i3
  %.56.i = fmul double %.6.i1, 5.000000e-01
  %.57.i = fsub double 1.000000e+00, %.56.i
  %.58.i = fmul double %.57.i, %.11.i20.i
  %.59.i = fadd double %.58.i, %.55.i
  %.60.i = fadd double %.6.i15.i, %.59.i
  %.9.i = fsub double 1.000000e+00, %.57.i
  %.10.i = fsub double %.9.i, %.56.i
  %.11.i = fmul double %.6.i1, %.6.i1
  %.44.i6 = tail call double @llvm.fmuladd.f64(double %.6.i1, double 0xBDA8F7D885202132, double 0x3E21EE98B012D9D0)
  %.46.i7 = tail call double @llvm.fmuladd.f64(double %.44.i6, double %.6.i1, double 0xBE927E4F77975E2B)
  %.48.i = tail call double @llvm.fmuladd.f64(double %.46.i7, double %.6.i1, double 0x3EFA01A019BEA06C)
  %.50.i = tail call double @llvm.fmuladd.f64(double %.48.i, double %.6.i1, double 0xBF56C16C16C149B6)
  %.58.i8 = tail call double @llvm.fmuladd.f64(double %.50.i, double %.6.i1, double 0x3FA5555555555548)
  %.59.i9 = fmul double %.11.i, %.58.i8
  %.60.i10 = fmul double %.6.i15.i, %.11.i20.i
  %.61.i = fsub double %.59.i9, %.60.i10
  %.62.i = fadd double %.10.i, %.61.i
  %.63.i = fadd double %.57.i, %.62.i
  %.104 = fcmp oeq double %arg.x0, 0.000000e+00
  br i1 %.104, label %common.ret, label %B23532

B23532:                                           ; preds = %B0.endif.endif.endif
  %0 = bitcast double %.6.i to i64
  %.122 = and i64 %0, 1
  %.125.not = icmp eq i64 %.122, 0
  br i1 %.125.not, label %B23554.endif, label %B23542

B23542:                                           ; preds = %B23532
  %.128 = fneg double %.63.i
  %.135 = fdiv double %.128, %.60.i
  br label %common.ret

common.ret:                                       ; preds = %B23542, %B23554.endif, %B0.endif.endif.endif
  %tan_f64_small_v175__vphi152_0.3.0 = phi double [ %.146, %B23554.endif ], [ %.135, %B23542 ], [ %arg.x0, %B0.endif.endif.endif ]
  store double %tan_f64_small_v175__vphi152_0.3.0, ptr %retptr, align 8
  ret i32 0

B23554.endif:                                     ; preds = %B23532
  %.146 = fdiv double %.60.i, %.63.i
  br label %common.ret
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
