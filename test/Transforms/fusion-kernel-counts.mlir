// Kernel counts (`utac --stats`) of the graphs each fusion rule is for: one
// kernel each with fusion, one per op without, and the bytes the fused
// kernel moves. Each function is compiled on its own (--entry).
// RUN: utac %s --entry=two_uses_one_consumer --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO-USES
// RUN: utac %s --entry=pointwise_into_clifford --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=INTO-CLIFFORD
// RUN: utac %s --entry=duplicated_into_consumers --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=DUPLICATED
// RUN: utac %s --entry=gate_read_twice --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=GATE
// RUN: utac %s --entry=no_duplicate_rereads --stats 2>&1 >/dev/null | FileCheck %s --check-prefix=REREADS

// A producer read twice by one consumer: recomputed at each read.
// TWO-USES: without fusion: 2 kernels
// TWO-USES: with fusion (default): 1 kernels
// TWO-USES-NEXT: two_uses_one_consumer_k0_add{{.*}} 4096 B read{{.*}} 4096 B written
func.func @two_uses_one_consumer(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = uta.exp %a : tensor<1024xf32>
  %s = uta.add %e, %e : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %s : tensor<1024xf32>
}

// Pointwise tensor ops (one read twice) feeding a geometric product: the
// product's kernel recomputes them per blade it reads.
// INTO-CLIFFORD: without fusion: 4 kernels
// INTO-CLIFFORD: with fusion (default): 1 kernels
// INTO-CLIFFORD-NEXT: pointwise_into_clifford_k0_geometric_product{{.*}} 96000 B read{{.*}} 32000 B written
func.func @pointwise_into_clifford(%a: tensor<8x1000xf32>, %b: tensor<8x1000xf32>, %y: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %s = uta.mul %a, %b : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %t = uta.tanh %s : tensor<8x1000xf32>
  %u = uta.add %t, %s : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %z = clifford.geometric_product <3, 0, 0> %u, %y : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  return %z : tensor<8x1000xf32>
}

// A cheap producer with two consumers, duplicated into both, whose results
// a third op combines: one kernel, where five ops were.
// DUPLICATED: without fusion: 4 kernels
// DUPLICATED: with fusion (default): 1 kernels
// DUPLICATED-NEXT: duplicated_into_consumers_k0_sub{{.*}} 8192 B read{{.*}} 4096 B written
func.func @duplicated_into_consumers(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = uta.exp %a : tensor<1024xf32>
  %x = uta.add %e, %b : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %y = uta.mul %e, %b : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %z = uta.sub %x, %y : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %z : tensor<1024xf32>
}

// A clifford gate read as both operands of a product.
// GATE: without fusion: 2 kernels
// GATE: with fusion (default): 1 kernels
func.func @gate_read_twice(%x: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %g = clifford.scalar_gate <3, 0, 0> %x : tensor<8x1000xf32>
  %z = clifford.geometric_product <3, 0, 0> %g, %g : (tensor<8x1000xf32>, tensor<8x1000xf32>) -> tensor<8x1000xf32>
  return %z : tensor<8x1000xf32>
}

// Must not duplicate: a sum of two 64 MiB tensors read by four consumers
// stays one kernel of its own (recomputing it would reread both operands
// four times), beside the four consumers. The consumers, independent of
// each other, run in one launch (uta-merge-independent-launches), which
// moves the bytes of the four.
// REREADS: with fusion (default): 2 kernels
// REREADS-NEXT: no_duplicate_rereads_k0_add 4194304 threads 134217728 B read 67108864 B written
// REREADS-NEXT: no_duplicate_rereads_k1_exp_k2_tanh_k3_neg_k4_abs 16777216 threads 268435456 B read 268435456 B written
func.func @no_duplicate_rereads(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> (tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>) {
  %s = uta.add %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = uta.exp %s : tensor<4096x4096xf32>
  %1 = uta.tanh %s : tensor<4096x4096xf32>
  %2 = uta.neg %s : tensor<4096x4096xf32>
  %3 = uta.abs %s : tensor<4096x4096xf32>
  return %0, %1, %2, %3 : tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>
}
