//===- KernelCache.cpp - UTA's kernel cache -------------------------------===//
//
// The two layers put together, the counters, and the options from the
// environment.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/KernelCache.h"

#include <cstdlib>
#include <limits>

using namespace uta::runtime;

std::optional<uint64_t> uta::runtime::parseByteSize(std::string_view text) {
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
      return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0)
    return std::nullopt;
  if (i == text.size())
    return value;
  if (i + 1 != text.size())
    return std::nullopt;
  int shift = 0;
  switch (text[i]) {
  case 'k':
  case 'K':
    shift = 10;
    break;
  case 'm':
  case 'M':
    shift = 20;
    break;
  case 'g':
  case 'G':
    shift = 30;
    break;
  case 't':
  case 'T':
    shift = 40;
    break;
  default:
    return std::nullopt;
  }
  if (value > (std::numeric_limits<uint64_t>::max() >> shift))
    return std::nullopt;
  return value << shift;
}

/// An environment variable, or nullopt when it is unset or empty.
static std::optional<std::string> environment(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

Expected<CacheOptions> CacheOptions::fromEnvironment() {
  CacheOptions options;
  if (std::optional<std::string> dir = environment("UTA_CACHE_DIR")) {
    if ((*dir)[0] != '/')
      return Status::error(ErrorCode::InvalidInput,
                           "UTA_CACHE_DIR: '" + *dir +
                               "' is not an absolute path");
    options.directory = *dir;
  } else if (std::optional<std::string> xdg = environment("XDG_CACHE_HOME");
             xdg && (*xdg)[0] == '/') {
    // The XDG spec says to ignore a relative XDG_CACHE_HOME.
    options.directory = *xdg + "/uta";
  } else if (std::optional<std::string> home = environment("HOME")) {
    options.directory = *home + "/.cache/uta";
  } else {
    return Status::error(ErrorCode::InvalidInput,
                         "no cache directory: set UTA_CACHE_DIR (neither "
                         "XDG_CACHE_HOME nor HOME is set)");
  }

  if (std::optional<std::string> text = environment("UTA_CACHE_MAX_BYTES")) {
    std::optional<uint64_t> bytes = parseByteSize(*text);
    if (!bytes || *bytes == 0)
      return Status::error(ErrorCode::InvalidInput,
                           "UTA_CACHE_MAX_BYTES: expected a positive size "
                           "such as 1073741824 or 512M, got '" +
                               *text + "'");
    options.maxDiskBytes = *bytes;
  }
  if (std::optional<std::string> text = environment("UTA_CACHE_MEMORY_BYTES")) {
    std::optional<uint64_t> bytes = parseByteSize(*text);
    if (!bytes)
      return Status::error(ErrorCode::InvalidInput,
                           "UTA_CACHE_MEMORY_BYTES: expected a size such as "
                           "67108864 or 64M (0 turns the memory layer off), "
                           "got '" +
                               *text + "'");
    options.maxMemoryBytes = *bytes;
  }
  return options;
}

Expected<std::unique_ptr<KernelCache>> KernelCache::open(CacheOptions options) {
  CacheFault fault = CacheFault::kNone;
  if (std::optional<std::string> text = environment("UTA_CACHE_FAULT")) {
    if (*text != "kill-before-publish")
      return Status::error(ErrorCode::InvalidInput,
                           "UTA_CACHE_FAULT: unknown fault '" + *text +
                               "' (known: kill-before-publish)");
    fault = CacheFault::kKillBeforePublish;
  }
  if (options.maxDiskBytes == 0)
    return Status::error(ErrorCode::InvalidInput,
                         "the cache's disk cap must be positive");
  std::optional<DiskStore> disk;
  if (!options.directory.empty()) {
    Expected<DiskStore> store =
        DiskStore::open(options.directory, options.staleTemporaryAge);
    if (!store)
      return store.status();
    disk = std::move(*store);
  }
  return std::unique_ptr<KernelCache>(
      new KernelCache(std::move(options), std::move(disk), fault));
}

KernelCache::KernelCache(CacheOptions options, std::optional<DiskStore> disk,
                         CacheFault fault)
    : options_(std::move(options)), disk_(std::move(disk)), fault_(fault),
      memory_(options_.maxMemoryBytes) {}

void KernelCache::keepInMemory(const CacheKey &key,
                               std::shared_ptr<const CacheEntry> entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  memoryEvictions_ += memory_.put(key, std::move(entry));
}

std::shared_ptr<const CacheEntry> KernelCache::lookup(const CacheKey &key) {
  std::shared_ptr<const CacheEntry> entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    entry = memory_.get(key);
  }
  if (entry) {
    ++memoryHits_;
    // A use in memory is a use: keep the file from looking idle on disk.
    if (disk_)
      disk_->touch(key);
    return entry;
  }
  if (!disk_) {
    ++misses_;
    return nullptr;
  }
  DiskStore::ReadResult read = disk_->read(key, /*touch=*/true);
  switch (read.outcome) {
  case DiskStore::ReadOutcome::kHit:
    ++diskHits_;
    entry = std::make_shared<const CacheEntry>(std::move(*read.entry));
    keepInMemory(key, entry);
    return entry;
  case DiskStore::ReadOutcome::kCorrupt:
    ++corrupt_;
    ++misses_;
    return nullptr;
  case DiskStore::ReadOutcome::kNotRegular:
  case DiskStore::ReadOutcome::kMissing:
    ++misses_;
    return nullptr;
  }
  return nullptr;
}

Status KernelCache::store(const CacheKey &key, CacheEntry entry) {
  if (Status status = validateEntry(entry); !status)
    return status;
  auto shared = std::make_shared<const CacheEntry>(std::move(entry));
  keepInMemory(key, shared);
  if (!disk_)
    return Status();
  if (Status status = disk_->write(key, encodeEntry(key, *shared), fault_);
      !status)
    return status;
  ++writes_;
  sweepAndEvict(key);
  return Status();
}

void KernelCache::sweepAndEvict(const std::optional<CacheKey> &keep) {
  Expected<DiskScan> scan = disk_->scan();
  if (!scan)
    return; // the entry is published; housekeeping waits for the next store
  temporariesSwept_ += disk_->sweepTemporaries(*scan);
  evictions_ += disk_->evict(*scan, options_.maxDiskBytes, keep);
}

CacheStats KernelCache::stats() const {
  CacheStats stats;
  stats.memoryHits = memoryHits_;
  stats.diskHits = diskHits_;
  stats.misses = misses_;
  stats.corrupt = corrupt_;
  stats.writes = writes_;
  stats.evictions = evictions_;
  stats.temporariesSwept = temporariesSwept_;
  stats.memoryEvictions = memoryEvictions_;
  std::lock_guard<std::mutex> lock(mutex_);
  stats.memoryEntries = memory_.size();
  stats.memoryBytes = memory_.bytes();
  return stats;
}

static Status memoryOnly() {
  return Status::error(ErrorCode::InvalidInput,
                       "the cache has no directory (memory only)");
}

Expected<DiskUsage> KernelCache::diskUsage() const {
  if (!disk_)
    return memoryOnly();
  Expected<DiskScan> scan = disk_->scan();
  if (!scan)
    return scan.status();
  DiskUsage usage;
  usage.directory = disk_->directory();
  usage.entries = scan->entries.size();
  usage.bytes = scan->entryBytes;
  usage.maxBytes = options_.maxDiskBytes;
  usage.temporaries = scan->temporaries.size();
  return usage;
}

Expected<VerifyReport> KernelCache::verify() {
  if (!disk_)
    return memoryOnly();
  Expected<DiskScan> scan = disk_->scan();
  if (!scan)
    return scan.status();
  VerifyReport report;
  for (const DiskFile &file : scan->entries) {
    std::optional<CacheKey> key = keyOfEntryFileName(file.name);
    DiskStore::ReadResult read = disk_->read(*key, /*touch=*/false);
    if (read.outcome == DiskStore::ReadOutcome::kMissing)
      continue; // evicted or cleared by another process meanwhile
    if (read.outcome == DiskStore::ReadOutcome::kNotRegular) {
      // Replaced by something else since the scan.
      report.notRegularRemoved += disk_->removeNotRegular(file.name);
      continue;
    }
    ++report.checked;
    if (read.outcome == DiskStore::ReadOutcome::kHit) {
      ++report.valid;
      continue;
    }
    ++report.corrupt;
    ++corrupt_;
  }
  for (const DiskFile &file : scan->notRegular)
    report.notRegularRemoved += disk_->removeNotRegular(file.name);
  report.temporariesRemoved = disk_->sweepTemporaries(*scan);
  temporariesSwept_ += report.temporariesRemoved;
  return report;
}

Expected<ClearReport> KernelCache::clear() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    memory_.clear();
  }
  if (!disk_)
    return ClearReport();
  Expected<DiskScan> scan = disk_->scan();
  if (!scan)
    return scan.status();
  ClearReport report;
  for (const DiskFile &file : scan->entries) {
    if (!disk_->removeEntryFile(file.name))
      continue;
    ++report.entriesRemoved;
    report.bytesRemoved += file.bytes;
  }
  for (const DiskFile &file : scan->notRegular)
    report.notRegularRemoved += disk_->removeNotRegular(file.name);
  report.temporariesRemoved = disk_->sweepTemporaries(*scan);
  temporariesSwept_ += report.temporariesRemoved;
  return report;
}
