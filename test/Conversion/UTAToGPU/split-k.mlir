// RUN: uta-opt %s -split-input-file -uta-split-k="sm=90 arch-specific=true allow-tf32=true remarks=true" 2>&1 | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-split-k="sm=90 arch-specific=true" | FileCheck %s --check-prefix=ACCURATE
// RUN: utac %s --sm=90a --allow-tf32 --compile-to=fused 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: utac %s --target=spirv --compile-to=fused 2>&1 | FileCheck %s --check-prefix=SPIRV
// RUN: utac %s --sm=90a --allow-tf32 --uta-split-k=false --compile-to=fused 2>&1 | FileCheck %s --check-prefix=OFF

// A weight gradient x^T g over a batch of 8192: 512x512 in the engine's
// preferred TF32 tile (128x128) is 16 blocks on 132 SMs. Split along K into
// 8 runs of 1024 (reshapes that copy nothing), the partial products are 128
// blocks, summed in index order. 3xTF32 prefers 128x64 tiles: 4 runs.
// CHECK: remark: GEMM 512x512x8192 split along K into 8 runs of 1024
// (The remarks come first; the last part's @fc_weight_gradient makes this one.)
// CHECK: remark: fc_product_weight_gradient in 4 runs of the batch: its blocks and their sum estimated at 48 K tiles' time instead of 104; the partial gradients summed in order by uta.reduce_sum
// CHECK: remark: fc_product_weight_gradient in 8 runs of the batch: its blocks and their sum estimated at 32 K tiles' time instead of 72
// CHECK-LABEL: func.func @weight_gradient
//  CHECK-SAME:   (%[[X:.*]]: tensor<8192x512xf32>, %[[G:.*]]: tensor<8192x512xf32>)
//       CHECK:   %[[XS:.*]] = uta.reshape %[[X]] : tensor<8192x512xf32> -> tensor<8x1024x512xf32>
//       CHECK:   %[[GS:.*]] = uta.reshape %[[G]] : tensor<8192x512xf32> -> tensor<8x1024x512xf32>
//       CHECK:   %[[P:.*]] = uta.matmul %[[XS]], %[[GS]] {transpose_a = true} : (tensor<8x1024x512xf32>, tensor<8x1024x512xf32>) -> tensor<8x512x512xf32>
//       CHECK:   %[[D:.*]] = uta.reduce_sum %[[P]] dims [0] : tensor<8x512x512xf32> -> tensor<512x512xf32>
//       CHECK:   return %[[D]]
// ACCURATE-LABEL: func.func @weight_gradient
//       ACCURATE:   uta.matmul {{.*}} -> tensor<4x512x512xf32>
// The CUDA pipeline splits before fusion; SPIR-V (no SM count) does not.
// PIPELINE-LABEL: func.func @weight_gradient
//       PIPELINE:   uta.reduce_sum %{{.*}} dims [0] : tensor<8x512x512xf32> -> tensor<512x512xf32>
// SPIRV-LABEL: func.func @weight_gradient
//   SPIRV-NOT:   uta.reduce_sum
// utac --uta-split-k=false keeps one run.
// OFF-LABEL: func.func @weight_gradient
//   OFF-NOT:   uta.reduce_sum
// OFF-LABEL: func.func @fc_weight_gradient
//   OFF-NOT:   batch_runs
func.func @weight_gradient(%x: tensor<8192x512xf32>, %g: tensor<8192x512xf32>) -> tensor<512x512xf32> {
  %d = uta.matmul %x, %g {transpose_a = true} : (tensor<8192x512xf32>, tensor<8192x512xf32>) -> tensor<512x512xf32>
  return %d : tensor<512x512xf32>
}

// -----

// A batch of weight gradients whose grid fills the GPU already (8 blades of
// 512x512: 128 blocks), a product with A K-contiguous (K is not the outer
// axis of both operands: no reshape splits it), a bf16 one (the sum is
// f32's), and one whose runs would be shorter than 512: all unchanged.
// CHECK-LABEL: func.func @no_split
//   CHECK-NOT:   uta.reduce_sum
//   CHECK-NOT:   uta.reshape
//       CHECK:   return
func.func @no_split(%x: tensor<8x8192x512xf32>, %g: tensor<8x8192x512xf32>,
                    %a: tensor<512x8192xf32>, %b: tensor<8192x512xf32>,
                    %h: tensor<8192x512xbf16>, %s: tensor<1024x256xf32>)
    -> (tensor<8x512x512xf32>, tensor<512x512xf32>, tensor<512x512xbf16>, tensor<256x256xf32>) {
  %0 = uta.matmul %x, %g {transpose_a = true} : (tensor<8x8192x512xf32>, tensor<8x8192x512xf32>) -> tensor<8x512x512xf32>
  %1 = uta.matmul %a, %b : (tensor<512x8192xf32>, tensor<8192x512xf32>) -> tensor<512x512xf32>
  %2 = uta.matmul %h, %h {transpose_a = true} : (tensor<8192x512xbf16>, tensor<8192x512xbf16>) -> tensor<512x512xbf16>
  %3 = uta.matmul %s, %s {transpose_a = true} : (tensor<1024x256xf32>, tensor<1024x256xf32>) -> tensor<256x256xf32>
  return %0, %1, %2, %3 : tensor<8x512x512xf32>, tensor<512x512xf32>, tensor<512x512xbf16>, tensor<256x256xf32>
}

// -----

// fc_product_weight_gradient of the FC layer at 128 features on sm_90a: a
// block per path and 128x128 tile of the warp-specialised kernel (in the
// layout uta-tensor-core-layouts will give it), 20 blocks on 132 SMs, the
// 12 paths of 3 slots 3 * 32 + 8 K tiles long; four runs of 256 rows are
// 80 blocks, 3 * 8 + 8 long, and their sum 16. 3xTF32 takes eight (its
// tile stays 128x128 there; TF32's planner would take 128x256).
// CHECK-LABEL: func.func @fc_weight_gradient
//  CHECK-SAME:   (%[[G:.*]]: tensor<8x1024x128xf32>, %[[X:.*]]: tensor<8x1024x128xf32>, %[[Y:.*]]: tensor<8x1024x128xf32>)
//       CHECK:   %[[P:.*]] = clifford.fc_product_weight_gradient <3, 0, 0> %[[G]], %[[X]], %[[Y]] {batch_runs = 4 : i64} : ({{.*}}) -> tensor<4x20x128x128xf32>
//       CHECK:   %[[D:.*]] = uta.reduce_sum %[[P]] dims [0] : tensor<4x20x128x128xf32> -> tensor<20x128x128xf32>
//       CHECK:   return %[[D]]
// ACCURATE-LABEL: func.func @fc_weight_gradient
//       ACCURATE:   clifford.fc_product_weight_gradient {{.*}} {batch_runs = 8 : i64} : ({{.*}}) -> tensor<8x20x128x128xf32>
// PIPELINE-LABEL: func.func @fc_weight_gradient
//       PIPELINE:   uta.reduce_sum %{{.*}} dims [0] : tensor<4x20x128x128xf32> -> tensor<20x128x128xf32>
// SPIRV-LABEL: func.func @fc_weight_gradient
//   SPIRV-NOT:   batch_runs
func.func @fc_weight_gradient(%g: tensor<8x1024x128xf32>, %x: tensor<8x1024x128xf32>, %y: tensor<8x1024x128xf32>) -> tensor<20x128x128xf32> {
  %d = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %y : (tensor<8x1024x128xf32>, tensor<8x1024x128xf32>, tensor<8x1024x128xf32>) -> tensor<20x128x128xf32>
  return %d : tensor<20x128x128xf32>
}

// -----

// Few blocks (Cl(2,0) at 128 features: 10 paths, one tile each): eight runs
// of 128 rows.
// CHECK-LABEL: func.func @fc_few_blocks
//       CHECK:   clifford.fc_product_weight_gradient {{.*}} {batch_runs = 8 : i64} : ({{.*}}) -> tensor<8x10x128x128xf32>
func.func @fc_few_blocks(%h: tensor<4x1024x128xf32>, %z: tensor<4x1024x128xf32>) -> tensor<10x128x128xf32> {
  %0 = clifford.fc_product_weight_gradient <2, 0, 0> %h, %z, %z : (tensor<4x1024x128xf32>, tensor<4x1024x128xf32>, tensor<4x1024x128xf32>) -> tensor<10x128x128xf32>
  return %0 : tensor<10x128x128xf32>
}

// -----

// Weight gradients with blocks enough: the FC layer's at 512 features and a
// batch of 8192 (160 blocks, of which the 96 of 3-slot paths set the time:
// runs would save less than 10%), or whose runs could not be whole K tiles
// (a batch of 1000): one run each.
// CHECK-LABEL: func.func @fc_no_runs
//   CHECK-NOT:   batch_runs
//       CHECK:   return
func.func @fc_no_runs(%g: tensor<8x8192x512xf32>, %x: tensor<8x8192x512xf32>, %h: tensor<4x1000x128xf32>, %z: tensor<4x1000x128xf32>) -> (tensor<20x512x512xf32>, tensor<10x128x128xf32>) {
  %0 = clifford.fc_product_weight_gradient <3, 0, 0> %g, %x, %x : (tensor<8x8192x512xf32>, tensor<8x8192x512xf32>, tensor<8x8192x512xf32>) -> tensor<20x512x512xf32>
  %1 = clifford.fc_product_weight_gradient <2, 0, 0> %h, %z, %z : (tensor<4x1000x128xf32>, tensor<4x1000x128xf32>, tensor<4x1000x128xf32>) -> tensor<10x128x128xf32>
  return %0, %1 : tensor<20x512x512xf32>, tensor<10x128x128xf32>
}
