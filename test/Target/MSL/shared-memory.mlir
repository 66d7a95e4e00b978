// A graph whose kernels use threadgroup memory and helpers of SPIRV-Cross
// (the row reduction of grade_rms_norm, 64 threads for rows of 47) still
// makes one translation unit: no struct, helper or kernel is declared
// twice, the threadgroup reduction keeps its barriers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: utac %s --target=msl -o %t/norm.metal
// RUN: FileCheck %s --input-file=%t/norm.metal
// RUN: grep -o '^struct [A-Za-z0-9_]*' %t/norm.metal | sort | uniq -d | count 0
// RUN: grep -o '^kernel void [A-Za-z0-9_]*' %t/norm.metal | sort | uniq -d | count 0

func.func @norm(%x: tensor<4x9x47xf32>, %y: tensor<4x9x47xf32>) -> tensor<4x9x47xf32> {
  %p = clifford.geometric_product <2, 0, 0> %x, %y
      : (tensor<4x9x47xf32>, tensor<4x9x47xf32>) -> tensor<4x9x47xf32>
  %e = uta.exp %p : tensor<4x9x47xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %e : tensor<4x9x47xf32>
  return %n : tensor<4x9x47xf32>
}

// CHECK: #include <metal_stdlib>
// CHECK-NOT: #include <metal_stdlib>
// CHECK: kernel void norm_k{{[0-9]+}}_
// CHECK: kernel void norm_k{{[0-9]+}}_grade_rms_norm(
// CHECK: threadgroup
// CHECK: threadgroup_barrier(mem_flags::mem_threadgroup);
