// A graph with no kernel (a constant result, or its argument) is Metal
// source too: SPIRV-Cross compiles the SPIR-V binary's one empty entry
// point, uta_no_kernel, which the manifest neither lists nor launches.
// There is no Metal compiler on Linux: the text is what is checked.
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --entry=constant --target=msl --compile-to=msl | FileCheck %s
// RUN: utac %s --entry=constant --target=msl -o %t/constant.metal
// RUN: FileCheck %s --input-file=%t/constant.metal
// RUN: FileCheck %s --check-prefix=CONSTANT --input-file=%t/constant.metal.json
// RUN: utac %s --entry=identity --target=msl -o %t/identity.metal
// RUN: FileCheck %s --input-file=%t/identity.metal
// RUN: FileCheck %s --check-prefix=IDENTITY --input-file=%t/identity.metal.json

func.func @constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// CHECK: #include <metal_stdlib>
// CHECK: using namespace metal;
// CHECK: kernel void uta_no_kernel()
// CHECK-NEXT: {
// CHECK-NEXT: }
// CHECK-NOT: kernel void

// CONSTANT: "target": "msl"
// CONSTANT: "role": "constant"
// CONSTANT: "kernels": []
// CONSTANT-NEXT: "launches": []
// CONSTANT-NEXT: "results": [
// CONSTANT-NEXT: 1
// CONSTANT-NEXT: ]

// IDENTITY: "target": "msl"
// IDENTITY-NOT: "role": "constant"
// IDENTITY: "kernels": []
// IDENTITY-NEXT: "launches": []
// IDENTITY-NEXT: "results": [
// IDENTITY-NEXT: 0
// IDENTITY-NEXT: ]
