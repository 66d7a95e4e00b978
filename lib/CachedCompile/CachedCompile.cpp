//===- CachedCompile.cpp - Compile a graph through the kernel cache -------===//

#include "lib/CachedCompile/CachedCompile.h"

#include "runtime/cache/BuildIdentity.h"
#include "runtime/cache/CacheKey.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::uta;
namespace rt = ::uta::runtime;

/// The module in generic form without locations: the same graph from another
/// file or line hashes the same.
static std::string getCanonicalIR(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

static std::string libdevicePath(const PipelineOptions &options) {
  return getCudaToolkitPath(options) + "/nvvm/libdevice/libdevice.10.bc";
}

/// Every pipeline option with its value, so that an option added later is
/// part of the key without anyone remembering to add it here.
static std::string printPipelineOptions(const PipelineOptions &pipeline) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pipeline.print(os);
  return text;
}

/// The key of `module` compiled with `options`; nullopt when a part cannot
/// be computed (the cache is then bypassed).
static std::optional<rt::CacheKey>
computeKey(ModuleOp module, func::FuncOp entry, const CompileOptions &options) {
  const PipelineOptions &pipeline = *options.pipeline;
  rt::Expected<std::string> identity = rt::buildIdentity();
  if (!identity)
    return std::nullopt;
  rt::CacheKeyBuilder key;
  key.add("ir", getCanonicalIR(module))
      .add("entry", entry.getName())
      .add("target", getTargetName(options.target))
      .add("pipeline", printPipelineOptions(pipeline))
      .add("compiler", *identity);
  // Only PTX depends on the CUDA architecture and links libdevice.
  if (options.target == Target::Ptx) {
    rt::Expected<std::string> libdevice =
        rt::fileDigest(libdevicePath(pipeline));
    if (!libdevice)
      return std::nullopt;
    key.add("sm", pipeline.sm.getValue()).add("libdevice", *libdevice);
  }
  return key.build();
}

/// The manifest names the module file, which differs per output path; the
/// cache keeps it empty and fills it in on the way out.
static std::string withModuleFileName(const std::string &manifest,
                                      const std::string &name) {
  nlohmann::ordered_json json = nlohmann::ordered_json::parse(
      manifest, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded())
    return manifest;
  json["module"] = name;
  return json.dump(2) + "\n";
}

std::unique_ptr<rt::KernelCache> mlir::uta::openKernelCacheOrWarn() {
  rt::Expected<rt::CacheOptions> options = rt::CacheOptions::fromEnvironment();
  if (!options) {
    llvm::errs() << "warning: kernel cache disabled: "
                 << options.status().message() << "\n";
    return nullptr;
  }
  rt::Expected<std::unique_ptr<rt::KernelCache>> cache =
      rt::KernelCache::open(*options);
  if (!cache) {
    llvm::errs() << "warning: kernel cache disabled: "
                 << cache.status().message() << "\n";
    return nullptr;
  }
  return std::move(*cache);
}

FailureOr<CachedCompileResult>
mlir::uta::compileWithCache(ModuleOp module, func::FuncOp entry,
                            const CompileOptions &options,
                            rt::KernelCache *cache) {
  std::optional<rt::CacheKey> key;
  if (cache)
    key = computeKey(module, entry, options);
  if (key) {
    if (std::shared_ptr<const rt::CacheEntry> hit = cache->lookup(*key)) {
      const std::string *ptx = hit->find("module");
      const std::string *manifest = hit->find("manifest");
      if (ptx && manifest) {
        CachedCompileResult result;
        result.graph.module = *ptx;
        result.graph.manifest =
            withModuleFileName(*manifest, options.moduleFileName);
        result.hit = true;
        return result;
      }
    }
  }

  CompileOptions uncached = options;
  uncached.moduleFileName.clear();
  FailureOr<CompiledGraph> graph = compile(module, entry, uncached);
  if (failed(graph))
    return failure();
  if (key) {
    rt::CacheEntry entryArtifacts;
    entryArtifacts.add("module", graph->module);
    entryArtifacts.add("manifest", graph->manifest);
    if (rt::Status stored = cache->store(*key, std::move(entryArtifacts));
        !stored)
      llvm::errs() << "warning: the kernel cache could not store this graph: "
                   << stored.message() << "\n";
  }
  CachedCompileResult result;
  result.graph = std::move(*graph);
  result.graph.manifest =
      withModuleFileName(result.graph.manifest, options.moduleFileName);
  return result;
}
