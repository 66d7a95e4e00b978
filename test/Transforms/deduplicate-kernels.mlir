// RUN: uta-opt %s --uta-deduplicate-kernels --split-input-file | FileCheck %s
// RUN: uta-opt %s --uta-deduplicate-kernels="remarks=true" --split-input-file \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Three kernels the same but for their names and locations: the first is
// kept, each launch runs it with its own buffers, the others are erased.

// REMARK: remark: kernel 'same_k0_double' also runs the launches of 2 identical kernels

// CHECK-LABEL: func.func @same
//       CHECK:   gpu.launch_func @kernels::@same_k0_double {{.*}} args(%arg0 : memref<256xf32>, %[[A:[^ ]*]] : memref<256xf32>)
//       CHECK:   gpu.launch_func @kernels::@same_k0_double {{.*}} args(%[[A]] : memref<256xf32>, %[[B:[^ ]*]] : memref<256xf32>)
//       CHECK:   gpu.launch_func @kernels::@same_k0_double {{.*}} args(%[[B]] : memref<256xf32>, %{{[^ ]*}} : memref<256xf32>)
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   gpu.func @same_k0_double(
//   CHECK-NOT:   gpu.func

module attributes {gpu.container_module} {
  func.func @same(%x: memref<256xf32>) -> memref<256xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %a = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@same_k0_double blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    %b = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@same_k1_double blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    %c = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@same_k2_double blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%b : memref<256xf32>, %c : memref<256xf32>)
    return %c : memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @same_k0_double(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    } loc("first.mlir":1:1)
    gpu.func @same_k1_double(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index loc("second.mlir":2:2)
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    } loc("second.mlir":1:1)
    gpu.func @same_k2_double(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Kernels that differ in one thing each stay apart: a constant, an
// attribute of the kernel (its launch bounds), an attribute of an op (the
// fastmath flags), an operand (%v + %v against %v + %t), the order of two
// operands, the type of an argument.

// CHECK-LABEL: func.func @apart
//       CHECK:   gpu.launch_func @kernels::@apart_k0_scale
//       CHECK:   gpu.launch_func @kernels::@apart_k1_constant
//       CHECK:   gpu.launch_func @kernels::@apart_k2_block_size
//       CHECK:   gpu.launch_func @kernels::@apart_k3_fastmath
//       CHECK:   gpu.launch_func @kernels::@apart_k4_operand
//       CHECK:   gpu.launch_func @kernels::@apart_k5_order
//       CHECK:   gpu.launch_func @kernels::@apart_k6_type
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   gpu.func @apart_k0_scale(
//       CHECK:   gpu.func @apart_k1_constant(
//       CHECK:   gpu.func @apart_k2_block_size(
//       CHECK:   gpu.func @apart_k3_fastmath(
//       CHECK:   gpu.func @apart_k4_operand(
//       CHECK:   gpu.func @apart_k5_order(
//       CHECK:   gpu.func @apart_k6_type(

module attributes {gpu.container_module} {
  func.func @apart(%x: memref<256xf32>, %y: memref<256xf16>) -> memref<256xf32> {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %a = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@apart_k0_scale blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k1_constant blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k2_block_size blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k3_fastmath blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k4_operand blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k5_order blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k6_type blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%y : memref<256xf16>, %a : memref<256xf32>)
    return %a : memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @apart_k0_scale(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %w, %v : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k1_constant(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 3.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %w, %v : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k2_block_size(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %w, %v : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k3_fastmath(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c fastmath<fast> : f32
      %u = arith.subf %w, %v : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k4_operand(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %w, %w : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k5_order(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %v, %w : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k6_type(%in: memref<256xf16>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.thread_id x
      %h = memref.load %in[%t] : memref<256xf16>
      %v = arith.extf %h : f16 to f32
      %c = arith.constant 2.0 : f32
      %w = arith.mulf %v, %c : f32
      %u = arith.subf %w, %v : f32
      memref.store %u, %out[%t] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Regions count, and values inside them: the same loop is one kernel; a
// loop that loads at [i, i] where the others load at [thread, i] differs,
// although every op matches.

// REMARK: remark: kernel 'loops_k0_sum' also runs the launches of 1 identical kernel

// CHECK-LABEL: func.func @loops
//       CHECK:   gpu.launch_func @kernels::@loops_k0_sum
//       CHECK:   gpu.launch_func @kernels::@loops_k0_sum
//       CHECK:   gpu.launch_func @kernels::@loops_k2_inner
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   gpu.func @loops_k0_sum(
//   CHECK-NOT:   gpu.func @loops_k1_sum(
//       CHECK:   gpu.func @loops_k2_inner(

module attributes {gpu.container_module} {
  func.func @loops(%x: memref<16x16xf32>) -> memref<16xf32> {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = memref.alloc() : memref<16xf32>
    gpu.launch_func @kernels::@loops_k0_sum blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<16x16xf32>, %a : memref<16xf32>)
    gpu.launch_func @kernels::@loops_k1_sum blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<16x16xf32>, %a : memref<16xf32>)
    gpu.launch_func @kernels::@loops_k2_inner blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<16x16xf32>, %a : memref<16xf32>)
    return %a : memref<16xf32>
  }
  gpu.module @kernels {
    gpu.func @loops_k0_sum(%in: memref<16x16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %in[%t, %i] : memref<16x16xf32>
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %out[%t] : memref<16xf32>
      gpu.return
    }
    gpu.func @loops_k1_sum(%in: memref<16x16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %in[%t, %i] : memref<16x16xf32>
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %out[%t] : memref<16xf32>
      gpu.return
    }
    gpu.func @loops_k2_inner(%in: memref<16x16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %in[%i, %i] : memref<16x16xf32>
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %out[%t] : memref<16xf32>
      gpu.return
    }
  }
}
