//===- Compile.h - Compile a graph for a target -----------------*- C++ -*-===//
//
// The compiler as a library: runs the pipelines of lib/Pipelines on a parsed
// module and returns the target module and its manifest. utac and the JIT
// both call this.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_COMPILE_H
#define UTA_LIB_COMPILER_COMPILE_H

#include "lib/Pipelines/Pipelines.h"
#include "lib/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::uta {

// Target, parseTarget and getTargetName come from lib/Target/TargetInfo.h.

struct CompileOptions {
  Target target = Target::Ptx;
  /// The function the manifest describes; empty: the only public one.
  std::string entry;
  /// The file name the manifest gives for the module.
  std::string moduleFileName;
  /// Options of every pipeline (sm, block size, toolkit).
  const PipelineOptions *pipeline = nullptr;
};

struct CompiledGraph {
  std::string module;   // the module file: PTX text, SPIR-V words, MSL
  std::string manifest; // JSON
};

/// Picks the entry function (`--entry`, or else the only public one)
/// and makes every other function private, so only the entry is compiled.
/// Fails, at the function, where an argument or result is not a statically
/// shaped tensor of f32, f16 or bf16.
FailureOr<func::FuncOp> selectEntry(ModuleOp module, llvm::StringRef entry);

/// Runs the pipeline up to `last` on `module` in place.
LogicalResult runPipeline(ModuleOp module, Phase last,
                          const PipelineOptions &options);

/// Compiles `module` (already past selectEntry) for the target.
FailureOr<CompiledGraph> compile(ModuleOp module, func::FuncOp entry,
                                 const CompileOptions &options);

/// What `--compile-to` prints of a module at a target phase (ptx, spirv,
/// msl): the target module's text, SPIR-V disassembled.
FailureOr<std::string> printTargetPhase(ModuleOp module, Phase phase);

/// The LLVM IR of the kernels of a module at phase `llvm`.
FailureOr<std::string> translateKernelsToLLVMIR(ModuleOp module);

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_COMPILE_H
