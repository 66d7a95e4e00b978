//===- FcProductGradientEmitters.cpp - Kernels of fc_product's gradients --===//
//
// clifford.fc_product_adjoint: cotangent g [2^n, B, Fout], other
// [2^n, B, Fin], w [P, Fin, Fout] -> [2^n, B, Fin], per result blade the sum
// over its terms of sign * other times the matrix product g_k w[p]^T.
// clifford.fc_product_weight_gradient: g, x, y -> [P, Fin, Fout] (or
// [P, Fout, Fin]), per path the sum over its terms of the signed pair
// products x_i y_j, transposed, times g_k over the batch.
//
// On CUDA tensor cores with f32 operands in memory, each is one mma.sync GEMM
// per result blade (the adjoint, MmaSyncFcProductAdjoint.cpp: K over Fout
// once per term, each term's product folded into the sums in registers) or
// per path (the weight gradient, MmaSyncFcProduct.cpp: the pair products
// formed in registers, K over the batch once per cotangent blade).
// Elsewhere a SIMT kernel whose threads each compute every blade of one
// (b, fi), or every path of one (fi, o), in a loop over Fout or the batch,
// the terms unrolled (no table: SPIR-V and MSL take it). Every sum runs in a
// fixed order.
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

/// `target` for the mma.sync mainloop, which every CUDA architecture from
/// sm_80 runs.
GemmTarget getMmaSyncTarget(const GemmTarget &target) {
  GemmTarget mmaSync = target;
  mmaSync.archSpecific = false;
  return mmaSync;
}

/// A gradient of fc_product: on the GEMM engine where getGemmPlan gives a
/// plan, else SIMT with getSimtThreads threads working alone.
class FcProductGradientEmitter : public OpKernelEmitter {
public:
  FcProductGradientEmitter(const GemmTarget &target, bool remarks)
      : target(target), remarks(remarks) {}

  int64_t getNumThreads(Operation *op, bool) const override {
    if (std::optional<GemmPlan> plan = getGemmPlan(op))
      return plan->getNumThreads();
    return getSimtThreads(op);
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    if (std::optional<GemmPlan> plan = getGemmPlan(op))
      return plan->config.getNumThreads();
    return std::nullopt;
  }

  GemmPlanAttr getPlanAttr(Operation *op) const override {
    if (std::optional<GemmPlan> plan = getGemmPlan(op))
      return getGemmPlanAttr(op->getContext(), *plan);
    return nullptr;
  }

protected:
  /// The engine's plan of `op` (std::nullopt: SIMT); `whyNot` (if given)
  /// gets why its #uta.gemm_plan cannot be followed.
  virtual std::optional<GemmPlan>
  getGemmPlan(Operation *op, std::string *whyNot = nullptr) const = 0;
  virtual int64_t getSimtThreads(Operation *op) const = 0;

  /// `simt` operations on the SIMT cores and the GEMMs' `products`: on the
  /// plan's tensor cores, or on the SIMT cores without a plan.
  KernelFlops countGemmFlops(Operation *op, int64_t simt,
                             int64_t products) const {
    KernelFlops flops;
    flops.simt = simt;
    if (std::optional<GemmPlan> plan = getGemmPlan(op)) {
      flops.tensor = products;
      flops.tensorPrecision = plan->getFlopsUnit();
    } else {
      flops.simt += products;
    }
    return flops;
  }

  /// The refusal of a #uta.gemm_plan that cannot be followed, at the op.
  LogicalResult refusePlan(Operation *op, StringRef whyNot) const {
    return op->emitError() << "the GEMM engine cannot follow its "
                           << UTADialect::getGemmPlanAttrName() << ": "
                           << whyNot;
  }

  GemmTarget target;
  bool remarks;
};

/// The f32 accumulators per thread of one tile of the adjoint's GEMM (the
/// result's sums take as many again) that leave room for the fragments:
/// 3xTF32's split ones take twice the registers (at 64, 128x128 tiles of 8
/// warps spill 244 bytes).
int64_t getMaxAccumulatorsPerThread(GemmPrecision precision) {
  return precision == GemmPrecision::Tf32x3 ? 32 : 64;
}

class FcProductAdjointEmitter final : public FcProductGradientEmitter {
public:
  using FcProductGradientEmitter::FcProductGradientEmitter;

  /// Per term, a [B, Fout] x [Fout, Fin] product, and its scale and sum.
  KernelFlops countFlops(Operation *op) const override {
    auto adjoint = cast<FcProductAdjointOp>(op);
    ArrayRef<int64_t> otherShape = getStaticShape(adjoint.getOther());
    int64_t rows = otherShape[1], inFeatures = otherShape[2],
            outFeatures = getStaticShape(adjoint.getCotangent())[2];
    int64_t terms = 0;
    for (ArrayRef<FcProductGemmSlot> slots : getTerms(op).slotsOfBlade)
      terms += slots.size();
    return countGemmFlops(op, 3 * terms * rows * inFeatures,
                          2 * terms * rows * inFeatures * outFeatures);
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    std::string whyNot;
    std::optional<GemmPlan> plan = getGemmPlan(op, &whyNot);
    if (!whyNot.empty())
      return refusePlan(op, whyNot);
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

  int64_t getSimtThreads(Operation *op) const override {
    return getNumElements(getStaticShape(op->getResult(0)).drop_front());
  }

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
  std::optional<GemmPlan>
  getGemmPlan(Operation *op, std::string *whyNot = nullptr) const override {
    auto adjoint = cast<FcProductAdjointOp>(op);
    if (!hasF32OperandsInMemory(op))
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
    GemmTarget mmaSync = getMmaSyncTarget(target);
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
    // of at most getMaxAccumulatorsPerThread each, so that both stay in
    // registers; the largest tiles first (each block reads its operands'
    // tiles once per term), then the table's order.
    SmallVector<GemmConfigRow> rows(getGemmConfigTable());
    llvm::stable_sort(rows, [](const GemmConfigRow &l, const GemmConfigRow &r) {
      return l.config.tileM * l.config.tileN > r.config.tileM * r.config.tileN;
    });
    const GemmConfigRow *row = chooseGemmConfigRow(
        plan, GemmSchedule::MmaSync, mmaSync, rows, {},
        [&](const GemmConfig &config) {
          GemmPlan candidate = plan;
          candidate.config = config;
          return config.tileM * config.tileN / config.getNumThreads() <=
                     getMaxAccumulatorsPerThread(plan.precision) &&
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
};

/// The most terms staged together in one slot (two tiles per term and
/// stage), as for fc_product's schedules that stage every term.
constexpr size_t kMaxTermsPerSlot = 2;

/// The batch and the input features of x and y: [2^n, B, Fin], or
/// [2^n, Fin, B] with transpose_pairs.
int64_t getBatch(FcProductWeightGradientOp gradient) {
  return getStaticShape(
      gradient.getLhs())[gradient.getTransposePairs() ? 2 : 1];
}
int64_t getInFeatures(FcProductWeightGradientOp gradient) {
  return getStaticShape(
      gradient.getLhs())[gradient.getTransposePairs() ? 1 : 2];
}
/// The cotangent's features: [2^n, B, Fout], or [2^n, Fout, B] with
/// transpose_cotangent.
int64_t getOutFeatures(FcProductWeightGradientOp gradient) {
  return getStaticShape(
      gradient.getCotangent())[gradient.getTransposeCotangent() ? 1 : 2];
}

/// Per path, its terms grouped by the cotangent's blade they land on: a
/// slot's `path` field is that blade, its terms the x and y blades and
/// signs, at most `maxTermsPerSlot` to a slot.
FcProductGemm getSlots(Operation *op,
                       size_t maxTermsPerSlot = kMaxTermsPerSlot) {
  const Algebra &algebra =
      cast<FcProductWeightGradientOp>(op).getAlgebra().getAlgebra();
  FcProductGemm fc;
  fc.slotsOfBlade.resize(algebra.numPaths());
  for (ArrayRef<Term> bucket : expandProduct(algebra, ProductTerms::Geometric))
    for (const Term &t : bucket) {
      SmallVector<FcProductGemmSlot> &slots = fc.slotsOfBlade[t.path];
      auto slot = llvm::find_if(slots, [&](const FcProductGemmSlot &s) {
        return s.path == t.result && s.terms.size() < maxTermsPerSlot;
      });
      if (slot == slots.end())
        slot = slots.insert(slots.end(), FcProductGemmSlot{t.result, {}});
      slot->terms.push_back({t.lhs, t.rhs, t.sign});
      fc.termsPerSlot = std::max<int64_t>(fc.termsPerSlot, slot->terms.size());
    }
  return fc;
}

/// The problem of a weight gradient in `form` (its operands' layouts and
/// runs): per path, M the input features, N the output features, K a run
/// of the batch.
GemmProblem getWeightGradientProblem(FcProductWeightGradientOp gradient,
                                     const FcWeightGradientForm &form) {
  GemmProblem problem;
  problem.batchShape = {int64_t(gradient.getAlgebra().getAlgebra().numPaths())};
  problem.m = getInFeatures(gradient);
  problem.n = getOutFeatures(gradient);
  problem.kRuns = form.batchRuns;
  problem.k = getBatch(gradient) / form.batchRuns;
  // A's factors x[i][b][f] and y[j][b][f]: stored [K][M] unless the pairs
  // are batch-contiguous. B[b][o] = g[k][b][o]: stored [N][K] where the
  // cotangent is batch-contiguous.
  problem.transposeA = !form.pairsTransposed;
  problem.transposeB = form.cotangentTransposed;
  problem.elementType = Float32Type::get(gradient.getContext());
  return problem;
}

class FcProductWeightGradientEmitter final : public FcProductGradientEmitter {
public:
  using FcProductGradientEmitter::FcProductGradientEmitter;

  /// Per slot, a [Fin, B] x [B, Fout] product, and its pair products
  /// formed (a multiply and an add per term).
  KernelFlops countFlops(Operation *op) const override {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    int64_t rows = getBatch(gradient), inFeatures = getInFeatures(gradient),
            outFeatures = getOutFeatures(gradient);
    std::optional<FcProductPlan> plan = getPlan(op);
    bool whole = plan && plan->gemm.config.schedule == GemmSchedule::WgmmaTma;
    int64_t slots = 0, terms = 0;
    for (ArrayRef<FcProductGemmSlot> pathSlots :
         getSlots(op, whole ? SIZE_MAX : kMaxTermsPerSlot).slotsOfBlade)
      for (const FcProductGemmSlot &slot : pathSlots) {
        ++slots;
        terms += slot.terms.size();
      }
    return countGemmFlops(op, 2 * terms * rows * inFeatures,
                          2 * slots * rows * inFeatures * outFeatures);
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    std::string whyNot;
    std::optional<FcProductPlan> plan = getPlan(op, &whyNot);
    if (!whyNot.empty())
      return refusePlan(op, whyNot);
    auto gradient = cast<FcProductWeightGradientOp>(op);
    if (!plan) {
      // Runs of the batch are the warp-specialised kernel's: elsewhere the
      // tensor cores would have taken the op in one run.
      if (remarks && gradient.getBatchRuns() > 1 && target.tensorCores)
        op->emitRemark() << "fc_product_weight_gradient with batch_runs "
                         << gradient.getBatchRuns()
                         << " runs on the SIMT cores: runs of the batch take "
                            "the warp-specialised kernel (sm_90a, every "
                            "operand batch-contiguous, runs of whole K tiles)";
      return emitSimt(b, op, thread, io);
    }
    if (remarks)
      op->emitRemark() << "fc_product_weight_gradient on the GEMM engine, "
                          "per path: "
                       << plan->describe();
    bool transposed = gradient.getTransposeWeights();
    auto store = [&](OpBuilder &nb, Location loc, ValueRange indices,
                     Value value) {
      // ([run,] path, fi, o), or ([run,] path, o, fi) for K-major weights.
      SmallVector<Value> at(indices);
      if (transposed)
        std::swap(at.end()[-2], at.end()[-1]);
      io.write(nb, loc, 0, at, value);
    };
    // The warp-specialised kernel streams each term through its ring: it
    // takes a path's slots whole.
    if (plan->gemm.config.schedule == GemmSchedule::WgmmaTma)
      return emitWgmmaTmaFcProductWeightGradient(
          b, op->getLoc(), *plan, getSlots(op, /*maxTermsPerSlot=*/SIZE_MAX),
          io, store);
    return emitMmaSyncFcProductWeightGradient(b, op->getLoc(), *plan,
                                              getSlots(op), io, store);
  }

  std::optional<GemmPlan>
  getGemmPlan(Operation *op, std::string *whyNot = nullptr) const override {
    if (std::optional<FcProductPlan> plan = getPlan(op, whyNot))
      return plan->gemm;
    return std::nullopt;
  }

  int64_t getSimtThreads(Operation *op) const override {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    return gradient.getBatchRuns() * getInFeatures(gradient) *
           getOutFeatures(gradient);
  }

private:
  /// The op's plan on `target` in its own layout and runs.
  std::optional<FcProductPlan> getPlan(Operation *op,
                                       std::string *whyNot = nullptr) const {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    return planFcProductWeightGradient(
        gradient, target, FcWeightGradientForm::of(gradient), whyNot);
  }

  /// One (run, fi, o) per thread, every path: a loop over the run's rows
  /// of the batch (all of them with one run) that reads
  /// every blade of x and y at (b, fi) and of g at (b, o) and adds each
  /// term's sign * x_i * y_j * g_k to its path's sum (the terms unrolled:
  /// SPIR-V and MSL take it).
  LogicalResult emitSimt(OpBuilder &b, Operation *op, Value thread,
                         KernelIO &io) const {
    auto gradient = cast<FcProductWeightGradientOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = gradient.getAlgebra().getAlgebra();
    bool pairsTransposed = gradient.getTransposePairs();
    bool cotangentTransposed = gradient.getTransposeCotangent();
    int64_t runs = gradient.getBatchRuns();
    int64_t runLength = getBatch(gradient) / runs,
            inFeatures = getInFeatures(gradient),
            outFeatures = getOutFeatures(gradient);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // Thread (run, fi, o), runs outermost.
    Value position = thread, run, runStart = index(0),
          runEnd = index(runLength);
    if (runs > 1) {
      int64_t perRun = inFeatures * outFeatures;
      position = arith::RemUIOp::create(b, loc, thread, index(perRun));
      run = arith::DivUIOp::create(b, loc, thread, index(perRun));
      runStart = arith::MulIOp::create(b, loc, run, index(runLength));
      runEnd = arith::AddIOp::create(b, loc, runStart, index(runLength));
    }
    Value feature =
        arith::DivUIOp::create(b, loc, position, index(outFeatures));
    Value output = arith::RemUIOp::create(b, loc, position, index(outFeatures));
    unsigned blades = algebra.numBlades(), paths = algebra.numPaths();
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductTerms::Geometric);
    SmallVector<Value> zeros(paths, f32Constant(b, loc, 0.0));
    auto loop = scf::ForOp::create(
        b, loc, runStart, runEnd, index(1), zeros,
        [&](OpBuilder &nb, Location, Value row, ValueRange sums) {
          OpBuilder::InsertionGuard insertion(b);
          b.setInsertionPointToEnd(nb.getInsertionBlock());
          SmallVector<Value> x, y, g;
          for (unsigned blade = 0; blade < blades; ++blade) {
            SmallVector<Value> at = {index(blade), row, feature};
            if (pairsTransposed)
              std::swap(at[1], at[2]);
            x.push_back(io.read(b, loc, 1, at));
            y.push_back(io.read(b, loc, 2, at));
            g.push_back(io.read(b, loc, 0,
                                cotangentTransposed
                                    ? ValueRange{index(blade), output, row}
                                    : ValueRange{index(blade), row, output}));
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
    for (unsigned path = 0; path < paths; ++path) {
      SmallVector<Value> at = {index(path), feature, output};
      if (transposed)
        std::swap(at[1], at[2]);
      if (runs > 1)
        at.insert(at.begin(), run);
      io.write(b, loc, 0, at, loop.getResult(path));
    }
    return success();
  }
};

} // namespace

FcWeightGradientForm
FcWeightGradientForm::of(clifford::FcProductWeightGradientOp op) {
  return {op.getTransposePairs(), op.getTransposeCotangent(),
          static_cast<int64_t>(op.getBatchRuns())};
}

SmallVector<int64_t>
mlir::uta::getFcProductWeightGradientSlotCounts(FcProductWeightGradientOp op) {
  SmallVector<int64_t> counts;
  for (ArrayRef<FcProductGemmSlot> slots :
       getSlots(op, /*maxTermsPerSlot=*/SIZE_MAX).slotsOfBlade)
    counts.push_back(slots.size());
  return counts;
}

std::optional<FcProductPlan> mlir::uta::planFcProductWeightGradient(
    FcProductWeightGradientOp gradient, const GemmTarget &target,
    const FcWeightGradientForm &form, std::string *whyNot) {
  Operation *op = gradient;
  if (!hasF32OperandsInMemory(op))
    return std::nullopt;
  GemmProblem problem = getWeightGradientProblem(gradient, form);
  if (problem.m == 0 || problem.n == 0 || problem.k == 0)
    return std::nullopt;
  int64_t termsPerSlot = getSlots(op).termsPerSlot;
  // The warp-specialised kernel reads x and y as fc_product reads its
  // own: [M][K] tiles, batch-contiguous.
  bool kMajor = form.pairsTransposed && form.cotangentTransposed;
  GemmTarget mmaSync = getMmaSyncTarget(target);
  GemmTarget planTarget = kMajor ? target : mmaSync;
  // Runs of the batch only on the warp-specialised kernel, each a whole
  // number of its K tiles (a tile past a run's end would read the next
  // run's rows, not zeros).
  auto isAllowed = [&](const FcProductPlan &plan) {
    GemmSchedule schedule = plan.gemm.config.schedule;
    if (problem.kRuns > 1)
      return kMajor && schedule == GemmSchedule::WgmmaTma &&
             problem.k % plan.gemm.config.tileK == 0;
    return schedule == GemmSchedule::MmaSync ||
           (kMajor && schedule == GemmSchedule::WgmmaTma);
  };
  if (auto attr =
          op->getAttrOfType<GemmPlanAttr>(UTADialect::getGemmPlanAttrName())) {
    std::string error;
    std::optional<FcProductPlan> plan =
        planFcProductFromAttr(problem, planTarget, termsPerSlot, attr, error);
    if (plan && !isAllowed(*plan))
      error = "fc_product_weight_gradient runs on the mma_sync schedule, "
              "or wgmma_tma with transpose_pairs and transpose_cotangent "
              "(batch_runs: only there, each run whole K tiles)";
    if (plan && error.empty())
      return plan;
    if (whyNot)
      *whyNot = error;
  }
  std::optional<FcProductPlan> plan =
      planFcProduct(problem, planTarget, termsPerSlot);
  if (plan && !isAllowed(*plan))
    plan = planFcProduct(problem, mmaSync, termsPerSlot);
  if (!plan || !isAllowed(*plan))
    return std::nullopt;
  return plan;
}

void mlir::uta::clifford_kernels::addFcProductAdjointEmitter(
    KernelEmitterRegistry &registry, const GemmTarget &target, bool remarks) {
  registry.add<FcProductAdjointEmitter, FcProductAdjointOp>(target, remarks);
}

void mlir::uta::clifford_kernels::addFcProductWeightGradientEmitter(
    KernelEmitterRegistry &registry, const GemmTarget &target, bool remarks) {
  registry.add<FcProductWeightGradientEmitter, FcProductWeightGradientOp>(
      target, remarks);
}
