//===- AlgebraTest.cpp - Tests of the Clifford algebra library ------------===//
//
// Checks uta::ga::Algebra against the clifford dialect's conventions
// (docs/dialects/CliffordDialect.md). Every literal below (blade names,
// Cayley tables, signs, path lists) was worked out by hand from the
// conventions: the first r basis vectors square to 0, the next p to +1, the
// last q to -1; blades ordered by grade, then lexicographically; a blade is
// its ascending product. The library is never used to compute an expected
// value. The last tests check algebraic identities on seeded random
// multivectors, through a small dense product written here on top of
// Algebra::product.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/Algebra/Algebra.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using uta::ga::Algebra;
using uta::ga::BladeProduct;
using uta::ga::Path;
using uta::ga::PathGroup;

namespace {

Algebra getAlgebra(unsigned p, unsigned q, unsigned r) {
  std::optional<Algebra> alg = Algebra::get(p, q, r);
  EXPECT_TRUE(alg.has_value()) << "Cl(" << p << "," << q << "," << r << ")";
  return *alg;
}

/// Position of `name` in the hand-written blade list `names` (-1 if absent).
int indexOfName(const std::vector<std::string> &names, std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<int>(i);
  return -1;
}

/// Checks the library's blade names and grades against hand-written lists.
void expectBlades(const Algebra &alg, const std::vector<std::string> &names,
                  const std::vector<unsigned> &grades) {
  ASSERT_EQ(alg.numBlades(), names.size());
  ASSERT_EQ(alg.numBlades(), grades.size());
  for (unsigned b = 0; b < alg.numBlades(); ++b) {
    EXPECT_EQ(alg.bladeName(b), names[b]) << "blade " << b;
    EXPECT_EQ(alg.grade(b), grades[b]) << "blade " << b;
  }
}

/// Checks blade(a) * blade(b) against a hand-written entry: "0", or a blade
/// name from `names` with an optional leading '-'.
void expectProduct(const Algebra &alg, const std::vector<std::string> &names,
                   unsigned a, unsigned b, std::string_view expected) {
  BladeProduct got = alg.product(a, b);
  std::string where = names[a] + " * " + names[b];
  if (expected == "0") {
    EXPECT_EQ(got.sign, 0) << where;
    return;
  }
  int sign = 1;
  if (expected.front() == '-') {
    sign = -1;
    expected.remove_prefix(1);
  }
  int blade = indexOfName(names, expected);
  ASSERT_GE(blade, 0) << "bad literal '" << expected << "' at " << where;
  EXPECT_EQ(got.sign, sign)
      << where << " expected " << (sign < 0 ? "-" : "") << expected;
  EXPECT_EQ(got.blade, static_cast<unsigned>(blade))
      << where << " expected " << expected;
}

/// Checks the whole Cayley table; `table` is row-major, row = left factor.
void expectCayleyTable(const Algebra &alg,
                       const std::vector<std::string> &names,
                       const std::vector<std::string> &table) {
  unsigned n = alg.numBlades();
  ASSERT_EQ(table.size(), size_t(n) * n);
  for (unsigned a = 0; a < n; ++a)
    for (unsigned b = 0; b < n; ++b)
      expectProduct(alg, names, a, b, table[a * n + b]);
}

void expectPaths(const Algebra &alg, const std::vector<Path> &expected) {
  ASSERT_EQ(alg.numPaths(), expected.size());
  for (unsigned i = 0; i < expected.size(); ++i) {
    const Path &e = expected[i];
    EXPECT_EQ(alg.paths()[i], e) << "path " << i << " expected (" << e.gx << ","
                                 << e.gz << "," << e.gy << ")";
    EXPECT_EQ(alg.pathIndex(e.gx, e.gz, e.gy), std::optional<unsigned>(i));
  }
}

// Hand-written blade lists.
const std::vector<std::string> kCl2Names = {"1", "e1", "e2", "e12"};
const std::vector<std::string> kCl3Names = {"1",   "e1",  "e2",  "e3",
                                            "e12", "e13", "e23", "e123"};
const std::vector<std::string> kCl301Names = {
    "1",   "e0",  "e1",  "e2",   "e3",   "e01",  "e02",  "e03",
    "e12", "e13", "e23", "e012", "e013", "e023", "e123", "e0123"};
const std::vector<std::string> kCl13Names = {
    "1",   "e1",  "e2",  "e3",   "e4",   "e12",  "e13",  "e14",
    "e23", "e24", "e34", "e123", "e124", "e134", "e234", "e1234"};

//===----------------------------------------------------------------------===//
// Construction limits
//===----------------------------------------------------------------------===//

// n = p + q + r must lie in 1..6.
TEST(Algebra, DimensionLimits) {
  EXPECT_FALSE(Algebra::get(0, 0, 0).has_value());
  EXPECT_FALSE(Algebra::get(7, 0, 0).has_value());
  EXPECT_FALSE(Algebra::get(3, 3, 1).has_value());
  EXPECT_FALSE(Algebra::get(0, 0, 7).has_value());

  Algebra cl6 = getAlgebra(6, 0, 0);
  EXPECT_EQ(cl6.dimension(), 6u);
  EXPECT_EQ(cl6.numBlades(), 64u);
  EXPECT_EQ(cl6.numGrades(), 7u);
  EXPECT_FALSE(cl6.isDegenerate());
  // Binomial(6, g) blades per grade.
  const unsigned perGrade[] = {1, 6, 15, 20, 15, 6, 1};
  for (unsigned g = 0; g <= 6; ++g) {
    EXPECT_EQ(cl6.bladesOfGrade(g).size(), perGrade[g]) << "grade " << g;
    for (unsigned b : cl6.bladesOfGrade(g))
      EXPECT_EQ(cl6.grade(b), g);
  }
  EXPECT_EQ(cl6.bladeName(63), "e123456");

  Algebra cl222 = getAlgebra(2, 2, 2);
  EXPECT_TRUE(cl222.isDegenerate());
  EXPECT_EQ(cl222.numBlades(), 64u);
  EXPECT_EQ(cl222.bladeName(63), "e012345");
  EXPECT_TRUE(Algebra::get(0, 0, 1).has_value());
  EXPECT_TRUE(Algebra::get(0, 6, 0).has_value());
}

//===----------------------------------------------------------------------===//
// Blade names, grades, masks
//===----------------------------------------------------------------------===//

// Cl(3,0) order is the docs' example; Cl(3,0,1) names start at e0 because
// r > 0 and the null vector e0 comes first; grades are the name lengths.
TEST(Algebra, BladeNamesAndGrades) {
  expectBlades(getAlgebra(2, 0, 0), kCl2Names, {0, 1, 1, 2});
  expectBlades(getAlgebra(3, 0, 0), kCl3Names, {0, 1, 1, 1, 2, 2, 2, 3});
  expectBlades(getAlgebra(3, 0, 1), kCl301Names,
               {0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4});
  expectBlades(getAlgebra(1, 3, 0), kCl13Names,
               {0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4});
  expectBlades(getAlgebra(0, 0, 1), {"1", "e0"}, {0, 1});
  expectBlades(getAlgebra(1, 0, 0), {"1", "e1"}, {0, 1});
}

// bladeMask: bit i = basis vector i (0-based, signature order). Cl(3,0):
// e13 = basis vectors 0 and 2 = 0b101; e23 = 0b110. bladeIndex inverts it.
TEST(Algebra, BladeMasks) {
  Algebra cl3 = getAlgebra(3, 0, 0);
  const uint32_t masks[] = {0b000, 0b001, 0b010, 0b100,
                            0b011, 0b101, 0b110, 0b111};
  for (unsigned b = 0; b < 8; ++b) {
    EXPECT_EQ(cl3.bladeMask(b), masks[b]) << kCl3Names[b];
    EXPECT_EQ(cl3.bladeIndex(masks[b]), b) << kCl3Names[b];
  }
  Algebra cl6 = getAlgebra(4, 1, 1);
  for (unsigned b = 0; b < cl6.numBlades(); ++b)
    EXPECT_EQ(cl6.bladeIndex(cl6.bladeMask(b)), b);
}

//===----------------------------------------------------------------------===//
// Cayley tables
//===----------------------------------------------------------------------===//

// Cl(2,0), row = left factor. By hand: e1 e12 = e1 e1 e2 = e2;
// e2 e12 = e2 e1 e2 = -e1 e2 e2 = -e1; e12 e1 = e1 e2 e1 = -e2;
// e12 e12 = e1 e2 e1 e2 = -e1 e1 e2 e2 = -1.
TEST(Algebra, CayleyTableCl2) {
  const std::vector<std::string> table = {
      // 1     e1     e2      e12
      "1",   "e1",   "e2",  "e12", // 1
      "e1",  "1",    "e12", "e2",  // e1
      "e2",  "-e12", "1",   "-e1", // e2
      "e12", "-e2",  "e1",  "-1",  // e12
  };
  expectCayleyTable(getAlgebra(2, 0, 0), kCl2Names, table);
}

// Cl(3,0), row = left factor. Each entry: concatenate the ascending index
// lists, bubble into ascending order counting swaps, cancel e_i e_i = +1.
// E.g. e2 e13 = e2 e1 e3 = -e1 e2 e3 = -e123; e13 e23 = e1 e3 e2 e3 =
// -e1 e2 e3 e3 = -e12; e23 e12 = e2 e3 e1 e2 = e1 e2 e3 e2 = -e1 e3 = -e13.
// e123 is central in Cl(3,0) (n odd), so its row equals its column.
TEST(Algebra, CayleyTableCl3) {
  const std::vector<std::string> table = {
      // 1      e1      e2      e3      e12     e13     e23     e123
      "1",    "e1",   "e2",    "e3",   "e12",  "e13",   "e23",  "e123", // 1
      "e1",   "1",    "e12",   "e13",  "e2",   "e3",    "e123", "e23",  // e1
      "e2",   "-e12", "1",     "e23",  "-e1",  "-e123", "e3",   "-e13", // e2
      "e3",   "-e13", "-e23",  "1",    "e123", "-e1",   "-e2",  "e12",  // e3
      "e12",  "-e2",  "e1",    "e123", "-1",   "-e23",  "e13",  "-e3",  // e12
      "e13",  "-e3",  "-e123", "e1",   "e23",  "-1",    "-e12", "e2",   // e13
      "e23",  "e123", "-e3",   "e2",   "-e13", "e12",   "-1",   "-e1",  // e23
      "e123", "e23",  "-e13",  "e12",  "-e3",  "e2",    "-e1",  "-1",   // e123
  };
  Algebra cl3 = getAlgebra(3, 0, 0);
  expectCayleyTable(cl3, kCl3Names, table);
  // The cases the issue names, spelled out once more.
  expectProduct(cl3, kCl3Names, 1, 2, "e12");   // e1 e2 = e12
  expectProduct(cl3, kCl3Names, 4, 4, "-1");    // e12 e12 = -1
  expectProduct(cl3, kCl3Names, 1, 3, "e13");   // e1 e3 = e13 (not e31)
  expectProduct(cl3, kCl3Names, 3, 1, "-e13");  // e3 e1 = -e13
  expectProduct(cl3, kCl3Names, 2, 5, "-e123"); // e2 e13 = -e123
}

//===----------------------------------------------------------------------===//
// Signatures: Cl(1,3) and the degenerate Cl(3,0,1)
//===----------------------------------------------------------------------===//

// Cl(1,3): e1^2 = +1, e2^2 = e3^2 = e4^2 = -1. A grade-k blade squares to
// (-1)^(k(k-1)/2) times the product of its vectors' squares:
// e12^2 = -(+1)(-1) = +1, e14^2 = +1, e23^2 = -(-1)(-1) = -1, e34^2 = -1,
// e123^2 = -(+1)(-1)(-1) = -1, e234^2 = -(-1)^3 = +1,
// e1234^2 = (+1)(+1)(-1)(-1)(-1) = -1.
TEST(Algebra, SignsCl13) {
  Algebra st = getAlgebra(1, 3, 0);
  EXPECT_EQ(st.metric(0), 1);
  EXPECT_EQ(st.metric(1), -1);
  EXPECT_EQ(st.metric(2), -1);
  EXPECT_EQ(st.metric(3), -1);
  const std::vector<std::string> &n = kCl13Names;
  auto sq = [&](const char *name, const char *expected) {
    unsigned b = indexOfName(n, name);
    expectProduct(st, n, b, b, expected);
  };
  sq("e1", "1");
  sq("e2", "-1");
  sq("e3", "-1");
  sq("e4", "-1");
  sq("e12", "1");
  sq("e13", "1");
  sq("e14", "1");
  sq("e23", "-1");
  sq("e24", "-1");
  sq("e34", "-1");
  sq("e123", "-1");
  sq("e234", "1");
  sq("e1234", "-1");
  // e2 e1 = -e12; e12 e2 = e1 e2 e2 = -e1; e2 e12 = -e1 e2 e2 = +e1.
  expectProduct(st, n, 2, 1, "-e12");
  expectProduct(st, n, 5, 2, "-e1");
  expectProduct(st, n, 2, 5, "e1");
  // e1 e234 = e1234; e4 e123 = -e1234 (three swaps).
  expectProduct(st, n, 1, 14, "e1234");
  expectProduct(st, n, 4, 11, "-e1234");
}

// Cl(3,0,1) (projective GA): e0 is null, e1..e3 square to +1.
// e0 e1 = e01, e1 e0 = -e01, e01 e01 = -e0 e0 e1 e1 = 0, e01 e1 = e0,
// e1 e01 = -e0, e12 e01 = e1 e2 e0 e1 = e0 e1 e2 e1 = -e02,
// e0 e123 = e0123, e123 e0 = (-1)^3 e0123 = -e0123, e0123^2 = 0 (has e0).
TEST(Algebra, DegenerateCl301) {
  Algebra pga = getAlgebra(3, 0, 1);
  EXPECT_TRUE(pga.isDegenerate());
  EXPECT_EQ(pga.metric(0), 0);
  EXPECT_EQ(pga.metric(1), 1);
  EXPECT_EQ(pga.metric(2), 1);
  EXPECT_EQ(pga.metric(3), 1);
  const std::vector<std::string> &n = kCl301Names;
  auto prod = [&](const char *a, const char *b, const char *expected) {
    expectProduct(pga, n, indexOfName(n, a), indexOfName(n, b), expected);
  };
  prod("e0", "e0", "0");
  prod("e0", "e1", "e01");
  prod("e1", "e0", "-e01");
  prod("e01", "e01", "0");
  prod("e01", "e1", "e0");
  prod("e1", "e01", "-e0");
  prod("e1", "e1", "1");
  prod("e12", "e12", "-1");
  prod("e12", "e01", "-e02");
  prod("e0", "e123", "e0123");
  prod("e123", "e0", "-e0123");
  prod("e0123", "e0123", "0");
  prod("e0", "e0123", "0");
  prod("e123", "e123", "-1");
  prod("1", "e0", "e0");

  // Cl(4,1,1): e0 null, e1..e4 positive, e5 negative.
  Algebra cl411 = getAlgebra(4, 1, 1);
  const int metric411[] = {0, 1, 1, 1, 1, -1};
  for (unsigned i = 0; i < 6; ++i)
    EXPECT_EQ(cl411.metric(i), metric411[i]) << "e" << i;
}

//===----------------------------------------------------------------------===//
// Paths
//===----------------------------------------------------------------------===//

// Cl(2,0): every path in (gx, gz, gy) order, written out by hand.
TEST(Algebra, PathsCl2) {
  Algebra cl2 = getAlgebra(2, 0, 0);
  EXPECT_EQ(cl2.numPaths(), 10u);
  expectPaths(cl2, {{0, 0, 0},
                    {0, 1, 1},
                    {0, 2, 2},
                    {1, 0, 1},
                    {1, 1, 0},
                    {1, 1, 2},
                    {1, 2, 1},
                    {2, 0, 2},
                    {2, 1, 1},
                    {2, 2, 0}});
  // e12 e12 = -1 only: grade 2 x 2 never gives grade 2; no grade 3 exists.
  EXPECT_EQ(cl2.pathIndex(2, 2, 2), std::nullopt);
  EXPECT_EQ(cl2.pathIndex(0, 1, 0), std::nullopt);
  EXPECT_EQ(cl2.pathIndex(1, 3, 2), std::nullopt);
}

// Cl(3,0): a grade-a blade times a grade-b blade sharing s vectors has grade
// a + b - 2s, s from max(0, a+b-3) to min(a, b), so gz runs over |a-b|,
// |a-b|+2, ..., min(a+b, 6-a-b). Listing (gx, gz, gy) lexicographically:
//   gx=0: (0,0,0) (0,1,1) (0,2,2) (0,3,3)                    -> 0..3
//   gx=1: gy=0:{1} gy=1:{0,2} gy=2:{1,3} gy=3:{2}
//         (1,0,1) (1,1,0) (1,1,2) (1,2,1) (1,2,3) (1,3,2)    -> 4..9
//   gx=2: gy=0:{2} gy=1:{1,3} gy=2:{0,2} gy=3:{1}
//         (2,0,2) (2,1,1) (2,1,3) (2,2,0) (2,2,2) (2,3,1)    -> 10..15
//   gx=3: gy=g gives 3-g: (3,0,3) (3,1,2) (3,2,1) (3,3,0)    -> 16..19
TEST(Algebra, PathsCl3) {
  Algebra cl3 = getAlgebra(3, 0, 0);
  EXPECT_EQ(cl3.numPaths(), 20u);
  struct Indexed {
    unsigned gx, gz, gy, index;
  };
  const Indexed table[] = {
      {0, 0, 0, 0},  {0, 1, 1, 1},  {0, 2, 2, 2},  {0, 3, 3, 3},  {1, 0, 1, 4},
      {1, 1, 0, 5},  {1, 1, 2, 6},  {1, 2, 1, 7},  {1, 2, 3, 8},  {1, 3, 2, 9},
      {2, 0, 2, 10}, {2, 1, 1, 11}, {2, 1, 3, 12}, {2, 2, 0, 13}, {2, 2, 2, 14},
      {2, 3, 1, 15}, {3, 0, 3, 16}, {3, 1, 2, 17}, {3, 2, 1, 18}, {3, 3, 0, 19},
  };
  for (const Indexed &t : table) {
    EXPECT_EQ(cl3.pathIndex(t.gx, t.gz, t.gy), std::optional<unsigned>(t.index))
        << "(" << t.gx << "," << t.gz << "," << t.gy << ")";
    Path expected{t.gx, t.gz, t.gy};
    EXPECT_EQ(cl3.paths()[t.index], expected) << "path " << t.index;
  }
  // Non-paths: parity mismatch, grade too high, grade out of range.
  EXPECT_EQ(cl3.pathIndex(1, 1, 1), std::nullopt);
  EXPECT_EQ(cl3.pathIndex(3, 3, 3), std::nullopt);
  EXPECT_EQ(cl3.pathIndex(2, 3, 2), std::nullopt); // would need 4 - 2s = 3
  EXPECT_EQ(cl3.pathIndex(1, 3, 3), std::nullopt); // e1 e123 is grade 2 only
  EXPECT_EQ(cl3.pathIndex(0, 4, 4), std::nullopt);
}

// Degenerate and one-dimensional algebras, by listing every blade product.
TEST(Algebra, PathsSmallAndDegenerate) {
  // Cl(1,0,0): 1 1 = 1, 1 e1 = e1, e1 1 = e1, e1 e1 = 1.
  expectPaths(getAlgebra(1, 0, 0),
              {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}});

  // Cl(0,0,1): as Cl(1,0,0) but e0 e0 = 0, so (1,0,1) disappears.
  Algebra null1 = getAlgebra(0, 0, 1);
  expectPaths(null1, {{0, 0, 0}, {0, 1, 1}, {1, 1, 0}});
  EXPECT_EQ(null1.pathIndex(1, 0, 1), std::nullopt);

  // Cl(1,0,1) (blades 1, e0, e1, e01): e1 e1 = 1 gives (1,0,1); e0 e1 = e01
  // gives (1,2,1); e1 e01 = -e0 gives (1,1,2); e01 e1 = e0 gives (2,1,1);
  // but e01 e01 = 0, so unlike Cl(2,0) there is no (2,0,2): 9 paths.
  Algebra cl101 = getAlgebra(1, 0, 1);
  expectPaths(cl101, {{0, 0, 0},
                      {0, 1, 1},
                      {0, 2, 2},
                      {1, 0, 1},
                      {1, 1, 0},
                      {1, 1, 2},
                      {1, 2, 1},
                      {2, 1, 1},
                      {2, 2, 0}});
  EXPECT_EQ(cl101.pathIndex(2, 0, 2), std::nullopt);

  // Cl(0,0,2): every shared vector kills the product, so only disjoint
  // products survive: vector x vector -> e01 (1,2,1); nothing with e01 but 1.
  expectPaths(
      getAlgebra(0, 0, 2),
      {{0, 0, 0}, {0, 1, 1}, {0, 2, 2}, {1, 1, 0}, {1, 2, 1}, {2, 2, 0}});
}

// Cl(1,0): 1*1 -> 1 on (0,0,0), e1*e1 -> 1 on (1,0,1), 1*e1 and e1*1 -> e1
// on (0,1,1) and (1,1,0); paths in order (0,0,0), (0,1,1), (1,0,1),
// (1,1,0). Cl(0,0,1) loses e0*e0 = 0, so blade 0 has one group.
TEST(Algebra, PathGroupsByHand) {
  Algebra cl1 = *Algebra::get(1, 0, 0);
  std::vector<PathGroup> expected = {{0, 0}, {0, 2}, {1, 1}, {1, 3}};
  EXPECT_EQ(
      std::vector<PathGroup>(cl1.pathGroups().begin(), cl1.pathGroups().end()),
      expected);
  EXPECT_EQ(cl1.pathGroupIndex(1, 1), std::optional<unsigned>(2));
  EXPECT_EQ(cl1.pathGroupIndex(0, 1), std::nullopt);

  Algebra null = *Algebra::get(0, 0, 1);
  expected = {{0, 0}, {1, 1}, {1, 2}};
  EXPECT_EQ(std::vector<PathGroup>(null.pathGroups().begin(),
                                   null.pathGroups().end()),
            expected);
}

// Every non-zero term lands in a group of its result blade and path, and
// every group has a term, in each algebra of up to 4 dimensions.
TEST(Algebra, PathGroupsHoldEveryTerm) {
  for (auto [p, q, r] : {std::tuple{3u, 0u, 0u},
                         {1u, 3u, 0u},
                         {3u, 0u, 1u},
                         {2u, 0u, 0u},
                         {4u, 0u, 0u}}) {
    Algebra alg = *Algebra::get(p, q, r);
    std::vector<unsigned> termsOfGroup(alg.numPathGroups(), 0);
    for (unsigned a = 0; a < alg.numBlades(); ++a)
      for (unsigned b = 0; b < alg.numBlades(); ++b) {
        BladeProduct prod = alg.product(a, b);
        if (prod.sign == 0)
          continue;
        std::optional<unsigned> path =
            alg.pathIndex(alg.grade(a), alg.grade(prod.blade), alg.grade(b));
        ASSERT_TRUE(path);
        std::optional<unsigned> group = alg.pathGroupIndex(prod.blade, *path);
        ASSERT_TRUE(group) << "Cl(" << p << "," << q << "," << r << ") " << a
                           << "*" << b;
        ++termsOfGroup[*group];
      }
    for (unsigned g = 0; g < alg.numPathGroups(); ++g)
      EXPECT_GT(termsOfGroup[g], 0u) << "group " << g;
  }
  // Cl(3,0): 44 groups, the GEMMs of fc_product's gradients.
  EXPECT_EQ(Algebra::get(3, 0, 0)->numPathGroups(), 44u);
}

//===----------------------------------------------------------------------===//
// Involutions, pseudoscalar, dual
//===----------------------------------------------------------------------===//

// Per grade k = 0..6: reverse (-1)^(k(k-1)/2): + + - - + + -;
// grade involution (-1)^k: + - + - + - +;
// conjugate (-1)^(k(k+1)/2): + - - + + - -.
TEST(Algebra, InvolutionSigns) {
  const int reverse[] = {1, 1, -1, -1, 1, 1, -1};
  const int involution[] = {1, -1, 1, -1, 1, -1, 1};
  const int conjugate[] = {1, -1, -1, 1, 1, -1, -1};
  for (Algebra alg :
       {getAlgebra(6, 0, 0), getAlgebra(2, 1, 3), getAlgebra(3, 0, 0)}) {
    for (unsigned b = 0; b < alg.numBlades(); ++b) {
      unsigned k = alg.grade(b);
      EXPECT_EQ(alg.reverseSign(b), reverse[k]) << alg.bladeName(b);
      EXPECT_EQ(alg.gradeInvolutionSign(b), involution[k]) << alg.bladeName(b);
      EXPECT_EQ(alg.conjugateSign(b), conjugate[k]) << alg.bladeName(b);
    }
  }
}

// I reverse(I) = reverseSign(I) I^2.
// Cl(2,0): e12 (-e12) = +1. Cl(3,0): e123 (-e123) = -(-1) = +1.
// Cl(1,3): reverse(e1234) = e1234 and e1234^2 = -1, so -1.
// Cl(0,3): e123^2 = -(-1)^3 = +1, reverse = -e123, so -1.
// Degenerate: I contains e0, so I^2 = 0.
TEST(Algebra, PseudoscalarNormSign) {
  EXPECT_EQ(getAlgebra(2, 0, 0).pseudoscalarNormSign(), 1);
  EXPECT_EQ(getAlgebra(3, 0, 0).pseudoscalarNormSign(), 1);
  EXPECT_EQ(getAlgebra(1, 3, 0).pseudoscalarNormSign(), -1);
  EXPECT_EQ(getAlgebra(0, 3, 0).pseudoscalarNormSign(), -1);
  EXPECT_EQ(getAlgebra(3, 0, 1).pseudoscalarNormSign(), 0);
}

// dual(x) = x I^-1, I^-1 = reverse(I) / (I reverse(I)).
// Cl(3,0): I^-1 = -e123 / 1 = -e123. 1 I^-1 = -e123; e1 (-e123) = -e23;
// e2 (-e123) = +e13; e12 (-e123) = -(-e3) = e3; e123 (-e123) = +1.
// Cl(2,0): I^-1 = -e12; e1 (-e12) = -e2; e2 (-e12) = +e1.
// Cl(1,3): I^-1 = e1234 / -1 = -e1234; e1 (-e1234) = -e234.
TEST(Algebra, Dual) {
  auto expectDual = [](const Algebra &alg, const std::vector<std::string> &n,
                       const char *blade, int sign, const char *result) {
    std::optional<BladeProduct> d = alg.dualOf(indexOfName(n, blade));
    ASSERT_TRUE(d.has_value()) << blade;
    EXPECT_EQ(d->sign, sign) << "dual of " << blade;
    EXPECT_EQ(d->blade, static_cast<unsigned>(indexOfName(n, result)))
        << "dual of " << blade;
  };
  Algebra cl3 = getAlgebra(3, 0, 0);
  expectDual(cl3, kCl3Names, "1", -1, "e123");
  expectDual(cl3, kCl3Names, "e1", -1, "e23");
  expectDual(cl3, kCl3Names, "e2", 1, "e13");
  expectDual(cl3, kCl3Names, "e12", 1, "e3");
  expectDual(cl3, kCl3Names, "e123", 1, "1");
  Algebra cl2 = getAlgebra(2, 0, 0);
  expectDual(cl2, kCl2Names, "e1", -1, "e2");
  expectDual(cl2, kCl2Names, "e2", 1, "e1");
  expectDual(getAlgebra(1, 3, 0), kCl13Names, "e1", -1, "e234");

  Algebra pga = getAlgebra(3, 0, 1);
  for (unsigned b = 0; b < pga.numBlades(); ++b)
    EXPECT_EQ(pga.dualOf(b), std::nullopt) << pga.bladeName(b);
}

//===----------------------------------------------------------------------===//
// Identities on random multivectors
//===----------------------------------------------------------------------===//

/// Dense multivector: one coefficient per blade, in blade order.
using Multivector = std::vector<double>;

/// The geometric product from the Cayley table; with `outerOnly`, keeps only
/// the terms whose grade is the sum of the factors' grades (the wedge).
Multivector multiply(const Algebra &alg, const Multivector &x,
                     const Multivector &y, bool outerOnly = false) {
  Multivector z(alg.numBlades(), 0.0);
  for (unsigned a = 0; a < alg.numBlades(); ++a) {
    for (unsigned b = 0; b < alg.numBlades(); ++b) {
      BladeProduct prod = alg.product(a, b);
      if (outerOnly && alg.grade(prod.blade) != alg.grade(a) + alg.grade(b))
        continue;
      z[prod.blade] += prod.sign * x[a] * y[b];
    }
  }
  return z;
}

Multivector reverse(const Algebra &alg, const Multivector &x) {
  Multivector y(x);
  for (unsigned b = 0; b < alg.numBlades(); ++b)
    y[b] *= alg.reverseSign(b);
  return y;
}

Multivector randomMultivector(const Algebra &alg, std::mt19937_64 &rng,
                              std::optional<unsigned> onlyGrade = {}) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  Multivector x(alg.numBlades(), 0.0);
  for (unsigned b = 0; b < alg.numBlades(); ++b)
    if (!onlyGrade || alg.grade(b) == *onlyGrade)
      x[b] = dist(rng);
  return x;
}

/// The unit rotor cos(t) + sin(t) e_i e_j (0-based basis vectors i < j).
Multivector planeRotor(const Algebra &alg, unsigned i, unsigned j, double t) {
  Multivector r(alg.numBlades(), 0.0);
  r[0] = std::cos(t);
  r[alg.bladeIndex((1u << i) | (1u << j))] = std::sin(t);
  return r;
}

double sumOfSquares(const Multivector &x) {
  double s = 0.0;
  for (double v : x)
    s += v * v;
  return s;
}

void expectNear(const Multivector &got, const Multivector &expected,
                double tolerance, const std::string &what) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], tolerance) << what << ", blade " << i;
}

struct Signature {
  unsigned p, q, r;
};
const Signature kRandomAlgebras[] = {{2, 0, 0}, {3, 0, 0}, {1, 3, 0}, {3, 0, 1},
                                     {4, 1, 1}, {6, 0, 0}, {0, 3, 0}};

std::string label(const Signature &s) {
  return "Cl(" + std::to_string(s.p) + "," + std::to_string(s.q) + "," +
         std::to_string(s.r) + ")";
}

// (xy)z = x(yz): fails for any wrong sign in the Cayley table that is not a
// consistent change of basis, and for wrong metric factors.
TEST(AlgebraProperties, Associativity) {
  std::mt19937_64 rng(20240601);
  for (const Signature &s : kRandomAlgebras) {
    Algebra alg = getAlgebra(s.p, s.q, s.r);
    for (int trial = 0; trial < 5; ++trial) {
      Multivector x = randomMultivector(alg, rng),
                  y = randomMultivector(alg, rng),
                  z = randomMultivector(alg, rng);
      expectNear(multiply(alg, multiply(alg, x, y), z),
                 multiply(alg, x, multiply(alg, y, z)), 1e-11,
                 label(s) + " associativity");
    }
  }
}

// reverse(xy) = reverse(y) reverse(x).
TEST(AlgebraProperties, ReverseIsAntiAutomorphism) {
  std::mt19937_64 rng(7);
  for (const Signature &s : kRandomAlgebras) {
    Algebra alg = getAlgebra(s.p, s.q, s.r);
    for (int trial = 0; trial < 5; ++trial) {
      Multivector x = randomMultivector(alg, rng),
                  y = randomMultivector(alg, rng);
      expectNear(reverse(alg, multiply(alg, x, y)),
                 multiply(alg, reverse(alg, y), reverse(alg, x)), 1e-11,
                 label(s) + " reverse");
    }
  }
}

// v ∧ v = 0 for a vector v (e_i ∧ e_j = -e_j ∧ e_i and e_i ∧ e_i = 0), while
// the geometric product v v is the scalar sum of metric(i) v_i^2.
TEST(AlgebraProperties, VectorWedgeItselfVanishes) {
  std::mt19937_64 rng(99);
  for (const Signature &s : kRandomAlgebras) {
    Algebra alg = getAlgebra(s.p, s.q, s.r);
    for (int trial = 0; trial < 5; ++trial) {
      Multivector v = randomMultivector(alg, rng, 1);
      Multivector zero(alg.numBlades(), 0.0);
      expectNear(multiply(alg, v, v, /*outerOnly=*/true), zero, 1e-14,
                 label(s) + " v^v");
      Multivector square(alg.numBlades(), 0.0);
      for (unsigned i = 0; i < alg.dimension(); ++i) {
        double vi = v[alg.bladeIndex(1u << i)];
        square[0] += alg.metric(i) * vi * vi;
      }
      expectNear(multiply(alg, v, v), square, 1e-14, label(s) + " v v");
      // Two different vectors: u ∧ v = -v ∧ u.
      Multivector u = randomMultivector(alg, rng, 1);
      Multivector uv = multiply(alg, u, v, true),
                  vu = multiply(alg, v, u, true);
      for (double &c : vu)
        c = -c;
      expectNear(uv, vu, 1e-14, label(s) + " u^v = -v^u");
    }
  }
}

// In Cl(2,0), R = cos(t/2) - sin(t/2) e12 turns e1 into cos(t) e1 + sin(t) e2
// (by hand: R e1 = c e1 + s e2; (c e1 + s e2)(c + s e12) = (c^2 - s^2) e1 +
// 2cs e2).
TEST(AlgebraProperties, RotorRotatesPlane) {
  Algebra cl2 = getAlgebra(2, 0, 0);
  double t = 0.7;
  Multivector rotor = planeRotor(cl2, 0, 1, -t / 2);
  Multivector e1 = {0, 1, 0, 0};
  Multivector got =
      multiply(cl2, multiply(cl2, rotor, e1), reverse(cl2, rotor));
  expectNear(got, {0, std::cos(t), std::sin(t), 0}, 1e-15, "rotated e1");
}

// Unit rotors in Euclidean algebras: R = cos(t) + sin(t) e_i e_j, or a
// product of two such. R reverse(R) = 1; R v reverse(R) is again a vector
// with the same norm; for any x, the scalar part of x reverse(x) (the sum of
// squares in a Euclidean algebra) is preserved by the sandwich.
TEST(AlgebraProperties, EuclideanRotors) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  for (unsigned n : {2u, 3u, 6u}) {
    Algebra alg = getAlgebra(n, 0, 0);
    std::string name = "Cl(" + std::to_string(n) + ",0)";
    Multivector one(alg.numBlades(), 0.0);
    one[0] = 1.0;
    for (int trial = 0; trial < 6; ++trial) {
      unsigned i = rng() % n, j = rng() % n;
      if (i == j)
        j = (i + 1) % n;
      if (i > j)
        std::swap(i, j);
      Multivector rotor = planeRotor(alg, i, j, angle(rng));
      if (trial % 2 && n > 2) {
        // A product of two plane rotors (a general rotor when planes differ).
        unsigned k = (j + 1) % n, l = (j + 2) % n;
        if (k > l)
          std::swap(k, l);
        rotor = multiply(alg, rotor, planeRotor(alg, k, l, angle(rng)));
      }
      Multivector rotorRev = reverse(alg, rotor);
      expectNear(multiply(alg, rotor, rotorRev), one, 1e-14,
                 name + " R ~R = 1");

      Multivector v = randomMultivector(alg, rng, 1);
      Multivector rv = multiply(alg, multiply(alg, rotor, v), rotorRev);
      for (unsigned b = 0; b < alg.numBlades(); ++b) {
        if (alg.grade(b) != 1) {
          EXPECT_NEAR(rv[b], 0.0, 1e-14) << name << " R v ~R not a vector";
        }
      }
      EXPECT_NEAR(sumOfSquares(rv), sumOfSquares(v), 1e-13)
          << name << " |R v ~R| != |v|";

      Multivector x = randomMultivector(alg, rng);
      Multivector rx = multiply(alg, multiply(alg, rotor, x), rotorRev);
      double before = multiply(alg, x, reverse(alg, x))[0];
      double after = multiply(alg, rx, reverse(alg, rx))[0];
      EXPECT_NEAR(before, sumOfSquares(x), 1e-12) << name;
      EXPECT_NEAR(after, before, 1e-12) << name << " <x ~x> not preserved";
    }
  }
}

} // namespace
