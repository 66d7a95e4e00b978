//===- SpirvReflectTest.cpp - What the runtime reads from SPIR-V ----------===//
//
// The bytes each descriptor's variable spans, which the Vulkan backend
// compares with the buffer a manifest binds there, worked out by hand for
// modules assembled here from text: an array of vec4 with a stride (the
// last element ends it), a struct with member offsets, a 64-bit array
// length; and no size at all where the layout is not fixed (a runtime
// array, a member without an Offset) or does not fit 64 bits. Only the
// bindings an entry point uses are reported for it.
//
//===----------------------------------------------------------------------===//

#include "runtime/vulkan/SpirvReflect.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <string>
#include <vector>

using namespace uta::runtime;
using namespace uta::runtime::vulkan;

namespace {

/// A module whose entry point "main" loads from the variables %a, %b, %c,
/// %d (bindings 0 to 3 of set 0), of the pointee types given as text that
/// defines %A, %B, %C and %D; %unused at binding 4 is never loaded.
std::vector<std::byte> moduleWith(const std::string &decorations,
                                  const std::string &types) {
  std::string text = R"(
               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 2
               OpDecorate %d DescriptorSet 0
               OpDecorate %d Binding 3
               OpDecorate %unused DescriptorSet 0
               OpDecorate %unused Binding 4
)" + decorations + R"(
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
      %uint0 = OpConstant %uint 0
)" + types + R"(
        %pA = OpTypePointer StorageBuffer %A
        %pB = OpTypePointer StorageBuffer %B
        %pC = OpTypePointer StorageBuffer %C
        %pD = OpTypePointer StorageBuffer %D
          %a = OpVariable %pA StorageBuffer
          %b = OpVariable %pB StorageBuffer
          %c = OpVariable %pC StorageBuffer
          %d = OpVariable %pD StorageBuffer
     %unused = OpVariable %pA StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %la = OpLoad %A %a
         %lb = OpLoad %B %b
         %lc = OpLoad %C %c
         %ld = OpLoad %D %d
               OpReturn
               OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_3);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  std::vector<std::byte> bytes(words.size() * 4);
  if (!words.empty())
    std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

TEST(SpirvReflectTest, SizesOfFixedLayouts) {
  std::vector<std::byte> image = moduleWith(R"(
               OpDecorate %arr250 ArrayStride 16
               OpMemberDecorate %A 0 Offset 0
               OpMemberDecorate %B 0 Offset 0
               OpMemberDecorate %B 1 Offset 64
               OpDecorate %arr3 ArrayStride 32
               OpMemberDecorate %C 0 Offset 0
               OpDecorate %arrHuge ArrayStride 4
               OpMemberDecorate %D 0 Offset 8
)",
                                            R"(
     %len250 = OpConstant %uint 250
       %len3 = OpConstant %uint 3
    %lenHuge = OpConstant %ulong 4294967296
     %arr250 = OpTypeArray %v4float %len250
          %A = OpTypeStruct %arr250
          %B = OpTypeStruct %float %v4float
       %arr3 = OpTypeArray %v4float %len3
          %C = OpTypeStruct %arr3
    %arrHuge = OpTypeArray %float %lenHuge
          %D = OpTypeStruct %arrHuge
)");
  Expected<SpirvModuleInfo> info = reflectSpirv(image);
  ASSERT_TRUE(info) << info.status().message();
  const SpirvEntryPoint *main = info->findComputeEntryPoint("main");
  ASSERT_NE(main, nullptr);
  using Slot = std::pair<uint32_t, uint32_t>;
  EXPECT_EQ(main->bindings,
            (std::vector<Slot>{{0, 0}, {0, 1}, {0, 2}, {0, 3}}));
  std::map<Slot, uint64_t> expected = {
      {{0, 0}, 250 * 16},                // 250 vec4, stride 16
      {{0, 1}, 64 + 16},                 // a vec4 at offset 64
      {{0, 2}, 2 * 32 + 16},             // the last of 3 ends at 2 strides + 16
      {{0, 3}, 8 + (uint64_t(1) << 34)}, // 2^32 floats at offset 8
  };
  EXPECT_EQ(main->bindingBytes, expected);
}

TEST(SpirvReflectTest, NoSizeWithoutAFixedLayout) {
  std::vector<std::byte> image = moduleWith(R"(
               OpDecorate %rt ArrayStride 4
               OpMemberDecorate %A 0 Offset 0
               OpMemberDecorate %B 0 Offset 0
               OpDecorate %arrMax ArrayStride 16
               OpMemberDecorate %C 0 Offset 0
               OpMemberDecorate %D 0 Offset 0
)",
                                            R"(
         %rt = OpTypeRuntimeArray %float
          %A = OpTypeStruct %rt
          %B = OpTypeStruct %float %float
     %lenMax = OpConstant %ulong 18446744073709551615
     %arrMax = OpTypeArray %v4float %lenMax
          %C = OpTypeStruct %arrMax
          %D = OpTypeStruct %v4float
)");
  Expected<SpirvModuleInfo> info = reflectSpirv(image);
  ASSERT_TRUE(info) << info.status().message();
  const SpirvEntryPoint *main = info->findComputeEntryPoint("main");
  ASSERT_NE(main, nullptr);
  // A: a runtime array; B: its second member has no Offset; C: 2^64 - 1
  // vec4 overflow 64 bits. Only D has a size.
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> expected = {{{0, 3}, 16}};
  EXPECT_EQ(main->bindingBytes, expected);
}

} // namespace
