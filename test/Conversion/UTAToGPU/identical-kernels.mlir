// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu | FileCheck %s
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="remarks=true" \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Outlining keeps one kernel of each kind (passes/Analysis/IdenticalKernels.h):
// the second relu of the same shape is the same kernel as the first, which
// runs both launches, each on its own buffers; a relu of another shape and
// a sigmoid of the same shape are kernels of their own.

// REMARK: remark: kernel 'same_k1_relu' is the same as 'same_k0_relu': that one runs this launch too
// REMARK-NOT: remark:

// CHECK-LABEL: func.func @same
//  CHECK-SAME:   (%[[X:[^:]*]]: memref<4x8xf32>, %[[Y:[^:]*]]: memref<4x8xf32>, %[[Z:[^:]*]]: memref<8x4xf32>)
//       CHECK:   gpu.launch_func @kernels::@same_k0_relu {{.*}} args(%[[X]] : memref<4x8xf32>, %[[A:[^ ]*]] : memref<4x8xf32>
//       CHECK:   gpu.launch_func @kernels::@same_k0_relu {{.*}} args(%[[Y]] : memref<4x8xf32>, %[[B:[^ ]*]] : memref<4x8xf32>
//       CHECK:   gpu.launch_func @kernels::@same_k2_relu {{.*}} args(%[[Z]] : memref<8x4xf32>
//       CHECK:   gpu.launch_func @kernels::@same_k3_sigmoid {{.*}} args(%[[X]] : memref<4x8xf32>
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   gpu.func @same_k0_relu(
//   CHECK-NOT:   gpu.func @same_k1_relu(
//       CHECK:   gpu.func @same_k2_relu(
//       CHECK:   gpu.func @same_k3_sigmoid(
func.func @same(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>) {
  %a = uta.relu %x : tensor<4x8xf32>
  %b = uta.relu %y : tensor<4x8xf32>
  %c = uta.relu %z : tensor<8x4xf32>
  %d = uta.sigmoid %x : tensor<4x8xf32>
  return %a, %b, %c, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>
}
