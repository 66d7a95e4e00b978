//===- UntrustedFile.h - Files the runtime does not trust -------*- C++ -*-===//
//
// Manifests, the modules and data files they name, and .npy inputs come from
// outside and are read as untrusted input (docs/runtime.md): only regular
// files are read, opened without blocking (a FIFO or a device at the path is
// refused at once instead of waiting for a writer or reading forever), sizes
// are checked before anything is allocated, and names taken from a manifest
// must stay inside the manifest's folder. Also the overflow-checked element
// count and byte size of a shape that every reader of a shape uses.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_UNTRUSTEDFILE_H
#define UTA_RUNTIME_CORE_UNTRUSTEDFILE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace uta::runtime {

/// The element count of `shape` (1 for rank 0), or nullopt when a size is
/// negative or the count does not fit int64. A zero size makes the count 0
/// whatever the other sizes are.
std::optional<uint64_t> checkedElementCount(std::span<const int64_t> shape);

/// The element count times `elementSize`, or nullopt when either does not
/// fit int64.
std::optional<uint64_t> checkedByteSize(std::span<const int64_t> shape,
                                        uint64_t elementSize);

/// A regular file opened for reading (O_NONBLOCK, so a FIFO never blocks
/// the open); closed when this goes out of scope.
class RegularFile {
public:
  /// Opens `path` (following links) and refuses anything but a regular
  /// file: "NAME: not a regular file (a FIFO)", where NAME is `name`, or
  /// `path` when `name` is empty. Errors are InvalidInput.
  static Expected<RegularFile> open(const std::string &path,
                                    const std::string &name = {});

  /// Opens `relative`, a path that realpath resolved below `folder`, one
  /// component at a time from the folder's descriptor without following any
  /// link (O_NOFOLLOW): it had none when it was resolved, so a link met now
  /// was swapped in since and is refused rather than followed out of the
  /// folder. Otherwise as open(), with `name` in messages.
  static Expected<RegularFile> openBeneath(const std::string &folder,
                                           std::string_view relative,
                                           const std::string &name);

  RegularFile(RegularFile &&other) noexcept;
  RegularFile &operator=(RegularFile &&other) noexcept;
  RegularFile(const RegularFile &) = delete;
  RegularFile &operator=(const RegularFile &) = delete;
  ~RegularFile();

  /// The size fstat gave at open.
  uint64_t size() const { return size_; }
  /// The name messages use.
  const std::string &path() const { return path_; }

  /// Reads exactly `out.size()` bytes from the current position; a file that
  /// ends sooner (it shrank meanwhile) is an error.
  Status readExactly(std::span<std::byte> out);
  /// Whether the file ends at the current position (one more read gives
  /// nothing): a file that grew after open is caught here.
  Status expectEnd();

private:
  /// Takes `fd` (closing it on error) if it is a regular file.
  static Expected<RegularFile> adopt(int fd, const std::string &shown);

  RegularFile(int fd, uint64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}

  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

/// The largest module image the runtime reads (1 GiB).
inline constexpr uint64_t kMaxModuleBytes = uint64_t(1) << 30;

/// Reads a whole regular file of at most `maxBytes` bytes; a FIFO, device or
/// folder at `path` is refused without blocking.
Expected<std::vector<std::byte>>
readFileBytes(const std::string &path, uint64_t maxBytes = kMaxModuleBytes);

/// Whether `name`, a file name from a manifest, stays inside the manifest's
/// folder: not empty, not absolute, no ".." component, no NUL character.
Status checkFileNameInFolder(std::string_view name);

/// Reads the file `name` of the manifest's folder `directory` after
/// checkFileNameInFolder and after resolving links: a link that leads out
/// of the folder is refused, as is anything but a regular file of at most
/// `maxBytes` bytes.
Expected<std::vector<std::byte>> readFileInFolder(const std::string &directory,
                                                  const std::string &name,
                                                  uint64_t maxBytes);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_UNTRUSTEDFILE_H
