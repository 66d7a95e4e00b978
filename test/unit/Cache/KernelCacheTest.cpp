//===- KernelCacheTest.cpp - Tests of the kernel cache in one process -----===//
//
// Hits and misses proven by the counters, damaged entry files, LRU eviction
// under the size cap, private directories and files, the options from the
// environment, and `utac cache stats|verify|clear`.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/KernelCache.h"
#include "runtime/cache/CacheCommand.h"
#include "runtime/cache/MemoryLru.h"

#include "CacheTestUtil.h"

#include <functional>
#include <gtest/gtest.h>
#include <thread>

using namespace uta::runtime;
using namespace uta::runtime::testing;

namespace {

static CacheKey keyNamed(const std::string &name) {
  return CacheKeyBuilder().add("ir", name).add("sm", "90").build();
}

static CacheEntry entryNamed(const std::string &name, size_t bytes = 64) {
  CacheEntry entry;
  std::string ptx = ".visible .entry " + name + "\n";
  ptx.resize(std::max(bytes, ptx.size()), '.');
  entry.add("ptx", ptx);
  entry.add("manifest.json", "{\"entry\": \"" + name + "\"}");
  return entry;
}

static std::unique_ptr<KernelCache> openCache(const CacheOptions &options) {
  Expected<std::unique_ptr<KernelCache>> cache = KernelCache::open(options);
  EXPECT_TRUE(cache) << cache.status().message();
  return cache ? std::move(*cache) : nullptr;
}

//===----------------------------------------------------------------------===//
// Requirement 1: hits and misses, proven by the counters.
//===----------------------------------------------------------------------===//

TEST(KernelCache, MissThenMemoryHitThenDiskHitInAFreshObject) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CacheKey key = keyNamed("k");
  CacheEntry entry = entryNamed("k");

  auto first = openCache(optionsFor(dir.path()));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->lookup(key), nullptr);
  EXPECT_EQ(first->stats().misses, 1u);
  ASSERT_TRUE(first->store(key, entry).ok());
  EXPECT_EQ(first->stats().writes, 1u);

  std::shared_ptr<const CacheEntry> hit = first->lookup(key);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(*hit, entry);
  CacheStats stats = first->stats();
  EXPECT_EQ(stats.memoryHits, 1u);
  EXPECT_EQ(stats.diskHits, 0u);
  EXPECT_EQ(stats.misses, 1u);

  // A new object on the same directory has an empty memory layer: its first
  // lookup is a disk hit, its second a memory hit.
  auto second = openCache(optionsFor(dir.path()));
  ASSERT_TRUE(second);
  hit = second->lookup(key);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(*hit, entry);
  stats = second->stats();
  EXPECT_EQ(stats.diskHits, 1u);
  EXPECT_EQ(stats.memoryHits, 0u);
  EXPECT_EQ(stats.misses, 0u);
  EXPECT_EQ(stats.corrupt, 0u);
  ASSERT_NE(second->lookup(key), nullptr);
  EXPECT_EQ(second->stats().memoryHits, 1u);
  EXPECT_EQ(second->stats().diskHits, 1u);

  // Another key is still a miss.
  EXPECT_EQ(second->lookup(keyNamed("other")), nullptr);
  EXPECT_EQ(second->stats().misses, 1u);
}

TEST(KernelCache, MemoryLayerOffReadsDiskEveryTime) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CacheOptions options = optionsFor(dir.path());
  options.maxMemoryBytes = 0;
  auto cache = openCache(options);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("k"), entryNamed("k")).ok());
  ASSERT_NE(cache->lookup(keyNamed("k")), nullptr);
  ASSERT_NE(cache->lookup(keyNamed("k")), nullptr);
  EXPECT_EQ(cache->stats().diskHits, 2u);
  EXPECT_EQ(cache->stats().memoryHits, 0u);
}

TEST(KernelCache, MemoryOnlyCacheKeepsNothingOnDisk) {
  CacheOptions options; // no directory
  auto cache = openCache(options);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("k"), entryNamed("k")).ok());
  ASSERT_NE(cache->lookup(keyNamed("k")), nullptr);
  EXPECT_EQ(cache->stats().memoryHits, 1u);
  EXPECT_EQ(cache->stats().writes, 0u);
  EXPECT_FALSE(cache->verify());
  auto other = openCache(options);
  EXPECT_EQ(other->lookup(keyNamed("k")), nullptr);
}

TEST(KernelCache, StoreReplacesAnEntry) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("k"), entryNamed("old")).ok());
  ASSERT_TRUE(cache->store(keyNamed("k"), entryNamed("new")).ok());
  EXPECT_EQ(*cache->lookup(keyNamed("k")), entryNamed("new"));
  auto fresh = openCache(optionsFor(dir.path()));
  EXPECT_EQ(*fresh->lookup(keyNamed("k")), entryNamed("new"));
  EXPECT_EQ(fresh->stats().diskHits, 1u);
}

TEST(KernelCache, RejectsInvalidEntries) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  Status status =
      cache->store(keyNamed("k"), CacheEntry().add("ptx", "a").add("ptx", "b"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(cache->stats().writes, 0u);
  EXPECT_EQ(cache->lookup(keyNamed("k")), nullptr);
}

//===----------------------------------------------------------------------===//
// Requirement 3: damaged entries are misses, counted, removed, replaced.
//===----------------------------------------------------------------------===//

struct Damage {
  const char *name;
  std::function<void(const std::string &path, std::string &bytes)> apply;
};

static std::vector<Damage> damages() {
  return {
      {"truncated", [](const std::string &,
                       std::string &bytes) { bytes.resize(bytes.size() / 2); }},
      {"bit-flipped",
       [](const std::string &, std::string &bytes) {
         bytes[bytes.size() / 2] ^= 0x04;
       }},
      {"wrong-magic",
       [](const std::string &, std::string &bytes) { bytes[0] = 'u'; }},
      {"empty", [](const std::string &, std::string &bytes) { bytes.clear(); }},
  };
}

TEST(KernelCache, DamagedEntriesAreMissesAndAreReplaced) {
  for (const Damage &damage : damages()) {
    SCOPED_TRACE(damage.name);
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    CacheKey key = keyNamed("k");
    CacheEntry entry = entryNamed("k", 4096);
    {
      auto writer = openCache(optionsFor(dir.path()));
      ASSERT_TRUE(writer->store(key, entry).ok());
    }
    auto probe = openCache(optionsFor(dir.path()));
    std::string path = probe->entryDirectory() + "/" + key.hex() + ".entry";
    std::string bytes;
    ASSERT_TRUE(readFile(path, bytes));
    damage.apply(path, bytes);
    ASSERT_TRUE(writeFile(path, bytes));

    // A fresh object (nothing in memory) must miss, count the damage, and
    // remove the file.
    auto reader = openCache(optionsFor(dir.path()));
    EXPECT_EQ(reader->lookup(key), nullptr);
    CacheStats stats = reader->stats();
    EXPECT_EQ(stats.corrupt, 1u);
    EXPECT_EQ(stats.misses, 1u);
    EXPECT_EQ(stats.diskHits, 0u);
    EXPECT_FALSE(fileExists(path));
    // Still a miss, now a plain one.
    EXPECT_EQ(reader->lookup(key), nullptr);
    EXPECT_EQ(reader->stats().corrupt, 1u);
    EXPECT_EQ(reader->stats().misses, 2u);

    // The next store writes a good entry again.
    ASSERT_TRUE(reader->store(key, entry).ok());
    auto again = openCache(optionsFor(dir.path()));
    std::shared_ptr<const CacheEntry> hit = again->lookup(key);
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(*hit, entry);
    EXPECT_EQ(again->stats().diskHits, 1u);
    EXPECT_EQ(again->stats().corrupt, 0u);
  }
}

TEST(KernelCache, AnEntryUnderAnotherKeysNameIsCorrupt) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(optionsFor(dir.path()));
  CacheKey a = keyNamed("a"), b = keyNamed("b");
  ASSERT_TRUE(cache->store(a, entryNamed("a")).ok());
  std::string bytes;
  std::string entries = cache->entryDirectory();
  ASSERT_TRUE(readFile(entries + "/" + a.hex() + ".entry", bytes));
  // A whole, well-formed file, but it is a's: under b's name it must not
  // load as b.
  ASSERT_TRUE(writeFile(entries + "/" + b.hex() + ".entry", bytes));
  auto reader = openCache(optionsFor(dir.path()));
  EXPECT_EQ(reader->lookup(b), nullptr);
  EXPECT_EQ(reader->stats().corrupt, 1u);
  EXPECT_FALSE(fileExists(entries + "/" + b.hex() + ".entry"));
  ASSERT_NE(reader->lookup(a), nullptr);
  EXPECT_EQ(*reader->lookup(a), entryNamed("a"));
}

TEST(KernelCache, HugeFileIsCorruptWithoutBeingRead) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(optionsFor(dir.path()));
  CacheKey key = keyNamed("huge");
  std::string path = cache->entryDirectory() + "/" + key.hex() + ".entry";
  // A sparse 5 GiB file: over the 4 GiB limit of the format. Reading it
  // would take seconds and gigabytes; the lookup must not.
  ASSERT_TRUE(writeFile(path, ""));
  ASSERT_EQ(::truncate(path.c_str(), int64_t(5) << 30), 0);
  EXPECT_EQ(cache->lookup(key), nullptr);
  EXPECT_EQ(cache->stats().corrupt, 1u);
  EXPECT_FALSE(fileExists(path));
}

TEST(KernelCache, VerifyRemovesDamagedEntriesOnly) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(optionsFor(dir.path()));
  for (const char *name : {"a", "b", "c"})
    ASSERT_TRUE(cache->store(keyNamed(name), entryNamed(name, 1000)).ok());
  std::string path =
      cache->entryDirectory() + "/" + keyNamed("b").hex() + ".entry";
  std::string bytes;
  ASSERT_TRUE(readFile(path, bytes));
  bytes[bytes.size() / 2] ^= 1;
  ASSERT_TRUE(writeFile(path, bytes));
  // A file that is not the cache's is left alone.
  ASSERT_TRUE(writeFile(cache->entryDirectory() + "/README", "mine"));

  Expected<VerifyReport> report = cache->verify();
  ASSERT_TRUE(report) << report.status().message();
  EXPECT_EQ(report->checked, 3u);
  EXPECT_EQ(report->valid, 2u);
  EXPECT_EQ(report->corrupt, 1u);
  EXPECT_EQ(cache->stats().corrupt, 1u);
  EXPECT_FALSE(fileExists(path));
  EXPECT_TRUE(fileExists(cache->entryDirectory() + "/README"));

  report = cache->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->checked, 2u);
  EXPECT_EQ(report->corrupt, 0u);
}

//===----------------------------------------------------------------------===//
// Requirement 6: the size cap evicts the least recently used entries.
//===----------------------------------------------------------------------===//

TEST(KernelCache, SizeCapEvictsLeastRecentlyUsed) {
  // Touch A by a memory hit (same object) and by a disk hit (fresh object).
  for (bool touchFromFreshObject : {false, true}) {
    SCOPED_TRACE(touchFromFreshObject ? "disk hit" : "memory hit");
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    // Each file: header 40 + 2 artifact headers 32 + "ptx" 3 + 1000 bytes +
    // "manifest.json" 13 + {"entry": "A"} 14 + checksum 8 = 1110 bytes.
    const uint64_t fileBytes = 1110;
    CacheOptions options = optionsFor(dir.path());
    options.maxDiskBytes = 3 * fileBytes + fileBytes / 2;
    auto cache = openCache(options);
    ASSERT_TRUE(cache);
    for (const char *name : {"A", "B", "C"})
      ASSERT_TRUE(cache->store(keyNamed(name), entryNamed(name, 1000)).ok());
    Expected<DiskUsage> usage = cache->diskUsage();
    ASSERT_TRUE(usage);
    EXPECT_EQ(usage->entries, 3u);
    EXPECT_EQ(usage->bytes, 3 * fileBytes);
    EXPECT_EQ(cache->stats().evictions, 0u);

    if (touchFromFreshObject) {
      auto toucher = openCache(options);
      ASSERT_NE(toucher->lookup(keyNamed("A")), nullptr);
      EXPECT_EQ(toucher->stats().diskHits, 1u);
    } else {
      ASSERT_NE(cache->lookup(keyNamed("A")), nullptr);
      EXPECT_EQ(cache->stats().memoryHits, 1u);
    }

    ASSERT_TRUE(cache->store(keyNamed("D"), entryNamed("D", 1000)).ok());
    EXPECT_EQ(cache->stats().evictions, 1u);
    usage = cache->diskUsage();
    ASSERT_TRUE(usage);
    EXPECT_EQ(usage->entries, 3u);
    EXPECT_LE(usage->bytes, options.maxDiskBytes);

    // B, the least recently used, went first; a fresh object proves it.
    auto reader = openCache(options);
    EXPECT_EQ(reader->lookup(keyNamed("B")), nullptr);
    for (const char *name : {"A", "C", "D"}) {
      std::shared_ptr<const CacheEntry> hit = reader->lookup(keyNamed(name));
      ASSERT_NE(hit, nullptr) << name;
      EXPECT_EQ(*hit, entryNamed(name, 1000));
    }
    EXPECT_EQ(reader->stats().diskHits, 3u);
    EXPECT_EQ(reader->stats().misses, 1u);
  }
}

TEST(KernelCache, AStoreNeverEvictsItsOwnEntry) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CacheOptions options = optionsFor(dir.path());
  options.maxDiskBytes = 100; // smaller than any entry
  auto cache = openCache(options);
  ASSERT_TRUE(cache->store(keyNamed("a"), entryNamed("a", 500)).ok());
  ASSERT_TRUE(cache->store(keyNamed("b"), entryNamed("b", 500)).ok());
  EXPECT_EQ(cache->stats().evictions, 1u);
  auto reader = openCache(options);
  EXPECT_EQ(reader->lookup(keyNamed("a")), nullptr);
  EXPECT_NE(reader->lookup(keyNamed("b")), nullptr);
}

TEST(MemoryLru, EvictsLeastRecentlyUsedByBytes) {
  // Each entry costs its payload (3 + 100) plus the 16 key bytes: 119.
  MemoryLru lru(3 * 119);
  auto entry = std::make_shared<const CacheEntry>(
      CacheEntry().add("ptx", std::string(100, 'x')));
  EXPECT_EQ(lru.put(keyNamed("a"), entry), 0u);
  EXPECT_EQ(lru.put(keyNamed("b"), entry), 0u);
  EXPECT_EQ(lru.put(keyNamed("c"), entry), 0u);
  EXPECT_EQ(lru.bytes(), 3u * 119);
  EXPECT_NE(lru.get(keyNamed("a")), nullptr);
  EXPECT_EQ(lru.put(keyNamed("d"), entry), 1u);
  EXPECT_EQ(lru.get(keyNamed("b")), nullptr);
  EXPECT_NE(lru.get(keyNamed("a")), nullptr);
  EXPECT_NE(lru.get(keyNamed("c")), nullptr);
  EXPECT_NE(lru.get(keyNamed("d")), nullptr);
  // Too big to keep at all.
  auto big = std::make_shared<const CacheEntry>(
      CacheEntry().add("ptx", std::string(1000, 'x')));
  EXPECT_EQ(lru.put(keyNamed("big"), big), 0u);
  EXPECT_EQ(lru.get(keyNamed("big")), nullptr);
  EXPECT_EQ(lru.size(), 3u);
}

//===----------------------------------------------------------------------===//
// Threads of one process.
//===----------------------------------------------------------------------===//

TEST(KernelCache, ThreadsShareOneObject) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CacheOptions options = optionsFor(dir.path());
  options.maxMemoryBytes = 4096; // small, so the memory layer churns
  auto cache = openCache(options);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        std::string name = std::to_string((t * 7 + i) % 10);
        if (!cache->store(keyNamed(name), entryNamed(name, 700)).ok())
          ++wrong;
        std::shared_ptr<const CacheEntry> hit = cache->lookup(keyNamed(name));
        if (!hit || *hit != entryNamed(name, 700))
          ++wrong;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong, 0);
  CacheStats stats = cache->stats();
  EXPECT_EQ(stats.memoryHits + stats.diskHits, 320u);
  EXPECT_EQ(stats.writes, 320u);
  EXPECT_EQ(stats.corrupt, 0u);
  EXPECT_EQ(cache->verify()->corrupt, 0u);
}

//===----------------------------------------------------------------------===//
// Directories and files are private.
//===----------------------------------------------------------------------===//

TEST(KernelCache, CreatesPrivateDirectoriesAndFiles) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ::umask(0); // the cache's modes must not depend on the umask
  std::string root = dir.path() + "/nested/cache";
  auto cache = openCache(optionsFor(root));
  ::umask(022);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("k"), entryNamed("k")).ok());
  struct stat st;
  for (const std::string &path : {dir.path() + "/nested", root, root + "/v1"}) {
    ASSERT_EQ(::stat(path.c_str(), &st), 0) << path;
    EXPECT_EQ(st.st_mode & 07777, 0700u) << path;
  }
  ASSERT_EQ(
      ::stat((root + "/v1/" + keyNamed("k").hex() + ".entry").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(cache->entryDirectory(), root + "/v1");
}

TEST(KernelCache, RefusesDirectoriesOthersCanWrite) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  Expected<std::unique_ptr<KernelCache>> cache =
      KernelCache::open(optionsFor(dir.path()));
  ASSERT_FALSE(cache);
  EXPECT_EQ(cache.status().message(),
            "cache directory " + dir.path() +
                " is writable by group or others (mode 0777); make it "
                "private with chmod 700");

  ASSERT_EQ(::chmod(dir.path().c_str(), 0700), 0);
  ASSERT_TRUE(writeFile(dir.path() + "/file", ""));
  cache = KernelCache::open(optionsFor(dir.path() + "/file"));
  ASSERT_FALSE(cache);
  EXPECT_NE(cache.status().message().find("/file"), std::string::npos);

  cache = KernelCache::open(optionsFor("relative/dir"));
  ASSERT_FALSE(cache);
}

//===----------------------------------------------------------------------===//
// Options from the environment.
//===----------------------------------------------------------------------===//

/// Sets (or, with null, unsets) environment variables for one scope.
class ScopedEnvironment {
public:
  ScopedEnvironment(
      std::initializer_list<std::pair<const char *, const char *>> values) {
    for (auto [name, value] : values) {
      const char *old = std::getenv(name);
      saved_.push_back({name, old ? std::optional<std::string>(old)
                                  : std::optional<std::string>()});
      if (value)
        ::setenv(name, value, 1);
      else
        ::unsetenv(name);
    }
  }
  ~ScopedEnvironment() {
    for (auto &[name, value] : saved_) {
      if (value)
        ::setenv(name.c_str(), value->c_str(), 1);
      else
        ::unsetenv(name.c_str());
    }
  }

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(CacheOptions, DirectoryFromTheEnvironment) {
  {
    ScopedEnvironment env({{"UTA_CACHE_DIR", "/c/dir"},
                           {"XDG_CACHE_HOME", "/x"},
                           {"HOME", "/h"}});
    EXPECT_EQ(CacheOptions::fromEnvironment()->directory, "/c/dir");
  }
  {
    ScopedEnvironment env(
        {{"UTA_CACHE_DIR", nullptr}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}});
    EXPECT_EQ(CacheOptions::fromEnvironment()->directory, "/x/uta");
  }
  {
    // An empty or relative XDG_CACHE_HOME is ignored.
    ScopedEnvironment env(
        {{"UTA_CACHE_DIR", ""}, {"XDG_CACHE_HOME", "rel"}, {"HOME", "/h"}});
    EXPECT_EQ(CacheOptions::fromEnvironment()->directory, "/h/.cache/uta");
  }
  {
    ScopedEnvironment env({{"UTA_CACHE_DIR", nullptr},
                           {"XDG_CACHE_HOME", nullptr},
                           {"HOME", nullptr}});
    EXPECT_FALSE(CacheOptions::fromEnvironment());
  }
  {
    ScopedEnvironment env({{"UTA_CACHE_DIR", "relative"}});
    EXPECT_FALSE(CacheOptions::fromEnvironment());
  }
}

TEST(CacheOptions, SizesFromTheEnvironment) {
  {
    ScopedEnvironment env({{"UTA_CACHE_DIR", "/c"},
                           {"UTA_CACHE_MAX_BYTES", nullptr},
                           {"UTA_CACHE_MEMORY_BYTES", nullptr}});
    Expected<CacheOptions> options = CacheOptions::fromEnvironment();
    ASSERT_TRUE(options);
    EXPECT_EQ(options->maxDiskBytes, 1073741824u);
    EXPECT_EQ(options->maxMemoryBytes, 67108864u);
  }
  {
    ScopedEnvironment env({{"UTA_CACHE_DIR", "/c"},
                           {"UTA_CACHE_MAX_BYTES", "512M"},
                           {"UTA_CACHE_MEMORY_BYTES", "0"}});
    Expected<CacheOptions> options = CacheOptions::fromEnvironment();
    ASSERT_TRUE(options);
    EXPECT_EQ(options->maxDiskBytes, 536870912u);
    EXPECT_EQ(options->maxMemoryBytes, 0u);
  }
  for (const char *bad :
       {"0", "-1", "12Q", "1.5G", "M", "99999999999999999999"}) {
    ScopedEnvironment env(
        {{"UTA_CACHE_DIR", "/c"}, {"UTA_CACHE_MAX_BYTES", bad}});
    Expected<CacheOptions> options = CacheOptions::fromEnvironment();
    ASSERT_FALSE(options) << bad;
    EXPECT_EQ(options.status().message().rfind("UTA_CACHE_MAX_BYTES: ", 0), 0u);
  }
}

TEST(CacheOptions, ParsesByteSizes) {
  EXPECT_EQ(parseByteSize("0"), 0u);
  EXPECT_EQ(parseByteSize("1073741824"), 1073741824u);
  EXPECT_EQ(parseByteSize("64k"), 65536u);
  EXPECT_EQ(parseByteSize("3G"), 3221225472u);
  EXPECT_EQ(parseByteSize("2T"), 2199023255552u);
  EXPECT_EQ(parseByteSize("18446744073709551615"), 18446744073709551615u);
  EXPECT_FALSE(parseByteSize("18446744073709551616"));
  EXPECT_FALSE(parseByteSize("16777216T"));
  EXPECT_FALSE(parseByteSize(""));
  EXPECT_FALSE(parseByteSize("1MB"));
}

TEST(KernelCache, UnknownFaultIsAnError) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ScopedEnvironment env({{"UTA_CACHE_FAULT", "kill-after-publish"}});
  Expected<std::unique_ptr<KernelCache>> cache =
      KernelCache::open(optionsFor(dir.path()));
  ASSERT_FALSE(cache);
  EXPECT_EQ(cache.status().message(),
            "UTA_CACHE_FAULT: unknown fault 'kill-after-publish' (known: "
            "kill-before-publish)");
}

//===----------------------------------------------------------------------===//
// `utac cache stats|verify|clear`.
//===----------------------------------------------------------------------===//

static int runCommand(std::vector<std::string_view> args, std::string &out,
                      std::string &err) {
  char *outText = nullptr, *errText = nullptr;
  size_t outSize = 0, errSize = 0;
  std::FILE *outFile = ::open_memstream(&outText, &outSize);
  std::FILE *errFile = ::open_memstream(&errText, &errSize);
  int code = runCacheCommand("utac", args, outFile, errFile);
  std::fclose(outFile);
  std::fclose(errFile);
  out.assign(outText, outSize);
  err.assign(errText, errSize);
  std::free(outText);
  std::free(errText);
  return code;
}

TEST(CacheCommand, StatsVerifyClear) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ScopedEnvironment env(
      {{"UTA_CACHE_DIR", dir.path().c_str()}, {"UTA_CACHE_MAX_BYTES", "1M"}});
  {
    auto cache = openCache(optionsFor(dir.path()));
    ASSERT_TRUE(cache->store(keyNamed("a"), entryNamed("a", 1000)).ok());
    ASSERT_TRUE(cache->store(keyNamed("b"), entryNamed("b", 1000)).ok());
  }
  std::string out, err;
  ASSERT_EQ(runCommand({"stats"}, out, err), 0) << err;
  // Two files of 1110 bytes (see SizeCapEvictsLeastRecentlyUsed).
  EXPECT_EQ(out, "directory: " + dir.path() +
                     "/v1\nentries: 2\nbytes: 2220\nmax-bytes: 1048576\n"
                     "temporary-files: 0\n");
  ASSERT_EQ(runCommand({"verify"}, out, err), 0) << err;
  EXPECT_EQ(out, "checked: 2\nvalid: 2\ncorrupt-removed: 0\n"
                 "not-regular-removed: 0\ntemporary-files-removed: 0\n");
  ASSERT_EQ(runCommand({"clear"}, out, err), 0) << err;
  EXPECT_EQ(out, "entries-removed: 2\nbytes-removed: 2220\n"
                 "not-regular-removed: 0\ntemporary-files-removed: 0\n");
  ASSERT_EQ(runCommand({"stats"}, out, err), 0) << err;
  EXPECT_NE(out.find("entries: 0\n"), std::string::npos);

  EXPECT_EQ(runCommand({"purge"}, out, err), 1);
  EXPECT_EQ(err, "utac: usage: cache stats|verify|clear\n");
  EXPECT_EQ(runCommand({}, out, err), 1);
}

} // namespace
