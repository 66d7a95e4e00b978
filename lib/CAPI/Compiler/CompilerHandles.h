//===- CompilerHandles.h - The compiler half's handles ----------*- C++ -*-===//
//
// The structs behind the opaque handles of include/uta-c/Compiler.h, each
// over a handle or value of the C++ compiler API (include/uta/Compiler.h).
// Internal to libuta_c.so.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_CAPI_COMPILER_COMPILERHANDLES_H
#define UTA_LIB_CAPI_COMPILER_COMPILERHANDLES_H

#include "lib/CAPI/Runtime/Handles.h"

#include "uta-c/Compiler.h"
#include "uta/Compiler.h"

#include <string>
#include <vector>

struct uta_graph_t {
  uta::Graph graph;
  /// Every tensor a builder returned; uta_value_t indexes it.
  std::vector<uta::Tensor> values;
  /// What uta_graph_str last returned.
  std::string text;
  /// An error the C layer found before the C++ builder ran (a dtype outside
  /// the enum, a rank above UTA_MAX_RANK) or while it ran (an exception);
  /// "" otherwise. At most one of this and graph.error() is set.
  std::string error;
  /// Whether a builder threw: the C++ graph may be half-changed, so nothing
  /// more is built on it, even when `error` could not be set.
  bool builderThrew = false;
};

struct uta_compile_options_t {
  uta::CompileOptions options;
};

struct uta_kernel_cache_t {
  uta::KernelCache cache;
};

struct uta_compiled_graph_t {
  uta::CompiledGraph compiled;
};

#endif // UTA_LIB_CAPI_COMPILER_COMPILERHANDLES_H
