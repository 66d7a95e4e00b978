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

namespace {

using reference::RefTensor;

/// The f32 value nearest to `x`, as the reference rounds f32 arguments.
double roundToF32(double x) {
  return static_cast<double>(static_cast<float>(x));
}

/// sum over results of cotangent * result, in float64.
FailureOr<double> evaluateObjective(func::FuncOp forward,
                                    ArrayRef<RefTensor> inputs,
                                    ArrayRef<RefTensor> cotangents,
                                    uint64_t memoryBudget) {
  reference::InterpretOptions options;
  options.memoryBudget = memoryBudget;
  FailureOr<std::vector<RefTensor>> results =
      reference::interpret(forward, inputs, options);
  if (failed(results))
    return failure();
  double sum = 0;
  for (auto [result, cotangent] : llvm::zip_equal(*results, cotangents))
    for (auto [value, weight] : llvm::zip_equal(result.data, cotangent.data))
      sum += value * weight;
  return sum;
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

FailureOr<bool>
mlir::uta::checkGradients(func::FuncOp forward, func::FuncOp vjp,
                          ArrayRef<std::vector<double>> arguments,
                          const GradientCheckOptions &options,
                          raw_ostream &os) {
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
  std::vector<RefTensor> inputs, cotangents, vjpArgs;
  for (auto [i, values] : llvm::enumerate(arguments)) {
    Type type = i < numInputs ? forward.getArgumentTypes()[i]
                              : forward.getResultTypes()[i - numInputs];
    RefTensor tensor{cast<RankedTensorType>(type).getShape().vec(), values};
    (i < numInputs ? inputs : cotangents).push_back(tensor);
    vjpArgs.push_back(tensor);
  }
  reference::InterpretOptions interpretOptions;
  interpretOptions.memoryBudget = options.memoryBudget;
  FailureOr<std::vector<RefTensor>> gradients =
      reference::interpret(vjp, vjpArgs, interpretOptions);
  if (failed(gradients))
    return failure();

  FailureOr<double> base =
      evaluateObjective(forward, inputs, cotangents, options.memoryBudget);
  if (failed(base))
    return failure();

  bool passed = true;
  for (auto [g, argument] : llvm::enumerate(options.wrt)) {
    const std::vector<double> &analytic = (*gradients)[g].data;
    std::vector<int64_t> elements =
        chooseElements(inputs[argument].data.size(), options.maxElements,
                       options.seed, argument);
    // Per element: the central difference, the same with half the step,
    // and the two one-sided ones. Near a kink (relu at 0, a tie of max)
    // inside the step no difference approximates the derivative; it shows
    // as one-sided differences that disagree, or, for a kink near the end
    // of the step, as central differences that change with the step.
    std::vector<double> central, halfStep, forwardSide, backwardSide;
    for (int64_t element : elements) {
      // A step of 2^-10 relative to the value (at least 2^-18, near 0),
      // taken between the f32 values the reference actually sees: small
      // enough near a pole such as 1/x, where the truncation error grows
      // like (step / x)^2.
      double x = inputs[argument].data[element];
      double step =
          std::ldexp(std::max(std::ldexp(1.0, -8), std::fabs(x)), -10);
      auto objectiveAt = [&](double value) -> FailureOr<double> {
        inputs[argument].data[element] = value;
        FailureOr<double> objective = evaluateObjective(
            forward, inputs, cotangents, options.memoryBudget);
        inputs[argument].data[element] = x;
        return objective;
      };
      double up = roundToF32(x + step), down = roundToF32(x - step);
      double upHalf = roundToF32(x + step / 2),
             downHalf = roundToF32(x - step / 2);
      FailureOr<double> above = objectiveAt(up), below = objectiveAt(down);
      FailureOr<double> aboveHalf = objectiveAt(upHalf),
                        belowHalf = objectiveAt(downHalf);
      if (failed(above) || failed(below) || failed(aboveHalf) ||
          failed(belowHalf))
        return failure();
      central.push_back((*above - *below) / (up - down));
      halfStep.push_back((*aboveHalf - *belowHalf) / (upHalf - downHalf));
      forwardSide.push_back((*above - *base) / (up - x));
      backwardSide.push_back((*base - *below) / (x - down));
    }
    double squares = 0;
    for (double value : central)
      squares += value * value;
    double scale = std::sqrt(squares / std::max<size_t>(1, central.size()));
    double worst = 0;
    int64_t worstElement = -1;
    unsigned kinks = 0;
    bool ok = true;
    for (auto [k, element] : llvm::enumerate(elements)) {
      double size = std::fabs(central[k]) + scale;
      // Curvature makes the one-sided differences differ by about
      // step * f'' (1e-3 of the derivative) and the central ones by
      // step^2 f''' / 8; a kink, by a part of the derivative's jump.
      if (std::fabs(forwardSide[k] - backwardSide[k]) >
              kGradientCheckKink * size ||
          std::fabs(central[k] - halfStep[k]) >
              kGradientCheckTolerance * size) {
        ++kinks;
        continue;
      }
      double error = std::fabs(analytic[element] - central[k]);
      double allowed = kGradientCheckTolerance * size + kGradientCheckFloor;
      if (!(error <= allowed))
        ok = false;
      if (!(error <= worst)) {
        worst = error;
        worstElement = element;
      }
    }
    // A check that skipped every element proves nothing (an input without
    // elements has nothing to check).
    if (!elements.empty() && kinks == elements.size())
      ok = false;
    os << "grad" << g << " (argument #" << argument
       << "): " << elements.size() - kinks << " of "
       << inputs[argument].data.size() << " elements";
    if (kinks)
      os << " (" << kinks << " more within a step of a kink, skipped)";
    os << ", max |vjp - fd| " << llvm::format("%.3g", worst) << " (rms fd "
       << llvm::format("%.3g", scale) << ")";
    if (worstElement >= 0 && !ok)
      os << " at element " << worstElement;
    os << (ok ? ": ok" : ": FAILED") << "\n";
    passed &= ok;
  }
  return passed;
}
