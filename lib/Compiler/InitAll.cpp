//===- InitAll.cpp - Register every UTA dialect, pass and pipeline --------===//

#include "lib/Compiler/InitAll.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::uta::registerUTADialects(DialectRegistry &registry) {
  registry.insert<uta::UTADialect, uta::clifford::CliffordDialect,
                  func::FuncDialect, arith::ArithDialect, tensor::TensorDialect>();
}

void mlir::uta::registerUTAPassesAndPipelines() {}
