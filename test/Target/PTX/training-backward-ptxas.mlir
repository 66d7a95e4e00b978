// The backward half of Flash Clifford's FC layer (linear map with a bias,
// gated fully connected product, grade RMS norm; Cl(3,0), B = 128, F = 64)
// runs its products on tensor cores: fc_product's two operand adjoints
// (clifford.fc_product_adjoint, mma.sync GEMMs whose K loop runs over each
// result blade's terms), its weight gradient (one mma.sync GEMM per path,
// K over the batch, the pair products formed in registers), and the linear
// map's dx and weight gradient (two matmuls launched as one grid), each an
// engine GEMM (mma.sync on sm_80, mma.sync or wgmma on sm_90a; f32 as
// 3xTF32, or tf32 with --allow-tf32), none a loop of scalar FMAs. No
// buffer of the pair products ([8, 128, 20 * 64] f32 = 5 MiB) or of
// [paths, B, F, F] size (42 MB) is allocated: no buffer reaches 7 digits
// of bytes.
// REQUIRES: ptxas
// RUN: utac %s --grad=backward --sm=80 --target=ptx -o %t80.ptx
// RUN: %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
// RUN: FileCheck %s --input-file=%t80.ptx
// RUN: FileCheck %s --input-file=%t80.ptx.json --check-prefix=BUFFERS
// RUN: utac %s --grad=backward --sm=80 --allow-tf32 --target=ptx -o %t80tf32.ptx
// RUN: FileCheck %s --input-file=%t80tf32.ptx
// RUN: utac %s --grad=backward --sm=90a --target=ptx -o %t90a.ptx
// RUN: %ptxas -arch=sm_90a %t90a.ptx -o %t90a.cubin
// RUN: FileCheck %s --input-file=%t90a.ptx
// RUN: FileCheck %s --input-file=%t90a.ptx.json --check-prefix=BUFFERS
// RUN: utac %s --grad=backward --sm=90a --allow-tf32 --target=ptx -o %t90atf32.ptx
// RUN: FileCheck %s --input-file=%t90atf32.ptx

// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_adjoint(
//       CHECK:   mma.sync.aligned
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_adjoint(
//       CHECK:   mma.sync.aligned
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_weight_gradient(
//       CHECK:   mma.sync.aligned
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_matmul(
//       CHECK:   {{mma.sync.aligned|wgmma.mma_async}}

// BUFFERS-NOT: "bytes": {{[0-9][0-9][0-9][0-9][0-9][0-9][0-9]}}
// BUFFERS:     "bytes": 262144,
// BUFFERS-NOT: "bytes": {{[0-9][0-9][0-9][0-9][0-9][0-9][0-9]}}

func.func @fc_layer(%x: tensor<8x128x64xf32>, %lw: tensor<8x64x64xf32>, %b: tensor<1x1x64xf32>, %w: tensor<20x64x64xf32>) -> tensor<8x128x64xf32> {
  %h = uta.matmul %x, %lw : (tensor<8x128x64xf32>, tensor<8x64x64xf32>) -> tensor<8x128x64xf32>
  %y = uta.add %h, %b : (tensor<8x128x64xf32>, tensor<1x1x64xf32>) -> tensor<8x128x64xf32>
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x128x64xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x128x64xf32>
  %z = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<20x64x64xf32>) -> tensor<8x128x64xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %z : tensor<8x128x64xf32>
  return %n : tensor<8x128x64xf32>
}
