// The spirv phase gives each kernel a gpu.module, and so a spirv.module, of
// its own (one module of every kernel made MLIR's symbol lookups quadratic
// in the kernels), with the launches pointing there; utac merges them into
// one binary, valid for Vulkan, with an entry point per kernel.
// A structural check, not a timing one: bench/compile_time.sh measures.
// RUN: uta-opt %s --uta-lower-to-spirv-pipeline="fusion=none" | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv --uta-fusion=none -o %t/three.spv
// RUN: spirv-val --target-env vulkan1.1 %t/three.spv
// RUN: utac %s --target=spirv --uta-fusion=none --compile-to=spirv | FileCheck %s --check-prefix=DIS

func.func @three(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = uta.softmax %x dim 1 : tensor<8x64xf32>
  %1 = uta.softmax %0 dim 0 : tensor<8x64xf32>
  %2 = uta.exp %1 : tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @three
// CHECK: gpu.launch_func @three_k0_softmax::@three_k0_softmax
// CHECK: gpu.launch_func @three_k1_softmax::@three_k1_softmax
// CHECK: gpu.launch_func @three_k2_exp::@three_k2_exp
// CHECK: spirv.module @__spv__three_k0_softmax
// CHECK: gpu.module @three_k0_softmax
// CHECK: spirv.module @__spv__three_k1_softmax
// CHECK: gpu.module @three_k1_softmax
// CHECK: spirv.module @__spv__three_k2_exp
// CHECK: gpu.module @three_k2_exp
// CHECK-NOT: gpu.module
// CHECK-NOT: spirv.module

// DIS: OpEntryPoint GLCompute %{{.*}} "three_k0_softmax"
// DIS: OpEntryPoint GLCompute %{{.*}} "three_k1_softmax"
// DIS: OpEntryPoint GLCompute %{{.*}} "three_k2_exp"
// DIS-NOT: OpEntryPoint
