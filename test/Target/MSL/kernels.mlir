// MSL comes from the SPIR-V through SPIRV-Cross as ONE translation unit with
// every kernel. The two kernels here have structurally identical buffers
// (float[37999] in and out, a uint count): each kernel's structs carry its
// own name, so that nothing is declared twice, and the preamble appears
// once. There is no Metal compiler on Linux: the text is what is checked.
// RUN: utac %s --uta-fusion=none --compile-to=msl | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=msl --uta-fusion=none -o %t/same.metal
// RUN: FileCheck %s --input-file=%t/same.metal
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/same.metal.json

func.func @same(%x: tensor<37x1027xf32>) -> tensor<37x1027xf32> {
  %t = uta.tanh %x : tensor<37x1027xf32>
  %e = uta.exp %t : tensor<37x1027xf32>
  return %e : tensor<37x1027xf32>
}

// CHECK: #include <metal_stdlib>
// CHECK-NOT: #include <metal_stdlib>
// CHECK: using namespace metal;
// CHECK-NOT: using namespace metal;
// No struct keeps SPIRV-Cross's id-based name (_7, _14), which both kernels
// would share.
// CHECK-NOT: struct _
// CHECK-LABEL: struct same_k0_tanh_buffer0_t
// CHECK-NEXT: {
// CHECK-NEXT: float _m0[37999];
// CHECK-NEXT: };
// CHECK-LABEL: struct same_k0_tanh_buffer2_t
// CHECK-NEXT: {
// CHECK-NEXT: uint _m0;
// CHECK-NEXT: };
// CHECK-LABEL: kernel void same_k0_tanh(
// CHECK-SAME: device same_k0_tanh_buffer0_t& {{.*}} {{\[\[}}buffer(0){{\]\]}}
// CHECK-SAME: device same_k0_tanh_buffer0_t& {{.*}} {{\[\[}}buffer(1){{\]\]}}
// CHECK-SAME: device same_k0_tanh_buffer2_t& {{.*}} {{\[\[}}buffer(2){{\]\]}}
// CHECK: precise::tanh(
// CHECK-NOT: struct _
// CHECK-LABEL: struct same_k1_exp_buffer0_t
// CHECK-NEXT: {
// CHECK-NEXT: float _m0[37999];
// CHECK-NEXT: };
// CHECK-LABEL: struct same_k1_exp_buffer2_t
// CHECK-LABEL: kernel void same_k1_exp(
// CHECK-SAME: device same_k1_exp_buffer0_t& {{.*}} {{\[\[}}buffer(0){{\]\]}}
// CHECK-SAME: device same_k1_exp_buffer0_t& {{.*}} {{\[\[}}buffer(1){{\]\]}}
// CHECK-SAME: device same_k1_exp_buffer2_t& {{.*}} {{\[\[}}buffer(2){{\]\]}}
// CHECK: exp(
// CHECK-NOT: kernel void

// MANIFEST: "target": "msl",
// MANIFEST: "module": "same.metal",
// MANIFEST-LABEL: "name": "same_k0_tanh",
// MANIFEST-NEXT: "entry_point": "same_k0_tanh",
// MANIFEST: "buffer": 0,
// MANIFEST-NEXT: "buffer_index": 0
// MANIFEST: "buffer": 1,
// MANIFEST-NEXT: "buffer_index": 1
// 37999 elements, 4 per thread (vectorized; 37999 % 4 = 3 left for the last).
// MANIFEST: "kind": "i32",
// MANIFEST-NEXT: "value": 9500,
// MANIFEST-NEXT: "buffer_index": 2
// MANIFEST-LABEL: "name": "same_k1_exp",
// MANIFEST: "buffer": 1,
// MANIFEST-NEXT: "buffer_index": 0
// MANIFEST: "buffer": 2,
// MANIFEST-NEXT: "buffer_index": 1
// MANIFEST-NOT: "binding"
