// The remarks of uta-fuse-kernels: one per producer and consumer, at the
// producer, saying what it fused into or why it stayed in memory. Every
// decision kind of the cost model has a case, the must-not-fuse ones
// included (a value with several consumers; a reduction needed elsewhere).
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels=remarks=true -verify-diagnostics -o /dev/null
// Without the option there are no remarks, and with fusion off one remark
// per function says so (the expected-remark lines are taken out first, as
// uta-opt would check them).
// RUN: sed -e '/expected-remark/d' %s | uta-opt -split-input-file -uta-fuse-kernels 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: remark:
// RUN: sed -e '/expected-remark/d' %s | uta-opt -split-input-file -uta-fuse-kernels="policy=none remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// NONE-COUNT-28: remark: fusion is off (policy none): every op is a kernel of its own
// NONE-NOT: remark:

// An elementwise chain: each producer is read once by its consumer.
func.func @fuse_chain(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  // expected-remark@+1 {{fused into 'uta.add': its consumer reads each element once}}
  %0 = uta.mul %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // expected-remark@+1 {{fused into 'uta.gelu': its consumer reads each element once}}
  %1 = uta.add %0, %c : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.gelu %1 : tensor<64xf32>
  return %2 : tensor<64xf32>
}

// -----

// A matmul fuses into its pointwise epilogue.
func.func @fuse_matmul_epilogue(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  // expected-remark@+1 {{fused into 'uta.add': its consumer reads each element once}}
  %0 = uta.matmul %x, %w {transpose_b = true} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  // expected-remark@+1 {{fused into 'uta.gelu'}}
  %1 = uta.add %0, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = uta.gelu %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// A cheap value with several consumers is duplicated into each: 2
// computations of exp (8 operations) per element cost 64 * 8 / 30e12 s,
// against its own kernel (4 us) and 64 * 4 B for the store and reloads less
// the rereads of its operand.
func.func @fuse_duplicated_into_consumers(%a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  // expected-remark@+2 {{fused into 'uta.mul': it has 2 consumers, and computing it 2 times instead of once costs 1.71e-05 us more, against 4 us for its kernel, its store and its reloads less the rereads of its operands}}
  // expected-remark@+1 {{fused into 'uta.add': it has 2 consumers, and computing it 2 times instead of once costs 1.71e-05 us more}}
  %0 = uta.exp %a : tensor<64xf32>
  %1 = uta.add %0, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %2 = uta.mul %0, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1, %2 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Must not fuse: recomputing a sum of two 64 MiB operands in each of its 4
// consumers rereads both operands 4 times: 64 MiB more traffic than storing
// it once and reading it 4 times, which a launch does not repay.
func.func @no_fuse_duplicate_rereads(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> (tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>) {
  // expected-remark@+4 {{not fused into 'uta.exp': it has 4 consumers, and computing it 4 times instead of once costs 1.68 us more, against -12.8 us for its kernel, its store and its reloads less the rereads of its operands}}
  // expected-remark@+3 {{not fused into 'uta.tanh': it has 4 consumers}}
  // expected-remark@+2 {{not fused into 'uta.neg': it has 4 consumers}}
  // expected-remark@+1 {{not fused into 'uta.abs': it has 4 consumers}}
  %s = uta.add %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = uta.exp %s : tensor<4096x4096xf32>
  %1 = uta.tanh %s : tensor<4096x4096xf32>
  %2 = uta.neg %s : tensor<4096x4096xf32>
  %3 = uta.abs %s : tensor<4096x4096xf32>
  return %0, %1, %2, %3 : tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>, tensor<4096x4096xf32>
}

// -----

// Must not fuse: one of the consumers cannot recompute it (a matmul would
// compute it once per column of its result), so it is stored.
func.func @no_fuse_duplicate_into_matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> (tensor<8x16xf32>, tensor<8x4xf32>) {
  // expected-remark@+2 {{not fused into 'uta.matmul': a matmul reads each element of its operands once per row or column of its result}}
  // expected-remark@+1 {{not fused into 'uta.neg': it has 2 consumers and 'uta.matmul' cannot recompute it (a matmul reads each element of its operands once per row or column of its result, so it would be recomputed that often): it is stored once and read by each}}
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.neg %0 : tensor<8x16xf32>
  %2 = uta.matmul %0, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1, %2 : tensor<8x16xf32>, tensor<8x4xf32>
}

// -----

// One consumer reading a value twice recomputes it at each read: one
// remark.
func.func @fuse_two_uses_one_consumer(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-remark@+1 {{fused into 'uta.add': computing it 2 times per element costs 1.71e-05 us more, against 4 us for a store, a reload and a launch}}
  %0 = uta.exp %a : tensor<64xf32>
  %1 = uta.add %0, %0 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// Must not fuse: a pointwise producer that a clifford consumer broadcasts
// is recomputed for every position it is broadcast to. A gelu rotor (20
// operations per blade, 64 blades) read by 262144 positions costs
// 262143 * 1280 / 30e12 s = 11.2 us more, against 4 us.
func.func @no_fuse_read_many_times(%r: tensor<64x1xf32>, %x: tensor<64x262144xf32>) -> tensor<64x262144xf32> {
  // expected-remark@+1 {{not fused into 'clifford.sandwich': computing it 262144 times per position costs 11.2 us more, against 4 us for a store, a reload and a launch}}
  %g = uta.gelu %r : tensor<64x1xf32>
  %y = clifford.sandwich <6, 0, 0> %g, %x : (tensor<64x1xf32>, tensor<64x262144xf32>) -> tensor<64x262144xf32>
  return %y : tensor<64x262144xf32>
}

// -----

// Must not fuse: a reduction needed elsewhere is computed once; its own
// elementwise producer still fuses into it.
func.func @no_fuse_shared_reduction(%a: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-remark@+1 {{fused into 'uta.reduce_max': its consumer reads each element once}}
  %e = uta.exp %a : tensor<8x16xf32>
  // expected-remark@+2 {{not fused into 'uta.mul': the result is needed elsewhere (2 consumers): it is computed once and stored, since each recomputation would repeat its loop}}
  // expected-remark@+1 {{not fused into 'uta.sub': the result is needed elsewhere (2 consumers)}}
  %m = uta.reduce_max %e dims [1] {keep_dims = true} : tensor<8x16xf32> -> tensor<8x1xf32>
  %s = uta.sub %a, %m : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  %p = uta.mul %a, %m : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  return %s, %p : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A matmul operand would be recomputed once per row or column.
func.func @no_fuse_matmul_prologue(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  // expected-remark@+1 {{not fused into 'uta.matmul': a matmul reads each element of its operands once per row or column of its result}}
  %0 = uta.exp %a : tensor<8x16xf32>
  %1 = uta.matmul %0, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A broadcast producer would be recomputed for every copy.
func.func @no_fuse_broadcast_producer(%a: tensor<16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-remark@+1 {{not fused into 'uta.add': the consumer broadcasts it and would recompute each element for every copy}}
  %0 = uta.exp %a : tensor<16xf32>
  %1 = uta.add %0, %b : (tensor<16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// A reduction inside a reduction would run serially in each thread.
func.func @no_fuse_reduction_into_reduction(%a: tensor<8x16xf32>) -> tensor<f32> {
  // expected-remark@+1 {{not fused into 'uta.reduce_max': a matmul or reduction fuses only into a pointwise consumer, as its epilogue}}
  %0 = uta.reduce_sum %a dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %1 = uta.reduce_max %0 dims [0] : tensor<8xf32> -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Ops that are always kernels of their own, as producer and as consumer.
func.func @no_fuse_opaque(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-remark@+1 {{not fused into 'uta.softmax': 'uta.softmax' is always a kernel of its own}}
  %0 = uta.exp %a : tensor<8x16xf32>
  // expected-remark@+1 {{not fused into 'uta.relu': 'uta.softmax' is always a kernel of its own}}
  %1 = uta.softmax %0 dim 1 : tensor<8x16xf32>
  %2 = uta.relu %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// The SGP layer: the norm's kernel makes two passes over the features, but
// its threads keep their values in registers between them when they are
// few enough (passes/Analysis/GradeNormLayout.h). 61 features take one
// round of a 64-thread block, 8 blades each: the weighted product is
// computed once per position either way, and so are the gates. Fusing
// saves 2 * 48800 * 4 B / 4e12 B/s + 4 us = 4.1 us for each.
func.func @fuse_sgp_layer(%x: tensor<8x100x61xf32>, %y: tensor<8x100x61xf32>, %w: tensor<61x20xf32>) -> tensor<8x100x61xf32> {
  // expected-remark@+1 {{fused into 'clifford.weighted_product': it is computed once per position either way, and fusing saves 4.1 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x61xf32>
  // expected-remark@+1 {{fused into 'clifford.weighted_product': it is computed once per position either way}}
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x61xf32>
  // expected-remark@+1 {{fused into 'clifford.grade_rms_norm': it is computed once per position either way, and fusing saves 4.1 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x100x61xf32>, tensor<8x100x61xf32>, tensor<61x20xf32>) -> tensor<8x100x61xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x100x61xf32>
  return %n : tensor<8x100x61xf32>
}

// -----

// With 4100 features a 256-thread block takes 17 rounds, 17 * 8 = 136
// values a thread, more than stay in registers: the second pass reads the
// product again, computing it twice per position, 192 operations each in
// Cl(3,0). Over 100 * 4100 = 410000 positions the second time costs
// 192 * 410000 / 30e12 s = 2.62 us, against 2 * 3280000 * 4 B / 4e12 B/s
// + 4 us = 10.6 us. Each gate (8 + 20 operations) is then computed twice
// too: 28 * 410000 / 30e12 s = 0.383 us.
func.func @fuse_sgp_layer_reread(%x: tensor<8x100x4100xf32>, %y: tensor<8x100x4100xf32>, %w: tensor<4100x20xf32>) -> tensor<8x100x4100xf32> {
  // expected-remark@+1 {{fused into 'clifford.weighted_product': computing it 2 times per position costs 0.383 us more, against 10.6 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x4100xf32>
  // expected-remark@+1 {{fused into 'clifford.weighted_product': computing it 2 times per position costs 0.383 us more}}
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x4100xf32>
  // expected-remark@+1 {{fused into 'clifford.grade_rms_norm': computing it 2 times per position costs 2.62 us more, against 10.6 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x100x4100xf32>, tensor<8x100x4100xf32>, tensor<4100x20xf32>) -> tensor<8x100x4100xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x100x4100xf32>
  return %n : tensor<8x100x4100xf32>
}

// -----

// A Cl(6,0) weighted product (3 * 64^2 = 12288 operations per position)
// over 64 features: one round of 64 blades a thread, which stay in
// registers, so the norm computes it once per position and it fuses,
// saving its round trip (2 * 4096000 * 4 B / 4e12 B/s = 8.19 us) and a
// launch (4 us): 12.2 us. The gates, read once, fuse into it for the same.
func.func @fuse_large_product_into_resident_norm(%x: tensor<64x1000x64xf32>, %y: tensor<64x1000x64xf32>, %w: tensor<64x84xf32>) -> tensor<64x1000x64xf32> {
  // expected-remark@+1 {{fused into 'clifford.weighted_product': it is computed once per position either way, and fusing saves 12.2 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <6, 0, 0> %x : tensor<64x1000x64xf32>
  // expected-remark@+1 {{fused into 'clifford.weighted_product'}}
  %gy = clifford.scalar_gate <6, 0, 0> %y : tensor<64x1000x64xf32>
  // expected-remark@+1 {{fused into 'clifford.grade_rms_norm': it is computed once per position either way, and fusing saves 12.2 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <6, 0, 0> %gx, %gy, %w
      : (tensor<64x1000x64xf32>, tensor<64x1000x64xf32>, tensor<64x84xf32>) -> tensor<64x1000x64xf32>
  %n = clifford.grade_rms_norm <6, 0, 0> %p : tensor<64x1000x64xf32>
  return %n : tensor<64x1000x64xf32>
}

// -----

// The cost model says no: over 512 features (2 rounds of 64 blades, 128
// values a thread) the norm reads the product again, and its second
// computation for each of 125 * 512 = 64000 positions (26.2 us) costs more
// than the same 12.2 us of round trip and launch.
func.func @no_fuse_large_product_into_norm(%x: tensor<64x125x512xf32>, %y: tensor<64x125x512xf32>, %w: tensor<512x84xf32>) -> tensor<64x125x512xf32> {
  // The gates are read once by the weighted product, which is a kernel of
  // its own: they fuse, saving the same 12.2 us each.
  // expected-remark@+1 {{fused into 'clifford.weighted_product': it is computed once per position either way, and fusing saves 12.2 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <6, 0, 0> %x : tensor<64x125x512xf32>
  // expected-remark@+1 {{fused into 'clifford.weighted_product'}}
  %gy = clifford.scalar_gate <6, 0, 0> %y : tensor<64x125x512xf32>
  // expected-remark@+1 {{not fused into 'clifford.grade_rms_norm': computing it 2 times per position costs 26.2 us more, against 12.2 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <6, 0, 0> %gx, %gy, %w
      : (tensor<64x125x512xf32>, tensor<64x125x512xf32>, tensor<512x84xf32>) -> tensor<64x125x512xf32>
  %n = clifford.grade_rms_norm <6, 0, 0> %p : tensor<64x125x512xf32>
  return %n : tensor<64x125x512xf32>
}

// -----

// The norm's adjoint holds two values a blade (x and the cotangent), 2 * 32
// in Cl(5,0): they stay in registers for one round of features, not for
// two. Both functions have 256000 positions; the weighted product (3 * 32^2
// = 3072 operations each) costs 3072 * 256000 / 30e12 s = 26.2 us to
// compute again, against 2 * 8192000 * 4 B / 4e12 B/s + 4 us = 20.4 us.
// Over 256 features (one round) it is computed once per position and fuses;
// over 512 (two rounds, 128 values a thread, where the forward norm's 64
// would still fit) it would be computed twice and stays in memory.
func.func @fuse_product_into_resident_norm_adjoint(%g: tensor<32x1000x256xf32>, %x: tensor<32x1000x256xf32>, %y: tensor<32x1000x256xf32>, %w: tensor<256x56xf32>) -> tensor<32x1000x256xf32> {
  // expected-remark@+1 {{fused into 'clifford.grade_rms_norm_adjoint': it is computed once per position either way, and fusing saves 20.4 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <5, 0, 0> %x, %y, %w
      : (tensor<32x1000x256xf32>, tensor<32x1000x256xf32>, tensor<256x56xf32>) -> tensor<32x1000x256xf32>
  %dp = clifford.grade_rms_norm_adjoint <5, 0, 0> %g, %p : tensor<32x1000x256xf32>
  return %dp : tensor<32x1000x256xf32>
}

func.func @no_fuse_product_into_norm_adjoint(%g: tensor<32x500x512xf32>, %x: tensor<32x500x512xf32>, %y: tensor<32x500x512xf32>, %w: tensor<512x56xf32>) -> tensor<32x500x512xf32> {
  // expected-remark@+1 {{not fused into 'clifford.grade_rms_norm_adjoint': computing it 2 times per position costs 26.2 us more, against 20.4 us for a store, a reload and a launch}}
  %p = clifford.weighted_product <5, 0, 0> %x, %y, %w
      : (tensor<32x500x512xf32>, tensor<32x500x512xf32>, tensor<512x56xf32>) -> tensor<32x500x512xf32>
  %dp = clifford.grade_rms_norm_adjoint <5, 0, 0> %g, %p : tensor<32x500x512xf32>
  return %dp : tensor<32x500x512xf32>
}

// -----

// FCGP at the benchmark's size, Cl(3,0) [8, 4096, 512] -> 512: fc_product's
// blocks stage the gates once per output tile of 128 (FcProductTiling.h),
// 4 tiles: 3 extra gates of 28 operations for each of 2^21 positions cost
// 3 * 28 * 2097152 / 30e12 s = 5.87 us, against 2 * 2^24 * 4 B / 4e12 B/s
// + 4 us = 37.6 us.
func.func @fuse_fcgp_bench(%x: tensor<8x4096x512xf32>, %y: tensor<8x4096x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<8x4096x512xf32> {
  // expected-remark@+1 {{fused into 'clifford.fc_product': computing it 4 times per position costs 5.87 us more, against 37.6 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x512xf32>
  // expected-remark@+1 {{fused into 'clifford.fc_product': computing it 4 times per position costs 5.87 us more}}
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x512xf32>
  // expected-remark@+1 {{not fused into 'clifford.grade_rms_norm': 'clifford.fc_product' is always a kernel of its own}}
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x512xf32>, tensor<8x4096x512xf32>, tensor<20x512x512xf32>) -> tensor<8x4096x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x512xf32>
  return %n : tensor<8x4096x512xf32>
}

// -----

// 4096 outputs are 32 tiles of 128: 31 extra gates for each of 2^20
// positions, 31 * 28 * 1048576 / 30e12 s = 30.3 us, against
// 2 * 2^23 * 4 B / 4e12 B/s + 4 us = 20.8 us: the gates stay in memory.
func.func @no_fuse_fcgp_wide(%x: tensor<8x4096x256xf32>, %y: tensor<8x4096x256xf32>, %w: tensor<20x256x4096xf32>) -> tensor<8x4096x4096xf32> {
  // expected-remark@+1 {{not fused into 'clifford.fc_product': computing it 32 times per position costs 30.3 us more, against 20.8 us for a store, a reload and a launch}}
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x4096x256xf32>
  // expected-remark@+1 {{not fused into 'clifford.fc_product': computing it 32 times per position costs 30.3 us more}}
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x4096x256xf32>
  // expected-remark@+1 {{not fused into 'clifford.grade_rms_norm': 'clifford.fc_product' is always a kernel of its own}}
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x4096x256xf32>, tensor<8x4096x256xf32>, tensor<20x256x4096xf32>) -> tensor<8x4096x4096xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x4096x4096xf32>
  return %n : tensor<8x4096x4096xf32>
}

// -----

// Clifford producers fuse only into clifford consumers; a pointwise uta
// producer fuses into a clifford consumer, which recomputes it per blade it
// reads.
func.func @fuse_across_dialects(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  // expected-remark@+1 {{not fused into 'uta.add': a clifford producer is recomputed only inside a clifford consumer's kernel}}
  %g = clifford.scalar_gate <3, 0, 0> %x : tensor<8x5xf32>
  // expected-remark@+1 {{fused into 'uta.exp': its consumer reads each element once}}
  %z = uta.add %g, %y : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  // expected-remark@+1 {{fused into 'clifford.reverse': it is computed once per position either way, and fusing saves 4 us for a store, a reload and a launch}}
  %e = uta.exp %z : tensor<8x5xf32>
  %r = clifford.reverse <3, 0, 0> %e : tensor<8x5xf32>
  return %r : tensor<8x5xf32>
}

// -----

// A consumer recomputes producers a multivector at a time along its own
// blade axis.
func.func @no_fuse_other_blade_axis(%x: tensor<8x8x5xf32>, %y: tensor<8x8x5xf32>) -> tensor<8x8x5xf32> {
  // expected-remark@+1 {{not fused into 'clifford.geometric_product': its algebra or blade axis differs from the consumer's}}
  %g = clifford.scalar_gate <3, 0, 0> %x {blade_axis = 1} : tensor<8x8x5xf32>
  %z = clifford.geometric_product <3, 0, 0> %g, %y : (tensor<8x8x5xf32>, tensor<8x8x5xf32>) -> tensor<8x8x5xf32>
  return %z : tensor<8x8x5xf32>
}

// -----

// scalar_product is a kernel of its own and reads no producer a
// multivector at a time.
func.func @no_fuse_into_scalar_product(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<1x5xf32> {
  // expected-remark@+1 {{not fused into 'clifford.scalar_product': 'clifford.scalar_product' does not read this operand a multivector at a time}}
  %r = clifford.reverse <3, 0, 0> %x : tensor<8x5xf32>
  %s = clifford.scalar_product <3, 0, 0> %r, %y : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
  return %s : tensor<1x5xf32>
}

// -----

// A product costs only the Cayley terms its kernel holds. A broadcast
// Cl(6,0) product read by all 100000 positions of a sandwich is computed
// 100000 times: unpruned, 64 * 64 terms of 2 operations each cost
// 99999 * 8192 / 30e12 s = 27.3 us, more than a launch and a round trip of
// its 64 blades (4 us); with both operands known to be vectors (blades 1 to
// 6) it has 36 terms: 99999 * 72 / 30e12 s = 0.24 us, and it fuses.
func.func @fuse_pruned_product(%a: tensor<64x1xf32>, %b: tensor<64x1xf32>, %x: tensor<64x100000xf32>) -> tensor<64x100000xf32> {
  // expected-remark@+1 {{fused into 'clifford.sandwich': computing it 100000 times per position costs 0.24 us more, against 4 us for a store, a reload and a launch}}
  %r = clifford.geometric_product <6, 0, 0> %a, %b {lhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>, rhs_blades = #clifford.blades<1, 2, 3, 4, 5, 6>} : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x1xf32>
  %y = clifford.sandwich <6, 0, 0> %r, %x : (tensor<64x1xf32>, tensor<64x100000xf32>) -> tensor<64x100000xf32>
  return %y : tensor<64x100000xf32>
}

// -----

func.func @no_fuse_unpruned_product(%a: tensor<64x1xf32>, %b: tensor<64x1xf32>, %x: tensor<64x100000xf32>) -> tensor<64x100000xf32> {
  // expected-remark@+1 {{not fused into 'clifford.sandwich': computing it 100000 times per position costs 27.3 us more, against 4 us for a store, a reload and a launch}}
  %r = clifford.geometric_product <6, 0, 0> %a, %b : (tensor<64x1xf32>, tensor<64x1xf32>) -> tensor<64x1xf32>
  %y = clifford.sandwich <6, 0, 0> %r, %x : (tensor<64x1xf32>, tensor<64x100000xf32>) -> tensor<64x100000xf32>
  return %y : tensor<64x100000xf32>
}

// -----

// Constants and arguments are buffers, not decisions: no remark.
func.func @no_remark_for_constants(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %0 = uta.mul %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A matmul's epilogue runs where each accumulator is computed: it does not
// fuse into a consumer whose path to the root moves elements (a transpose),
// and a kernel runs one matmul.
func.func @matmul_epilogue_refused(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>,
                                   %c: tensor<8x6xf32>) -> tensor<6x8xf32> {
  // expected-remark@+1 {{not fused into 'uta.gelu': a matmul's epilogue runs on each accumulator where it is computed, so its consumers up to the kernel's root must write each element where they read it (elementwise ops and casts of the matmul's shape)}}
  %0 = uta.matmul %a, %b : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark@+1 {{fused into 'uta.transpose': its consumer reads each element once}}
  %1 = uta.gelu %0 : tensor<8x6xf32>
  %2 = uta.transpose %1 [1, 0] : tensor<8x6xf32> -> tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}

// -----

func.func @two_matmuls(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>) -> tensor<8x6xf32> {
  // expected-remark@+1 {{not fused into 'uta.add': the kernel already runs a matmul, and the GEMM engine runs one per kernel}}
  %0 = uta.matmul %a, %b : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark@+1 {{fused into 'uta.add': its consumer reads each element once}}
  %1 = uta.matmul %a, %b : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %2 = uta.add %1, %0 : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %2 : tensor<8x6xf32>
}
