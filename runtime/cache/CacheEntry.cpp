//===- CacheEntry.cpp - A group of artifacts and its file format ----------===//
//
// Encoding and checked decoding of entry files. The decoder trusts nothing:
// a file may be truncated, damaged, or written by another program.
//
//===----------------------------------------------------------------------===//

#include "runtime/cache/CacheEntry.h"

#include <cstring>
#include <unordered_set>
#include <xxhash.h>

using namespace uta::runtime;
namespace layout = uta::runtime::entry_format;

const std::string *CacheEntry::find(std::string_view name) const {
  for (const auto &[artifactName, bytes] : artifacts)
    if (artifactName == name)
      return &bytes;
  return nullptr;
}

uint64_t CacheEntry::payloadBytes() const {
  uint64_t total = 0;
  for (const auto &[name, bytes] : artifacts)
    total += name.size() + bytes.size();
  return total;
}

Status uta::runtime::validateEntry(const CacheEntry &entry) {
  if (entry.artifacts.size() > layout::kMaxArtifacts)
    return Status::error(ErrorCode::InvalidInput,
                         "cache entry has " +
                             std::to_string(entry.artifacts.size()) +
                             " artifacts, more than the limit of " +
                             std::to_string(layout::kMaxArtifacts));
  std::unordered_set<std::string_view> names;
  uint64_t fileBytes = layout::kHeaderBytes + layout::kTrailerBytes;
  for (const auto &[name, bytes] : entry.artifacts) {
    fileBytes += layout::kArtifactHeaderBytes + name.size() + bytes.size();
    if (fileBytes > layout::kMaxFileBytes)
      return Status::error(ErrorCode::InvalidInput,
                           "cache entry is larger than " +
                               std::to_string(layout::kMaxFileBytes) +
                               " bytes");
    if (name.empty())
      return Status::error(ErrorCode::InvalidInput,
                           "cache entry has an artifact without a name");
    if (name.size() > layout::kMaxNameBytes)
      return Status::error(ErrorCode::InvalidInput,
                           "cache entry artifact name is longer than " +
                               std::to_string(layout::kMaxNameBytes) +
                               " bytes");
    if (!names.insert(name).second)
      return Status::error(ErrorCode::InvalidInput,
                           "cache entry has two artifacts named '" + name +
                               "'");
  }
  return Status();
}

static void putU32(std::string &out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

static void putU64(std::string &out, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

static uint32_t getU32(const char *p) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = (value << 8) | static_cast<uint8_t>(p[i]);
  return value;
}

static uint64_t getU64(const char *p) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = (value << 8) | static_cast<uint8_t>(p[i]);
  return value;
}

std::string uta::runtime::encodeEntry(const CacheKey &key,
                                      const CacheEntry &entry) {
  uint64_t size = layout::kHeaderBytes + layout::kTrailerBytes;
  for (const auto &[name, bytes] : entry.artifacts)
    size += layout::kArtifactHeaderBytes + name.size() + bytes.size();

  std::string out;
  out.reserve(size);
  out.append(layout::kMagic, sizeof(layout::kMagic));
  putU32(out, layout::kVersion);
  putU32(out, static_cast<uint32_t>(entry.artifacts.size()));
  putU64(out, size);
  out.append(reinterpret_cast<const char *>(key.bytes().data()),
             CacheKey::kNumBytes);
  for (const auto &[name, bytes] : entry.artifacts) {
    putU32(out, static_cast<uint32_t>(name.size()));
    putU32(out, 0);
    putU64(out, bytes.size());
    out.append(name);
    out.append(bytes);
  }
  putU64(out, XXH3_64bits(out.data(), out.size()));
  return out;
}

Expected<CacheEntry> uta::runtime::decodeEntry(std::string_view file,
                                               const CacheKey &expectedKey) {
  auto corrupt = [](std::string what) {
    return Status::error(ErrorCode::Internal, std::move(what));
  };
  if (file.size() < layout::kHeaderBytes + layout::kTrailerBytes)
    return corrupt("truncated: " + std::to_string(file.size()) +
                   " bytes, shorter than a header");
  if (file.size() > layout::kMaxFileBytes)
    return corrupt("larger than " + std::to_string(layout::kMaxFileBytes) +
                   " bytes");
  const char *data = file.data();
  if (std::memcmp(data, layout::kMagic, sizeof(layout::kMagic)) != 0)
    return corrupt("not a cache entry (bad magic)");
  uint32_t version = getU32(data + 8);
  if (version != layout::kVersion)
    return corrupt("format version " + std::to_string(version) + ", expected " +
                   std::to_string(layout::kVersion));
  uint32_t count = getU32(data + 12);
  uint64_t recordedSize = getU64(data + 16);
  if (recordedSize != file.size())
    return corrupt("size is " + std::to_string(file.size()) +
                   " bytes, the header says " + std::to_string(recordedSize) +
                   " (truncated or extended)");
  size_t bodyEnd = file.size() - layout::kTrailerBytes;
  uint64_t checksum = XXH3_64bits(data, bodyEnd);
  if (checksum != getU64(data + bodyEnd))
    return corrupt("checksum mismatch");
  if (std::memcmp(data + 24, expectedKey.bytes().data(), CacheKey::kNumBytes) !=
      0)
    return corrupt("holds a different key than its name says");
  if (count > layout::kMaxArtifacts)
    return corrupt("too many artifacts (" + std::to_string(count) + ")");

  CacheEntry entry;
  entry.artifacts.reserve(count);
  size_t offset = layout::kHeaderBytes;
  for (uint32_t i = 0; i < count; ++i) {
    if (bodyEnd - offset < layout::kArtifactHeaderBytes)
      return corrupt("artifact " + std::to_string(i) + " runs past the end");
    uint32_t nameSize = getU32(data + offset);
    uint32_t reserved = getU32(data + offset + 4);
    uint64_t dataSize = getU64(data + offset + 8);
    offset += layout::kArtifactHeaderBytes;
    // Compare against what is left, so that no sum can overflow.
    if (reserved != 0 || nameSize == 0 || nameSize > layout::kMaxNameBytes ||
        nameSize > bodyEnd - offset || dataSize > bodyEnd - offset - nameSize)
      return corrupt("artifact " + std::to_string(i) + " has bad sizes");
    std::string name(data + offset, nameSize);
    offset += nameSize;
    std::string bytes(data + offset, dataSize);
    offset += dataSize;
    entry.add(std::move(name), std::move(bytes));
  }
  if (offset != bodyEnd)
    return corrupt("has bytes after its last artifact");
  if (!validateEntry(entry).ok())
    return corrupt("has duplicate artifact names");
  return entry;
}
