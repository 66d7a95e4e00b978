// convert-uta-to-gpu records on each launch the arithmetic of its kernel
// (uta.flops): a GEMM's 2 M N K exactly, on the unit its plan runs it
// (tensor cores in tf32, 3xTF32 or bf16/f16, or the SIMT cores), and the
// SIMT work of the other ops from their own estimates. The manifest copies
// it (test/Tools/utac/launch-cost.test).
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=80" | FileCheck %s --check-prefix=F32
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="sm=90 arch-specific=true allow-tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu | FileCheck %s --check-prefix=SIMT

// A batched matmul with gelu in its epilogue: 2 * 4 * 256 * 64 * 128 =
// 16777216 products, and 20 operations per element of the gelu's
// 4 * 256 * 64 (1310720).
// F32-LABEL: func.func @matmul_gelu
//       F32:   gpu.launch_func @kernels::@matmul_gelu_k0_gelu {{.*}}uta.flops = {"3xtf32" = 16777216 : i64, simt = 1310720 : i64}
// TF32-LABEL: func.func @matmul_gelu
//       TF32:   gpu.launch_func @kernels::@matmul_gelu_k0_gelu {{.*}}uta.flops = {simt = 1310720 : i64, tf32 = 16777216 : i64}
// SIMT-LABEL: func.func @matmul_gelu
//       SIMT:   gpu.launch_func @kernels::@matmul_gelu_k0_gelu {{.*}}uta.flops = {simt = 18087936 : i64}
func.func @matmul_gelu(%a: tensor<4x256x128xf32>, %b: tensor<4x128x64xf32>) -> tensor<4x256x64xf32> {
  %0 = uta.fusion (%a, %b) : (tensor<4x256x128xf32>, tensor<4x128x64xf32>) -> tensor<4x256x64xf32> {
  ^bb0(%x: tensor<4x256x128xf32>, %y: tensor<4x128x64xf32>):
    %1 = uta.matmul %x, %y : (tensor<4x256x128xf32>, tensor<4x128x64xf32>) -> tensor<4x256x64xf32>
    %2 = uta.gelu %1 : tensor<4x256x64xf32>
    uta.yield %2 : tensor<4x256x64xf32>
  }
  return %0 : tensor<4x256x64xf32>
}

// -----

// bf16 operands: exact products on the tensor cores, counted as bf16.
// F32-LABEL: func.func @matmul_bf16
//       F32:   gpu.launch_func @kernels::@matmul_bf16_k0_matmul {{.*}}uta.flops = {bf16 = 8388608 : i64}
func.func @matmul_bf16(%a: tensor<256x128xbf16>, %b: tensor<128x128xbf16>) -> tensor<256x128xbf16> {
  %0 = uta.matmul %a, %b : (tensor<256x128xbf16>, tensor<128x128xbf16>) -> tensor<256x128xbf16>
  return %0 : tensor<256x128xbf16>
}

// -----

// fc_product in Cl(3,0), B = 256, Fin = Fout = 32: the 64 Cayley terms of
// the geometric product fall on 44 (result blade, path) slots. The
// schedules that stage every term's tiles (mma.sync, wgmma) split the slots
// of more than two terms (another pass over Fin), 48 slots, each a
// [256, 32] x [32, 32] product: 2 * 48 * 256 * 32 * 32 = 25165824 on the
// tensor cores. Forming A is a multiply and an add per term, row and input
// feature: 2 * 64 * 256 * 32 = 1048576. The SIMT kernel runs the 44 whole
// slots: 2 * 44 * 256 * 32 * 32 + 1048576 = 24117248.
// F32-LABEL: func.func @fc
//       F32:   gpu.launch_func @kernels::@fc_k0_fc_product {{.*}}uta.flops = {"3xtf32" = 25165824 : i64, simt = 1048576 : i64}
// TF32-LABEL: func.func @fc
//       TF32:   gpu.launch_func @kernels::@fc_k0_fc_product {{.*}}uta.flops = {simt = 1048576 : i64, tf32 = 25165824 : i64}
// SIMT-LABEL: func.func @fc
//       SIMT:   gpu.launch_func @kernels::@fc_k0_fc_product {{.*}}uta.flops = {simt = 24117248 : i64}
func.func @fc(%x: tensor<8x256x32xf32>, %y: tensor<8x256x32xf32>, %w: tensor<20x32x32xf32>) -> tensor<8x256x32xf32> {
  %0 = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x256x32xf32>, tensor<8x256x32xf32>, tensor<20x32x32xf32>) -> tensor<8x256x32xf32>
  return %0 : tensor<8x256x32xf32>
}

// -----

// A sum over the rows: one add per element read (256 * 64).
// SIMT-LABEL: func.func @row_sum
//       SIMT:   gpu.launch_func @kernels::@row_sum_k0_reduce_sum {{.*}}uta.flops = {simt = 16384 : i64}
func.func @row_sum(%a: tensor<256x64xf32>) -> tensor<64xf32> {
  %0 = uta.reduce_sum %a dims [0] : tensor<256x64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
