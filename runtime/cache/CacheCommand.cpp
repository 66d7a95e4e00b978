//===- CacheCommand.cpp - `utac cache stats|verify|clear` -----------------===//

#include "runtime/cache/CacheCommand.h"

#include "runtime/cache/KernelCache.h"

#include <cinttypes>
#include <string>

using namespace uta::runtime;

static int fail(std::string_view tool, const std::string &message,
                std::FILE *err) {
  std::fprintf(err, "%.*s: %s\n", static_cast<int>(tool.size()), tool.data(),
               message.c_str());
  return 1;
}

static void printField(std::FILE *out, const char *name, uint64_t value) {
  std::fprintf(out, "%s: %" PRIu64 "\n", name, value);
}

int uta::runtime::runCacheCommand(std::string_view tool,
                                  std::span<const std::string_view> args,
                                  std::FILE *out, std::FILE *err) {
  if (args.size() != 1 ||
      (args[0] != "stats" && args[0] != "verify" && args[0] != "clear"))
    return fail(tool, "usage: cache stats|verify|clear", err);
  Expected<CacheOptions> options = CacheOptions::fromEnvironment();
  if (!options)
    return fail(tool, options.status().message(), err);
  Expected<std::unique_ptr<KernelCache>> cache =
      KernelCache::open(std::move(*options));
  if (!cache)
    return fail(tool, cache.status().message(), err);

  if (args[0] == "stats") {
    Expected<DiskUsage> usage = (*cache)->diskUsage();
    if (!usage)
      return fail(tool, usage.status().message(), err);
    std::fprintf(out, "directory: %s\n", usage->directory.c_str());
    printField(out, "entries", usage->entries);
    printField(out, "bytes", usage->bytes);
    printField(out, "max-bytes", usage->maxBytes);
    printField(out, "temporary-files", usage->temporaries);
    return 0;
  }
  if (args[0] == "verify") {
    Expected<VerifyReport> report = (*cache)->verify();
    if (!report)
      return fail(tool, report.status().message(), err);
    printField(out, "checked", report->checked);
    printField(out, "valid", report->valid);
    printField(out, "corrupt-removed", report->corrupt);
    printField(out, "not-regular-removed", report->notRegularRemoved);
    printField(out, "temporary-files-removed", report->temporariesRemoved);
    return 0;
  }
  Expected<ClearReport> report = (*cache)->clear();
  if (!report)
    return fail(tool, report.status().message(), err);
  printField(out, "entries-removed", report->entriesRemoved);
  printField(out, "bytes-removed", report->bytesRemoved);
  printField(out, "not-regular-removed", report->notRegularRemoved);
  printField(out, "temporary-files-removed", report->temporariesRemoved);
  return 0;
}
