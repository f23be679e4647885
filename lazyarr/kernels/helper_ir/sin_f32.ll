; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB3v50B58c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2IZJFEEM0wQAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7sin_f32B3v31B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_reduce_f32B3v39B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental17_reduce_f32_smallB3v40B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental17_reduce_f32_largeB3v41B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEf = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B3v42B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_sin_f32(ptr noalias writeonly captures(none) %retptr, ptr noalias writeonly captures(none) %excinfo, float %arg.x0) local_unnamed_addr #0 {
B0:
  %.6 = alloca float, align 4
  %excinfo.1 = alloca ptr, align 8
  %.10 = call i32 @_ZN7lazyarr7kernels14transcendental7sin_f32B3v31B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf(ptr nonnull %.6, ptr nonnull %excinfo.1, float %arg.x0)
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
define linkonce_odr noundef range(i32 -1, -2) i32 @_ZN7lazyarr7kernels14transcendental7sin_f32B3v31B56c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMFYBFOOlH7AIpoAEf(ptr noalias writeonly captures(none) initializes((0, 4)) %retptr, ptr noalias readnone captures(none) %excinfo, float %arg.x) local_unnamed_addr #0 {
B0:
  %.8 = tail call float @llvm.fabs.f32(float %arg.x)
  %.9 = fcmp olt float %.8, 0x4130000000000000
  br i1 %.9, label %B52, label %B82.i

B52:                                              ; preds = %B0
  %.14 = tail call float @llvm.fmuladd.f32(float %arg.x, float 0x3FE45F3060000000, float 0x4168000000000000)
  %.15 = fadd float %.14, 0xC168000000000000
  %.33 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBFF921FB40000000, float %arg.x)
  %.51 = fmul float %.15, 0xBE74442D00000000
  %.69 = fneg float %.51
  %.70 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBE74442D00000000, float %.69)
  %.71 = fadd float %.33, %.51
  %.72 = fsub float %.71, %.33
  %.73 = fsub float %.71, %.72
  %.74 = fsub float %.33, %.73
  %.75 = fsub float %.51, %.72
  %.76 = fadd float %.75, %.74
  %.111 = fadd float %.70, %.76
  %.112 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBB78CC5180000000, float %.111)
  %.113 = tail call float @llvm.fmuladd.f32(float %.15, float 0xBCF8469880000000, float %.112)
  %.114 = bitcast float %.14 to i32
  %.132 = fmul float %.71, %.71
  %.138 = fmul float %.71, %.132
  %.157 = tail call float @llvm.fmuladd.f32(float %.132, float 0xBF29877D00000000, float 0x3F81104CA0000000)
  %.162 = tail call float @llvm.fmuladd.f32(float %.157, float %.132, float 0xBFC55553E0000000)
  %.164 = tail call float @llvm.fmuladd.f32(float %.138, float %.162, float %.113)
  %.166 = fadd float %.71, %.164
  %.172 = fcmp oeq float %.71, 0.000000e+00
  %sin_f32_small_v34__sin_qr_f32_v36__vphi142_0.2.0 = select i1 %.172, float %.71, float %.166
  %.217 = tail call float @llvm.fmuladd.f32(float %.132, float 0x3EF99C7300000000, float 0xBF56C0C6E0000000)
  %.219 = tail call float @llvm.fmuladd.f32(float %.217, float %.132, float 0x3FA55554C0000000)
  %.225 = tail call float @llvm.fmuladd.f32(float %.219, float %.132, float -5.000000e-01)
  %0 = fneg float %.113
  %.233 = fmul float %.71, %0
  %.235 = tail call float @llvm.fmuladd.f32(float %.132, float %.225, float %.233)
  %.238 = fadd float %.235, 1.000000e+00
  %.244 = and i32 %.114, 1
  %.246.not = icmp eq i32 %.244, 0
  %sin_f32_small_v34__sin_qr_f32_v36__vphi304_0.2.0 = select i1 %.246.not, float %sin_f32_small_v34__sin_qr_f32_v36__vphi142_0.2.0, float %.238
  %.273 = and i32 %.114, 2
  %.277.not = icmp eq i32 %.273, 0
  %.280 = fneg float %sin_f32_small_v34__sin_qr_f32_v36__vphi304_0.2.0
  %sin_f32_small_v34__sin_qr_f32_v36__vphi356_0.2.0 = select i1 %.277.not, float %sin_f32_small_v34__sin_qr_f32_v36__vphi304_0.2.0, float %.280
  br label %common.ret

B82.i:                                            ; preds = %B0
  %const1 = bitcast i64 -6703182060581546711 to i64
  %.8.i1.i = bitcast float %.8 to i32
  %.9.i.i = zext nneg i32 %.8.i1.i to i64
  %.15.i.i = lshr i64 %.9.i.i, 23
  %.16.i.i = add nsw i64 %.15.i.i, -24
  %.21.i.i = ashr i64 %.16.i.i, 6
  %.26.i.i = icmp slt i64 %.21.i.i, 2
  br i1 %.26.i.i, label %B6823.endif, label %B128.i.i

B128.i.i:                                         ; preds = %B82.i
  %const2 = bitcast i64 -277156292786332224 to i64
  %.33.i.i = icmp eq i64 %.21.i.i, 2
  br i1 %.33.i.i, label %B6823.endif, label %B286.i.i

B286.i.i:                                         ; preds = %B128.i.i
  br label %B6823.endif

B6825:                                            ; preds = %B6823.endif
  %const = bitcast i64 4843621398700097536 to i64
  %.86.i = fcmp olt float %arg.x, 0.000000e+00
  %.197.i.i = fcmp olt float %.8, 0x3EB0000000000000
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
  %.128.i.i = add nsw i64 %.127.i.i, 2305843009213693952
  %.129.i.i = lshr i64 %.128.i.i, 62
  %"$phi828.2.2.060.i.i" = select i1 %.197.i.i, i64 0, i64 %.129.i.i
  %.91.i = sub nsw i64 0, %"$phi828.2.2.060.i.i"
  %"$phi200.0.2.sroa.0.0.i" = select i1 %.86.i, i64 %.91.i, i64 %"$phi828.2.2.060.i.i"
  %.233.i.i = fpext float %.8 to double
  %.165.i.i = and i64 %.127.i.i, 4294967295
  %const_mat = add i64 %const, 536870912
  %.5.i1.i.i = or disjoint i64 %.165.i.i, %const_mat
  %.6.i2.i.i = bitcast i64 %.5.i1.i.i to double
  %.7.i3.i.i = fadd double %.6.i2.i.i, 0xC338000000000000
  %.190.i.i = fmul double %.7.i3.i.i, 0x3C10000000000000
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
  %.347 = fmul double %"$phi200.0.2.sroa.8.0.i", %"$phi200.0.2.sroa.8.0.i"
  %.375 = tail call double @llvm.fmuladd.f64(double %.347, double 0x3EC6CB4CBD60FEB1, double 0xBF2A00F2E73A0D42)
  %.377 = tail call double @llvm.fmuladd.f64(double %.375, double %.347, double 0x3F81111086A865D2)
  %.379 = tail call double @llvm.fmuladd.f64(double %.377, double %.347, double 0xBFC5555554D8F1C2)
  %.386 = tail call double @llvm.fmuladd.f64(double %.379, double %.347, double 1.000000e+00)
  %.387 = fmul double %"$phi200.0.2.sroa.8.0.i", %.386
  %.420 = tail call double @llvm.fmuladd.f64(double %.347, double 0xBE9241CA9877E029, double 0x3EFA010D557D5BDF)
  %.422 = tail call double @llvm.fmuladd.f64(double %.420, double %.347, double 0xBF56C16B81BA1537)
  %.424 = tail call double @llvm.fmuladd.f64(double %.422, double %.347, double 0x3FA5555554ECBF7E)
  %.426 = tail call double @llvm.fmuladd.f64(double %.424, double %.347, double -5.000000e-01)
  %.434 = tail call double @llvm.fmuladd.f64(double %.426, double %.347, double 1.000000e+00)
  %.462 = and i64 %"$phi200.0.2.sroa.0.0.i", 1
  %.463.not = icmp eq i64 %.462, 0
  %spec.select = select i1 %.463.not, double %.387, double %.434
  %.489 = and i64 %"$phi200.0.2.sroa.0.0.i", 2
  %.492.not = icmp eq i64 %.489, 0
  %.498 = fneg double %spec.select
  %_sin_qr_v32__vphi88_2.2.0 = select i1 %.492.not, double %spec.select, double %.498
  %.512 = fptrunc double %_sin_qr_v32__vphi88_2.2.0 to float
  br label %common.ret

B14369:                                           ; preds = %B6823.endif
  %.527 = fsub float %arg.x, %arg.x
  br label %common.ret

common.ret:                                       ; preds = %B14369, %B6825, %B52
  %storemerge = phi float [ %sin_f32_small_v34__sin_qr_f32_v36__vphi356_0.2.0, %B52 ], [ %.512, %B6825 ], [ %.527, %B14369 ]
  store float %storemerge, ptr %retptr, align 4
  ret i32 0

B6823.endif:                                      ; preds = %B286.i.i, %B128.i.i, %B82.i
  %"$phi232.0.3.052.i.i" = phi i64 [ -2638381946312093631, %B286.i.i ], [ %const1, %B82.i ], [ %const2, %B128.i.i ]
  %"$phi166.0.3.04350.i.i" = phi i64 [ %const2, %B286.i.i ], [ 0, %B82.i ], [ %const1, %B128.i.i ]
  %"$phi298.0.3.0.i.i" = phi i64 [ 9162768974287332016, %B286.i.i ], [ 9084793890461609696, %B82.i ], [ 7904181063698728992, %B128.i.i ]
  %1 = call i1 @llvm.is.fpclass.f32(float %arg.x, i32 519)
  br i1 %1, label %B14369, label %B6825
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
