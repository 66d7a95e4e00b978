//===- GradientCheckTest.cpp - Tests of utac run's gradient check ---------===//
//
// checkGradients (lib/Driver/Gradient.h) on hand-written forward and
// gradient functions: a correct gradient passes, a wrong one fails at the
// element that is off, elements within a step of a kink are skipped and
// counted, and a check that skipped every element fails.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/Gradient.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uta;

namespace {

/// @f(x) = exp(x) on 4 elements with three candidate gradients:
/// @right = g exp(x), @wrong = g (exp'(x) taken as 1), @relu_right for
/// @relu_f(x) = relu(x).
constexpr const char *kModule = R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = uta.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @right(%x: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32> {
  %y = uta.exp %x : tensor<4xf32>
  %d = uta.mul %g, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @wrong(%x: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32> {
  return %g : tensor<4xf32>
}
func.func @two_f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = uta.exp %x : tensor<4xf32>
  %z = uta.log %x : tensor<4xf32>
  return %y, %z : tensor<4xf32>, tensor<4xf32>
}
func.func @two_right(%x: tensor<4xf32>, %g: tensor<4xf32>, %h: tensor<4xf32>) -> tensor<4xf32> {
  %y = uta.exp %x : tensor<4xf32>
  %d = uta.mul %g, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %q = uta.div %h, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = uta.add %d, %q : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @relu_f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = uta.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @relu_right(%x: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32> {
  %s = uta.sign %x : tensor<4xf32>
  %m = uta.relu %s : tensor<4xf32>
  %d = uta.mul %g, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
)mlir";

class GradientCheck : public ::testing::Test {
protected:
  GradientCheck() {
    context.loadDialect<UTADialect, clifford::CliffordDialect,
                        func::FuncDialect, arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(kModule, &context);
  }

  /// Runs the check of @forward against @gradient on x, with cotangent
  /// (1, -2, 0.5, 3) for each of its `results`; the report goes to
  /// `report`.
  FailureOr<bool> check(StringRef forward, StringRef gradient,
                        std::vector<double> x, unsigned results = 1) {
    report.clear();
    llvm::raw_string_ostream os(report);
    GradientCheckOptions options;
    options.wrt = {0};
    options.memoryBudget = uint64_t(1) << 30;
    std::vector<std::vector<double>> arguments = {x};
    arguments.resize(1 + results, {1, -2, 0.5, 3});
    return checkGradients(
        module->lookupSymbol<func::FuncOp>(forward),
        referenceVjp(module->lookupSymbol<func::FuncOp>(gradient),
                     options.memoryBudget),
        arguments, options, os);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string report;
};

TEST_F(GradientCheck, ARightGradientPasses) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("f", "right", {0.5, -1.25, 2, 0.125});
  ASSERT_TRUE(succeeded(passed));
  EXPECT_TRUE(*passed) << report;
  EXPECT_NE(report.find("4 of 4 elements"), std::string::npos) << report;
  EXPECT_NE(report.find(": ok"), std::string::npos) << report;
}

TEST_F(GradientCheck, AWrongGradientFails) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("f", "wrong", {0.5, -1.25, 2, 0.125});
  ASSERT_TRUE(succeeded(passed));
  EXPECT_FALSE(*passed) << report;
  EXPECT_NE(report.find("FAILED"), std::string::npos) << report;
}

TEST_F(GradientCheck, ElementsAtAKinkAreSkippedAndCounted) {
  ASSERT_TRUE(module);
  // relu's kink at 0: the third element sits on it.
  FailureOr<bool> passed = check("relu_f", "relu_right", {0.5, -1.25, 0, 2});
  ASSERT_TRUE(succeeded(passed));
  EXPECT_TRUE(*passed) << report;
  EXPECT_NE(report.find("3 of 4 elements (1 more within a step of a kink"),
            std::string::npos)
      << report;
}

TEST_F(GradientCheck, ACheckThatSkippedEverythingFails) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("relu_f", "relu_right", {0, 0, 0, 0});
  ASSERT_TRUE(succeeded(passed));
  EXPECT_FALSE(*passed) << report;
  EXPECT_NE(report.find("0 of 4 elements (4 more"), std::string::npos)
      << report;
}

TEST_F(GradientCheck, TwoFiniteResultsAreEachChecked) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("two_f", "two_right", {0.5, 1.25, 2, 0.125},
                                 /*results=*/2);
  ASSERT_TRUE(succeeded(passed));
  EXPECT_TRUE(*passed) << report;
  EXPECT_NE(report.find("4 of 4 elements"), std::string::npos) << report;
}

// log(x) is NaN at a negative x: that result is reported as not finite and
// left out, and exp's gradient is still checked. Summing both results made
// every difference NaN, reported as a gradient mismatch.
TEST_F(GradientCheck, ANonFiniteResultIsReportedNotAMismatch) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("two_f", "two_right", {0.5, -1.25, 2, 0.125},
                                 /*results=*/2);
  ASSERT_TRUE(succeeded(passed));
  EXPECT_TRUE(*passed) << report;
  EXPECT_NE(report.find("result1: 1 of 4 values are NaN or infinite"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("grad0 (argument #0): 4 of 4 elements"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("FAILED"), std::string::npos) << report;
}

TEST_F(GradientCheck, NoFiniteResultIsAFailureThatSaysSo) {
  ASSERT_TRUE(module);
  FailureOr<bool> passed = check("two_f", "two_right", {-0.5, -1.25, 2, 0.125},
                                 /*results=*/2);
  ASSERT_TRUE(succeeded(passed));
  // exp is finite everywhere: its gradient is checked, log's is not.
  EXPECT_TRUE(*passed) << report;
  FailureOr<bool> none = check("f", "right", {1000, 0.5, 2, 0.125});
  ASSERT_TRUE(succeeded(none));
  EXPECT_FALSE(*none) << report;
  EXPECT_NE(report.find("result0: 1 of 4 values are NaN or infinite"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("no result is finite"), std::string::npos) << report;
}

} // namespace
