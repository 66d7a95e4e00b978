// The mma.sync GEMM compiles to PTX that ptxas accepts for every CUDA
// target of utac (sm_80, sm_86, sm_89, sm_90): f16 and bf16 (m16n8k16),
// f32 as 3xTF32 and as TF32 (m16n8k8), B in both layouts, rows that are and
// are not 16-byte aligned, and a fused epilogue. The text has the pipeline's
// instructions: cp.async with zero fill, its groups, ldmatrix (.trans for a
// [K, N] B of 16 bits), mma.sync.
// REQUIRES: ptxas
// RUN: utac %s --sm=80 --compile-to=ptx > %t80.ptx
// RUN: %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
// RUN: utac %s --sm=86 --compile-to=ptx > %t86.ptx
// RUN: %ptxas -arch=sm_86 %t86.ptx -o %t86.cubin
// RUN: utac %s --sm=89 --compile-to=ptx > %t89.ptx
// RUN: %ptxas -arch=sm_89 %t89.ptx -o %t89.cubin
// RUN: utac %s --sm=90 --compile-to=ptx > %t90.ptx
// RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin
// RUN: FileCheck %s --input-file=%t80.ptx
// RUN: utac %s --sm=90 --allow-tf32 --compile-to=ptx > %ttf32.ptx
// RUN: %ptxas -arch=sm_90 %ttf32.ptx -o %ttf32.cubin
// RUN: FileCheck %s --input-file=%ttf32.ptx --check-prefix=TF32
// RUN: utac %s --sm=80 --entry=f32 -o %tf32.ptx
// RUN: FileCheck %s --input-file=%tf32.ptx.json --check-prefix=MANIFEST

// The tiles live in dynamic shared memory, whose symbol is an external
// array, and the manifest gives each launch its size.
// CHECK:       .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// MANIFEST:    "launches": [
// MANIFEST:      "shared_bytes": 24576

// CHECK-LABEL: .entry f16_tb_k0_matmul(
//       CHECK:   cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
//       CHECK:   cp.async.commit_group;
//       CHECK:   cp.async.wait_group 1;
//       CHECK:   bar.sync 0;
//       CHECK:   ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       CHECK:   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-LABEL: .entry bf16_nn_k0_matmul(
//       CHECK:   ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
//       CHECK:   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-LABEL: .entry f32_k0_matmul(
//       CHECK:   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-LABEL: .entry f32_odd_k0_gelu(
//   CHECK-NOT:   cp.async.cg
//       CHECK:   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32-LABEL: .entry f32_k0_matmul(
//       TF32:   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
func.func @f16_tb(%a: tensor<100x64xf16>, %b: tensor<72x64xf16>) -> tensor<100x72xf16> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<100x64xf16>, tensor<72x64xf16>) -> tensor<100x72xf16>
  return %0 : tensor<100x72xf16>
}
func.func @bf16_nn(%a: tensor<2x64x40xbf16>, %b: tensor<40x136xbf16>) -> tensor<2x64x136xbf16> {
  %0 = uta.matmul %a, %b : (tensor<2x64x40xbf16>, tensor<40x136xbf16>) -> tensor<2x64x136xbf16>
  return %0 : tensor<2x64x136xbf16>
}
func.func @f32(%a: tensor<300x48xf32>, %b: tensor<48x200xf32>) -> tensor<300x200xf32> {
  %0 = uta.matmul %a, %b : (tensor<300x48xf32>, tensor<48x200xf32>) -> tensor<300x200xf32>
  return %0 : tensor<300x200xf32>
}
func.func @f32_odd(%a: tensor<30x13xf32>, %b: tensor<50x13xf32>, %c: tensor<50xf32>) -> tensor<30x50xf32> {
  %0 = uta.matmul %a, %b {transpose_b = true} : (tensor<30x13xf32>, tensor<50x13xf32>) -> tensor<30x50xf32>
  %1 = uta.add %0, %c : (tensor<30x50xf32>, tensor<50xf32>) -> tensor<30x50xf32>
  %2 = uta.gelu %1 : tensor<30x50xf32>
  return %2 : tensor<30x50xf32>
}
