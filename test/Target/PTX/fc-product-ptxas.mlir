// fc_product on the GEMM engine's tensor cores compiles to PTX that ptxas
// accepts for sm_90: Cl(2,0) to Cl(6,0) and a degenerate algebra, partial
// tiles, K tails, rows that are not 16-byte aligned (copied by element),
// the benchmark's FCGP. Per result blade, a cp.async pipeline stages x and
// y tiles (ldmatrix, their signed products as the A fragments) and the
// weights, into mma.sync m16n8k8 tf32; no atomics.
// REQUIRES: ptxas
// RUN: utac %s --compile-to=ptx > %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: grep -c "^\.visible \.entry" %t.ptx | FileCheck %s --check-prefix=ENTRIES
// RUN: not grep -wE "(atom|red)\.[a-z0-9.]+" %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// The same on sm_90a's wgmma schedules, 3xTF32 and TF32: no mma.sync left.
// RUN: utac %s --sm=90a --compile-to=ptx > %t90a.ptx
// RUN: %ptxas -arch=sm_90a %t90a.ptx -o %t90a.cubin
// RUN: FileCheck %s --input-file=%t90a.ptx --check-prefix=WGMMA
// RUN: not grep -E "mma\.sync" %t90a.ptx
// RUN: utac %s --sm=90a --allow-tf32 --compile-to=ptx > %t90a-tf32.ptx
// RUN: %ptxas -arch=sm_90a %t90a-tf32.ptx -o %t90a-tf32.cubin
// RUN: FileCheck %s --input-file=%t90a-tf32.ptx --check-prefix=WGMMA
// Where rows of x and y are 16-byte aligned (the benchmark's FCGP), their
// tiles come through the tensor memory accelerator (prefix TMA): two
// descriptors by value, an mbarrier per stage; the consumers load their x
// and y fragments by ldmatrix.
// RUN: FileCheck %s --input-file=%t90a.ptx --check-prefix=TMA
// In TF32 the FCGP's gates come as fc_product's gate operand (a kernel of
// pair_gate_factor before it), copied through a fourth descriptor as 2-D
// boxes.
// RUN: FileCheck %s --input-file=%t90a-tf32.ptx --check-prefix=GATED

// One kernel per fc_product, three for FCGP (on tensor cores both gates
// are one pair_gate kernel of their own: the GEMM engine copies x and y
// from memory).
// ENTRIES: {{^}}8{{$}}

// The FCGP's grade norm is applied by fc_product's kernel (prefix TMA):
// two global buffers follow the result and the count (the counters,
// zeroed by the runtime, and the blocks' sums); each block takes a ticket,
// and in the epilogue makes its sums visible, counts itself in at its
// group's counter, waits for the group and reads the group's sums from L2.
// TMA-LABEL: .entry fcgp_bench_k2_fc_product(
//       TMA: .param .u32 fcgp_bench_k2_fc_product_param_4,
//  TMA-NEXT: .param .u64 .ptr .align 1 fcgp_bench_k2_fc_product_param_5,
//  TMA-NEXT: .param .u64 .ptr .align 1 fcgp_bench_k2_fc_product_param_6,
//  TMA-NEXT: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_7[128],
//  TMA-NEXT: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_8[128]
//       TMA: atom.global.add.u32
//       TMA: mbarrier.init.shared.b64
//       TMA: fence.mbarrier_init.release.cluster;
//       TMA: mbarrier.arrive.expect_tx.shared.b64
//       TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//       TMA: mbarrier.try_wait.parity.shared.b64
//       TMA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       TMA: fence.acq_rel.gpu;
//       TMA: atom.add.u32
//       TMA: ld.acquire.gpu.b32
//       TMA: ld.relaxed.gpu.b32
//   TMA-NOT: .entry

// The gate factors and the weights' transpose, independent, in one grid.
// GATED-LABEL: .entry fcgp_bench_k0_pair_gate_factor_k1_transpose(
// GATED-LABEL: .entry fcgp_bench_k2_fc_product(
//       GATED: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_8[128],
//  GATED-NEXT: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_9[128],
//  GATED-NEXT: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_10[128],
//  GATED-NEXT: .param .align 64 .b8 fcgp_bench_k2_fc_product_param_11[128]
//       GATED: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//       GATED: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//       GATED: ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       GATED: ld.acquire.gpu.b32
//   GATED-NOT: .entry

// WGMMA-LABEL: .entry fc_cl200_k0_fc_product(
//       WGMMA: cp.async
//       WGMMA: fence.proxy.async.shared::cta;
//       WGMMA: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k8.f32.tf32.tf32

//       CHECK: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// CHECK-LABEL: .entry fc_cl200_k0_fc_product(
//       CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
//       CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-LABEL: .entry fc_cl300_k0_fc_product(
//       CHECK: cp.async.cg.shared.global
//       CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-LABEL: .entry fc_cl400_k0_fc_product(
//       CHECK: mma.sync.aligned.m16n8k8
// CHECK-LABEL: .entry fc_cl301_k0_fc_product(
//       CHECK: mma.sync.aligned.m16n8k8
// CHECK-LABEL: .entry fc_cl600_k0_fc_product(
//       CHECK: mma.sync.aligned.m16n8k8
// CHECK-LABEL: .entry fcgp_bench_k0_pair_gate(
// CHECK-LABEL: .entry fcgp_bench_k1_fc_product(
//   CHECK-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
//   CHECK-DAG: cp.async.wait_group{{[[:space:]]+}}1;
//   CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
//   CHECK-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-LABEL: .entry fcgp_bench_k2_grade_rms_norm(

func.func @fc_cl200(%x: tensor<4x67x31xf32>, %y: tensor<4x67x31xf32>, %w: tensor<10x31x17xf32>) -> tensor<4x67x17xf32> {
  %r = clifford.fc_product <2, 0, 0> %x, %y, %w : (tensor<4x67x31xf32>, tensor<4x67x31xf32>, tensor<10x31x17xf32>) -> tensor<4x67x17xf32>
  return %r : tensor<4x67x17xf32>
}

func.func @fc_cl300(%x: tensor<8x37x13xf32>, %y: tensor<8x37x13xf32>, %w: tensor<20x13x40xf32>) -> tensor<8x37x40xf32> {
  %r = clifford.fc_product <3, 0, 0> %x, %y, %w : (tensor<8x37x13xf32>, tensor<8x37x13xf32>, tensor<20x13x40xf32>) -> tensor<8x37x40xf32>
  return %r : tensor<8x37x40xf32>
}

func.func @fc_cl400(%x: tensor<16x50x21xf32>, %y: tensor<16x50x21xf32>, %w: tensor<35x21x70xf32>) -> tensor<16x50x70xf32> {
  %r = clifford.fc_product <4, 0, 0> %x, %y, %w : (tensor<16x50x21xf32>, tensor<16x50x21xf32>, tensor<35x21x70xf32>) -> tensor<16x50x70xf32>
  return %r : tensor<16x50x70xf32>
}

func.func @fc_cl301(%x: tensor<16x9x13xf32>, %y: tensor<16x9x13xf32>, %w: tensor<34x13x6xf32>) -> tensor<16x9x6xf32> {
  %r = clifford.fc_product <3, 0, 1> %x, %y, %w : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<34x13x6xf32>) -> tensor<16x9x6xf32>
  return %r : tensor<16x9x6xf32>
}

func.func @fc_cl600(%x: tensor<64x5x7xf32>, %y: tensor<64x5x7xf32>, %w: tensor<84x7x3xf32>) -> tensor<64x5x3xf32> {
  %r = clifford.fc_product <6, 0, 0> %x, %y, %w : (tensor<64x5x7xf32>, tensor<64x5x7xf32>, tensor<84x7x3xf32>) -> tensor<64x5x3xf32>
  return %r : tensor<64x5x3xf32>
}

func.func @fcgp_bench(%x: tensor<8x4096x512xf32>, %y: tensor<8x4096x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<8x4096x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x512xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x512xf32>, tensor<8x4096x512xf32>, tensor<20x512x512xf32>) -> tensor<8x4096x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x512xf32>
  return %n : tensor<8x4096x512xf32>
}
