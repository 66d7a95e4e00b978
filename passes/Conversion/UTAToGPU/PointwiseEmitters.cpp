//===- PointwiseEmitters.cpp - Kernels of elementwise and layout ops ------===//
//
// One thread per output element, or 4 consecutive ones when vectorized
// (ElementEmitter). Elementwise ops read their operands at the broadcast
// index; transpose, reshape and broadcast_to only remap the index; cast is a
// read (widening to f32) and a write (rounding to the result type). Reads
// that keep the result's innermost index become vector loads; a transpose's
// and a reshape's remapped reads stay scalar. A transpose that moves the
// innermost axis, as the root of its kernel, goes through workgroup memory
// in 32x32 tiles instead, so that both its reads and its writes run along
// innermost axes. A transpose with round_to_tf32 rounds what it moves.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/ScalarMath.h"

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;

namespace {

/// f32 `value` (a scalar or a vector) rounded to TF32, to nearest with ties to
/// even, by its bits: add half of the 13 dropped bits' unit (less one where
/// the kept part is even), then clear them. NaN is kept as it is; the add
/// could turn one into an infinity.
Value emitRoundToTf32(OpBuilder &b, Location loc, Value value) {
  Type bitsType = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    bitsType = vector.clone(bitsType);
  auto constant = [&](int32_t v) -> Value {
    TypedAttr attr = b.getI32IntegerAttr(v);
    if (auto vector = dyn_cast<VectorType>(bitsType))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
  Value bits = arith::BitcastOp::create(b, loc, bitsType, value);
  Value shifted = arith::ShRUIOp::create(b, loc, bits, constant(13));
  Value keptIsOdd = arith::AndIOp::create(b, loc, shifted, constant(1));
  Value half = arith::AddIOp::create(b, loc, keptIsOdd, constant(0xfff));
  Value sum = arith::AddIOp::create(b, loc, bits, half);
  Value cleared = arith::AndIOp::create(b, loc, sum, constant(~0x1fff));
  Value rounded = arith::BitcastOp::create(b, loc, value.getType(), cleared);
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  return arith::SelectOp::create(b, loc, isNan, value, rounded);
}

/// `value`, an element `op` moves, as its result holds it.
Value emitMovedValue(OpBuilder &b, Operation *op, Value value) {
  auto transpose = dyn_cast<TransposeOp>(op);
  if (!transpose || !transpose.getRoundToTf32())
    return value;
  return emitRoundToTf32(b, op->getLoc(), value);
}

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
struct LayoutEmitter : ElementEmitter {
  bool isReplicable() const override { return true; }

  FailureOr<Value> emitElement(OpBuilder &b, Operation *op, ValueRange indices,
                               KernelIO &io) const override {
    Value value =
        io.read(b, op->getLoc(), 0, mapToSourceIndices(b, op, indices));
    return emitMovedValue(b, op, value);
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

/// Transposes whose permutation moves the innermost axis. Element by element
/// the reads of the source stride across its rows; as the root of a kernel a
/// block instead moves a 32x32 tile: the source's innermost axis (result
/// axis `r`) against the result's innermost axis (source axis `q`), read
/// along the source's rows into workgroup memory, written along the
/// result's rows after a barrier. Fused producers are recomputed at the
/// source indices, as io.read does for any element.
struct TransposeEmitter final : LayoutEmitter {
  /// Tile edge, and the rows a block's 32 x 8 threads take per pass.
  static constexpr int64_t kTile = 32, kRowsPerPass = 8;
  static constexpr int64_t kBlockSize = kTile * kRowsPerPass;

  /// Where tiling applies: the innermost axis moves, and both innermost
  /// extents fill at least half a tile (narrower rows gain nothing).
  static bool isTiled(Operation *op) {
    ArrayRef<int64_t> perm = cast<TransposeOp>(op).getPermutation();
    int64_t rank = perm.size();
    if (rank < 2 || perm.back() == rank - 1)
      return false;
    ArrayRef<int64_t> source = getStaticShape(op->getOperand(0));
    return source.back() >= kTile / 2 && source[perm.back()] >= kTile / 2;
  }

  /// Blocks: the tiles of every index of the axes that are neither.
  static int64_t getNumBlocks(Operation *op) {
    ArrayRef<int64_t> perm = cast<TransposeOp>(op).getPermutation();
    ArrayRef<int64_t> source = getStaticShape(op->getOperand(0));
    int64_t rank = source.size(), q = perm.back(), blocks = 1;
    for (int64_t axis = 0; axis < rank; ++axis)
      blocks *= axis == q || axis == rank - 1
                    ? llvm::divideCeil(source[axis], kTile)
                    : source[axis];
    return blocks;
  }

  int64_t getNumThreads(Operation *op, bool vectorize) const override {
    if (!isTiled(op))
      return LayoutEmitter::getNumThreads(op, vectorize);
    return getNumBlocks(op) * kBlockSize;
  }

  std::optional<int64_t> getBlockSize(Operation *op,
                                      bool vectorize) const override {
    if (!isTiled(op))
      return std::nullopt;
    return kBlockSize;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override {
    if (!isTiled(op))
      return LayoutEmitter::emit(b, op, thread, io, vectorize);
    Location loc = op->getLoc();
    ArrayRef<int64_t> perm = cast<TransposeOp>(op).getPermutation();
    ArrayRef<int64_t> source = getStaticShape(op->getOperand(0));
    int64_t rank = source.size(), q = perm.back(), inner = rank - 1;
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto below = [&](Value v, int64_t bound) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                                   index(bound));
    };
    // One op per statement: the IR must not depend on the order in which
    // C++ evaluates arguments.
    auto inBounds = [&](ArrayRef<Value> indices) -> Value {
      Value alongQ = below(indices[q], source[q]);
      Value alongInner = below(indices[inner], source[inner]);
      return arith::AndIOp::create(b, loc, alongQ, alongInner);
    };
    auto guarded = [&](Value condition, function_ref<void()> body) {
      auto branch = scf::IfOp::create(b, loc, condition, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      body();
    };

    // The block's tile: its index along every source axis, in tiles along
    // q and the innermost one.
    SmallVector<int64_t> grid(source);
    grid[q] = llvm::divideCeil(source[q], kTile);
    grid[inner] = llvm::divideCeil(source[inner], kTile);
    Value block = arith::DivUIOp::create(b, loc, thread, index(kBlockSize));
    Value local = arith::RemUIOp::create(b, loc, thread, index(kBlockSize));
    Value tx = arith::RemUIOp::create(b, loc, local, index(kTile));
    Value ty = arith::DivUIOp::create(b, loc, local, index(kTile));
    SmallVector<Value> origin = delinearize(b, loc, block, grid);
    Value qFirst = arith::MulIOp::create(b, loc, origin[q], index(kTile));
    Value innerFirst =
        arith::MulIOp::create(b, loc, origin[inner], index(kTile));

    // [kTile][kTile + 1]: the padding column puts a tile's column in 32
    // banks.
    int64_t pitch = kTile + 1;
    Value tile = io.allocateWorkgroupBuffer(b, loc, kTile * pitch);
    auto at = [&](Value row, Value column) -> Value {
      return arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, row, index(pitch)), column);
    };
    for (int64_t pass = 0; pass < kTile / kRowsPerPass; ++pass) {
      // Row ty + 8 pass of the tile along q, column tx along the innermost.
      Value row = arith::AddIOp::create(b, loc, ty, index(pass * kRowsPerPass));
      SmallVector<Value> indices(origin);
      indices[q] = arith::AddIOp::create(b, loc, qFirst, row);
      indices[inner] = arith::AddIOp::create(b, loc, innerFirst, tx);
      Value inside = inBounds(indices);
      guarded(inside, [&] {
        Value value = io.read(b, loc, 0, indices);
        memref::StoreOp::create(b, loc, value, tile, at(row, tx));
      });
    }
    gpu::BarrierOp::create(b, loc);
    for (int64_t pass = 0; pass < kTile / kRowsPerPass; ++pass) {
      // The result's innermost index runs along source axis q: thread tx
      // writes element (q = tx, inner = ty + 8 pass) of the tile.
      Value column =
          arith::AddIOp::create(b, loc, ty, index(pass * kRowsPerPass));
      SmallVector<Value> sourceIndices(origin);
      sourceIndices[q] = arith::AddIOp::create(b, loc, qFirst, tx);
      sourceIndices[inner] = arith::AddIOp::create(b, loc, innerFirst, column);
      Value inside = inBounds(sourceIndices);
      guarded(inside, [&] {
        Value value = emitMovedValue(
            b, op, memref::LoadOp::create(b, loc, tile, at(tx, column)));
        SmallVector<Value> result;
        for (int64_t from : perm)
          result.push_back(sourceIndices[from]);
        io.write(b, loc, 0, result, value);
      });
    }
    return success();
  }
};

} // namespace

void mlir::uta::populatePointwiseKernelEmitters(
    KernelEmitterRegistry &registry) {
  registry.add<ElementwiseEmitter, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp,
               PowOp, NegOp, AbsOp, SignOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
               TanhOp, ErfOp, SigmoidOp, ReluOp, SiluOp, GeluOp>();
  registry.add<TransposeEmitter, TransposeOp>();
  registry.add<LayoutEmitter, ReshapeOp, BroadcastToOp, CastOp>();
}
