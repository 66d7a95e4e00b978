// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -canonicalize -cse 2>&1 | FileCheck %s
// RUN: uta-opt %s -convert-uta-to-gpu -canonicalize -cse | FileCheck %s --check-prefix=SIMT
// RUN: uta-opt %s -convert-uta-to-gpu="sm=80 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

// fc_product_weight_gradient in runs of the batch (batch_runs = 4, runs of
// 64 rows): on sm_90a the warp-specialised kernel with four blocks per
// (path, row tile, column tile), side by side: block b takes run b % 4 of
// tile b / 4 (the longest tiles still first), copies K from the run's first
// row (run * 64) and stores its partial product at index b % 4 of the
// result's leading axis. The plan counts the runs' blocks.
//       CHECK: remark: fc_product_weight_gradient on the GEMM engine, per path: 40x72x64 f32: wgmma, warp-specialised, tf32, tile fctma128x128x32 {{.*}}, 80 blocks
//       CHECK: gpu.launch_func @kernels::@runs_k0_fc_product_weight_gradient blocks in (%c80, %c1, %c1) threads in (%c384, %c1, %c1)
// CHECK-LABEL: gpu.func @runs_k0_fc_product_weight_gradient
//       CHECK:   %[[BLOCK:.+]] = gpu.block_id x
//       CHECK:   %[[PART:.+]] = arith.remui %[[BLOCK]], %c4 : index
//       CHECK:   %[[TILE:.+]] = arith.divui %[[BLOCK]], %c4 : index
//       CHECK:   %[[START:.+]] = arith.muli %[[PART]], %c64 : index
//       CHECK:   %[[K0:.+]] = arith.addi %[[START]], %{{.+}} : index
//       CHECK:   %[[K:.+]] = arith.index_cast %[[K0]] : index to i32
//       CHECK:   nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%[[K]], %c0_i32,
//       CHECK:   memref.store %{{.+}}, %{{.+}}[%[[PART]], %{{.+}}, %{{.+}}, %{{.+}}] : memref<4x20x72x40xf32>

// On sm_80 (mma.sync takes no runs) the SIMT kernel, with a remark.
// SM80: remark: fc_product_weight_gradient with batch_runs 4 runs on the SIMT cores: runs of the batch take the warp-specialised kernel (sm_90a, every operand batch-contiguous, runs of whole K tiles)

// Without CUDA tensor cores: a thread per (run, output, input feature),
// its loop over the run's rows.
// SIMT-LABEL: gpu.func @runs_k0_fc_product_weight_gradient
//       SIMT:   %[[PART:.+]] = arith.divui %{{.+}}, %c2880 : index
//       SIMT:   %[[START:.+]] = arith.muli %[[PART]], %c64 : index
//       SIMT:   %[[END:.+]] = arith.addi %[[START]], %c64 : index
//       SIMT:   scf.for %{{.+}} = %[[START]] to %[[END]] step %c1
//       SIMT:   memref.store %{{.+}}, %{{.+}}[%[[PART]], %c0, %{{.+}}, %{{.+}}] : memref<4x20x72x40xf32>
func.func @runs(%g: tensor<8x72x256xf32>, %x: tensor<8x40x256xf32>) -> tensor<4x20x72x40xf32> {
  %r = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x {batch_runs = 4, transpose_cotangent = true, transpose_pairs = true, transpose_weights = true} : (tensor<8x72x256xf32>, tensor<8x40x256xf32>, tensor<8x40x256xf32>) -> tensor<4x20x72x40xf32>
  return %r : tensor<4x20x72x40xf32>
}
