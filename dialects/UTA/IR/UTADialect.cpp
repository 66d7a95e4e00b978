//===- UTADialect.cpp - The uta dialect -----------------------------------===//
//
// Registers the uta ops and materializes folded constants as arith.constant.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTADialect.h"
#include "dialects/UTA/IR/UTAOps.h"

using namespace mlir;
using namespace mlir::uta;

#include "dialects/UTA/IR/UTADialect.cpp.inc"

void UTADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/UTA/IR/UTAOps.cpp.inc"
      >();
}

Operation *UTADialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
