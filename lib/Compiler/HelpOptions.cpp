//===- HelpOptions.cpp - What the tools' --help shows ---------------------===//

#include "lib/Compiler/HelpOptions.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

/// --help, --help-hidden, --help-list, --version and their kin: always
/// shown.
static bool isHelpOption(const cl::Option &option) {
  return option.ArgStr.starts_with("help") || option.ArgStr == "version" ||
         option.ArgStr.starts_with("print-options") ||
         option.ArgStr.starts_with("print-all-options");
}

static void hideIf(function_ref<bool(const cl::Option &)> hide) {
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (!isHelpOption(*option) && hide(*option) &&
        option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
}

void mlir::uta::hideOptionsOutside(ArrayRef<const cl::OptionCategory *> shown) {
  hideIf([&](const cl::Option &option) {
    return llvm::none_of(option.Categories, [&](cl::OptionCategory *category) {
      return llvm::is_contained(shown, category);
    });
  });
}

void mlir::uta::hideOptionsRegisteredSoFar() {
  hideIf([](const cl::Option &) { return true; });
}
