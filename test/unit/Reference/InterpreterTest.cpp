//===- InterpreterTest.cpp - Tests of the reference interpreter -----------===//
//
// Parses small programs in MLIR's generic form (which every op must accept)
// and checks the interpreter's outputs against hand-worked values, its
// handling of constants and argument types, and that what it cannot run is
// reported at the offending op's file:line:col.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/Interpreter.h"

#include "TestUtil.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::uta::reference;
using namespace mlir::uta::reference::test;

namespace {

class ReferenceInterpreter : public ::testing::Test {
protected:
  ReferenceInterpreter() {
    DialectRegistry registry;
    registry.insert<mlir::uta::UTADialect, mlir::uta::clifford::CliffordDialect,
                    func::FuncDialect, arith::ArithDialect,
                    tensor::TensorDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` as "test.mlir" (verified unless `verify` is false) and
  /// runs its function @main on `args`. Diagnostics are collected as
  /// "file:line:col: message" in `diagnostics`.
  FailureOr<std::vector<RefTensor>>
  run(StringRef source, ArrayRef<RefTensor> args, bool verify = true) {
    diagnostics.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      std::string text;
      if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
        text = loc.getFilename().str() + ":" + std::to_string(loc.getLine()) +
               ":" + std::to_string(loc.getColumn()) + ": ";
      diagnostics.push_back(text + diag.str());
      return success();
    });
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context, verify),
                                         "test.mlir");
    if (!module) {
      ADD_FAILURE() << "parse failed: "
                    << (diagnostics.empty() ? "" : diagnostics.front());
      return failure();
    }
    auto main = module->lookupSymbol<func::FuncOp>("main");
    if (!main) {
      ADD_FAILURE() << "no @main";
      return failure();
    }
    return interpret(main, args);
  }

  /// The single result of a run that must succeed.
  RefTensor runOne(StringRef source, ArrayRef<RefTensor> args) {
    FailureOr<std::vector<RefTensor>> results = run(source, args);
    if (failed(results)) {
      ADD_FAILURE() << "interpretation failed: "
                    << (diagnostics.empty() ? "" : diagnostics.front());
      return {};
    }
    if (results->size() != 1) {
      ADD_FAILURE() << results->size() << " results";
      return {};
    }
    return std::move(results->front());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> diagnostics;
};

const double kInf = std::numeric_limits<double>::infinity();

TEST_F(ReferenceInterpreter, ElementwiseChainWithBroadcast) {
  // relu((a + b) * 2 - 3) with b a row broadcast over a.
  const char *source = R"mlir(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %two = arith.constant dense<2.0> : tensor<f32>
  %three = arith.constant dense<3.0> : tensor<1x1xf32>
  %0 = "uta.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "uta.mul"(%0, %two) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = "uta.sub"(%1, %three) : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %3 = "uta.relu"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}
)mlir";
  RefTensor a{{2, 3}, {1, 2, 3, -4, -5, -6}};
  RefTensor b{{3}, {0.5, 0, 1}};
  // a + b = (1.5, 2, 4, -3.5, -5, -5); * 2 - 3 = (0, 1, 5, -10, -13, -13).
  EXPECT_TRUE(matches(runOne(source, {a, b}), {2, 3}, {0, 1, 5, 0, 0, 0}));
}

TEST_F(ReferenceInterpreter, UnaryOpsAndGeluForms) {
  const char *source = R"mlir(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "uta.gelu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "uta.gelu"(%x) {tanh_approximation = true} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "uta.sigmoid"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "uta.rsqrt"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "uta.max"(%x, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
)mlir";
  FailureOr<std::vector<RefTensor>> results =
      run(source, {RefTensor{{2}, {1, 4}}});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 5u);
  // gelu(4) = 4 Phi(4), Phi(4) = 0.9999683287581669.
  EXPECT_TRUE(matches((*results)[0], {2},
                      {0.8413447460685429, 3.9998733150326675}, 1e-15));
  EXPECT_TRUE(matches((*results)[1], {2},
                      {0.8411919906082767, 3.9999297540518075}, 1e-14));
  EXPECT_TRUE(matches((*results)[2], {2},
                      {0.7310585786300049, 0.9820137900379085}, 1e-15));
  EXPECT_TRUE(matches((*results)[3], {2}, {1, 0.5}));
  EXPECT_TRUE(matches((*results)[4], {2}, {1, 4}));
}

TEST_F(ReferenceInterpreter, EveryOtherElementwiseOp) {
  // Each op once, so that a wrong dispatch (min run as max, ...) shows.
  const char *source = R"mlir(
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "uta.div"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "uta.min"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "uta.neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "uta.abs"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "uta.exp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %5 = "uta.log"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %6 = "uta.sqrt"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %7 = "uta.tanh"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %8 = "uta.silu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
)mlir";
  FailureOr<std::vector<RefTensor>> results =
      run(source, {RefTensor{{2}, {-1, 4}}, RefTensor{{2}, {2, 8}}});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 9u);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(matches((*results)[0], {2}, {-0.5, 0.5}));
  EXPECT_TRUE(matches((*results)[1], {2}, {-1, 4}));
  EXPECT_TRUE(matches((*results)[2], {2}, {1, -4}));
  EXPECT_TRUE(matches((*results)[3], {2}, {1, 4}));
  EXPECT_TRUE(matches((*results)[4], {2},
                      {0.36787944117144233, 54.598150033144236}, 1e-15));
  EXPECT_TRUE(matches((*results)[5], {2}, {nan, 1.3862943611198906}, 1e-15));
  EXPECT_TRUE(matches((*results)[6], {2}, {nan, 2}));
  EXPECT_TRUE(matches((*results)[7], {2},
                      {-0.7615941559557649, 0.999329299739067}, 1e-15));
  EXPECT_TRUE(matches((*results)[8], {2},
                      {-0.2689414213699951, 3.928055160151634}, 1e-15));
}

TEST_F(ReferenceInterpreter, MatmulTransposeBAndBatchBroadcast) {
  // a [2, 1, 2] against b [N = 3, K = 2] with transpose_b.
  const char *source = R"mlir(
func.func @main(%a: tensor<2x1x2xf32>, %b: tensor<3x2xf32>) -> tensor<2x1x3xf32> {
  %0 = "uta.matmul"(%a, %b) {transpose_b = true} : (tensor<2x1x2xf32>, tensor<3x2xf32>) -> tensor<2x1x3xf32>
  return %0 : tensor<2x1x3xf32>
}
)mlir";
  RefTensor a{{2, 1, 2}, {1, 2, 3, 4}};
  RefTensor b{{3, 2}, {1, 0, 0, 1, 1, -1}};
  EXPECT_TRUE(matches(runOne(source, {a, b}), {2, 1, 3}, {1, 2, -1, 3, 4, -1}));
}

TEST_F(ReferenceInterpreter, ReductionsSoftmaxTranspose) {
  const char *source = R"mlir(
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<3xf32>, tensor<f32>, tensor<3x2xf32>, tensor<2x3xf32>) {
  %0 = "uta.reduce_sum"(%x) {dims = array<i64: 1>, keep_dims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = "uta.reduce_max"(%x) {dims = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  %2 = "uta.reduce_mean"(%x) {dims = array<i64: 0, 1>, keep_dims = false} : (tensor<2x3xf32>) -> tensor<f32>
  %3 = "uta.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = "uta.softmax"(%x) {dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x1xf32>, tensor<3xf32>, tensor<f32>, tensor<3x2xf32>, tensor<2x3xf32>
}
)mlir";
  // x is rounded to f32 on the way in: ln 2 becomes ln2f. Softmax row 0 is
  // e^(x - 3) / (e^-2 + e^-1 + 1); row 1 is (1, 1, e^ln2f) / (2 + e^ln2f).
  RefTensor x{{2, 3}, {1, 2, 3, 0, 0, 0.6931471805599453}};
  FailureOr<std::vector<RefTensor>> results = run(source, {x});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 5u);
  const double ln2f = 0x1.62e43p-1;
  EXPECT_TRUE(matches((*results)[0], {2, 1}, {6, ln2f}));
  EXPECT_TRUE(matches((*results)[1], {3}, {1, 2, 3}));
  EXPECT_TRUE(matches((*results)[2], {}, {1.1155245304107666}, 1e-15));
  EXPECT_TRUE(matches((*results)[3], {3, 2}, {1, 0, 2, 0, 3, ln2f}));
  EXPECT_TRUE(
      matches((*results)[4], {2, 3},
              {0.09003057317038046, 0.24472847105479764, 0.6652409557748219,
               0.24999999976191822, 0.24999999976191822, 0.5000000004761636},
              1e-15));
}

TEST_F(ReferenceInterpreter, TransposeRoundsToTf32ToNearestEven) {
  // TF32 keeps 10 mantissa bits: near 1 its unit is 2^-10. 1 + 2^-11 is a
  // tie that goes to the even 1; 1 + 3 * 2^-11 one that goes to the even
  // 1 + 2^-9; 1 + 2^-11 + 2^-20 lies above the tie; NaN stays NaN.
  const char *source = R"mlir(
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "uta.transpose"(%x) {permutation = array<i64: 1, 0>, round_to_tf32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
)mlir";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RefTensor x{{2, 2},
              {1 + 0x1p-11, 1 + 3 * 0x1p-11, -(1 + 0x1p-11 + 0x1p-20), nan}};
  EXPECT_TRUE(matches(runOne(source, {x}), {2, 2},
                      {1, -(1 + 0x1p-10), 1 + 0x1p-9, nan}));
}

TEST_F(ReferenceInterpreter, LayerNormUsesTheF32DefaultEpsilon) {
  // (1, 3): mean 2, biased variance 1; epsilon is the f32 nearest 1e-5,
  // 9.999999747378752e-06, so y = (-1, 1) / sqrt(1 + that).
  const char *source = R"mlir(
func.func @main(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[0.0, 0.5]> : tensor<2xf32>
  %0 = "uta.layer_norm"(%x, %w, %b) {axis = 1 : i64} : (tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
)mlir";
  const double s = 0.999995000037626;
  EXPECT_TRUE(matches(runOne(source, {RefTensor{{1, 2}, {1, 3}}}), {1, 2},
                      {-s, 2 * s + 0.5}, 1e-15));
}

TEST_F(ReferenceInterpreter, ReshapeBroadcastCast) {
  const char *source = R"mlir(
func.func @main(%x: tensor<2x2xf32>) -> (tensor<4xf32>, tensor<3x2x2xf32>, tensor<2x2xf16>, tensor<2x2xbf16>) {
  %0 = "uta.reshape"(%x) : (tensor<2x2xf32>) -> tensor<4xf32>
  %1 = "uta.broadcast_to"(%x) : (tensor<2x2xf32>) -> tensor<3x2x2xf32>
  %2 = "uta.cast"(%x) : (tensor<2x2xf32>) -> tensor<2x2xf16>
  %3 = "uta.cast"(%x) : (tensor<2x2xf32>) -> tensor<2x2xbf16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<3x2x2xf32>, tensor<2x2xf16>, tensor<2x2xbf16>
}
)mlir";
  // The argument is rounded to f32 first: 0.1 -> 0x1.99999ap-4; that value
  // then rounds to f16 0x1.998p-4 and to bf16 0x1.9ap-4.
  RefTensor x{{2, 2}, {0.1, 70000, -2, 0x1.006p0}};
  FailureOr<std::vector<RefTensor>> results = run(source, {x});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 4u);
  const double tenth = 0x1.99999ap-4;
  EXPECT_TRUE(matches((*results)[0], {4}, {tenth, 70000, -2, 0x1.006p0}));
  std::vector<double> repeated;
  for (int i = 0; i < 3; ++i)
    repeated.insert(repeated.end(), {tenth, 70000, -2, 0x1.006p0});
  EXPECT_TRUE(matches((*results)[1], {3, 2, 2}, repeated));
  EXPECT_TRUE(
      matches((*results)[2], {2, 2}, {0x1.998p-4, kInf, -2, 0x1.008p0}));
  EXPECT_TRUE(matches((*results)[3], {2, 2}, {0x1.9ap-4, 70144, -2, 1}));
}

TEST_F(ReferenceInterpreter, HalfPrecisionArgumentsAndConstants) {
  // Arguments are rounded to their element type; f16 and bf16 constants are
  // read exactly; nothing rounds the f16 add itself.
  const char *source = R"mlir(
func.func @main(%h: tensor<2xf16>, %g: tensor<2xbf16>) -> (tensor<2xf16>, tensor<2xbf16>, tensor<2xf16>) {
  %c = arith.constant dense<[0.1, 65504.0]> : tensor<2xf16>
  %d = arith.constant dense<0.1> : tensor<2xbf16>
  %0 = "uta.add"(%h, %c) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %1 = "uta.mul"(%g, %d) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  return %0, %1, %h : tensor<2xf16>, tensor<2xbf16>, tensor<2xf16>
}
)mlir";
  RefTensor h{{2}, {0.1, 1}};
  RefTensor g{{2}, {0x1.01p0, 3}};
  FailureOr<std::vector<RefTensor>> results = run(source, {h, g});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 3u);
  // f16(0.1) = 0.0999755859375; f16 0.1 + 0.1 = 0.199951171875 exactly;
  // 1 + 65504 = 65505 stays unrounded (f16 would give 65504).
  EXPECT_TRUE(matches((*results)[0], {2}, {0.199951171875, 65505}));
  // bf16(1 + 2^-8) = 1 (tie to even); bf16(0.1) = 0.10009765625.
  EXPECT_TRUE(matches((*results)[1], {2}, {0.10009765625, 3 * 0.10009765625}));
  EXPECT_TRUE(matches((*results)[2], {2}, {0.0999755859375, 1}));
}

TEST_F(ReferenceInterpreter, DenseResourceConstants) {
  // Blobs are a 4-byte alignment, then little-endian elements: f32 1.0 is
  // 0x3F800000, -2.0 is 0xC0000000; f16 1.0 is 0x3C00, 0.5 is 0x3800.
  const char *source = R"mlir(
func.func @main() -> (tensor<2xf32>, tensor<2xf16>) {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  %1 = arith.constant dense_resource<blob2> : tensor<2xf16>
  return %0, %1 : tensor<2xf32>, tensor<2xf16>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F000000C0",
      blob2: "0x02000000003C0038"
    }
  }
#-}
)mlir";
  FailureOr<std::vector<RefTensor>> results = run(source, {});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 2u);
  EXPECT_TRUE(matches((*results)[0], {2}, {1, -2}));
  EXPECT_TRUE(matches((*results)[1], {2}, {1, 0.5}));
}

TEST_F(ReferenceInterpreter, CliffordProductsAndInvolutions) {
  const char *source = R"mlir(
func.func @main(%x: tensor<4x1xf32>, %y: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<1x2xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %0 = "clifford.geometric_product"(%x, %y) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = "clifford.scalar_product"(%x, %y) {algebra = #clifford.algebra<2, 0, 0>, blade_axis = 0 : i64} : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %2 = "clifford.reverse"(%x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %3 = "clifford.dual"(%x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %4 = "clifford.grade_project"(%x) {algebra = #clifford.algebra<2, 0, 0>, grades = array<i64: 1>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %0, %1, %2, %3, %4 : tensor<4x2xf32>, tensor<1x2xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}
)mlir";
  // x = 1 + 2e1 + 3e2 + 4e12; y columns: 5 + 6e1 + 7e2 + 8e12 and e12.
  // x y = (6, 20, 14, 24); x e12 = e12 + 2e2 - 3e1 - 4 = (-4, -3, 2, 1).
  RefTensor x{{4, 1}, {1, 2, 3, 4}};
  RefTensor y{{4, 2}, {5, 0, 6, 0, 7, 0, 8, 1}};
  FailureOr<std::vector<RefTensor>> results = run(source, {x, y});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 5u);
  EXPECT_TRUE(matches((*results)[0], {4, 2}, {6, -4, 20, -3, 14, 2, 24, 1}));
  EXPECT_TRUE(matches((*results)[1], {1, 2}, {6, -4}));
  EXPECT_TRUE(matches((*results)[2], {4, 1}, {1, 2, 3, -4}));
  EXPECT_TRUE(matches((*results)[3], {4, 1}, {4, 3, -2, -1}));
  EXPECT_TRUE(matches((*results)[4], {4, 1}, {0, 2, 3, 0}));
}

TEST_F(ReferenceInterpreter, CliffordOuterContractionInvolutions) {
  const char *source = R"mlir(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "clifford.outer_product"(%x, %y) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "clifford.left_contraction"(%x, %y) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "clifford.grade_involution"(%x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "clifford.conjugate"(%x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
)mlir";
  // x = 1 + 2e1 + 3e2 + 4e12, y = 5 + 6e1 + 7e2 + 8e12 (worked out in
  // CliffordKernelsTest): x ^ y = (5, 16, 22, 24), x _| y = (6, -18, 23, 8).
  FailureOr<std::vector<RefTensor>> results =
      run(source, {RefTensor{{4}, {1, 2, 3, 4}}, RefTensor{{4}, {5, 6, 7, 8}}});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 4u);
  EXPECT_TRUE(matches((*results)[0], {4}, {5, 16, 22, 24}));
  EXPECT_TRUE(matches((*results)[1], {4}, {6, -18, 23, 8}));
  EXPECT_TRUE(matches((*results)[2], {4}, {1, -2, -3, 4}));
  EXPECT_TRUE(matches((*results)[3], {4}, {1, -2, -3, -4}));
}

TEST_F(ReferenceInterpreter, CliffordSandwichBladeAxisLast) {
  // R = 1 - e12 in Cl(3,0) with the blades last: e1 -> 2e2, e2 -> -2e1.
  const char *source = R"mlir(
func.func @main(%r: tensor<1x8xf32>, %x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = "clifford.sandwich"(%r, %x) {algebra = #clifford.algebra<3, 0, 0>, blade_axis = 1 : i64} : (tensor<1x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
)mlir";
  RefTensor r{{1, 8}, {1, 0, 0, 0, -1, 0, 0, 0}};
  RefTensor x{{2, 8}, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}};
  EXPECT_TRUE(matches(runOne(source, {r, x}), {2, 8},
                      {0, 0, 2, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0}));
}

TEST_F(ReferenceInterpreter, FlashCliffordSgpLayer) {
  // SGP = grade_rms_norm(weighted_product(scalar_gate(x), scalar_gate(y), w))
  // in Cl(2,0) with B = F = 1. x = 2e1 and y = 2e2 have scalar part 0, so
  // the gates halve them: e1 e2 = e12 on path 6 (1,2,1), weight 3, gives
  // 3 e12. The grade norm with the default f32 epsilon 9.999999974752427e-07
  // leaves 0 for grades 0 and 1 and 3 / sqrt(9 + epsilon) for grade 2.
  const char *source = R"mlir(
func.func @main(%x: tensor<4x1x1xf32>, %y: tensor<4x1x1xf32>, %w: tensor<1x10xf32>) -> tensor<4x1x1xf32> {
  %gx = "clifford.scalar_gate"(%x) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %gy = "clifford.scalar_gate"(%y) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %p = "clifford.weighted_product"(%gx, %gy, %w) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<1x10xf32>) -> tensor<4x1x1xf32>
  %n = "clifford.grade_rms_norm"(%p) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  return %n : tensor<4x1x1xf32>
}
)mlir";
  RefTensor x{{4, 1, 1}, {0, 2, 0, 0}};
  RefTensor y{{4, 1, 1}, {0, 0, 2, 0}};
  RefTensor w{{1, 10}, {1, 1, 1, 1, 1, 1, 3, 1, 1, 1}};
  EXPECT_TRUE(matches(runOne(source, {x, y, w}), {4, 1, 1},
                      {0, 0, 0, 0.9999999444444492}, 1e-15));
}

TEST_F(ReferenceInterpreter, FcProductAndExplicitEpsilon) {
  // fc_product with Fin = 1, Fout = 2 and w[p][0][o] = o + 1 is (1, 2) x y;
  // x = 1 + 2e1 + 3e2 + 4e12, y = 5 + 6e1 + 7e2 + 8e12, x y = (6,20,14,24).
  // Then grade_rms_norm with epsilon 0 over F = 2: grade 0 has
  // (6^2 + 12^2)/2 = 90; grade 1 (20^2+40^2+14^2+28^2)/2 = 1490; grade 2
  // (24^2 + 48^2)/2 = 1440.
  const char *source = R"mlir(
func.func @main(%x: tensor<4x1x1xf32>, %y: tensor<4x1x1xf32>, %w: tensor<10x1x2xf32>) -> tensor<4x1x2xf32> {
  %p = "clifford.fc_product"(%x, %y, %w) {algebra = #clifford.algebra<2, 0, 0>} : (tensor<4x1x1xf32>, tensor<4x1x1xf32>, tensor<10x1x2xf32>) -> tensor<4x1x2xf32>
  %n = "clifford.grade_rms_norm"(%p) {algebra = #clifford.algebra<2, 0, 0>, epsilon = 0.0 : f32} : (tensor<4x1x2xf32>) -> tensor<4x1x2xf32>
  return %n : tensor<4x1x2xf32>
}
)mlir";
  RefTensor x{{4, 1, 1}, {1, 2, 3, 4}};
  RefTensor y{{4, 1, 1}, {5, 6, 7, 8}};
  RefTensor w{{10, 1, 2}, {}};
  for (int p = 0; p < 10; ++p)
    w.data.insert(w.data.end(), {1, 2});
  double g0 = std::sqrt(90.0), g1 = std::sqrt(1490.0), g2 = std::sqrt(1440.0);
  EXPECT_TRUE(matches(
      runOne(source, {x, y, w}), {4, 1, 2},
      {6 / g0, 12 / g0, 20 / g1, 40 / g1, 14 / g1, 28 / g1, 24 / g2, 48 / g2},
      1e-15));
}

TEST_F(ReferenceInterpreter, UnknownOpIsALocatedError) {
  const char *source = R"mlir(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "uta.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = arith.addf %0, %a : tensor<2xf32>
  return %1 : tensor<2xf32>
}
)mlir";
  EXPECT_TRUE(failed(run(source, {RefTensor{{2}, {1, 2}}})));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "test.mlir:4:8: 'arith.addf' op is not supported "
                            "by the reference interpreter");
}

TEST_F(ReferenceInterpreter, ArgumentMismatchesAreErrors) {
  const char *source = R"mlir(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
)mlir";
  EXPECT_TRUE(failed(run(source, {})));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "test.mlir:2:1: reference interpreter: @main "
                            "takes 1 arguments but 0 were given");
  EXPECT_TRUE(failed(run(source, {RefTensor{{3}, {1, 2, 3}}})));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0],
            "test.mlir:2:1: reference interpreter: argument 0 has shape [3] "
            "and 3 values but the function takes 'tensor<2xf32>'");
  // A pass-through function returns its (f32-rounded) argument.
  EXPECT_TRUE(matches(runOne(source, {RefTensor{{2}, {0.1, 2}}}), {2},
                      {0x1.99999ap-4, 2}));
}

TEST_F(ReferenceInterpreter, KernelErrorsAreLocated) {
  // The verifier rejects a dual in a degenerate algebra. Parsed without
  // verification, the op reaches the interpreter, which must refuse it at
  // the op rather than compute something.
  const char *source = R"mlir(
func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "clifford.dual"(%a) {algebra = #clifford.algebra<3, 0, 1>} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
)mlir";
  RefTensor a{{16}, std::vector<double>(16, 1)};
  EXPECT_TRUE(failed(run(source, {a}, /*verify=*/false)));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "test.mlir:3:8: 'clifford.dual' op reference "
                            "interpreter: the dual is undefined in the "
                            "degenerate algebra Cl(3, 0, 1)");

  // A result type that disagrees with the computed shape is caught too.
  const char *badShape = R"mlir(
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = "uta.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
)mlir";
  RefTensor b{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_TRUE(failed(run(badShape, {b}, /*verify=*/false)));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0], "test.mlir:3:8: 'uta.transpose' op reference "
                            "interpreter computed shape [3, 2] but the "
                            "result type is 'tensor<3x3xf32>'");
}

} // namespace
