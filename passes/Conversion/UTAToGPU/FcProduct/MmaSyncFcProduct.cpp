//===- MmaSyncFcProduct.cpp - fc_product on the mma.sync mainloop ---------===//
//
// The mma.sync schedule's pipeline (Gemm/MmaSyncGemm.h) with, per stage, an
// x and a y tile per term of the step's slot (zeros for a missing term)
// and a B tile; the A fragments are the signed pair products of the x and y
// fragments, which share one layout. fc_product's B is the weights of the
// slot's path, its x and y tiles laid out like A ([M][K], K the input
// features); fc_product_weight_gradient's B is the cotangent's blade of the
// slot, its x and y tiles transposed ([K][M], K the batch, M the input
// features, as they lie in memory).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/MmaSyncGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// fc_product (and its weight gradient) on the mma.sync mainloop: per step
/// an x and a y tile per term and a B tile, A fragments formed from them.
class MmaSyncFcProductEmitter : MmaSyncGemmEmitter {
public:
  MmaSyncFcProductEmitter(OpBuilder &b, Location loc, const FcProductPlan &plan,
                          KernelIO &io)
      : MmaSyncGemmEmitter(b, loc, plan.gemm, io) {}

  LogicalResult emit(const FcProductGemm &fc, FcPairOperands operands,
                     ElementEpilogue epilogue);
};

} // namespace

LogicalResult MmaSyncFcProductEmitter::emit(const FcProductGemm &fc,
                                            FcPairOperands operands,
                                            ElementEpilogue epilogue) {
  Value x = io.getOperandBuffer(operands.lhs),
        y = io.getOperandBuffer(operands.rhs),
        bGlobal = io.getOperandBuffer(operands.b);
  if (!x || !y || !bGlobal)
    return emitError(loc, "the mma.sync fc_product reads x, y and its B "
                          "operand from buffers");
  emitThreadPosition();
  initOperands();
  Value blade = block.batch.front();
  int64_t terms = fc.termsPerSlot;
  int64_t kTiles = llvm::divideCeil(p.k, c.tileK);

  // fc_product's weights: w[path] is [Fin][Fout], or [Fout][Fin] (K-major,
  // transpose_weights); the weight gradient's cotangent: g[blade] is
  // [B][Fout].
  bOperand.global = bGlobal;
  bOperand.buffer = io.allocateWorkgroupBuffer(
      b, loc, {c.stages, bOperand.rows, bOperand.columns}, p.elementType);
  // An x and a y tile per term, laid out like A's (transposed where the
  // problem's A is: the weight gradient's pairs [2^n, B, Fin]).
  SmallVector<StagedOperand> lhsTiles(terms, a), rhsTiles(terms, a);
  for (auto [lhsTile, rhsTile] : llvm::zip_equal(lhsTiles, rhsTiles)) {
    lhsTile.global = x;
    rhsTile.global = y;
    for (StagedOperand *tile : {&lhsTile, &rhsTile})
      tile->buffer = io.allocateWorkgroupBuffer(
          b, loc, {c.stages, tile->rows, tile->columns}, p.elementType);
  }
  auto loadPair = [&](const StagedOperand &tile, Value stage, int64_t mi,
                      int64_t ks) {
    return p.transposeA ? loadATransposed(tile, stage, mi, ks)
                        : loadA(tile, stage, mi, ks);
  };

  // The blade's steps: its slots times the K tiles.
  Value steps = emitFcProductStepCount(b, loc, fc, blade, kTiles);
  auto lookup = [&](Value step) {
    return emitFcProductStep(b, loc, fc, blade, step, kTiles);
  };

  Value zeroSign = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<Value> signs;
  aFragment = [&](Value stage, int64_t mi, int64_t ks) {
    // sum over terms of sign * x_i * y_j, on the fragments: x's and y's
    // tiles have the same layout, so their fragments match element-wise.
    Value sum;
    for (int64_t t = 0; t < terms; ++t) {
      Value product =
          arith::MulFOp::create(b, loc, loadPair(lhsTiles[t], stage, mi, ks),
                                loadPair(rhsTiles[t], stage, mi, ks));
      Value sign =
          vector::BroadcastOp::create(b, loc, product.getType(), signs[t]);
      product = arith::MulFOp::create(b, loc, product, sign);
      sum = sum ? arith::AddFOp::create(b, loc, sum, product).getResult()
                : product;
    }
    return sum;
  };
  SmallVector<Value> accumulators = emitMainLoop(
      steps,
      [&](Value step, Value stage) {
        FcProductStep info = lookup(step);
        Value k0 = mul(rem(step, kTiles), c.tileK);
        for (int64_t t = 0; t < terms; ++t) {
          // A missing term's tiles are zeros.
          Value present = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::ONE, info.sign[t], zeroSign);
          lhsTiles[t].batch = {info.lhs[t]};
          rhsTiles[t].batch = {info.rhs[t]};
          Value rowOrigin = p.transposeA ? k0 : block.row;
          Value columnOrigin = p.transposeA ? block.row : k0;
          copyTileAt(lhsTiles[t], rowOrigin, columnOrigin, stage, present);
          copyTileAt(rhsTiles[t], rowOrigin, columnOrigin, stage, present);
        }
        bOperand.batch = {info.path};
        if (p.transposeB)
          copyTileAt(bOperand, block.column, k0, stage, /*enabled=*/nullptr);
        else
          copyTileAt(bOperand, k0, block.column, stage, /*enabled=*/nullptr);
      },
      [&](Value step, Value stage, SmallVectorImpl<Value> &acc) {
        signs = lookup(step).sign;
        computeStage(stage, acc);
      });
  emitEpilogue(accumulators, epilogue);
  return success();
}

LogicalResult mlir::uta::emitMmaSyncFcProduct(OpBuilder &b, Location loc,
                                              const FcProductPlan &plan,
                                              const FcProductGemm &fc,
                                              KernelIO &io,
                                              ElementEpilogue epilogue) {
  assert(!fc.gated && "only the warp-specialised schedule reads a gate");
  return MmaSyncFcProductEmitter(b, loc, plan, io)
      .emit(fc, {/*lhs=*/0, /*rhs=*/1, /*b=*/2}, epilogue);
}

LogicalResult mlir::uta::emitMmaSyncFcProductWeightGradient(
    OpBuilder &b, Location loc, const FcProductPlan &plan,
    const FcProductGemm &fc, KernelIO &io, ElementEpilogue epilogue) {
  return MmaSyncFcProductEmitter(b, loc, plan, io)
      .emit(fc, {/*lhs=*/1, /*rhs=*/2, /*b=*/0}, epilogue);
}
