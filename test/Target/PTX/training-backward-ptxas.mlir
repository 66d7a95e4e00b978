// The backward half of Flash Clifford's FC layer (linear map with a bias,
// gated fully connected product, grade RMS norm; Cl(3,0), B = 128, F = 64)
// runs its products on tensor cores: fc_product's two operand adjoints read
// one grouped GEMM of the 44 path groups' pair cotangents
// (uta-share-fc-adjoint-gemms; mma.sync or wgmma), then one element-wise
// kernel computes both adjoints from it, reading it once; its
// weight gradient is one GEMM per path, K over the batch, the pair products
// formed in registers (mma.sync; on sm_90a, with every operand
// batch-contiguous, fc_product's warp-specialised kernel); the linear map's dx and weight gradient are
// engine GEMMs (mma.sync on sm_80, mma.sync or wgmma on sm_90a; f32 as
// 3xTF32, or tf32 with --allow-tf32), none a loop of scalar FMAs. The
// buffers are the layer's tensors, the bias gradient's partial sums and
// the pair cotangents ([44, 128, 64] f32, 1441792 bytes): no buffer of the
// pair products ([8, 128, 20 * 64] f32 = 5 MiB) or of [paths, B, F, F]
// size (42 MB).
// REQUIRES: ptxas
// RUN: utac %s --grad=backward --sm=80 --target=ptx -o %t80.ptx
// RUN: %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
// RUN: FileCheck %s --input-file=%t80.ptx
// RUN: grep -o '"bytes": [0-9]*' %t80.ptx.json | sort -u -t: -k2 -n | FileCheck %s --check-prefix=BUFFERS
// RUN: utac %s --grad=backward --sm=80 --allow-tf32 --target=ptx -o %t80tf32.ptx
// RUN: FileCheck %s --input-file=%t80tf32.ptx
// RUN: utac %s --grad=backward --sm=90a --target=ptx -o %t90a.ptx
// RUN: %ptxas -arch=sm_90a %t90a.ptx -o %t90a.cubin
// RUN: FileCheck %s --input-file=%t90a.ptx
// RUN: grep -o '"bytes": [0-9]*' %t90a.ptx.json | sort -u -t: -k2 -n | FileCheck %s --check-prefix=BUFFERS
// RUN: utac %s --grad=backward --sm=90a --allow-tf32 --target=ptx -o %t90atf32.ptx
// RUN: FileCheck %s --input-file=%t90atf32.ptx

// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_pair_cotangents(
//       CHECK:   {{mma.sync.aligned|wgmma.mma_async}}
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_pair_adjoints
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_fc_product_weight_gradient(
//       CHECK:   {{mma.sync.aligned|wgmma.mma_async}}
// CHECK-LABEL: .entry fc_layer_backward_k{{[0-9]+}}_matmul(
//       CHECK:   {{mma.sync.aligned|wgmma.mma_async}}

//      BUFFERS: "bytes": 256
// BUFFERS-NEXT: "bytes": 131072
// BUFFERS-NEXT: "bytes": 262144
// BUFFERS-NEXT: "bytes": 327680
// BUFFERS-NEXT: "bytes": 1441792
//  BUFFERS-NOT: bytes

func.func @fc_layer(%x: tensor<8x128x64xf32>, %lw: tensor<8x64x64xf32>, %b: tensor<1x1x64xf32>, %w: tensor<20x64x64xf32>) -> tensor<8x128x64xf32> {
  %h = uta.matmul %x, %lw : (tensor<8x128x64xf32>, tensor<8x64x64xf32>) -> tensor<8x128x64xf32>
  %y = uta.add %h, %b : (tensor<8x128x64xf32>, tensor<1x1x64xf32>) -> tensor<8x128x64xf32>
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x128x64xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x128x64xf32>
  %z = clifford.fc_product <3, 0, 0> %gx, %gy, %w : (tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<20x64x64xf32>) -> tensor<8x128x64xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %z : tensor<8x128x64xf32>
  return %n : tensor<8x128x64xf32>
}
