//===- AlgebraTest.cpp - Tests of the Clifford algebra library ------------===//

#include "dialects/Clifford/Algebra/Algebra.h"

#include <gtest/gtest.h>

using uta::ga::Algebra;

TEST(Algebra, PathCounts) {
  EXPECT_EQ(Algebra::get(2, 0, 0)->numPaths(), 10u);
  EXPECT_EQ(Algebra::get(3, 0, 0)->numPaths(), 20u);
}
