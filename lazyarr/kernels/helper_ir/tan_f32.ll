; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v89B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7tan_f32B3v90B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_reduce_f32B3v50B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental17_reduce_f32_smallB3v51B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental17_reduce_f32_largeB3v52B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B4v223B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_tan_f32(ptr noalias writeonly captures(none) %retptr, ptr noalias writeonly captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
B0:
  %.6 = alloca float, align 4
  %excinfo.1 = alloca ptr, align 8
  %.10 = call i32 @_ZN7lazyarr7kernels14transcendental7tan_f32B3v90B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf(ptr nonnull %.6, ptr nonnull %excinfo.1, float %arg.x0)
  %cond = icmp eq i32 %.10, 0
  br i1 %cond, label %B0.endif, label %B0.if.if, !prof !0

common.ret:                                       ; preds = %B0.if.if, %B0.endif
  ret i32 %.10

B0.endif:                                         ; preds = %B0
  %.20 = load float, ptr %.6, align 4
  store float %.20, ptr %retptr, align 4
  br label %common.ret

B0.if.if:                                         ; preds = %B0
  store ptr null, ptr %excinfo, align 8
  br label %common.ret
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define linkonce_odr noundef range(i32 -1, -2) i32 @_ZN7lazyarr7kernels14transcendental7tan_f32B3v90B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x) local_unnamed_addr #0 {
B0:
  %.8 = tail call float @llvm.fabs.f32(float %arg.x)
  %.9 = fcmp olt float %.8, 0x4130000000000000
  br i1 %.9, label %B52, label %B82.i

B52:                                              ; preds = %B0
  %.18 = tail call float @llvm.fmuladd.f32(float %arg.x, float 0x3FE45F3060000000, float 0x4168000000000000)
  %.19 = fadd float %.18, 0xC168000000000000
  %.37 = tail call float @llvm.fmuladd.f32(float %.19, float 0xBFF921FB40000000, float %arg.x)
  %.55 = fmul float %.19, 0xBE74442D00000000
  %.73 = fneg float %.55
  %.74 = tail call float @llvm.fmuladd.f32(float %.19, float 0xBE74442D00000000, float %.73)
  %.75 = fadd float %.37, %.55
  %.76 = fsub float %.75, %.37
  %.77 = fsub float %.75, %.76
  %.78 = fsub float %.37, %.77
  %.79 = fsub float %.55, %.76
  %.80 = fadd float %.79, %.78
  %.115 = fadd float %.74, %.80
  %.116 = tail call float @llvm.fmuladd.f32(float %.19, float 0xBB78CC5180000000, float %.115)
  %.117 = tail call float @llvm.fmuladd.f32(float %.19, float 0xBCF8469880000000, float %.116)
  %.118 = bitcast float %.18 to i32
  %.125 = fmul float %.75, %.75
  %.126 = fmul float %.75, %.125
  %.164 = tail call float @llvm.fmuladd.f32(float %.125, float 0x3F74BD2020000000, float 0xBF560D7360000000)
  %.166 = tail call float @llvm.fmuladd.f32(float %.164, float %.125, float 0x3F8894A780000000)
  %.168 = tail call float @llvm.fmuladd.f32(float %.166, float %.125, float 0x3F95519900000000)
  %.170 = tail call float @llvm.fmuladd.f32(float %.168, float %.125, float 0x3FABB9D2C0000000)
  %.172 = tail call float @llvm.fmuladd.f32(float %.170, float %.125, float 0x3FC11092E0000000)
  %.181 = tail call float @llvm.fmuladd.f32(float %.172, float %.125, float 0x3FD5555720000000)
  %.182 = fmul float %.126, %.181
  %.183 = fadd float %.75, %.182
  %.185 = tail call float @llvm.fmuladd.f32(float %.183, float %.183, float 1.000000e+00)
  %.186 = tail call float @llvm.fmuladd.f32(float %.117, float %.185, float %.182)
  %.187 = fadd float %.75, %.186
  %.192 = fsub float %.75, %.187
  %.193 = fadd float %.186, %.192
  %.199 = fdiv float 1.000000e+00, %.187
  %.200 = fneg float %.199
  %.203 = tail call float @llvm.fmuladd.f32(float %.200, float %.187, float 1.000000e+00)
  %.204 = fmul float %.199, %.193
  %.205 = fsub float %.203, %.204
  %.206 = tail call float @llvm.fmuladd.f32(float %.199, float %.205, float %.199)
  %.211 = and i32 %.118, 1
  %.213.not = icmp eq i32 %.211, 0
  %.218 = fneg float %.206
  %tan_f32_small_v93__vphi422_0.2.0 = select i1 %.213.not, float %.187, float %.218
  %.241 = fcmp oeq float %arg.x, 0.000000e+00
  %tan_f32_small_v93__vphi468_0.2.0 = select i1 %.241, float %arg.x, float %tan_f32_small_v93__vphi422_0.2.0
  br label %common.ret

B82.i:                                            ; preds = %B0
  %const1 = bitcast i64 -6703182060581546711 to i64
  %.8.i1.i = bitcast float %.8 to i32
  %.9.i.i = zext nneg i32 %.8.i1.i to i64
  %.15.i.i = lshr i64 %.9.i.i, 23
  %.16.i.i = add nsw i64 %.15.i.i, -24
  %.21.i.i = ashr i64 %.16.i.i, 6
  %.26.i.i = icmp slt i64 %.21.i.i, 2
  br i1 %.26.i.i, label %B3672.endif, label %B128.i.i

B128.i.i:                                         ; preds = %B82.i
  %const2 = bitcast i64 -277156292786332224 to i64
  %.33.i.i = icmp eq i64 %.21.i.i, 2
  br i1 %.33.i.i, label %B3672.endif, label %B286.i.i

B286.i.i:                                         ; preds = %B128.i.i
  br label %B3672.endif

B3680:                                            ; preds = %B3672.endif
  %const = bitcast i64 4843621398700097536 to i64
  %.86.i = fcmp olt float %arg.x, 0.000000e+00
  %.197.i.i = fcmp olt float %.8, 0x3EB0000000000000
  %.233.i.i = fpext float %.8 to double
  %.93.i.i = and i64 %.16.i.i, 63
  %.102.i.i = xor i64 %.93.i.i, 63
  %.111.i.i = lshr i64 %"$phi298.0.3.0.i.i", %.102.i.i
  %.106.i.i = shl i64 %"$phi232.0.3.052.i.i", %.93.i.i
  %.112.i.i = or i64 %.111.i.i, %.106.i.i
  %.121.i.i = lshr i64 %.112.i.i, 32
  %.10.i.i = and i64 %.9.i.i, 8388607
  %.11.i.i = or disjoint i64 %.10.i.i, 8388608
  %.123.i.i = mul nuw nsw i64 %.121.i.i, %.11.i.i
  %.126.i.i = lshr i64 %.123.i.i, 32
  %.97.i.i = shl i64 %"$phi166.0.3.04350.i.i", %.93.i.i
  %.101.i.i = lshr i64 %"$phi232.0.3.052.i.i", 1
  %.103.i.i = lshr i64 %.101.i.i, %.102.i.i
  %.104.i.i = or i64 %.97.i.i, %.103.i.i
  %reass.mul.i.i = mul i64 %.104.i.i, %.11.i.i
  %.127.i.i = add i64 %.126.i.i, %reass.mul.i.i
  %.165.i.i = and i64 %.127.i.i, 4294967295
  %const_mat = add i64 %const, 536870912
  %.5.i1.i.i = or disjoint i64 %.165.i.i, %const_mat
  %.6.i2.i.i = bitcast i64 %.5.i1.i.i to double
  %.7.i3.i.i = fadd double %.6.i2.i.i, 0xC338000000000000
  %.190.i.i = fmul double %.7.i3.i.i, 0x3C10000000000000
  %.128.i.i = add nsw i64 %.127.i.i, 2305843009213693952
  %.134.i.i = lshr i64 %.128.i.i, 32
  %.135.i.i = and i64 %.134.i.i, 1073741823
  %.5.i.i.i = add nuw nsw i64 %.135.i.i, %const
  %.6.i.i.i = bitcast i64 %.5.i.i.i to double
  %.7.i.i.i = fadd double %.6.i.i.i, 0xC338000000000000
  %.163.i.i = fmul double %.7.i.i.i, 0x3E10000000000000
  %.191.i.i = fadd double %.190.i.i, %.163.i.i
  %.243.i.i = fmul double %.191.i.i, 0x3FF921FB54442D18
  %"$phi894.1.2.0.i.i" = select i1 %.197.i.i, double %.233.i.i, double %.243.i.i
  %.95.i = fneg double %"$phi894.1.2.0.i.i"
  %"$phi200.0.2.sroa.8.0.i" = select i1 %.86.i, double %.95.i, double %"$phi894.1.2.0.i.i"
  %.311 = fmul double %"$phi200.0.2.sroa.8.0.i", %"$phi200.0.2.sroa.8.0.i"
  %.339 = tail call double @llvm.fmuladd.f64(double %.311, double 0x3EC6CB4CBD60FEB1, double 0xBF2A00F2E73A0D42)
  %.341 = tail call double @llvm.fmuladd.f64(double %.339, double %.311, double 0x3F81111086A865D2)
  %.343 = tail call double @llvm.fmuladd.f64(double %.341, double %.311, double 0xBFC5555554D8F1C2)
  %.350 = tail call double @llvm.fmuladd.f64(double %.343, double %.311, double 1.000000e+00)
  %.351 = fmul double %"$phi200.0.2.sroa.8.0.i", %.350
  %.384 = tail call double @llvm.fmuladd.f64(double %.311, double 0xBE9241CA9877E029, double 0x3EFA010D557D5BDF)
  %.386 = tail call double @llvm.fmuladd.f64(double %.384, double %.311, double 0xBF56C16B81BA1537)
  %.388 = tail call double @llvm.fmuladd.f64(double %.386, double %.311, double 0x3FA5555554ECBF7E)
  %.390 = tail call double @llvm.fmuladd.f64(double %.388, double %.311, double -5.000000e-01)
  %.398 = tail call double @llvm.fmuladd.f64(double %.390, double %.311, double 1.000000e+00)
  %0 = and i64 %.128.i.i, 4611686018427387904
  %.426.not1 = icmp eq i64 %0, 0
  %.426.not = select i1 %.197.i.i, i1 true, i1 %.426.not1
  %.432 = fneg double %.398
  %.439 = fdiv double %.432, %.351
  %.451 = fdiv double %.351, %.398
  %_tan_qr_v91__vphi82_2.2.0 = select i1 %.426.not, double %.451, double %.439
  %.460 = fptrunc double %_tan_qr_v91__vphi82_2.2.0 to float
  br label %common.ret

B4148:                                            ; preds = %B3672.endif
  %.475 = fsub float %arg.x, %arg.x
  br label %common.ret

common.ret:                                       ; preds = %B4148, %B3680, %B52
  %storemerge = phi float [ %tan_f32_small_v93__vphi468_0.2.0, %B52 ], [ %.460, %B3680 ], [ %.475, %B4148 ]
  store float %storemerge, ptr %retptr, align 4
  ret i32 0

B3672.endif:                                      ; preds = %B286.i.i, %B128.i.i, %B82.i
  %"$phi232.0.3.052.i.i" = phi i64 [ -2638381946312093631, %B286.i.i ], [ %const1, %B82.i ], [ %const2, %B128.i.i ]
  %"$phi166.0.3.04350.i.i" = phi i64 [ %const2, %B286.i.i ], [ 0, %B82.i ], [ %const1, %B128.i.i ]
  %"$phi298.0.3.0.i.i" = phi i64 [ 9162768974287332016, %B286.i.i ], [ 9084793890461609696, %B82.i ], [ 7904181063698728992, %B128.i.i ]
  %1 = call i1 @llvm.is.fpclass.f32(float %arg.x, i32 519)
  br i1 %1, label %B4148, label %B3680
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fabs.f32(float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.is.fpclass.f32(float, i32 immarg) #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 49, i32 1}
