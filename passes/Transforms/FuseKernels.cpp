//===- FuseKernels.cpp - Partition a graph into kernels -------------------===//
//
// The `fused` phase: groups each kernel root with the producers it
// recomputes into a uta.fusion op. The decisions come from one cost model
// (FusionCostModel), which asks the ops for their fusion class and costs
// (KernelOpInterface, MultivectorOpInterface); convert-uta-to-gpu turns each
// group into one kernel. A producer read by several kernels may be
// duplicated: each recomputes it, and the original goes when no kernel
// reads it any more.
// With remarks=true each decision is reported at the producer, with the
// reason the cost model gives.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "passes/Analysis/FcProductTiling.h"
#include "passes/Analysis/GradeAnalysis.h"
#include "passes/Analysis/GradeNormLayout.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTAFUSEKERNELSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// Whether a producer is recomputed inside a consumer's kernel, and why.
struct FusionDecision {
  bool fuse = false;
  /// How many times the kernel computes each element (position, for
  /// clifford producers) of a fused producer.
  int64_t computations = 0;
  /// Why: the remark is "fused into 'consumer': <reason>" or "not fused
  /// into 'consumer': <reason>".
  std::string reason;

  static FusionDecision yes(int64_t computations, const Twine &why) {
    return {true, computations, why.str()};
  }
  static FusionDecision no(const Twine &why) { return {false, 0, why.str()}; }
};

/// How `op` is called in remarks: 'uta.add'.
static std::string quoted(Operation *op) {
  return ("'" + op->getName().getStringRef() + "'").str();
}

/// Seconds as a remark prints them: microseconds, three digits.
static std::string formatMicroseconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.3g us", seconds * 1e6);
  return text;
}

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

static double getBytes(Value value) {
  RankedTensorType type = getTensorType(value);
  return static_cast<double>(type.getNumElements()) *
         type.getElementTypeBitWidth() / 8;
}

/// The kernel that a consumer belongs to, as far as the decision for one of
/// its producers needs it.
struct ConsumerInKernel {
  Operation *op;
  /// How many times the kernel computes each element of `op`.
  int64_t computations = 1;
  /// Whether the kernel writes element i of its root from element i of
  /// `op` (FusionCostModel::decideEpilogue).
  bool aligned = true;
  /// Whether the kernel already runs a matmul.
  bool kernelHasMatmul = false;
};

/// The one place that decides what fuses. Ops answer for themselves through
/// KernelOpInterface (fusion class, cost of an element) and
/// MultivectorOpInterface (algebra, blade axis, cost of a position).
class FusionCostModel {
public:
  /// `tensorCores`: the kernels are for tensor cores, where fc_product runs
  /// on the GEMM engine, which copies its operands from memory.
  explicit FusionCostModel(bool tensorCores) : tensorCores(tensorCores) {}

  /// Whether `producer` is recomputed inside the kernel of `consumer`. A
  /// producer that other ops read too is duplicated: each kernel that takes
  /// it recomputes it, and it is fused only when every reader can.
  FusionDecision decide(Operation *producer,
                        const ConsumerInKernel &consumer) const {
    if (std::optional<FusionDecision> epilogue =
            decideEpilogue(producer, consumer))
      return *epilogue;
    FusionClass producerClass = getFusionClass(producer);
    if (producerClass == FusionClass::Opaque)
      return FusionDecision::no(quoted(producer) +
                                " is always a kernel of its own");
    SmallPtrSet<Operation *, 4> readers(producer->getUsers().begin(),
                                        producer->getUsers().end());
    if (producerClass == FusionClass::Anchor && !producer->hasOneUse())
      return FusionDecision::no(
          "the result is needed elsewhere (" + describeUses(producer) +
          "): it is computed once and stored, since each recomputation "
          "would repeat its loop");
    FusionDecision here = decideForReader(producer, consumer);
    if (!here.fuse || readers.size() == 1)
      return here;
    return decideDuplicate(producer, readers);
  }

  /// Whether `consumer` writes element i of its result from element i of
  /// `producer`'s: an elementwise op or cast whose result has the
  /// producer's shape.
  static bool isIndexAligned(Operation *producer, Operation *consumer) {
    return consumer->hasTrait<mlir::uta::OpTrait::Elementwise>() &&
           getTensorType(producer->getResult(0)).getShape() ==
               getTensorType(consumer->getResult(0)).getShape();
  }

private:
  /// The decision for the reads of `producer` by one consumer: every use
  /// there is a recomputation.
  FusionDecision decideForReader(Operation *producer,
                                 const ConsumerInKernel &consumer) const {
    Operation *op = consumer.op;
    if (tensorCores && isa<clifford::FcProductOp>(op))
      return FusionDecision::no("fc_product runs on the tensor-core GEMM "
                                "engine, which copies its operands from "
                                "memory");
    int64_t uses = llvm::count(op->getOperands(), producer->getResult(0));
    if (getFusionClass(producer) == FusionClass::Bladewise ||
        isa<clifford::MultivectorOpInterface>(op))
      return decideMultivector(producer, consumer, uses);
    FusionClass consumerClass = getFusionClass(op);
    if (consumerClass == FusionClass::Opaque)
      return FusionDecision::no(quoted(op) + " is always a kernel of its own");
    if (isa<MatmulOp>(op))
      return FusionDecision::no(
          "a matmul reads each element of its operands once per row or "
          "column of its result, so it would be recomputed that often");
    if (getFusionClass(producer) == FusionClass::Anchor &&
        consumerClass != FusionClass::Pointwise)
      return FusionDecision::no(
          "a matmul or reduction fuses only into a pointwise consumer, as "
          "its epilogue; inside a reduction it would run serially in each "
          "thread");
    if (!readsEachElementOnce(producer, op))
      return FusionDecision::no(
          "the consumer broadcasts it and would recompute each element for "
          "every copy");
    int64_t computations = consumer.computations * uses;
    if (computations == 1)
      return FusionDecision::yes(1, "its consumer reads each element once");
    return decideByCost(producer, computations,
                        getTensorType(producer->getResult(0)).getNumElements(),
                        getFlopsPerElement(producer), "element");
  }

  /// A matmul shapes its kernel (the GEMM engine's tiles) and runs the
  /// consumers it fuses into as its epilogue, on each accumulator where it
  /// is computed. So it fuses only where every op from the consumer up to
  /// the kernel's root writes element i where it reads the matmul's element
  /// i (`consumer.aligned`: elementwise ops and casts of the matmul's
  /// shape), and only into a kernel that runs no other matmul.
  static std::optional<FusionDecision>
  decideEpilogue(Operation *producer, const ConsumerInKernel &consumer) {
    if (!isa<MatmulOp>(producer))
      return std::nullopt;
    if (consumer.kernelHasMatmul)
      return FusionDecision::no(
          "the kernel already runs a matmul, and the GEMM engine runs one "
          "per kernel");
    if (!consumer.aligned || !isIndexAligned(producer, consumer.op))
      return FusionDecision::no(
          "a matmul's epilogue runs on each accumulator where it is "
          "computed, so its consumers up to the kernel's root must write "
          "each element where they read it (elementwise ops and casts of the "
          "matmul's shape)");
    return std::nullopt;
  }

  /// A producer read by several ops fuses only when every reader can
  /// recompute it and recomputing it in each costs less than what
  /// duplicating saves: its own kernel (a launch), the store of its result
  /// and the reloads of it, less the extra reads of its operands that each
  /// recomputation makes. Each reader is judged as its only reader would be
  /// (computed once per element of the reader).
  FusionDecision
  decideDuplicate(Operation *producer,
                  const SmallPtrSetImpl<Operation *> &readers) const {
    int64_t computations = 0;
    for (Operation *reader : readers) {
      FusionDecision alone = decideForReader(producer, {reader});
      if (!alone.fuse)
        return FusionDecision::no("it has " + describeUses(producer) + " and " +
                                  quoted(reader) + " cannot recompute it (" +
                                  alone.reason +
                                  "): it is stored once and read by each");
      computations += alone.computations;
    }
    Value result = producer->getResult(0);
    double operandBytes = 0;
    for (Value operand : producer->getOperands())
      operandBytes += getBytes(operand);
    int64_t uses = std::distance(result.use_begin(), result.use_end());
    double savedBytes =
        operandBytes + (uses + 1) * getBytes(result) - uses * operandBytes;
    double units = getTensorType(result).getNumElements();
    double flops = getFlopsPerElement(producer);
    if (auto multivector =
            dyn_cast<clifford::MultivectorOpInterface>(producer)) {
      units /= multivector.getAlgebra().getAlgebra().numBlades();
      flops = multivector.estimateFlopsPerPosition();
    }
    double extraSeconds = (computations - 1) * flops * units / kFlopsPerSecond;
    double savedSeconds = savedBytes / kBytesPerSecond + kLaunchSeconds;
    std::string costs = llvm::formatv(
        "it has {0}, and computing it {1} times instead of once costs {2} "
        "more, against {3} for its kernel, its store and its reloads less "
        "the rereads of its operands",
        describeUses(producer), computations, formatMicroseconds(extraSeconds),
        formatMicroseconds(savedSeconds));
    if (extraSeconds < savedSeconds)
      return FusionDecision::yes(computations, costs);
    return FusionDecision::no(costs);
  }

  /// "2 consumers" or "2 uses in one consumer".
  static std::string describeUses(Operation *producer) {
    Value value = producer->getResult(0);
    SmallPtrSet<Operation *, 4> users(value.getUsers().begin(),
                                      value.getUsers().end());
    if (users.size() > 1)
      return llvm::formatv("{0} consumers", users.size()).str();
    return llvm::formatv("{0} uses in one consumer",
                         std::distance(value.use_begin(), value.use_end()))
        .str();
  }

  /// Whether computing all of `consumer` reads each element of `producer`'s
  /// result once: reductions do; pointwise ops do unless they broadcast it.
  static bool readsEachElementOnce(Operation *producer, Operation *consumer) {
    if (getFusionClass(consumer) == FusionClass::Anchor)
      return !isa<MatmulOp>(consumer);
    return getTensorType(producer->getResult(0)).getNumElements() ==
           getTensorType(consumer->getResult(0)).getNumElements();
  }

  /// A clifford consumer recomputes a producer where it reads it: a clifford
  /// producer of its algebra and blade axis a multivector at a time, a
  /// pointwise uta producer blade by blade. A clifford producer fuses only
  /// into clifford consumers. A producer that the kernel computes R times
  /// per position fuses when the R - 1 extra computations cost less than
  /// what fusing saves: a store and a load of its 2^n blades per position,
  /// and one kernel launch. R is 1 for the position-wise consumers, 2 for
  /// grade_rms_norm and its adjoint (two passes over the features), the
  /// output tiles of fc_product's blocks (FcProductTiling.h), the broadcast
  /// copies for a broadcast operand, times R of the consumer itself and the
  /// uses of the producer in the consumer.
  FusionDecision decideMultivector(Operation *producer,
                                   const ConsumerInKernel &consumer,
                                   int64_t uses) const {
    auto consumerOp = dyn_cast<clifford::MultivectorOpInterface>(consumer.op);
    auto producerOp = dyn_cast<clifford::MultivectorOpInterface>(producer);
    if (!consumerOp)
      return FusionDecision::no("a clifford producer is recomputed only "
                                "inside a clifford consumer's kernel");
    if (getFusionClass(producer) != FusionClass::Pointwise &&
        getFusionClass(producer) != FusionClass::Bladewise)
      return FusionDecision::no(
          "a matmul or reduction is not recomputed inside a clifford "
          "consumer's kernel");
    if (producerOp &&
        (producerOp.getAlgebra() != consumerOp.getAlgebra() ||
         producerOp.getMultivectorAxis() != consumerOp.getMultivectorAxis()))
      return FusionDecision::no(
          "its algebra or blade axis differs from the consumer's, which "
          "recomputes producers a multivector at a time along its own");
    std::optional<int64_t> reads =
        getReadsPerPosition(producer->getResult(0), consumerOp);
    if (!reads)
      return FusionDecision::no(quoted(consumer.op) +
                                " does not read this operand a multivector "
                                "at a time");
    int64_t computations = *reads * consumer.computations * uses;
    Value result = producer->getResult(0);
    int64_t axis = consumerOp.getMultivectorAxis();
    int64_t positions = getNumPositions(result, axis);
    double flops = producerOp ? producerOp.estimateFlopsPerPosition()
                              : getFlopsPerElement(producer) *
                                    getTensorType(result).getDimSize(axis);
    if (computations == 1)
      return FusionDecision::yes(
          1, "it is computed once per position either way, and fusing "
             "saves " +
                 formatMicroseconds(getRoundTripSeconds(producer)) +
                 " for a store, a reload and a launch");
    return decideByCost(producer, computations, positions, flops, "position");
  }

  /// Fuses when computing `producer` `computations` times per `unit`
  /// (element or position; `units` of them, `flops` each) costs less than
  /// storing and reloading it and a launch.
  static FusionDecision decideByCost(Operation *producer, int64_t computations,
                                     double units, double flops,
                                     StringRef unit) {
    double extraSeconds = (computations - 1) * flops * units / kFlopsPerSecond;
    double savedSeconds = getRoundTripSeconds(producer);
    std::string costs = llvm::formatv(
        "computing it {0} times per {1} costs {2} more, against {3} for a "
        "store, a reload and a launch",
        computations, unit, formatMicroseconds(extraSeconds),
        formatMicroseconds(savedSeconds));
    if (extraSeconds <= savedSeconds)
      return FusionDecision::yes(computations, costs);
    return FusionDecision::no(costs);
  }

  /// What a producer's own kernel costs beyond the recomputation: a store
  /// and a reload of its result, and a launch.
  static double getRoundTripSeconds(Operation *producer) {
    return 2.0 * getBytes(producer->getResult(0)) / kBytesPerSecond +
           kLaunchSeconds;
  }

  /// How often `consumer`'s kernel reads each position of `value`;
  /// std::nullopt for operands it does not read as multivectors.
  static std::optional<int64_t>
  getReadsPerPosition(Value value, clifford::MultivectorOpInterface consumer) {
    if (!llvm::is_contained(consumer.getMultivectorOperands(), value))
      return std::nullopt;
    // The norm and its adjoint read their operands in two passes over the
    // features, the second from registers when the values fit there.
    if (isa<clifford::GradeRmsNormOp, clifford::GradeRmsNormAdjointOp>(
            consumer))
      return getGradeNormLayout(consumer).resident ? 1 : 2;
    // One thread per (run of batch elements, feature) reads each position
    // of its operands once, in its loop over the run.
    if (isa<clifford::PathAdjointOp>(consumer))
      return 1;
    // Each block stages the x and y of its rows and input features: once
    // per output tile.
    if (auto fc = dyn_cast<clifford::FcProductOp>(*consumer))
      return getFcProductTiling(fc).getOperandReads();
    if (getFusionClass(consumer) != FusionClass::Bladewise)
      return std::nullopt;
    // One thread per result position reads each operand there: a broadcast
    // operand is read by every position it is broadcast to.
    int64_t axis = consumer.getMultivectorAxis();
    int64_t positions = getNumPositions(consumer->getResult(0), axis);
    int64_t valuePositions = getNumPositions(value, axis);
    return valuePositions == 0 ? 1 : positions / valuePositions;
  }

  /// The positions of `value` along its axes other than `bladeAxis`. Not
  /// the elements over 2^n: an operand's blade axis may have one entry (the
  /// cotangent of product_adjoint's scalar product).
  static int64_t getNumPositions(Value value, int64_t bladeAxis) {
    RankedTensorType type = getTensorType(value);
    int64_t blades = type.getDimSize(bladeAxis);
    return blades == 0 ? 0 : type.getNumElements() / blades;
  }

  static double getFlopsPerElement(Operation *op) {
    if (auto kernelOp = dyn_cast<KernelOpInterface>(op))
      return kernelOp.estimateFlopsPerElement();
    return 1;
  }

  /// The machine balance that weighs recomputation against memory traffic:
  /// f32 operations per second of the emitted scalar code, device memory
  /// bytes per second, seconds per kernel launch. Estimates from the Flash
  /// Clifford layers on an H200 (fc_product with recomputed gates; the
  /// scalar_gate kernels).
  static constexpr double kFlopsPerSecond = 30e12;
  static constexpr double kBytesPerSecond = 4e12;
  static constexpr double kLaunchSeconds = 4e-6;

  bool tensorCores;
};

/// Builds a uta.fusion at `root` from `members` (a root and the producers it
/// recomputes, in block order), cloning them into its body. The originals
/// stay for their other readers; the caller erases those left unread.
void buildFusion(Operation *root, ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 8> inGroup(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : members)
    for (Value operand : op->getOperands())
      if (!inGroup.contains(operand.getDefiningOp()))
        inputs.insert(operand);

  OpBuilder b(root);
  Value result = root->getResult(0);
  auto fusion = FusionOp::create(b, root->getLoc(), result.getType(),
                                 inputs.getArrayRef());
  Block *body = b.createBlock(&fusion.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  for (Operation *op : members)
    b.clone(*op, mapping);
  YieldOp::create(b, root->getLoc(), mapping.lookup(result));
  result.replaceAllUsesWith(fusion.getResult());
}

/// One kernel being formed: its root first, then the producers it takes.
struct KernelGroup {
  SmallVector<Operation *> members;
  /// Per member: how it is read (ConsumerInKernel), and whether other
  /// kernels may compute it too (a duplicated producer, or a producer of
  /// one), so that it stays available to them.
  SmallVector<ConsumerInKernel> contexts;
  SmallVector<bool> shared;
  llvm::SmallPtrSet<Operation *, 8> memberSet;
  bool hasMatmul = false;
};

struct UTAFuseKernelsPass final
    : mlir::uta::impl::UTAFuseKernelsPassBase<UTAFuseKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (policy != "default" && policy != "none") {
      getOperation().emitError("unknown fusion policy '")
          << policy << "' (expected default or none)";
      return signalPassFailure();
    }
    if (policy == "none") {
      if (remarks)
        getOperation().emitRemark(
            "fusion is off (policy none): every op is a kernel of its own");
      return;
    }
    FusionCostModel model(tensorCores);
    Block &block = getOperation().getBody().front();
    // Ops in a kernel alone (no other kernel may take them); ops that some
    // kernels took as shared members, with those kernels' indices.
    llvm::SmallPtrSet<Operation *, 32> assigned;
    llvm::DenseMap<Operation *, SmallVector<unsigned, 2>> takenBy;
    llvm::DenseSet<std::pair<Operation *, Operation *>> remarked;
    std::vector<KernelGroup> groups;
    // Consumers come after producers: walking backwards, every root is found
    // before the producers it may take.
    for (Operation &op : llvm::reverse(block)) {
      if (!isKernelOp(&op) || assigned.contains(&op) ||
          isReadOnlyByTakers(&op, takenBy, groups))
        continue;
      KernelGroup group;
      addMember(group, &op, {&op}, /*shared=*/false);
      for (size_t next = 0; next < group.members.size(); ++next) {
        ConsumerInKernel consumer = group.contexts[next];
        for (Value operand : consumer.op->getOperands()) {
          consumer.kernelHasMatmul = group.hasMatmul;
          Operation *producer = operand.getDefiningOp();
          if (!producer || !isKernelOp(producer) ||
              producer->getBlock() != &block || assigned.contains(producer) ||
              group.memberSet.contains(producer))
            continue;
          FusionDecision decision = model.decide(producer, consumer);
          // One remark per producer and consumer, however often it reads it.
          if (remarks && remarked.insert({producer, consumer.op}).second)
            producer->emitRemark()
                << (decision.fuse ? "fused into " : "not fused into ")
                << quoted(consumer.op) << ": " << decision.reason;
          if (!decision.fuse)
            continue;
          bool shared = group.shared[next] || !hasOneReader(producer);
          addMember(group, producer,
                    {producer, decision.computations,
                     consumer.aligned && FusionCostModel::isIndexAligned(
                                             producer, consumer.op)},
                    shared);
        }
      }
      unsigned index = groups.size();
      for (auto [member, shared] :
           llvm::zip_equal(group.members, group.shared)) {
        if (shared)
          takenBy[member].push_back(index);
        else
          assigned.insert(member);
      }
      groups.push_back(std::move(group));
    }

    SmallVector<Operation *> taken;
    for (KernelGroup &group : groups) {
      if (group.members.size() == 1)
        continue;
      SmallVector<Operation *> members(group.members);
      llvm::sort(members, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      buildFusion(group.members.front(), members);
      llvm::append_range(taken, members);
    }
    // The originals that no kernel reads any more, consumers first.
    llvm::sort(taken, [](Operation *a, Operation *b) {
      return b->isBeforeInBlock(a);
    });
    taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
    for (Operation *op : taken)
      if (op->use_empty())
        op->erase();
  }

private:
  static bool isKernelOp(Operation *op) {
    return op->getNumResults() == 1 && !isa<FusionOp>(op) &&
           isa<UTADialect, clifford::CliffordDialect>(op->getDialect());
  }

  /// Whether a single op reads `op` (however many times).
  static bool hasOneReader(Operation *op) {
    return llvm::all_equal(op->getUsers());
  }

  /// Whether every op that reads `op` is in a kernel that recomputes `op`:
  /// then `op` needs no kernel of its own.
  static bool isReadOnlyByTakers(
      Operation *op,
      const llvm::DenseMap<Operation *, SmallVector<unsigned, 2>> &takenBy,
      ArrayRef<KernelGroup> groups) {
    auto it = takenBy.find(op);
    if (it == takenBy.end())
      return false;
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      return llvm::any_of(it->second, [&](unsigned index) {
        return groups[index].memberSet.contains(user);
      });
    });
  }

  static void addMember(KernelGroup &group, Operation *op,
                        ConsumerInKernel context, bool shared) {
    group.members.push_back(op);
    group.contexts.push_back(context);
    group.shared.push_back(shared);
    group.memberSet.insert(op);
    group.hasMatmul |= isa<MatmulOp>(op);
  }
};

} // namespace
