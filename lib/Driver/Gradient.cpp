//===- Gradient.cpp - utac's gradient flags and the gradient check --------===//

#include "lib/Driver/Gradient.h"

#include "lib/Reference/Interpreter.h"
#include "passes/Transforms/Passes.h"

#include "lib/Compiler/Compile.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::uta;

std::optional<GradientMode> mlir::uta::parseGradientMode(StringRef text) {
  if (text.empty())
    return GradientMode::None;
  if (text == "vjp")
    return GradientMode::Vjp;
  if (text == "joint")
    return GradientMode::Joint;
  if (text == "forward")
    return GradientMode::Forward;
  if (text == "backward")
    return GradientMode::Backward;
  if (text == "pair")
    return GradientMode::Pair;
  return std::nullopt;
}

LogicalResult mlir::uta::applyGradientMode(ModuleOp module, std::string &entry,
                                           GradientMode mode,
                                           ArrayRef<unsigned> wrt,
                                           bool remarks) {
  if (mode == GradientMode::None)
    return success();
  FailureOr<func::FuncOp> forward = selectEntry(module, entry);
  if (failed(forward))
    return failure();
  if (mode == GradientMode::Forward || mode == GradientMode::Backward ||
      mode == GradientMode::Pair) {
    TrainingPairOptions options;
    options.wrt.assign(wrt.begin(), wrt.end());
    options.remarks = remarks;
    FailureOr<TrainingPair> pair = buildTrainingPair(*forward, options);
    if (failed(pair))
      return failure();
    forward->setPrivate();
    func::FuncOp chosen =
        mode == GradientMode::Backward ? pair->backward : pair->forward;
    (chosen == pair->forward ? pair->backward : pair->forward).setPrivate();
    entry = chosen.getName().str();
    return success();
  }
  DifferentiateOptions options;
  options.wrt.assign(wrt.begin(), wrt.end());
  options.joint = mode == GradientMode::Joint;
  options.remarks = remarks;
  FailureOr<func::FuncOp> gradient = buildGradientFunction(*forward, options);
  if (failed(gradient))
    return failure();
  forward->setPrivate();
  entry = gradient->getName().str();
  return success();
}

using reference::RefTensor;

ReferenceGradient mlir::uta::referenceVjp(func::FuncOp vjp,
                                          uint64_t memoryBudget) {
  return [=](ArrayRef<RefTensor> inputs, ArrayRef<RefTensor> cotangents) mutable
         -> FailureOr<std::vector<RefTensor>> {
    std::vector<RefTensor> arguments(inputs.begin(), inputs.end());
    llvm::append_range(arguments, cotangents);
    reference::InterpretOptions options;
    options.memoryBudget = memoryBudget;
    return reference::interpret(vjp, arguments, options);
  };
}

ReferenceGradient mlir::uta::referencePair(func::FuncOp forward,
                                           func::FuncOp backward,
                                           uint64_t memoryBudget,
                                           std::vector<RefTensor> *results) {
  return [=](ArrayRef<RefTensor> inputs, ArrayRef<RefTensor> cotangents) mutable
         -> FailureOr<std::vector<RefTensor>> {
    reference::InterpretOptions options;
    options.memoryBudget = memoryBudget;
    FailureOr<std::vector<RefTensor>> outputs =
        reference::interpret(forward, inputs, options);
    if (failed(outputs))
      return failure();
    std::vector<RefTensor> arguments;
    auto saved = backward->getAttrOfType<DenseI64ArrayAttr>("uta.saved");
    if (!saved)
      return backward.emitError() << "@" << backward.getName()
                                  << " has no uta.saved attribute: it is not "
                                     "the backward of a training pair";
    for (int64_t index : saved.asArrayRef()) {
      if (index < 0 || size_t(index) >= inputs.size() + outputs->size())
        return backward.emitError()
               << "uta.saved names value " << index << " of @"
               << forward.getName() << ", which has "
               << inputs.size() + outputs->size() << " arguments and results";
      arguments.push_back(size_t(index) < inputs.size()
                              ? inputs[index]
                              : (*outputs)[index - inputs.size()]);
    }
    llvm::append_range(arguments, cotangents);
    if (results)
      results->assign(outputs->begin(), outputs->begin() + cotangents.size());
    return reference::interpret(backward, arguments, options);
  };
}

namespace {

/// The f32 value nearest to `x`, as the reference rounds f32 arguments.
double roundToF32(double x) {
  return static_cast<double>(static_cast<float>(x));
}

/// Each result's objective, sum(cotangent_r * result_r), in float64: the
/// results are differentiated one at a time, so that a result that is not
/// finite spoils no other's differences.
FailureOr<std::vector<double>>
evaluateObjectives(func::FuncOp forward, ArrayRef<RefTensor> inputs,
                   ArrayRef<RefTensor> cotangents, uint64_t memoryBudget) {
  reference::InterpretOptions options;
  options.memoryBudget = memoryBudget;
  FailureOr<std::vector<RefTensor>> results =
      reference::interpret(forward, inputs, options);
  if (failed(results))
    return failure();
  std::vector<double> objectives;
  for (auto [result, cotangent] : llvm::zip_equal(*results, cotangents)) {
    double sum = 0;
    for (auto [value, weight] : llvm::zip_equal(result.data, cotangent.data))
      sum += value * weight;
    objectives.push_back(sum);
  }
  return objectives;
}

/// How many of `values` are NaN or infinite.
size_t countNonFinite(ArrayRef<double> values) {
  return llvm::count_if(values, [](double v) { return !std::isfinite(v); });
}

/// The elements of an argument of `count` elements that the check visits.
std::vector<int64_t> chooseElements(int64_t count, unsigned limit,
                                    uint64_t seed, unsigned argument) {
  std::vector<int64_t> all(count);
  std::iota(all.begin(), all.end(), 0);
  if (count <= int64_t(limit))
    return all;
  std::mt19937_64 random(seed * 1000003 + argument);
  std::shuffle(all.begin(), all.end(), random);
  all.resize(limit);
  std::sort(all.begin(), all.end());
  return all;
}

} // namespace

FailureOr<bool> mlir::uta::checkGradients(
    func::FuncOp forward, const ReferenceGradient &gradient,
    ArrayRef<std::vector<double>> arguments,
    const GradientCheckOptions &options, raw_ostream &os) {
  for (Type type : llvm::concat<const Type>(forward.getArgumentTypes(),
                                            forward.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getElementType().isF32())
      return forward.emitError()
             << "--check-grad needs f32 arguments and results, got " << type
             << ": a finite difference through f16 or bf16 rounding "
                "measures the rounding";
  }
  bool casts = forward
                   .walk([](Operation *op) {
                     return op->getName().getStringRef() == "uta.cast"
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   })
                   .wasInterrupted();
  if (casts)
    return forward.emitError() << "--check-grad needs a graph without "
                                  "uta.cast: a finite difference through a "
                                  "rounding cast measures the rounding";

  unsigned numInputs = forward.getNumArguments();
  unsigned numResults = forward.getNumResults();
  std::vector<RefTensor> inputs, cotangents;
  for (auto [i, values] : llvm::enumerate(arguments)) {
    Type type = i < numInputs ? forward.getArgumentTypes()[i]
                              : forward.getResultTypes()[i - numInputs];
    RefTensor tensor{cast<RankedTensorType>(type).getShape().vec(), values};
    (i < numInputs ? inputs : cotangents).push_back(tensor);
  }
  reference::InterpretOptions interpretOptions;
  interpretOptions.memoryBudget = options.memoryBudget;

  // A result that is not finite at the inputs has no derivative to compare
  // with: it is reported as such, and the others are checked.
  FailureOr<std::vector<RefTensor>> baseResults =
      reference::interpret(forward, inputs, interpretOptions);
  if (failed(baseResults))
    return failure();
  SmallVector<unsigned> checkedResults;
  // ", not through result1, result3": said on every gradient's line.
  std::string leftOut;
  for (auto [r, result] : llvm::enumerate(*baseResults)) {
    size_t nonFinite = countNonFinite(result.data);
    if (nonFinite == 0) {
      checkedResults.push_back(r);
      continue;
    }
    leftOut += (leftOut.empty() ? ", not through result" : ", result") +
               std::to_string(r);
    os << "result" << r << ": " << nonFinite << " of " << result.data.size()
       << " values are NaN or infinite at these inputs; gradients through it "
          "are not checked\n";
  }
  if (checkedResults.empty()) {
    os << "no result is finite at these inputs, so no gradient is checked: "
          "FAILED\n";
    return false;
  }
  FailureOr<std::vector<double>> base =
      evaluateObjectives(forward, inputs, cotangents, options.memoryBudget);
  if (failed(base))
    return failure();

  // The gradients of each checked result alone: the VJP with the other
  // cotangents zero.
  std::vector<std::vector<RefTensor>> gradientsOf(numResults);
  for (unsigned r : checkedResults) {
    std::vector<RefTensor> only = cotangents;
    for (auto [q, cotangent] : llvm::enumerate(only))
      if (q != r)
        std::fill(cotangent.data.begin(), cotangent.data.end(), 0.0);
    FailureOr<std::vector<RefTensor>> gradients = gradient(inputs, only);
    if (failed(gradients))
      return failure();
    gradientsOf[r] = std::move(*gradients);
  }

  /// The four differences of one element and result.
  struct Differences {
    double central = 0, halfStep = 0, forwardSide = 0, backwardSide = 0;
  };
  bool passed = true;
  for (auto [g, argument] : llvm::enumerate(options.wrt)) {
    std::vector<int64_t> elements =
        chooseElements(inputs[argument].data.size(), options.maxElements,
                       options.seed, argument);
    // Per element and result: the central difference, the same with half
    // the step, and the two one-sided ones. Near a kink (relu at 0, a tie
    // of max) inside the step no difference approximates the derivative;
    // it shows as one-sided differences that disagree, or, for a kink near
    // the end of the step, as central differences that change with the
    // step. A difference that is not finite (a pole within the step) is
    // skipped likewise. differences[k][r]: element k, result r.
    std::vector<std::vector<Differences>> differences;
    for (int64_t element : elements) {
      // A step of 2^-10 relative to the value (at least 2^-18, near 0),
      // taken between the f32 values the reference actually sees: small
      // enough near a pole such as 1/x, where the truncation error grows
      // like (step / x)^2.
      double x = inputs[argument].data[element];
      double step =
          std::ldexp(std::max(std::ldexp(1.0, -8), std::fabs(x)), -10);
      auto objectivesAt = [&](double value) {
        inputs[argument].data[element] = value;
        FailureOr<std::vector<double>> objectives = evaluateObjectives(
            forward, inputs, cotangents, options.memoryBudget);
        inputs[argument].data[element] = x;
        return objectives;
      };
      double up = roundToF32(x + step), down = roundToF32(x - step);
      double upHalf = roundToF32(x + step / 2),
             downHalf = roundToF32(x - step / 2);
      FailureOr<std::vector<double>> above = objectivesAt(up),
                                     below = objectivesAt(down);
      FailureOr<std::vector<double>> aboveHalf = objectivesAt(upHalf),
                                     belowHalf = objectivesAt(downHalf);
      if (failed(above) || failed(below) || failed(aboveHalf) ||
          failed(belowHalf))
        return failure();
      std::vector<Differences> perResult(numResults);
      for (unsigned r : checkedResults)
        perResult[r] = {((*above)[r] - (*below)[r]) / (up - down),
                        ((*aboveHalf)[r] - (*belowHalf)[r]) /
                            (upHalf - downHalf),
                        ((*above)[r] - (*base)[r]) / (up - x),
                        ((*base)[r] - (*below)[r]) / (x - down)};
      differences.push_back(std::move(perResult));
    }

    double worst = 0, worstScale = 0;
    int64_t worstElement = -1;
    unsigned worstResult = 0;
    // An element is skipped when every result skips it.
    std::vector<bool> checkedElement(elements.size(), false);
    bool ok = true;
    for (unsigned r : checkedResults) {
      const std::vector<double> &analytic = gradientsOf[r][g].data;
      double squares = 0;
      size_t finite = 0;
      for (const std::vector<Differences> &perResult : differences)
        if (std::isfinite(perResult[r].central)) {
          squares += perResult[r].central * perResult[r].central;
          ++finite;
        }
      double scale = std::sqrt(squares / std::max<size_t>(1, finite));
      worstScale = std::max(worstScale, scale);
      for (auto [k, element] : llvm::enumerate(elements)) {
        const Differences &d = differences[k][r];
        double size = std::fabs(d.central) + scale;
        // Curvature makes the one-sided differences differ by about
        // step * f'' (1e-3 of the derivative) and the central ones by
        // step^2 f''' / 8; a kink, by a part of the derivative's jump.
        // (Written so that a NaN difference counts as a kink.)
        bool kink = !(std::fabs(d.forwardSide - d.backwardSide) <=
                      kGradientCheckKink * size) ||
                    !(std::fabs(d.central - d.halfStep) <=
                      kGradientCheckTolerance * size);
        if (kink)
          continue;
        checkedElement[k] = true;
        double error = std::fabs(analytic[element] - d.central);
        double allowed = kGradientCheckTolerance * size + kGradientCheckFloor;
        if (!(error <= allowed))
          ok = false;
        if (!(error <= worst)) {
          worst = error;
          worstElement = element;
          worstResult = r;
        }
      }
    }
    size_t checked = llvm::count(checkedElement, true);
    size_t kinks = elements.size() - checked;
    // A check that skipped every element proves nothing (an input without
    // elements has nothing to check).
    if (!elements.empty() && checked == 0)
      ok = false;
    os << "grad" << g << " (argument #" << argument << "): " << checked
       << " of " << inputs[argument].data.size() << " elements";
    if (kinks)
      os << " (" << kinks << " more within a step of a kink, skipped)";
    os << leftOut << ", max |vjp - fd| " << llvm::format("%.3g", worst)
       << " (rms fd " << llvm::format("%.3g", worstScale) << ")";
    if (worstElement >= 0 && !ok) {
      os << " at element " << worstElement;
      if (numResults > 1)
        os << " through result" << worstResult;
    }
    os << (ok ? ": ok" : ": FAILED") << "\n";
    passed &= ok;
  }
  return passed;
}
