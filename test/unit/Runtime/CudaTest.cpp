//===- CudaTest.cpp - Tests of the CUDA backend and the executor ----------===//
//
// Without a GPU (the build machines): the driver loader reports
// Unavailable in one line instead of failing or crashing, the error-name
// table and the memory pool work, and the hand-written test PTX assembles
// with ptxas. With a GPU: the PTX below runs through the Executor from a
// hand-written manifest (an argument, a constant, an intermediate and a
// result; a descriptor-ABI kernel and a plain-pointer kernel; i64, i32 and
// f32 scalars), unwritten result elements read back as NaN, timings come
// back per launch, and JIT and ABI errors are reported clearly; a kernel
// takes a tensor map (TMA descriptor) by value and copies its box, zeros
// past the tensor included, and the descriptor's encoding is checked
// without a GPU. The GPU tests skip, saying why, when the cuda backend is
// not available.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Executor.h"
#include "runtime/cuda/CudaBackend.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/cuda/MemoryPool.h"
#include "runtime/cuda/TensorMap.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace uta::runtime;
using namespace uta::runtime::cuda;
using json = nlohmann::json;

namespace {

/// Two kernels written by hand (validated with `ptxas -arch=sm_90`).
/// add_f32: c[i] = a[i] + b[i] for i < n, with MLIR's descriptor ABI (each
/// 1-D memref is allocated ptr, aligned ptr, offset, size, stride; n is i64).
/// scale_f32: y[i] = alpha * x[i] for i < n, with plain pointers, f32 alpha
/// and i32 n.
const char *kTestPtx = R"ptx(
.version 7.8
.target sm_80
.address_size 64

.visible .entry add_f32(
	.param .u64 a_allocated, .param .u64 a_aligned, .param .u64 a_offset,
	.param .u64 a_size, .param .u64 a_stride,
	.param .u64 b_allocated, .param .u64 b_aligned, .param .u64 b_offset,
	.param .u64 b_size, .param .u64 b_stride,
	.param .u64 c_allocated, .param .u64 c_aligned, .param .u64 c_offset,
	.param .u64 c_size, .param .u64 c_stride,
	.param .u64 n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [a_aligned];
	ld.param.u64 	%rd2, [a_offset];
	ld.param.u64 	%rd3, [b_aligned];
	ld.param.u64 	%rd4, [b_offset];
	ld.param.u64 	%rd5, [c_aligned];
	ld.param.u64 	%rd6, [c_offset];
	ld.param.u64 	%rd7, [n];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mul.wide.u32 	%rd8, %r1, %r2;
	cvt.u64.u32 	%rd9, %r3;
	add.s64 	%rd8, %rd8, %rd9;
	setp.ge.s64 	%p1, %rd8, %rd7;
	@%p1 bra 	DONE;
	add.s64 	%rd10, %rd8, %rd2;
	shl.b64 	%rd10, %rd10, 2;
	add.s64 	%rd10, %rd1, %rd10;
	cvta.to.global.u64 	%rd10, %rd10;
	add.s64 	%rd11, %rd8, %rd4;
	shl.b64 	%rd11, %rd11, 2;
	add.s64 	%rd11, %rd3, %rd11;
	cvta.to.global.u64 	%rd11, %rd11;
	add.s64 	%rd12, %rd8, %rd6;
	shl.b64 	%rd12, %rd12, 2;
	add.s64 	%rd12, %rd5, %rd12;
	cvta.to.global.u64 	%rd12, %rd12;
	ld.global.f32 	%f1, [%rd10];
	ld.global.f32 	%f2, [%rd11];
	add.rn.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd12], %f3;
DONE:
	ret;
}

.visible .entry scale_f32(
	.param .u64 x, .param .u64 y, .param .f32 alpha, .param .u32 n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<6>;

	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.f32 	%f1, [alpha];
	ld.param.u32 	%r4, [n];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r5, %r1, %r2, %r3;
	setp.ge.s32 	%p1, %r5, %r4;
	@%p1 bra 	DONE;
	mul.wide.s32 	%rd3, %r5, 4;
	add.s64 	%rd4, %rd1, %rd3;
	cvta.to.global.u64 	%rd4, %rd4;
	add.s64 	%rd5, %rd2, %rd3;
	cvta.to.global.u64 	%rd5, %rd5;
	ld.global.f32 	%f2, [%rd4];
	mul.rn.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd5], %f3;
DONE:
	ret;
}
)ptx";

/// copy_box_f32: the box of a [3, 5, 8] f32 tensor map at (x, y, z) = (0,
/// 2, 1), a [1, 4, 8] box by TMA (rows 2 to 5 of x[1]; row 5 is past the
/// end, zeros), stored by 32 threads to y. Validated with `ptxas
/// -arch=sm_90`.
const char *kTensorMapPtx = R"ptx(
.version 8.0
.target sm_90
.address_size 64

.visible .entry copy_box_f32(.param .align 64 .b8 map[128], .param .u64 y)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	.reg .f32 	%f<2>;
	.shared .align 128 .b8 box[128];
	.shared .align 8 .b64 full;

	mov.u32 	%r1, %tid.x;
	setp.ne.u32 	%p1, %r1, 0;
	@%p1 bra 	SYNC;
	mbarrier.init.shared.b64 	[full], 1;
	fence.proxy.async.shared::cta;
	mov.b64 	%rd1, map;
	cvta.param.u64 	%rd2, %rd1;
	mov.u32 	%r2, 0;
	mov.u32 	%r3, 2;
	mov.u32 	%r4, 1;
	mbarrier.arrive.expect_tx.shared.b64 	%rd3, [full], 128;
	cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [box], [%rd2, {%r2, %r3, %r4}], [full];
SYNC:
	bar.sync 	0;
WAIT:
	mbarrier.try_wait.parity.shared.b64 	%p2, [full], 0;
	@!%p2 bra 	WAIT;
	setp.ge.u32 	%p3, %r1, 32;
	@%p3 bra 	DONE;
	mov.u32 	%r5, box;
	shl.b32 	%r6, %r1, 2;
	add.u32 	%r7, %r5, %r6;
	ld.shared.f32 	%f1, [%r7];
	ld.param.u64 	%rd4, [y];
	cvta.to.global.u64 	%rd5, %rd4;
	mul.wide.u32 	%rd6, %r1, 4;
	add.s64 	%rd7, %rd5, %rd6;
	st.global.f32 	[%rd7], %f1;
DONE:
	ret;
}
)ptx";

/// cluster_rank_f32(x, y, n): y[i] = x[i] * (blocks in the cluster) + (the
/// block's rank in it), for i < n: a plain launch gives x, a cluster launch
/// of 2 blocks along x gives 2 x + the block's parity.
const char *kClusterPtx = R"ptx(
.version 8.0
.target sm_90
.address_size 64

.visible .entry cluster_rank_f32(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<8>;
	.reg .f32 	%f<5>;

	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.u32 	%r4, %r1, %r2, %r3;
	ld.param.u32 	%r5, [n];
	setp.ge.u32 	%p1, %r4, %r5;
	@%p1 bra 	DONE;
	mov.u32 	%r6, %cluster_ctarank;
	mov.u32 	%r7, %cluster_nctarank;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mul.wide.u32 	%rd5, %r4, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.f32 	%f1, [%rd6];
	cvt.rn.f32.u32 	%f2, %r7;
	cvt.rn.f32.u32 	%f3, %r6;
	mul.rn.f32 	%f4, %f1, %f2;
	add.rn.f32 	%f4, %f4, %f3;
	add.s64 	%rd7, %rd4, %rd5;
	st.global.f32 	[%rd7], %f4;
DONE:
	ret;
}
)ptx";

//===----------------------------------------------------------------------===//
// Without a GPU
//===----------------------------------------------------------------------===//

TEST(CudaDriverTest, LoadsOrReportsUnavailableInOneLine) {
  Expected<std::shared_ptr<CudaDriver>> driver = CudaDriver::open();
  if (driver) {
    EXPECT_GT((*driver)->version(), 0);
    return;
  }
  EXPECT_EQ(driver.status().code(), ErrorCode::Unavailable);
  EXPECT_FALSE(driver.status().message().empty());
  EXPECT_EQ(driver.status().message().find('\n'), std::string::npos);
}

TEST(CudaDriverTest, BackendReportsUnavailableInOneLine) {
  Expected<std::unique_ptr<CudaBackend>> backend =
      CudaBackend::create(BackendOptions{});
  if (backend) {
    EXPECT_NE((*backend)->deviceDescription().find("sm_"), std::string::npos);
    return;
  }
  EXPECT_EQ(backend.status().code(), ErrorCode::Unavailable);
  const std::string &message = backend.status().message();
  EXPECT_EQ(message.rfind("the cuda backend is not available here: ", 0), 0u)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(CudaDriverTest, MissingLibraryIsUnavailable) {
  Expected<std::shared_ptr<CudaDriver>> driver =
      CudaDriver::open("libuta-no-such-driver.so.1");
  ASSERT_FALSE(driver);
  EXPECT_EQ(driver.status().code(), ErrorCode::Unavailable);
  EXPECT_EQ(driver.status().message().rfind(
                "cannot open libuta-no-such-driver.so.1: ", 0),
            0u)
      << driver.status().message();

  Expected<std::unique_ptr<CudaBackend>> backend =
      CudaBackend::create(BackendOptions{}, "libuta-no-such-driver.so.1");
  ASSERT_FALSE(backend);
  EXPECT_EQ(backend.status().code(), ErrorCode::Unavailable);
  EXPECT_EQ(backend.status().message().rfind(
                "the cuda backend is not available here: cannot open "
                "libuta-no-such-driver.so.1: ",
                0),
            0u)
      << backend.status().message();
}

TEST(CudaDriverTest, StubLibraryIsUnavailable) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << stub << " is not here";
  Expected<std::shared_ptr<CudaDriver>> driver = CudaDriver::open(stub);
  ASSERT_FALSE(driver);
  EXPECT_EQ(driver.status().code(), ErrorCode::Unavailable);
  // The stub's cuGetErrorName fails too; the name comes from our table.
  EXPECT_EQ(driver.status().message(),
            std::string(stub) +
                " is the CUDA toolkit's stub library, not an NVIDIA driver "
                "(cuInit: CUDA_ERROR_STUB_LIBRARY)");
}

TEST(CudaDriverTest, ModulesRunOnTheirArchitectureOrNewer) {
  using uta::runtime::cuda::isModuleRunnableOn;
  EXPECT_TRUE(isModuleRunnableOn("80", 80));
  EXPECT_TRUE(isModuleRunnableOn("80", 90));
  EXPECT_TRUE(isModuleRunnableOn("90", 120));
  EXPECT_FALSE(isModuleRunnableOn("90", 89));
  EXPECT_FALSE(isModuleRunnableOn("86", 80));
  // sm_90a's architecture-specific features exist on sm_90 only.
  EXPECT_TRUE(isModuleRunnableOn("90a", 90));
  EXPECT_FALSE(isModuleRunnableOn("90a", 89));
  EXPECT_FALSE(isModuleRunnableOn("90a", 100));
  EXPECT_FALSE(isModuleRunnableOn("90a", 120));
}

TEST(CudaDriverTest, ErrorNameTable) {
  // Codes from the CUDA documentation, written out by hand.
  EXPECT_STREQ(cudaErrorNameFromTable(0), "CUDA_SUCCESS");
  EXPECT_STREQ(cudaErrorNameFromTable(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_STREQ(cudaErrorNameFromTable(34), "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_STREQ(cudaErrorNameFromTable(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_STREQ(cudaErrorNameFromTable(218), "CUDA_ERROR_INVALID_PTX");
  EXPECT_STREQ(cudaErrorNameFromTable(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(cudaErrorNameFromTable(12345), nullptr);
}

TEST(MemoryPoolTest, Buckets) {
  EXPECT_EQ(MemoryPool::bucketSize(0), 256u);
  EXPECT_EQ(MemoryPool::bucketSize(256), 256u);
  EXPECT_EQ(MemoryPool::bucketSize(257), 384u);
  EXPECT_EQ(MemoryPool::bucketSize(384), 384u);
  EXPECT_EQ(MemoryPool::bucketSize(385), 512u);
  EXPECT_EQ(MemoryPool::bucketSize(513), 768u);
  EXPECT_EQ(MemoryPool::bucketSize(769), 1024u);
  EXPECT_EQ(MemoryPool::bucketSize(4000), 4096u);
  EXPECT_EQ(MemoryPool::bucketSize(1000000), 1048576u);
  EXPECT_EQ(MemoryPool::bucketSize(700000), 786432u);
}

TEST(MemoryPoolTest, ReusesAndTrims) {
  std::map<uint64_t, uint64_t> live; // address -> size
  uint64_t next = 0x1000;
  int failuresLeft = 0;
  MemoryPool pool(
      [&](uint64_t bytes) -> Expected<uint64_t> {
        if (failuresLeft > 0) {
          --failuresLeft;
          return Status::error(ErrorCode::Internal, "out of memory");
        }
        uint64_t address = next;
        next += 0x100000;
        live[address] = bytes;
        return address;
      },
      [&](uint64_t address) { EXPECT_EQ(live.erase(address), 1u); });

  Expected<uint64_t> a = pool.allocate(1000); // bucket 1024
  Expected<uint64_t> b = pool.allocate(300);  // bucket 384
  ASSERT_TRUE(a && b);
  EXPECT_EQ(live[*a], 1024u);
  EXPECT_EQ(live[*b], 384u);
  EXPECT_EQ(pool.stats().misses, 2u);
  pool.release(*a);
  EXPECT_EQ(pool.stats().cachedBytes, 1024u);
  // Same bucket (769..1024): the cached block comes back.
  Expected<uint64_t> c = pool.allocate(900);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, *a);
  EXPECT_EQ(pool.stats().hits, 1u);
  EXPECT_EQ(pool.stats().cachedBytes, 0u);
  EXPECT_EQ(pool.stats().liveBytes, 1024u + 384u);

  // An allocation that fails once is retried after the cache is freed.
  pool.release(*b);
  failuresLeft = 1;
  Expected<uint64_t> d = pool.allocate(5000);
  ASSERT_TRUE(d);
  EXPECT_EQ(live.count(*b), 0u); // trimmed
  // With nothing cached, a failure is returned.
  failuresLeft = 1;
  Expected<uint64_t> e = pool.allocate(5000);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.status().message(), "out of memory");
}

TEST(CudaPtxTest, TestKernelsAssemble) {
  const char *ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas)) {
    if (std::getenv("CI"))
      FAIL() << ptxas << " is missing (CI must have the CUDA toolkit)";
    GTEST_SKIP() << ptxas << " is not here";
  }
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("uta-cuda-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (const char *ptx : {kTestPtx, kTensorMapPtx, kClusterPtx}) {
    std::ofstream(dir / "test.ptx") << ptx;
    std::string command = std::string(ptxas) + " -arch=sm_90 " +
                          (dir / "test.ptx").string() + " -o " +
                          (dir / "test.cubin").string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  std::filesystem::remove_all(dir);
}

TEST(CudaDriverTest, DescribesTensorMapsInTheDriversOrder) {
  BufferDesc buffer;
  buffer.type = ElementType::kF16;
  buffer.shape = {3, 5, 8};
  int64_t box[] = {1, 4, 8};
  TensorMapEncoding encoding = describeTensorMap(buffer, box);
  EXPECT_EQ(encoding.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(encoding.rank, 3u);
  // Innermost first; strides in bytes of dimensions 1 and 2.
  EXPECT_EQ((std::vector<uint64_t>(encoding.globalDim.begin(),
                                   encoding.globalDim.begin() + 3)),
            (std::vector<uint64_t>{8, 5, 3}));
  EXPECT_EQ(encoding.globalStrides[0], 16u);
  EXPECT_EQ(encoding.globalStrides[1], 80u);
  EXPECT_EQ((std::vector<uint32_t>(encoding.boxDim.begin(),
                                   encoding.boxDim.begin() + 3)),
            (std::vector<uint32_t>{8, 4, 1}));
  EXPECT_EQ(encoding.elementStrides[0], 1u);
  EXPECT_EQ(encoding.elementStrides[2], 1u);
  EXPECT_EQ(encoding.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  buffer.type = ElementType::kBF16;
  EXPECT_EQ(describeTensorMap(buffer, box).dataType,
            CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  KernelArg arg;
  arg.kind = KernelArg::Kind::kTensorMap;
  arg.box = {1, 4, 8};
  arg.swizzle = 64;
  EXPECT_EQ(describeTensorMap(buffer, arg).swizzle, CU_TENSOR_MAP_SWIZZLE_64B);
  arg.swizzle = 128;
  EXPECT_EQ(describeTensorMap(buffer, arg).swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

/// The backend, or skips the test saying why there is none.
#define UTA_REQUIRE_CUDA(backend)                                              \
  Expected<std::unique_ptr<CudaBackend>> backend##OrError =                    \
      CudaBackend::create(BackendOptions{});                                   \
  if (!backend##OrError) {                                                     \
    ASSERT_EQ(backend##OrError.status().code(), ErrorCode::Unavailable)        \
        << backend##OrError.status().message();                                \
    GTEST_SKIP() << backend##OrError.status().message();                       \
  }                                                                            \
  CudaBackend &backend = **backend##OrError

constexpr int64_t kN = 1000;

/// b[i] = 0.25 * i - 3: exact in f32.
float constantB(int64_t i) { return 0.25f * float(i) - 3.0f; }
/// a[i] = 0.5 * (i % 37) + 1: exact in f32.
float argumentA(int64_t i) { return 0.5f * float(i % 37) + 1.0f; }

/// c = alpha * (a + b) with b a constant and a + b an intermediate: add_f32
/// (descriptor ABI, n as i64) into t, then scale_f32 (pointers, alpha f32,
/// n as i32). `scaleN` elements of c are written; `results` lists c and a.
json addScaleManifest(int64_t scaleN, float alpha) {
  json bValues = json::array();
  for (int64_t i = 0; i < kN; ++i)
    bValues.push_back(constantB(i));
  auto buffer = [](int64_t id) {
    return json{{"kind", "buffer"}, {"buffer", id}};
  };
  auto i64 = [](int64_t v) { return json{{"kind", "i64"}, {"value", v}}; };
  auto descriptor = [&](int64_t id) {
    return std::vector<json>{buffer(id), buffer(id), i64(0), i64(kN), i64(1)};
  };
  json addArgs = json::array();
  for (int64_t id : {0, 1, 2})
    for (json &arg : descriptor(id))
      addArgs.push_back(arg);
  addArgs.push_back(i64(kN));
  json scaleArgs = {buffer(2),
                    buffer(3),
                    {{"kind", "f32"}, {"value", alpha}},
                    {{"kind", "i32"}, {"value", scaleN}}};
  auto vector = [](int64_t id, const char *role) {
    return json{{"id", id},      {"role", role},    {"dtype", "f32"},
                {"shape", {kN}}, {"bytes", 4 * kN}, {"alignment", 16}};
  };
  json a = vector(0, "argument");
  a["index"] = 0;
  json b = vector(1, "constant");
  b["values"] = bValues;
  json c = vector(3, "result");
  c["index"] = 0;
  // Grid 4 x 256 threads = 1024 > 1000: the kernels' bounds checks matter.
  return json{
      {"format", "uta-manifest"},
      {"version", 1},
      {"target", "ptx"},
      {"sm", "80"},
      {"entry", "main"},
      {"module", "test.ptx"},
      {"buffers", {a, b, vector(2, "intermediate"), c}},
      {"kernels",
       {{{"name", "add"}, {"entry_point", "add_f32"}, {"args", addArgs}},
        {{"name", "scale"},
         {"entry_point", "scale_f32"},
         {"args", scaleArgs}}}},
      {"launches",
       {{{"kernel", "add"},
         {"grid", {4, 1, 1}},
         {"block", {256, 1, 1}},
         {"shared_bytes", 0}},
        {{"kernel", "scale"},
         {"grid", {4, 1, 1}},
         {"block", {256, 1, 1}},
         {"shared_bytes", 0}}}},
      {"results", {3, 0}}};
}

Manifest parse(const json &document) {
  Expected<Manifest> manifest =
      parseManifest(document.dump(), "test.json", ".");
  EXPECT_TRUE(manifest) << manifest.status().message();
  return manifest ? std::move(*manifest) : Manifest();
}

std::span<const std::byte> ptxBytes(const char *ptx) {
  return {reinterpret_cast<const std::byte *>(ptx), std::strlen(ptx)};
}

HostTensor argumentTensor() {
  std::vector<float> values(kN);
  for (int64_t i = 0; i < kN; ++i)
    values[i] = argumentA(i);
  return HostTensor::fromFloat32(ElementType::kF32, {kN}, values);
}

TEST(CudaGpuTest, RunsHandWrittenManifest) {
  UTA_REQUIRE_CUDA(backend);
  Expected<Executor> executor = Executor::load(
      backend, parse(addScaleManifest(kN, 2.0f)), ptxBytes(kTestPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor a = argumentTensor();
  Expected<RunOutput> output = executor->run({&a, 1}, RunOptions{true});
  ASSERT_TRUE(output) << output.status().message();
  ASSERT_EQ(output->results.size(), 2u);

  std::vector<float> c = output->results[0].toFloat32();
  ASSERT_EQ(c.size(), size_t(kN));
  for (int64_t i = 0; i < kN; ++i)
    // All values are small multiples of 0.25: every step is exact.
    ASSERT_EQ(c[i], 2.0f * (argumentA(i) + constantB(i))) << "at " << i;
  // The argument listed as a result comes back unchanged.
  EXPECT_EQ(output->results[1].data, a.data);

  ASSERT_EQ(output->timings.size(), 2u);
  EXPECT_EQ(output->timings[0].kernel, "add");
  EXPECT_EQ(output->timings[1].kernel, "scale");
  EXPECT_EQ(output->timings[1].launch, 1u);
  for (const KernelTiming &timing : output->timings)
    EXPECT_GE(timing.milliseconds, 0.0);

  // A second run allocates from the pool's cache.
  uint64_t hits = backend.poolStats().hits;
  Expected<RunOutput> again = executor->run({&a, 1});
  ASSERT_TRUE(again) << again.status().message();
  EXPECT_GT(backend.poolStats().hits, hits);
  EXPECT_EQ(again->results[0].data, output->results[0].data);
  EXPECT_TRUE(again->timings.empty());
}

TEST(CudaGpuTest, UnwrittenElementsAreNaN) {
  UTA_REQUIRE_CUDA(backend);
  // scale_f32 writes only the first 990 of 1000 elements.
  Expected<Executor> executor = Executor::load(
      backend, parse(addScaleManifest(990, -1.0f)), ptxBytes(kTestPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor a = argumentTensor();
  Expected<RunOutput> output = executor->run({&a, 1});
  ASSERT_TRUE(output) << output.status().message();
  std::vector<float> c = output->results[0].toFloat32();
  for (int64_t i = 0; i < 990; ++i)
    ASSERT_EQ(c[i], -(argumentA(i) + constantB(i))) << "at " << i;
  for (int64_t i = 990; i < kN; ++i)
    EXPECT_TRUE(std::isnan(c[i])) << "at " << i << ": " << c[i];
}

TEST(CudaGpuTest, ChecksArguments) {
  UTA_REQUIRE_CUDA(backend);
  Expected<Executor> executor = Executor::load(
      backend, parse(addScaleManifest(kN, 1.0f)), ptxBytes(kTestPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  std::vector<float> values(999, 1.0f);
  HostTensor wrong = HostTensor::fromFloat32(ElementType::kF32, {999}, values);
  Expected<RunOutput> output = executor->run({&wrong, 1});
  ASSERT_FALSE(output);
  EXPECT_EQ(output.status().message(),
            "argument 0: expected f32 [1000], got f32 [999]");
  output = executor->run({});
  ASSERT_FALSE(output);
  EXPECT_EQ(output.status().message(), "main takes 1 arguments, got 0");
}

TEST(CudaGpuTest, JitErrorCarriesTheLog) {
  UTA_REQUIRE_CUDA(backend);
  // Calls a function that is declared but never defined (what PTX without
  // libdevice looks like).
  const char *unlinked = R"ptx(
.version 7.8
.target sm_80
.address_size 64
.extern .func (.param .b32 r) __nv_tanhf(.param .b32 x);
.visible .entry add_f32()
{
	.reg .f32 %f<2>;
	.param .b32 x;
	.param .b32 r;
	mov.f32 %f1, 0f3F800000;
	st.param.f32 [x], %f1;
	call.uni (r), __nv_tanhf, (x);
	ret;
}
)ptx";
  Expected<Executor> executor = Executor::load(
      backend, parse(addScaleManifest(kN, 1.0f)), ptxBytes(unlinked));
  ASSERT_FALSE(executor);
  const std::string &message = executor.status().message();
  EXPECT_NE(message.find("test.json: cuModuleLoadDataEx: CUDA_ERROR_"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("JIT log: "), std::string::npos) << message;
  EXPECT_NE(message.find("__nv_tanhf"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(CudaGpuTest, ReportsBadEntryPointsAndAbi) {
  UTA_REQUIRE_CUDA(backend);
  json document = addScaleManifest(kN, 1.0f);
  document["kernels"][1]["entry_point"] = "nope";
  Expected<Executor> executor =
      Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message().rfind(
                "test.json: kernels[1] (entry point \"nope\"): "
                "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND",
                0),
            0u)
      << executor.status().message();

  if (!backend.driver().api().cuFuncGetParamInfo)
    GTEST_SKIP() << "this driver has no cuFuncGetParamInfo";
  document = addScaleManifest(kN, 1.0f);
  document["kernels"][0]["args"].erase(15); // add_f32 takes 16
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: kernels[0].args: entry point \"add_f32\" takes 16 "
            "parameters, the manifest gives 15");
  document = addScaleManifest(kN, 1.0f);
  document["kernels"][1]["args"][3]["kind"] = "i64"; // n is a .u32
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: kernels[1].args[3]: entry point \"scale_f32\" takes a "
            "4-byte parameter here, not 8");
}

TEST(CudaGpuTest, ChecksLaunchesAgainstTheDeviceBeforeLoading) {
  UTA_REQUIRE_CUDA(backend);
  // The device's limits are its attributes (the stand-in driver has an
  // H100's); every sm the manifests name has these block maxima.
  DeviceLimits limits = backend.limits();
  EXPECT_EQ(limits.maxBlock, (std::array<uint64_t, 3>{1024, 1024, 64}));
  EXPECT_EQ(limits.maxThreadsPerBlock, 1024u);
  EXPECT_GE(limits.maxGrid[0], 65535u);
  EXPECT_GT(limits.maxDynamicSharedBytes, 48u << 10);

  json document = addScaleManifest(kN, 1.0f);
  document["launches"][1]["block"] = {2048, 1, 1};
  Expected<Executor> executor =
      Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: launches[1] (scale).block: [2048, 1, 1] exceeds the "
            "device's maximum block [1024, 1024, 64]");
  document = addScaleManifest(kN, 1.0f);
  document["launches"][0]["block"] = {64, 32, 1};
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: launches[0] (add).block: [64, 32, 1] is 2048 threads, "
            "more than the device's 1024 per block");
  document = addScaleManifest(kN, 1.0f);
  document["launches"][1]["grid"] = {1, 1, limits.maxGrid[2] + 1};
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message().rfind(
                "test.json: launches[1] (scale).grid: [1, 1, " +
                    std::to_string(limits.maxGrid[2] + 1) +
                    "] exceeds the device's maximum grid [",
                0),
            0u)
      << executor.status().message();
  document = addScaleManifest(kN, 1.0f);
  document["launches"][1]["shared_bytes"] = limits.maxDynamicSharedBytes + 1;
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: launches[1] (scale).shared_bytes: " +
                std::to_string(limits.maxDynamicSharedBytes + 1) +
                " bytes of dynamic shared memory, more than the device's " +
                std::to_string(limits.maxDynamicSharedBytes));

  // What only the loaded kernel knows, checked at load too; the stand-in
  // driver's kernels are made to need it: scale_f32 takes at most 768
  // threads, and both declare 1 KiB of static shared memory, which counts
  // against the same maximum as the dynamic (the real kernels: 1024
  // threads, none).
  if (backend.deviceDescription().rfind("Fake CUDA device", 0) != 0)
    return;
  document = addScaleManifest(kN, 1.0f);
  document["launches"][1]["block"] = {1024, 1, 1};
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: launches[1] (scale): a block of 1024 threads is more "
            "than the kernel's limit of 768");
  document = addScaleManifest(kN, 1.0f);
  document["launches"][1]["shared_bytes"] = limits.maxDynamicSharedBytes;
  executor = Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.status().message(),
            "test.json: launches[1] (scale): 1024 bytes of static and " +
                std::to_string(limits.maxDynamicSharedBytes) +
                " of dynamic shared memory, more than the device's " +
                std::to_string(limits.maxDynamicSharedBytes) + " per block");
}

TEST(CudaGpuTest, OptsIntoSharedMemoryPastDefaultWithStaticCounted) {
  UTA_REQUIRE_CUDA(backend);
  // Under 48 KiB of dynamic shared memory, but over it with the stand-in
  // kernels' 1 KiB of static: the launch needs the opt-in (on a GPU, whose
  // test kernels have no static shared memory, it runs either way).
  json document = addScaleManifest(kN, 2.0f);
  document["launches"][1]["shared_bytes"] = 48 * 1024 - 512;
  Expected<Executor> executor =
      Executor::load(backend, parse(document), ptxBytes(kTestPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor a = argumentTensor();
  Expected<RunOutput> output = executor->run({&a, 1});
  ASSERT_TRUE(output) << output.status().message();
  std::vector<float> c = output->results[0].toFloat32();
  ASSERT_EQ(c.size(), size_t(kN));
  for (int64_t i = 0; i < kN; ++i)
    ASSERT_EQ(c[i], 2.0f * (argumentA(i) + constantB(i))) << "at " << i;
}

/// x [3, 5, 8] f32 (x[i] = i + 1) -> y [4, 8] through copy_box_f32.
json tensorMapManifest() {
  json x = {{"id", 0},        {"role", "argument"}, {"index", 0},
            {"dtype", "f32"}, {"shape", {3, 5, 8}}, {"bytes", 480},
            {"alignment", 16}};
  json y = {{"id", 1},        {"role", "result"}, {"index", 0},
            {"dtype", "f32"}, {"shape", {4, 8}},  {"bytes", 128},
            {"alignment", 16}};
  json args = {{{"kind", "tensor_map"}, {"buffer", 0}, {"box", {1, 4, 8}}},
               {{"kind", "buffer"}, {"buffer", 1}}};
  return json{
      {"format", "uta-manifest"},
      {"version", 1},
      {"target", "ptx"},
      {"sm", "90"},
      {"entry", "main"},
      {"module", "test.ptx"},
      {"buffers", {x, y}},
      {"kernels",
       {{{"name", "copy"}, {"entry_point", "copy_box_f32"}, {"args", args}}}},
      {"launches",
       {{{"kernel", "copy"},
         {"grid", {1, 1, 1}},
         {"block", {32, 1, 1}},
         {"shared_bytes", 0}}}},
      {"results", {1}}};
}

TEST(CudaGpuTest, PassesTensorMapsByValue) {
  UTA_REQUIRE_CUDA(backend);
  if (backend.computeCapability() < 90)
    GTEST_SKIP() << "tensor maps need sm_90";
  Expected<Executor> executor = Executor::load(
      backend, parse(tensorMapManifest()), ptxBytes(kTensorMapPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  std::vector<float> values(3 * 5 * 8);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i + 1);
  HostTensor x = HostTensor::fromFloat32(ElementType::kF32, {3, 5, 8}, values);
  Expected<RunOutput> output = executor->run({&x, 1});
  ASSERT_TRUE(output) << output.status().message();
  std::vector<float> y = output->results[0].toFloat32();
  ASSERT_EQ(y.size(), 32u);
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      // x[1, 2 + r, c]; row 5 is past the tensor's end.
      float expected = 2 + r < 5 ? values[(1 * 5 + 2 + r) * 8 + c] : 0.0f;
      EXPECT_EQ(y[r * 8 + c], expected) << "at " << r << ", " << c;
    }
}

/// x (argument) -> y (result), kN elements each, by cluster_rank_f32 on 4
/// blocks of 256 threads in clusters of 2.
json clusterManifest() {
  auto vector = [](int64_t id, const char *role) {
    return json{{"id", id},       {"role", role},  {"index", 0},
                {"dtype", "f32"}, {"shape", {kN}}, {"bytes", 4 * kN},
                {"alignment", 16}};
  };
  json args = {{{"kind", "buffer"}, {"buffer", 0}},
               {{"kind", "buffer"}, {"buffer", 1}},
               {{"kind", "i32"}, {"value", kN}}};
  return json{{"format", "uta-manifest"},
              {"version", 1},
              {"target", "ptx"},
              {"sm", "90"},
              {"entry", "main"},
              {"module", "test.ptx"},
              {"buffers", {vector(0, "argument"), vector(1, "result")}},
              {"kernels",
               {{{"name", "rank"},
                 {"entry_point", "cluster_rank_f32"},
                 {"args", args}}}},
              {"launches",
               {{{"kernel", "rank"},
                 {"grid", {4, 1, 1}},
                 {"block", {256, 1, 1}},
                 {"shared_bytes", 0},
                 {"cluster", {2, 1, 1}}}}},
              {"results", {1}}};
}

TEST(CudaGpuTest, LaunchesClusters) {
  UTA_REQUIRE_CUDA(backend);
  if (backend.computeCapability() < 90)
    GTEST_SKIP() << "thread block clusters need sm_90";
  Expected<Executor> executor =
      Executor::load(backend, parse(clusterManifest()), ptxBytes(kClusterPtx));
  ASSERT_TRUE(executor) << executor.status().message();
  HostTensor x = argumentTensor();
  Expected<RunOutput> output = executor->run({&x, 1});
  ASSERT_TRUE(output) << output.status().message();
  std::vector<float> y = output->results[0].toFloat32();
  ASSERT_EQ(y.size(), size_t(kN));
  for (int64_t i = 0; i < kN; ++i)
    // Two blocks per cluster; block i / 256 has rank (i / 256) % 2. Exact.
    ASSERT_EQ(y[i], 2.0f * argumentA(i) + float((i / 256) % 2)) << "at " << i;
}

TEST(CudaGpuTest, RejectsMissingDevices) {
  UTA_REQUIRE_CUDA(backend);
  (void)backend;
  Expected<std::unique_ptr<CudaBackend>> other =
      CudaBackend::create(BackendOptions{1000});
  ASSERT_FALSE(other);
  EXPECT_EQ(other.status().code(), ErrorCode::InvalidInput);
  EXPECT_EQ(other.status().message().rfind("device 1000 does not exist (", 0),
            0u)
      << other.status().message();
}

} // namespace
