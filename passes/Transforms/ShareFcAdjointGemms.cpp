//===- ShareFcAdjointGemms.cpp - fc_product's adjoints per path group -----===//
//
// uta-share-fc-adjoint-gemms: clifford.fc_product_adjoint(g, other, w) is
// the sum over its terms of sign * other_j * (g_k w[p]^T), a matrix product
// per term. The product depends only on the term's path group (k, p), and
// both adjoints of one fc_product (x's and y's) have the same g and w. So
// each adjoint becomes fc_product_pair_adjoint(pairs, other) of
// pairs = fc_product_pair_cotangents(g, w), one op per (g, w) in a block,
// created before the first adjoint that reads it: in Cl(3,0) 44 products
// (one grouped GEMM) instead of 128. Where both adjoints are taken, they
// become one fc_product_pair_adjoints, whose kernel reads the pairs (44
// values per position) once instead of twice.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Clifford/IR/CliffordOps.h"

#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTASHAREFCADJOINTGEMMSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;
using clifford::FcProductAdjointOp;
using clifford::ProductOperand;

namespace {

/// What the pair cotangents of an adjoint depend on: the ops that may share
/// them (in one block, so that the first dominates the others).
using PairsKey = std::tuple<Block *, Attribute, Value, Value, Attribute>;

PairsKey getPairsKey(FcProductAdjointOp op) {
  // The layout by value: an absent attribute and an explicit false agree.
  return {op->getBlock(), op.getAlgebraAttr(), op.getCotangent(),
          op.getWeights(),
          BoolAttr::get(op.getContext(), op.getTransposeWeights())};
}

struct ShareFcAdjointGemms final
    : mlir::uta::impl::UTAShareFcAdjointGemmsPassBase<ShareFcAdjointGemms> {
  using UTAShareFcAdjointGemmsPassBase::UTAShareFcAdjointGemmsPassBase;

  void runOnOperation() override {
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    // The adjoints of each key, in program order.
    llvm::MapVector<PairsKey, SmallVector<FcProductAdjointOp>> sharing;
    getOperation().walk(
        [&](FcProductAdjointOp op) { sharing[getPairsKey(op)].push_back(op); });
    for (auto &[key, adjoints] : sharing) {
      FcProductAdjointOp first = adjoints.front();
      OpBuilder b(first);
      const ::uta::ga::Algebra &algebra = first.getAlgebra().getAlgebra();
      auto otherType = cast<RankedTensorType>(first.getOther().getType());
      auto pairsType = RankedTensorType::get({algebra.numPathGroups(),
                                              otherType.getDimSize(1),
                                              otherType.getDimSize(2)},
                                             otherType.getElementType());
      Value pairs = clifford::FcProductPairCotangentsOp::create(
          b, first.getLoc(), pairsType, first.getAlgebraAttr(),
          first.getCotangent(), first.getWeights(), first.getBladeAxisAttr(),
          first.getTransposeWeightsAttr());
      for (FcProductAdjointOp adjoint : adjoints)
        if (remarks)
          adjoint.emitRemark()
              << "fc_product_adjoint " << stringifyEnum(adjoint.getOperand())
              << " as fc_product_pair_adjoint of " << algebra.numPathGroups()
              << " path groups' pair cotangents (one GEMM each), read by "
              << adjoints.size() << " adjoint(s)";
      // x's and y's adjoints in one kernel, which reads the pairs once.
      FcProductAdjointOp lhs = findSingle(adjoints, ProductOperand::lhs);
      FcProductAdjointOp rhs = findSingle(adjoints, ProductOperand::rhs);
      // (The op's x, y and both gradients have one type.)
      if (lhs && rhs && lhs.getType() == rhs.getType() &&
          lhs.getOther().getType() == lhs.getType() &&
          rhs.getOther().getType() == lhs.getType()) {
        auto [earlier, later] = lhs->isBeforeInBlock(rhs) ? std::pair{lhs, rhs}
                                                          : std::pair{rhs, lhs};
        if (dominance.properlyDominates(later.getOther(), earlier)) {
          if (remarks)
            earlier.emitRemark() << "both adjoints of fc_product as one "
                                    "fc_product_pair_adjoints, which reads the "
                                    "pair cotangents once";
          b.setInsertionPoint(earlier);
          auto both = clifford::FcProductPairAdjointsOp::create(
              b, earlier.getLoc(), lhs.getType(), lhs.getType(),
              earlier.getAlgebraAttr(), pairs, rhs.getOther(), lhs.getOther(),
              earlier.getBladeAxisAttr());
          lhs.replaceAllUsesWith(both.getLhsGradient());
          rhs.replaceAllUsesWith(both.getRhsGradient());
          lhs.erase();
          rhs.erase();
          continue;
        }
      }
      for (FcProductAdjointOp adjoint : adjoints) {
        b.setInsertionPoint(adjoint);
        Value result = clifford::FcProductPairAdjointOp::create(
            b, adjoint.getLoc(), adjoint.getType(), adjoint.getAlgebraAttr(),
            adjoint.getOperandAttr(), pairs, adjoint.getOther(),
            adjoint.getBladeAxisAttr());
        adjoint.replaceAllUsesWith(result);
        adjoint.erase();
      }
    }
  }

  /// The one adjoint of `adjoints` with respect to `operand`, or null where
  /// there is none or several.
  static FcProductAdjointOp findSingle(ArrayRef<FcProductAdjointOp> adjoints,
                                       ProductOperand operand) {
    FcProductAdjointOp found;
    for (FcProductAdjointOp adjoint : adjoints) {
      if (adjoint.getOperand() != operand)
        continue;
      if (found)
        return nullptr;
      found = adjoint;
    }
    return found;
  }
};

} // namespace
