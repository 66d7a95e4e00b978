// RUN: uta-opt %s -split-input-file -uta-fold-scalar-gates | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-fold-scalar-gates=gate-operand | FileCheck %s --check-prefix=GATE
// RUN: utac %s --sm=90 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: utac %s --sm=90a --allow-tf32 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=SM90A
// RUN: utac %s --sm=90a --compile-to=fused 2>&1 | FileCheck %s --check-prefix=ACCURATE
// RUN: utac %s --sm=90a --allow-tf32 --uta-gemm-config=fcwgmma128x256x16 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=ACCURATE
// RUN: utac %s --target=spirv --compile-to=fused 2>&1 | FileCheck %s --check-prefix=SPIRV

// FCGP's gated operands: both gates ride on x (one pair_gate over x and
// y's scalar blade), and fc_product reads y as it is.
// CHECK-LABEL: func @fcgp
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8x16xf32>, %[[Y:[^:]+]]: tensor<4x8x16xf32>, %[[W:[^:]+]]: tensor<10x16x12xf32>)
//   CHECK-NOT:   clifford.scalar_gate
//       CHECK:   %[[G:.+]] = clifford.pair_gate <2, 0, 0> %[[X]], %[[Y]] : tensor<4x8x16xf32>
//   CHECK-NOT:   clifford.scalar_gate
//       CHECK:   clifford.fc_product <2, 0, 0> %[[G]], %[[Y]], %[[W]]
// Every CUDA target with tensor cores folds them before fusion: pair_gate
// is a kernel of its own and no scalar_gate is left. SPIR-V fuses the
// gates into fc_product's kernel instead and keeps them.
// CUDA-LABEL: func @fcgp
//   CUDA-NOT:   clifford.scalar_gate
//       CUDA:   clifford.pair_gate <2, 0, 0> %arg0, %arg1
//   CUDA-NOT:   clifford.scalar_gate
//       CUDA:   return
// SPIRV-LABEL: func @fcgp
//   SPIRV-NOT:   clifford.pair_gate
//       SPIRV:   clifford.scalar_gate
//   SPIRV-NOT:   clifford.pair_gate
//       SPIRV:   return
// With gate-operand (sm_90a's pipelines in TF32), the gates become fc_product's
// gate operand: pair_gate_factor writes Phi(x_0) Phi(y_0) [B, Fin], and
// fc_product reads x and y as they are.
// GATE-LABEL: func @fcgp
//  GATE-SAME:   (%[[X:[^:]+]]: tensor<4x8x16xf32>, %[[Y:[^:]+]]: tensor<4x8x16xf32>, %[[W:[^:]+]]: tensor<10x16x12xf32>)
//   GATE-NOT:   clifford.scalar_gate
//       GATE:   %[[G:.+]] = clifford.pair_gate_factor <2, 0, 0> %[[X]], %[[Y]] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<8x16xf32>
//   GATE-NOT:   clifford.scalar_gate
//       GATE:   clifford.fc_product <2, 0, 0> %[[X]], %[[Y]], %[[W]] gate %[[G]]
// In 3xTF32 the warp-specialised schedule runs slot by slot and would copy
// a gate tile for every step, and a named fc_product row of another
// schedule reads no gate: the gates ride on x there.
// ACCURATE-LABEL: func @fcgp
//   ACCURATE-NOT:   clifford.pair_gate_factor
//       ACCURATE:   clifford.pair_gate <2, 0, 0> %arg0, %arg1
// SM90A-LABEL: func @fcgp
//   SM90A-NOT:   clifford.scalar_gate
//       SM90A:   %[[G:.+]] = clifford.pair_gate_factor <2, 0, 0> %arg0, %arg1
//       SM90A:   clifford.fc_product <2, 0, 0> %arg0, %arg1, %{{.+}} gate %[[G]] {transpose_weights = true}
func.func @fcgp(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> tensor<4x8x12xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x8x16xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x8x16xf32>
  %z = clifford.fc_product <2, 0, 0> %gx, %gy, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %z : tensor<4x8x12xf32>
}

// -----

// One gate for both operands: pair_gate(x, x).
// CHECK-LABEL: func @same_operand
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<4x8x16xf32>
//       CHECK:   %[[G:.+]] = clifford.pair_gate <2, 0, 0> %[[X]], %[[X]]
//       CHECK:   clifford.fc_product <2, 0, 0> %[[G]], %[[X]],
func.func @same_operand(%x: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> tensor<4x8x12xf32> {
  %g = clifford.scalar_gate <2, 0, 0> %x : tensor<4x8x16xf32>
  %z = clifford.fc_product <2, 0, 0> %g, %g, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %z : tensor<4x8x12xf32>
}

// -----

// A gate read elsewhere keeps its kernel: folding would add one.
// CHECK-LABEL: func @gate_read_elsewhere
//   CHECK-NOT:   clifford.pair_gate
//       CHECK:   return
func.func @gate_read_elsewhere(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> (tensor<4x8x12xf32>, tensor<4x8x16xf32>) {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x8x16xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x8x16xf32>
  %z = clifford.fc_product <2, 0, 0> %gx, %gy, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %z, %gy : tensor<4x8x12xf32>, tensor<4x8x16xf32>
}

// -----

// Only one operand gated: nothing to fold.
// CHECK-LABEL: func @one_gate
//   CHECK-NOT:   clifford.pair_gate
//       CHECK:   clifford.scalar_gate
func.func @one_gate(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %w: tensor<10x16x12xf32>) -> tensor<4x8x12xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x8x16xf32>
  %z = clifford.fc_product <2, 0, 0> %gx, %y, %w : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<10x16x12xf32>) -> tensor<4x8x12xf32>
  return %z : tensor<4x8x12xf32>
}

// -----

// Input features that do not make 16-byte rows: the warp-specialised
// schedule, which alone reads a gate operand, cannot take the product, so
// even with gate-operand the gates ride on x.
// GATE-LABEL: func @rows_not_16_bytes
//   GATE-NOT:   clifford.pair_gate_factor
//       GATE:   %[[G:.+]] = clifford.pair_gate <2, 0, 0> %arg0, %arg1
//       GATE:   clifford.fc_product <2, 0, 0> %[[G]], %arg1, %arg2 :
// SM90A-LABEL: func @rows_not_16_bytes
//   SM90A-NOT:   clifford.pair_gate_factor
//       SM90A:   clifford.pair_gate <2, 0, 0>
func.func @rows_not_16_bytes(%x: tensor<4x8x6xf32>, %y: tensor<4x8x6xf32>, %w: tensor<10x6x12xf32>) -> tensor<4x8x12xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x8x6xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x8x6xf32>
  %z = clifford.fc_product <2, 0, 0> %gx, %gy, %w : (tensor<4x8x6xf32>, tensor<4x8x6xf32>, tensor<10x6x12xf32>) -> tensor<4x8x12xf32>
  return %z : tensor<4x8x12xf32>
}
