//===- CliffordDialect.td - The clifford dialect ----------*- tablegen -*-===//
//
// The dialect definition and the #clifford.algebra attribute.
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
  }];
  let useDefaultAttributePrinterParser = 1;
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
    `#clifford.algebra<p, q, r>`: n = p + q + r basis vectors (1 <= n <= 6);
    the first r square to 0, the next p to +1, the last q to -1.
  }];
  let parameters = (ins "unsigned":$p, "unsigned":$q, "unsigned":$r);
  let assemblyFormat = "`<` $p `,` $q `,` $r `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// n = p + q + r.
    unsigned getDimension() const { return getP() + getQ() + getR(); }
    /// 2^n.
    int64_t getNumBlades() const { return int64_t(1) << getDimension(); }
    /// The tables of this algebra (computed once per signature).
    const ::uta::ga::Algebra &getAlgebra() const;
  }];
}

class Clifford_Op<string mnemonic, list<Trait> traits = []>
    : Op<Clifford_Dialect, mnemonic, traits>;

/// A statically shaped f32 multivector tensor.
def Clifford_Tensor : TensorOf<[F32], [HasStaticShapePred],
                               "statically shaped tensor">;

#endif // CLIFFORD_DIALECT_TD
