//===- CliffordKernelsTest.cpp - Golden tests of the clifford reference ---===//
//
// Products, involutions, duals, sandwiches and the Flash Clifford layers in
// Cl(2,0), Cl(3,0) and Cl(3,0,1), against formulas written out by hand from
// the basis-vector rules (e_i e_i = metric, e_i e_j = -e_j e_i) and the
// dialect's blade order:
//   Cl(2,0):   1 e1 e2 e12
//   Cl(3,0):   1 e1 e2 e3 e12 e13 e23 e123
//   Cl(3,0,1): 1 e0 e1 e2 e3 e01 e02 e03 e12 e13 e23 e012 e013 e023 e123
//              e0123, with e0 e0 = 0.
// The weighted products are expanded term by term from the path rule of
// weighted_product and fc_product (docs/dialects/CliffordDialect.md);
// the expansions agree with the ones printed in Flash Clifford's kernels.
// The adjoints of the products are checked by hand in Cl(2,0) and, in every
// algebra, by the property that defines them: each is the transpose of its
// product. The adjoints of the gate and the norm are checked by hand in
// Cl(2,0) and against central differences of their forward ops.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/CliffordKernels.h"

#include "TestUtil.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace mlir::uta::reference;
using namespace mlir::uta::reference::test;
using uta::ga::Algebra;

namespace {

const Algebra &cl2() {
  static const Algebra algebra = *Algebra::get(2, 0, 0);
  return algebra;
}
const Algebra &cl3() {
  static const Algebra algebra = *Algebra::get(3, 0, 0);
  return algebra;
}
const Algebra &pga3() {
  static const Algebra algebra = *Algebra::get(3, 0, 1);
  return algebra;
}
const Algebra &cl13() {
  static const Algebra algebra = *Algebra::get(1, 3, 0);
  return algebra;
}

/// A [16] multivector of Cl(3,0,1) with the given blades set.
RefTensor pga(std::initializer_list<std::pair<int, double>> components) {
  RefTensor t{{16}, std::vector<double>(16, 0.0)};
  for (auto [blade, value] : components)
    t.data[blade] = value;
  return t;
}
// Blade indices of Cl(3,0,1).
enum : int {
  kS = 0,
  kE0,
  kE1,
  kE2,
  kE3,
  kE01,
  kE02,
  kE03,
  kE12,
  kE13,
  kE23,
  kE012,
  kE013,
  kE023,
  kE123,
  kE0123
};

//===----------------------------------------------------------------------===//
// Cl(2,0)
//===----------------------------------------------------------------------===//

/// z = x y in Cl(2,0), expanded by hand.
std::array<double, 4> gp2(const double *x, const double *y) {
  return {x[0] * y[0] + x[1] * y[1] + x[2] * y[2] - x[3] * y[3],
          x[0] * y[1] + x[1] * y[0] - x[2] * y[3] + x[3] * y[2],
          x[0] * y[2] + x[2] * y[0] + x[1] * y[3] - x[3] * y[1],
          x[0] * y[3] + x[3] * y[0] + x[1] * y[2] - x[2] * y[1]};
}

TEST(ReferenceClifford2D, GeometricProductLiteral) {
  // x = 1 + 2e1 + 3e2 + 4e12, y = 5 + 6e1 + 7e2 + 8e12:
  //   z0  = 5 + 12 + 21 - 32 = 6
  //   z1  = 6 + 10 - 24 + 28 = 20
  //   z2  = 7 + 15 + 16 - 24 = 14
  //   z12 = 8 + 20 + 14 - 18 = 24
  RefTensor x{{4}, {1, 2, 3, 4}};
  RefTensor y{{4}, {5, 6, 7, 8}};
  EXPECT_TRUE(
      matches(get(cliffordProduct(cl2(), ProductKind::Geometric, x, y, 0)), {4},
              {6, 20, 14, 24}));
}

TEST(ReferenceClifford2D, GeometricProductBroadcastsAgainstFormula) {
  // x [4, 3] (three multivectors, blade axis 0) times y [4, 1] (one).
  RefTensor x{{4, 3}, {1, -2, 0.5, 3, 0, -1, -4, 2, 2, 7, 1, -3}};
  RefTensor y{{4, 1}, {2, -1, 3, 5}};
  RefTensor z = get(cliffordProduct(cl2(), ProductKind::Geometric, x, y, 0));
  std::vector<double> expected(12);
  for (int c = 0; c < 3; ++c) {
    double xs[4] = {x.data[c], x.data[3 + c], x.data[6 + c], x.data[9 + c]};
    std::array<double, 4> zs = gp2(xs, y.data.data());
    for (int k = 0; k < 4; ++k)
      expected[k * 3 + c] = zs[k];
  }
  EXPECT_TRUE(matches(z, {4, 3}, expected));

  // The same numbers with the blade axis last: x [3, 4], y [1, 4].
  RefTensor xt{{3, 4}, {}}, yt{{1, 4}, y.data};
  std::vector<double> expectedT;
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 4; ++k) {
      xt.data.push_back(x.data[k * 3 + c]);
      expectedT.push_back(expected[k * 3 + c]);
    }
  EXPECT_TRUE(
      matches(get(cliffordProduct(cl2(), ProductKind::Geometric, xt, yt, 1)),
              {3, 4}, expectedT));
}

TEST(ReferenceClifford2D, OuterProduct) {
  // x ^ y keeps grade(z) = gx + gy:
  //   w0 = x0y0 = 5, w1 = x0y1 + x1y0 = 16, w2 = x0y2 + x2y0 = 22,
  //   w12 = x0y3 + x3y0 + x1y2 - x2y1 = 8 + 20 + 14 - 18 = 24.
  RefTensor x{{4}, {1, 2, 3, 4}};
  RefTensor y{{4}, {5, 6, 7, 8}};
  EXPECT_TRUE(matches(get(cliffordProduct(cl2(), ProductKind::Outer, x, y, 0)),
                      {4}, {5, 16, 22, 24}));
}

TEST(ReferenceClifford2D, LeftContraction) {
  // x _| y keeps grade(z) = gy - gx >= 0:
  //   c0  = x0y0 + x1y1 + x2y2 - x3y3 = 6
  //   c1  = x0y1 - x2y3 (e2 _| e12 = -e1) = 6 - 24 = -18
  //   c2  = x0y2 + x1y3 (e1 _| e12 = e2)  = 7 + 16 = 23
  //   c12 = x0y3 = 8
  RefTensor x{{4}, {1, 2, 3, 4}};
  RefTensor y{{4}, {5, 6, 7, 8}};
  EXPECT_TRUE(matches(
      get(cliffordProduct(cl2(), ProductKind::LeftContraction, x, y, 0)), {4},
      {6, -18, 23, 8}));
  // Vector _| scalar is zero (negative grade); scalar _| vector scales.
  RefTensor e1{{4}, {0, 1, 0, 0}};
  RefTensor two{{4}, {2, 0, 0, 0}};
  EXPECT_TRUE(matches(
      get(cliffordProduct(cl2(), ProductKind::LeftContraction, e1, two, 0)),
      {4}, {0, 0, 0, 0}));
  EXPECT_TRUE(matches(
      get(cliffordProduct(cl2(), ProductKind::LeftContraction, two, e1, 0)),
      {4}, {0, 2, 0, 0}));
}

TEST(ReferenceClifford2D, ScalarProductHasOneBlade) {
  RefTensor x{{4, 2}, {1, 0, 2, 1, 3, 0, 4, 1}};
  RefTensor y{{4, 2}, {5, 0, 6, 0, 7, 0, 8, 1}};
  // Column 0 is the pair above (6); column 1 is (e1 + e12)(e12) = e2 - 1.
  EXPECT_TRUE(matches(get(cliffordProduct(cl2(), ProductKind::Scalar, x, y, 0)),
                      {1, 2}, {6, -1}));
}

TEST(ReferenceClifford2D, Involutions) {
  RefTensor x{{4}, {1, 2, 3, 4}};
  EXPECT_TRUE(matches(get(involution(cl2(), InvolutionKind::Reverse, x, 0)),
                      {4}, {1, 2, 3, -4}));
  EXPECT_TRUE(
      matches(get(involution(cl2(), InvolutionKind::GradeInvolution, x, 0)),
              {4}, {1, -2, -3, 4}));
  EXPECT_TRUE(matches(get(involution(cl2(), InvolutionKind::Conjugate, x, 0)),
                      {4}, {1, -2, -3, -4}));
}

TEST(ReferenceClifford2D, GradeProject) {
  RefTensor x{{4, 2}, {1, 5, 2, 6, 3, 7, 4, 8}};
  EXPECT_TRUE(matches(get(gradeProject(cl2(), x, {0, 2}, 0)), {4, 2},
                      {1, 5, 0, 0, 0, 0, 4, 8}));
  EXPECT_TRUE(matches(get(gradeProject(cl2(), x, {1}, 0)), {4, 2},
                      {0, 0, 2, 6, 3, 7, 0, 0}));
  EXPECT_TRUE(matches(get(gradeProject(cl2(), x, {}, 0)), {4, 2},
                      {0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(errorOf(gradeProject(cl2(), x, {3}, 0)),
            "grade 3 does not exist in Cl(2, 0, 0)");
}

TEST(ReferenceClifford2D, Dual) {
  // I = e12, I I = -1, I^-1 = -e12. 1 -> -e12, e1 -> -e1 e12 = -e2,
  // e2 -> -e2 e12 = e1, e12 -> -e12 e12 = 1.
  RefTensor x{{4}, {1, 2, 3, 4}};
  EXPECT_TRUE(matches(get(dual(cl2(), x, 0)), {4}, {4, 3, -2, -1}));
}

TEST(ReferenceClifford2D, ScalarGate) {
  // Phi(1) = 0.8413447460685429 scales every blade; Phi(0) = 1/2;
  // Phi(-1) = 0.15865525393145705.
  RefTensor x{{4, 3}, {1, 0, -1, 2, 2, 1, 3, -4, 1, 4, 6, 1}};
  const double p1 = 0.8413447460685429, pm1 = 0.15865525393145705;
  EXPECT_TRUE(matches(get(scalarGate(cl2(), x, 0)), {4, 3},
                      {p1, 0, -pm1, 2 * p1, 1, pm1, 2.524034238205629, -2, pm1,
                       3.3653789842741717, 3, pm1},
                      1e-15));
}

/// Flash Clifford's 2D weighted geometric product, written out from the path
/// list (0,0,0) (0,1,1) (0,2,2) (1,0,1) (1,1,0) (1,1,2) (1,2,1) (2,0,2)
/// (2,1,1) (2,2,0) of (gx, gz, gy):
///   z0  = w0 x0y0 + w3 (x1y1 + x2y2) - w7 x3y3
///   z1  = w1 x0y1 + w4 x1y0 - w5 x2y3 + w8 x3y2
///   z2  = w1 x0y2 + w4 x2y0 + w5 x1y3 - w8 x3y1
///   z12 = w2 x0y3 + w6 (x1y2 - x2y1) + w9 x3y0
std::array<double, 4> wgp2(const double *x, const double *y, const double *w) {
  return {w[0] * x[0] * y[0] + w[3] * (x[1] * y[1] + x[2] * y[2]) -
              w[7] * x[3] * y[3],
          w[1] * x[0] * y[1] + w[4] * x[1] * y[0] - w[5] * x[2] * y[3] +
              w[8] * x[3] * y[2],
          w[1] * x[0] * y[2] + w[4] * x[2] * y[0] + w[5] * x[1] * y[3] -
              w[8] * x[3] * y[1],
          w[2] * x[0] * y[3] + w[6] * (x[1] * y[2] - x[2] * y[1]) +
              w[9] * x[3] * y[0]};
}

TEST(ReferenceClifford2D, WeightedProductLiteral) {
  // w_p = p + 1, x = (1,2,3,4), y = (5,6,7,8):
  //   z0  = 1*5 + 4*(12 + 21) - 8*32           = -119
  //   z1  = 2*6 + 5*10 - 6*24 + 9*28            = 170
  //   z2  = 2*7 + 5*15 + 6*16 - 9*24            = -31
  //   z12 = 3*8 + 7*(14 - 18) + 10*20           = 196
  RefTensor x{{4, 1, 1}, {1, 2, 3, 4}};
  RefTensor y{{4, 1, 1}, {5, 6, 7, 8}};
  RefTensor w{{1, 10}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
  EXPECT_TRUE(matches(get(weightedProduct(cl2(), x, y, w)), {4, 1, 1},
                      {-119, 170, -31, 196}));
}

TEST(ReferenceClifford2D, WeightedProductPerFeatureWeights) {
  // B = 2, F = 3; weights differ per feature and per path.
  const int batch = 2, features = 3;
  RefTensor x{{4, batch, features}, {}}, y{{4, batch, features}, {}};
  for (int i = 0; i < 4 * batch * features; ++i) {
    x.data.push_back((i * 7 % 11) - 5);
    y.data.push_back((i * 5 % 13) - 6);
  }
  RefTensor w{{features, 10}, {}};
  for (int f = 0; f < features; ++f)
    for (int p = 0; p < 10; ++p)
      w.data.push_back((f + 1) * 100 + p * (f % 2 ? -1 : 1));
  std::vector<double> expected(4 * batch * features);
  for (int b = 0; b < batch; ++b)
    for (int f = 0; f < features; ++f) {
      double xs[4], ys[4];
      for (int k = 0; k < 4; ++k) {
        xs[k] = x.data[(k * batch + b) * features + f];
        ys[k] = y.data[(k * batch + b) * features + f];
      }
      std::array<double, 4> zs = wgp2(xs, ys, &w.data[f * 10]);
      for (int k = 0; k < 4; ++k)
        expected[(k * batch + b) * features + f] = zs[k];
    }
  EXPECT_TRUE(matches(get(weightedProduct(cl2(), x, y, w)),
                      {4, batch, features}, expected));
}

TEST(ReferenceClifford2D, FcProduct) {
  // Fin = 2, Fout = 2, w[p][fi][o] = (p + 1) * (fi ? 100 : 1) * (o ? 10 : 1).
  // Feature 0 is the literal pair above; feature 1 is x = e1, y = e2, whose
  // only term e1 e2 = e12 takes path 6 (1,2,1) with weight 700 or 7000.
  //   z[:, o=0] = (-119, 170, -31, 196 + 700)
  //   z[:, o=1] = 10 * (-119, 170, -31, 196) + (0, 0, 0, 7000)
  RefTensor x{{4, 1, 2}, {1, 0, 2, 1, 3, 0, 4, 0}};
  RefTensor y{{4, 1, 2}, {5, 0, 6, 0, 7, 1, 8, 0}};
  RefTensor w{{10, 2, 2}, {}};
  for (int p = 0; p < 10; ++p)
    for (int fi = 0; fi < 2; ++fi)
      for (int o = 0; o < 2; ++o)
        w.data.push_back((p + 1) * (fi ? 100 : 1) * (o ? 10 : 1));
  EXPECT_TRUE(matches(get(fcProduct(cl2(), x, y, w)), {4, 1, 2},
                      {-119, -1190, 170, 1700, -31, -310, 896, 8960}));
}

TEST(ReferenceClifford2D, FcProductWidensFeatures) {
  // Fin = 1 -> Fout = 3 with w[p][0][o] = o + 1: each output feature o is
  // (o + 1) x y, the plain geometric product (6, 20, 14, 24) scaled.
  RefTensor x{{4, 1, 1}, {1, 2, 3, 4}};
  RefTensor y{{4, 1, 1}, {5, 6, 7, 8}};
  RefTensor w{{10, 1, 3}, {}};
  for (int p = 0; p < 10; ++p)
    for (int o = 0; o < 3; ++o)
      w.data.push_back(o + 1);
  EXPECT_TRUE(matches(get(fcProduct(cl2(), x, y, w)), {4, 1, 3},
                      {6, 12, 18, 20, 40, 60, 14, 28, 42, 24, 48, 72}));
}

TEST(ReferenceClifford2D, GradeRmsNorm) {
  // x [4, B=2, F=2], epsilon 7. Per (b, grade): sum of squares over the
  // grade's blades and the features, divided by F = 2, plus 7:
  //   b0: g0 (3,3): 18/2+7 = 16 -> 4;  g1 (4,0),(2,4): 36/2+7 = 25 -> 5;
  //       g2 (7,3): 58/2+7 = 36 -> 6.
  //   b1: g0 (1,1): 2/2+7 = 8 -> sqrt 8; g1 (3,0),(0,3): 18/2+7 -> 4;
  //       g2 (0,0): 0+7 -> sqrt 7, values stay 0.
  RefTensor x{{4, 2, 2}, {3, 3, 1, 1, 4, 0, 3, 0, 2, 4, 0, 3, 7, 3, 0, 0}};
  const double r8 = 0.3535533905932738; // 1 / sqrt 8
  EXPECT_TRUE(matches(get(gradeRmsNorm(cl2(), x, 7.0)), {4, 2, 2},
                      {0.75, 0.75, r8, r8, 0.8, 0, 0.75, 0, 0.4, 0.8, 0, 0.75,
                       7.0 / 6, 0.5, 0, 0},
                      1e-15));
}

TEST(ReferenceClifford2D, RejectsBadShapes) {
  RefTensor x3{{3}, {1, 2, 3}};
  RefTensor x4{{4}, {1, 2, 3, 4}};
  EXPECT_EQ(errorOf(cliffordProduct(cl2(), ProductKind::Geometric, x3, x4, 0)),
            "lhs has 3 values on blade axis 0, expected 4");
  EXPECT_EQ(errorOf(cliffordProduct(cl2(), ProductKind::Geometric, x4, x4, 1)),
            "blade axis 1 is out of range for the lhs of shape [4]");
  RefTensor a{{4, 2}, std::vector<double>(8, 1)};
  RefTensor b{{4, 3}, std::vector<double>(12, 1)};
  EXPECT_EQ(errorOf(cliffordProduct(cl2(), ProductKind::Geometric, a, b, 0)),
            "operand shapes [4, 2] and [4, 3] do not broadcast outside blade "
            "axis 0");
  // Ranks are never aligned implicitly: a rotor needs its size-1 axes.
  EXPECT_EQ(errorOf(cliffordProduct(cl2(), ProductKind::Geometric, x4, a, 0)),
            "lhs has rank 1 but rhs has rank 2");
  RefTensor layer{{4, 1, 1}, {1, 2, 3, 4}};
  RefTensor w9{{1, 9}, std::vector<double>(9, 1)};
  EXPECT_EQ(errorOf(weightedProduct(cl2(), layer, layer, w9)),
            "weights must have shape [1, 10] (features, paths), got [1, 9]");
  EXPECT_EQ(errorOf(gradeRmsNorm(cl2(), x4, 1e-6)),
            "input must have shape [4, B, F] in Cl(2, 0, 0), got [4]");
  RefTensor wfc{{10, 2, 1}, std::vector<double>(20, 1)};
  EXPECT_EQ(errorOf(fcProduct(cl2(), layer, layer, wfc)),
            "weights must have shape [10, 1, Fout] (paths, input features, "
            "output features), got [10, 2, 1]");
}

//===----------------------------------------------------------------------===//
// Cl(3,0)
//===----------------------------------------------------------------------===//

TEST(ReferenceClifford3D, VectorProducts) {
  // a = e1 + 2e2 + 3e3, b = 4e1 + 5e2 + 6e3:
  //   a b = a.b + (a1b2 - a2b1) e12 + (a1b3 - a3b1) e13 + (a2b3 - a3b2) e23
  //       = 32 - 3 e12 - 6 e13 - 3 e23.
  RefTensor a{{8}, {0, 1, 2, 3, 0, 0, 0, 0}};
  RefTensor b{{8}, {0, 4, 5, 6, 0, 0, 0, 0}};
  EXPECT_TRUE(
      matches(get(cliffordProduct(cl3(), ProductKind::Geometric, a, b, 0)), {8},
              {32, 0, 0, 0, -3, -6, -3, 0}));
  EXPECT_TRUE(matches(get(cliffordProduct(cl3(), ProductKind::Outer, a, b, 0)),
                      {8}, {0, 0, 0, 0, -3, -6, -3, 0}));
  EXPECT_TRUE(matches(
      get(cliffordProduct(cl3(), ProductKind::LeftContraction, a, b, 0)), {8},
      {32, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(get(cliffordProduct(cl3(), ProductKind::Scalar, a, b, 0)),
                      {1}, {32}));
}

TEST(ReferenceClifford3D, BladeTable) {
  // Columns are single blades; rows of `expected` are blade-axis entries.
  // x: e12, e3,  e13, e23, e123, e12, e1,  e12,  e123
  // y: e3,  e12, e2,  e1,  e123, e13, e23, e12,  e1
  //    e123 e123 -e123 e123 -1   -e23 e123 -1    e23
  // e12 e13 = e1e2e1e3 = -e2e3; e1 e23 = e123; e123 e1 = e1e2e3e1 = e23.
  const int n = 9;
  int xs[n] = {4, 3, 5, 6, 7, 4, 1, 4, 7};
  int ys[n] = {3, 4, 2, 1, 7, 5, 6, 4, 1};
  RefTensor x{{8, n}, std::vector<double>(8 * n, 0)};
  RefTensor y{{8, n}, std::vector<double>(8 * n, 0)};
  for (int c = 0; c < n; ++c) {
    x.data[xs[c] * n + c] = 1;
    y.data[ys[c] * n + c] = 1;
  }
  std::vector<double> expected(8 * n, 0);
  int blade[n] = {7, 7, 7, 7, 0, 6, 7, 0, 6};
  double sign[n] = {1, 1, -1, 1, -1, -1, 1, -1, 1};
  for (int c = 0; c < n; ++c)
    expected[blade[c] * n + c] = sign[c];
  EXPECT_TRUE(
      matches(get(cliffordProduct(cl3(), ProductKind::Geometric, x, y, 0)),
              {8, n}, expected));
}

TEST(ReferenceClifford3D, OuterAndContractionGrades) {
  // e1 _| e12 = e2, e2 _| e12 = -e1, e3 _| e12 = 0 (grade 3 part),
  // e1 _| e123 = e23, e12 _| e1 = 0; e3 ^ e12 = e123, e1 ^ e12 = 0.
  auto blade = [](int b) {
    RefTensor t{{8}, std::vector<double>(8, 0)};
    t.data[b] = 1;
    return t;
  };
  auto lc = [&](int a, int b) {
    return get(cliffordProduct(cl3(), ProductKind::LeftContraction, blade(a),
                               blade(b), 0));
  };
  auto op = [&](int a, int b) {
    return get(
        cliffordProduct(cl3(), ProductKind::Outer, blade(a), blade(b), 0));
  };
  EXPECT_TRUE(matches(lc(1, 4), {8}, {0, 0, 1, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(lc(2, 4), {8}, {0, -1, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(lc(3, 4), {8}, {0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(lc(1, 7), {8}, {0, 0, 0, 0, 0, 0, 1, 0}));
  EXPECT_TRUE(matches(lc(4, 1), {8}, {0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(op(3, 4), {8}, {0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_TRUE(matches(op(1, 4), {8}, {0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(matches(op(2, 1), {8}, {0, 0, 0, 0, -1, 0, 0, 0}));
}

TEST(ReferenceClifford3D, InvolutionsAndProjection) {
  RefTensor x{{8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  // Grades 0..3: reverse + + - -, involution + - + -, conjugate + - - +.
  EXPECT_TRUE(matches(get(involution(cl3(), InvolutionKind::Reverse, x, 0)),
                      {8}, {1, 2, 3, 4, -5, -6, -7, -8}));
  EXPECT_TRUE(
      matches(get(involution(cl3(), InvolutionKind::GradeInvolution, x, 0)),
              {8}, {1, -2, -3, -4, 5, 6, 7, -8}));
  EXPECT_TRUE(matches(get(involution(cl3(), InvolutionKind::Conjugate, x, 0)),
                      {8}, {1, -2, -3, -4, -5, -6, -7, 8}));
  EXPECT_TRUE(matches(get(gradeProject(cl3(), x, {1, 3}, 0)), {8},
                      {0, 2, 3, 4, 0, 0, 0, 8}));
}

TEST(ReferenceClifford3D, Dual) {
  // I^-1 = -e123. 1 -> -e123; e1 -> -e23; e2 -> e13; e3 -> -e12;
  // e12 -> e3; e13 -> -e2; e23 -> e1; e123 -> 1. So
  // dual(x) = (x7, x6, -x5, x4, -x3, x2, -x1, -x0).
  RefTensor x{{8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  EXPECT_TRUE(
      matches(get(dual(cl3(), x, 0)), {8}, {8, 7, -6, 5, -4, 3, -2, -1}));
}

TEST(ReferenceClifford3D, SandwichRotatesByNinetyDegrees) {
  // R = a + b e12 gives R e1 ~R = (a^2 - b^2) e1 - 2ab e2 and
  // R e2 ~R = (a^2 - b^2) e2 + 2ab e1. With a = -b = 1/sqrt 2 (R = cos 45
  // - sin 45 e12), e1 -> e2 and e2 -> -e1; e3, scalars and e123 stay.
  const double h = 0.7071067811865476;
  RefTensor rotor{{8}, {h, 0, 0, 0, -h, 0, 0, 0}};
  RefTensor e1{{8}, {0, 1, 0, 0, 0, 0, 0, 0}};
  EXPECT_TRUE(matches(get(sandwich(cl3(), rotor, e1, 0)), {8},
                      {0, 0, 1, 0, 0, 0, 0, 0}, 1e-15));
  // The unnormalised R = 1 - e12 (R ~R = 2) keeps the arithmetic exact and
  // scales by 2. One rotor [8, 1] against a batch [8, 4]: columns e1, e2, e3,
  // 2 + 3e12 + 5e23 + e123; e23 = e2 ^ e3 -> (-e1) ^ e3 = -e13.
  RefTensor r{{8, 1}, {1, 0, 0, 0, -1, 0, 0, 0}};
  RefTensor x{{8, 4}, {0, 0, 0, 2, //
                       1, 0, 0, 0, //
                       0, 1, 0, 0, //
                       0, 0, 1, 0, //
                       0, 0, 0, 3, //
                       0, 0, 0, 0, //
                       0, 0, 0, 5, //
                       0, 0, 0, 1}};
  EXPECT_TRUE(matches(get(sandwich(cl3(), r, x, 0)), {8, 4}, {0, 0,  0, 4,   //
                                                              0, -2, 0, 0,   //
                                                              2, 0,  0, 0,   //
                                                              0, 0,  2, 0,   //
                                                              0, 0,  0, 6,   //
                                                              0, 0,  0, -10, //
                                                              0, 0,  0, 0,   //
                                                              0, 0,  0, 2}));
}

TEST(ReferenceClifford3D, SandwichWithAVectorReflects) {
  // An odd "rotor" tells reverse(r) apart from the other involutions:
  // e1 x reverse(e1) = e1 x e1, so e1 -> e1, e2 -> e1 e2 e1 = -e2,
  // e12 -> e1 e12 e1 = e2 e1 = -e12, 1 -> 1.
  RefTensor r{{8, 1}, {0, 1, 0, 0, 0, 0, 0, 0}};
  RefTensor x{{8, 4}, {0, 0, 0, 1, //
                       1, 0, 0, 0, //
                       0, 1, 0, 0, //
                       0, 0, 0, 0, //
                       0, 0, 1, 0, //
                       0, 0, 0, 0, //
                       0, 0, 0, 0, //
                       0, 0, 0, 0}};
  EXPECT_TRUE(matches(get(sandwich(cl3(), r, x, 0)), {8, 4}, {0, 0,  0,  1, //
                                                              1, 0,  0,  0, //
                                                              0, -1, 0,  0, //
                                                              0, 0,  0,  0, //
                                                              0, 0,  -1, 0, //
                                                              0, 0,  0,  0, //
                                                              0, 0,  0,  0, //
                                                              0, 0,  0,  0}));
}

TEST(ReferenceClifford3D, ScalarGate) {
  // Blade axis 1: x [2, 8]; row 0 has scalar 0 (gate 1/2), row 1 scalar 1.
  RefTensor x{{2, 8}, {0, 2, 4, 6, 8, 10, 12, 14, 1, 1, 1, 1, 1, 1, 1, 1}};
  const double p1 = 0.8413447460685429;
  EXPECT_TRUE(matches(get(scalarGate(cl3(), x, 1)), {2, 8},
                      {0, 1, 2, 3, 4, 5, 6, 7, p1, p1, p1, p1, p1, p1, p1, p1},
                      1e-15));
}

TEST(ReferenceClifford3D, WeightedProductComponents) {
  // Cl(3,0) paths (gx, gz, gy), in order p0..p19:
  //   (0,0,0) (0,1,1) (0,2,2) (0,3,3) (1,0,1) (1,1,0) (1,1,2) (1,2,1)
  //   (1,2,3) (1,3,2) (2,0,2) (2,1,1) (2,1,3) (2,2,0) (2,2,2) (2,3,1)
  //   (3,0,3) (3,1,2) (3,2,1) (3,3,0)
  // Expanded by hand (blades x0..x7 = 1 e1 e2 e3 e12 e13 e23 e123):
  //   z0   = w0 x0y0 + w4 (x1y1 + x2y2 + x3y3) - w10 (x4y4 + x5y5 + x6y6)
  //          - w16 x7y7
  //   z1   = w1 x0y1 + w5 x1y0 - w6 (x2y4 + x3y5) + w11 (x4y2 + x5y3)
  //          - w12 x6y7 - w17 x7y6
  //   z12  = w2 x0y4 + w7 (x1y2 - x2y1) + w8 x3y7 + w13 x4y0
  //          + w14 (x6y5 - x5y6) + w18 x7y3
  //   z123 = w3 x0y7 + w9 (x1y6 - x2y5 + x3y4) + w15 (x4y3 - x5y2 + x6y1)
  //          + w19 x7y0
  // With x = 1..8, y = 9..16, w_p = p + 1 (feature 0):
  //   z0   = 9 + 5*101 - 11*254 - 17*128               = -4456
  //   z1   = 20 + 108 - 7*95 + 12*127 - 13*112 - 18*120 = -2629
  //   z12  = 39 - 8*8 + 9*64 + 14*45 + 15*8 + 19*96     = 3125
  //   z123 = 4*16 + 10*40 + 16*64 + 20*72               = 2928
  // Feature 1 has the same x and y and w_p = -(p + 1): the negation.
  RefTensor x{{8, 1, 2}, {}}, y{{8, 1, 2}, {}};
  for (int k = 0; k < 8; ++k) {
    x.data.insert(x.data.end(), {double(k + 1), double(k + 1)});
    y.data.insert(y.data.end(), {double(k + 9), double(k + 9)});
  }
  RefTensor w{{2, 20}, {}};
  for (int f = 0; f < 2; ++f)
    for (int p = 0; p < 20; ++p)
      w.data.push_back(f ? -(p + 1) : p + 1);
  RefTensor z = get(weightedProduct(cl3(), x, y, w));
  ASSERT_EQ(z.shape, (std::vector<int64_t>{8, 1, 2}));
  EXPECT_EQ(z.data[0 * 2], -4456);
  EXPECT_EQ(z.data[1 * 2], -2629);
  EXPECT_EQ(z.data[4 * 2], 3125);
  EXPECT_EQ(z.data[7 * 2], 2928);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(z.data[k * 2 + 1], -z.data[k * 2]) << "blade " << k;
}

TEST(ReferenceClifford3D, UnitWeightsGiveTheGeometricProduct) {
  // With every path weight 1, weighted_product is the geometric product.
  RefTensor x{{8, 1, 1}, {1, -2, 3, 0.5, 4, -1, 2, 3}};
  RefTensor y{{8, 1, 1}, {2, 1, -1, 3, 0, 2, -3, 1}};
  RefTensor w{{1, 20}, std::vector<double>(20, 1)};
  RefTensor gp = get(cliffordProduct(cl3(), ProductKind::Geometric, x, y, 0));
  EXPECT_TRUE(
      matches(get(weightedProduct(cl3(), x, y, w)), {8, 1, 1}, gp.data));
}

TEST(ReferenceClifford3D, GradeRmsNorm) {
  // One batch element, one feature, epsilon 0: each grade becomes a unit
  // vector. Vector (0, 3, 4) -> (0, 0.6, 0.8); bivector (1, 0, 0) stays;
  // scalar -2 -> -1; trivector 5 -> 1.
  RefTensor x{{8, 1, 1}, {-2, 0, 3, 4, 1, 0, 0, 5}};
  EXPECT_TRUE(matches(get(gradeRmsNorm(cl3(), x, 0.0)), {8, 1, 1},
                      {-1, 0, 0.6, 0.8, 1, 0, 0, 1}));
}

//===----------------------------------------------------------------------===//
// Cl(3,0,1)
//===----------------------------------------------------------------------===//

TEST(ReferencePGA, NullVectorProducts) {
  auto gp = [](const RefTensor &a, const RefTensor &b) {
    return get(cliffordProduct(pga3(), ProductKind::Geometric, a, b, 0));
  };
  RefTensor zero = pga({});
  EXPECT_TRUE(matches(gp(pga({{kE0, 1}}), pga({{kE0, 1}})), {16}, zero.data));
  EXPECT_TRUE(matches(gp(pga({{kE0, 1}}), pga({{kE1, 1}})), {16},
                      pga({{kE01, 1}}).data));
  EXPECT_TRUE(matches(gp(pga({{kE1, 1}}), pga({{kE0, 1}})), {16},
                      pga({{kE01, -1}}).data));
  EXPECT_TRUE(matches(gp(pga({{kE01, 1}}), pga({{kE01, 1}})), {16}, zero.data));
  EXPECT_TRUE(matches(gp(pga({{kE01, 1}}), pga({{kE1, 1}})), {16},
                      pga({{kE0, 1}}).data));
  EXPECT_TRUE(matches(gp(pga({{kE12, 1}}), pga({{kE12, 1}})), {16},
                      pga({{kS, -1}}).data));
  EXPECT_TRUE(matches(gp(pga({{kE123, 1}}), pga({{kE123, 1}})), {16},
                      pga({{kS, -1}}).data));
  EXPECT_TRUE(
      matches(gp(pga({{kE0123, 1}}), pga({{kE0123, 1}})), {16}, zero.data));
  // (2 + 3e0 + 5e1)(7e0 + 11e2) = 14e0 + 22e2 + 21 e0e0 + 33e02 + 35 e1e0
  //   + 55e12 = 14e0 + 22e2 - 35e01 + 33e02 + 55e12.
  EXPECT_TRUE(matches(
      gp(pga({{kS, 2}, {kE0, 3}, {kE1, 5}}), pga({{kE0, 7}, {kE2, 11}})), {16},
      pga({{kE0, 14}, {kE2, 22}, {kE01, -35}, {kE02, 33}, {kE12, 55}}).data));
}

TEST(ReferencePGA, OuterContractionScalar) {
  // (e0 + e1) ^ (e0 + e2) = e02 - e01 + e12 (e0 ^ e0 = 0).
  RefTensor a = pga({{kE0, 1}, {kE1, 1}});
  RefTensor b = pga({{kE0, 1}, {kE2, 1}});
  EXPECT_TRUE(matches(get(cliffordProduct(pga3(), ProductKind::Outer, a, b, 0)),
                      {16}, pga({{kE01, -1}, {kE02, 1}, {kE12, 1}}).data));
  // (e0 + e1) _| (e0 + e2) = e0.e0 + e0.e2 + e1.e0 + e1.e2 = 0;
  // (e0 + e1) _| e12 = e1 _| e12 = e2; e0 _| e01 = 0.
  EXPECT_TRUE(matches(
      get(cliffordProduct(pga3(), ProductKind::LeftContraction, a, b, 0)), {16},
      pga({}).data));
  EXPECT_TRUE(matches(get(cliffordProduct(pga3(), ProductKind::LeftContraction,
                                          a, pga({{kE12, 1}}), 0)),
                      {16}, pga({{kE2, 1}}).data));
  EXPECT_TRUE(
      matches(get(cliffordProduct(pga3(), ProductKind::LeftContraction,
                                  pga({{kE0, 1}}), pga({{kE01, 1}}), 0)),
              {16}, pga({}).data));
  // <(e0 + 2e1 + 3e12)(e0 + 4e1 + 5e12)> = 0 + 8 - 15.
  EXPECT_TRUE(
      matches(get(cliffordProduct(pga3(), ProductKind::Scalar,
                                  pga({{kE0, 1}, {kE1, 2}, {kE12, 3}}),
                                  pga({{kE0, 1}, {kE1, 4}, {kE12, 5}}), 0)),
              {1}, {-7}));
}

TEST(ReferencePGA, InvolutionsProjectionAndDual) {
  RefTensor x{{16}, {}};
  for (int k = 0; k < 16; ++k)
    x.data.push_back(k + 1);
  // Grades: 0 | 1 1 1 1 | 2 x6 | 3 x4 | 4. Reverse signs + + - - +.
  EXPECT_TRUE(matches(
      get(involution(pga3(), InvolutionKind::Reverse, x, 0)), {16},
      {1, 2, 3, 4, 5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, 16}));
  EXPECT_TRUE(matches(
      get(involution(pga3(), InvolutionKind::GradeInvolution, x, 0)), {16},
      {1, -2, -3, -4, -5, 6, 7, 8, 9, 10, 11, -12, -13, -14, -15, 16}));
  EXPECT_TRUE(matches(
      get(involution(pga3(), InvolutionKind::Conjugate, x, 0)), {16},
      {1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, 12, 13, 14, 15, 16}));
  EXPECT_TRUE(matches(get(gradeProject(pga3(), x, {2, 4}, 0)), {16},
                      {0, 0, 0, 0, 0, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 16}));
  EXPECT_EQ(errorOf(dual(pga3(), x, 0)),
            "the dual is undefined in the degenerate algebra Cl(3, 0, 1)");
}

TEST(ReferencePGA, SandwichTranslatorAndRotor) {
  // T = 1 + e01, ~T = 1 - e01: T e1 ~T = (e1 + e0)(1 - e01)
  //   = e1 - e1e01 + e0 - e0e01 = e1 + e0 + e0 = 2e0 + e1.
  EXPECT_TRUE(matches(
      get(sandwich(pga3(), pga({{kS, 1}, {kE01, 1}}), pga({{kE1, 1}}), 0)),
      {16}, pga({{kE0, 2}, {kE1, 1}}).data));
  // R = 1 - e12 commutes with e0 and turns e1 into 2e2 (as in Cl(3,0)).
  EXPECT_TRUE(matches(get(sandwich(pga3(), pga({{kS, 1}, {kE12, -1}}),
                                   pga({{kE0, 1}, {kE1, 1}}), 0)),
                      {16}, pga({{kE0, 2}, {kE2, 2}}).data));
}

TEST(ReferencePGA, GateAndGradeRmsNorm) {
  // Scalar 0: gate 1/2.
  RefTensor x = pga({{kS, 0}, {kE0, 2}, {kE0123, -4}});
  EXPECT_TRUE(matches(get(scalarGate(pga3(), x, 0)), {16},
                      pga({{kE0, 1}, {kE0123, -2}}).data));
  // F = 1 and epsilon 0, so each grade becomes a unit vector. Grade 1 holds
  // e0 = 3, e2 = 4: norm 5, the null direction e0 included. Every grade is
  // non-zero (a zero grade would be 0 / 0 here).
  RefTensor y = pga(
      {{kS, 2}, {kE0, 3}, {kE2, 4}, {kE03, -2}, {kE123, 7}, {kE0123, -0.5}});
  y.shape = {16, 1, 1};
  EXPECT_TRUE(matches(get(gradeRmsNorm(pga3(), y, 0.0)), {16, 1, 1},
                      pga({{kS, 1},
                           {kE0, 0.6},
                           {kE2, 0.8},
                           {kE03, -1},
                           {kE123, 1},
                           {kE0123, -1}})
                          .data));
}

TEST(ReferencePGA, UnitWeightsGiveTheGeometricProduct) {
  RefTensor x{{16, 1, 1}, {}}, y{{16, 1, 1}, {}};
  for (int k = 0; k < 16; ++k) {
    x.data.push_back((k * 3 % 7) - 3);
    y.data.push_back((k * 5 % 9) - 4);
  }
  RefTensor w{{1, static_cast<int64_t>(pga3().numPaths())},
              std::vector<double>(pga3().numPaths(), 1)};
  RefTensor gp = get(cliffordProduct(pga3(), ProductKind::Geometric, x, y, 0));
  EXPECT_TRUE(
      matches(get(weightedProduct(pga3(), x, y, w)), {16, 1, 1}, gp.data));
}

//===----------------------------------------------------------------------===//
// Adjoints of the products
//===----------------------------------------------------------------------===//

/// sum over the elements of a * b (equal shapes).
double dot(const RefTensor &a, const RefTensor &b) {
  EXPECT_EQ(a.shape, b.shape);
  double sum = 0;
  for (size_t i = 0; i < a.data.size() && i < b.data.size(); ++i)
    sum += a.data[i] * b.data[i];
  return sum;
}

/// A tensor of `shape` with small integer values that differ per `seed`.
RefTensor filled(std::vector<int64_t> shape, int seed) {
  RefTensor t{std::move(shape), {}};
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data.push_back(static_cast<double>((i * (2 * seed + 3) + seed) % 9) - 4);
  return t;
}

TEST(ReferenceAdjoints, GeometricProductLiteral) {
  // In Cl(2,0), from e_i e_j = s e_k (e2 e1 = -e12, e2 e12 = -e1,
  // e12 e1 = -e2, e12 e12 = -1), with g = (1, 2, 3, 4):
  //   lhs, y = (5, 6, 7, 8):
  //     dx0 = g0 y0 + g1 y1 + g2 y2 + g3 y3 = 5 + 12 + 21 + 32 = 70
  //     dx1 = g1 y0 + g0 y1 + g3 y2 + g2 y3 = 10 + 6 + 28 + 24 = 68
  //     dx2 = g2 y0 - g3 y1 + g0 y2 - g1 y3 = 15 - 24 + 7 - 16 = -18
  //     dx3 = g3 y0 - g2 y1 + g1 y2 - g0 y3 = 20 - 18 + 14 - 8 = 8
  //   rhs, x = (5, 6, 7, 8):
  //     dy0 = x0 g0 + x1 g1 + x2 g2 + x3 g3 = 70
  //     dy1 = x0 g1 + x1 g0 - x2 g3 - x3 g2 = 10 + 6 - 28 - 24 = -36
  //     dy2 = x0 g2 + x1 g3 + x2 g0 + x3 g1 = 15 + 24 + 7 + 16 = 62
  //     dy3 = x0 g3 + x1 g2 - x2 g1 - x3 g0 = 20 + 18 - 14 - 8 = 16
  RefTensor g{{4}, {1, 2, 3, 4}};
  RefTensor other{{4}, {5, 6, 7, 8}};
  EXPECT_TRUE(matches(get(productAdjoint(cl2(), ProductKind::Geometric,
                                         ProductOperand::Lhs, g, other, 0)),
                      {4}, {70, 68, -18, 8}));
  EXPECT_TRUE(matches(get(productAdjoint(cl2(), ProductKind::Geometric,
                                         ProductOperand::Rhs, g, other, 0)),
                      {4}, {70, -36, 62, 16}));
}

TEST(ReferenceAdjoints, ScalarProductCotangentHasOneBlade) {
  // <x y>_0 = x0 y0 + x1 y1 + x2 y2 - x3 y3, so dx_i = s_i g y_i.
  RefTensor g{{1}, {2}};
  RefTensor y{{4}, {5, 6, 7, 8}};
  EXPECT_TRUE(matches(get(productAdjoint(cl2(), ProductKind::Scalar,
                                         ProductOperand::Lhs, g, y, 0)),
                      {4}, {10, 12, 14, -16}));
  EXPECT_TRUE(matches(get(productAdjoint(cl2(), ProductKind::Scalar,
                                         ProductOperand::Rhs, g, y, 0)),
                      {4}, {10, 12, 14, -16}));
}

// The defining property: sum(g * product(x, y)) = sum(adjoint_lhs(g, y) * x)
// = sum(adjoint_rhs(g, x) * y), for every product kind, in a Euclidean, a
// Minkowski-like and a degenerate algebra, blades in the middle axis.
TEST(ReferenceAdjoints, AreTheTransposesOfTheProducts) {
  const Algebra *algebras[] = {&cl3(), &cl13(), &pga3()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades();
    for (ProductKind kind :
         {ProductKind::Geometric, ProductKind::Outer,
          ProductKind::LeftContraction, ProductKind::Scalar}) {
      SCOPED_TRACE(static_cast<int>(kind));
      RefTensor x = filled({3, n, 2}, 1), y = filled({3, n, 2}, 2);
      RefTensor z = get(cliffordProduct(*algebra, kind, x, y, 1));
      RefTensor g = filled(z.shape, 3);
      double forward = dot(g, z);
      EXPECT_EQ(
          dot(get(productAdjoint(*algebra, kind, ProductOperand::Lhs, g, y, 1)),
              x),
          forward);
      EXPECT_EQ(
          dot(get(productAdjoint(*algebra, kind, ProductOperand::Rhs, g, x, 1)),
              y),
          forward);
    }
  }
}

TEST(ReferenceAdjoints, Broadcast) {
  // g [4, 1, 3] against y [4, 2, 1]: the result [4, 2, 3] holds at (b, f)
  // the adjoint of column f of g and row b of y.
  RefTensor g = filled({4, 1, 3}, 4), y = filled({4, 2, 1}, 5);
  RefTensor r = get(
      productAdjoint(cl2(), ProductKind::Outer, ProductOperand::Lhs, g, y, 0));
  ASSERT_EQ(r.shape, (std::vector<int64_t>{4, 2, 3}));
  for (int b = 0; b < 2; ++b)
    for (int f = 0; f < 3; ++f) {
      RefTensor gi{{4}, {}}, yi{{4}, {}};
      for (int k = 0; k < 4; ++k) {
        gi.data.push_back(g.data[k * 3 + f]);
        yi.data.push_back(y.data[k * 2 + b]);
      }
      RefTensor ri = get(productAdjoint(cl2(), ProductKind::Outer,
                                        ProductOperand::Lhs, gi, yi, 0));
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(r.data[(k * 2 + b) * 3 + f], ri.data[k]);
    }
}

TEST(ReferenceAdjoints, WeightedProductAdjointsAreTheTransposes) {
  const Algebra *algebras[] = {&cl2(), &pga3()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades(), paths = algebra->numPaths();
    RefTensor x = filled({n, 2, 3}, 1), y = filled({n, 2, 3}, 2);
    RefTensor w = filled({3, paths}, 6), g = filled({n, 2, 3}, 3);
    double forward = dot(g, get(weightedProduct(*algebra, x, y, w)));
    EXPECT_EQ(
        dot(get(weightedProductAdjoint(*algebra, ProductOperand::Lhs, g, y, w)),
            x),
        forward);
    EXPECT_EQ(
        dot(get(weightedProductAdjoint(*algebra, ProductOperand::Rhs, g, x, w)),
            y),
        forward);
  }
}

// weighted_product is linear in each weight: with w one on path p and zero
// elsewhere, sum over the blades and the batch of g * z at feature f is the
// sum over the batch of path_adjoint's [p, :, f].
TEST(ReferenceAdjoints, PathAdjointIsTheWeightGradient) {
  const Algebra *algebras[] = {&cl3(), &pga3()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades(), paths = algebra->numPaths();
    const int batch = 2, features = 3;
    RefTensor x = filled({n, batch, features}, 1);
    RefTensor y = filled({n, batch, features}, 2);
    RefTensor g = filled({n, batch, features}, 3);
    RefTensor r = get(pathAdjoint(*algebra, g, x, y));
    ASSERT_EQ(r.shape, (std::vector<int64_t>{paths, batch, features}));
    for (int64_t p = 0; p < paths; ++p) {
      RefTensor w{{features, paths},
                  std::vector<double>(features * paths, 0.0)};
      for (int f = 0; f < features; ++f)
        w.data[f * paths + p] = 1;
      RefTensor z = get(weightedProduct(*algebra, x, y, w));
      for (int f = 0; f < features; ++f) {
        double expected = 0, got = 0;
        for (int b = 0; b < batch; ++b) {
          for (int64_t k = 0; k < n; ++k)
            expected += g.data[(k * batch + b) * features + f] *
                        z.data[(k * batch + b) * features + f];
          got += r.data[(p * batch + b) * features + f];
        }
        EXPECT_EQ(got, expected) << "path " << p << ", feature " << f;
      }
    }
  }
}

// batch_chunk c sums runs of c batch elements: the unchunked result summed
// over each run, the last run shorter.
TEST(ReferenceAdjoints, PathAdjointChunksTheBatch) {
  const int batch = 7, features = 2, chunk = 3;
  RefTensor x = filled({8, batch, features}, 1);
  RefTensor y = filled({8, batch, features}, 2);
  RefTensor g = filled({8, batch, features}, 3);
  RefTensor whole = get(pathAdjoint(cl3(), g, x, y));
  RefTensor chunked = get(pathAdjoint(cl3(), g, x, y, chunk));
  int64_t paths = cl3().numPaths();
  ASSERT_EQ(chunked.shape, (std::vector<int64_t>{paths, 3, features}));
  for (int64_t p = 0; p < paths; ++p)
    for (int c = 0; c < 3; ++c)
      for (int f = 0; f < features; ++f) {
        double sum = 0;
        for (int b = c * chunk; b < std::min(batch, (c + 1) * chunk); ++b)
          sum += whole.data[(p * batch + b) * features + f];
        EXPECT_EQ(chunked.data[(p * 3 + c) * features + f], sum);
      }
  EXPECT_EQ(errorOf(pathAdjoint(cl3(), g, x, y, 0)),
            "batch chunk must be at least 1, got 0");
}

// fc_product_adjoint is fc_product_pair_adjoint of the path groups' pair
// cotangents, in every algebra and for both operands; integer inputs make
// both sums exact.
TEST(ReferenceAdjoints, PairAdjointOfPairCotangentsIsFcProductAdjoint) {
  const Algebra *algebras[] = {&cl2(), &cl3(), &pga3(), &cl13()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades(), paths = algebra->numPaths();
    const int batch = 3, in = 2, out = 4;
    RefTensor other = filled({n, batch, in}, 1);
    RefTensor g = filled({n, batch, out}, 2);
    RefTensor w = filled({paths, in, out}, 3);
    RefTensor pairs = get(fcProductPairCotangents(*algebra, g, w));
    ASSERT_EQ(pairs.shape,
              (std::vector<int64_t>{algebra->numPathGroups(), batch, in}));
    for (ProductOperand operand : {ProductOperand::Lhs, ProductOperand::Rhs})
      EXPECT_EQ(get(fcProductPairAdjoint(*algebra, operand, pairs, other)).data,
                get(fcProductAdjoint(*algebra, operand, g, other, w)).data);
  }
  RefTensor g = filled({4, 2, 3}, 1);
  EXPECT_EQ(errorOf(fcProductPairCotangents(cl2(), g, filled({10, 5, 4}, 2))),
            "weights must have shape [10, Fin, 3] (paths, input features, "
            "output features), got [10, 5, 4]");
  EXPECT_EQ(errorOf(fcProductPairAdjoint(cl2(), ProductOperand::Lhs,
                                         filled({13, 2, 5}, 1),
                                         filled({4, 2, 5}, 2))),
            "pairs must have shape [14, 2, 5] (path groups, batch, input "
            "features), got [13, 2, 5]");
}

TEST(ReferenceAdjoints, RejectsBadShapes) {
  RefTensor mv{{4, 2}, std::vector<double>(8, 1)};
  EXPECT_EQ(errorOf(productAdjoint(cl2(), ProductKind::Scalar,
                                   ProductOperand::Lhs, mv, mv, 0)),
            "cotangent has 4 values on blade axis 0, expected 1");
  RefTensor g1{{1, 2}, {1, 1}};
  RefTensor other3{{3, 2}, std::vector<double>(6, 1)};
  EXPECT_EQ(errorOf(productAdjoint(cl2(), ProductKind::Scalar,
                                   ProductOperand::Rhs, g1, other3, 0)),
            "other has 3 values on blade axis 0, expected 4");
  RefTensor flat{{4}, {1, 2, 3, 4}};
  EXPECT_EQ(errorOf(productAdjoint(cl2(), ProductKind::Geometric,
                                   ProductOperand::Lhs, flat, mv, 0)),
            "cotangent has rank 1 but other has rank 2");
  RefTensor layer{{4, 1, 2}, std::vector<double>(8, 1)};
  RefTensor wide{{4, 2, 2}, std::vector<double>(16, 1)};
  RefTensor w{{2, 10}, std::vector<double>(20, 1)};
  EXPECT_EQ(errorOf(weightedProductAdjoint(cl2(), ProductOperand::Lhs, layer,
                                           wide, w)),
            "cotangent [4, 1, 2] and other [4, 2, 2] must have the same "
            "shape");
  EXPECT_EQ(errorOf(weightedProductAdjoint(cl2(), ProductOperand::Rhs, layer,
                                           layer, mv)),
            "weights must have shape [2, 10] (features, paths), got [4, 2]");
  EXPECT_EQ(errorOf(pathAdjoint(cl2(), wide, layer, layer)),
            "cotangent [4, 2, 2], lhs [4, 1, 2] and rhs [4, 1, 2] must have "
            "the same shape");
  EXPECT_EQ(errorOf(pathAdjoint(cl2(), layer, mv, layer)),
            "lhs must have shape [4, B, F] in Cl(2, 0, 0), got [4, 2]");
}

//===----------------------------------------------------------------------===//
// Adjoints of the gate and the norm
//===----------------------------------------------------------------------===//

/// The gradient of x -> sum(g * fn(x)) by central differences, step h.
template <typename Fn>
std::vector<double> numericGradient(Fn fn, const RefTensor &g, RefTensor x,
                                    double h = 1e-5) {
  std::vector<double> gradient;
  for (size_t i = 0; i < x.data.size(); ++i) {
    double saved = x.data[i];
    x.data[i] = saved + h;
    double up = dot(g, get(fn(x)));
    x.data[i] = saved - h;
    double down = dot(g, get(fn(x)));
    x.data[i] = saved;
    gradient.push_back((up - down) / (2 * h));
  }
  return gradient;
}

/// Each of `actual`'s values within `tolerance` of `expected`'s: central
/// differences are inexact, and a zero of one may be a rounding error of
/// the other.
void expectNear(const RefTensor &actual, const std::vector<double> &expected,
                double tolerance) {
  ASSERT_EQ(actual.data.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual.data[i], expected[i], tolerance) << "element " << i;
}

/// `t` with every value scaled by `factor`.
RefTensor scaled(RefTensor t, double factor) {
  for (double &v : t.data)
    v *= factor;
  return t;
}

TEST(ReferenceGateAndNormAdjoints, ScalarGateAdjointLiteral) {
  // Cl(2,0), x = (0, 2, -1, 3): s = 0, Phi(0) = 1/2, phi(0) = 1/sqrt(2 pi)
  // = 0.3989422804014327. g = (2, 1, 4, -2): <g, x> = 0 + 2 - 4 - 6 = -8, so
  // dx = g / 2 + (-8 phi(0), 0, 0, 0) = (1 - 3.1915382432114616, 0.5, 2, -1).
  RefTensor x{{4}, {0, 2, -1, 3}}, g{{4}, {2, 1, 4, -2}};
  EXPECT_TRUE(matches(get(scalarGateAdjoint(cl2(), g, x, 0)), {4},
                      {-2.1915382432114616, 0.5, 2, -1}, 1e-15));
}

// The gate's adjoint is its derivative: against central differences of
// sum(g * scalar_gate(x)), blades in the middle axis, in Cl(3,0) and the
// degenerate Cl(3,0,1).
TEST(ReferenceGateAndNormAdjoints, ScalarGateAdjointIsTheGradient) {
  const Algebra *algebras[] = {&cl3(), &pga3()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades();
    RefTensor x = scaled(filled({2, n, 3}, 1), 0.3);
    RefTensor g = filled({2, n, 3}, 2);
    auto gate = [&](const RefTensor &at) {
      return scalarGate(*algebra, at, 1);
    };
    expectNear(get(scalarGateAdjoint(*algebra, g, x, 1)),
               numericGradient(gate, g, x), 1e-7);
  }
}

TEST(ReferenceGateAndNormAdjoints, GradeRmsNormAdjointLiteral) {
  // Cl(2,0), x, g [4, B=1, F=2], epsilon 7; per grade r = (mean of the
  // grade's x^2 + 7)^-1/2, c = mean of the grade's g x, dx = r (g - x r^2 c):
  //   grade 0: x (3, 3), g (1, 2): r = 1/4, c = 9/2, r^2 c = 9/32,
  //            dx = (1 - 27/32, 2 - 27/32) / 4 = (0.0390625, 0.2890625).
  //   grade 1: x e1 (4, 0), e2 (2, 4), g e1 (1, 1), e2 (0, -1): r = 1/5,
  //            c = (4 + 0 + 0 - 4) / 2 = 0, dx = g / 5.
  //   grade 2: x (7, 3), g (3, 1): r = 1/6, c = 12, r^2 c = 1/3,
  //            dx = (3 - 7/3, 1 - 1) / 6 = (1/9, 0).
  RefTensor x{{4, 1, 2}, {3, 3, 4, 0, 2, 4, 7, 3}};
  RefTensor g{{4, 1, 2}, {1, 2, 1, 1, 0, -1, 3, 1}};
  EXPECT_TRUE(matches(get(gradeRmsNormAdjoint(cl2(), g, x, 7.0)), {4, 1, 2},
                      {0.0390625, 0.2890625, 0.2, 0.2, 0, -0.2, 1.0 / 9, 0},
                      1e-15));
}

// The norm's adjoint is its derivative, batch elements and grades apart,
// in Cl(3,0) and Cl(3,0,1).
TEST(ReferenceGateAndNormAdjoints, GradeRmsNormAdjointIsTheGradient) {
  const Algebra *algebras[] = {&cl3(), &pga3()};
  for (const Algebra *algebra : algebras) {
    int64_t n = algebra->numBlades();
    RefTensor x = filled({n, 2, 3}, 1), g = filled({n, 2, 3}, 2);
    auto norm = [&](const RefTensor &at) {
      return gradeRmsNorm(*algebra, at, 0.5);
    };
    expectNear(get(gradeRmsNormAdjoint(*algebra, g, x, 0.5)),
               numericGradient(norm, g, x), 1e-7);
  }
}

TEST(ReferenceGateAndNormAdjoints, RejectBadShapes) {
  RefTensor mv{{4, 2}, std::vector<double>(8, 1)};
  RefTensor mv3{{4, 3}, std::vector<double>(12, 1)};
  RefTensor short3{{3, 2}, std::vector<double>(6, 1)};
  EXPECT_EQ(errorOf(scalarGateAdjoint(cl2(), short3, mv, 0)),
            "cotangent has 3 values on blade axis 0, expected 4");
  EXPECT_EQ(errorOf(scalarGateAdjoint(cl2(), mv, short3, 0)),
            "input has 3 values on blade axis 0, expected 4");
  EXPECT_EQ(errorOf(scalarGateAdjoint(cl2(), mv, mv3, 0)),
            "cotangent [4, 2] and input [4, 3] must have the same shape");
  RefTensor layer{{4, 1, 2}, std::vector<double>(8, 1)};
  RefTensor wide{{4, 2, 2}, std::vector<double>(16, 1)};
  EXPECT_EQ(errorOf(gradeRmsNormAdjoint(cl2(), mv, layer, 1e-6)),
            "cotangent must have shape [4, B, F] in Cl(2, 0, 0), got [4, 2]");
  EXPECT_EQ(errorOf(gradeRmsNormAdjoint(cl2(), layer, mv, 1e-6)),
            "input must have shape [4, B, F] in Cl(2, 0, 0), got [4, 2]");
  EXPECT_EQ(errorOf(gradeRmsNormAdjoint(cl2(), layer, wide, 1e-6)),
            "cotangent [4, 1, 2] and input [4, 2, 2] must have the same "
            "shape");
}

} // namespace
