// --fast-math on PTX: tanh, log and exp become the approximate instructions
// (tanh.approx.f32; lg2.approx.ftz.f32 times ln 2; ex2.approx.ftz.f32 of
// x log2 e, without libdevice's range reduction), and ptxas accepts them.
// Default builds keep libdevice's accurate functions: no tanh.approx or
// lg2.approx anywhere.
// REQUIRES: libdevice
// RUN: utac %s --compile-to=ptx --uta-fusion=none | FileCheck %s --check-prefix=DEFAULT
// RUN: utac %s --compile-to=ptx --uta-fusion=none --fast-math > %t.ptx
// RUN: FileCheck %s --check-prefix=FAST --input-file=%t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// DEFAULT-NOT: tanh.approx
// DEFAULT-NOT: lg2.approx

// FAST-LABEL: .entry fast_k0_tanh
//       FAST:   tanh.approx.f32
// FAST-LABEL: .entry fast_k1_exp
//       FAST:   mul.rn.f32 [[X:%r[0-9]+]], %r{{[0-9]+}}, 0f3FB8AA3B;
//  FAST-NEXT:   begin inline asm
//  FAST-NEXT:   ex2.approx.ftz.f32 %r{{[0-9]+}}, [[X]];
// FAST-LABEL: .entry fast_k2_log
//       FAST:   lg2.approx.ftz.f32 [[L:%r[0-9]+]], %r{{[0-9]+}};
//  FAST-NEXT:   end inline asm
//  FAST-NEXT:   mul.rn.f32 %r{{[0-9]+}}, [[L]], 0f3F317218;
func.func @fast(%x: tensor<1027xf32>) -> tensor<1027xf32> {
  %t = uta.tanh %x : tensor<1027xf32>
  %e = uta.exp %t : tensor<1027xf32>
  %l = uta.log %e : tensor<1027xf32>
  return %l : tensor<1027xf32>
}
