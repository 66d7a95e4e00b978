// Every clifford op compiles to PTX that ptxas accepts for sm_90: Euclidean,
// Minkowski-like (q > 0) and degenerate (r > 0) algebras from n = 2 to the
// largest, n = 6; blade axes first, in the middle and last; broadcasting
// operands; shapes with tails (not multiples of the block size).
// REQUIRES: ptxas
// RUN: utac %s --compile-to=ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// PTX-DAG: .entry gp_cl300_k0_geometric_product(
// PTX-DAG: .entry gp_cl130_axis1_k0_geometric_product(
// PTX-DAG: .entry gp_cl600_k0_geometric_product(
// PTX-DAG: .entry gp_cl301_axis2_k0_geometric_product(
// PTX-DAG: .entry outer_cl040_k0_outer_product(
// PTX-DAG: .entry contract_cl321_k0_left_contraction(
// PTX-DAG: .entry scalar_cl230_k0_scalar_product(
// PTX-DAG: .entry sandwich_cl300_k0_sandwich(
// PTX-DAG: .entry sandwich_cl301_k0_sandwich(
// Three independent kernels, launched as one grid.
// PTX-DAG: .entry involutions_cl310_k0_reverse_k1_grade_involution_k2_conjugate(
// PTX-DAG: .entry project_cl041_k0_grade_project(
// PTX-DAG: .entry dual_cl130_k0_dual(
// PTX-DAG: .entry gate_cl300_k0_scalar_gate(
// PTX-DAG: .entry weighted_cl130_k0_weighted_product(
// PTX-DAG: .entry fc_cl301_k0_fc_product(
// PTX-DAG: .entry rms_cl041_k0_grade_rms_norm(
// PTX-DAG: .entry sgp_cl300_k0_grade_rms_norm(
// PTX-DAG: .entry adjoint_cl600_k0_product_adjoint(
// PTX-DAG: .entry adjoint_scalar_cl301_axis2_k0_product_adjoint(
// PTX-DAG: .entry weighted_adjoint_cl130_k0_weighted_product_adjoint(
// PTX-DAG: .entry path_adjoint_cl301_k0_path_adjoint(
// PTX-DAG: .entry path_adjoint_chunked_cl301_k0_path_adjoint(
// PTX-DAG: .entry gate_adjoint_cl130_axis1_k0_scalar_gate_adjoint(
// PTX-DAG: .entry sgp_gate_adjoint_cl300_k0_scalar_gate_adjoint(
// PTX-DAG: .entry rms_adjoint_cl041_k0_grade_rms_norm_adjoint(
// PTX-DAG: .entry sgp_rms_adjoint_cl300_k0_grade_rms_norm_adjoint(

func.func @gp_cl300(%x: tensor<8x300xf32>, %y: tensor<8x300xf32>) -> tensor<8x300xf32> {
  %z = clifford.geometric_product <3, 0, 0> %x, %y
      : (tensor<8x300xf32>, tensor<8x300xf32>) -> tensor<8x300xf32>
  return %z : tensor<8x300xf32>
}

func.func @gp_cl130_axis1(%x: tensor<37x16xf32>, %y: tensor<1x16xf32>) -> tensor<37x16xf32> {
  %z = clifford.geometric_product <1, 3, 0> %x, %y {blade_axis = 1}
      : (tensor<37x16xf32>, tensor<1x16xf32>) -> tensor<37x16xf32>
  return %z : tensor<37x16xf32>
}

func.func @gp_cl600(%x: tensor<64x45xf32>, %y: tensor<64x1xf32>) -> tensor<64x45xf32> {
  %z = clifford.geometric_product <6, 0, 0> %x, %y
      : (tensor<64x45xf32>, tensor<64x1xf32>) -> tensor<64x45xf32>
  return %z : tensor<64x45xf32>
}

func.func @gp_cl301_axis2(%x: tensor<3x1x16xf32>, %y: tensor<1x5x16xf32>) -> tensor<3x5x16xf32> {
  %z = clifford.geometric_product <3, 0, 1> %x, %y {blade_axis = 2}
      : (tensor<3x1x16xf32>, tensor<1x5x16xf32>) -> tensor<3x5x16xf32>
  return %z : tensor<3x5x16xf32>
}

func.func @outer_cl040(%x: tensor<16x7xf32>, %y: tensor<16x7xf32>) -> tensor<16x7xf32> {
  %z = clifford.outer_product <0, 4, 0> %x, %y
      : (tensor<16x7xf32>, tensor<16x7xf32>) -> tensor<16x7xf32>
  return %z : tensor<16x7xf32>
}

func.func @contract_cl321(%x: tensor<64x29xf32>, %y: tensor<64x29xf32>) -> tensor<64x29xf32> {
  %z = clifford.left_contraction <3, 2, 1> %x, %y
      : (tensor<64x29xf32>, tensor<64x29xf32>) -> tensor<64x29xf32>
  return %z : tensor<64x29xf32>
}

func.func @scalar_cl230(%x: tensor<32x41xf32>, %y: tensor<32x41xf32>) -> tensor<1x41xf32> {
  %s = clifford.scalar_product <2, 3, 0> %x, %y
      : (tensor<32x41xf32>, tensor<32x41xf32>) -> tensor<1x41xf32>
  return %s : tensor<1x41xf32>
}

func.func @sandwich_cl300(%r: tensor<8x1x1xf32>, %x: tensor<8x19x67xf32>) -> tensor<8x19x67xf32> {
  %y = clifford.sandwich <3, 0, 0> %r, %x
      : (tensor<8x1x1xf32>, tensor<8x19x67xf32>) -> tensor<8x19x67xf32>
  return %y : tensor<8x19x67xf32>
}

func.func @sandwich_cl301(%r: tensor<16x1xf32>, %x: tensor<16x1000xf32>) -> tensor<16x1000xf32> {
  %y = clifford.sandwich <3, 0, 1> %r, %x
      : (tensor<16x1xf32>, tensor<16x1000xf32>) -> tensor<16x1000xf32>
  return %y : tensor<16x1000xf32>
}

func.func @involutions_cl310(%x: tensor<16x33xf32>)
    -> (tensor<16x33xf32>, tensor<16x33xf32>, tensor<16x33xf32>) {
  %a = clifford.reverse <3, 1, 0> %x : tensor<16x33xf32>
  %b = clifford.grade_involution <3, 1, 0> %x : tensor<16x33xf32>
  %c = clifford.conjugate <3, 1, 0> %x : tensor<16x33xf32>
  return %a, %b, %c : tensor<16x33xf32>, tensor<16x33xf32>, tensor<16x33xf32>
}

func.func @project_cl041(%x: tensor<32x9xf32>) -> tensor<32x9xf32> {
  %y = clifford.grade_project <0, 4, 1> %x grades [1, 3, 5] : tensor<32x9xf32>
  return %y : tensor<32x9xf32>
}

func.func @dual_cl130(%x: tensor<16x33xf32>) -> tensor<16x33xf32> {
  %y = clifford.dual <1, 3, 0> %x : tensor<16x33xf32>
  return %y : tensor<16x33xf32>
}

func.func @gate_cl300(%x: tensor<3x8x77xf32>) -> tensor<3x8x77xf32> {
  %y = clifford.scalar_gate <3, 0, 0> %x {blade_axis = 1} : tensor<3x8x77xf32>
  return %y : tensor<3x8x77xf32>
}

func.func @weighted_cl130(%x: tensor<16x13x21xf32>, %y: tensor<16x13x21xf32>,
                          %w: tensor<21x35xf32>) -> tensor<16x13x21xf32> {
  %z = clifford.weighted_product <1, 3, 0> %x, %y, %w
      : (tensor<16x13x21xf32>, tensor<16x13x21xf32>, tensor<21x35xf32>)
      -> tensor<16x13x21xf32>
  return %z : tensor<16x13x21xf32>
}

func.func @fc_cl301(%x: tensor<16x9x13xf32>, %y: tensor<16x9x13xf32>,
                    %w: tensor<34x13x6xf32>) -> tensor<16x9x6xf32> {
  %z = clifford.fc_product <3, 0, 1> %x, %y, %w
      : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<34x13x6xf32>)
      -> tensor<16x9x6xf32>
  return %z : tensor<16x9x6xf32>
}

func.func @rms_cl041(%x: tensor<32x7x300xf32>) -> tensor<32x7x300xf32> {
  %y = clifford.grade_rms_norm <0, 4, 1> %x : tensor<32x7x300xf32>
  return %y : tensor<32x7x300xf32>
}

// The Flash Clifford SGP layer, fused into one kernel.
func.func @sgp_cl300(%x: tensor<8x100x61xf32>, %y: tensor<8x100x61xf32>,
                     %w: tensor<61x20xf32>) -> tensor<8x100x61xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x61xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x100x61xf32>, tensor<8x100x61xf32>, tensor<61x20xf32>)
      -> tensor<8x100x61xf32>
  %n = clifford.grade_rms_norm <3, 0, 0> %p : tensor<8x100x61xf32>
  return %n : tensor<8x100x61xf32>
}

// The adjoints of the products: the largest algebra, a one-blade cotangent
// broadcast against the other operand, and the layer adjoints.
func.func @adjoint_cl600(%g: tensor<64x45xf32>, %y: tensor<64x1xf32>) -> tensor<64x45xf32> {
  %dx = clifford.product_adjoint <6, 0, 0> geometric lhs %g, %y
      : (tensor<64x45xf32>, tensor<64x1xf32>) -> tensor<64x45xf32>
  return %dx : tensor<64x45xf32>
}

func.func @adjoint_scalar_cl301_axis2(%g: tensor<3x5x1xf32>, %x: tensor<3x1x16xf32>) -> tensor<3x5x16xf32> {
  %dy = clifford.product_adjoint <3, 0, 1> scalar rhs %g, %x {blade_axis = 2}
      : (tensor<3x5x1xf32>, tensor<3x1x16xf32>) -> tensor<3x5x16xf32>
  return %dy : tensor<3x5x16xf32>
}

func.func @weighted_adjoint_cl130(%g: tensor<16x13x21xf32>, %y: tensor<16x13x21xf32>,
                                  %w: tensor<21x35xf32>) -> tensor<16x13x21xf32> {
  %dx = clifford.weighted_product_adjoint <1, 3, 0> lhs %g, %y, %w
      : (tensor<16x13x21xf32>, tensor<16x13x21xf32>, tensor<21x35xf32>)
      -> tensor<16x13x21xf32>
  return %dx : tensor<16x13x21xf32>
}

func.func @path_adjoint_cl301(%g: tensor<16x9x13xf32>, %x: tensor<16x9x13xf32>,
                              %y: tensor<16x9x13xf32>) -> tensor<34x9x13xf32> {
  %t = clifford.path_adjoint <3, 0, 1> %g, %x, %y
      : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<16x9x13xf32>)
      -> tensor<34x9x13xf32>
  return %t : tensor<34x9x13xf32>
}

func.func @path_adjoint_chunked_cl301(%g: tensor<16x9x13xf32>, %x: tensor<16x9x13xf32>,
                                      %y: tensor<16x9x13xf32>) -> tensor<34x3x13xf32> {
  %t = clifford.path_adjoint <3, 0, 1> %g, %x, %y {batch_chunk = 4}
      : (tensor<16x9x13xf32>, tensor<16x9x13xf32>, tensor<16x9x13xf32>)
      -> tensor<34x3x13xf32>
  return %t : tensor<34x3x13xf32>
}

// The adjoints of the gate and the norm: the gate's with blades in the
// middle, and fed by weighted_product's adjoint of a gate (one fused
// kernel); the norm's in a 32-blade algebra with 600 features (the second
// pass reads its operands again), and fed by the SGP layer's product of
// two gates (one fused kernel).
func.func @gate_adjoint_cl130_axis1(%g: tensor<5x16x33xf32>, %x: tensor<5x16x33xf32>) -> tensor<5x16x33xf32> {
  %dx = clifford.scalar_gate_adjoint <1, 3, 0> %g, %x {blade_axis = 1} : tensor<5x16x33xf32>
  return %dx : tensor<5x16x33xf32>
}

func.func @sgp_gate_adjoint_cl300(%c: tensor<8x100x61xf32>, %x: tensor<8x100x61xf32>,
                                  %y: tensor<8x100x61xf32>, %w: tensor<61x20xf32>) -> tensor<8x100x61xf32> {
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x61xf32>
  %g = clifford.weighted_product_adjoint <3, 0, 0> lhs %c, %gy, %w
      : (tensor<8x100x61xf32>, tensor<8x100x61xf32>, tensor<61x20xf32>) -> tensor<8x100x61xf32>
  %dx = clifford.scalar_gate_adjoint <3, 0, 0> %g, %x : tensor<8x100x61xf32>
  return %dx : tensor<8x100x61xf32>
}

func.func @rms_adjoint_cl041(%g: tensor<32x9x600xf32>, %x: tensor<32x9x600xf32>) -> tensor<32x9x600xf32> {
  %dx = clifford.grade_rms_norm_adjoint <0, 4, 1> %g, %x : tensor<32x9x600xf32>
  return %dx : tensor<32x9x600xf32>
}

func.func @sgp_rms_adjoint_cl300(%g: tensor<8x100x61xf32>, %x: tensor<8x100x61xf32>,
                                 %y: tensor<8x100x61xf32>, %w: tensor<61x20xf32>) -> tensor<8x100x61xf32> {
  %gx = clifford.scalar_gate <3, 0, 0> %x : tensor<8x100x61xf32>
  %gy = clifford.scalar_gate <3, 0, 0> %y : tensor<8x100x61xf32>
  %p = clifford.weighted_product <3, 0, 0> %gx, %gy, %w
      : (tensor<8x100x61xf32>, tensor<8x100x61xf32>, tensor<61x20xf32>) -> tensor<8x100x61xf32>
  %dp = clifford.grade_rms_norm_adjoint <3, 0, 0> %g, %p : tensor<8x100x61xf32>
  return %dp : tensor<8x100x61xf32>
}
