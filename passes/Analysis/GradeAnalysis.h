//===- GradeAnalysis.h - Which blades of a multivector may be non-zero ----===//
//
// The grade analysis of the `uta` phase: for a tensor value and one of its
// axes of at most 64 entries (a blade axis), the set of slices along that
// axis that may hold a non-zero value, as a bit mask (bit i = blade i).
// clifford-simplify-grades uses it to fold projections and zero products
// and to record on each product the blades of its operands, so that the
// lowering expands only the Cayley terms that can be non-zero.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_GRADEANALYSIS_H
#define UTA_PASSES_ANALYSIS_GRADEANALYSIS_H

#include "dialects/Clifford/IR/BladeSets.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace mlir::uta {

/// The blade axis of a clifford op; nullopt for other ops.
std::optional<int64_t> getBladeAxis(Operation *op);

/// Answers "which blades of `value` along `axis` may be non-zero?" for the
/// values of a function, computing each answer once from the value's
/// producers (see GradeAnalysis.cpp for the rules).
///
/// A blade outside the answer is zero whenever the graph's inputs are
/// finite: the rules take 0 * y = 0, which only an infinite or NaN y breaks.
/// Answers stay valid while the IR changes by rewrites that keep every
/// value's contents; erasing an op must be reported with forget(), since a
/// new op may reuse its address.
class GradeAnalysis {
public:
  /// The blades of `value` along `axis` that may be non-zero: a mask over
  /// the value's size on that axis (every blade when the size exceeds 64,
  /// the value is not a ranked tensor or nothing is known).
  uint64_t getBlades(Value value, int64_t axis);

  /// Drops every answer (call when ops are erased).
  void forget() { answers.clear(); }

private:
  llvm::DenseMap<std::pair<Value, int64_t>, uint64_t> answers;
};

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_GRADEANALYSIS_H
