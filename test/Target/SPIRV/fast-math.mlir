// --fast-math on SPIR-V: Exp, Log, Tanh and Pow are decorated
// RelaxedPrecision (uta-spirv-relax-precision); the module validates.
// Default builds carry no RelaxedPrecision.
// RUN: utac %s --target=spirv --uta-fusion=none --compile-to=spirv | FileCheck %s --check-prefix=DEFAULT
// RUN: utac %s --target=spirv --uta-fusion=none --fast-math --compile-to=spirv | FileCheck %s --check-prefix=FAST
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv --uta-fusion=none --fast-math -o %t/fast.spv
// RUN: spirv-val --target-env vulkan1.1 %t/fast.spv

// DEFAULT-NOT: RelaxedPrecision

// One decoration per Tanh, Exp and Pow instruction: 4 vector lanes and a
// 3-element tail, 7 per kernel, 21 in all, and the instructions after.
// FAST-COUNT-21: OpDecorate %{{[0-9]+}} RelaxedPrecision
// FAST-NOT: RelaxedPrecision
// FAST-COUNT-7: OpExtInst %float %{{[0-9]+}} Tanh
// FAST-COUNT-7: OpExtInst %float %{{[0-9]+}} Exp
// FAST-COUNT-7: OpExtInst %float %{{[0-9]+}} Pow
func.func @fast(%x: tensor<1027xf32>, %y: tensor<1027xf32>) -> tensor<1027xf32> {
  %t = uta.tanh %x : tensor<1027xf32>
  %e = uta.exp %t : tensor<1027xf32>
  %p = uta.pow %e, %y : (tensor<1027xf32>, tensor<1027xf32>) -> tensor<1027xf32>
  return %p : tensor<1027xf32>
}
