// fc_product's tiled kernel over shapes and algebras: the plan of
// passes/Analysis/FcProductTiling.h (worked out by hand below for each case)
// as the launch, the workgroup stage and the loops show it. Slots per
// (row, input feature), counted independently of the code: Cl(2,0) 14,
// Cl(3,0) 44, Cl(4,0) 128, Cl(3,0,1) 108, Cl(6,0) 928.
//
// Barriers: the kernels have no range guard, and every gpu.barrier sits at
// the kernel's top level or directly in the loop over chunks, whose bounds
// are constants: never inside an scf.if.
//
// The nesting is checked without counting spaces. A printed line that opens
// a region ends in `{` (`} else {` too), and a lone `}` closes one. From a
// kernel's label on, every such line is matched by a check, and every gap
// between two checks is guarded by a negative check of
// {{\{$|^ *\}$|gpu.barrier}}, so no region and no barrier goes unlisted.
// The checks then know how deep each op they match is: a region that opens
// none closes at the first lone `}` after it, a barrier right after the `}`
// that closes the staging guard lies in the loop over chunks, and one right
// after the `}` of that loop at the kernel's top level. Where a kernel is
// listed from a barrier to its gpu.return instead (blades_cl200), the
// regions opened and closed in between balance, so the barrier is as deep
// as the gpu.return: at the top level.
// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" -canonicalize > %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=FCGP --input-file=%t
// RUN: FileCheck %s --check-prefix=MULF --input-file=%t
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu -canonicalize | FileCheck %s --check-prefixes=FCGP,FUSED

// Cl(3,0), B = 37, Fin = 13, Fout = 40. 8 blades allow 8 (row, output)
// pairs per thread; 40 outputs take 2 per thread (40 > 32) on 32 column
// threads: 64 outputs per block, the last 24 out of range (their weights
// read at column 39). 4 rows per thread, 8 row threads: 32 rows per block,
// 2 row tiles (rows 37..63 out of range, staged as zeros). 32 rows x 44
// slots = 1408 values per feature: 5 fit in 8192, so chunks of 4, a stage
// of 5632 values; 13 = 3 chunks of 4 in a loop (32 x 4 = 128 staging
// entries for 256 threads; 2 barriers each) and a tail of 1 (32 entries, one
// barrier) whose one-feature loop folds away. 4 x 2 x 8 = 64 accumulators.
// CHECK-LABEL: func.func @tiles_cl300
//   CHECK-DAG:   %[[N:.*]] = arith.constant 512 : i32
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 256 : index
//       CHECK:   gpu.launch_func  @kernels::@tiles_cl300_k0_fc_product blocks in (%[[BLOCKS]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
//  CHECK-SAME:     %[[N]] : i32)
// CHECK-LABEL: gpu.func @tiles_cl300_k0_fc_product
//  CHECK-SAME:   workgroup(%[[Q:.*]] : memref<5632xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C37:.*]] = arith.constant 37 : index
//   CHECK-DAG:   %[[C39:.*]] = arith.constant 39 : index
//   CHECK-DAG:   %[[C40:.*]] = arith.constant 40 : index
//   CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   arith.minui %{{.*}}, %[[C39]]
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   arith.minui %{{.*}}, %[[C39]]
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
// The loop over the 3 chunks, at the top level. In it: the staging round
// (thread < 128), its rows in range or zeros (else), closed; a barrier; the
// loop over the chunk's 4 features, closed; a barrier; the chunk loop's
// yield of the feature loop's accumulators, and the chunk loop's `}`.
//       CHECK:   %{{.*}}:64 = scf.for %{{.*}} = %[[C0]] to %[[C3]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[E:.*]] = arith.cmpi ult, %{{.*}}, %[[C128]] : index
//  CHECK-NEXT:   scf.if %[[E]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C37]] : index
//  CHECK-NEXT:   scf.if %[[ROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[FEATURES:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   scf.yield %[[FEATURES]]#0, {{.*}}
//  CHECK-NEXT:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
// The tail at the top level: its staging round (thread < 32) with the row
// guard inside, closed, then its one barrier; no loop after it.
//       CHECK:   %[[T:.*]] = arith.cmpi ult, %{{.*}}, %[[C32]] : index
//  CHECK-NEXT:   scf.if %[[T]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[TROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C37]] : index
//  CHECK-NEXT:   scf.if %[[TROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   arith.cmpi ult, %{{.*}}, %[[C37]] : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   arith.cmpi ult, %{{.*}}, %[[C40]] : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   arith.cmpi ult, %{{.*}}, %[[C40]] : index
// The 8 stores of (row, output) pairs in range, each its own scf.if at the
// top level, closed before the next.
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   gpu.return
// Each (b, fi) stages the 64 products of Cl(3,0) once; each thread adds
// 4 rows x 2 outputs x 44 slots = 352 weighted slots per input feature:
// 64 + 352 in the chunk loop and again in the tail.
// MULF-LABEL: gpu.func @tiles_cl300_k0_fc_product
// MULF-COUNT-832: arith.mulf
//   MULF-NOT: arith.mulf
//       MULF: gpu.return
func.func @tiles_cl300(%x: tensor<8x37x13xf32>, %y: tensor<8x37x13xf32>, %w: tensor<20x13x40xf32>) -> tensor<8x37x40xf32> {
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w
      : (tensor<8x37x13xf32>, tensor<8x37x13xf32>, tensor<20x13x40xf32>) -> tensor<8x37x40xf32>
  return %z : tensor<8x37x40xf32>
}

// -----

// The benchmark's shape, Cl(3,0), B = 4096, Fin = Fout = 512: 4 outputs
// per thread (512 > 64) on 32 column threads, 128 outputs per block; 2 rows
// per thread on 8 row threads, 16 rows per block; 704 values per feature,
// 11 fit: chunks of 8, a stage of 5632 values. 256 row tiles x 4 output
// tiles = 1024 blocks of 256 threads; 64 chunks, no tail; the tiles are
// full, so nothing but the staging round (128 entries) is guarded.
// CHECK-LABEL: func.func @tiles_bench
//   CHECK-DAG:   %[[N:.*]] = arith.constant 262144 : i32
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 1024 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 256 : index
//       CHECK:   gpu.launch_func  @kernels::@tiles_bench_k0_fc_product blocks in (%[[BLOCKS]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
//  CHECK-SAME:     %[[N]] : i32)
// CHECK-LABEL: gpu.func @tiles_bench_k0_fc_product
//  CHECK-SAME:   workgroup(%{{.*}} : memref<5632xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
//   CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
//   CHECK-NOT:   arith.minui
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %{{.*}}:64 = scf.for %{{.*}} = %[[C0]] to %[[C64]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[E:.*]] = arith.cmpi ult, %{{.*}}, %[[C128]] : index
//  CHECK-NEXT:   scf.if %[[E]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[FEATURES:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C8]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   scf.yield %[[FEATURES]]#0, {{.*}}
//  CHECK-NEXT:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   gpu.return
func.func @tiles_bench(%x: tensor<8x4096x512xf32>, %y: tensor<8x4096x512xf32>, %w: tensor<20x512x512xf32>) -> tensor<8x4096x512xf32> {
  %z = clifford.fc_product <3, 0, 0> %x, %y, %w
      : (tensor<8x4096x512xf32>, tensor<8x4096x512xf32>, tensor<20x512x512xf32>) -> tensor<8x4096x512xf32>
  return %z : tensor<8x4096x512xf32>
}

// -----

// Cl(4,0), B = 50, Fin = 21, Fout = 70: 16 blades allow 4 outputs per
// thread, all along Fout (70 > 64), 32 column threads: 128 outputs per
// block, one output tile. 1 row per thread, 8 row threads (256 threads);
// 8 rows x 128 slots = 1024 values per feature: chunks of 8, a stage of
// exactly 8192 values (32 KiB). 7 row tiles; 21 = 2 chunks of 8 (64 entries)
// and a tail of 5 (40 entries).
// CHECK-LABEL: func.func @tiles_cl400
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 7 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 256 : index
//       CHECK:   gpu.launch_func  @kernels::@tiles_cl400_k0_fc_product blocks in (%[[BLOCKS]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
// CHECK-LABEL: gpu.func @tiles_cl400_k0_fc_product
//  CHECK-SAME:   workgroup(%{{.*}} : memref<8192xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C40:.*]] = arith.constant 40 : index
//   CHECK-DAG:   %[[C50:.*]] = arith.constant 50 : index
//   CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[CHUNKS:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[E:.*]] = arith.cmpi ult, %{{.*}}, %[[C64]] : index
//  CHECK-NEXT:   scf.if %[[E]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C50]] : index
//  CHECK-NEXT:   scf.if %[[ROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[FEATURES:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C8]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   scf.yield %[[FEATURES]]#0, {{.*}}
//  CHECK-NEXT:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
// The tail of 5 at the top level: 40 staging entries, then the loop over
// its 5 features, which goes on from the chunk loop's accumulators.
//       CHECK:   %[[T:.*]] = arith.cmpi ult, %{{.*}}, %[[C40]] : index
//  CHECK-NEXT:   scf.if %[[T]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[TROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C50]] : index
//  CHECK-NEXT:   scf.if %[[TROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %{{.*}}:64 = scf.for %{{.*}} = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%{{[^ ]+}} = %[[CHUNKS]]#0, {{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   gpu.barrier
//       CHECK:   gpu.return
func.func @tiles_cl400(%x: tensor<16x50x21xf32>, %y: tensor<16x50x21xf32>, %w: tensor<35x21x70xf32>) -> tensor<16x50x70xf32> {
  %z = clifford.fc_product <4, 0, 0> %x, %y, %w
      : (tensor<16x50x21xf32>, tensor<16x50x21xf32>, tensor<35x21x70xf32>) -> tensor<16x50x70xf32>
  return %z : tensor<16x50x70xf32>
}

// -----

// Cl(3,0,1), B = 9, Fin = 13, Fout = 6: 16 blades allow 4 pairs per
// thread; 6 outputs take 1 each on 8 column threads, 4 rows per thread on
// 4 row threads: one block of 32 threads, 16 rows x 8 outputs. 16 x 108 =
// 1728 values per feature: chunks of 4, a stage of 6912 values; 3 chunks
// and a tail of 1. A chunk's 64 staging entries take 2 full rounds of the
// 32 threads, each guarding only its row (rows past 9 staged as zeros); the
// tail's 16 take one round of threads < 16.
// CHECK-LABEL: func.func @tiles_cl301
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 32 : index
//       CHECK:   gpu.launch_func  @kernels::@tiles_cl301_k0_fc_product blocks in (%[[ONE]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
// CHECK-LABEL: gpu.func @tiles_cl301_k0_fc_product
//  CHECK-SAME:   workgroup(%{{.*}} : memref<6912xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %{{.*}}:64 = scf.for %{{.*}} = %[[C0]] to %[[C3]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[ROWIN0:.*]] = arith.cmpi ult, %{{.*}}, %[[C9]] : index
//  CHECK-NEXT:   scf.if %[[ROWIN0]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[ROWIN1:.*]] = arith.cmpi ult, %{{.*}}, %[[C9]] : index
//  CHECK-NEXT:   scf.if %[[ROWIN1]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[FEATURES:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   scf.yield %[[FEATURES]]#0, {{.*}}
//  CHECK-NEXT:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[T:.*]] = arith.cmpi ult, %{{.*}}, %[[C16]] : index
//  CHECK-NEXT:   scf.if %[[T]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[TROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C9]] : index
//  CHECK-NEXT:   scf.if %[[TROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
//       CHECK:   gpu.return
func.func @tiles_cl301(%x: tensor<16x9x13xf32>, %y: tensor<16x9x13xf32>, %w: tensor<34x13x6xf32>) -> tensor<16x9x6xf32> {
  %z = clifford.fc_product <3, 0, 1> %x, %y, %w
      : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<34x13x6xf32>) -> tensor<16x9x6xf32>
  return %z : tensor<16x9x6xf32>
}

// -----

// Cl(6,0), B = 5, Fin = 7, Fout = 3: 64 blades, one (row, output) per
// thread, 4 column threads. 928 slots: 4 features of 8 rows (29696 values)
// do not fit in 8192, nor of 4 rows; 2 rows do (7424): 8 threads per block,
// 3 row tiles; chunks of 4 (4 features x 2 rows x 928 = 7424 values), one
// chunk and a tail of 3. The loop over the one chunk folds away: its
// staging round (8 entries, all 8 threads, rows past 5 staged as zeros),
// its barrier, its loop over 4 features and the barrier after it all sit
// at the top level, and so do the tail's (6 entries) and its loop over 3
// features, which goes on from the chunk's accumulators.
// CHECK-LABEL: func.func @tiles_cl600
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 8 : index
//       CHECK:   gpu.launch_func  @kernels::@tiles_cl600_k0_fc_product blocks in (%[[BLOCKS]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
// CHECK-LABEL: gpu.func @tiles_cl600_k0_fc_product
//  CHECK-SAME:   workgroup(%{{.*}} : memref<7424xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C5]] : index
//  CHECK-NEXT:   scf.if %[[ROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[CHUNK:.*]]:64 = scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[T:.*]] = arith.cmpi ult, %{{.*}}, %[[C6]] : index
//  CHECK-NEXT:   scf.if %[[T]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   %[[TROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[C5]] : index
//  CHECK-NEXT:   scf.if %[[TROWIN]] {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   } else {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %{{.*}}:64 = scf.for %{{.*}} = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%{{[^ ]+}} = %[[CHUNK]]#0, {{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   gpu.barrier
//       CHECK:   gpu.return
func.func @tiles_cl600(%x: tensor<64x5x7xf32>, %y: tensor<64x5x7xf32>, %w: tensor<84x7x3xf32>) -> tensor<64x5x3xf32> {
  %z = clifford.fc_product <6, 0, 0> %x, %y, %w
      : (tensor<64x5x7xf32>, tensor<64x5x7xf32>, tensor<84x7x3xf32>) -> tensor<64x5x3xf32>
  return %z : tensor<64x5x3xf32>
}

// -----

// Operand blade sets: two vectors of Cl(2,0) (blades e1, e2) meet on two
// slots, path (1,0,1) on 1 (x1 y1 + x2 y2) and path (1,2,1) on e12
// (x1 y2 - x2 y1); the result's e1 and e2 are zero. 2 result blades allow
// 32 pairs per thread: 1 output (2 outputs, 2 column threads) by 4 rows
// (B = 3, one row thread): 2 threads. 4 rows x 2 slots x 5 features = 40
// staged values, the 5 features one chunk; 20 staging entries in 10 full
// rounds of 2, rows past 3 staged as zeros. Each thread holds 4 x 2
// accumulators, reads the weights of paths 3 (1,0,1) and 6 (1,2,1) only,
// and stores 4 blades per row in range, zeros for e1 and e2.
// CHECK-LABEL: gpu.func @blades_cl200_k0_fc_product
//  CHECK-SAME:   (%[[X:.*]]: memref<4x3x5xf32>, %[[Y:.*]]: memref<4x3x5xf32>, %[[W:.*]]: memref<10x5x2xf32>, %[[Z:.*]]: memref<4x3x2xf32>, %{{.*}}: i32) workgroup(%[[Q:.*]] : memref<40xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>}
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[C3]] : index
//       CHECK:   scf.if %[[IN]] {
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %{{.*}}, %{{.*}}]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %{{.*}}, %{{.*}}]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %{{.*}}, %{{.*}}]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %{{.*}}, %{{.*}}]
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P11]], %[[P22]] : f32
//       CHECK:     memref.store %[[S0]], %[[Q]]
//   CHECK-DAG:     %[[P12:.*]] = arith.mulf %[[X1]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P21:.*]] = arith.mulf %[[X2]], %[[Y1]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.subf %[[P12]], %[[P21]] : f32
//       CHECK:     memref.store %[[S1]], %[[Q]]
//   CHECK-NOT:     memref.store
//       CHECK:   } else {
//       CHECK:     memref.store %[[ZERO]], %[[Q]]
//       CHECK:     memref.store %[[ZERO]], %[[Q]]
//       CHECK:   {{^ *\}$}}
// The 9 other staging rounds follow, each an scf.if with an else, closed
// before the barrier. The barrier's depth is checked from it to the gpu.return: every
// region opened in between is closed before it, so the barrier is at the
// kernel's top level.
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   %[[ACC:.*]]:8 = scf.for %[[FI:.*]] = %[[C0]] to %[[C5]] step %[[C1]] iter_args({{.*}}) -> ({{.*}}) {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:     memref.load %[[W]][%[[C3]], %[[FI]], %{{.*}}]
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:     memref.load %[[W]][%[[C6]], %[[FI]], %{{.*}}]
//   CHECK-NOT:     memref.load %[[W]]
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:     scf.yield
//  CHECK-NEXT:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//  CHECK-NEXT:     memref.store %[[ACC]]#0, %[[Z]][%[[C0]], %{{.*}}]
//  CHECK-NEXT:     memref.store %[[ZERO]], %[[Z]][%[[C1]], %{{.*}}]
//  CHECK-NEXT:     memref.store %[[ZERO]], %[[Z]][%[[C2]], %{{.*}}]
//  CHECK-NEXT:     memref.store %[[ACC]]#1, %[[Z]][%[[C3]], %{{.*}}]
//  CHECK-NEXT:   {{^ *\}$}}
// The stores of the other 3 rows, each its own scf.if.
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   scf.if %{{.*}} {
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   {{^ *\}$}}
//   CHECK-NOT:   {{\{$|^ *\}$|gpu.barrier}}
//       CHECK:   gpu.return
func.func @blades_cl200(%x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>, %w: tensor<10x5x2xf32>) -> tensor<4x3x2xf32> {
  %z = clifford.fc_product <2, 0, 0> %x, %y, %w {lhs_blades = #clifford.blades<1, 2>, rhs_blades = #clifford.blades<1, 2>}
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<10x5x2xf32>) -> tensor<4x3x2xf32>
  return %z : tensor<4x3x2xf32>
}

// -----

// FCGP with the gates fused (Fout = 47 is one output tile of 64): the gates
// are recomputed where the block stages x and y, once per (b, fi) of a
// chunk, inside the staging's guards, and nowhere in the accumulation; 61
// input features are 15 chunks of 4 and a tail of 1. FCGP checks the
// barriers of the fc_product kernel and of the grade_rms_norm kernel that
// ends the layer, fused (k0 and k1, where FUSED counts the gates' erf) or
// not (k2 and k3, after the two gate kernels, which have no barrier and are
// the same kernel, launched on x and on y).
// CHECK-LABEL: gpu.func @fcgp_k0_scalar_gate
//   CHECK-NOT:   gpu.barrier
//       CHECK:   gpu.return
//   CHECK-NOT:   gpu.func @fcgp_k1_scalar_gate
// FCGP-LABEL: gpu.func @fcgp_k{{[02]}}_fc_product({{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: %{{.*}}:64 = scf.for {{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//  FUSED-COUNT-2: math.erf
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: } else {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//  FCGP-NEXT: %[[FEATURES:.*]]:64 = scf.for {{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.yield
//  FCGP-NEXT: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//  FCGP-NEXT: scf.yield %[[FEATURES]]#0, {{.*}}
//  FCGP-NEXT: {{^ *\}$}}
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//  FUSED-COUNT-2: math.erf
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: } else {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{gpu.barrier|math.erf}}
//       FCGP: gpu.return
// The norm: its features read (or zeros past F = 47) in an scf.if closed
// before the first barrier, then 6 folds, each an scf.if closed before its
// barrier; all 7 barriers at the top level.
// FCGP-LABEL: gpu.func @fcgp_k{{[13]}}_grade_rms_norm({{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} -> ({{.*}}) {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: } else {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//  FCGP-NEXT: gpu.barrier
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: scf.if %{{.*}} {
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: {{^ *\}$}}
//   FCGP-NOT: {{\{$|^ *\}$|gpu.barrier|math.erf}}
//       FCGP: gpu.return
func.func @fcgp(%x: tensor<8x50x61xf32>, %y: tensor<8x50x61xf32>, %w: tensor<20x61x47xf32>) -> tensor<8x50x47xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x50x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x50x61xf32>
  %p = clifford.fc_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x50x61xf32>, tensor<8x50x61xf32>, tensor<20x61x47xf32>) -> tensor<8x50x47xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x50x47xf32>
  return %n : tensor<8x50x47xf32>
}
