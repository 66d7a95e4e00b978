// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=fcwgmma64x128x32 remarks=true" -canonicalize -cse 2>&1 | FileCheck %s
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true gemm-config=fcwgmma128x256x16 remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=TF32

// fc_product on sm_90a's wgmma with K-major weights ([P, Fout, Fin],
// transpose_weights), on the rows named (the heuristic takes the
// warp-specialised schedule for these: fc-product-wgmma-tma.mlir): the
// weights' tile is copied [tileN][tileK] by TMA, a third tensor map whose
// swizzle (128 bytes for 3xTF32's rows of 32 f32, 64 for TF32's 16) is the
// one the wgmma descriptors name, and the tensor cores read it where it is
// staged (as TF32, by truncation). Nothing of it is formed but, for
// 3xTF32, the remainders w - tf32(w).

// 3xTF32: the staged weights [2][128][32]; formed: A's high parts and
// remainders and the weights' remainders (no formed high weights).
// CHECK: remark: fc_product on the GEMM engine, per result blade: 64x128x64 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32 (64x128x32, 1 warpgroup of 64x128, 2 stages, 131088 B shared), x and y tiles by TMA, K-major weight tiles copied, A formed in shared memory, the weights read as copied, 4 blocks
// CHECK-LABEL: gpu.func @fc_kmajor_k0_fc_product
//  CHECK-SAME:   %[[WMAP:arg7]]: !llvm.ptr) kernel
//  CHECK-SAME:   #uta.tensor_map<argument = 7, source = 2, box = [1, 128, 32], swizzle = 128>
//       CHECK:   %[[W:.*]] = memref.view {{.*}} to memref<2x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A_HI:.*]] = memref.view {{.*}} to memref<1x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A_LO:.*]] = memref.view {{.*}} to memref<1x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[W_LO:.*]] = memref.view {{.*}} to memref<1x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view {{.*}} to memref<2xi64, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.view
//       CHECK:   scf.for
//       CHECK:     nvvm.mbarrier.arrive.expect_tx
//       CHECK:     nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %[[WMAP]], {{.*}}, box[
//   CHECK-NOT:     nvgpu.device_async_copy
//       CHECK:     vector.store %{{.*}}, %[[A_HI]]
//       CHECK:     vector.store %{{.*}}, %[[A_LO]]
//       CHECK:     %[[HIGH:.*]] = vector.load %[[W]]
//       CHECK:     %[[LOW:.*]] = arith.subf %[[HIGH]], %{{.*}} : vector<4xf32>
//       CHECK:     vector.store %[[LOW]], %[[W_LO]]
//   CHECK-NOT:     memref.store
//       CHECK:     nvvm.fence.proxy
//       CHECK:     nvvm.wgmma.mma_async
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0

// TF32 on the three-stage 128x256 row (the small problem fills no GPU):
// the staged weights are read by the step in flight, so two steps are
// copied ahead, not three, and step s refills the stage of step s - 1 once
// every warpgroup's products of s - 1 are done.
// TF32: remark: fc_product on the GEMM engine, per result blade: 64x128x64 f32: wgmma, tf32, tile fcwgmma128x256x16 (128x256x16, 2 warpgroups of 64x256, 3 stages, 163864 B shared), x and y tiles by TMA, K-major weight tiles copied, A formed in shared memory, the weights read as copied, 4 blocks
// TF32-LABEL: gpu.func @fc_kmajor_k0_fc_product
//  TF32-SAME:   #uta.tensor_map<argument = 7, source = 2, box = [1, 256, 16], swizzle = 64>
//       TF32:   memref.view {{.*}} to memref<3x256x16xf32, #gpu.address_space<workgroup>>
//       TF32:   %[[A:.*]] = memref.view {{.*}} to memref<2x128x16xf32, #gpu.address_space<workgroup>>
//       TF32:   memref.view {{.*}} to memref<3xi64, #gpu.address_space<workgroup>>
//   TF32-NOT:   memref.view
//       TF32:   nvvm.cp.async.commit.group
//       TF32:   nvvm.cp.async.commit.group
//   TF32-NOT:   nvvm.cp.async.commit.group
//       TF32:   nvvm.cp.async.wait.group 1
//       TF32:   gpu.barrier
//       TF32:   scf.for
//       TF32:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
//       TF32:     nvvm.wgmma.commit.group.sync.aligned
//  TF32-NEXT:     nvvm.wgmma.wait.group.sync.aligned 1
//  TF32-NEXT:     nvvm.cp.async.wait.group 0
//  TF32-NEXT:     gpu.barrier
//       TF32:     nvvm.cp.async.commit.group
//       TF32:     scf.if
//       TF32:       vector.store %{{.*}}, %[[A]]
//   TF32-NOT:       memref.store
//       TF32:       nvvm.fence.proxy
//       TF32:     gpu.barrier
//  TF32-NEXT:     scf.yield
func.func @fc_kmajor(%x: tensor<4x64x64xf32>, %y: tensor<4x64x64xf32>, %w: tensor<10x128x64xf32>) -> tensor<4x64x128xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<4x64x64xf32>, tensor<4x64x64xf32>, tensor<10x128x64xf32>) -> tensor<4x64x128xf32>
  return %r : tensor<4x64x128xf32>
}
