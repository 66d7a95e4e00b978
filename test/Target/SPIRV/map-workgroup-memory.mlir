// RUN: uta-opt %s --pass-pipeline='builtin.module(gpu.module(uta-spirv-map-workgroup-memory))' \
// RUN:   | FileCheck %s

// Workgroup and private attributions become allocations at the top of the
// kernel, in the SPIR-V storage class of their address space, and every use
// follows; kernel arguments (no memory space) are left alone.
// CHECK-LABEL: gpu.func @reduce
// CHECK-SAME: (%[[IN:.*]]: memref<64xf32>, %[[N:.*]]: i32)
// CHECK-NOT: workgroup(
// CHECK-NOT: private(
// CHECK-SAME: kernel
// CHECK-NEXT: %[[SHARED:.*]] = memref.alloc() : memref<32xf32, #spirv.storage_class<Workgroup>>
// CHECK-NEXT: %[[LOCAL:.*]] = memref.alloca() : memref<2xf32, #spirv.storage_class<Function>>
// CHECK: %[[V:.*]] = memref.load %[[IN]]
// CHECK: memref.store %[[V]], %[[SHARED]]{{.*}} : memref<32xf32, #spirv.storage_class<Workgroup>>
// CHECK: memref.store %[[V]], %[[LOCAL]]{{.*}} : memref<2xf32, #spirv.storage_class<Function>>
// CHECK: gpu.barrier
// CHECK: memref.load %[[SHARED]]
// CHECK-NOT: gpu.address_space
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<64xf32>, %n: i32)
        workgroup(%shared: memref<32xf32, #gpu.address_space<workgroup>>)
        private(%local: memref<2xf32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<64xf32>
      memref.store %v, %shared[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %local[%c0] : memref<2xf32, #gpu.address_space<private>>
      gpu.barrier
      %w = memref.load %shared[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %w, %in[%t] : memref<64xf32>
      gpu.return
    }
  }
}
