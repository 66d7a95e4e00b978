// The fused Flash Clifford layers compile to PTX that ptxas accepts: the SGP
// layer is one kernel whose blocks add their sums in shared memory between
// barriers, with no atomics; FCGP is three kernels on tensor cores, where
// fc_product's GEMM engine copies its operands from memory: both gates on
// x (pair_gate), the product, the norm.
// REQUIRES: ptxas
// RUN: utac %s --compile-to=ptx > %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: grep -c "^\.visible \.entry" %t.ptx | FileCheck %s --check-prefix=ENTRIES
// RUN: not grep -wE "(atom|red)\.[a-z0-9.]+" %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// Three kernels for FCGP, one for each SGP layer.
// ENTRIES: {{^}}5{{$}}

// CHECK-LABEL: .entry fcgp_cl300_k0_pair_gate(
// CHECK-LABEL: .entry fcgp_cl300_k1_fc_product(
//       CHECK: mma.sync.aligned.m16n8k8
//   CHECK-NOT: .entry
//       CHECK: .entry fcgp_cl300_k2_grade_rms_norm(
//       CHECK: .shared
//       CHECK: bar.sync
//   CHECK-NOT: .entry
// CHECK-LABEL: .entry sgp_cl300_k0_grade_rms_norm(
//       CHECK: .shared
//       CHECK: bar.sync
//   CHECK-NOT: .entry
// CHECK-LABEL: .entry sgp_cl200_tail_k0_grade_rms_norm(
//       CHECK: .shared
//       CHECK: bar.sync

func.func @fcgp_cl300(%x: tensor<8x50x61xf32>, %y: tensor<8x50x61xf32>,
                      %w: tensor<20x61x47xf32>) -> tensor<8x50x47xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x50x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x50x61xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x50x61xf32>, tensor<8x50x61xf32>, tensor<20x61x47xf32>)
      -> tensor<8x50x47xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x50x47xf32>
  return %n : tensor<8x50x47xf32>
}

func.func @sgp_cl300(%x: tensor<8x1000x61xf32>, %y: tensor<8x1000x61xf32>,
                     %w: tensor<61x20xf32>) -> tensor<8x1000x61xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x1000x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x1000x61xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x1000x61xf32>, tensor<8x1000x61xf32>, tensor<61x20xf32>)
      -> tensor<8x1000x61xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x1000x61xf32>
  return %n : tensor<8x1000x61xf32>
}

// More features than a block has threads (300 > 256), in Cl(2,0).
func.func @sgp_cl200_tail(%x: tensor<4x3x300xf32>, %y: tensor<4x3x300xf32>,
                          %w: tensor<300x10xf32>) -> tensor<4x3x300xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x3x300xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x3x300xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x3x300xf32>, tensor<4x3x300xf32>, tensor<300x10xf32>)
      -> tensor<4x3x300xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x3x300xf32>
  return %n : tensor<4x3x300xf32>
}
