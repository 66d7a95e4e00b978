// RUN: uta-opt %s -convert-uta-to-gpu="sm=90" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: uta-opt %s -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT

// fc_product on the GEMM engine: one block per (result blade, 64-row tile,
// 64-column tile), 4 warps. x, y (two tiles per term: Cl(2,0) slots hold
// up to 2 terms) and the weights sit in dynamic shared memory, two stages.
// The blade's step count and each step's path, blades and signs come from
// constant switches; the copies of a missing term are zero-filled (0 bytes
// from cp.async). Each A fragment is the signed sum of the products of the
// x and y fragments (ldmatrix), split for 3xTF32, into mma.sync m16n8k8.
// The epilogue stores z[blade, row, column].
// CHECK-LABEL: func.func @fc
//       CHECK:   gpu.launch_func @kernels::@fc_k0_fc_product blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)  dynamic_shared_memory_size %c40960_i32
// CHECK-LABEL: gpu.func @fc_k0_fc_product
//   CHECK-DAG:   memref.view {{.*}} to memref<2x16x64xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view {{.*}} to memref<2x64x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.index_switch
//       CHECK:   case 0 {
//       CHECK:     scf.yield %c3 : index
//       CHECK:   nvgpu.device_async_copy %arg0[
//       CHECK:   nvgpu.device_async_copy %arg1[
//       CHECK:   nvgpu.device_async_copy %arg2[
//       CHECK:   nvvm.cp.async.commit.group
//       CHECK:   scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args
//       CHECK:     nvvm.cp.async.wait.group 0
//       CHECK:     gpu.barrier
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     arith.mulf %{{.*}} : vector<4x1xf32>
//       CHECK:     vector.broadcast %{{.*}} : f32 to vector<4x1xf32>
//       CHECK:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
//       CHECK:   memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %{{.*}}] : memref<4x64x64xf32>
// REMARK: remark: fc_product on the GEMM engine, per result blade: 64x64x32 f32: mma.sync, 3xTF32 (f32 accuracy), tile fc64x64x16 (64x64x16, 4 warps of 32x32, 2 stages, 40960 B shared), A cp.async 16 B, B cp.async 16 B, 4 blocks
// Without CUDA tensor cores the tiled SIMT kernel stays.
// SIMT-LABEL: gpu.func @fc_k0_fc_product
//   SIMT-NOT:   nvgpu
//       SIMT:   gpu.barrier
func.func @fc(%x: tensor<4x64x32xf32>, %y: tensor<4x64x32xf32>, %w: tensor<10x32x64xf32>) -> tensor<4x64x64xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x64x32xf32>, tensor<4x64x32xf32>, tensor<10x32x64xf32>) -> tensor<4x64x64xf32>
  return %r : tensor<4x64x64xf32>
}
