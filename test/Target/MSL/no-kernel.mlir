// A graph with no kernel (an empty constant result, or argument) is Metal
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

// (A non-empty constant or argument returned is copied by a kernel into a
// result buffer of its own: test/Conversion/UTAToGPU/distinct-results.mlir.
// Of no elements, the copy needs no kernel.)
func.func @constant(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %c = arith.constant dense<2.0> : tensor<0x4xf32>
  return %c : tensor<0x4xf32>
}

func.func @identity(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  return %x : tensor<0x4xf32>
}

// CHECK: #include <metal_stdlib>
// CHECK: using namespace metal;
// CHECK: kernel void uta_no_kernel()
// CHECK-NEXT: {
// CHECK-NEXT: }
// CHECK-NOT: kernel void

// CONSTANT: "target": "msl"
// CONSTANT: "role": "result"
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
// IDENTITY-NEXT: 1
// IDENTITY-NEXT: ]
