// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu -canonicalize -cse > %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=COUNT
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="vectorize=false" | FileCheck %s --check-prefix=SCALAR

// Vectorization (VectorAccess.h): a thread computes 4 consecutive elements,
// the code of each one in turn, and its buffer accesses become aligned
// vector<4xT> loads and stores where the shapes allow. With vectorize=false
// no kernel has a vector op.
// SCALAR-NOT: vector.

// Rows of 8 (a multiple of 4): thread t takes columns 4t % 8 .. + 3 of row
// 4t / 8. x and the row vector r are loaded as vectors at the first column;
// c [2, 1] is broadcast along the row: one scalar load serves all 4 lanes.
// The 4 results are stored as one vector. 16 elements: 4 threads.
// CHECK-LABEL: func.func @rows_broadcast
//       CHECK:   %[[N:.*]] = arith.constant 4 : i32
//       CHECK:   gpu.launch_func @kernels::@rows_broadcast_k0_sub
//  CHECK-SAME:     %[[N]] : i32)
// CHECK-LABEL: gpu.func @rows_broadcast_k0_sub
//  CHECK-SAME:   (%[[X:.*]]: memref<2x8xf32>, %[[R:.*]]: memref<8xf32>, %[[C:.*]]: memref<2x1xf32>, %[[OUT:.*]]: memref<2x8xf32>, %{{.*}}: i32)
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//       CHECK:   scf.if
//       CHECK:     %[[BASE:.*]] = arith.muli %{{.*}}, %[[C4]] : index
//       CHECK:     %[[COL:.*]] = arith.remui %[[BASE]], %[[C8]] : index
//       CHECK:     %[[ROW:.*]] = arith.divui %[[BASE]], %[[C8]] : index
//       CHECK:     %[[XV:.*]] = vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<2x8xf32>, vector<4xf32>
//       CHECK:     %[[X0:.*]] = vector.extract %[[XV]][0]
//       CHECK:     %[[RV:.*]] = vector.load %[[R]][%[[COL]]] {alignment = 16 : i64} : memref<8xf32>, vector<4xf32>
//       CHECK:     %[[R0:.*]] = vector.extract %[[RV]][0]
//       CHECK:     %[[P0:.*]] = arith.mulf %[[X0]], %[[R0]] : f32
//       CHECK:     %[[CS:.*]] = memref.load %[[C]][%[[ROW]], %[[C0]]] : memref<2x1xf32>
//       CHECK:     %[[S0:.*]] = arith.subf %[[P0]], %[[CS]] : f32
//       CHECK:     %[[X1:.*]] = vector.extract %[[XV]][1]
//       CHECK:     %[[R1:.*]] = vector.extract %[[RV]][1]
//       CHECK:     %[[P1:.*]] = arith.mulf %[[X1]], %[[R1]] : f32
//       CHECK:     %[[S1:.*]] = arith.subf %[[P1]], %[[CS]] : f32
//       CHECK:     %[[S2:.*]] = arith.subf %{{.*}}, %[[CS]] : f32
//       CHECK:     %[[S3:.*]] = arith.subf %{{.*}}, %[[CS]] : f32
//       CHECK:     %[[V:.*]] = vector.from_elements %[[S0]], %[[S1]], %[[S2]], %[[S3]] : vector<4xf32>
//       CHECK:     vector.store %[[V]], %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<2x8xf32>, vector<4xf32>
// COUNT-LABEL: gpu.func @rows_broadcast_k0_sub
//  COUNT-COUNT-2:  vector.load
//   COUNT-NOT:     vector.load
//       COUNT:     memref.load
//   COUNT-NOT:     memref.load
//       COUNT:     vector.store
//   COUNT-NOT:     memref.store
//       COUNT:   gpu.return
func.func @rows_broadcast(%x: tensor<2x8xf32>, %r: tensor<8xf32>, %c: tensor<2x1xf32>) -> tensor<2x8xf32> {
  %0 = uta.mul %x, %r : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = uta.sub %0, %c : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// Rows of 7 (odd): the 35 elements are taken 4 at a time in row-major order
// (flat lanes), so a vector may span two rows; x and the result are accessed
// through their 1-D views. The row vector y is read per lane (its 4 elements
// may wrap around). 35 = 4 * 8 + 3: threads 0..7 take 4 elements, thread 8
// the last 3 one by one (the tail); 9 threads.
// CHECK-LABEL: func.func @flat_tail
//       CHECK:   arith.constant 9 : i32
// CHECK-LABEL: gpu.func @flat_tail_k0_add
//  CHECK-SAME:   (%[[X:.*]]: memref<5x7xf32>, %[[Y:.*]]: memref<7xf32>, %[[OUT:.*]]: memref<5x7xf32>, %{{.*}}: i32)
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//       CHECK:   scf.if
//       CHECK:     %[[BASE:.*]] = arith.muli %[[T:.*]], %[[C4]] : index
//       CHECK:     %[[E1:.*]] = arith.addi %[[BASE]], %{{.*}} : index
//       CHECK:     %[[WHOLE:.*]] = arith.cmpi ult, %[[T]], %[[C8]] : index
//       CHECK:     scf.if %[[WHOLE]] {
//       CHECK:       %[[J0:.*]] = arith.remui %[[BASE]], %[[C7]] : index
//       CHECK:       %[[J1:.*]] = arith.remui %[[E1]], %[[C7]] : index
//       CHECK:       %[[XF:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [35], strides: [1] : memref<5x7xf32> to memref<35xf32>
//       CHECK:       %[[XV:.*]] = vector.load %[[XF]][%[[BASE]]] {alignment = 16 : i64} : memref<35xf32>, vector<4xf32>
//       CHECK:       %[[X0:.*]] = vector.extract %[[XV]][0]
//       CHECK:       %[[Y0:.*]] = memref.load %[[Y]][%[[J0]]] : memref<7xf32>
//       CHECK:       arith.addf %[[X0]], %[[Y0]] : f32
//       CHECK:       %[[OF:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [35], strides: [1]
//       CHECK:       %[[X1:.*]] = vector.extract %[[XV]][1]
//       CHECK:       %[[Y1:.*]] = memref.load %[[Y]][%[[J1]]] : memref<7xf32>
//       CHECK:       arith.addf %[[X1]], %[[Y1]] : f32
//       CHECK:       vector.store %{{.*}}, %[[OF]][%[[BASE]]] {alignment = 16 : i64} : memref<35xf32>, vector<4xf32>
//       CHECK:     } else {
//   CHECK-NOT:       vector.
//       CHECK:       memref.store %{{.*}}, %[[OUT]]
//       CHECK:       memref.store %{{.*}}, %[[OUT]]
//       CHECK:       memref.store %{{.*}}, %[[OUT]]
//   CHECK-NOT:       memref.store
//       CHECK:   gpu.return
func.func @flat_tail(%x: tensor<5x7xf32>, %y: tensor<7xf32>) -> tensor<5x7xf32> {
  %0 = uta.add %x, %y : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

// -----

// A transpose: its result rows are stored as vectors, but the 4 elements a
// thread reads lie down a column of x: 4 scalar loads.
// CHECK-LABEL: gpu.func @transpose_k0_transpose
//  CHECK-SAME:   (%[[X:.*]]: memref<8x4xf32>, %[[OUT:.*]]: memref<4x8xf32>
//       CHECK:     %[[J:.*]] = arith.remui
//       CHECK:     %[[I:.*]] = arith.divui
//       CHECK:     %[[J1:.*]] = arith.addi %[[J]]
//       CHECK:     %[[J2:.*]] = arith.addi %[[J]]
//       CHECK:     %[[J3:.*]] = arith.addi %[[J]]
//   CHECK-NOT:     vector.load
//       CHECK:     %[[A:.*]] = memref.load %[[X]][%[[J]], %[[I]]]
//       CHECK:     %[[B:.*]] = memref.load %[[X]][%[[J1]], %[[I]]]
//       CHECK:     %[[C:.*]] = memref.load %[[X]][%[[J2]], %[[I]]]
//       CHECK:     %[[D:.*]] = memref.load %[[X]][%[[J3]], %[[I]]]
//       CHECK:     %[[V:.*]] = vector.from_elements %[[A]], %[[B]], %[[C]], %[[D]]
//       CHECK:     vector.store %[[V]], %[[OUT]][%[[I]], %[[J]]] {alignment = 16 : i64}
func.func @transpose(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %0 = uta.transpose %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// f16: 4 halves per access (64 bits, alignment 8), widened one by one.
// CHECK-LABEL: gpu.func @half_k0_exp
//       CHECK:     %[[V:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<3x8xf16>, vector<4xf16>
//       CHECK:     %[[H:.*]] = vector.extract %[[V]][0] : f16 from vector<4xf16>
//       CHECK:     arith.extf %[[H]] : f16 to f32
//       CHECK:     vector.from_elements %{{.*}} : vector<4xf16>
//       CHECK:     vector.store %{{.*}} {alignment = 8 : i64} : memref<3x8xf16>, vector<4xf16>
func.func @half(%x: tensor<3x8xf16>) -> tensor<3x8xf16> {
  %0 = uta.exp %x : tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}

// -----

// Ops with loops keep one output element per thread and scalar accesses: a
// row reduction has 6 threads.
// CHECK-LABEL: func.func @no_vectorize_reduce
//       CHECK:   arith.constant 6 : i32
// CHECK-LABEL: gpu.func @no_vectorize_reduce_k0_reduce_sum
//   CHECK-NOT:   vector.
//       CHECK:   gpu.return
func.func @no_vectorize_reduce(%x: tensor<6x8xf32>) -> tensor<6xf32> {
  %0 = uta.reduce_sum %x dims [1] : tensor<6x8xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// A Cl(2,0) product over [4, 2, 8] (blades first, 8 features): one
// feature per thread, vectorized or not (4 features per thread held 4
// multivectors of each operand and lost on the GPU: CliffordExpansion.h), so
// its blades, 8 apart along the feature axis, stay scalar accesses.
// CHECK-LABEL: gpu.func @gp_features_k0_geometric_product
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x8xf32>, %[[Y:.*]]: memref<4x2x8xf32>, %[[Z:.*]]: memref<4x2x8xf32>
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     %[[B:.*]] = arith.divui
//       CHECK:     memref.load %[[X]][%[[C3]], %[[B]], %[[F]]]
// COUNT-LABEL: gpu.func @gp_features_k0_geometric_product
//  COUNT-COUNT-8:  memref.load
//   COUNT-NOT:     memref.load
//  COUNT-COUNT-4:  memref.store
//   COUNT-NOT:     vector.
//       COUNT:   gpu.return
func.func @gp_features(%x: tensor<4x2x8xf32>, %y: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %z = clifford.geometric_product <2, 0, 0> %x, %y : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %z : tensor<4x2x8xf32>
}

// -----

// Blades last ([3, 5, 4], blade axis 2): a thread's multivector is 4
// contiguous floats, one vector load per operand and one vector store.
// CHECK-LABEL: gpu.func @gp_blades_last_k0_geometric_product
//  CHECK-SAME:   (%[[X:.*]]: memref<3x5x4xf32>, %[[Y:.*]]: memref<3x5x4xf32>, %[[Z:.*]]: memref<3x5x4xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//       CHECK:     %[[J:.*]] = arith.remui
//       CHECK:     %[[I:.*]] = arith.divui
//       CHECK:     vector.load %[[X]][%[[I]], %[[J]], %[[C0]]] {alignment = 16 : i64}
//       CHECK:     vector.load %[[Y]][%[[I]], %[[J]], %[[C0]]] {alignment = 16 : i64}
//       CHECK:     vector.store %{{.*}}, %[[Z]][%[[I]], %[[J]], %[[C0]]] {alignment = 16 : i64}
// COUNT-LABEL: gpu.func @gp_blades_last_k0_geometric_product
//  COUNT-COUNT-2:  vector.load
//   COUNT-NOT:     vector.load
//   COUNT-NOT:     memref.load
//       COUNT:     vector.store
//   COUNT-NOT:     vector.store
//       COUNT:   gpu.return
func.func @gp_blades_last(%x: tensor<3x5x4xf32>, %y: tensor<3x5x4xf32>) -> tensor<3x5x4xf32> {
  %z = clifford.geometric_product <2, 0, 0> %x, %y {blade_axis = 2} : (tensor<3x5x4xf32>, tensor<3x5x4xf32>) -> tensor<3x5x4xf32>
  return %z : tensor<3x5x4xf32>
}

// -----

// The Cl(3,0) weighted product: one feature per thread (8 blades are too
// many for lanes of 4 features), so x and y are 8 scalar loads each, but
// the 20 path weights w[f, 0..19] of its feature are 5 aligned vectors
// (paths 0-3, 4-7, ..., 16-19) instead of 20 scalars; 8 scalar stores.
// CHECK-LABEL: gpu.func @weighted_k0_weighted_product
//  CHECK-SAME:   (%{{.*}}: memref<8x1x4xf32>, %{{.*}}: memref<8x1x4xf32>, %[[W:.*]]: memref<4x20xf32>
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     vector.load %[[W]][%[[F]], %[[C16]]] {alignment = 16 : i64}
// COUNT-LABEL: gpu.func @weighted_k0_weighted_product
//  COUNT-COUNT-16:  memref.load
//   COUNT-COUNT-5:  vector.load
//   COUNT-NOT:     vector.load
//   COUNT-NOT:     memref.load
//  COUNT-COUNT-8:  memref.store
//   COUNT-NOT:     vector.store
//       COUNT:   gpu.return
func.func @weighted(%x: tensor<8x1x4xf32>, %y: tensor<8x1x4xf32>, %w: tensor<4x20xf32>) -> tensor<8x1x4xf32> {
  %z = clifford.weighted_product <3, 0, 0> %x, %y, %w : (tensor<8x1x4xf32>, tensor<8x1x4xf32>, tensor<4x20xf32>) -> tensor<8x1x4xf32>
  return %z : tensor<8x1x4xf32>
}

// -----

// grade_rms_norm over 8 features: one feature per thread of the 32 of a
// block, so threads 0-7 read one feature each (4 scalar loads, one per
// blade) and keep it in registers; after the block's sums they store it
// divided (4 scalar stores), without reading x again.
// CHECK-LABEL: gpu.func @rms_k0_grade_rms_norm
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x8xf32>, %[[Y:.*]]: memref<4x2x8xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//       CHECK:   %[[LANE:.*]] = arith.remui %{{.*}}, %[[C32]]
//       CHECK:   %[[B:.*]] = arith.divui %{{.*}}, %[[C32]]
//       CHECK:   %[[HAS:.*]] = arith.cmpi ult, %[[LANE]], %[[C8]]
//       CHECK:   %[[V:.*]]:4 = scf.if %[[HAS]]
//       CHECK:     memref.load %[[X]][%[[C0]], %[[B]], %[[LANE]]]
//       CHECK:   gpu.barrier
//       CHECK:   scf.if %[[HAS]]
//       CHECK:     %[[Q0:.*]] = arith.divf %[[V]]#0,
//       CHECK:     memref.store %[[Q0]], %[[Y]][%[[C0]], %[[B]], %[[LANE]]]
// COUNT-LABEL: gpu.func @rms_k0_grade_rms_norm
//  COUNT-COUNT-4:  memref.load %arg0
//   COUNT-NOT:     memref.load %arg0
//   COUNT-NOT:     vector.
//       COUNT:   gpu.return
func.func @rms(%x: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
  %r = clifford.grade_rms_norm <2, 0, 0> %x : tensor<4x2x8xf32>
  return %r : tensor<4x2x8xf32>
}

// -----

// A rank-0 result has no innermost axis: its kernel stays scalar (one
// thread); the rank-0 operand of the add is one scalar load for all lanes.
// CHECK-LABEL: gpu.func @rank0_k0_exp
//   CHECK-NOT:   vector.
//       CHECK:   gpu.return
// CHECK-LABEL: gpu.func @rank0_k1_add
//  CHECK-SAME:   (%[[Y:.*]]: memref<8xf32>, %[[E:.*]]: memref<f32>
//       CHECK:     vector.load %[[Y]]
//       CHECK:     memref.load %[[E]][] : memref<f32>
//       CHECK:     vector.store
func.func @rank0(%x: tensor<f32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = uta.exp %x : tensor<f32>
  %r = uta.add %y, %e : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
