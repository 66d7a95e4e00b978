// A graph of three kernels (no fusion) becomes ONE SPIR-V module with one
// GLCompute entry point per kernel, workgroup size 256, that passes spirv-val
// for Vulkan 1.1; every kernel argument is a storage buffer at set 0, binding
// = its position, the scalar element count included, and the manifest says
// so for each argument.
// RUN: utac %s --target=spirv --uta-fusion=none --compile-to=spirv \
// RUN:   | FileCheck %s --check-prefix=DIS
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv --uta-fusion=none -o %t/chain.spv
// RUN: spirv-val --target-env vulkan1.1 %t/chain.spv
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/chain.spv.json

func.func @chain(%x: tensor<37x1027xf32>, %b: tensor<1027xf32>) -> tensor<37x1027xf32> {
  %t = uta.tanh %x : tensor<37x1027xf32>
  %e = uta.exp %t : tensor<37x1027xf32>
  %s = uta.add %e, %b : (tensor<37x1027xf32>, tensor<1027xf32>) -> tensor<37x1027xf32>
  return %s : tensor<37x1027xf32>
}

// f32 only: no 16-bit capabilities.
// DIS: ; SPIR-V
// DIS: ; Version: 1.0
// DIS-NOT: Float16
// DIS-NOT: 16BitAccess
// DIS: OpCapability Shader
// DIS: OpExtension "SPV_KHR_storage_buffer_storage_class"
// DIS: OpEntryPoint GLCompute %[[TANH:[a-z0-9_]+]] "chain_k0_tanh"
// DIS-NEXT: OpEntryPoint GLCompute %[[EXP:[a-z0-9_]+]] "chain_k1_exp"
// DIS-NEXT: OpEntryPoint GLCompute %[[ADD:[a-z0-9_]+]] "chain_k2_add"
// DIS-NOT: OpEntryPoint
// DIS-DAG: OpExecutionMode %[[TANH]] LocalSize 256 1 1
// DIS-DAG: OpExecutionMode %[[EXP]] LocalSize 256 1 1
// DIS-DAG: OpExecutionMode %[[ADD]] LocalSize 256 1 1
// The add kernel's four arguments: x, the broadcast b, the result and n.
// DIS-DAG: OpDecorate %chain_k2_add_arg_0 Binding 0
// DIS-DAG: OpDecorate %chain_k2_add_arg_1 Binding 1
// DIS-DAG: OpDecorate %chain_k2_add_arg_2 Binding 2
// DIS-DAG: OpDecorate %chain_k2_add_arg_3 Binding 3
// DIS-DAG: OpDecorate %chain_k2_add_arg_3 DescriptorSet 0
// The GLSL.std.450 instructions of tanh and exp.
// DIS-DAG: OpExtInst %float %{{[0-9]+}} Tanh
// DIS-DAG: OpExtInst %float %{{[0-9]+}} Exp

// MANIFEST: "target": "spirv",
// MANIFEST-NOT: "sm"
// MANIFEST: "module": "chain.spv",
// MANIFEST-LABEL: "name": "chain_k0_tanh",
// MANIFEST-NEXT: "entry_point": "chain_k0_tanh",
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "buffer": 0,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 0
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "buffer": 2,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 1
// 37 * 1027 = 37999 elements, 4 per thread (vectorized) and the last 3 in
// the last thread: 9500 threads, in its own storage buffer at binding 2.
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "value": 9500,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 2
// MANIFEST-LABEL: "name": "chain_k2_add",
// MANIFEST: "buffer": 3,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 0
// MANIFEST: "buffer": 1,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 1
// MANIFEST: "buffer": 4,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 2
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "value": 9500,
// MANIFEST-NEXT: "binding": {
// MANIFEST-NEXT: "set": 0,
// MANIFEST-NEXT: "binding": 3
// MANIFEST-LABEL: "launches":
// MANIFEST: "kernel": "chain_k0_tanh",
// 9500 / 256 rounded up.
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 38,
