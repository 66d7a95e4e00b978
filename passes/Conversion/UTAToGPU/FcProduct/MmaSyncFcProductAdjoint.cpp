//===- MmaSyncFcProductAdjoint.cpp - fc_product_adjoint on mma.sync -------===//
//
// clifford.fc_product_adjoint as one GEMM per result blade on the mma.sync
// mainloop (Gemm/MmaSyncGemm.h): M the batch, N the input features, K the
// output features, once per term of the blade. A step copies the term's
// cotangent tile as A and its path's weights as B (K-contiguous where the
// weights are [P, Fin, Fout]). After a term's last K tile, the tile's
// accumulators are scaled element-wise by the term's sign and other operand
// and added to the result's sums, then start again from zero: the products
// of one term are never stored.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/Gemm/MmaSyncGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

class MmaSyncFcProductAdjointEmitter : MmaSyncGemmEmitter {
public:
  using MmaSyncGemmEmitter::MmaSyncGemmEmitter;

  LogicalResult emit(const FcProductGemm &terms, ElementEpilogue epilogue);

private:
  /// Adds the tile's accumulators, scaled by `sign` and the other operand's
  /// blade `otherBlade`, to the sums after them, and zeros them.
  SmallVector<Value> emitFold(ValueRange accumulators, Value otherBlade,
                              Value sign);
  /// `index` + `offset`, clamped to `size` - 1 where the tiles do not
  /// divide `size`: an in-bounds read for an element the epilogue drops.
  Value clampedIndex(Value offset, Value index, int64_t size, int64_t tile);

  Value other;
};

} // namespace

Value MmaSyncFcProductAdjointEmitter::clampedIndex(Value offset, Value index,
                                                   int64_t size, int64_t tile) {
  Value sum = add(offset, index);
  if (size % tile == 0)
    return sum;
  return arith::MinUIOp::create(b, loc, sum, this->index(size - 1));
}

SmallVector<Value>
MmaSyncFcProductAdjointEmitter::emitFold(ValueRange accumulators,
                                         Value otherBlade, Value sign) {
  SmallVector<Value> zeros = getZeroAccumulators();
  size_t tiles = zeros.size();
  SmallVector<Value> folded(accumulators);
  forEachAccumulatorElement(
      [&](int64_t tile, int64_t i, int64_t j, Value row, Value column) {
        Value batchRow = clampedIndex(block.row, row, p.m, c.tileM);
        Value feature = clampedIndex(block.column, column, p.n, c.tileN);
        Value factor = memref::LoadOp::create(
            b, loc, other, ValueRange{otherBlade, batchRow, feature});
        Value scale = arith::MulFOp::create(b, loc, factor, sign);
        int64_t position[] = {i, j};
        Value product =
            vector::ExtractOp::create(b, loc, accumulators[tile], position);
        Value &sums = folded[tiles + tile];
        Value sum = vector::ExtractOp::create(b, loc, sums, position);
        Value scaled = arith::MulFOp::create(b, loc, scale, product);
        sum = arith::AddFOp::create(b, loc, sum, scaled);
        sums = vector::InsertOp::create(b, loc, sum, sums, position);
      });
  llvm::copy(zeros, folded.begin());
  return folded;
}

LogicalResult MmaSyncFcProductAdjointEmitter::emit(const FcProductGemm &terms,
                                                   ElementEpilogue epilogue) {
  a.global = io.getOperandBuffer(0);
  other = io.getOperandBuffer(1);
  bOperand.global = io.getOperandBuffer(2);
  if (!a.global || !other || !bOperand.global)
    return emitError(loc, "the mma.sync fc_product_adjoint reads the "
                          "cotangent, the other operand and the weights from "
                          "buffers");
  emitThreadPosition();
  initStagedOperands();

  // The blade's steps: its terms (one-term slots) times the K tiles of Fout.
  Value blade = block.batch.front();
  int64_t kTiles = llvm::divideCeil(p.k, c.tileK);
  Value steps = emitFcProductStepCount(b, loc, terms, blade, kTiles);
  auto lookup = [&](Value step) {
    return emitFcProductStep(b, loc, terms, blade, step, kTiles);
  };
  int64_t tiles = getZeroAccumulators().size();
  SmallVector<Value> accumulators = emitMainLoop(
      steps,
      [&](Value step, Value stage) {
        FcProductStep term = lookup(step);
        Value k0 = mul(rem(step, kTiles), c.tileK);
        a.batch = {term.lhs.front()};
        bOperand.batch = {term.path};
        copyTileAt(a, block.row, k0, stage, /*enabled=*/nullptr);
        if (p.transposeB)
          copyTileAt(bOperand, block.column, k0, stage, /*enabled=*/nullptr);
        else
          copyTileAt(bOperand, k0, block.column, stage, /*enabled=*/nullptr);
      },
      [&](Value, Value stage, SmallVectorImpl<Value> &acc) {
        computeStage(stage, acc);
      },
      /*extraAccumulators=*/tiles,
      [&](Value step, SmallVectorImpl<Value> &all) {
        Value lastTile =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                  rem(step, kTiles), index(kTiles - 1));
        auto fold = scf::IfOp::create(
            b, loc, lastTile,
            [&](OpBuilder &nb, Location) {
              OpBuilder::InsertionGuard insertion(b);
              b.setInsertionPointToEnd(nb.getInsertionBlock());
              FcProductStep term = lookup(step);
              scf::YieldOp::create(
                  b, loc, emitFold(all, term.rhs.front(), term.sign.front()));
            },
            [&](OpBuilder &nb, Location) {
              scf::YieldOp::create(nb, loc, all);
            });
        llvm::copy(fold.getResults(), all.begin());
      });
  emitEpilogue(ArrayRef<Value>(accumulators).drop_front(tiles), epilogue);
  return success();
}

LogicalResult mlir::uta::emitMmaSyncFcProductAdjoint(OpBuilder &b, Location loc,
                                                     const GemmPlan &plan,
                                                     const FcProductGemm &terms,
                                                     KernelIO &io,
                                                     ElementEpilogue epilogue) {
  return MmaSyncFcProductAdjointEmitter(b, loc, plan, io).emit(terms, epilogue);
}
