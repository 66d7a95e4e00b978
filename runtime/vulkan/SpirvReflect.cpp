//===- SpirvReflect.cpp - What a runtime needs to know of a SPIR-V binary -===//

#include "runtime/vulkan/SpirvReflect.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
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
  kOpMemberDecorate = 72,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeMatrix = 24,
  kOpTypeArray = 28,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpVariable = 59,
  kOpAtomicFirst = 227, // OpAtomicLoad
  kOpAtomicLast = 242,  // OpAtomicXor
};
constexpr uint32_t kDecorationArrayStride = 6;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kDecorationOffset = 35;
constexpr uint32_t kExecutionModeLocalSize = 17;

/// The bytes of the types with a fixed layout, worked out in the order the
/// module defines them (a type's parts come before it), so nothing recurses.
/// Types without a fixed size (runtime arrays, and whatever holds one) or
/// with a layout the module leaves out (a member without an Offset) have no
/// entry, and sizes that overflow 64 bits have none either.
class TypeSizes {
public:
  void decorate(std::span<const uint32_t> op) {
    if (op.size() >= 4 && op[2] == kDecorationArrayStride)
      strides[op[1]] = op[3];
  }
  void decorateMember(std::span<const uint32_t> op) {
    if (op.size() >= 5 && op[3] == kDecorationOffset)
      offsets[op[1]][op[2]] = op[4];
  }
  void define(uint32_t opcode, std::span<const uint32_t> op) {
    switch (opcode) {
    case kOpTypeInt:
      if (op.size() >= 3) {
        bytes[op[1]] = op[2] / 8;
        integers.insert(op[1]);
      }
      break;
    case kOpTypeFloat:
      if (op.size() >= 3)
        bytes[op[1]] = op[2] / 8;
      break;
    case kOpTypeVector:
    case kOpTypeMatrix:
      if (op.size() >= 4)
        setProduct(op[1], find(op[2]), op[3]);
      break;
    case kOpTypeArray:
      if (op.size() >= 4)
        defineArray(op[1], op[2], op[3]);
      break;
    case kOpTypeStruct:
      if (op.size() >= 2)
        defineStruct(op[1], op.subspan(2));
      break;
    case kOpTypePointer:
      if (op.size() >= 4)
        pointees[op[1]] = op[3];
      break;
    case kOpConstant:
      // An integer constant of up to 64 bits (array lengths).
      if (op.size() >= 4 && integers.count(op[1]))
        constants[op[2]] =
            uint64_t(op[3]) | (op.size() >= 5 ? uint64_t(op[4]) << 32 : 0);
      break;
    case kOpVariable:
      if (op.size() >= 3)
        if (auto pointee = pointees.find(op[1]); pointee != pointees.end())
          if (std::optional<uint64_t> size = find(pointee->second))
            variables[op[2]] = *size;
      break;
    default:
      break;
    }
  }
  /// The bytes the variable `id` spans, if its type has a fixed layout.
  std::optional<uint64_t> variableBytes(uint32_t id) const {
    auto it = variables.find(id);
    if (it == variables.end())
      return std::nullopt;
    return it->second;
  }

private:
  std::optional<uint64_t> find(uint32_t type) const {
    auto it = bytes.find(type);
    if (it == bytes.end())
      return std::nullopt;
    return it->second;
  }
  void setProduct(uint32_t id, std::optional<uint64_t> part, uint64_t count) {
    uint64_t product;
    if (part && !__builtin_mul_overflow(*part, count, &product))
      bytes[id] = product;
  }
  void defineArray(uint32_t id, uint32_t elementType, uint32_t lengthId) {
    std::optional<uint64_t> element = find(elementType);
    auto length = constants.find(lengthId);
    if (!element || length == constants.end())
      return;
    auto stride = strides.find(id);
    uint64_t step = stride != strides.end() ? stride->second : *element;
    // The last element ends the array: (length - 1) strides, then itself.
    uint64_t span = 0;
    if (length->second > 0 &&
        (__builtin_mul_overflow(length->second - 1, step, &span) ||
         __builtin_add_overflow(span, *element, &span)))
      return;
    bytes[id] = span;
  }
  void defineStruct(uint32_t id, std::span<const uint32_t> members) {
    auto memberOffsets = offsets.find(id);
    uint64_t end = 0;
    for (size_t m = 0; m < members.size(); ++m) {
      std::optional<uint64_t> member = find(members[m]);
      if (!member || memberOffsets == offsets.end() ||
          !memberOffsets->second.count(uint32_t(m)))
        return;
      uint64_t memberEnd;
      if (__builtin_add_overflow(
              uint64_t(memberOffsets->second.at(uint32_t(m))), *member,
              &memberEnd))
        return;
      end = std::max(end, memberEnd);
    }
    bytes[id] = end;
  }

  std::map<uint32_t, uint64_t> bytes, constants, variables;
  std::map<uint32_t, uint32_t> strides, pointees;
  std::map<uint32_t, std::map<uint32_t, uint32_t>> offsets;
  std::set<uint32_t> integers;
};

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
  TypeSizes sizes;

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
      sizes.decorate(op);
      break;
    case kOpMemberDecorate:
      sizes.decorateMember(op);
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
      // Types, constants and variables outside functions.
      if (!current)
        sizes.define(opcode, op);
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
        if (set == sets.end() || binding == bindings.end())
          continue;
        std::pair<uint32_t, uint32_t> slot = {set->second, binding->second};
        used.insert(slot);
        if (std::optional<uint64_t> bytes = sizes.variableBytes(id))
          entry.bindingBytes[slot] = std::max(entry.bindingBytes[slot], *bytes);
      }
    }
    entry.bindings.assign(used.begin(), used.end());
    info.entryPoints.push_back(std::move(entry));
  }
  return info;
}
