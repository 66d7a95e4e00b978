// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true gemm-config=fcwgmma64x128x32 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true" | FileCheck %s --check-prefix=CLUSTERS
// RUN: uta-opt %s -convert-uta-to-gpu="sm=90 arch-specific=true" | FileCheck %s --check-prefix=NO-CLUSTERS

// Which fc_product schedule sm_90a takes. K-major weights with rows of
// 16-byte multiples: the warp-specialised schedule, in TF32 on 256 columns
// with three weight stages where that fills the GPU, in 3xTF32 on 128.
// The blocks of the blades with the most slots go first, in one chunk of
// every row tile where TF32 steps K tile by K tile on a grid of three
// waves or more (132 SMs), else in two: the TF32 grid of 256 blocks and
// the 3xTF32 one of 512 take chunks of 16 of their 32 row tiles.
// Rows of x and y that tensor maps cannot stride (Fin 30), or weights
// stored [P, Fin, Fout]: the schedule that forms A in shared memory. A
// named row of that schedule wins where it applies.
// Where TF32 steps K tile by K tile on an even number of column tiles
// (Fout 512: two of 256), the blocks run in clusters of two, the column
// tiles of one row tile and blade; 3xTF32 (slot by slot) does not.

// TF32: remark: {{.*}} 4096x256x64 f32: wgmma, warp-specialised, tf32, tile fctma128x256x32 (128x256x32, a producer warpgroup and 2 consumers of 64x256, 4 stages, 229560 B shared), x and y by TMA one term per stage, K-major weights by TMA in 3 stages, A formed in registers, steps K tile by K tile, the blades with most slots first in chunks of 16 row tiles, 256 blocks
// TF32: remark: {{.*}} 4096x512x64 f32: wgmma, warp-specialised, tf32, tile fctma128x256x32 {{.*}}, steps K tile by K tile, clusters of 2 column tiles, the blades with most slots first in chunks of 32 row tiles, 512 blocks
// TF32: remark: {{.*}} 64x64x30 f32: wgmma, tf32, tile fcwgmma128x256x16 {{.*}}, x, y and K-major weight tiles copied, A formed in shared memory
// TF32: remark: {{.*}} 64x64x32 f32: wgmma, tf32, tile fcwgmma64x128x32 {{.*}}, A and the K-major weights formed in shared memory

// SPLIT: remark: {{.*}} 4096x256x64 f32: wgmma, warp-specialised, 3xTF32 (f32 accuracy), tile fctma128x128x32 (128x128x32, a producer warpgroup and 2 consumers of 64x128, 4 stages, 196656 B shared), x and y by TMA one term per stage, K-major weights by TMA in 2 stages, A formed in registers, the blades with most slots first in chunks of 16 row tiles, 512 blocks
// SPLIT: remark: {{.*}} 4096x512x64 f32: wgmma, warp-specialised, 3xTF32 (f32 accuracy), tile fctma128x128x32 {{.*}}, A formed in registers, the blades with most slots first in chunks of 16 row tiles, 1024 blocks
// SPLIT: remark: {{.*}} 64x64x30 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32
// SPLIT: remark: {{.*}} 64x64x32 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32

// CLUSTERS-LABEL: func.func @large
//   CLUSTERS-NOT:   clusters in
//       CLUSTERS:   gpu.launch_func @kernels::@large_k0_fc_product blocks in
// CLUSTERS-LABEL: func.func @wide
//  CLUSTERS-DAG:   %[[TWO:.*]] = arith.constant 2 : index
//      CLUSTERS:   gpu.launch_func @kernels::@wide_k0_fc_product clusters in (%[[TWO]], %{{.*}}, %{{.*}}) blocks in
//      CLUSTERS:   gpu.func @wide_k0_fc_product
// CLUSTERS-SAME:   known_cluster_size = array<i32: 2, 1, 1>
// NO-CLUSTERS-NOT: clusters in
// NO-CLUSTERS-NOT: known_cluster_size

// NAMED: remark: {{.*}} 4096x256x64 f32: wgmma, 3xTF32 (f32 accuracy), tile fcwgmma64x128x32 {{.*}}, A formed in shared memory, the weights read as copied, 1024 blocks
func.func @large(%x: tensor<8x4096x64xf32>, %y: tensor<8x4096x64xf32>, %w: tensor<20x256x64xf32>) -> tensor<8x4096x256xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x4096x64xf32>, tensor<8x4096x64xf32>, tensor<20x256x64xf32>) -> tensor<8x4096x256xf32>
  return %r : tensor<8x4096x256xf32>
}

func.func @wide(%x: tensor<8x4096x64xf32>, %y: tensor<8x4096x64xf32>, %w: tensor<20x512x64xf32>) -> tensor<8x4096x512xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x4096x64xf32>, tensor<8x4096x64xf32>, tensor<20x512x64xf32>) -> tensor<8x4096x512xf32>
  return %r : tensor<8x4096x512xf32>
}

func.func @unaligned(%x: tensor<8x64x30xf32>, %y: tensor<8x64x30xf32>, %w: tensor<20x64x30xf32>) -> tensor<8x64x64xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w {transpose_weights = true} : (tensor<8x64x30xf32>, tensor<8x64x30xf32>, tensor<20x64x30xf32>) -> tensor<8x64x64xf32>
  return %r : tensor<8x64x64xf32>
}

func.func @n_major(%x: tensor<8x64x32xf32>, %y: tensor<8x64x32xf32>, %w: tensor<20x32x64xf32>) -> tensor<8x64x64xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<20x32x64xf32>) -> tensor<8x64x64xf32>
  return %r : tensor<8x64x64xf32>
}
