//===- MatmulEmitter.cpp - Kernel of uta.matmul ---------------------------===//
//
// One thread per output element: a dot product over K in f32 (f16 and bf16
// operands are widened on read). Batch dimensions broadcast NumPy-style.
// This is the simple, correct kernel; tiled tensor-core kernels replace it
// where they apply.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {
struct MatmulEmitter final : ElementEmitter {
  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange out,
                               KernelIO &io) const override {
    auto matmul = cast<MatmulOp>(op);
    Location loc = op->getLoc();
    ArrayRef<int64_t> lhsShape = getStaticShape(matmul.getLhs());
    ArrayRef<int64_t> rhsShape = getStaticShape(matmul.getRhs());
    bool transposeB = matmul.getTransposeB();
    int64_t k = lhsShape.back();

    ValueRange outBatch = ValueRange(out).drop_back(2);
    Value m = out[out.size() - 2], n = out.back();
    SmallVector<Value> lhsBatch =
        broadcastIndices(b, loc, outBatch, lhsShape.drop_back(2));
    SmallVector<Value> rhsBatch =
        broadcastIndices(b, loc, outBatch, rhsShape.drop_back(2));

    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value upper = arith::ConstantIndexOp::create(b, loc, k);
    auto loop = scf::ForOp::create(
        b, loc, zero, upper, one, ValueRange{f32Constant(b, loc, 0.0)},
        [&](OpBuilder &nb, Location, Value kk, ValueRange acc) {
          SmallVector<Value> lhsIndex(lhsBatch), rhsIndex(rhsBatch);
          lhsIndex.append({m, kk});
          if (transposeB)
            rhsIndex.append({n, kk});
          else
            rhsIndex.append({kk, n});
          Value lhs = io.read(nb, loc, 0, lhsIndex);
          Value rhs = io.read(nb, loc, 1, rhsIndex);
          Value product = arith::MulFOp::create(nb, loc, lhs, rhs);
          scf::YieldOp::create(
              nb, loc,
              ValueRange{arith::AddFOp::create(nb, loc, acc[0], product)});
        });
    return loop.getResult(0);
  }
};
} // namespace

void mlir::uta::populateMatmulKernelEmitters(KernelEmitterRegistry &registry) {
  registry.add<MatmulEmitter, MatmulOp>();
}
