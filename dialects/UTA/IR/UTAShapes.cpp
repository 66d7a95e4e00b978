//===- UTAShapes.cpp - Shape rules of the uta ops -------------------------===//
//
// Static-shape inference and checks for the uta ops (see UTAShapes.h). The
// messages name the offending sizes, so that a verifier that forwards them
// needs no second look at the shapes.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAShapes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::uta;

/// Appends "[4, 8]" to a diagnostic.
static InFlightDiagnostic &printShape(InFlightDiagnostic &diag,
                                      ArrayRef<int64_t> shape) {
  diag << "[";
  llvm::interleave(
      shape, [&](int64_t size) { diag << size; }, [&] { diag << ", "; });
  return diag << "]";
}

/// The broadcast of `lhs` and `rhs`; `what` names the pair in the message
/// ("operand shapes", "batch dimensions").
static FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                       ArrayRef<int64_t> rhs,
                                                       StringRef what,
                                                       ShapeErrorFn emitError) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the last dimension; a missing leading dimension acts as 1.
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (l != r && l != 1 && r != 1) {
      if (emitError) {
        InFlightDiagnostic diag = emitError();
        diag << what << " ";
        printShape(diag, lhs) << " and ";
        printShape(diag, rhs) << " are not broadcast-compatible: " << l
                              << " and " << r << " differ and neither is 1";
      }
      return failure();
    }
    shape[rank - 1 - i] = l == 1 ? r : l;
  }
  return shape;
}

FailureOr<SmallVector<int64_t>>
mlir::uta::inferBroadcastShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                               ShapeErrorFn emitError) {
  return broadcastShapes(lhs, rhs, "operand shapes", emitError);
}

LogicalResult mlir::uta::verifyBroadcastableTo(ArrayRef<int64_t> input,
                                               ArrayRef<int64_t> result,
                                               ShapeErrorFn emitError) {
  if (input.size() > result.size()) {
    if (emitError)
      emitError() << "input rank " << input.size() << " exceeds result rank "
                  << result.size();
    return failure();
  }
  size_t offset = result.size() - input.size();
  for (auto [i, size] : llvm::enumerate(input)) {
    int64_t target = result[offset + i];
    if (size == target || size == 1)
      continue;
    if (emitError) {
      InFlightDiagnostic diag = emitError();
      diag << "input shape ";
      printShape(diag, input) << " is not broadcastable to result shape ";
      printShape(diag, result)
          << ": input dimension " << i << " has size " << size
          << " but result dimension " << offset + i << " has size " << target;
    }
    return failure();
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
mlir::uta::inferMatmulShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                            bool transposeB, bool transposeA,
                            ShapeErrorFn emitError) {
  if (lhs.size() < 2 || rhs.size() < 2) {
    if (emitError)
      emitError() << "lhs and rhs must have rank >= 2, got ranks " << lhs.size()
                  << " and " << rhs.size();
    return failure();
  }
  size_t lr = lhs.size(), rr = rhs.size();
  int64_t m = transposeA ? lhs[lr - 1] : lhs[lr - 2];
  int64_t lhsK = transposeA ? lhs[lr - 2] : lhs[lr - 1];
  int64_t rhsK = transposeB ? rhs[rr - 1] : rhs[rr - 2];
  int64_t n = transposeB ? rhs[rr - 2] : rhs[rr - 1];
  if (lhsK != rhsK) {
    if (emitError)
      emitError() << "contraction dimensions differ: lhs has K = " << lhsK
                  << " but rhs has K = " << rhsK;
    return failure();
  }
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(
      lhs.drop_back(2), rhs.drop_back(2), "batch dimensions", emitError);
  if (failed(shape))
    return failure();
  shape->push_back(m);
  shape->push_back(n);
  return shape;
}

LogicalResult mlir::uta::verifyDimIndex(int64_t index, int64_t rank,
                                        StringRef name,
                                        ShapeErrorFn emitError) {
  if (index >= 0 && index < rank)
    return success();
  if (emitError)
    emitError() << name << " " << index << " is out of range for rank " << rank;
  return failure();
}

LogicalResult mlir::uta::verifyReduceDims(ArrayRef<int64_t> dims, int64_t rank,
                                          ShapeErrorFn emitError) {
  if (dims.empty()) {
    if (emitError)
      emitError() << "dims must not be empty";
    return failure();
  }
  for (int64_t dim : dims)
    if (failed(verifyDimIndex(dim, rank, "dim", emitError)))
      return failure();
  for (size_t i = 1; i < dims.size(); ++i) {
    if (dims[i - 1] < dims[i])
      continue;
    if (emitError) {
      InFlightDiagnostic diag = emitError();
      diag << "dims must be unique and ascending, got ";
      printShape(diag, dims);
    }
    return failure();
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
mlir::uta::inferReduceShape(ArrayRef<int64_t> input, ArrayRef<int64_t> dims,
                            bool keepDims, ShapeErrorFn emitError) {
  if (failed(verifyReduceDims(dims, input.size(), emitError)))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(input)) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(i)))
      shape.push_back(size);
    else if (keepDims)
      shape.push_back(1);
  }
  return shape;
}

FailureOr<SmallVector<int64_t>>
mlir::uta::inferTransposeShape(ArrayRef<int64_t> input,
                               ArrayRef<int64_t> permutation,
                               ShapeErrorFn emitError) {
  if (permutation.size() != input.size()) {
    if (emitError)
      emitError() << "permutation has " << permutation.size()
                  << " entries but the input has rank " << input.size();
    return failure();
  }
  int64_t rank = input.size();
  SmallVector<bool> seen(rank, false);
  for (int64_t entry : permutation) {
    if (entry >= 0 && entry < rank && !seen[entry]) {
      seen[entry] = true;
      continue;
    }
    if (emitError) {
      InFlightDiagnostic diag = emitError();
      diag << "permutation ";
      printShape(diag, permutation)
          << " is not a permutation of 0.." << rank - 1;
    }
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t entry : permutation)
    shape.push_back(input[entry]);
  return shape;
}

FailureOr<SmallVector<int64_t>>
mlir::uta::inferLayerNormParamShape(ArrayRef<int64_t> input, int64_t axis,
                                    ShapeErrorFn emitError) {
  if (failed(verifyDimIndex(axis, input.size(), "axis", emitError)))
    return failure();
  return SmallVector<int64_t>(input.drop_front(axis));
}

bool mlir::uta::isIdentityPermutation(ArrayRef<int64_t> permutation) {
  for (auto [i, entry] : llvm::enumerate(permutation))
    if (entry != static_cast<int64_t>(i))
      return false;
  return true;
}

SmallVector<int64_t> mlir::uta::getMatrixTranspose(int64_t rank) {
  assert(rank >= 2 && "a matrix transpose needs two axes");
  SmallVector<int64_t> permutation(rank);
  std::iota(permutation.begin(), permutation.end(), 0);
  std::swap(permutation[rank - 1], permutation[rank - 2]);
  return permutation;
}

SmallVector<int64_t> mlir::uta::composePermutations(ArrayRef<int64_t> first,
                                                    ArrayRef<int64_t> second) {
  SmallVector<int64_t> composed;
  for (int64_t entry : second)
    composed.push_back(first[entry]);
  return composed;
}
