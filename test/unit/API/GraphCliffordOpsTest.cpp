//===- GraphCliffordOpsTest.cpp - Tests of the clifford op builders -------===//
//
// Graph's builders of clifford ops (the products, involutions, grade
// projection, the weighted and fully-connected layers, the grade RMS norm,
// and a whole layer built from them): the result's shape and dtype, the
// printed op, and the errors of each rule. See GraphTest.cpp for the
// conventions.
//
//===----------------------------------------------------------------------===//

#include "GraphTestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>

using ::testing::HasSubstr;
using uta::Algebra;
using uta::DType;
using uta::Graph;
using uta::Tensor;
using namespace uta::testing;

namespace {

//===----------------------------------------------------------------------===//
// clifford
//===----------------------------------------------------------------------===//

using CliffordBinaryMethod = Tensor (Graph::*)(const Algebra &, const Tensor &,
                                               const Tensor &, int64_t);
using CliffordUnaryMethod = Tensor (Graph::*)(const Algebra &, const Tensor &,
                                              int64_t);

TEST(GraphTest, CliffordProducts) {
  std::pair<const char *, CliffordBinaryMethod> ops[] = {
      {"geometric_product", &Graph::geometricProduct},
      {"outer_product", &Graph::outerProduct},
      {"left_contraction", &Graph::leftContraction},
      {"sandwich", &Graph::sandwich}};
  Algebra cl3(3, 0, 0);
  for (auto [name, method] : ops) {
    SCOPED_TRACE(name);
    std::string op = std::string("%0 = clifford.") + name;
    // One multivector [8, 1] against a batch [8, 16].
    expectOp(
        {{8, 1}, {8, 16}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(cl3, a[0], a[1], 0);
        },
        {8, 16}, DType::F32,
        op + " <3, 0, 0> %arg0, %arg1 : (tensor<8x1xf32>, tensor<8x16xf32>) "
             "-> tensor<8x16xf32>");
    // Blades last in Cl(2,0): [32, 4] with [1, 4].
    expectOp(
        {{32, 4}, {1, 4}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(Algebra(2, 0), a[0], a[1], 1);
        },
        {32, 4}, DType::F32,
        op + " <2, 0, 0> %arg0, %arg1 {blade_axis = 1 : i64} : "
             "(tensor<32x4xf32>, tensor<1x4xf32>) -> tensor<32x4xf32>");
    // Bad blade-axis size: 4 blades given to Cl(3,0).
    std::string first = std::string(name) == "sandwich" ? "rotor" : "lhs";
    expectError(
        {{4, 16}, {8, 16}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(cl3, a[0], a[1], 0);
        },
        std::string(name) +
            ": blade axis has size 4 but #clifford.algebra<3, 0, 0> has 8 "
            "blades (" +
            first + ") (operand types tensor<4x16xf32>, tensor<8x16xf32>)");
  }
}

TEST(GraphTest, ScalarProduct) {
  expectOp(
      {{8, 16}, {8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.scalarProduct(Algebra(3, 0), a[0], a[1]);
      },
      {1, 16}, DType::F32,
      "%0 = clifford.scalar_product <3, 0, 0> %arg0, %arg1 : "
      "(tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>");
  expectOp(
      {{3, 16}, {1, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.scalarProduct(Algebra(1, 3), a[0], a[1], 1);
      },
      {3, 1}, DType::F32,
      "%0 = clifford.scalar_product <1, 3, 0> %arg0, %arg1 {blade_axis = 1 : "
      "i64} : (tensor<3x16xf32>, tensor<1x16xf32>) -> tensor<3x1xf32>");
  // Broadcast mismatch outside the blade axis: 16 against 15.
  expectError(
      {{8, 16}, {8, 15}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.scalarProduct(Algebra(3, 0), a[0], a[1]);
      },
      "scalar_product: lhs and rhs have incompatible sizes 16 and 15 at axis "
      "1 (operand types tensor<8x16xf32>, tensor<8x15xf32>)");
}

TEST(GraphTest, CliffordUnary) {
  std::pair<const char *, CliffordUnaryMethod> ops[] = {
      {"reverse", &Graph::reverse},
      {"grade_involution", &Graph::gradeInvolution},
      {"conjugate", &Graph::conjugate},
      {"dual", &Graph::dual},
      {"scalar_gate", &Graph::scalarGate}};
  for (auto [name, method] : ops) {
    SCOPED_TRACE(name);
    std::string op = std::string("%0 = clifford.") + name;
    expectOp(
        {{8, 4, 16}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(Algebra(3, 0), a[0], 0);
        },
        {8, 4, 16}, DType::F32, op + " <3, 0, 0> %arg0 : tensor<8x4x16xf32>");
    expectOp(
        {{5, 4}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(Algebra(1, 1), a[0], 1);
        },
        {5, 4}, DType::F32,
        op + " <1, 1, 0> %arg0 {blade_axis = 1 : i64} : tensor<5x4xf32>");
    // Blade axis out of range, and an f16 multivector.
    expectError(
        {{8, 16}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(Algebra(3, 0), a[0], 2);
        },
        std::string(name) +
            ": blade_axis 2 is out of range for rank 2 (operand types "
            "tensor<8x16xf32>)");
    expectError(
        {{8, 16}}, DType::F16,
        [&](Graph &g, const Args &a) {
          return (g.*method)(Algebra(3, 0), a[0], 0);
        },
        std::string(name) +
            ": operand #0 must be statically shaped tensor of 32-bit float "
            "values, but got 'tensor<8x16xf16>' (operand types "
            "tensor<8x16xf16>)");
  }
}

TEST(GraphTest, DualOfDegenerateAlgebra) {
  expectError(
      {{16, 4}}, DType::F32,
      [](Graph &g, const Args &a) { return g.dual(Algebra(3, 0, 1), a[0]); },
      "dual: dual is undefined in the degenerate algebra "
      "#clifford.algebra<3, 0, 1> (operand types tensor<16x4xf32>)");
}

TEST(GraphTest, GradeProject) {
  expectOp(
      {{8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeProject(Algebra(3, 0), a[0], {0, 2});
      },
      {8, 16}, DType::F32,
      "%0 = clifford.grade_project <3, 0, 0> %arg0 grades [0, 2] : "
      "tensor<8x16xf32>");
  expectOp(
      {{2, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeProject(Algebra(3, 0, 1), a[0], {4}, 1);
      },
      {2, 16}, DType::F32,
      "%0 = clifford.grade_project <3, 0, 1> %arg0 grades [4] {blade_axis = "
      "1 : i64} : tensor<2x16xf32>");
  expectError(
      {{8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeProject(Algebra(3, 0), a[0], {1, 4});
      },
      "grade_project: grade 4 is out of range for #clifford.algebra<3, 0, 0>, "
      "whose grades are 0 to 3 (operand types tensor<8x16xf32>)");
  expectError(
      {{8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeProject(Algebra(3, 0), a[0], {2, 1});
      },
      "grade_project: grades must be unique and ascending, but 1 follows 2 "
      "(operand types tensor<8x16xf32>)");
}

TEST(GraphTest, WeightedProduct) {
  // Cl(3,0) has 20 paths.
  expectOp(
      {{8, 64, 32}, {8, 64, 32}, {32, 20}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.weightedProduct(Algebra(3, 0), a[0], a[1], a[2]);
      },
      {8, 64, 32}, DType::F32,
      "%0 = clifford.weighted_product <3, 0, 0> %arg0, %arg1, %arg2 : "
      "(tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) -> "
      "tensor<8x64x32xf32>");
  // Wrong path count: Cl(2,0)'s 10 paths under Cl(3,0).
  expectError(
      {{8, 64, 32}, {8, 64, 32}, {32, 10}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.weightedProduct(Algebra(3, 0), a[0], a[1], a[2]);
      },
      "weighted_product: weights have 10 paths but #clifford.algebra<3, 0, "
      "0> has 20 (operand types tensor<8x64x32xf32>, tensor<8x64x32xf32>, "
      "tensor<32x10xf32>)");
  expectError(
      {{8, 64, 32}, {8, 64, 32}, {16, 20}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.weightedProduct(Algebra(3, 0), a[0], a[1], a[2]);
      },
      "weighted_product: weights have 16 features but lhs has 32 (operand "
      "types tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<16x20xf32>)");
  expectError(
      {{8, 64}, {8, 64}, {64, 20}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.weightedProduct(Algebra(3, 0), a[0], a[1], a[2]);
      },
      "weighted_product: lhs has rank 2 but the layer ops take rank 3 "
      "([blades, batch, features]) (operand types tensor<8x64xf32>, "
      "tensor<8x64xf32>, tensor<64x20xf32>)");
}

TEST(GraphTest, FcProduct) {
  // Cl(2,0) has 10 paths; Fin 32 -> Fout 48.
  expectOp(
      {{4, 64, 32}, {4, 64, 32}, {10, 32, 48}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.fcProduct(Algebra(2, 0), a[0], a[1], a[2]);
      },
      {4, 64, 48}, DType::F32,
      "%0 = clifford.fc_product <2, 0, 0> %arg0, %arg1, %arg2 : "
      "(tensor<4x64x32xf32>, tensor<4x64x32xf32>, tensor<10x32x48xf32>) -> "
      "tensor<4x64x48xf32>");
  expectError(
      {{4, 64, 32}, {4, 64, 32}, {20, 32, 48}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.fcProduct(Algebra(2, 0), a[0], a[1], a[2]);
      },
      "fc_product: weights have 20 paths but #clifford.algebra<2, 0, 0> has "
      "10 (operand types tensor<4x64x32xf32>, tensor<4x64x32xf32>, "
      "tensor<20x32x48xf32>)");
  expectError(
      {{4, 64, 32}, {4, 64, 16}, {10, 32, 48}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.fcProduct(Algebra(2, 0), a[0], a[1], a[2]);
      },
      "fc_product: rhs has shape 4x64x16 but lhs has shape 4x64x32 (operand "
      "types tensor<4x64x32xf32>, tensor<4x64x16xf32>, "
      "tensor<10x32x48xf32>)");
}

TEST(GraphTest, GradeRmsNorm) {
  expectOp(
      {{8, 64, 32}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeRmsNorm(Algebra(3, 0), a[0]);
      },
      {8, 64, 32}, DType::F32,
      "%0 = clifford.grade_rms_norm <3, 0, 0> %arg0 : tensor<8x64x32xf32>");
  // 1e-5 as an f32 is 9.99999974737875e-6; APFloat prints its first 9
  // significant digits.
  expectOp(
      {{4, 2, 3}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeRmsNorm(Algebra(2, 0), a[0], 1e-5f);
      },
      {4, 2, 3}, DType::F32,
      "%0 = clifford.grade_rms_norm <2, 0, 0> %arg0 {epsilon = "
      "9.99999974E-6 : f32} : tensor<4x2x3xf32>");
  expectError(
      {{8, 64, 32}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeRmsNorm(Algebra(3, 0), a[0], -1.0f);
      },
      "grade_rms_norm: epsilon must be finite and non-negative, got "
      "-1.000000e+00 "
      "(operand types tensor<8x64x32xf32>)");
  expectError(
      {{16, 64, 32}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeRmsNorm(Algebra(3, 0), a[0]);
      },
      "grade_rms_norm: blade axis has size 16 but #clifford.algebra<3, 0, 0> "
      "has 8 blades (input) (operand types tensor<16x64x32xf32>)");
}

TEST(GraphTest, FlashCliffordLayer) {
  // SGP = grade_rms_norm(weighted_product(scalar_gate(x), scalar_gate(y), w))
  Graph g("sgp");
  Algebra cl3(3, 0);
  Tensor x = g.input({8, 64, 32});
  Tensor y = g.input({8, 64, 32});
  Tensor w = g.input({32, cl3.numPaths()});
  // One statement per op: argument evaluation order is unspecified in C++.
  Tensor gx = g.scalarGate(cl3, x);
  Tensor gy = g.scalarGate(cl3, y);
  Tensor z = g.gradeRmsNorm(cl3, g.weightedProduct(cl3, gx, gy, w));
  g.output(z);
  expectTensor(z, {8, 64, 32}, DType::F32);
  EXPECT_EQ(roundTrip(g),
            "module {\n"
            "  func.func @sgp(%arg0: tensor<8x64x32xf32>, %arg1: "
            "tensor<8x64x32xf32>, %arg2: tensor<32x20xf32>) -> "
            "tensor<8x64x32xf32> {\n"
            "    %0 = clifford.scalar_gate <3, 0, 0> %arg0 : "
            "tensor<8x64x32xf32>\n"
            "    %1 = clifford.scalar_gate <3, 0, 0> %arg1 : "
            "tensor<8x64x32xf32>\n"
            "    %2 = clifford.weighted_product <3, 0, 0> %0, %1, %arg2 : "
            "(tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<32x20xf32>) "
            "-> tensor<8x64x32xf32>\n"
            "    %3 = clifford.grade_rms_norm <3, 0, 0> %2 : "
            "tensor<8x64x32xf32>\n"
            "    return %3 : tensor<8x64x32xf32>\n"
            "  }\n"
            "}\n");
}

} // namespace
