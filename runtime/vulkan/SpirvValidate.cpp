//===- SpirvValidate.cpp - SPIRV-Tools' validator on a module -------------===//

#include "runtime/vulkan/SpirvValidate.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace uta::runtime;

Status uta::runtime::vulkan::validateSpirv(std::span<const std::byte> image) {
  auto rejected = [](const std::string &what) {
    return Status::error(ErrorCode::InvalidInput,
                         "the SPIR-V validator rejects the module for Vulkan "
                         "1.1: " +
                             what);
  };
  if (image.size() % 4 != 0)
    return rejected(std::to_string(image.size()) +
                    " bytes is not a whole number of 32-bit words");
  // The words, aligned, as the validator reads them.
  std::vector<uint32_t> words(image.size() / 4);
  if (!words.empty())
    std::memcpy(words.data(), image.data(), image.size());

  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &position,
                               const char *message) {
    // The validator puts the offending instruction on lines of its own; a
    // Status is one line.
    if (!messages.empty())
      messages += "; ";
    bool first = true;
    for (const char *line = message; *line;) {
      const char *end = std::strchr(line, '\n');
      size_t length = end ? size_t(end - line) : std::strlen(line);
      std::string text(line, length);
      size_t begin = text.find_first_not_of(" \t");
      if (begin != std::string::npos) {
        size_t last = text.find_last_not_of(" \t");
        messages += (first ? "" : " | ") + text.substr(begin, last - begin + 1);
        first = false;
      }
      line += length + (end ? 1 : 0);
    }
    messages += " (at word " + std::to_string(position.index) + ")";
  });
  // The defaults are the limits of the Vulkan specification (an ID bound of
  // at most 0x3fffff, among others).
  spvtools::ValidatorOptions options;
  if (tools.Validate(words.data(), words.size(), options))
    return Status();
  return rejected(messages.empty() ? std::string("no reason given") : messages);
}
