//===- FcProductEmitter.cpp - The kernel of clifford.fc_product -----------===//
//
// x, y [2^n, B, Fin], w [P, Fin, Fout] -> [2^n, B, Fout]: the fully
// connected geometric product of the FCGP layer, as a tiled
// kernel whose plan (tile sizes per algebra and shape) is
// passes/Analysis/FcProductTiling.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/UTAToGPU/CliffordExpansion.h"

#include "passes/Analysis/FcProductTiling.h"
#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"
#include "passes/Conversion/UTAToGPU/FcProduct/GradeNormExchange.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::clifford;
using namespace mlir::uta::clifford_kernels;
using ::uta::ga::Algebra;

namespace {

/// z_k[b, o] = sum over fi and paths p of w[p, fi, o] * Q[b, fi, (p, k)],
/// where Q[b, fi, (p, k)] is the signed sum of the Cayley terms
/// x_i[b, fi] * y_j[b, fi] on path p that land on blade k: a matrix product
/// whose left side is computed on the fly. Each block owns blockRows batch
/// rows by blockCols output features and walks Fin in chunks. Per chunk the
/// block's threads compute Q for every (row, fi) of the chunk into the
/// workgroup stage (x and y read, or a fused producer recomputed, once per
/// (b, fi) per block: once per output tile in all), then each thread adds
/// w[p, fi, o] * Q to its register tile of tileRows rows by tileCols
/// outputs by every result blade. A barrier closes the staging and another
/// the accumulation, before the next chunk overwrites the stage; both sit
/// directly in the loop over chunks, whose bounds are constants, so every
/// thread of the block reaches them (no range guard: partial tiles guard
/// only loads and stores). Each accumulator sums over fi in order, and
/// within one fi over the paths in order: the same order on every run.
///
/// Where the target has tensor cores and x, y and the weights are in memory
/// (no producer fused into the kernel), the op runs on the GEMM engine
/// instead (getFcProductGemm): one GEMM per result blade k, over K = Fin
/// per slot (path p landing on k), whose A operand is the slot's signed
/// pair products, formed from cp.async-staged x and y tiles in registers.
/// The most Cayley terms in one slot of the tensor-core GEMMs that stage
/// every term of a slot together (Cl(3,0)'s scalar results have slots of
/// 3); the warp-specialised schedule stages one term at a time and takes
/// slots whole. A gated fc_product scales each (b, fi)'s staged slots by
/// its gate; on the GEMM engine, only the warp-specialised schedule reads a
/// gate (getGemmPlan).
constexpr size_t kMaxTermsPerSlot = 2;

class FcProductEmitter final : public OpKernelEmitter {
public:
  FcProductEmitter(const GemmTarget &target, bool remarks)
      : target(target), remarks(remarks) {}

  int64_t getNumThreads(Operation *op, bool) const override {
    if (std::optional<FcProductPlan> plan =
            getGemmPlan(op, getFcProductGemm(op)))
      return plan->gemm.getNumThreads();
    return getFcProductTiling(cast<FcProductOp>(op)).getNumThreads();
  }

  std::optional<int64_t> getBlockSize(Operation *op, bool) const override {
    if (std::optional<FcProductPlan> plan =
            getGemmPlan(op, getFcProductGemm(op)))
      return plan->gemm.config.getNumThreads();
    return getFcProductTiling(cast<FcProductOp>(op)).threads;
  }

  GemmPlanAttr getPlanAttr(Operation *op) const override {
    if (std::optional<FcProductPlan> plan =
            getGemmPlan(op, getFcProductGemm(op)))
      return getGemmPlanAttr(op->getContext(), plan->gemm);
    return nullptr;
  }

  /// Per slot of a result blade, a [B, Fin] x [Fin, Fout] product, and its
  /// A operand's pair products formed (a multiply and an add per term).
  KernelFlops countFlops(Operation *op) const override {
    auto product = cast<FcProductOp>(op);
    ArrayRef<int64_t> lhsShape = getStaticShape(product.getLhs());
    int64_t rows = lhsShape[1], inFeatures = lhsShape[2],
            outFeatures = getStaticShape(product.getResult())[2];
    // The slots that run: split to two terms each for the schedules that
    // stage every term's tiles, whole for the warp-specialised one and for
    // the SIMT kernel.
    std::optional<FcProductPlan> plan = getGemmPlan(op, getFcProductGemm(op));
    FcProductGemm fc =
        plan && plan->gemm.config.schedule != GemmSchedule::WgmmaTma
            ? getFcProductGemm(op)
            : getWgmmaTmaFcProductGemm(op);
    int64_t slots = 0, terms = 0;
    for (const auto &bladeSlots : fc.slotsOfBlade)
      for (const FcProductGemmSlot &slot : bladeSlots) {
        ++slots;
        terms += slot.terms.size();
      }
    KernelFlops flops;
    flops.simt = 2 * terms * rows * inFeatures;
    int64_t products = 2 * slots * rows * inFeatures * outFeatures;
    if (plan && plan->gemm.getFlopsUnit() != "simt") {
      flops.tensor = products;
      flops.tensorPrecision = plan->gemm.getFlopsUnit();
    } else {
      flops.simt += products;
    }
    return flops;
  }

  LogicalResult emit(OpBuilder &b, Operation *op, Value thread, KernelIO &io,
                     bool) const override {
    if (failed(checkAttachedPlan(op)))
      return failure();
    FcProductGemm fc = getFcProductGemm(op);
    if (std::optional<FcProductPlan> plan = getGemmPlan(op, fc)) {
      if (remarks)
        op->emitRemark() << "fc_product on the GEMM engine, per result "
                            "blade: "
                         << plan->describe();
      auto store = [&](OpBuilder &nb, Location loc, ValueRange indices,
                       Value value) { io.write(nb, loc, 0, indices, value); };
      if (plan->gemm.config.schedule == GemmSchedule::WgmmaTma)
        return emitWgmmaTmaFcProduct(b, op->getLoc(), *plan,
                                     getWgmmaTmaFcProductGemm(op), io, store);
      if (plan->gemm.config.schedule == GemmSchedule::Wgmma)
        return emitWgmmaFcProduct(b, op->getLoc(), *plan, fc, io, store);
      return emitMmaSyncFcProduct(b, op->getLoc(), *plan, fc, io, store);
    }
    std::optional<FcProductPlan> ungated;
    if (remarks && cast<FcProductOp>(op).getGate() &&
        (ungated = planGemm(cast<FcProductOp>(op), fc)))
      op->emitRemark() << "fc_product with a gate runs on the SIMT cores: "
                          "the GEMM engine reads the gate only in its "
                          "warp-specialised schedule, not in "
                       << ungated->describe();
    return emitSimt(b, op, thread, io);
  }

  bool canApplyGradeNorm(Operation *op, Operation *norm) const override {
    std::optional<FcProductPlan> plan = getGemmPlan(op, getFcProductGemm(op));
    if (!plan || plan->gemm.config.schedule != GemmSchedule::WgmmaTma ||
        cast<GradeRmsNormOp>(norm).getAlgebra() !=
            cast<FcProductOp>(op).getAlgebra())
      return false;
    std::string whyNot = explainGradeNormExchange(
        *plan, getWgmmaTmaFcProductGemm(op), getGradeNorm(op, norm),
        target.getMaxSharedBytes());
    if (!whyNot.empty() && remarks)
      norm->emitRemark() << "grade_rms_norm runs as a kernel of its own, not "
                            "in fc_product's epilogue: "
                         << whyNot;
    return whyNot.empty();
  }

  LogicalResult emitWithGradeNorm(OpBuilder &b, Operation *op, Operation *norm,
                                  KernelIO &io) const override {
    if (failed(checkAttachedPlan(op)))
      return failure();
    std::optional<FcProductPlan> plan = getGemmPlan(op, getFcProductGemm(op));
    assert(plan && "canApplyGradeNorm holds");
    if (remarks)
      norm->emitRemark() << "grade_rms_norm in the epilogue of fc_product ("
                         << plan->describe()
                         << "): its blocks exchange per-row sums of squares";
    FcProductGradeNorm gradeNorm = getGradeNorm(op, norm);
    auto store = [&](OpBuilder &nb, Location loc, ValueRange indices,
                     Value value) { io.write(nb, loc, 0, indices, value); };
    return emitWgmmaTmaFcProduct(b, op->getLoc(), *plan,
                                 getWgmmaTmaFcProductGemm(op), io, store,
                                 &gradeNorm);
  }

private:
  /// The slots of the warp-specialised schedule, which takes them whole.
  static FcProductGemm getWgmmaTmaFcProductGemm(Operation *op) {
    return getFcProductGemm(op, /*maxTermsPerSlot=*/SIZE_MAX);
  }

  /// The blades' grades and the epsilon of `norm`.
  static FcProductGradeNorm getGradeNorm(Operation *op, Operation *norm) {
    const Algebra &algebra = cast<FcProductOp>(op).getAlgebra().getAlgebra();
    FcProductGradeNorm gradeNorm;
    for (unsigned blade = 0; blade < algebra.numBlades(); ++blade)
      gradeNorm.gradeOfBlade.push_back(algebra.grade(blade));
    gradeNorm.numGrades = algebra.numGrades();
    gradeNorm.epsilon =
        cast<GradeRmsNormOp>(norm).getEpsilon().convertToFloat();
    return gradeNorm;
  }

  /// The slots of each result blade and their terms, from the Cayley
  /// terms of the operands' possibly non-zero blades.
  static FcProductGemm
  getFcProductGemm(Operation *op, size_t maxTermsPerSlot = kMaxTermsPerSlot) {
    auto product = cast<FcProductOp>(op);
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    FcProductGemm fc;
    fc.gated = static_cast<bool>(product.getGate());
    fc.slotsOfBlade.resize(algebra.numBlades());
    for (ArrayRef<Term> bucket :
         expandProduct(algebra, ProductTerms::Geometric, lhsBlades, rhsBlades))
      for (const Term &t : bucket) {
        SmallVector<FcProductGemmSlot> &slots = fc.slotsOfBlade[t.result];
        auto slot = llvm::find_if(slots, [&](const FcProductGemmSlot &s) {
          return s.path == t.path;
        });
        if (slot == slots.end())
          slot = slots.insert(
              llvm::upper_bound(slots, t.path,
                                [](unsigned path, const FcProductGemmSlot &s) {
                                  return path < s.path;
                                }),
              FcProductGemmSlot{t.path, {}});
        slot->terms.push_back({t.lhs, t.rhs, t.sign});
      }
    // Where a stage holds the x and y tiles of every term of a slot (all
    // but the warp-specialised schedule), one slot of many terms would make
    // all steps stage that many: slots of more terms are split into slots
    // of the same path (another pass over Fin for them, but two tiles per
    // term for all).
    for (SmallVector<FcProductGemmSlot> &slots : fc.slotsOfBlade) {
      SmallVector<FcProductGemmSlot> split;
      for (FcProductGemmSlot &slot : slots)
        for (size_t first = 0; first < slot.terms.size();
             first += maxTermsPerSlot) {
          ArrayRef<FcProductGemmTerm> terms(slot.terms);
          split.push_back(
              {slot.path,
               llvm::to_vector(terms.slice(
                   first, std::min(maxTermsPerSlot, terms.size() - first)))});
          fc.termsPerSlot =
              std::max<int64_t>(fc.termsPerSlot, split.back().terms.size());
        }
      slots = std::move(split);
    }
    return fc;
  }

  /// The tensor-core plan of `op`, whose GEMMs are `fc`, where it applies:
  /// f32, a CUDA target with tensor cores, and x, y and the weights read
  /// from memory.
  std::optional<FcProductPlan> getGemmPlan(Operation *op,
                                           const FcProductGemm &fc) const {
    auto product = cast<FcProductOp>(op);
    std::optional<FcProductPlan> plan = planGemm(product, fc);
    // The gate is read in the warp-specialised schedule alone: the others
    // stage every operand tile they form products from, and a gated
    // fc_product that would take them runs tiled on the SIMT cores instead
    // (uta-fold-scalar-gates gates only where that schedule runs).
    if (plan && product.getGate() &&
        plan->gemm.config.schedule != GemmSchedule::WgmmaTma)
      return std::nullopt;
    return plan;
  }

  /// The tensor-core plan of `product` regardless of its gate: its
  /// #uta.gemm_plan where it can be followed, else the engine's choice;
  /// `whyNot` (if given) gets why an attached plan cannot be followed.
  std::optional<FcProductPlan> planGemm(FcProductOp product,
                                        const FcProductGemm &fc,
                                        std::string *whyNot = nullptr) const {
    Operation *op = product;
    if (!hasF32OperandsInMemory(op))
      return std::nullopt;
    ArrayRef<int64_t> lhsShape = getStaticShape(product.getLhs());
    GemmProblem problem;
    problem.batchShape = {lhsShape[0]};
    problem.m = lhsShape[1];
    problem.k = lhsShape[2];
    problem.n = getStaticShape(product.getResult())[2];
    problem.transposeB = product.getTransposeWeights();
    problem.elementType = Float32Type::get(op->getContext());
    if (problem.m == 0 || problem.n == 0)
      return std::nullopt;
    if (auto attr = op->getAttrOfType<GemmPlanAttr>(
            UTADialect::getGemmPlanAttrName())) {
      std::string error;
      if (std::optional<FcProductPlan> plan = planFcProductFromAttr(
              problem, target, fc.termsPerSlot, attr, error))
        return plan;
      if (whyNot)
        *whyNot = error;
    }
    return planFcProduct(problem, target, fc.termsPerSlot);
  }

  /// Why `op`'s #uta.gemm_plan cannot be followed; empty where it has none
  /// or it can.
  std::string explainUnfollowedPlan(Operation *op) const {
    auto attr =
        op->getAttrOfType<GemmPlanAttr>(UTADialect::getGemmPlanAttrName());
    if (!attr)
      return "";
    std::string whyNot;
    std::optional<FcProductPlan> plan =
        planGemm(cast<FcProductOp>(op), getFcProductGemm(op), &whyNot);
    if (!plan)
      return "the op runs on the SIMT cores here (f32 operands read from "
             "memory and CUDA tensor cores are needed)";
    if (!whyNot.empty())
      return whyNot;
    if (cast<FcProductOp>(op).getGate() &&
        plan->gemm.config.schedule != GemmSchedule::WgmmaTma)
      return "only the wgmma_tma schedule reads a gate";
    return "";
  }

  /// Refuses a #uta.gemm_plan that cannot be followed, at the op.
  LogicalResult checkAttachedPlan(Operation *op) const {
    std::string whyNot = explainUnfollowedPlan(op);
    if (whyNot.empty())
      return success();
    return op->emitError() << "the GEMM engine cannot follow its "
                           << UTADialect::getGemmPlanAttrName() << ": "
                           << whyNot;
  }

  LogicalResult emitSimt(OpBuilder &b, Operation *op, Value thread,
                         KernelIO &io) const {
    auto product = cast<FcProductOp>(op);
    Location loc = op->getLoc();
    const Algebra &algebra = product.getAlgebra().getAlgebra();
    ArrayRef<int64_t> lhsShape = getStaticShape(product.getLhs());
    int64_t batch = lhsShape[1], inFeatures = lhsShape[2];
    int64_t outFeatures = getStaticShape(product.getResult())[2];
    unsigned blades = algebra.numBlades();
    FcProductTiling plan = getFcProductTiling(product);
    int64_t numSlots = plan.slots.size();

    // The terms of each slot, in Cayley-table order.
    auto [lhsBlades, rhsBlades] = getOperandBlades(op);
    SmallVector<SmallVector<Term>> buckets =
        expandProduct(algebra, ProductTerms::Geometric, lhsBlades, rhsBlades);
    llvm::DenseMap<std::pair<unsigned, unsigned>, int64_t> slotOf;
    for (auto [index, slot] : llvm::enumerate(plan.slots))
      slotOf[{slot.path, slot.blade}] = index;
    SmallVector<SmallVector<Term>> slotTerms(numSlots);
    for (ArrayRef<Term> bucket : buckets)
      for (const Term &t : bucket)
        slotTerms[slotOf.lookup({t.path, t.result})].push_back(t);

    // Accumulator of each result blade that a slot lands on; -1 elsewhere.
    SmallVector<int64_t> accOfBlade(blades, -1);
    int64_t resultBlades = 0;
    for (unsigned blade = 0; blade < blades; ++blade)
      if ((plan.resultBlades >> blade) & 1)
        accOfBlade[blade] = resultBlades++;
    int64_t tileRows = plan.tileRows, tileCols = plan.tileCols;
    auto accIndex = [&](int64_t i, int64_t j, unsigned blade) {
      return (i * tileCols + j) * resultBlades + accOfBlade[blade];
    };

    auto index = [&](OpBuilder &nb, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(nb, loc, v);
    };
    auto add = [&](OpBuilder &nb, Value l, Value r) -> Value {
      return arith::AddIOp::create(nb, loc, l, r);
    };
    auto mul = [&](OpBuilder &nb, Value l, int64_t r) -> Value {
      return arith::MulIOp::create(nb, loc, l, index(nb, r));
    };
    auto less = [&](OpBuilder &nb, Value l, int64_t r) -> Value {
      return arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult, l,
                                   index(nb, r));
    };

    // Block `block` = rowTile * colTiles + colTile: the blocks of one row
    // tile run side by side and share its x and y in the caches.
    Value local =
        arith::RemUIOp::create(b, loc, thread, index(b, plan.threads));
    Value block =
        arith::DivUIOp::create(b, loc, thread, index(b, plan.threads));
    Value colTile =
        arith::RemUIOp::create(b, loc, block, index(b, plan.colTiles));
    Value rowTile =
        arith::DivUIOp::create(b, loc, block, index(b, plan.colTiles));
    Value col =
        arith::RemUIOp::create(b, loc, local, index(b, plan.colThreads));
    Value rowGroup =
        arith::DivUIOp::create(b, loc, local, index(b, plan.colThreads));
    Value firstRow = mul(b, rowTile, plan.blockRows);
    Value firstCol = add(b, mul(b, colTile, plan.blockCols), col);
    // This thread's rows: consecutive; its outputs: colThreads apart, so
    // that consecutive threads take consecutive outputs.
    Value firstRowInBlock = mul(b, rowGroup, tileRows);
    SmallVector<Value> rowsInBlock, rows, cols, weightCols;
    for (int64_t i = 0; i < tileRows; ++i) {
      rowsInBlock.push_back(i == 0 ? firstRowInBlock
                                   : add(b, firstRowInBlock, index(b, i)));
      rows.push_back(add(b, firstRow, rowsInBlock.back()));
    }
    bool partialRows = batch % plan.blockRows != 0;
    bool partialCols = outFeatures % plan.blockCols != 0;
    for (int64_t j = 0; j < tileCols; ++j) {
      cols.push_back(j == 0 ? firstCol
                            : add(b, firstCol, index(b, j * plan.colThreads)));
      // Outputs past Fout compute on the last column's weights, in bounds,
      // and are never stored.
      weightCols.push_back(
          partialCols ? arith::MinUIOp::create(b, loc, cols.back(),
                                               index(b, outFeatures - 1))
                            .getResult()
                      : cols.back());
    }

    Value zero = f32Constant(b, loc, 0.0);
    SmallVector<Value> sums(tileRows * tileCols * resultBlades, zero);
    if (numSlots > 0 && inFeatures > 0) {
      Value stage = io.allocateWorkgroupBuffer(b, loc, plan.getStageSize());
      // Slot s of (row, f) of the chunk: consecutive f are consecutive
      // values, so the staging threads store to consecutive banks.
      auto stageIndex = [&](OpBuilder &nb, int64_t slot, Value row,
                            Value f) -> Value {
        Value rowBase =
            mul(nb, add(nb, index(nb, slot * plan.blockRows), row), plan.chunk);
        return add(nb, rowBase, f);
      };

      // Stages Q at (b, fi) as (row, f) of the chunk, slot by slot, each
      // value stored as soon as it is summed (the large algebras have
      // hundreds of slots); zeros when `zeros`.
      auto stageSlots = [&](OpBuilder &nb, Value row, Value f, Value batchRow,
                            Value fi, bool zeros) {
        Value at[] = {batchRow, fi};
        BladeReader x(io, 0, at, 0), y(io, 1, at, 0);
        Value gate = product.getGate() && !zeros
                         ? io.read(nb, loc, kFcProductGateOperand, at)
                         : Value();
        for (auto [slot, terms] : llvm::enumerate(slotTerms)) {
          Value value = zero;
          if (!zeros) {
            SmallVector<SignedValue> products;
            for (const Term &t : terms) {
              // Named reads: argument order is unspecified, the IR's must
              // not be.
              Value l = x.get(nb, loc, t.lhs), r = y.get(nb, loc, t.rhs);
              products.push_back(
                  {t.sign, arith::MulFOp::create(nb, loc, l, r)});
            }
            value = emitSignedSum(nb, loc, products);
            if (gate)
              value = arith::MulFOp::create(nb, loc, value, gate);
          }
          memref::StoreOp::create(nb, loc, value, stage,
                                  stageIndex(nb, slot, row, f));
        }
      };

      // One chunk of `width` input features from `chunkStart`.
      auto emitChunk = [&](OpBuilder &nb, Value chunkStart, int64_t width,
                           bool more, ValueRange acc) -> SmallVector<Value> {
        // Staging: entry e = (row e / width, feature e % width), the
        // block's threads taking consecutive entries in rounds.
        int64_t entries = plan.blockRows * width;
        for (int64_t first = 0; first < entries; first += plan.threads) {
          OpBuilder sb = nb;
          Value entry = first == 0 ? local : add(nb, local, index(nb, first));
          if (first + plan.threads > entries) {
            auto has = scf::IfOp::create(nb, loc, less(nb, entry, entries),
                                         /*withElseRegion=*/false);
            sb = has.getThenBodyBuilder();
          }
          Value row = arith::DivUIOp::create(sb, loc, entry, index(sb, width));
          Value f = arith::RemUIOp::create(sb, loc, entry, index(sb, width));
          Value batchRow = add(sb, firstRow, row);
          Value fi = add(sb, chunkStart, f);
          if (partialRows) {
            // Rows past B stage zeros.
            auto inRange = scf::IfOp::create(sb, loc, less(sb, batchRow, batch),
                                             /*withElseRegion=*/true);
            OpBuilder thenBuilder = inRange.getThenBodyBuilder();
            stageSlots(thenBuilder, row, f, batchRow, fi, /*zeros=*/false);
            OpBuilder elseBuilder = inRange.getElseBodyBuilder();
            stageSlots(elseBuilder, row, f, batchRow, fi, /*zeros=*/true);
          } else {
            stageSlots(sb, row, f, batchRow, fi, /*zeros=*/false);
          }
        }
        gpu::BarrierOp::create(nb, loc);

        // Accumulation: per input feature, per path, the thread's weights
        // of that path, then each row's staged slots of the path times
        // them.
        ValueRange next = emitLoop(
            nb, loc, width, acc,
            [&](OpBuilder &lb, Value f, ValueRange current) {
              SmallVector<Value> updated(current);
              Value fi = add(lb, chunkStart, f);
              for (int64_t s = 0; s < numSlots;) {
                unsigned path = plan.slots[s].path;
                int64_t end = s;
                while (end < numSlots && plan.slots[end].path == path)
                  ++end;
                SmallVector<Value> weights;
                for (Value o : weightCols)
                  weights.push_back(io.read(
                      lb, loc, 2,
                      product.getTransposeWeights()
                          ? SmallVector<Value>{index(lb, path), o, fi}
                          : SmallVector<Value>{index(lb, path), fi, o}));
                for (int64_t i = 0; i < tileRows; ++i)
                  for (int64_t slot = s; slot < end; ++slot) {
                    Value q = memref::LoadOp::create(
                        lb, loc, stage,
                        stageIndex(lb, slot, rowsInBlock[i], f));
                    for (int64_t j = 0; j < tileCols; ++j) {
                      Value &sum =
                          updated[accIndex(i, j, plan.slots[slot].blade)];
                      sum = arith::AddFOp::create(
                          lb, loc, sum,
                          arith::MulFOp::create(lb, loc, weights[j], q));
                    }
                  }
                s = end;
              }
              return updated;
            });
        SmallVector<Value> result(next);
        // The next chunk's staging overwrites what slower threads may
        // still be reading.
        if (more)
          gpu::BarrierOp::create(nb, loc);
        return result;
      };

      int64_t fullChunks = inFeatures / plan.chunk;
      int64_t tail = inFeatures % plan.chunk;
      if (fullChunks > 0) {
        ValueRange afterLoop = emitLoop(
            b, loc, fullChunks, sums,
            [&](OpBuilder &nb, Value c, ValueRange acc) {
              return emitChunk(nb, mul(nb, c, plan.chunk), plan.chunk,
                               /*more=*/fullChunks > 1 || tail > 0, acc);
            });
        sums.assign(afterLoop.begin(), afterLoop.end());
      }
      if (tail > 0)
        sums = emitChunk(b, index(b, fullChunks * plan.chunk), tail,
                         /*more=*/false, sums);
    }

    // Every blade of each (row, output) of the tile; the blades no slot
    // lands on are zero.
    SmallVector<Value> rowInRange(tileRows), colInRange(tileCols);
    for (int64_t i = 0; partialRows && i < tileRows; ++i)
      rowInRange[i] = less(b, rows[i], batch);
    for (int64_t j = 0; partialCols && j < tileCols; ++j)
      colInRange[j] = less(b, cols[j], outFeatures);
    for (int64_t i = 0; i < tileRows; ++i)
      for (int64_t j = 0; j < tileCols; ++j) {
        OpBuilder wb = b;
        Value inRange = rowInRange[i] ? rowInRange[i] : colInRange[j];
        if (rowInRange[i] && colInRange[j])
          inRange = arith::AndIOp::create(b, loc, rowInRange[i], colInRange[j]);
        if (inRange) {
          auto store = scf::IfOp::create(b, loc, inRange,
                                         /*withElseRegion=*/false);
          wb = store.getThenBodyBuilder();
        }
        for (unsigned blade = 0; blade < blades; ++blade) {
          Value value =
              accOfBlade[blade] < 0 ? zero : sums[accIndex(i, j, blade)];
          io.write(wb, loc, 0, {index(wb, blade), rows[i], cols[j]}, value);
        }
      }
    return success();
  }

  GemmTarget target;
  bool remarks;
};

} // namespace

void mlir::uta::clifford_kernels::addFcProductEmitter(
    KernelEmitterRegistry &registry, const GemmTarget &target, bool remarks) {
  registry.add<FcProductEmitter, FcProductOp>(target, remarks);
}
