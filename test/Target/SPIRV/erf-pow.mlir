// uta.erf and uta.pow on SPIR-V: erf as MLIR's polynomial approximation
// (GLSL.std.450 has no erf), pow as GLSL Pow on |a| with the sign and NaN
// cases of a negative base handled around it; the module validates for
// Vulkan.
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv --uta-fusion=none -o %t/erf_pow.spv
// RUN: spirv-val --target-env vulkan1.1 %t/erf_pow.spv
// RUN: utac %s --target=spirv --uta-fusion=none --compile-to=spirv | FileCheck %s

func.func @erf_pow(%x: tensor<37x129xf32>, %y: tensor<129xf32>) -> tensor<37x129xf32> {
  %e = uta.erf %x : tensor<37x129xf32>
  %p = uta.pow %e, %y : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %p : tensor<37x129xf32>
}

// CHECK: OpEntryPoint GLCompute %[[ERF:[a-z0-9_]+]] "erf_pow_k0_erf"
// CHECK-NEXT: OpEntryPoint GLCompute %[[POW:[a-z0-9_]+]] "erf_pow_k1_pow"
// The polynomial erf: a chain of fused multiply-adds, no Erf instruction;
// pow: GLSL Pow of |a|.
// CHECK-NOT: Erf
// CHECK-DAG: OpExtInst %float %{{[0-9]+}} Fma
// CHECK-DAG: %[[ABS:[0-9]+]] = OpExtInst %float %{{[0-9]+}} FAbs
// CHECK-DAG: OpExtInst %float %{{[0-9]+}} Pow %[[ABS]]
