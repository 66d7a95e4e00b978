//===- LaunchCheckTest.cpp - Launches against the device's limits ---------===//
//
// A manifest whose launches a device cannot run is refused by the executor
// before the backend loads anything, with a message naming the launch or
// kernel or buffer: each limit is broken in turn on a backend whose limits
// are small numbers chosen here, and the backend records whether load or
// allocate were reached. A graph of zero-element buffers runs, and nothing
// is launched for it.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/LaunchCheck.h"

#include "runtime/core/Executor.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>
#include <map>

using namespace uta::runtime;
using json = nlohmann::json;

namespace {

/// Host memory, small limits, one kernel ("copy_f32": out = in over all of
/// `in`), and a record of what the executor asked for.
class SmallBackend final : public Backend {
public:
  struct Loaded final : Executable {
    Manifest manifest;
  };

  DeviceLimits deviceLimits;
  bool loaded = false;
  size_t launches = 0;
  std::map<uint64_t, std::vector<std::byte>> blocks;
  uint64_t nextHandle = 1;

  SmallBackend() {
    deviceLimits.maxGrid = {100, 10, 1};
    deviceLimits.maxBlock = {64, 8, 1};
    deviceLimits.maxThreadsPerBlock = 128;
    deviceLimits.maxDynamicSharedBytes = 1024;
    deviceLimits.maxKernelArguments = 4;
    deviceLimits.maxBufferBytes = 4096;
  }

  const char *name() const override { return "small"; }
  std::string deviceDescription() const override { return "small"; }
  DeviceLimits limits() const override { return deviceLimits; }
  Expected<DeviceBuffer> allocate(uint64_t bytes, uint64_t) override {
    // Zero bytes is allowed (Backend.h); the real backends round it up.
    blocks[nextHandle].resize(bytes);
    return DeviceBuffer{nextHandle++, bytes};
  }
  void release(DeviceBuffer buffer) override { blocks.erase(buffer.handle); }
  Status upload(DeviceBuffer buffer, std::span<const std::byte> data) override {
    if (!data.empty())
      std::memcpy(blocks.at(buffer.handle).data(), data.data(), data.size());
    return Status();
  }
  Status download(DeviceBuffer buffer, std::span<std::byte> data) override {
    if (!data.empty())
      std::memcpy(data.data(), blocks.at(buffer.handle).data(), data.size());
    return Status();
  }
  Expected<std::unique_ptr<Executable>>
  load(const Manifest &manifest, std::span<const std::byte>) override {
    loaded = true;
    auto executable = std::make_unique<Loaded>();
    executable->manifest = manifest;
    return std::unique_ptr<Executable>(std::move(executable));
  }
  Status run(Executable &executable, std::span<const DeviceBuffer> buffers,
             std::vector<KernelTiming> *) override {
    const Manifest &m = static_cast<Loaded &>(executable).manifest;
    for (const LaunchDesc &launch : m.launches) {
      ++launches;
      const KernelDesc &kernel = m.kernels[launch.kernelIndex];
      auto position = [&](size_t a) {
        return size_t(m.findBuffer(kernel.args[a].buffer) - m.buffers.data());
      };
      const std::vector<std::byte> &in = blocks.at(buffers[position(0)].handle);
      std::vector<std::byte> &out = blocks.at(buffers[position(1)].handle);
      std::memcpy(out.data(), in.data(), m.buffers[position(0)].bytes);
    }
    return Status();
  }
};

/// A manifest: in (f32 [n]) copied to an intermediate, then to out.
json copyManifest(int64_t n) {
  auto buffer = [&](int id, const char *role) {
    json b = {{"id", id},     {"role", role},   {"dtype", "f32"},
              {"shape", {n}}, {"bytes", 4 * n}, {"alignment", 16}};
    if (std::string(role) != "intermediate")
      b["index"] = 0;
    return b;
  };
  auto arg = [](int id) { return json{{"kind", "buffer"}, {"buffer", id}}; };
  auto launch = [](const char *kernel) {
    return json{{"kernel", kernel},
                {"grid", {4, 1, 1}},
                {"block", {64, 1, 1}},
                {"shared_bytes", 0}};
  };
  return json{
      {"format", "uta-manifest"},
      {"version", 1},
      {"target", "ptx"},
      {"sm", "90"},
      {"entry", "main"},
      {"module", "m.ptx"},
      {"buffers",
       {buffer(0, "argument"), buffer(1, "intermediate"), buffer(2, "result")}},
      {"kernels",
       {{{"name", "first"},
         {"entry_point", "copy_f32"},
         {"args", {arg(0), arg(1)}}},
        {{"name", "second"},
         {"entry_point", "copy_f32"},
         {"args", {arg(1), arg(2)}}}}},
      {"launches", {launch("first"), launch("second")}},
      {"results", {2}}};
}

/// The executor's load error for the copy manifest after `edit` (empty if
/// it loaded), and whether the backend was reached.
std::string loadError(const std::function<void(json &)> &edit,
                      bool *reachedBackend = nullptr) {
  json document = copyManifest(256);
  edit(document);
  Expected<Manifest> manifest = parseManifest(document.dump(), "m.json", ".");
  EXPECT_TRUE(manifest) << manifest.status().message();
  if (!manifest)
    return "unparsed";
  SmallBackend backend;
  Expected<Executor> executor = Executor::load(backend, std::move(*manifest),
                                               std::span<const std::byte>());
  if (reachedBackend)
    *reachedBackend = backend.loaded || !backend.blocks.empty();
  if (executor)
    return "";
  EXPECT_EQ(executor.status().code(), ErrorCode::InvalidInput);
  return executor.status().message();
}

TEST(LaunchCheckTest, WithinTheLimitsLoads) {
  bool reached = false;
  EXPECT_EQ(loadError([](json &) {}, &reached), "");
  EXPECT_TRUE(reached);
}

TEST(LaunchCheckTest, EachLimitIsCheckedBeforeTheBackendLoads) {
  bool reached = true;
  EXPECT_EQ(loadError(
                [](json &m) {
                  m["launches"][1]["grid"] = {101, 1, 1};
                },
                &reached),
            "m.json: launches[1] (second).grid: [101, 1, 1] exceeds the "
            "device's maximum grid [100, 10, 1]");
  EXPECT_FALSE(reached);
  EXPECT_EQ(loadError([](json &m) {
              m["launches"][0]["grid"] = {1, 1, 2};
            }),
            "m.json: launches[0] (first).grid: [1, 1, 2] exceeds the device's "
            "maximum grid [100, 10, 1]");
  EXPECT_EQ(loadError([](json &m) {
              m["launches"][0]["block"] = {65, 1, 1};
            }),
            "m.json: launches[0] (first).block: [65, 1, 1] exceeds the "
            "device's maximum block [64, 8, 1]");
  // Each size within its maximum, their product above the thread limit.
  EXPECT_EQ(loadError(
                [](json &m) {
                  m["launches"][0]["block"] = {64, 4, 1};
                },
                &reached),
            "m.json: launches[0] (first).block: [64, 4, 1] is 256 threads, "
            "more than the device's 128 per block");
  EXPECT_FALSE(reached);
  EXPECT_EQ(loadError([](json &m) { m["launches"][1]["shared_bytes"] = 1025; }),
            "m.json: launches[1] (second).shared_bytes: 1025 bytes of dynamic "
            "shared memory, more than the device's 1024");
  EXPECT_EQ(loadError([](json &m) {
              json &args = m["kernels"][1]["args"];
              for (int i = 0; i < 3; ++i)
                args.push_back({{"kind", "i32"}, {"value", i}});
            }),
            "m.json: kernels[1] (second).args: 5 arguments, more than the "
            "device's 4 per kernel");
  // A tensor map is 128 bytes: 16 of the limit's 8-byte slots.
  EXPECT_EQ(loadError([](json &m) {
              m["buffers"][1]["shape"] = {64, 4};
              m["kernels"][1]["args"].push_back(
                  {{"kind", "tensor_map"}, {"buffer", 1}, {"box", {8, 4}}});
            }),
            "m.json: kernels[1] (second).args: 3 arguments (18 parameter "
            "slots), more than the device's 4 per kernel");
  // 2048 floats: 8192 bytes, over the 4096 one argument may bind.
  EXPECT_EQ(loadError([](json &m) {
              m["buffers"][1]["shape"] = {2048};
              m["buffers"][1]["bytes"] = 8192;
            }),
            "m.json: buffers[1].bytes: 8192 bytes, more than the device's "
            "largest buffer of 4096 bytes");
}

TEST(LaunchCheckTest, ManifestsBuiltInCodeAreCheckedToo) {
  // The reader refuses these; a Manifest made in code must not crash a
  // backend either.
  Expected<Manifest> parsed =
      parseManifest(copyManifest(256).dump(), "m.json", ".");
  ASSERT_TRUE(parsed) << parsed.status().message();
  SmallBackend backend;
  DeviceLimits limits = backend.limits();

  Manifest manifest = *parsed;
  manifest.launches[0].grid = {0, 1, 1};
  EXPECT_EQ(checkLaunches(manifest, limits).message(),
            "m.json: launches[0] (first).grid: [0, 1, 1] is empty (every size "
            "must be at least 1)");
  manifest = *parsed;
  manifest.launches[1].block = {64, 0, 1};
  EXPECT_EQ(checkLaunches(manifest, limits).message(),
            "m.json: launches[1] (second).block: [64, 0, 1] is empty (every "
            "size must be at least 1)");
  manifest = *parsed;
  manifest.launches[1].kernelIndex = 7;
  EXPECT_EQ(checkLaunches(manifest, limits).message(),
            "m.json: launches[1] (second).kernel: no kernel named \"second\"");
  manifest = *parsed;
  manifest.kernels[0].args[1].buffer = 99;
  EXPECT_EQ(checkLaunches(manifest, limits).message(),
            "m.json: kernels[0] (first).args[1].buffer: no buffer with id 99");
  // The largest block in every sense still passes.
  manifest = *parsed;
  manifest.launches[0].grid = {100, 10, 1};
  manifest.launches[0].block = {64, 2, 1};
  manifest.launches[0].sharedBytes = 1024;
  EXPECT_TRUE(checkLaunches(manifest, limits).ok());
}

TEST(LaunchCheckTest, RunsAndCopies) {
  Expected<Manifest> manifest =
      parseManifest(copyManifest(256).dump(), "m.json", ".");
  ASSERT_TRUE(manifest) << manifest.status().message();
  SmallBackend backend;
  Expected<Executor> executor = Executor::load(backend, std::move(*manifest),
                                               std::span<const std::byte>());
  ASSERT_TRUE(executor) << executor.status().message();
  std::vector<float> values(256);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i) - 100.5f;
  HostTensor in = HostTensor::fromFloat32(ElementType::kF32, {256}, values);
  Expected<RunOutput> output = executor->run({&in, 1});
  ASSERT_TRUE(output) << output.status().message();
  EXPECT_EQ(output->results[0].toFloat32(), values);
  EXPECT_EQ(backend.launches, 2u);
}

TEST(LaunchCheckTest, ZeroElementBuffersRunWithoutLaunches) {
  // What utac writes for a graph over zero elements: the buffers, no
  // kernel, no launch (a kernel over zero elements is not launched).
  json document = copyManifest(0);
  document["buffers"][2]["shape"] = {0, 3};
  document["kernels"] = json::array();
  document["launches"] = json::array();
  Expected<Manifest> manifest = parseManifest(document.dump(), "m.json", ".");
  ASSERT_TRUE(manifest) << manifest.status().message();
  EXPECT_EQ(manifest->buffers[0].bytes, 0u);
  EXPECT_EQ(manifest->buffers[0].numElements(), 0u);
  SmallBackend backend;
  Expected<Executor> executor = Executor::load(backend, std::move(*manifest),
                                               std::span<const std::byte>());
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor in;
  in.type = ElementType::kF32;
  in.shape = {0};
  Expected<RunOutput> output = executor->run({&in, 1});
  ASSERT_TRUE(output) << output.status().message();
  ASSERT_EQ(output->results.size(), 1u);
  EXPECT_EQ(output->results[0].shape, (std::vector<int64_t>{0, 3}));
  EXPECT_TRUE(output->results[0].data.empty());
  EXPECT_EQ(backend.launches, 0u);
  EXPECT_TRUE(backend.blocks.empty());
}

} // namespace
