// Vectorized kernels in the PTX text have 128-bit global loads and stores
// (ld.global.v4.b32 / st.global.v4.b32: LLVM 22's NVPTX spells 32-bit
// float accesses .b32), 64-bit ones for f16 (4 halves), a scalar tail where
// the element count is not a multiple of 4, and in the Flash Clifford SGP
// layer in Cl(3,0) vector loads of the path weights (its multivectors are
// accessed blade by blade, PTXSCALAR). --uta-vectorize=off gives
// scalar accesses only. ptxas accepts both for sm_90.
// REQUIRES: ptxas
// RUN: utac %s --compile-to=ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=PTXSCALAR --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: utac %s --compile-to=ptx --uta-vectorize=off > %t.scalar.ptx
// RUN: FileCheck %s --check-prefix=SCALAR --input-file=%t.scalar.ptx
// RUN: FileCheck %s --check-prefix=NOVEC --input-file=%t.scalar.ptx
// RUN: %ptxas -arch=sm_90 %t.scalar.ptx -o %t.scalar.cubin

// NOVEC-NOT: .v4.
// NOVEC-NOT: .v2.
// SCALAR: .entry rows_k0_mul(
// SCALAR: ld.global.b32
// SCALAR: st.global.b32

// x and the row vector r: one 128-bit load each, one 128-bit store.
// PTX-LABEL: .entry rows_k0_mul(
//  PTX-COUNT-2: ld.global.v4.b32
//    PTX-NOT: ld.global
//        PTX: st.global.v4.b32
//    PTX-NOT: st.global
//        PTX: ret;
func.func @rows(%x: tensor<37x1024xf32>, %r: tensor<1024xf32>) -> tensor<37x1024xf32> {
  %0 = uta.mul %x, %r : (tensor<37x1024xf32>, tensor<1024xf32>) -> tensor<37x1024xf32>
  return %0 : tensor<37x1024xf32>
}

// 1000003 = 4 * 250000 + 3: vectors, then the last 3 elements one by one at
// byte offsets 0, 4 and 8 from the tail's start.
// PTX-LABEL: .entry tail_k0_exp(
//      PTX: ld.global.v4.b32
//      PTX: st.global.v4.b32
//      PTX: ld.global.b32 {{.*}}, [[[IN:%rd[0-9]+]]];
//      PTX: st.global.b32 [[[OUT:%rd[0-9]+]]],
//      PTX: ld.global.b32 {{.*}}, [[[IN]]+4];
//      PTX: st.global.b32 [[[OUT]]+4],
//      PTX: ld.global.b32 {{.*}}, [[[IN]]+8];
//      PTX: st.global.b32 [[[OUT]]+8],
//  PTX-NOT: ld.global
//      PTX: ret;
func.func @tail(%x: tensor<1000003xf32>) -> tensor<1000003xf32> {
  %0 = uta.exp %x : tensor<1000003xf32>
  return %0 : tensor<1000003xf32>
}

// f16: 4 halves (64 bits) per load and per store.
// PTX-LABEL: .entry half_k0_tanh(
//      PTX: ld.global.v4.b16
//  PTX-NOT: ld.global
//      PTX: st.global.v2.b32
//  PTX-NOT: st.global
//      PTX: ret;
func.func @half(%x: tensor<3x1000xf16>) -> tensor<3x1000xf16> {
  %0 = uta.tanh %x : tensor<3x1000xf16>
  return %0 : tensor<3x1000xf16>
}

// SGP in Cl(3,0), F = 512, one kernel: one feature per thread and round, 2
// rounds: per feature 8 scalar loads of x
// and of y, 5 vector loads of the path weights w[f, 0..19], 8 scalar stores.
// PTX-LABEL: .entry sgp_k0_grade_rms_norm(
//  PTX-COUNT-10: ld.global.v4.b32
//    PTX-NOT: ld.global.v4
//    PTX-NOT: st.global.v4
//        PTX: ret;
// PTXSCALAR-LABEL: .entry sgp_k0_grade_rms_norm(
//  PTXSCALAR-COUNT-32: ld.global.b32
//    PTXSCALAR-NOT: ld.global.b32
//  PTXSCALAR-COUNT-16: st.global.b32
//    PTXSCALAR-NOT: st.global
//        PTXSCALAR: ret;
func.func @sgp(%x: tensor<8x64x512xf32>, %y: tensor<8x64x512xf32>,
               %w: tensor<512x20xf32>) -> tensor<8x64x512xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x64x512xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x64x512xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x64x512xf32>, tensor<8x64x512xf32>, tensor<512x20xf32>) -> tensor<8x64x512xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x64x512xf32>
  return %n : tensor<8x64x512xf32>
}
