//===- SpirvReflect.cpp - What a runtime needs to know of a SPIR-V binary -===//

#include "runtime/vulkan/SpirvReflect.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

namespace {
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kHeaderWords = 5;

// Opcodes (SPIR-V specification, section 3.49).
enum Opcode : uint32_t {
  kOpFunctionCall = 57,
  kOpEntryPoint = 15,
  kOpExecutionMode = 16,
  kOpCapability = 17,
  kOpFunction = 54,
  kOpFunctionEnd = 56,
  kOpLoad = 61,
  kOpStore = 62,
  kOpCopyMemory = 63,
  kOpAccessChain = 65,
  kOpInBoundsAccessChain = 66,
  kOpPtrAccessChain = 67,
  kOpArrayLength = 68,
  kOpDecorate = 71,
  kOpAtomicFirst = 227, // OpAtomicLoad
  kOpAtomicLast = 242,  // OpAtomicXor
};
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kExecutionModeLocalSize = 17;

/// What one function references: the ids it uses as pointers, the
/// functions it calls.
struct FunctionRefs {
  std::set<uint32_t> pointers;
  std::set<uint32_t> callees;
};
} // namespace

bool SpirvModuleInfo::hasCapability(uint32_t capability) const {
  return std::find(capabilities.begin(), capabilities.end(), capability) !=
         capabilities.end();
}

const SpirvEntryPoint *
SpirvModuleInfo::findComputeEntryPoint(std::string_view name) const {
  for (const SpirvEntryPoint &entry : entryPoints)
    if (entry.name == name && entry.executionModel == kExecutionModelGLCompute)
      return &entry;
  return nullptr;
}

/// The literal string starting at `words[0]` (nul-terminated, packed four
/// characters a word); nullopt if it is not terminated within `words`.
static std::optional<std::string> readString(std::span<const uint32_t> words) {
  std::string text;
  for (uint32_t word : words) {
    for (int i = 0; i < 4; ++i) {
      char c = char((word >> (8 * i)) & 0xff);
      if (c == '\0')
        return text;
      text += c;
    }
  }
  return std::nullopt;
}

Expected<SpirvModuleInfo>
uta::runtime::vulkan::reflectSpirv(std::span<const std::byte> image) {
  auto malformed = [](const std::string &why) {
    return Status::error(ErrorCode::InvalidInput,
                         "not a valid SPIR-V module: " + why);
  };
  if (image.size() % 4 != 0)
    return malformed(std::to_string(image.size()) +
                     " bytes is not a whole number of 32-bit words");
  std::vector<uint32_t> words(image.size() / 4);
  if (!words.empty())
    std::memcpy(words.data(), image.data(), image.size());
  if (words.empty())
    return malformed("the file is empty");
  if (words[0] != kMagic)
    return malformed(words[0] == __builtin_bswap32(kMagic)
                         ? "big-endian modules are not supported"
                         : "bad magic number");
  if (words.size() < kHeaderWords)
    return malformed("shorter than the 5-word header");

  SpirvModuleInfo info;
  info.version = words[1];
  struct RawEntry {
    uint32_t model, function;
    std::string name;
  };
  std::vector<RawEntry> entries;
  std::map<uint32_t, std::array<uint32_t, 3>> localSizes;
  std::map<uint32_t, uint32_t> sets, bindings;
  std::map<uint32_t, FunctionRefs> functions;
  FunctionRefs *current = nullptr;

  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      return malformed("the instruction at word " + std::to_string(at) +
                       " runs past the end");
    std::span<const uint32_t> op(words.data() + at, count);
    auto operand = [&](size_t i) -> std::optional<uint32_t> {
      if (i < op.size())
        return op[i];
      return std::nullopt;
    };
    switch (opcode) {
    case kOpCapability:
      if (auto capability = operand(1))
        info.capabilities.push_back(*capability);
      break;
    case kOpEntryPoint: {
      if (count < 4)
        return malformed("OpEntryPoint at word " + std::to_string(at) +
                         " is too short");
      std::optional<std::string> name = readString(op.subspan(3));
      if (!name)
        return malformed("the name of the OpEntryPoint at word " +
                         std::to_string(at) + " is not terminated");
      entries.push_back({op[1], op[2], *name});
      break;
    }
    case kOpExecutionMode:
      if (count >= 6 && op[2] == kExecutionModeLocalSize)
        localSizes[op[1]] = {op[3], op[4], op[5]};
      break;
    case kOpDecorate:
      if (count >= 4 && op[2] == kDecorationDescriptorSet)
        sets[op[1]] = op[3];
      else if (count >= 4 && op[2] == kDecorationBinding)
        bindings[op[1]] = op[3];
      break;
    case kOpFunction:
      if (count < 3)
        return malformed("OpFunction at word " + std::to_string(at) +
                         " is too short");
      current = &functions[op[2]];
      break;
    case kOpFunctionEnd:
      current = nullptr;
      break;
    default:
      break;
    }
    // The pointer operands of memory instructions, where a descriptor
    // variable (or a chain into it) is used.
    if (current) {
      auto pointer = [&](size_t i) {
        if (auto id = operand(i))
          current->pointers.insert(*id);
      };
      switch (opcode) {
      case kOpLoad:
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpPtrAccessChain:
      case kOpArrayLength:
        pointer(3);
        break;
      case kOpStore:
        pointer(1);
        break;
      case kOpCopyMemory:
        pointer(1);
        pointer(2);
        break;
      case kOpFunctionCall:
        if (auto callee = operand(3))
          current->callees.insert(*callee);
        for (size_t i = 4; i < op.size(); ++i)
          pointer(i);
        break;
      default:
        if (opcode >= kOpAtomicFirst && opcode <= kOpAtomicLast)
          pointer(3);
        break;
      }
    }
    at += count;
  }

  for (const RawEntry &raw : entries) {
    SpirvEntryPoint entry;
    entry.name = raw.name;
    entry.executionModel = raw.model;
    if (auto it = localSizes.find(raw.function); it != localSizes.end())
      entry.localSize = it->second;
    // Every function the entry point reaches, then the descriptor variables
    // they use.
    std::set<uint32_t> reached, pending = {raw.function};
    while (!pending.empty()) {
      uint32_t function = *pending.begin();
      pending.erase(pending.begin());
      if (!reached.insert(function).second)
        continue;
      if (auto it = functions.find(function); it != functions.end())
        for (uint32_t callee : it->second.callees)
          pending.insert(callee);
    }
    std::set<std::pair<uint32_t, uint32_t>> used;
    for (uint32_t function : reached) {
      auto it = functions.find(function);
      if (it == functions.end())
        continue;
      for (uint32_t id : it->second.pointers) {
        auto set = sets.find(id), binding = bindings.find(id);
        if (set != sets.end() && binding != bindings.end())
          used.insert({set->second, binding->second});
      }
    }
    entry.bindings.assign(used.begin(), used.end());
    info.entryPoints.push_back(std::move(entry));
  }
  return info;
}
