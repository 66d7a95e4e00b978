//===- OpCoverageTest.cpp - Every op has what the compiler needs ----------===//
//
// Walks every registered op of the uta and clifford dialects and checks that
// the compiler knows it everywhere it must: a fusion class
// (KernelOpInterface), for clifford ops the MultivectorOpInterface, a GPU
// kernel emitter, a reference kernel, a section in the language reference,
// and a vector-Jacobian product (VjpOpInterface) for the gradient
// transformation. An op added without one of them fails here, by name; a
// trial op shows that each check can fail.
//
//===----------------------------------------------------------------------===//

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/Interfaces/VjpOpInterface.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "lib/Reference/Interpreter.h"
#include "passes/Conversion/UTAToGPU/Gemm/GemmPlan.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The ops that deliberately have no vector-Jacobian product, each with why.
/// They only appear in gradients, and differentiating them would need
/// derivatives that the compiler does not provide; the gradient
/// transformation refuses them with a located error (docs/autodiff.md).
const std::pair<StringRef, StringRef> kVjpExemptions[] = {
    {"clifford.path_adjoint",
     "the per-position adjoint of weighted_product's weights: its gradient "
     "would be a third derivative of those weights"},
    {"clifford.pair_gate",
     "the two scalar_gates of an fc_product folded into one operand after "
     "the gradients are built (uta-fold-scalar-gates): differentiate the "
     "scalar_gates"},
    {"clifford.pair_gate_factor",
     "the gates of an fc_product passed as its gate operand after the "
     "gradients are built (uta-fold-scalar-gates): differentiate the "
     "scalar_gates"},
    {"clifford.scalar_gate_adjoint",
     "the adjoint of scalar_gate: its gradient would be the gate's second "
     "derivative, which is not provided"},
    {"clifford.grade_rms_norm_adjoint",
     "the adjoint of grade_rms_norm: its gradient would be the norm's second "
     "derivative, which is not provided"},
    {"clifford.fc_product_pair_cotangents",
     "made by uta-share-fc-adjoint-gemms from fc_product_adjoint after "
     "differentiation; fc_product's rule uses fc_product_adjoint, which has "
     "one"},
    {"clifford.fc_product_pair_adjoint",
     "made by uta-share-fc-adjoint-gemms from fc_product_adjoint after "
     "differentiation; fc_product's rule uses fc_product_adjoint, which has "
     "one"},
    {"clifford.fc_product_pair_adjoints",
     "made by uta-share-fc-adjoint-gemms from both fc_product_adjoints of "
     "one fc_product after differentiation; fc_product's rule uses "
     "fc_product_adjoint, which has one"},
};

bool isExemptFromVjp(StringRef op) {
  return llvm::any_of(kVjpExemptions, [&](const auto &exemption) {
    return exemption.first == op;
  });
}

/// What is missing for each op of `dialects`: one line per gap.
/// `checked` counts the ops looked at.
std::vector<std::string> findGaps(MLIRContext &context,
                                  ArrayRef<StringRef> dialects,
                                  const std::string &languageReference,
                                  unsigned &checked) {
  KernelEmitterRegistry emitters;
  GemmTarget target;
  target.sm = 90;
  populateKernelEmitters(emitters, target, /*remarks=*/false);

  std::vector<std::string> gaps;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    StringRef dialect = name.getDialectNamespace();
    if (!llvm::is_contained(dialects, dialect))
      continue;
    // uta.fusion and uta.yield hold and end a kernel; they compute nothing.
    if (name.hasTrait<mlir::OpTrait::IsTerminator>() ||
        name.hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
      continue;
    std::string op = name.getStringRef().str();
    ++checked;
    if (!name.hasInterface<KernelOpInterface>())
      gaps.push_back(op + ": no fusion class (KernelOpInterface)");
    if (dialect == clifford::CliffordDialect::getDialectNamespace() &&
        !name.hasInterface<clifford::MultivectorOpInterface>())
      gaps.push_back(op + ": not a MultivectorOpInterface");
    if (!emitters.lookup(name))
      gaps.push_back(op + ": no GPU kernel emitter");
    if (!reference::hasReferenceKernel(name))
      gaps.push_back(op + ": no reference kernel");
    if (languageReference.find("### `" + op + "`") == std::string::npos)
      gaps.push_back(op + ": no section in docs/language.md");
    if (!name.hasInterface<VjpOpInterface>() && !isExemptFromVjp(op))
      gaps.push_back(op + ": no vector-Jacobian product (VjpOpInterface)");
  }
  return gaps;
}

std::string readLanguageReference() {
  std::ifstream file(UTA_LANGUAGE_REFERENCE);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(OpCoverageTest, EveryOpOfBothDialectsIsKnownEverywhere) {
  MLIRContext context;
  context.loadDialect<UTADialect, clifford::CliffordDialect>();
  std::string reference = readLanguageReference();
  ASSERT_FALSE(reference.empty()) << "cannot read " UTA_LANGUAGE_REFERENCE;
  unsigned checked = 0;
  std::vector<std::string> gaps =
      findGaps(context, {"uta", "clifford"}, reference, checked);
  EXPECT_TRUE(gaps.empty()) << llvm::join(gaps, "\n");
  // The walk saw the ops (30 computing uta ops and 20 clifford ops when this
  // was written), so a dialect that failed to register any cannot pass.
  EXPECT_GE(checked, 50u);
}

// Each exemption names an op that exists and that really has no rule: if
// one gains a rule, or is renamed, its exemption must go.
TEST(OpCoverageTest, VjpExemptionsAreOpsWithoutARule) {
  MLIRContext context;
  context.loadDialect<clifford::CliffordDialect>();
  for (const auto &[op, reason] : kVjpExemptions) {
    SCOPED_TRACE(op.str());
    EXPECT_FALSE(reason.empty());
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(op, &context);
    ASSERT_TRUE(name.has_value());
    EXPECT_FALSE(name->hasInterface<VjpOpInterface>());
  }
}

//===----------------------------------------------------------------------===//
// A trial op with a fusion class and nothing else
//===----------------------------------------------------------------------===//

class TrialOp
    : public Op<
          TrialOp, mlir::OpTrait::ZeroRegions, mlir::OpTrait::OneResult,
          mlir::OpTrait::OneTypedResult<Type>::Impl,
          mlir::OpTrait::ZeroSuccessors, mlir::OpTrait::OneOperand,
          mlir::uta::OpTrait::HasFusionClass<FusionClass::Pointwise, 1>::Impl,
          KernelOpInterface::Trait> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "uta_trial.erf"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
  EmptyProperties &getProperties() { return getEmptyProperties(); }
};

class TrialDialect : public Dialect {
public:
  explicit TrialDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context, TypeID::get<TrialDialect>()) {
    addOperations<TrialOp>();
  }
  static StringRef getDialectNamespace() { return "uta_trial"; }
};

TEST(OpCoverageTest, FailsForATrialOpWithoutEmitterReferenceDocsOrVjp) {
  MLIRContext context;
  context.loadDialect<UTADialect, clifford::CliffordDialect, TrialDialect>();
  unsigned checked = 0;
  std::vector<std::string> gaps =
      findGaps(context, {"uta", "clifford", "uta_trial"},
               readLanguageReference(), checked);
  // Only the trial op's gaps; the real ops are the other test's business.
  llvm::erase_if(gaps, [](const std::string &gap) {
    return !StringRef(gap).starts_with("uta_trial.");
  });
  std::vector<std::string> expected = {
      "uta_trial.erf: no GPU kernel emitter",
      "uta_trial.erf: no reference kernel",
      "uta_trial.erf: no section in docs/language.md",
      "uta_trial.erf: no vector-Jacobian product (VjpOpInterface)"};
  EXPECT_EQ(gaps, expected);
}

} // namespace

MLIR_DECLARE_EXPLICIT_TYPE_ID(TrialDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(TrialDialect)
