// RUN: uta-opt %s -split-input-file -verify-diagnostics \
// RUN:   --uta-spirv-attach-target | FileCheck %s

// The Vulkan target environment goes on the module; each kernel gets its
// known block size as the workgroup size, and argument i binding (0, i),
// scalars in a storage buffer of their own. f32 only: no 16-bit storage.
// CHECK-LABEL: module attributes
// CHECK-SAME: spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan
// CHECK: gpu.func @scale
// CHECK-SAME: %{{.*}}: memref<300xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %{{.*}}: memref<300xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-SAME: %{{.*}}: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2), StorageBuffer>}
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [128, 1, 1]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<300xf32>, %y: memref<300xf32>, %n: i32) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// f16 anywhere in a kernel adds Float16 and 16-bit storage.
// CHECK-LABEL: module attributes
// CHECK-SAME: #spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @widen(%x: memref<4xf16>, %y: memref<4xf32>, %n: i32) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// bf16 has no SPIR-V storage type.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @narrow(%x: memref<4xf32>, %y: memref<4xbf16>, %n: i32) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<4xf32>
      // expected-error@+1 {{bf16 is not supported by the spirv target}}
      %t = arith.truncf %v : f32 to bf16
      memref.store %t, %y[%c0] : memref<4xbf16>
      gpu.return
    }
  }
}

// -----

// The workgroup size comes from known_block_size; without it, no guess.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error@+1 {{'gpu.func' op needs known_block_size for its SPIR-V workgroup size}}
    gpu.func @unsized(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
