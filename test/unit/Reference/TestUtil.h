//===- TestUtil.h - Helpers of the reference tests --------------*- C++ -*-===//
//
// Comparisons of a RefTensor with literal shapes and values, written as
// AssertionResults so that a failure names the call site, the element and
// both values.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_TEST_UNIT_REFERENCE_TESTUTIL_H
#define UTA_TEST_UNIT_REFERENCE_TESTUTIL_H

#include "lib/Reference/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace mlir::uta::reference::test {

/// The tensor, or an empty one after recording the error as a failure.
inline RefTensor get(llvm::Expected<RefTensor> result) {
  if (!result) {
    ADD_FAILURE() << "unexpected error: " << llvm::toString(result.takeError());
    return {};
  }
  return std::move(*result);
}

/// The error message, or "" after recording a failure when there was none.
inline std::string errorOf(llvm::Expected<RefTensor> result) {
  if (result) {
    ADD_FAILURE() << "expected an error, got a tensor";
    return "";
  }
  return llvm::toString(result.takeError());
}

inline std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Shape equal and every value within `relTol` * |expected| (exactly equal
/// when relTol is 0; NaN matches NaN; +0 matches -0, so tests that care
/// about the sign of a zero check std::signbit themselves).
inline ::testing::AssertionResult matches(const RefTensor &actual,
                                          const std::vector<int64_t> &shape,
                                          const std::vector<double> &values,
                                          double relTol = 0.0) {
  if (actual.shape != shape)
    return ::testing::AssertionFailure()
           << "shape " << shapeString(actual.shape) << ", expected "
           << shapeString(shape);
  if (actual.data.size() != values.size())
    return ::testing::AssertionFailure()
           << actual.data.size() << " values, expected " << values.size();
  for (size_t i = 0; i < values.size(); ++i) {
    double a = actual.data[i], e = values[i];
    bool ok;
    if (std::isnan(e))
      ok = std::isnan(a);
    else if (a == e || relTol == 0.0) // Exact, and infinities.
      ok = a == e;
    else
      ok = std::fabs(a - e) <= relTol * std::fabs(e) ||
           (e == 0.0 && std::fabs(a) <= relTol);
    if (!ok)
      return ::testing::AssertionFailure()
             << "element " << i << " is " << ::testing::PrintToString(a)
             << ", expected " << ::testing::PrintToString(e)
             << (relTol == 0.0 ? " exactly" : " within relative ")
             << (relTol == 0.0 ? "" : ::testing::PrintToString(relTol));
  }
  return ::testing::AssertionSuccess();
}

} // namespace mlir::uta::reference::test

#endif // UTA_TEST_UNIT_REFERENCE_TESTUTIL_H
