// The warp-specialised TMA schedule compiles for sm_90a to PTX that ptxas
// accepts, in 16 bits, plain TF32 and 3xTF32: the tensor maps are 128-byte
// grid-constant parameters, the producer and consumers trade registers
// (setmaxnreg), tiles arrive by TMA on mbarriers, and named barriers hand
// the stages over around the warpgroup MMAs.
// REQUIRES: ptxas
// RUN: utac %s --entry=bf16 --sm=90a --uta-gemm-config=tma128x256x64 --compile-to=ptx > %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: utac %s --entry=f32 --sm=90a --allow-tf32 --uta-gemm-config=tma128x256x32f32 --compile-to=ptx > %ttf32.ptx
// RUN: %ptxas -arch=sm_90a -v %ttf32.ptx -o %ttf32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%ttf32.ptx --check-prefix=TF32
// RUN: utac %s --entry=f32 --sm=90a --uta-gemm-config=tma128x128x32x3 --compile-to=ptx > %tx3.ptx
// RUN: %ptxas -arch=sm_90a -v %tx3.ptx -o %tx3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%tx3.ptx --check-prefix=X3

// ptxas keeps the warpgroup MMAs asynchronous: it reports no serialized
// wgmma (C7513/C7514, "Potential Performance Loss") in any of the three.
//   PTXAS-NOT: Potential Performance Loss
//       PTXAS: Compiling entry function
//   PTXAS-NOT: Potential Performance Loss

// CHECK:       .target sm_90a
// CHECK-LABEL: .entry bf16_k0_matmul(
//       CHECK:   .param .align 64 .b8 bf16_k0_matmul_param_4[128],
//       CHECK:   .param .align 64 .b8 bf16_k0_matmul_param_5[128]
//       CHECK:   .maxntid 384, 1, 1
//       CHECK:   mbarrier.init.shared.b64
//       CHECK:   setmaxnreg.dec.sync.aligned.u32 40;
//       CHECK:   mbarrier.try_wait.parity.shared.b64
//       CHECK:   bar.arrive
//       CHECK:   mbarrier.arrive.expect_tx.shared.b64
//       CHECK:   cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//       CHECK:   setmaxnreg.inc.sync.aligned.u32 232;
//       CHECK:   bar.sync
//       CHECK:   wgmma.fence.sync.aligned;
//       CHECK:   wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
//       CHECK:   wgmma.commit_group.sync.aligned;
//       CHECK:   wgmma.wait_group.sync.aligned 1;

// In plain TF32 the producer only copies; each consumer loads its A
// fragments (one ldmatrix of four 8x8 b16 matrices each), issues wgmma with A in registers and keeps one group in
// flight, holding the registers of the step before until its wait.
// TF32-LABEL: .entry f32_k0_matmul(
//       TF32:   setmaxnreg.dec.sync.aligned.u32 40;
//   TF32-NOT:   fence.proxy.async
//       TF32:   setmaxnreg.inc.sync.aligned.u32 232;
//       TF32:   ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       TF32:   wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1;
//       TF32:   wgmma.wait_group.sync.aligned 1;
//       TF32:   mov.u32 {{.*}}, %clock;
//       TF32:   @p bra HOLD_{{[0-9]+}};
//       TF32:   st.shared.v4.b32
//       TF32:   wgmma.wait_group.sync.aligned 0;

// 3xTF32: the consumers load their A fragments by ldmatrix and issue
// wgmma with A (high parts and remainders) in registers, waiting for each
// step's products.
// X3-LABEL: .entry f32_k0_matmul(
//       X3:   ldmatrix.sync.aligned.m8n8.x4.shared.b16
//   X3-DAG:   wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1;
//   X3-DAG:   wgmma.wait_group.sync.aligned 0;

func.func @bf16(%a: tensor<300x200xbf16>, %b: tensor<520x200xbf16>) -> tensor<300x520xbf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<300x200xbf16>, tensor<520x200xbf16>) -> tensor<300x520xbf16>
  return %r : tensor<300x520xbf16>
}

func.func @f32(%a: tensor<300x200xf32>, %b: tensor<520x200xf32>) -> tensor<300x520xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<300x200xf32>, tensor<520x200xf32>) -> tensor<300x520xf32>
  return %r : tensor<300x520xf32>
}
