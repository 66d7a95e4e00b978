//===- VectorAccess.h - Vector loads and stores of buffers ------*- C++ -*-===//
//
// Vectorization of the kernels' global memory accesses. A vectorized thread
// computes 4 consecutive elements ("lanes") of its result along the innermost
// axis, emitting the scalar code of each lane in turn; a VectorAccessGroup
// then serves the buffer accesses of that code with one aligned
// vector<4xT> load or store (128 bits for f32, 64 for f16) per 4 elements
// instead of 4 scalar ones:
//
// - rows: lane k uses the innermost index inner[k] = inner[0] + k, inner[0]
//   a multiple of 4. A buffer accessed at (i..., inner[k]) whose innermost
//   size is a multiple of 4 is accessed through the vector at
//   (i..., inner[0]); an operand broadcast along the innermost axis (size 1)
//   is read with a scalar load, the same for every lane;
// - flat: lane k is element base + k (base a multiple of 4, base + 3 in
//   bounds) of the row-major order of `shape`. A buffer of that shape
//   accessed exactly at lane k's indices is accessed through the vector at
//   element base of its 1-D view; this covers innermost sizes that are not
//   multiples of 4, and the kernel computes the last N % 4 elements with
//   scalar code;
// - in every group, an access at a constant innermost index c of a buffer
//   whose innermost size is a multiple of 4 reads the aligned vector that
//   holds c (the blades of a multivector stored blade-last, the path
//   weights of a Flash Clifford layer).
//
// Alignment: every kernel buffer starts on a 16-byte boundary (the manifest
// gives each buffer `"alignment": 16`, which the runtimes enforce, and
// kernels take whole buffers, never views), and the rules above only form
// vectors whose first element has a row-major offset that is a multiple of
// 4, so each vector access is aligned to its size and says so (the
// `alignment` attribute, which NVPTX needs to emit ld.global.v4).
//
// Only accesses emitted directly in the group's block are grouped (a vector
// loaded there dominates every later lane); stores are deferred to the end
// of the group, which is safe because no kernel reads its result buffer.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_VECTORACCESS_H
#define UTA_PASSES_CONVERSION_UTATOGPU_VECTORACCESS_H

#include "mlir/IR/Builders.h"

namespace mlir::uta {

/// Elements per vector access (and lanes per vectorized thread).
constexpr int64_t kVectorWidth = 4;

/// What the lanes of a vectorized thread are (see the file comment).
struct AccessLanes {
  enum class Kind { Single, Rows, Flat };
  Kind kind = Kind::Single;
  /// Rows: the innermost index of each lane.
  SmallVector<Value> inner;
  /// Flat: the row-major element index of lane 0, the indices of each lane
  /// and the shape they index.
  Value flatBase;
  SmallVector<SmallVector<Value>> laneIndices;
  SmallVector<int64_t> flatShape;

  /// One lane: only constant innermost indices are grouped.
  static AccessLanes single() { return {}; }
  static AccessLanes rows(ArrayRef<Value> inner);
  static AccessLanes flat(Value base, ArrayRef<SmallVector<Value>> indices,
                          ArrayRef<int64_t> shape);
};

/// Serves the buffer accesses emitted in one block as vector accesses.
class VectorAccessGroup {
public:
  VectorAccessGroup(Block *block, AccessLanes lanes);

  /// The lane whose code is emitted next.
  void setLane(unsigned lane);
  /// The element (of the buffer's element type) of `buffer` at `indices`,
  /// extracted from a vector load of this group; null when the access is
  /// not one this group vectorizes.
  Value read(OpBuilder &b, Location loc, Value buffer, ValueRange indices);
  /// Takes the store of `element` (of the buffer's element type) to
  /// `buffer` at `indices` into a vector store emitted by finish(); false
  /// when the access is not one this group vectorizes.
  bool write(OpBuilder &b, Location loc, Value buffer, ValueRange indices,
             Value element);
  /// Emits the deferred stores: whole vectors as vector stores, any partly
  /// written vector element by element.
  void finish(OpBuilder &b, Location loc);

private:
  /// An index as a key: a constant by value, anything else by identity.
  struct IndexKey {
    Value value;
    int64_t constant = 0;
    bool operator==(const IndexKey &other) const {
      return value == other.value && constant == other.constant;
    }
  };
  /// Where an access lies: the vector holding it and the position in it.
  struct Placement {
    Value memref; // The buffer, or its 1-D view for flat lanes.
    SmallVector<Value> base;
    SmallVector<IndexKey> key;
    int64_t position;
  };
  struct PendingStore {
    Value buffer;
    Placement placement;
    SmallVector<Value> elements;
    SmallVector<SmallVector<Value>> indices;
  };

  static IndexKey keyOf(Value index);
  std::optional<Placement> place(OpBuilder &b, Location loc, Value buffer,
                                 ValueRange indices);
  Value getFlatView(OpBuilder &b, Location loc, Value buffer);

  Block *block;
  AccessLanes lanes;
  unsigned lane = 0;
  SmallVector<std::pair<SmallVector<IndexKey>, Value>> loaded;
  SmallVector<PendingStore, 2> pending;
  SmallVector<std::pair<Value, Value>> flatViews;
};

/// The vector type of `kVectorWidth` elements of `buffer`'s element type and
/// the byte alignment of an access to it.
std::pair<VectorType, int64_t> getVectorAccessType(Value buffer);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_VECTORACCESS_H
