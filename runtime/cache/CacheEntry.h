//===- CacheEntry.h - A group of artifacts and its file format --*- C++ -*-===//
//
// A cache entry is the group of named artifacts that one compilation makes
// ("ptx", "cubin", "manifest.json"), stored together in one file so that a
// reader sees all of them or none. This header defines the entry and its
// on-disk format (docs/cache.md, "Entry files"); all integers little-endian:
//
//   offset  size  field
//        0     8  magic "UTAKCACH"
//        8     4  format version (1)
//       12     4  artifact count N
//       16     8  total file size in bytes, trailer included
//       24    16  the full key (CacheKey::bytes())
//       40     -  N artifacts: u32 name size, u32 zero, u64 data size, name,
//                 data
//   size-8     8  XXH3-64 (seed 0) of every byte before it
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_CACHEENTRY_H
#define UTA_RUNTIME_CACHE_CACHEENTRY_H

#include "runtime/cache/CacheKey.h"
#include "runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace uta::runtime {

struct CacheEntry {
  /// (name, bytes) pairs, in the order they were added and are stored.
  std::vector<std::pair<std::string, std::string>> artifacts;

  CacheEntry &add(std::string name, std::string bytes) {
    artifacts.emplace_back(std::move(name), std::move(bytes));
    return *this;
  }
  /// The bytes of the artifact called `name`, or null.
  const std::string *find(std::string_view name) const;
  /// Bytes of names and data: what the entry costs the memory layer.
  uint64_t payloadBytes() const;

  friend bool operator==(const CacheEntry &, const CacheEntry &) = default;
};

namespace entry_format {
inline constexpr char kMagic[8] = {'U', 'T', 'A', 'K', 'C', 'A', 'C', 'H'};
inline constexpr uint32_t kVersion = 1;
inline constexpr size_t kHeaderBytes = 40;
inline constexpr size_t kArtifactHeaderBytes = 16;
inline constexpr size_t kTrailerBytes = 8;
/// Limits that keep a hostile or damaged file from asking for silly sizes.
inline constexpr uint32_t kMaxArtifacts = 1024;
inline constexpr uint32_t kMaxNameBytes = 1024;
inline constexpr uint64_t kMaxFileBytes = uint64_t(1) << 32;
} // namespace entry_format

/// Names must be non-empty, unique and at most kMaxNameBytes; at most
/// kMaxArtifacts artifacts; the file at most kMaxFileBytes.
Status validateEntry(const CacheEntry &entry);

/// The file image of a valid entry (see validateEntry) under `key`.
std::string encodeEntry(const CacheKey &key, const CacheEntry &entry);

/// Checks and parses a file image: size, magic, version, checksum, that the
/// key is `expectedKey`, and every length. The error says what is wrong.
Expected<CacheEntry> decodeEntry(std::string_view file,
                                 const CacheKey &expectedKey);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_CACHEENTRY_H
