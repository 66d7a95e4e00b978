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

WorkspacePlan uta::runtime::planWorkspace(const Manifest &manifest) {
  const std::vector<BufferDesc> &buffers = manifest.buffers;
  WorkspacePlan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<LiveSpan> spans = computeLiveSpans(manifest);
  std::vector<size_t> order;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].role == BufferRole::kIntermediate)
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
    uint64_t alignment = std::max(desc.alignment, kMinWorkspaceAlignment);
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
  return plan;
}
