// The blade sets recorded by clifford-simplify-grades reach the kernels:
// through the whole pipeline to the gpu phase, a product expands only the
// Cayley terms between the recorded blades (one arith.mulf per term with
// vectorization off).
// RUN: uta-opt %s -split-input-file --uta-lower-to-gpu-pipeline="vectorize=false" | FileCheck %s

// A vector times a bivector in Cl(3,0): 3 * 3 = 9 terms, all non-zero,
// instead of 8 * 8 = 64. Both projections are read once and recomputed in
// the product's kernel, which multiplies nothing else.
// CHECK-LABEL: gpu.func @{{.*}}vector_times_bivector
//  CHECK-COUNT-9:   arith.mulf
//   CHECK-NOT:   arith.mulf
//       CHECK:   gpu.return
func.func @vector_times_bivector(%x: tensor<8x100xf32>, %y: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x100xf32>
  %b = clifford.grade_project <3, 0, 0> %y grades [2] : tensor<8x100xf32>
  %p = clifford.geometric_product <3, 0, 0> %v, %b : (tensor<8x100xf32>, tensor<8x100xf32>) -> tensor<8x100xf32>
  return %p : tensor<8x100xf32>
}

// -----

// Without known grades the product keeps all 64 terms.
// CHECK-LABEL: gpu.func @{{.*}}full_product
//  CHECK-COUNT-64:   arith.mulf
//   CHECK-NOT:   arith.mulf
//       CHECK:   gpu.return
func.func @full_product(%x: tensor<8x100xf32>, %y: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %p = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x100xf32>, tensor<8x100xf32>) -> tensor<8x100xf32>
  return %p : tensor<8x100xf32>
}

// -----

// An even rotor (blades 0, e12, e13, e23) sandwiching a vector: r x has
// 4 * 3 = 12 terms and lands on the odd blades (e1, e2, e3, e123), so
// (r x) reverse(r) has 4 * 4 = 16: 28 products instead of 2 * 64.
// CHECK-LABEL: gpu.func @{{.*}}rotor_sandwich
//  CHECK-COUNT-28:   arith.mulf
//   CHECK-NOT:   arith.mulf
//       CHECK:   gpu.return
func.func @rotor_sandwich(%r: tensor<8x1xf32>, %x: tensor<8x100xf32>) -> tensor<8x100xf32> {
  %e = clifford.grade_project <3, 0, 0> %r grades [0, 2] : tensor<8x1xf32>
  %v = clifford.grade_project <3, 0, 0> %x grades [1] : tensor<8x100xf32>
  %y = clifford.sandwich <3, 0, 0> %e, %v : (tensor<8x1xf32>, tensor<8x100xf32>) -> tensor<8x100xf32>
  return %y : tensor<8x100xf32>
}
