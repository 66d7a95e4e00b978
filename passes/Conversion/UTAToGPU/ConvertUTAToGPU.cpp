//===- ConvertUTAToGPU.cpp - Outline uta ops into GPU kernels -------------===//
//
// Rewrites each public function over tensors into a host function over
// statically shaped memrefs that allocates buffers and launches one kernel
// per op (gpu.launch_func), with the kernels in `gpu.module @kernels`. The
// host function is what utac turns into the manifest's launch sequence.
// With `vectorize`, kernels whose root and fused producers allow it give each
// thread 4 consecutive points and vector memory accesses (VectorAccess.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "passes/Analysis/IdenticalKernels.h"
#include "passes/Analysis/InPlaceInputs.h"
#include "passes/Conversion/UTAToGPU/FcProduct/FcProductPlan.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::uta {
#define GEN_PASS_DEF_CONVERTUTATOGPUPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The symbol of the module that holds every kernel.
constexpr StringLiteral kKernelModuleName = "kernels";

/// Where the tensors a kernel reads live: kernel buffer arguments, or the
/// fused producers that recompute them.
struct KernelContext {
  /// Tensor value read by the kernel -> its buffer argument.
  IRMapping buffers;
  /// The kernel's result buffers, one per result of its op.
  SmallVector<Value, 1> results;
  const KernelEmitterRegistry &emitters;
  /// The kernel, which holds the workgroup buffers.
  gpu::GPUFuncOp kernel;
  /// The open access group, whose vector accesses serve buffer reads and
  /// writes (VectorAccess.h).
  std::optional<VectorAccessGroup> group = std::nullopt;
  /// Values the kernel's anchor computed at the point being emitted (its
  /// f32 result element, for the epilogue that reads it).
  llvm::DenseMap<Value, Value> computed{};
  /// Whether workgroup buffers are carved from the launch's dynamic shared
  /// memory (CUDA, where static shared memory stops at 48 KiB) rather than
  /// declared as the kernel's workgroup attributions.
  bool dynamicShared = false;
  /// The kernel's dynamic shared memory (gpu.dynamic_shared_memory), the
  /// last view of it (views are made in allocation order) and the bytes its
  /// buffers take so far.
  Value sharedBase = nullptr, lastSharedView = nullptr;
  int64_t sharedBytes = 0;
  /// The kernel arguments of allocateGlobalBuffer's buffers, and whether
  /// each is zeroed before the launch.
  llvm::SmallDenseMap<unsigned, bool> globalArguments{};
};

/// Offsets of buffers in dynamic shared memory are multiples of this: what
/// 16-byte copies and the swizzled tiles need, with room to spare.
constexpr int64_t kSharedBufferAlignment = 128;

/// Splat constants up to this size are data in the manifest; larger ones
/// are filled by a kernel.
constexpr int64_t kMaxSplatDataBytes = 64 * 1024;

/// A recomputed f32 value rounded to `elementType` and widened back, exactly
/// as a stored and reloaded intermediate would be.
static Value roundLikeStored(OpBuilder &b, Location loc, Value value,
                             Type elementType) {
  if (elementType.isF32())
    return value;
  Value rounded = arith::TruncFOp::create(b, loc, elementType, value);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), rounded);
}

/// blades[index] for an index known only at run time: a chain of selects.
static Value selectBlade(OpBuilder &b, Location loc, ArrayRef<Value> blades,
                         Value index) {
  if (std::optional<int64_t> known = getConstantIntValue(index))
    return blades[*known];
  Value result = blades.front();
  for (auto [blade, value] : llvm::enumerate(blades.drop_front())) {
    Value is = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, index,
        arith::ConstantIndexOp::create(b, loc, blade + 1));
    result = arith::SelectOp::create(b, loc, is, value, result);
  }
  return result;
}

/// Reads the operands of one op of a kernel and writes the kernel's result.
/// An operand with a buffer is loaded (f16/bf16 widened to f32); one computed
/// by a fused producer is recomputed where it is read, rounded to the
/// producer's element type exactly as a stored intermediate would be: element
/// by element (emitElement), or a multivector at a time (emitBlades) when the
/// reader asks for every blade of a position (readBlades) or the producer
/// can only be computed that way.
class KernelOperandIO final : public KernelIO {
public:
  KernelOperandIO(Operation *op, KernelContext &context)
      : op(op), context(context) {}

  Value read(OpBuilder &b, Location loc, unsigned operand,
             ValueRange indices) override {
    Value value = op->getOperand(operand);
    if (Value element = context.computed.lookup(value))
      return roundLikeStored(b, loc, element, getElementTypeOf(value));
    if (Value buffer = context.buffers.lookupOrNull(value)) {
      Value element;
      if (context.group)
        element = context.group->read(b, loc, buffer, indices);
      if (!element)
        element = memref::LoadOp::create(b, loc, buffer, indices);
      if (element.getType().isF32())
        return element;
      return arith::ExtFOp::create(b, loc, b.getF32Type(), element);
    }
    // FunctionLowering checked that every fused producer can be computed
    // element by element or a multivector at a time.
    Operation *producer = value.getDefiningOp();
    const OpKernelEmitter *emitter = context.emitters.lookup(producer);
    KernelOperandIO producerIO(producer, context);
    Value element;
    if (emitter->isElementComputable()) {
      element = *emitter->emitElement(b, producer, indices, producerIO);
    } else {
      int64_t axis = *emitter->getBladeComputableAxis(producer);
      SmallVector<Value> other(indices);
      other.erase(other.begin() + axis);
      SmallVector<Value> blades =
          *emitter->emitBlades(b, producer, other, producerIO);
      element = selectBlade(b, loc, blades, indices[axis]);
    }
    return roundLikeStored(b, loc, element, getElementTypeOf(value));
  }

  std::optional<SmallVector<Value>> readBlades(OpBuilder &b, Location loc,
                                               unsigned operand,
                                               ValueRange otherIndices,
                                               int64_t bladeAxis) override {
    Value value = op->getOperand(operand);
    if (context.buffers.contains(value))
      return std::nullopt;
    Operation *producer = value.getDefiningOp();
    const OpKernelEmitter *emitter = context.emitters.lookup(producer);
    if (emitter->getBladeComputableAxis(producer) != bladeAxis)
      return std::nullopt;
    KernelOperandIO producerIO(producer, context);
    SmallVector<Value> blades =
        *emitter->emitBlades(b, producer, otherIndices, producerIO);
    for (Value &blade : blades)
      blade = roundLikeStored(b, loc, blade, getElementTypeOf(value));
    return blades;
  }

  void write(OpBuilder &b, Location loc, unsigned result, ValueRange indices,
             Value value) override {
    Value buffer = context.results[result];
    Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
    if (elementType != value.getType())
      value = arith::TruncFOp::create(b, loc, elementType, value);
    if (context.group && context.group->write(b, loc, buffer, indices, value))
      return;
    memref::StoreOp::create(b, loc, value, buffer, indices);
  }

  Value allocateWorkgroupBuffer(OpBuilder &b, Location loc,
                                int64_t count) override {
    return allocateWorkgroupBuffer(b, loc, {count}, b.getF32Type(),
                                   kSharedBufferAlignment);
  }

  Value allocateWorkgroupBuffer(OpBuilder &b, Location loc,
                                ArrayRef<int64_t> shape, Type elementType,
                                int64_t alignment) override {
    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    auto type = MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                                workgroup);
    gpu::GPUFuncOp kernel = context.kernel;
    if (!context.dynamicShared)
      return kernel.addWorkgroupAttribution(type, loc);
    // A view of the dynamic shared memory at the next aligned offset, made
    // at the kernel's entry so that it dominates every use.
    OpBuilder::InsertionGuard guard(b);
    if (context.lastSharedView) {
      b.setInsertionPointAfterValue(context.lastSharedView);
    } else {
      b.setInsertionPointToStart(&kernel.getBody().front());
      auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                       MemRefLayoutAttrInterface(), workgroup);
      context.sharedBase =
          gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    }
    int64_t offset = llvm::alignTo(context.sharedBytes,
                                   std::max(alignment, kSharedBufferAlignment));
    context.sharedBytes = offset + type.getNumElements() *
                                       elementType.getIntOrFloatBitWidth() / 8;
    Value byteOffset = arith::ConstantIndexOp::create(b, loc, offset);
    context.lastSharedView = memref::ViewOp::create(
        b, loc, type, context.sharedBase, byteOffset, ValueRange{});
    return context.lastSharedView;
  }

  Value aliasWorkgroupBuffer(OpBuilder &b, Location loc, Value buffer,
                             ArrayRef<int64_t> shape,
                             Type elementType) override {
    auto view = buffer.getDefiningOp<memref::ViewOp>();
    if (!view || view.getSource() != context.sharedBase)
      return nullptr;
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    auto type = MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(),
                                view.getType().getMemorySpace());
    if (!offset || *offset + type.getNumElements() *
                                 elementType.getIntOrFloatBitWidth() / 8 >
                       context.sharedBytes)
      return nullptr;
    return memref::ViewOp::create(b, loc, type, context.sharedBase,
                                  view.getByteShift(), ValueRange{});
  }

  Value getOperandBuffer(unsigned operand) override {
    return context.buffers.lookupOrNull(op->getOperand(operand));
  }

  Value allocateGlobalBuffer(OpBuilder &b, Location loc, int64_t count,
                             bool zeroed) override {
    gpu::GPUFuncOp kernel = context.kernel;
    unsigned argument = kernel.getNumArguments();
    (void)kernel.insertArgument(argument,
                                MemRefType::get({count}, b.getF32Type()),
                                DictionaryAttr(), loc);
    context.globalArguments[argument] = zeroed;
    return kernel.getArgument(argument);
  }

  Value getOperandTensorMap(unsigned operand, ArrayRef<int64_t> box,
                            unsigned swizzle) override {
    auto source = dyn_cast_or_null<BlockArgument>(getOperandBuffer(operand));
    gpu::GPUFuncOp kernel = context.kernel;
    if (!source || source.getOwner() != &kernel.getBody().front())
      return nullptr;
    MLIRContext *ctx = kernel.getContext();
    unsigned argument = kernel.getNumArguments();
    (void)kernel.insertArgument(argument, LLVM::LLVMPointerType::get(ctx),
                                DictionaryAttr(), kernel.getLoc());
    StringRef name = UTADialect::getTensorMapsAttrName();
    SmallVector<Attribute> maps;
    if (auto existing = kernel->getAttrOfType<ArrayAttr>(name))
      maps.assign(existing.begin(), existing.end());
    maps.push_back(
        TensorMapAttr::get(ctx, argument, source.getArgNumber(), box, swizzle));
    kernel->setAttr(name, ArrayAttr::get(ctx, maps));
    return kernel.getArgument(argument);
  }

  bool setClusterBlocks(int64_t blocks) override {
    context.kernel.setKnownClusterSizeAttr(DenseI32ArrayAttr::get(
        context.kernel.getContext(), {static_cast<int32_t>(blocks), 1, 1}));
    return true;
  }

  void beginAccessGroup(OpBuilder &b, const AccessLanes &lanes) override {
    assert(!context.group && "access groups do not nest");
    context.group.emplace(b.getInsertionBlock(), lanes);
  }

  void setLane(unsigned lane) override {
    assert(context.group && "no access group is open");
    context.group->setLane(lane);
  }

  void endAccessGroup(OpBuilder &b, Location loc) override {
    assert(context.group && "no access group is open");
    context.group->finish(b, loc);
    context.group.reset();
  }

private:
  static Type getElementTypeOf(Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  }

  Operation *op;
  KernelContext &context;
};

MemRefType getBufferType(Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// `uta.flops` of a launch: the counts by unit, those that are not zero.
DictionaryAttr getFlopsAttr(MLIRContext *context, const KernelFlops &flops) {
  Builder b(context);
  SmallVector<NamedAttribute, 2> counts;
  if (flops.simt)
    counts.push_back(b.getNamedAttr("simt", b.getI64IntegerAttr(flops.simt)));
  if (flops.tensor)
    counts.push_back(b.getNamedAttr(flops.tensorPrecision,
                                    b.getI64IntegerAttr(flops.tensor)));
  return b.getDictionaryAttr(counts);
}

/// Lowers one function; kernels are appended to `kernelModule`.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, gpu::GPUModuleOp kernelModule,
                   IdenticalKernels &identicalKernels,
                   const KernelEmitterRegistry &emitters, unsigned blockSize,
                   bool vectorize, const GemmTarget &target, bool remarks)
      : func(func), kernelModule(kernelModule),
        identicalKernels(identicalKernels), emitters(emitters),
        blockSize(blockSize), vectorize(vectorize), target(target),
        remarks(remarks) {}

  LogicalResult run();

private:
  LogicalResult lowerConstant(OpBuilder &b, arith::ConstantOp constant);
  /// Maps a reshape between kernels to a view of its operand's buffer (both
  /// row-major: the same bytes), so that it costs no kernel and no copy;
  /// false for one the function returns, whose result needs a buffer of its
  /// own (lowerResults), which its kernel then copies into.
  bool lowerAsView(OpBuilder &b, ReshapeOp reshape);
  /// Lowers a value made in the tensor function by `make` (built before
  /// `before`) as a kernel of its own and returns its buffer: how a large
  /// splat is filled and a result is copied.
  FailureOr<Value>
  lowerSyntheticKernel(OpBuilder &b, Operation *before,
                       function_ref<Operation *(OpBuilder &)> make);
  /// The buffers `ret` returns, each a result buffer of its own: a result
  /// that is an argument, a constant or another result is copied, so that a
  /// caller's result buffers never alias its inputs or each other.
  FailureOr<SmallVector<Value>> lowerResults(OpBuilder &b, func::ReturnOp ret);
  /// Lowers `kernelOp` (a single op, or a uta.fusion) to a kernel that
  /// reads `inputs` and writes the value of `root`.
  /// With `gradeNorm` (a grade_rms_norm of the single op `kernelOp`, see
  /// OpKernelEmitter::canApplyGradeNorm) the kernel writes the norm's value.
  LogicalResult lowerKernel(OpBuilder &b, Operation *kernelOp, Operation *root,
                            ValueRange inputs, ValueRange inputsInKernel,
                            Operation *gradeNorm = nullptr);
  /// The arithmetic of the kernel of `kernelOp` (its ops' counts summed).
  KernelFlops countKernelFlops(Operation *kernelOp) const;
  /// The GEMM plan the kernel of `kernelOp` runs (its op on the engine, or
  /// that of the fusion region); null for kernels off the engine.
  GemmPlanAttr getKernelGemmPlan(Operation *kernelOp) const;
  /// Builds the kernel; `sharedBytes` gets the dynamic shared memory its
  /// launches need, `globalArguments` its global buffer arguments (whether
  /// each is zeroed, see KernelIO::allocateGlobalBuffer).
  FailureOr<gpu::GPUFuncOp>
  buildKernel(Operation *kernelOp, Operation *root, Operation *anchor,
              ValueRange inputs, ValueRange inputsInKernel,
              int64_t kernelBlockSize, bool cooperative, bool vectorized,
              Operation *gradeNorm, int64_t &sharedBytes,
              llvm::SmallDenseMap<unsigned, bool> &globalArguments);

  func::FuncOp func;
  gpu::GPUModuleOp kernelModule;
  /// The kernels of `kernelModule`, the first of each kind.
  IdenticalKernels &identicalKernels;
  const KernelEmitterRegistry &emitters;
  unsigned blockSize;
  bool vectorize;
  /// The target: CUDA (sm != 0) kernels take their workgroup buffers from
  /// dynamic shared memory, up to the architecture's limit.
  GemmTarget target;
  /// Report each kernel that is the same as one made before.
  bool remarks;
  IRMapping buffers;
  /// Ops whose value another op's kernel computes (a grade norm).
  llvm::SmallPtrSet<Operation *, 4> absorbed;
  unsigned kernelCount = 0, constantCount = 0;
};

} // namespace

bool FunctionLowering::lowerAsView(OpBuilder &b, ReshapeOp reshape) {
  Value result = reshape.getResult();
  if (llvm::any_of(result.getUsers(),
                   [](Operation *user) { return isa<func::ReturnOp>(user); }))
    return false;
  Value source = buffers.lookup(reshape.getOperand());
  if (!source)
    return false;
  MemRefType type = getBufferType(result.getType());
  buffers.map(result,
              memref::ReinterpretCastOp::create(
                  b, reshape.getLoc(), type, source, /*offset=*/0,
                  type.getShape(), computeSuffixProduct(type.getShape())));
  return true;
}

LogicalResult FunctionLowering::run() {
  for (Type type :
       llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
    if (!isa<RankedTensorType>(type))
      return func.emitOpError("takes and returns only tensors, got ") << type;

  SmallVector<Type> argTypes, resultTypes;
  for (Type type : func.getArgumentTypes())
    argTypes.push_back(getBufferType(type));
  for (Type type : func.getResultTypes())
    resultTypes.push_back(getBufferType(type));

  OpBuilder b(func);
  auto host = func::FuncOp::create(b, func.getLoc(), func.getName(),
                                   b.getFunctionType(argTypes, resultTypes));
  host.setVisibility(func.getVisibility());
  if (ArrayAttr argAttrs = func.getAllArgAttrs())
    host.setAllArgAttrs(argAttrs);
  Block *entry = host.addEntryBlock();
  for (auto [tensor, buffer] :
       llvm::zip_equal(func.getArguments(), entry->getArguments()))
    buffers.map(tensor, buffer);

  b.setInsertionPointToStart(entry);
  for (Operation &op : func.getBody().front()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (failed(lowerConstant(b, constant)))
        return failure();
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      FailureOr<SmallVector<Value>> results = lowerResults(b, ret);
      if (failed(results))
        return failure();
      func::ReturnOp::create(b, ret.getLoc(), *results);
      continue;
    }
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      if (failed(lowerKernel(b, fusion, fusion.getRoot(), fusion.getInputs(),
                             fusion.getBody().getArguments())))
        return failure();
      continue;
    }
    if (absorbed.contains(&op))
      continue;
    if (auto reshape = dyn_cast<ReshapeOp>(op);
        reshape && lowerAsView(b, reshape))
      continue;
    // A grade norm read only from this op's result is applied by its kernel
    // where the kernel can.
    Operation *gradeNorm = nullptr;
    if (op.getNumResults() == 1 && op.getResult(0).hasOneUse()) {
      Operation *user = *op.getResult(0).getUsers().begin();
      const OpKernelEmitter *emitter = emitters.lookup(&op);
      if (isa<clifford::GradeRmsNormOp>(user) &&
          user->getBlock() == op.getBlock() && emitter &&
          emitter->canApplyGradeNorm(&op, user))
        gradeNorm = user;
    }
    if (failed(lowerKernel(b, &op, &op, op.getOperands(), op.getOperands(),
                           gradeNorm)))
      return failure();
    if (gradeNorm) {
      buffers.map(gradeNorm->getResult(0), buffers.lookup(op.getResult(0)));
      absorbed.insert(gradeNorm);
    }
  }
  host->moveBefore(func);
  func.erase();
  return success();
}

LogicalResult FunctionLowering::lowerConstant(OpBuilder &b,
                                              arith::ConstantOp constant) {
  auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!value)
    return constant.emitOpError("must be a dense tensor constant");
  // A large splat is filled by a kernel from one element: as data it would
  // be written out element by element into the manifest (a 2^20 x 2^20 fill
  // never finished) and held on the device for the executable's lifetime.
  auto tensorType = cast<RankedTensorType>(value.getType());
  // (The verifiers checked that the byte size fits int64.)
  std::optional<int64_t> count = getElementCount(tensorType.getShape());
  int64_t elementBytes = tensorType.getElementTypeBitWidth() / 8;
  if (value.isSplat() && count && *count > kMaxSplatDataBytes / elementBytes) {
    FailureOr<Value> filled =
        lowerSyntheticKernel(b, constant, [&](OpBuilder &tb) {
          auto element = arith::ConstantOp::create(
              tb, constant.getLoc(),
              DenseElementsAttr::get(tensorType.clone(ArrayRef<int64_t>{1}),
                                     value.getSplatValue<Attribute>()));
          return BroadcastToOp::create(tb, constant.getLoc(), tensorType,
                                       element)
              .getOperation();
        });
    if (failed(filled))
      return failure();
    buffers.map(constant.getResult(), *filled);
    return success();
  }
  MemRefType type = getBufferType(value.getType());
  OpBuilder moduleBuilder(func);
  std::string name =
      (func.getName() + "_constant" + std::to_string(constantCount++)).str();
  memref::GlobalOp::create(moduleBuilder, constant.getLoc(), name,
                           moduleBuilder.getStringAttr("private"), type, value,
                           /*constant=*/true, /*alignment=*/IntegerAttr());
  Value buffer = memref::GetGlobalOp::create(b, constant.getLoc(), type, name);
  buffers.map(constant.getResult(), buffer);
  return success();
}

FailureOr<Value> FunctionLowering::lowerSyntheticKernel(
    OpBuilder &b, Operation *before,
    function_ref<Operation *(OpBuilder &)> make) {
  // The ops are built in the tensor function, which is erased when the
  // lowering ends; their operands are lowered first.
  OpBuilder tensorBuilder(before);
  Operation *kernelOp = make(tensorBuilder);
  for (Value operand : kernelOp->getOperands())
    if (auto constant = operand.getDefiningOp<arith::ConstantOp>();
        constant && !buffers.contains(operand) &&
        failed(lowerConstant(b, constant)))
      return failure();
  if (failed(lowerKernel(b, kernelOp, kernelOp, kernelOp->getOperands(),
                         kernelOp->getOperands())))
    return failure();
  return buffers.lookup(kernelOp->getResult(0));
}

FailureOr<SmallVector<Value>>
FunctionLowering::lowerResults(OpBuilder &b, func::ReturnOp ret) {
  SmallVector<Value> results;
  llvm::SmallPtrSet<Value, 4> returned;
  for (Value value : ret.getOperands()) {
    Value buffer = buffers.lookup(value);
    bool ownBuffer = buffer.getDefiningOp<memref::AllocOp>() &&
                     returned.insert(buffer).second;
    if (!ownBuffer) {
      // An identity broadcast is a copy kernel, and nothing folds it here.
      FailureOr<Value> copy = lowerSyntheticKernel(b, ret, [&](OpBuilder &tb) {
        return BroadcastToOp::create(tb, ret.getLoc(), value.getType(), value)
            .getOperation();
      });
      if (failed(copy))
        return failure();
      buffer = *copy;
      returned.insert(buffer);
    }
    results.push_back(buffer);
  }
  return results;
}

LogicalResult FunctionLowering::lowerKernel(OpBuilder &b, Operation *kernelOp,
                                            Operation *root, ValueRange inputs,
                                            ValueRange inputsInKernel,
                                            Operation *gradeNorm) {
  Location loc = kernelOp->getLoc();
  if (kernelOp->getNumResults() == 0)
    return kernelOp->emitOpError("has no result to become a kernel");
  if (!emitters.lookup(root))
    return root->emitOpError("cannot be compiled for the GPU yet");
  // The op that shapes the kernel: the root, or a fused anchor (a matmul,
  // whose consumers up to the root become its epilogue). Every other op of
  // a fused group is recomputed where it is read: element by element, or a
  // multivector at a time; once per lane in a vectorized kernel, which only
  // replicable producers allow.
  Operation *anchor = root;
  bool vectorized = vectorize;
  if (auto fusion = dyn_cast<FusionOp>(kernelOp)) {
    for (Operation &member : fusion.getBody().front().without_terminator()) {
      if (&member == root)
        continue;
      const OpKernelEmitter *producer = emitters.lookup(&member);
      if (producer && producer->isKernelAnchor()) {
        if (anchor != root)
          return member.emitOpError("cannot share a kernel with another "
                                    "anchor ('")
                 << anchor->getName() << "')";
        anchor = &member;
        continue;
      }
      if (!producer || (!producer->isElementComputable() &&
                        !producer->getBladeComputableAxis(&member)))
        return member.emitOpError("cannot be recomputed inside a fused "
                                  "kernel");
      vectorized &= producer->isReplicable();
    }
  }
  const OpKernelEmitter *emitter = emitters.lookup(anchor);
  if (anchor != root) {
    vectorized = false;
    if (!emitters.lookup(root)->isElementComputable())
      return root->emitOpError("cannot be the epilogue of '")
             << anchor->getName() << "'";
  }

  SmallVector<Value> results;
  for (Value result : kernelOp->getResults()) {
    results.push_back(
        memref::AllocOp::create(b, loc, getBufferType(result.getType())));
    buffers.map(result, results.back());
  }
  int64_t numThreads = emitter->getNumThreads(anchor, vectorized);
  if (numThreads == 0)
    return success(); // An empty tensor needs no kernel.
  // A kernel cannot take an empty buffer (neither SPIR-V nor the LLVM
  // lowering types a memref of no elements), and a non-empty result
  // computed from one (a contraction or reduction over an empty axis) is
  // not lowered yet: refused here, clearly, rather than by the lowering's
  // "failed to legalize".
  for (auto [index, input] : llvm::enumerate(inputs)) {
    auto type = dyn_cast<ShapedType>(input.getType());
    if (type && type.hasStaticShape() && type.getNumElements() == 0)
      return root->emitOpError("reads ")
             << type << " (input " << index
             << " of its kernel), which has no elements, into a non-empty "
                "result: not supported by the GPU targets (the reference "
                "runs it)";
  }
  // (The emitters' counts are overflow-checked: INT64_MAX stands for any
  // count past it.)
  if (numThreads == std::numeric_limits<int64_t>::max())
    return root->emitOpError("needs more than 2^63 - 1 threads; kernels are "
                             "limited to 2^31 - 1");
  if (numThreads > std::numeric_limits<int32_t>::max())
    return root->emitOpError("needs ")
           << numThreads << " threads; kernels are limited to 2^31 - 1";

  // Cooperating threads need full blocks: every thread reaches a barrier.
  std::optional<int64_t> cooperativeBlock =
      emitter->getBlockSize(anchor, vectorized);
  int64_t kernelBlockSize = cooperativeBlock.value_or(blockSize);
  if (cooperativeBlock && numThreads % kernelBlockSize != 0)
    return anchor->emitOpError("needs ")
           << numThreads << " threads, not a multiple of its block size "
           << kernelBlockSize;

  int64_t sharedBytes = 0;
  llvm::SmallDenseMap<unsigned, bool> globalArguments;
  FailureOr<gpu::GPUFuncOp> kernel =
      buildKernel(kernelOp, root, anchor, inputs, inputsInKernel,
                  kernelBlockSize, cooperativeBlock.has_value(), vectorized,
                  gradeNorm, sharedBytes, globalArguments);
  if (failed(kernel))
    return failure();
  // A repeated layer makes the same kernel again: the first is kept, before
  // anything simplifies, verifies or compiles the others, and runs every
  // launch, each on its own buffers.
  if (gpu::GPUFuncOp same = identicalKernels.findOrKeep(*kernel);
      same != *kernel) {
    if (remarks)
      root->emitRemark() << "kernel '" << kernel->getName()
                         << "' is the same as '" << same.getName()
                         << "': that one runs this launch too";
    kernel->erase();
    kernel = same;
  }
  if (sharedBytes > target.getMaxSharedBytes())
    return anchor->emitOpError("needs ")
           << sharedBytes << " bytes of shared memory per block; sm_"
           << target.sm << " allows " << target.getMaxSharedBytes();

  SmallVector<Value> args;
  for (Value input : inputs)
    args.push_back(buffers.lookup(input));
  llvm::append_range(args, results);
  args.push_back(arith::ConstantIntOp::create(b, loc, numThreads, 32));

  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The arguments the emitter added, in order: global buffers (allocated
  // here, zeroed right before the launch where asked), and tensor maps,
  // which the runtime encodes from the launch's uta.tensor_maps (the launch
  // passes placeholders).
  auto tensorMaps =
      (*kernel)->getAttrOfType<ArrayAttr>(UTADialect::getTensorMapsAttrName());
  Value placeholder;
  // (Function arguments only: workgroup attributions follow them.)
  for (unsigned number = args.size(); number < kernel->getNumArguments();
       ++number) {
    BlockArgument argument = kernel->getArgument(number);
    auto global = globalArguments.find(number);
    if (global == globalArguments.end()) {
      if (!placeholder)
        placeholder = LLVM::ZeroOp::create(
            b, loc, LLVM::LLVMPointerType::get(b.getContext()));
      args.push_back(placeholder);
      continue;
    }
    auto type = cast<MemRefType>(argument.getType());
    Value buffer = memref::AllocOp::create(b, loc, type);
    if (global->second)
      gpu::MemsetOp::create(
          b, loc, /*asyncToken=*/Type(), /*asyncDependencies=*/ValueRange{},
          buffer, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f)));
    args.push_back(buffer);
  }
  int64_t blocks = llvm::divideCeil(numThreads, kernelBlockSize);
  // A kernel whose blocks run in clusters is launched in them.
  std::optional<gpu::KernelDim3> cluster;
  if (std::optional<ArrayRef<int32_t>> shape = kernel->getKnownClusterSize())
    cluster = gpu::KernelDim3{index((*shape)[0]), index((*shape)[1]),
                              index((*shape)[2])};
  auto launch = gpu::LaunchFuncOp::create(
      b, loc, *kernel, gpu::KernelDim3{index(blocks), index(1), index(1)},
      gpu::KernelDim3{index(kernelBlockSize), index(1), index(1)},
      sharedBytes ? arith::ConstantIntOp::create(b, loc, sharedBytes, 32)
                  : Value(),
      args, /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, cluster);
  if (tensorMaps)
    launch->setAttr(UTADialect::getTensorMapsAttrName(), tensorMaps);
  KernelFlops flops = countKernelFlops(kernelOp);
  if (gradeNorm)
    flops += countKernelFlops(gradeNorm);
  launch->setAttr(UTADialect::getFlopsAttrName(),
                  getFlopsAttr(b.getContext(), flops));
  if (GemmPlanAttr plan = getKernelGemmPlan(kernelOp))
    launch->setAttr(UTADialect::getGemmPlanAttrName(), plan);
  if (results.size() != 1)
    launch->setAttr(
        UTADialect::getLaunchResultsAttrName(),
        b.getDenseI32ArrayAttr({static_cast<int32_t>(results.size())}));
  // An input the kernel reads only where it writes a result may live in
  // that result's memory, unless the launch passes its buffer twice (and
  // the input is not claimed by another result already).
  SmallVector<int64_t> inPlace;
  llvm::SmallDenseSet<int64_t> claimed;
  for (unsigned resultNumber = inputs.size(),
                end = inputs.size() + results.size();
       resultNumber < end; ++resultNumber)
    for (int64_t number : findInPlaceInputs(*kernel, resultNumber))
      if (llvm::count(args, args[number]) == 1 && claimed.insert(number).second)
        inPlace.append({number, resultNumber});
  if (!inPlace.empty())
    launch->setAttr(UTADialect::getInPlaceAttrName(),
                    b.getDenseI64ArrayAttr(inPlace));
  return success();
}

GemmPlanAttr FunctionLowering::getKernelGemmPlan(Operation *kernelOp) const {
  auto planOf = [&](Operation *op) -> GemmPlanAttr {
    const OpKernelEmitter *emitter = emitters.lookup(op);
    return emitter ? emitter->getPlanAttr(op) : nullptr;
  };
  if (auto fusion = dyn_cast<FusionOp>(kernelOp)) {
    for (Operation &op : fusion.getBody().front().without_terminator())
      if (GemmPlanAttr plan = planOf(&op))
        return plan;
    return nullptr;
  }
  return planOf(kernelOp);
}

KernelFlops FunctionLowering::countKernelFlops(Operation *kernelOp) const {
  KernelFlops flops;
  auto count = [&](Operation *op) {
    if (const OpKernelEmitter *emitter = emitters.lookup(op))
      flops += emitter->countFlops(op);
  };
  if (auto fusion = dyn_cast<FusionOp>(kernelOp))
    for (Operation &op : fusion.getBody().front().without_terminator())
      count(&op);
  else
    count(kernelOp);
  return flops;
}

FailureOr<gpu::GPUFuncOp> FunctionLowering::buildKernel(
    Operation *kernelOp, Operation *root, Operation *anchor, ValueRange inputs,
    ValueRange inputsInKernel, int64_t kernelBlockSize, bool cooperative,
    bool vectorized, Operation *gradeNorm, int64_t &sharedBytes,
    llvm::SmallDenseMap<unsigned, bool> &globalArguments) {
  Location loc = kernelOp->getLoc();
  SmallVector<Type> argTypes;
  for (Value input : inputs)
    argTypes.push_back(getBufferType(input.getType()));
  for (Type type : kernelOp->getResultTypes())
    argTypes.push_back(getBufferType(type));
  OpBuilder b(kernelModule.getBodyRegion());
  b.setInsertionPointToEnd(kernelModule.getBody());
  argTypes.push_back(b.getI32Type());

  std::string name = (func.getName() + "_k" + std::to_string(kernelCount++) +
                      "_" + root->getName().stripDialect())
                         .str();
  auto kernel =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(kernelBlockSize), 1, 1}));

  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  // thread = blockIdx.x * kernelBlockSize + threadIdx.x; threads past n idle.
  // Cooperative kernels have only full blocks (lowerKernel checked) and no
  // guard, so that their barriers are reached by every thread of a block.
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, blockId,
          arith::ConstantIndexOp::create(b, loc, kernelBlockSize)),
      threadId);
  auto ret = gpu::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);
  if (!cooperative) {
    Value count = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                             body.getArguments().back());
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread, count);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
  }

  KernelContext context{IRMapping(),
                        SmallVector<Value, 1>(body.getArguments().slice(
                            inputs.size(), kernelOp->getNumResults())),
                        emitters, kernel};
  context.dynamicShared = target.sm != 0;
  for (auto [value, arg] : llvm::zip_equal(
           inputsInKernel, body.getArguments().take_front(inputs.size())))
    context.buffers.map(value, arg);
  KernelOperandIO io(root, context);
  if (gradeNorm) {
    if (failed(
            emitters.lookup(root)->emitWithGradeNorm(b, root, gradeNorm, io)))
      return failure();
  } else if (anchor == root) {
    if (failed(emitters.lookup(root)->emit(b, root, thread, io, vectorized)))
      return failure();
  } else {
    // The root, computed from the anchor's element where it reads it.
    KernelOperandIO anchorIO(anchor, context);
    const OpKernelEmitter *rootEmitter = emitters.lookup(root);
    LogicalResult epilogueResult = success();
    auto epilogue = [&](OpBuilder &nb, Location elementLoc, ValueRange indices,
                        Value value) {
      context.computed[anchor->getResult(0)] = value;
      FailureOr<Value> element =
          rootEmitter->emitElement(nb, root, indices, io);
      context.computed.erase(anchor->getResult(0));
      if (failed(element)) {
        epilogueResult = failure();
        return;
      }
      io.write(nb, elementLoc, 0, indices, *element);
    };
    if (failed(emitters.lookup(anchor)->emitAnchored(b, anchor, anchorIO,
                                                     epilogue)) ||
        failed(epilogueResult))
      return failure();
  }
  assert(!context.group && "an emitter left an access group open");
  sharedBytes = context.sharedBytes;
  globalArguments = std::move(context.globalArguments);
  return kernel;
}

namespace {
struct ConvertUTAToGPUPass final
    : mlir::uta::impl::ConvertUTAToGPUPassBase<ConvertUTAToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isDeclaration())
        functions.push_back(func);
    if (functions.empty())
      return;

    std::optional<GemmTarget> gemmTarget = getGemmTarget(
        module, sm, archSpecific, tensorCores, allowTf32, gemmConfig);
    if (!gemmTarget)
      return signalPassFailure();
    KernelEmitterRegistry emitters;
    populateKernelEmitters(emitters, *gemmTarget, remarks);

    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    // Located at the first function compiled (not the input module, which
    // has no line), so that errors about the kernels' module point there.
    auto kernelModule = gpu::GPUModuleOp::create(b, functions.front().getLoc(),
                                                 kKernelModuleName);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    IdenticalKernels identicalKernels;
    for (func::FuncOp func : functions) {
      FunctionLowering lowering(func, kernelModule, identicalKernels, emitters,
                                blockSize, vectorize, *gemmTarget, remarks);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace

std::optional<StringRef> mlir::uta::getGemmConfigName(GemmPlanAttr plan) {
  for (ArrayRef<GemmConfigRow> table :
       {getGemmConfigTable(), getFcProductConfigTable()})
    for (const GemmConfigRow &row : table)
      if (hasGemmPlanConfig(row.config, plan))
        return StringRef(row.config.name);
  return std::nullopt;
}

std::optional<GemmTarget>
mlir::uta::getGemmTarget(Operation *module, unsigned sm, bool archSpecific,
                         bool tensorCores, bool allowTf32,
                         StringRef gemmConfig) {
  if (!gemmConfig.empty() && !isGemmConfigName(gemmConfig)) {
    module->emitError("gemm-config: no row of the GEMM table is named '")
        << gemmConfig << "'";
    return std::nullopt;
  }
  GemmTarget target;
  target.sm = sm;
  target.archSpecific = archSpecific;
  target.tensorCores = tensorCores;
  target.allowTf32 = allowTf32;
  target.config = gemmConfig.str();
  return target;
}

bool mlir::uta::isGemmConfigName(StringRef name) {
  auto named = [&](const GemmConfigRow &row) {
    return StringRef(row.config.name) == name;
  };
  return llvm::any_of(getGemmConfigTable(), named) ||
         llvm::any_of(getFcProductConfigTable(), named);
}
