//===- FcProductEmitter.cpp - The kernel of clifford.fc_product
//-------------===//
//
// x, y [2^n, B, Fin], w [P, Fin, Fout] -> [2^n, B, Fout]: the fully
// connected geometric product of the FCGP layer (SPEC.md).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace {

/// x, y [2^n, B, Fin], w [P, Fin, Fout]: one thread per (b, o), a loop over
/// the input features with one f32 accumulator per result blade.
struct FcProductEmitter final : OpKernelEmitter {
  int64_t getNumThreads(Operation *op, bool) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    auto product = cast<FcProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    SmallVector<Value> bo = delinearize(
        b, loc, thread, getStaticShape(product.getResult()).drop_front());
    Value batch = bo[0], o = bo[1];
    int64_t inFeatures = getStaticShape(product.getLhs())[2];
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductKind::Geometric, lhsBlades, rhsBlades);

    SmallVector<Value> zeros(algebra.numBlades(), f32Constant(b, loc, 0.0));
    ValueRange sums =
        emitLoop(b, loc, inFeatures, zeros,
                 [&](OpBuilder &nb, Value fi, ValueRange acc) {
                   Value at[] = {batch, fi};
                   BladeReader x(io, 0, at, 0), y(io, 1, at, 0);
                   PathWeightReader w(io, 2, [&](Value path) {
                     return SmallVector<Value>{path, fi, o};
                   });
                   SmallVector<Value> terms =
                       emitPathWeighted(nb, loc, algebra, buckets, x, y, w);
                   SmallVector<Value> next;
                   for (auto [sum, term] : llvm::zip_equal(acc, terms))
                     next.push_back(arith::AddFOp::create(nb, loc, sum, term));
                   return next;
                 });
    for (auto [blade, value] : llvm::enumerate(sums))
      io.write(
          b, loc, 0,
          insertIndex(bo, 0, arith::ConstantIndexOp::create(b, loc, blade)),
          value);
    return success();
  }
};

} // namespace

void mlir::uta::clifford_kernels::addFcProductEmitter(
    KernelEmitterRegistry &registry) {
  registry.add<FcProductEmitter, FcProductOp>();
}
