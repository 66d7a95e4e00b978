//===- WorkspacePlanTest.cpp - The caller's workspace plan ----------------===//
//
// planWorkspace on hand-made manifests: intermediates live at the same
// launch never share bytes, those that are not do, offsets keep their
// alignment, and a chain needs about two intermediates' memory, not all.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/WorkspacePlan.h"

#include <gtest/gtest.h>

using namespace uta::runtime;

namespace {

/// A manifest of `sizes` intermediates (ids 0..) plus an argument (id 100)
/// and a result (id 101), and one launch per entry of `touches`, passing
/// those buffer ids.
Manifest makeManifest(const std::vector<uint64_t> &sizes,
                      const std::vector<std::vector<int64_t>> &touches,
                      uint64_t alignment = 16) {
  Manifest manifest;
  for (size_t i = 0; i < sizes.size(); ++i) {
    BufferDesc desc;
    desc.id = int64_t(i);
    desc.role = BufferRole::kIntermediate;
    desc.bytes = sizes[i];
    desc.alignment = alignment;
    manifest.buffers.push_back(desc);
  }
  for (auto [id, role] : {std::pair{int64_t(100), BufferRole::kArgument},
                          std::pair{int64_t(101), BufferRole::kResult}}) {
    BufferDesc desc;
    desc.id = id;
    desc.role = role;
    desc.index = 0;
    desc.bytes = 1 << 20;
    manifest.buffers.push_back(desc);
  }
  for (const std::vector<int64_t> &ids : touches) {
    LaunchDesc launch;
    for (int64_t id : ids) {
      KernelArg arg;
      arg.buffer = id;
      launch.args.push_back(arg);
    }
    manifest.launches.push_back(launch);
  }
  return manifest;
}

/// Whether `a` and `b` (positions) are an in-place pair of the launch where
/// one's span ends and the other's starts, the only launch both live at.
bool pairedInPlace(const Manifest &manifest, const std::vector<LiveSpan> &spans,
                   size_t a, size_t b) {
  for (size_t l = 0; l < manifest.launches.size(); ++l)
    for (auto [input, output] : manifest.launches[l].inPlacePositions)
      if (((input == a && output == b) || (input == b && output == a)) &&
          spans[input].last == l && spans[output].first == l)
        return true;
  return false;
}

/// No two intermediates live at one launch overlap (but an in-place pair at
/// its launch), and each offset keeps its buffer's alignment.
void expectSound(const Manifest &manifest, const WorkspacePlan &plan) {
  std::vector<LiveSpan> spans = computeLiveSpans(manifest);
  const std::vector<BufferDesc> &buffers = manifest.buffers;
  for (size_t a = 0; a < buffers.size(); ++a) {
    if (buffers[a].role != BufferRole::kIntermediate ||
        plan.storedIn[a] != WorkspacePlan::kNotStoredIn)
      continue;
    EXPECT_EQ(plan.offsets[a] % buffers[a].alignment, 0u) << a;
    EXPECT_EQ(plan.offsets[a] % kMinWorkspaceAlignment, 0u) << a;
    EXPECT_LE(plan.offsets[a] + buffers[a].bytes, plan.bytes) << a;
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      if (buffers[b].role != BufferRole::kIntermediate)
        continue;
      bool live =
          spans[a].first <= spans[b].last && spans[b].first <= spans[a].last;
      bool overlap = plan.offsets[a] < plan.offsets[b] + buffers[b].bytes &&
                     plan.offsets[b] < plan.offsets[a] + buffers[a].bytes;
      EXPECT_FALSE(live && overlap && !pairedInPlace(manifest, spans, a, b))
          << a << " and " << b;
    }
  }
}

// A chain arg -> 0 -> 1 -> 2 -> 3 -> result: each intermediate meets only
// its neighbours, so two slots of the largest sizes suffice.
TEST(WorkspacePlan, AChainReusesMemory) {
  Manifest manifest = makeManifest(
      {1000, 2000, 1000, 2000}, {{100, 0}, {0, 1}, {1, 2}, {2, 3}, {3, 101}});
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  // Buffers 1 and 3 at 0, buffers 0 and 2 at 2048 (the next multiple of
  // kMinWorkspaceAlignment).
  EXPECT_EQ(plan.bytes, 3048u);
  EXPECT_EQ(plan.alignment, kMinWorkspaceAlignment);
}

// Buffers live at one launch (a merged launch reads all three) never share.
TEST(WorkspacePlan, BuffersOfOneLaunchAreApart) {
  Manifest manifest = makeManifest(
      {64, 64, 64}, {{100, 0}, {100, 1}, {100, 2}, {0, 1, 2, 101}});
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  EXPECT_EQ(plan.bytes, 2 * kMinWorkspaceAlignment + 64);
}

// A buffer zeroed before a launch is live from that launch on; a buffer no
// launch touches is live throughout.
TEST(WorkspacePlan, ZeroedAndUntouchedBuffers) {
  Manifest manifest = makeManifest({256, 256, 256}, {{100, 0}, {0, 101}});
  manifest.launches[1].zeroedPositions = {1};
  std::vector<LiveSpan> spans = computeLiveSpans(manifest);
  EXPECT_EQ(spans[1].first, 1u);
  EXPECT_EQ(spans[1].last, 1u);
  EXPECT_EQ(spans[2].first, 0u);
  EXPECT_EQ(spans[2].last, 1u);
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  EXPECT_EQ(plan.bytes, 768u); // three 256-byte slots
}

// Many buffers of mixed sizes and spans, placed soundly and in less than
// their sum; the same manifest gives the same plan.
TEST(WorkspacePlan, MixedSpansAreSoundAndDeterministic) {
  std::vector<uint64_t> sizes;
  std::vector<std::vector<int64_t>> touches;
  for (int64_t i = 0; i < 40; ++i) {
    sizes.push_back(uint64_t(100 + (i * 37) % 500));
    // Buffer i is written at launch i and read at launch i + (i % 5) + 1.
    touches.push_back({i});
  }
  for (int64_t i = 0; i < 40; ++i)
    touches[std::min<int64_t>(39, i + (i % 5) + 1)].push_back(i);
  Manifest manifest = makeManifest(sizes, touches, 4);
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  uint64_t sum = 0;
  for (uint64_t size : sizes)
    sum += size;
  EXPECT_LT(plan.bytes, sum / 2);
  EXPECT_EQ(planWorkspace(manifest).offsets, plan.offsets);
}

// An addend whose last reader writes the result at the same elements lives
// in the result: the workspace holds only the other intermediate.
TEST(WorkspacePlan, AnInPlaceAddendLivesInTheResult) {
  Manifest manifest =
      makeManifest({1 << 20, 512}, {{100, 0}, {100, 1}, {0, 1, 101}});
  manifest.launches[2].inPlacePositions = {{0, 3}}; // 101 is position 3
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  EXPECT_EQ(plan.storedIn[0], 3u);
  EXPECT_EQ(plan.storedIn[1], WorkspacePlan::kNotStoredIn);
  EXPECT_EQ(plan.bytes, 512u);
}

// Into an intermediate: the two share one slot, which spans both.
TEST(WorkspacePlan, AnInPlaceInputSharesAnIntermediatesSlot) {
  Manifest manifest = makeManifest({4096, 4096, 4096},
                                   {{100, 0}, {100, 2}, {0, 1, 2}, {1, 101}});
  manifest.launches[2].inPlacePositions = {{0, 1}};
  WorkspacePlan plan = planWorkspace(manifest);
  expectSound(manifest, plan);
  EXPECT_EQ(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.storedIn[0], WorkspacePlan::kNotStoredIn);
  // Buffer 2, live with both, takes the other slot.
  EXPECT_EQ(plan.bytes, 2 * 4096u);
}

// A pair is not taken when its input is read later, its output written
// earlier or zeroed at the launch, their sizes differ, a second input would
// share the output, or the result may be less aligned than the input.
TEST(WorkspacePlan, InPlacePairsThatAreNotSafeAreIgnored) {
  auto planOf = [](std::vector<uint64_t> sizes,
                   std::vector<std::vector<int64_t>> touches,
                   std::vector<std::pair<size_t, size_t>> pairs,
                   uint64_t alignment = 16, size_t zeroed = SIZE_MAX) {
    Manifest manifest = makeManifest(sizes, touches, alignment);
    manifest.launches[1].inPlacePositions = pairs;
    if (zeroed != SIZE_MAX)
      manifest.launches[1].zeroedPositions = {zeroed};
    WorkspacePlan plan = planWorkspace(manifest);
    expectSound(manifest, plan);
    return plan;
  };
  // Read again after the launch.
  WorkspacePlan plan =
      planOf({256, 256}, {{100, 0}, {0, 1}, {0, 1, 101}}, {{0, 1}});
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  // The output written before the launch.
  plan = planOf({256, 256}, {{100, 0, 1}, {0, 1}, {1, 101}}, {{0, 1}});
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  // The output zeroed right before it.
  plan = planOf({256, 256}, {{100, 0}, {0, 1}, {1, 101}}, {{0, 1}}, 16, 1);
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  // Sizes that differ.
  plan = planOf({256, 512}, {{100, 0}, {0, 1}, {1, 101}}, {{0, 1}});
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  // Two inputs into one output: the first pair only.
  plan = planOf({256, 256, 256}, {{100, 0, 1}, {0, 1, 2}, {2, 101}},
                {{0, 2}, {1, 2}});
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_NE(plan.offsets[1], plan.offsets[2]);
  // Pairs of one launch in both directions (a manifest could say so): the
  // first only, never a cycle.
  plan = planOf({256, 256}, {{100}, {0, 1}, {101}}, {{0, 1}, {1, 0}});
  EXPECT_EQ(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.bytes, 256u);
  // A result is only known to be 16-byte aligned.
  plan = planOf({1 << 20}, {{100, 0}, {0, 101}}, {{0, 2}}, 128);
  EXPECT_EQ(plan.storedIn[0], WorkspacePlan::kNotStoredIn);
}

} // namespace
