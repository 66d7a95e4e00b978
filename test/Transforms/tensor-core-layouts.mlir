// RUN: uta-opt %s -split-input-file -uta-tensor-core-layouts | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-tensor-core-layouts=round-to-tf32 | FileCheck %s --check-prefix=ROUND
// RUN: utac %s --sm=90a --compile-to=fused 2>&1 | FileCheck %s --check-prefix=UTAC
// RUN: utac %s --sm=90a --allow-tf32 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=UTAC-TF32
// RUN: utac %s --sm=90 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=SM90

// f32 weights [P, Fin, Fout] become K-major: a transpose, then the product
// with transpose_weights.
// CHECK-LABEL: func @fc
//  CHECK-SAME:   (%{{.*}}: tensor<4x8x16xf32>, %{{.*}}: tensor<4x8x16xf32>, %[[W:.*]]: tensor<10x16x12xf32>)
//       CHECK:   %[[T:.*]] = uta.transpose %[[W]] [0, 2, 1] : tensor<10x16x12xf32> -> tensor<10x12x16xf32>
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %[[T]] {transpose_weights = true} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x12x16xf32>) -> tensor<4x8x12xf32>
// On sm_90a the pipeline runs the pass before fusion: the transpose is a
// kernel of its own (nothing fuses into fc_product on tensor cores); sm_90
// (mma.sync, which reads either layout) keeps the weights as they are.
// UTAC-LABEL: func @fc
//  UTAC-NEXT:   %[[T:.*]] = uta.transpose %arg2 [0, 2, 1]
//  UTAC-NEXT:   clifford.fc_product <2, 0, 0> %arg0, %arg1, %[[T]] {transpose_weights = true}
// With round-to-tf32 (the pipelines' choice for --allow-tf32, whose
// products read the copy as TF32) the copy rounds the weights; 3xTF32 needs
// them exact, and keeps the plain copy (UTAC above).
// ROUND-LABEL: func @fc
//       ROUND:   %[[T:.*]] = uta.transpose %{{.*}} [0, 2, 1] {round_to_tf32} : tensor<10x16x12xf32> -> tensor<10x12x16xf32>
//       ROUND:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %[[T]] {transpose_weights = true}
// UTAC-TF32-LABEL: func @fc
//  UTAC-TF32-NEXT:   %[[T:.*]] = uta.transpose %arg2 [0, 2, 1] {round_to_tf32}
//  UTAC-TF32-NEXT:   clifford.fc_product <2, 0, 0> %arg0, %arg1, %[[T]] {transpose_weights = true}
// SM90-LABEL: func @fc
//   SM90-NOT:   uta.transpose
//   SM90-NOT:   transpose_weights
//       SM90:   return
func.func @fc(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> tensor<4x8x12xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %r : tensor<4x8x12xf32>
}

// -----

// Weights that are already the transpose of K-major ones: the product reads
// those, and no copy is made.
// CHECK-LABEL: func @fc_of_transpose
//  CHECK-SAME:   %[[K:[^:]*]]: tensor<10x12x16xf32>
//   CHECK-NOT:   uta.transpose %[[K]]
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %[[K]] {transpose_weights = true}
// Nor a rounded one: the product truncates weights it did not copy.
// ROUND-LABEL: func @fc_of_transpose
//   ROUND-NOT:   round_to_tf32
//       ROUND:   return
func.func @fc_of_transpose(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %k: tensor<10x12x16xf32>) -> tensor<4x8x12xf32> {
  %w = uta.transpose %k [0, 2, 1] : tensor<10x12x16xf32> -> tensor<10x16x12xf32>
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %r : tensor<4x8x12xf32>
}

// -----

// Weights that are a rounding transpose of K-major ones are not those: the
// product reads a K-major copy of the rounded weights.
// CHECK-LABEL: func @fc_of_rounding_transpose
//  CHECK-SAME:   %[[K:[^:]*]]: tensor<10x12x16xf32>
//       CHECK:   %[[W:.*]] = uta.transpose %[[K]] [0, 2, 1] {round_to_tf32}
//       CHECK:   %[[T:.*]] = uta.transpose %[[W]] [0, 2, 1] :
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %[[T]] {transpose_weights = true}
func.func @fc_of_rounding_transpose(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %k: tensor<10x12x16xf32>) -> tensor<4x8x12xf32> {
  %w = uta.transpose %k [0, 2, 1] {round_to_tf32} : tensor<10x12x16xf32> -> tensor<10x16x12xf32>
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %r : tensor<4x8x12xf32>
}

// -----

// Left alone: weights already K-major, and input features whose rows are
// not a multiple of 16 bytes (Fin = 6).
// CHECK-LABEL: func @left_alone
//   CHECK-NOT:   uta.transpose
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %{{.*}} {transpose_weights = true}
//       CHECK:   clifford.fc_product <2, 0, 0> %{{.*}}, %{{.*}}, %{{.*}} :
func.func @left_alone(%x: tensor<4x8x16xf32>, %k: tensor<10x12x16xf32>, %v: tensor<4x8x6xf32>, %u: tensor<10x6x12xf32>) -> (tensor<4x8x12xf32>, tensor<4x8x12xf32>) {
  %r = clifford.fc_product <2, 0, 0> %x, %x, %k {transpose_weights = true} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x12x16xf32>) -> tensor<4x8x12xf32>
  %s = clifford.fc_product <2, 0, 0> %v, %v, %u : (tensor<4x8x6xf32>, tensor<4x8x6xf32>, tensor<10x6x12xf32>) -> tensor<4x8x12xf32>
  return %r, %s : tensor<4x8x12xf32>, tensor<4x8x12xf32>
}

// -----

// fc_product_weight_gradient takes its pairs and its cotangent
// batch-contiguous where the batch makes 16-byte rows (B = 8): one
// transpose where x and y are one value, none where a pair is itself such a
// transpose (CSE merges the copies of one value later); B = 6 is left alone.
// CHECK-LABEL: func @weight_gradient_pairs
//  CHECK-SAME:   (%[[G:.*]]: tensor<4x8x12xf32>, %[[X:.*]]: tensor<4x8x16xf32>, %[[XT:.*]]: tensor<4x16x8xf32>, %{{.*}}: tensor<4x6x12xf32>, %[[V:.*]]: tensor<4x6x16xf32>)
//       CHECK:   %[[T:.*]] = uta.transpose %[[X]] [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
//       CHECK:   %[[GT:.*]] = uta.transpose %[[G]] [0, 2, 1] : tensor<4x8x12xf32> -> tensor<4x12x8xf32>
//       CHECK:   clifford.fc_product_weight_gradient <2, 0, 0> %[[GT]], %[[T]], %[[T]] {transpose_cotangent = true, transpose_pairs = true} : (tensor<4x12x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<10x16x12xf32>
//       CHECK:   %[[T2:.*]] = uta.transpose %[[X]] [0, 2, 1]
//       CHECK:   %[[GT2:.*]] = uta.transpose %[[G]] [0, 2, 1]
//       CHECK:   clifford.fc_product_weight_gradient <2, 0, 0> %[[GT2]], %[[XT]], %[[T2]] {transpose_cotangent = true, transpose_pairs = true}
//       CHECK:   clifford.fc_product_weight_gradient <2, 0, 0> %{{.*}}, %[[V]], %[[V]] :
// With round-to-tf32 the cotangent's copy, the kernel's B, is rounded; the
// pairs are not (their products are rounded in registers).
// ROUND-LABEL: func @weight_gradient_pairs
//       ROUND:   uta.transpose %{{.*}} [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
//       ROUND:   uta.transpose %{{.*}} [0, 2, 1] {round_to_tf32} : tensor<4x8x12xf32> -> tensor<4x12x8xf32>
func.func @weight_gradient_pairs(%g: tensor<4x8x12xf32>, %x: tensor<4x8x16xf32>, %xt: tensor<4x16x8xf32>, %h: tensor<4x6x12xf32>, %v: tensor<4x6x16xf32>) -> (tensor<10x16x12xf32>, tensor<10x16x12xf32>, tensor<10x16x12xf32>) {
  %a = clifford.fc_product_weight_gradient <2, 0, 0> %g, %x, %x : (tensor<4x8x12xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<10x16x12xf32>
  %back = uta.transpose %xt [0, 2, 1] : tensor<4x16x8xf32> -> tensor<4x8x16xf32>
  %b = clifford.fc_product_weight_gradient <2, 0, 0> %g, %back, %x : (tensor<4x8x12xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<10x16x12xf32>
  %c = clifford.fc_product_weight_gradient <2, 0, 0> %h, %v, %v : (tensor<4x6x12xf32>, tensor<4x6x16xf32>, tensor<4x6x16xf32>) -> tensor<10x16x12xf32>
  return %a, %b, %c : tensor<10x16x12xf32>, tensor<10x16x12xf32>, tensor<10x16x12xf32>
}

// -----

// fc_product_pair_cotangents' weights are its GEMM's B: in plain TF32 they
// go through a copy that only rounds (an identity transpose), once; without
// round-to-tf32 they are left as they are.
// CHECK-LABEL: func @pair_cotangents
//   CHECK-NOT:   uta.transpose
//       CHECK:   return
// ROUND-LABEL: func @pair_cotangents
//  ROUND-SAME:   (%{{.*}}: tensor<4x8x12xf32>, %[[W:.*]]: tensor<10x16x12xf32>)
//       ROUND:   %[[R:.*]] = uta.transpose %[[W]] [0, 1, 2] {round_to_tf32} : tensor<10x16x12xf32> -> tensor<10x16x12xf32>
//       ROUND:   clifford.fc_product_pair_cotangents <2, 0, 0> %{{.*}}, %[[R]] :
//   ROUND-NOT:   uta.transpose
//       ROUND:   return
func.func @pair_cotangents(%g: tensor<4x8x12xf32>, %w: tensor<10x16x12xf32>) -> tensor<14x8x16xf32> {
  %t = clifford.fc_product_pair_cotangents <2, 0, 0> %g, %w : (tensor<4x8x12xf32>, tensor<10x16x12xf32>) -> tensor<14x8x16xf32>
  return %t : tensor<14x8x16xf32>
}

