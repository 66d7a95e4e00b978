//===- GradeNormExchange.h - Grade norms across blocks ----------*- C++ -*-===//
//
// clifford.grade_rms_norm of fc_product's result, computed by the
// warp-specialised fc_product kernel itself (WgmmaTmaFcProduct.cpp) instead
// of by a kernel of its own that reads the product back. A row's norm for
// grade g sums the squares of every blade of g over every output feature,
// which the blocks of one row tile (each one blade by one column tile) hold
// between them: a *group* is the blocks of one row tile and one grade.
//
// In its epilogue each block sums the squares of its staged tile's rows,
// writes them to a global buffer, counts itself in at its group's counter
// and waits until the whole group has; it then adds up the group's sums in
// a fixed order (the same bits in every block and every run) and
// multiplies its rows by 1 / sqrt(sum / F + epsilon) as they are stored.
//
// Waiting on other blocks needs them to be running. Each block takes a
// ticket (an atomic count) when it starts and places itself by its ticket,
// not its block id, in the schedule's block order, where the blocks of a
// group are consecutive (explainGradeNormExchange). Blocks with
// earlier tickets are running or done, so a block that waits forever would
// wait on tickets not yet handed out; that can only be the one group whose
// tickets run past the last handed out, and it has fewer blocks than the GPU
// holds at once (at most kMaxGradeNormGroupBlocks). The counters live in a
// buffer the runtime zeroes before each launch
// (KernelIO::allocateZeroedGlobalBuffer).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_GRADENORMEXCHANGE_H
#define UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_GRADENORMEXCHANGE_H

#include "passes/Conversion/UTAToGPU/FcProduct/FcProductSchedules.h"

#include <string>

namespace mlir::uta {

/// The grade norm that fc_product's kernel applies to its result.
struct FcProductGradeNorm {
  /// The grade of each result blade.
  SmallVector<unsigned> gradeOfBlade;
  unsigned numGrades = 0;
  /// grade_rms_norm's epsilon.
  float epsilon = 0.0f;
};

/// The most blocks of one group: fewer than any sm_90a GPU runs at once (one
/// block of the schedule per SM).
constexpr int64_t kMaxGradeNormGroupBlocks = 16;

/// Why the WgmmaTma fc_product of `plan` and `fc` cannot compute `norm` in
/// its epilogue; empty when it can: a staged epilogue, groups of
/// consecutive blocks and at most kMaxGradeNormGroupBlocks of them, and
/// the exchange's workgroup words beside the schedule's within
/// `maxSharedBytes`.
std::string explainGradeNormExchange(const FcProductPlan &plan,
                                     const FcProductGemm &fc,
                                     const FcProductGradeNorm &norm,
                                     int64_t maxSharedBytes);

/// The exchange of one fc_product kernel, emitted into its body.
class GradeNormExchange : GemmScheduleEmitter {
public:
  /// Allocates the counters and sums (global, zeroed per launch) and the
  /// block's workgroup words. Before the schedule's tiles, which the
  /// staged epilogue reuses.
  GradeNormExchange(OpBuilder &b, Location loc, const FcProductPlan &plan,
                    const FcProductGemm &fc, const FcProductGradeNorm &norm,
                    KernelIO &io);

  /// Every thread of the block: the block's ticket (index), its place in
  /// emitFcProductBlockPosition's order.
  Value emitTicket(Value threadId);

  /// The `numThreads` threads `thread` (from 0) that stage the result tile
  /// of block `position` (result blade position.batch[0]) in `staging`
  /// ([tileM][>= tileN] f32, complete): 1 / norm for each of the tile's
  /// rows in a workgroup buffer [tileM] f32, once every block of the group
  /// has its sums in. `barrier` synchronizes exactly those threads.
  Value emitRowScales(const GemmBlockPosition &position, Value staging,
                      Value thread, int64_t numThreads,
                      function_ref<void()> barrier);

private:
  /// A generic pointer to 32-bit word `word` (index) of global `buffer`.
  Value getWordPointer(Value buffer, Value word);
  /// The counters: the ticket, then one per (row tile, grade).
  int64_t getCounterWords() const;

  const FcProductGradeNorm &norm;
  /// Global: the counters (zeroed before each launch, counted as i32), and
  /// the blocks' sums [blade][column tile][row].
  Value counters, sums;
  /// Workgroup: the ticket, and the rows' scales.
  Value ticketWord, rowScales;
};

} // namespace mlir::uta

#endif // UTA_PASSES_CONVERSION_UTATOGPU_FCPRODUCT_GRADENORMEXCHANGE_H
