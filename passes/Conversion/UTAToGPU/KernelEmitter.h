//===- KernelEmitter.h - Per-op emitters of GPU kernel bodies ---*- C++ -*-===//
//
// convert-uta-to-gpu outlines each op into a kernel in which every thread
// computes one point of the op's iteration space. What a thread computes is
// the business of an OpKernelEmitter, one per op family (pointwise,
// reductions, matmul, clifford); how it reads operands and writes results is
// the business of KernelIO, so that the same emitters serve plain kernels
// (buffer loads and stores) and fused ones (recomputed producers).
//
// Emitters compute in f32: KernelIO widens f16/bf16 on read and narrows on
// write, which is how f16 and bf16 ops accumulate in f32 (SPEC.md §1.1).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_KERNELEMITTER_H
#define UTA_PASSES_CONVERSION_UTATOGPU_KERNELEMITTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::uta {

/// Reads operands and writes results of the op being emitted, as f32 scalars
/// at multi-indices in the tensors' own (static) shapes.
class KernelIO {
public:
  virtual ~KernelIO();
  /// The element of operand `operand` at `indices`, widened to f32.
  virtual Value read(OpBuilder &b, Location loc, unsigned operand,
                     ValueRange indices) = 0;
  /// Stores the f32 `value` as the element of result `result` at `indices`.
  virtual void write(OpBuilder &b, Location loc, unsigned result,
                     ValueRange indices, Value value) = 0;
};

/// Emits the code one thread runs for an op.
class OpKernelEmitter {
public:
  virtual ~OpKernelEmitter();
  /// The number of threads: the points of the op's iteration space.
  virtual int64_t getNumThreads(Operation *op) const = 0;
  /// Emits the work of thread `thread` (an index below getNumThreads).
  virtual LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                             KernelIO &io) const = 0;
  /// Whether emitElement computes any single element of the op's result on
  /// its own: such an op can be recomputed inside the kernel that reads it.
  virtual bool isElementComputable() const { return false; }
  /// The f32 value of the op's (only) result at `indices`, reading operands
  /// through `io`. Only for element-computable ops.
  virtual FailureOr<Value> emitElement(OpBuilder &b, Operation *op,
                                       ValueRange indices, KernelIO &io) const;
};

/// An emitter whose kernel computes one result element per thread.
class ElementEmitter : public OpKernelEmitter {
public:
  int64_t getNumThreads(Operation *op) const override;
  LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                     KernelIO &io) const override;
  bool isElementComputable() const override { return true; }
};

/// The emitters of all op families, by op.
class KernelEmitterRegistry {
public:
  template <typename Emitter, typename... Ops> void add() {
    auto emitter = std::make_shared<Emitter>();
    (emitters.try_emplace(TypeID::get<Ops>(), emitter), ...);
  }
  /// The emitter of `op`, or null when no family handles it.
  const OpKernelEmitter *lookup(Operation *op) const;

private:
  llvm::DenseMap<TypeID, std::shared_ptr<OpKernelEmitter>> emitters;
};

/// Elementwise ops, casts and data movement (transpose, reshape, broadcast).
void populatePointwiseKernelEmitters(KernelEmitterRegistry &registry);
/// reduce_sum, reduce_max, reduce_mean, softmax, layer_norm.
void populateReductionKernelEmitters(KernelEmitterRegistry &registry);
/// matmul.
void populateMatmulKernelEmitters(KernelEmitterRegistry &registry);
/// Every clifford op.
void populateCliffordKernelEmitters(KernelEmitterRegistry &registry);

//===----------------------------------------------------------------------===//
// Helpers shared by the emitters
//===----------------------------------------------------------------------===//

/// The number of elements of a static shape.
int64_t getNumElements(ArrayRef<int64_t> shape);

/// Splits the row-major linear index `linear` over `shape` into indices.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape);

/// The row-major linear index of `indices` over `shape`.
Value linearize(OpBuilder &b, Location loc, ValueRange indices,
                ArrayRef<int64_t> shape);

/// Maps an index of a NumPy broadcast result to the index of an operand of
/// shape `operandShape`: leading dimensions drop, size-1 dimensions read 0.
SmallVector<Value> broadcastIndices(OpBuilder &b, Location loc,
                                    ValueRange resultIndices,
                                    ArrayRef<int64_t> operandShape);

/// The static shape of `value`'s ranked tensor type.
ArrayRef<int64_t> getStaticShape(Value value);

Value f32Constant(OpBuilder &b, Location loc, double value);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_KERNELEMITTER_H
