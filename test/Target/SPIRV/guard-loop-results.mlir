// RUN: uta-opt %s -split-input-file --uta-spirv-guard-loop-results \
// RUN:   | FileCheck %s

// A loop whose trip count may be zero (thread t sums elements t, t + 64,
// ... of a 47-element row) goes under `lower < upper`; otherwise its
// results are the initial values. SCFToSPIRV would otherwise read them
// from variables only the loop body writes.
// CHECK-LABEL: func.func @strided_sum
// CHECK-SAME: (%[[T:.*]]: index, %[[ROW:.*]]: memref<47xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C47:.*]] = arith.constant 47 : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[T]], %[[C47]] : index
// CHECK: %[[SUM:.*]] = scf.if %[[RUNS]] -> (f32) {
// CHECK:   %[[LOOP:.*]] = scf.for %{{.*}} = %[[T]] to %[[C47]] step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK:   scf.yield %[[LOOP]] : f32
// CHECK: } else {
// CHECK:   scf.yield %[[ZERO]] : f32
// CHECK: }
// CHECK: return %[[SUM]] : f32
func.func @strided_sum(%t: index, %row: memref<47xf32>) -> f32 {
  %c47 = arith.constant 47 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %t to %c47 step %c64 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %row[%i] : memref<47xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  return %sum : f32
}

// -----

// Constant bounds with lower < upper run at least once: left alone. So are
// loops without results (nothing is read after them).
// CHECK-LABEL: func.func @known_trips
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.if
func.func @known_trips(%n: index, %row: memref<47xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c47 = arith.constant 47 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c47 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %row[%i] : memref<47xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %sum, %row[%i] : memref<47xf32>
  }
  return %sum : f32
}

// -----

// An unsigned loop is guarded with an unsigned comparison.
// CHECK-LABEL: func.func @unsigned_bounds
// CHECK: arith.cmpi ult
// CHECK: scf.if
func.func @unsigned_bounds(%lb: i32, %ub: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.for unsigned %i = %lb to %ub step %c1 iter_args(%acc = %lb) -> (i32) : i32 {
    %next = arith.addi %acc, %i : i32
    scf.yield %next : i32
  }
  return %r : i32
}
