// A uta.reshape between kernels is a view of its operand's buffer
// (memref.reinterpret_cast, row-major both ways: the same bytes), not a
// copy kernel; a reshape the function returns is copied by a kernel, since
// each result has a buffer of its own. The manifest names the viewed
// buffer for the launches that read the view, and the graph runs right on
// Vulkan.
// RUN: uta-opt %s -convert-uta-to-gpu | FileCheck %s
// RUN: utac %s --target=spirv -o %t.spv
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.spv.json
// RUN: %if vulkan %{ utac run %s --backend=vulkan --check | FileCheck %s --check-prefix=RAN %}

// CHECK-LABEL: func.func @views(
//       CHECK:   %[[PRODUCT:.*]] = memref.alloc() : memref<64x48xf32>
//       CHECK:   gpu.launch_func @kernels::@views_k0_matmul
//  CHECK-SAME:     %[[PRODUCT]] : memref<64x48xf32>
//       CHECK:   %[[VIEW:.*]] = memref.reinterpret_cast %[[PRODUCT]] to offset: [0], sizes: [48, 64], strides: [64, 1] : memref<64x48xf32> to memref<48x64xf32>
//       CHECK:   gpu.launch_func @kernels::@views_k1_matmul
//  CHECK-SAME:     args(%[[VIEW]] : memref<48x64xf32>
//       CHECK:   %[[FLAT:.*]] = memref.alloc() : memref<3072xf32>
//       CHECK:   gpu.launch_func @kernels::@views_k2_reshape
//  CHECK-SAME:     args(%[[PRODUCT]] : memref<64x48xf32>, %[[FLAT]] : memref<3072xf32>
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return %{{.*}}, %[[FLAT]]

// Buffers 0-2 are the arguments, 3 the first product; the second matmul
// reads buffer 3 through the view.
// MANIFEST:      "name": "views_k1_matmul",
// MANIFEST-NEXT: "entry_point": "views_k1_matmul",
// MANIFEST-NEXT: "args": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "kind": "buffer",
// MANIFEST-NEXT:     "buffer": 3,

// RAN: result0: rel_l2 {{.*}} ok
// RAN: result1: rel_l2 {{.*}} ok
func.func @views(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x16xf32>) -> (tensor<48x16xf32>, tensor<3072xf32>) {
  %0 = uta.matmul %a, %b : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %1 = uta.reshape %0 : tensor<64x48xf32> -> tensor<48x64xf32>
  %2 = uta.matmul %1, %c : (tensor<48x64xf32>, tensor<64x16xf32>) -> tensor<48x16xf32>
  %3 = uta.reshape %0 : tensor<64x48xf32> -> tensor<3072xf32>
  return %2, %3 : tensor<48x16xf32>, tensor<3072xf32>
}
