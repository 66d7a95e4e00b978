//===- KernelOpInterface.h - What kernels know of an op ---------*- C++ -*-===//
//
// The fusion classes, the traits and the KernelOpInterface declared in
// KernelOpInterface.td, shared by the uta and clifford dialects.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_DIALECTS_INTERFACES_KERNELOPINTERFACE_H
#define UTA_DIALECTS_INTERFACES_KERNELOPINTERFACE_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir::uta {

/// What the fusion cost model may do with an op.
enum class FusionClass {
  /// An element costs O(1) from the operands' elements: recomputed inside
  /// the kernels that read it, element by element.
  Pointwise,
  /// An element is a loop (matmul, reductions): such an op shapes its own
  /// kernel, and fuses into pointwise consumers as their epilogue.
  Anchor,
  /// A clifford op whose kernel computes a whole multivector per position:
  /// recomputed a position at a time inside clifford consumers.
  Bladewise,
  /// Always a kernel of its own.
  Opaque,
};

/// The fusion class's name as remarks and docs print it.
llvm::StringRef stringifyFusionClass(FusionClass fusionClass);

namespace OpTrait {

template <FusionClass Class, unsigned Flops> struct HasFusionClass {
  template <typename ConcreteType>
  class Impl : public ::mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static FusionClass getFusionClass() { return Class; }
    static unsigned estimateFlopsPerElement() { return Flops; }
  };
};

template <typename ConcreteType>
class Elementwise
    : public ::mlir::OpTrait::TraitBase<ConcreteType, Elementwise> {};

template <typename ConcreteType>
class ZeroPreserving
    : public ::mlir::OpTrait::TraitBase<ConcreteType, ZeroPreserving> {};

template <typename ConcreteType>
class ZeroAbsorbing
    : public ::mlir::OpTrait::TraitBase<ConcreteType, ZeroAbsorbing> {};

} // namespace OpTrait

/// The number of elements of `shape`, or std::nullopt when a size is
/// negative or the count does not fit int64: the one overflow-checked count
/// that verifiers, emitters and the graph builder use.
std::optional<int64_t> getElementCount(llvm::ArrayRef<int64_t> shape);

/// Fails, with an error at `op`, when an operand or result of `op` is a
/// statically shaped tensor whose element count or byte size does not fit
/// int64 (KernelOpInterface's verifier).
LogicalResult verifyTensorSizes(Operation *op);

/// The fusion class of `op`: Opaque for ops without KernelOpInterface
/// (which no kernel computes).
FusionClass getFusionClass(Operation *op);

/// Whether an element of `op`'s result sums many products or terms (every
/// op that is not pointwise: matmul, reductions, norms, the clifford ops):
/// such results get the looser f32 tolerance of the checks.
bool sumsManyTerms(Operation *op);

} // namespace mlir::uta

#include "dialects/Interfaces/KernelOpInterface.h.inc"

#endif // UTA_DIALECTS_INTERFACES_KERNELOPINTERFACE_H
