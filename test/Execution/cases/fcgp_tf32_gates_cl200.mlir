// gpu-check: --sm=90a --allow-tf32
// gpu-check-tolerance: 5e-3
// The FCGP layer in plain TF32 with tails in B and Fout: its gates as
// fc_product's gate operand (a pair_gate_factor kernel, then the gate
// tiles copied by the warp-specialised schedule, with A in registers and
// a group in flight), and the norm applied by that kernel.
func.func @fcgp_tf32_gates_cl200(%x: tensor<4x300x96xf32>, %y: tensor<4x300x96xf32>, %w: tensor<10x96x200xf32>) -> tensor<4x300x200xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x300x96xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x300x96xf32>
  %p = clifford.fc_product <2, 0, 0> %gx, %gy, %w : (tensor<4x300x96xf32>, tensor<4x300x96xf32>, tensor<10x96x200xf32>) -> tensor<4x300x200xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x300x200xf32>
  return %n : tensor<4x300x200xf32>
}
