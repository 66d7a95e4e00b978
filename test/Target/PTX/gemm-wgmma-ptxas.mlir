// The wgmma schedule compiles for sm_90a (PTX 8.0) to PTX that ptxas
// accepts: f16 and bf16 (m64nNk16), f32 as 3xTF32 and, through a named row,
// as TF32 (m64nNk8), with a fused epilogue. The text has the pipeline's
// cp.async and groups, the proxy fence, and wgmma's fence, asynchronous
// products, commit and wait.
// REQUIRES: ptxas
// RUN: utac %s --sm=90a --compile-to=ptx > %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: utac %s --sm=90a --allow-tf32 --uta-gemm-config=wgmma128x256x32f32 --compile-to=ptx > %ttf32.ptx
// RUN: %ptxas -arch=sm_90a %ttf32.ptx -o %ttf32.cubin
// RUN: FileCheck %s --input-file=%ttf32.ptx --check-prefix=TF32

// CHECK:       .target sm_90a
// CHECK:       .extern .shared .align 1024 .b8 __dynamic_shmem__0[];

// CHECK-LABEL: .entry f16_k0_matmul(
//       CHECK:   cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
//       CHECK:   cp.async.commit_group;
//       CHECK:   cp.async.wait_group 1;
//       CHECK:   fence.proxy.async.shared::cta;
//       CHECK:   bar.sync 0;
//       CHECK:   wgmma.fence.sync.aligned;
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
//       CHECK:   wgmma.commit_group.sync.aligned;
//       CHECK:   wgmma.wait_group.sync.aligned 1;
func.func @f16(%a: tensor<100x192xf16>, %b: tensor<72x192xf16>) -> tensor<100x72xf16> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<100x192xf16>, tensor<72x192xf16>) -> tensor<100x72xf16>
  return %r : tensor<100x72xf16>
}

// CHECK-LABEL: .entry bf16_gelu_k0_gelu(
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
func.func @bf16_gelu(%x: tensor<200x64xbf16>, %w: tensor<136x64xbf16>, %b: tensor<136xbf16>) -> tensor<200x136xbf16> {
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<200x64xbf16>, tensor<136x64xbf16>) -> tensor<200x136xbf16>
  %1 = uta.add %0, %b : (tensor<200x136xbf16>, tensor<136xbf16>) -> tensor<200x136xbf16>
  %2 = uta.gelu %1 : tensor<200x136xbf16>
  return %2 : tensor<200x136xbf16>
}

// 3xTF32 by default; TF32 only through a named row.
// CHECK-LABEL: .entry f32_k0_matmul(
//       CHECK:   wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// TF32-LABEL: .entry f32_k0_matmul(
//       TF32:   wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
func.func @f32(%a: tensor<129x260xf32>, %b: tensor<263x260xf32>) -> tensor<129x263xf32> {
  %r = uta.matmul %a, %b {transpose_b = true} : (tensor<129x260xf32>, tensor<263x260xf32>) -> tensor<129x263xf32>
  return %r : tensor<129x263xf32>
}
