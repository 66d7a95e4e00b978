//===- ReductionEmitters.cpp - Kernels of reductions and norms ------------===//
//
// One thread per output row: reduce_sum/max/mean loop over the reduced
// elements of one output element; softmax and layer_norm make their passes
// over one row (max, sum of exponentials, write; mean, variance, write).
// Accumulation is in f32, in index order.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::uta;

/// Emits `for i in [0, count): acc = step(i, acc)` from `init`; returns acc.
static Value
emitAccumulation(OpBuilder &b, Location loc, int64_t count, Value init,
                 llvm::function_ref<Value(OpBuilder &, Value, Value)> step) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value upper = arith::ConstantIndexOp::create(b, loc, count);
  auto loop =
      scf::ForOp::create(b, loc, zero, upper, one, ValueRange{init},
                         [&](OpBuilder &nb, Location, Value i, ValueRange acc) {
                           scf::YieldOp::create(nb, loc, step(nb, i, acc[0]));
                         });
  return loop.getResult(0);
}

/// Emits `for i in [0, count): body(i)`.
static void emitLoop(OpBuilder &b, Location loc, int64_t count,
                     llvm::function_ref<void(OpBuilder &, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value upper = arith::ConstantIndexOp::create(b, loc, count);
  scf::ForOp::create(b, loc, zero, upper, one, ValueRange{},
                     [&](OpBuilder &nb, Location, Value i, ValueRange) {
                       body(nb, i);
                       scf::YieldOp::create(nb, loc);
                     });
}

/// Interleaves the indices of the kept dimensions (`kept`, in order) with
/// those of the reduced dimensions `dims` (`reduced`, in order).
static SmallVector<Value> mergeIndices(ArrayRef<int64_t> dims, size_t rank,
                                       ValueRange kept, ValueRange reduced) {
  SmallVector<Value> indices;
  size_t k = 0, r = 0;
  for (size_t d = 0; d < rank; ++d)
    indices.push_back(llvm::is_contained(dims, int64_t(d)) ? reduced[r++]
                                                           : kept[k++]);
  return indices;
}

/// Splits `shape` into the sizes of the dimensions in `dims` and the others.
static std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
splitShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> reduced, kept;
  for (auto [d, size] : llvm::enumerate(shape))
    (llvm::is_contained(dims, int64_t(d)) ? reduced : kept).push_back(size);
  return {reduced, kept};
}

namespace {

struct ReduceEmitter final : ElementEmitter {
  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange out,
                               KernelIO &io) const override {
    Location loc = op->getLoc();
    ArrayRef<int64_t> inShape = getStaticShape(op->getOperand(0));
    ArrayRef<int64_t> dims = op->getAttrOfType<DenseI64ArrayAttr>(
                                   ReduceSumOp::getDimsAttrName(op->getName()))
                                 .asArrayRef();
    auto [reducedShape, keptShape] = splitShape(inShape, dims);
    // With keep_dims the reduced dimensions are size-1 entries of `out`.
    SmallVector<Value> kept;
    bool keepDims = out.size() == inShape.size();
    for (auto [d, index] : llvm::enumerate(out))
      if (!keepDims || !llvm::is_contained(dims, int64_t(d)))
        kept.push_back(index);
    int64_t count = getNumElements(reducedShape);

    bool isMax = isa<ReduceMaxOp>(op);
    Value init = f32Constant(
        b, loc, isMax ? -std::numeric_limits<double>::infinity() : 0.0);
    Value acc = emitAccumulation(
        b, loc, count, init, [&](OpBuilder &nb, Value i, Value acc) -> Value {
          SmallVector<Value> reduced = delinearize(nb, loc, i, reducedShape);
          Value x = io.read(nb, loc, 0,
                            mergeIndices(dims, inShape.size(), kept, reduced));
          // maximumf propagates NaN like the reference.
          if (isMax)
            return arith::MaximumFOp::create(nb, loc, acc, x);
          return arith::AddFOp::create(nb, loc, acc, x);
        });
    if (isa<ReduceMeanOp>(op))
      acc = arith::DivFOp::create(b, loc, acc, f32Constant(b, loc, count));
    return acc;
  }
};

/// softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max) along `dim`.
struct SoftmaxEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    auto softmax = cast<SoftmaxOp>(op);
    ArrayRef<int64_t> shape = getStaticShape(softmax.getInput());
    return getNumElements(shape) / shape[softmax.getDim()];
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    auto softmax = cast<SoftmaxOp>(op);
    Location loc = op->getLoc();
    ArrayRef<int64_t> shape = getStaticShape(softmax.getInput());
    int64_t dims[] = {static_cast<int64_t>(softmax.getDim())};
    auto [rowShape, keptShape] = splitShape(shape, dims);
    SmallVector<Value> kept = delinearize(b, loc, thread, keptShape);
    auto indexAt = [&](Value i) {
      return mergeIndices(dims, shape.size(), kept, ValueRange{i});
    };
    int64_t count = rowShape[0];

    Value max = emitAccumulation(
        b, loc, count,
        f32Constant(b, loc, -std::numeric_limits<double>::infinity()),
        [&](OpBuilder &nb, Value i, Value acc) -> Value {
          return arith::MaximumFOp::create(nb, loc, acc,
                                           io.read(nb, loc, 0, indexAt(i)));
        });
    auto shiftedExp = [&](OpBuilder &nb, Value i) -> Value {
      Value x = io.read(nb, loc, 0, indexAt(i));
      return math::ExpOp::create(nb, loc,
                                 arith::SubFOp::create(nb, loc, x, max));
    };
    Value sum = emitAccumulation(
        b, loc, count, f32Constant(b, loc, 0.0),
        [&](OpBuilder &nb, Value i, Value acc) -> Value {
          return arith::AddFOp::create(nb, loc, acc, shiftedExp(nb, i));
        });
    emitLoop(b, loc, count, [&](OpBuilder &nb, Value i) {
      io.write(nb, loc, 0, indexAt(i),
               arith::DivFOp::create(nb, loc, shiftedExp(nb, i), sum));
    });
    return success();
  }
};

/// (x - mean) / sqrt(biased variance + epsilon) * weight + bias over the
/// trailing dimensions axis..rank-1; the variance takes a second pass.
struct LayerNormEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    auto norm = cast<LayerNormOp>(op);
    return getNumElements(
        getStaticShape(norm.getInput()).take_front(norm.getAxis()));
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    auto norm = cast<LayerNormOp>(op);
    Location loc = op->getLoc();
    ArrayRef<int64_t> shape = getStaticShape(norm.getInput());
    int64_t axis = norm.getAxis();
    ArrayRef<int64_t> rowShape = shape.drop_front(axis);
    SmallVector<Value> outer =
        delinearize(b, loc, thread, shape.take_front(axis));
    int64_t count = getNumElements(rowShape);
    Value countF = f32Constant(b, loc, count);

    auto readX = [&](OpBuilder &nb, ValueRange inner) {
      SmallVector<Value> indices(outer);
      llvm::append_range(indices, inner);
      return io.read(nb, loc, 0, indices);
    };
    Value mean = arith::DivFOp::create(
        b, loc,
        emitAccumulation(b, loc, count, f32Constant(b, loc, 0.0),
                         [&](OpBuilder &nb, Value i, Value acc) -> Value {
                           Value x =
                               readX(nb, delinearize(nb, loc, i, rowShape));
                           return arith::AddFOp::create(nb, loc, acc, x);
                         }),
        countF);
    Value variance = arith::DivFOp::create(
        b, loc,
        emitAccumulation(
            b, loc, count, f32Constant(b, loc, 0.0),
            [&](OpBuilder &nb, Value i, Value acc) -> Value {
              Value d = arith::SubFOp::create(
                  nb, loc, readX(nb, delinearize(nb, loc, i, rowShape)), mean);
              return arith::AddFOp::create(
                  nb, loc, acc, arith::MulFOp::create(nb, loc, d, d));
            }),
        countF);
    Value epsilon = arith::ConstantOp::create(b, loc, norm.getEpsilonAttr());
    Value stddev = math::SqrtOp::create(
        b, loc, arith::AddFOp::create(b, loc, variance, epsilon));

    emitLoop(b, loc, count, [&](OpBuilder &nb, Value i) {
      SmallVector<Value> inner = delinearize(nb, loc, i, rowShape);
      Value centered = arith::SubFOp::create(nb, loc, readX(nb, inner), mean);
      Value normalized = arith::DivFOp::create(nb, loc, centered, stddev);
      Value scaled = arith::MulFOp::create(nb, loc, normalized,
                                           io.read(nb, loc, 1, inner));
      Value shifted =
          arith::AddFOp::create(nb, loc, scaled, io.read(nb, loc, 2, inner));
      SmallVector<Value> indices(outer);
      llvm::append_range(indices, inner);
      io.write(nb, loc, 0, indices, shifted);
    });
    return success();
  }
};

} // namespace

void mlir::uta::populateReductionKernelEmitters(
    KernelEmitterRegistry &registry) {
  registry.add<ReduceEmitter, ReduceSumOp, ReduceMaxOp, ReduceMeanOp>();
  registry.add<SoftmaxEmitter, SoftmaxOp>();
  registry.add<LayerNormEmitter, LayerNormOp>();
}
