//===- NestingLimit.cpp - A bound on how deep the parser recurses ---------===//
//
// One pass over the bytes with a stack of the open brackets, skipping what
// MLIR's lexer reads as string literals, comments and names, so that a
// bracket or an operator in them never counts. `>` closes only an open `<`:
// MLIR's other `>`s (`->`, `>=` in integer sets) close nothing. A closing
// `)`, `]` or `}` also closes any `<` left open inside it, so a stray `<`
// costs depth only until its enclosing bracket closes; counting a level too
// many is safe, since the limits sit far below what overflows the stack.
//
// Operators are counted per bracket level: an affine expression's operators
// recurse whether or not parentheses come between them (`d0 + (d0) + ...`),
// and a separator (`,`, `:`, `=`), which no affine expression holds, ends
// the chain.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/NestingLimit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace mlir;
using namespace mlir::uta;

/// The bracket that `close` closes, or 0 when it closes none.
static char getOpening(char close) {
  switch (close) {
  case ')':
    return '(';
  case ']':
    return '[';
  case '}':
    return '{';
  case '>':
    return '<';
  default:
    return 0;
  }
}

/// Whether `c` continues a name after a sigil (MLIR's suffix-id: `%a-b`).
static bool isSuffixIdChar(char c) {
  return llvm::isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-';
}

/// Whether `c` continues a bare identifier (no `-`: `d0-d1` is d0 - d1).
static bool isBareIdChar(char c) {
  return llvm::isAlnum(c) || c == '$' || c == '.' || c == '_';
}

namespace {
/// The state of the scan: the open brackets and the operators so far at
/// each level (one more than the brackets: the top level).
class NestingScanner {
public:
  NestingScanner(llvm::StringRef source, unsigned depthLimit,
                 unsigned chainLimit)
      : source(source), depthLimit(depthLimit), chainLimit(chainLimit),
        operators(1, 0) {}

  std::optional<NestingViolation> scan();

private:
  NestingViolation at(size_t offset, bool operatorChain) const {
    return NestingViolation{offset, line,
                            static_cast<unsigned>(offset - lineStart + 1),
                            operatorChain};
  }
  void newLine(size_t offset) {
    ++line;
    lineStart = offset + 1;
  }
  size_t &countOf(char opening) {
    switch (opening) {
    case '(':
      return openCount[0];
    case '[':
      return openCount[1];
    case '{':
      return openCount[2];
    default:
      return openCount[3];
    }
  }
  void pop() {
    --countOf(open.back());
    open.pop_back();
    operators.pop_back();
  }

  llvm::StringRef source;
  unsigned depthLimit, chainLimit;
  std::vector<char> open;
  std::vector<unsigned> operators;
  /// How many of each opening bracket are on the stack, so that a `)` with
  /// no `(` open is ignored without searching the stack.
  size_t openCount[4] = {0, 0, 0, 0};
  unsigned line = 1;
  size_t lineStart = 0;
};
} // namespace

std::optional<NestingViolation> NestingScanner::scan() {
  size_t size = source.size();
  for (size_t i = 0; i < size; ++i) {
    char c = source[i];
    bool isOperator = false;
    switch (c) {
    case '\n':
      newLine(i);
      break;
    case '/':
      // A `//` comment runs to the end of the line.
      if (i + 1 < size && source[i + 1] == '/')
        while (i + 1 < size && source[i + 1] != '\n')
          ++i;
      break;
    case '"':
      // A string literal ends at an unescaped quote; MLIR's lexer rejects
      // a raw newline in one, so this scan ends it there too.
      for (++i; i < size && source[i] != '"' && source[i] != '\n'; ++i)
        if (source[i] == '\\')
          ++i;
      if (i < size && source[i] == '\n')
        newLine(i);
      break;
    case '%':
    case '^':
    case '#':
    case '!':
    case '@':
      while (i + 1 < size && isSuffixIdChar(source[i + 1]))
        ++i;
      break;
    case ',':
    case ':':
    case '=':
      operators.back() = 0;
      break;
    case '+':
    case '*':
      isOperator = true;
      break;
    case '-':
      isOperator = !(i + 1 < size && source[i + 1] == '>');
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (open.size() == depthLimit)
        return at(i, /*operatorChain=*/false);
      open.push_back(c);
      operators.push_back(0);
      ++countOf(c);
      break;
    case '>':
      if (!open.empty() && open.back() == '<')
        pop();
      break;
    case ')':
    case ']':
    case '}': {
      char opening = getOpening(c);
      if (countOf(opening) == 0)
        break;
      // Pops the `<`s left open inside, then the bracket itself.
      while (open.back() != opening)
        pop();
      pop();
      break;
    }
    default:
      if (llvm::isAlpha(c) || c == '_') {
        size_t start = i;
        while (i + 1 < size && isBareIdChar(source[i + 1]))
          ++i;
        llvm::StringRef word = source.slice(start, i + 1);
        bool keyword = word == "floordiv" || word == "ceildiv" || word == "mod";
        if (keyword && ++operators.back() > chainLimit)
          return at(start, /*operatorChain=*/true);
      }
      break;
    }
    if (isOperator && ++operators.back() > chainLimit)
      return at(i, /*operatorChain=*/true);
  }
  return std::nullopt;
}

std::optional<NestingViolation>
mlir::uta::findNestingPastLimit(llvm::StringRef source, unsigned depthLimit,
                                unsigned chainLimit) {
  return NestingScanner(source, depthLimit, chainLimit).scan();
}

std::optional<InputRefusal> mlir::uta::getInputRefusal(llvm::StringRef source) {
  // MLIR bytecode starts with these bytes.
  if (source.starts_with("ML\xef"
                         "R"))
    return InputRefusal{NestingViolation{},
                        "MLIR bytecode is not accepted; give the textual "
                        "form, whose nesting is checked"};
  std::optional<NestingViolation> violation = findNestingPastLimit(source);
  if (!violation)
    return std::nullopt;
  if (violation->operatorChain)
    return InputRefusal{*violation,
                        "more than " + std::to_string(kMaxOperatorChain) +
                            " operators in one expression; UTA refuses such "
                            "input (MLIR's parser recurses once per "
                            "operator)"};
  return InputRefusal{*violation,
                      "brackets nest deeper than " +
                          std::to_string(kMaxNestingDepth) +
                          " levels here; UTA refuses such input (MLIR's "
                          "parser recurses once per level)"};
}

LogicalResult mlir::uta::checkNestingDepth(llvm::StringRef source,
                                           llvm::StringRef bufferName,
                                           MLIRContext *context) {
  std::optional<InputRefusal> refusal = getInputRefusal(source);
  if (!refusal)
    return success();
  return emitError(FileLineColLoc::get(context, bufferName, refusal->at.line,
                                       refusal->at.column))
         << refusal->message;
}
