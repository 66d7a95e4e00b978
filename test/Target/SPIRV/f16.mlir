// f16 kernels load and store halves (16-bit storage) and convert them to
// f32 for the arithmetic: the module then declares Float16 and
// StorageBuffer16BitAccess with SPV_KHR_16bit_storage, and validates.
// RUN: utac %s --compile-to=spirv | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=spirv -o %t/half.spv
// RUN: spirv-val --target-env vulkan1.1 %t/half.spv

func.func @half(%x: tensor<5x300xf16>) -> tensor<5x300xf16> {
  %t = uta.sigmoid %x : tensor<5x300xf16>
  return %t : tensor<5x300xf16>
}

// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability StorageBuffer16BitAccess
// CHECK-DAG: OpExtension "SPV_KHR_16bit_storage"
// CHECK: OpEntryPoint GLCompute %{{.*}} "half_k0_sigmoid"
// CHECK-DAG: %[[HALF:[a-z0-9_]+]] = OpTypeFloat 16
// CHECK-DAG: %[[FLOAT:[a-z0-9_]+]] = OpTypeFloat 32
// Vectorized (300 is a multiple of 4): 4 halves per 64-bit load and store.
// CHECK-DAG: %[[V4HALF:[a-z0-9_]+]] = OpTypeVector %[[HALF]] 4
// CHECK: OpFunction
// CHECK: %[[V:[0-9]+]] = OpLoad %[[V4HALF]] %{{[0-9]+}} Aligned 8
// CHECK: %[[X:[0-9]+]] = OpCompositeExtract %[[HALF]] %[[V]] 0
// CHECK: OpFConvert %[[FLOAT]] %[[X]]
// CHECK: OpExtInst %[[FLOAT]] %{{[0-9]+}} Exp
// CHECK: %[[R:[0-9]+]] = OpFConvert %[[HALF]]
// CHECK: %[[W:[0-9]+]] = OpCompositeConstruct %[[V4HALF]] %[[R]]
// CHECK: OpStore %{{[0-9]+}} %[[W]] Aligned 8
