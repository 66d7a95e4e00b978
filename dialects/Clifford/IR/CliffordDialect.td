//===- CliffordDialect.td - The clifford dialect -----------*- tablegen -*-===//
//
// The dialect definition, the #clifford.algebra attribute and the operand
// constraints shared by every clifford op.
//
//===----------------------------------------------------------------------===//

#ifndef CLIFFORD_DIALECT_TD
#define CLIFFORD_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Clifford_Dialect : Dialect {
  let name = "clifford";
  let cppNamespace = "::mlir::uta::clifford";
  let summary = "Geometric algebra on multivector tensors";
  let description = [{
    Products, involutions, projections and the fused layers of Flash Clifford
    over tensors with one blade axis of size 2^n, in any Cl(p, q, r) with
    1 <= n = p + q + r <= 6.

    Every op names its algebra with the attribute `algebra`
    (`#clifford.algebra<p, q, r>`) and the position of the blade axis with
    `blade_axis` (an i64, default 0: the component-major layout
    `[blades, batch, features]` that coalesces on GPUs). Operands are
    statically shaped ranked tensors of f32.

    Shape rules shared by the product, involution, projection, gate and
    sandwich ops:

    * All multivector operands and the result have the same rank, and
      `0 <= blade_axis < rank`; the blade axis sits at the same position in
      all of them. Ranks are never aligned implicitly: give a smaller operand
      leading or trailing axes of size 1 instead.
    * The blade axis of every multivector operand has size 2^n (the result's
      too, except for `scalar_product`, whose blade axis has size 1).
    * Every other axis broadcasts NumPy-style: the operands' sizes there
      that are not 1 must agree, and the result has that size (1 when every
      operand has 1). One rotor `tensor<8x1xf32>` can thus act on a whole
      batch `tensor<8x1024xf32>`.
    * The unary ops return the type of their input.

    The three layer ops (`weighted_product`, `fc_product`, `grade_rms_norm`)
    instead require rank-3 operands `[2^n, B, F]` with `blade_axis` 0 and do
    not broadcast.

    Blades are ordered by grade, then lexicographically by their ascending
    basis-vector indices (Cl(3,0): 1, e1, e2, e3, e12, e13, e23, e123), and a
    blade's sign is that of its ascending product (e13 = e1 e3).

    The products (`geometric_product`, `outer_product`, `left_contraction`,
    `scalar_product`, `weighted_product`, `fc_product`) may carry
    `lhs_blades` and `rhs_blades`, `sandwich` `rotor_blades` and
    `input_blades`, and the adjoints of the products (`product_adjoint`,
    `weighted_product_adjoint`) `cotangent_blades` and `other_blades`:
    optional `#clifford.blades` sets that the grade analysis records,
    promising that the operand's other blades are zero, so that the lowering
    leaves out the terms that multiply them. Each set must name blades of
    the op's algebra.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Canonicalization may replace a value by an arith.constant zero.
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Defined beside the attribute definitions, which need their storage.
    void registerAttributes();
  }];
}

class Clifford_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Clifford_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Clifford_AlgebraAttr : Clifford_Attr<"Algebra", "algebra"> {
  let summary = "the signature (p, q, r) of a Clifford algebra";
  let description = [{
    `#clifford.algebra<p, q, r>` names the real Clifford algebra Cl(p, q, r)
    with n = p + q + r basis vectors, 1 <= n <= 6. In signature order the
    first r basis vectors square to 0, the next p to +1 and the last q to -1;
    the algebra is degenerate when r > 0. Basis vectors are named e0, e1, ...
    when r > 0 (e0 is then the first null vector) and e1, e2, ... otherwise.

    The algebra has 2^n blades, ordered by grade and then lexicographically
    by their ascending basis-vector indices, and n + 1 grades. Its Cayley
    table, involution signs and the path list of the layer ops are computed
    once per signature from these three numbers.

    Always three numbers, also when q or r is 0:

    ```mlir
    {algebra = #clifford.algebra<3, 0, 0>}   // Cl(3,0), 8 blades
    {algebra = #clifford.algebra<3, 0, 1>}   // projective GA of 3D, 16 blades
    ```

    Inside the custom form of an op the dialect prefix is left out:
    `clifford.reverse <3, 0, 0> %x : tensor<8x16xf32>`.
  }];
  let parameters = (ins "unsigned":$p, "unsigned":$q, "unsigned":$r);
  let assemblyFormat = "`<` $p `,` $q `,` $r `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// n = p + q + r.
    unsigned getDimension() const { return getP() + getQ() + getR(); }
    /// 2^n.
    int64_t getNumBlades() const { return int64_t(1) << getDimension(); }
    /// The tables of this algebra (computed once per signature). Only valid
    /// for a verified attribute.
    const ::uta::ga::Algebra &getAlgebra() const;
  }];
}

def Clifford_BladeSetAttr : Clifford_Attr<"BladeSet", "blades"> {
  let summary = "a set of blades that may be non-zero";
  let description = [{
    `#clifford.blades<i, j, ...>` lists blade indices (positions on the blade
    axis, in the blade order of the algebra, strictly ascending); every blade
    not listed is zero. `#clifford.blades<>` is the empty set. The grade
    analysis (`clifford-simplify-grades`) records these sets on products as
    `lhs_blades` and `rhs_blades` (`rotor_blades` and `input_blades` on
    `sandwich`, `cotangent_blades` and `other_blades` on the product
    adjoints), and the lowering then leaves out every Cayley term that
    multiplies a blade outside them:

    ```mlir
    // The lhs is a vector of Cl(3,0) (e1, e2, e3), the rhs a bivector.
    %z = clifford.geometric_product <3, 0, 0> %v, %b
        {lhs_blades = #clifford.blades<1, 2, 3>,
         rhs_blades = #clifford.blades<4, 5, 6>}
        : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```

    The set is a promise about the operand: a term it leaves out is a
    product with an exact zero, so for finite operands only the sign of a
    zero result can change. Where the other factor is infinite or NaN the
    full product would have made a NaN (0 * inf) that the pruned one does
    not, the same convention as the terms that the Cayley table itself
    drops. An op without the attribute reads every blade.
  }];
  let parameters = (ins "uint64_t":$blades);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Whether blade `blade` (an index on the blade axis) is in the set.
    bool contains(unsigned blade) const {
      return blade < 64 && ((getBlades() >> blade) & 1);
    }
  }];
}

class Clifford_Op<string mnemonic, list<Trait> traits = []>
    : Op<Clifford_Dialect, mnemonic, traits>;

/// A statically shaped f32 multivector tensor.
def Clifford_Tensor : TensorOf<[F32], [HasStaticShapePred],
                               "statically shaped tensor">;

#endif // CLIFFORD_DIALECT_TD
