//===- NotRegularEntryTest.cpp - Special files at an entry's path ---------===//
//
// Whatever sits at an entry's path and is not a regular file (a FIFO, a
// folder, a symbolic link, a socket) is never read, never served and never
// waited on: a lookup is a plain miss and leaves it; a store replaces it
// (except a folder, which rename cannot replace: that store fails cleanly);
// `verify` and `clear` remove it, so it is reported once. Each test runs
// under an alarm, so a lookup that blocked on a FIFO fails the test instead
// of hanging it.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/CacheCommand.h"
#include "runtime/cache/KernelCache.h"

#include "CacheTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <sys/socket.h>
#include <sys/un.h>

using namespace uta::runtime;
using namespace uta::runtime::testing;

namespace {

CacheKey keyNamed(const std::string &name) {
  return CacheKeyBuilder().add("ir", name).add("sm", "90").build();
}

CacheEntry entryNamed(const std::string &name) {
  CacheEntry entry;
  entry.add("ptx", ".visible .entry " + name + "\n");
  entry.add("manifest.json", "{\"entry\": \"" + name + "\"}");
  return entry;
}

std::unique_ptr<KernelCache> openCache(const std::string &dir) {
  Expected<std::unique_ptr<KernelCache>> cache =
      KernelCache::open(optionsFor(dir));
  EXPECT_TRUE(cache) << cache.status().message();
  return cache ? std::move(*cache) : nullptr;
}

/// Kills the test process (SIGALRM) if it is still running after 60 s.
class Deadline {
public:
  Deadline() { ::alarm(60); }
  ~Deadline() { ::alarm(0); }
};

/// One kind of file that is not a regular file, made at `path`. `dir` is
/// the test's folder, for anything the kind needs beside the cache.
struct Kind {
  const char *name;
  std::function<bool(const std::string &path, const std::string &dir)> make;
  /// Whether rename() can publish an entry over it.
  bool replaceableByStore;
};

bool makeSocket(const std::string &path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (fd < 0 || path.size() >= sizeof(address.sun_path))
    return false;
  std::strcpy(address.sun_path, path.c_str());
  bool bound =
      ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0;
  ::close(fd); // the socket file stays
  return bound;
}

std::vector<Kind> kinds() {
  return {
      {"fifo",
       [](const std::string &path, const std::string &) {
         return ::mkfifo(path.c_str(), 0600) == 0;
       },
       true},
      {"folder",
       [](const std::string &path, const std::string &) {
         return ::mkdir(path.c_str(), 0700) == 0 &&
                writeFile(path + "/inside", "x") &&
                ::mkdir((path + "/sub").c_str(), 0700) == 0;
       },
       false},
      // A link to a file outside the cache; in the lookup test, a whole,
      // valid entry of the same key: following it would serve bytes from
      // outside the cache.
      {"symlink-to-an-entry",
       [](const std::string &path, const std::string &dir) {
         std::string elsewhere = dir + "/elsewhere.entry";
         return (fileExists(elsewhere) || writeFile(elsewhere, "not read")) &&
                ::symlink(elsewhere.c_str(), path.c_str()) == 0;
       },
       true},
      {"symlink-to-a-fifo",
       [](const std::string &path, const std::string &dir) {
         std::string fifo = dir + "/fifo-elsewhere";
         return ::mkfifo(fifo.c_str(), 0600) == 0 &&
                ::symlink(fifo.c_str(), path.c_str()) == 0;
       },
       true},
      {"socket",
       [](const std::string &path, const std::string &) {
         return makeSocket(path);
       },
       true},
  };
}

TEST(NotRegularEntry, LookupsMissWithoutBlockingAndNeverServe) {
  Deadline deadline;
  for (const Kind &kind : kinds()) {
    SCOPED_TRACE(kind.name);
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    auto cache = openCache(dir.path());
    ASSERT_TRUE(cache);
    // A valid entry of the key, moved out of the cache (where the link of
    // "symlink-to-an-entry" finds it), and the special file in its place.
    CacheKey key = keyNamed("good");
    ASSERT_TRUE(cache->store(key, entryNamed("good")).ok());
    std::string path = cache->entryDirectory() + "/" + key.hex() + ".entry";
    ASSERT_EQ(::rename(path.c_str(), (dir.path() + "/elsewhere.entry").c_str()),
              0);
    ASSERT_TRUE(kind.make(path, dir.path()));

    // A fresh object, so the memory layer cannot answer.
    auto reader = openCache(dir.path());
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->lookup(key), nullptr);
    CacheStats stats = reader->stats();
    EXPECT_EQ(stats.misses, 1u);
    EXPECT_EQ(stats.diskHits, 0u);
    EXPECT_EQ(stats.corrupt, 0u);
    // Left in place for verify.
    EXPECT_TRUE(fileExists(path));

    // A store publishes over it, except over a folder, where it fails
    // cleanly and the key stays a miss.
    Status stored = reader->store(key, entryNamed("good"));
    EXPECT_EQ(stored.ok(), kind.replaceableByStore) << stored.message();
    auto after = openCache(dir.path());
    ASSERT_TRUE(after);
    std::shared_ptr<const CacheEntry> hit = after->lookup(key);
    if (kind.replaceableByStore) {
      ASSERT_NE(hit, nullptr);
      EXPECT_EQ(*hit, entryNamed("good"));
    } else {
      EXPECT_EQ(hit, nullptr);
    }
  }
}

TEST(NotRegularEntry, VerifyRemovesThemOnceAndKeepsTheRest) {
  Deadline deadline;
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(dir.path());
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("good"), entryNamed("good")).ok());
  std::vector<std::string> made;
  for (const Kind &kind : kinds()) {
    std::string path =
        cache->entryDirectory() + "/" + keyNamed(kind.name).hex() + ".entry";
    ASSERT_TRUE(kind.make(path, dir.path())) << kind.name;
    made.push_back(path);
  }
  // Not an entry's name: not the cache's, left alone.
  ASSERT_EQ(::mkfifo((cache->entryDirectory() + "/my-fifo").c_str(), 0600), 0);

  Expected<VerifyReport> report = cache->verify();
  ASSERT_TRUE(report) << report.status().message();
  EXPECT_EQ(report->checked, 1u);
  EXPECT_EQ(report->valid, 1u);
  EXPECT_EQ(report->corrupt, 0u);
  EXPECT_EQ(report->notRegularRemoved, made.size());
  for (const std::string &path : made)
    EXPECT_FALSE(fileExists(path)) << path;
  EXPECT_TRUE(fileExists(cache->entryDirectory() + "/my-fifo"));
  // What a link pointed to, outside the cache, is untouched.
  EXPECT_TRUE(fileExists(dir.path() + "/elsewhere.entry"));
  EXPECT_TRUE(fileExists(dir.path() + "/fifo-elsewhere"));

  // Reported once: the next verify finds nothing.
  report = cache->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->notRegularRemoved, 0u);
  EXPECT_EQ(report->valid, 1u);
  ASSERT_NE(openCache(dir.path())->lookup(keyNamed("good")), nullptr);
}

TEST(NotRegularEntry, StatsCountOnlyRegularEntriesAndClearRemovesAll) {
  Deadline deadline;
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = openCache(dir.path());
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->store(keyNamed("good"), entryNamed("good")).ok());
  std::string folder =
      cache->entryDirectory() + "/" + keyNamed("folder").hex() + ".entry";
  ASSERT_TRUE(kinds()[1].make(folder, dir.path()));
  Expected<DiskUsage> usage = cache->diskUsage();
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->entries, 1u);

  Expected<ClearReport> cleared = cache->clear();
  ASSERT_TRUE(cleared) << cleared.status().message();
  EXPECT_EQ(cleared->entriesRemoved, 1u);
  EXPECT_EQ(cleared->notRegularRemoved, 1u);
  EXPECT_FALSE(fileExists(folder));
}

} // namespace
