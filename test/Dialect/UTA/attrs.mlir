// RUN: uta-opt %s | uta-opt | FileCheck %s

// #uta.tensor_map round-trips; a swizzle of 0 (the default) is not printed.
// CHECK-LABEL: func.func @kernel_abi
//  CHECK-SAME:   uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0, box = [1, 128, 16]>, #uta.tensor_map<argument = 6, source = 1, box = [256]>, #uta.tensor_map<argument = 7, source = 2, box = [1, 256, 16], swizzle = 64>]
func.func @kernel_abi() attributes {uta.tensor_maps = [#uta.tensor_map<argument = 5, source = 0, box = [1, 128, 16]>, #uta.tensor_map<argument = 6, source = 1, box = [256], swizzle = 0>, #uta.tensor_map<argument = 7, source = 2, box = [1, 256, 16], swizzle = 64>]} {
  return
}
