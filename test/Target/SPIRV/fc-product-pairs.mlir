// fc_product's path-group ops on the SPIR-V and MSL targets: the grouped
// GEMM's operand batches come from selects, not a switch, and the pair
// adjoint is element-wise; spirv-val accepts the module.
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv -o %t/pairs.spv
// RUN: spirv-val --target-env vulkan1.1 %t/pairs.spv
// RUN: FileCheck %s --input-file=%t/pairs.spv.json
// RUN: utac %s --target=msl -o %t/pairs.metal
// RUN: FileCheck %s --check-prefix=MSL --input-file=%t/pairs.metal

// CHECK: "name": "pairs_k0_fc_product_pair_cotangents"
// CHECK: "name": "pairs_k1_fc_product_pair_adjoint"
// MSL: kernel void pairs_k0_fc_product_pair_cotangents(
// MSL: kernel void pairs_k1_fc_product_pair_adjoint(
func.func @pairs(%g: tensor<4x20x12xf32>, %w: tensor<10x6x12xf32>, %y: tensor<4x20x6xf32>) -> tensor<4x20x6xf32> {
  %t = clifford.fc_product_pair_cotangents <2, 0, 0> %g, %w : (tensor<4x20x12xf32>, tensor<10x6x12xf32>) -> tensor<14x20x6xf32>
  %r = clifford.fc_product_pair_adjoint <2, 0, 0> rhs %t, %y : (tensor<14x20x6xf32>, tensor<4x20x6xf32>) -> tensor<4x20x6xf32>
  return %r : tensor<4x20x6xf32>
}
