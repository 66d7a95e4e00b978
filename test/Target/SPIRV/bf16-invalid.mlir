// SPIR-V has no bf16 storage type: utac says so at the op that uses bf16,
// exits 1, and writes neither the module nor the manifest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not utac %s --target=spirv -o %t/out.spv 2>&1 | FileCheck %s
// RUN: not test -e %t/out.spv
// RUN: not test -e %t/out.spv.json
// RUN: not utac %s --target=msl -o %t/out.metal 2>&1 | FileCheck %s
// RUN: not test -e %t/out.metal
// RUN: not utac %s --compile-to=spirv 2>&1 | FileCheck %s

func.func @mixed(%x: tensor<8x3xf32>, %y: tensor<8x3xbf16>) -> tensor<8x3xf32> {
  %e = uta.exp %x : tensor<8x3xf32>
  // CHECK: bf16-invalid.mlir:[[@LINE+1]]:8: error: bf16 is not supported by the spirv target
  %c = uta.cast %y : tensor<8x3xbf16> -> tensor<8x3xf32>
  %s = uta.add %e, %c : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}
