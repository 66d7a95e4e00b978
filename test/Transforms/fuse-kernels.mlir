// RUN: uta-opt %s -split-input-file -uta-fuse-kernels | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels=policy=none | FileCheck %s --check-prefix=NONE

// An elementwise chain becomes one kernel rooted at its last op.
// CHECK-LABEL: func @fuse_chain
//       CHECK:   %[[R:.*]] = uta.fusion(%{{.*}}, %{{.*}}, %{{.*}})
//       CHECK:     uta.mul
//       CHECK:     uta.add
//       CHECK:     uta.gelu
//       CHECK:     uta.yield
//   CHECK-NOT:   uta.gelu
//       CHECK:   return %[[R]]
// With fusion off, every op stays its own kernel.
// NONE-LABEL: func @fuse_chain
//   NONE-NOT:   uta.fusion
func.func @fuse_chain(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.mul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %1 = uta.add %0, %c : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.gelu %1 : tensor<64xf32>
  return %2 : tensor<64xf32>
}

// -----

// A matmul with its bias and activation: the epilogue reads each product
// once, so the matmul is computed inside the activation's kernel.
// CHECK-LABEL: func @fuse_matmul_epilogue
//       CHECK:   uta.fusion
//       CHECK:     uta.matmul
//       CHECK:     uta.add
//       CHECK:     uta.gelu
//       CHECK:     uta.yield
func.func @fuse_matmul_epilogue(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  %1 = uta.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = uta.gelu %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// A value read twice by one consumer is recomputed at each read: one
// kernel.
// CHECK-LABEL: func @fuse_two_uses_one_consumer
//       CHECK:   uta.fusion
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: tensor<64xf32>):
//  CHECK-NEXT:     %[[E:.*]] = uta.exp %[[A]]
//  CHECK-NEXT:     %[[S:.*]] = uta.add %[[E]], %[[E]]
//  CHECK-NEXT:     uta.yield %[[S]]
func.func @fuse_two_uses_one_consumer(%a: tensor<64xf32>) -> tensor<64xf32> {
  %0 = uta.exp %a : tensor<64xf32>
  %1 = uta.add %0, %0 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// A cheap value with two consumers is duplicated into both kernels, and its
// own kernel goes.
// CHECK-LABEL: func @fuse_duplicated_into_consumers
//   CHECK-NOT:   uta.exp
//       CHECK:   %[[ADD:.*]] = uta.fusion
//       CHECK:     uta.exp
//  CHECK-NEXT:     uta.add
//       CHECK:   %[[MUL:.*]] = uta.fusion
//       CHECK:     uta.exp
//  CHECK-NEXT:     uta.mul
//       CHECK:   return %[[ADD]], %[[MUL]]
func.func @fuse_duplicated_into_consumers(%a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = uta.exp %a : tensor<64xf32>
  %1 = uta.add %0, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.mul %0, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1, %2 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Must not duplicate: a consumer that cannot recompute the value (a
// matmul) needs it in memory, so every consumer reads it from there.
// CHECK-LABEL: func @no_fuse_duplicate_into_matmul
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[E:.*]] = uta.exp
//  CHECK-NEXT:   uta.neg %[[E]]
//  CHECK-NEXT:   uta.matmul %[[E]]
func.func @no_fuse_duplicate_into_matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> (tensor<8x16xf32>, tensor<8x4xf32>) {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.neg %0 : tensor<8x16xf32>
  %2 = uta.matmul %0, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1, %2 : tensor<8x16xf32>, tensor<8x4xf32>
}

// -----

// Pointwise tensor ops feeding a geometric product, one of them read twice
// (by tanh and by add) and in two blades' worth of places: a single kernel.
// CHECK-LABEL: func @fuse_pointwise_into_clifford
//       CHECK:   uta.fusion
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: tensor<8x64xf32>, %[[B:.*]]: tensor<8x64xf32>, %[[Y:.*]]: tensor<8x64xf32>):
//  CHECK-NEXT:     %[[S:.*]] = uta.mul %[[A]], %[[B]]
//  CHECK-NEXT:     %[[T:.*]] = uta.tanh %[[S]]
//  CHECK-NEXT:     %[[U:.*]] = uta.add %[[T]], %[[S]]
//  CHECK-NEXT:     %[[Z:.*]] = clifford.geometric_product <3, 0, 0> %[[U]], %[[Y]]
//  CHECK-NEXT:     uta.yield %[[Z]]
//   CHECK-NOT:   uta.fusion
func.func @fuse_pointwise_into_clifford(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = uta.mul %a, %b : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %t = uta.tanh %s : tensor<8x64xf32>
  %u = uta.add %t, %s : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %z = clifford.geometric_product <3, 0, 0> %u, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %z : tensor<8x64xf32>
}

// -----

// A matmul re-reads each operand element N times: its producer stays a
// separate kernel instead of being recomputed N times.
// CHECK-LABEL: func @no_fuse_matmul_prologue
//       CHECK:   %[[E:.*]] = uta.exp
//   CHECK-NOT:   uta.fusion
//       CHECK:   uta.matmul %[[E]]
func.func @no_fuse_matmul_prologue(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.matmul %0, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A producer that a consumer broadcasts would be recomputed for every copy.
// CHECK-LABEL: func @no_fuse_broadcast_producer
//       CHECK:   %[[E:.*]] = uta.exp %{{.*}} : tensor<16xf32>
//       CHECK:   uta.mul %{{.*}}, %[[E]]
func.func @no_fuse_broadcast_producer(%a: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = uta.exp %b : tensor<16xf32>
  %1 = uta.mul %a, %0 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// A reduction needed by two consumers stays in memory; an elementwise
// producer of the reduction is folded into it.
// CHECK-LABEL: func @no_fuse_shared_reduction
//       CHECK:   %[[S:.*]] = uta.fusion
//       CHECK:     uta.exp
//       CHECK:     uta.reduce_sum
//       CHECK:   uta.sub %[[S]], %[[S]]
func.func @no_fuse_shared_reduction(%a: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.reduce_sum %0 dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %2 = uta.sub %1, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Reductions never absorb another reduction: the inner one would run
// serially inside each thread of the outer one.
// CHECK-LABEL: func @no_fuse_reduction_into_reduction
//       CHECK:   %[[I:.*]] = uta.reduce_sum %{{.*}} dims [1]
//       CHECK:   uta.reduce_max %[[I]] dims [0]
func.func @no_fuse_reduction_into_reduction(%a: tensor<8x16xf32>) -> tensor<f32> {
  %0 = uta.reduce_sum %a dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %1 = uta.reduce_max %0 dims [0] : tensor<8xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// The Flash Clifford SGP layer is one kernel rooted at the norm. The norm
// makes two passes over the features, but 61 features are one round of its
// block, whose threads keep their 8 blades in registers between the passes
// (passes/Analysis/GradeNormLayout.h): the kernel computes the weighted
// product and the gates once per position, saving a launch and a store and
// reload of the 8 blades of 6100 positions.
// CHECK-LABEL: func @fuse_sgp_layer
//       CHECK:   %[[R:.*]] = uta.fusion
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.weighted_product
//       CHECK:     clifford.grade_rms_norm
//       CHECK:     uta.yield
//   CHECK-NOT:   clifford.
//       CHECK:   return %[[R]]
// NONE-LABEL: func @fuse_sgp_layer
//   NONE-NOT:   uta.fusion
func.func @fuse_sgp_layer(%x: tensor<8x100x61xf32>, %y: tensor<8x100x61xf32>, %w: tensor<61x20xf32>) -> tensor<8x100x61xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x61xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x100x61xf32>, tensor<8x100x61xf32>, tensor<61x20xf32>) -> tensor<8x100x61xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x100x61xf32>
  return %n : tensor<8x100x61xf32>
}

// -----

// In Cl(6,0) a weighted product costs 3 * 64^2 = 12288 operations per
// position. Over 64 features the norm's threads hold their 64 blades in
// registers between its passes, so it computes the product once per
// position: the whole layer is one kernel.
// CHECK-LABEL: func @fuse_large_product_into_resident_norm
//       CHECK:   %[[R:.*]] = uta.fusion
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.weighted_product
//       CHECK:     clifford.grade_rms_norm
//       CHECK:     uta.yield
//   CHECK-NOT:   clifford.
//       CHECK:   return %[[R]]
func.func @fuse_large_product_into_resident_norm(%x: tensor<64x1000x64xf32>, %y: tensor<64x1000x64xf32>, %w: tensor<64x84xf32>) -> tensor<64x1000x64xf32> {
  %gx = clifford.scalar_gate <6, 0, 0> %x : tensor<64x1000x64xf32>
  %gy = clifford.scalar_gate <6, 0, 0> %y : tensor<64x1000x64xf32>
  %p = clifford.weighted_product <6, 0, 0> %gx, %gy, %w
      : (tensor<64x1000x64xf32>, tensor<64x1000x64xf32>, tensor<64x84xf32>) -> tensor<64x1000x64xf32>
  %n = clifford.grade_rms_norm <6, 0, 0> %p : tensor<64x1000x64xf32>
  return %n : tensor<64x1000x64xf32>
}

// -----

// Over 512 features (2 rounds of 64 blades, more than a thread keeps) the
// norm's second pass reads the product again: recomputing it (26 us for
// 64000 positions) costs more than its memory round trip and launch
// (12 us), so the norm reads it from memory; the gates, read once, still
// fuse into it.
// CHECK-LABEL: func @no_fuse_large_product_into_norm
//       CHECK:   %[[P:.*]] = uta.fusion
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.weighted_product
//   CHECK-NOT:     clifford.grade_rms_norm
//       CHECK:     uta.yield
//       CHECK:   clifford.grade_rms_norm <6, 0, 0> %[[P]]
func.func @no_fuse_large_product_into_norm(%x: tensor<64x125x512xf32>, %y: tensor<64x125x512xf32>, %w: tensor<512x84xf32>) -> tensor<64x125x512xf32> {
  %gx = clifford.scalar_gate <6, 0, 0> %x : tensor<64x125x512xf32>
  %gy = clifford.scalar_gate <6, 0, 0> %y : tensor<64x125x512xf32>
  %p = clifford.weighted_product <6, 0, 0> %gx, %gy, %w
      : (tensor<64x125x512xf32>, tensor<64x125x512xf32>, tensor<512x84xf32>) -> tensor<64x125x512xf32>
  %n = clifford.grade_rms_norm <6, 0, 0> %p : tensor<64x125x512xf32>
  return %n : tensor<64x125x512xf32>
}

// -----

// fc_product's blocks each stage the gated x and y of their batch rows, once
// per output tile (passes/Analysis/FcProductTiling.h): 47 outputs are one
// tile of 64 (2 outputs per thread, 32 column threads), so each gate
// position is computed once either way and FCGP is two kernels. fc_product
// itself loops over the input features, so the norm never recomputes it.
// CHECK-LABEL: func @fuse_fcgp_gates_small
//       CHECK:   %[[P:.*]] = uta.fusion
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.scalar_gate
//       CHECK:     clifford.fc_product
//       CHECK:     uta.yield
//       CHECK:   clifford.grade_rms_norm <3, 0, 0> %[[P]]
func.func @fuse_fcgp_gates_small(%x: tensor<8x509x61xf32>, %y: tensor<8x509x61xf32>, %w: tensor<20x61x47xf32>) -> tensor<8x509x47xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x509x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x509x61xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x509x61xf32>, tensor<8x509x61xf32>, tensor<20x61x47xf32>) -> tensor<8x509x47xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x509x47xf32>
  return %n : tensor<8x509x47xf32>
}

// -----

// The benchmark's FCGP in Cl(3,0), [8, 4096, 512] -> 512: tiles of 128
// outputs (4 per thread, 32 column threads), so 4 output tiles recompute
// each of the 2^21 gate positions; the 3 extra gates (28 operations each)
// cost 5.87 us against 37.6 us for a gate kernel's store, reload and
// launch: the gates fuse and FCGP is two kernels.
// CHECK-LABEL: func @fuse_fcgp_gates_bench
//       CHECK:   %[[P:.*]] = uta.fusion
//       CHECK:     clifford.scalar_gate <3, 0, 0>
//       CHECK:     clifford.scalar_gate <3, 0, 0>
//       CHECK:     clifford.fc_product
//       CHECK:     uta.yield
//   CHECK-NOT:   clifford.scalar_gate
//       CHECK:   clifford.grade_rms_norm <3, 0, 0> %[[P]]
func.func @fuse_fcgp_gates_bench(%x: tensor<8x4096x512xf32>, %y: tensor<8x4096x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<8x4096x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x512xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x512xf32>, tensor<8x4096x512xf32>, tensor<20x512x512xf32>) -> tensor<8x4096x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x512xf32>
  return %n : tensor<8x4096x512xf32>
}

// -----

// With 4096 output features, 32 tiles of 128 recompute each of the 2^20
// gate positions: 31 extra gates per position (30.3 us) cost more than a
// gate kernel (20.8 us), so the gates stay kernels of their own.
// CHECK-LABEL: func @no_fuse_fcgp_gates_wide
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[GX:.*]] = clifford.scalar_gate
//       CHECK:   %[[GY:.*]] = clifford.scalar_gate
//       CHECK:   clifford.fc_product <3, 0, 0> %[[GX]], %[[GY]]
func.func @no_fuse_fcgp_gates_wide(%x: tensor<8x4096x256xf32>, %y: tensor<8x4096x256xf32>, %w: tensor<20x256x4096xf32>) -> tensor<8x4096x4096xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x256xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x256xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x256xf32>, tensor<8x4096x256xf32>, tensor<20x256x4096xf32>) -> tensor<8x4096x4096xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x4096xf32>
  return %n : tensor<8x4096x4096xf32>
}

// -----

// A broadcast rotor is read by all 4096 positions, but reversing it costs 8
// operations: recomputing it everywhere is cheaper than a launch.
// CHECK-LABEL: func @fuse_broadcast_rotor
//       CHECK:   uta.fusion
//       CHECK:     clifford.reverse
//       CHECK:     clifford.sandwich
func.func @fuse_broadcast_rotor(%r: tensor<8x1xf32>, %x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %g = clifford.reverse <3, 0, 0> %r : tensor<8x1xf32>
  %y = clifford.sandwich <3, 0, 0> %g, %x : (tensor<8x1xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}

// -----

// A consumer recomputes its producer a multivector at a time along its own
// blade axis; a producer with its blades on another axis stays in memory.
// CHECK-LABEL: func @no_fuse_other_blade_axis
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[G:.*]] = clifford.scalar_gate
//       CHECK:   clifford.geometric_product <3, 0, 0> %[[G]]
func.func @no_fuse_other_blade_axis(%x: tensor<8x8x5xf32>, %y: tensor<8x8x5xf32>) -> tensor<8x8x5xf32> {
  %g = clifford.scalar_gate <3, 0, 0> %x {blade_axis = 1} : tensor<8x8x5xf32>
  %z = clifford.geometric_product <3, 0, 0> %g, %y : (tensor<8x8x5xf32>, tensor<8x8x5xf32>) -> tensor<8x8x5xf32>
  return %z : tensor<8x8x5xf32>
}

// -----

// Clifford producers fuse only into clifford consumers.
// CHECK-LABEL: func @no_fuse_clifford_into_uta
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[G:.*]] = clifford.scalar_gate
//       CHECK:   uta.add %[[G]]
func.func @no_fuse_clifford_into_uta(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %g = clifford.scalar_gate <3, 0, 0> %x : tensor<8x5xf32>
  %z = uta.add %g, %y : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// A gate read as both operands of a product is computed once per operand
// in the product's kernel.
// CHECK-LABEL: func @fuse_gate_read_twice
//       CHECK:   uta.fusion
//  CHECK-NEXT:   ^bb0(%[[X:.*]]: tensor<8x5xf32>):
//  CHECK-NEXT:     %[[G:.*]] = clifford.scalar_gate <3, 0, 0> %[[X]]
//  CHECK-NEXT:     clifford.geometric_product <3, 0, 0> %[[G]], %[[G]]
func.func @fuse_gate_read_twice(%x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %g = clifford.scalar_gate <3, 0, 0> %x : tensor<8x5xf32>
  %z = clifford.geometric_product <3, 0, 0> %g, %g : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// softmax is always a kernel of its own: its producer and its consumer stay
// kernels of their own too.
// CHECK-LABEL: func @no_fuse_around_softmax
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[E:.*]] = uta.exp
//       CHECK:   %[[S:.*]] = uta.softmax %[[E]]
//       CHECK:   uta.relu %[[S]]
func.func @no_fuse_around_softmax(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.softmax %0 dim 1 : tensor<8x16xf32>
  %2 = uta.relu %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// The cost model counts the Cayley terms a product's kernel keeps. A
// broadcast Cl(6,0) product that a sandwich reads at 100000 positions costs
// 27.3 us to recompute everywhere with all 4096 terms (more than the 4 us a
// launch and a round trip cost), but 0.24 us with the 36 terms left between
// two vectors: the pruned one fuses, the full one does not.
// CHECK-LABEL: func @fuse_pruned_product
//       CHECK:   uta.fusion
//       CHECK:     clifford.geometric_product
//       CHECK:     clifford.sandwich
func.func @fuse_pruned_product(%a: tensor<64x1xf32>, %b: tensor<64x1xf32>, %x: tensor<64x100000xf32>) -> tensor<64x100000xf32> {
  %r = clifford.geometric_product <6, 0, 0> %a, %b {lhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>, rhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>} : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x1xf32>
  %y = clifford.sandwich <6, 0, 0> %r, %x : (tensor<64x1xf32>, tensor<64x100000xf32>) -> tensor<64x100000xf32>
  return %y : tensor<64x100000xf32>
}

// -----

// CHECK-LABEL: func @no_fuse_unpruned_product
//   CHECK-NOT:   uta.fusion
//       CHECK:   %[[R:.*]] = clifford.geometric_product
//       CHECK:   clifford.sandwich <6, 0, 0> %[[R]]
func.func @no_fuse_unpruned_product(%a: tensor<64x1xf32>, %b: tensor<64x1xf32>, %x: tensor<64x100000xf32>) -> tensor<64x100000xf32> {
  %r = clifford.geometric_product <6, 0, 0> %a, %b : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x1xf32>
  %y = clifford.sandwich <6, 0, 0> %r, %x : (tensor<64x1xf32>, tensor<64x100000xf32>) -> tensor<64x100000xf32>
  return %y : tensor<64x100000xf32>
}
