// uta-split-reductions: a reduction of a long leading block of dimensions
// to few outputs becomes the reduction of C runs, then of the C partial
// results (C a divisor of the reduced extent near 2^17 / outputs, runs of
// at least 16); short ones, reductions of other dimensions and many
// outputs stay whole.
// RUN: uta-opt %s -split-input-file -uta-split-reductions | FileCheck %s

// A bias gradient: 8 x 8192 = 65536 elements to 512 outputs, in 256 runs
// of 256.
// CHECK-LABEL: func @bias_gradient
//  CHECK-SAME:   (%[[X:.+]]: tensor<8x8192x512xf32>)
//  CHECK-NEXT:   %[[R:.+]] = uta.reshape %[[X]] : tensor<8x8192x512xf32> -> tensor<256x256x512xf32>
//  CHECK-NEXT:   %[[P:.+]] = uta.reduce_sum %[[R]] dims [1] : tensor<256x256x512xf32> -> tensor<256x512xf32>
//  CHECK-NEXT:   %[[S:.+]] = uta.reduce_sum %[[P]] dims [0] : tensor<256x512xf32> -> tensor<512xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @bias_gradient(%x: tensor<8x8192x512xf32>) -> tensor<512xf32> {
  %s = uta.reduce_sum %x dims [0, 1] : tensor<8x8192x512xf32> -> tensor<512xf32>
  return %s : tensor<512xf32>
}

// -----

// keep_dims: the total is reshaped to the kept shape. reduce_max splits
// alike. Runs divide the extent and are at least 16 long: of 4100, at most
// 256 runs, so 205 runs of 20.
// CHECK-LABEL: func @keep_dims_max
//       CHECK:   uta.reshape %{{.+}} : tensor<4100x3xf32> -> tensor<205x20x3xf32>
//  CHECK-NEXT:   uta.reduce_max %{{.+}} dims [1] : tensor<205x20x3xf32> -> tensor<205x3xf32>
//  CHECK-NEXT:   %[[M:.+]] = uta.reduce_max %{{.+}} dims [0] : tensor<205x3xf32> -> tensor<3xf32>
//  CHECK-NEXT:   %[[K:.+]] = uta.reshape %[[M]] : tensor<3xf32> -> tensor<1x3xf32>
//  CHECK-NEXT:   return %[[K]]
func.func @keep_dims_max(%x: tensor<4100x3xf32>) -> tensor<1x3xf32> {
  %m = uta.reduce_max %x dims [0] {keep_dims = true} : tensor<4100x3xf32> -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}

// -----

// Stay whole: fewer than 4096 reduced elements, a prime extent, inner
// dimensions, 2^17 outputs or more, and reduce_mean.
// CHECK-LABEL: func @whole
//   CHECK-NOT:   uta.reshape
//       CHECK:   uta.reduce_sum %{{.+}} dims [0] : tensor<4095x8xf32> -> tensor<8xf32>
//       CHECK:   uta.reduce_sum %{{.+}} dims [0] : tensor<4099x8xf32> -> tensor<8xf32>
//       CHECK:   uta.reduce_sum %{{.+}} dims [1] : tensor<8x8192xf32> -> tensor<8xf32>
//       CHECK:   uta.reduce_sum %{{.+}} dims [0] : tensor<8192x131072xf32> -> tensor<131072xf32>
//       CHECK:   uta.reduce_mean %{{.+}} dims [0] : tensor<8192x8xf32> -> tensor<8xf32>
//   CHECK-NOT:   uta.reshape
func.func @whole(%a: tensor<4095x8xf32>, %b: tensor<4099x8xf32>, %c: tensor<8x8192xf32>, %d: tensor<8192x131072xf32>, %e: tensor<8192x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<131072xf32>, tensor<8xf32>) {
  %0 = uta.reduce_sum %a dims [0] : tensor<4095x8xf32> -> tensor<8xf32>
  %1 = uta.reduce_sum %b dims [0] : tensor<4099x8xf32> -> tensor<8xf32>
  %2 = uta.reduce_sum %c dims [1] : tensor<8x8192xf32> -> tensor<8xf32>
  %3 = uta.reduce_sum %d dims [0] : tensor<8192x131072xf32> -> tensor<131072xf32>
  %4 = uta.reduce_mean %e dims [0] : tensor<8192x8xf32> -> tensor<8xf32>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<131072xf32>, tensor<8xf32>
}
