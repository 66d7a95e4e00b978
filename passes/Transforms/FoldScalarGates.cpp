//===- FoldScalarGates.cpp - Both scalar gates of fc_product on one side --===//
//
// uta-fold-scalar-gates: FCGP gates both operands of its fc_product, each
// gate a kernel that reads and writes a whole multivector tensor where
// fc_product copies its operands from memory (the tensor-core GEMM engine
// fuses no producer). Every pair product x_i y_j of fc_product carries
// Phi(x_0) Phi(y_0), so both factors can scale x alone: clifford.pair_gate
// reads x and the scalar blade of y and writes one tensor, and fc_product
// reads y as it is. Where fc_product runs on the warp-specialised schedule
// of sm_90a, which reads a gate tensor beside x and y, the factors
// Phi(x_0) Phi(y_0) alone are written instead (clifford.pair_gate_factor,
// an eighth of x in Cl(3,0)) and passed as fc_product's gate.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "passes/Transforms/FcProductRows.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTAFOLDSCALARGATESPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The scalar_gate that produces `value` if `user` is its only reader (a
/// gate read elsewhere keeps its kernel, and folding would add one).
clifford::ScalarGateOp getGateReadOnlyBy(Value value, Operation *user) {
  auto gate = value.getDefiningOp<clifford::ScalarGateOp>();
  if (!gate || !llvm::all_of(gate->getUsers(),
                             [&](Operation *reader) { return reader == user; }))
    return nullptr;
  return gate;
}

struct FoldFcProductScalarGates final
    : OpRewritePattern<clifford::FcProductOp> {
  FoldFcProductScalarGates(MLIRContext *context, bool gateOperand)
      : OpRewritePattern(context), gateOperand(gateOperand) {}

  LogicalResult matchAndRewrite(clifford::FcProductOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getGate())
      return rewriter.notifyMatchFailure(op, "already gated");
    clifford::ScalarGateOp lhsGate = getGateReadOnlyBy(op.getLhs(), op);
    clifford::ScalarGateOp rhsGate = getGateReadOnlyBy(op.getRhs(), op);
    if (!lhsGate || !rhsGate)
      return rewriter.notifyMatchFailure(
          op, "an operand is not a scalar_gate read by this op alone");
    // The gates scale blade 0 of fc_product's blade axis.
    if (lhsGate.getBladeAxis() != op.getBladeAxis() ||
        rhsGate.getBladeAxis() != op.getBladeAxis())
      return rewriter.notifyMatchFailure(op, "a gate of another blade axis");
    Value x = lhsGate.getInput(), y = rhsGate.getInput();
    // The warp-specialised schedule reads the gate operand through a
    // tensor map, as it reads x and y.
    if (gateOperand && hasTensorMapRows(op)) {
      auto type = cast<RankedTensorType>(x.getType());
      auto factors = clifford::PairGateFactorOp::create(
          rewriter, op.getLoc(), type.clone(type.getShape().drop_front()),
          op.getAlgebra(), x, y, op.getBladeAxis());
      rewriter.modifyOpInPlace(op, [&] {
        op.getLhsMutable().assign(x);
        op.getRhsMutable().assign(y);
        op.getGateMutable().assign(factors);
      });
      return success();
    }
    auto gated =
        clifford::PairGateOp::create(rewriter, op.getLoc(), x.getType(),
                                     op.getAlgebra(), x, y, op.getBladeAxis());
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(gated);
      op.getRhsMutable().assign(y);
    });
    return success();
  }

private:
  bool gateOperand;
};

struct UTAFoldScalarGatesPass final
    : mlir::uta::impl::UTAFoldScalarGatesPassBase<UTAFoldScalarGatesPass> {
  using UTAFoldScalarGatesPassBase::UTAFoldScalarGatesPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldScalarGatesPatterns(patterns, gateOperand);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::uta::populateFoldScalarGatesPatterns(RewritePatternSet &patterns,
                                                bool gateOperand) {
  patterns.add<FoldFcProductScalarGates>(patterns.getContext(), gateOperand);
}
