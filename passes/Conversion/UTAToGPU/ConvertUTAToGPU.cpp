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

/// Reads and writes the kernel's buffer arguments.
class BufferIO final : public KernelIO {
public:
  BufferIO(ValueRange operandBuffers, ValueRange resultBuffers)
      : operands(operandBuffers), results(resultBuffers) {}

  Value read(OpBuilder &b, Location loc, unsigned operand,
             ValueRange indices) override {
    Value element = memref::LoadOp::create(b, loc, operands[operand], indices);
    if (element.getType().isF32())
      return element;
    return arith::ExtFOp::create(b, loc, b.getF32Type(), element);
  }

  void write(OpBuilder &b, Location loc, unsigned result, ValueRange indices,
             Value value) override {
    Value buffer = results[result];
    Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
    if (elementType != value.getType())
      value = arith::TruncFOp::create(b, loc, elementType, value);
    memref::StoreOp::create(b, loc, value, buffer, indices);
  }

private:
  ValueRange operands, results;
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
  LogicalResult lowerKernelOp(OpBuilder &b, Operation *op,
                              const OpKernelEmitter &emitter);
  FailureOr<gpu::GPUFuncOp> buildKernel(Operation *op,
                                        const OpKernelEmitter &emitter,
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
  for (Type type : llvm::concat<const Type>(func.getArgumentTypes(),
                                            func.getResultTypes()))
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
    const OpKernelEmitter *emitter = emitters.lookup(&op);
    if (!emitter)
      return op.emitOpError("cannot be compiled for the GPU yet");
    if (failed(lowerKernelOp(b, &op, *emitter)))
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
  std::string name = (func.getName() + "_constant" +
                      std::to_string(constantCount++)).str();
  memref::GlobalOp::create(moduleBuilder, constant.getLoc(), name,
                           moduleBuilder.getStringAttr("private"), type, value,
                           /*constant=*/true, /*alignment=*/IntegerAttr());
  Value buffer =
      memref::GetGlobalOp::create(b, constant.getLoc(), type, name);
  buffers.map(constant.getResult(), buffer);
  return success();
}

LogicalResult FunctionLowering::lowerKernelOp(OpBuilder &b, Operation *op,
                                              const OpKernelEmitter &emitter) {
  Location loc = op->getLoc();
  for (Value result : op->getResults())
    buffers.map(result, memref::AllocOp::create(
                            b, loc, getBufferType(result.getType())));
  int64_t numThreads = emitter.getNumThreads(op);
  if (numThreads == 0)
    return success(); // An empty tensor needs no kernel.
  if (numThreads > std::numeric_limits<int32_t>::max())
    return op->emitOpError("needs ")
           << numThreads << " threads; kernels are limited to 2^31 - 1";

  FailureOr<gpu::GPUFuncOp> kernel = buildKernel(op, emitter, numThreads);
  if (failed(kernel))
    return failure();

  SmallVector<Value> args;
  for (Value operand : op->getOperands())
    args.push_back(buffers.lookup(operand));
  for (Value result : op->getResults())
    args.push_back(buffers.lookup(result));
  args.push_back(arith::ConstantIntOp::create(b, loc, numThreads, 32));

  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t blocks = llvm::divideCeil(numThreads, blockSize);
  gpu::LaunchFuncOp::create(b, loc, *kernel,
                            gpu::KernelDim3{index(blocks), index(1), index(1)},
                            gpu::KernelDim3{index(blockSize), index(1), index(1)},
                            /*dynamicSharedMemorySize=*/Value(), args);
  return success();
}

FailureOr<gpu::GPUFuncOp>
FunctionLowering::buildKernel(Operation *op, const OpKernelEmitter &emitter,
                              int64_t numThreads) {
  Location loc = op->getLoc();
  SmallVector<Type> argTypes;
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                            op->getResultTypes()))
    argTypes.push_back(getBufferType(type));
  OpBuilder b(kernelModule.getBodyRegion());
  b.setInsertionPointToEnd(kernelModule.getBody());
  argTypes.push_back(b.getI32Type());

  std::string name = (func.getName() + "_k" + std::to_string(kernelCount++) +
                      "_" + op->getName().stripDialect())
                         .str();
  auto kernel = gpu::GPUFuncOp::create(b, loc, name,
                                       b.getFunctionType(argTypes, {}));
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
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        thread, count);
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  gpu::ReturnOp::create(b, loc);

  b.setInsertionPointToStart(guard.thenBlock());
  unsigned numOperands = op->getNumOperands();
  BufferIO io(body.getArguments().take_front(numOperands),
              body.getArguments().slice(numOperands, op->getNumResults()));
  if (failed(emitter.emit(b, op, thread, io)))
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
