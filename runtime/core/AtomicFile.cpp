//===- AtomicFile.cpp - Files written whole or not at all -----------------===//

#include "runtime/core/AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

using namespace uta::runtime;

/// Writes all of `bytes` to `fd`, retrying short writes; false on error.
static bool writeAll(int fd, const void *bytes, size_t size) {
  const char *at = static_cast<const char *>(bytes);
  while (size > 0) {
    ssize_t written = ::write(fd, at, size);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    at += written;
    size -= size_t(written);
  }
  return true;
}

Status uta::runtime::writeFileAtomically(
    const std::string &path,
    std::initializer_list<std::span<const std::byte>> pieces) {
  // A fresh name in the target's directory (so that rename stays within one
  // file system), hidden, and unique per process and call.
  static std::atomic<unsigned> counter{0};
  std::filesystem::path target(path);
  std::filesystem::path directory = target.parent_path();
  std::string tempName = ".";
  tempName += target.filename().string();
  tempName +=
      ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  std::string tempPath =
      directory.empty() ? tempName : (directory / tempName).string();

  auto invalid = [&](const char *what, int error) {
    return Status::error(ErrorCode::InvalidInput,
                         path + ": " + what + ": " + std::strerror(error));
  };
  int fd =
      ::open(tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    return invalid("cannot create", errno);
  bool ok = true;
  for (std::span<const std::byte> piece : pieces)
    ok = ok && writeAll(fd, piece.data(), piece.size());
  ok = ok && ::fsync(fd) == 0;
  int writeError = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    writeError = errno;
  }
  if (ok && std::rename(tempPath.c_str(), path.c_str()) != 0) {
    ok = false;
    writeError = errno;
  }
  if (!ok) {
    ::unlink(tempPath.c_str());
    return invalid("cannot write", writeError);
  }
  return Status();
}
