//===- Runtime.h - Running compiled UTA graphs ------------------*- C++ -*-===//
//
// The runtime half of the UTA C++ API (docs/api.md): open a device, load a
// compiled graph on it, and run it with host buffers or device buffers. A
// compiled graph comes from uta::compile (Compiler.h) or from a manifest and
// module that `utac -o` wrote. This header and the UTA::runtime library it
// belongs to need no compiler: no MLIR or LLVM header or library.
//
//   uta::Expected<uta::Device> device = uta::Device::open("best");
//   uta::Expected<uta::Executable> exe =
//       uta::Executable::load(*device, "gelu_bias.spv.json");
//   std::vector<float> x(512 * 768), b(768), y(512 * 768);
//   uta::HostTensorView inputs[] = {{x, {512, 768}}, {b, {768}}};
//   uta::HostTensorView outputs[] = {{y, {512, 768}}};
//   uta::Status status = exe->run(inputs, outputs);
//
// Errors are values (the library is built without exceptions): functions
// return a Status or an Expected<T> (uta/Error.h), whose message is one line.
//
// Thread safety: Device, DeviceTensor and Executable are handles to shared,
// reference-counted objects; copies name the same object, which lives until
// the last handle goes. Every const method may be called from any number of
// threads at once, and one Executable may run on many threads at once (the
// backends serialize their queue submissions). A DeviceTensor's contents are
// the caller's to synchronize: two runs writing the same output race, as
// they would on any device.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_H
#define UTA_RUNTIME_H

#include "uta/Error.h"
#include "uta/Types.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace uta {

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// What a compiled module is made of; utac's --target.
enum class Target { Ptx, Spirv, Msl };

/// "ptx", "spirv", "msl".
const char *targetName(Target target);

/// The type of a graph input or output.
struct TensorType {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  /// The product of the sizes (1 for rank 0).
  int64_t numElements() const;
  size_t bytes() const { return size_t(numElements()) * dtypeSize(dtype); }
  /// "f32 [8, 1000, 61]".
  std::string str() const;
  friend bool operator==(const TensorType &, const TensorType &) = default;
};

/// A tensor in host memory that the caller owns, row-major: float for f32,
/// the raw 16-bit patterns (uint16_t) for f16 and bf16. Inputs may view
/// const data; outputs must view writable data. Cheap to copy; the data must
/// outlive the view's use.
class HostTensorView {
public:
  /// An f32 tensor viewing `data` (a std::vector<float>, std::span<float>,
  /// std::array, ...): writable unless the elements are const.
  template <std::ranges::contiguous_range Range>
  requires std::same_as < std::remove_cv_t<std::ranges::range_value_t<Range>>,
  float > HostTensorView(Range &&data, std::vector<int64_t> shape)
      : HostTensorView(DType::F32, std::ranges::data(data),
                       writableOf(std::ranges::data(data)),
                       std::ranges::size(data), std::move(shape)) {}

  /// An f16 or bf16 tensor viewing the bit patterns in `bits`.
  template <std::ranges::contiguous_range Range>
  requires std::same_as<std::remove_cv_t<std::ranges::range_value_t<Range>>,
                        uint16_t>
  HostTensorView(DType dtype, Range &&bits, std::vector<int64_t> shape)
      : HostTensorView(dtype, std::ranges::data(bits),
                       writableOf(std::ranges::data(bits)),
                       std::ranges::size(bits), std::move(shape)) {}

  TensorType type() const { return {dtype_, shape_}; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  /// Elements in the viewed memory (checked against the shape by run()).
  size_t size() const { return size_; }
  bool writable() const { return writable_ != nullptr; }

  std::span<const std::byte> bytes() const {
    return {static_cast<const std::byte *>(data_), size_ * dtypeSize(dtype_)};
  }
  /// Empty when the view is not writable.
  std::span<std::byte> writableBytes() const {
    return {static_cast<std::byte *>(writable_),
            writable_ ? size_ * dtypeSize(dtype_) : 0};
  }

private:
  HostTensorView(DType dtype, const void *data, void *writable, size_t size,
                 std::vector<int64_t> shape)
      : dtype_(dtype), shape_(std::move(shape)), data_(data),
        writable_(writable), size_(size) {}
  /// `data` when its elements may be written, else null.
  template <typename T> static void *writableOf(T *data) {
    if constexpr (std::is_const_v<T>)
      return nullptr;
    else
      return data;
  }

  DType dtype_;
  std::vector<int64_t> shape_;
  const void *data_ = nullptr;
  void *writable_ = nullptr;
  size_t size_ = 0;
};

/// float32 values rounded to f16 or bf16 bit patterns (nearest even).
std::vector<uint16_t> toHalfBits(DType dtype, std::span<const float> values);
/// f16 or bf16 bit patterns widened exactly to float32.
std::vector<float> fromHalfBits(DType dtype, std::span<const uint16_t> bits);

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

namespace detail {
struct DeviceImpl;
struct DeviceTensorImpl;
class ExecutableImpl;
/// The library's way to the implementations behind the handles.
struct Access;
} // namespace detail

class DeviceTensor;

/// A backend and the device it drives: "cuda" (an NVIDIA GPU through the
/// CUDA driver), "vulkan" (a Vulkan device: a GPU, else a CPU implementation
/// such as lavapipe) or "reference" (host memory; runs graphs in the float64
/// interpreter of the compiler library, UTA::uta).
class Device {
public:
  /// Opens `backend`: "cuda", "vulkan", "reference", or "best" (cuda where a
  /// GPU driver and device work, else vulkan). `index` picks the device
  /// (vulkan numbers GPUs first). ErrorCode::Unavailable when the backend
  /// cannot run here, in one line that says why.
  static Expected<Device> open(std::string_view backend, int index = 0);

  /// "cuda", "vulkan" or "reference".
  const std::string &backend() const;
  /// One line: "NVIDIA H100 80GB HBM3, sm_90, ...", "llvmpipe (cpu, ...)".
  std::string description() const;
  /// The target of the modules this device runs: ptx for cuda, spirv for
  /// vulkan; nullopt for reference, which runs the graph itself.
  std::optional<Target> target() const;
  /// cuda: the compute capability the device runs, as utac's --sm spells it
  /// ("90"); "" for other backends.
  const std::string &sm() const;

  /// A buffer of `type` on this device; its contents are unspecified.
  Expected<DeviceTensor> allocate(const TensorType &type) const;
  /// A tensor over memory that the caller owns, for sharing tensors without
  /// copies (the C API's DLPack exchange, docs/python.md). cuda only:
  /// `address` is a device pointer (CUdeviceptr) of this device's primary
  /// context, 16-byte aligned, holding at least type.bytes(). UTA never
  /// frees it; the caller keeps it alive while the tensor is in use.
  /// InvalidInput on vulkan and the reference, whose memory is their own.
  Expected<DeviceTensor> wrap(uint64_t address, const TensorType &type) const;
  /// cuda: the CUstream that carries this device's copies and runs, as an
  /// integer (a run waits for it before returning); 0 for other backends.
  uint64_t cudaStream() const;

private:
  friend struct detail::Access;
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<detail::DeviceImpl> impl_;
};

/// A tensor in a device's memory. Freed when the last handle goes.
class DeviceTensor {
public:
  const TensorType &type() const;
  /// cuda: the device pointer (CUdeviceptr) of the tensor's memory; 0 on
  /// other backends, whose buffers are not addressable from outside.
  uint64_t address() const;
  /// Copies `from` (same dtype and shape) into the tensor, and waits.
  Status upload(const HostTensorView &from) const;
  /// Copies the tensor into `to` (writable, same dtype and shape), and
  /// waits.
  Status download(const HostTensorView &to) const;

private:
  friend struct detail::Access;
  explicit DeviceTensor(std::shared_ptr<detail::DeviceTensorImpl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<detail::DeviceTensorImpl> impl_;
};

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

/// The GPU time of one kernel launch of a run, with what the compiler
/// counted for the launch (docs/profiling.md): its operations by unit
/// ("simt", "tf32", "3xtf32", "bf16", "f16"; a multiply-add is two) and the
/// bytes it must read and write. The counts are empty and zero where the
/// manifest has none.
struct KernelTiming {
  std::string kernel;
  double milliseconds = 0.0;
  /// The launch's position in the run.
  size_t launch = 0;
  std::vector<std::pair<std::string, int64_t>> flops;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  /// The GEMM engine's table row the kernel runs (the manifest's
  /// launches[].plan); empty for kernels off the engine.
  std::string plan;
};

struct RunOptions {
  /// Fill the outputs (and intermediates) with NaN before the kernels run,
  /// so an element no kernel writes reads back as NaN rather than as a
  /// plausible stale value. Costs one copy per output.
  bool poisonOutputs = true;
  /// Where to append each launch's GPU time, from the end of the launch
  /// before it (the run's start, after the L2 was flushed on CUDA), so the
  /// times add up to the run's; null: not measured.
  std::vector<KernelTiming> *timings = nullptr;
  /// cuda, runs on device tensors: a CUstream (as an integer; 0 is the
  /// legacy default stream) of the device's primary context to queue the
  /// launches on. The run
  /// returns without waiting; the caller orders its inputs before and its
  /// reads of the outputs after on that stream, as for any of its own
  /// kernels, and keeps the tensors alive until then. Such a run can
  /// neither poison nor time (both wait): set poisonOutputs to false and
  /// leave timings null, or the run is refused. It takes its intermediates
  /// from the workspace below: this is how a framework runs UTA inside its
  /// own stream order, its own memory and CUDA-graph capture.
  std::optional<uint64_t> cudaStream;
  /// With cudaStream: the device address and size of memory that holds the
  /// run's intermediates, at least Executable::workspaceBytes() bytes,
  /// aligned to Executable::workspaceAlignment(); unused while the run's
  /// launches are queued.
  uint64_t workspaceAddress = 0;
  uint64_t workspaceBytes = 0;
};

/// A compiled graph loaded on a device, ready to run any number of times,
/// from any number of threads at once.
class Executable {
public:
  /// Loads the manifest at `manifestPath` (written by `utac -o OUT`, at
  /// OUT.json) and the module it names, next to it, on `device` (cuda for
  /// ptx, vulkan for spirv).
  static Expected<Executable> load(const Device &device,
                                   const std::string &manifestPath);
  /// The same, with the manifest's JSON text and the module's bytes at hand.
  static Expected<Executable> load(const Device &device,
                                   std::string_view manifest,
                                   std::span<const std::byte> module);

  /// The graph's function name.
  const std::string &name() const;
  const std::vector<TensorType> &inputs() const;
  const std::vector<TensorType> &outputs() const;
  const Device &device() const;
  /// The device memory a run on a caller's stream (RunOptions::cudaStream)
  /// needs for its intermediates, and the alignment of its start; 0 and 1
  /// where the graph has none.
  uint64_t workspaceBytes() const;
  uint64_t workspaceAlignment() const;

  /// Runs the graph on host memory: one view per input and per output, in
  /// order, each of exactly the declared dtype and shape (outputs writable).
  /// Returns once the outputs are written.
  Status run(std::span<const HostTensorView> inputs,
             std::span<const HostTensorView> outputs,
             const RunOptions &options = {}) const;
  /// Runs the graph on tensors of this executable's device, which stay
  /// there: no host copies. An output may not be an input's tensor.
  Status run(std::span<const DeviceTensor> inputs,
             std::span<const DeviceTensor> outputs,
             const RunOptions &options = {}) const;

private:
  friend struct detail::Access;
  Executable(Device device, std::shared_ptr<detail::ExecutableImpl> impl)
      : device_(std::move(device)), impl_(std::move(impl)) {}
  Device device_;
  std::shared_ptr<detail::ExecutableImpl> impl_;
};

/// The profile of several runs of one executable on `device`, each run's
/// timings as RunOptions::timings collected them, as JSON text
/// (docs/profiling.md, format "uta-profile", what `uta-run --profile-json`
/// writes): per launch its kernel, its median time over the runs and the
/// counts with the rates they make, and the median of the runs' totals.
std::string formatProfile(const Device &device,
                          std::span<const std::vector<KernelTiming>> runs);

//===----------------------------------------------------------------------===//
// Checking results
//===----------------------------------------------------------------------===//

/// Fills `values` with seeded standard-normal numbers, never zero: stream
/// `stream` of seed `seed` of the generator of docs/random-inputs.md, the
/// same bits as argument `stream` of `utac run --seed=SEED` (rounded to
/// float32).
void fillNormal(std::span<float> values, uint64_t seed, uint64_t stream = 0);

/// The tolerance of `utac run --check` for a result of `dtype`: f32 1e-5, or
/// 1e-4 when the graph reduces (matmul, reductions, norms, clifford products);
/// f16 and bf16 1e-2.
/// With `fastMath` (a graph compiled with CompileOptions::fastMath), f32 is
/// checked at 2e-3.
double defaultTolerance(DType dtype, bool reduces, bool fastMath = false);

/// What comparing a result with its reference found (as `utac run --check`).
struct Comparison {
  bool passed = false;
  /// ||out - ref|| / ||ref|| (absolute when ||ref|| = 0).
  double relL2 = 0;
  /// The largest elementwise error, relative to max(|ref_i|, rms(ref)).
  double maxRel = 0;
  /// Non-finite output elements (an unwritten, poisoned element is one).
  int64_t nonFinite = 0;
  /// One line: "y: rel_l2 3.1e-08 max_rel 2.4e-07 at [3, 17] (tol 1e-05) ok".
  std::string report;
};

/// Compares `out` with `ref` (same element count as `shape`): passes when
/// every output is finite and both errors are within `tolerance`.
Comparison compare(std::string_view name, std::span<const float> out,
                   std::span<const float> ref, std::span<const int64_t> shape,
                   double tolerance);

} // namespace uta

#endif // UTA_RUNTIME_H
