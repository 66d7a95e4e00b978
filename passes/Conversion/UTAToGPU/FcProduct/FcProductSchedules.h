//===- FcProductSchedules.h - fc_product's engine kernels -------*- C++ -*-===//
//
// clifford.fc_product as per-blade GEMMs (FcProductGemm: the slots and
// signed terms of each result blade), what its kernels share (the steps of
// a blade's K loop, the order of its blocks) and the kernel of each engine
// schedule: mma.sync, wgmma with A formed in shared memory, and the
// warp-specialised wgmma with A formed in registers and an optional grade
// RMS norm; and the mma.sync kernels of its gradients, fc_product_adjoint
// and fc_product_weight_gradient.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTSCHEDULES_H
#define UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTSCHEDULES_H

#include "dialects/Clifford/IR/CliffordOps.h"
#include "passes/Conversion/UTAToGPU/FcProduct/FcProductPlan.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmSchedules.h"

namespace mlir::uta {

/// One term of an fc_product slot: sign * x_lhs * y_rhs.
struct FcProductGemmTerm {
  unsigned lhs, rhs;
  int sign;
};

/// A slot of a result blade's GEMM: the terms on one path that land on the
/// blade, whose signed pair products are the slot's A operand (K = Fin)
/// against the weights w[path].
struct FcProductGemmSlot {
  unsigned path;
  SmallVector<FcProductGemmTerm> terms;
};

/// The operand index of fc_product's optional gate [B, Fin].
constexpr unsigned kFcProductGateOperand = 3;

/// clifford.fc_product as per-blade GEMMs: z_k = sum over the slots of k of
/// (signed pair products) @ w[path].
struct FcProductGemm {
  /// The slots of each result blade (the problem's batch index).
  SmallVector<SmallVector<FcProductGemmSlot>> slotsOfBlade;
  /// The most terms of a slot; slots with fewer have zero tiles.
  int64_t termsPerSlot = 1;
  /// Whether every pair product is scaled by a gate [B, K] (fc_product's
  /// operand 3), which only the warp-specialised schedule reads.
  bool gated = false;
};

/// The constants of one K step of fc_product's GEMM: the path of its
/// weights and, per term, the blades of x and y and the sign (0 for a
/// missing term).
struct FcProductStep {
  Value path;
  SmallVector<Value> lhs, rhs, sign;
};

/// Whether the engine's kernels can take `op` (fc_product or one of its
/// gradients): every operand and result f32, every operand read from
/// memory (no producer fused into the kernel: the tiles are copied raw).
bool hasF32OperandsInMemory(Operation *op);

/// The K steps of `blade`'s GEMM: its slots times `kTiles` tiles of Fin.
Value emitFcProductStepCount(OpBuilder &b, Location loc,
                             const FcProductGemm &fc, Value blade,
                             int64_t kTiles);

/// The tile of the current block of a warp-specialised fc_product. Row
/// tiles are taken in chunks of FcProductPlan::longBlocksFirstRows; inside a
/// chunk, the blocks of the blades with the most slots first, whose blocks
/// run longest, so that shorter ones fill the last wave (the GPU hands out
/// blocks in order); inside a group of blades with equal slot counts, row
/// tiles outermost, then blades, then column tiles, so that blocks running
/// together share rows of x and y in L2.
/// `blockIndex` is the block's place in that order: the block id, unless
/// given (a ticket taken at the block's start, see GradeNormExchange.h).
GemmBlockPosition emitFcProductBlockPosition(OpBuilder &b, Location loc,
                                             const FcProductPlan &plan,
                                             const FcProductGemm &fc,
                                             Value blockIndex = nullptr);

/// The result blades in the order emitFcProductBlockPosition hands out
/// their blocks within a row tile: most slots first, then by index.
SmallVector<unsigned> getFcProductBladeOrder(const FcProductGemm &fc);

/// The constants of step `step` of `blade`'s GEMM (slot step / kTiles),
/// from constant switches.
FcProductStep emitFcProductStep(OpBuilder &b, Location loc,
                                const FcProductGemm &fc, Value blade,
                                Value step, int64_t kTiles);

/// fc_product on tensor cores: the mma.sync pipeline with x and y tiles per
/// term copied by cp.async and the A fragments formed as their signed
/// products. Operands must be buffers.
LogicalResult emitMmaSyncFcProduct(OpBuilder &b, Location loc,
                                   const FcProductPlan &plan,
                                   const FcProductGemm &fc, KernelIO &io,
                                   ElementEpilogue epilogue);

/// The operands a kernel forms fc_product's pair products from (x, y) and
/// multiplies them with (B): operand indices of the op. x and y are laid out
/// as the plan's A: [K][M] tiles where its problem has transposeA.
struct FcPairOperands {
  unsigned lhs, rhs, b;
};

/// clifford.fc_product_weight_gradient on tensor cores: per path (the
/// problem's batch index), the mma.sync pipeline of fc_product with M the
/// input features, N the output features and K the batch, once per slot:
/// the slot's `path` field names the cotangent's blade (B, [B][Fout]), its
/// terms the x and y blades whose pair products are A, formed from [K][M]
/// tiles of x and y as [2^n, B, Fin] holds them (the plan's problem has
/// transposeA: read transposed), or, for pairs [2^n, Fin, B], from [M][K]
/// tiles read as fc_product reads its own. Operands (cotangent, x, y) must
/// be buffers.
LogicalResult emitMmaSyncFcProductWeightGradient(OpBuilder &b, Location loc,
                                                 const FcProductPlan &plan,
                                                 const FcProductGemm &fc,
                                                 KernelIO &io,
                                                 ElementEpilogue epilogue);

/// What fc_product_weight_gradient's plan depends on besides shapes: its
/// operands' layouts and its runs of the batch.
struct FcWeightGradientForm {
  bool pairsTransposed = false, cotangentTransposed = false;
  int64_t batchRuns = 1;

  /// The op's own.
  static FcWeightGradientForm of(clifford::FcProductWeightGradientOp op);
};

/// The plan of clifford.fc_product_weight_gradient `op` on `target`'s
/// tensor cores, were it in `form`: f32 operands in memory, mma.sync, or
/// with every operand batch-contiguous the warp-specialised fc_product
/// kernel where its heuristic takes the problem (runs of the batch: only
/// there, each run whole K tiles). The op's #uta.gemm_plan where it can be
/// followed; `whyNot` (if given) gets why it cannot. nullopt: a SIMT
/// kernel.
std::optional<FcProductPlan> planFcProductWeightGradient(
    clifford::FcProductWeightGradientOp op, const GemmTarget &target,
    const FcWeightGradientForm &form, std::string *whyNot = nullptr);

/// The slots of each path of fc_product_weight_gradient `op` on the
/// warp-specialised kernel (a slot per cotangent blade the path lands on):
/// each K step of a path's blocks is a slot's.
SmallVector<int64_t>
getFcProductWeightGradientSlotCounts(clifford::FcProductWeightGradientOp op);

/// clifford.fc_product_adjoint on tensor cores: per result blade, one
/// mma.sync GEMM of the cotangent (A) and the weights (B, transposed) per
/// term, K over the output features; `terms` holds, per result blade, one
/// single-term slot per term: the path, the cotangent's blade (`lhs`), the
/// other operand's blade (`rhs`) and the sign. Each term's product is
/// scaled by the sign and the other operand and summed in registers.
/// Operands must be buffers.
LogicalResult emitMmaSyncFcProductAdjoint(OpBuilder &b, Location loc,
                                          const GemmPlan &plan,
                                          const FcProductGemm &terms,
                                          KernelIO &io,
                                          ElementEpilogue epilogue);

/// fc_product on sm_90a's wgmma: per stage, x and y tiles per term and the
/// weights' [K][N] tile by cp.async; every thread then forms the A tile
/// (signed pair products) and the weights' K-major tile in shared memory,
/// rounded to TF32 (or split into high parts and remainders for 3xTF32),
/// for wgmma. Operands must be buffers.
LogicalResult emitWgmmaFcProduct(OpBuilder &b, Location loc,
                                 const FcProductPlan &plan,
                                 const FcProductGemm &fc, KernelIO &io,
                                 ElementEpilogue epilogue);

struct FcProductGradeNorm;

/// Whether the warp-specialised fc_product of `plan` stages its result tile
/// in shared memory for its stores (emitStagedWgmmaEpilogue): rows of a
/// multiple of 4 and a staging tile within the stages' memory.
bool canStageWgmmaTmaFcProductEpilogue(const FcProductPlan &plan);

/// fc_product warp-specialised on sm_90a (the WgmmaTma schedule): a
/// producer warp copies each term's x and y tiles and each step's K-major
/// weight tile by TMA into two rings of stages; consumer warpgroups form
/// the A operand (signed pair products) in registers, rounded to TF32 or
/// split for 3xTF32, and multiply it with wgmma on the landed weights.
/// `fc`'s slots may hold any number of
/// terms. Operands must be kernel arguments (their tensor maps), with
/// K-major weights (transpose_weights) and 16-byte aligned rows. With
/// `gradeNorm` (explainGradeNormExchange finds no reason not to) the kernel
/// computes the grade RMS norm of the product, its blocks exchanging
/// per-row sums of squares.
LogicalResult
emitWgmmaTmaFcProduct(OpBuilder &b, Location loc, const FcProductPlan &plan,
                      const FcProductGemm &fc, KernelIO &io,
                      ElementEpilogue epilogue,
                      const FcProductGradeNorm *gradeNorm = nullptr);

/// clifford.fc_product_weight_gradient warp-specialised on sm_90a: the
/// kernel of emitWgmmaTmaFcProduct with the batch-contiguous x and y
/// ([2^n, Fin, B]: transpose_pairs) as the pair products' factors, M the
/// input features, K the batch, and the cotangent's blade of each slot
/// ([2^n, Fout, B]: transpose_cotangent) as the K-major B; per path (the
/// problem's batch index) as emitMmaSyncFcProductWeightGradient. Operands
/// (cotangent, x, y) must be kernel arguments with 16-byte aligned rows.
LogicalResult emitWgmmaTmaFcProductWeightGradient(OpBuilder &b, Location loc,
                                                  const FcProductPlan &plan,
                                                  const FcProductGemm &fc,
                                                  KernelIO &io,
                                                  ElementEpilogue epilogue);

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTSCHEDULES_H
