//===- KernelOpInterface.cpp - What kernels know of an op -----------------===//

#include "dialects/Interfaces/KernelOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::uta;

#include "dialects/Interfaces/KernelOpInterface.cpp.inc"

StringRef mlir::uta::stringifyFusionClass(FusionClass fusionClass) {
  switch (fusionClass) {
  case FusionClass::Pointwise:
    return "pointwise";
  case FusionClass::Anchor:
    return "anchor";
  case FusionClass::Bladewise:
    return "bladewise";
  case FusionClass::Opaque:
    return "opaque";
  }
  llvm_unreachable("unknown fusion class");
}

FusionClass mlir::uta::getFusionClass(Operation *op) {
  if (auto kernelOp = dyn_cast<KernelOpInterface>(op))
    return kernelOp.getFusionClass();
  return FusionClass::Opaque;
}

bool mlir::uta::sumsManyTerms(Operation *op) {
  auto kernelOp = dyn_cast<KernelOpInterface>(op);
  return kernelOp && kernelOp.getFusionClass() != FusionClass::Pointwise;
}

std::optional<int64_t> mlir::uta::getElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size < 0)
      return std::nullopt;
    if (llvm::MulOverflow(count, size, count))
      return std::nullopt;
  }
  return count;
}

/// The byte size of a static shape, or std::nullopt when it or the element
/// count overflows int64.
static std::optional<int64_t> getCheckedByteSize(RankedTensorType type) {
  std::optional<int64_t> count = getElementCount(type.getShape());
  if (!count)
    return std::nullopt;
  int64_t bytes = 0;
  int64_t bytesPerElement = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  if (llvm::MulOverflow(*count, bytesPerElement, bytes))
    return std::nullopt;
  return bytes;
}

LogicalResult mlir::uta::verifyTensorSizes(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isIntOrFloat() || getCheckedByteSize(tensor))
      return success();
    return op->emitOpError()
           << what << " " << index << " of type " << type
           << " has more elements or bytes than a 64-bit count holds";
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}
