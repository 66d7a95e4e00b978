//===- ConvertUTAToGPU.cpp - Outline uta ops into GPU kernels -------------===//
//
// Rewrites each public function over tensors into a host function over
// statically shaped memrefs that allocates buffers and launches one kernel
// per op (gpu.launch_func), with the kernels in `gpu.module @kernels`. The
// host function is what utac turns into the manifest's launch sequence.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
  /// The kernel's result buffer.
  Value result;
  const KernelEmitterRegistry &emitters;
};

/// Reads the operands of one op of a kernel and writes the kernel's result.
/// An operand with a buffer is loaded (f16/bf16 widened to f32); one computed
/// by a fused producer is recomputed at the index, rounded to the producer's
/// element type exactly as a stored intermediate would be.
class KernelOperandIO final : public KernelIO {
public:
  KernelOperandIO(Operation *op, const KernelContext &context)
      : op(op), context(context) {}

  Value read(OpBuilder &b, Location loc, unsigned operand,
             ValueRange indices) override {
    Value value = op->getOperand(operand);
    if (Value buffer = context.buffers.lookupOrNull(value)) {
      Value element = memref::LoadOp::create(b, loc, buffer, indices);
      if (element.getType().isF32())
        return element;
      return arith::ExtFOp::create(b, loc, b.getF32Type(), element);
    }
    // FunctionLowering checked that every fused producer has an
    // element-computable emitter.
    Operation *producer = value.getDefiningOp();
    KernelOperandIO producerIO(producer, context);
    Value element = *context.emitters.lookup(producer)->emitElement(
        b, producer, indices, producerIO);
    Type elementType = cast<RankedTensorType>(value.getType()).getElementType();
    if (elementType.isF32())
      return element;
    Value rounded = arith::TruncFOp::create(b, loc, elementType, element);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), rounded);
  }

  void write(OpBuilder &b, Location loc, unsigned result, ValueRange indices,
             Value value) override {
    assert(result == 0 && "kernels have one result");
    Type elementType =
        cast<MemRefType>(context.result.getType()).getElementType();
    if (elementType != value.getType())
      value = arith::TruncFOp::create(b, loc, elementType, value);
    memref::StoreOp::create(b, loc, value, context.result, indices);
  }

private:
  Operation *op;
  const KernelContext &context;
};

MemRefType getBufferType(Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// Lowers one function; kernels are appended to `kernelModule`.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, gpu::GPUModuleOp kernelModule,
                   const KernelEmitterRegistry &emitters, unsigned blockSize)
      : func(func), kernelModule(kernelModule), emitters(emitters),
        blockSize(blockSize) {}

  LogicalResult run();

private:
  LogicalResult lowerConstant(OpBuilder &b, arith::ConstantOp constant);
  /// Lowers `kernelOp` (a single op, or a uta.fusion) to a kernel that
  /// reads `inputs` and writes the value of `root`.
  LogicalResult lowerKernel(OpBuilder &b, Operation *kernelOp, Operation *root,
                            ValueRange inputs, ValueRange inputsInKernel);
  FailureOr<gpu::GPUFuncOp> buildKernel(Operation *kernelOp, Operation *root,
                                        ValueRange inputs,
                                        ValueRange inputsInKernel,
                                        int64_t numThreads);

  func::FuncOp func;
  gpu::GPUModuleOp kernelModule;
  const KernelEmitterRegistry &emitters;
  unsigned blockSize;
  IRMapping buffers;
  unsigned kernelCount = 0, constantCount = 0;
};

} // namespace

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
      SmallVector<Value> results;
      for (Value value : ret.getOperands())
        results.push_back(buffers.lookup(value));
      func::ReturnOp::create(b, ret.getLoc(), results);
      continue;
    }
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      if (failed(lowerKernel(b, fusion, fusion.getRoot(), fusion.getInputs(),
                             fusion.getBody().getArguments())))
        return failure();
      continue;
    }
    if (failed(lowerKernel(b, &op, &op, op.getOperands(), op.getOperands())))
      return failure();
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

LogicalResult FunctionLowering::lowerKernel(OpBuilder &b, Operation *kernelOp,
                                            Operation *root, ValueRange inputs,
                                            ValueRange inputsInKernel) {
  Location loc = kernelOp->getLoc();
  if (kernelOp->getNumResults() != 1)
    return kernelOp->emitOpError("must have exactly one result to become a "
                                 "kernel");
  const OpKernelEmitter *emitter = emitters.lookup(root);
  if (!emitter)
    return root->emitOpError("cannot be compiled for the GPU yet");
  // Every other op of a fused group is recomputed element by element.
  if (auto fusion = dyn_cast<FusionOp>(kernelOp)) {
    for (Operation &member : fusion.getBody().front().without_terminator()) {
      if (&member == root)
        continue;
      const OpKernelEmitter *producer = emitters.lookup(&member);
      if (!producer || !producer->isElementComputable())
        return member.emitOpError("cannot be recomputed inside a fused "
                                  "kernel");
    }
  }

  Value result = memref::AllocOp::create(
      b, loc, getBufferType(kernelOp->getResult(0).getType()));
  buffers.map(kernelOp->getResult(0), result);
  int64_t numThreads = emitter->getNumThreads(root);
  if (numThreads == 0)
    return success(); // An empty tensor needs no kernel.
  if (numThreads > std::numeric_limits<int32_t>::max())
    return root->emitOpError("needs ")
           << numThreads << " threads; kernels are limited to 2^31 - 1";

  FailureOr<gpu::GPUFuncOp> kernel =
      buildKernel(kernelOp, root, inputs, inputsInKernel, numThreads);
  if (failed(kernel))
    return failure();

  SmallVector<Value> args;
  for (Value input : inputs)
    args.push_back(buffers.lookup(input));
  args.push_back(result);
  args.push_back(arith::ConstantIntOp::create(b, loc, numThreads, 32));

  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t blocks = llvm::divideCeil(numThreads, blockSize);
  gpu::LaunchFuncOp::create(
      b, loc, *kernel, gpu::KernelDim3{index(blocks), index(1), index(1)},
      gpu::KernelDim3{index(blockSize), index(1), index(1)},
      /*dynamicSharedMemorySize=*/Value(), args);
  return success();
}

FailureOr<gpu::GPUFuncOp>
FunctionLowering::buildKernel(Operation *kernelOp, Operation *root,
                              ValueRange inputs, ValueRange inputsInKernel,
                              int64_t numThreads) {
  Location loc = kernelOp->getLoc();
  SmallVector<Type> argTypes;
  for (Value input : inputs)
    argTypes.push_back(getBufferType(input.getType()));
  argTypes.push_back(getBufferType(kernelOp->getResult(0).getType()));
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
      b.getDenseI32ArrayAttr({static_cast<int32_t>(blockSize), 1, 1}));

  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  // thread = blockIdx.x * blockSize + threadIdx.x; threads past n idle.
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, blockId,
                            arith::ConstantIndexOp::create(b, loc, blockSize)),
      threadId);
  Value count = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                           body.getArguments().back());
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread, count);
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  gpu::ReturnOp::create(b, loc);

  b.setInsertionPointToStart(guard.thenBlock());
  KernelContext context{IRMapping(), body.getArgument(inputs.size()), emitters};
  for (auto [value, arg] : llvm::zip_equal(
           inputsInKernel, body.getArguments().take_front(inputs.size())))
    context.buffers.map(value, arg);
  KernelOperandIO io(root, context);
  if (failed(emitters.lookup(root)->emit(b, root, thread, io)))
    return failure();
  return kernel;
}

namespace {
struct ConvertUTAToGPUPass final
    : uta::impl::ConvertUTAToGPUPassBase<ConvertUTAToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isDeclaration())
        functions.push_back(func);
    if (functions.empty())
      return;

    KernelEmitterRegistry emitters;
    populatePointwiseKernelEmitters(emitters);
    populateReductionKernelEmitters(emitters);
    populateMatmulKernelEmitters(emitters);
    populateCliffordKernelEmitters(emitters);

    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto kernelModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    for (func::FuncOp func : functions) {
      FunctionLowering lowering(func, kernelModule, emitters, blockSize);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
