//===- FcProductPlan.h - fc_product's plan on the GEMM engine ---*- C++ -*-===//
//
// clifford.fc_product runs on tensor cores as one GEMM per result blade:
// z_k = sum over the slots of k of (signed pair products of x and y) @
// w[path], M the batch, N the output features, K the input features per
// slot. An FcProductPlan is the engine's GemmPlan for that per-blade GEMM
// (schedule, tile, precision), chosen from fc_product's own table, and what
// fc_product adds on each schedule: how many x and y tiles a stage holds,
// whether they come by TMA, and the order and grouping of the blocks.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTPLAN_H
#define UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTPLAN_H

#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"

#include <optional>
#include <string>

namespace mlir::uta {

struct FcProductPlan {
  /// The per-blade GEMM: problem [result blades] x B x Fout over K = Fin,
  /// f32; the configuration's B stages (bStages) are the weights' on the
  /// warp-specialised schedule.
  GemmPlan gemm;
  /// Shared-memory tiles of tileM x tileK per stage that form the A
  /// operand: an x and a y tile per term of a slot (A is their signed pair
  /// products, formed in registers or in shared memory).
  int64_t aTilesPerStage = 2;
  /// wgmma: the x and y tiles are copied by the tensor memory accelerator
  /// (a tensor map per operand, one box per tile, completed on a per-stage
  /// mbarrier) instead of by every thread's cp.async. Needs rows of x and
  /// y that are 16-byte aligned (the maps' strides).
  bool tmaRows = false;
  /// The warp-specialised schedule: row tiles per chunk of the order that
  /// hands out the blocks of the blades with the most slots (the longest)
  /// first, so that shorter ones fill the last wave
  /// (emitFcProductBlockPosition); 0 for the other schedules. Each chunk's
  /// short blocks read again the rows of x and y its long blocks read.
  int64_t longBlocksFirstRows = 0;
  /// The warp-specialised schedule: a block's steps run K tile by K tile
  /// (every slot of a K tile, then the next K tile) instead of slot by
  /// slot, so that the blocks of a row tile, whose blades read the same x
  /// and y tiles, read each K tile at about the same time, and it stays in
  /// L2 between them. Set for plain TF32.
  bool kTilesOuter = false;
  /// The warp-specialised schedule: blocks run in clusters of this many, 2
  /// with kTilesOuter where the column tiles are even in number: the GPU
  /// then runs neighbours in emitFcProductBlockPosition's order, the column
  /// tiles of one row tile and blade, which read the same x and y tiles, at
  /// the same time on one GPC. (With a grade norm the blocks are placed by
  /// ticket: a cluster's two usually take neighbouring places.)
  int64_t clusterBlocks = 1;

  /// wgmma: the sets of formed tiles (A, and the weights made K-major where
  /// they are stored [K][N]), two in plain TF32, which forms a step while
  /// the last one is multiplied, one otherwise.
  int64_t getFormedTileSets() const;
  /// The fewest stages the schedule can run: 3 on wgmma in plain TF32 with
  /// K-major weights (a stage's weights are read by the step in flight
  /// while the next step is formed from another), else 1.
  int64_t getMinStages() const;
  /// Bytes of workgroup memory a block uses.
  int64_t getSharedMemoryBytes() const;
  /// One line for --remarks: the GEMM's schedule, precision and tile, and
  /// how the operands are staged and the blocks ordered.
  std::string describe() const;
};

/// The plan of fc_product's per-blade GEMMs: `problem` is [result blades] x
/// B x Fout over K = Fin per slot, f32, with `termsPerSlot` x and y tiles
/// per stage; std::nullopt where tensor cores do not apply (no CUDA tensor
/// cores, or the tiles do not fit the target's shared memory): the op keeps
/// its SIMT kernel.
std::optional<FcProductPlan> planFcProduct(const GemmProblem &problem,
                                           const GemmTarget &target,
                                           int64_t termsPerSlot);

/// The plan `attr` asks for, as planFcProduct would make it with that
/// configuration; std::nullopt, with why in `whyNot`, where it is no row of
/// fc_product's table, or its schedule does not apply to the problem on the
/// target, or its tiles do not fit.
std::optional<FcProductPlan> planFcProductFromAttr(const GemmProblem &problem,
                                                   const GemmTarget &target,
                                                   int64_t termsPerSlot,
                                                   GemmPlanAttr attr,
                                                   std::string &whyNot);

/// fc_product's configuration table (the names --uta-gemm-config accepts
/// beside the matmul table's).
llvm::ArrayRef<GemmConfigRow> getFcProductConfigTable();

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_FCPRODUCTPLAN_H
