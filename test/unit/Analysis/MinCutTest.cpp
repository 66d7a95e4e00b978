//===- MinCutTest.cpp - The minimum cut that picks saved values -----------===//
//
// MinCutGraph on graphs whose cuts are known by hand: the cheapest edge of a
// chain, parallel paths, a tie (the cut nearest the source wins), a graph
// whose every cut is infinite, and self loops.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/MinCut.h"

#include <gtest/gtest.h>

using namespace mlir::uta;

namespace {

constexpr int64_t kInf = MinCutGraph::kInfinite;

TEST(MinCut, ChainIsCutAtItsCheapestEdge) {
  // 0 -> 1 -> 2 -> 3, capacities 5, 2, 7.
  MinCutGraph graph(4);
  graph.addEdge(0, 1, 5);
  graph.addEdge(1, 2, 2);
  graph.addEdge(2, 3, 7);
  std::vector<bool> side = graph.cut(0, 3);
  EXPECT_EQ(graph.getFlow(), 2);
  EXPECT_EQ(side, (std::vector<bool>{true, true, false, false}));
}

TEST(MinCut, ParallelPathsAddUp) {
  // Two paths 0 -> 1 -> 3 (3, 4) and 0 -> 2 -> 3 (6, 1), and 1 -> 2 (10).
  MinCutGraph graph(4);
  graph.addEdge(0, 1, 3);
  graph.addEdge(1, 3, 4);
  graph.addEdge(0, 2, 6);
  graph.addEdge(2, 3, 1);
  graph.addEdge(1, 2, 10);
  std::vector<bool> side = graph.cut(0, 3);
  // Cut {0->1, 2->3}: 3 + 1.
  EXPECT_EQ(graph.getFlow(), 4);
  EXPECT_EQ(side, (std::vector<bool>{true, false, true, false}));
}

TEST(MinCut, TiesAreCutNearestTheSource) {
  // 0 -> 1 -> 2 -> 3 with equal capacities: the first edge is cut.
  MinCutGraph graph(4);
  graph.addEdge(0, 1, 4);
  graph.addEdge(1, 2, 4);
  graph.addEdge(2, 3, 4);
  std::vector<bool> side = graph.cut(0, 3);
  EXPECT_EQ(graph.getFlow(), 4);
  EXPECT_EQ(side, (std::vector<bool>{true, false, false, false}));
}

TEST(MinCut, TiesCanBeCutNearestTheSink) {
  // The same chain: with Side::NearSink the last edge is cut, and the
  // nodes before it lie on the source's side.
  MinCutGraph graph(4);
  graph.addEdge(0, 1, 4);
  graph.addEdge(1, 2, 4);
  graph.addEdge(2, 3, 4);
  std::vector<bool> side = graph.cut(0, 3, MinCutGraph::Side::NearSink);
  EXPECT_EQ(graph.getFlow(), 4);
  EXPECT_EQ(side, (std::vector<bool>{true, true, true, false}));
}

TEST(MinCut, BothSidesAgreeOnAUniqueCut) {
  // 0 -2-> 1 -5-> 3 and 0 -5-> 2 -2-> 3: the only minimum cut is 0 -> 1
  // with 2 -> 3 (4), whichever side is asked for.
  for (MinCutGraph::Side which :
       {MinCutGraph::Side::NearSource, MinCutGraph::Side::NearSink}) {
    MinCutGraph graph(4);
    graph.addEdge(0, 1, 2);
    graph.addEdge(1, 3, 5);
    graph.addEdge(0, 2, 5);
    graph.addEdge(2, 3, 2);
    std::vector<bool> side = graph.cut(0, 3, which);
    EXPECT_EQ(graph.getFlow(), 4);
    EXPECT_EQ(side, (std::vector<bool>{true, false, true, false}));
  }
}

TEST(MinCut, InfiniteEdgesAreNeverCut) {
  // 0 -inf-> 1 -3-> 2 -inf-> 3 and 0 -inf-> 2: only 2 -> 3 separates, and
  // it is infinite, so the flow shows that no finite cut exists.
  MinCutGraph graph(4);
  graph.addEdge(0, 1, kInf);
  graph.addEdge(1, 2, 3);
  graph.addEdge(2, 3, kInf);
  graph.addEdge(0, 2, kInf);
  graph.cut(0, 3);
  EXPECT_GE(graph.getFlow(), kInf);
}

TEST(MinCut, UnreachableSinkHasNoFlow) {
  MinCutGraph graph(3);
  graph.addEdge(0, 1, 9);
  graph.addEdge(1, 1, 9);
  std::vector<bool> side = graph.cut(0, 2);
  EXPECT_EQ(graph.getFlow(), 0);
  EXPECT_EQ(side, (std::vector<bool>{true, true, false}));
}

TEST(MinCut, ZeroCapacityEdgesAreFree) {
  // What the partition gives values the caller holds: cutting there costs
  // nothing, so the expensive edge after it stays.
  MinCutGraph graph(4);
  graph.addEdge(0, 1, kInf);
  graph.addEdge(1, 2, 0);
  graph.addEdge(2, 3, 100);
  std::vector<bool> side = graph.cut(0, 3);
  EXPECT_EQ(graph.getFlow(), 0);
  EXPECT_EQ(side, (std::vector<bool>{true, true, false, false}));
}

} // namespace
