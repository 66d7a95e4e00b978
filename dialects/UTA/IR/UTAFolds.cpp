//===- UTAFolds.cpp - Folds and canonicalizations of the uta ops ----------===//
//
// Local simplifications that need no analysis: identities (x + 0), involutions
// and chains of data-movement ops.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::uta;

/// True when `value` is a splat constant equal to `x`.
static bool isSplatConstant(Value value, double x) {
  DenseFPElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  return attr.getSplatValue<APFloat>().convertToDouble() == x;
}

OpFoldResult AddOp::fold(FoldAdaptor) {
  // x + 0 -> x, only when no broadcasting changes x's type.
  if (getLhs().getType() == getType() && isSplatConstant(getRhs(), 0.0))
    return getLhs();
  if (getRhs().getType() == getType() && isSplatConstant(getLhs(), 0.0))
    return getRhs();
  return {};
}
