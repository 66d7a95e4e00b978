// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="vectorize=false" | FileCheck %s
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="sm=80" | FileCheck %s --check-prefix=MMA

// uta.in_place on a launch lists the operands its kernel reads only where
// it then writes its result, as (operand, result operand) pairs: the
// runtime may keep such an operand in the result's memory. Elementwise
// kernels, vectorized or not, qualify for every operand of the result's
// type; a broadcast operand, a transpose's input and an input also read at
// other elements do not; a GEMM's epilogue addend does, on SIMT and on
// mma.sync.

// CHECK-LABEL: func.func @add
//       CHECK:   gpu.launch_func @kernels::@add_k0_add
//  CHECK-SAME:     uta.in_place = array<i64: 0, 2, 1, 2>
func.func @add(%x: tensor<256xf32>, %y: tensor<256xf32>) -> tensor<256xf32> {
  %e = uta.exp %x : tensor<256xf32>
  %s = uta.add %e, %y : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  return %s : tensor<256xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast
//       CHECK:   gpu.launch_func @kernels::@broadcast_k0_add
//  CHECK-SAME:     uta.in_place = array<i64: 0, 2>}
func.func @broadcast(%x: tensor<4x64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %s = uta.add %x, %b : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
//       CHECK:   gpu.launch_func @kernels::@transpose_k0_transpose
//   CHECK-NOT:     uta.in_place
//       CHECK:   return
func.func @transpose(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = uta.transpose %x [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}

// -----

// The add reads x where it writes and, through the fused transpose, where
// it does not.
// CHECK-LABEL: func.func @read_elsewhere
//       CHECK:   gpu.launch_func @kernels::@read_elsewhere_k0_add
//   CHECK-NOT:     uta.in_place
//       CHECK:   return
func.func @read_elsewhere(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = uta.transpose %x [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  %s = uta.add %x, %t : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func @epilogue
//       CHECK:   gpu.launch_func @kernels::@epilogue_k0_add
//  CHECK-SAME:     uta.gemm_plan = #uta.gemm_plan<schedule = "simt"
//  CHECK-SAME:     uta.in_place = array<i64: 2, 3>
// MMA-LABEL: func.func @epilogue
//       MMA:   gpu.launch_func @kernels::@epilogue_k0_add
//  MMA-SAME:     uta.gemm_plan = #uta.gemm_plan<schedule = "mma_sync"
//  MMA-SAME:     uta.in_place = array<i64: 2, 3>
func.func @epilogue(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %m = uta.matmul %a, %b : (tensor<128x64xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
  %s = uta.add %m, %c : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  return %s : tensor<128x128xf32>
}
