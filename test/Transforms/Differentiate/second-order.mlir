// The gradient of a gradient: uta-differentiate run twice. The first run
// builds @f_vjp(x, y, ..., g) -> (dx, dy) and makes @f private, so the
// second picks @f_vjp, the only public function, and builds
// @f_vjp_vjp(x, y, ..., g, cx, cy) -> (gradients of <cx, dx> + <cy, dy>
// with respect to every input of @f_vjp): Hessian-vector products. The
// product adjoints of the first run are differentiated by their own rules.
// RUN: uta-opt %s -split-input-file --uta-differentiate=wrt=0,1 --uta-differentiate | FileCheck %s

// dx = adjoint_lhs(g, y), dy = adjoint_rhs(g, x). With cotangents cx, cy:
// x gets adjoint_lhs(g, cy) (through dy), y gets adjoint_rhs(g, cx)
// (through dx), and g gets x cy + cx y.
//       CHECK: func.func private @geometric(
//       CHECK: func.func private @geometric_vjp(
// CHECK-LABEL: func.func @geometric_vjp_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8x4xf32>, %[[Y:arg[0-9]+]]: tensor<8x4xf32>, %[[G:arg[0-9]+]]: tensor<8x4xf32>, %[[CX:arg[0-9]+]]: tensor<8x4xf32>, %[[CY:arg[0-9]+]]: tensor<8x4xf32>)
//  CHECK-SAME:     -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
//  CHECK-NEXT:   %[[GVIADY:.*]] = clifford.geometric_product <3, 0, 0> %[[X]], %[[CY]]
//  CHECK-NEXT:   %[[DDX:.*]] = clifford.product_adjoint <3, 0, 0> geometric lhs %[[G]], %[[CY]]
//  CHECK-NEXT:   %[[GVIADX:.*]] = clifford.geometric_product <3, 0, 0> %[[CX]], %[[Y]]
//  CHECK-NEXT:   %[[DDY:.*]] = clifford.product_adjoint <3, 0, 0> geometric rhs %[[G]], %[[CX]]
//  CHECK-NEXT:   %[[DG:.*]] = uta.add %[[GVIADY]], %[[GVIADX]]
//  CHECK-NEXT:   return %[[DDX]], %[[DDY]], %[[DG]]
func.func @geometric(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = clifford.geometric_product <3, 0, 0> %x, %y : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// The same for weighted_product, differentiated first with respect to x and
// y only (w's gradient, a path_adjoint, has no rule: see invalid.mlir). The
// second run differentiates the weighted adjoints with respect to w too:
// two path_adjoint sums, added.
// CHECK-LABEL: func.func @weighted_vjp_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<4x2x3xf32>, %[[Y:arg[0-9]+]]: tensor<4x2x3xf32>, %[[W:arg[0-9]+]]: tensor<3x10xf32>, %[[G:arg[0-9]+]]: tensor<4x2x3xf32>, %[[CX:arg[0-9]+]]: tensor<4x2x3xf32>, %[[CY:arg[0-9]+]]: tensor<4x2x3xf32>)
//  CHECK-SAME:     -> (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<3x10xf32>, tensor<4x2x3xf32>)
//  CHECK-NEXT:   %[[GVIADY:.*]] = clifford.weighted_product <2, 0, 0> %[[X]], %[[CY]], %[[W]]
//  CHECK-NEXT:   %[[DDX:.*]] = clifford.weighted_product_adjoint <2, 0, 0> lhs %[[G]], %[[CY]], %[[W]]
//  CHECK-NEXT:   %[[PVIADY:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[X]], %[[CY]]
//  CHECK-NEXT:   %[[SVIADY:.*]] = uta.reduce_sum %[[PVIADY]] dims [1]
//  CHECK-NEXT:   %[[WVIADY:.*]] = uta.transpose %[[SVIADY]] [1, 0]
//  CHECK-NEXT:   %[[GVIADX:.*]] = clifford.weighted_product <2, 0, 0> %[[CX]], %[[Y]], %[[W]]
//  CHECK-NEXT:   %[[DDY:.*]] = clifford.weighted_product_adjoint <2, 0, 0> rhs %[[G]], %[[CX]], %[[W]]
//  CHECK-NEXT:   %[[PVIADX:.*]] = clifford.path_adjoint <2, 0, 0> %[[G]], %[[CX]], %[[Y]]
//  CHECK-NEXT:   %[[SVIADX:.*]] = uta.reduce_sum %[[PVIADX]] dims [1]
//  CHECK-NEXT:   %[[WVIADX:.*]] = uta.transpose %[[SVIADX]] [1, 0]
//  CHECK-NEXT:   %[[DG:.*]] = uta.add %[[GVIADY]], %[[GVIADX]]
//  CHECK-NEXT:   %[[DW:.*]] = uta.add %[[WVIADY]], %[[WVIADX]] : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3x10xf32>
//  CHECK-NEXT:   return %[[DDX]], %[[DDY]], %[[DW]], %[[DG]]
func.func @weighted(%x: tensor<4x2x3xf32>, %y: tensor<4x2x3xf32>, %w: tensor<3x10xf32>) -> tensor<4x2x3xf32> {
  %0 = clifford.weighted_product <2, 0, 0> %x, %y, %w : (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<3x10xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// f = tanh(x) y: dx = g y (1 - t^2), dy = g t. The second derivatives:
// x gets (1 - t^2) (c2 g - 2 c1 g y t), y gets c1 (1 - t^2) g, and g gets
// c2 t + c1 (1 - t^2) y, with c1, c2 the cotangents of dx, dy.
// CHECK-LABEL: func.func @tanh_mul_vjp_vjp(
//  CHECK-SAME:     %[[X:arg[0-9]+]]: tensor<8xf32>, %[[Y:arg[0-9]+]]: tensor<8xf32>, %[[G:arg[0-9]+]]: tensor<8xf32>, %[[C1:arg[0-9]+]]: tensor<8xf32>, %[[C2:arg[0-9]+]]: tensor<8xf32>)
//  CHECK-NEXT:   %[[T:.*]] = uta.tanh %[[X]]
//  CHECK-NEXT:   %[[GY:.*]] = uta.mul %[[G]], %[[Y]]
//  CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00>
//  CHECK-NEXT:   %[[T2:.*]] = uta.mul %[[T]], %[[T]]
//  CHECK-NEXT:   %[[SLOPE:.*]] = uta.sub %[[ONE]], %[[T2]]
// the slope times g y (dx): its operands' cotangents
//  CHECK-NEXT:   %[[CGY:.*]] = uta.mul %[[C1]], %[[SLOPE]]
//  CHECK-NEXT:   %[[CSLOPE:.*]] = uta.mul %[[C1]], %[[GY]]
// 1 - t t: t's cotangents from both factors, summed
//  CHECK-NEXT:   %[[CT2:.*]] = uta.neg %[[CSLOPE]]
//  CHECK-NEXT:   %[[TL:.*]] = uta.mul %[[CT2]], %[[T]]
//  CHECK-NEXT:   %[[TR:.*]] = uta.mul %[[CT2]], %[[T]]
//  CHECK-NEXT:   %[[CTSQ:.*]] = uta.add %[[TL]], %[[TR]]
// g t (dy)
//  CHECK-NEXT:   %[[GVIADY:.*]] = uta.mul %[[C2]], %[[T]]
//  CHECK-NEXT:   %[[TVIADY:.*]] = uta.mul %[[C2]], %[[G]]
//  CHECK-NEXT:   %[[CT:.*]] = uta.add %[[CTSQ]], %[[TVIADY]]
// g y
//  CHECK-NEXT:   %[[GVIADX:.*]] = uta.mul %[[CGY]], %[[Y]]
//  CHECK-NEXT:   %[[DY:.*]] = uta.mul %[[CGY]], %[[G]]
//  CHECK-NEXT:   %[[DG:.*]] = uta.add %[[GVIADY]], %[[GVIADX]]
// tanh
//       CHECK:   %[[SLOPE2:.*]] = uta.sub
//  CHECK-NEXT:   %[[DX:.*]] = uta.mul %[[CT]], %[[SLOPE2]]
//  CHECK-NEXT:   return %[[DX]], %[[DY]], %[[DG]]
func.func @tanh_mul(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = uta.tanh %x : tensor<8xf32>
  %1 = uta.mul %0, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
