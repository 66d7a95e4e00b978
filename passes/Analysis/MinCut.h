//===- MinCut.h - Minimum s-t cut of a small capacity graph -----*- C++ -*-===//
//
// A minimum cut between a source and a sink of a directed graph with integer
// capacities, by Dinic's maximum flow. The training partition
// (uta-partition-training) asks it which forward values to save for the
// backward: the cheapest set of values that separates what the forward
// must compute from what the backward reads. Graphs there have a few
// hundred nodes, so the plain algorithm is plenty.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_PASSES_ANALYSIS_MINCUT_H
#define UTA_PASSES_ANALYSIS_MINCUT_H

#include <cstdint>
#include <limits>
#include <vector>

namespace mlir::uta {

class MinCutGraph {
public:
  /// A capacity no finite cut reaches: edges that must never be cut.
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

  explicit MinCutGraph(unsigned numNodes) : adjacency(numNodes) {}

  unsigned getNumNodes() const { return adjacency.size(); }

  /// Adds an edge `from` -> `to` of `capacity` (>= 0, at most kInfinite).
  void addEdge(unsigned from, unsigned to, int64_t capacity);

  /// Which of the minimum cuts `cut` returns where several tie.
  enum class Side {
    /// The one closest to the source: the nodes still reachable from the
    /// source in the residual graph.
    NearSource,
    /// The one closest to the sink: the nodes that can no longer reach the
    /// sink in the residual graph.
    NearSink,
  };

  /// Computes a maximum flow from `source` to `sink` and returns, per node,
  /// whether it lies on the source's side of the minimum cut `side` names.
  /// The edges from that side to the other are the cut; their capacities
  /// sum to the flow (`getFlow`), which is kInfinite or more when every cut
  /// is infinite.
  std::vector<bool> cut(unsigned source, unsigned sink,
                        Side side = Side::NearSource);

  /// The value of the last maximum flow computed by `cut`.
  int64_t getFlow() const { return flow; }

private:
  struct Edge {
    unsigned to;
    /// The index of the reverse edge in adjacency[to].
    unsigned reverse;
    int64_t capacity;
  };

  /// Levels the residual graph from `source`; whether `sink` was reached.
  bool buildLevels(unsigned source, unsigned sink);
  /// Pushes at most `limit` along level-increasing residual paths.
  int64_t push(unsigned node, unsigned sink, int64_t limit);

  std::vector<std::vector<Edge>> adjacency;
  std::vector<int> level;
  std::vector<unsigned> nextEdge;
  int64_t flow = 0;
};

} // namespace mlir::uta

#endif // UTA_PASSES_ANALYSIS_MINCUT_H
