//===- CacheEntryFuzzer.cpp - libFuzzer harness of the cache entry reader -===//
//
// Feeds arbitrary bytes to decodeEntry (runtime/cache/CacheEntry), the reader
// of the kernel cache's entry files, twice: as they are (almost always
// refused at the size or checksum), and sealed: the size field, the key and
// the checksum made right, so that mutations reach the artifact table. The
// format has one encoding per entry, so an entry it accepts must encode back
// to exactly the bytes it was read from.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/CacheEntry.h"
#include "runtime/cache/CacheKey.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <xxhash.h>

using namespace uta::runtime;
namespace layout = uta::runtime::entry_format;

static void check(bool holds, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "CacheEntryFuzzer: %s\n", what);
  std::abort();
}

static void putU64(std::string &file, size_t offset, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    file[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

/// The key every input is decoded under (any fixed key will do).
static CacheKey getKey() {
  CacheKey::Bytes bytes{};
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(0xa0 + i);
  return CacheKey(bytes);
}

static void decodeAndCheck(const std::string &file, const CacheKey &key) {
  Expected<CacheEntry> entry = decodeEntry(file, key);
  if (!entry.ok())
    return;
  check(validateEntry(*entry).ok(), "an accepted entry is not valid");
  check(encodeEntry(key, *entry) == file,
        "an accepted entry does not encode back to its bytes");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const CacheKey key = getKey();
  std::string file(reinterpret_cast<const char *>(data), size);
  decodeAndCheck(file, key);

  if (size < layout::kHeaderBytes + layout::kTrailerBytes)
    return 0;
  putU64(file, 16, size);
  std::memcpy(file.data() + 24, key.bytes().data(), CacheKey::kNumBytes);
  size_t bodyEnd = size - layout::kTrailerBytes;
  putU64(file, bodyEnd, XXH3_64bits(file.data(), bodyEnd));
  decodeAndCheck(file, key);
  return 0;
}
