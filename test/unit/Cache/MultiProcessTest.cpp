//===- MultiProcessTest.cpp - Tests of the cache across processes ---------===//
//
// Eight processes storing and looking up shared and private keys at once,
// and a writer SIGKILLed between writing an entry and publishing it. The
// children are forked and run no GoogleTest code: they report through their
// exit code alone (_exit), and the parent checks the directory afterwards.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/KernelCache.h"

#include "CacheTestUtil.h"

#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace uta::runtime;
using namespace uta::runtime::testing;

namespace {

constexpr int kProcesses = 8;
constexpr int kRounds = 12;
constexpr int kSharedKeys = 3;

static CacheKey sharedKey(int i) {
  return CacheKeyBuilder()
      .add("kind", "shared")
      .add("i", std::to_string(i))
      .build();
}

static CacheKey ownKey(int process, int round) {
  return CacheKeyBuilder()
      .add("kind", "own")
      .add("process", std::to_string(process))
      .add("round", std::to_string(round))
      .build();
}

/// The entry every process stores under `key`: a function of the key alone,
/// so any process can check any lookup. Sizes up to ~300 KB make writes
/// slow enough to overlap.
static CacheEntry contentOf(const CacheKey &key) {
  const CacheKey::Bytes &b = key.bytes();
  size_t ptxBytes = 20000 + (size_t(b[0]) << 10) + b[1];
  std::string ptx(ptxBytes, '\0');
  for (size_t i = 0; i < ptxBytes; ++i)
    ptx[i] = static_cast<char>(b[i % CacheKey::kNumBytes] + i * 31);
  CacheEntry entry;
  entry.add("ptx", std::move(ptx));
  entry.add("cubin", std::string(b[2] + 1, static_cast<char>(b[3])));
  entry.add("manifest.json", "{\"key\": \"" + key.hex() + "\"}");
  return entry;
}

/// A child's whole life: wait for the start, then store and look up. The
/// exit code says what went wrong (0: nothing).
static int childMain(const std::string &dir, int process, int startFd) {
  char byte;
  while (::read(startFd, &byte, 1) < 0 && errno == EINTR) {
  }
  CacheOptions options;
  options.directory = dir;
  options.maxMemoryBytes = 0; // every lookup reads the shared directory
  Expected<std::unique_ptr<KernelCache>> opened = KernelCache::open(options);
  if (!opened)
    return 10;
  KernelCache &cache = **opened;
  for (int round = 0; round < kRounds; ++round) {
    CacheKey shared = sharedKey((process + round) % kSharedKeys);
    CacheKey own = ownKey(process, round);
    if (!cache.store(shared, contentOf(shared)).ok())
      return 11;
    if (!cache.store(own, contentOf(own)).ok())
      return 12;
    // What this process has published must load, whole: this round's keys
    // and the last round's (others may have replaced the shared one since).
    std::vector<CacheKey> published = {own, shared};
    if (round > 0) {
      published.push_back(ownKey(process, round - 1));
      published.push_back(sharedKey((process + round - 1) % kSharedKeys));
    }
    for (const CacheKey &key : published) {
      std::shared_ptr<const CacheEntry> hit = cache.lookup(key);
      if (!hit)
        return 13;
      if (*hit != contentOf(key))
        return 14;
    }
    // Keys of other processes may not be there yet, but if one loads, it is
    // exactly what was stored.
    for (const CacheKey &key : {sharedKey(round % kSharedKeys),
                                ownKey((process + 1) % kProcesses, round)})
      if (std::shared_ptr<const CacheEntry> hit = cache.lookup(key))
        if (*hit != contentOf(key))
          return 15;
  }
  if (cache.stats().corrupt != 0)
    return 16;
  return 0;
}

TEST(MultiProcess, EightProcessesLeaveOnlyValidEntries) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // Open once so the directory exists before the race.
  auto parent = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(parent) << parent.status().message();

  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  std::vector<pid_t> children;
  for (int process = 0; process < kProcesses; ++process) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(start[1]);
      ::_exit(childMain(dir.path(), process, start[0]));
    }
    children.push_back(pid);
  }
  ::close(start[0]);
  ::close(start[1]); // all children start reading EOF at once

  // While they run, verify() must never find a damaged entry.
  uint64_t verifyRuns = 0;
  std::vector<int> statuses(children.size(), -1);
  size_t running = children.size();
  while (running > 0) {
    Expected<VerifyReport> report = (*parent)->verify();
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->corrupt, 0u);
    ++verifyRuns;
    for (size_t i = 0; i < children.size(); ++i) {
      if (statuses[i] != -1)
        continue;
      int status;
      pid_t done = ::waitpid(children[i], &status, WNOHANG);
      if (done == children[i]) {
        statuses[i] = status;
        --running;
      }
    }
  }
  for (size_t i = 0; i < children.size(); ++i) {
    ASSERT_TRUE(WIFEXITED(statuses[i])) << "child " << i;
    EXPECT_EQ(WEXITSTATUS(statuses[i]), 0) << "child " << i;
  }
  EXPECT_GE(verifyRuns, 1u);

  // Afterwards: every entry checks out, no temporary file is left, and a
  // fresh object loads exactly what was stored under every key.
  auto reader = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(reader);
  Expected<VerifyReport> report = (*reader)->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->corrupt, 0u);
  EXPECT_EQ(report->checked, uint64_t(kSharedKeys + kProcesses * kRounds));
  EXPECT_EQ(report->valid, report->checked);
  Expected<DiskUsage> usage = (*reader)->diskUsage();
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->temporaries, 0u);
  std::vector<CacheKey> keys;
  for (int i = 0; i < kSharedKeys; ++i)
    keys.push_back(sharedKey(i));
  for (int process = 0; process < kProcesses; ++process)
    for (int round = 0; round < kRounds; ++round)
      keys.push_back(ownKey(process, round));
  for (const CacheKey &key : keys) {
    std::shared_ptr<const CacheEntry> hit = (*reader)->lookup(key);
    ASSERT_NE(hit, nullptr) << key.hex();
    EXPECT_EQ(*hit, contentOf(key)) << key.hex();
  }
  EXPECT_EQ((*reader)->stats().diskHits, keys.size());
  EXPECT_EQ((*reader)->stats().corrupt, 0u);
}

//===----------------------------------------------------------------------===//
// Requirement 5: a writer killed between writing and publishing.
//===----------------------------------------------------------------------===//

static CacheKey killedKey() {
  return CacheKeyBuilder().add("ir", "killed writer").build();
}

/// Forks a child that stores killedKey() with UTA_CACHE_FAULT set, and
/// returns its wait status.
static int runKilledWriter(const std::string &dir) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("UTA_CACHE_FAULT", "kill-before-publish", 1);
    Expected<std::unique_ptr<KernelCache>> cache =
        KernelCache::open(optionsFor(dir));
    if (!cache)
      ::_exit(10);
    Status status = (*cache)->store(killedKey(), contentOf(killedKey()));
    // Reaching here means the fault did not fire.
    ::_exit(status.ok() ? 11 : 12);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
    return -1;
  return status;
}

/// The temporary files in the entry directory of the cache at `dir`.
static std::vector<std::string> temporaries(const std::string &dir) {
  std::vector<std::string> found;
  for (const std::string &name : listDir(dir + "/v1"))
    if (name.rfind(".tmp-", 0) == 0)
      found.push_back(name);
  return found;
}

/// Kills a writer and checks what it leaves: a whole temporary file, no
/// entry, and a lookup that misses.
static void killWriterAndCheck(const std::string &dir) {
  int status = runKilledWriter(dir);
  ASSERT_TRUE(WIFSIGNALED(status)) << "wait status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGKILL);

  std::vector<std::string> temps = temporaries(dir);
  ASSERT_EQ(temps.size(), 1u);
  // The kill came after the write: the temporary file is complete.
  std::string bytes;
  ASSERT_TRUE(readFile(dir + "/v1/" + temps[0], bytes));
  EXPECT_EQ(bytes, encodeEntry(killedKey(), contentOf(killedKey())));
  EXPECT_FALSE(fileExists(dir + "/v1/" + killedKey().hex() + ".entry"));

  auto cache = KernelCache::open(optionsFor(dir));
  ASSERT_TRUE(cache);
  EXPECT_EQ((*cache)->lookup(killedKey()), nullptr);
  EXPECT_EQ((*cache)->stats().misses, 1u);
  EXPECT_EQ((*cache)->stats().corrupt, 0u);
  Expected<DiskUsage> usage = (*cache)->diskUsage();
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->entries, 0u);
  EXPECT_EQ(usage->temporaries, 1u);
}

TEST(MultiProcess, KilledWriterLeavesNothingThatLoadsAndVerifySweeps) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  killWriterAndCheck(dir.path());
  if (HasFatalFailure())
    return;
  auto cache = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  Expected<VerifyReport> report = (*cache)->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->temporariesRemoved, 1u);
  EXPECT_EQ(report->checked, 0u);
  EXPECT_EQ(report->corrupt, 0u);
  EXPECT_TRUE(temporaries(dir.path()).empty());
  EXPECT_EQ((*cache)->lookup(killedKey()), nullptr);
}

TEST(MultiProcess, KilledWriterIsSweptByClear) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  killWriterAndCheck(dir.path());
  if (HasFatalFailure())
    return;
  auto cache = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  Expected<ClearReport> report = (*cache)->clear();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->temporariesRemoved, 1u);
  EXPECT_EQ(report->entriesRemoved, 0u);
  EXPECT_TRUE(temporaries(dir.path()).empty());
}

TEST(MultiProcess, KilledWriterIsSweptByTheNextStore) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  killWriterAndCheck(dir.path());
  if (HasFatalFailure())
    return;
  auto cache = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  CacheKey other = CacheKeyBuilder().add("ir", "other").build();
  ASSERT_TRUE((*cache)->store(other, contentOf(other)).ok());
  EXPECT_EQ((*cache)->stats().temporariesSwept, 1u);
  EXPECT_TRUE(temporaries(dir.path()).empty());
  // The killed writer's key still misses; a new store of it then loads.
  EXPECT_EQ((*cache)->lookup(killedKey()), nullptr);
  ASSERT_TRUE((*cache)->store(killedKey(), contentOf(killedKey())).ok());
  auto reader = KernelCache::open(optionsFor(dir.path()));
  ASSERT_NE((*reader)->lookup(killedKey()), nullptr);
  EXPECT_EQ((*reader)->stats().diskHits, 1u);
}

TEST(MultiProcess, LiveWritersTemporariesAreKeptUntilStale) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto cache = KernelCache::open(optionsFor(dir.path()));
  ASSERT_TRUE(cache);
  // A temporary file named for this (live) process: a writer at work.
  std::string temp = dir.path() + "/v1/.tmp-" + std::to_string(::getpid()) +
                     "-" + killedKey().hex() + "-abcdef";
  ASSERT_TRUE(writeFile(temp, "partial"));
  Expected<VerifyReport> report = (*cache)->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->temporariesRemoved, 0u);
  EXPECT_TRUE(fileExists(temp));
  // Older than the stale age (10 minutes): swept whoever wrote it.
  timespec old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, temp.c_str(), old, 0), 0);
  report = (*cache)->verify();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->temporariesRemoved, 1u);
  EXPECT_FALSE(fileExists(temp));
}

} // namespace
