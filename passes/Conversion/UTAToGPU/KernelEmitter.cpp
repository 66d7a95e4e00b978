//===- KernelEmitter.cpp - Shared machinery of the kernel emitters --------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::uta;

KernelIO::~KernelIO() = default;
OpKernelEmitter::~OpKernelEmitter() = default;

FailureOr<Value> OpKernelEmitter::emitElement(OpBuilder &, Operation *op,
                                              ValueRange, KernelIO &) const {
  return op->emitOpError("cannot be computed element by element");
}

int64_t ElementEmitter::getNumThreads(Operation *op) const {
  return getNumElements(getStaticShape(op->getResult(0)));
}

LogicalResult ElementEmitter::emit(OpBuilder &b, Operation *op, Value thread,
                                   KernelIO &io) const {
  Location loc = op->getLoc();
  SmallVector<Value> indices =
      delinearize(b, loc, thread, getStaticShape(op->getResult(0)));
  FailureOr<Value> value = emitElement(b, op, indices, io);
  if (failed(value))
    return failure();
  io.write(b, loc, 0, indices, *value);
  return success();
}

const OpKernelEmitter *KernelEmitterRegistry::lookup(Operation *op) const {
  auto it = emitters.find(op->getName().getTypeID());
  return it == emitters.end() ? nullptr : it->second.get();
}

int64_t mlir::uta::getNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

SmallVector<Value> mlir::uta::delinearize(OpBuilder &b, Location loc,
                                          Value linear,
                                          ArrayRef<int64_t> shape) {
  SmallVector<Value> indices(shape.size());
  Value rest = linear;
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    if (dim == 0) {
      indices[dim] = rest;
      break;
    }
    Value size = arith::ConstantIndexOp::create(b, loc, shape[dim]);
    indices[dim] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  return indices;
}

Value mlir::uta::linearize(OpBuilder &b, Location loc, ValueRange indices,
                           ArrayRef<int64_t> shape) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [index, size] : llvm::zip_equal(indices, shape)) {
    Value scaled = arith::MulIOp::create(
        b, loc, linear, arith::ConstantIndexOp::create(b, loc, size));
    linear = arith::AddIOp::create(b, loc, scaled, index);
  }
  return linear;
}

SmallVector<Value> mlir::uta::broadcastIndices(OpBuilder &b, Location loc,
                                               ValueRange resultIndices,
                                               ArrayRef<int64_t> operandShape) {
  size_t dropped = resultIndices.size() - operandShape.size();
  SmallVector<Value> indices;
  for (auto [dim, size] : llvm::enumerate(operandShape)) {
    if (size == 1)
      indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    else
      indices.push_back(resultIndices[dropped + dim]);
  }
  return indices;
}

ArrayRef<int64_t> mlir::uta::getStaticShape(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

Value mlir::uta::f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}
