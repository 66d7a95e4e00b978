// The f32 erf that uta-spirv-expand-math leaves (GLSL.std.450 has no erf),
// run on the host against libm's double erf over [-10, 10] and over tiny
// arguments down to 1e-30: the largest absolute error must stay below 5e-7
// (a few f32 ulps of 1; measured 2.5e-7) and the largest error relative to
// |erf(x)| below 1e-6 (measured 2.6e-7), well inside the f32 tolerance of
// 1e-5 of `utac run --check`.
// RUN: uta-opt %s --uta-spirv-expand-math \
// RUN: | mlir-opt --pass-pipeline="builtin.module(convert-math-to-libm,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils \
// RUN: | FileCheck %s

// The pass leaves no f32 erf behind.
// RUN: uta-opt %s --uta-spirv-expand-math | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @errors_at
// IR-NOT: math.erf {{.*}} : f32
// IR: math.erf {{.*}} : f64

// CHECK-LABEL: linear grid
// CHECK-NEXT: max_abs
// CHECK-NEXT: max_rel
// CHECK-NEXT: abs_ok 1
// CHECK-NEXT: rel_ok 1
// CHECK-LABEL: tiny arguments
// CHECK-NEXT: max_abs
// CHECK-NEXT: max_rel
// CHECK-NEXT: abs_ok 1
// CHECK-NEXT: rel_ok 1

// The absolute and relative error of the f32 erf at x (rounded to f32).
func.func @errors_at(%x64: f64) -> (f64, f64) {
  %x = arith.truncf %x64 : f64 to f32
  %approx = math.erf %x : f32
  %xe = arith.extf %x : f32 to f64
  %exact = math.erf %xe : f64
  %approx64 = arith.extf %approx : f32 to f64
  %diff = arith.subf %approx64, %exact : f64
  %abs = math.absf %diff : f64
  %mag = math.absf %exact : f64
  %tiny = arith.constant 1.0e-300 : f64
  %den = arith.maximumf %mag, %tiny : f64
  %rel = arith.divf %abs, %den : f64
  return %abs, %rel : f64, f64
}

// Prints whether the largest errors over x = start * step^i (geometric) or
// start + i * step (linear), i < count, are within the bounds.
func.func @check(%start: f64, %step: f64, %count: index, %geometric: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r:3 = scf.for %i = %c0 to %count step %c1
      iter_args(%x = %start, %maxAbs = %zero, %maxRel = %zero)
      -> (f64, f64, f64) {
    %e:2 = func.call @errors_at(%x) : (f64) -> (f64, f64)
    %neg = arith.negf %x : f64
    %f:2 = func.call @errors_at(%neg) : (f64) -> (f64, f64)
    %a0 = arith.maximumf %maxAbs, %e#0 : f64
    %a1 = arith.maximumf %a0, %f#0 : f64
    %r0 = arith.maximumf %maxRel, %e#1 : f64
    %r1 = arith.maximumf %r0, %f#1 : f64
    %mul = arith.mulf %x, %step : f64
    %add = arith.addf %x, %step : f64
    %next = arith.select %geometric, %mul, %add : f64
    scf.yield %next, %a1, %r1 : f64, f64, f64
  }
  %absBound = arith.constant 5.0e-7 : f64
  %relBound = arith.constant 1.0e-6 : f64
  %absOk = arith.cmpf olt, %r#1, %absBound : f64
  %relOk = arith.cmpf olt, %r#2, %relBound : f64
  vector.print str "max_abs "
  vector.print %r#1 : f64
  vector.print str "max_rel "
  vector.print %r#2 : f64
  vector.print str "abs_ok "
  vector.print %absOk : i1
  vector.print str "rel_ok "
  vector.print %relOk : i1
  return
}

func.func @main() {
  %false = arith.constant false
  %true = arith.constant true
  // 0, 1e-5, ..., 10 (and their negatives): 1000001 points.
  vector.print str "linear grid\n"
  %start = arith.constant 0.0 : f64
  %step = arith.constant 1.0e-5 : f64
  %count = arith.constant 1000001 : index
  func.call @check(%start, %step, %count, %false) : (f64, f64, index, i1) -> ()
  // 1e-30 up to about 1e-2, in 30000 geometric steps.
  vector.print str "tiny arguments\n"
  %tinyStart = arith.constant 1.0e-30 : f64
  %ratio = arith.constant 1.0021513 : f64
  %tinyCount = arith.constant 30000 : index
  func.call @check(%tinyStart, %ratio, %tinyCount, %true)
      : (f64, f64, index, i1) -> ()
  return
}
