; ModuleID = 'wrapper'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@_ZN08NumbaEnv13_3cdynamic_3e7wrapperB4v124B66c8tJTIeFIjxB2IKSgI4CrvSCKg1MMbCQQPKkLTj8gMGIFqNQvZjxD5MoghivCQA_3dEd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental9_two_prodB4v131B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental7_exp_ddB4v123B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdd8UniTupleIdLi10EE = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_clampB4v124B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEddd = common local_unnamed_addr global ptr null
@_ZN08NumbaEnv7lazyarr7kernels14transcendental6_ldexpB4v127B56c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAK4JJIqUWsIgmAA_3d_3dEdx = common local_unnamed_addr global ptr null

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define noundef range(i32 -1, -2) i32 @lazyarr_helper_erf_f64(ptr noalias writeonly captures(none) initializes((0, 8)) %retptr, ptr noalias readnone captures(none) %excinfo, double %arg.x0) local_unnamed_addr #0 {
common.ret:
  %const = bitcast i64 4607182418800017408 to i64
  %.199 = tail call double @llvm.fabs.f64(double %arg.x0)
  %.200 = fmul double %arg.x0, %arg.x0
  %.225 = tail call double @llvm.fmuladd.f64(double %.200, double 0x3E4701B1100868A5, double 0xBE8515D15E6DAA21)
  %.227 = tail call double @llvm.fmuladd.f64(double %.225, double %.200, double 0x3EBB84231DF0A9DE)
  %.229 = tail call double @llvm.fmuladd.f64(double %.227, double %.200, double 0xBEEF4B38764A7720)
  %.231 = tail call double @llvm.fmuladd.f64(double %.229, double %.200, double 0x3F1F9A1B0D6AC9BD)
  %.233 = tail call double @llvm.fmuladd.f64(double %.231, double %.200, double 0xBF4C02DA89046CC9)
  %.235 = tail call double @llvm.fmuladd.f64(double %.233, double %.200, double 0x3F7565BCCD670F42)
  %.237 = tail call double @llvm.fmuladd.f64(double %.235, double %.200, double 0xBF9B82CE3114843B)
  %.239 = tail call double @llvm.fmuladd.f64(double %.237, double %.200, double 0x3FBCE2F21A03F0F0)
  %.241 = tail call double @llvm.fmuladd.f64(double %.239, double %.200, double 0xBFD812746B0379A3)
  %.254 = tail call double @llvm.fmuladd.f64(double %.241, double %.200, double 0x3FC06EBA8214DB68)
  %.255 = fmul double %.199, %.254
  %.256 = fadd double %.199, %.255
  %.15.i = fcmp olt double %.199, 8.437500e-01
  %"$phi22.0.2.0.i" = select i1 %.15.i, double 8.437500e-01, double %.199
  %.42.i = fcmp ogt double %"$phi22.0.2.0.i", 6.000000e+00
  %"$phi42.0.2.0.i" = select i1 %.42.i, double 6.000000e+00, double %"$phi22.0.2.0.i"
  %.287 = fadd double %"$phi42.0.2.0.i", -3.000000e+00
  %.288 = fadd double %"$phi42.0.2.0.i", 3.000000e+00
  %.292 = fdiv double %.287, %.288
  %.329 = tail call double @llvm.fmuladd.f64(double %.292, double 0xBE8944D3D00BBDF0, double 0xBE90CE83BAC7E82D)
  %.331 = tail call double @llvm.fmuladd.f64(double %.329, double %.292, double 0x3EB4E658C5DD0E8E)
  %.333 = tail call double @llvm.fmuladd.f64(double %.331, double %.292, double 0x3EC1A7C1C7E76D30)
  %.335 = tail call double @llvm.fmuladd.f64(double %.333, double %.292, double 0xBEE0BBD1F586A9CD)
  %.337 = tail call double @llvm.fmuladd.f64(double %.335, double %.292, double 0xBEEAF71B35753BC3)
  %.339 = tail call double @llvm.fmuladd.f64(double %.337, double %.292, double 0x3F10CAC99FC59042)
  %.341 = tail call double @llvm.fmuladd.f64(double %.339, double %.292, double 0x3F07BA08E248A328)
  %.343 = tail call double @llvm.fmuladd.f64(double %.341, double %.292, double 0xBF439084DA2C4F8E)
  %.345 = tail call double @llvm.fmuladd.f64(double %.343, double %.292, double 0x3F473101ED55A0DB)
  %.347 = tail call double @llvm.fmuladd.f64(double %.345, double %.292, double 0x3F717C838F0751A8)
  %.349 = tail call double @llvm.fmuladd.f64(double %.347, double %.292, double 0xBF98FA58EB5ED894)
  %.351 = tail call double @llvm.fmuladd.f64(double %.349, double %.292, double 0x3FB258B13B017008)
  %.353 = tail call double @llvm.fmuladd.f64(double %.351, double %.292, double 0xBFC336FFBEF08AC5)
  %.355 = tail call double @llvm.fmuladd.f64(double %.353, double %.292, double 0x3FCF6FF20410597F)
  %.357 = tail call double @llvm.fmuladd.f64(double %.355, double %.292, double 0xBFD4E102B9CF8513)
  %.376 = tail call double @llvm.fmuladd.f64(double %.357, double %.292, double 0x3FC6E9827D229D2D)
  %.6.i = fmul double %"$phi42.0.2.0.i", %"$phi42.0.2.0.i"
  %.7.i = fmul double %"$phi42.0.2.0.i", 0x41A0000002000000
  %0 = fsub double %"$phi42.0.2.0.i", %.7.i
  %.9.i = fadd double %.7.i, %0
  %.13.i = fsub double %"$phi42.0.2.0.i", %.9.i
  %.15.i1 = fmul double %.9.i, %.9.i
  %.16.i = fsub double %.15.i1, %.6.i
  %.17.i = fmul double %.9.i, %.13.i
  %.18.i = fadd double %.16.i, %.17.i
  %.20.i = fadd double %.17.i, %.18.i
  %.21.i = fmul double %.13.i, %.13.i
  %.22.i = fadd double %.21.i, %.20.i
  %.411 = fneg double %.6.i
  %.412 = fneg double %.22.i
  %.15.i.i = fcmp olt double %.411, -7.460000e+02
  %"$phi22.0.2.0.i.i" = select i1 %.15.i.i, double -7.460000e+02, double %.411
  %.42.i.i = fcmp ogt double %"$phi22.0.2.0.i.i", 7.100000e+02
  %"$phi42.0.2.0.i.i" = select i1 %.42.i.i, double 7.100000e+02, double %"$phi22.0.2.0.i.i"
  %.43.i = fcmp olt double %.6.i, 7.460000e+02
  %.45.i = fcmp ogt double %.6.i, -7.100000e+02
  %.46.i = and i1 %.43.i, %.45.i
  %spec.select.i = select i1 %.46.i, double %.412, double 0.000000e+00
  %.93.i = fmul double %"$phi42.0.2.0.i.i", 0x3FF71547652B82FE
  %.94.i = fadd double %.93.i, 0x4338000000000000
  %.95.i = fadd double %.94.i, 0xC338000000000000
  %.96.i = fmul double %.95.i, 0x3FE62E42FEFA3800
  %.97.i = fsub double %"$phi42.0.2.0.i.i", %.96.i
  %.98.i = fmul double %.95.i, 0x3D2EF35793C76730
  %.99.i = fsub double %spec.select.i, %.98.i
  %.100.i = fadd double %.97.i, %.99.i
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
  %.6.i.i = ashr i64 %.159.i, 1
  %.7.i.i = shl i64 %.6.i.i, 52
  %.8.i.i = add i64 %.7.i.i, %const
  %.9.i.i = bitcast i64 %.8.i.i to double
  %.10.i.i = fmul double %.156.i, %.9.i.i
  %.11.i.i = sub i64 %.158.i, %.6.i.i
  %.12.i.i = shl i64 %.11.i.i, 52
  %.13.i.i = add i64 %.12.i.i, %const
  %.14.i.i = bitcast i64 %.13.i.i to double
  %.15.i1.i = fmul double %.10.i.i, %.14.i.i
  %.457 = fmul double %.376, %.15.i1.i
  %.458 = fsub double 1.000000e+00, %.457
  %.462 = fcmp ole double %.199, 8.437500e-01
  %erf_f64_v125__erf64_v126__vphi336_2.2.0 = select i1 %.462, double %.256, double %.458
  %.486 = tail call double @llvm.copysign.f64(double %erf_f64_v125__erf64_v126__vphi336_2.2.0, double %arg.x0)
  store double %.486, ptr %retptr, align 8
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
