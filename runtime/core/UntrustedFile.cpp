//===- UntrustedFile.cpp - Files the runtime does not trust ---------------===//
//
// Every file is opened with O_NONBLOCK and checked with fstat on the open
// descriptor (not stat on the name, which another process could swap
// between the check and the open), and its size is taken from that fstat
// before any buffer is sized from it.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/UntrustedFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace uta::runtime;

std::optional<uint64_t>
uta::runtime::checkedElementCount(std::span<const int64_t> shape) {
  for (int64_t size : shape)
    if (size < 0)
      return std::nullopt;
  for (int64_t size : shape)
    if (size == 0)
      return 0;
  uint64_t count = 1;
  constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
  for (int64_t size : shape) {
    if (count > kMax / uint64_t(size))
      return std::nullopt;
    count *= uint64_t(size);
  }
  return count;
}

std::optional<uint64_t>
uta::runtime::checkedByteSize(std::span<const int64_t> shape,
                              uint64_t elementSize) {
  std::optional<uint64_t> count = checkedElementCount(shape);
  constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
  if (!count || elementSize == 0 || elementSize > kMax ||
      *count > kMax / elementSize)
    return std::nullopt;
  return *count * elementSize;
}

/// strerror(errno), lower-case as diagnostics are.
static std::string describeErrno() {
  std::string why = std::strerror(errno);
  if (!why.empty())
    why[0] = char(std::tolower(static_cast<unsigned char>(why[0])));
  return why;
}

/// "a FIFO", "a directory", ... for the kinds of file that are refused.
static const char *describeFileKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a file";
}

static Status notRegular(const std::string &path, mode_t mode) {
  return Status::error(ErrorCode::InvalidInput,
                       path + ": not a regular file (" +
                           describeFileKind(mode) + ")");
}

Expected<RegularFile> RegularFile::open(const std::string &path,
                                        const std::string &name) {
  const std::string &shown = name.empty() ? path : name;
  // Without blocking: a FIFO or a device at the path is refused below
  // instead of waiting for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int openError = errno;
    // A socket cannot be opened at all (ENXIO): say what it is.
    struct stat info;
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
      return notRegular(shown, info.st_mode);
    errno = openError;
    return Status::error(ErrorCode::InvalidInput,
                         shown + ": cannot open: " + describeErrno());
  }
  return adopt(fd, shown);
}

Expected<RegularFile> RegularFile::adopt(int fd, const std::string &shown) {
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    Status status = Status::error(ErrorCode::InvalidInput,
                                  shown + ": cannot stat: " + describeErrno());
    ::close(fd);
    return status;
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return notRegular(shown, info.st_mode);
  }
  return RegularFile(fd, uint64_t(info.st_size), shown);
}

Expected<RegularFile> RegularFile::openBeneath(const std::string &folder,
                                               std::string_view relative,
                                               const std::string &name) {
  auto cannotOpen = [&] {
    return Status::error(ErrorCode::InvalidInput,
                         name + ": cannot open: " + describeErrno());
  };
  int at = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (at < 0)
    return cannotOpen();
  for (;;) {
    size_t slash = relative.find('/');
    std::string component(relative.substr(0, slash));
    bool last = slash == std::string_view::npos;
    int flags =
        O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (last ? O_NONBLOCK : O_DIRECTORY);
    int next = ::openat(at, component.c_str(), flags);
    if (next < 0) {
      int openError = errno;
      // A socket cannot be opened at all (ENXIO): say what it is.
      struct stat info;
      bool special =
          last &&
          ::fstatat(at, component.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
          !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode);
      ::close(at);
      if (special)
        return notRegular(name, info.st_mode);
      errno = openError;
      return cannotOpen();
    }
    ::close(at);
    if (last)
      return adopt(next, name);
    at = next;
    relative.remove_prefix(slash + 1);
  }
}

RegularFile::RegularFile(RegularFile &&other) noexcept
    : fd_(other.fd_), size_(other.size_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

RegularFile &RegularFile::operator=(RegularFile &&other) noexcept {
  if (this == &other)
    return *this;
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = other.fd_;
  size_ = other.size_;
  path_ = std::move(other.path_);
  other.fd_ = -1;
  return *this;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0)
    ::close(fd_);
}

Status RegularFile::readExactly(std::span<std::byte> out) {
  size_t done = 0;
  while (done < out.size()) {
    ssize_t got = ::read(fd_, out.data() + done, out.size() - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return Status::error(ErrorCode::InvalidInput,
                           path_ + ": cannot read: " + describeErrno());
    if (got == 0)
      return Status::error(ErrorCode::InvalidInput,
                           path_ + ": the file ended early (it shrank while "
                                   "being read)");
    done += size_t(got);
  }
  return Status();
}

Status RegularFile::expectEnd() {
  std::byte extra;
  for (;;) {
    ssize_t got = ::read(fd_, &extra, 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return Status::error(ErrorCode::InvalidInput,
                           path_ + ": cannot read: " + describeErrno());
    if (got == 0)
      return Status();
    return Status::error(ErrorCode::InvalidInput,
                         path_ + ": the file grew while being read");
  }
}

/// The whole of `file` if it holds at most `maxBytes` bytes, with `name` in
/// messages.
static Expected<std::vector<std::byte>>
readRegularFile(Expected<RegularFile> file, const std::string &name,
                uint64_t maxBytes) {
  if (!file)
    return file.status();
  if (file->size() > maxBytes)
    return Status::error(ErrorCode::InvalidInput,
                         name + ": " + std::to_string(file->size()) +
                             " bytes, more than the " +
                             std::to_string(maxBytes) + " allowed");
  std::vector<std::byte> bytes(static_cast<size_t>(file->size()));
  UTA_TRY(file->readExactly(bytes));
  UTA_TRY(file->expectEnd());
  return bytes;
}

Expected<std::vector<std::byte>>
uta::runtime::readFileBytes(const std::string &path, uint64_t maxBytes) {
  return readRegularFile(RegularFile::open(path), path, maxBytes);
}

Status uta::runtime::checkFileNameInFolder(std::string_view name) {
  if (name.empty() || name.front() == '/')
    return Status::error(ErrorCode::InvalidInput,
                         "expected a file name relative to the manifest's "
                         "folder");
  if (name.find('\0') != std::string_view::npos)
    return Status::error(ErrorCode::InvalidInput,
                         "a file name must not contain a NUL character");
  for (size_t start = 0; start <= name.size();) {
    size_t end = std::min(name.find('/', start), name.size());
    if (name.substr(start, end - start) == "..")
      return Status::error(ErrorCode::InvalidInput,
                           std::string("\"").append(name) +
                               "\" leaves the manifest's folder (\"..\")");
    start = end + 1;
  }
  return Status();
}

Expected<std::vector<std::byte>>
uta::runtime::readFileInFolder(const std::string &directory,
                               const std::string &name, uint64_t maxBytes) {
  UTA_TRY(checkFileNameInFolder(name));
  std::string folder = directory.empty() ? "." : directory;
  std::string path = folder + "/" + name;
  // The name passed the checks above; a link may still lead out.
  char folderReal[PATH_MAX], fileReal[PATH_MAX];
  if (!::realpath(folder.c_str(), folderReal) ||
      !::realpath(path.c_str(), fileReal))
    return Status::error(ErrorCode::InvalidInput,
                         path + ": cannot open: " + describeErrno());
  std::string inside = folderReal;
  if (inside.back() != '/') // "/" itself ends in one
    inside += '/';
  if (std::string_view(fileReal).substr(0, inside.size()) != inside)
    return Status::error(ErrorCode::InvalidInput,
                         path + ": resolves to " + fileReal +
                             ", outside the manifest's folder");
  // The resolved path, not `path` again, and no link on it followed: a link
  // swapped in since realpath (at the file or at a folder on the way) cannot
  // lead the read elsewhere.
  return readRegularFile(
      RegularFile::openBeneath(
          folderReal, std::string_view(fileReal).substr(inside.size()), path),
      path, maxBytes);
}
