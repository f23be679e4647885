; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v141B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental10_log_partsB4v222B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental11_int_to_f64B4v223B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_dd_mulB4v144B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9_two_prodB4v131B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental13_fast_two_sumB4v145B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental8_two_sumB3v63B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_exp_ddB4v123B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd8UniTupleIdLi10EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental12_pow_specialB4v148B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdddddd = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_pow_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0, double %arg.x1) local_unnamed_addr #0 {
B10405.endif:
  %const130 = bitcast i64 4843621399236968394 to i64
  %const = bitcast i64 4607182418800017408 to i64
  %.13 = tail call double @llvm.fabs.f64(double %arg.x0)
  %.8.i = fcmp olt double %.13, 0x10000000000000
  %.18.i = fmul double %.13, 0x4350000000000000
  %.3713.in.in.i = select i1 %.8.i, double %.18.i, double %.13
  %.3713.in.i = bitcast double %.3713.in.in.i to i64
  %.3713.i = add nsw i64 %.3713.in.i, -4604544271217802189
  %.4215.i = ashr i64 %.3713.i, 52
  %const_mat = add i64 %const130, 54
  %.59.i = select i1 %.8.i, i64 %const130, i64 %const_mat
  %.5.i.i = add nsw i64 %.4215.i, %.59.i
  %.6.i.i = bitcast i64 %.5.i.i to double
  %.7.i.i = fadd double %.6.i.i, 0xC338000000000000
  %.92.i = and i64 %.3713.i, 4503599627370495
  %.95.i = add nuw nsw i64 %.92.i, 4604544271217802189
  %.96.i = bitcast i64 %.95.i to double
  %.97.i = fadd double %.96.i, -1.000000e+00
  %.49 = fadd double %.97.i, 2.000000e+00
  %.55 = fdiv double %.97.i, %.49
  %.6.i = fmul double %.49, %.55
  %.7.i = fmul double %.55, 0x41A0000002000000
  %.8.i1 = fsub double %.7.i, %.55
  %.9.i = fsub double %.7.i, %.8.i1
  %.10.i = fmul double %.49, 0x41A0000002000000
  %.11.i = fsub double %.10.i, %.49
  %.12.i = fsub double %.10.i, %.11.i
  %.13.i = fsub double %.55, %.9.i
  %.14.i = fsub double %.49, %.12.i
  %.15.i = fmul double %.12.i, %.9.i
  %.16.i = fsub double %.15.i, %.6.i
  %.17.i = fmul double %.9.i, %.14.i
  %.18.i2 = fadd double %.17.i, %.16.i
  %.19.i = fmul double %.12.i, %.13.i
  %.20.i = fadd double %.19.i, %.18.i2
  %.21.i = fmul double %.14.i, %.13.i
  %.22.i = fadd double %.21.i, %.20.i
  %.50 = fadd double %.49, -2.000000e+00
  %.51 = fsub double %.97.i, %.50
  %.89 = fsub double %.97.i, %.6.i
  %.90 = fsub double %.89, %.22.i
  %.91 = fmul double %.55, %.51
  %.92 = fsub double %.90, %.91
  %.96 = fdiv double %.92, %.49
  %.6.i.i3 = fmul double %.55, %.55
  %.15.i.i = fmul double %.9.i, %.9.i
  %.16.i.i = fsub double %.15.i.i, %.6.i.i3
  %.17.i.i = fmul double %.9.i, %.13.i
  %.18.i.i = fadd double %.16.i.i, %.17.i.i
  %.20.i.i = fadd double %.17.i.i, %.18.i.i
  %.21.i.i = fmul double %.13.i, %.13.i
  %.22.i.i = fadd double %.21.i.i, %.20.i.i
  %.44.i = fmul double %.55, %.96
  %.46.i = fadd double %.44.i, %.44.i
  %.47.i = fadd double %.22.i.i, %.46.i
  %.6.i1.i = fadd double %.6.i.i3, %.47.i
  %0 = fsub double %.6.i.i3, %.6.i1.i
  %.8.i3.i = fadd double %.47.i, %0
  %.173 = tail call double @llvm.fmuladd.f64(double %.6.i1.i, double 0x3FBE6BDAD89C9DB8, double 0x3FBDEC37DD0B8CB0)
  %.175 = tail call double @llvm.fmuladd.f64(double %.173, double %.6.i1.i, double 0x3FC111CDEA24B043)
  %.177 = tail call double @llvm.fmuladd.f64(double %.175, double %.6.i1.i, double 0x3FC3B137E4C253DC)
  %.179 = tail call double @llvm.fmuladd.f64(double %.177, double %.6.i1.i, double 0x3FC745D17C30C89B)
  %.181 = tail call double @llvm.fmuladd.f64(double %.179, double %.6.i1.i, double 0x3FCC71C71C678117)
  %.183 = tail call double @llvm.fmuladd.f64(double %.181, double %.6.i1.i, double 0x3FD24924924927A0)
  %.193 = tail call double @llvm.fmuladd.f64(double %.183, double %.6.i1.i, double 0x3FD9999999999999)
  %.194 = fmul double %.6.i1.i, %.193
  %.6.i5 = fadd double %.194, 0x3FE5555555555555
  %.7.i6 = fadd double %.6.i5, 0xBFE5555555555555
  %.8.i7 = fsub double %.194, %.7.i6
  %.228 = fadd double %.8.i7, 0x3C85580000000000
  %.6.i.i9 = fmul double %.6.i1.i, %.6.i5
  %.7.i.i10 = fmul double %.6.i1.i, 0x41A0000002000000
  %.8.i.i11 = fsub double %.7.i.i10, %.6.i1.i
  %.9.i.i12 = fsub double %.7.i.i10, %.8.i.i11
  %.10.i.i13 = fmul double %.6.i5, 0x41A0000002000000
  %.11.i.i14 = fsub double %.10.i.i13, %.6.i5
  %.12.i.i15 = fsub double %.10.i.i13, %.11.i.i14
  %.13.i.i16 = fsub double %.6.i1.i, %.9.i.i12
  %.14.i.i17 = fsub double %.6.i5, %.12.i.i15
  %.15.i.i18 = fmul double %.9.i.i12, %.12.i.i15
  %.16.i.i19 = fsub double %.15.i.i18, %.6.i.i9
  %.17.i.i20 = fmul double %.9.i.i12, %.14.i.i17
  %.18.i.i21 = fadd double %.16.i.i19, %.17.i.i20
  %.19.i.i22 = fmul double %.13.i.i16, %.12.i.i15
  %.20.i.i23 = fadd double %.19.i.i22, %.18.i.i21
  %.21.i.i24 = fmul double %.13.i.i16, %.14.i.i17
  %.22.i.i25 = fadd double %.21.i.i24, %.20.i.i23
  %.44.i26 = fmul double %.6.i1.i, %.228
  %.45.i27 = fmul double %.8.i3.i, %.6.i5
  %.46.i28 = fadd double %.45.i27, %.44.i26
  %.47.i29 = fadd double %.46.i28, %.22.i.i25
  %.6.i1.i30 = fadd double %.6.i.i9, %.47.i29
  %.7.i2.i31 = fsub double %.6.i1.i30, %.6.i.i9
  %.8.i3.i32 = fsub double %.47.i29, %.7.i2.i31
  %.6.i.i34 = fmul double %.55, %.6.i1.i30
  %.10.i.i38 = fmul double %.6.i1.i30, 0x41A0000002000000
  %.11.i.i39 = fsub double %.10.i.i38, %.6.i1.i30
  %.12.i.i40 = fsub double %.10.i.i38, %.11.i.i39
  %.14.i.i42 = fsub double %.6.i1.i30, %.12.i.i40
  %.15.i.i43 = fmul double %.9.i, %.12.i.i40
  %.16.i.i44 = fsub double %.15.i.i43, %.6.i.i34
  %.17.i.i45 = fmul double %.9.i, %.14.i.i42
  %.18.i.i46 = fadd double %.16.i.i44, %.17.i.i45
  %.19.i.i47 = fmul double %.13.i, %.12.i.i40
  %.20.i.i48 = fadd double %.19.i.i47, %.18.i.i46
  %.21.i.i49 = fmul double %.13.i, %.14.i.i42
  %.22.i.i50 = fadd double %.21.i.i49, %.20.i.i48
  %.44.i51 = fmul double %.55, %.8.i3.i32
  %.45.i52 = fmul double %.96, %.6.i1.i30
  %.46.i53 = fadd double %.45.i52, %.44.i51
  %.47.i54 = fadd double %.46.i53, %.22.i.i50
  %.6.i1.i55 = fadd double %.6.i.i34, %.47.i54
  %.7.i2.i56 = fsub double %.6.i1.i55, %.6.i.i34
  %.8.i3.i57 = fsub double %.47.i54, %.7.i2.i56
  %.295 = fmul double %.55, 2.000000e+00
  %.6.i59 = fadd double %.295, %.6.i1.i55
  %.7.i60 = fsub double %.6.i59, %.295
  %.8.i61 = fsub double %.6.i1.i55, %.7.i60
  %.329 = fmul double %.7.i.i, 0x3FE62E42FEFA3800
  %.6.i63 = fadd double %.329, %.6.i59
  %.7.i64 = fsub double %.6.i63, %.329
  %.8.i65 = fsub double %.6.i63, %.7.i64
  %.9.i66 = fsub double %.329, %.8.i65
  %.10.i67 = fsub double %.6.i59, %.7.i64
  %.11.i68 = fadd double %.10.i67, %.9.i66
  %.363 = fmul double %.96, 2.000000e+00
  %.364 = fadd double %.363, %.8.i3.i57
  %.365 = fadd double %.364, %.8.i61
  %.366 = fmul double %.7.i.i, 0x3D2EF35793C76730
  %.367 = fadd double %.366, %.365
  %.368 = fadd double %.367, %.11.i68
  %.6.i70 = fadd double %.6.i63, %.368
  %.7.i71 = fsub double %.6.i70, %.6.i63
  %.8.i72 = fsub double %.368, %.7.i71
  %.6.i74 = fmul double %arg.x1, %.6.i70
  %.7.i75 = fmul double %arg.x1, 0x41A0000002000000
  %.8.i76 = fsub double %.7.i75, %arg.x1
  %.9.i77 = fsub double %.7.i75, %.8.i76
  %.10.i78 = fmul double %.6.i70, 0x41A0000002000000
  %.11.i79 = fsub double %.10.i78, %.6.i70
  %.12.i80 = fsub double %.10.i78, %.11.i79
  %.13.i81 = fsub double %arg.x1, %.9.i77
  %.14.i82 = fsub double %.6.i70, %.12.i80
  %.15.i83 = fmul double %.9.i77, %.12.i80
  %.16.i84 = fsub double %.15.i83, %.6.i74
  %.17.i85 = fmul double %.9.i77, %.14.i82
  %.18.i86 = fadd double %.16.i84, %.17.i85
  %.19.i87 = fmul double %.13.i81, %.12.i80
  %.20.i88 = fadd double %.19.i87, %.18.i86
  %.21.i89 = fmul double %.13.i81, %.14.i82
  %.22.i90 = fadd double %.21.i89, %.20.i88
  %.447 = fmul double %arg.x1, %.8.i72
  %.448 = fadd double %.447, %.22.i90
  %.453 = tail call double @llvm.fabs.f64(double %.448)
  %.454 = fcmp olt double %.453, 1.000000e+00
  %.15.i.i92 = fcmp olt double %.6.i74, -7.460000e+02
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i92, double -7.460000e+02, double %.6.i74
  %.42.i.i = fcmp ogt double %"$phi22.0.2.0.i.i", 7.100000e+02
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, double 7.100000e+02, double %"$phi22.0.2.0.i.i"
  %.43.i = fcmp ogt double %.6.i74, -7.460000e+02
  %.45.i93 = fcmp olt double %.6.i74, 7.100000e+02
  %.46.i94 = and i1 %.43.i, %.45.i93
  %1 = select i1 %.46.i94, i1 %.454, i1 false
  %spec.select.i = select i1 %1, double %.448, double 0.000000e+00
  %.93.i = fmul double %"$phi42.0.2.0.i.i", 0x3FF71547652B82FE
  %.94.i = fadd double %.93.i, 0x4338000000000000
  %.95.i95 = fadd double %.94.i, 0xC338000000000000
  %.96.i96 = fmul double %.95.i95, 0x3FE62E42FEFA3800
  %.97.i97 = fsub double %"$phi42.0.2.0.i.i", %.96.i96
  %.98.i = fmul double %.95.i95, 0x3D2EF35793C76730
  %.99.i = fsub double %spec.select.i, %.98.i
  %.100.i = fadd double %.97.i97, %.99.i
  %.101.i = fmul double %.100.i, %.100.i
  %.127.i = tail call double @llvm.fmuladd.f64(double %.100.i, double 0x3E5AD7F715303616, double 0x3E928AD73B4FA416)
  %.129.i = tail call double @llvm.fmuladd.f64(double %.127.i, double %.100.i, double 0x3EC71DF254F7B222)
  %.131.i = tail call double @llvm.fmuladd.f64(double %.129.i, double %.100.i, double 0x3EFA0199A0B5243D)
  %.133.i = tail call double @llvm.fmuladd.f64(double %.131.i, double %.100.i, double 0x3F2A01A012A595C8)
  %.135.i = tail call double @llvm.fmuladd.f64(double %.133.i, double %.100.i, double 0x3F56C16C1842A823)
  %.137.i = tail call double @llvm.fmuladd.f64(double %.135.i, double %.100.i, double 0x3F81111111127BE0)
  %.139.i = tail call double @llvm.fmuladd.f64(double %.137.i, double %.100.i, double 0x3FA555555555087A)
  %.141.i = tail call double @llvm.fmuladd.f64(double %.139.i, double %.100.i, double 0x3FC55555555554FA)
  %.153.i = tail call double @llvm.fmuladd.f64(double %.141.i, double %.100.i, double 0x3FE000000000000A)
  %.154.i = fmul double %.101.i, %.153.i
  %.155.i = fadd double %.100.i, %.154.i
  %.156.i = fadd double %.155.i, 1.000000e+00
  %.158.i = bitcast double %.94.i to i64
  %.159.i = add nsw i64 %.158.i, -4843621399236968448
  %.6.i.i98 = ashr i64 %.159.i, 1
  %.7.i.i99 = shl i64 %.6.i.i98, 52
  %.8.i.i100 = add i64 %.7.i.i99, %const
  %.9.i.i101 = bitcast i64 %.8.i.i100 to double
  %.10.i.i102 = fmul double %.156.i, %.9.i.i101
  %.11.i.i103 = sub i64 %.158.i, %.6.i.i98
  %.12.i.i104 = shl i64 %.11.i.i103, 52
  %.13.i.i105 = add i64 %.12.i.i104, %const
  %.14.i.i106 = bitcast i64 %.13.i.i105 to double
  %.15.i1.i = fmul double %.10.i.i102, %.14.i.i106
  %.34.le.i = tail call double @llvm.floor.f64(double %arg.x1)
  %.40.i = fcmp oeq double %.34.le.i, %arg.x1
  %.45.i107 = tail call double @llvm.fabs.f64(double %arg.x1)
  %.46.i108 = fcmp olt double %.45.i107, 0x4340000000000000
  %.50.i = fmul double %arg.x1, 5.000000e-01
  %.58.le.i = tail call double @llvm.floor.f64(double %.50.i)
  %.64.i = fmul double %.58.le.i, 2.000000e+00
  %.66.i = fcmp une double %.64.i, %arg.x1
  %2 = and i1 %.46.i108, %.66.i
  %.67.i = and i1 %.40.i, %2
  %.78.i = fcmp olt double %arg.x0, 0.000000e+00
  %.80.i = and i1 %.78.i, %.67.i
  %.83.i = fneg double %.15.i1.i
  %"$phi224.0.2.0.i" = select i1 %.80.i, double %.83.i, double %.15.i1.i
  %.108.i = fcmp one double %arg.x0, 0xFFF0000000000000
  %.111.i = xor i1 %.40.i, true
  %3 = and i1 %.108.i, %.111.i
  %.114.i = and i1 %.78.i, %3
  %"$phi274.0.2.0.i" = select i1 %.114.i, double 0x7FF8000000000000, double %"$phi224.0.2.0.i"
  %.158.i109 = fcmp oeq double %arg.x0, 0.000000e+00
  br i1 %.158.i109, label %B338.i, label %B368.i

common.ret:                                       ; preds = %B462.i, %B502.i, %B518.i
  %"$phi556.0.4.0.i" = phi double [ %spec.select7.i, %B518.i ], [ 1.000000e+00, %B502.i ], [ %"$phi462.0.4.0.i", %B462.i ]
  %.323.i = fcmp uno double %arg.x0, %arg.x1
  %spec.select8.i = select i1 %.323.i, double 0x7FF8000000000000, double %"$phi556.0.4.0.i"
  %.352.i = fcmp oeq double %arg.x0, 1.000000e+00
  %.357.i = fcmp oeq double %arg.x1, 0.000000e+00
  %.362.i = or i1 %.352.i, %.357.i
  %"$phi630.0.2.0.i" = select i1 %.362.i, double 1.000000e+00, double %spec.select8.i
  store double %"$phi630.0.2.0.i", ptr %retptr, align 8
  ret i32 0

B338.i:                                           ; preds = %B10405.endif
  %.141.i111 = tail call double @llvm.copysign.f64(double 0x7FF0000000000000, double %arg.x0)
  %"$phi324.0.2.0.i" = select i1 %.67.i, double %.141.i111, double 0x7FF0000000000000
  %.164.i = fcmp olt double %arg.x1, 0.000000e+00
  br i1 %.164.i, label %B368.i, label %B354.i

B354.i:                                           ; preds = %B338.i
  br i1 %.67.i, label %B374.i, label %B418.i

B368.i:                                           ; preds = %B338.i, %B10405.endif
  %"$phi368.0.4.0.i" = phi double [ %"$phi274.0.2.0.i", %B10405.endif ], [ %"$phi324.0.2.0.i", %B338.i ]
  br i1 %.67.i, label %B374.i, label %B418.i

B374.i:                                           ; preds = %B368.i, %B354.i
  %"$phi368.0.4.03.i" = phi double [ %"$phi368.0.4.0.i", %B368.i ], [ %arg.x0, %B354.i ]
  %.203.i = tail call double @llvm.copysign.f64(double 0.000000e+00, double %arg.x0)
  br label %B418.i

B418.i:                                           ; preds = %B374.i, %B368.i, %B354.i
  %"$phi368.0.4.02.i" = phi double [ %"$phi368.0.4.03.i", %B374.i ], [ %"$phi368.0.4.0.i", %B368.i ], [ 0.000000e+00, %B354.i ]
  %"$phi418.0.2.0.i" = phi double [ %.203.i, %B374.i ], [ 0.000000e+00, %B368.i ], [ 0.000000e+00, %B354.i ]
  %4 = call i1 @llvm.is.fpclass.f64(double %arg.x0, i32 516)
  br i1 %4, label %B432.i, label %B462.i

B432.i:                                           ; preds = %B418.i
  %.226.i = fcmp olt double %arg.x1, 0.000000e+00
  br i1 %.226.i, label %B462.i, label %B448.i

B448.i:                                           ; preds = %B432.i
  %spec.select.i110 = select i1 %.67.i, double %arg.x0, double 0x7FF0000000000000
  br label %B462.i

B462.i:                                           ; preds = %B448.i, %B432.i, %B418.i
  %"$phi462.0.4.0.i" = phi double [ %spec.select.i110, %B448.i ], [ %"$phi418.0.2.0.i", %B432.i ], [ %"$phi368.0.4.02.i", %B418.i ]
  %5 = call i1 @llvm.is.fpclass.f64(double %arg.x1, i32 516)
  br i1 %5, label %B502.i, label %common.ret

B502.i:                                           ; preds = %B462.i
  %.276.i = fcmp oeq double %.13, 1.000000e+00
  br i1 %.276.i, label %common.ret, label %B518.i

B518.i:                                           ; preds = %B502.i
  %.287.i = fcmp olt double %.13, 1.000000e+00
  %6 = fcmp uge double %arg.x1, 0.000000e+00
  %.293.i = xor i1 %.287.i, %6
  %spec.select7.i = select i1 %.293.i, double 0x7FF0000000000000, double 0.000000e+00
  br label %common.ret
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.floor.f64(double) #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.copysign.f64(double, double) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.is.fpclass.f64(double, i32 immarg) #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
