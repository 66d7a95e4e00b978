// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true gemm-config=fcwgmma128x256x16 remarks=true" -canonicalize -cse 2>&1 | FileCheck %s --check-prefix=TF32

// fc_product on sm_90a's wgmma: one block per (result blade, row tile,
// column tile). Per stage, cp.async brings an x and a y tile per term and
// the weights' [K][N] tile of the step's path (from the step's constant
// switch); after a barrier every thread forms the A tile (signed pair
// products, four f32 at a time) and the weights' K-major tile (transposed
// element by element) in shared memory, as TF32 high parts and, for
// 3xTF32, remainders; a proxy fence and a barrier later the warpgroup runs
// the step's wgmmas on them.

// 3xTF32: forms and multiplies in turn, each step's three products per K
// step into fresh accumulators that are waited for and added in f32.
// x and y come by TMA: two tensor-map arguments (boxes of the 64x32 tile)
// and one mbarrier per stage, on which the first thread expects the
// step's bytes before issuing its boxes; every thread waits for the
// stage's phase before forming from it. The weights stay cp.async.
// CHECK: remark: fc_product on the GEMM engine, per result blade: 64x128x64 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32 (64x128x32, 1 warpgroup of 64x128, 2 stages, 147472 B shared), x and y tiles by TMA, weight tiles copied, A and the K-major weights formed in shared memory, 4 blocks
// CHECK-LABEL: gpu.func @fc_k0_fc_product
//  CHECK-SAME:   %[[XMAP:[a-z0-9]+]]: !llvm.ptr, %[[YMAP:[a-z0-9]+]]: !llvm.ptr) kernel
//  CHECK-SAME:   uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0, box = [1, 64, 32]>, #uta.tensor_map<argument = 6, source = 1, box = [1, 64, 32]>]
//       CHECK:   %[[X0:.*]] = memref.view {{.*}} to memref<2x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[Y0:.*]] = memref.view {{.*}} to memref<2x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view {{.*}} to memref<2x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view {{.*}} to memref<2x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[W:.*]] = memref.view {{.*}} to memref<2x32x128xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A_HI:.*]] = memref.view {{.*}} to memref<1x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[W_HI:.*]] = memref.view {{.*}} to memref<1x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[A_LO:.*]] = memref.view {{.*}} to memref<1x64x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[W_LO:.*]] = memref.view {{.*}} to memref<1x128x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.view {{.*}} to memref<2xi64, #gpu.address_space<workgroup>>
//       CHECK:   nvvm.mbarrier.init
//       CHECK:   nvvm.mbarrier.init
//       CHECK:   nvvm.fence.mbarrier.init
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   scf.for
//       CHECK:     nvvm.cp.async.wait.group 0
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %{{.*}} : !llvm.ptr<3>, i32
//       CHECK:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[XMAP]], %[[FULL]], box[%{{.*}}, %{{.*}}, %{{.*}}]
//       CHECK:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[YMAP]], %[[FULL]], box[
//       CHECK:     nvgpu.device_async_copy %arg2[{{.*}}], %[[W]]
//       CHECK:     nvvm.cp.async.commit.group
//       CHECK:     nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
//       CHECK:     vector.load %[[X0]]
//       CHECK:     vector.load %[[Y0]]
//       CHECK:     arith.mulf {{.*}} : vector<4xf32>
//       CHECK:     vector.store %{{.*}}, %[[A_HI]]
//       CHECK:     vector.store %{{.*}}, %[[A_LO]]
//       CHECK:     vector.load %[[W]]
//       CHECK:     vector.extract
//       CHECK:     memref.store %{{.*}}, %[[W_HI]]
//       CHECK:     memref.store %{{.*}}, %[[W_LO]]
//       CHECK:     nvvm.fence.proxy
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     nvvm.wgmma.fence.aligned
//       CHECK:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 8>, D[<f32>, <zero>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
//       CHECK:     nvvm.wgmma.commit.group.sync.aligned
//  CHECK-NEXT:     nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:     arith.addf
//       CHECK:     scf.yield

// TF32 (the row named: the heuristic takes the small tile here): the
// 128x256 tile of two warpgroups with K tiles of 16 (64-byte rows: the
// 64-byte swizzle, 512 bytes between 8-row groups, mode 2 in bits 62-63),
// three stages, and double-buffered formed tiles. Step 0 is formed before the loop; step s issues its products on
// formed stage s % 2, waits until one group is pending (its own products
// of step s - 1 are done), waits for the copies of step s + 1, passes a
// barrier, refills the staged stage step s used, forms step s + 1 in the
// other formed stage, and passes a barrier.
// TF32: remark: fc_product on the GEMM engine, per result blade: 64x128x64 f32: wgmma, tf32, tile fcwgmma128x256x16 (128x256x16, 2 warpgroups of 64x256, 3 stages, 196632 B shared), x and y tiles by TMA
// TF32-LABEL: gpu.func @fc_k0_fc_product
//       TF32:   memref.view {{.*}} to memref<3x128x16xf32, #gpu.address_space<workgroup>>
//       TF32:   memref.view {{.*}} to memref<3x16x256xf32, #gpu.address_space<workgroup>>
//       TF32:   %[[A:.*]] = memref.view {{.*}} to memref<2x128x16xf32, #gpu.address_space<workgroup>>
//       TF32:   %[[W:.*]] = memref.view {{.*}} to memref<2x256x16xf32, #gpu.address_space<workgroup>>
//       TF32:   nvvm.cp.async.commit.group
//       TF32:   nvvm.cp.async.commit.group
//       TF32:   nvvm.cp.async.commit.group
//       TF32:   nvvm.cp.async.wait.group 2
//       TF32:   gpu.barrier
//       TF32:   scf.if
//       TF32:     nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
//       TF32:     vector.store %{{.*}}, %[[A]][%c0,
//       TF32:     memref.store %{{.*}}, %[[W]][%c0,
//       TF32:     nvvm.fence.proxy
//       TF32:   gpu.barrier
//       TF32:   scf.for
//       TF32:     arith.ori %{{.*}}, %c-9223371899415756800_i64 : i64
//       TF32:     nvvm.wgmma.fence.aligned
//       TF32:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
//       TF32:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 8>
//   TF32-NOT:     nvvm.wgmma.mma_async
//       TF32:     nvvm.wgmma.commit.group.sync.aligned
//  TF32-NEXT:     nvvm.wgmma.wait.group.sync.aligned 1
//  TF32-NEXT:     nvvm.cp.async.wait.group 1
//  TF32-NEXT:     gpu.barrier
//       TF32:     nvvm.cp.async.commit.group
//       TF32:     scf.if
//       TF32:       nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
//       TF32:       vector.store %{{.*}}, %[[A]]
//       TF32:       nvvm.fence.proxy
//       TF32:     gpu.barrier
//  TF32-NEXT:     scf.yield
//       TF32:   nvvm.wgmma.wait.group.sync.aligned 0
func.func @fc(%x: tensor<4x64x64xf32>, %y: tensor<4x64x64xf32>, %w: tensor<10x64x128xf32>) -> tensor<4x64x128xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x64x64xf32>, tensor<4x64x64xf32>, tensor<10x64x128xf32>) -> tensor<4x64x128xf32>
  return %r : tensor<4x64x128xf32>
}
