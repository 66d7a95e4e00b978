//===- InitAll.h - Registers dialects, passes, pipelines --------*- C++ -*-===//
//
// One place that knows everything UTA registers, shared by utac, uta-opt and
// the tests.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_INITALL_H
#define UTA_LIB_COMPILER_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::uta {

/// Adds the uta and clifford dialects, the upstream dialects, and the
/// interfaces the pipelines need (conversion to LLVM, NVVM target) to
/// `registry`.
void registerUTADialects(DialectRegistry &registry);

/// Registers UTA's passes and named pipelines with the global registry.
void registerUTAPassesAndPipelines();

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_INITALL_H
