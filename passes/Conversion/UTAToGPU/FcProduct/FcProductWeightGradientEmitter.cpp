//===- FcProductWeightGradientEmitter.cpp - fc_product's weight gradient --===//
//
// cotangent g [2^n, B, Fout], x, y [2^n, B, Fin] -> [P, Fin, Fout] (or
// [P, Fout, Fin]): per path, the sum over its terms of the signed pair
// products x_i y_j, transposed, times g_k over the batch. On CUDA tensor
// cores with the operands in memory, one mma.sync GEMM per path whose A
// operand is formed from x and y tiles in registers, as fc_product's is
// (MmaSyncFcProduct.cpp); elsewhere a SIMT kernel of one (fi, o) per
// thread, every path, in a loop over the batch. Both sum in a fixed order.
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

/// The most terms staged together in one slot (two tiles per term and
/// stage), as for fc_product's schedules that stage every term.
constexpr size_t kMaxTermsPerSlot = 2;

class FcProductWeightGradientEmitter final : public OpKernelEmitter {
public:
  FcProductWeightGradientEmitter(const GemmTarget &target, bool remarks)
      : target(target), remarks(remarks) {}

  int64_t getNumThreads(Operation *op, bool) const override {
    if (std::optional<FcProductPlan> plan = getPlan(op))
      return plan->gemm.getNumThreads();
    auto gradient = cast<FcProductWeightGradientOp>(op);
    return getStaticShape(gradient.getLhs())[2] *
           getStaticShape(gradient.getCotangent())[2];
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    if (std::optional<FcProductPlan> plan = getPlan(op))
      return plan->gemm.config.getNumThreads();
    return std::nullopt;
  }

  GemmPlanAttr getPlanAttr(Operation *op) const override {
    if (std::optional<FcProductPlan> plan = getPlan(op))
      return getGemmPlanAttr(op->getContext(), plan->gemm);
    return nullptr;
  }

  /// Per slot, a [Fin, B] x [B, Fout] product, and its pair products
  /// formed (a multiply and an add per term).
  KernelFlops countFlops(Operation *op) const override {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    ArrayRef<int64_t> lhsShape = getStaticShape(gradient.getLhs());
    int64_t rows = lhsShape[1], inFeatures = lhsShape[2],
            outFeatures = getStaticShape(gradient.getCotangent())[2];
    int64_t slots = 0, terms = 0;
    for (ArrayRef<FcProductGemmSlot> pathSlots : getSlots(op).slotsOfBlade)
      for (const FcProductGemmSlot &slot : pathSlots) {
        ++slots;
        terms += slot.terms.size();
      }
    KernelFlops flops;
    flops.simt = 2 * terms * rows * inFeatures;
    int64_t products = 2 * slots * rows * inFeatures * outFeatures;
    if (std::optional<FcProductPlan> plan = getPlan(op)) {
      flops.tensor = products;
      flops.tensorPrecision = plan->gemm.getFlopsUnit();
    } else {
      flops.simt += products;
    }
    return flops;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    std::string whyNot;
    std::optional<FcProductPlan> plan = getPlan(op, &whyNot);
    if (!whyNot.empty())
      return op->emitError()
             << "the GEMM engine cannot follow its "
             << UTADialect::getGemmPlanAttrName() << ": " << whyNot;
    if (!plan)
      return emitSimt(b, op, thread, io);
    if (remarks)
      op->emitRemark() << "fc_product_weight_gradient on the GEMM engine, "
                          "per path: "
                       << plan->describe();
    bool transposed = cast<FcProductWeightGradientOp>(op).getTransposeWeights();
    auto store = [&](OpBuilder &nb, Location loc, ValueRange indices,
                     Value value) {
      // (path, fi, o), or (path, o, fi) for K-major weights.
      SmallVector<Value> at(indices);
      if (transposed)
        std::swap(at[1], at[2]);
      io.write(nb, loc, 0, at, value);
    };
    return emitMmaSyncFcProductWeightGradient(b, op->getLoc(), *plan,
                                              getSlots(op), io, store);
  }

private:
  /// Per path, its terms grouped by the cotangent's blade they land on: a
  /// slot's `path` field is that blade, its terms the x and y blades and
  /// signs, at most kMaxTermsPerSlot to a slot.
  static FcProductGemm getSlots(Operation *op) {
    const Algebra &algebra =
        cast<FcProductWeightGradientOp>(op).getAlgebra().getAlgebra();
    FcProductGemm fc;
    fc.slotsOfBlade.resize(algebra.numPaths());
    for (ArrayRef<Term> bucket :
         expandProduct(algebra, ProductTerms::Geometric))
      for (const Term &t : bucket) {
        SmallVector<FcProductGemmSlot> &slots = fc.slotsOfBlade[t.path];
        auto slot = llvm::find_if(slots, [&](const FcProductGemmSlot &s) {
          return s.path == t.result && s.terms.size() < kMaxTermsPerSlot;
        });
        if (slot == slots.end())
          slot = slots.insert(slots.end(), FcProductGemmSlot{t.result, {}});
        slot->terms.push_back({t.lhs, t.rhs, t.sign});
        fc.termsPerSlot =
            std::max<int64_t>(fc.termsPerSlot, slot->terms.size());
      }
    return fc;
  }

  /// The mma.sync plan where the op runs on tensor cores: f32 operands in
  /// memory on a CUDA target with them. The op's #uta.gemm_plan where it
  /// can be followed; `whyNot` (if given) gets why it cannot.
  std::optional<FcProductPlan> getPlan(Operation *op,
                                       std::string *whyNot = nullptr) const {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    if (auto fusion = dyn_cast<FusionOp>(op->getParentOp()))
      for (Value operand : op->getOperands())
        if (operand.getParentBlock() != &fusion.getBody().front() ||
            !isa<BlockArgument>(operand))
          return std::nullopt;
    for (Value value : op->getOperands())
      if (!cast<RankedTensorType>(value.getType()).getElementType().isF32())
        return std::nullopt;
    ArrayRef<int64_t> lhsShape = getStaticShape(gradient.getLhs());
    GemmProblem problem;
    problem.batchShape = {
        int64_t(gradient.getAlgebra().getAlgebra().numPaths())};
    problem.m = lhsShape[2];
    problem.n = getStaticShape(gradient.getCotangent())[2];
    problem.k = lhsShape[1];
    problem.elementType = Float32Type::get(op->getContext());
    if (problem.m == 0 || problem.n == 0 || problem.k == 0)
      return std::nullopt;
    int64_t termsPerSlot = getSlots(op).termsPerSlot;
    // The mma.sync mainloop on every CUDA architecture.
    GemmTarget mmaSync = target;
    mmaSync.archSpecific = false;
    if (auto attr = op->getAttrOfType<GemmPlanAttr>(
            UTADialect::getGemmPlanAttrName())) {
      std::string error;
      std::optional<FcProductPlan> plan =
          planFcProductFromAttr(problem, mmaSync, termsPerSlot, attr, error);
      if (plan && plan->gemm.config.schedule != GemmSchedule::MmaSync)
        error = "fc_product_weight_gradient runs on the mma_sync schedule";
      if (plan && error.empty())
        return plan;
      if (whyNot)
        *whyNot = error;
    }
    std::optional<FcProductPlan> plan =
        planFcProduct(problem, mmaSync, termsPerSlot);
    if (!plan || plan->gemm.config.schedule != GemmSchedule::MmaSync)
      return std::nullopt;
    return plan;
  }

  /// One (fi, o) per thread, every path: a loop over the batch that reads
  /// every blade of x and y at (b, fi) and of g at (b, o) and adds each
  /// term's sign * x_i * y_j * g_k to its path's sum (the terms unrolled:
  /// SPIR-V and MSL take it).
  LogicalResult emitSimt(OpBuilder &b, Operation *op, Value thread,
                         KernelIO &io) const {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = gradient.getAlgebra().getAlgebra();
    int64_t batch = getStaticShape(gradient.getLhs())[1],
            outFeatures = getStaticShape(gradient.getCotangent())[2];
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value feature = arith::DivUIOp::create(b, loc, thread, index(outFeatures));
    Value output = arith::RemUIOp::create(b, loc, thread, index(outFeatures));
    unsigned blades = algebra.numBlades(), paths = algebra.numPaths();
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductTerms::Geometric);
    SmallVector<Value> zeros(paths, f32Constant(b, loc, 0.0));
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(batch), index(1), zeros,
        [&](OpBuilder &nb, Location, Value row, ValueRange sums) {
          OpBuilder::InsertionGuard insertion(b);
          b.setInsertionPointToEnd(nb.getInsertionBlock());
          SmallVector<Value> x, y, g;
          for (unsigned blade = 0; blade < blades; ++blade) {
            x.push_back(io.read(b, loc, 1, {index(blade), row, feature}));
            y.push_back(io.read(b, loc, 2, {index(blade), row, feature}));
            g.push_back(io.read(b, loc, 0, {index(blade), row, output}));
          }
          SmallVector<Value> next(sums);
          for (ArrayRef<Term> bucket : buckets)
            for (const Term &t : bucket) {
              Value pair = arith::MulFOp::create(b, loc, x[t.lhs], y[t.rhs]);
              Value term = arith::MulFOp::create(b, loc, pair, g[t.result]);
              next[t.path] =
                  t.sign > 0 ? arith::AddFOp::create(b, loc, next[t.path], term)
                                   .getResult()
                             : arith::SubFOp::create(b, loc, next[t.path], term)
                                   .getResult();
            }
          scf::YieldOp::create(b, loc, next);
        });
    bool transposed = gradient.getTransposeWeights();
    for (unsigned path = 0; path < paths; ++path)
      io.write(b, loc, 0,
               transposed ? ValueRange{index(path), output, feature}
                          : ValueRange{index(path), feature, output},
               loop.getResult(path));
    return success();
  }

  GemmTarget target;
  bool remarks;
};

} // namespace

void mlir::uta::clifford_kernels::addFcProductWeightGradientEmitter(
    KernelEmitterRegistry &registry, const GemmTarget &target, bool remarks) {
  registry.add<FcProductWeightGradientEmitter, FcProductWeightGradientOp>(
      target, remarks);
}
