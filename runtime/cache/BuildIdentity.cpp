//===- BuildIdentity.cpp - The compiler's identity for cache keys ---------===//
//
// Finds the object file that holds an address (dladdr, with dl_iterate_phdr
// to recognise the main program, whose name dladdr does not reliably give)
// and hashes it once per process.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/BuildIdentity.h"

#include "runtime/cache/CacheKey.h"

#include <cstdint>
#include <dlfcn.h>
#include <link.h>
#include <map>
#include <mutex>

using namespace uta::runtime;

namespace {
struct MainProgramQuery {
  uintptr_t address;
  bool found;
};
} // namespace

/// Whether `address` lies in a loaded segment of the main program, the first
/// object dl_iterate_phdr reports.
static bool isInMainProgram(const void *address) {
  MainProgramQuery query{reinterpret_cast<uintptr_t>(address), false};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) -> int {
        auto *query = static_cast<MainProgramQuery *>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD)
            continue;
          uintptr_t start = info->dlpi_addr + header.p_vaddr;
          if (query->address >= start &&
              query->address < start + header.p_memsz)
            query->found = true;
        }
        return 1; // only the first object: the main program
      },
      &query);
  return query.found;
}

Expected<std::string> uta::runtime::objectPathOf(const void *address) {
  if (isInMainProgram(address))
    return std::string("/proc/self/exe");
  Dl_info info;
  if (dladdr(address, &info) == 0 || !info.dli_fname || !*info.dli_fname)
    return Status::error(ErrorCode::Internal,
                         "no loaded object holds the build identity's address");
  return std::string(info.dli_fname);
}

Expected<std::string> uta::runtime::buildIdentityOf(const void *address) {
  Expected<std::string> path = objectPathOf(address);
  if (!path)
    return path.status();
  // Function-local statics: built on first use, no static constructors.
  static std::mutex mutex;
  static std::map<std::string, std::string> *digests =
      new std::map<std::string, std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = digests->find(*path);
  if (it != digests->end())
    return it->second;
  Expected<std::string> digest = fileDigest(*path);
  if (!digest)
    return Status::error(ErrorCode::Internal,
                         "cannot compute the build identity: " +
                             digest.status().message());
  digests->emplace(*path, *digest);
  return digest;
}

Expected<std::string> uta::runtime::buildIdentity() {
  return buildIdentityOf(reinterpret_cast<const void *>(&buildIdentity));
}
