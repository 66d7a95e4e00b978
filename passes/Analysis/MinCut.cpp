//===- MinCut.cpp - Minimum s-t cut by Dinic's maximum flow ---------------===//

#include "passes/Analysis/MinCut.h"

#include <algorithm>
#include <cassert>
#include <deque>

using namespace mlir::uta;

void MinCutGraph::addEdge(unsigned from, unsigned to, int64_t capacity) {
  assert(from < adjacency.size() && to < adjacency.size() && capacity >= 0);
  capacity = std::min(capacity, kInfinite);
  unsigned forwardIndex = adjacency[from].size();
  unsigned reverseIndex = adjacency[to].size() + (from == to ? 1 : 0);
  adjacency[from].push_back({to, reverseIndex, capacity});
  adjacency[to].push_back({from, forwardIndex, 0});
}

bool MinCutGraph::buildLevels(unsigned source, unsigned sink) {
  level.assign(adjacency.size(), -1);
  level[source] = 0;
  std::deque<unsigned> queue{source};
  while (!queue.empty()) {
    unsigned node = queue.front();
    queue.pop_front();
    for (const Edge &edge : adjacency[node]) {
      if (edge.capacity > 0 && level[edge.to] < 0) {
        level[edge.to] = level[node] + 1;
        queue.push_back(edge.to);
      }
    }
  }
  return level[sink] >= 0;
}

int64_t MinCutGraph::push(unsigned node, unsigned sink, int64_t limit) {
  if (node == sink)
    return limit;
  for (unsigned &i = nextEdge[node]; i < adjacency[node].size(); ++i) {
    Edge &edge = adjacency[node][i];
    if (edge.capacity <= 0 || level[edge.to] != level[node] + 1)
      continue;
    int64_t pushed = push(edge.to, sink, std::min(limit, edge.capacity));
    if (pushed > 0) {
      edge.capacity -= pushed;
      adjacency[edge.to][edge.reverse].capacity += pushed;
      return pushed;
    }
  }
  return 0;
}

std::vector<bool> MinCutGraph::cut(unsigned source, unsigned sink, Side side) {
  assert(source != sink);
  flow = 0;
  // An infinite cut stops the search once the flow shows it: every finite
  // cut is below kInfinite.
  while (flow < kInfinite && buildLevels(source, sink)) {
    nextEdge.assign(adjacency.size(), 0);
    while (int64_t pushed = push(source, sink, kInfinite)) {
      flow += pushed;
      if (flow >= kInfinite)
        break;
    }
  }
  std::vector<bool> sourceSide(adjacency.size());
  if (side == Side::NearSource) {
    buildLevels(source, sink);
    for (unsigned node = 0; node < adjacency.size(); ++node)
      sourceSide[node] = level[node] >= 0;
    return sourceSide;
  }
  // Backwards from the sink: node x reaches it through x -> v where that
  // edge has residual capacity; each edge into v is the pair of one of v's.
  std::vector<bool> reachesSink(adjacency.size(), false);
  std::vector<unsigned> queue = {sink};
  reachesSink[sink] = true;
  for (size_t next = 0; next < queue.size(); ++next) {
    unsigned v = queue[next];
    for (const Edge &edge : adjacency[v]) {
      const Edge &into = adjacency[edge.to][edge.reverse];
      if (into.capacity > 0 && !reachesSink[edge.to]) {
        reachesSink[edge.to] = true;
        queue.push_back(edge.to);
      }
    }
  }
  for (unsigned node = 0; node < adjacency.size(); ++node)
    sourceSide[node] = !reachesSink[node];
  return sourceSide;
}
