//===- CacheKeyTest.cpp - Tests of cache keys and build identity ----------===//
//
// The key's framing (checked against bytes written out by hand), that each
// input alone changes the key, and that the build identity is the hash of
// the object file holding the code.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/CacheKey.h"
#include "runtime/cache/BuildIdentity.h"

#include "CacheTestUtil.h"

#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <unistd.h>
#include <xxhash.h>

using namespace uta::runtime;
using uta::runtime::testing::TempDir;
using uta::runtime::testing::writeFile;

namespace {

TEST(CacheKey, HexRoundTripsInCanonicalOrder) {
  std::optional<CacheKey> key =
      CacheKey::fromHex("000102030405060708090A0B0C0D0E0F");
  ASSERT_TRUE(key);
  CacheKey::Bytes expected = {0, 1, 2,  3,  4,  5,  6,  7,
                              8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(key->bytes(), expected);
  EXPECT_EQ(key->hex(), "000102030405060708090a0b0c0d0e0f");
  EXPECT_FALSE(CacheKey::fromHex("00"));
  EXPECT_FALSE(CacheKey::fromHex("000102030405060708090a0b0c0d0e0g"));
}

TEST(CacheKey, FileDigestMatchesXxh3TestVector) {
  // XXH3-128 of no bytes, from xxHash's published test vectors: proves the
  // hash and the canonical (high half first) order of hex().
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::string empty = dir.path() + "/empty";
  ASSERT_TRUE(writeFile(empty, ""));
  Expected<std::string> digest = fileDigest(empty);
  ASSERT_TRUE(digest) << digest.status().message();
  EXPECT_EQ(*digest, "99aa06d3014798d86001c324468d497f");
  EXPECT_FALSE(fileDigest(dir.path() + "/missing"));
}

TEST(CacheKey, FramingIsLengthPrefixed) {
  CacheKeyBuilder builder;
  builder.add("ab", "c");
  // Written out by hand: domain tag, u64le 2, "ab", u64le 1, "c".
  std::string expected = "uta-kernel-cache-key-v1";
  expected += std::string("\x02\0\0\0\0\0\0\0", 8) + "ab";
  expected += std::string("\x01\0\0\0\0\0\0\0", 8) + "c";
  EXPECT_EQ(builder.framedBytes(), expected);

  // The key is XXH3-128 of exactly those bytes.
  XXH128_hash_t hash = XXH3_128bits(expected.data(), expected.size());
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  CacheKey::Bytes bytes;
  std::memcpy(bytes.data(), canonical.digest, bytes.size());
  EXPECT_EQ(builder.build(), CacheKey(bytes));
}

TEST(CacheKey, PartBoundariesAndNamesMatter) {
  CacheKey abC = CacheKeyBuilder().add("ir", "ab").add("x", "c").build();
  CacheKey aBc = CacheKeyBuilder().add("ir", "a").add("x", "bc").build();
  EXPECT_NE(abC, aBc);
  // One part vs the same bytes split in two.
  EXPECT_NE(CacheKeyBuilder().add("p", "abc").build(),
            CacheKeyBuilder().add("p", "ab").add("", "c").build());
  // The same value under another name.
  EXPECT_NE(CacheKeyBuilder().add("sm", "90").build(),
            CacheKeyBuilder().add("target", "90").build());
  // Deterministic.
  EXPECT_EQ(CacheKeyBuilder().add("ir", "ab").add("x", "c").build(), abC);
  EXPECT_EQ(abC.hex().size(), 32u);
}

struct KeyInputs {
  std::string ir = "func.func @f(%a: tensor<4xf32>) { uta.add ... }";
  std::string pipeline = "uta-lower-to-ptx-pipeline";
  std::string options = "allow-tf32=false fast-math=false";
  std::string target = "ptx";
  std::string sm = "90";
  std::string buildIdentity = "00112233445566778899aabbccddeeff";
  std::string libdevice = "libdevice-digest-1";
};

static CacheKey keyOf(const KeyInputs &in) {
  return CacheKeyBuilder()
      .add("ir", in.ir)
      .add("pipeline", in.pipeline)
      .add("options", in.options)
      .add("target", in.target)
      .add("sm", in.sm)
      .add("build", in.buildIdentity)
      .add("libdevice", in.libdevice)
      .build();
}

TEST(CacheKey, EachInputAloneChangesTheKey) {
  KeyInputs base;
  CacheKey baseKey = keyOf(base);
  EXPECT_EQ(keyOf(base), baseKey);

  std::vector<KeyInputs> variants(7, base);
  variants[0].ir += " "; // one more byte of IR
  variants[1].pipeline = "uta-lower-to-spirv-pipeline";
  variants[2].options = "allow-tf32=true fast-math=false";
  variants[3].target = "spirv";
  variants[4].sm = "80";
  variants[5].buildIdentity = "00112233445566778899aabbccddeefe";
  variants[6].libdevice = "libdevice-digest-2";
  std::set<std::string> keys = {baseKey.hex()};
  for (const KeyInputs &variant : variants)
    keys.insert(keyOf(variant).hex());
  // All eight keys differ from each other.
  EXPECT_EQ(keys.size(), 8u);
}

static int functionOfThisExecutable() { return 42; }

TEST(BuildIdentity, IsTheHashOfTheExecutable) {
  const void *address =
      reinterpret_cast<const void *>(&functionOfThisExecutable);
  Expected<std::string> path = objectPathOf(address);
  ASSERT_TRUE(path) << path.status().message();
  EXPECT_EQ(*path, "/proc/self/exe");

  Expected<std::string> identity = buildIdentityOf(address);
  ASSERT_TRUE(identity) << identity.status().message();
  Expected<std::string> digest = fileDigest("/proc/self/exe");
  ASSERT_TRUE(digest);
  EXPECT_EQ(*identity, *digest);
  EXPECT_EQ(identity->size(), 32u);

  // This library is linked statically into the test: same object, same
  // identity, remembered for the process.
  Expected<std::string> own = buildIdentity();
  ASSERT_TRUE(own);
  EXPECT_EQ(*own, *identity);
  EXPECT_EQ(*buildIdentity(), *own);
}

TEST(BuildIdentity, SharedObjectsAreHashedByTheirOwnFile) {
  // getpid lives in libc, a shared object: its identity is libc's bytes.
  // (Not a string function: AddressSanitizer puts its own strlen into the
  // executable.)
  const void *address = reinterpret_cast<const void *>(&::getpid);
  Expected<std::string> path = objectPathOf(address);
  ASSERT_TRUE(path) << path.status().message();
  EXPECT_NE(path->find("libc"), std::string::npos) << *path;

  Expected<std::string> identity = buildIdentityOf(address);
  ASSERT_TRUE(identity) << identity.status().message();
  EXPECT_EQ(*identity, *fileDigest(*path));
  EXPECT_NE(*identity, *buildIdentity());

  // Another build identity alone changes the key.
  EXPECT_NE(
      CacheKeyBuilder().add("ir", "x").add("build", *identity).build(),
      CacheKeyBuilder().add("ir", "x").add("build", *buildIdentity()).build());
}

TEST(BuildIdentity, FollowsTheFileBytes) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(writeFile(dir.path() + "/a", "compiler build 1"));
  ASSERT_TRUE(writeFile(dir.path() + "/b", "compiler build 2"));
  ASSERT_TRUE(writeFile(dir.path() + "/c", "compiler build 1"));
  EXPECT_NE(*fileDigest(dir.path() + "/a"), *fileDigest(dir.path() + "/b"));
  EXPECT_EQ(*fileDigest(dir.path() + "/a"), *fileDigest(dir.path() + "/c"));
}

} // namespace
