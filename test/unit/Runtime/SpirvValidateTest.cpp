//===- SpirvValidateTest.cpp - The runtime's SPIR-V validation ------------===//
//
// A small compute module, assembled here from text with SPIRV-Tools, passes;
// each kind of damage a manifest's module may carry is then refused with
// one line and no crash: an ID bound of 0xffffffff (which crashed lavapipe),
// a SPIR-V version Vulkan 1.1 does not take, a truncated module, a bad
// magic number, a byte count that is not whole words, an empty file, and an
// instruction whose operand types are wrong. The same checks on a device
// (lavapipe) are test/Runtime/Vulkan/bad-module.test.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/SpirvValidate.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <string>
#include <vector>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

namespace {

const char *kGoodModule = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 64 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> assemble(const std::string &text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  return words;
}

std::vector<std::byte> bytesOf(const std::vector<uint32_t> &words) {
  std::vector<std::byte> bytes(words.size() * 4);
  if (!bytes.empty())
    std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

/// The validator's message for `bytes`; empty when they pass.
std::string problemOf(const std::vector<std::byte> &bytes) {
  Status status = validateSpirv(bytes);
  if (status.ok())
    return "";
  EXPECT_EQ(status.code(), ErrorCode::InvalidInput);
  EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
  const std::string prefix =
      "the SPIR-V validator rejects the module for Vulkan 1.1: ";
  EXPECT_EQ(status.message().rfind(prefix, 0), 0u) << status.message();
  return status.message().substr(prefix.size());
}

TEST(SpirvValidateTest, AValidModulePasses) {
  std::vector<uint32_t> words = assemble(kGoodModule);
  ASSERT_GT(words.size(), 5u);
  EXPECT_EQ(problemOf(bytesOf(words)), "");
}

TEST(SpirvValidateTest, DamagedHeadersAreRefused) {
  std::vector<uint32_t> good = assemble(kGoodModule);

  std::vector<uint32_t> bound = good;
  bound[3] = 0xffffffffu;
  EXPECT_EQ(problemOf(bytesOf(bound)), "Invalid SPIR-V.  The id bound is "
                                       "larger than the max id bound "
                                       "4194303. (at word 0)");

  std::vector<uint32_t> version = good;
  version[1] = 0x00010600u; // SPIR-V 1.6 needs Vulkan 1.3
  std::string problem = problemOf(bytesOf(version));
  EXPECT_NE(problem.find("1.6"), std::string::npos) << problem;

  std::vector<uint32_t> magic = good;
  magic[0] = 0x12345678u;
  EXPECT_NE(problemOf(bytesOf(magic)), "");

  std::vector<uint32_t> truncated(good.begin(), good.end() - 1);
  EXPECT_NE(problemOf(bytesOf(truncated)), "");
  std::vector<uint32_t> header(good.begin(), good.begin() + 3);
  EXPECT_NE(problemOf(bytesOf(header)), "");
  EXPECT_NE(problemOf({}), "");

  std::vector<std::byte> ragged = bytesOf(good);
  ragged.pop_back();
  EXPECT_EQ(problemOf(ragged),
            std::to_string(ragged.size()) +
                " bytes is not a whole number of 32-bit words");
}

TEST(SpirvValidateTest, InvalidInstructionsAreRefused) {
  // Well-formed words, but an OpFAdd of integers: only the validator sees
  // it, and a driver may do anything with it.
  std::string text = kGoodModule;
  text.replace(text.find("       %void = OpTypeVoid"), 0,
               "        %int = OpTypeInt 32 1\n"
               "      %float = OpTypeFloat 32\n"
               "        %one = OpConstant %int 1\n");
  text.replace(text.find("               OpReturn"), 0,
               "        %sum = OpFAdd %float %one %one\n");
  std::string problem = problemOf(bytesOf(assemble(text)));
  EXPECT_NE(problem.find("OpFAdd"), std::string::npos) << problem;
  EXPECT_NE(problem.find("(at word "), std::string::npos) << problem;
}

} // namespace
