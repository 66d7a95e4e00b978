// RUN: uta-opt %s -pass-pipeline='builtin.module(gpu.module(uta-extern-dynamic-shared-memory))' | FileCheck %s
// RUN: uta-opt %s -pass-pipeline='builtin.module(gpu.module(uta-extern-dynamic-shared-memory{alignment=128}))' | FileCheck %s --check-prefix=ALIGN128

// The zero-length shared global that convert-gpu-to-nvvm makes for
// gpu.dynamic_shared_memory becomes an external declaration aligned to
// 1024 bytes (or the option's alignment, never lowered below the
// global's own); other globals keep their linkage.
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
//       CHECK:   llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
//       CHECK:   llvm.mlir.global internal constant @table
// ALIGN128:      llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 128 : i64}
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
  llvm.mlir.global internal constant @table(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
}
