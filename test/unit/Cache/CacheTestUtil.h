//===- CacheTestUtil.h - Helpers of the kernel cache tests ------*- C++ -*-===//
//
// A fresh private directory per test (mkdtemp, removed afterwards), and small
// file helpers, so each test sees exactly the files it made.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TEST_UNIT_CACHE_CACHETESTUTIL_H
#define UTA_TEST_UNIT_CACHE_CACHETESTUTIL_H

#include "runtime/cache/KernelCache.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <ftw.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace uta::runtime::testing {

class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base ? base : "/tmp") + "/uta-cache-test-XXXXXX";
    if (::mkdtemp(pattern.data()))
      path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty())
      return;
    ::nftw(
        path_.c_str(),
        [](const char *path, const struct stat *, int, struct FTW *) {
          return ::remove(path);
        },
        16, FTW_DEPTH | FTW_PHYS);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  bool ok() const { return !path_.empty(); }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// Names in `dir` (not "." and ".."), sorted.
inline std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *item = ::readdir(d)) {
      std::string name = item->d_name;
      if (name != "." && name != "..")
        names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline bool fileExists(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

inline bool readFile(const std::string &path, std::string &out) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return false;
  out.clear();
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    out.append(buffer, n);
  std::fclose(file);
  return true;
}

inline bool writeFile(const std::string &path, const std::string &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && ok;
}

/// Options for a test cache in `dir` (no environment involved).
inline CacheOptions optionsFor(const std::string &dir) {
  CacheOptions options;
  options.directory = dir;
  return options;
}

} // namespace uta::runtime::testing

#endif // UTA_TEST_UNIT_CACHE_CACHETESTUTIL_H
