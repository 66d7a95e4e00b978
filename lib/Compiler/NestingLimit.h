//===- NestingLimit.h - A bound on how deep the parser recurses -*- C++ -*-===//
//
// MLIR's parser is recursive descent: every nested region, bracketed
// attribute or type (`[[[...]]]`, `tensor<tensor<...>>`, `{{...}}`) is one
// more level of recursion, with no limit, so deep enough input overflows the
// stack. So is every operator of an affine expression (`d0 + d0 + ...`,
// `- - - d0`: the builtin affine_map and integer set syntax, which any
// input may hold). Every entry point that parses text (utac, utac run,
// uta-opt and the C++ API) first scans the buffer here, cheaply and without
// recursion, and refuses input nested past kMaxNestingDepth, or with more
// than kMaxOperatorChain operators in one expression, with an error at the
// first bracket or operator past the limit, before MLIR's parser sees it.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_COMPILER_NESTINGLIMIT_H
#define UTA_LIB_COMPILER_NESTINGLIMIT_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace mlir::uta {

/// The deepest nesting of brackets (`(`, `[`, `{`, `<`) that UTA parses. A
/// uta program nests a handful of levels; MLIR's parser overflows an 8 MiB
/// stack somewhere past 10^4.
inline constexpr unsigned kMaxNestingDepth = 256;

/// The most operators (`+`, `-`, `*`, `floordiv`, `ceildiv`, `mod`) in
/// one expression between separators (`,`, `:`, `=`) at one bracket level.
/// MLIR's parser overflows an 8 MiB stack somewhere past 5000 affine
/// operators in a row.
inline constexpr unsigned kMaxOperatorChain = 1024;

/// Where input first nests too deep.
struct NestingViolation {
  /// Byte offset, line and column (both from 1) of the opening bracket or
  /// the operator past the limit.
  size_t offset = 0;
  unsigned line = 1, column = 1;
  /// Whether an operator chain, not a bracket, went past its limit.
  bool operatorChain = false;
};

/// The first opening bracket of `source` (MLIR text) nested deeper than
/// `depthLimit`, or the first operator past `chainLimit` in one chain, or
/// std::nullopt. What is in string literals and `//` comments does not
/// count, nor a `-` in an SSA, block, symbol or alias name (`%a-b`); `>`
/// closes only an open `<` (so `->` and `>=` do not).
std::optional<NestingViolation>
findNestingPastLimit(llvm::StringRef source,
                     unsigned depthLimit = kMaxNestingDepth,
                     unsigned chainLimit = kMaxOperatorChain);

/// Why a buffer must not reach MLIR's parser, and where.
struct InputRefusal {
  NestingViolation at;
  std::string message;
};

/// The reason to refuse `source` before parsing it: MLIR bytecode (which
/// this text scan cannot bound), brackets nested past kMaxNestingDepth or
/// an operator chain past kMaxOperatorChain (at the first bracket or
/// operator past it). std::nullopt when it may be parsed.
std::optional<InputRefusal> getInputRefusal(llvm::StringRef source);

/// Fails, after an error at `bufferName`:line:col (through `context`'s
/// diagnostics), when getInputRefusal refuses `source`.
LogicalResult checkNestingDepth(llvm::StringRef source,
                                llvm::StringRef bufferName,
                                MLIRContext *context);

} // namespace mlir::uta

#endif // UTA_LIB_COMPILER_NESTINGLIMIT_H
