// f16 buffers are `half` in MSL; arithmetic is float, as in the SPIR-V.
// RUN: utac %s --compile-to=msl | FileCheck %s

func.func @halves(%x: tensor<3x5xf16>, %y: tensor<5xf16>) -> tensor<3x5xf16> {
  %s = uta.mul %x, %y : (tensor<3x5xf16>, tensor<5xf16>) -> tensor<3x5xf16>
  return %s : tensor<3x5xf16>
}

// CHECK-LABEL: struct halves_k0_mul_buffer0_t
// CHECK-NEXT: {
// CHECK-NEXT: half _m0[15];
// CHECK-LABEL: struct halves_k0_mul_buffer1_t
// CHECK-NEXT: {
// CHECK-NEXT: half _m0[5];
// CHECK-LABEL: kernel void halves_k0_mul(
// CHECK-SAME: {{\[\[}}buffer(3){{\]\]}}
// CHECK: = half(float({{.*}}) * float(
