//===- GraphTest.cpp - Tests of the C++ graph builder ---------------------===//
//
// Every builder of include/uta/Graph.h: the result's shape and dtype, the op
// it prints, and that the printed module parses and verifies with the real
// MLIR parser (what utac and the JIT do with str()). Then the errors
// reported when an op is added, at least one per rule, and how an error
// propagates. Golden shapes, lines and messages are literals worked out by
// hand from the ops' documented rules and assembly formats (docs/dialects).
//
//===----------------------------------------------------------------------===//

#include "uta/Graph.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>

using ::testing::HasSubstr;
using uta::Algebra;
using uta::DType;
using uta::Graph;
using uta::Tensor;

namespace {

using Shape = std::vector<int64_t>;

/// Parses `text` with the real MLIR parser in a fresh context holding the
/// dialects utac registers, verifies it, and returns it printed again ("" on
/// failure, with the diagnostic in `diagnostic`).
std::string parseAndPrint(const std::string &text, std::string &diagnostic) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::uta::UTADialect, mlir::uta::clifford::CliffordDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  mlir::MLIRContext context(registry);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diagnostic.empty())
      diagnostic = diag.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return "";
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  return printed;
}

/// str() of `graph`, checked to parse, verify and print back unchanged.
std::string roundTrip(const Graph &graph) {
  EXPECT_TRUE(graph.ok()) << graph.error();
  std::string text = graph.str();
  EXPECT_FALSE(text.empty());
  std::string diagnostic;
  std::string reprinted = parseAndPrint(text, diagnostic);
  EXPECT_EQ(reprinted, text) << "parse: " << diagnostic << "\n" << text;
  return text;
}

void expectTensor(const Tensor &t, const Shape &shape, DType dtype) {
  ASSERT_TRUE(t.valid());
  EXPECT_EQ(t.shape(), shape);
  EXPECT_EQ(t.dtype(), dtype);
}

/// Builds @g over inputs of `shapes` (all `dtype`), outputs what `build`
/// returns, and checks its shape, dtype, and the printed `line`.
template <typename BuildFn>
void expectOp(const std::vector<Shape> &shapes, DType dtype, BuildFn build,
              const Shape &resultShape, DType resultDType,
              const std::string &line) {
  Graph g("g");
  std::vector<Tensor> args;
  for (const Shape &shape : shapes)
    args.push_back(g.input(shape, dtype));
  Tensor result = build(g, args);
  ASSERT_TRUE(g.ok()) << g.error();
  expectTensor(result, resultShape, resultDType);
  g.output(result);
  EXPECT_THAT(roundTrip(g), HasSubstr("\n    " + line + "\n")) << line;
}

/// Builds with `build` over inputs of `shapes`; the build must fail with an
/// error containing `message`, return an invalid tensor and refuse str().
template <typename BuildFn>
void expectError(const std::vector<Shape> &shapes, DType dtype, BuildFn build,
                 const std::string &message) {
  Graph g("g");
  std::vector<Tensor> args;
  for (const Shape &shape : shapes)
    args.push_back(g.input(shape, dtype));
  ASSERT_TRUE(g.ok()) << g.error();
  Tensor result = build(g, args);
  EXPECT_FALSE(result.valid());
  EXPECT_FALSE(g.ok());
  EXPECT_EQ(g.error(), message);
  EXPECT_EQ(g.str(), "");
}

using Args = std::vector<Tensor>;

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
// uta: elementwise
//===----------------------------------------------------------------------===//

using BinaryMethod = Tensor (Graph::*)(const Tensor &, const Tensor &);
using UnaryMethod = Tensor (Graph::*)(const Tensor &);

TEST(GraphTest, BinaryElementwise) {
  std::pair<const char *, BinaryMethod> ops[] = {
      {"add", &Graph::add}, {"sub", &Graph::sub}, {"mul", &Graph::mul},
      {"div", &Graph::div}, {"max", &Graph::max}, {"min", &Graph::min}};
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
      {"neg", &Graph::neg},   {"abs", &Graph::abs},
      {"exp", &Graph::exp},   {"log", &Graph::log},
      {"sqrt", &Graph::sqrt}, {"rsqrt", &Graph::rsqrt},
      {"tanh", &Graph::tanh}, {"sigmoid", &Graph::sigmoid},
      {"relu", &Graph::relu}, {"silu", &Graph::silu}};
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

} // namespace
