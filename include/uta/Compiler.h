//===- Compiler.h - Compiling UTA graphs ------------------------*- C++ -*-===//
//
// The compiler half of the UTA C++ API (docs/api.md): compile a uta::Graph
// for ptx, spirv or msl through the same pipelines as `utac`, through the
// same kernel cache (docs/cache.md), and load the result on a Device
// (Runtime.h), including the float64 reference, which runs the graph itself.
// Part of UTA::uta; no MLIR or LLVM header (the compiler is behind the
// library).
//
//   uta::Expected<uta::Device> device = uta::Device::open("best");
//   uta::Expected<uta::CompiledGraph> compiled =
//       uta::compile(graph, uta::CompileOptions::forDevice(*device));
//   uta::Expected<uta::Executable> exe = compiled->load(*device);
//
// Thread safety: compile() may be called from any number of threads at once
// (each call parses the graph's text into a context of its own); the
// process-wide kernel cache and KernelCache handles may be shared. A
// CompiledGraph is an immutable value.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_COMPILER_H
#define UTA_COMPILER_H

#include "uta/Graph.h"
#include "uta/Runtime.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace uta {

//===----------------------------------------------------------------------===//
// The kernel cache
//===----------------------------------------------------------------------===//

/// Events counted by one cache since it was opened (docs/cache.md).
struct CacheStats {
  /// Compiles answered from memory or from disk.
  uint64_t memoryHits = 0;
  uint64_t diskHits = 0;
  /// Lookups that found nothing (damaged entries included).
  uint64_t misses = 0;
  /// Damaged entry files found and removed.
  uint64_t corrupt = 0;
  /// Entries written to disk.
  uint64_t writes = 0;
};

namespace detail {
struct KernelCacheImpl;
struct CompiledGraphImpl;
} // namespace detail

/// A kernel cache: compiled modules by a key of the graph, the options, the
/// target and the compiler's build identity; in memory (LRU) in front of a
/// directory that any number of processes may share. A handle: copies name
/// the same cache, which is safe to use from many threads.
class KernelCache {
public:
  /// The cache of `directory` (created private to the user where missing);
  /// an empty `directory` keeps the cache in memory only.
  static Expected<KernelCache> open(const std::string &directory);
  /// The process-wide cache that compile() uses by default, opened once from
  /// the environment like utac's: UTA_CACHE_DIR, else $XDG_CACHE_HOME/uta,
  /// else ~/.cache/uta (sizes: UTA_CACHE_MAX_BYTES, UTA_CACHE_MEMORY_BYTES).
  static Expected<KernelCache> processCache();

  CacheStats stats() const;
  /// The folder holding the entries; "" for a memory-only cache.
  std::string directory() const;

private:
  friend struct detail::Access;
  explicit KernelCache(std::shared_ptr<detail::KernelCacheImpl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<detail::KernelCacheImpl> impl_;
};

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// utac's --uta-fusion: the cost model's kernels, or one kernel per op.
enum class Fusion { Default, None };

struct CompileOptions {
  Target target = Target::Ptx;
  /// ptx: the CUDA architecture, as utac's --sm (80, 86, 89, 90, 90a).
  std::string sm = "90";
  /// Threads per block (workgroup size).
  unsigned blockSize = 256;
  Fusion fusion = Fusion::Default;
  /// 128-bit global loads and stores where alignment and shapes allow
  /// (utac's --uta-vectorize=on|off).
  bool vectorize = true;
  /// ptx: f32 matmuls in plain TF32 on tensor cores (about 1e-3 relative
  /// error) instead of 3xTF32, which keeps f32 accuracy (utac's
  /// --allow-tf32; docs/gemm.md).
  bool allowTf32 = false;
  /// Approximate transcendentals (utac's --fast-math): exp, log and tanh as
  /// PTX's approximate instructions, RelaxedPrecision on SPIR-V; f32 results
  /// within defaultTolerance(F32, reduces, /*fastMath=*/true).
  bool fastMath = false;
  /// The cache to compile through; nullopt: KernelCache::processCache(), or
  /// no cache (with a warning on stderr) where that cannot be opened.
  std::optional<KernelCache> cache;

  /// Options that compile for `device`: ptx at the device's sm for cuda
  /// (sm_90a on an sm_90 device: matmuls and fc_product on wgmma),
  /// spirv for vulkan; for the reference, which runs the graph itself,
  /// spirv (the cheapest target that needs no CUDA toolkit).
  static CompileOptions forDevice(const Device &device);
};

/// A graph compiled for a target: the module and its manifest, as `utac -o`
/// writes them, and the graph they came from. Cheap to copy (shared and
/// immutable).
class CompiledGraph {
public:
  /// The graph's name, its function and its kernels' prefix.
  const std::string &name() const;
  Target target() const;
  /// The module file: PTX text, SPIR-V words, or MSL source.
  const std::string &module() const;
  /// The manifest (docs/manifest.md), JSON.
  const std::string &manifest() const;
  /// The graph as the MLIR module that was compiled (Graph::str()).
  const std::string &source() const;
  const std::vector<TensorType> &inputs() const;
  const std::vector<TensorType> &outputs() const;
  /// Whether the module came from the kernel cache.
  bool cacheHit() const;

  /// Writes the module to `path` and the manifest to `path`.json, as
  /// `utac -o path` does, for Executable::load of the runtime alone.
  Status save(const std::string &path) const;

  /// Loads the module on `device` (cuda for ptx, vulkan for spirv), or, on
  /// the reference device, prepares the float64 interpreter of the graph.
  Expected<Executable> load(const Device &device) const;

private:
  friend struct detail::Access;
  explicit CompiledGraph(std::shared_ptr<const detail::CompiledGraphImpl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<const detail::CompiledGraphImpl> impl_;
};

/// Compiles `graph` (which must be ok()) through the pipelines of utac.
/// Compiler diagnostics come back in the error's message, with the line and
/// column in graph.str().
Expected<CompiledGraph> compile(const Graph &graph,
                                const CompileOptions &options = {});

/// Whether the graph `graph` has results that sum many products (matmul,
/// reductions, norms, clifford products), so it gets the looser f32
/// tolerance of defaultTolerance().
bool hasReductions(const CompiledGraph &graph);

} // namespace uta

#endif // UTA_COMPILER_H
