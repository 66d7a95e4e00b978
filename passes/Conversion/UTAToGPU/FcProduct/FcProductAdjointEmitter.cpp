//===- FcProductAdjointEmitter.cpp - The kernel of fc_product_adjoint -----===//
//
// cotangent g [2^n, B, Fout], other [2^n, B, Fin], w [P, Fin, Fout] ->
// [2^n, B, Fin]: per result blade, the sum over its terms of sign * other
// times the matrix product g_k w[p]^T. On CUDA tensor cores with the
// operands in memory, one mma.sync GEMM per result blade whose K loop runs
// over the terms (MmaSyncFcProductAdjoint.cpp); elsewhere a SIMT kernel of
// one position (b, fi) per thread, every blade, in a loop over Fout.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace {

/// The f32 accumulators per thread of one tile of the adjoint's GEMM; the
/// result's sums take as many again.
constexpr int64_t kMaxAccumulatorsPerThread = 64;

class FcProductAdjointEmitter final : public OpKernelEmitter {
public:
  FcProductAdjointEmitter(const GemmTarget &target, bool remarks)
      : target(target), remarks(remarks) {}

  int64_t getNumThreads(Operation *op, bool) const override {
    if (std::optional<GemmPlan> plan = getPlan(op))
      return plan->getNumThreads();
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    if (std::optional<GemmPlan> plan = getPlan(op))
      return plan->config.getNumThreads();
    return std::nullopt;
  }

  GemmPlanAttr getPlanAttr(Operation *op) const override {
    if (std::optional<GemmPlan> plan = getPlan(op))
      return getGemmPlanAttr(op->getContext(), *plan);
    return nullptr;
  }

  /// Per term, a [B, Fout] x [Fout, Fin] product, and its scale and sum.
  KernelFlops countFlops(Operation *op) const override {
    auto adjoint = cast<FcProductAdjointOp>(op);
    ArrayRef<int64_t> otherShape = getStaticShape(adjoint.getOther());
    int64_t rows = otherShape[1], inFeatures = otherShape[2],
            outFeatures = getStaticShape(adjoint.getCotangent())[2];
    int64_t terms = 0;
    for (ArrayRef<FcProductGemmSlot> slots : getTerms(op).slotsOfBlade)
      terms += slots.size();
    KernelFlops flops;
    flops.simt = 3 * terms * rows * inFeatures;
    int64_t products = 2 * terms * rows * inFeatures * outFeatures;
    std::optional<GemmPlan> plan = getPlan(op);
    if (plan) {
      flops.tensor = products;
      flops.tensorPrecision = plan->getFlopsUnit();
    } else {
      flops.simt += products;
    }
    return flops;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    std::string whyNot;
    std::optional<GemmPlan> plan = getPlan(op, &whyNot);
    if (!whyNot.empty())
      return op->emitError()
             << "the GEMM engine cannot follow its "
             << UTADialect::getGemmPlanAttrName() << ": " << whyNot;
    if (plan) {
      if (remarks)
        op->emitRemark() << "fc_product_adjoint on the GEMM engine, per "
                            "result blade and term: "
                         << plan->describe();
      auto store = [&](OpBuilder &nb, Location loc, ValueRange indices,
                       Value value) { io.write(nb, loc, 0, indices, value); };
      return emitMmaSyncFcProductAdjoint(b, op->getLoc(), *plan, getTerms(op),
                                         io, store);
    }
    return emitSimt(b, op, thread, io);
  }

private:
  /// Per result blade, one single-term slot per term of the adjoint: the
  /// path, the cotangent's blade (lhs), the other operand's blade (rhs)
  /// and the sign.
  static FcProductGemm getTerms(Operation *op) {
    auto adjoint = cast<FcProductAdjointOp>(op);
    const Algebra &algebra = adjoint.getAlgebra().getAlgebra();
    bool ofLhs = adjoint.getOperand() == ProductOperand::lhs;
    FcProductGemm terms;
    for (ArrayRef<Term> bucket :
         expandAdjoint(algebra, ProductTerms::Geometric, ofLhs)) {
      SmallVector<FcProductGemmSlot> &slots = terms.slotsOfBlade.emplace_back();
      for (const Term &t : bucket)
        slots.push_back({t.path, {{t.result, ofLhs ? t.rhs : t.lhs, t.sign}}});
    }
    return terms;
  }

  /// The mma.sync plan where the op runs on tensor cores: f32 operands in
  /// memory on a CUDA target with them. The op's #uta.gemm_plan where it
  /// can be followed; `whyNot` (if given) gets why it cannot.
  std::optional<GemmPlan> getPlan(Operation *op,
                                  std::string *whyNot = nullptr) const {
    auto adjoint = cast<FcProductAdjointOp>(op);
    if (auto fusion = dyn_cast<FusionOp>(op->getParentOp()))
      for (Value operand : op->getOperands())
        if (operand.getParentBlock() != &fusion.getBody().front() ||
            !isa<BlockArgument>(operand))
          return std::nullopt;
    for (Value value : op->getOperands())
      if (!cast<RankedTensorType>(value.getType()).getElementType().isF32())
        return std::nullopt;
    ArrayRef<int64_t> otherShape = getStaticShape(adjoint.getOther());
    GemmProblem problem;
    problem.batchShape = {otherShape[0]};
    problem.m = otherShape[1];
    problem.n = otherShape[2];
    problem.k = getStaticShape(adjoint.getCotangent())[2];
    // B[o][f] = w[p][f][o]: stored [N][K] unless the weights are K-major.
    problem.transposeB = !adjoint.getTransposeWeights();
    problem.elementType = Float32Type::get(op->getContext());
    if (problem.m == 0 || problem.n == 0 || problem.k == 0)
      return std::nullopt;
    // The mma.sync mainloop on every CUDA architecture.
    GemmTarget mmaSync = target;
    mmaSync.archSpecific = false;
    if (auto attr = op->getAttrOfType<GemmPlanAttr>(
            UTADialect::getGemmPlanAttrName())) {
      std::string error;
      std::optional<GemmPlan> plan =
          planGemmFromAttr(problem, mmaSync, attr, error);
      if (plan && plan->config.schedule != GemmSchedule::MmaSync)
        error = "fc_product_adjoint runs on the mma_sync schedule";
      if (plan && error.empty())
        return plan;
      if (whyNot)
        *whyNot = error;
    }
    GemmPlan plan = planGemm(problem, mmaSync);
    if (plan.config.schedule != GemmSchedule::MmaSync)
      return std::nullopt;
    // The fold keeps a second set of accumulators beside the tile's: rows
    // of at most kMaxAccumulatorsPerThread each, so that both stay in
    // registers.
    const GemmConfigRow *row = chooseGemmConfigRow(
        plan, GemmSchedule::MmaSync, mmaSync, getGemmConfigTable(), {},
        [&](const GemmConfig &config) {
          GemmPlan candidate = plan;
          candidate.config = config;
          return config.tileM * config.tileN / config.getNumThreads() <=
                     kMaxAccumulatorsPerThread &&
                 candidate.getSharedMemoryBytes() <=
                     mmaSync.getMaxSharedBytes();
        });
    if (!row)
      return std::nullopt;
    plan.config = row->config;
    return plan;
  }

  /// One position (b, fi) per thread, every blade of it: a loop over Fout
  /// that reads the cotangent's blades and every path's weight at (fi, o)
  /// and adds each term's sign * other * g_k[o] * w[p, fi, o] to its
  /// result blade (the terms unrolled, no table: SPIR-V and MSL take it).
  LogicalResult emitSimt(OpBuilder &b, Operation *op, Value thread,
                         KernelIO &io) const {
    auto adjoint = cast<FcProductAdjointOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = adjoint.getAlgebra().getAlgebra();
    bool transposed = adjoint.getTransposeWeights();
    int64_t outFeatures = getStaticShape(adjoint.getCotangent())[2];
    SmallVector<Value> position = delinearize(
        b, loc, thread, getStaticShape(op->getResult(0)).drop_front());
    Value row = position[0], feature = position[1];
    FcProductGemm terms = getTerms(op);
    unsigned blades = algebra.numBlades(), paths = algebra.numPaths();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // sign * other, per term, read once.
    SmallVector<SmallVector<Value>> scales(blades);
    for (auto [blade, slots] : llvm::enumerate(terms.slotsOfBlade))
      for (const FcProductGemmSlot &slot : slots) {
        const FcProductGemmTerm &term = slot.terms.front();
        Value factor = io.read(b, loc, 1, {index(term.rhs), row, feature});
        scales[blade].push_back(arith::MulFOp::create(
            b, loc, factor, f32Constant(b, loc, double(term.sign))));
      }
    SmallVector<Value> zeros(blades, f32Constant(b, loc, 0.0));
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(outFeatures), index(1), zeros,
        [&](OpBuilder &nb, Location, Value o, ValueRange sums) {
          OpBuilder::InsertionGuard insertion(b);
          b.setInsertionPointToEnd(nb.getInsertionBlock());
          SmallVector<Value> g, w;
          for (unsigned k = 0; k < blades; ++k)
            g.push_back(io.read(b, loc, 0, {index(k), row, o}));
          for (unsigned p = 0; p < paths; ++p)
            w.push_back(io.read(b, loc, 2,
                                transposed ? ValueRange{index(p), o, feature}
                                           : ValueRange{index(p), feature, o}));
          SmallVector<Value> next(sums);
          for (auto [blade, slots] : llvm::enumerate(terms.slotsOfBlade))
            for (auto [slot, scale] : llvm::zip_equal(slots, scales[blade])) {
              const FcProductGemmTerm &term = slot.terms.front();
              Value product =
                  arith::MulFOp::create(b, loc, g[term.lhs], w[slot.path]);
              Value scaled = arith::MulFOp::create(b, loc, scale, product);
              next[blade] = arith::AddFOp::create(b, loc, next[blade], scaled);
            }
          scf::YieldOp::create(b, loc, next);
        });
    for (unsigned blade = 0; blade < blades; ++blade)
      io.write(b, loc, 0, {index(blade), row, feature}, loop.getResult(blade));
    return success();
  }

  GemmTarget target;
  bool remarks;
};

} // namespace

void mlir::uta::clifford_kernels::addFcProductAdjointEmitter(
    KernelEmitterRegistry &registry, const GemmTarget &target, bool remarks) {
  registry.add<FcProductAdjointEmitter, FcProductAdjointOp>(target, remarks);
}
