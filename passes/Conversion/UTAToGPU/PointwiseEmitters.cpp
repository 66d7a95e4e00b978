//===- PointwiseEmitters.cpp - Kernels of elementwise and layout ops ------===//
//
// One thread per output element, or 4 consecutive ones when vectorized
// (ElementEmitter). Elementwise ops read their operands at the broadcast
// index; transpose, reshape and broadcast_to only remap the index; cast is a
// read (widening to f32) and a write (rounding to the result type). Reads
// that keep the result's innermost index become vector loads; a transpose's
// and a reshape's remapped reads stay scalar.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"

#include "dialects/UTA/IR/UTAOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// Elementwise ops with NumPy broadcasting of their operands.
struct ElementwiseEmitter final : ElementEmitter {
  bool isReplicable() const override { return true; }

  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange indices,
                               KernelIO &io) const override {
    Location loc = op->getLoc();
    SmallVector<Value> scalars;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      scalars.push_back(
          io.read(b, loc, i,
                  broadcastIndices(b, loc, indices, getStaticShape(operand))));
    return emitScalarElementwise(b, op, scalars);
  }
};

/// Layout ops: the output element is one input element at a remapped index.
struct LayoutEmitter final : ElementEmitter {
  bool isReplicable() const override { return true; }

  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange indices,
                               KernelIO &io) const override {
    return io.read(b, op->getLoc(), 0, mapToSourceIndices(b, op, indices));
  }

  static SmallVector<Value> mapToSourceIndices(OpBuilder &b, Operation *op,
                                               ValueRange indices) {
    Location loc = op->getLoc();
    ArrayRef<int64_t> sourceShape = getStaticShape(op->getOperand(0));
    if (auto transpose = dyn_cast<TransposeOp>(op)) {
      // Result dimension d is source dimension permutation[d].
      SmallVector<Value> source(indices.size());
      for (auto [d, from] : llvm::enumerate(transpose.getPermutation()))
        source[from] = indices[d];
      return source;
    }
    if (isa<ReshapeOp>(op)) {
      Value linear =
          linearize(b, loc, indices, getStaticShape(op->getResult(0)));
      return delinearize(b, loc, linear, sourceShape);
    }
    if (isa<BroadcastToOp>(op))
      return broadcastIndices(b, loc, indices, sourceShape);
    // Cast: same index; the conversion happens in read and write.
    return SmallVector<Value>(indices);
  }
};

} // namespace

void mlir::uta::populatePointwiseKernelEmitters(
    KernelEmitterRegistry &registry) {
  registry.add<ElementwiseEmitter, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp,
               PowOp, NegOp, AbsOp, SignOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
               TanhOp, ErfOp, SigmoidOp, ReluOp, SiluOp, GeluOp>();
  registry.add<LayoutEmitter, TransposeOp, ReshapeOp, BroadcastToOp, CastOp>();
}
