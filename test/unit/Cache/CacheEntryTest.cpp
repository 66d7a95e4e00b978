//===- CacheEntryTest.cpp - Tests of the entry file format ----------------===//
//
// The byte layout, checked against a file image written out by hand, and
// that the decoder rejects every kind of damage with a precise reason.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/CacheEntry.h"

#include <gtest/gtest.h>
#include <xxhash.h>

using namespace uta::runtime;

namespace {

static CacheKey key0to15() {
  return CacheKey(
      CacheKey::Bytes{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST(CacheEntry, FindsArtifactsByName) {
  CacheEntry entry;
  entry.add("ptx", "P").add("manifest.json", "{}");
  ASSERT_TRUE(entry.find("ptx"));
  EXPECT_EQ(*entry.find("ptx"), "P");
  EXPECT_EQ(*entry.find("manifest.json"), "{}");
  EXPECT_EQ(entry.find("cubin"), nullptr);
  // "ptx" + "P" + "manifest.json" + "{}" = 3 + 1 + 13 + 2.
  EXPECT_EQ(entry.payloadBytes(), 19u);
}

TEST(CacheEntry, LayoutMatchesTheFormat) {
  std::string image = encodeEntry(key0to15(), CacheEntry().add("ptx", "AB"));
  // Header 40 + artifact header 16 + "ptx" 3 + "AB" 2 + checksum 8 = 69.
  std::string expected("UTAKCACH", 8);
  expected += std::string("\x01\0\0\0", 4);         // version 1
  expected += std::string("\x01\0\0\0", 4);         // one artifact
  expected += std::string("\x45\0\0\0\0\0\0\0", 8); // 69 bytes
  for (char i = 0; i < 16; ++i)
    expected.push_back(i);                          // the key
  expected += std::string("\x03\0\0\0\0\0\0\0", 8); // name size 3, zero
  expected += std::string("\x02\0\0\0\0\0\0\0", 8); // data size 2
  expected += "ptxAB";
  ASSERT_EQ(image.size(), 69u);
  EXPECT_EQ(image.substr(0, 61), expected);
  uint64_t checksum = XXH3_64bits(expected.data(), expected.size());
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(static_cast<uint8_t>(image[61 + i]),
              static_cast<uint8_t>(checksum >> (8 * i)));
}

TEST(CacheEntry, RoundTrips) {
  CacheEntry entry;
  entry.add("ptx", ".version 8.0\n").add("cubin", std::string("\0\x7f\xff", 3));
  entry.add("empty", "");
  Expected<CacheEntry> decoded =
      decodeEntry(encodeEntry(key0to15(), entry), key0to15());
  ASSERT_TRUE(decoded) << decoded.status().message();
  EXPECT_EQ(*decoded, entry);

  Expected<CacheEntry> none =
      decodeEntry(encodeEntry(key0to15(), CacheEntry()), key0to15());
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->artifacts.empty());
}

static std::string decodeError(const std::string &image,
                               const CacheKey &key = key0to15()) {
  Expected<CacheEntry> decoded = decodeEntry(image, key);
  return decoded ? std::string("decoded") : decoded.status().message();
}

TEST(CacheEntry, RejectsDamage) {
  std::string good =
      encodeEntry(key0to15(), CacheEntry().add("ptx", std::string(100, 'x')));
  ASSERT_EQ(decodeError(good), "decoded");

  EXPECT_NE(decodeError(good.substr(0, 20)).find("truncated"),
            std::string::npos);
  EXPECT_NE(decodeError(good.substr(0, good.size() - 1)).find("truncated"),
            std::string::npos);
  EXPECT_NE(decodeError(good + "x").find("extended"), std::string::npos);

  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  EXPECT_EQ(decodeError(flipped), "checksum mismatch");

  std::string badMagic = good;
  badMagic[0] = 'X';
  EXPECT_EQ(decodeError(badMagic), "not a cache entry (bad magic)");

  std::string badVersion = good;
  badVersion[8] = 2;
  EXPECT_EQ(decodeError(badVersion), "format version 2, expected 1");

  CacheKey other = CacheKeyBuilder().add("ir", "other").build();
  EXPECT_EQ(decodeError(good, other),
            "holds a different key than its name says");
}

TEST(CacheEntry, ValidatesNames) {
  EXPECT_TRUE(validateEntry(CacheEntry().add("a", "").add("b", "")).ok());
  EXPECT_FALSE(validateEntry(CacheEntry().add("", "x")).ok());
  Status duplicate =
      validateEntry(CacheEntry().add("ptx", "1").add("ptx", "2"));
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.message(), "cache entry has two artifacts named 'ptx'");
  EXPECT_FALSE(validateEntry(CacheEntry().add(std::string(2000, 'n'), "")));
}

} // namespace
