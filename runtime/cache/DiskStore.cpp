//===- DiskStore.cpp - The on-disk layer of the kernel cache --------------===//
//
// POSIX file handling of the cache directory: private directories, checked
// reads, atomic publication, scans, sweeping and eviction.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/DiskStore.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace uta::runtime;

static std::string errnoText() { return std::strerror(errno); }

static Status ioError(const std::string &what) {
  return Status::error(ErrorCode::Internal, what + ": " + errnoText());
}

/// Now, in full nanoseconds: the kernel's own timestamps are coarser (a
/// scheduler tick), and LRU order must tell apart uses made in one tick.
static timespec now() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts;
}

static int64_t nanoseconds(const timespec &ts) {
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// mkdir -p with mode 0700 for every directory it creates.
static Status makeDirectories(const std::string &path) {
  if (path.empty())
    return Status::error(ErrorCode::InvalidInput,
                         "the cache directory is an empty path");
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      return ioError("cannot create cache directory " + prefix);
    if (slash == std::string::npos)
      return Status();
  }
}

static std::string octal(mode_t mode) {
  char text[16];
  std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(mode));
  return text;
}

static Status checkPrivateDirectory(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return ioError("cannot use cache directory " + path);
  if (!S_ISDIR(st.st_mode))
    return Status::error(ErrorCode::InvalidInput,
                         "cache directory " + path + " is not a directory");
  if (st.st_uid != ::geteuid())
    return Status::error(ErrorCode::InvalidInput,
                         "cache directory " + path + " is owned by uid " +
                             std::to_string(st.st_uid) +
                             ", not by this user (uid " +
                             std::to_string(::geteuid()) + ")");
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return Status::error(
        ErrorCode::InvalidInput,
        "cache directory " + path + " is writable by group or others (mode " +
            octal(st.st_mode & 07777) + "); make it private with chmod 700");
  return Status();
}

Expected<DiskStore> DiskStore::open(const std::string &root,
                                    std::chrono::seconds staleTemporaryAge) {
  if (root.empty() || root[0] != '/')
    return Status::error(ErrorCode::InvalidInput,
                         "cache directory '" + root +
                             "' is not an absolute path");
  std::string directory = root;
  while (directory.size() > 1 && directory.back() == '/')
    directory.pop_back();
  if (Status status = makeDirectories(directory); !status)
    return status;
  if (Status status = checkPrivateDirectory(directory); !status)
    return status;
  directory += "/";
  directory += kFormatDirectory;
  if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST)
    return ioError("cannot create cache directory " + directory);
  if (Status status = checkPrivateDirectory(directory); !status)
    return status;
  return DiskStore(std::move(directory), staleTemporaryAge);
}

std::string DiskStore::pathOf(const CacheKey &key) const {
  return directory_ + "/" + key.hex() + std::string(kEntrySuffix);
}

std::optional<CacheKey>
uta::runtime::keyOfEntryFileName(std::string_view name) {
  if (name.size() != 2 * CacheKey::kNumBytes + DiskStore::kEntrySuffix.size() ||
      !name.ends_with(DiskStore::kEntrySuffix))
    return std::nullopt;
  std::optional<CacheKey> key =
      CacheKey::fromHex(name.substr(0, 2 * CacheKey::kNumBytes));
  // Only the canonical lower-case spelling is an entry of ours.
  if (!key || key->hex() != name.substr(0, 2 * CacheKey::kNumBytes))
    return std::nullopt;
  return key;
}

/// Reads a whole file from `fd`, but no more than `limit` bytes.
static bool readAll(int fd, std::string &out, uint64_t limit) {
  char buffer[1 << 16];
  while (out.size() <= limit) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    if (n == 0)
      return true;
    out.append(buffer, static_cast<size_t>(n));
  }
  return true; // longer than any entry: decoding rejects it
}

static bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

/// Unlinks `path` only if it is still the file `st` describes: a writer may
/// have renamed a good entry over the bad one since it was read.
static void removeIfSameFile(const std::string &path, const struct stat &st) {
  struct stat current;
  if (::lstat(path.c_str(), &current) == 0 && current.st_dev == st.st_dev &&
      current.st_ino == st.st_ino)
    ::unlink(path.c_str());
}

/// "a folder", "a FIFO", ... for what is found at an entry's path.
static const char *describeNotRegular(mode_t mode) {
  if (S_ISDIR(mode))
    return "a folder";
  if (S_ISLNK(mode))
    return "a symbolic link";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  return "not a regular file";
}

DiskStore::ReadResult DiskStore::read(const CacheKey &key, bool touch) const {
  ReadResult result;
  std::string path = pathOf(key);
  // Entries are regular files: a link is not followed (ELOOP), a FIFO is
  // not waited on (O_NONBLOCK), and a socket cannot be opened (ENXIO).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    struct stat st;
    if (errno != ENOENT && ::lstat(path.c_str(), &st) == 0 &&
        !S_ISREG(st.st_mode)) {
      result.outcome = ReadOutcome::kNotRegular;
      result.problem = describeNotRegular(st.st_mode);
    }
    return result;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return result;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    result.outcome = ReadOutcome::kNotRegular;
    result.problem = describeNotRegular(st.st_mode);
    return result;
  }
  // No entry is this large: do not even try to read it.
  if (static_cast<uint64_t>(st.st_size) > entry_format::kMaxFileBytes) {
    ::close(fd);
    removeIfSameFile(path, st);
    result.outcome = ReadOutcome::kCorrupt;
    result.problem = "is larger than any entry";
    return result;
  }
  std::string image;
  image.reserve(static_cast<size_t>(st.st_size));
  if (!readAll(fd, image, entry_format::kMaxFileBytes + 1)) {
    ::close(fd);
    result.outcome = ReadOutcome::kCorrupt;
    result.problem = "cannot be read";
    return result;
  }
  Expected<CacheEntry> entry = decodeEntry(image, key);
  if (!entry) {
    ::close(fd);
    removeIfSameFile(path, st);
    result.outcome = ReadOutcome::kCorrupt;
    result.problem = entry.status().message();
    return result;
  }
  if (touch) {
    timespec times[2] = {now(), now()};
    ::futimens(fd, times);
  }
  ::close(fd);
  result.outcome = ReadOutcome::kHit;
  result.entry = std::move(*entry);
  return result;
}

bool DiskStore::touch(const CacheKey &key) const {
  timespec times[2] = {now(), now()};
  return ::utimensat(AT_FDCWD, pathOf(key).c_str(), times,
                     AT_SYMLINK_NOFOLLOW) == 0;
}

Status DiskStore::write(const CacheKey &key, std::string_view image,
                        CacheFault fault) const {
  std::string temporary = directory_ + "/" + std::string(kTemporaryPrefix) +
                          std::to_string(::getpid()) + "-" + key.hex() +
                          "-XXXXXX";
  // mkostemp creates the file with mode 0600.
  int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0)
    return ioError("cannot create a temporary file in " + directory_);
  timespec times[2] = {now(), now()};
  bool ok =
      writeAll(fd, image) && ::futimens(fd, times) == 0 && ::fsync(fd) == 0;
  std::string failure = ok ? std::string() : errnoText();
  if (::close(fd) != 0 && ok) {
    ok = false;
    failure = errnoText();
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return Status::error(ErrorCode::Internal,
                         "cannot write " + temporary + ": " + failure);
  }
  if (fault == CacheFault::kKillBeforePublish)
    ::raise(SIGKILL);
  std::string path = pathOf(key);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    Status status = ioError("cannot rename " + temporary + " to " + path);
    ::unlink(temporary.c_str());
    return status;
  }
  return Status();
}

Expected<DiskScan> DiskStore::scan() const {
  DIR *dir = ::opendir(directory_.c_str());
  if (!dir)
    return ioError("cannot read cache directory " + directory_);
  int dirFd = ::dirfd(dir);
  DiskScan scan;
  while (dirent *item = ::readdir(dir)) {
    std::string_view name = item->d_name;
    bool isEntry = keyOfEntryFileName(name).has_value();
    bool isTemporary = name.starts_with(kTemporaryPrefix);
    if (!isEntry && !isTemporary)
      continue;
    struct stat st;
    if (::fstatat(dirFd, item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
      continue; // removed meanwhile
    DiskFile file{std::string(name), static_cast<uint64_t>(st.st_size),
                  nanoseconds(st.st_mtim)};
    if (isEntry && !S_ISREG(st.st_mode)) {
      scan.notRegular.push_back(std::move(file));
    } else if (isEntry) {
      scan.entryBytes += file.bytes;
      scan.entries.push_back(std::move(file));
    } else {
      scan.temporaries.push_back(std::move(file));
    }
  }
  ::closedir(dir);
  return scan;
}

/// The writer's pid from ".tmp-<pid>-<key>-XXXXXX", or 0.
static pid_t writerOf(std::string_view name) {
  name.remove_prefix(DiskStore::kTemporaryPrefix.size());
  pid_t pid = 0;
  size_t i = 0;
  for (; i < name.size() && i < 10 && name[i] >= '0' && name[i] <= '9'; ++i)
    pid = pid * 10 + (name[i] - '0');
  if (i == 0 || i == name.size() || name[i] != '-')
    return 0;
  return pid;
}

uint64_t DiskStore::sweepTemporaries(const DiskScan &scan) const {
  int64_t staleBefore =
      nanoseconds(now()) - std::chrono::nanoseconds(staleTemporaryAge_).count();
  uint64_t removed = 0;
  for (const DiskFile &file : scan.temporaries) {
    pid_t writer = writerOf(file.name);
    // A pid of another pid namespace may look dead; that writer's store then
    // fails cleanly at its rename, and no entry is ever damaged.
    bool writerGone = writer > 0 && ::kill(writer, 0) != 0 && errno == ESRCH;
    if (!writerGone && file.mtimeNs >= staleBefore)
      continue;
    if (::unlink((directory_ + "/" + file.name).c_str()) == 0)
      ++removed;
  }
  return removed;
}

bool DiskStore::removeEntryFile(const std::string &name) const {
  return ::unlink((directory_ + "/" + name).c_str()) == 0;
}

bool DiskStore::removeNotRegular(const std::string &name) const {
  std::string path = directory_ + "/" + name;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
    return false;
  if (!S_ISDIR(st.st_mode))
    return ::unlink(path.c_str()) == 0;
  // A folder where an entry belongs holds nothing of the cache's: remove it
  // whole (remove_all does not follow the links inside it).
  std::error_code error;
  return std::filesystem::remove_all(path, error) > 0 && !error;
}

uint64_t DiskStore::evict(DiskScan &scan, uint64_t maxBytes,
                          const std::optional<CacheKey> &keep) const {
  if (scan.entryBytes <= maxBytes)
    return 0;
  std::string keepName =
      keep ? keep->hex() + std::string(kEntrySuffix) : std::string();
  std::sort(scan.entries.begin(), scan.entries.end(),
            [](const DiskFile &a, const DiskFile &b) {
              if (a.mtimeNs != b.mtimeNs)
                return a.mtimeNs < b.mtimeNs;
              return a.name < b.name;
            });
  uint64_t removed = 0;
  std::vector<DiskFile> kept;
  for (DiskFile &file : scan.entries) {
    if (scan.entryBytes <= maxBytes || file.name == keepName) {
      kept.push_back(std::move(file));
      continue;
    }
    // Gone already (another process evicted it) counts as freed, not as ours.
    if (removeEntryFile(file.name))
      ++removed;
    scan.entryBytes -= file.bytes;
  }
  scan.entries = std::move(kept);
  return removed;
}
