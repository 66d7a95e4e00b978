//===- WorkspacePlan.h - Where a run's intermediates live -------*- C++ -*-===//
//
// A run on a caller's stream (the torch path) places every intermediate
// buffer inside one workspace the caller allocates. An intermediate is
// needed only from the first launch that touches it to the last: two whose
// spans of launches do not meet may share bytes, since the launches of one
// stream run in order. planWorkspace gives each intermediate an offset so
// that intermediates live at the same launch never overlap, and the
// workspace is about as large as the most memory live at any one launch
// rather than the sum of every intermediate (a training step's backward
// holds few of its intermediates at once).
//
// An intermediate whose last reader is the first writer of another buffer of
// its size, and reads it only where it writes that buffer (the launch's
// `in_place` pairs), lives in that buffer's memory: in the same workspace
// bytes as an intermediate, or in a result, outside the workspace. A
// gradient's addend then takes no memory beside the sum.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_RUNTIME_CORE_WORKSPACEPLAN_H
#define UTA_RUNTIME_CORE_WORKSPACEPLAN_H

#include "runtime/core/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace uta::runtime {

/// Every intermediate starts at a multiple of this many bytes, as a fresh
/// allocation would (cudaMalloc gives 256): a warp's 128-byte accesses of a
/// buffer then fall on whole segments.
constexpr uint64_t kMinWorkspaceAlignment = 256;

struct WorkspacePlan {
  /// Per manifest buffer: an intermediate's offset in the workspace (0 for
  /// other buffers, and for those stored in a result).
  std::vector<uint64_t> offsets;
  /// Per manifest buffer: for an intermediate that lives in a result's
  /// memory, that result's position; kNotStoredIn otherwise.
  static constexpr size_t kNotStoredIn = SIZE_MAX;
  std::vector<size_t> storedIn;
  /// The workspace's size, and the alignment of its start (the largest of
  /// the intermediates' and kMinWorkspaceAlignment).
  uint64_t bytes = 0;
  uint64_t alignment = 1;
};

/// The launches [first, last] (indices into Manifest::launches) during which
/// buffer `position` (of Manifest::buffers) must hold its data: from the
/// first launch that passes or zeroes it to the last. A buffer no launch
/// touches spans every launch.
struct LiveSpan {
  size_t first = 0, last = 0;
};
std::vector<LiveSpan> computeLiveSpans(const Manifest &manifest);

/// Offsets for the intermediates of `manifest` (a parsed one: sizes checked
/// against int64): each in-place chain (above) as one buffer whose span
/// joins its members'; the largest first, each at the lowest offset of its
/// alignment (at least kMinWorkspaceAlignment) that overlaps no intermediate
/// already placed whose span meets its own. Deterministic: ties keep manifest
/// order.
WorkspacePlan planWorkspace(const Manifest &manifest);

} // namespace uta::runtime

#endif // UTA_RUNTIME_CORE_WORKSPACEPLAN_H
