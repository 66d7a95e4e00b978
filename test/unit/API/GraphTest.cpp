//===- GraphTest.cpp - Tests of the C++ graph builder ---------------------===//
//
// Tests of the C++ graph builder of include/uta/Graph.h: every builder's
// result shape and dtype, the op it prints, and that the printed module
// parses and verifies with the real MLIR parser (what utac and the JIT do
// with str()); then the errors reported when an op is added, at least one per
// rule, and how an error propagates. Golden shapes, lines and messages are
// literals worked out by hand from the ops' documented rules and assembly
// formats (docs/dialects). This file: whole graphs, the algebra value,
// arguments and constants, and error propagation; the uta ops are tested in
// GraphTensorOpsTest.cpp and the clifford ops in GraphCliffordOpsTest.cpp.
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
// Whole graphs, types and the algebra value
//===----------------------------------------------------------------------===//

TEST(GraphTest, PrintsOneFunctionNamedAfterTheGraph) {
  Graph g("gelu_bias");
  Tensor x = g.input({512, 768});
  Tensor b = g.input({768});
  Tensor y = g.gelu(g.add(x, b));
  g.output(y);
  EXPECT_EQ(g.name(), "gelu_bias");
  EXPECT_EQ(roundTrip(g),
            "module {\n"
            "  func.func @gelu_bias(%arg0: tensor<512x768xf32>, %arg1: "
            "tensor<768xf32>) -> tensor<512x768xf32> {\n"
            "    %0 = uta.add %arg0, %arg1 : (tensor<512x768xf32>, "
            "tensor<768xf32>) -> tensor<512x768xf32>\n"
            "    %1 = uta.gelu %0 : tensor<512x768xf32>\n"
            "    return %1 : tensor<512x768xf32>\n"
            "  }\n"
            "}\n");
}

TEST(GraphTest, InputsAndOutputsInOrder) {
  Graph g("two");
  Tensor a = g.input({2, 3}, DType::F16);
  Tensor b = g.input({3}, DType::BF16);
  Tensor c = g.input({});
  expectTensor(a, {2, 3}, DType::F16);
  expectTensor(b, {3}, DType::BF16);
  expectTensor(c, {}, DType::F32);
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.numElements(), 1);
  EXPECT_EQ(a.numElements(), 6);
  EXPECT_EQ(a.typeStr(), "tensor<2x3xf16>");
  EXPECT_EQ(c.typeStr(), "tensor<f32>");
  // Results may repeat and may be arguments.
  g.output(b);
  g.output(a);
  g.output(a);
  ASSERT_EQ(g.inputs().size(), 3u);
  EXPECT_EQ(g.inputs()[1].shape(), Shape({3}));
  ASSERT_EQ(g.outputs().size(), 3u);
  EXPECT_EQ(g.outputs()[0].dtype(), DType::BF16);
  EXPECT_THAT(roundTrip(g),
              HasSubstr("func.func @two(%arg0: tensor<2x3xf16>, %arg1: "
                        "tensor<3xbf16>, %arg2: tensor<f32>) -> "
                        "(tensor<3xbf16>, tensor<2x3xf16>, tensor<2x3xf16>) "
                        "{\n    return %arg1, %arg0, %arg0 : tensor<3xbf16>, "
                        "tensor<2x3xf16>, tensor<2x3xf16>\n"));
}

TEST(GraphTest, GraphWithoutOutputsPrints) {
  Graph g("empty");
  EXPECT_EQ(roundTrip(g), "module {\n"
                          "  func.func @empty() {\n"
                          "    return\n"
                          "  }\n"
                          "}\n");
}

TEST(GraphTest, DTypeNamesAndSizes) {
  EXPECT_STREQ(uta::dtypeName(DType::F32), "f32");
  EXPECT_STREQ(uta::dtypeName(DType::F16), "f16");
  EXPECT_STREQ(uta::dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(uta::dtypeSize(DType::F32), 4u);
  EXPECT_EQ(uta::dtypeSize(DType::F16), 2u);
  EXPECT_EQ(uta::dtypeSize(DType::BF16), 2u);
}

TEST(GraphTest, AlgebraValue) {
  Algebra cl3(3, 0);
  EXPECT_TRUE(cl3.valid());
  EXPECT_EQ(cl3.r(), 0);
  EXPECT_EQ(cl3.dimension(), 3);
  EXPECT_EQ(cl3.numBlades(), 8);
  EXPECT_EQ(cl3.numGrades(), 4);
  EXPECT_EQ(cl3.numPaths(), 20);
  EXPECT_EQ(cl3.str(), "Cl(3, 0, 0)");
  EXPECT_EQ(Algebra(2, 0, 0).numPaths(), 10);
  Algebra pga(3, 0, 1);
  EXPECT_EQ(pga.numBlades(), 16);
  EXPECT_EQ(pga.str(), "Cl(3, 0, 1)");
  EXPECT_EQ(Algebra(0, 6, 0).numBlades(), 64);
  EXPECT_TRUE(Algebra(1, 0) == Algebra(1, 0, 0));
  EXPECT_FALSE(Algebra(1, 0) == Algebra(0, 1));

  for (Algebra bad : {Algebra(0, 0, 0), Algebra(7, 0, 0), Algebra(4, 2, 1),
                      Algebra(-1, 3, 0), Algebra(2147483647, 2, 0)}) {
    EXPECT_FALSE(bad.valid()) << bad.str();
    EXPECT_EQ(bad.numBlades(), 0) << bad.str();
    EXPECT_EQ(bad.numGrades(), 0) << bad.str();
    EXPECT_EQ(bad.numPaths(), 0) << bad.str();
  }
}

TEST(GraphTest, MovableAndIndependent) {
  Graph a("a");
  Tensor x = a.input({4});
  Graph b = std::move(a);
  Tensor y = b.neg(x);
  expectTensor(y, {4}, DType::F32);
  b.output(y);
  EXPECT_THAT(roundTrip(b), HasSubstr("func.func @a(%arg0: tensor<4xf32>)"));
  // The moved-from graph builds nothing and says why.
  EXPECT_FALSE(a.ok()); // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.error(), "graph: used after being moved from");
  EXPECT_FALSE(a.input({4}).valid());
  EXPECT_FALSE(a.neg(x).valid());
  EXPECT_EQ(a.str(), "");
}

//===----------------------------------------------------------------------===//
// Arguments and constants
//===----------------------------------------------------------------------===//

TEST(GraphTest, Constant) {
  Graph g("c");
  Tensor c = g.constant({2, 2}, {1.0f, -2.5f, 0.5f, 3.0f});
  expectTensor(c, {2, 2}, DType::F32);
  Tensor s = g.fill({3}, 0.25f, DType::F16);
  expectTensor(s, {3}, DType::F16);
  // One value is repeated.
  Tensor r = g.constant({2}, {4.0f}, DType::BF16);
  expectTensor(r, {2}, DType::BF16);
  g.output(c);
  g.output(s);
  g.output(r);
  std::string text = roundTrip(g);
  EXPECT_THAT(text, HasSubstr("arith.constant dense<[[1.000000e+00, "
                              "-2.500000e+00], [5.000000e-01, "
                              "3.000000e+00]]> : tensor<2x2xf32>\n"));
  EXPECT_THAT(text, HasSubstr("arith.constant dense<2.500000e-01> : "
                              "tensor<3xf16>\n"));
  EXPECT_THAT(text, HasSubstr("arith.constant dense<4.000000e+00> : "
                              "tensor<2xbf16>\n"));
}

TEST(GraphTest, ConstantRoundsToItsDType) {
  // 1 + 2^-11 is a tie between two f16 values, 1 and 1 + 2^-10: nearest
  // even keeps 1. 1 + 3 * 2^-11 rounds up to 1 + 2^-9 (even mantissa),
  // 1.001953125, which MLIR prints to 6 significant digits (1.00195);
  // rounding down would have given 1 + 2^-10 = 1.00098.
  Graph g("r");
  g.output(g.constant({2}, {1.00048828125f, 1.00146484375f}, DType::F16));
  EXPECT_THAT(roundTrip(g), HasSubstr("dense<[1.000000e+00, 1.001950e+00]> : "
                                      "tensor<2xf16>"));
}

TEST(GraphTest, InputAndConstantErrors) {
  {
    Graph g("g");
    EXPECT_FALSE(g.input({4, 0}).valid());
    EXPECT_EQ(g.error(), "input: shape [4, 0] has size 0 at dimension 1; "
                         "sizes must be positive");
  }
  {
    Graph g("g");
    EXPECT_FALSE(g.input({-1}).valid());
    EXPECT_EQ(g.error(), "input: shape [-1] has size -1 at dimension 0; "
                         "sizes must be positive");
  }
  {
    Graph g("g");
    EXPECT_FALSE(g.input({1LL << 32, 1LL << 32}).valid());
    EXPECT_EQ(g.error(), "input: shape [4294967296, 4294967296] has more "
                         "elements than fit in 64 bits");
  }
  {
    Graph g("g");
    EXPECT_FALSE(g.constant({2, 2}, {1.0f, 2.0f, 3.0f}).valid());
    EXPECT_EQ(g.error(), "constant: 3 values for shape [2, 2], which has 4 "
                         "elements (give all of them, or one to repeat)");
  }
  {
    Graph g("g");
    EXPECT_FALSE(g.fill({0}, 1.0f).valid());
    EXPECT_EQ(g.error(), "constant: shape [0] has size 0 at dimension 0; "
                         "sizes must be positive");
  }
}

TEST(GraphTest, BadGraphName) {
  for (const char *name : {"", "1x", "has space", "a-b"}) {
    Graph g(name);
    EXPECT_FALSE(g.ok()) << name;
    EXPECT_EQ(g.error(), std::string("graph: name '") + name +
                             "' is not an identifier "
                             "([A-Za-z_][A-Za-z0-9_$.]*)");
    EXPECT_FALSE(g.input({2}).valid());
    EXPECT_EQ(g.str(), "");
  }
  Graph ok("_a.b$1");
  EXPECT_TRUE(ok.ok());
  EXPECT_THAT(roundTrip(ok), HasSubstr("func.func @_a.b$1()"));
}

//===----------------------------------------------------------------------===//
// Error propagation
//===----------------------------------------------------------------------===//

TEST(GraphTest, BadAlgebra) {
  expectError(
      {{8, 16}, {8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.geometricProduct(Algebra(7, 0, 0), a[0], a[1]);
      },
      "geometric_product: invalid algebra: #clifford.algebra<7, 0, 0> has 7 "
      "basis vectors but UTA supports 1 to 6");
  expectError(
      {{8, 16}}, DType::F32,
      [](Graph &g, const Args &a) { return g.reverse(Algebra(0, 0, 0), a[0]); },
      "reverse: invalid algebra: #clifford.algebra<0, 0, 0> has 0 basis "
      "vectors but UTA supports 1 to 6");
  expectError(
      {{8, 16}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.gradeRmsNorm(Algebra(4, -1, 0), a[0]);
      },
      "grade_rms_norm: invalid algebra Cl(4, -1, 0): p, q and r must not be "
      "negative");
}

TEST(GraphTest, TensorFromAnotherGraph) {
  Graph a("a"), b("b");
  Tensor x = a.input({4});
  Tensor y = b.input({4});
  EXPECT_FALSE(b.add(y, x).valid());
  EXPECT_EQ(b.error(), "add: rhs belongs to another graph");
  // The other graph is untouched.
  EXPECT_TRUE(a.ok());
  a.output(a.neg(x));
  roundTrip(a);

  Graph c("c");
  c.output(x);
  EXPECT_EQ(c.error(), "output: result belongs to another graph");
  EXPECT_EQ(c.str(), "");

  // Equal ids in a graph that no longer exists change nothing.
  Tensor stale;
  {
    Graph gone("gone");
    stale = gone.input({4});
  }
  Graph d("d");
  d.input({4});
  EXPECT_FALSE(d.weightedProduct(Algebra(3, 0), stale, stale, stale).valid());
  EXPECT_EQ(d.error(), "weighted_product: lhs belongs to another graph");
}

TEST(GraphTest, UseAfterError) {
  Graph g("g");
  Tensor x = g.input({4, 8});
  Tensor w = g.input({9, 3});
  Tensor bad = g.matmul(x, w);
  EXPECT_FALSE(bad.valid());
  EXPECT_EQ(bad.shape(), Shape());
  EXPECT_EQ(bad.numElements(), 0);
  EXPECT_EQ(bad.typeStr(), "<invalid>");
  const std::string first =
      "matmul: contraction dimensions differ: lhs has K = 8 but rhs has K = 9 "
      "(operand types tensor<4x8xf32>, tensor<9x3xf32>)";
  EXPECT_EQ(g.error(), first);

  // Everything after the error builds nothing and keeps the first message,
  // whether it uses the invalid tensor, a valid one, or none.
  EXPECT_FALSE(g.relu(bad).valid());
  EXPECT_FALSE(g.add(x, x).valid());
  EXPECT_FALSE(g.reshape(bad, {-3}).valid());
  EXPECT_FALSE(g.input({2}).valid());
  EXPECT_FALSE(g.fill({2}, 1.0f).valid());
  EXPECT_FALSE(g.geometricProduct(Algebra(9, 0), bad, bad).valid());
  EXPECT_FALSE(g.fcProduct(Algebra(3, 0), x, bad, w).valid());
  g.output(bad);
  g.output(x);
  EXPECT_TRUE(g.outputs().empty());
  EXPECT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.error(), first);
  EXPECT_EQ(g.str(), "");
}

TEST(GraphTest, InvalidTensorInAGraphWithoutError) {
  Graph g("g");
  Tensor x = g.input({8, 16});
  EXPECT_FALSE(g.sandwich(Algebra(3, 0), x, Tensor()).valid());
  EXPECT_EQ(g.error(), "sandwich: input is not a valid tensor");
}

TEST(GraphTest, GradientGraph) {
  Graph g("layer");
  Tensor x = g.input({4, 8});
  Tensor w = g.input({8, 3});
  g.output(g.gelu(g.matmul(x, w)));
  Graph vjp = g.gradient({1});
  ASSERT_TRUE(vjp.ok()) << vjp.error();
  EXPECT_EQ(vjp.name(), "layer_vjp");
  // x, w, then the cotangent of the output; the gradient of w only.
  ASSERT_EQ(vjp.inputs().size(), 3u);
  EXPECT_EQ(vjp.inputs()[2].shape(), Shape({4, 3}));
  ASSERT_EQ(vjp.outputs().size(), 1u);
  EXPECT_EQ(vjp.outputs()[0].shape(), Shape({8, 3}));
  std::string text = vjp.str();
  EXPECT_NE(text.find("func.func @layer_vjp("), std::string::npos) << text;
  EXPECT_EQ(text.find("@layer("), std::string::npos) << text;

  // The joint graph returns the output first; the new graph builds on.
  Graph joint = g.gradient({}, /*joint=*/true);
  ASSERT_TRUE(joint.ok()) << joint.error();
  EXPECT_EQ(joint.name(), "layer_fwd_bwd");
  ASSERT_EQ(joint.outputs().size(), 3u);
  EXPECT_EQ(joint.outputs()[0].shape(), Shape({4, 3}));
  joint.output(joint.relu(joint.outputs()[0]));
  EXPECT_TRUE(joint.ok()) << joint.error();
  EXPECT_EQ(joint.outputs().size(), 4u);
}

TEST(GraphTest, GradientErrors) {
  Graph g("f");
  Tensor x = g.input({4});
  Graph none = g.gradient();
  EXPECT_FALSE(none.ok());
  EXPECT_EQ(none.error(), "gradient: the graph has no outputs to "
                          "differentiate");
  g.output(g.exp(x));
  Graph outOfRange = g.gradient({3});
  EXPECT_FALSE(outOfRange.ok());
  EXPECT_NE(outOfRange.error().find("argument #3"), std::string::npos)
      << outOfRange.error();
  Graph repeated = g.gradient({0, 0});
  EXPECT_FALSE(repeated.ok());
  EXPECT_NE(repeated.error().find("listed twice"), std::string::npos)
      << repeated.error();

  Graph broken("broken");
  broken.matmul(broken.input({2, 3}), broken.input({4, 5}));
  Graph fromBroken = broken.gradient();
  EXPECT_FALSE(fromBroken.ok());
  EXPECT_EQ(fromBroken.error().rfind("gradient: the graph has an error: ", 0),
            0u)
      << fromBroken.error();
}

} // namespace
