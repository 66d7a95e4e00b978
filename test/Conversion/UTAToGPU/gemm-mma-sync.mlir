// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80" -canonicalize -cse | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80 allow-tf32=true" -canonicalize -cse | FileCheck %s --check-prefix=TF32

// The mma.sync schedule of the GEMM engine: one block per 64x64 output tile
// (4 blocks for 100x72), 4 warps, three shared-memory stages per operand.
// The first two K tiles are issued before the loop, one cp.async group
// each; every step waits for its tile, passes one barrier, issues the copies
// of the tile two steps ahead (guarded past the end) and commits, then runs
// ldmatrix and mma.sync m16n8k16 on its stage. Rows past M or N are copied
// as 0 bytes (cp.async zero-fills), and the epilogue stores only inside the
// result. The stages are views of the launch's dynamic shared memory
// (24 KiB), at 128-byte aligned offsets.
// CHECK-LABEL: func.func @linear
//       CHECK:   gpu.launch_func @kernels::@linear_k0_matmul blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c24576_i32
// CHECK-LABEL: gpu.func @linear_k0_matmul
//       CHECK:   %[[SHARED:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK:   %[[A:.*]] = memref.view %[[SHARED]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x32xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[B:.*]] = memref.view %[[SHARED]][%c12288][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x64x32xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[N:.*]] = arith.select %{{.*}}, %c8, %c0 : index
//       CHECK:   nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], 8, %[[N]] {bypassL1}
//       CHECK:   nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[B]][%c0, %{{.*}}, %{{.*}}], 8, %{{.*}} {bypassL1}
//       CHECK:   nvvm.cp.async.commit.group
//       CHECK:   nvgpu.device_async_copy {{.*}}, %[[A]][%c1,
//       CHECK:   nvvm.cp.async.commit.group
//       CHECK:   scf.for %[[STEP:.*]] = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
//  CHECK-NEXT:     nvvm.cp.async.wait.group 1
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       nvgpu.device_async_copy
//       CHECK:     nvvm.cp.async.commit.group
//       CHECK:     nvgpu.ldmatrix %[[A]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3x64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
//       CHECK:     nvgpu.ldmatrix %[[B]][{{.*}}] {numTiles = 4 : i32, transpose = false}
//       CHECK:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   CHECK-NOT:     gpu.barrier
//       CHECK:     scf.yield
//       CHECK:   nvvm.cp.async.wait.group 0
//       CHECK:   scf.if
//       CHECK:     arith.truncf %{{.*}} : f32 to f16
//       CHECK:     memref.store %{{.*}}, %arg2[
func.func @linear(%a: tensor<100x64xf16>, %b: tensor<72x64xf16>) -> tensor<100x72xf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<100x64xf16>, tensor<72x64xf16>) -> tensor<100x72xf16>
  return %0 : tensor<100x72xf16>
}

// -----

// B stored [K, N] in 16 bits: shared tiles [k][n], read with ldmatrix.trans.
// Extents that the tiles divide need no guards.
// CHECK-LABEL: gpu.func @nn_k0_matmul
//       CHECK:   %[[B:.*]] = memref.view %{{.*}}[%c12288][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x64xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:   arith.select
//       CHECK:   nvgpu.ldmatrix %[[B]][{{.*}}] {numTiles = 4 : i32, transpose = true}
//   CHECK-NOT:   scf.if
//       CHECK:   gpu.return
func.func @nn(%a: tensor<64x64xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %0 = uta.matmul %a, %b : (tensor<64x64xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// -----

// bf16, which nvgpu.mma.sync does not lower: NVVM's mma on 32-bit registers.
// K = 17 makes the rows of A 34 bytes: no 16-byte cp.async for A, its tiles
// are loaded element by element (zeros past K); B's rows (N = 64, 128 B)
// still use cp.async.
// CHECK-LABEL: gpu.func @odd_k_k0_matmul
//       CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
//   CHECK-NOT:   nvgpu.device_async_copy %arg0
//       CHECK:   memref.load %arg0
//       CHECK:   scf.yield %[[ZERO]] : bf16
//       CHECK:   nvgpu.device_async_copy %arg1
//       CHECK:   nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{{ *}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
func.func @odd_k(%a: tensor<32x17xbf16>, %b: tensor<17x64xbf16>) -> tensor<32x64xbf16> {
  %0 = uta.matmul %a, %b : (tensor<32x17xbf16>, tensor<17x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}

// -----

// f32 by default: 3xTF32. Each fragment is split into a TF32 high part
// (bits + 0x1000, low 13 bits cleared: round to nearest, ties away) and the
// rounded remainder; three m16n8k8 products per tile, the small ones first,
// into accumulators of the K tile that are then added to the running ones.
// B stored [K, N] in 32 bits cannot be transposed by ldmatrix: plain loads.
// With allow-tf32, one product of rounded fragments into the running
// accumulators.
// CHECK-LABEL: gpu.func @f32_k0_matmul
//       CHECK:   scf.for
//       CHECK:     nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<3x64x16xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
//       CHECK:     memref.load %{{.*}} : memref<3x16x64xf32, #gpu.address_space<workgroup>>
//       CHECK:     arith.bitcast %{{.*}} : vector<4x1xf32> to vector<4x1xi32>
//       CHECK:     arith.addi %{{.*}}, %cst{{.*}} : vector<4x1xi32>
//       CHECK:     arith.andi %{{.*}}, %cst{{.*}} : vector<4x1xi32>
//       CHECK:     arith.subf %{{.*}} : vector<4x1xf32>
//       CHECK:     %[[S1:.*]] = nvgpu.mma.sync({{.*}}, %cst{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
//       CHECK:     %[[S2:.*]] = nvgpu.mma.sync({{.*}}, %[[S1]]) {mmaShape = [16, 8, 8], tf32Enabled}
//       CHECK:     nvgpu.mma.sync({{.*}}, %[[S2]]) {mmaShape = [16, 8, 8], tf32Enabled}
//       CHECK:     arith.addf %{{.*}} : vector<2x2xf32>
//       CHECK:     scf.yield
// TF32-LABEL: gpu.func @f32_k0_matmul
//       TF32:   scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %cst
//       TF32:     arith.andi
//   TF32-NOT:     arith.subf
//       TF32:     nvgpu.mma.sync({{.*}}, %[[ACC]]) {mmaShape = [16, 8, 8], tf32Enabled}
//   TF32-NOT:     arith.addf
//       TF32:     scf.yield
func.func @f32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %0 = uta.matmul %a, %b : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Batched with a broadcast B: one tile per matrix, so the block index is
// the batch index of A, and B's batch index is 0 for every block.
// CHECK-LABEL: func.func @batched
//       CHECK:   gpu.launch_func @kernels::@batched_k0_matmul blocks in (%c6, %c1, %c1)
// CHECK-LABEL: gpu.func @batched_k0_matmul
//       CHECK:   %[[BLOCK:.*]] = gpu.block_id x
//       CHECK:   nvgpu.device_async_copy %arg0[%[[BLOCK]], %{{.*}}, %{{.*}}]
//       CHECK:   nvgpu.device_async_copy %arg1[%c0, %{{.*}}, %{{.*}}]
func.func @batched(%a: tensor<6x40x32xf16>, %b: tensor<1x24x32xf16>) -> tensor<6x40x24xf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<6x40x32xf16>, tensor<1x24x32xf16>) -> tensor<6x40x24xf16>
  return %0 : tensor<6x40x24xf16>
}

// -----

// A fused bias and GELU run on each accumulator before its one store: the
// kernel is the GEMM's (one block per tile), the bias is read at the
// element's column.
// CHECK-LABEL: func.func @linear_gelu
//       CHECK:   gpu.launch_func @kernels::@linear_gelu_k0_gelu blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)
// CHECK-LABEL: gpu.func @linear_gelu_k0_gelu
//       CHECK:   nvgpu.mma.sync
//       CHECK:   scf.if
//       CHECK:     %[[BIAS:.*]] = memref.load %arg2[%{{.*}}] : memref<72xf32>
//       CHECK:     arith.addf %{{.*}}, %[[BIAS]] : f32
//       CHECK:     math.erf
//       CHECK:     memref.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<70x72xf32>
func.func @linear_gelu(%x: tensor<70x32xf32>, %w: tensor<72x32xf32>, %b: tensor<72xf32>) -> tensor<70x72xf32> {
  %0 = uta.fusion(%x, %w, %b) : (tensor<70x32xf32>, tensor<72x32xf32>, tensor<72xf32>) -> tensor<70x72xf32> {
  ^bb0(%a0: tensor<70x32xf32>, %a1: tensor<72x32xf32>, %a2: tensor<72xf32>):
    %1 = uta.matmul %a0, %a1 {transpose_b = true} : (tensor<70x32xf32>, tensor<72x32xf32>) -> tensor<70x72xf32>
    %2 = uta.add %1, %a2 : (tensor<70x72xf32>, tensor<72xf32>) -> tensor<70x72xf32>
    %3 = uta.gelu %2 : tensor<70x72xf32>
    uta.yield %3 : tensor<70x72xf32>
  }
  return %0 : tensor<70x72xf32>
}
