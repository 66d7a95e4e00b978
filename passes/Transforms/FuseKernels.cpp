//===- FuseKernels.cpp - Partition a graph into kernels -------------------===//
//
// The `fused` phase: groups each kernel root with the producers it
// recomputes into a uta.fusion op. The decisions come from one cost model
// (FusionCostModel); convert-uta-to-gpu turns each group into one kernel.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

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
  /// computes each element of `consumer` `consumerComputations` times.
  static bool shouldFuse(Operation *producer, Operation *consumer,
                         int64_t consumerComputations) {
    OpKind producerKind = classify(producer);
    if (producerKind == OpKind::kOpaque || !producer->hasOneUse())
      return false;
    if (producerKind == OpKind::kBladewise ||
        getMultivectorLayout(consumer).first)
      return shouldFuseMultivector(producer, consumer, consumerComputations);
    OpKind consumerKind = classify(consumer);
    bool readsOnce = readsEachElementOnce(producer, consumer);
    if (producerKind == OpKind::kElementAnchor)
      return consumerKind == OpKind::kPointwise && readsOnce;
    // A pointwise producer: into any consumer that reads it once.
    return consumerKind != OpKind::kOpaque && !isa<MatmulOp>(consumer) &&
           readsOnce;
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
  /// features), the output features for fc_product, the broadcast copies for
  /// a broadcast operand, times R of the consumer itself.
  static bool shouldFuseMultivector(Operation *producer, Operation *consumer,
                                    int64_t consumerComputations) {
    if (classify(producer) != OpKind::kBladewise)
      return false;
    std::pair<clifford::AlgebraAttr, int64_t> layout =
        getMultivectorLayout(consumer);
    if (!layout.first || getMultivectorLayout(producer) != layout)
      return false;
    std::optional<int64_t> reads = getReadsPerPosition(producer, consumer);
    if (!reads)
      return false;
    const ::uta::ga::Algebra &algebra = layout.first.getAlgebra();
    auto type = cast<RankedTensorType>(producer->getResult(0).getType());
    double positions =
        static_cast<double>(type.getNumElements()) / algebra.numBlades();
    double extraSeconds =
        static_cast<double>(*reads * consumerComputations - 1) *
        estimateFlopsPerPosition(producer, algebra) * positions /
        kFlopsPerSecond;
    double savedSeconds = 2.0 * type.getNumElements() *
                              type.getElementTypeBitWidth() / 8 /
                              kBytesPerSecond +
                          kLaunchSeconds;
    return extraSeconds <= savedSeconds;
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
    // Each output feature's thread loops over all input features.
    if (auto fc = dyn_cast<FcProductOp>(consumer))
      return value == fc.getWeights()
                 ? std::nullopt
                 : std::optional<int64_t>(
                       getStaticShape(fc.getResult()).back());
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
  /// products count every pair of blades, as in a non-degenerate algebra.
  static double estimateFlopsPerPosition(Operation *op,
                                         const ::uta::ga::Algebra &algebra) {
    using namespace clifford;
    double blades = algebra.numBlades();
    if (isa<GeometricProductOp, OuterProductOp, LeftContractionOp>(op))
      return 2 * blades * blades; // a multiply and an add per term
    if (isa<SandwichOp>(op))
      return 4 * blades * blades; // two products
    if (isa<WeightedProductOp>(op))
      return 3 * blades * blades; // and a weight per (blade, path) group
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
    if (policy == "none")
      return;
    Block &block = getOperation().getBody().front();
    llvm::SmallPtrSet<Operation *, 32> assigned;
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
      assigned.insert(&op);
      for (size_t next = 0; next < members.size(); ++next) {
        for (Value operand : members[next]->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || assigned.contains(producer) ||
              producer->getBlock() != &block ||
              !FusionCostModel::shouldFuse(producer, members[next],
                                           computations[next]))
            continue;
          int64_t count = FusionCostModel::getComputations(
              producer, members[next], computations[next]);
          assigned.insert(producer);
          members.push_back(producer);
          computations.push_back(count);
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
