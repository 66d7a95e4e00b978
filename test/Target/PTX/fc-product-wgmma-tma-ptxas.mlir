// fc_product on the warp-specialised TMA schedule compiles for sm_90a to
// PTX that ptxas accepts, in plain TF32 (the 256-column row) and 3xTF32:
// x, y and the K-major weights come as three 128-byte grid-constant tensor
// maps, the producer gives registers to the consumers (setmaxnreg), and
// the consumers' wgmmas take A from registers. ptxas keeps every wgmma
// asynchronous (no C7513/C7514 "Potential Performance Loss").
// REQUIRES: ptxas
// RUN: utac %s --sm=90a --allow-tf32 --uta-gemm-config=fctma128x256x32 --compile-to=ptx > %ttf32.ptx
// RUN: %ptxas -arch=sm_90a -v %ttf32.ptx -o %ttf32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%ttf32.ptx --check-prefixes=CHECK,TF32
// RUN: utac %s --sm=90a --compile-to=ptx > %tx3.ptx
// RUN: %ptxas -arch=sm_90a -v %tx3.ptx -o %tx3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%tx3.ptx --check-prefixes=CHECK,X3

//   PTXAS-NOT: Potential Performance Loss
//       PTXAS: Compiling entry function 'fc_ws_k1_fc_product'
//   PTXAS-NOT: Potential Performance Loss

// The weights' transpose kernel first (uta-tensor-core-layouts), then the
// product.
// CHECK-LABEL: .entry fc_ws_k0_transpose(
// CHECK-LABEL: .entry fc_ws_k1_fc_product(
//       CHECK:   .param .align 64 .b8 fc_ws_k1_fc_product_param_5[128],
//  CHECK-NEXT:   .param .align 64 .b8 fc_ws_k1_fc_product_param_6[128],
//  CHECK-NEXT:   .param .align 64 .b8 fc_ws_k1_fc_product_param_7[128]
//       CHECK:   .maxntid 384, 1, 1
//       CHECK:   mbarrier.init.shared.b64
//        TF32:   setmaxnreg.dec.sync.aligned.u32 40;
//          X3:   setmaxnreg.dec.sync.aligned.u32 56;
// Block placement orders the roles' code freely: the rest in any order.
//   CHECK-DAG:   cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//   CHECK-DAG:   bar.sync
//   CHECK-DAG:   setmaxnreg.inc.sync.aligned.u32
//   CHECK-DAG:   mbarrier.try_wait.parity.shared.b64
//   CHECK-DAG:   bar.arrive
//   CHECK-DAG:   wgmma.wait_group.sync.aligned 0;
//    TF32-DAG:   wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
//      X3-DAG:   wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
func.func @fc_ws(%x: tensor<8x256x64xf32>, %y: tensor<8x256x64xf32>, %w: tensor<20x64x256xf32>) -> tensor<8x256x256xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x256x64xf32>, tensor<8x256x64xf32>, tensor<20x64x256xf32>) -> tensor<8x256x256xf32>
  return %r : tensor<8x256x256xf32>
}
