//===- FuseKernels.cpp - Partition a graph into kernels -------------------===//
//
// The `fused` phase: groups each kernel root with the producers it
// recomputes into a uta.fusion op. The decisions come from one cost model
// (FusionCostModel); convert-uta-to-gpu turns each group into one kernel.
// With remarks=true each decision is reported at the producer, with the
// reason the cost model gives.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "passes/Analysis/FcProductTiling.h"
#include "passes/Analysis/GradeAnalysis.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTAFUSEKERNELSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// What a kernel can do with an op it reads.
enum class OpKind {
  /// Elementwise, layout and cast ops: an element costs O(1).
  kPointwise,
  /// Matmul and reductions: an element costs a loop.
  kElementAnchor,
  /// Clifford ops that compute every blade of one position of their result
  /// from their operands at that position (products, sandwich, involutions,
  /// projection, dual, gate, weighted_product): a position costs its non-zero
  /// terms, and a kernel recomputes it a whole multivector at a time.
  kBladewise,
  /// Everything else (softmax, layer_norm, scalar_product, fc_product,
  /// grade_rms_norm): always a root.
  kOpaque,
};

/// The algebra and blade axis of a clifford op; null for other ops.
static std::pair<clifford::AlgebraAttr, int64_t>
getMultivectorLayout(Operation *op) {
  using namespace clifford;
  using Layout = std::pair<AlgebraAttr, int64_t>;
  return llvm::TypeSwitch<Operation *, Layout>(op)
      .Case<GeometricProductOp, OuterProductOp, LeftContractionOp,
            ScalarProductOp, SandwichOp, ReverseOp, GradeInvolutionOp,
            ConjugateOp, GradeProjectOp, DualOp, ScalarGateOp,
            WeightedProductOp, FcProductOp, GradeRmsNormOp>(
          [](auto op) { return Layout(op.getAlgebra(), op.getBladeAxis()); })
      .Default([](Operation *) { return Layout(); });
}

/// Whether a producer is recomputed inside a consumer's kernel, and why.
struct FusionDecision {
  bool fuse = false;
  /// Why: the remark is "fused into 'consumer': <reason>" or "not fused
  /// into 'consumer': <reason>".
  std::string reason;

  static FusionDecision yes(const Twine &why) { return {true, why.str()}; }
  static FusionDecision no(const Twine &why) { return {false, why.str()}; }
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

/// The one place that decides what fuses.
class FusionCostModel {
public:
  static OpKind classify(Operation *op) {
    using namespace clifford;
    if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, NegOp, AbsOp, ExpOp,
            LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp, ReluOp, SiluOp, GeluOp,
            TransposeOp, ReshapeOp, BroadcastToOp, CastOp>(op))
      return OpKind::kPointwise;
    if (isa<MatmulOp, ReduceSumOp, ReduceMaxOp, ReduceMeanOp>(op))
      return OpKind::kElementAnchor;
    // scalar_product's result has no blade axis to hand on.
    if (isa<GeometricProductOp, OuterProductOp, LeftContractionOp, SandwichOp,
            ReverseOp, GradeInvolutionOp, ConjugateOp, GradeProjectOp, DualOp,
            ScalarGateOp, WeightedProductOp>(op))
      return OpKind::kBladewise;
    return OpKind::kOpaque;
  }

  /// Whether `producer` is recomputed inside the kernel of `consumer`, which
  /// computes each element of `consumer` `consumerComputations` times;
  /// `consumerAligned` and `kernelHasMatmul` as decideEpilogue takes them.
  /// `tensorCores`: the kernels are for tensor cores, where fc_product runs
  /// on the GEMM engine, which copies its operands from memory.
  static FusionDecision decide(Operation *producer, Operation *consumer,
                               int64_t consumerComputations,
                               bool consumerAligned, bool kernelHasMatmul,
                               bool tensorCores) {
    if (tensorCores && isa<clifford::FcProductOp>(consumer))
      return FusionDecision::no("fc_product runs on the tensor-core GEMM "
                                "engine, which copies its operands from "
                                "memory");
    if (std::optional<FusionDecision> epilogue = decideEpilogue(
            producer, consumer, consumerAligned, kernelHasMatmul))
      return *epilogue;
    OpKind producerKind = classify(producer);
    if (producerKind == OpKind::kOpaque)
      return FusionDecision::no(quoted(producer) +
                                " is always a kernel of its own");
    if (!producer->hasOneUse())
      return decideShared(producer);
    if (producerKind == OpKind::kBladewise ||
        getMultivectorLayout(consumer).first)
      return decideMultivector(producer, consumer, consumerComputations);
    OpKind consumerKind = classify(consumer);
    if (consumerKind == OpKind::kOpaque)
      return FusionDecision::no(quoted(consumer) +
                                " is always a kernel of its own");
    if (isa<MatmulOp>(consumer))
      return FusionDecision::no(
          "a matmul reads each element of its operands once per row or "
          "column of its result, so it would be recomputed that often");
    if (producerKind == OpKind::kElementAnchor &&
        consumerKind != OpKind::kPointwise)
      return FusionDecision::no(
          "a matmul or reduction fuses only into a pointwise consumer, as "
          "its epilogue; inside a reduction it would run serially in each "
          "thread");
    if (!readsEachElementOnce(producer, consumer))
      return FusionDecision::no(
          "the consumer broadcasts it and would recompute each element for "
          "every copy");
    return FusionDecision::yes("its consumer reads each element once");
  }

  /// A matmul shapes its kernel (the GEMM engine's tiles) and runs the
  /// consumers it fuses into as its epilogue, on each accumulator where it
  /// is computed. So it fuses only where every op from `consumer` up to the
  /// kernel's root writes element i where it reads the matmul's element i
  /// (`consumerAligned`: elementwise ops and casts of the matmul's shape),
  /// and only into a kernel that runs no other matmul.
  static std::optional<FusionDecision> decideEpilogue(Operation *producer,
                                                      Operation *consumer,
                                                      bool consumerAligned,
                                                      bool kernelHasMatmul) {
    if (!isa<MatmulOp>(producer))
      return std::nullopt;
    if (kernelHasMatmul)
      return FusionDecision::no(
          "the kernel already runs a matmul, and the GEMM engine runs one "
          "per kernel");
    if (!consumerAligned || !isIndexAligned(producer, consumer))
      return FusionDecision::no(
          "a matmul's epilogue runs on each accumulator where it is "
          "computed, so its consumers up to the kernel's root must write "
          "each element where they read it (elementwise ops and casts of the "
          "matmul's shape)");
    return std::nullopt;
  }

  /// Whether `consumer` writes element i of its result from element i of
  /// `producer`'s: an elementwise op or cast whose result has the
  /// producer's shape.
  static bool isIndexAligned(Operation *producer, Operation *consumer) {
    if (classify(consumer) != OpKind::kPointwise ||
        isa<TransposeOp, ReshapeOp, BroadcastToOp>(consumer))
      return false;
    return getStaticShape(producer->getResult(0)) ==
           getStaticShape(consumer->getResult(0));
  }

  /// How many times a fused `producer` is computed per element, inside a
  /// consumer computed `consumerComputations` times per element.
  static int64_t getComputations(Operation *producer, Operation *consumer,
                                 int64_t consumerComputations) {
    if (classify(producer) != OpKind::kBladewise)
      return consumerComputations; // uta ops fuse only where read once.
    return consumerComputations * *getReadsPerPosition(producer, consumer);
  }

private:
  /// A producer with several uses stays in memory: a kernel recomputes only
  /// a producer that it alone reads.
  static FusionDecision decideShared(Operation *producer) {
    Value value = producer->getResult(0);
    SmallPtrSet<Operation *, 4> users(value.getUsers().begin(),
                                      value.getUsers().end());
    std::string uses =
        users.size() > 1
            ? llvm::formatv("{0} consumers", users.size()).str()
            : llvm::formatv("{0} uses in one consumer",
                            std::distance(value.use_begin(), value.use_end()))
                  .str();
    if (isa<ReduceSumOp, ReduceMaxOp, ReduceMeanOp, MatmulOp>(producer))
      return FusionDecision::no(
          "the result is needed elsewhere (" + uses +
          "): it is computed once and stored, since each recomputation "
          "would repeat its loop");
    return FusionDecision::no(
        "it has " + uses +
        ": it is stored once and read by each, since a kernel recomputes "
        "only a producer that it alone reads");
  }

  /// Whether computing all of `consumer` reads each element of `producer`'s
  /// result once: reductions do; pointwise ops do unless they broadcast it.
  static bool readsEachElementOnce(Operation *producer, Operation *consumer) {
    if (isa<ReduceSumOp, ReduceMaxOp, ReduceMeanOp>(consumer))
      return true;
    if (isa<MatmulOp>(consumer))
      return false;
    auto type = cast<RankedTensorType>(producer->getResult(0).getType());
    auto resultType = cast<RankedTensorType>(consumer->getResult(0).getType());
    return type.getNumElements() == resultType.getNumElements();
  }

  /// Clifford producers fuse only into clifford consumers of the same
  /// algebra and blade axis, which recompute them a multivector at a time
  /// (and uta ops never into clifford ones, for now). A producer that the
  /// kernel computes R times per position fuses when the R - 1 extra
  /// computations cost less than what fusing saves: a store and a load of
  /// its 2^n blades per position, and one kernel launch. R is 1 for the
  /// position-wise consumers, 2 for grade_rms_norm (two passes over the
  /// features), the output tiles of fc_product's blocks (FcProductTiling.h),
  /// the broadcast copies for a broadcast operand, times R of the consumer
  /// itself.
  static FusionDecision decideMultivector(Operation *producer,
                                          Operation *consumer,
                                          int64_t consumerComputations) {
    std::pair<clifford::AlgebraAttr, int64_t> layout =
        getMultivectorLayout(consumer);
    if (classify(producer) != OpKind::kBladewise)
      return FusionDecision::no("a uta producer is not recomputed inside a "
                                "clifford consumer's kernel");
    if (!layout.first)
      return FusionDecision::no("a clifford producer is recomputed only "
                                "inside a clifford consumer's kernel");
    if (getMultivectorLayout(producer) != layout)
      return FusionDecision::no(
          "its algebra or blade axis differs from the consumer's, which "
          "recomputes producers a multivector at a time along its own");
    std::optional<int64_t> reads = getReadsPerPosition(producer, consumer);
    if (!reads)
      return FusionDecision::no(quoted(consumer) +
                                " does not read this operand a multivector "
                                "at a time");
    const ::uta::ga::Algebra &algebra = layout.first.getAlgebra();
    auto type = cast<RankedTensorType>(producer->getResult(0).getType());
    double positions =
        static_cast<double>(type.getNumElements()) / algebra.numBlades();
    int64_t computations = *reads * consumerComputations;
    double extraSeconds = static_cast<double>(computations - 1) *
                          estimateFlopsPerPosition(producer, algebra) *
                          positions / kFlopsPerSecond;
    double savedSeconds = 2.0 * type.getNumElements() *
                              type.getElementTypeBitWidth() / 8 /
                              kBytesPerSecond +
                          kLaunchSeconds;
    if (computations == 1)
      return FusionDecision::yes(
          "it is computed once per position either way, and fusing saves " +
          formatMicroseconds(savedSeconds) +
          " for a store, a reload and a launch");
    std::string costs = llvm::formatv(
        "computing it {0} times per position costs {1} more, against {2} "
        "for a store, a reload and a launch",
        computations, formatMicroseconds(extraSeconds),
        formatMicroseconds(savedSeconds));
    if (extraSeconds <= savedSeconds)
      return FusionDecision::yes(costs);
    return FusionDecision::no(costs);
  }

  /// How often `consumer`'s kernel reads each position of `producer`'s
  /// result; std::nullopt for consumers that do not read multivectors.
  static std::optional<int64_t> getReadsPerPosition(Operation *producer,
                                                    Operation *consumer) {
    using namespace clifford;
    Value value = producer->getResult(0);
    int64_t blades =
        getMultivectorLayout(consumer).first.getAlgebra().numBlades();
    if (isa<GradeRmsNormOp>(consumer))
      return 2;
    // Each block stages the x and y of its rows and input features: once
    // per output tile.
    if (auto fc = dyn_cast<FcProductOp>(consumer))
      return value == fc.getWeights()
                 ? std::nullopt
                 : std::optional<int64_t>(
                       getFcProductTiling(fc).getOperandReads());
    if (classify(consumer) != OpKind::kBladewise)
      return std::nullopt;
    // One thread per result position reads each operand there: a broadcast
    // operand is read by every position it is broadcast to.
    int64_t positions = cast<RankedTensorType>(consumer->getResult(0).getType())
                            .getNumElements() /
                        blades;
    int64_t producerPositions =
        cast<RankedTensorType>(value.getType()).getNumElements() / blades;
    return producerPositions == 0 ? 1 : positions / producerPositions;
  }

  /// f32 operations to compute one position (every blade) of `op`, roughly:
  /// products count the Cayley terms their kernel holds, after the operand
  /// blade sets that the grade analysis recorded.
  static double estimateFlopsPerPosition(Operation *op,
                                         const ::uta::ga::Algebra &algebra) {
    using namespace clifford;
    double blades = algebra.numBlades();
    auto mask = [](BladeSetAttr set) {
      return set ? set.getBlades() : ~uint64_t(0);
    };
    auto terms = [&](auto product, ProductTerms kind) {
      return static_cast<double>(
          getNumProductTerms(algebra, kind, mask(product.getLhsBladesAttr()),
                             mask(product.getRhsBladesAttr())));
    };
    // A multiply and an add per term.
    if (auto p = dyn_cast<GeometricProductOp>(op))
      return 2 * terms(p, ProductTerms::Geometric);
    if (auto p = dyn_cast<OuterProductOp>(op))
      return 2 * terms(p, ProductTerms::Outer);
    if (auto p = dyn_cast<LeftContractionOp>(op))
      return 2 * terms(p, ProductTerms::LeftContraction);
    if (auto p = dyn_cast<SandwichOp>(op)) {
      // r x, then (r x) reverse(r).
      uint64_t rotor = mask(p.getRotorBladesAttr());
      uint64_t input = mask(p.getInputBladesAttr());
      uint64_t rx =
          getProductBlades(algebra, ProductTerms::Geometric, rotor, input);
      return 2.0 *
             (getNumProductTerms(algebra, ProductTerms::Geometric, rotor,
                                 input) +
              getNumProductTerms(algebra, ProductTerms::Geometric, rx, rotor));
    }
    // And a weight per (blade, path) group.
    if (auto p = dyn_cast<WeightedProductOp>(op))
      return 3 * terms(p, ProductTerms::Geometric);
    if (isa<ScalarGateOp>(op))
      return blades + kErfFlops;
    return blades; // involutions, projection, dual: a sign per blade
  }

  static ArrayRef<int64_t> getStaticShape(Value value) {
    return cast<RankedTensorType>(value.getType()).getShape();
  }

  /// The machine balance that weighs recomputation against memory traffic:
  /// f32 operations per second of the emitted scalar code, device memory
  /// bytes per second, seconds per kernel launch. Estimates from the Flash
  /// Clifford layers on an H200 (fc_product with recomputed gates; the
  /// scalar_gate kernels); one erf counts as kErfFlops operations.
  static constexpr double kFlopsPerSecond = 30e12;
  static constexpr double kBytesPerSecond = 4e12;
  static constexpr double kLaunchSeconds = 4e-6;
  static constexpr double kErfFlops = 20;
};

/// Moves `members` (a root and the producers it recomputes, in block order)
/// into a uta.fusion placed at the root.
void wrapInFusion(Operation *root, ArrayRef<Operation *> members) {
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
  for (Value input : inputs)
    body->addArgument(input.getType(), input.getLoc());
  result.replaceAllUsesWith(fusion.getResult());
  for (Operation *op : members)
    op->moveBefore(body, body->end());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    Value outside = input;
    outside.replaceUsesWithIf(body->getArgument(i), [&](OpOperand &use) {
      return inGroup.contains(use.getOwner());
    });
  }
  b.setInsertionPointToEnd(body);
  YieldOp::create(b, root->getLoc(), result);
}

struct UtaFuseKernelsPass final
    : mlir::uta::impl::UtaFuseKernelsPassBase<UtaFuseKernelsPass> {
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
    Block &block = getOperation().getBody().front();
    llvm::SmallPtrSet<Operation *, 32> assigned;
    llvm::DenseSet<std::pair<Operation *, Operation *>> remarked;
    SmallVector<std::pair<Operation *, SmallVector<Operation *>>> groups;
    // Consumers come after producers: walking backwards, every root is found
    // before the producers it may take.
    for (Operation &op : llvm::reverse(block)) {
      if (assigned.contains(&op) || op.getNumResults() != 1 ||
          !isa<UTADialect, clifford::CliffordDialect>(op.getDialect()) ||
          isa<FusionOp>(op))
        continue;
      SmallVector<Operation *> members{&op};
      // How many times the kernel computes each element of a member.
      SmallVector<int64_t> computations{1};
      // Whether the kernel writes element i of its root from element i of
      // the member (FusionCostModel::decideEpilogue).
      SmallVector<bool> aligned{true};
      bool hasMatmul = isa<MatmulOp>(op);
      assigned.insert(&op);
      for (size_t next = 0; next < members.size(); ++next) {
        Operation *consumer = members[next];
        for (Value operand : consumer->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || assigned.contains(producer) ||
              producer->getBlock() != &block ||
              !isa<UTADialect, clifford::CliffordDialect>(
                  producer->getDialect()))
            continue;
          FusionDecision decision =
              FusionCostModel::decide(producer, consumer, computations[next],
                                      aligned[next], hasMatmul, tensorCores);
          // One remark per producer and consumer, however often it reads it.
          if (remarks && remarked.insert({producer, consumer}).second)
            producer->emitRemark()
                << (decision.fuse ? "fused into " : "not fused into ")
                << quoted(consumer) << ": " << decision.reason;
          if (!decision.fuse)
            continue;
          int64_t count = FusionCostModel::getComputations(producer, consumer,
                                                           computations[next]);
          assigned.insert(producer);
          members.push_back(producer);
          computations.push_back(count);
          aligned.push_back(aligned[next] && FusionCostModel::isIndexAligned(
                                                 producer, consumer));
          hasMatmul |= isa<MatmulOp>(producer);
        }
      }
      if (members.size() > 1)
        groups.emplace_back(&op, std::move(members));
    }
    for (auto &[root, members] : groups) {
      llvm::sort(members, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      wrapInFusion(root, members);
    }
  }
};

} // namespace
