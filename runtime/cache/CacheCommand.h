//===- CacheCommand.h - `utac cache stats|verify|clear` ---------*- C++ -*-===//
//
// The cache subcommand lives with the cache, so that any tool (utac, and
// later uta-run) offers it with one call and prints it the same way.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_CACHECOMMAND_H
#define UTA_RUNTIME_CACHE_CACHECOMMAND_H

#include <cstdio>
#include <span>
#include <string_view>

namespace uta::runtime {

/// Runs `<tool> cache <args...>` on the cache CacheOptions::fromEnvironment()
/// names. `args` are the words after "cache": exactly one of "stats",
/// "verify", "clear". Prints "name: value" lines to `out` and errors, as
/// "<tool>: message", to `err`. Returns the exit code: 0, or 1 on an error.
int runCacheCommand(std::string_view tool,
                    std::span<const std::string_view> args, std::FILE *out,
                    std::FILE *err);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_CACHECOMMAND_H
