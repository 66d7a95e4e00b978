//===- CachedCompile.h - Compiling through the kernel cache -----*- C++ -*-===//
//
// The compiler behind the kernel cache (docs/cache.md): the key hashes the
// canonical IR, the target and every option that changes the output, the
// compiler's build identity and the libdevice it links; the entry holds the
// module and its manifest together.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_CACHEDCOMPILE_CACHEDCOMPILE_H
#define UTA_LIB_CACHEDCOMPILE_CACHEDCOMPILE_H

#include "lib/Compiler/Compile.h"
#include "runtime/cache/KernelCache.h"

namespace mlir::uta {

struct CachedCompileResult {
  CompiledGraph graph;
  /// Whether the graph came from the cache.
  bool hit = false;
};

/// The kernel cache of CacheOptions::fromEnvironment(), or null (with a
/// warning on stderr) when it cannot be opened: compiling goes on uncached.
std::unique_ptr<::uta::runtime::KernelCache> openKernelCacheOrWarn();

/// Compiles `module` (past selectEntry) with `options`, looking in `cache`
/// first and storing there after a compile. A null cache compiles directly.
/// Cache trouble (a full disk, say) is a warning on stderr, never a failure.
FailureOr<CachedCompileResult>
compileWithCache(ModuleOp module, func::FuncOp entry,
                 const CompileOptions &options,
                 ::uta::runtime::KernelCache *cache);

} // namespace mlir::uta

#endif // UTA_LIB_CACHEDCOMPILE_CACHEDCOMPILE_H
