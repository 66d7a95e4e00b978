//===- UTADialect.cpp - The uta dialect -----------------------------------===//
//
// Registers the uta ops and attributes, verifies the attributes, and
// materializes folded constants as arith.constant.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTADialect.h"
#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uta;

#include "dialects/UTA/IR/UTADialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/UTA/IR/UTAAttrs.cpp.inc"

void UTADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/UTA/IR/UTAOps.cpp.inc"
      >();
  registerAttributes();
}

void UTADialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/UTA/IR/UTAAttrs.cpp.inc"
      >();
}

/// The limits of cuTensorMapEncodeTiled: at most five dimensions, each box
/// extent 1 to 256.
static constexpr size_t kMaxTensorMapRank = 5;
static constexpr int64_t kMaxTensorMapBox = 256;

LogicalResult
TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned argument, unsigned source, ArrayRef<int64_t> box,
                      unsigned swizzle) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "a tensor map's swizzle is 0, 32, 64 or 128 bytes, "
                          "not "
                       << swizzle;
  if (argument == source)
    return emitError() << "a tensor map cannot describe its own argument "
                       << argument;
  if (box.empty() || box.size() > kMaxTensorMapRank)
    return emitError() << "a tensor map's box has 1 to " << kMaxTensorMapRank
                       << " dimensions, not " << box.size();
  for (int64_t extent : box)
    if (extent < 1 || extent > kMaxTensorMapBox)
      return emitError() << "a tensor map's box extents are 1 to "
                         << kMaxTensorMapBox << ", not " << extent;
  return success();
}

LogicalResult GemmPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef schedule, ArrayRef<int64_t> tile,
                                   ArrayRef<int64_t> warps, int64_t stages,
                                   StringRef precision, int64_t bStages) {
  if (!llvm::is_contained({"simt", "mma_sync", "wgmma", "wgmma_tma"}, schedule))
    return emitError() << "a GEMM plan's schedule is simt, mma_sync, wgmma or "
                          "wgmma_tma, not '"
                       << schedule << "'";
  if (!llvm::is_contained({"f32", "tf32", "3xtf32", "half"}, precision))
    return emitError() << "a GEMM plan's precision is f32, tf32, 3xtf32 or "
                          "half, not '"
                       << precision << "'";
  if (tile.size() != 3 || llvm::any_of(tile, [](int64_t t) { return t < 1; }))
    return emitError() << "a GEMM plan's tile is three positive extents, "
                          "M x N x K";
  if (warps.size() != 2 || llvm::any_of(warps, [](int64_t w) { return w < 1; }))
    return emitError() << "a GEMM plan's warps are two positive counts, "
                          "along M and N";
  if (tile[0] % warps[0] != 0 || tile[1] % warps[1] != 0)
    return emitError() << "a GEMM plan's warps must divide its tile";
  if (stages < 1 || bStages < 0)
    return emitError() << "a GEMM plan has at least one stage and no "
                          "negative count of B stages";
  return success();
}

LogicalResult UTADialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  if (attribute.getName() != getGemmPlanAttrName())
    return success();
  if (!isa<GemmPlanAttr>(attribute.getValue()))
    return op->emitError() << "'" << getGemmPlanAttrName()
                           << "' must be a #uta.gemm_plan";
  StringRef name = op->getName().getStringRef();
  if (name != MatmulOp::getOperationName() && name != "clifford.fc_product" &&
      name != "clifford.fc_product_adjoint" &&
      name != "clifford.fc_product_weight_gradient" &&
      name != "clifford.fc_product_pair_cotangents" &&
      name != "gpu.launch_func")
    return op->emitError() << "only uta.matmul, clifford.fc_product and its "
                              "gradients run on the GEMM engine, so only "
                              "they (and the launches of their kernels) take "
                              "a '"
                           << getGemmPlanAttrName() << "'";
  return success();
}

Operation *UTADialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
