// Every gpu.barrier of the gpu phase is reached by all threads of its block:
// kernels with barriers (grade_rms_norm, alone or ending a fused Flash
// Clifford layer) have no range guard and put each barrier at the top level
// of the kernel body (6 spaces deep in the printed module), never inside an
// scf.if or scf.for, where a thread-dependent condition would leave part of
// the block out (undefined behaviour on CUDA, a deadlock risk). Checked with
// and without vectorization, for features held in registers (one round, or
// a partial second round) and read twice (loops).
// RUN: utac %s --compile-to=gpu > %t.vec
// RUN: utac %s --compile-to=gpu --uta-vectorize=off > %t.scalar
// RUN: FileCheck %s --strict-whitespace --check-prefix=CHECK --input-file=%t.vec
// RUN: FileCheck %s --strict-whitespace --check-prefix=CHECK --input-file=%t.scalar
// RUN: FileCheck %s --strict-whitespace --check-prefix=NESTED --input-file=%t.vec
// RUN: FileCheck %s --strict-whitespace --check-prefix=NESTED --input-file=%t.scalar

// No barrier deeper than the kernel's top level, anywhere in the module.
// NESTED-NOT: {{^       +}}gpu.barrier

// SGP, F = 512: 256 threads per block, 2 features each; a barrier after
// the stores, then one per halving: 1 + 8.
// CHECK-LABEL: gpu.func @sgp_k0_grade_rms_norm
// CHECK-COUNT-9: {{^      }}gpu.barrier
//   CHECK-NOT: gpu.barrier
//       CHECK: gpu.return
func.func @sgp(%x: tensor<8x3x512xf32>, %y: tensor<8x3x512xf32>,
               %w: tensor<512x20xf32>) -> tensor<8x3x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x3x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x3x512xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x3x512xf32>, tensor<8x3x512xf32>, tensor<512x20xf32>) -> tensor<8x3x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x3x512xf32>
  return %n : tensor<8x3x512xf32>
}

// F = 61: 64 threads, those past the features hold zeros: 1 + 6 barriers.
// CHECK-LABEL: gpu.func @odd_k0_grade_rms_norm
// CHECK-COUNT-7: {{^      }}gpu.barrier
//   CHECK-NOT: gpu.barrier
//       CHECK: gpu.return
func.func @odd(%x: tensor<8x3x61xf32>) -> tensor<8x3x61xf32> {
  %n = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x3x61xf32>
  return %n : tensor<8x3x61xf32>
}

// F = 4100: 256 threads striding over the features in loops: 1 + 8.
// CHECK-LABEL: gpu.func @wide_k0_grade_rms_norm
//       CHECK: scf.for
// CHECK-COUNT-9: {{^      }}gpu.barrier
//   CHECK-NOT: gpu.barrier
//       CHECK: scf.for
//       CHECK: gpu.return
func.func @wide(%x: tensor<8x3x4100xf32>) -> tensor<8x3x4100xf32> {
  %n = clifford.grade_rms_norm <3, 0, 0> %x : tensor<8x3x4100xf32>
  return %n : tensor<8x3x4100xf32>
}
