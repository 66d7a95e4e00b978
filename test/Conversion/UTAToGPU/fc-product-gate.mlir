// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=fcwgmma64x128x32 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMED
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT

// fc_product with a gate operand [B, Fin] on sm_90a's warp-specialised
// schedule: the gate is copied by TMA through a fourth tensor map (a 2-D
// box of 128 rows by 32 features) into the x tile of a term slot, ahead of
// the terms of the first step that reads its K tile.
// TF32: remark: fc_product on the GEMM engine, per result blade: 100x72x40 f32: wgmma, warp-specialised, tf32
// TF32-LABEL: gpu.func @fc_gated_k0_fc_product
//  TF32-SAME:   %[[GATE:arg3]]: memref<100x40xf32>
//  TF32-SAME:   %[[GATEMAP:arg9]]: !llvm.ptr) kernel
//  TF32-SAME:   #uta.tensor_map<argument = 9, source = 3, box = [128, 32], swizzle = 128>
//       TF32:   %[[X:.*]] = memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       TF32:   %[[STEPS:.*]] = arith.muli %{{.*}}, %c2 : index
//  TF32-NEXT:   %[[SLOTS:.*]] = arith.divui %[[STEPS]], %c2
// The producer: the step's weights, then, where the step is the first of
// its K tile (step mod slots = 0, the steps running K tile by K tile), the
// gate box (16 KiB: half a term slot) into the next term unit.
//       TF32:   scf.for %[[STEP:.*]] = %c0 to %[[STEPS]] step %c1 iter_args(%[[UNIT:.*]] = %c0) -> (index)
//       TF32:     %[[POS:.*]] = arith.remui %[[STEP]], %[[SLOTS]] : index
//       TF32:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg8, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}]
//       TF32:     %[[FIRST:.*]] = arith.cmpi ult, %[[POS]], %c1 : index
//       TF32:     scf.if %[[FIRST]] -> (index) {
//       TF32:       nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
//       TF32:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[GATEMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] :
//       TF32:       arith.addi %[[UNIT]], %c1
// The consumers carry 16 gates (one per register of their A fragments)
// beside the accumulators and the unit; the first step of a K tile waits
// for the gate's unit, loads its fragments from the x tile by ldmatrix and
// releases the slot before the terms.
//       TF32:   scf.for {{.*}} iter_args(
//       TF32:     %[[POSC:.*]] = arith.remui %{{.*}}, %[[SLOTS]] : index
//       TF32:     %[[FIRSTC:.*]] = arith.cmpi ult, %[[POSC]], %c1 : index
//       TF32:     %[[GATES:.*]]:17 = scf.if %[[FIRSTC]] -> (index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
//       TF32:       nvvm.mbarrier.try_wait
// TF32-COUNT-4:     nvgpu.ldmatrix %[[X]]
//       TF32:       nvvm.barrier.arrive
// The terms' units follow the gate's; the sums of the step (the results of
// the last term's branch) are scaled by the gates, then rounded to TF32.
//       TF32:     arith.remui %[[GATES]]#0, %c4 : index
//       TF32:     arith.mulf %{{.*}}, %[[GATES]]#1 : f32
// TF32-COUNT-15: arith.mulf %{{.*}}, %[[GATES]]#{{[0-9]+}} : f32
//       TF32:     wgmma.mma_async
// The gate argument is read only through its tensor map.
//   TF32-NOT:   memref.load %[[GATE]]
func.func @fc_gated(%x: tensor<8x100x40xf32>, %y: tensor<8x100x40xf32>, %w: tensor<20x72x40xf32>, %g: tensor<100x40xf32>) -> tensor<8x100x72xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w gate %g {transpose_weights = true} : (tensor<8x100x40xf32>, tensor<8x100x40xf32>, tensor<20x72x40xf32>, tensor<100x40xf32>) -> tensor<8x100x72xf32>
  return %r : tensor<8x100x72xf32>
}

// 3xTF32 runs slot by slot, each step on its own K tile: every step copies
// and reads the gate of its K tile (uta-fold-scalar-gates passes FCGP's
// gates this way only in TF32).
// SPLIT: remark: fc_product on the GEMM engine, per result blade: 100x72x40 f32: wgmma, warp-specialised, 3xTF32
// SPLIT-LABEL: gpu.func @fc_gated_k0_fc_product
//  SPLIT-SAME:   #uta.tensor_map<argument = 9, source = 3, box = [128, 32], swizzle = 128>
// Groups of one step: the test of a group's first step folds away.
//       SPLIT:   scf.for %[[STEP:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[UNIT:.*]] = %c0) -> (index)
//   SPLIT-NOT:     scf.if %{{.*}} -> (index)
//       SPLIT:     nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
//       SPLIT:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg9, %{{.*}}, box[%{{.*}}, %{{.*}}] :
//       SPLIT:     arith.addi %[[UNIT]], %c1

// A named tile of the schedule that forms A in shared memory does not read
// a gate: the gated product runs tiled on the SIMT cores, with a remark.
// FORMED: remark: fc_product with a gate runs on the SIMT cores: the GEMM engine reads the gate only in its warp-specialised schedule, not in 100x72x40 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32

// -----

// Without tensor cores, the tiled kernel reads each (b, fi)'s gate once and
// scales the slots it stages.
// TF32-LABEL: func.func @fc_gated_simt
// SIMT-LABEL: gpu.func @fc_gated_simt_k0_fc_product
//  SIMT-SAME:   %[[GATE:arg3]]: memref<6x8xf32>
//       SIMT:   %[[G:.*]] = memref.load %[[GATE]][%{{.*}}, %{{.*}}] : memref<6x8xf32>
//       SIMT:   arith.mulf %{{.*}}, %[[G]] : f32
//       SIMT:   memref.store
func.func @fc_gated_simt(%x: tensor<4x6x8xf32>, %y: tensor<4x6x8xf32>, %w: tensor<10x8x5xf32>, %g: tensor<6x8xf32>) -> tensor<4x6x5xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w gate %g : (tensor<4x6x8xf32>, tensor<4x6x8xf32>, tensor<10x8x5xf32>, tensor<6x8xf32>) -> tensor<4x6x5xf32>
  return %r : tensor<4x6x5xf32>
}
