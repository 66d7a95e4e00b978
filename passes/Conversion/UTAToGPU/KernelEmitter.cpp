//===- KernelEmitter.cpp - Shared machinery of the kernel emitters --------===//

#include "passes/Conversion/UTAToGPU/KernelEmitter.h"
#include "passes/Conversion/UTAToGPU/VectorAccess.h"

#include "dialects/Clifford/IR/CliffordInterfaces.h"
#include "dialects/Interfaces/KernelOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::uta;

KernelIO::~KernelIO() = default;
OpKernelEmitter::~OpKernelEmitter() = default;

KernelFlops &KernelFlops::operator+=(const KernelFlops &other) {
  simt += other.simt;
  tensor += other.tensor;
  if (!other.tensorPrecision.empty())
    tensorPrecision = other.tensorPrecision;
  return *this;
}

static int64_t countElements(Value value) {
  auto type = dyn_cast<ShapedType>(value.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : 0;
}

KernelFlops OpKernelEmitter::countFlops(Operation *op) const {
  KernelFlops flops;
  if (op->getNumResults() == 0)
    return flops;
  // (A clifford op of several results has them all of one shape.)
  int64_t results = countElements(op->getResult(0));
  if (auto multivector = dyn_cast<clifford::MultivectorOpInterface>(op)) {
    // Per position of the widest multivector it reads or writes (an
    // adjoint's cotangent, a weight gradient's inputs).
    int64_t blades = multivector.getAlgebra().getAlgebra().numBlades();
    int64_t widest = results;
    for (Value operand : multivector.getMultivectorOperands())
      widest = std::max(widest, countElements(operand));
    flops.simt = static_cast<int64_t>(multivector.estimateFlopsPerPosition() *
                                      static_cast<double>(widest / blades));
    return flops;
  }
  auto kernelOp = dyn_cast<KernelOpInterface>(op);
  if (!kernelOp)
    return flops;
  if (kernelOp.getFusionClass() == FusionClass::Pointwise) {
    flops.simt = kernelOp.estimateFlopsPerElement() * results;
    return flops;
  }
  // A reduction, softmax or norm: a few operations per element read.
  int64_t read = 0;
  for (Value operand : op->getOperands())
    read = std::max(read, countElements(operand));
  flops.simt = read;
  return flops;
}

FailureOr<Value> OpKernelEmitter::emitElement(OpBuilder &, Operation *op,
                                              ValueRange, KernelIO &) const {
  return op->emitOpError("cannot be computed element by element");
}

bool ElementEmitter::hasLanes(Operation *op, bool vectorize) const {
  // Ops with loops (reductions, matmul) keep a thread per element, and a
  // rank-0 result has no innermost axis.
  return vectorize && isReplicable() &&
         !getStaticShape(op->getResult(0)).empty();
}

int64_t ElementEmitter::getNumThreads(Operation *op, bool vectorize) const {
  int64_t count = getNumElements(getStaticShape(op->getResult(0)));
  return hasLanes(op, vectorize) ? llvm::divideCeil(count, kVectorWidth)
                                 : count;
}

LogicalResult ElementEmitter::emitScalar(OpBuilder &b, Operation *op,
                                         Value linear, KernelIO &io) const {
  Location loc = op->getLoc();
  SmallVector<Value> indices =
      delinearize(b, loc, linear, getStaticShape(op->getResult(0)));
  FailureOr<Value> value = emitElement(b, op, indices, io);
  if (failed(value))
    return failure();
  io.write(b, loc, 0, indices, *value);
  return success();
}

LogicalResult ElementEmitter::emit(OpBuilder &b, Operation *op, Value thread,
                                   KernelIO &io, bool vectorize) const {
  if (!hasLanes(op, vectorize))
    return emitScalar(b, op, thread, io);
  Location loc = op->getLoc();
  ArrayRef<int64_t> shape = getStaticShape(op->getResult(0));
  int64_t count = getNumElements(shape);
  Value width = arith::ConstantIndexOp::create(b, loc, kVectorWidth);
  Value base = arith::MulIOp::create(b, loc, thread, width);

  // Rows: the 4 elements share their outer indices.
  if (shape.back() % kVectorWidth == 0) {
    SmallVector<Value> first = delinearize(b, loc, base, shape);
    SmallVector<Value> inner = {first.back()};
    for (int64_t k = 1; k < kVectorWidth; ++k)
      inner.push_back(arith::AddIOp::create(
          b, loc, first.back(), arith::ConstantIndexOp::create(b, loc, k)));
    io.beginAccessGroup(b, AccessLanes::rows(inner));
    for (int64_t k = 0; k < kVectorWidth; ++k) {
      io.setLane(k);
      SmallVector<Value> indices(first);
      indices.back() = inner[k];
      FailureOr<Value> value = emitElement(b, op, indices, io);
      if (failed(value))
        return failure();
      io.write(b, loc, 0, indices, *value);
    }
    io.endAccessGroup(b, loc);
    return success();
  }

  // Flat: threads below count / 4 compute 4 whole elements, the last thread
  // the remaining count % 4 one by one.
  SmallVector<Value> lanes = {base};
  for (int64_t k = 1; k < kVectorWidth; ++k)
    lanes.push_back(arith::AddIOp::create(
        b, loc, base, arith::ConstantIndexOp::create(b, loc, k)));
  auto emitVector = [&](OpBuilder &nb) -> LogicalResult {
    SmallVector<SmallVector<Value>> indices;
    for (int64_t k = 0; k < kVectorWidth; ++k)
      indices.push_back(delinearize(nb, loc, lanes[k], shape));
    io.beginAccessGroup(nb, AccessLanes::flat(base, indices, shape));
    for (int64_t k = 0; k < kVectorWidth; ++k) {
      io.setLane(k);
      FailureOr<Value> value = emitElement(nb, op, indices[k], io);
      if (failed(value))
        return failure();
      io.write(nb, loc, 0, indices[k], *value);
    }
    io.endAccessGroup(nb, loc);
    return success();
  };
  int64_t whole = count / kVectorWidth, tail = count % kVectorWidth;
  if (tail == 0)
    return emitVector(b);
  Value isWhole =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                            arith::ConstantIndexOp::create(b, loc, whole));
  auto branch = scf::IfOp::create(b, loc, isWhole, /*withElseRegion=*/true);
  OpBuilder thenBuilder = branch.getThenBodyBuilder();
  if (failed(emitVector(thenBuilder)))
    return failure();
  OpBuilder elseBuilder = branch.getElseBodyBuilder();
  for (int64_t k = 0; k < tail; ++k)
    if (failed(emitScalar(elseBuilder, op, lanes[k], io)))
      return failure();
  return success();
}

const OpKernelEmitter *KernelEmitterRegistry::lookup(OperationName name) const {
  auto it = emitters.find(name.getTypeID());
  return it == emitters.end() ? nullptr : it->second.get();
}

void mlir::uta::populateKernelEmitters(KernelEmitterRegistry &registry,
                                       const GemmTarget &target, bool remarks) {
  populatePointwiseKernelEmitters(registry);
  populateReductionKernelEmitters(registry);
  populateMatmulKernelEmitters(registry, target, remarks);
  populateCliffordKernelEmitters(registry, target, remarks);
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
    if (shape[dim] == 1) {
      indices[dim] = arith::ConstantIndexOp::create(b, loc, 0);
      continue;
    }
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
