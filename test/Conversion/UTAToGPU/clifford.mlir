// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" -canonicalize > %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=COUNT
// RUN: FileCheck %s --input-file=%t --check-prefix=ONCE
// RUN: FileCheck %s --input-file=%t --check-prefix=NESTED

// CHECK holds the hand-worked terms; loads and independent products are
// matched with CHECK-DAG (their placement belongs to KernelIO, not to the
// algebra), sums by their operands in Cayley-table order. COUNT counts a
// kernel's products and ONCE pins an op that must appear exactly once.
// NESTED places the barriers of a kernel without counting spaces: a printed
// line that opens a region ends in `{` (`} else {` too), and a lone `}`
// closes one. From the kernel's label to its gpu.return every such line is
// matched, and each gap between two matches is guarded by a negative check
// of {{\{$|^ *\}$|gpu.barrier}}, so no region and no barrier goes unlisted;
// no listed region opens another, so each closes at the first lone `}`
// after it, and a barrier right after that `}`, or in a gap between closed
// regions, is at the kernel's top level.

// The expected terms below are worked out by hand from the blade order of
// the dialect (Cl(2,0): 1, e1, e2, e12; Cl(3,0): 1, e1, e2, e3, e12, e13,
// e23, e123), not taken from the algebra library.

// One thread per column; the rotor-like rhs [4, 1] is read at column 0.
// z0 = x0 y0 + x1 y1 + x2 y2 - x3 y3 (e12 e12 = -1) and
// z1 = x0 y1 + x1 y0 - x2 y3 + x3 y2 (e2 e12 = -e1, e12 e2 = e1);
// Cl(2,0) has 16 non-zero products in all.
// CHECK-LABEL: func.func @gp_cl2
//       CHECK:   %[[N:.*]] = arith.constant 3 : i32
//       CHECK:   gpu.launch_func @kernels::@gp_cl2_k0_geometric_product
//  CHECK-SAME:     %[[N]] : i32)
//       CHECK: gpu.func @gp_cl2_k0_geometric_product(%[[X:.*]]: memref<4x3xf32>, %[[Y:.*]]: memref<4x1xf32>, %[[Z:.*]]: memref<4x3xf32>, %{{.*}}: i32) kernel
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[C0]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[C0]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[C0]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[C0]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[X3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P00]], %[[P11]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.addf %[[S0]], %[[P22]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.subf %[[S1]], %[[P33]] : f32
//   CHECK-DAG:     %[[P01:.*]] = arith.mulf %[[X0]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P10:.*]] = arith.mulf %[[X1]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P23:.*]] = arith.mulf %[[X2]], %[[Y3]] : f32
//   CHECK-DAG:     %[[P32:.*]] = arith.mulf %[[X3]], %[[Y2]] : f32
//   CHECK-DAG:     %[[R0:.*]] = arith.addf %[[P01]], %[[P10]] : f32
//   CHECK-DAG:     %[[R1:.*]] = arith.subf %[[R0]], %[[P23]] : f32
//   CHECK-DAG:     %[[Z1:.*]] = arith.addf %[[R1]], %[[P32]] : f32
//   CHECK-DAG:     memref.store %[[Z0]], %[[Z]][%[[C0]], %[[T]]]
//   CHECK-DAG:     memref.store %[[Z1]], %[[Z]][%[[C1]], %[[T]]]
//   CHECK-DAG:     memref.store %{{.*}}, %[[Z]][%[[C2]], %[[T]]]
//   CHECK-DAG:     memref.store %{{.*}}, %[[Z]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @gp_cl2_k0_geometric_product
//       COUNT:   scf.if
//  COUNT-COUNT-16: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @gp_cl2(%x: tensor<4x3xf32>, %y: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %z = clifford.geometric_product <2, 0, 0> %x, %y
      : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %z : tensor<4x3xf32>
}

// -----

// Cl(3,0): every one of the 8 x 8 Cayley entries is non-zero; the scalar
// part is x0 y0 + x1 y1 + x2 y2 + x3 y3 - x4 y4 - x5 y5 - x6 y6 - x7 y7.
// CHECK-LABEL: gpu.func @gp_cl3_k0_geometric_product
//       CHECK:   scf.if
//   CHECK-COUNT-8: arith.mulf
//  CHECK-NEXT:     arith.addf
//  CHECK-NEXT:     arith.addf
//  CHECK-NEXT:     arith.addf
//  CHECK-NEXT:     arith.subf
//  CHECK-NEXT:     arith.subf
//  CHECK-NEXT:     arith.subf
//  CHECK-NEXT:     arith.subf
//  CHECK-COUNT-56: arith.mulf
//   CHECK-NOT:     arith.mulf
//  CHECK-COUNT-8:  memref.store
//   CHECK-NOT:     memref.store
//       CHECK:   gpu.return
func.func @gp_cl3(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %z = clifford.geometric_product <3, 0, 0> %x, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// Cl(2,0,1) (blades 1, e0, e1, e2, e01, e02, e12, e012, e0 e0 = 0): a pair
// of blades that share e0 vanishes, so of the 64 entries only 3 * 16 = 48
// remain. The scalar part keeps 1, e1, e2, e12: x0 y0 + x2 y2 + x3 y3 - x6 y6.
// CHECK-LABEL: gpu.func @gp_pga_k0_geometric_product
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>, %[[Z:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[X6:.*]] = memref.load %[[X]][%[[C6]], %[[T]]]
//   CHECK-DAG:     %[[Y6:.*]] = memref.load %[[Y]][%[[C6]], %[[T]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[X3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[P66:.*]] = arith.mulf %[[X6]], %[[Y6]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P00]], %[[P22]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.addf %[[S0]], %[[P33]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.subf %[[S1]], %[[P66]] : f32
//   CHECK-DAG:     memref.store %[[Z0]], %[[Z]][%[[C0]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @gp_pga_k0_geometric_product
//       COUNT:   scf.if
//  COUNT-COUNT-48: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @gp_pga(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %z = clifford.geometric_product <2, 0, 1> %x, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// Outer product in Cl(3,0): only blades with disjoint basis vectors meet,
// 3^3 = 27 terms. z0 = x0 y0 alone; the pseudoscalar part is
// x0 y7 + x1 y6 - x2 y5 + x3 y4 + x4 y3 - x5 y2 + x6 y1 + x7 y0.
// CHECK-LABEL: gpu.func @outer_cl3_k0_outer_product
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>, %[[Z:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[X4:.*]] = memref.load %[[X]][%[[C4]], %[[T]]]
//   CHECK-DAG:     %[[Y4:.*]] = memref.load %[[Y]][%[[C4]], %[[T]]]
//   CHECK-DAG:     %[[X5:.*]] = memref.load %[[X]][%[[C5]], %[[T]]]
//   CHECK-DAG:     %[[Y5:.*]] = memref.load %[[Y]][%[[C5]], %[[T]]]
//   CHECK-DAG:     %[[X6:.*]] = memref.load %[[X]][%[[C6]], %[[T]]]
//   CHECK-DAG:     %[[Y6:.*]] = memref.load %[[Y]][%[[C6]], %[[T]]]
//   CHECK-DAG:     %[[X7:.*]] = memref.load %[[X]][%[[C7]], %[[T]]]
//   CHECK-DAG:     %[[Y7:.*]] = memref.load %[[Y]][%[[C7]], %[[T]]]
//   CHECK-DAG:     %[[Z0:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[Q07:.*]] = arith.mulf %[[X0]], %[[Y7]] : f32
//   CHECK-DAG:     %[[Q16:.*]] = arith.mulf %[[X1]], %[[Y6]] : f32
//   CHECK-DAG:     %[[Q25:.*]] = arith.mulf %[[X2]], %[[Y5]] : f32
//   CHECK-DAG:     %[[Q34:.*]] = arith.mulf %[[X3]], %[[Y4]] : f32
//   CHECK-DAG:     %[[Q43:.*]] = arith.mulf %[[X4]], %[[Y3]] : f32
//   CHECK-DAG:     %[[Q52:.*]] = arith.mulf %[[X5]], %[[Y2]] : f32
//   CHECK-DAG:     %[[Q61:.*]] = arith.mulf %[[X6]], %[[Y1]] : f32
//   CHECK-DAG:     %[[Q70:.*]] = arith.mulf %[[X7]], %[[Y0]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.addf %[[Q07]], %[[Q16]] : f32
//   CHECK-DAG:     %[[S2:.*]] = arith.subf %[[S1]], %[[Q25]] : f32
//   CHECK-DAG:     %[[S3:.*]] = arith.addf %[[S2]], %[[Q34]] : f32
//   CHECK-DAG:     %[[S4:.*]] = arith.addf %[[S3]], %[[Q43]] : f32
//   CHECK-DAG:     %[[S5:.*]] = arith.subf %[[S4]], %[[Q52]] : f32
//   CHECK-DAG:     %[[S6:.*]] = arith.addf %[[S5]], %[[Q61]] : f32
//   CHECK-DAG:     %[[Z7:.*]] = arith.addf %[[S6]], %[[Q70]] : f32
//   CHECK-DAG:     memref.store %[[Z0]], %[[Z]][%[[C0]], %[[T]]]
//   CHECK-DAG:     memref.store %[[Z7]], %[[Z]][%[[C7]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @outer_cl3_k0_outer_product
//       COUNT:   scf.if
//  COUNT-COUNT-27: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @outer_cl3(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %z = clifford.outer_product <3, 0, 0> %x, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// Left contraction in Cl(3,0): blade i meets blade j only when i's basis
// vectors are among j's, 3^3 = 27 terms; the pseudoscalar part is x0 y7.
// CHECK-LABEL: gpu.func @contract_cl3_k0_left_contraction
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>, %[[Z:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//  CHECK-COUNT-26: arith.mulf
//       CHECK:     %[[Z7:.*]] = arith.mulf %[[X0]], %[[Y7:.*]] : f32
//   CHECK-NOT:     arith.mulf
//       CHECK:     memref.store %[[Z7]], %[[Z]][%[[C7]], %[[T]]]
func.func @contract_cl3(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %z = clifford.left_contraction <3, 0, 0> %x, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}

// -----

// Scalar product in Cl(3,0): the 8 diagonal terms, one value per thread,
// written to the size-1 blade axis.
// CHECK-LABEL: gpu.func @scalar_cl3_k0_scalar_product
//  CHECK-SAME:   %[[Z:[^:]+]]: memref<1x5xf32>
//  CHECK-COUNT-8:  arith.mulf
//   CHECK-NOT:     arith.mulf
//  CHECK-COUNT-3:  arith.addf
//  CHECK-COUNT-3:  arith.subf
//       CHECK:     %[[S:.*]] = arith.subf
//  CHECK-NEXT:     memref.store %[[S]], %[[Z]]
//   CHECK-NOT:     memref.store
//       CHECK:   gpu.return
func.func @scalar_cl3(%x: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<1x5xf32> {
  %s = clifford.scalar_product <3, 0, 0> %x, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
  return %s : tensor<1x5xf32>
}

// -----

// Sandwich (r x) reverse(r) in Cl(2,0) as two products of 16 terms; the
// reverse's sign (e12 -> -e12) is folded into the second product, so
// y3 = -t0 r3 + t1 r2 - t2 r1 + t3 r0 starts with a negation and no other
// negf appears; t = r x is t0 = r0 x0 + r1 x1 + r2 x2 - r3 x3,
// t1 = r0 x1 + r1 x0 - r2 x3 + r3 x2, t2 = r0 x2 + r1 x3 + r2 x0 - r3 x1,
// t3 = r0 x3 + r1 x2 - r2 x1 + r3 x0. The rotor [4, 1] broadcasts over the 6 columns.
// CHECK-LABEL: func.func @sandwich_cl2
//       CHECK:   arith.constant 6 : i32
// CHECK-LABEL: gpu.func @sandwich_cl2_k0_sandwich
//  CHECK-SAME:   (%[[R:.*]]: memref<4x1xf32>, %[[X:.*]]: memref<4x6xf32>, %[[Y:.*]]: memref<4x6xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[R0:.*]] = memref.load %[[R]][%[[C0]], %[[C0]]]
//   CHECK-DAG:     %[[R1:.*]] = memref.load %[[R]][%[[C1]], %[[C0]]]
//   CHECK-DAG:     %[[R2:.*]] = memref.load %[[R]][%[[C2]], %[[C0]]]
//   CHECK-DAG:     %[[R3:.*]] = memref.load %[[R]][%[[C3]], %[[C0]]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[A00:.*]] = arith.mulf %[[R0]], %[[X0]] : f32
//   CHECK-DAG:     %[[A11:.*]] = arith.mulf %[[R1]], %[[X1]] : f32
//   CHECK-DAG:     %[[A22:.*]] = arith.mulf %[[R2]], %[[X2]] : f32
//   CHECK-DAG:     %[[A33:.*]] = arith.mulf %[[R3]], %[[X3]] : f32
//   CHECK-DAG:     %[[U0:.*]] = arith.addf %[[A00]], %[[A11]] : f32
//   CHECK-DAG:     %[[U1:.*]] = arith.addf %[[U0]], %[[A22]] : f32
//   CHECK-DAG:     %[[T0:.*]] = arith.subf %[[U1]], %[[A33]] : f32
//   CHECK-DAG:     %[[A03:.*]] = arith.mulf %[[R0]], %[[X3]] : f32
//   CHECK-DAG:     %[[A12:.*]] = arith.mulf %[[R1]], %[[X2]] : f32
//   CHECK-DAG:     %[[A21:.*]] = arith.mulf %[[R2]], %[[X1]] : f32
//   CHECK-DAG:     %[[A30:.*]] = arith.mulf %[[R3]], %[[X0]] : f32
//   CHECK-DAG:     %[[V0:.*]] = arith.addf %[[A03]], %[[A12]] : f32
//   CHECK-DAG:     %[[V1:.*]] = arith.subf %[[V0]], %[[A21]] : f32
//   CHECK-DAG:     %[[T3:.*]] = arith.addf %[[V1]], %[[A30]] : f32
//   CHECK-DAG:     %[[A01:.*]] = arith.mulf %[[R0]], %[[X1]] : f32
//   CHECK-DAG:     %[[A10:.*]] = arith.mulf %[[R1]], %[[X0]] : f32
//   CHECK-DAG:     %[[A23:.*]] = arith.mulf %[[R2]], %[[X3]] : f32
//   CHECK-DAG:     %[[A32:.*]] = arith.mulf %[[R3]], %[[X2]] : f32
//   CHECK-DAG:     %[[U2:.*]] = arith.addf %[[A01]], %[[A10]] : f32
//   CHECK-DAG:     %[[U3:.*]] = arith.subf %[[U2]], %[[A23]] : f32
//   CHECK-DAG:     %[[T1:.*]] = arith.addf %[[U3]], %[[A32]] : f32
//   CHECK-DAG:     %[[A02:.*]] = arith.mulf %[[R0]], %[[X2]] : f32
//   CHECK-DAG:     %[[A13:.*]] = arith.mulf %[[R1]], %[[X3]] : f32
//   CHECK-DAG:     %[[A20:.*]] = arith.mulf %[[R2]], %[[X0]] : f32
//   CHECK-DAG:     %[[A31:.*]] = arith.mulf %[[R3]], %[[X1]] : f32
//   CHECK-DAG:     %[[V2:.*]] = arith.addf %[[A02]], %[[A13]] : f32
//   CHECK-DAG:     %[[V3:.*]] = arith.addf %[[V2]], %[[A20]] : f32
//   CHECK-DAG:     %[[T2:.*]] = arith.subf %[[V3]], %[[A31]] : f32
//   CHECK-DAG:     %[[Q03:.*]] = arith.mulf %[[T0]], %[[R3]] : f32
//   CHECK-DAG:     %[[Q12:.*]] = arith.mulf %[[T1]], %[[R2]] : f32
//   CHECK-DAG:     %[[Q21:.*]] = arith.mulf %[[T2]], %[[R1]] : f32
//   CHECK-DAG:     %[[Q30:.*]] = arith.mulf %[[T3]], %[[R0]] : f32
//   CHECK-DAG:     %[[N:.*]] = arith.negf %[[Q03]] : f32
//   CHECK-DAG:     %[[W0:.*]] = arith.addf %[[N]], %[[Q12]] : f32
//   CHECK-DAG:     %[[W1:.*]] = arith.subf %[[W0]], %[[Q21]] : f32
//   CHECK-DAG:     %[[Y3:.*]] = arith.addf %[[W1]], %[[Q30]] : f32
//   CHECK-DAG:     memref.store %[[Y3]], %[[Y]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @sandwich_cl2_k0_sandwich
//       COUNT:   scf.if
//  COUNT-COUNT-32: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
// ONCE-LABEL: gpu.func @sandwich_cl2_k0_sandwich
//       ONCE:   scf.if
//   ONCE-NOT:     arith.negf
//       ONCE:     arith.negf
//   ONCE-NOT:     arith.negf
//       ONCE:   gpu.return
func.func @sandwich_cl2(%r: tensor<4x1xf32>, %x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %y = clifford.sandwich <2, 0, 0> %r, %x
      : (tensor<4x1xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Reverse in Cl(3,0) with the blades last: grades 2 and 3 (e12, e13, e23,
// e123) change sign, grades 0 and 1 are copied.
// CHECK-LABEL: gpu.func @reverse_cl3_k0_reverse
//  CHECK-SAME:   (%[[X:.*]]: memref<5x8xf32>, %[[Y:.*]]: memref<5x8xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:   %[[T:.*]] = arith.addi
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[T]], %[[C0]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[T]], %[[C3]]]
//   CHECK-DAG:     %[[X4:.*]] = memref.load %[[X]][%[[T]], %[[C4]]]
//   CHECK-DAG:     %[[X7:.*]] = memref.load %[[X]][%[[T]], %[[C7]]]
//   CHECK-DAG:     %[[N4:.*]] = arith.negf %[[X4]]
//   CHECK-DAG:     %[[N7:.*]] = arith.negf %[[X7]]
//   CHECK-DAG:     memref.store %[[X0]], %[[Y]][%[[T]], %[[C0]]]
//   CHECK-DAG:     memref.store %[[X3]], %[[Y]][%[[T]], %[[C3]]]
//   CHECK-DAG:     memref.store %[[N4]], %[[Y]][%[[T]], %[[C4]]]
//   CHECK-DAG:     memref.store %[[N7]], %[[Y]][%[[T]], %[[C7]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @reverse_cl3_k0_reverse
//       COUNT:   scf.if
//  COUNT-COUNT-4:  arith.negf
//   COUNT-NOT:     arith.negf
//       COUNT:   gpu.return
func.func @reverse_cl3(%x: tensor<5x8xf32>) -> tensor<5x8xf32> {
  %y = clifford.reverse <3, 0, 0> %x {blade_axis = 1} : tensor<5x8xf32>
  return %y : tensor<5x8xf32>
}

// -----

// Grade involution negates the odd grades (e1, e2, e3, e123), the Clifford
// conjugate grades 1 and 2 (six blades).
// CHECK-LABEL: gpu.func @involution_cl3_k0_grade_involution
//  CHECK-COUNT-4: arith.negf
//   CHECK-NOT:    arith.negf
//       CHECK:   gpu.return
// CHECK-LABEL: gpu.func @involution_cl3_k1_conjugate
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[X4:.*]] = memref.load %[[X]][%[[C4]], %[[T]]]
//   CHECK-DAG:     %[[X5:.*]] = memref.load %[[X]][%[[C5]], %[[T]]]
//   CHECK-DAG:     %[[X6:.*]] = memref.load %[[X]][%[[C6]], %[[T]]]
//   CHECK-DAG:     %[[X7:.*]] = memref.load %[[X]][%[[C7]], %[[T]]]
//   CHECK-DAG:     %[[N1:.*]] = arith.negf %[[X1]]
//   CHECK-DAG:     %[[N2:.*]] = arith.negf %[[X2]]
//   CHECK-DAG:     %[[N3:.*]] = arith.negf %[[X3]]
//   CHECK-DAG:     %[[N4:.*]] = arith.negf %[[X4]]
//   CHECK-DAG:     %[[N5:.*]] = arith.negf %[[X5]]
//   CHECK-DAG:     %[[N6:.*]] = arith.negf %[[X6]]
//   CHECK-DAG:     memref.store %[[X0]], %[[Y]][%[[C0]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N1]], %[[Y]][%[[C1]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N2]], %[[Y]][%[[C2]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N3]], %[[Y]][%[[C3]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N4]], %[[Y]][%[[C4]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N5]], %[[Y]][%[[C5]], %[[T]]]
//   CHECK-DAG:     memref.store %[[N6]], %[[Y]][%[[C6]], %[[T]]]
//   CHECK-DAG:     memref.store %[[X7]], %[[Y]][%[[C7]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @involution_cl3_k1_conjugate
//       COUNT:   scf.if
//  COUNT-COUNT-6:  arith.negf
//   COUNT-NOT:     arith.negf
//       COUNT:   gpu.return
func.func @involution_cl3(%x: tensor<8x5xf32>) -> (tensor<8x5xf32>, tensor<8x5xf32>) {
  %a = clifford.grade_involution <3, 0, 0> %x : tensor<8x5xf32>
  %b = clifford.conjugate <3, 0, 0> %x : tensor<8x5xf32>
  return %a, %b : tensor<8x5xf32>, tensor<8x5xf32>
}

// -----

// Projection onto grades 0 and 2: only blades 1, e12, e13, e23 are read;
// the others are written as zeros.
// CHECK-LABEL: gpu.func @project_cl3_k0_grade_project
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X4:.*]] = memref.load %[[X]][%[[C4]], %[[T]]]
//   CHECK-DAG:     %[[X5:.*]] = memref.load %[[X]][%[[C5]], %[[T]]]
//   CHECK-DAG:     %[[X6:.*]] = memref.load %[[X]][%[[C6]], %[[T]]]
//   CHECK-DAG:     memref.store %[[X0]], %[[Y]][%[[C0]], %[[T]]]
//   CHECK-DAG:     memref.store %[[ZERO]], %[[Y]][%[[C1]], %[[T]]]
//   CHECK-DAG:     memref.store %[[ZERO]], %[[Y]][%[[C2]], %[[T]]]
//   CHECK-DAG:     memref.store %[[ZERO]], %[[Y]][%[[C3]], %[[T]]]
//   CHECK-DAG:     memref.store %[[X4]], %[[Y]][%[[C4]], %[[T]]]
//   CHECK-DAG:     memref.store %[[X5]], %[[Y]][%[[C5]], %[[T]]]
//   CHECK-DAG:     memref.store %[[X6]], %[[Y]][%[[C6]], %[[T]]]
//   CHECK-DAG:     memref.store %[[ZERO]], %[[Y]][%[[C7]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @project_cl3_k0_grade_project
//       COUNT:   scf.if
//  COUNT-COUNT-4:  memref.load
//   COUNT-NOT:     memref.load
//       COUNT:   gpu.return
func.func @project_cl3(%x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %y = clifford.grade_project <3, 0, 0> %x grades [0, 2] : tensor<8x5xf32>
  return %y : tensor<8x5xf32>
}

// -----

// Dual in Cl(3,0): I^-1 = -e123, so blade by blade
// y0 = x7, y1 = x6, y2 = -x5, y3 = x4, y4 = -x3, y5 = x2, y6 = -x1, y7 = -x0.
// CHECK-LABEL: gpu.func @dual_cl3_k0_dual
//  CHECK-SAME:   (%[[X:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]]
//   CHECK-DAG:     %[[X4:.*]] = memref.load %[[X]][%[[C4]]
//   CHECK-DAG:     %[[X5:.*]] = memref.load %[[X]][%[[C5]]
//   CHECK-DAG:     %[[X6:.*]] = memref.load %[[X]][%[[C6]]
//   CHECK-DAG:     %[[X7:.*]] = memref.load %[[X]][%[[C7]]
//   CHECK-DAG:     %[[N5:.*]] = arith.negf %[[X5]]
//   CHECK-DAG:     %[[N3:.*]] = arith.negf %[[X3]]
//   CHECK-DAG:     %[[N1:.*]] = arith.negf %[[X1]]
//   CHECK-DAG:     %[[N0:.*]] = arith.negf %[[X0]]
//       CHECK:     memref.store %[[X7]], %[[Y]][%[[C0]]
//  CHECK-NEXT:     memref.store %[[X6]], %[[Y]][%[[C1]]
//  CHECK-NEXT:     memref.store %[[N5]], %[[Y]][%[[C2]]
//  CHECK-NEXT:     memref.store %[[X4]], %[[Y]][%[[C3]]
//  CHECK-NEXT:     memref.store %[[N3]], %[[Y]][%[[C4]]
//  CHECK-NEXT:     memref.store %[[X2]], %[[Y]][%[[C5]]
//  CHECK-NEXT:     memref.store %[[N1]], %[[Y]][%[[C6]]
//  CHECK-NEXT:     memref.store %[[N0]], %[[Y]][%[[C7]]
func.func @dual_cl3(%x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %y = clifford.dual <3, 0, 0> %x : tensor<8x5xf32>
  return %y : tensor<8x5xf32>
}

// -----

// Scalar gate with the blades in the middle axis: one thread per (i, k) of
// [2, 4, 3], the gate Phi(x0) = 0.5 (1 + erf(x0 / sqrt 2)) scales all four
// blades.
// CHECK-LABEL: func.func @gate_cl2
//       CHECK:   arith.constant 6 : i32
// CHECK-LABEL: gpu.func @gate_cl2_k0_scalar_gate
//  CHECK-SAME:   (%[[X:.*]]: memref<2x4x3xf32>, %[[Y:.*]]: memref<2x4x3xf32>
//   CHECK-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:     %[[K:.*]] = arith.remui %{{.*}}, %[[C3]]
//       CHECK:     %[[I:.*]] = arith.divui %{{.*}}, %[[C3]]
//       CHECK:     %[[S:.*]] = memref.load %[[X]][%[[I]], %[[C0]], %[[K]]]
//       CHECK:     %[[A:.*]] = arith.mulf %[[S]], %[[RSQRT2]]
//       CHECK:     %[[E:.*]] = math.erf %[[A]]
//       CHECK:     %[[B:.*]] = arith.addf %[[E]], %[[ONE]]
//       CHECK:     %[[G:.*]] = arith.mulf %[[B]], %[[HALF]]
//       CHECK:     %[[Y0:.*]] = arith.mulf %[[S]], %[[G]]
//  CHECK-COUNT-3:  arith.mulf %{{.*}}, %[[G]]
//       CHECK:     memref.store %[[Y0]], %[[Y]][%[[I]], %[[C0]], %[[K]]]
func.func @gate_cl2(%x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %y = clifford.scalar_gate <2, 0, 0> %x {blade_axis = 1} : tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// Weighted product in Cl(2,0), one thread per (b, f) of [B = 2, F = 3]. The
// paths are (0,0,0) (0,1,1) (0,2,2) (1,0,1) (1,1,0) (1,1,2) (1,2,1) (2,0,2)
// (2,1,1) (2,2,0), so z0 = w[f,0] x0 y0 + w[f,3] (x1 y1 + x2 y2)
// + w[f,7] (-x3 y3): terms of one path share one weight product. In all
// 16 products of blades and 14 of (blade, path) groups: 30 multiplications.
// CHECK-LABEL: gpu.func @weighted_cl2_k0_weighted_product
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x3xf32>, %[[Y:.*]]: memref<4x2x3xf32>, %[[W:.*]]: memref<3x10xf32>, %[[Z:.*]]: memref<4x2x3xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//       CHECK:     %[[F:.*]] = arith.remui %{{.*}}, %[[C3]]
//       CHECK:     %[[B:.*]] = arith.divui %{{.*}}, %[[C3]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[X3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[W0:.*]] = memref.load %[[W]][%[[F]], %[[C0]]]
//   CHECK-DAG:     %[[W3:.*]] = memref.load %[[W]][%[[F]], %[[C3]]]
//   CHECK-DAG:     %[[W7:.*]] = memref.load %[[W]][%[[F]], %[[C7]]]
//   CHECK-DAG:     %[[T0:.*]] = arith.mulf %[[W0]], %[[P00]] : f32
//   CHECK-DAG:     %[[G3:.*]] = arith.addf %[[P11]], %[[P22]] : f32
//   CHECK-DAG:     %[[T3:.*]] = arith.mulf %[[W3]], %[[G3]] : f32
//   CHECK-DAG:     %[[G7:.*]] = arith.negf %[[P33]] : f32
//   CHECK-DAG:     %[[T7:.*]] = arith.mulf %[[W7]], %[[G7]] : f32
//   CHECK-DAG:     %[[S:.*]] = arith.addf %[[T0]], %[[T3]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.addf %[[S]], %[[T7]] : f32
//   CHECK-DAG:     memref.store %[[Z0]], %[[Z]][%[[C0]], %[[B]], %[[F]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @weighted_cl2_k0_weighted_product
//       COUNT:   scf.if
//  COUNT-COUNT-30: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @weighted_cl2(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>,
                        %w: tensor<3x10xf32>) -> tensor<4x2x3xf32> {
  %z = clifford.weighted_product <2, 0, 0> %x, %y, %w
      : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<3x10xf32>)
      -> tensor<4x2x3xf32>
  return %z : tensor<4x2x3xf32>
}

// -----

// Fully connected product in Cl(2,0), x [4, 2, 3], w [10, 3, 5]: the tiled
// kernel (passes/Analysis/FcProductTiling.h). Its 14 slots, the (path,
// blade) pairs that a term lands on, by path (gx, gz, gy) then blade:
//   0 (0,0,0) 1: x0 y0         7 (1,1,2) e1: -x2 y3  (e2 e12 = -e1)
//   1 (0,1,1) e1: x0 y1        8 (1,1,2) e2: x1 y3   (e1 e12 = e2)
//   2 (0,1,1) e2: x0 y2        9 (1,2,1) e12: x1 y2 - x2 y1
//   3 (0,2,2) e12: x0 y3      10 (2,0,2) 1: -x3 y3
//   4 (1,0,1) 1: x1 y1 + x2 y2 11 (2,1,1) e1: x3 y2  (e12 e2 = e1)
//   5 (1,1,0) e1: x1 y0       12 (2,1,1) e2: -x3 y1 (e12 e1 = -e2)
//   6 (1,1,0) e2: x2 y0       13 (2,2,0) e12: x3 y0
// 4 blades allow 16 (row, output) pairs per thread; 5 outputs take one
// each and 8 column threads (a power of two), 2 batch rows are one thread's
// rows: one block of 8 threads. The 3 input features are one chunk; the
// stage holds 14 slots x 2 rows x 3 features = 84 f32, slot s of (row r,
// feature f) at (2 s + r) * 3 + f. Threads 0..5 stage one (r, f) each
// (r = t / 3, f = t % 3), storing each slot as soon as it is summed, then
// a barrier at the kernel's top level; each thread then adds
// w[p, fi, o] * slot over fi in order, paths in order, for its 2 rows and 4
// blades (8 accumulators). Columns 5..7 read the weights of column 4 (in
// bounds) and store nothing.
// CHECK-LABEL: func.func @fc_cl2
//   CHECK-DAG:   %[[N:.*]] = arith.constant 8 : i32
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 8 : index
//       CHECK:   gpu.launch_func @kernels::@fc_cl2_k0_fc_product blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[THREADS]], %[[ONE]], %[[ONE]])
//  CHECK-SAME:     %[[N]] : i32)
// CHECK-LABEL: gpu.func @fc_cl2_k0_fc_product
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x3xf32>, %[[Y:.*]]: memref<4x2x3xf32>, %[[W:.*]]: memref<10x3x5xf32>, %[[Z:.*]]: memref<4x2x5xf32>, %{{.*}}: i32) workgroup(%[[Q:.*]] : memref<84xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>}
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
//   CHECK-DAG:   %[[C14:.*]] = arith.constant 14 : index
//   CHECK-DAG:   %[[C18:.*]] = arith.constant 18 : index
//   CHECK-DAG:   %[[C20:.*]] = arith.constant 20 : index
//       CHECK:   %[[LOCAL:.*]] = arith.remui %{{.*}}, %[[C8]]
//       CHECK:   %[[O:.*]] = arith.remui %[[LOCAL]], %[[C8]]
//       CHECK:   %[[OW:.*]] = arith.minui %[[O]], %[[C4]]
//       CHECK:   %[[STAGING:.*]] = arith.cmpi ult, %[[LOCAL]], %[[C6]]
//       CHECK:   scf.if %[[STAGING]] {
//       CHECK:     %[[R:.*]] = arith.divui %[[LOCAL]], %[[C3]]
//       CHECK:     %[[F:.*]] = arith.remui %[[LOCAL]], %[[C3]]
//       CHECK:     %[[B:.*]] = arith.addi %{{.*}}, %[[R]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[I0:.*]] = arith.muli %[[R]], %[[C3]]
//   CHECK-DAG:     %[[J0:.*]] = arith.addi %[[I0]], %[[F]]
//       CHECK:     memref.store %[[P00]], %[[Q]][%[[J0]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[S4:.*]] = arith.addf %[[P11]], %[[P22]] : f32
//   CHECK-DAG:     %[[I4:.*]] = arith.addi %[[R]], %[[C8]]
//   CHECK-DAG:     %[[K4:.*]] = arith.muli %[[I4]], %[[C3]]
//   CHECK-DAG:     %[[J4:.*]] = arith.addi %[[K4]], %[[F]]
//       CHECK:     memref.store %[[S4]], %[[Q]][%[[J4]]]
//   CHECK-DAG:     %[[P23:.*]] = arith.mulf %[[X2]], %[[Y3]] : f32
//   CHECK-DAG:     %[[S7:.*]] = arith.negf %[[P23]] : f32
//   CHECK-DAG:     %[[I7:.*]] = arith.addi %[[R]], %[[C14]]
//   CHECK-DAG:     %[[K7:.*]] = arith.muli %[[I7]], %[[C3]]
//   CHECK-DAG:     %[[J7:.*]] = arith.addi %[[K7]], %[[F]]
//       CHECK:     memref.store %[[S7]], %[[Q]][%[[J7]]]
//   CHECK-DAG:     %[[P12:.*]] = arith.mulf %[[X1]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P21:.*]] = arith.mulf %[[X2]], %[[Y1]] : f32
//   CHECK-DAG:     %[[S9:.*]] = arith.subf %[[P12]], %[[P21]] : f32
//   CHECK-DAG:     %[[I9:.*]] = arith.addi %[[R]], %[[C18]]
//   CHECK-DAG:     %[[K9:.*]] = arith.muli %[[I9]], %[[C3]]
//   CHECK-DAG:     %[[J9:.*]] = arith.addi %[[K9]], %[[F]]
//       CHECK:     memref.store %[[S9]], %[[Q]][%[[J9]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[X3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[S10:.*]] = arith.negf %[[P33]] : f32
//   CHECK-DAG:     %[[I10:.*]] = arith.addi %[[R]], %[[C20]]
//   CHECK-DAG:     %[[K10:.*]] = arith.muli %[[I10]], %[[C3]]
//   CHECK-DAG:     %[[J10:.*]] = arith.addi %[[K10]], %[[F]]
//       CHECK:     memref.store %[[S10]], %[[Q]][%[[J10]]]
//       CHECK:   {{^ *\}$}}
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   %[[ACC:[^ ]+]]:8 = scf.for %[[FI:[^ ]+]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[A0:[^ ]+]] = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
//       CHECK:     %[[W0:.*]] = memref.load %[[W]][%[[C0]], %[[FI]], %[[OW]]]
//       CHECK:     %[[Q0:.*]] = memref.load %[[Q]]
//       CHECK:     %[[T0:.*]] = arith.mulf %[[W0]], %[[Q0]] : f32
//       CHECK:     arith.addf %[[A0]], %[[T0]] : f32
//       CHECK:     memref.load %[[W]][%[[C1]], %[[FI]], %[[OW]]]
//       CHECK:     memref.load %[[W]][%[[C9]], %[[FI]], %[[OW]]]
//   CHECK-NOT:     memref.load %[[W]]
//       CHECK:     scf.yield
//   CHECK-NOT:   gpu.barrier
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[O]], %[[C5]]
//       CHECK:   scf.if %[[IN]] {
//       CHECK:     memref.store %[[ACC]]#0, %[[Z]][%[[C0]], %{{.*}}, %[[O]]]
//       CHECK:     memref.store %[[ACC]]#3, %[[Z]][%[[C3]], %{{.*}}, %[[O]]]
//       CHECK:     memref.store %[[ACC]]#4, %[[Z]][%[[C0]], %{{.*}}, %[[O]]]
//       CHECK:     memref.store %[[ACC]]#7, %[[Z]][%[[C3]], %{{.*}}, %[[O]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @fc_cl2_k0_fc_product
//  COUNT-COUNT-16: arith.mulf
//   COUNT-NOT:     gpu.barrier
//  COUNT-COUNT-1: gpu.barrier
//  COUNT-COUNT-28: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
// The staging scf.if closes before the barrier, which is at the top level,
// followed by the loop over the input features and the guarded stores.
// NESTED-LABEL: gpu.func @fc_cl2_k0_fc_product({{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//  NESTED-NEXT: %{{.*}}:8 = scf.for {{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: gpu.return
func.func @fc_cl2(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>,
                  %w: tensor<10x3x5xf32>) -> tensor<4x2x5xf32> {
  %z = clifford.fc_product <2, 0, 0> %x, %y, %w
      : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<10x3x5xf32>)
      -> tensor<4x2x5xf32>
  return %z : tensor<4x2x5xf32>
}

// -----

// Grade RMS norm in Cl(2,0): one block per batch element, 32 threads (the
// least group) for the F = 3 features. A thread with a feature (lane < 3)
// reads its blades once and keeps them in registers (the others hold
// zeros), and sums the squares of each grade (grade 1 = e1 and e2); the
// block folds its 32 sums per grade in workgroup memory at strides 16, 8, 4,
// 2, 1 (a barrier after the stores and after each fold: 6 in all, each at
// the kernel's top level, where the whole block reaches it; no atomics);
// then sqrt(sum / F + epsilon) per grade, and each thread divides the blades
// it holds.
// CHECK-LABEL: func.func @rms_cl2
//   CHECK-DAG:   %[[N:.*]] = arith.constant 64 : i32
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 32 : index
//       CHECK:   gpu.launch_func @kernels::@rms_cl2_k0_grade_rms_norm blocks in (%[[BLOCKS]], %{{[^,]+}}, %{{[^)]+}}) threads in (%[[THREADS]], %{{[^,]+}}, %{{[^)]+}})
//  CHECK-SAME:     %[[N]] : i32)
// CHECK-LABEL: gpu.func @rms_cl2_k0_grade_rms_norm
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x3xf32>, %[[Y:.*]]: memref<4x2x3xf32>, %{{.*}}: i32) workgroup(%[[SUMS:.*]] : memref<96xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
//   CHECK-DAG:   %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
//   CHECK-DAG:   %[[F:.*]] = arith.constant 3.000000e+00 : f32
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C48:.*]] = arith.constant 48 : index
//       CHECK:   %[[T:.*]] = arith.addi
//   CHECK-DAG:   %[[LANE:.*]] = arith.remui %[[T]], %[[C32]]
//   CHECK-DAG:   %[[B:.*]] = arith.divui %[[T]], %[[C32]]
//       CHECK:   %[[HAS:.*]] = arith.cmpi ult, %[[LANE]], %[[C3]]
//       CHECK:   %[[V:.*]]:4 = scf.if %[[HAS]] -> (f32, f32, f32, f32)
//   CHECK-DAG:     %[[E1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[LANE]]]
//   CHECK-DAG:     %[[E2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[LANE]]]
//       CHECK:     scf.yield %{{.*}}, %[[E1]], %[[E2]], %{{.*}} : f32, f32, f32, f32
//       CHECK:   } else {
//       CHECK:     scf.yield %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]]
//   CHECK-DAG:   %[[E1SQ:.*]] = arith.mulf %[[V]]#1, %[[V]]#1 : f32
//   CHECK-DAG:   %[[E2SQ:.*]] = arith.mulf %[[V]]#2, %[[V]]#2 : f32
//   CHECK-DAG:   %[[PART:.*]] = arith.addf %[[E1SQ]], %[[ZERO]] : f32
//   CHECK-DAG:   %[[SUM1:.*]] = arith.addf %[[PART]], %[[E2SQ]] : f32
//   CHECK-DAG:   %[[SLOT1:.*]] = arith.addi %[[LANE]], %[[C32]]
//   CHECK-DAG:   memref.store %[[SUM1]], %[[SUMS]][%[[SLOT1]]]
//       CHECK:   gpu.barrier
//       CHECK:   %[[FOLD:.*]] = arith.cmpi ult, %[[LANE]], %[[C16]]
//       CHECK:   scf.if %[[FOLD]]
//   CHECK-DAG:     %[[MINE:.*]] = memref.load %[[SUMS]][%[[SLOT1]]]
//   CHECK-DAG:     %[[AT:.*]] = arith.addi %[[LANE]], %[[C48]]
//   CHECK-DAG:     %[[THEIRS:.*]] = memref.load %[[SUMS]][%[[AT]]]
//   CHECK-DAG:     %[[BOTH:.*]] = arith.addf %[[MINE]], %[[THEIRS]] : f32
//   CHECK-DAG:     memref.store %[[BOTH]], %[[SUMS]][%[[SLOT1]]]
//       CHECK:   gpu.barrier
//       CHECK:   %[[TOTAL1:.*]] = memref.load %[[SUMS]][%[[C32]]]
//  CHECK-NEXT:   %[[MEAN1:.*]] = arith.divf %[[TOTAL1]], %[[F]] : f32
//  CHECK-NEXT:   %[[V1:.*]] = arith.addf %[[MEAN1]], %[[EPS]] : f32
//  CHECK-NEXT:   %[[NORM1:.*]] = math.sqrt %[[V1]] : f32
//       CHECK:   %[[HAS2:.*]] = arith.cmpi ult, %[[LANE]], %[[C3]]
//       CHECK:   scf.if %[[HAS2]]
//   CHECK-DAG:     %[[Q1:.*]] = arith.divf %[[V]]#1, %[[NORM1]] : f32
//   CHECK-DAG:     memref.store %[[Q1]], %[[Y]][%[[C1]], %[[B]], %[[LANE]]]
//   CHECK-DAG:     %[[Q2:.*]] = arith.divf %[[V]]#2, %[[NORM1]] : f32
//   CHECK-DAG:     memref.store %[[Q2]], %[[Y]][%[[C2]], %[[B]], %[[LANE]]]
//       CHECK:   gpu.return
// Every barrier at the kernel's top level, none under a condition, and no
// atomics: COUNT counts the 6 barriers; NESTED puts the first after the
// scf.if that reads the features (closed, else branch included) and each
// other right after the `}` of its fold's scf.if.
// COUNT-LABEL: gpu.func @rms_cl2_k0_grade_rms_norm
//  COUNT-COUNT-6:  gpu.barrier
//   COUNT-NOT:     gpu.barrier
//   COUNT-NOT:     atomic
//       COUNT:   gpu.return
// NESTED-LABEL: gpu.func @rms_cl2_k0_grade_rms_norm({{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} -> ({{.*}}) {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: } else {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//  NESTED-NEXT: gpu.barrier
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: scf.if %{{.*}} {
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: {{^ *\}$}}
//   NESTED-NOT: {{\{$|^ *\}$|gpu.barrier}}
//       NESTED: gpu.return
func.func @rms_cl2(%x: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %y = clifford.grade_rms_norm <2, 0, 0> %x {epsilon = 1.0e-05 : f32}
      : tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}
