//===- KernelCache.h - UTA's kernel cache -----------------------*- C++ -*-===//
//
// The kernel cache: compiled artifacts (PTX, cubin, manifest) under a
// CacheKey, in an in-process LRU in front of a directory shared by every
// process of the user. docs/cache.md describes the design; in short:
//
//   auto cache = KernelCache::open(*CacheOptions::fromEnvironment());
//   CacheKey key = CacheKeyBuilder().add("ir", bytes).add("sm",
//   "90")...build(); if (auto entry = (*cache)->lookup(key))
//   use(*entry->find("ptx")); else (void)(*cache)->store(key,
//   CacheEntry().add("ptx", ptx));
//
// A lookup returns a whole, checked entry or nothing. Every hit and miss is
// counted (stats()), so tests prove a hit by a counter, not by timing. A
// KernelCache may be used from many threads; many processes may share a
// directory.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_KERNELCACHE_H
#define UTA_RUNTIME_CACHE_KERNELCACHE_H

#include "runtime/cache/CacheEntry.h"
#include "runtime/cache/CacheKey.h"
#include "runtime/cache/DiskStore.h"
#include "runtime/cache/MemoryLru.h"
#include "runtime/core/Status.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace uta::runtime {

struct CacheOptions {
  /// The cache directory; empty keeps the cache in memory only.
  std::string directory;
  /// Cap on the bytes of entry files on disk; least recently used entries
  /// are evicted by the store that goes over it.
  uint64_t maxDiskBytes = uint64_t(1) << 30;
  /// Cap on the artifacts' bytes in memory; 0 turns the memory layer off.
  uint64_t maxMemoryBytes = uint64_t(64) << 20;
  /// A temporary file this old is a dead writer's, whatever its pid says.
  std::chrono::seconds staleTemporaryAge{600};

  /// Options from the environment:
  ///   UTA_CACHE_DIR, else $XDG_CACHE_HOME/uta, else $HOME/.cache/uta;
  ///   UTA_CACHE_MAX_BYTES (disk cap), UTA_CACHE_MEMORY_BYTES (memory cap):
  ///   a byte count with an optional K, M, G or T suffix (powers of 1024).
  /// An unusable value is an error, never silently replaced by a default.
  static Expected<CacheOptions> fromEnvironment();
};

/// Parses "1073741824", "512M", "1g" (K, M, G, T: powers of 1024).
std::optional<uint64_t> parseByteSize(std::string_view text);

/// Events counted by one KernelCache object since it was opened.
struct CacheStats {
  uint64_t memoryHits = 0;
  uint64_t diskHits = 0;
  uint64_t misses = 0;
  /// Damaged entry files found (by lookups or verify), removed, and missed.
  uint64_t corrupt = 0;
  /// Entries published on disk.
  uint64_t writes = 0;
  /// Entry files this object evicted to keep the disk under its cap.
  uint64_t evictions = 0;
  /// Temporary files of dead writers this object removed.
  uint64_t temporariesSwept = 0;
  /// Entries dropped from the memory layer to keep it under its cap.
  uint64_t memoryEvictions = 0;
  /// What the memory layer holds now.
  uint64_t memoryEntries = 0;
  uint64_t memoryBytes = 0;
};

/// What the cache directory holds now.
struct DiskUsage {
  std::string directory;
  uint64_t entries = 0;
  uint64_t bytes = 0;
  uint64_t maxBytes = 0;
  uint64_t temporaries = 0;
};

struct VerifyReport {
  /// Entry files read and checked.
  uint64_t checked = 0;
  uint64_t valid = 0;
  /// Damaged entry files, now removed.
  uint64_t corrupt = 0;
  /// Folders, links, FIFOs, sockets and devices found at an entry's name,
  /// now removed (so each is reported once).
  uint64_t notRegularRemoved = 0;
  /// Temporary files of dead writers, now removed.
  uint64_t temporariesRemoved = 0;
};

struct ClearReport {
  uint64_t entriesRemoved = 0;
  uint64_t bytesRemoved = 0;
  /// What was at an entry's name and not a regular file, now removed.
  uint64_t notRegularRemoved = 0;
  uint64_t temporariesRemoved = 0;
};

class KernelCache {
public:
  /// Opens (creating where missing) the cache that `options` describe. Reads
  /// UTA_CACHE_FAULT, the test hook: "kill-before-publish" makes every store
  /// SIGKILL this process between writing an entry and publishing it.
  static Expected<std::unique_ptr<KernelCache>> open(CacheOptions options);

  KernelCache(const KernelCache &) = delete;
  KernelCache &operator=(const KernelCache &) = delete;

  /// The entry of `key`, from memory or else from disk (then also kept in
  /// memory); null on a miss. A damaged file is a miss and is removed; a
  /// folder, link, FIFO or other file that is not regular is a miss too,
  /// never read (nor waited on) and left for verify. A hit marks the entry
  /// as used now for LRU eviction on disk.
  std::shared_ptr<const CacheEntry> lookup(const CacheKey &key);

  /// Keeps `entry` under `key` in memory and publishes it on disk, replacing
  /// any entry there, then evicts on disk down to the cap (never this entry)
  /// and sweeps dead writers' temporary files. An error means the entry may
  /// not be on disk; the caller goes on without the cache.
  Status store(const CacheKey &key, CacheEntry entry);

  CacheStats stats() const;
  Expected<DiskUsage> diskUsage() const;

  /// Reads and checks every entry file, removes damaged ones, whatever is
  /// not a regular file at an entry's name, and dead writers' temporary
  /// files.
  Expected<VerifyReport> verify();

  /// Empties the memory layer and removes every entry file (and whatever
  /// is not a regular file at an entry's name) and dead writers' temporary
  /// files (a live writer's entry appears after).
  Expected<ClearReport> clear();

  const CacheOptions &options() const { return options_; }
  /// The directory holding the entry files; empty when memory only.
  std::string entryDirectory() const {
    return disk_ ? disk_->directory() : std::string();
  }

private:
  KernelCache(CacheOptions options, std::optional<DiskStore> disk,
              CacheFault fault);

  void keepInMemory(const CacheKey &key, std::shared_ptr<const CacheEntry>);
  void sweepAndEvict(const std::optional<CacheKey> &keep);

  CacheOptions options_;
  std::optional<DiskStore> disk_;
  CacheFault fault_;

  mutable std::mutex mutex_;
  MemoryLru memory_; // guarded by mutex_

  std::atomic<uint64_t> memoryHits_{0}, diskHits_{0}, misses_{0}, corrupt_{0},
      writes_{0}, evictions_{0}, temporariesSwept_{0}, memoryEvictions_{0};
};

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_KERNELCACHE_H
