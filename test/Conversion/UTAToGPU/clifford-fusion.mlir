// RUN: uta-opt %s -split-input-file -uta-fuse-kernels -convert-uta-to-gpu="vectorize=false" -canonicalize > %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=COUNT
// RUN: FileCheck %s --input-file=%t --check-prefix=ERF

// Fused clifford kernels recompute their producers where they are read: a
// multivector at a time when the reader takes every blade of a position,
// element by element otherwise. The terms are worked out by hand from the
// dialect's blade order (Cl(2,0): 1, e1, e2, e12).

// The SGP layer in Cl(2,0) is one kernel with no intermediate buffer: one
// block of 32 threads per batch element (B = 2). A thread with a feature f
// (lane < F = 3) computes once, in registers, the gates gx_i = x_i Phi(x_0)
// with one erf per operand, then the weighted product of the gated blades,
// e.g. z0 = w[f,0] gx0 gy0 + w[f,3] (gx1 gy1 + gx2 gy2) + w[f,7] (-gx3 gy3),
// whose square starts grade 0's sum; after the block's sums it divides the
// blades it holds, without reading or recomputing anything again.
// CHECK-LABEL: func.func @sgp_cl2
//   CHECK-DAG:   %[[N:.*]] = arith.constant 64 : i32
//   CHECK-DAG:   %[[BLOCKS:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 32 : index
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<4x2x3xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   gpu.launch_func @kernels::@sgp_cl2_k0_grade_rms_norm blocks in (%[[BLOCKS]], %{{[^)]*}}) threads in (%[[THREADS]], %{{[^)]*}}) args(%{{.*}} : memref<4x2x3xf32>, %{{.*}} : memref<4x2x3xf32>, %{{.*}} : memref<3x10xf32>, %[[OUT]] : memref<4x2x3xf32>, %[[N]] : i32)
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return %[[OUT]]
// CHECK-LABEL: gpu.func @sgp_cl2_k0_grade_rms_norm
//  CHECK-SAME:   (%[[X:.*]]: memref<4x2x3xf32>, %[[Y:.*]]: memref<4x2x3xf32>, %[[W:.*]]: memref<3x10xf32>, %[[Z:.*]]: memref<4x2x3xf32>, %{{.*}}: i32) workgroup(%{{.*}} : memref<96xf32, #gpu.address_space<workgroup>>)
//   CHECK-DAG:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
//   CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
//       CHECK:   %[[T:.*]] = arith.addi
//   CHECK-DAG:   %[[F:.*]] = arith.remui %[[T]], %[[C32]]
//   CHECK-DAG:   %[[B:.*]] = arith.divui %[[T]], %[[C32]]
//       CHECK:   %[[HAS:.*]] = arith.cmpi ult, %[[F]], %[[C3]]
//       CHECK:   %[[V:.*]]:4 = scf.if %[[HAS]] -> (f32, f32, f32, f32)
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[SX:.*]] = arith.mulf %[[X0]], %[[RSQRT2]] : f32
//   CHECK-DAG:     %[[EX:.*]] = math.erf %[[SX]] : f32
//   CHECK-DAG:     %[[AX:.*]] = arith.addf %[[EX]], %[[ONE]] : f32
//   CHECK-DAG:     %[[PHIX:.*]] = arith.mulf %[[AX]], %[[HALF]] : f32
//   CHECK-DAG:     %[[GX0:.*]] = arith.mulf %[[X0]], %[[PHIX]] : f32
//   CHECK-DAG:     %[[GX1:.*]] = arith.mulf %[[X1]], %[[PHIX]] : f32
//   CHECK-DAG:     %[[GX2:.*]] = arith.mulf %[[X2]], %[[PHIX]] : f32
//   CHECK-DAG:     %[[GX3:.*]] = arith.mulf %[[X3]], %[[PHIX]] : f32
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[B]], %[[F]]]
//   CHECK-DAG:     %[[SY:.*]] = arith.mulf %[[Y0]], %[[RSQRT2]] : f32
//   CHECK-DAG:     %[[EY:.*]] = math.erf %[[SY]] : f32
//   CHECK-DAG:     %[[AY:.*]] = arith.addf %[[EY]], %[[ONE]] : f32
//   CHECK-DAG:     %[[PHIY:.*]] = arith.mulf %[[AY]], %[[HALF]] : f32
//   CHECK-DAG:     %[[GY0:.*]] = arith.mulf %[[Y0]], %[[PHIY]] : f32
//   CHECK-DAG:     %[[GY1:.*]] = arith.mulf %[[Y1]], %[[PHIY]] : f32
//   CHECK-DAG:     %[[GY2:.*]] = arith.mulf %[[Y2]], %[[PHIY]] : f32
//   CHECK-DAG:     %[[GY3:.*]] = arith.mulf %[[Y3]], %[[PHIY]] : f32
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[GX0]], %[[GY0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[GX1]], %[[GY1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[GX2]], %[[GY2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[GX3]], %[[GY3]] : f32
//   CHECK-DAG:     %[[W0:.*]] = memref.load %[[W]][%[[F]], %[[C0]]]
//   CHECK-DAG:     %[[W3:.*]] = memref.load %[[W]][%[[F]], %[[C3]]]
//   CHECK-DAG:     %[[W7:.*]] = memref.load %[[W]][%[[F]], %[[C7]]]
//   CHECK-DAG:     %[[T0:.*]] = arith.mulf %[[W0]], %[[P00]] : f32
//   CHECK-DAG:     %[[S3:.*]] = arith.addf %[[P11]], %[[P22]] : f32
//   CHECK-DAG:     %[[T3:.*]] = arith.mulf %[[W3]], %[[S3]] : f32
//   CHECK-DAG:     %[[S7:.*]] = arith.negf %[[P33]] : f32
//   CHECK-DAG:     %[[T7:.*]] = arith.mulf %[[W7]], %[[S7]] : f32
//   CHECK-DAG:     %[[U:.*]] = arith.addf %[[T0]], %[[T3]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.addf %[[U]], %[[T7]] : f32
//       CHECK:     scf.yield %[[Z0]], %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
//       CHECK:   } else {
//       CHECK:     scf.yield %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]]
//   CHECK-DAG:   %[[SQ0:.*]] = arith.mulf %[[V]]#0, %[[V]]#0 : f32
//   CHECK-DAG:   %[[ACC0:.*]] = arith.addf %[[SQ0]], %[[ZERO]] : f32
//       CHECK:   memref.store %[[ACC0]]
//       CHECK:   %[[HAS2:.*]] = arith.cmpi ult, %[[F]], %[[C3]]
//       CHECK:   scf.if %[[HAS2]]
//       CHECK:     memref.store %{{.*}}, %[[Z]][%[[C0]], %[[B]], %[[F]]]
//       CHECK:   gpu.return
// The kernel reads the 4 blades of x and of y once and computes one gate per
// operand; only the result is stored to global memory, 4 blades per feature.
// COUNT-LABEL: gpu.func @sgp_cl2_k0_grade_rms_norm
//  COUNT-SAME:   (%[[X:.*]]: memref<4x2x3xf32>, %[[Y:.*]]: memref<4x2x3xf32>, %[[W:.*]]: memref<3x10xf32>, %[[Z:.*]]: memref<4x2x3xf32>
//  COUNT-COUNT-4:  memref.load %[[X]]
//   COUNT-NOT:     memref.load %[[X]]
//       COUNT:   gpu.return
// ERF-LABEL: gpu.func @sgp_cl2_k0_grade_rms_norm
//  ERF-COUNT-2:  math.erf
//   ERF-NOT:     math.erf
//       ERF:   gpu.return
func.func @sgp_cl2(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>, %w: tensor<3x10xf32>) -> tensor<4x2x3xf32> {
  %gx = clifford.scalar_gate <2, 0, 0> %x : tensor<4x2x3xf32>
  %gy = clifford.scalar_gate <2, 0, 0> %y : tensor<4x2x3xf32>
  %p = clifford.weighted_product <2, 0, 0> %gx, %gy, %w
      : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<3x10xf32>) -> tensor<4x2x3xf32>
  %n = clifford.grade_rms_norm <2, 0, 0> %p : tensor<4x2x3xf32>
  return %n : tensor<4x2x3xf32>
}

// -----

// A gate with its blades in the middle, fused into a product that broadcasts
// its rotor r [1, 4, 3]: the gate is computed once per position (one erf)
// at the product's thread position, and r is read at row 0.
// z0 = g0 r0 + g1 r1 + g2 r2 - g3 r3, g_i = x_i Phi(x_0).
// CHECK-LABEL: gpu.func @gate_into_product_k0_geometric_product
//  CHECK-SAME:   (%[[X:.*]]: memref<2x4x3xf32>, %[[R:.*]]: memref<1x4x3xf32>, %[[Z:.*]]: memref<2x4x3xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//       CHECK:     %[[K:.*]] = arith.remui %{{.*}}, %[[C3]]
//       CHECK:     %[[I:.*]] = arith.divui %{{.*}}, %[[C3]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[I]], %[[C0]], %[[K]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[I]], %[[C1]], %[[K]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[I]], %[[C2]], %[[K]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[I]], %[[C3]], %[[K]]]
//   CHECK-DAG:     %[[E:.*]] = math.erf
//   CHECK-DAG:     %[[A:.*]] = arith.addf %[[E]], %{{.*}} : f32
//   CHECK-DAG:     %[[PHI:.*]] = arith.mulf %[[A]], %{{.*}} : f32
//   CHECK-DAG:     %[[G0:.*]] = arith.mulf %[[X0]], %[[PHI]] : f32
//   CHECK-DAG:     %[[G1:.*]] = arith.mulf %[[X1]], %[[PHI]] : f32
//   CHECK-DAG:     %[[G2:.*]] = arith.mulf %[[X2]], %[[PHI]] : f32
//   CHECK-DAG:     %[[G3:.*]] = arith.mulf %[[X3]], %[[PHI]] : f32
//   CHECK-DAG:     %[[R0:.*]] = memref.load %[[R]][%[[C0]], %[[C0]], %[[K]]]
//   CHECK-DAG:     %[[R1:.*]] = memref.load %[[R]][%[[C0]], %[[C1]], %[[K]]]
//   CHECK-DAG:     %[[R2:.*]] = memref.load %[[R]][%[[C0]], %[[C2]], %[[K]]]
//   CHECK-DAG:     %[[R3:.*]] = memref.load %[[R]][%[[C0]], %[[C3]], %[[K]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[G0]], %[[R0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[G1]], %[[R1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[G2]], %[[R2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[G3]], %[[R3]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P00]], %[[P11]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.addf %[[S0]], %[[P22]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.subf %[[S1]], %[[P33]] : f32
//   CHECK-DAG:     memref.store %[[Z0]], %[[Z]][%[[I]], %[[C0]], %[[K]]]
//       CHECK:   gpu.return
// COUNT-LABEL: gpu.func @gate_into_product_k0_geometric_product
//       COUNT:   math.erf
//   COUNT-NOT:   math.erf
//       COUNT:   gpu.return
func.func @gate_into_product(%x: tensor<2x4x3xf32>, %r: tensor<1x4x3xf32>) -> tensor<2x4x3xf32> {
  %g = clifford.scalar_gate <2, 0, 0> %x {blade_axis = 1} : tensor<2x4x3xf32>
  %z = clifford.geometric_product <2, 0, 0> %g, %r {blade_axis = 1}
      : (tensor<2x4x3xf32>, tensor<1x4x3xf32>) -> tensor<2x4x3xf32>
  return %z : tensor<2x4x3xf32>
}

// -----

// The lowering also takes groups the cost model does not make. A uta op
// reads a gate element by element: y[i, k] = x[i, k] Phi(x[0, k]) + b[i, k].
// CHECK-LABEL: gpu.func @gate_into_uta_k0_add
//  CHECK-SAME:   (%[[X:.*]]: memref<4x5xf32>, %[[B:.*]]: memref<4x5xf32>, %[[Y:.*]]: memref<4x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//       CHECK:     %[[K:.*]] = arith.remui %{{.*}}, %[[C5]]
//       CHECK:     %[[I:.*]] = arith.divui %{{.*}}, %[[C5]]
//   CHECK-DAG:     %[[S:.*]] = memref.load %[[X]][%[[C0]], %[[K]]]
//   CHECK-DAG:     %[[E:.*]] = math.erf
//   CHECK-DAG:     %[[A:.*]] = arith.addf %[[E]], %{{.*}} : f32
//   CHECK-DAG:     %[[PHI:.*]] = arith.mulf %[[A]], %{{.*}} : f32
//   CHECK-DAG:     %[[XI:.*]] = memref.load %[[X]][%[[I]], %[[K]]]
//   CHECK-DAG:     %[[G:.*]] = arith.mulf %[[XI]], %[[PHI]] : f32
//   CHECK-DAG:     %[[BI:.*]] = memref.load %[[B]][%[[I]], %[[K]]]
//   CHECK-DAG:     %[[SUM:.*]] = arith.addf %[[G]], %[[BI]] : f32
//   CHECK-DAG:     memref.store %[[SUM]], %[[Y]][%[[I]], %[[K]]]
//       CHECK:   gpu.return
func.func @gate_into_uta(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = uta.fusion(%x, %y) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32> {
  ^bb0(%a: tensor<4x5xf32>, %b: tensor<4x5xf32>):
    %g = clifford.scalar_gate <2, 0, 0> %a : tensor<4x5xf32>
    %s = uta.add %g, %b : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    uta.yield %s : tensor<4x5xf32>
  }
  return %r : tensor<4x5xf32>
}

// -----

// A product read element by element is computed a multivector at a time
// and the element picked by its blade index, known only at run time:
// z = i == 3 ? z3 : i == 2 ? z2 : i == 1 ? z1 : z0, with
// z0 = x0 y0 + x1 y1 + x2 y2 - x3 y3.
// CHECK-LABEL: gpu.func @product_into_uta_k0_exp
//  CHECK-SAME:   (%[[X:.*]]: memref<4x5xf32>, %[[Y:.*]]: memref<4x5xf32>, %[[OUT:.*]]: memref<4x5xf32>
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
//       CHECK:     %[[K:.*]] = arith.remui %{{.*}}, %[[C5]]
//       CHECK:     %[[I:.*]] = arith.divui %{{.*}}, %[[C5]]
//   CHECK-DAG:     %[[X0:.*]] = memref.load %[[X]][%[[C0]], %[[K]]]
//   CHECK-DAG:     %[[X1:.*]] = memref.load %[[X]][%[[C1]], %[[K]]]
//   CHECK-DAG:     %[[X2:.*]] = memref.load %[[X]][%[[C2]], %[[K]]]
//   CHECK-DAG:     %[[X3:.*]] = memref.load %[[X]][%[[C3]], %[[K]]]
//   CHECK-DAG:     %[[Y0:.*]] = memref.load %[[Y]][%[[C0]], %[[K]]]
//   CHECK-DAG:     %[[Y1:.*]] = memref.load %[[Y]][%[[C1]], %[[K]]]
//   CHECK-DAG:     %[[Y2:.*]] = memref.load %[[Y]][%[[C2]], %[[K]]]
//   CHECK-DAG:     %[[Y3:.*]] = memref.load %[[Y]][%[[C3]], %[[K]]]
//   CHECK-DAG:     %[[P00:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
//   CHECK-DAG:     %[[P11:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
//   CHECK-DAG:     %[[P22:.*]] = arith.mulf %[[X2]], %[[Y2]] : f32
//   CHECK-DAG:     %[[P33:.*]] = arith.mulf %[[X3]], %[[Y3]] : f32
//   CHECK-DAG:     %[[S0:.*]] = arith.addf %[[P00]], %[[P11]] : f32
//   CHECK-DAG:     %[[S1:.*]] = arith.addf %[[S0]], %[[P22]] : f32
//   CHECK-DAG:     %[[Z0:.*]] = arith.subf %[[S1]], %[[P33]] : f32
//   CHECK-DAG:     %[[IS1:.*]] = arith.cmpi eq, %[[I]], %[[C1]]
//   CHECK-DAG:     %[[PICK1:.*]] = arith.select %[[IS1]], %{{.*}}, %[[Z0]] : f32
//   CHECK-DAG:     %[[IS2:.*]] = arith.cmpi eq, %[[I]], %[[C2]]
//   CHECK-DAG:     %[[PICK2:.*]] = arith.select %[[IS2]], %{{.*}}, %[[PICK1]] : f32
//   CHECK-DAG:     %[[IS3:.*]] = arith.cmpi eq, %[[I]], %[[C3]]
//   CHECK-DAG:     %[[PICK3:.*]] = arith.select %[[IS3]], %{{.*}}, %[[PICK2]] : f32
//   CHECK-DAG:     %[[E:.*]] = math.exp %[[PICK3]] : f32
//   CHECK-DAG:     memref.store %[[E]], %[[OUT]][%[[I]], %[[K]]]
//       CHECK:   gpu.return
func.func @product_into_uta(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = uta.fusion(%x, %y) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32> {
  ^bb0(%a: tensor<4x5xf32>, %b: tensor<4x5xf32>):
    %g = clifford.geometric_product <2, 0, 0> %a, %b : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %s = uta.exp %g : tensor<4x5xf32>
    uta.yield %s : tensor<4x5xf32>
  }
  return %r : tensor<4x5xf32>
}
