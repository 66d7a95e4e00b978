// RUN: uta-opt %s -pass-pipeline='builtin.module(gpu.module(uta-tensor-map-arguments))' | FileCheck %s

// The tensor-map arguments named by uta.tensor_maps become 128-byte
// by-value grid constants; other arguments and kernels are left alone.
// CHECK-LABEL: llvm.func @copies(
//  CHECK-SAME:   %{{.*}}: !llvm.ptr, %{{.*}}: i32,
//  CHECK-SAME:   %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
//   CHECK-NOT:   uta.tensor_maps
// CHECK-LABEL: llvm.func @plain(
//  CHECK-SAME:   %{{.*}}: !llvm.ptr)
//   CHECK-NOT:   llvm.byval
gpu.module @kernels {
  llvm.func @copies(%x: !llvm.ptr, %n: i32, %map: !llvm.ptr) attributes {nvvm.kernel, uta.tensor_maps = [#uta.tensor_map<argument = 2, source = 0, box = [64, 16]>]} {
    llvm.return
  }
  llvm.func @plain(%x: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
