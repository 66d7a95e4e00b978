// IEEE f32 without fast-math (docs/phases.md): square roots and divisions are
// the correctly rounded instructions, never the approximate ones.
// REQUIRES: libdevice
// RUN: utac %s --compile-to=ptx --uta-fusion=none | FileCheck %s --check-prefix=PTX

// PTX-LABEL: .entry precise_k0_div
//       PTX:   div.rn.f32
// PTX-LABEL: .entry precise_k1_sqrt
//       PTX:   sqrt.rn.f32
// PTX-LABEL: .entry precise_k2_rsqrt
//       PTX:   sqrt.rn.f32
//       PTX:   rcp.rn.f32
//   PTX-NOT:   .approx
func.func @precise(%a: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<100xf32> {
  %0 = uta.div %a, %b : (tensor<100xf32>, tensor<100xf32>) -> tensor<100xf32>
  %1 = uta.sqrt %0 : tensor<100xf32>
  %2 = uta.rsqrt %1 : tensor<100xf32>
  return %2 : tensor<100xf32>
}
