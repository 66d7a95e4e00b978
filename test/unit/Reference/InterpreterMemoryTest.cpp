//===- InterpreterMemoryTest.cpp - The reference's memory accounting ------===//
//
// The interpreter frees each value after its last read, so the peak of a
// chain does not grow with its length; the peak it measures from the
// tensors it holds equals the one estimateMemory works out from the types;
// and a graph over the budget is refused, at the op where the peak is
// reached, before anything is allocated.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/Interpreter.h"

#include "TestUtil.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <string>

using namespace mlir;
using namespace mlir::uta::reference;
using namespace mlir::uta::reference::test;

namespace {

/// Bytes of one float64 tensor<16x16>.
constexpr uint64_t kTileBytes = 16 * 16 * sizeof(double);

/// A chain of `count` ops on tensor<16x16xf32>: x + x, then that - x, and
/// so on, each reading the previous value and the argument. After an even
/// count the result is x again, exactly.
std::string makeChain(int count) {
  std::string text = "func.func @main(%x: tensor<16x16xf32>) -> "
                     "tensor<16x16xf32> {\n";
  std::string previous = "%x";
  for (int i = 0; i < count; ++i) {
    std::string name = "%v" + std::to_string(i);
    text += "  " + name + " = \"uta." + (i % 2 ? "sub" : "add") + "\"(" +
            previous +
            ", %x) : (tensor<16x16xf32>, tensor<16x16xf32>) -> "
            "tensor<16x16xf32>\n";
    previous = name;
  }
  return text + "  return " + previous + " : tensor<16x16xf32>\n}\n";
}

/// x[i] = i / 8 - 10, a 16x16 argument exact in f32 (which arguments are
/// rounded to).
RefTensor makeArgument() {
  RefTensor x{{16, 16}, {}};
  for (int i = 0; i < 256; ++i)
    x.data.push_back(i / 8.0 - 10);
  return x;
}

class ReferenceMemory : public ::testing::Test {
protected:
  ReferenceMemory() {
    DialectRegistry registry;
    registry.insert<mlir::uta::UTADialect, mlir::uta::clifford::CliffordDialect,
                    func::FuncDialect, arith::ArithDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` as "test.mlir" and returns its @main (null after a
  /// test failure). Diagnostics go to `diagnostics` as "line:col: message".
  func::FuncOp parse(const std::string &source) {
    module = parseSourceString<ModuleOp>(source, &context, "test.mlir");
    if (!module) {
      ADD_FAILURE() << "parse failed";
      return {};
    }
    return module->lookupSymbol<func::FuncOp>("main");
  }

  /// Runs `func` with `options`, collecting diagnostics.
  FailureOr<std::vector<RefTensor>> run(func::FuncOp func,
                                        ArrayRef<RefTensor> args,
                                        const InterpretOptions &options,
                                        InterpretStats *stats) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      std::string text;
      if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
        text = std::to_string(loc.getLine()) + ":" +
               std::to_string(loc.getColumn()) + ": ";
      diagnostics.push_back(text + diag.str());
      return success();
    });
    return interpret(func, args, options, stats);
  }

  /// The peak estimateMemory works out for `func` (0 after a failure).
  uint64_t estimate(func::FuncOp func) {
    FailureOr<MemoryEstimate> peak = estimateMemory(func);
    if (failed(peak)) {
      ADD_FAILURE() << "estimateMemory failed";
      return 0;
    }
    return peak->peakBytes;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> diagnostics;
};

TEST_F(ReferenceMemory, ChainPeakDoesNotGrowWithItsLength) {
  // The caller's x, the rounded x, the previous value and the result: 4
  // tiles at every length, where holding every value would take count + 2.
  for (int count : {2, 10, 500}) {
    func::FuncOp main = parse(makeChain(count));
    ASSERT_TRUE(main);
    EXPECT_EQ(estimate(main), 4 * kTileBytes) << count;
    InterpretStats stats;
    RefTensor x = makeArgument();
    FailureOr<std::vector<RefTensor>> results =
        run(main, {x}, InterpretOptions{}, &stats);
    ASSERT_TRUE(succeeded(results)) << count;
    EXPECT_EQ(stats.peakBytes, 4 * kTileBytes) << count;
    ASSERT_EQ(results->size(), 1u);
    EXPECT_TRUE(matches((*results)[0], x.shape, x.data)) << count;
  }
}

TEST_F(ReferenceMemory, MeasuredPeakEqualsTheEstimate) {
  // A value read again much later (%a) stays alive until then; a value
  // nobody reads (%dead) and an argument nobody reads (%unused) are freed
  // at once; a value returned twice is copied once.
  const char *source = R"mlir(
func.func @main(%x: tensor<16x16xf32>, %unused: tensor<4xf32>, %row: tensor<16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>) {
  %a = "uta.exp"(%x) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dead = "uta.neg"(%x) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %b = "uta.add"(%x, %row) : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  %s = "uta.reduce_sum"(%b) <{dims = array<i64: 1>, keep_dims = false}> : (tensor<16x16xf32>) -> tensor<16xf32>
  %c = "uta.mul"(%a, %s) : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  return %c, %c, %s : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>
}
)mlir";
  func::FuncOp main = parse(source);
  ASSERT_TRUE(main);
  InterpretStats stats;
  RefTensor row{{16}, std::vector<double>(16, 0.5)};
  RefTensor unused{{4}, {1, 2, 3, 4}};
  FailureOr<std::vector<RefTensor>> results =
      run(main, {makeArgument(), unused, row}, InterpretOptions{}, &stats);
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 3u);
  EXPECT_TRUE(matches((*results)[0], {16, 16}, (*results)[1].data));
  // By hand, with T a 16x16 tile, R a 16 row and U the unused argument:
  // the caller holds T + U + R throughout and the rounded arguments add as
  // much (U freed at once); %a adds T, %dead T (freed at once), %b T (then
  // x and row are freed), %s R (then %b), %c T (then %a), the copy of %c T.
  // The peak, first reached at %dead: 4T + U + 2R.
  uint64_t row16 = 16 * sizeof(double);
  uint64_t expected = 4 * kTileBytes + 4 * sizeof(double) + 2 * row16;
  EXPECT_EQ(estimate(main), expected);
  EXPECT_EQ(stats.peakBytes, expected);
}

TEST_F(ReferenceMemory, OverBudgetIsRefusedAtThePeakOp) {
  func::FuncOp main = parse(makeChain(6));
  ASSERT_TRUE(main);
  InterpretOptions options;
  options.memoryBudget = 4 * kTileBytes - 1;
  RefTensor x = makeArgument();
  EXPECT_TRUE(failed(run(main, {x}, options, nullptr)));
  // The peak is first reached computing %v1 (line 3; the op's location is
  // its name's).
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0],
            "3:9: reference interpreter: needs 8192 bytes of float64 values "
            "while computing this op (the arguments, the values still to be "
            "read and its result), over the memory budget of 8191 bytes "
            "(UTA_REFERENCE_MEMORY_BUDGET, or utac run's "
            "--reference-memory-budget)");
  options.memoryBudget = 4 * kTileBytes;
  EXPECT_TRUE(succeeded(run(main, {x}, options, nullptr)));
}

TEST_F(ReferenceMemory, HugeArgumentsAreRefusedBeforeAllocating) {
  // 2^32 elements: 64 GiB of float64 for the caller's copy and the rounded
  // one. The data is never looked at: the budget is checked first.
  func::FuncOp main = parse(R"mlir(
func.func @main(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  return %x : tensor<65536x65536xf32>
}
)mlir");
  ASSERT_TRUE(main);
  EXPECT_TRUE(failed(
      run(main, {RefTensor{{65536, 65536}, {}}}, InterpretOptions{}, nullptr)));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].find("2:1: reference interpreter: needs "
                                "68719476736 bytes of float64 values for the "
                                "arguments of @main, over the memory budget "
                                "of 4294967296 bytes"),
            std::string::npos)
      << diagnostics[0];
}

TEST_F(ReferenceMemory, ByteCountsThatOverflowAreErrors) {
  // 2^64 elements: no 64-bit count holds them (no uta op verifies a
  // function's arguments).
  func::FuncOp main = parse(R"mlir(
func.func @main(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}
)mlir");
  ASSERT_TRUE(main);
  EXPECT_TRUE(failed(estimateMemory(main)));
  diagnostics.clear();
  EXPECT_TRUE(
      failed(run(main, {RefTensor{{1}, {0}}}, InterpretOptions{}, nullptr)));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].find("do not fit a 64-bit byte count"),
            std::string::npos)
      << diagnostics[0];
}

TEST(ReferenceMemoryBudget, ParseByteSize) {
  EXPECT_EQ(parseByteSize("0"), 0u);
  EXPECT_EQ(parseByteSize("123"), 123u);
  EXPECT_EQ(parseByteSize("64K"), 65536u);
  EXPECT_EQ(parseByteSize("512m"), uint64_t(512) << 20);
  EXPECT_EQ(parseByteSize("4g"), uint64_t(4) << 30);
  EXPECT_EQ(parseByteSize("1T"), uint64_t(1) << 40);
  EXPECT_EQ(parseByteSize("18446744073709551615"), UINT64_MAX);
  for (const char *bad : {"", "K", "-1", "+1", "0x10", "1.5G", "4 G", "4GB",
                          "18446744073709551616", "17179869184G"})
    EXPECT_EQ(parseByteSize(bad), std::nullopt) << bad;
}

} // namespace
