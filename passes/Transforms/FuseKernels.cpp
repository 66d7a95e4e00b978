//===- FuseKernels.cpp - Partition a graph into kernels -------------------===//
//
// The `fused` phase: groups each kernel root with the producers it
// recomputes into a uta.fusion op. The decisions come from one cost model
// (FusionCostModel); convert-uta-to-gpu turns each group into one kernel.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

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
  /// Everything else (softmax, layer_norm, clifford): always a root.
  kOpaque,
};

/// The one place that decides what fuses.
class FusionCostModel {
public:
  static OpKind classify(Operation *op) {
    if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, NegOp, AbsOp, ExpOp,
            LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp, ReluOp, SiluOp, GeluOp,
            TransposeOp, ReshapeOp, BroadcastToOp, CastOp>(op))
      return OpKind::kPointwise;
    if (isa<MatmulOp, ReduceSumOp, ReduceMaxOp, ReduceMeanOp>(op))
      return OpKind::kElementAnchor;
    return OpKind::kOpaque;
  }

  /// Whether `producer` is recomputed inside the kernel of `consumer`.
  static bool shouldFuse(Operation *producer, Operation *consumer) {
    OpKind producerKind = classify(producer);
    if (producerKind == OpKind::kOpaque || !producer->hasOneUse())
      return false;
    OpKind consumerKind = classify(consumer);
    bool readsOnce = readsEachElementOnce(producer, consumer);
    if (producerKind == OpKind::kElementAnchor)
      return consumerKind == OpKind::kPointwise && readsOnce;
    // A pointwise producer: into any consumer that reads it once.
    return consumerKind != OpKind::kOpaque && !isa<MatmulOp>(consumer) &&
           readsOnce;
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
    : uta::impl::UtaFuseKernelsPassBase<UtaFuseKernelsPass> {
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
          !isa<UTADialect>(op.getDialect()) || isa<FusionOp>(op))
        continue;
      SmallVector<Operation *> members{&op};
      assigned.insert(&op);
      for (size_t next = 0; next < members.size(); ++next) {
        for (Value operand : members[next]->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || assigned.contains(producer) ||
              producer->getBlock() != &block ||
              !FusionCostModel::shouldFuse(producer, members[next]))
            continue;
          assigned.insert(producer);
          members.push_back(producer);
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
