//===- CacheKey.h - Keys of the kernel cache --------------------*- C++ -*-===//
//
// A cache key is a 128-bit XXH3 hash over named, length-prefixed parts: the
// canonical IR bytes, the pipeline and its options, the target and sm, the
// compiler's build identity, and the libdevice / driver versions where they
// change the output. Every byte that can change a compiled kernel must be a
// part; two inputs that compile differently must never share a key.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CACHE_CACHEKEY_H
#define UTA_RUNTIME_CACHE_CACHEKEY_H

#include "runtime/core/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace uta::runtime {

/// The 16 bytes of an XXH3-128 hash, in canonical (big-endian) order, so that
/// hex() reads the same as `xxhsum -H2` would print it.
class CacheKey {
public:
  static constexpr size_t kNumBytes = 16;
  using Bytes = std::array<uint8_t, kNumBytes>;

  CacheKey() = default;
  explicit CacheKey(const Bytes &bytes) : bytes_(bytes) {}

  /// Parses 32 lower- or upper-case hex digits; nullopt for anything else.
  static std::optional<CacheKey> fromHex(std::string_view hex);

  const Bytes &bytes() const { return bytes_; }
  /// 32 lower-case hex digits: the entry's file name on disk.
  std::string hex() const;

  friend bool operator==(const CacheKey &, const CacheKey &) = default;

private:
  Bytes bytes_{};
};

/// Hash functor for unordered containers (the key is already a good hash).
struct CacheKeyHash {
  size_t operator()(const CacheKey &key) const;
};

/// Builds a key from named parts:
///   CacheKeyBuilder().add("ir", bytecode).add("sm", "90").build()
/// Each part enters the hash as u64le(len(name)) name u64le(len(value)) value,
/// after a fixed domain tag, so ("ab", "c") and ("a", "bc") differ and so do
/// the same bytes under two names. Parts are hashed in the order given: the
/// caller adds them in one fixed order.
class CacheKeyBuilder {
public:
  CacheKeyBuilder();

  CacheKeyBuilder &add(std::string_view name, std::string_view value);

  /// The key of the parts added so far; the builder stays usable.
  CacheKey build() const;

  /// The bytes that build() hashes (for tests and for debugging a key).
  const std::string &framedBytes() const { return framed_; }

  /// The domain tag every framing starts with.
  static constexpr std::string_view kDomainTag = "uta-kernel-cache-key-v1";

private:
  std::string framed_;
};

/// XXH3-128 of a whole file, as 32 hex digits: for inputs that are files
/// (libdevice, a linked library) rather than version strings.
Expected<std::string> fileDigest(const std::string &path);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CACHE_CACHEKEY_H
