//===- KernelEmitter.h - Per-op emitters of GPU kernel bodies ---*- C++ -*-===//
//
// convert-uta-to-gpu outlines each op into a kernel in which every thread
// computes one point of the op's iteration space. What a thread computes is
// the business of an OpKernelEmitter, one per op family (pointwise,
// reductions, matmul, clifford); how it reads operands and writes results is
// the business of KernelIO, so that the same emitters serve plain kernels
// (buffer loads and stores) and fused ones (recomputed producers). A fused
// producer is recomputed element by element (emitElement) or, for clifford
// ops whose threads compute a whole multivector, a position at a time
// (emitBlades, reached through KernelIO::readBlades).
//
// Emitters compute in f32: KernelIO widens f16/bf16 on read and narrows on
// write, which is how f16 and bf16 ops accumulate in f32, as their
// definitions in the dialect say.
//
// Vectorization (VectorAccess.h): when the pass lets it (`vectorize`), an
// emitter may give each thread 4 consecutive points along the innermost
// axis, emit each point's scalar code in turn as a lane of a KernelIO access
// group, and so have its buffer accesses become aligned vector loads and
// stores; getNumThreads and getBlockSize then count such threads.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_KERNELEMITTER_H
#define UTA_PASSES_CONVERSION_UTATOGPU_KERNELEMITTER_H

#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>

namespace mlir::uta {

struct AccessLanes;

/// Reads operands and writes results of the op being emitted, as f32 scalars
/// at multi-indices in the tensors' own (static) shapes.
class KernelIO {
public:
  virtual ~KernelIO();
  /// The element of operand `operand` at `indices`, widened to f32.
  virtual Value read(OpBuilder &b, Location loc, unsigned operand,
                     ValueRange indices) = 0;
  /// Every blade of the multivector operand `operand` at `otherIndices` (its
  /// non-blade axes, in order), its blades along `bladeAxis`, when a fused
  /// producer computes them together (OpKernelEmitter::emitBlades): one
  /// computation instead of one per blade. std::nullopt when the operand is
  /// to be read blade by blade with read() (a buffer, or a producer that is
  /// recomputed element by element).
  virtual std::optional<SmallVector<Value>>
  readBlades(OpBuilder &b, Location loc, unsigned operand,
             ValueRange otherIndices, int64_t bladeAxis) {
    return std::nullopt;
  }
  /// Stores the f32 `value` as the element of result `result` at `indices`.
  virtual void write(OpBuilder &b, Location loc, unsigned result,
                     ValueRange indices, Value value) = 0;
  /// A new buffer of `count` f32 in workgroup (shared) memory, through which
  /// the threads of one block exchange values; only for emitters with a
  /// getBlockSize, whose blocks reach every barrier whole.
  virtual Value allocateWorkgroupBuffer(OpBuilder &b, Location loc,
                                        int64_t count) = 0;
  /// A new workgroup buffer of `shape` and `elementType` (the GEMM engine's
  /// typed, multi-dimensional tiles); the same rules as above. Its address
  /// is a multiple of `alignment` bytes (wgmma's 128-byte-swizzled tiles
  /// need 1024).
  virtual Value allocateWorkgroupBuffer(OpBuilder &b, Location loc,
                                        ArrayRef<int64_t> shape,
                                        Type elementType,
                                        int64_t alignment = 128) = 0;
  /// A view of workgroup memory of `shape` and `elementType` that starts
  /// where `buffer` (one of allocateWorkgroupBuffer's) does, to reuse that
  /// memory once `buffer` and the buffers allocated after it are dead (the
  /// GEMM engine's epilogue staged where its tiles were). Null where the
  /// view would reach past the memory allocated so far.
  virtual Value aliasWorkgroupBuffer(OpBuilder &b, Location loc, Value buffer,
                                     ArrayRef<int64_t> shape,
                                     Type elementType) {
    return nullptr;
  }
  /// The buffer that holds operand `operand`, in its own element type, or
  /// null when a fused producer computes it. For emitters that copy raw
  /// tiles (the GEMM engine's cp.async).
  virtual Value getOperandBuffer(unsigned operand) = 0;
  /// A buffer of `count` f32 in global memory for one launch of the kernel,
  /// filled with zero bytes right before it if `zeroed`: a new kernel
  /// argument (memref<count x f32>), through which the blocks of one launch
  /// exchange values. CUDA only.
  virtual Value allocateGlobalBuffer(OpBuilder &b, Location loc, int64_t count,
                                     bool zeroed) = 0;
  /// A TMA descriptor (tensor map) of the buffer of operand `operand` whose
  /// copies move boxes of `box` elements (one extent per dimension,
  /// outermost first): a new kernel argument, an !llvm.ptr to the 128-byte
  /// descriptor the runtime encodes and passes by value (#uta.tensor_map).
  /// Null when a fused producer computes the operand. CUDA only.
  virtual Value getOperandTensorMap(unsigned operand, ArrayRef<int64_t> box,
                                    unsigned swizzle = 0) {
    return nullptr;
  }
  /// Launches the kernel in clusters of `blocks` consecutive blocks (the
  /// kernel's known_cluster_size, and its launch's cluster shape): the GPU
  /// runs a cluster's blocks at the same time, on one GPC, and they may
  /// share shared memory. Returns false where this IO cannot launch in
  /// clusters (the default). For CUDA sm_90 and later only: the caller
  /// asks on that target alone.
  virtual bool setClusterBlocks(int64_t blocks) { return false; }

  /// Opens an access group in the current block: the buffer reads and
  /// writes emitted directly in it, lane by lane, are served by aligned
  /// vector accesses where `lanes` allows (VectorAccess.h). Groups do not
  /// nest; lane 0 is current.
  virtual void beginAccessGroup(OpBuilder &b, const AccessLanes &lanes) = 0;
  /// The lane whose code is emitted next.
  virtual void setLane(unsigned lane) = 0;
  /// Emits the group's deferred stores at the current point (in the group's
  /// block) and closes it.
  virtual void endAccessGroup(OpBuilder &b, Location loc) = 0;
};

/// What a kernel anchored by an op does with each element the op computes:
/// the fused consumers up to the kernel's root evaluated on `value` (the
/// op's f32 result at `indices`), and the store.
using ElementEpilogue = llvm::function_ref<void(
    OpBuilder &b, Location loc, ValueRange indices, Value value)>;

/// The arithmetic an op's kernel does, by the unit that does it: what the
/// manifest records for each launch (`uta.flops`) and profiles divide by
/// the kernel's time. A multiply-add counts two operations.
struct KernelFlops {
  /// Operations on the SIMT cores, roughly (the ops' estimates: a
  /// transcendental function counts as several).
  int64_t simt = 0;
  /// Operations on tensor cores, exactly (the GEMM's 2 M N K), in
  /// `tensorPrecision`: "bf16", "f16", "tf32" or "3xtf32" (f32 accuracy,
  /// three TF32 products counted once).
  int64_t tensor = 0;
  llvm::StringRef tensorPrecision;

  KernelFlops &operator+=(const KernelFlops &other);
};

/// Emits the code one thread runs for an op.
class OpKernelEmitter {
public:
  virtual ~OpKernelEmitter();
  /// The arithmetic of `op`'s kernel (or of its part of a fused kernel).
  /// By default all on the SIMT cores, from the ops' own estimates
  /// (KernelOpInterface per element, MultivectorOpInterface per position,
  /// an add per element reduced); emitters that plan GEMMs say what runs
  /// on tensor cores.
  virtual KernelFlops countFlops(Operation *op) const;
  /// For ops on the GEMM engine: the plan the lowering follows (the op's
  /// #uta.gemm_plan where it can be followed, else the engine's choice), as
  /// uta-plan-gemms attaches it; null for other ops and for an op that
  /// runs off the engine here.
  virtual GemmPlanAttr getPlanAttr(Operation *op) const { return nullptr; }
  /// The number of threads: the points of the op's iteration space, or
  /// fewer when `vectorize` lets a thread handle several.
  virtual int64_t getNumThreads(Operation *op, bool vectorize) const = 0;
  /// For emitters whose threads cooperate in blocks (workgroup memory and
  /// barriers, grade_rms_norm): the threads of one block, which divides
  /// getNumThreads so that every block is full. Such kernels have no range
  /// guard: every thread of every block runs the emitted code, so every
  /// barrier is reached by the whole block. std::nullopt when threads work
  /// alone: blocks of the pass's block size, the last one partial, threads
  /// past getNumThreads idle.
  virtual std::optional<int64_t> getBlockSize(Operation *op,
                                              bool vectorize) const {
    return std::nullopt;
  }
  /// Emits the work of thread `thread` (an index below getNumThreads). With
  /// `vectorize`, the emitter may use vector accesses (KernelIO access
  /// groups); every producer fused into the kernel is replicable then.
  virtual LogicalResult emit(OpBuilder &b, Operation *op, Value thread,
                             KernelIO &io, bool vectorize) const = 0;
  /// Whether emitElement computes any single element of the op's result on
  /// its own: such an op can be recomputed inside the kernel that reads it.
  virtual bool isElementComputable() const { return false; }
  /// Whether recomputing this op once per lane of a vectorized thread costs
  /// no more than the threads it saves: ops that compute a point without
  /// loops. A kernel is vectorized only when all its fused producers are.
  virtual bool isReplicable() const { return false; }
  /// The f32 value of the op's (only) result at `indices`, reading operands
  /// through `io`. Only for element-computable ops.
  virtual FailureOr<Value> emitElement(OpBuilder &b, Operation *op,
                                       ValueRange indices, KernelIO &io) const;
  /// For clifford ops whose threads compute every blade of one position
  /// together: the blade axis of `op`'s result, along which emitBlades
  /// returns a whole multivector. std::nullopt for every other op.
  virtual std::optional<int64_t> getBladeComputableAxis(Operation *op) const {
    return std::nullopt;
  }
  /// Whether `op`'s kernel is shaped by `op` even when `op` is fused into
  /// consumers (a matmul's GEMM tiles): the kernel then has getNumThreads
  /// and getBlockSize of `op`, and runs its consumers up to the root on each
  /// of `op`'s elements (emitAnchored) instead of recomputing `op` per
  /// element of the root.
  virtual bool isKernelAnchor() const { return false; }
  /// Emits a kernel anchored by `op` (isKernelAnchor): computes `op`'s
  /// result and hands each element to `epilogue` once.
  virtual LogicalResult emitAnchored(OpBuilder &b, Operation *op, KernelIO &io,
                                     ElementEpilogue epilogue) const {
    return op->emitOpError("cannot anchor a kernel");
  }
  /// Whether `op`'s kernel can also apply `norm` (a clifford.grade_rms_norm
  /// whose input is `op`'s result, read by nothing else) to its result
  /// (emitWithGradeNorm), saving the norm's kernel; with `remarks`, says why
  /// not where `op` could in another form.
  virtual bool canApplyGradeNorm(Operation *op, Operation *norm) const {
    return false;
  }
  /// Emits `op`'s kernel writing `norm`'s result (canApplyGradeNorm).
  virtual LogicalResult emitWithGradeNorm(OpBuilder &b, Operation *op,
                                          Operation *norm, KernelIO &io) const {
    return op->emitOpError("cannot apply a grade norm to its result");
  }
  /// The f32 blades, in blade order, of `op`'s result at `otherIndices` (the
  /// indices of its non-blade axes, in order), reading operands through `io`.
  /// Only for ops with a getBladeComputableAxis.
  virtual FailureOr<SmallVector<Value>> emitBlades(OpBuilder &b, Operation *op,
                                                   ValueRange otherIndices,
                                                   KernelIO &io) const {
    return op->emitOpError("cannot be computed a multivector at a time");
  }
};

/// An emitter whose kernel computes one result element per thread, or,
/// vectorized (if the emitter is replicable), 4 consecutive elements of
/// the row-major order: lanes along the innermost axis when its size is a
/// multiple of 4, else lanes over the flattened result with a scalar tail
/// for the last N % 4 elements.
class ElementEmitter : public OpKernelEmitter {
public:
  int64_t getNumThreads(Operation *op, bool vectorize) const override;
  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool vectorize) const override;
  bool isElementComputable() const override { return true; }

private:
  /// Whether threads take 4 elements each.
  bool hasLanes(Operation *op, bool vectorize) const;
  /// The scalar work of element `linear` of the result.
  LogicalResult emitScalar(OpBuilder &b, Operation *op, Value linear,
                           KernelIO &io) const;
};

/// The emitters of all op families, by op.
class KernelEmitterRegistry {
public:
  template <typename Emitter, typename... Ops, typename... Args>
  void add(Args &&...args) {
    auto emitter = std::make_shared<Emitter>(std::forward<Args>(args)...);
    (emitters.try_emplace(TypeID::get<Ops>(), emitter), ...);
  }
  /// The emitter of `op`, or null when no family handles it.
  const OpKernelEmitter *lookup(Operation *op) const {
    return lookup(op->getName());
  }
  /// The emitter of ops named `name`, or null when no family handles them.
  const OpKernelEmitter *lookup(OperationName name) const;

private:
  llvm::DenseMap<TypeID, std::shared_ptr<OpKernelEmitter>> emitters;
};

/// Elementwise ops, casts and data movement (transpose, reshape, broadcast).
void populatePointwiseKernelEmitters(KernelEmitterRegistry &registry);
/// reduce_sum, reduce_max, reduce_mean, softmax, layer_norm.
void populateReductionKernelEmitters(KernelEmitterRegistry &registry);
/// matmul, on the GEMM engine (Gemm/GemmPlan.h) for `target`.
void populateMatmulKernelEmitters(KernelEmitterRegistry &registry,
                                  const GemmTarget &target, bool remarks);
/// Every clifford op; fc_product on the GEMM engine for `target` where
/// tensor cores apply.
void populateCliffordKernelEmitters(KernelEmitterRegistry &registry,
                                    const GemmTarget &target, bool remarks);
/// All of the above: the emitter of every op of both dialects.
void populateKernelEmitters(KernelEmitterRegistry &registry,
                            const GemmTarget &target, bool remarks);

/// The GEMM target of a pass's target options (sm, arch-specific,
/// tensor-cores, allow-tf32, gemm-config); std::nullopt, with an error at
/// `module`, where `gemmConfig` names no row of the engine's tables.
std::optional<GemmTarget> getGemmTarget(Operation *module, unsigned sm,
                                        bool archSpecific, bool tensorCores,
                                        bool allowTf32, StringRef gemmConfig);

//===----------------------------------------------------------------------===//
// Helpers shared by the emitters
//===----------------------------------------------------------------------===//

/// The number of elements of a static shape.
int64_t getNumElements(ArrayRef<int64_t> shape);

/// Splits the row-major linear index `linear` over `shape` into indices
/// (constant 0 for dimensions of size 1).
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
