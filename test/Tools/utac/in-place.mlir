// The manifest lists, per launch, the buffers its kernel reads only where it
// then writes its result (launches[].in_place), which the runtime may keep
// in the result's memory (docs/runtime.md): with one kernel per op, exp's
// result is an intermediate that the add reads element for element, and so
// is each argument. A transpose reads elsewhere and lists nothing.
// RUN: env UTA_CACHE_DIR=%t.cache utac %s --uta-fusion=none -o %t.ptx
// RUN: %python %S/Inputs/launches.py --in-place %t.ptx.json | FileCheck %s

// CHECK:      addend_k0_exp: in place [argument 0 -> intermediate 2]
// CHECK-NEXT: addend_k1_add: in place [intermediate 2 -> result 3, argument 1 -> result 3]
// CHECK-NEXT: addend_k2_transpose: in place []
func.func @addend(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %e = uta.exp %x : tensor<32x32xf32>
  %s = uta.add %e, %y : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = uta.transpose %s [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  return %s, %t : tensor<32x32xf32>, tensor<32x32xf32>
}
