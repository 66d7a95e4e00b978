//===- JitTest.cpp - Tests of the compile-and-run API ---------------------===//
//
// uta::compile and uta::Executable (include/uta/Compiler.h, Runtime.h)
// through the public API only: graphs built with uta::Graph run on the
// reference (checked against values worked out by hand) and on Vulkan
// (lavapipe here; checked against the reference with seeded inputs and
// poisoned outputs), with host and with device buffers; a second compile of
// one graph is a cache hit by the cache's counters; eight threads compile
// and run at once (scripts/tsan.sh runs that test under ThreadSanitizer).
// CUDA cases skip without a GPU; Vulkan cases skip without a Vulkan device.
//
//===----------------------------------------------------------------------===//

#include "uta/Compiler.h"
#include "uta/Graph.h"
#include "uta/Runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A fresh folder under $TMPDIR, removed with everything in it.
class TempDir {
public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "uta-jit-XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path_ = pattern;
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// The device `backend`, or null (with the reason in `why`) when it is not
/// available here. Any other failure fails the test.
std::optional<uta::Device> openOrSkip(const char *backend, std::string &why) {
  uta::Expected<uta::Device> device = uta::Device::open(backend);
  if (device)
    return *device;
  EXPECT_EQ(device.status().code(), uta::ErrorCode::Unavailable)
      << device.status().message();
  why = device.status().message();
  return std::nullopt;
}

#define OPEN_OR_SKIP(var, backend)                                             \
  std::string var##Why;                                                        \
  std::optional<uta::Device> var = openOrSkip(backend, var##Why);              \
  if (!var)                                                                    \
  GTEST_SKIP() << var##Why

/// Seeded normal inputs (stream i for input i), never zero.
std::vector<std::vector<float>> seededInputs(const uta::CompiledGraph &graph,
                                             uint64_t seed) {
  std::vector<std::vector<float>> inputs;
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    inputs.emplace_back(graph.inputs()[i].numElements());
    uta::fillNormal(inputs.back(), seed, i);
  }
  return inputs;
}

std::vector<uta::HostTensorView>
viewsOf(std::vector<std::vector<float>> &data,
        const std::vector<uta::TensorType> &types) {
  std::vector<uta::HostTensorView> views;
  for (size_t i = 0; i < data.size(); ++i)
    views.emplace_back(data[i], types[i].shape);
  return views;
}

std::vector<std::vector<float>>
poisonedOutputs(const std::vector<uta::TensorType> &types) {
  std::vector<std::vector<float>> outputs;
  for (const uta::TensorType &type : types)
    outputs.emplace_back(type.numElements(), std::nanf(""));
  return outputs;
}

/// Runs `exe` on host memory and returns its f32 outputs.
std::vector<std::vector<float>> runHost(const uta::Executable &exe,
                                        std::vector<std::vector<float>> inputs,
                                        uta::Status &status) {
  std::vector<std::vector<float>> outputs = poisonedOutputs(exe.outputs());
  std::vector<uta::HostTensorView> in = viewsOf(inputs, exe.inputs());
  std::vector<uta::HostTensorView> out = viewsOf(outputs, exe.outputs());
  status = exe.run(in, out);
  return outputs;
}

/// Every output of `got` within the `--check` tolerance of `expected`.
void expectMatches(const uta::CompiledGraph &graph,
                   const std::vector<std::vector<float>> &got,
                   const std::vector<std::vector<float>> &expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t o = 0; o < got.size(); ++o) {
    const uta::TensorType &type = graph.outputs()[o];
    uta::Comparison comparison = uta::compare(
        graph.name() + ".result" + std::to_string(o), got[o], expected[o],
        type.shape,
        uta::defaultTolerance(type.dtype, uta::hasReductions(graph)));
    EXPECT_TRUE(comparison.passed) << comparison.report;
  }
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

/// relu(x * y) on four elements.
uta::Graph buildReluProduct() {
  uta::Graph g("relu_product");
  uta::Tensor x = g.input({2, 2});
  uta::Tensor y = g.input({2, 2});
  g.output(g.relu(g.mul(x, y)));
  return g;
}

/// The Flash Clifford SGP layer in Cl(3,0), as examples/sgp_cl3.mlir, on
/// [8, batch, features] with sizes that fill no tile.
uta::Graph buildSgp(int64_t batch, int64_t features) {
  uta::Algebra cl3(3, 0);
  uta::Graph g("sgp_cl3");
  uta::Tensor x = g.input({8, batch, features});
  uta::Tensor y = g.input({8, batch, features});
  uta::Tensor w = g.input({features, cl3.numPaths()});
  uta::Tensor product =
      g.weightedProduct(cl3, g.scalarGate(cl3, x), g.scalarGate(cl3, y), w);
  g.output(g.gradeRmsNorm(cl3, product));
  return g;
}

/// gelu(x W^T + b), as examples/linear_bias_gelu.mlir.
uta::Graph buildLinearBiasGelu(int64_t m, int64_t n, int64_t k) {
  uta::Graph g("linear_bias_gelu");
  uta::Tensor x = g.input({m, k});
  uta::Tensor w = g.input({n, k});
  uta::Tensor b = g.input({n});
  g.output(g.gelu(g.add(g.matmul(x, w, /*transposeB=*/true), b)));
  return g;
}

/// An elementwise chain whose shape (and so cache key) depends on `variant`.
uta::Graph buildChain(int variant) {
  uta::Graph g("chain" + std::to_string(variant));
  uta::Tensor a = g.input({3 + variant, 37});
  uta::Tensor b = g.input({3 + variant, 37});
  uta::Tensor c = g.input({37});
  g.output(g.tanh(g.add(g.mul(g.gelu(g.add(g.mul(a, b), c)), a), b)));
  return g;
}

/// Results that alias: a value returned twice, an input, a small constant
/// and a fill of more than 64 KiB (each result a buffer of its own, so
/// that device runs write each of them).
uta::Graph buildAliasedResults() {
  uta::Graph g("aliased_results");
  uta::Tensor x = g.input({3, 37});
  uta::Tensor e = g.exp(x);
  g.output(e);
  g.output(x);
  g.output(e);
  g.output(g.constant({2}, {0.5f, -2.0f}));
  g.output(g.fill({130, 130}, 1.25f));
  return g;
}

/// Options that compile through `cache` for `target`.
uta::CompileOptions optionsFor(uta::Target target,
                               const uta::KernelCache &cache) {
  uta::CompileOptions options;
  options.target = target;
  options.cache = cache;
  return options;
}

uta::KernelCache openCache(const std::string &directory) {
  uta::Expected<uta::KernelCache> cache = uta::KernelCache::open(directory);
  EXPECT_TRUE(cache) << cache.status().message();
  return *cache;
}

//===----------------------------------------------------------------------===//
// The reference, against values worked out by hand
//===----------------------------------------------------------------------===//

TEST(JitReference, RunsTheGraphOnHostAndDeviceBuffers) {
  TempDir dir;
  uta::Graph graph = buildReluProduct();
  ASSERT_TRUE(graph.ok()) << graph.error();
  uta::Expected<uta::CompiledGraph> compiled = uta::compile(
      graph, optionsFor(uta::Target::Spirv, openCache(dir.path())));
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  ASSERT_TRUE(reference) << reference.status().message();
  EXPECT_EQ(reference->backend(), "reference");
  EXPECT_FALSE(reference->target());
  uta::Expected<uta::Executable> exe = compiled->load(*reference);
  ASSERT_TRUE(exe) << exe.status().message();
  ASSERT_EQ(exe->inputs().size(), 2u);
  EXPECT_EQ(exe->inputs()[0], (uta::TensorType{uta::DType::F32, {2, 2}}));

  // relu(x * y): (1)(2) = 2, (-2)(2) = -4 -> 0, (3)(-1) = -3 -> 0,
  // (0.5)(4) = 2.
  const std::vector<float> x = {1, -2, 3, 0.5f}, y = {2, 2, -1, 4};
  std::vector<float> out(4, -7.0f);
  uta::HostTensorView inputs[] = {{x, {2, 2}}, {y, {2, 2}}};
  uta::HostTensorView outputs[] = {{out, {2, 2}}};
  uta::Status status = exe->run(inputs, outputs);
  ASSERT_TRUE(status) << status.message();
  EXPECT_EQ(out, (std::vector<float>{2, 0, 0, 2}));

  // The same through the reference device's buffers.
  uta::Expected<uta::DeviceTensor> dx =
      reference->allocate({uta::DType::F32, {2, 2}});
  uta::Expected<uta::DeviceTensor> dy =
      reference->allocate({uta::DType::F32, {2, 2}});
  uta::Expected<uta::DeviceTensor> dz =
      reference->allocate({uta::DType::F32, {2, 2}});
  ASSERT_TRUE(dx && dy && dz);
  ASSERT_TRUE(dx->upload(uta::HostTensorView(x, {2, 2})));
  ASSERT_TRUE(dy->upload(uta::HostTensorView(y, {2, 2})));
  std::vector<uta::DeviceTensor> deviceInputs = {*dx, *dy};
  std::vector<uta::DeviceTensor> deviceOutputs = {*dz};
  status = exe->run(deviceInputs, deviceOutputs);
  ASSERT_TRUE(status) << status.message();
  std::vector<float> downloaded(4, -7.0f);
  ASSERT_TRUE(dz->download(uta::HostTensorView(downloaded, {2, 2})));
  EXPECT_EQ(downloaded, (std::vector<float>{2, 0, 0, 2}));
}

TEST(JitReference, GradientGraphRunsWithHandWorkedValues) {
  TempDir dir;
  uta::Graph graph = buildReluProduct();
  uta::Graph gradient = graph.gradient();
  ASSERT_TRUE(gradient.ok()) << gradient.error();
  EXPECT_EQ(gradient.name(), graph.name() + "_vjp");
  uta::Expected<uta::CompiledGraph> compiled = uta::compile(
      gradient, optionsFor(uta::Target::Spirv, openCache(dir.path())));
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  ASSERT_TRUE(reference) << reference.status().message();
  uta::Expected<uta::Executable> exe = compiled->load(*reference);
  ASSERT_TRUE(exe) << exe.status().message();
  ASSERT_EQ(exe->inputs().size(), 3u);
  ASSERT_EQ(exe->outputs().size(), 2u);

  // z = relu(x * y), cotangent c: dz/dx = c y, dz/dy = c x where x y > 0,
  // and 0 elsewhere (x y = 2, -4, -3, 2).
  const std::vector<float> x = {1, -2, 3, 0.5f}, y = {2, 2, -1, 4},
                           c = {1, 2, 3, -1};
  std::vector<float> dx(4, -7.0f), dy(4, -7.0f);
  uta::HostTensorView inputs[] = {{x, {2, 2}}, {y, {2, 2}}, {c, {2, 2}}};
  uta::HostTensorView outputs[] = {{dx, {2, 2}}, {dy, {2, 2}}};
  uta::Status status = exe->run(inputs, outputs);
  ASSERT_TRUE(status) << status.message();
  EXPECT_EQ(dx, (std::vector<float>{2, 0, 0, -4}));
  EXPECT_EQ(dy, (std::vector<float>{1, 0, 0, -0.5f}));
}

TEST(JitReference, RoundsHalfOutputs) {
  // Near 1, f16 values are 2^-10 apart. 1 + 2^-11 is halfway between 1 and
  // 1 + 2^-10 and rounds to the even one, 1; 1 + 3 * 2^-11 is halfway
  // between 1 + 2^-10 and 1 + 2^-9 and rounds to the even one, 1 + 2^-9.
  // The inputs are exact in f16 and the sums exact in float64.
  uta::Graph g("half_add");
  uta::Tensor a = g.input({2}, uta::DType::F16);
  uta::Tensor b = g.input({2}, uta::DType::F16);
  g.output(g.add(a, b));
  ASSERT_TRUE(g.ok()) << g.error();
  TempDir dir;
  uta::Expected<uta::CompiledGraph> compiled =
      uta::compile(g, optionsFor(uta::Target::Spirv, openCache(dir.path())));
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  uta::Expected<uta::Executable> exe = compiled->load(*reference);
  ASSERT_TRUE(exe) << exe.status().message();
  // f16 bits (sign, 5 exponent bits biased by 15, 10 mantissa bits):
  // 1 = 0x3c00; 2^-11 = 0x1000 (exponent 4); 3 * 2^-11 = 1.5 * 2^-10 =
  // 0x1600 (exponent 5, mantissa 0x200).
  const std::vector<uint16_t> lhs = {0x3c00, 0x3c00}, rhs = {0x1000, 0x1600};
  std::vector<uint16_t> sum(2, 0xffff);
  uta::HostTensorView inputs[] = {{uta::DType::F16, lhs, {2}},
                                  {uta::DType::F16, rhs, {2}}};
  uta::HostTensorView outputs[] = {{uta::DType::F16, sum, {2}}};
  uta::Status status = exe->run(inputs, outputs);
  ASSERT_TRUE(status) << status.message();
  // 1 = 0x3c00; 1 + 2^-9 = 0x3c02 (mantissa 2 in units of 2^-10).
  EXPECT_EQ(sum, (std::vector<uint16_t>{0x3c00, 0x3c02}));
}

//===----------------------------------------------------------------------===//
// Vulkan against the reference
//===----------------------------------------------------------------------===//

TEST(JitVulkan, SgpLinearBiasGeluAndAliasedResultsMatchTheReference) {
  OPEN_OR_SKIP(vulkan, "vulkan");
  EXPECT_EQ(vulkan->target(), uta::Target::Spirv);
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  ASSERT_TRUE(reference);
  TempDir dir;
  uta::KernelCache cache = openCache(dir.path());
  std::vector<uta::Graph> graphs;
  graphs.push_back(buildSgp(5, 13));
  graphs.push_back(buildLinearBiasGelu(19, 29, 23));
  graphs.push_back(buildAliasedResults());
  for (const uta::Graph &graph : graphs) {
    SCOPED_TRACE(graph.name());
    ASSERT_TRUE(graph.ok()) << graph.error();
    uta::Expected<uta::CompiledGraph> compiled =
        uta::compile(graph, optionsFor(uta::Target::Spirv, cache));
    ASSERT_TRUE(compiled) << compiled.status().message();
    uta::Expected<uta::Executable> gpu = compiled->load(*vulkan);
    ASSERT_TRUE(gpu) << gpu.status().message();
    uta::Expected<uta::Executable> ref = compiled->load(*reference);
    ASSERT_TRUE(ref) << ref.status().message();

    std::vector<std::vector<float>> inputs = seededInputs(*compiled, 7);
    uta::Status status;
    std::vector<std::vector<float>> expected = runHost(*ref, inputs, status);
    ASSERT_TRUE(status) << status.message();
    std::vector<std::vector<float>> got = runHost(*gpu, inputs, status);
    ASSERT_TRUE(status) << status.message();
    expectMatches(*compiled, got, expected);

    // Device buffers: upload once, run twice, download.
    std::vector<uta::DeviceTensor> deviceInputs, deviceOutputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      uta::Expected<uta::DeviceTensor> tensor =
          vulkan->allocate(compiled->inputs()[i]);
      ASSERT_TRUE(tensor) << tensor.status().message();
      ASSERT_TRUE(tensor->upload(
          uta::HostTensorView(inputs[i], compiled->inputs()[i].shape)));
      deviceInputs.push_back(*tensor);
    }
    for (const uta::TensorType &type : compiled->outputs()) {
      uta::Expected<uta::DeviceTensor> tensor = vulkan->allocate(type);
      ASSERT_TRUE(tensor) << tensor.status().message();
      deviceOutputs.push_back(*tensor);
    }
    for (int repeat = 0; repeat < 2; ++repeat) {
      status = gpu->run(deviceInputs, deviceOutputs);
      ASSERT_TRUE(status) << status.message();
    }
    std::vector<std::vector<float>> downloaded =
        poisonedOutputs(compiled->outputs());
    for (size_t o = 0; o < downloaded.size(); ++o)
      ASSERT_TRUE(deviceOutputs[o].download(
          uta::HostTensorView(downloaded[o], compiled->outputs()[o].shape)));
    expectMatches(*compiled, downloaded, expected);
  }
}

TEST(JitVulkan, SavedModuleRunsThroughTheRuntimeAlone) {
  OPEN_OR_SKIP(vulkan, "vulkan");
  TempDir dir;
  uta::Graph graph = buildChain(2);
  uta::Expected<uta::CompiledGraph> compiled = uta::compile(
      graph, optionsFor(uta::Target::Spirv, openCache(dir.path())));
  ASSERT_TRUE(compiled) << compiled.status().message();
  std::string path = dir.path() + "/chain.spv";
  ASSERT_TRUE(compiled->save(path));
  uta::Expected<uta::Executable> loaded =
      uta::Executable::load(*vulkan, path + ".json");
  ASSERT_TRUE(loaded) << loaded.status().message();
  EXPECT_EQ(loaded->name(), "chain2");
  EXPECT_EQ(loaded->inputs(), compiled->inputs());
  EXPECT_EQ(loaded->outputs(), compiled->outputs());

  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  uta::Expected<uta::Executable> ref = compiled->load(*reference);
  ASSERT_TRUE(ref) << ref.status().message();
  std::vector<std::vector<float>> inputs = seededInputs(*compiled, 3);
  uta::Status status;
  std::vector<std::vector<float>> expected = runHost(*ref, inputs, status);
  ASSERT_TRUE(status) << status.message();
  std::vector<std::vector<float>> got = runHost(*loaded, inputs, status);
  ASSERT_TRUE(status) << status.message();
  expectMatches(*compiled, got, expected);
}

//===----------------------------------------------------------------------===//
// The kernel cache
//===----------------------------------------------------------------------===//

TEST(JitCache, SecondCompileIsAHitByTheCounters) {
  TempDir dir;
  uta::KernelCache cache = openCache(dir.path());
  EXPECT_EQ(cache.directory().rfind(dir.path(), 0), 0u) << cache.directory();
  uta::Graph graph = buildLinearBiasGelu(7, 5, 3);

  uta::Expected<uta::CompiledGraph> first =
      uta::compile(graph, optionsFor(uta::Target::Spirv, cache));
  ASSERT_TRUE(first) << first.status().message();
  EXPECT_FALSE(first->cacheHit());
  uta::CacheStats afterFirst = cache.stats();
  EXPECT_EQ(afterFirst.misses, 1u);
  EXPECT_EQ(afterFirst.memoryHits + afterFirst.diskHits, 0u);
  EXPECT_EQ(afterFirst.writes, 1u);

  uta::Expected<uta::CompiledGraph> second =
      uta::compile(graph, optionsFor(uta::Target::Spirv, cache));
  ASSERT_TRUE(second) << second.status().message();
  EXPECT_TRUE(second->cacheHit());
  uta::CacheStats afterSecond = cache.stats();
  EXPECT_EQ(afterSecond.memoryHits, 1u);
  EXPECT_EQ(afterSecond.misses, 1u);
  EXPECT_EQ(afterSecond.writes, 1u);
  EXPECT_EQ(second->module(), first->module());
  EXPECT_EQ(second->manifest(), first->manifest());

  // Another cache on the same folder (as another process would open it)
  // finds the entry on disk.
  uta::KernelCache other = openCache(dir.path());
  uta::Expected<uta::CompiledGraph> third =
      uta::compile(graph, optionsFor(uta::Target::Spirv, other));
  ASSERT_TRUE(third) << third.status().message();
  EXPECT_TRUE(third->cacheHit());
  EXPECT_EQ(other.stats().diskHits, 1u);
  EXPECT_EQ(other.stats().misses, 0u);

  // Another target, or another option, is another key: a miss.
  uta::Expected<uta::CompiledGraph> msl =
      uta::compile(graph, optionsFor(uta::Target::Msl, cache));
  ASSERT_TRUE(msl) << msl.status().message();
  EXPECT_FALSE(msl->cacheHit());
  EXPECT_EQ(cache.stats().misses, 2u);
  uta::CompileOptions scalar = optionsFor(uta::Target::Spirv, cache);
  scalar.vectorize = false;
  uta::Expected<uta::CompiledGraph> unvectorized = uta::compile(graph, scalar);
  ASSERT_TRUE(unvectorized) << unvectorized.status().message();
  EXPECT_FALSE(unvectorized->cacheHit());
  EXPECT_EQ(cache.stats().misses, 3u);
}

TEST(JitCache, TheProcessCacheIsUsedByDefault) {
  // ctest points UTA_CACHE_DIR at a folder of the build tree.
  uta::Expected<uta::KernelCache> process = uta::KernelCache::processCache();
  ASSERT_TRUE(process) << process.status().message();
  uta::Graph graph = buildChain(11);
  uta::CompileOptions options;
  options.target = uta::Target::Spirv;
  uint64_t lookups = process->stats().misses + process->stats().memoryHits +
                     process->stats().diskHits;
  uta::Expected<uta::CompiledGraph> compiled = uta::compile(graph, options);
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::CacheStats stats = process->stats();
  EXPECT_EQ(stats.misses + stats.memoryHits + stats.diskHits, lookups + 1);
}

//===----------------------------------------------------------------------===//
// Eight threads at once
//===----------------------------------------------------------------------===//

TEST(JitThreads, EightThreadsCompileAndRunAtOnce) {
  OPEN_OR_SKIP(vulkan, "vulkan");
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  ASSERT_TRUE(reference);
  TempDir dir;
  uta::KernelCache cache = openCache(dir.path());

  // One executable that every thread runs at once, with its expected
  // results worked out before the threads start.
  uta::Expected<uta::CompiledGraph> shared =
      uta::compile(buildSgp(3, 7), optionsFor(uta::Target::Spirv, cache));
  ASSERT_TRUE(shared) << shared.status().message();
  uta::Expected<uta::Executable> sharedExe = shared->load(*vulkan);
  ASSERT_TRUE(sharedExe) << sharedExe.status().message();
  uta::Expected<uta::Executable> sharedRef = shared->load(*reference);
  ASSERT_TRUE(sharedRef) << sharedRef.status().message();
  std::vector<std::vector<std::vector<float>>> sharedInputs, sharedExpected;
  for (int t = 0; t < 8; ++t) {
    uta::Status status;
    sharedInputs.push_back(seededInputs(*shared, 100 + t));
    sharedExpected.push_back(runHost(*sharedRef, sharedInputs.back(), status));
    ASSERT_TRUE(status) << status.message();
  }

  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      // A graph of this thread's own (its own key: a real compile), and
      // the graph every thread compiles (one key, raced for in the cache).
      uta::Expected<uta::CompiledGraph> own =
          uta::compile(buildChain(t), optionsFor(uta::Target::Spirv, cache));
      ASSERT_TRUE(own) << own.status().message();
      uta::Expected<uta::CompiledGraph> common =
          uta::compile(buildSgp(3, 7), optionsFor(uta::Target::Spirv, cache));
      ASSERT_TRUE(common) << common.status().message();
      EXPECT_EQ(common->module(), shared->module());

      uta::Expected<uta::Executable> gpu = own->load(*vulkan);
      ASSERT_TRUE(gpu) << gpu.status().message();
      uta::Expected<uta::Executable> ref = own->load(*reference);
      ASSERT_TRUE(ref) << ref.status().message();
      for (int repeat = 0; repeat < 3; ++repeat) {
        std::vector<std::vector<float>> inputs =
            seededInputs(*own, 10 * t + repeat);
        uta::Status status;
        std::vector<std::vector<float>> expected =
            runHost(*ref, inputs, status);
        ASSERT_TRUE(status) << status.message();
        std::vector<std::vector<float>> got = runHost(*gpu, inputs, status);
        ASSERT_TRUE(status) << status.message();
        expectMatches(*own, got, expected);

        std::vector<std::vector<float>> sharedGot =
            runHost(*sharedExe, sharedInputs[t], status);
        ASSERT_TRUE(status) << status.message();
        expectMatches(*shared, sharedGot, sharedExpected[t]);
      }
      ++done;
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(done.load(), 8);
  // Nine distinct graphs were compiled once each; the eight compiles of the
  // shared graph in the threads found it in memory.
  uta::CacheStats stats = cache.stats();
  EXPECT_EQ(stats.misses, 9u);
  EXPECT_EQ(stats.memoryHits, 8u);
}

//===----------------------------------------------------------------------===//
// CUDA (skips without a GPU) and the other targets
//===----------------------------------------------------------------------===//

TEST(JitCuda, LinearBiasGeluMatchesTheReference) {
  OPEN_OR_SKIP(cuda, "cuda");
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  TempDir dir;
  uta::CompileOptions options = uta::CompileOptions::forDevice(*cuda);
  options.cache = openCache(dir.path());
  EXPECT_EQ(options.target, uta::Target::Ptx);
  uta::Graph graph = buildLinearBiasGelu(67, 45, 71);
  uta::Expected<uta::CompiledGraph> compiled = uta::compile(graph, options);
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::Expected<uta::Executable> gpu = compiled->load(*cuda);
  ASSERT_TRUE(gpu) << gpu.status().message();
  uta::Expected<uta::Executable> ref = compiled->load(*reference);
  std::vector<std::vector<float>> inputs = seededInputs(*compiled, 5);
  uta::Status status;
  std::vector<std::vector<float>> expected = runHost(*ref, inputs, status);
  ASSERT_TRUE(status) << status.message();
  std::vector<std::vector<float>> got = runHost(*gpu, inputs, status);
  ASSERT_TRUE(status) << status.message();
  expectMatches(*compiled, got, expected);
}

TEST(JitTargets, PtxAndMslModulesHoldTheKernels) {
  TempDir dir;
  uta::KernelCache cache = openCache(dir.path());
  uta::Graph graph = buildChain(0);
  uta::Expected<uta::CompiledGraph> msl =
      uta::compile(graph, optionsFor(uta::Target::Msl, cache));
  ASSERT_TRUE(msl) << msl.status().message();
  EXPECT_NE(msl->module().find("kernel void"), std::string::npos);
  EXPECT_NE(msl->manifest().find("\"target\": \"msl\""), std::string::npos);
  if (!std::filesystem::exists("/usr/local/cuda/nvvm/libdevice") &&
      !std::getenv("CUDA_HOME"))
    GTEST_SKIP() << "no CUDA toolkit for the ptx target";
  uta::Expected<uta::CompiledGraph> ptx =
      uta::compile(graph, optionsFor(uta::Target::Ptx, cache));
  ASSERT_TRUE(ptx) << ptx.status().message();
  EXPECT_NE(ptx->module().find(".entry"), std::string::npos);
  EXPECT_NE(ptx->manifest().find("\"sm\": \"90\""), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(JitErrors, BadGraphsOptionsAndArgumentsAreOneLineErrors) {
  TempDir dir;
  uta::KernelCache cache = openCache(dir.path());

  uta::Graph broken("broken");
  uta::Tensor a = broken.input({2, 3});
  uta::Tensor b = broken.input({4, 5});
  broken.output(broken.matmul(a, b));
  ASSERT_FALSE(broken.ok());
  uta::Expected<uta::CompiledGraph> notCompiled =
      uta::compile(broken, optionsFor(uta::Target::Spirv, cache));
  ASSERT_FALSE(notCompiled);
  EXPECT_EQ(notCompiled.status().code(), uta::ErrorCode::InvalidInput);
  EXPECT_NE(notCompiled.status().message().find("graph @broken: matmul"),
            std::string::npos)
      << notCompiled.status().message();

  uta::CompileOptions badSm = optionsFor(uta::Target::Ptx, cache);
  badSm.sm = "75";
  uta::Expected<uta::CompiledGraph> wrongSm =
      uta::compile(buildReluProduct(), badSm);
  ASSERT_FALSE(wrongSm);
  EXPECT_EQ(wrongSm.status().message(),
            "unsupported sm \"75\" (expected 80, 86, 89, 90 or 90a)");

  uta::Expected<uta::Device> unknown = uta::Device::open("metal");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.status().message(),
            "unknown backend \"metal\" (expected cuda, vulkan, reference or "
            "best)");

  uta::Expected<uta::CompiledGraph> compiled =
      uta::compile(buildReluProduct(), optionsFor(uta::Target::Spirv, cache));
  ASSERT_TRUE(compiled) << compiled.status().message();
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  uta::Expected<uta::Executable> exe = compiled->load(*reference);
  ASSERT_TRUE(exe);

  std::vector<float> four(4), three(3), out(4);
  const std::vector<float> constOut(4);
  {
    uta::HostTensorView inputs[] = {{four, {2, 2}}};
    uta::HostTensorView outputs[] = {{out, {2, 2}}};
    uta::Status status = exe->run(inputs, outputs);
    EXPECT_EQ(status.message(), "relu_product takes 2 inputs and returns 1 "
                                "output, got 1 and 1");
  }
  {
    uta::HostTensorView inputs[] = {{four, {2, 2}}, {four, {4}}};
    uta::HostTensorView outputs[] = {{out, {2, 2}}};
    uta::Status status = exe->run(inputs, outputs);
    EXPECT_EQ(status.message(), "input 1: expected f32 [2, 2], got f32 [4]");
  }
  {
    uta::HostTensorView inputs[] = {{four, {2, 2}}, {three, {2, 2}}};
    uta::HostTensorView outputs[] = {{out, {2, 2}}};
    uta::Status status = exe->run(inputs, outputs);
    EXPECT_EQ(status.message(), "input 1: f32 [2, 2] views 3 elements, not 4");
  }
  {
    uta::HostTensorView inputs[] = {{four, {2, 2}}, {four, {2, 2}}};
    uta::HostTensorView outputs[] = {{constOut, {2, 2}}};
    uta::Status status = exe->run(inputs, outputs);
    EXPECT_EQ(status.message(), "output 0: the view's data is const");
  }

  // A manifest is not something the reference can load.
  TempDir saved;
  ASSERT_TRUE(compiled->save(saved.path() + "/g.spv"));
  uta::Expected<uta::Executable> manifestOnReference =
      uta::Executable::load(*reference, saved.path() + "/g.spv.json");
  ASSERT_FALSE(manifestOnReference);
  EXPECT_NE(manifestOnReference.status().message().find("reference device"),
            std::string::npos);
}

TEST(JitErrors, DeviceTensorsAreCheckedAgainstTheSignature) {
  TempDir dir;
  uta::Expected<uta::CompiledGraph> compiled =
      uta::compile(buildReluProduct(),
                   optionsFor(uta::Target::Spirv, openCache(dir.path())));
  ASSERT_TRUE(compiled);
  uta::Expected<uta::Device> reference = uta::Device::open("reference");
  uta::Expected<uta::Device> other = uta::Device::open("reference");
  uta::Expected<uta::Executable> exe = compiled->load(*reference);
  ASSERT_TRUE(exe);
  uta::TensorType type{uta::DType::F32, {2, 2}};
  std::vector<uta::DeviceTensor> inputs = {*reference->allocate(type),
                                           *reference->allocate(type)};
  std::vector<uta::DeviceTensor> wrongShape = {
      *reference->allocate({uta::DType::F32, {4}})};
  std::vector<uta::DeviceTensor> foreign = {*other->allocate(type)};
  std::vector<uta::DeviceTensor> aliased = {inputs[1]};

  EXPECT_EQ(exe->run(inputs, wrongShape).message(),
            "output 0: expected f32 [2, 2], got f32 [4]");
  EXPECT_EQ(exe->run(inputs, foreign).message(),
            "output 0: a tensor of another device (reference), this "
            "executable runs on reference");
  EXPECT_EQ(exe->run(inputs, aliased).message(),
            "output 0 is the tensor of input 1");
}

} // namespace
