// RUN: uta-opt %s -split-input-file -convert-uta-to-gpu="vectorize=false" -canonicalize > %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=COUNT
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="vectorize=false" -canonicalize | FileCheck %s --check-prefix=FUSED
// RUN: uta-opt %s -split-input-file -uta-fuse-kernels=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The kernels of the ops that the gradient transformation builds: uta.sign
// and the adjoints of the clifford products. As in clifford.mlir, the
// expected terms are worked out by hand from the blade order of Cl(2,0)
// (1, e1, e2, e12; e1 e2 = e12, e2 e1 = -e12, e12 e12 = -1), loads and
// independent products are matched with CHECK-DAG and sums by their
// operands in Cayley-table order (lhs blade, then rhs blade). COUNT counts
// a kernel's products; FUSED checks the kernels of fused groups and REMARK
// the fusion decisions behind them.

// sign: two comparisons and two selects in f32, so that zeros (of either
// sign) and NaN, for which both comparisons are false, come back unchanged.
// CHECK-LABEL: gpu.func @sign_k0_sign
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[MINUS:.*]] = arith.constant -1.000000e+00 : f32
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:   scf.if
//       CHECK:     %[[H:.*]] = memref.load
//       CHECK:     %[[X:.*]] = arith.extf %[[H]] : f16 to f32
//   CHECK-DAG:     %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
//   CHECK-DAG:     %[[POS:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
//       CHECK:     %[[S:.*]] = arith.select %[[NEG]], %[[MINUS]], %[[X]] : f32
//       CHECK:     %[[R:.*]] = arith.select %[[POS]], %[[ONE]], %[[S]] : f32
//       CHECK:     %[[T:.*]] = arith.truncf %[[R]] : f32 to f16
//       CHECK:     memref.store %[[T]]
func.func @sign(%x: tensor<9xf16>) -> tensor<9xf16> {
  %y = uta.sign %x : tensor<9xf16>
  return %y : tensor<9xf16>
}

// -----

// The adjoint of the geometric product with respect to lhs: blade i of the
// result sums s * g_k * y_j over the terms e_i e_j = s e_k. One thread per
// column; y [4, 1] is read at column 0.
//   dx0 = g0 y0 + g1 y1 + g2 y2 + g3 y3
//   dx1 = g1 y0 + g0 y1 + g3 y2 + g2 y3
//   dx2 = g2 y0 - g3 y1 + g0 y2 - g1 y3
//   dx3 = g3 y0 - g2 y1 + g1 y2 - g0 y3
// CHECK-LABEL: func.func @adjoint_lhs
//       CHECK:   gpu.launch_func @kernels::@adjoint_lhs_k0_product_adjoint
//       CHECK: gpu.func @adjoint_lhs_k0_product_adjoint(%[[G:.*]]: memref<4x3xf32>, %[[Y:.*]]: memref<4x1xf32>, %[[R:.*]]: memref<4x3xf32>, %{{.*}}: i32) kernel
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[G1:.*]] = memref.load %[[G]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[G2:.*]] = memref.load %[[G]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[G3:.*]] = memref.load %[[G]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[C0]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[C0]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[C0]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[C0]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[G0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[G1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[G2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[G3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[A0:.*]] = arith.addf %[[P00]], %[[P11]] : f32
//   CHECK-DAG:     %[[A1:.*]] = arith.addf %[[A0]], %[[P22]] : f32
//   CHECK-DAG:     %[[DX0:.*]] = arith.addf %[[A1]], %[[P33]] : f32
//   CHECK-DAG:     %[[Q20:.*]] = arith.mulf %[[G2]], %[[Y0]] : f32
//   CHECK-DAG:     %[[Q31:.*]] = arith.mulf %[[G3]], %[[Y1]] : f32
//   CHECK-DAG:     %[[Q02:.*]] = arith.mulf %[[G0]], %[[Y2]] : f32
//   CHECK-DAG:     %[[Q13:.*]] = arith.mulf %[[G1]], %[[Y3]] : f32
//   CHECK-DAG:     %[[B0:.*]] = arith.subf %[[Q20]], %[[Q31]] : f32
//   CHECK-DAG:     %[[B1:.*]] = arith.addf %[[B0]], %[[Q02]] : f32
//   CHECK-DAG:     %[[DX2:.*]] = arith.subf %[[B1]], %[[Q13]] : f32
//   CHECK-DAG:     %[[R30:.*]] = arith.mulf %[[G3]], %[[Y0]] : f32
//   CHECK-DAG:     %[[R21:.*]] = arith.mulf %[[G2]], %[[Y1]] : f32
//   CHECK-DAG:     %[[R12:.*]] = arith.mulf %[[G1]], %[[Y2]] : f32
//   CHECK-DAG:     %[[R03:.*]] = arith.mulf %[[G0]], %[[Y3]] : f32
//   CHECK-DAG:     %[[D0:.*]] = arith.subf %[[R30]], %[[R21]] : f32
//   CHECK-DAG:     %[[D1:.*]] = arith.addf %[[D0]], %[[R12]] : f32
//   CHECK-DAG:     %[[DX3:.*]] = arith.subf %[[D1]], %[[R03]] : f32
//   CHECK-DAG:     memref.store %[[DX0]], %[[R]][%[[C0]], %[[T]]]
//   CHECK-DAG:     memref.store %{{.*}}, %[[R]][%[[C1]], %[[T]]]
//   CHECK-DAG:     memref.store %[[DX2]], %[[R]][%[[C2]], %[[T]]]
//   CHECK-DAG:     memref.store %[[DX3]], %[[R]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @adjoint_lhs_k0_product_adjoint
//       COUNT:   scf.if
//  COUNT-COUNT-16: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @adjoint_lhs(%g: tensor<4x3xf32>, %y: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %dx = clifford.product_adjoint <2, 0, 0> geometric lhs %g, %y
      : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %dx : tensor<4x3xf32>
}

// -----

// With respect to rhs, blade j sums s * x_i * g_k (x first):
//   dy3 = x0 g3 + x1 g2 - x2 g1 - x3 g0
// CHECK-LABEL: func.func @adjoint_rhs(
//       CHECK: gpu.func @adjoint_rhs_k0_product_adjoint(%[[G:.*]]: memref<4x3xf32>, %[[X:.*]]: memref<4x3xf32>, %[[R:.*]]: memref<4x3xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[G1:.*]] = memref.load %[[G]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[G2:.*]] = memref.load %[[G]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[G3:.*]] = memref.load %[[G]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[P03:.*]] = arith.mulf %[[X0]], %[[G3]] : f32
//   CHECK-DAG:     %[[P12:.*]] = arith.mulf %[[X1]], %[[G2]] : f32
//   CHECK-DAG:     %[[P21:.*]] = arith.mulf %[[X2]], %[[G1]] : f32
//   CHECK-DAG:     %[[P30:.*]] = arith.mulf %[[X3]], %[[G0]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P03]], %[[P12]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.subf %[[S0]], %[[P21]] : f32
//   CHECK-DAG:     %[[DY3:.*]] = arith.subf %[[S1]], %[[P30]] : f32
//   CHECK-DAG:     memref.store %[[DY3]], %[[R]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @adjoint_rhs_k0_product_adjoint
//  COUNT-COUNT-16: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @adjoint_rhs(%g: tensor<4x3xf32>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %dy = clifford.product_adjoint <2, 0, 0> geometric rhs %g, %x
      : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %dy : tensor<4x3xf32>
}

// -----

// The scalar product's cotangent has one blade, read once per thread: its
// terms are e_i e_i = s 1, so dx_i = s_i g0 y_i with s_3 = -1 (e12 e12).
// CHECK-LABEL: func.func @adjoint_scalar(
//       CHECK: gpu.func @adjoint_scalar_k0_product_adjoint(%[[G:.*]]: memref<1x3xf32>, %[[Y:.*]]: memref<4x3xf32>, %[[R:.*]]: memref<4x3xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[P:.*]] = arith.mulf %[[G0]], %[[Y3]] : f32
//   CHECK-DAG:     %[[N:.*]] = arith.negf %[[P]] : f32
//   CHECK-DAG:     memref.store %[[N]], %[[R]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @adjoint_scalar_k0_product_adjoint
//       COUNT:   memref.load %{{.*}} : memref<1x3xf32>
//   COUNT-NOT:   memref<1x3xf32>
//  COUNT-COUNT-4: arith.mulf
//   COUNT-NOT:     {{arith.mulf|memref<1x3xf32>}}
//       COUNT:   gpu.return
func.func @adjoint_scalar(%g: tensor<1x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %dx = clifford.product_adjoint <2, 0, 0> scalar lhs %g, %y
      : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %dx : tensor<4x3xf32>
}

// -----

// The outer product and the left contraction keep 27 of the 64 terms of
// Cl(3,0) (pairs of blades with disjoint vectors; lhs vectors inside the rhs
// ones), and so do their adjoints.
// COUNT-LABEL: gpu.func @adjoint_grades_k0_product_adjoint
//  COUNT-COUNT-27: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
// COUNT-LABEL: gpu.func @adjoint_grades_k1_product_adjoint
//  COUNT-COUNT-27: arith.mulf
//   COUNT-NOT:     arith.mulf
//       COUNT:   gpu.return
func.func @adjoint_grades(%g: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> (tensor<8x5xf32>, tensor<8x5xf32>) {
  %a = clifford.product_adjoint <3, 0, 0> outer lhs %g, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  %b = clifford.product_adjoint <3, 0, 0> left_contraction rhs %g, %y
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %a, %b : tensor<8x5xf32>, tensor<8x5xf32>
}

// -----

// The blade sets that clifford-simplify-grades records on an adjoint leave
// out the terms of the zero blades: with a bivector cotangent and a vector
// y, x's adjoint keeps the 9 terms e_i e_j -> e_k of Cl(3,0) with j a vector
// and k a bivector (i a vector other than j, or e123) of the 64, and reads
// only those blades; the scalar and the bivectors of the result are 0.
// COUNT-LABEL: gpu.func @adjoint_pruned_k0_product_adjoint
//  COUNT-COUNT-9: arith.mulf
//   COUNT-NOT:    arith.mulf
//       COUNT:   gpu.return
// CHECK-LABEL: func.func @adjoint_pruned(
//       CHECK: gpu.func @adjoint_pruned_k0_product_adjoint(%[[G:.*]]: memref<8x5xf32>, %[[Y:.*]]: memref<8x5xf32>, %[[R:.*]]: memref<8x5xf32>
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//       CHECK:   scf.if
//   CHECK-NOT:     memref.load %[[G]][%[[C0]]
//   CHECK-DAG:     %[[G4:.*]] = memref.load %[[G]][%[[C4]], %{{.*}}]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %{{.*}}]
//   CHECK-DAG:     %[[G5:.*]] = memref.load %[[G]][%[[C5]], %{{.*}}]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %{{.*}}]
//   CHECK-DAG:     %[[P4:.*]] = arith.mulf %[[G4]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P5:.*]] = arith.mulf %[[G5]], %[[Y3]] : f32
//       CHECK:     %[[DX1:.*]] = arith.addf %[[P4]], %[[P5]] : f32
//       CHECK:     memref.store %[[ZERO]], %[[R]][%[[C0]], %{{.*}}]
//       CHECK:     memref.store %[[DX1]], %[[R]]
//       CHECK:   gpu.return
func.func @adjoint_pruned(%g: tensor<8x5xf32>, %y: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %a = clifford.product_adjoint <3, 0, 0> geometric lhs %g, %y
      {cotangent_blades = #clifford.blades<4, 5, 6>,
       other_blades = #clifford.blades<1, 2, 3>}
      : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %a : tensor<8x5xf32>
}

// -----

// weighted_product's adjoint with a scalar cotangent and a vector y in
// Cl(2,0): dx1 = w[f,3] g0 y1 and dx2 = w[f,3] g0 y2 (path 3, (1,0,1)), two
// products and two weightings instead of the 16 terms; one weight read.
// COUNT-LABEL: gpu.func @weighted_pruned_k0_weighted_product_adjoint
//  COUNT-COUNT-4: arith.mulf
//   COUNT-NOT:    arith.mulf
//       COUNT:   gpu.return
// CHECK-LABEL: func.func @weighted_pruned(
//       CHECK: gpu.func @weighted_pruned_k0_weighted_product_adjoint(%[[G:.*]]: memref<4x3x5xf32>, %[[Y:.*]]: memref<4x3x5xf32>, %[[W:.*]]: memref<5x10xf32>, %[[R:.*]]: memref<4x3x5xf32>
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   scf.if
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     %[[B:.*]] = arith.divui
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[W3:.*]] = memref.load %[[W]][%[[F]], %[[C3]]]
//   CHECK-DAG:     %[[P1:.*]] = arith.mulf %[[G0]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P2:.*]] = arith.mulf %[[G0]], %[[Y2]] : f32
//   CHECK-DAG:     %[[DX1:.*]] = arith.mulf %[[W3]], %[[P1]] : f32
//   CHECK-DAG:     %[[DX2:.*]] = arith.mulf %[[W3]], %[[P2]] : f32
//   CHECK-NOT:     memref.load
//       CHECK:     memref.store %[[ZERO]], %[[R]][%[[C0]], %[[B]], %[[F]]]
//       CHECK:     memref.store %[[DX1]], %[[R]][%[[C1]], %[[B]], %[[F]]]
//       CHECK:     memref.store %[[DX2]], %[[R]][%[[C2]], %[[B]], %[[F]]]
//       CHECK:     memref.store %[[ZERO]], %[[R]][%[[C3]], %[[B]], %[[F]]]
//       CHECK:   gpu.return
func.func @weighted_pruned(%g: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %dx = clifford.weighted_product_adjoint <2, 0, 0> lhs %g, %y, %w
      {cotangent_blades = #clifford.blades<0>,
       other_blades = #clifford.blades<1, 2>}
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// weighted_product's adjoint with respect to rhs groups each blade's terms
// by path and multiplies each group by its weight w[f, p] once. Paths of
// Cl(2,0) by (grade x, grade z, grade y): 0 (0,0,0), 4 (1,1,0), 9 (2,2,0),
// so dy0 = w[f,0] x0 g0 + w[f,4] (x1 g1 + x2 g2) + w[f,9] x3 g3.
// CHECK-LABEL: func.func @weighted_rhs(
//       CHECK: gpu.func @weighted_rhs_k0_weighted_product_adjoint(%[[G:.*]]: memref<4x3x5xf32>, %[[X:.*]]: memref<4x3x5xf32>, %[[W:.*]]: memref<5x10xf32>, %[[R:.*]]: memref<4x3x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
//       CHECK:   scf.if
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     %[[B:.*]] = arith.divui
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[G1:.*]] = memref.load %[[G]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[G2:.*]] = memref.load %[[G]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[G3:.*]] = memref.load %[[G]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[W0:.*]] = memref.load %[[W]][%[[F]], %[[C0]]]
//   CHECK-DAG:     %[[W4:.*]] = memref.load %[[W]][%[[F]], %[[C4]]]
//   CHECK-DAG:     %[[W9:.*]] = memref.load %[[W]][%[[F]], %[[C9]]]
//   CHECK-DAG:     %[[P0:.*]] = arith.mulf %[[X0]], %[[G0]] : f32
//   CHECK-DAG:     %[[P1:.*]] = arith.mulf %[[X1]], %[[G1]] : f32
//   CHECK-DAG:     %[[P2:.*]] = arith.mulf %[[X2]], %[[G2]] : f32
//   CHECK-DAG:     %[[P3:.*]] = arith.mulf %[[X3]], %[[G3]] : f32
//   CHECK-DAG:     %[[WP0:.*]] = arith.mulf %[[W0]], %[[P0]] : f32
//   CHECK-DAG:     %[[S4:.*]] = arith.addf %[[P1]], %[[P2]] : f32
//   CHECK-DAG:     %[[WP4:.*]] = arith.mulf %[[W4]], %[[S4]] : f32
//   CHECK-DAG:     %[[WP9:.*]] = arith.mulf %[[W9]], %[[P3]] : f32
//   CHECK-DAG:     %[[A:.*]] = arith.addf %[[WP0]], %[[WP4]] : f32
//   CHECK-DAG:     %[[DY0:.*]] = arith.addf %[[A]], %[[WP9]] : f32
//   CHECK-DAG:     memref.store %[[DY0]], %[[R]][%[[C0]], %[[B]], %[[F]]]
//       CHECK:   gpu.return
// Each of the 10 weights is loaded once per thread, however many blades
// use it (dy1 and dy2 both use paths 1, 3, 6 and 8).
// COUNT-LABEL: gpu.func @weighted_rhs_k0_weighted_product_adjoint
//  COUNT-COUNT-10: memref.load %{{.*}} : memref<5x10xf32>
//   COUNT-NOT:     memref.load %{{.*}} : memref<5x10xf32>
//       COUNT:   gpu.return
func.func @weighted_rhs(%g: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %dy = clifford.weighted_product_adjoint <2, 0, 0> rhs %g, %x, %w
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  return %dy : tensor<4x3x5xf32>
}

// -----

// path_adjoint writes one value per path (10 in Cl(2,0)) at each (b, f):
// the terms on the path, grouped by result blade k and multiplied by g_k.
// Path 3 is (1,0,1): e1 e1 = e2 e2 = 1, so t3 = g0 (x1 y1 + x2 y2).
// CHECK-LABEL: func.func @paths(
//       CHECK: gpu.func @paths_k0_path_adjoint(%[[G:.*]]: memref<4x3x5xf32>, %[[X:.*]]: memref<4x3x5xf32>, %[[Y:.*]]: memref<4x3x5xf32>, %[[R:.*]]: memref<10x3x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   scf.if
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     %[[B:.*]] = arith.divui
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[P1:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P2:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[S:.*]] = arith.addf %[[P1]], %[[P2]] : f32
//   CHECK-DAG:     %[[T3:.*]] = arith.mulf %[[G0]], %[[S]] : f32
//   CHECK-DAG:     memref.store %[[T3]], %[[R]][%[[C3]], %[[B]], %[[F]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @paths_k0_path_adjoint
//  COUNT-COUNT-10: memref.store
//   COUNT-NOT:     memref.store
//       COUNT:   gpu.return
func.func @paths(%g: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>) -> tensor<10x3x5xf32> {
  %t = clifford.path_adjoint <2, 0, 0> %g, %x, %y
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
  return %t : tensor<10x3x5xf32>
}

// -----

// With batch_chunk = 2 a thread handles (chunk, f): a loop from 2 chunk to
// min(2 chunk + 2, B) over the batch elements, keeping the 10 path sums.
// CHECK-LABEL: func.func @paths_chunked(
//       CHECK: gpu.func @paths_chunked_k0_path_adjoint(%[[G:.*]]: memref<4x5x3xf32>, %{{.*}}: memref<4x5x3xf32>, %{{.*}}: memref<4x5x3xf32>, %[[R:.*]]: memref<10x3x3xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:   scf.if
//       CHECK:     %[[F:.*]] = arith.remui
//       CHECK:     %[[CHUNK:.*]] = arith.divui
//       CHECK:     %[[FIRST:.*]] = arith.muli %[[CHUNK]], %[[C2]] : index
//       CHECK:     %[[NEXT:.*]] = arith.addi %[[FIRST]], %[[C2]] : index
//       CHECK:     %[[END:.*]] = arith.minui %[[NEXT]], %[[C5]] : index
//       CHECK:     %[[SUMS:.*]]:10 = scf.for %[[B:[a-z0-9_]+]] = %[[FIRST]] to %[[END]] step %[[C1]] iter_args(%[[S0:[a-z0-9_]+]] = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
//       CHECK:       %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[B]], %[[F]]]
//       CHECK:       %[[T0:.*]] = arith.mulf %[[G0]], %{{.*}} : f32
//       CHECK:       %[[A0:.*]] = arith.addf %[[S0]], %[[T0]] : f32
//       CHECK:       scf.yield %[[A0]],
//       CHECK:     }
//       CHECK:     memref.store %[[SUMS]]#0, %[[R]][%[[C0]], %[[CHUNK]], %[[F]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @paths_chunked_k0_path_adjoint
//  COUNT-COUNT-10: memref.store
//   COUNT-NOT:     memref.store
//       COUNT:   gpu.return
func.func @paths_chunked(%g: tensor<4x5x3xf32>, %x: tensor<4x5x3xf32>, %y: tensor<4x5x3xf32>) -> tensor<10x3x3xf32> {
  %t = clifford.path_adjoint <2, 0, 0> %g, %x, %y {batch_chunk = 2}
      : (tensor<4x5x3xf32>, tensor<4x5x3xf32>, tensor<4x5x3xf32>) -> tensor<10x3x3xf32>
  return %t : tensor<10x3x3xf32>
}

// -----

// Fused: a pointwise producer of the one-blade cotangent is recomputed once
// per position (its only blade), a clifford producer of the other operand a
// multivector at a time; one kernel. The cost model counts the cotangent's
// positions along its own blade axis of size 1, not as elements over 2^n.
// REMARK: [[@LINE+10]]:8: remark: fused into 'clifford.product_adjoint': it is computed once per position either way
// REMARK: [[@LINE+10]]:8: remark: fused into 'clifford.product_adjoint': computing it 3 times per position
// FUSED-LABEL: func.func @fused_adjoint
//       FUSED:   gpu.launch_func @kernels::@fused_adjoint_k0_product_adjoint
//   FUSED-NOT:   gpu.launch_func
// FUSED-LABEL: gpu.func @fused_adjoint_k0_product_adjoint(%{{.*}}: memref<1x3xf32>, %{{.*}}: memref<4x1xf32>, %{{.*}}: memref<4x3xf32>
//       FUSED:   math.tanh
//   FUSED-NOT:   math.tanh
//       FUSED:   gpu.return
func.func @fused_adjoint(%s: tensor<1x3xf32>, %y: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %g = uta.tanh %s : tensor<1x3xf32>
  %r = clifford.reverse <2, 0, 0> %y : tensor<4x1xf32>
  %dx = clifford.product_adjoint <2, 0, 0> scalar lhs %g, %r
      : (tensor<1x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return %dx : tensor<4x3xf32>
}

// -----

// path_adjoint reads each position of its operands once (one thread per
// (b, f)), so its bladewise and pointwise producers are recomputed in its
// kernel: the gate of lhs a multivector at a time (one erf per position),
// the tanh of the cotangent blade by blade. It is still a kernel of its
// own for the reduction that sums it over the batch. Path 0 is (0,0,0):
// t0 = g0 gx0 y0.
// FUSED-LABEL: func.func @fused_path_adjoint
//   FUSED-NOT:   gpu.launch_func
//       FUSED:   gpu.launch_func @kernels::@fused_path_adjoint_k0_path_adjoint
//  FUSED-NEXT:   memref.alloc
//  FUSED-NEXT:   gpu.launch_func @kernels::@fused_path_adjoint_k1_reduce_sum
//  FUSED-NEXT:   return
// FUSED-LABEL: gpu.func @fused_path_adjoint_k0_path_adjoint(
//  FUSED-SAME:     %[[S:.*]]: memref<4x3x5xf32>, %[[X:.*]]: memref<4x3x5xf32>, %[[Y:.*]]: memref<4x3x5xf32>, %[[R:.*]]: memref<10x3x5xf32>, %{{.*}}: i32) kernel
//   FUSED-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
//   FUSED-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   FUSED-DAG:   %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
//   FUSED-DAG:   %[[C0:.*]] = arith.constant 0 : index
//       FUSED:   scf.if
//       FUSED:     %[[F:.*]] = arith.remui
//  FUSED-NEXT:     %[[B:.*]] = arith.divui
//  FUSED-NEXT:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:     %[[SCALED:.*]] = arith.mulf %[[X0]], %[[RSQRT2]] : f32
//  FUSED-NEXT:     %[[ERF:.*]] = math.erf %[[SCALED]] : f32
//  FUSED-NEXT:     %[[ERF1:.*]] = arith.addf %[[ERF]], %[[ONE]] : f32
//  FUSED-NEXT:     %[[GATE:.*]] = arith.mulf %[[ERF1]], %[[HALF]] : f32
//  FUSED-NEXT:     %[[GX0:.*]] = arith.mulf %[[X0]], %[[GATE]] : f32
//   FUSED-NOT:     {{math.tanh|math.erf}}
//       FUSED:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:     %[[P00:.*]] = arith.mulf %[[GX0]], %[[Y0]] : f32
//   FUSED-NOT:     {{math.tanh|math.erf}}
//       FUSED:     %[[S0:.*]] = memref.load %[[S]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:     %[[G0:.*]] = math.tanh %[[S0]] : f32
//  FUSED-NEXT:     %[[T0:.*]] = arith.mulf %[[G0]], %[[P00]] : f32
//  FUSED-COUNT-3:  math.tanh
//   FUSED-NOT:     {{math.tanh|math.erf}}
//       FUSED:     memref.store %[[T0]], %[[R]][%[[C0]], %[[B]], %[[F]]]
//   FUSED-NOT:     {{math.tanh|math.erf}}
//       FUSED:   gpu.return
// REMARK: [[@LINE+6]]:8: remark: not fused into 'uta.reduce_sum': 'clifford.path_adjoint' is always a kernel of its own
// REMARK: [[@LINE+3]]:8: remark: fused into 'clifford.path_adjoint': it is computed once per position either way
// REMARK: [[@LINE+3]]:9: remark: fused into 'clifford.path_adjoint': it is computed once per position either way
func.func @fused_path_adjoint(%s: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>) -> tensor<10x5xf32> {
  %g = uta.tanh %s : tensor<4x3x5xf32>
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x3x5xf32>
  %t = clifford.path_adjoint <2, 0, 0> %g, %gx, %y
      : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> tensor<10x3x5xf32>
  %w = uta.reduce_sum %t dims [1] : tensor<10x3x5xf32> -> tensor<10x5xf32>
  return %w : tensor<10x5xf32>
}

// -----

// With batch_chunk = 2 the gates of lhs and rhs are recomputed inside the
// loop over the thread's run of batch elements, once per element (two erfs
// per iteration, none outside the loop), and the 10 path sums stored after
// it: t0 += g0 gx0 gy0.
// FUSED-LABEL: func.func @fused_path_adjoint_chunked
//   FUSED-NOT:   gpu.launch_func
//       FUSED:   gpu.launch_func @kernels::@fused_path_adjoint_chunked_k0_path_adjoint
//  FUSED-NEXT:   memref.alloc
//  FUSED-NEXT:   gpu.launch_func @kernels::@fused_path_adjoint_chunked_k1_reduce_sum
//  FUSED-NEXT:   return
// FUSED-LABEL: gpu.func @fused_path_adjoint_chunked_k0_path_adjoint(
//  FUSED-SAME:     %[[X:.*]]: memref<4x5x3xf32>, %[[Y:.*]]: memref<4x5x3xf32>, %[[G:.*]]: memref<4x5x3xf32>, %[[R:.*]]: memref<10x3x3xf32>, %{{.*}}: i32) kernel
//   FUSED-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
//   FUSED-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   FUSED-DAG:   %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
//   FUSED-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   FUSED-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   FUSED-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   FUSED-DAG:   %[[C5:.*]] = arith.constant 5 : index
//   FUSED-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   FUSED-NOT:   math.erf
//       FUSED:   scf.if
//       FUSED:     %[[F:.*]] = arith.remui
//  FUSED-NEXT:     %[[CHUNK:.*]] = arith.divui
//  FUSED-NEXT:     %[[FIRST:.*]] = arith.muli %[[CHUNK]], %[[C2]] : index
//  FUSED-NEXT:     %[[NEXT:.*]] = arith.addi %[[FIRST]], %[[C2]] : index
//  FUSED-NEXT:     %[[END:.*]] = arith.minui %[[NEXT]], %[[C5]] : index
//  FUSED-NEXT:     %[[SUMS:.*]]:10 = scf.for %[[B:[a-z0-9_]+]] = %[[FIRST]] to %[[END]] step %[[C1]] iter_args(%[[S0:[a-z0-9_]+]] = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
//  FUSED-NEXT:       %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:       %[[XS:.*]] = arith.mulf %[[X0]], %[[RSQRT2]] : f32
//  FUSED-NEXT:       %[[XERF:.*]] = math.erf %[[XS]] : f32
//  FUSED-NEXT:       %[[XERF1:.*]] = arith.addf %[[XERF]], %[[ONE]] : f32
//  FUSED-NEXT:       %[[XGATE:.*]] = arith.mulf %[[XERF1]], %[[HALF]] : f32
//  FUSED-NEXT:       %[[GX0:.*]] = arith.mulf %[[X0]], %[[XGATE]] : f32
//   FUSED-NOT:       math.erf
//       FUSED:       %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:       %[[YS:.*]] = arith.mulf %[[Y0]], %[[RSQRT2]] : f32
//  FUSED-NEXT:       %[[YERF:.*]] = math.erf %[[YS]] : f32
//  FUSED-NEXT:       %[[YERF1:.*]] = arith.addf %[[YERF]], %[[ONE]] : f32
//  FUSED-NEXT:       %[[YGATE:.*]] = arith.mulf %[[YERF1]], %[[HALF]] : f32
//  FUSED-NEXT:       %[[GY0:.*]] = arith.mulf %[[Y0]], %[[YGATE]] : f32
//   FUSED-NOT:       math.erf
//       FUSED:       %[[P00:.*]] = arith.mulf %[[GX0]], %[[GY0]] : f32
//   FUSED-NOT:       math.erf
//       FUSED:       %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[B]], %[[F]]]
//  FUSED-NEXT:       %[[T0:.*]] = arith.mulf %[[G0]], %[[P00]] : f32
//   FUSED-NOT:       math.erf
//       FUSED:       %[[A0:.*]] = arith.addf %[[S0]], %[[T0]] : f32
//       FUSED:       scf.yield %[[A0]],
//  FUSED-NEXT:     }
//  FUSED-NEXT:     memref.store %[[SUMS]]#0, %[[R]][%[[C0]], %[[CHUNK]], %[[F]]]
//   FUSED-NOT:     math.erf
//       FUSED:   gpu.return
// REMARK: [[@LINE+6]]:8: remark: not fused into 'uta.reduce_sum': 'clifford.path_adjoint' is always a kernel of its own
// REMARK: [[@LINE+3]]:9: remark: fused into 'clifford.path_adjoint': it is computed once per position either way
// REMARK: [[@LINE+3]]:9: remark: fused into 'clifford.path_adjoint': it is computed once per position either way
func.func @fused_path_adjoint_chunked(%g: tensor<4x5x3xf32>, %x: tensor<4x5x3xf32>, %y: tensor<4x5x3xf32>) -> tensor<10x3xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x5x3xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x5x3xf32>
  %t = clifford.path_adjoint <2, 0, 0> %g, %gx, %gy {batch_chunk = 2}
      : (tensor<4x5x3xf32>, tensor<4x5x3xf32>, tensor<4x5x3xf32>) -> tensor<10x3x3xf32>
  %w = uta.reduce_sum %t dims [1] : tensor<10x3x3xf32> -> tensor<10x3xf32>
  return %w : tensor<10x3xf32>
}

// -----

// scalar_gate_adjoint: one thread per position. With s = x0, the gate
// Phi(s) = 0.5 (1 + erf(s / sqrt 2)) scales every blade of g, and blade 0
// also gets phi(s) <g, x>, phi(s) = exp(-s^2 / 2) / sqrt(2 pi) and the dot
// product summed over the blades in order.
// CHECK-LABEL: func.func @gate_adjoint(
//       CHECK: gpu.func @gate_adjoint_k0_scalar_gate_adjoint(%[[G:.*]]: memref<4x3xf32>, %[[X:.*]]: memref<4x3xf32>, %[[R:.*]]: memref<4x3xf32>, %{{.*}}: i32) kernel
//   CHECK-DAG:   %[[DENSITY:.*]] = arith.constant 0.398942292 : f32
//   CHECK-DAG:   %[[MINUS_HALF:.*]] = arith.constant -5.000000e-01 : f32
//   CHECK-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//       CHECK:     %[[S:.*]] = memref.load %[[X]][%[[C0]], %[[T]]]
//       CHECK:     %[[SCALED:.*]] = arith.mulf %[[S]], %[[RSQRT2]] : f32
//       CHECK:     %[[ERF:.*]] = math.erf %[[SCALED]] : f32
//       CHECK:     %[[ERF1:.*]] = arith.addf %[[ERF]], %[[ONE]] : f32
//       CHECK:     %[[GATE:.*]] = arith.mulf %[[ERF1]], %[[HALF]] : f32
//   CHECK-DAG:     %[[G0:.*]] = memref.load %[[G]][%[[C0]], %[[T]]]
//   CHECK-DAG:     %[[G1:.*]] = memref.load %[[G]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[G2:.*]] = memref.load %[[G]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[G3:.*]] = memref.load %[[G]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[T]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[T]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[T]]]
//   CHECK-DAG:     %[[P0:.*]] = arith.mulf %[[G0]], %[[S]] : f32
//   CHECK-DAG:     %[[P1:.*]] = arith.mulf %[[G1]], %[[X1]] : f32
//   CHECK-DAG:     %[[P2:.*]] = arith.mulf %[[G2]], %[[X2]] : f32
//   CHECK-DAG:     %[[P3:.*]] = arith.mulf %[[G3]], %[[X3]] : f32
//       CHECK:     %[[SS:.*]] = arith.mulf %[[S]], %[[S]] : f32
//       CHECK:     %[[EXPONENT:.*]] = arith.mulf %[[SS]], %[[MINUS_HALF]] : f32
//       CHECK:     %[[E:.*]] = math.exp %[[EXPONENT]] : f32
//       CHECK:     %[[PHI:.*]] = arith.mulf %[[E]], %[[DENSITY]] : f32
//       CHECK:     %[[D01:.*]] = arith.addf %[[P0]], %[[P1]] : f32
//       CHECK:     %[[D012:.*]] = arith.addf %[[D01]], %[[P2]] : f32
//       CHECK:     %[[DOT:.*]] = arith.addf %[[D012]], %[[P3]] : f32
//       CHECK:     %[[SLOPE:.*]] = arith.mulf %[[PHI]], %[[DOT]] : f32
//   CHECK-DAG:     %[[R0:.*]] = arith.mulf %[[G0]], %[[GATE]] : f32
//   CHECK-DAG:     %[[R3:.*]] = arith.mulf %[[G3]], %[[GATE]] : f32
//       CHECK:     %[[DX0:.*]] = arith.addf %[[R0]], %[[SLOPE]] : f32
//       CHECK:     memref.store %[[DX0]], %[[R]][%[[C0]], %[[T]]]
//       CHECK:     memref.store %{{.*}}, %[[R]][%[[C1]], %[[T]]]
//       CHECK:     memref.store %{{.*}}, %[[R]][%[[C2]], %[[T]]]
//       CHECK:     memref.store %[[R3]], %[[R]][%[[C3]], %[[T]]]
//       CHECK:   gpu.return
// Each blade of each operand is read once per position.
// COUNT-LABEL: gpu.func @gate_adjoint_k0_scalar_gate_adjoint
//   COUNT-COUNT-8: memref.load
//   COUNT-NOT:     memref.load
//       COUNT:   gpu.return
func.func @gate_adjoint(%g: tensor<4x3xf32>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %dx = clifford.scalar_gate_adjoint <2, 0, 0> %g, %x : tensor<4x3xf32>
  return %dx : tensor<4x3xf32>
}

// -----

// With the blades last, a thread's position is its row and the scalar blade
// is column 0.
// CHECK-LABEL: func.func @gate_adjoint_blades_last(
//       CHECK: gpu.func @gate_adjoint_blades_last_k0_scalar_gate_adjoint(%[[G:.*]]: memref<5x4xf32>, %[[X:.*]]: memref<5x4xf32>, %[[R:.*]]: memref<5x4xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//       CHECK:   %[[T:.*]] = arith.addi
//       CHECK:   scf.if
//       CHECK:     %[[S:.*]] = memref.load %[[X]][%[[T]], %[[C0]]]
//       CHECK:     math.erf
//       CHECK:     memref.store %{{.*}}, %[[R]][%[[T]], %[[C0]]]
func.func @gate_adjoint_blades_last(%g: tensor<5x4xf32>, %x: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %dx = clifford.scalar_gate_adjoint <2, 0, 0> %g, %x {blade_axis = 1} : tensor<5x4xf32>
  return %dx : tensor<5x4xf32>
}

// -----

// grade_rms_norm_adjoint: one block of 32 threads per batch element (F = 5).
// One pass reads g and x and keeps, per grade, a sum of x^2 and a sum of
// g x; the block adds the 2 x 3 sums in one fixed tree in workgroup memory
// (5 halving folds, a barrier after each, no atomics); then per grade
// r = 1 / sqrt(sum / F + epsilon), k = r^2 (sum of g x) / F, and every blade
// is r (g - x k) from the values held in registers.
// CHECK-LABEL: func.func @norm_adjoint(
//       CHECK:   gpu.launch_func @kernels::@norm_adjoint_k0_grade_rms_norm_adjoint blocks in (%[[C3:.*]], %{{.*}}, %{{.*}}) threads in (%[[C32:.*]], %{{.*}}, %{{.*}})
//       CHECK: gpu.func @norm_adjoint_k0_grade_rms_norm_adjoint(%[[G:.*]]: memref<4x3x5xf32>, %[[X:.*]]: memref<4x3x5xf32>, %[[R:.*]]: memref<4x3x5xf32>, %{{.*}}: i32) workgroup(%[[SUMS:.*]] : memref<192xf32, #gpu.address_space<workgroup>>) kernel
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[EPS:.*]] = arith.constant 9.99999997E-7 : f32
//   CHECK-DAG:   %[[F:.*]] = arith.constant 5.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C96:.*]] = arith.constant 96 : index
//       CHECK:   %[[LANE:.*]] = arith.remui
//       CHECK:   %[[B:.*]] = arith.divui
//       CHECK:   %[[V:.*]]:8 = scf.if
//   CHECK-DAG:     memref.load %[[G]][%[[C0]], %[[B]], %[[LANE]]]
//   CHECK-DAG:     memref.load %[[X]][%[[C0]], %[[B]], %[[LANE]]]
//       CHECK:   %[[XX0:.*]] = arith.mulf %[[V]]#4, %[[V]]#4 : f32
//       CHECK:   %[[SQ0:.*]] = arith.addf %[[XX0]], %{{.*}} : f32
//       CHECK:   %[[GX0:.*]] = arith.mulf %[[V]]#0, %[[V]]#4 : f32
//       CHECK:   %[[PR0:.*]] = arith.addf %[[GX0]], %{{.*}} : f32
//       CHECK:   memref.store %[[SQ0]], %[[SUMS]][%[[LANE]]]
//       CHECK:   %[[SLOT3:.*]] = arith.addi %[[LANE]], %[[C96]] : index
//       CHECK:   memref.store %[[PR0]], %[[SUMS]][%[[SLOT3]]]
//       CHECK:   gpu.barrier
//  CHECK-COUNT-5:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
//       CHECK:   %[[TOTAL0:.*]] = memref.load %[[SUMS]][%[[C0]]]
//       CHECK:   %[[MEAN0:.*]] = arith.divf %[[TOTAL0]], %[[F]] : f32
//       CHECK:   %[[SHIFTED0:.*]] = arith.addf %[[MEAN0]], %[[EPS]] : f32
//       CHECK:   %[[NORM0:.*]] = math.sqrt %[[SHIFTED0]] : f32
//       CHECK:   %[[R0:.*]] = arith.divf %[[ONE]], %[[NORM0]] : f32
//       CHECK:   %[[TOTALGX0:.*]] = memref.load %[[SUMS]][%[[C96]]]
//       CHECK:   %[[C0MEAN:.*]] = arith.divf %[[TOTALGX0]], %[[F]] : f32
//       CHECK:   %[[RR0:.*]] = arith.mulf %[[R0]], %[[R0]] : f32
//       CHECK:   %[[K0:.*]] = arith.mulf %[[RR0]], %[[C0MEAN]] : f32
//       CHECK:   scf.if
//       CHECK:     %[[XK:.*]] = arith.mulf %[[V]]#4, %[[K0]] : f32
//       CHECK:     %[[CENTRED:.*]] = arith.subf %[[V]]#0, %[[XK]] : f32
//       CHECK:     %[[DX:.*]] = arith.mulf %[[R0]], %[[CENTRED]] : f32
//       CHECK:     memref.store %[[DX]], %[[R]][%[[C0]], %[[B]], %[[LANE]]]
//       CHECK:   gpu.return
// Nothing but barriers and workgroup memory combines the threads.
// COUNT-LABEL: gpu.func @norm_adjoint_k0_grade_rms_norm_adjoint
//   COUNT-NOT:     atomic
//   COUNT-COUNT-8: memref.load %{{.*}} : memref<4x3x5xf32>
//   COUNT-NOT:     memref.load %{{.*}} : memref<4x3x5xf32>
//   COUNT-COUNT-4: memref.store %{{.*}} : memref<4x3x5xf32>
//   COUNT-NOT:     atomic
//       COUNT:   gpu.return
func.func @norm_adjoint(%g: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>) -> tensor<4x3x5xf32> {
  %dx = clifford.grade_rms_norm_adjoint <2, 0, 0> %g, %x : tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// The backward of the SGP layer's lhs gate, one kernel: weighted_product's
// adjoint is recomputed a multivector at a time inside the gate's adjoint,
// and the rhs gate inside it: two erfs per position, the rhs gate's and the
// gate adjoint's own.
// REMARK: [[@LINE+11]]:8: remark: fused into 'clifford.scalar_gate_adjoint': it is computed once per position either way
// REMARK: [[@LINE+9]]:9: remark: fused into 'clifford.weighted_product_adjoint': it is computed once per position either way
// FUSED-LABEL: func.func @fused_gate_adjoint
//       FUSED:   gpu.launch_func @kernels::@fused_gate_adjoint_k0_scalar_gate_adjoint
//   FUSED-NOT:   gpu.launch_func
// FUSED-LABEL: gpu.func @fused_gate_adjoint_k0_scalar_gate_adjoint(
//  FUSED-COUNT-2:   math.erf
//   FUSED-NOT:   math.erf
//       FUSED:   gpu.return
func.func @fused_gate_adjoint(%c: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x3x5xf32>
  %g = clifford.weighted_product_adjoint <2, 0, 0> lhs %c, %gy, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  %dx = clifford.scalar_gate_adjoint <2, 0, 0> %g, %x : tensor<4x3x5xf32>
  return %dx : tensor<4x3x5xf32>
}

// -----

// The backward of the SGP layer's norm, one kernel: its input, the weighted
// product of two gates, is recomputed inside the norm's adjoint. The
// adjoint reads it in two passes over the features, but each thread keeps
// the values of its features in registers between them (one round of 2 * 4
// values; passes/Analysis/GradeNormLayout.h), so the cost model counts one
// computation per position and the gates are computed once each.
// REMARK: [[@LINE+13]]:8: remark: fused into 'clifford.grade_rms_norm_adjoint': it is computed once per position either way
// REMARK: [[@LINE+10]]:9: remark: fused into 'clifford.weighted_product': it is computed once per position either way
// REMARK: [[@LINE+10]]:9: remark: fused into 'clifford.weighted_product': it is computed once per position either way
// FUSED-LABEL: func.func @fused_norm_adjoint
//       FUSED:   gpu.launch_func @kernels::@fused_norm_adjoint_k0_grade_rms_norm_adjoint
//   FUSED-NOT:   gpu.launch_func
// FUSED-LABEL: gpu.func @fused_norm_adjoint_k0_grade_rms_norm_adjoint(
//  FUSED-COUNT-2:   math.erf
//   FUSED-NOT:   math.erf
//       FUSED:   gpu.return
func.func @fused_norm_adjoint(%g: tensor<4x3x5xf32>, %x: tensor<4x3x5xf32>, %y: tensor<4x3x5xf32>, %w: tensor<5x10xf32>) -> tensor<4x3x5xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x3x5xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x3x5xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w : (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<5x10xf32>) -> tensor<4x3x5xf32>
  %dp = clifford.grade_rms_norm_adjoint <2, 0, 0> %g, %p : tensor<4x3x5xf32>
  return %dp : tensor<4x3x5xf32>
}
