// RUN: uta-opt %s -split-input-file -uta-gemm-layouts="sm=90 arch-specific=true" | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-gemm-layouts="sm=90 arch-specific=true allow-tf32=true remarks=true" 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -split-input-file -uta-gemm-layouts="sm=90" | FileCheck %s --check-prefix=SM90
// RUN: utac %s --entry=matmul_rhs --sm=90a --allow-tf32 --target=ptx --remarks -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PIPELINE

// The planner would run these products on mma.sync, one operand not being
// K-major. A [K, M] under a K-major B 1024 columns wide: 3xTF32 takes wgmma
// with A copied K-major (plain TF32's TMA tile would leave SMs idle at M =
// 128, so the copy would not pay); 512 columns, or a B that is not K-major
// either, keep A as stored. sm_90 without the "a" features has no wgmma.
// CHECK-LABEL: func @matmul_lhs
//  CHECK-SAME:   (%[[A:.*]]: tensor<4096x128xf32>, %[[B:.*]]: tensor<1024x4096xf32>, %[[C:.*]]: tensor<512x4096xf32>, %[[D:.*]]: tensor<4096x1024xf32>)
//       CHECK:   %[[T:.*]] = uta.transpose %[[A]] [1, 0] : tensor<4096x128xf32> -> tensor<128x4096xf32>
//       CHECK:   uta.matmul %[[T]], %[[B]] {transpose_b = true} : (tensor<128x4096xf32>, tensor<1024x4096xf32>) -> tensor<128x1024xf32>
//       CHECK:   uta.matmul %[[A]], %[[C]] {transpose_a = true, transpose_b = true}
//       CHECK:   uta.matmul %[[A]], %[[D]] {transpose_a = true} :
// The remarks come first (stderr is not buffered).
// TF32: remark: GEMM 1024x512x256: B copied K-major, so that wgmma takes it
// TF32-LABEL: func @matmul_lhs
//   TF32-NOT:   uta.transpose
// SM90-LABEL: func @matmul_lhs
//   SM90-NOT:   uta.transpose
func.func @matmul_lhs(%a: tensor<4096x128xf32>, %b: tensor<1024x4096xf32>, %c: tensor<512x4096xf32>, %d: tensor<4096x1024xf32>)
    -> (tensor<128x1024xf32>, tensor<128x512xf32>, tensor<128x1024xf32>) {
  %0 = uta.matmul %a, %b {transpose_a = true, transpose_b = true} : (tensor<4096x128xf32>, tensor<1024x4096xf32>) -> tensor<128x1024xf32>
  %1 = uta.matmul %a, %c {transpose_a = true, transpose_b = true} : (tensor<4096x128xf32>, tensor<512x4096xf32>) -> tensor<128x512xf32>
  %2 = uta.matmul %a, %d {transpose_a = true} : (tensor<4096x128xf32>, tensor<4096x1024xf32>) -> tensor<128x1024xf32>
  return %0, %1, %2 : tensor<128x1024xf32>, tensor<128x512xf32>, tensor<128x1024xf32>
}

// -----

// A linear layer's weights [K, N] under 8 x 1024 rows of activations (2^31
// operations) become K-major, rounded to TF32 where the products are plain
// TF32 (the tensor cores would truncate them as staged); 64 rows keep them
// as stored. Through utac the copy reaches the lowering: the product runs
// on the warp-specialised TMA schedule.
// CHECK-LABEL: func @matmul_rhs
//  CHECK-SAME:   (%[[X:.*]]: tensor<8x1024x256xf32>, %[[W:.*]]: tensor<8x256x512xf32>, %[[S:.*]]: tensor<64x256xf32>)
//       CHECK:   %[[T:.*]] = uta.transpose %[[W]] [0, 2, 1] : tensor<8x256x512xf32> -> tensor<8x512x256xf32>
//       CHECK:   uta.matmul %[[X]], %[[T]] {transpose_b = true} : (tensor<8x1024x256xf32>, tensor<8x512x256xf32>) -> tensor<8x1024x512xf32>
//       CHECK:   uta.matmul %[[S]], %[[W]] : (tensor<64x256xf32>, tensor<8x256x512xf32>)
// TF32-LABEL: func @matmul_rhs
//       TF32:   uta.transpose %{{.*}} [0, 2, 1] {round_to_tf32} : tensor<8x256x512xf32> -> tensor<8x512x256xf32>
// PIPELINE: remark: GEMM 1024x512x256 f32: wgmma, warp-specialised, tf32, tile tma128x256x32f32
func.func @matmul_rhs(%x: tensor<8x1024x256xf32>, %w: tensor<8x256x512xf32>, %s: tensor<64x256xf32>)
    -> (tensor<8x1024x512xf32>, tensor<8x64x512xf32>) {
  %0 = uta.matmul %x, %w : (tensor<8x1024x256xf32>, tensor<8x256x512xf32>) -> tensor<8x1024x512xf32>
  %1 = uta.matmul %s, %w : (tensor<64x256xf32>, tensor<8x256x512xf32>) -> tensor<8x64x512xf32>
  return %0, %1 : tensor<8x1024x512xf32>, tensor<8x64x512xf32>
}
