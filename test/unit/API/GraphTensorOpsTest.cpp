//===- GraphTensorOpsTest.cpp - Tests of the uta op builders --------------===//
//
// Graph's builders of uta ops (elementwise arithmetic and activations,
// matmul, reductions, softmax, layer_norm, transpose, reshape, broadcast_to,
// cast): the result's shape and dtype, the printed op, and the errors of
// each rule. See GraphTest.cpp for the conventions.
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
// uta: elementwise
//===----------------------------------------------------------------------===//

using BinaryMethod = Tensor (Graph::*)(const Tensor &, const Tensor &);
using UnaryMethod = Tensor (Graph::*)(const Tensor &);

TEST(GraphTest, BinaryElementwise) {
  std::pair<const char *, BinaryMethod> ops[] = {
      {"add", &Graph::add}, {"sub", &Graph::sub}, {"mul", &Graph::mul},
      {"div", &Graph::div}, {"max", &Graph::max}, {"min", &Graph::min},
      {"pow", &Graph::pow}};
  for (auto [name, method] : ops) {
    SCOPED_TRACE(name);
    // [4, 1] and [3, 1, 8] broadcast to [3, 4, 8].
    expectOp(
        {{4, 1}, {3, 1, 8}}, DType::BF16,
        [&](Graph &g, const Args &a) { return (g.*method)(a[0], a[1]); },
        {3, 4, 8}, DType::BF16,
        std::string("%0 = uta.") + name +
            " %arg0, %arg1 : (tensor<4x1xbf16>, tensor<3x1x8xbf16>) -> "
            "tensor<3x4x8xbf16>");
    // Broadcast mismatch: 3 against 5 at the last dimension.
    expectError(
        {{4, 3}, {5}}, DType::F32,
        [&](Graph &g, const Args &a) { return (g.*method)(a[0], a[1]); },
        std::string(name) +
            ": operand shapes [4, 3] and [5] are not broadcast-compatible: 3 "
            "and 5 differ and neither is 1 (operand types tensor<4x3xf32>, "
            "tensor<5xf32>)");
  }
}

TEST(GraphTest, BinaryDTypeMismatch) {
  Graph g("g");
  Tensor a = g.input({4});
  Tensor b = g.input({4}, DType::F16);
  EXPECT_FALSE(g.mul(a, b).valid());
  EXPECT_EQ(g.error(), "mul: operands and results must have the same element "
                       "type, got 'f32', 'f16' and 'f32' (operand types "
                       "tensor<4xf32>, tensor<4xf16>)");
}

TEST(GraphTest, UnaryElementwise) {
  std::pair<const char *, UnaryMethod> ops[] = {
      {"neg", &Graph::neg},     {"abs", &Graph::abs},
      {"sign", &Graph::sign},   {"exp", &Graph::exp},
      {"log", &Graph::log},     {"sqrt", &Graph::sqrt},
      {"rsqrt", &Graph::rsqrt}, {"tanh", &Graph::tanh},
      {"erf", &Graph::erf},     {"sigmoid", &Graph::sigmoid},
      {"relu", &Graph::relu},   {"silu", &Graph::silu}};
  for (auto [name, method] : ops) {
    SCOPED_TRACE(name);
    expectOp(
        {{2, 3}}, DType::F16,
        [&](Graph &g, const Args &a) { return (g.*method)(a[0]); }, {2, 3},
        DType::F16,
        std::string("%0 = uta.") + name + " %arg0 : tensor<2x3xf16>");
    // The only way to misuse a unary op: an operand that is not a tensor of
    // this graph.
    expectError(
        {{2}}, DType::F32,
        [&](Graph &g, const Args &) { return (g.*method)(Tensor()); },
        std::string(name) + ": input is not a valid tensor");
  }
}

TEST(GraphTest, Gelu) {
  expectOp(
      {{4}}, DType::F32, [](Graph &g, const Args &a) { return g.gelu(a[0]); },
      {4}, DType::F32, "%0 = uta.gelu %arg0 : tensor<4xf32>");
  expectOp(
      {{4}}, DType::BF16,
      [](Graph &g, const Args &a) { return g.gelu(a[0], true); }, {4},
      DType::BF16,
      "%0 = uta.gelu %arg0 {tanh_approximation = true} : tensor<4xbf16>");
  expectError(
      {{4}}, DType::F32,
      [](Graph &g, const Args &) { return g.gelu(Tensor()); },
      "gelu: input is not a valid tensor");
}

//===----------------------------------------------------------------------===//
// uta: matmul, reductions, normalisations
//===----------------------------------------------------------------------===//

TEST(GraphTest, Matmul) {
  expectOp(
      {{4, 8}, {8, 16}}, DType::F32,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1]); }, {4, 16},
      DType::F32,
      "%0 = uta.matmul %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x16xf32>) -> "
      "tensor<4x16xf32>");
  // Rank-2 rhs under a rank-3 lhs; rhs given as [N, K].
  expectOp(
      {{2, 4, 8}, {16, 8}}, DType::F16,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1], true); },
      {2, 4, 16}, DType::F16,
      "%0 = uta.matmul %arg0, %arg1 {transpose_b = true} : "
      "(tensor<2x4x8xf16>, tensor<16x8xf16>) -> tensor<2x4x16xf16>");
  // Batch dimensions broadcast: [3, 1] with [5].
  expectOp(
      {{3, 1, 2, 4}, {5, 4, 6}}, DType::BF16,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1]); },
      {3, 5, 2, 6}, DType::BF16,
      "%0 = uta.matmul %arg0, %arg1 : (tensor<3x1x2x4xbf16>, "
      "tensor<5x4x6xbf16>) -> tensor<3x5x2x6xbf16>");
}

TEST(GraphTest, MatmulErrors) {
  expectError(
      {{4, 8}, {9, 3}}, DType::F32,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1]); },
      "matmul: contraction dimensions differ: lhs has K = 8 but rhs has K = 9 "
      "(operand types tensor<4x8xf32>, tensor<9x3xf32>)");
  // With transposeB the rhs is [N, K]: K = 3 here.
  expectError(
      {{4, 8}, {8, 3}}, DType::F32,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1], true); },
      "matmul: contraction dimensions differ: lhs has K = 8 but rhs has K = 3 "
      "(operand types tensor<4x8xf32>, tensor<8x3xf32>)");
  expectError(
      {{8}, {8, 3}}, DType::F32,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1]); },
      "matmul: lhs and rhs must have rank >= 2, got ranks 1 and 2 (operand "
      "types tensor<8xf32>, tensor<8x3xf32>)");
  expectError(
      {{2, 4, 8}, {3, 8, 5}}, DType::F32,
      [](Graph &g, const Args &a) { return g.matmul(a[0], a[1]); },
      "matmul: batch dimensions [2] and [3] are not broadcast-compatible: 2 "
      "and 3 differ and neither is 1 (operand types tensor<2x4x8xf32>, "
      "tensor<3x8x5xf32>)");
}

using ReduceMethod = Tensor (Graph::*)(const Tensor &, std::vector<int64_t>,
                                       bool);

TEST(GraphTest, Reductions) {
  std::pair<const char *, ReduceMethod> ops[] = {
      {"reduce_sum", &Graph::reduceSum},
      {"reduce_max", &Graph::reduceMax},
      {"reduce_mean", &Graph::reduceMean}};
  for (auto [name, method] : ops) {
    SCOPED_TRACE(name);
    std::string op = std::string("%0 = uta.") + name + " %arg0 dims ";
    expectOp(
        {{2, 4, 8}}, DType::F32,
        [&](Graph &g, const Args &a) { return (g.*method)(a[0], {1}, false); },
        {2, 8}, DType::F32, op + "[1] : tensor<2x4x8xf32> -> tensor<2x8xf32>");
    expectOp(
        {{2, 4, 8}}, DType::F32,
        [&](Graph &g, const Args &a) {
          return (g.*method)(a[0], {0, 2}, true);
        },
        {1, 4, 1}, DType::F32,
        op + "[0, 2] {keep_dims = true} : tensor<2x4x8xf32> -> "
             "tensor<1x4x1xf32>");
    // Bad dims: out of range, not ascending, empty.
    auto reduceWith = [&](std::vector<int64_t> dims) {
      return [=](Graph &g, const Args &a) {
        return (g.*method)(a[0], dims, false);
      };
    };
    expectError({{4, 8}}, DType::F32, reduceWith({2}),
                std::string(name) + ": dim 2 is out of range for rank 2 "
                                    "(operand types tensor<4x8xf32>)");
    expectError({{4, 8}}, DType::F32, reduceWith({1, 0}),
                std::string(name) + ": dims must be unique and ascending, "
                                    "got [1, 0] (operand types "
                                    "tensor<4x8xf32>)");
    expectError({{4, 8}}, DType::F32, reduceWith({}),
                std::string(name) + ": dims must not be empty (operand types "
                                    "tensor<4x8xf32>)");
    expectError({{4, 8}}, DType::F16, reduceWith({1}),
                std::string(name) +
                    ": requires f32 element type, got 'f16' (f16 and bf16 are "
                    "supported only by matmul and elementwise ops) (operand "
                    "types tensor<4x8xf16>)");
  }
}

TEST(GraphTest, Softmax) {
  expectOp(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.softmax(a[0], 1); }, {4, 8},
      DType::F32, "%0 = uta.softmax %arg0 dim 1 : tensor<4x8xf32>");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.softmax(a[0], 2); },
      "softmax: dim 2 is out of range for rank 2 (operand types "
      "tensor<4x8xf32>)");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.softmax(a[0], -1); },
      "softmax: dim -1 is out of range for rank 2 (operand types "
      "tensor<4x8xf32>)");
  expectError(
      {{4, 8}}, DType::BF16,
      [](Graph &g, const Args &a) { return g.softmax(a[0], 0); },
      "softmax: requires f32 element type, got 'bf16' (f16 and bf16 are "
      "supported only by matmul and elementwise ops) (operand types "
      "tensor<4x8xbf16>)");
}

TEST(GraphTest, LayerNorm) {
  expectOp(
      {{2, 4, 8}, {4, 8}, {4, 8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.layerNorm(a[0], a[1], a[2], 1); },
      {2, 4, 8}, DType::F32,
      "%0 = uta.layer_norm %arg0, %arg1, %arg2 axis 1 : (tensor<2x4x8xf32>, "
      "tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>");
  // 1e-6 as an f32 is 9.99999997e-7, printed to 9 significant digits.
  expectOp(
      {{4, 8}, {8}, {8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.layerNorm(a[0], a[1], a[2], 1, 1e-6f);
      },
      {4, 8}, DType::F32,
      "%0 = uta.layer_norm %arg0, %arg1, %arg2 axis 1 {epsilon = "
      "9.99999997E-7 : f32} : (tensor<4x8xf32>, tensor<8xf32>, "
      "tensor<8xf32>) -> tensor<4x8xf32>");
  expectError(
      {{4, 8}, {4}, {8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.layerNorm(a[0], a[1], a[2], 1); },
      "layer_norm: weight shape [4] does not match the normalised shape [8] "
      "(operand types tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>)");
  expectError(
      {{4, 8}, {8}, {8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.layerNorm(a[0], a[1], a[2], 2); },
      "layer_norm: axis 2 is out of range for rank 2 (operand types "
      "tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)");
  expectError(
      {{4, 8}, {8}, {8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.layerNorm(a[0], a[1], a[2], 1, -1.0f);
      },
      "layer_norm: epsilon must be finite and non-negative, got -1.000000e+00 "
      "(operand "
      "types tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)");
}

//===----------------------------------------------------------------------===//
// uta: layout and conversion
//===----------------------------------------------------------------------===//

TEST(GraphTest, Transpose) {
  expectOp(
      {{2, 4, 8}}, DType::BF16,
      [](Graph &g, const Args &a) {
        return g.transpose(a[0], {2, 0, 1});
      },
      {8, 2, 4}, DType::BF16,
      "%0 = uta.transpose %arg0 [2, 0, 1] : tensor<2x4x8xbf16> -> "
      "tensor<8x2x4xbf16>");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.transpose(a[0], {0, 0});
      },
      "transpose: permutation [0, 0] is not a permutation of 0..1 (operand "
      "types tensor<4x8xf32>)");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.transpose(a[0], {1, 0, 2});
      },
      "transpose: permutation has 3 entries but the input has rank 2 "
      "(operand types tensor<4x8xf32>)");
}

TEST(GraphTest, Reshape) {
  expectOp(
      {{4, 8}}, DType::F16,
      [](Graph &g, const Args &a) {
        return g.reshape(a[0], {2, 16});
      },
      {2, 16}, DType::F16,
      "%0 = uta.reshape %arg0 : tensor<4x8xf16> -> tensor<2x16xf16>");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.reshape(a[0], {3, 10});
      },
      "reshape: element count differs: input has 32 elements but result has "
      "30 (operand types tensor<4x8xf32>)");
  expectError(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.reshape(a[0], {-1, 8});
      },
      "reshape: shape [-1, 8] has size -1 at dimension 0; sizes must be "
      "positive");
}

TEST(GraphTest, BroadcastTo) {
  expectOp(
      {{4, 1}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.broadcastTo(a[0], {2, 4, 8});
      },
      {2, 4, 8}, DType::F32,
      "%0 = uta.broadcast_to %arg0 : tensor<4x1xf32> -> tensor<2x4x8xf32>");
  expectError(
      {{4, 3}}, DType::F32,
      [](Graph &g, const Args &a) {
        return g.broadcastTo(a[0], {4, 6});
      },
      "broadcast_to: input shape [4, 3] is not broadcastable to result shape "
      "[4, 6]: input dimension 1 has size 3 but result dimension 1 has size "
      "6 (operand types tensor<4x3xf32>)");
  expectError(
      {{2, 4}}, DType::F32,
      [](Graph &g, const Args &a) { return g.broadcastTo(a[0], {4}); },
      "broadcast_to: input rank 2 exceeds result rank 1 (operand types "
      "tensor<2x4xf32>)");
}

TEST(GraphTest, Cast) {
  expectOp(
      {{4, 8}}, DType::F32,
      [](Graph &g, const Args &a) { return g.cast(a[0], DType::BF16); }, {4, 8},
      DType::BF16, "%0 = uta.cast %arg0 : tensor<4x8xf32> -> tensor<4x8xbf16>");
  expectOp(
      {{3}}, DType::F16,
      [](Graph &g, const Args &a) { return g.cast(a[0], DType::F32); }, {3},
      DType::F32, "%0 = uta.cast %arg0 : tensor<3xf16> -> tensor<3xf32>");
  expectError(
      {{3}}, DType::F16,
      [](Graph &g, const Args &) { return g.cast(Tensor(), DType::F32); },
      "cast: input is not a valid tensor");
}

} // namespace
