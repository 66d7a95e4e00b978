//===- WorkspacePlan.cpp - Where a run's intermediates live ---------------===//

#include "runtime/core/WorkspacePlan.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

using namespace uta::runtime;

std::vector<LiveSpan> uta::runtime::computeLiveSpans(const Manifest &manifest) {
  std::unordered_map<int64_t, size_t> positionOf;
  for (size_t i = 0; i < manifest.buffers.size(); ++i)
    positionOf.emplace(manifest.buffers[i].id, i);
  std::vector<bool> touched(manifest.buffers.size(), false);
  std::vector<LiveSpan> spans(manifest.buffers.size());
  auto touch = [&](size_t position, size_t launch) {
    LiveSpan &span = spans[position];
    if (!touched[position])
      span = {launch, launch};
    span.first = std::min(span.first, launch);
    span.last = std::max(span.last, launch);
    touched[position] = true;
  };
  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    for (const KernelArg &arg : launch.args)
      if (arg.kind == KernelArg::Kind::kBuffer ||
          arg.kind == KernelArg::Kind::kTensorMap)
        if (auto it = positionOf.find(arg.buffer); it != positionOf.end())
          touch(it->second, l);
    for (size_t position : launch.zeroedPositions)
      touch(position, l);
  }
  size_t lastLaunch =
      manifest.launches.empty() ? 0 : manifest.launches.size() - 1;
  for (size_t i = 0; i < spans.size(); ++i)
    if (!touched[i])
      spans[i] = {0, lastLaunch};
  return spans;
}

namespace {
/// Where each buffer's memory is: `homes[i]`, itself or the end of its
/// in-place chain (the header); `alignments[i]`, for a home, the largest
/// alignment of the buffers its chain holds (its own included).
struct Homes {
  std::vector<size_t> homes;
  std::vector<uint64_t> alignments;
};
} // namespace

static Homes findHomes(const Manifest &manifest,
                       const std::vector<LiveSpan> &spans) {
  const std::vector<BufferDesc> &buffers = manifest.buffers;
  std::vector<size_t> next(buffers.size());
  std::iota(next.begin(), next.end(), size_t(0));
  // Whether a buffer holds another already (two inputs of one launch live
  // at once), and the largest alignment of the chain that ends in it.
  std::vector<bool> holdsOne(buffers.size(), false);
  Homes found;
  std::vector<uint64_t> &chainAlignment = found.alignments;
  for (const BufferDesc &buffer : buffers)
    chainAlignment.push_back(buffer.alignment);
  for (size_t l = 0; l < manifest.launches.size(); ++l) {
    const LaunchDesc &launch = manifest.launches[l];
    for (auto [input, output] : launch.inPlacePositions) {
      const BufferDesc &in = buffers[input], &out = buffers[output];
      bool outHoldsIt =
          out.role == BufferRole::kIntermediate ||
          // A caller's result is only known to be 16-byte aligned.
          (out.role == BufferRole::kResult && chainAlignment[input] <= 16);
      // An output stored elsewhere already cannot hold: two pairs of one
      // launch in opposite directions would make a cycle.
      if (in.role != BufferRole::kIntermediate || !outHoldsIt ||
          in.bytes != out.bytes || next[input] != input ||
          next[output] != output || holdsOne[output] ||
          spans[input].last != l || spans[output].first != l ||
          std::find(launch.zeroedPositions.begin(),
                    launch.zeroedPositions.end(),
                    output) != launch.zeroedPositions.end())
        continue;
      next[input] = output;
      holdsOne[output] = true;
      chainAlignment[output] =
          std::max(chainAlignment[output], chainAlignment[input]);
    }
  }
  // Chains go forward in launch order, and within one launch only into a
  // buffer that is not stored elsewhere, so they end.
  for (size_t i = 0; i < buffers.size(); ++i) {
    size_t home = i;
    while (next[home] != home)
      home = next[home];
    found.homes.push_back(home);
  }
  return found;
}

WorkspacePlan uta::runtime::planWorkspace(const Manifest &manifest) {
  const std::vector<BufferDesc> &buffers = manifest.buffers;
  WorkspacePlan plan;
  plan.offsets.assign(buffers.size(), 0);
  plan.storedIn.assign(buffers.size(), WorkspacePlan::kNotStoredIn);
  std::vector<LiveSpan> spans = computeLiveSpans(manifest);
  auto [homes, chainAlignments] = findHomes(manifest, spans);
  // A chain's home holds its members from the first one's first launch on.
  for (size_t i = 0; i < buffers.size(); ++i) {
    size_t home = homes[i];
    if (home == i || buffers[i].role != BufferRole::kIntermediate)
      continue;
    if (buffers[home].role == BufferRole::kResult)
      plan.storedIn[i] = home;
    else
      spans[home].first = std::min(spans[home].first, spans[i].first);
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].role == BufferRole::kIntermediate && homes[i] == i)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return buffers[a].bytes > buffers[b].bytes;
  });
  // The placed intermediates, as [offset, end) byte ranges.
  struct Placed {
    uint64_t offset, end;
    size_t position;
  };
  std::vector<Placed> placed;
  for (size_t position : order) {
    const BufferDesc &desc = buffers[position];
    uint64_t alignment =
        std::max(chainAlignments[position], kMinWorkspaceAlignment);
    plan.alignment = std::max(plan.alignment, alignment);
    // The ranges of the placed ones live at the same time, by offset.
    std::vector<Placed> conflicts;
    for (const Placed &other : placed) {
      const LiveSpan &a = spans[position], &b = spans[other.position];
      if (a.first <= b.last && b.first <= a.last)
        conflicts.push_back(other);
    }
    std::sort(
        conflicts.begin(), conflicts.end(),
        [](const Placed &a, const Placed &b) { return a.offset < b.offset; });
    // The first gap, at the alignment, that holds it.
    uint64_t offset = 0;
    for (const Placed &other : conflicts) {
      if (offset + desc.bytes <= other.offset)
        break;
      offset = std::max(offset, other.end);
      offset = (offset + alignment - 1) / alignment * alignment;
    }
    plan.offsets[position] = offset;
    plan.bytes = std::max(plan.bytes, offset + desc.bytes);
    placed.push_back({offset, offset + desc.bytes, position});
  }
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].role == BufferRole::kIntermediate &&
        buffers[homes[i]].role == BufferRole::kIntermediate)
      plan.offsets[i] = plan.offsets[homes[i]];
  return plan;
}
