//===- ManifestWriter.cpp - The manifest of a compiled graph --------------===//

#include "lib/Compiler/ManifestWriter.h"
#include "lib/Compiler/Stats.h"

#include "dialects/Interfaces/KernelOpInterface.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

#include <nlohmann/json.hpp>

#include <utility>

using namespace mlir;
using namespace mlir::uta;
using json = nlohmann::ordered_json;

/// The manifest's name of an element type.
static StringRef getDTypeName(Type type) {
  if (type.isF32())
    return "f32";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  return "";
}

namespace {
/// Assigns buffer ids in order of appearance and records each buffer.
class ManifestBuilder {
public:
  explicit ManifestBuilder(func::FuncOp host) : host(host) {}

  FailureOr<json> build(const ManifestTarget &target);

private:
  /// The manifest entry of `buffer`, or an error located at it where it is
  /// not a buffer the runtime can allocate.
  FailureOr<json> describeBuffer(Value buffer, StringRef role);
  LogicalResult addLaunch(gpu::LaunchFuncOp launch,
                          const TargetKernel *targetKernel);
  /// Records a gpu.memset of zero, which the next launch's `zero` lists.
  LogicalResult addZeroing(gpu::MemsetOp memset);
  FailureOr<json> describeKernelArgs(gpu::LaunchFuncOp launch,
                                     const TargetKernel *targetKernel);

  func::FuncOp host;
  llvm::DenseMap<Value, unsigned> bufferIds;
  json buffers = json::array(), kernels = json::array(),
       launches = json::array();
  /// Each kernel's `args`: those of its first launch.
  llvm::StringMap<json> kernelArgs;
  /// Whether a launch passes other arguments than its kernel's first launch
  /// (a kernel launched on several buffers): version 2.
  bool launchesHaveArgs = false;
  /// The buffers zeroed since the last launch, and the last such memset.
  json zeroed = json::array();
  gpu::MemsetOp pendingZeroing;
};
} // namespace

FailureOr<json> ManifestBuilder::describeBuffer(Value buffer, StringRef role) {
  // An error about `buffer`: at the host function for an argument, else at
  // the op that makes it.
  auto bufferError = [&]() -> InFlightDiagnostic {
    if (auto argument = dyn_cast<BlockArgument>(buffer))
      return host.emitOpError("argument ") << argument.getArgNumber() << " ";
    return buffer.getDefiningOp()->emitOpError("");
  };
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() ||
      getDTypeName(type.getElementType()).empty())
    return bufferError() << "has type " << buffer.getType()
                         << ": a launch sequence's buffers are memrefs of "
                            "static shape of f32, f16 or bf16";
  // An argument that no op reads was never checked by a verifier.
  int64_t bytes = 0;
  std::optional<int64_t> count = getElementCount(type.getShape());
  if (!count || __builtin_mul_overflow(
                    *count, int64_t(type.getElementTypeBitWidth() / 8), &bytes))
    return bufferError() << "has type " << buffer.getType()
                         << ", more bytes than an int64 holds";
  unsigned id = bufferIds.size();
  bufferIds[buffer] = id;
  return json{{"id", id},
              {"role", role.str()},
              {"dtype", getDTypeName(type.getElementType()).str()},
              {"shape", type.getShape().vec()},
              {"bytes", bytes},
              {"alignment", 16}};
}

/// What a target adds to an argument: its SPIR-V binding or MSL buffer index.
static void addSlot(json &arg, const KernelArgSlot &slot) {
  if (slot.binding)
    arg["binding"] = {{"set", slot.binding->first},
                      {"binding", slot.binding->second}};
  if (slot.bufferIndex)
    arg["buffer_index"] = *slot.bufferIndex;
}

FailureOr<json>
ManifestBuilder::describeKernelArgs(gpu::LaunchFuncOp launch,
                                    const TargetKernel *targetKernel) {
  if (targetKernel &&
      targetKernel->args.size() != launch.getKernelOperands().size())
    return launch.emitOpError("passes ")
           << launch.getKernelOperands().size()
           << " arguments, the target module's kernel takes "
           << targetKernel->args.size();
  // Tensor-map arguments: the runtime encodes a descriptor of the source
  // argument's buffer.
  llvm::DenseMap<unsigned, TensorMapAttr> tensorMaps;
  if (auto maps =
          launch->getAttrOfType<ArrayAttr>(UTADialect::getTensorMapsAttrName()))
    for (Attribute attr : maps) {
      auto map = dyn_cast<TensorMapAttr>(attr);
      if (!map || map.getArgument() >= launch.getNumKernelOperands() ||
          map.getSource() >= launch.getNumKernelOperands() ||
          !bufferIds.count(launch.getKernelOperand(map.getSource())))
        return launch.emitOpError("has a tensor map ")
               << attr << " that does not name a buffer argument";
      tensorMaps[map.getArgument()] = map;
    }
  json args = json::array();
  for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
    json arg;
    if (TensorMapAttr map = tensorMaps.lookup(i)) {
      arg = {{"kind", "tensor_map"},
             {"buffer", bufferIds.at(launch.getKernelOperand(map.getSource()))},
             {"box", map.getBox().vec()}};
      if (map.getSwizzle())
        arg["swizzle"] = map.getSwizzle();
    } else if (isa<MemRefType>(operand.getType())) {
      auto it = bufferIds.find(operand);
      if (it == bufferIds.end())
        return launch.emitOpError("passes a buffer the manifest cannot name");
      arg = {{"kind", "buffer"}, {"buffer", it->second}};
    } else {
      APInt value;
      if (!matchPattern(operand, m_ConstantInt(&value)) ||
          !operand.getType().isInteger(32))
        return launch.emitOpError("kernel scalar arguments must be i32 "
                                  "constants");
      arg = {{"kind", "i32"}, {"value", value.getSExtValue()}};
    }
    if (targetKernel)
      addSlot(arg, targetKernel->args[i]);
    args.push_back(std::move(arg));
  }
  return args;
}

LogicalResult ManifestBuilder::addLaunch(gpu::LaunchFuncOp launch,
                                         const TargetKernel *targetKernel) {
  StringRef name = launch.getKernelName().getValue();
  FailureOr<json> args = describeKernelArgs(launch, targetKernel);
  if (failed(args))
    return failure();
  auto [known, added] = kernelArgs.try_emplace(name, *args);
  if (added) {
    std::string entryPoint =
        targetKernel ? targetKernel->entryPoint : name.str();
    kernels.push_back(
        {{"name", name.str()}, {"entry_point", entryPoint}, {"args", *args}});
  }
  auto dims = [&](gpu::KernelDim3 dim3) -> FailureOr<json> {
    json sizes = json::array();
    for (Value v : {dim3.x, dim3.y, dim3.z}) {
      APInt size;
      if (!matchPattern(v, m_ConstantInt(&size)))
        return failure();
      sizes.push_back(size.getSExtValue());
    }
    return sizes;
  };
  FailureOr<json> grid = dims(launch.getGridSizeOperandValues());
  FailureOr<json> block = dims(launch.getBlockSizeOperandValues());
  if (failed(grid) || failed(block))
    return launch.emitOpError("grid and block sizes must be constants");
  int64_t sharedBytes = 0;
  if (Value shared = launch.getDynamicSharedMemorySize()) {
    APInt size;
    if (!matchPattern(shared, m_ConstantInt(&size)))
      return launch.emitOpError("dynamic shared memory size must be constant");
    sharedBytes = size.getSExtValue();
  }
  KernelStats stats = getLaunchStats(launch);
  json flops = json::object();
  for (const auto &[unit, count] : stats.flops)
    flops[unit] = count;
  launches.push_back({{"kernel", name.str()},
                      {"grid", *grid},
                      {"block", *block},
                      {"shared_bytes", sharedBytes}});
  if (launch.hasClusterSize()) {
    FailureOr<json> sizes = dims(launch.getClusterSizeOperandValues());
    if (failed(sizes))
      return launch.emitOpError("cluster sizes must be constants");
    launches.back()["cluster"] = *sizes;
  }
  if (!zeroed.empty())
    launches.back()["zero"] = std::exchange(zeroed, json::array());
  if (known->second != *args) {
    launches.back()["args"] = std::move(*args);
    launchesHaveArgs = true;
  }
  launches.back()["cost"] = {{"flops", std::move(flops)},
                             {"bytes_read", stats.bytesRead},
                             {"bytes_written", stats.bytesWritten}};
  if (auto pairs = launch->getAttrOfType<DenseI64ArrayAttr>(
          UTADialect::getInPlaceAttrName())) {
    ArrayRef<int64_t> numbers = pairs.asArrayRef();
    json inPlace = json::array();
    for (size_t i = 0; i + 1 < numbers.size(); i += 2) {
      if (numbers[i] < 0 || numbers[i + 1] < 0 ||
          std::max(numbers[i], numbers[i + 1]) >=
              int64_t(launch.getNumKernelOperands()))
        return launch.emitOpError("has an in-place pair past its operands");
      auto input = bufferIds.find(launch.getKernelOperand(numbers[i]));
      auto output = bufferIds.find(launch.getKernelOperand(numbers[i + 1]));
      if (input != bufferIds.end() && output != bufferIds.end())
        inPlace.push_back({input->second, output->second});
    }
    if (!inPlace.empty())
      launches.back()["in_place"] = std::move(inPlace);
  }
  if (auto plan = launch->getAttrOfType<GemmPlanAttr>(
          UTADialect::getGemmPlanAttrName())) {
    json &entry = launches.back()["plan"];
    if (std::optional<StringRef> row = getGemmConfigName(plan))
      entry["row"] = row->str();
    entry["schedule"] = plan.getSchedule().str();
    entry["tile"] = plan.getTile();
    entry["warps"] = plan.getWarps();
    entry["stages"] = plan.getStages();
    entry["b_stages"] = plan.getBStages();
    entry["precision"] = plan.getPrecision().str();
  }
  pendingZeroing = nullptr;
  return success();
}

LogicalResult ManifestBuilder::addZeroing(gpu::MemsetOp memset) {
  APFloat value(0.0f);
  auto alloc = memset.getDst().getDefiningOp<memref::AllocOp>();
  if (memset.getAsyncToken() || !memset.getAsyncDependencies().empty() ||
      !matchPattern(memset.getValue(), m_ConstantFloat(&value)) ||
      !value.isPosZero() || !alloc || !bufferIds.count(alloc))
    return memset.emitOpError("cannot be expressed in a launch sequence: "
                              "only a synchronous fill of an intermediate "
                              "with +0.0 before a launch is");
  zeroed.push_back(bufferIds.lookup(alloc));
  pendingZeroing = memset;
  return success();
}

FailureOr<json> ManifestBuilder::build(const ManifestTarget &target) {
  for (auto [index, arg] : llvm::enumerate(host.getArguments())) {
    FailureOr<json> buffer = describeBuffer(arg, "argument");
    if (failed(buffer))
      return failure();
    (*buffer)["index"] = index;
    buffers.push_back(std::move(*buffer));
  }
  auto returnOp = cast<func::ReturnOp>(host.getBody().front().getTerminator());
  auto resultIndex = [&](Value v) -> std::optional<unsigned> {
    for (auto [i, operand] : llvm::enumerate(returnOp.getOperands()))
      if (operand == v)
        return i;
    return std::nullopt;
  };

  auto module = host->getParentOfType<ModuleOp>();
  for (Operation &op : host.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<unsigned> index = resultIndex(alloc);
      FailureOr<json> buffer =
          describeBuffer(alloc, index ? "result" : "intermediate");
      if (failed(buffer))
        return failure();
      if (index)
        (*buffer)["index"] = *index;
      buffers.push_back(std::move(*buffer));
    } else if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          module, get.getNameAttr());
      auto value = global ? dyn_cast_or_null<DenseElementsAttr>(
                                global.getInitialValueAttr())
                          : DenseElementsAttr();
      if (!value)
        return get.emitOpError("names no constant with a dense value");
      FailureOr<json> buffer = describeBuffer(get, "constant");
      if (failed(buffer))
        return failure();
      json values = json::array();
      for (const APFloat &element : value.getValues<APFloat>())
        values.push_back(element.convertToDouble());
      (*buffer)["values"] = std::move(values);
      buffers.push_back(std::move(*buffer));
    } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      const TargetKernel *targetKernel = nullptr;
      if (target.kernels) {
        auto it = target.kernels->find(launch.getKernelName().getValue());
        if (it != target.kernels->end())
          targetKernel = &it->second;
      }
      if (failed(addLaunch(launch, targetKernel)))
        return failure();
    } else if (auto view = dyn_cast<memref::ReinterpretCastOp>(op)) {
      // A reshape between kernels (convert-uta-to-gpu): the same bytes as
      // the buffer it views, which the launches that read it are given.
      auto source = bufferIds.find(view.getSource());
      if (source == bufferIds.end())
        return view.emitOpError("views a value the manifest cannot name");
      unsigned id = source->second;
      bufferIds[view.getResult()] = id;
    } else if (auto memset = dyn_cast<gpu::MemsetOp>(op)) {
      if (failed(addZeroing(memset)))
        return failure();
    } else if (!isa<func::ReturnOp, arith::ConstantOp, LLVM::ZeroOp>(op)) {
      // (llvm.mlir.zero: the placeholder of a tensor-map argument.)
      return op.emitOpError("cannot be expressed in a launch sequence");
    }
  }

  if (pendingZeroing)
    return pendingZeroing.emitOpError("is followed by no launch");
  json results = json::array();
  for (Value v : returnOp.getOperands())
    results.push_back(bufferIds.lookup(v));

  // Version 1 where it says everything, so that its readers still run it.
  json manifest{{"format", "uta-manifest"},
                {"version", launchesHaveArgs ? 2 : 1},
                {"target", target.target}};
  if (!target.sm.empty())
    manifest["sm"] = target.sm;
  manifest["entry"] = host.getName().str();
  manifest["module"] = target.moduleFileName;
  manifest["buffers"] = std::move(buffers);
  manifest["kernels"] = std::move(kernels);
  manifest["launches"] = std::move(launches);
  manifest["results"] = std::move(results);
  return manifest;
}

FailureOr<std::string> mlir::uta::writeManifest(func::FuncOp host,
                                                const ManifestTarget &target) {
  FailureOr<json> manifest = ManifestBuilder(host).build(target);
  if (failed(manifest))
    return failure();
  return manifest->dump(2) + "\n";
}
