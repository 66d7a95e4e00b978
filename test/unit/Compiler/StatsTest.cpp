//===- StatsTest.cpp - The --stats table ----------------------------------===//
//
// printKernelStats keeps its columns aligned whatever the kernels' names:
// a merged launch's name (its parts' names joined) may be longer than the
// usual column.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Stats.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;

namespace {

TEST(StatsTest, ColumnsStayAlignedPastLongNames) {
  std::vector<uta::KernelStats> stats = {
      {"short_k0_add", 1024, 8192, 4096},
      {"a_graph_with_a_long_name_k1_exp_k2_tanh_k3_neg_k4_abs", 4096, 16384,
       16384},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  uta::printKernelStats(os, "with fusion (default)", stats);
  size_t first = text.find('\n') + 1;
  size_t second = text.find('\n', first) + 1;
  size_t third = text.find('\n', second) + 1;
  std::string shortLine = text.substr(first, second - first);
  std::string longLine = text.substr(second, third - second);
  EXPECT_EQ(shortLine.find(" threads"), longLine.find(" threads")) << text;
  EXPECT_EQ(shortLine.find(" B read"), longLine.find(" B read")) << text;
  EXPECT_EQ(shortLine.size(), longLine.size()) << text;
  // The long name is whole, followed by a space.
  EXPECT_NE(longLine.find(stats[1].name + " "), std::string::npos) << text;
}

} // namespace
