// uta.erf and uta.pow in MSL: through SPIR-V, erf is the polynomial (fused
// multiply-adds) and pow is Metal's pow on |a|, NaN for a negative base with
// a non-integer exponent.
// RUN: utac %s --uta-fusion=none --compile-to=msl | FileCheck %s

func.func @erf_pow(%x: tensor<37x129xf32>, %y: tensor<129xf32>) -> tensor<37x129xf32> {
  %e = uta.erf %x : tensor<37x129xf32>
  %p = uta.pow %e, %y : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %p : tensor<37x129xf32>
}

// CHECK-LABEL: kernel void erf_pow_k0_erf(
// CHECK: fma(
// CHECK-LABEL: kernel void erf_pow_k1_pow(
// CHECK: fmod(
// CHECK-SAME: nan
// CHECK: pow(abs(
