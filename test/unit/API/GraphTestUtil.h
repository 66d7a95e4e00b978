//===- GraphTestUtil.h - Helpers of the graph builder tests -----*- C++ -*-===//
//
// What GraphTest.cpp, GraphTensorOpsTest.cpp and GraphCliffordOpsTest.cpp
// share: the round trip of a printed graph through the real MLIR parser
// (what utac and the JIT do with str()), and the checks of one builder's
// result (expectOp) or error (expectError).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TEST_UNIT_API_GRAPHTESTUTIL_H
#define UTA_TEST_UNIT_API_GRAPHTESTUTIL_H

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

#include <cstdint>
#include <string>
#include <vector>

namespace uta::testing {

using Shape = std::vector<int64_t>;

/// Parses `text` with the real MLIR parser in a fresh context holding the
/// dialects utac registers, verifies it, and returns it printed again ("" on
/// failure, with the diagnostic in `diagnostic`).
inline std::string parseAndPrint(const std::string &text,
                                 std::string &diagnostic) {
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
inline std::string roundTrip(const Graph &graph) {
  EXPECT_TRUE(graph.ok()) << graph.error();
  std::string text = graph.str();
  EXPECT_FALSE(text.empty());
  std::string diagnostic;
  std::string reprinted = parseAndPrint(text, diagnostic);
  EXPECT_EQ(reprinted, text) << "parse: " << diagnostic << "\n" << text;
  return text;
}

inline void expectTensor(const Tensor &t, const Shape &shape, DType dtype) {
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
  EXPECT_THAT(roundTrip(g), ::testing::HasSubstr("\n    " + line + "\n"))
      << line;
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

} // namespace uta::testing

#endif // UTA_TEST_UNIT_API_GRAPHTESTUTIL_H
