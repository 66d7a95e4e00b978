//===- ManifestTest.cpp - Tests of the manifest reader --------------------===//
//
// A good manifest is read field by field; then one key at a time is broken
// in a copy of it, and each error must name the file and the key path.
// Expected messages and constant bit patterns are literals worked out by
// hand. The executor is tested here too, on a host-memory backend that
// interprets two kernels, so its bookkeeping (constants, poisoning, result
// order, buffer release) is covered without a GPU.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Manifest.h"

#include "runtime/core/Executor.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

using namespace uta::runtime;
using json = nlohmann::json;

namespace {

const char *kGoodManifest = R"json({
  "format": "uta-manifest", "version": 1, "target": "ptx", "sm": "90",
  "entry": "main", "module": "m.ptx",
  "buffers": [
    {"id": 0, "role": "argument", "index": 0, "dtype": "f32", "shape": [4, 8],
     "bytes": 128, "alignment": 16},
    {"id": 1, "role": "constant", "dtype": "f32", "shape": [2], "bytes": 8,
     "alignment": 16, "values": [0.5, -2]},
    {"id": 2, "role": "intermediate", "dtype": "f16", "shape": [3],
     "bytes": 6, "alignment": 16},
    {"id": 3, "role": "result", "index": 0, "dtype": "f32", "shape": [4, 8],
     "bytes": 128, "alignment": 16},
    {"id": 4, "role": "argument", "index": 1, "dtype": "bf16", "shape": [],
     "bytes": 2, "alignment": 2},
    {"id": 5, "role": "constant", "dtype": "f16", "shape": [2], "bytes": 4,
     "alignment": 4, "values": [1.5, "-inf"]}
  ],
  "kernels": [
    {"name": "k0", "entry_point": "main_kernel_0", "unknown_key": [1, 2],
     "args": [
       {"kind": "buffer", "buffer": 0},
       {"kind": "buffer", "buffer": 3},
       {"kind": "i64", "value": -5},
       {"kind": "i32", "value": 32},
       {"kind": "f32", "value": 0.25}
     ]}
  ],
  "launches": [
    {"kernel": "k0", "grid": [2, 1, 1], "block": [128, 1, 1],
     "shared_bytes": 64}
  ],
  "results": [3, 0]
})json";

json good() { return json::parse(kGoodManifest); }

/// The error of reading `document` as "m.json"; empty if it was accepted.
std::string errorOf(const json &document) {
  Expected<Manifest> manifest = parseManifest(document.dump(), "m.json", ".");
  if (manifest)
    return "";
  return manifest.status().message();
}

/// The error after `edit` changed a copy of the good manifest.
std::string errorAfter(const std::function<void(json &)> &edit) {
  json document = good();
  edit(document);
  return errorOf(document);
}

uint32_t bitsOfF32(const std::vector<std::byte> &data, size_t i) {
  uint32_t bits;
  std::memcpy(&bits, &data[4 * i], 4);
  return bits;
}

uint16_t bitsOf16(const std::vector<std::byte> &data, size_t i) {
  uint16_t bits;
  std::memcpy(&bits, &data[2 * i], 2);
  return bits;
}

TEST(ManifestTest, ReadsGoodManifest) {
  Expected<Manifest> parsed = parseManifest(kGoodManifest, "m.json", "dir");
  ASSERT_TRUE(parsed) << parsed.status().message();
  const Manifest &m = *parsed;
  EXPECT_EQ(m.target, ModuleTarget::kPtx);
  EXPECT_EQ(m.sm, "90");
  EXPECT_EQ(m.entry, "main");
  EXPECT_EQ(m.modulePath(), "dir/m.ptx");
  ASSERT_EQ(m.buffers.size(), 6u);

  EXPECT_EQ(m.buffers[0].role, BufferRole::kArgument);
  EXPECT_EQ(m.buffers[0].index, 0);
  EXPECT_EQ(m.buffers[0].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(m.buffers[0].bytes, 128u);
  EXPECT_EQ(m.buffers[0].alignment, 16u);
  EXPECT_EQ(m.buffers[0].numElements(), 32u);
  EXPECT_EQ(m.buffers[2].type, ElementType::kF16);
  EXPECT_EQ(m.buffers[2].index, -1);
  EXPECT_EQ(m.buffers[4].type, ElementType::kBF16);
  EXPECT_EQ(m.buffers[4].numElements(), 1u); // 0-d

  // 0.5f = 0x3f000000, -2.0f = 0xc0000000.
  ASSERT_EQ(m.buffers[1].constantData.size(), 8u);
  EXPECT_EQ(bitsOfF32(m.buffers[1].constantData, 0), 0x3f000000u);
  EXPECT_EQ(bitsOfF32(m.buffers[1].constantData, 1), 0xc0000000u);
  // f16: 1.5 = 0 01111 1000000000 = 0x3e00; -inf = 0xfc00.
  ASSERT_EQ(m.buffers[5].constantData.size(), 4u);
  EXPECT_EQ(bitsOf16(m.buffers[5].constantData, 0), 0x3e00u);
  EXPECT_EQ(bitsOf16(m.buffers[5].constantData, 1), 0xfc00u);

  ASSERT_EQ(m.kernels.size(), 1u);
  const KernelDesc &k = m.kernels[0];
  EXPECT_EQ(k.name, "k0");
  EXPECT_EQ(k.entryPoint, "main_kernel_0");
  ASSERT_EQ(k.args.size(), 5u);
  EXPECT_EQ(k.args[0].kind, KernelArg::Kind::kBuffer);
  EXPECT_EQ(k.args[1].buffer, 3);
  EXPECT_EQ(k.args[2].kind, KernelArg::Kind::kI64);
  EXPECT_EQ(k.args[2].intValue, -5);
  EXPECT_EQ(k.args[3].kind, KernelArg::Kind::kI32);
  EXPECT_EQ(k.args[3].intValue, 32);
  EXPECT_EQ(k.args[4].kind, KernelArg::Kind::kF32);
  EXPECT_EQ(k.args[4].floatValue, 0.25f);
  EXPECT_FALSE(k.args[0].binding.has_value());

  ASSERT_EQ(m.launches.size(), 1u);
  EXPECT_EQ(m.launches[0].kernelIndex, 0u);
  EXPECT_EQ(m.launches[0].grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(m.launches[0].block, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(m.launches[0].sharedBytes, 64u);
  // A launch without arguments of its own passes its kernel's.
  ASSERT_EQ(m.launches[0].args.size(), 5u);
  EXPECT_EQ(m.launches[0].args[1].buffer, 3);
  EXPECT_EQ(m.launches[0].args[4].floatValue, 0.25f);

  EXPECT_EQ(m.results, (std::vector<int64_t>{3, 0}));
  // Arguments in index order: buffer 0 (index 0) at position 0, buffer 4
  // (index 1) at position 4. Results: buffer 3, then argument buffer 0.
  EXPECT_EQ(m.argumentBuffers(), (std::vector<size_t>{0, 4}));
  EXPECT_EQ(m.resultBuffers(), (std::vector<size_t>{3, 0}));
  EXPECT_EQ(m.findBuffer(5), &m.buffers[5]);
  EXPECT_EQ(m.findBuffer(6), nullptr);
}

// A launch's cost (optional): the compiler's operation counts by unit and
// bytes, which profiles divide by time; a unit it does not write, a
// negative count or a missing key is refused at its path.
TEST(ManifestTest, ReadsLaunchCosts) {
  json document = good();
  document["launches"].push_back(document["launches"][0]);
  document["launches"][0]["cost"] = {
      {"flops", {{"simt", 1000}, {"tf32", 1 << 20}}},
      {"bytes_read", 8000},
      {"bytes_written", 4000}};
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", "dir");
  ASSERT_TRUE(parsed) << parsed.status().message();
  ASSERT_TRUE(parsed->launches[0].cost);
  const LaunchDesc::Cost &cost = *parsed->launches[0].cost;
  EXPECT_EQ(cost.bytesRead, 8000);
  EXPECT_EQ(cost.bytesWritten, 4000);
  ASSERT_EQ(cost.flops.size(), 2u);
  EXPECT_EQ(cost.flops[0], std::make_pair(std::string("simt"), int64_t(1000)));
  EXPECT_EQ(cost.flops[1],
            std::make_pair(std::string("tf32"), int64_t(1 << 20)));
  EXPECT_FALSE(parsed->launches[1].cost);

  auto withCost = [](json cost) {
    return errorAfter([&](json &m) { m["launches"][0]["cost"] = cost; });
  };
  json complete = {
      {"flops", {{"simt", 1}}}, {"bytes_read", 1}, {"bytes_written", 1}};
  json wrongUnit = complete, negative = complete, noFlops = complete;
  wrongUnit["flops"] = {{"fp8", 1}};
  negative["bytes_read"] = -1;
  noFlops.erase("flops");
  EXPECT_EQ(withCost(wrongUnit),
            "m.json: launches[0].cost.flops.fp8: is not a unit of operations "
            "(simt, tf32, 3xtf32, bf16 or f16)");
  EXPECT_EQ(withCost(negative), "m.json: launches[0].cost.bytes_read: -1 is "
                                "out of range [0, 9223372036854775807]");
  EXPECT_EQ(withCost(noFlops), "m.json: launches[0].cost: expected \"flops\"");
  EXPECT_EQ(withCost(json::array()),
            "m.json: launches[0].cost: expected an object, got an array");
}

// A launch's plan (optional): the engine's row, schedule, tile, warps,
// stages and precision; missing or ill-typed members are refused at their
// path.
TEST(ManifestTest, ReadsLaunchPlans) {
  json plan = {{"row", "tma128x256x32f32"},
               {"schedule", "wgmma_tma"},
               {"tile", {128, 256, 32}},
               {"warps", {2, 1}},
               {"stages", 4},
               {"b_stages", 0},
               {"precision", "tf32"}};
  json document = good();
  document["launches"][0]["plan"] = plan;
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", "dir");
  ASSERT_TRUE(parsed) << parsed.status().message();
  ASSERT_TRUE(parsed->launches[0].plan);
  const LaunchDesc::Plan &read = *parsed->launches[0].plan;
  EXPECT_EQ(read.row, "tma128x256x32f32");
  EXPECT_EQ(read.schedule, "wgmma_tma");
  EXPECT_EQ(read.precision, "tf32");
  EXPECT_EQ(read.tile, (std::array<int64_t, 3>{128, 256, 32}));
  EXPECT_EQ(read.warps, (std::array<int64_t, 2>{2, 1}));
  EXPECT_EQ(read.stages, 4);
  EXPECT_EQ(read.bStages, 0);

  auto withPlan = [](json plan) {
    return errorAfter([&](json &m) { m["launches"][0]["plan"] = plan; });
  };
  json noRow = plan, twoExtents = plan, noStage = plan, numericSchedule = plan;
  noRow.erase("row");
  EXPECT_EQ(withPlan(noRow), "");
  twoExtents["tile"] = {128, 256};
  noStage["stages"] = 0;
  numericSchedule["schedule"] = 3;
  EXPECT_EQ(withPlan(twoExtents),
            "m.json: launches[0].plan.tile: expected 3 sizes, got 2");
  EXPECT_EQ(withPlan(noStage), "m.json: launches[0].plan.stages: 0 is out of "
                               "range [1, 9223372036854775807]");
  EXPECT_EQ(withPlan(numericSchedule),
            "m.json: launches[0].plan.schedule: expected a string, got an "
            "integer");
  EXPECT_EQ(withPlan("tma128x256x32f32"),
            "m.json: launches[0].plan: expected an object, got a string");
}

TEST(ManifestTest, MissingKeysNameThePath) {
  EXPECT_EQ(errorAfter([](json &m) { m.erase("buffers"); }),
            "m.json: expected \"buffers\"");
  EXPECT_EQ(errorAfter([](json &m) { m.erase("sm"); }),
            "m.json: expected \"sm\"");
  EXPECT_EQ(
      errorAfter([](json &m) { m["kernels"][0]["args"][2].erase("kind"); }),
      "m.json: kernels[0].args[2]: expected \"kind\"");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][3].erase("index"); }),
            "m.json: buffers[3]: expected \"index\"");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][1].erase("values"); }),
            "m.json: buffers[1]: expected \"values\" (or \"data_file\")");
  EXPECT_EQ(errorAfter([](json &m) { m["launches"][0].erase("shared_bytes"); }),
            "m.json: launches[0]: expected \"shared_bytes\"");
  EXPECT_EQ(
      errorAfter([](json &m) { m["kernels"][0]["args"][3].erase("value"); }),
      "m.json: kernels[0].args[3]: expected \"value\"");
}

TEST(ManifestTest, WrongTypesNameThePath) {
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][0]["shape"] = "4x8"; }),
            "m.json: buffers[0].shape: expected an array, got a string");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][0]["shape"][1] = 8.5; }),
            "m.json: buffers[0].shape[1]: expected an integer, got a number");
  EXPECT_EQ(errorAfter([](json &m) { m["launches"][0]["grid"][1] = "a"; }),
            "m.json: launches[0].grid[1]: expected an integer, got a string");
  EXPECT_EQ(errorAfter([](json &m) {
              m["launches"][0]["block"] = {1, 1};
            }),
            "m.json: launches[0].block: expected 3 sizes, got 2");
  EXPECT_EQ(errorAfter([](json &m) { m["launches"][0]["grid"][0] = 0; }),
            "m.json: launches[0].grid[0]: 0 is out of range [1, 4294967295]");
  EXPECT_EQ(errorAfter([](json &m) { m["entry"] = 3; }),
            "m.json: entry: expected a string, got an integer");
  EXPECT_EQ(errorAfter([](json &m) { m["kernels"][0] = json::array(); }),
            "m.json: kernels[0]: expected an object, got an array");
  EXPECT_EQ(errorAfter([](json &m) { m["version"] = true; }),
            "m.json: version: expected an integer, got a boolean");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][1]["values"][0] = "x"; }),
            "m.json: buffers[1].values[0]: expected a number (or \"nan\", "
            "\"inf\", \"-inf\"), got a string");
  EXPECT_EQ(errorAfter([](json &m) {
              m["kernels"][0]["args"][3]["value"] = 1ll << 31;
            }),
            "m.json: kernels[0].args[3].value: 2147483648 is out of range "
            "[-2147483648, 2147483647]");
  EXPECT_EQ(errorOf(json::array()), "m.json: expected an object, got an array");
}

TEST(ManifestTest, UnknownNames) {
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][1]["dtype"] = "f64"; }),
            "m.json: buffers[1].dtype: unknown dtype \"f64\" (expected f32, "
            "f16 or bf16)");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][2]["role"] = "scratch"; }),
            "m.json: buffers[2].role: unknown role \"scratch\" (expected "
            "argument, result, intermediate or constant)");
  EXPECT_EQ(errorAfter([](json &m) { m["target"] = "hsaco"; }),
            "m.json: target: unknown target \"hsaco\" (expected ptx, spirv or "
            "msl)");
  EXPECT_EQ(errorAfter([](json &m) { m["sm"] = "75"; }),
            "m.json: sm: unknown sm \"75\" (expected 80, 86, 89, 90 or 90a)");
  EXPECT_EQ(
      errorAfter([](json &m) { m["kernels"][0]["args"][2]["kind"] = "u8"; }),
      "m.json: kernels[0].args[2].kind: unknown kind \"u8\" (expected buffer, "
      "i32, i64, f32 or tensor_map)");
  EXPECT_EQ(errorAfter([](json &m) { m["format"] = "other"; }),
            "m.json: format: expected \"uta-manifest\", got \"other\"");
  EXPECT_EQ(errorAfter([](json &m) { m["version"] = 3; }),
            "m.json: version: unsupported version 3 (this runtime reads "
            "versions 1 and 2)");
}

TEST(ManifestTest, SizesMustAgree) {
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][0]["bytes"] = 100; }),
            "m.json: buffers[0].bytes: 100 does not match shape [4, 8] of f32 "
            "(128 bytes)");
  // f16 [3] is 6 bytes, not 12.
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][2]["bytes"] = 12; }),
            "m.json: buffers[2].bytes: 12 does not match shape [3] of f16 (6 "
            "bytes)");
  EXPECT_EQ(
      errorAfter([](json &m) { m["buffers"][1]["values"] = {1.0}; }),
      "m.json: buffers[1].values: expected 2 values for shape [2], got 1");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][0]["alignment"] = 24; }),
            "m.json: buffers[0].alignment: 24 is not a power of two");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][0]["shape"][0] = -4; }),
            "m.json: buffers[0].shape[0]: -4 is out of range [0, "
            "9223372036854775807]");
  // Counts and byte sizes are overflow-checked: neither wraps to a small
  // size that `bytes` could then match.
  EXPECT_EQ(errorAfter([](json &m) {
              m["buffers"][0]["shape"] = {4294967296, 4294967296};
              m["buffers"][0]["bytes"] = 0;
            }),
            "m.json: buffers[0].shape: [4294967296, 4294967296] of f32 has "
            "more bytes than fit int64");
  // 2^31 * 2^31 elements fit int64, their 4-byte size does not.
  EXPECT_EQ(errorAfter([](json &m) {
              m["buffers"][0]["shape"] = {2147483648, 2147483648};
            }),
            "m.json: buffers[0].shape: [2147483648, 2147483648] of f32 has "
            "more bytes than fit int64");
  // A zero size makes an empty buffer, whatever the others are.
  EXPECT_EQ(errorAfter([](json &m) {
              m["buffers"][3]["shape"] = {0, 9223372036854775807};
              m["buffers"][3]["bytes"] = 0;
              m["buffers"][0]["shape"] = {0, 9223372036854775807};
              m["buffers"][0]["bytes"] = 0;
            }),
            "");
  // An empty grid is refused, not launched.
  EXPECT_EQ(errorAfter([](json &m) { m["launches"][0]["grid"][1] = 0; }),
            "m.json: launches[0].grid[1]: 0 is out of range [1, 4294967295]");
}

TEST(ManifestTest, ReferencesMustResolve) {
  EXPECT_EQ(
      errorAfter([](json &m) { m["kernels"][0]["args"][0]["buffer"] = 9; }),
      "m.json: kernels[0].args[0].buffer: no buffer with id 9");
  EXPECT_EQ(errorAfter([](json &m) { m["launches"][0]["kernel"] = "nope"; }),
            "m.json: launches[0].kernel: no kernel named \"nope\"");
  EXPECT_EQ(errorAfter([](json &m) { m["results"][1] = 7; }),
            "m.json: results[1]: no buffer with id 7");
  EXPECT_EQ(errorAfter([](json &m) { m["results"][1] = 2; }),
            "m.json: results[1]: buffer 2 is an intermediate");
  // Buffer 3 has result index 0, so it cannot be listed second.
  EXPECT_EQ(errorAfter([](json &m) {
              m["results"] = {0, 3};
            }),
            "m.json: results[1]: buffer 3 has result index 0");
  // A result buffer that "results" does not list.
  EXPECT_EQ(errorAfter([](json &m) { m["results"] = {0}; }),
            "m.json: buffers[3]: result buffer 3 is not results[0]");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][5]["id"] = 1; }),
            "m.json: buffers[5].id: duplicate buffer id 1");
  // Arguments are 0 and 1; making the second one 2 leaves a gap at 1.
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][4]["index"] = 2; }),
            "m.json: buffers[4].index: argument 1 is missing (argument "
            "indices must be 0..1)");
  EXPECT_EQ(errorAfter([](json &m) { m["buffers"][4]["index"] = 0; }),
            "m.json: buffers[4].index: duplicate argument index 0");
  EXPECT_EQ(
      errorAfter([](json &m) { m["kernels"].push_back(m["kernels"][0]); }),
      "m.json: kernels[1].name: duplicate kernel name \"k0\"");
  EXPECT_EQ(errorAfter([](json &m) { m["module"] = "/tmp/m.ptx"; }),
            "m.json: module: expected a file name relative to the manifest's "
            "folder");
}

/// The good manifest in version 2, launching k0 a second time on buffer 0
/// for both of its buffers, with other scalars.
json launchedTwice() {
  json m = good();
  m["version"] = 2;
  json second = m["launches"][0];
  second["args"] = m["kernels"][0]["args"];
  second["args"][1]["buffer"] = 0;
  second["args"][3]["value"] = 16;
  second["args"][4]["value"] = -1.5;
  m["launches"].push_back(second);
  return m;
}

TEST(ManifestTest, LaunchesPassArgumentsOfTheirOwn) {
  Expected<Manifest> parsed =
      parseManifest(launchedTwice().dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  ASSERT_EQ(parsed->launches.size(), 2u);
  const std::vector<KernelArg> &first = parsed->launches[0].args,
                               &second = parsed->launches[1].args;
  ASSERT_EQ(first.size(), 5u);
  ASSERT_EQ(second.size(), 5u);
  EXPECT_EQ(first[1].buffer, 3);
  EXPECT_EQ(second[1].buffer, 0);
  EXPECT_EQ(first[3].intValue, 32);
  EXPECT_EQ(second[3].intValue, 16);
  EXPECT_EQ(second[4].floatValue, -1.5f);
  EXPECT_EQ(parsed->launches[1].kernelIndex, 0u);
}

TEST(ManifestTest, LaunchArgumentsDifferOnlyInBuffersAndValues) {
  auto errorOfEdit = [](const std::function<void(json &)> &edit) {
    json m = launchedTwice();
    edit(m);
    return errorOf(m);
  };
  // A version 1 reader would pass the kernel's arguments instead.
  EXPECT_EQ(errorOfEdit([](json &m) { m["version"] = 1; }),
            "m.json: launches[1].args: a launch's own arguments need version "
            "2 (a reader of version 1 would pass its kernel's)");
  EXPECT_EQ(errorOfEdit([](json &m) { m["launches"][1]["args"].erase(4); }),
            "m.json: launches[1].args: 4 arguments, where kernel \"k0\" "
            "takes 5");
  EXPECT_EQ(errorOfEdit([](json &m) {
              m["launches"][1]["args"][2] = {{"kind", "i32"}, {"value", 1}};
            }),
            "m.json: launches[1].args[2]: differs from kernel \"k0\"'s "
            "argument in more than its buffer or value");
  EXPECT_EQ(
      errorOfEdit([](json &m) {
        m["launches"][1]["args"][0]["binding"] = {{"set", 0}, {"binding", 0}};
      }),
      "m.json: launches[1].args[0]: differs from kernel \"k0\"'s "
      "argument in more than its buffer or value");
  EXPECT_EQ(
      errorOfEdit([](json &m) { m["launches"][1]["args"][0]["buffer"] = 9; }),
      "m.json: launches[1].args[0].buffer: no buffer with id 9");
  EXPECT_EQ(
      errorOfEdit([](json &m) { m["launches"][1]["args"][0]["kind"] = "u8"; }),
      "m.json: launches[1].args[0].kind: unknown kind \"u8\" (expected "
      "buffer, i32, i64, f32 or tensor_map)");
}

TEST(ManifestTest, TargetSpecificArguments) {
  // SPIR-V kernels bind every argument to a descriptor set and binding.
  EXPECT_EQ(errorAfter([](json &m) { m["target"] = "spirv"; }),
            "m.json: kernels[0].args[0]: expected \"binding\" (spirv target)");
  json spirv = good();
  spirv["target"] = "spirv";
  spirv.erase("sm");
  unsigned n = 0;
  for (json &arg : spirv["kernels"][0]["args"])
    arg["binding"] = {{"set", 0}, {"binding", n++}};
  Expected<Manifest> parsed = parseManifest(spirv.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_EQ(parsed->target, ModuleTarget::kSpirv);
  ASSERT_TRUE(parsed->kernels[0].args[4].binding.has_value());
  EXPECT_EQ((*parsed->kernels[0].args[4].binding)[1], 4u);

  EXPECT_EQ(errorAfter([](json &m) { m["target"] = "msl"; }),
            "m.json: kernels[0].args[0]: expected \"buffer_index\" (msl "
            "target)");
  EXPECT_EQ(errorAfter([](json &m) {
              m["kernels"][0]["args"][1]["binding"] = {{"set", 0}};
            }),
            "m.json: kernels[0].args[1].binding: expected \"binding\"");
}

TEST(ManifestTest, TensorMaps) {
  // A TMA descriptor of buffer 0 ([4, 8] f32), boxes of 2 x 4 elements.
  auto withMap = [](json box, int64_t buffer = 0) {
    return [box, buffer](json &m) {
      m["kernels"][0]["args"].push_back(
          {{"kind", "tensor_map"}, {"buffer", buffer}, {"box", box}});
    };
  };
  json document = good();
  withMap({2, 4})(document);
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  const KernelArg &map = parsed->kernels[0].args.back();
  EXPECT_EQ(map.kind, KernelArg::Kind::kTensorMap);
  EXPECT_EQ(map.buffer, 0);
  EXPECT_EQ(map.box, (std::vector<int64_t>{2, 4}));

  document = good();
  withMap({2, 4})(document);
  document["kernels"][0]["args"].back()["swizzle"] = 32;
  parsed = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_EQ(parsed->kernels[0].args.back().swizzle, 32);
  EXPECT_EQ(errorAfter([&](json &m) {
              withMap({2, 4})(m);
              m["kernels"][0]["args"].back()["swizzle"] = 48;
            }),
            "m.json: kernels[0].args[5].swizzle: 48 is not a swizzle "
            "(expected 0, 32, 64 or 128 bytes)");
  // 32 f16 (64 bytes) are wider than a 32-byte swizzle.
  EXPECT_EQ(errorAfter([&](json &m) {
              m["buffers"][2]["shape"] = {2, 32};
              m["buffers"][2]["bytes"] = 128;
              withMap({1, 32}, 2)(m);
              m["kernels"][0]["args"].back()["swizzle"] = 32;
            }),
            "m.json: kernels[0].args[5].box: the box's innermost extent is "
            "wider than its 32-byte swizzle");
  EXPECT_EQ(errorAfter(withMap({4})),
            "m.json: kernels[0].args[5].box: a box of 1 dimensions for "
            "buffer 0 of 2");
  EXPECT_EQ(errorAfter(withMap({2, 257})),
            "m.json: kernels[0].args[5].box[1]: 257 is out of range [1, 256]");
  EXPECT_EQ(errorAfter(withMap(json::array())),
            "m.json: kernels[0].args[5].box: a box has 1 to 5 dimensions, "
            "not 0");
  EXPECT_EQ(errorAfter(withMap({2, 2})),
            "m.json: kernels[0].args[5].box: the box's innermost extent is "
            "not a multiple of 16 bytes, as tensor maps need");
  EXPECT_EQ(errorAfter(withMap({2, 4}, 9)),
            "m.json: kernels[0].args[5].buffer: no buffer with id 9");
  // Rows of 3 f16 (6 bytes) cannot be strided by a descriptor.
  EXPECT_EQ(errorAfter([&](json &m) {
              m["buffers"][2]["shape"] = {2, 3};
              m["buffers"][2]["bytes"] = 12;
              withMap({1, 8}, 2)(m);
            }),
            "m.json: kernels[0].args[5].buffer: the rows of buffer 2 are not "
            "a multiple of 16 bytes, as tensor maps need");
  // Only PTX kernels take descriptors.
  EXPECT_EQ(errorAfter([&](json &m) {
              m["target"] = "msl";
              m.erase("sm");
              withMap({2, 4})(m);
              unsigned index = 0;
              for (json &arg : m["kernels"][0]["args"])
                arg["buffer_index"] = index++;
            }),
            "m.json: kernels[0].args[5].kind: tensor maps are arguments of "
            "PTX kernels only");
}

TEST(ManifestTest, ZeroedBuffers) {
  // Buffer 2 is an f16 intermediate of 6 bytes; make it 8.
  auto withZero = [](json ids) {
    return [ids](json &m) {
      m["buffers"][2]["shape"] = {4};
      m["buffers"][2]["bytes"] = 8;
      m["launches"][0]["zero"] = ids;
    };
  };
  json document = good();
  withZero({2})(document);
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_EQ(parsed->launches[0].zeroed, (std::vector<int64_t>{2}));
  EXPECT_EQ(parsed->launches[0].zeroedPositions, (std::vector<size_t>{2}));
  // Absent: nothing is zeroed.
  parsed = parseManifest(good().dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_TRUE(parsed->launches[0].zeroed.empty());

  EXPECT_EQ(errorAfter(withZero({7})),
            "m.json: launches[0].zero[0]: no buffer with id 7");
  EXPECT_EQ(errorAfter(withZero({2, 3})),
            "m.json: launches[0].zero[1]: buffer 3 has role result, not "
            "intermediate");
  EXPECT_EQ(errorAfter(withZero("2")),
            "m.json: launches[0].zero: expected an array, got a string");
  EXPECT_EQ(errorAfter([&](json &m) { m["launches"][0]["zero"] = {2}; }),
            "m.json: launches[0].zero[0]: buffer 2 has 6 bytes, not a "
            "multiple of 4");
  EXPECT_EQ(errorAfter([&](json &m) {
              withZero({2})(m);
              m["target"] = "msl";
              m.erase("sm");
              unsigned index = 0;
              for (json &arg : m["kernels"][0]["args"])
                arg["buffer_index"] = index++;
            }),
            "m.json: launches[0].zero: zeroing buffers before a launch is "
            "supported for ptx modules only");
}

// In-place pairs: an intermediate that may live in a buffer of its size.
TEST(ManifestTest, InPlacePairs) {
  // Buffer 0 (argument) and 3 (result) both hold 128 bytes.
  auto withPairs = [](json pairs) {
    return [pairs](json &m) { m["launches"][0]["in_place"] = pairs; };
  };
  json document = good();
  withPairs({{0, 3}})(document);
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  using Positions = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(parsed->launches[0].inPlace, (Pairs{{0, 3}}));
  EXPECT_EQ(parsed->launches[0].inPlacePositions, (Positions{{0, 3}}));
  parsed = parseManifest(good().dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_TRUE(parsed->launches[0].inPlace.empty());

  EXPECT_EQ(errorAfter(withPairs({{0, 9}})),
            "m.json: launches[0].in_place[0]: no buffer with id 9");
  EXPECT_EQ(errorAfter(withPairs({{0, 3}, {2, 3}})),
            "m.json: launches[0].in_place[1]: pairs buffers 2 and 3, which "
            "are not two of equal size");
  EXPECT_EQ(errorAfter(withPairs({{3, 3}})),
            "m.json: launches[0].in_place[0]: pairs buffers 3 and 3, which "
            "are not two of equal size");
  EXPECT_EQ(errorAfter(withPairs({{0, 3, 2}})),
            "m.json: launches[0].in_place[0]: must be a pair [input, result] "
            "of buffer ids");
  EXPECT_EQ(errorAfter(withPairs("0")),
            "m.json: launches[0].in_place: expected an array, got a string");
}

TEST(ManifestTest, ClusterLaunches) {
  // The launch's grid is [2, 1, 1] on sm 90.
  auto withCluster = [](json shape) {
    return [shape](json &m) { m["launches"][0]["cluster"] = shape; };
  };
  json document = good();
  withCluster({2, 1, 1})(document);
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  ASSERT_TRUE(parsed->launches[0].cluster);
  EXPECT_EQ(*parsed->launches[0].cluster, (std::array<uint32_t, 3>{2, 1, 1}));
  // Absent: a plain launch.
  parsed = parseManifest(good().dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  EXPECT_FALSE(parsed->launches[0].cluster);

  EXPECT_EQ(errorAfter(withCluster({3, 1, 1})),
            "m.json: launches[0].cluster[0]: a cluster of 3 blocks does not "
            "divide the grid's 2");
  EXPECT_EQ(errorAfter(withCluster({0, 1, 1})),
            "m.json: launches[0].cluster[0]: 0 is out of range [1, "
            "4294967295]");
  EXPECT_EQ(errorAfter(withCluster({2, 1})),
            "m.json: launches[0].cluster: expected 3 sizes, got 2");
  EXPECT_EQ(errorAfter([&](json &m) {
              m["launches"][0]["grid"] = {16, 1, 1};
              withCluster({16, 1, 1})(m);
            }),
            "m.json: launches[0].cluster: a cluster of 16 blocks; at most 8 "
            "are portable");
  EXPECT_EQ(errorAfter([&](json &m) {
              withCluster({2, 1, 1})(m);
              m["sm"] = "80";
            }),
            "m.json: launches[0].cluster: thread block clusters need a ptx "
            "module for sm 90 or 90a");
}

TEST(ManifestTest, InvalidJson) {
  Expected<Manifest> parsed = parseManifest(
      "{\"format\": \"uta-manifest\",\n  \"version\": 1,,}", "m.json", ".");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), ErrorCode::InvalidInput);
  // The parser's position (line 2) is kept.
  EXPECT_EQ(parsed.status().message().rfind(
                "m.json: invalid JSON: parse error at line 2, column ", 0),
            0u)
      << parsed.status().message();
  EXPECT_EQ(parsed.status().message().find('\n'), std::string::npos);
}

/// A fresh folder under the test's temporary directory.
std::filesystem::path makeTempDir() {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("uta-manifest-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ManifestTest, ReadsFilesNextToTheManifest) {
  std::filesystem::path dir = makeTempDir();
  json document = good();
  // Constant 1 from a sibling file: 1.0f = 0x3f800000, -0.0f = 0x80000000.
  document["buffers"][1].erase("values");
  document["buffers"][1]["data_file"] = "c1.bin";
  {
    std::ofstream bin(dir / "c1.bin", std::ios::binary);
    const unsigned char bytes[8] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x80};
    bin.write(reinterpret_cast<const char *>(bytes), 8);
    std::ofstream(dir / "m.json") << document.dump(2);
  }
  Expected<Manifest> read = readManifest((dir / "m.json").string());
  ASSERT_TRUE(read) << read.status().message();
  EXPECT_EQ(read->path, (dir / "m.json").string());
  EXPECT_EQ(read->modulePath(), (dir / "m.ptx").string());
  EXPECT_EQ(bitsOfF32(read->buffers[1].constantData, 0), 0x3f800000u);
  EXPECT_EQ(bitsOfF32(read->buffers[1].constantData, 1), 0x80000000u);

  // A data file of the wrong size.
  {
    std::ofstream bin(dir / "c1.bin", std::ios::binary);
    bin.write("1234", 4);
  }
  read = readManifest((dir / "m.json").string());
  ASSERT_FALSE(read);
  EXPECT_EQ(read.status().message(),
            (dir / "m.json").string() + ": buffers[1].data_file: " +
                (dir / "c1.bin").string() + " holds 4 bytes, expected 8");

  std::filesystem::path missing = dir / "missing.json";
  read = readManifest(missing.string());
  ASSERT_FALSE(read);
  EXPECT_EQ(read.status().message(),
            missing.string() + ": cannot open: no such file or directory");
  EXPECT_EQ(read.status().code(), ErrorCode::InvalidInput);
  std::filesystem::remove_all(dir);
}

// A manifest is untrusted input: the files it names stay inside its folder,
// are regular files, and are no larger than declared.
TEST(ManifestTest, FileNamesStayInsideTheFolder) {
  for (const char *name : {"../m.ptx", "a/../../m.ptx", "..", "/etc/passwd"}) {
    SCOPED_TRACE(name);
    Status status = checkFileNameInFolder(name);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), ErrorCode::InvalidInput);
  }
  EXPECT_EQ(checkFileNameInFolder(std::string("m.ptx\0.json", 11)).message(),
            "a file name must not contain a NUL character");
  EXPECT_EQ(checkFileNameInFolder("../m.ptx").message(),
            "\"../m.ptx\" leaves the manifest's folder (\"..\")");
  EXPECT_TRUE(checkFileNameInFolder("m.ptx").ok());
  EXPECT_TRUE(checkFileNameInFolder("sub/..x/m.ptx").ok());

  // The same rules on a manifest's module and data files.
  json document = good();
  document["module"] = "../secret.ptx";
  Expected<Manifest> parsed = parseManifest(document.dump(), "m.json", "/d");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().message(),
            "m.json: module: \"../secret.ptx\" leaves the manifest's folder "
            "(\"..\")");
  document = good();
  document["module"] = std::string("m.ptx\0x", 7);
  parsed = parseManifest(document.dump(), "m.json", "/d");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().message(),
            "m.json: module: a file name must not contain a NUL character");
  document = good();
  document["buffers"][1].erase("values");
  document["buffers"][1]["data_file"] = "../c1.bin";
  parsed = parseManifest(document.dump(), "m.json", "/d");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().message(),
            "m.json: buffers[1].data_file: \"../c1.bin\" leaves the "
            "manifest's folder (\"..\")");
}

TEST(ManifestTest, LinksFifosAndOversizedFilesAreRefused) {
  std::filesystem::path dir = makeTempDir();
  std::filesystem::path outside =
      std::filesystem::temp_directory_path() /
      ("uta-manifest-outside-" + std::to_string(getpid()) + ".bin");
  { std::ofstream(outside, std::ios::binary).write("12345678", 8); }
  // A link inside the folder that leads out of it.
  std::filesystem::create_symlink(outside, dir / "link.bin");
  Expected<std::vector<std::byte>> read =
      readFileInFolder(dir.string(), "link.bin", 8);
  ASSERT_FALSE(read);
  EXPECT_NE(read.status().message().find("outside the manifest's folder"),
            std::string::npos)
      << read.status().message();
  // A link that stays inside is followed.
  { std::ofstream(dir / "c1.bin", std::ios::binary).write("abcdefgh", 8); }
  std::filesystem::create_symlink(dir / "c1.bin", dir / "inside.bin");
  read = readFileInFolder(dir.string(), "inside.bin", 8);
  ASSERT_TRUE(read) << read.status().message();
  EXPECT_EQ(read->size(), 8u);
  // More bytes than declared: refused before reading.
  read = readFileInFolder(dir.string(), "c1.bin", 4);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.status().message(),
            (dir / "c1.bin").string() + ": 8 bytes, more than the 4 allowed");
  // A FIFO (which a plain open would block on) and a folder.
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  read = readFileInFolder(dir.string(), "fifo", 8);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.status().message(),
            (dir / "fifo").string() + ": not a regular file (a FIFO)");
  std::filesystem::create_directory(dir / "folder");
  read = readFileBytes((dir / "folder").string());
  ASSERT_FALSE(read);
  EXPECT_EQ(read.status().message(),
            (dir / "folder").string() + ": not a regular file (a directory)");
  std::filesystem::remove(outside);
  std::filesystem::remove_all(dir);
}

// The opening half of readFileInFolder: the path realpath resolved is
// opened without following a link, so a link that appears there after
// realpath (made here in advance, at a file's and at a folder's place)
// is refused, not followed out of the folder.
TEST(ManifestTest, ResolvedPathsAreOpenedWithoutFollowingLinks) {
  std::filesystem::path dir = makeTempDir();
  std::filesystem::path outside = dir.string() + "-outside";
  std::filesystem::create_directories(outside);
  { std::ofstream(outside / "secret.bin", std::ios::binary).write("xx", 2); }
  std::filesystem::create_directory(dir / "sub");
  { std::ofstream(dir / "sub" / "a.bin", std::ios::binary).write("abc", 3); }
  Expected<RegularFile> file =
      RegularFile::openBeneath(dir.string(), "sub/a.bin", "m/sub/a.bin");
  ASSERT_TRUE(file) << file.status().message();
  EXPECT_EQ(file->size(), 3u);
  std::filesystem::create_symlink(outside / "secret.bin", dir / "file.bin");
  file = RegularFile::openBeneath(dir.string(), "file.bin", "m/file.bin");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.status().message(),
            "m/file.bin: cannot open: too many levels of symbolic links");
  std::filesystem::create_directory_symlink(outside, dir / "folder");
  file = RegularFile::openBeneath(dir.string(), "folder/secret.bin", "m/f");
  ASSERT_FALSE(file);
  EXPECT_NE(file.status().message().find("m/f: cannot open: "),
            std::string::npos)
      << file.status().message();
  ASSERT_EQ(::mkfifo((dir / "sub" / "fifo").c_str(), 0600), 0);
  file = RegularFile::openBeneath(dir.string(), "sub/fifo", "m/fifo");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.status().message(), "m/fifo: not a regular file (a FIFO)");
  std::filesystem::remove_all(outside);
  std::filesystem::remove_all(dir);
}

//===----------------------------------------------------------------------===//
// The executor, on a host-memory backend
//===----------------------------------------------------------------------===//

/// Keeps buffers in host memory and runs two kernels by entry point name:
/// add_f32 (MLIR descriptor ABI: c = a + b over the i64 n in args[15]) and
/// scale_f32 (y = alpha * x over the i32 n).
class HostBackend final : public Backend {
public:
  struct Loaded final : Executable {
    Manifest manifest;
  };

  std::map<uint64_t, std::vector<std::byte>> blocks;
  std::map<uint64_t, int> uploadsPerBlock;
  uint64_t nextHandle = 1;

  const char *name() const override { return "host"; }
  std::string deviceDescription() const override { return "host memory"; }
  DeviceLimits limits() const override {
    DeviceLimits limits;
    limits.maxGrid = {1u << 31, 65535, 65535};
    limits.maxBlock = {1024, 1024, 64};
    limits.maxThreadsPerBlock = 1024;
    limits.maxDynamicSharedBytes = 48 << 10;
    limits.maxKernelArguments = 512;
    limits.maxBufferBytes = uint64_t(1) << 32;
    return limits;
  }
  Expected<DeviceBuffer> allocate(uint64_t bytes, uint64_t) override {
    blocks[nextHandle].resize(bytes);
    return DeviceBuffer{nextHandle++, bytes};
  }
  void release(DeviceBuffer buffer) override {
    EXPECT_EQ(blocks.erase(buffer.handle), 1u);
  }
  Status upload(DeviceBuffer buffer, std::span<const std::byte> data) override {
    std::vector<std::byte> &block = blocks.at(buffer.handle);
    EXPECT_LE(data.size(), block.size());
    std::memcpy(block.data(), data.data(), data.size());
    ++uploadsPerBlock[buffer.handle];
    return Status();
  }
  Status download(DeviceBuffer buffer, std::span<std::byte> data) override {
    std::memcpy(data.data(), blocks.at(buffer.handle).data(), data.size());
    return Status();
  }
  Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte>) override {
    auto loaded = std::make_unique<Loaded>();
    loaded->manifest = manifest;
    return std::unique_ptr<Executable>(std::move(loaded));
  }
  Status run(Executable &executable, std::span<const DeviceBuffer> buffers,
             std::vector<KernelTiming> *timings) override {
    const Manifest &m = static_cast<Loaded &>(executable).manifest;
    EXPECT_EQ(buffers.size(), m.buffers.size());
    auto floats = [&](const KernelArg &arg) {
      size_t position = m.findBuffer(arg.buffer) - m.buffers.data();
      return reinterpret_cast<float *>(
          blocks.at(buffers[position].handle).data());
    };
    for (size_t l = 0; l < m.launches.size(); ++l) {
      const KernelDesc &kernel = m.kernels[m.launches[l].kernelIndex];
      const std::vector<KernelArg> &args = m.launches[l].args;
      if (kernel.entryPoint == "add_f32") {
        float *a = floats(args[1]), *b = floats(args[6]), *c = floats(args[11]);
        for (int64_t i = 0; i < args[15].intValue; ++i)
          c[i] = a[i] + b[i];
      } else if (kernel.entryPoint == "scale_f32") {
        float *x = floats(args[0]), *y = floats(args[1]);
        for (int64_t i = 0; i < args[3].intValue; ++i)
          y[i] = args[2].floatValue * x[i];
      } else {
        return Status::error(ErrorCode::InvalidInput,
                             "no kernel " + kernel.entryPoint);
      }
      if (timings)
        timings->push_back(KernelTiming{l, kernel.name, 1.0});
    }
    return Status();
  }
};

/// c = alpha * (a + b) over 10 elements, b = [0, 1, ..., 9] a constant, a +
/// b an intermediate; `scaleN` elements of c are written; results [c, a].
std::string addScaleManifest(int64_t scaleN) {
  auto buffer = [](int id) { return json{{"kind", "buffer"}, {"buffer", id}}; };
  auto i64 = [](int64_t v) { return json{{"kind", "i64"}, {"value", v}}; };
  json addArgs = json::array();
  for (int id : {0, 1, 2})
    for (json arg : {buffer(id), buffer(id), i64(0), i64(10), i64(1)})
      addArgs.push_back(arg);
  addArgs.push_back(i64(10));
  auto vector = [](int id, const char *role) {
    return json{{"id", id},      {"role", role}, {"dtype", "f32"},
                {"shape", {10}}, {"bytes", 40},  {"alignment", 16}};
  };
  json a = vector(0, "argument"), b = vector(1, "constant"),
       c = vector(3, "result");
  a["index"] = 0;
  b["values"] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  c["index"] = 0;
  json launch = {
      {"grid", {1, 1, 1}}, {"block", {32, 1, 1}}, {"shared_bytes", 0}};
  json addLaunch = launch, scaleLaunch = launch;
  addLaunch["kernel"] = "add";
  scaleLaunch["kernel"] = "scale";
  return json{
      {"format", "uta-manifest"},
      {"version", 1},
      {"target", "ptx"},
      {"sm", "90"},
      {"entry", "main"},
      {"module", "test.ptx"},
      {"buffers", {a, b, vector(2, "intermediate"), c}},
      {"kernels",
       {{{"name", "add"}, {"entry_point", "add_f32"}, {"args", addArgs}},
        {{"name", "scale"},
         {"entry_point", "scale_f32"},
         {"args",
          {buffer(2),
           buffer(3),
           {{"kind", "f32"}, {"value", -2.0}},
           {{"kind", "i32"}, {"value", scaleN}}}}}}},
      {"launches", {addLaunch, scaleLaunch}},
      {"results", {3, 0}}}
      .dump();
}

Expected<Executor> loadOnHost(HostBackend &backend, int64_t scaleN) {
  Expected<Manifest> manifest =
      parseManifest(addScaleManifest(scaleN), "test.json", ".");
  EXPECT_TRUE(manifest) << manifest.status().message();
  return Executor::load(backend, std::move(*manifest),
                        std::span<const std::byte>());
}

HostTensor tenOnes() {
  std::vector<float> ones(10, 1.0f);
  return HostTensor::fromFloat32(ElementType::kF32, {10}, ones);
}

TEST(ExecutorTest, RunsTheLaunchSequence) {
  HostBackend backend;
  {
    Expected<Executor> executor = loadOnHost(backend, 10);
    ASSERT_TRUE(executor) << executor.status().message();
    // Only the constant lives between runs.
    EXPECT_EQ(backend.blocks.size(), 1u);
    HostTensor a = tenOnes();
    for (int runs = 0; runs < 2; ++runs) {
      Expected<RunOutput> output = executor->run({&a, 1}, RunOptions{true});
      ASSERT_TRUE(output) << output.status().message();
      ASSERT_EQ(output->results.size(), 2u);
      // c[i] = -2 * (1 + i).
      EXPECT_EQ(
          output->results[0].toFloat32(),
          (std::vector<float>{-2, -4, -6, -8, -10, -12, -14, -16, -18, -20}));
      EXPECT_EQ(output->results[0].shape, (std::vector<int64_t>{10}));
      EXPECT_EQ(output->results[1].data, a.data); // the argument, unchanged
      ASSERT_EQ(output->timings.size(), 2u);
      EXPECT_EQ(output->timings[1].kernel, "scale");
      EXPECT_EQ(backend.blocks.size(), 1u); // the run's buffers went back
    }
    // The constant was uploaded once, at load.
    ASSERT_EQ(backend.blocks.size(), 1u);
    EXPECT_EQ(backend.uploadsPerBlock[backend.blocks.begin()->first], 1);
  }
  EXPECT_TRUE(backend.blocks.empty()); // the executor released the constant
}

TEST(ExecutorTest, RunsAKernelOnTheArgumentsOfEachLaunch) {
  // scale runs twice: first in place on the intermediate with 3, then, with
  // its kernel's arguments, from it into c with -2.
  json manifest = json::parse(addScaleManifest(10));
  manifest["version"] = 2;
  json inPlace = manifest["launches"][1];
  inPlace["args"] = manifest["kernels"][1]["args"];
  inPlace["args"][1]["buffer"] = 2;
  inPlace["args"][2]["value"] = 3.0;
  manifest["launches"].insert(manifest["launches"].begin() + 1, inPlace);
  Expected<Manifest> parsed = parseManifest(manifest.dump(), "test.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  HostBackend backend;
  Expected<Executor> executor =
      Executor::load(backend, std::move(*parsed), std::span<const std::byte>());
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor a = tenOnes();
  Expected<RunOutput> output = executor->run({&a, 1}, RunOptions{});
  ASSERT_TRUE(output) << output.status().message();
  // c[i] = -2 * 3 * (1 + i).
  EXPECT_EQ(
      output->results[0].toFloat32(),
      (std::vector<float>{-6, -12, -18, -24, -30, -36, -42, -48, -54, -60}));
}

/// HostBackend's kernels on buffers addressed by pointer, as CUDA's are:
/// `handle + offset` is a buffer inside another, so a run may place its
/// intermediates in one workspace. Keeps the buffers of the last run.
class PointerHostBackend final : public Backend {
public:
  std::map<uint64_t, std::vector<std::byte>> blocks;
  std::vector<DeviceBuffer> lastRun;

  const char *name() const override { return "host-pointers"; }
  std::string deviceDescription() const override { return "host memory"; }
  DeviceLimits limits() const override { return HostBackend().limits(); }
  bool addressesBuffersByPointer() const override { return true; }
  Expected<DeviceBuffer> allocate(uint64_t bytes, uint64_t) override {
    std::vector<std::byte> block(std::max<uint64_t>(bytes, 1));
    uint64_t address = reinterpret_cast<uint64_t>(block.data());
    blocks.emplace(address, std::move(block));
    return DeviceBuffer{address, bytes};
  }
  void release(DeviceBuffer buffer) override {
    EXPECT_EQ(blocks.erase(buffer.handle), 1u);
  }
  Status upload(DeviceBuffer buffer, std::span<const std::byte> data) override {
    std::memcpy(reinterpret_cast<void *>(buffer.handle), data.data(),
                data.size());
    return Status();
  }
  Status download(DeviceBuffer buffer, std::span<std::byte> data) override {
    std::memcpy(data.data(), reinterpret_cast<const void *>(buffer.handle),
                data.size());
    return Status();
  }
  Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte>) override {
    auto loaded = std::make_unique<HostBackend::Loaded>();
    loaded->manifest = manifest;
    return std::unique_ptr<Executable>(std::move(loaded));
  }
  Status run(Executable &executable, std::span<const DeviceBuffer> buffers,
             std::vector<KernelTiming> *) override {
    const Manifest &m = static_cast<HostBackend::Loaded &>(executable).manifest;
    lastRun.assign(buffers.begin(), buffers.end());
    auto floats = [&](const KernelArg &arg) {
      size_t position = m.findBuffer(arg.buffer) - m.buffers.data();
      return reinterpret_cast<float *>(buffers[position].handle);
    };
    for (const LaunchDesc &launch : m.launches) {
      const std::vector<KernelArg> &args = launch.args;
      if (m.kernels[launch.kernelIndex].entryPoint == "add_f32") {
        float *a = floats(args[1]), *b = floats(args[6]), *c = floats(args[11]);
        for (int64_t i = 0; i < args[15].intValue; ++i)
          c[i] = a[i] + b[i];
      } else {
        float *x = floats(args[0]), *y = floats(args[1]);
        for (int64_t i = 0; i < args[3].intValue; ++i)
          y[i] = args[2].floatValue * x[i];
      }
    }
    return Status();
  }
};

/// The chain a + b -> i2 -> i4 -> i5 -> c of scalings by 3, 0.5 and -2,
/// as a version-2 manifest whose launches pass their own buffers.
json scaleChainManifest() {
  json manifest = json::parse(addScaleManifest(10));
  manifest["version"] = 2;
  for (int id : {4, 5})
    manifest["buffers"].push_back({{"id", id},
                                   {"role", "intermediate"},
                                   {"dtype", "f32"},
                                   {"shape", {10}},
                                   {"bytes", 40},
                                   {"alignment", 16}});
  json scale = manifest["launches"][1];
  scale["args"] = manifest["kernels"][1]["args"];
  json launches = json::array({manifest["launches"][0]});
  for (auto [from, to, alpha] :
       {std::tuple{2, 4, 3.0}, {4, 5, 0.5}, {5, 3, -2.0}}) {
    json launch = scale;
    launch["args"][0]["buffer"] = from;
    launch["args"][1]["buffer"] = to;
    launch["args"][2]["value"] = alpha;
    launches.push_back(launch);
  }
  manifest["launches"] = launches;
  return manifest;
}

/// Runs `manifest` on a PointerHostBackend, poisoned and not, checks that
/// c = -2 * 0.5 * 3 * (a + b), and calls `check` with the executor, the
/// backend (its last run's buffers) and the positions of i2, i4, i5, c.
void runScaleChain(
    const json &manifest,
    const std::function<void(const Executor &, const PointerHostBackend &,
                             std::array<size_t, 4>)> &check) {
  Expected<Manifest> parsed = parseManifest(manifest.dump(), "test.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  PointerHostBackend backend;
  Expected<Executor> executor =
      Executor::load(backend, std::move(*parsed), std::span<const std::byte>());
  ASSERT_TRUE(executor) << executor.status().message();
  const Manifest &m = executor->manifest();
  std::array<size_t, 4> positions;
  const int64_t ids[] = {2, 4, 5, 3};
  for (size_t k = 0; k < 4; ++k)
    positions[k] = m.findBuffer(ids[k]) - m.buffers.data();
  HostTensor a = tenOnes();
  for (bool poison : {false, true}) {
    RunOptions options;
    options.poison = poison;
    Expected<RunOutput> output = executor->run({&a, 1}, options);
    ASSERT_TRUE(output) << output.status().message();
    EXPECT_EQ(
        output->results[0].toFloat32(),
        (std::vector<float>{-3, -6, -9, -12, -15, -18, -21, -24, -27, -30}));
    check(*executor, backend, positions);
  }
  EXPECT_EQ(backend.blocks.size(), 1u); // the constant
}

// i2 (launches 0-1) and i5 (2-3) are never live at once, so a run on a
// backend that addresses buffers by pointer puts them at one address of a
// single workspace, poisoned or not; i4 meets both.
TEST(ExecutorTest, IntermediatesShareTheWorkspace) {
  runScaleChain(scaleChainManifest(), [](const Executor &executor,
                                         const PointerHostBackend &backend,
                                         std::array<size_t, 4> at) {
    // Two slots of 40 bytes, at 0 and 256 (kMinWorkspaceAlignment).
    EXPECT_EQ(executor.workspaceBytes(), 296u);
    EXPECT_EQ(backend.lastRun[at[0]].handle, backend.lastRun[at[2]].handle);
    EXPECT_NE(backend.lastRun[at[0]].handle, backend.lastRun[at[1]].handle);
  });
}

// The scalings read each element only where they write it: with in_place
// pairs, i2 shares i4's slot and i5 lives in the result c, so the
// workspace holds one slot and the answer is the same.
TEST(ExecutorTest, InPlaceIntermediatesShareTheirOutputs) {
  json manifest = scaleChainManifest();
  manifest["launches"][1]["in_place"] = {{2, 4}};
  manifest["launches"][3]["in_place"] = {{5, 3}};
  runScaleChain(manifest, [](const Executor &executor,
                             const PointerHostBackend &backend,
                             std::array<size_t, 4> at) {
    EXPECT_EQ(executor.workspaceBytes(), 40u);
    EXPECT_EQ(backend.lastRun[at[0]].handle, backend.lastRun[at[1]].handle);
    EXPECT_EQ(backend.lastRun[at[2]].handle, backend.lastRun[at[3]].handle);
  });
}

TEST(ExecutorTest, PoisonsResultsWithNaN) {
  HostBackend backend;
  Expected<Executor> executor = loadOnHost(backend, 7);
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor a = tenOnes();
  Expected<RunOutput> output = executor->run({&a, 1});
  ASSERT_TRUE(output) << output.status().message();
  std::vector<float> c = output->results[0].toFloat32();
  EXPECT_EQ(c[6], -14.0f);
  for (int i = 7; i < 10; ++i) {
    EXPECT_TRUE(std::isnan(c[i])) << i;
    uint32_t bits;
    std::memcpy(&bits, &c[i], 4);
    EXPECT_EQ(bits, 0xffffffffu) << i; // Compare.h's poison pattern
  }
}

TEST(ExecutorTest, ChecksArguments) {
  HostBackend backend;
  Expected<Executor> executor = loadOnHost(backend, 10);
  ASSERT_TRUE(executor) << executor.status().message();
  std::vector<float> values(9, 0.0f);
  HostTensor shorter = HostTensor::fromFloat32(ElementType::kF32, {9}, values);
  Expected<RunOutput> output = executor->run({&shorter, 1});
  ASSERT_FALSE(output);
  EXPECT_EQ(output.status().message(),
            "argument 0: expected f32 [10], got f32 [9]");
  std::vector<float> ten(10, 0.0f);
  HostTensor half = HostTensor::fromFloat32(ElementType::kF16, {10}, ten);
  output = executor->run({&half, 1});
  ASSERT_FALSE(output);
  EXPECT_EQ(output.status().message(),
            "argument 0: expected f32 [10], got f16 [10]");
  output = executor->run({});
  ASSERT_FALSE(output);
  EXPECT_EQ(output.status().message(), "main takes 1 arguments, got 0");
  EXPECT_EQ(backend.blocks.size(), 1u);
}

TEST(ExecutorTest, ReportsAMissingModule) {
  HostBackend backend;
  Expected<Manifest> manifest =
      parseManifest(addScaleManifest(10), "test.json", "/nonexistent-dir");
  ASSERT_TRUE(manifest) << manifest.status().message();
  Expected<Executor> executor = Executor::load(backend, std::move(*manifest));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: module: /nonexistent-dir/test.ptx: cannot open: no "
            "such file or directory");
}

TEST(ExecutorTest, HostTensorConversions) {
  // bf16: 1.0 = 0x3f80, -2.5 = 0xc020; f16: 1.0 = 0x3c00, -2.5 = 0xc100.
  std::vector<float> values = {1.0f, -2.5f};
  HostTensor bf16 = HostTensor::fromFloat32(ElementType::kBF16, {2}, values);
  ASSERT_EQ(bf16.data.size(), 4u);
  EXPECT_EQ(bitsOf16(bf16.data, 0), 0x3f80u);
  EXPECT_EQ(bitsOf16(bf16.data, 1), 0xc020u);
  EXPECT_EQ(bf16.toFloat32(), values);
  HostTensor f16 = HostTensor::fromFloat32(ElementType::kF16, {2, 1}, values);
  EXPECT_EQ(bitsOf16(f16.data, 0), 0x3c00u);
  EXPECT_EQ(bitsOf16(f16.data, 1), 0xc100u);
  EXPECT_EQ(f16.numElements(), 2u);
  EXPECT_EQ(describeTensorType(f16.type, f16.shape), "f16 [2, 1]");
}

} // namespace
