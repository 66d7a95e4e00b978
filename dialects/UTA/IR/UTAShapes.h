//===- UTAShapes.h - Shape rules of the uta ops -----------------*- C++ -*-===//
//
// The static-shape rules of the uta ops as plain functions over
// ArrayRef<int64_t>, shared by the op verifiers, the result-inferring op
// builders and the Graph API. Each function takes an optional `emitError`
// callback: when it is set, a failure is reported through it with the
// offending numbers (the verifiers pass `[&] { return op.emitOpError(); }`);
// when it is null, the function only answers success or failure.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_UTA_IR_UTASHAPES_H
#define UTA_DIALECTS_UTA_IR_UTASHAPES_H

#include "dialects/Interfaces/KernelOpInterface.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::uta {

/// Produces the diagnostic that a shape rule writes its reason into.
using ShapeErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// The NumPy broadcast of two static shapes: shapes are aligned at their last
/// dimension and each pair of sizes must be equal or contain a 1.
FailureOr<SmallVector<int64_t>>
inferBroadcastShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                    ShapeErrorFn emitError = nullptr);

/// Whether `input` broadcasts to exactly `result` by NumPy rules (the rank
/// may grow; a size may only change from 1).
LogicalResult verifyBroadcastableTo(ArrayRef<int64_t> input,
                                    ArrayRef<int64_t> result,
                                    ShapeErrorFn emitError = nullptr);

/// The result shape of `uta.matmul`: lhs [..., M, K] (lhs [..., K, M] when
/// `transposeA`) and rhs [..., K, N] (rhs [..., N, K] when `transposeB`) give
/// [..., M, N], the batch dimensions being the NumPy broadcast of both
/// operands' batch dimensions.
FailureOr<SmallVector<int64_t>>
inferMatmulShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs, bool transposeB,
                 bool transposeA = false, ShapeErrorFn emitError = nullptr);

/// Whether `index` names a dimension of a rank-`rank` tensor; `name` is the
/// attribute's name in the message ("dim", "axis").
LogicalResult verifyDimIndex(int64_t index, int64_t rank, StringRef name,
                             ShapeErrorFn emitError = nullptr);

/// Whether `dims` is a valid reduction dimension list for rank `rank`:
/// non-empty, in range, unique and ascending.
LogicalResult verifyReduceDims(ArrayRef<int64_t> dims, int64_t rank,
                               ShapeErrorFn emitError = nullptr);

/// The result shape of a reduction over `dims`: the reduced dimensions are
/// dropped, or kept with size 1 when `keepDims`.
FailureOr<SmallVector<int64_t>>
inferReduceShape(ArrayRef<int64_t> input, ArrayRef<int64_t> dims, bool keepDims,
                 ShapeErrorFn emitError = nullptr);

/// The result shape of `uta.transpose`: result[i] = input[permutation[i]].
FailureOr<SmallVector<int64_t>>
inferTransposeShape(ArrayRef<int64_t> input, ArrayRef<int64_t> permutation,
                    ShapeErrorFn emitError = nullptr);

/// The shape of `uta.layer_norm`'s weight and bias: input[axis:].
FailureOr<SmallVector<int64_t>>
inferLayerNormParamShape(ArrayRef<int64_t> input, int64_t axis,
                         ShapeErrorFn emitError = nullptr);

/// Whether `permutation` is 0, 1, ..., n-1.
bool isIdentityPermutation(ArrayRef<int64_t> permutation);

/// 0, 1, ..., rank-3, rank-1, rank-2: the transpose of a batch of matrices
/// (`rank` >= 2).
SmallVector<int64_t> getMatrixTranspose(int64_t rank);

/// The permutation of transpose(transpose(x, first), second) as one
/// transpose of x: composed[i] = first[second[i]].
SmallVector<int64_t> composePermutations(ArrayRef<int64_t> first,
                                         ArrayRef<int64_t> second);

} // namespace mlir::uta

#endif // UTA_DIALECTS_UTA_IR_UTASHAPES_H
