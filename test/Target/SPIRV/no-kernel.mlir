// A graph whose results need no computation (empty ones) has
// no kernel, and a Vulkan SPIR-V module needs an entry point: the binary is
// one empty GLCompute entry point, uta_no_kernel, that passes spirv-val and
// that the manifest neither lists nor launches.
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --entry=constant --target=spirv --compile-to=spirv \
// RUN:   | FileCheck %s --check-prefix=DIS
// RUN: utac %s --entry=identity --target=spirv --compile-to=spirv \
// RUN:   | FileCheck %s --check-prefix=DIS
// RUN: utac %s --entry=constant --target=spirv -o %t/constant.spv
// RUN: spirv-val --target-env vulkan1.1 %t/constant.spv
// RUN: FileCheck %s --check-prefix=CONSTANT --input-file=%t/constant.spv.json
// RUN: utac %s --entry=identity --target=spirv -o %t/identity.spv
// RUN: spirv-val --target-env vulkan1.1 %t/identity.spv
// RUN: FileCheck %s --check-prefix=IDENTITY --input-file=%t/identity.spv.json

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

// DIS: OpCapability Shader
// DIS-NOT: OpCapability
// DIS: OpEntryPoint GLCompute %uta_no_kernel "uta_no_kernel"
// DIS-NOT: OpEntryPoint
// DIS: OpExecutionMode %uta_no_kernel LocalSize 1 1 1
// DIS: %uta_no_kernel = OpFunction %void None
// DIS-NEXT: OpLabel
// DIS-NEXT: OpReturn
// DIS-NEXT: OpFunctionEnd

// CONSTANT: "target": "spirv"
// CONSTANT: "role": "argument"
// CONSTANT: "id": 1
// CONSTANT-NEXT: "role": "result"
// CONSTANT: "kernels": []
// CONSTANT-NEXT: "launches": []
// CONSTANT-NEXT: "results": [
// CONSTANT-NEXT: 1
// CONSTANT-NEXT: ]

// IDENTITY: "target": "spirv"
// IDENTITY: "id": 0
// IDENTITY-NEXT: "role": "argument"
// IDENTITY: "id": 1
// IDENTITY-NEXT: "role": "result"
// IDENTITY: "kernels": []
// IDENTITY-NEXT: "launches": []
// IDENTITY-NEXT: "results": [
// IDENTITY-NEXT: 1
// IDENTITY-NEXT: ]
