//===- PointwiseEmitters.cpp - Kernels of elementwise and layout ops ------===//
//
// One thread per output element. Elementwise ops read their operands at the
// broadcast index; transpose, reshape and broadcast_to only remap the index;
// cast is a read (widening to f32) and a write (rounding to the result type).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"

#include "dialects/UTA/IR/UTAOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The thread count of a single-result op with one thread per element.
int64_t countResultElements(Operation *op) {
  return getNumElements(getStaticShape(op->getResult(0)));
}

/// Elementwise ops with NumPy broadcasting of their operands.
struct ElementwiseEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    return countResultElements(op);
  }
  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    Location loc = op->getLoc();
    SmallVector<Value> indices =
        delinearize(b, loc, thread, getStaticShape(op->getResult(0)));
    SmallVector<Value> scalars;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      scalars.push_back(
          io.read(b, loc, i,
                  broadcastIndices(b, loc, indices, getStaticShape(operand))));
    FailureOr<Value> value = emitScalarElementwise(b, op, scalars);
    if (failed(value))
      return failure();
    io.write(b, loc, 0, indices, *value);
    return success();
  }
};

/// Layout ops: the output element is one input element at a remapped index.
struct LayoutEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op) const override {
    return countResultElements(op);
  }
  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override {
    Location loc = op->getLoc();
    SmallVector<Value> indices =
        delinearize(b, loc, thread, getStaticShape(op->getResult(0)));
    SmallVector<Value> source = mapToSourceIndices(b, op, indices);
    io.write(b, loc, 0, indices, io.read(b, loc, 0, source));
    return success();
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
               NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
               ReluOp, SiluOp, GeluOp>();
  registry.add<LayoutEmitter, TransposeOp, ReshapeOp, BroadcastToOp, CastOp>();
}
