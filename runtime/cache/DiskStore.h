//===- DiskStore.h - The on-disk layer of the kernel cache ------*- C++ -*-===//
//
// One file per entry, named <key hex>.entry, in <root>/v1 (the subdirectory
// names the entry format, so caches of two formats never meet). Entries are
// published by rename() of a fully written, fsync'd temporary file in the same
// directory, so a reader sees a whole old file or a whole new one; every read
// is checked (CacheEntry.h), and a damaged file is removed, never returned.
// Any number of processes may share a directory; no locks are taken.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_DISKSTORE_H
#define UTA_RUNTIME_CACHE_DISKSTORE_H

#include "runtime/cache/CacheEntry.h"
#include "runtime/cache/CacheKey.h"
#include "runtime/core/Status.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uta::runtime {

/// Test hooks that make a store fail at a chosen point (UTA_CACHE_FAULT).
enum class CacheFault {
  kNone,
  /// SIGKILL the process after the temporary file is written and fsync'd,
  /// before it is renamed into place.
  kKillBeforePublish,
};

/// One file of the cache directory.
struct DiskFile {
  std::string name;
  uint64_t bytes = 0;
  /// Last use (entries) or last write (temporary files), in ns since 1970.
  int64_t mtimeNs = 0;
};

/// What the cache directory holds; other files are ignored (never removed).
struct DiskScan {
  /// Regular files with an entry's name.
  std::vector<DiskFile> entries;
  std::vector<DiskFile> temporaries;
  /// Anything else with an entry's name: a folder, a symbolic link, a FIFO,
  /// a socket, a device. Never read, never an entry; removed by verify and
  /// clear.
  std::vector<DiskFile> notRegular;
  uint64_t entryBytes = 0;
};

class DiskStore {
public:
  /// Creates `root` and its format subdirectory with mode 0700 where missing
  /// and refuses directories owned by another user or writable by group or
  /// others, since whoever can write there chooses the code that runs.
  static Expected<DiskStore> open(const std::string &root,
                                  std::chrono::seconds staleTemporaryAge);

  /// Where the entries live: <root>/v1.
  const std::string &directory() const { return directory_; }
  std::string pathOf(const CacheKey &key) const;

  enum class ReadOutcome { kMissing, kCorrupt, kNotRegular, kHit };
  struct ReadResult {
    ReadOutcome outcome = ReadOutcome::kMissing;
    std::optional<CacheEntry> entry;
    /// What was wrong with a corrupt or not regular file.
    std::string problem;
  };
  /// Reads and checks the entry of `key`. The file is opened without
  /// following a link and without blocking (O_NOFOLLOW | O_NONBLOCK) and
  /// must be a regular file: anything else at the entry's path is
  /// kNotRegular, a miss that is left in place for verify (a store replaces
  /// it, except a folder). A corrupt file is removed (unless another process
  /// has replaced it meanwhile). With `touch`, a hit sets the file's mtime
  /// to now: the mtime is the entry's last use.
  ReadResult read(const CacheKey &key, bool touch) const;

  /// Sets the mtime of the entry of `key` to now; false if it is gone.
  bool touch(const CacheKey &key) const;

  /// Writes `image` to a temporary file, fsyncs it, and renames it into
  /// place. The temporary file never survives a failure of this process
  /// short of a kill (or `fault`).
  Status write(const CacheKey &key, std::string_view image,
               CacheFault fault) const;

  Expected<DiskScan> scan() const;

  /// Removes the temporary files of writers that are gone: those whose
  /// process no longer exists and those older than the stale age (a writer
  /// needs milliseconds). Returns how many were removed.
  uint64_t sweepTemporaries(const DiskScan &scan) const;

  /// Removes entries, least recently used first, until the entries take at
  /// most `maxBytes`; never the entry of `keep`. Updates `scan`; returns how
  /// many were removed by this call.
  uint64_t evict(DiskScan &scan, uint64_t maxBytes,
                 const std::optional<CacheKey> &keep) const;

  /// Removes one entry file by name; false if it was already gone.
  bool removeEntryFile(const std::string &name) const;
  /// Removes what is at an entry's name when it is not a regular file (a
  /// folder with everything in it, never following links); false if it is
  /// gone, or is a regular file now.
  bool removeNotRegular(const std::string &name) const;

  static constexpr std::string_view kFormatDirectory = "v1";
  static constexpr std::string_view kEntrySuffix = ".entry";
  static constexpr std::string_view kTemporaryPrefix = ".tmp-";

private:
  DiskStore(std::string directory, std::chrono::seconds staleTemporaryAge)
      : directory_(std::move(directory)),
        staleTemporaryAge_(staleTemporaryAge) {}

  std::string directory_;
  std::chrono::seconds staleTemporaryAge_;
};

/// The key an entry file name stands for, or nullopt if it is not one.
std::optional<CacheKey> keyOfEntryFileName(std::string_view name);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_DISKSTORE_H
