// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=SPLIT

// fc_product on sm_90a's warp-specialised schedule (K-major weights, rows
// of 16-byte multiples): a producer warpgroup and two consumer warpgroups.
// The producer's first warp copies, per step, the path's weight tile into
// a weight stage and each present term's x and y tiles into a term stage,
// all by TMA (128-byte swizzle), waiting at a named barrier for the slot's
// release; the consumers wait on each slot's mbarrier, load their x and y
// fragments, release the slot and sum the signed pair products in
// registers, then issue wgmma with A in registers on the weights' slot.
// Cl(3,0)'s scalar slots of 3 terms are taken whole (three terms per step,
// the second and third behind a branch on the term's sign).

// Plain TF32 has 4 term stages of x and y, 2 weight stages (no
// remainders), the words of the holds of A registers (16 bytes per
// fragment), 6 mbarriers.
//       TF32: remark: fc_product on the GEMM engine, per result blade: 100x72x40 f32: wgmma, warp-specialised, tf32, tile fctma128x128x32 (128x128x32, a producer warpgroup and 2 consumers of 64x128, 4 stages, 164016 B shared), x and y by TMA one term per stage, K-major weights by TMA in 2 stages, A formed in registers, steps K tile by K tile, the blades with most slots first in chunks of 1 row tile, 8 blocks
// TF32-LABEL: gpu.func @fc_tma_k0_fc_product
//  TF32-SAME:   %[[XMAP:arg5]]: !llvm.ptr, %[[YMAP:arg6]]: !llvm.ptr, %[[WMAP:arg7]]: !llvm.ptr) kernel
//  TF32-SAME:   #uta.tensor_map<argument = 5, source = 0, box = [1, 128, 32], swizzle = 128>
//  TF32-SAME:   #uta.tensor_map<argument = 6, source = 1, box = [1, 128, 32], swizzle = 128>
//  TF32-SAME:   #uta.tensor_map<argument = 7, source = 2, box = [1, 128, 32], swizzle = 128>
//       TF32:   %[[X:.*]] = memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       TF32:   %[[Y:.*]] = memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       TF32:   memref.view {{.*}} to memref<2x128x32xf32, #gpu.address_space<workgroup>>
//       TF32:   memref.view {{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
//       TF32:   memref.view {{.*}} to memref<6xi64, #gpu.address_space<workgroup>>
//   TF32-NOT:   memref.view
// The producer: the weights of the step (after the release of the weight
// slot's last use), then the terms, the running term index carried. Steps
// run K tile by K tile (2 K tiles of 32 for Fin 40): step s is slot
// s mod slots of K tile s / slots, its constants at row slot * 2 + K tile
// of the tables, which list steps slot by slot. The slots are counted once,
// before the roles.
//       TF32:   %[[STEPS:.*]] = arith.muli %{{.*}}, %c2 : index
//  TF32-NEXT:   %[[SLOTS:.*]] = arith.divui %[[STEPS]], %c2
//       TF32:   nvvm.setmaxregister decrease 40
//       TF32:   scf.for %[[STEP:.*]] = %c0 to %[[STEPS]] step %c1 iter_args(%[[UNIT:.*]] = %c0) -> (index)
//       TF32:     %[[SLOT:.*]] = arith.remui %[[STEP]], %[[SLOTS]]
//       TF32:     %[[KTILE:.*]] = arith.divui %[[STEP]], %[[SLOTS]]
//       TF32:     %[[SLOT_ROW:.*]] = arith.muli %[[SLOT]], %c2
//       TF32:     arith.addi %[[SLOT_ROW]], %[[KTILE]]
//       TF32:     nvvm.barrier id = %{{.*}} number_of_threads = %c288_i32
//       TF32:     nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
//       TF32:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[WMAP]]
//       TF32:     nvvm.barrier id = %{{.*}} number_of_threads = %c288_i32
//       TF32:     nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
//       TF32:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[XMAP]]
//       TF32:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[YMAP]]
//       TF32:     scf.if %{{.*}} -> (index)
//       TF32:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[XMAP]]
//       TF32:     scf.if %{{.*}} -> (index)
//       TF32:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[XMAP]]
// The last releases of both rings, so that no named barrier keeps
// arrivals.
//       TF32:   scf.for
//       TF32:     nvvm.barrier id
//       TF32:   scf.for
//       TF32:     nvvm.barrier id
// The consumers: two steps per iteration, each on A registers of its own
// (the odd step's 16 carried). Per term, the slot's mbarrier phase, the
// fragments (one ldmatrix each, lane l at the swizzled chunk c ^ (l % 8)),
// the release, the signed products.
//       TF32:   nvvm.setmaxregister increase 232
//       TF32:   scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %c0, {{.*}}) -> (!llvm.struct<({{.*}})>, index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
//       TF32:     nvvm.mbarrier.try_wait
//       TF32:     arith.xori
//       TF32:     nvgpu.ldmatrix %[[X]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<4x128x32xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
//       TF32:     nvgpu.ldmatrix %[[Y]]
//       TF32:     nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       TF32:     arith.mulf
//       TF32:     scf.if %{{.*}} -> (index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
//       TF32:       nvvm.mbarrier.try_wait
//       TF32:       nvvm.barrier.arrive
//       TF32:       arith.addf
//       TF32:     scf.if %{{.*}} -> (index, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// Then the weights' mbarrier, the sums rounded to TF32 (half an ulp added
// to the bits; the tensor cores ignore the 13 low bits, so nothing clears
// them), four m64n128k8 wgmmas with A in registers, left in flight; the
// wait completes the step before, whose A registers are then held
// (operands of stores to the holds' words behind a branch on the clock)
// and whose weights are released.
//       TF32:     nvvm.mbarrier.try_wait
//       TF32:     arith.addi %{{.*}}, %c4096_i32 : i32
//   TF32-NOT:     arith.andi %{{.*}}, %c-8192_i32 : i32
//       TF32:     nvvm.wgmma.fence.aligned
// TF32-COUNT-4:   wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
//       TF32:     nvvm.wgmma.commit.group.sync.aligned
//  TF32-NEXT:     nvvm.wgmma.wait.group.sync.aligned 1
//       TF32:     llvm.inline_asm has_side_effects {{.*}}@p bra HOLD_${:uid};{{.*}}st.shared.v4.b32 [$0+48], {$13, $14, $15, $16};\0AHOLD_${:uid}:
//       TF32:     scf.if
//       TF32:       nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
// The odd step, the same way.
//       TF32:     nvvm.wgmma.wait.group.sync.aligned 1
//       TF32:     scf.yield
// An odd count's last step; then the last products and their release.
//       TF32:   scf.if %{{.*}} -> (!llvm.struct<({{.*}})>, f32, {{.*}})
//       TF32:     nvvm.wgmma.wait.group.sync.aligned 1
//       TF32:   nvvm.wgmma.wait.group.sync.aligned 0
//       TF32:   llvm.inline_asm has_side_effects {{.*}}st.shared.v4.b32
//       TF32:   nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
// The staged epilogue over the term stages, on the consumers' barrier 15.
//       TF32:   nvvm.barrier id = %c15_i32 number_of_threads = %c256_i32
//       TF32:   vector.store
//       TF32:   nvvm.barrier id = %c15_i32 number_of_threads = %c256_i32
//       TF32:   gpu.return

// With 3xTF32 the weights' remainders are in stages of their own; the producer's
// last two warps (threads 64-127) write them once the weights land and
// hand them on at a named barrier (64 splitters + 256 consumers); each
// step's three products per K step go into fresh accumulators.
//       SPLIT: remark: {{.*}} 3xTF32 (f32 accuracy), tile fctma128x128x32 (128x128x32, a producer warpgroup and 2 consumers of 64x128, 4 stages, 196656 B shared)
// SPLIT-LABEL: gpu.func @fc_tma_k0_fc_product
//       SPLIT:   memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       SPLIT:   memref.view {{.*}} to memref<4x128x32xf32, #gpu.address_space<workgroup>>
//       SPLIT:   memref.view {{.*}} to memref<2x128x32xf32, #gpu.address_space<workgroup>>
//       SPLIT:   %[[WLOW:.*]] = memref.view {{.*}} to memref<2x128x32xf32, #gpu.address_space<workgroup>>
//       SPLIT:   nvvm.setmaxregister decrease 56
//       SPLIT:   arith.cmpi uge, %{{.*}}, %c64
//       SPLIT:   scf.for
//       SPLIT:     nvvm.mbarrier.try_wait
//       SPLIT:     arith.subf %{{.*}} : vector<4xf32>
//       SPLIT:     vector.store %{{.*}}, %[[WLOW]]
//       SPLIT:     nvvm.fence.proxy
//       SPLIT:     nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c320_i32
//       SPLIT:   nvvm.setmaxregister increase 224
//       SPLIT:   nvvm.barrier id = %{{.*}} number_of_threads = %c320_i32
//       SPLIT:   nvvm.wgmma.fence.aligned
// SPLIT-COUNT-12: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
//       SPLIT:   nvvm.wgmma.wait.group.sync.aligned 0
//       SPLIT:   nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c288_i32
//       SPLIT:   arith.addf
func.func @fc_tma(%x: tensor<8x100x40xf32>, %y: tensor<8x100x40xf32>, %w: tensor<20x72x40xf32>) -> tensor<8x100x72xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x100x40xf32>, tensor<8x100x40xf32>, tensor<20x72x40xf32>) -> tensor<8x100x72xf32>
  return %r : tensor<8x100x72xf32>
}
