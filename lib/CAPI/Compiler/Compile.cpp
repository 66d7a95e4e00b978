//===- Compile.cpp - The C API's compile, cache and compiled graphs -------===//
//
// The compiling half of include/uta-c/Compiler.h over uta::compile,
// uta::KernelCache and uta::CompiledGraph (include/uta/Compiler.h): options
// as an opaque handle with setters (so adding one never changes a struct),
// compiled graphs that save themselves for the runtime alone or load on a
// device, the reference included. Every entry point runs inside
// capi::guarded (lib/CAPI/Runtime/Handles.h). libuta_c.so.
//
//===----------------------------------------------------------------------===//

#include "lib/CAPI/Compiler/CompilerHandles.h"

#include <string>

using namespace uta;

//===----------------------------------------------------------------------===//
// The kernel cache
//===----------------------------------------------------------------------===//

extern "C" uta_status_t uta_kernel_cache_open(const char *directory,
                                              uta_kernel_cache_t **cache) {
  const char *function = "uta_kernel_cache_open";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!directory)
      return capi::failNull(function, "directory");
    if (!cache)
      return capi::failNull(function, "cache");
    Expected<KernelCache> opened = KernelCache::open(directory);
    if (!opened)
      return capi::fail(opened.status());
    *cache = new uta_kernel_cache_t{std::move(*opened)};
    return UTA_OK;
  });
}

extern "C" uta_status_t uta_kernel_cache_process(uta_kernel_cache_t **cache) {
  const char *function = "uta_kernel_cache_process";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!cache)
      return capi::failNull(function, "cache");
    Expected<KernelCache> opened = KernelCache::processCache();
    if (!opened)
      return capi::fail(opened.status());
    *cache = new uta_kernel_cache_t{std::move(*opened)};
    return UTA_OK;
  });
}

extern "C" void uta_kernel_cache_destroy(uta_kernel_cache_t *cache) {
  capi::guarded("uta_kernel_cache_destroy", [&] { delete cache; });
}

extern "C" void uta_kernel_cache_stats(const uta_kernel_cache_t *cache,
                                       uta_cache_stats_t *stats) {
  capi::guarded("uta_kernel_cache_stats", [&] {
    if (!stats)
      return;
    *stats = uta_cache_stats_t{};
    if (!cache)
      return;
    CacheStats counted = cache->cache.stats();
    stats->memory_hits = counted.memoryHits;
    stats->disk_hits = counted.diskHits;
    stats->misses = counted.misses;
    stats->corrupt = counted.corrupt;
    stats->writes = counted.writes;
  });
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

extern "C" uta_status_t
uta_compile_options_create(uta_compile_options_t **options) {
  const char *function = "uta_compile_options_create";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!options)
      return capi::failNull(function, "options");
    *options = new uta_compile_options_t{};
    return UTA_OK;
  });
}

extern "C" void uta_compile_options_destroy(uta_compile_options_t *options) {
  capi::guarded("uta_compile_options_destroy", [&] { delete options; });
}

extern "C" uta_status_t
uta_compile_options_for_device(const uta_device_t *device,
                               uta_compile_options_t **options) {
  const char *function = "uta_compile_options_for_device";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!device)
      return capi::failNull(function, "device");
    if (!options)
      return capi::failNull(function, "options");
    *options =
        new uta_compile_options_t{CompileOptions::forDevice(device->device)};
    return UTA_OK;
  });
}

/// Runs the setter `body` on `options` when it is not null, inside
/// capi::guarded.
template <typename Body>
static void setOption(const char *function, uta_compile_options_t *options,
                      Body &&body) {
  capi::guarded(function, [&] {
    if (options)
      body(options->options);
  });
}

extern "C" void uta_compile_options_set_target(uta_compile_options_t *options,
                                               uta_target_t target) {
  // Compile checks the target (an out-of-range value fails there).
  setOption("uta_compile_options_set_target", options,
            [&](CompileOptions &set) { set.target = Target(int(target)); });
}

extern "C" uta_status_t
uta_compile_options_set_sm(uta_compile_options_t *options, const char *sm) {
  const char *function = "uta_compile_options_set_sm";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!options)
      return capi::failNull(function, "options");
    if (!sm)
      return capi::failNull(function, "sm");
    options->options.sm = sm;
    return UTA_OK;
  });
}

extern "C" void
uta_compile_options_set_block_size(uta_compile_options_t *options,
                                   unsigned block_size) {
  // Compile checks the size (1 to 1024).
  setOption("uta_compile_options_set_block_size", options,
            [&](CompileOptions &set) { set.blockSize = block_size; });
}

extern "C" void uta_compile_options_set_fusion(uta_compile_options_t *options,
                                               int enabled) {
  setOption("uta_compile_options_set_fusion", options,
            [&](CompileOptions &set) {
              set.fusion = enabled ? Fusion::Default : Fusion::None;
            });
}

extern "C" void
uta_compile_options_set_vectorize(uta_compile_options_t *options, int enabled) {
  setOption("uta_compile_options_set_vectorize", options,
            [&](CompileOptions &set) { set.vectorize = enabled != 0; });
}

extern "C" void
uta_compile_options_set_allow_tf32(uta_compile_options_t *options,
                                   int enabled) {
  setOption("uta_compile_options_set_allow_tf32", options,
            [&](CompileOptions &set) { set.allowTf32 = enabled != 0; });
}

extern "C" void
uta_compile_options_set_fast_math(uta_compile_options_t *options, int enabled) {
  setOption("uta_compile_options_set_fast_math", options,
            [&](CompileOptions &set) { set.fastMath = enabled != 0; });
}

extern "C" void uta_compile_options_set_cache(uta_compile_options_t *options,
                                              const uta_kernel_cache_t *cache) {
  setOption("uta_compile_options_set_cache", options, [&](CompileOptions &set) {
    if (cache)
      set.cache = cache->cache;
    else
      set.cache.reset();
  });
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

extern "C" uta_status_t uta_compile(const uta_graph_t *graph,
                                    const uta_compile_options_t *options,
                                    uta_compiled_graph_t **compiled) {
  const char *function = "uta_compile";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!graph)
      return capi::failNull(function, "graph");
    if (!compiled)
      return capi::failNull(function, "compiled");
    // As compile() reports an error of the C++ graph.
    if (!uta_graph_ok(graph) && graph->graph.ok())
      return capi::fail(UTA_INVALID_INPUT, "graph @" + graph->graph.name() +
                                               ": " + uta_graph_error(graph));
    Target target = options ? options->options.target : Target::Ptx;
    if (target != Target::Ptx && target != Target::Spirv &&
        target != Target::Msl)
      return capi::fail(UTA_INVALID_INPUT,
                        std::string(function) + ": target " +
                            std::to_string(int(target)) +
                            " is not UTA_TARGET_PTX, UTA_TARGET_SPIRV or "
                            "UTA_TARGET_MSL");
    Expected<CompiledGraph> result = uta::compile(
        graph->graph, options ? options->options : CompileOptions());
    if (!result)
      return capi::fail(result.status());
    *compiled = new uta_compiled_graph_t{std::move(*result)};
    return UTA_OK;
  });
}

extern "C" void uta_compiled_graph_destroy(uta_compiled_graph_t *compiled) {
  capi::guarded("uta_compiled_graph_destroy", [&] { delete compiled; });
}

extern "C" const char *
uta_compiled_graph_name(const uta_compiled_graph_t *compiled) {
  return capi::guarded("uta_compiled_graph_name", "", [&] {
    return compiled ? compiled->compiled.name().c_str() : "";
  });
}

extern "C" uta_target_t
uta_compiled_graph_target(const uta_compiled_graph_t *compiled) {
  return capi::guarded("uta_compiled_graph_target", UTA_TARGET_PTX, [&] {
    return compiled ? uta_target_t(int(compiled->compiled.target()))
                    : UTA_TARGET_PTX;
  });
}

extern "C" const void *
uta_compiled_graph_module(const uta_compiled_graph_t *compiled, size_t *bytes) {
  return capi::guarded(
      "uta_compiled_graph_module", static_cast<const void *>(nullptr),
      [&]() -> const void * {
        if (bytes)
          *bytes = 0;
        if (!compiled)
          return nullptr;
        const std::string &module = compiled->compiled.module();
        if (bytes)
          *bytes = module.size();
        return module.data();
      });
}

extern "C" const char *
uta_compiled_graph_manifest(const uta_compiled_graph_t *compiled) {
  return capi::guarded("uta_compiled_graph_manifest", "", [&] {
    return compiled ? compiled->compiled.manifest().c_str() : "";
  });
}

extern "C" int
uta_compiled_graph_cache_hit(const uta_compiled_graph_t *compiled) {
  return capi::guarded("uta_compiled_graph_cache_hit", 0, [&] {
    return int(compiled && compiled->compiled.cacheHit());
  });
}

extern "C" int
uta_compiled_graph_has_reductions(const uta_compiled_graph_t *compiled) {
  return capi::guarded("uta_compiled_graph_has_reductions", 0, [&] {
    return int(compiled && hasReductions(compiled->compiled));
  });
}

extern "C" uta_status_t
uta_compiled_graph_save(const uta_compiled_graph_t *compiled,
                        const char *path) {
  const char *function = "uta_compiled_graph_save";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!compiled)
      return capi::failNull(function, "compiled");
    if (!path)
      return capi::failNull(function, "path");
    return capi::fail(compiled->compiled.save(path));
  });
}

extern "C" uta_status_t
uta_compiled_graph_load(const uta_compiled_graph_t *compiled,
                        const uta_device_t *device,
                        uta_executable_t **executable) {
  const char *function = "uta_compiled_graph_load";
  return capi::guarded(function, UTA_INTERNAL, [&] {
    if (!compiled)
      return capi::failNull(function, "compiled");
    if (!device)
      return capi::failNull(function, "device");
    if (!executable)
      return capi::failNull(function, "executable");
    Expected<Executable> loaded = compiled->compiled.load(device->device);
    if (!loaded)
      return capi::fail(loaded.status());
    *executable = new uta_executable_t{std::move(*loaded)};
    return UTA_OK;
  });
}
