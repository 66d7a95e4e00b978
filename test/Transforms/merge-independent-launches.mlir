// RUN: uta-opt %s --uta-merge-independent-launches --split-input-file | FileCheck %s
// RUN: uta-opt %s --uta-merge-independent-launches="remarks=true" --split-input-file \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Two independent kernels (they share only a buffer both read) become one
// launch: blocks [0, 4) run the first body, the rest the second's on block
// ids from 0, with the grid size of its own; the larger shared memory; the
// parts' operand counts; the old kernels erased.

// CHECK-LABEL: func.func @independent
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<1024xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<512xf32>
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   gpu.launch_func @kernels::@independent_k0_scale_k1_copy
//  CHECK-SAME:     blocks in (%c6, %{{[^)]*}}) threads in (%c128{{[^,]*}}, %{{[^)]*}})
//  CHECK-SAME:     dynamic_shared_memory_size %c1024_i32{{[^ ]*}} args(%arg0 : memref<1024xf32>, %[[A]] : memref<1024xf32>, %arg0 : memref<1024xf32>, %[[B]] : memref<512xf32>)
//  CHECK-SAME:     {uta.launch_parts = array<i32: 2, 2>}
//   CHECK-NOT:   gpu.launch_func
// CHECK-LABEL: gpu.module @kernels
//   CHECK-NOT:   gpu.func @independent_k0_scale(
//   CHECK-NOT:   gpu.func @independent_k1_copy(
//       CHECK:   gpu.func @independent_k0_scale_k1_copy(%[[X:.*]]: memref<1024xf32>, %[[Y:.*]]: memref<1024xf32>, %[[U:.*]]: memref<1024xf32>, %[[V:.*]]: memref<512xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:     %[[ID:.*]] = gpu.block_id x
//       CHECK:     %[[SPLIT:.*]] = arith.constant 4 : index
//       CHECK:     %[[FIRST:.*]] = arith.cmpi ult, %[[ID]], %[[SPLIT]]
//       CHECK:     scf.if %[[FIRST]] {
//       CHECK:       arith.muli %[[ID]]
//       CHECK:       memref.load %[[X]]
//       CHECK:       memref.store %{{.*}}, %[[Y]]
//       CHECK:     } else {
//       CHECK:       %[[GRID2:.*]] = arith.constant 2 : index
//       CHECK:       %[[ID2:.*]] = arith.subi %[[ID]], %[[SPLIT]]
//       CHECK:       arith.muli %[[ID2]]
//       CHECK:       arith.muli %[[GRID2]]
//       CHECK:       memref.load %[[U]]
//       CHECK:       memref.store %{{.*}}, %[[V]]
//       CHECK:     }
//  CHECK-NEXT:     gpu.return

// REMARK: remark: kernel 'independent_k1_copy' runs in one launch with 'independent_k0_scale': they share no written buffer

module attributes {gpu.container_module} {
  func.func @independent(%x: memref<1024xf32>) -> (memref<1024xf32>, memref<512xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c1024_i32 = arith.constant 1024 : i32
    %a = memref.alloc() : memref<1024xf32>
    gpu.launch_func @kernels::@independent_k0_scale blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c1024_i32 args(%x : memref<1024xf32>, %a : memref<1024xf32>)
    %b = memref.alloc() : memref<512xf32>
    gpu.launch_func @kernels::@independent_k1_copy blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<1024xf32>, %b : memref<512xf32>)
    return %a, %b : memref<1024xf32>, memref<512xf32>
  }
  gpu.module @kernels {
    gpu.func @independent_k0_scale(%in: memref<1024xf32>, %out: memref<1024xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i] : memref<1024xf32>
      gpu.return
    }
    // A grid-stride copy: it reads its grid size.
    gpu.func @independent_k1_copy(%in: memref<1024xf32>, %out: memref<512xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %grid = gpu.grid_dim x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %stride = arith.muli %grid, %c128 : index
      %j = arith.addi %i, %stride : index
      %v = memref.load %in[%j] : memref<1024xf32>
      memref.store %v, %out[%i] : memref<512xf32>
      gpu.return
    }
  }
}

// -----

// Three in a row: one launch of all three; the kernel of the first two,
// left without a launch, is erased. A kernel launched again later keeps
// its own function.

// CHECK-LABEL: func.func @chain
//       CHECK:   gpu.launch_func @kernels::@chain_k0_neg_k1_neg_k2_neg blocks in
//  CHECK-SAME:     {uta.launch_parts = array<i32: 2, 2, 2>}
//       CHECK:   gpu.launch_func @kernels::@chain_k0_neg blocks in
//  CHECK-SAME:     args(%{{.*}} : memref<256xf32>, %arg0 : memref<256xf32>)
// CHECK-LABEL: gpu.module @kernels
//       CHECK:   gpu.func @chain_k0_neg(
//   CHECK-NOT:   gpu.func @chain_k1_neg(
//   CHECK-NOT:   gpu.func @chain_k0_neg_k1_neg(
//       CHECK:   gpu.func @chain_k0_neg_k1_neg_k2_neg(
//       CHECK:     scf.if
//       CHECK:       scf.if
//       CHECK:       } else {
//       CHECK:     } else {

// REMARK: remark: kernel 'chain_k1_neg' runs in one launch with 'chain_k0_neg'
// REMARK: remark: kernel 'chain_k2_neg' runs in one launch with 'chain_k0_neg_k1_neg'

module attributes {gpu.container_module} {
  func.func @chain(%x: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>, memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    %c = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@chain_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@chain_k1_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@chain_k2_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %c : memref<256xf32>)
    // Writes %x, which the launches before read: stays on its own.
    gpu.launch_func @kernels::@chain_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%c : memref<256xf32>, %x : memref<256xf32>)
    return %a, %b, %c : memref<256xf32>, memref<256xf32>, memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @chain_k0_neg(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.negf %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @chain_k1_neg(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.negf %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @chain_k2_neg(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.negf %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Ten independent launches of one kernel (on buffers of their own each): a
// launch runs at most 8 kernels, so the first eight share one and the last
// two another; the kernel they all ran, left without a launch, is erased.

// CHECK-LABEL: func.func @long
//       CHECK:   %[[B0:.*]] = memref.alloc()
//       CHECK:   %[[B1:.*]] = memref.alloc()
//       CHECK:   %[[B2:.*]] = memref.alloc()
//       CHECK:   %[[B3:.*]] = memref.alloc()
//       CHECK:   %[[B4:.*]] = memref.alloc()
//       CHECK:   %[[B5:.*]] = memref.alloc()
//       CHECK:   %[[B6:.*]] = memref.alloc()
//       CHECK:   %[[B7:.*]] = memref.alloc()
//       CHECK:   %[[B8:.*]] = memref.alloc()
//       CHECK:   %[[B9:.*]] = memref.alloc()
//       CHECK:   gpu.launch_func @kernels::@[[EIGHT:long_k0_neg(_neg){7}]] blocks in (%c16
//  CHECK-SAME:     args(%arg0 : memref<256xf32>, %[[B0]] : memref<256xf32>,
//  CHECK-SAME:     {uta.launch_parts = array<i32: 2, 2, 2, 2, 2, 2, 2, 2>}
//       CHECK:   gpu.launch_func @kernels::@[[TWO:long_k0_neg_neg(_0)?]] blocks in (%c4
//  CHECK-SAME:     args(%arg0 : memref<256xf32>, %[[B8]] : memref<256xf32>, %arg0 : memref<256xf32>, %[[B9]] : memref<256xf32>)
//  CHECK-SAME:     {uta.launch_parts = array<i32: 2, 2>}
//   CHECK-NOT:   gpu.launch_func
// CHECK-LABEL: gpu.module @kernels
//   CHECK-NOT:   gpu.func @long_k0_neg(
//   CHECK-DAG:   gpu.func @[[EIGHT]](
//   CHECK-DAG:   gpu.func @[[TWO]](

// REMARK-COUNT-8: remark: kernel 'long_k0_neg' runs in one launch with

module attributes {gpu.container_module} {
  func.func @long(%x: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %b0 = memref.alloc() : memref<256xf32>
    %b1 = memref.alloc() : memref<256xf32>
    %b2 = memref.alloc() : memref<256xf32>
    %b3 = memref.alloc() : memref<256xf32>
    %b4 = memref.alloc() : memref<256xf32>
    %b5 = memref.alloc() : memref<256xf32>
    %b6 = memref.alloc() : memref<256xf32>
    %b7 = memref.alloc() : memref<256xf32>
    %b8 = memref.alloc() : memref<256xf32>
    %b9 = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b0 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b1 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b2 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b3 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b4 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b5 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b6 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b7 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b8 : memref<256xf32>)
    gpu.launch_func @kernels::@long_k0_neg blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b9 : memref<256xf32>)
    return %b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7, %b8, %b9 : memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @long_k0_neg(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %w = arith.negf %v : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Launches that stay apart: the second reads what the first writes (through
// a view); block sizes that differ; a fill between two launches; a
// two-dimensional grid; a kernel with an op outside the SIMT set; a kernel
// with tensor maps.

// CHECK-LABEL: func.func @apart
//       CHECK:   gpu.launch_func @kernels::@apart_k0_write
//       CHECK:   gpu.launch_func @kernels::@apart_k1_read_view
//       CHECK:   gpu.launch_func @kernels::@apart_k2_wide
//       CHECK:   gpu.memset
//       CHECK:   gpu.launch_func @kernels::@apart_k3_read
//       CHECK:   gpu.launch_func @kernels::@apart_k4_grid2d
//       CHECK:   gpu.launch_func @kernels::@apart_k5_nvvm
//       CHECK:   gpu.launch_func @kernels::@apart_k6_read
//       CHECK:   gpu.launch_func @kernels::@apart_k7_tensor_maps
//   CHECK-NOT:   uta.launch_parts
// CHECK-LABEL: gpu.module @kernels
// REMARK-NOT: remark:

module attributes {gpu.container_module} {
  func.func @apart(%x: memref<256xf32>) -> memref<256xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %null = llvm.mlir.zero : !llvm.ptr
    %a = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<256xf32>
    %c = memref.alloc() : memref<256xf32>
    %d = memref.alloc() : memref<256xf32>
    %view = memref.subview %a[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
    gpu.launch_func @kernels::@apart_k0_write blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k1_read_view blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%view : memref<128xf32, strided<[1]>>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k2_wide blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<256xf32>, %c : memref<256xf32>)
    gpu.memset %d, %zero : memref<256xf32>, f32
    gpu.launch_func @kernels::@apart_k3_read blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %d : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k4_grid2d blocks in (%c1, %c2, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k5_nvvm blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %c : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k6_read blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %d : memref<256xf32>)
    gpu.launch_func @kernels::@apart_k7_tensor_maps blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %b : memref<256xf32>, %null : !llvm.ptr) {uta.tensor_maps = [#uta.tensor_map<argument = 2, source = 0, box = [32]>]}
    return %d : memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @apart_k0_write(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k1_read_view(%in: memref<128xf32, strided<[1]>>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<128xf32, strided<[1]>>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k2_wide(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k3_read(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k4_grid2d(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k5_nvvm(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      nvvm.barrier0
      gpu.return
    }
    gpu.func @apart_k6_read(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @apart_k7_tensor_maps(%in: memref<256xf32>, %out: memref<256xf32>, %map: !llvm.ptr) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// In-place pairs carry over, renumbered to the merged operands, unless the
// other part reads the input: the result's writes would overwrite it under
// that part. Here the first part's input %x is also the second's, and the
// second's input %y is its own.

// CHECK-LABEL: func.func @in_place
//       CHECK:   gpu.launch_func @kernels::@in_place_k0_double_k1_double
//  CHECK-SAME:     args(%arg0 : memref<256xf32>, %{{.*}} : memref<256xf32>, %arg1 : memref<256xf32>, %{{.*}} : memref<256xf32>, %arg0 : memref<256xf32>)
//  CHECK-SAME:     uta.in_place = array<i64: 2, 3>

// REMARK: remark: kernel 'in_place_k1_double' runs in one launch with 'in_place_k0_double': they share no written buffer

module attributes {gpu.container_module} {
  func.func @in_place(%x: memref<256xf32>, %y: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %a = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@in_place_k0_double blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %a : memref<256xf32>) {uta.in_place = array<i64: 0, 1>}
    %b = memref.alloc() : memref<256xf32>
    gpu.launch_func @kernels::@in_place_k1_double blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%y : memref<256xf32>, %b : memref<256xf32>, %x : memref<256xf32>) {uta.in_place = array<i64: 0, 1>}
    return %a, %b : memref<256xf32>, memref<256xf32>
  }
  gpu.module @kernels {
    gpu.func @in_place_k0_double(%in: memref<256xf32>, %out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
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
    gpu.func @in_place_k1_double(%in: memref<256xf32>, %out: memref<256xf32>, %other: memref<256xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c128 = arith.constant 128 : index
      %id = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %id, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      %u = memref.load %other[%i] : memref<256xf32>
      %w = arith.addf %v, %u : f32
      memref.store %w, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
}
