//===- FcProductTiling.h - How fc_product's kernel tiles --------*- C++ -*-===//
//
// clifford.fc_product (x, y [2^n, B, Fin], w [P, Fin, Fout]) runs as blocks
// that each own a tile of batch rows by output features. A block walks the
// input features in chunks: it stages, per (row, input feature) of the
// chunk, the partial products of x and y summed per (path, blade) in
// workgroup memory, then each thread accumulates its register tile from the
// stage and the weights. The plan lives here, below the passes, because two
// of them need it: the lowering (FcProductEmitter.cpp) builds the kernel
// from it, and the fusion cost model (FuseKernels.cpp) charges a producer
// fused into fc_product for the number of output tiles, which is how often
// the blocks recompute each of its positions.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_FCPRODUCTTILING_H
#define UTA_PASSES_ANALYSIS_FCPRODUCTTILING_H

#include "dialects/Clifford/Algebra/Algebra.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::uta {

namespace clifford {
class FcProductOp;
} // namespace clifford

/// A slot of the stage: the partial product of one (row, input feature) on
/// one path, landing on one result blade.
struct FcProductSlot {
  unsigned path;
  unsigned blade;
};

/// How fc_product's kernel covers [B, Fout] and walks Fin.
struct FcProductTiling {
  /// Threads per block, colThreads * rowThreads; consecutive threads take
  /// consecutive output features, so weight loads and result stores
  /// coalesce.
  int64_t threads = 1;
  int64_t colThreads = 1, rowThreads = 1;
  /// The register tile of one thread: tileRows batch rows (consecutive) by
  /// tileCols output features (colThreads apart).
  int64_t tileRows = 1, tileCols = 1;
  /// A block's tile: blockRows = rowThreads * tileRows batch rows by
  /// blockCols = colThreads * tileCols output features.
  int64_t blockRows = 1, blockCols = 1;
  /// Input features staged per chunk (the last chunk may hold fewer).
  int64_t chunk = 1;
  /// Tiles along B and along Fout; the kernel has rowTiles * colTiles blocks.
  int64_t rowTiles = 0, colTiles = 0;
  /// The stage's slots per (row, input feature), by path, then blade: every
  /// (path, blade) on which a non-zero Cayley term of the operands' possibly
  /// non-zero blades lands.
  llvm::SmallVector<FcProductSlot> slots;
  /// The result blades that some slot lands on; the others are zero.
  uint64_t resultBlades = 0;

  /// rowTiles * colTiles, and that times `threads`, or INT64_MAX where
  /// the product does not fit (overflow-checked: the caller refuses a
  /// kernel past 2^31 - 1 threads).
  int64_t getNumBlocks() const;
  int64_t getNumThreads() const;
  /// f32 values of workgroup memory the stage takes.
  int64_t getStageSize() const {
    return static_cast<int64_t>(slots.size()) * blockRows * chunk;
  }
  /// How many times the kernel reads each (b, fi) position of x and of y,
  /// and so recomputes a producer fused into it: once per output tile.
  int64_t getOperandReads() const { return colTiles; }
};

/// The most threads per block.
inline constexpr int64_t kFcProductMaxThreads = 256;
/// The most f32 accumulators per thread (tileRows * tileCols * result
/// blades), where the algebra allows.
inline constexpr int64_t kFcProductMaxAccumulators = 64;
/// The most workgroup memory the stage takes: 32 KiB, what Vulkan
/// implementations (lavapipe) commonly give a workgroup.
inline constexpr int64_t kFcProductMaxStageValues = 32 * 1024 / 4;

/// The plan for an fc_product of `algebra` over x, y [2^n, batch, inFeatures]
/// whose possibly non-zero blades are `lhsBlades` and `rhsBlades`, into
/// `outFeatures` outputs.
FcProductTiling getFcProductTiling(const ::uta::ga::Algebra &algebra,
                                   uint64_t lhsBlades, uint64_t rhsBlades,
                                   int64_t batch, int64_t inFeatures,
                                   int64_t outFeatures);

/// The plan for `op`, with the blade sets it carries.
FcProductTiling getFcProductTiling(clifford::FcProductOp op);

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_FCPRODUCTTILING_H
