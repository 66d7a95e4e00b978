//===- Gradient.h - utac's gradient flags and check -------------*- C++ -*-===//
//
// `--grad=vjp|joint` and `--wrt=I,J` of utac and utac run replace the entry
// function by its gradient function (uta-differentiate); `utac run
// --check-grad` compares that gradient, computed by the float64 reference,
// with central finite differences of the reference's forward function
// (docs/autodiff.md gives the step and the tolerance).
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_DRIVER_GRADIENT_H
#define UTA_LIB_DRIVER_GRADIENT_H

#include "lib/Reference/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlir::uta {

/// What `--grad` asks for: the vector-Jacobian product, the joint function,
/// or one half of the training pair (uta-partition-training); `utac run`
/// also takes Pair, both halves run one after the other.
enum class GradientMode { None, Vjp, Joint, Forward, Backward, Pair };

/// Parses `--grad`'s value ("" is None); std::nullopt when unknown.
std::optional<GradientMode> parseGradientMode(llvm::StringRef text);

/// Builds the gradient function of the entry (`entry`, or the only public
/// function), makes the forward function private and sets `entry` to the
/// gradient's name. Errors are reported at the function. With `remarks`,
/// the forward values that the backward reads are reported as remarks (for
/// the training pair: what is saved or recomputed, and why). For Forward,
/// Backward and Pair both halves are built, the other one private; Pair
/// sets `entry` to the forward half.
LogicalResult applyGradientMode(ModuleOp module, std::string &entry,
                                GradientMode mode, llvm::ArrayRef<unsigned> wrt,
                                bool remarks = false);

/// The finite-difference check passes element e when
/// |vjp_e - fd_e| <= kGradientCheckTolerance * (|fd_e| + rms(fd)) +
/// kGradientCheckFloor.
constexpr double kGradientCheckTolerance = 1e-4;
constexpr double kGradientCheckFloor = 1e-9;
/// An element is skipped as lying within a step of a kink (a point where
/// the function is not differentiable) when its forward and backward
/// differences differ by more than kGradientCheckKink * (|fd_e| + rms(fd)),
/// or its central differences with the step and half of it by more than
/// the tolerance.
constexpr double kGradientCheckKink = 0.05;

/// The gradients of a function at `inputs` with `cotangents`, in the
/// order of the differentiated arguments, computed by the reference: by
/// the VJP function, or by the two functions of a training pair.
using ReferenceGradient =
    std::function<FailureOr<std::vector<reference::RefTensor>>(
        llvm::ArrayRef<reference::RefTensor> inputs,
        llvm::ArrayRef<reference::RefTensor> cotangents)>;

/// `vjp`'s gradients, as the float64 reference computes them.
ReferenceGradient referenceVjp(func::FuncOp vjp, uint64_t memoryBudget);

/// The gradients of the training pair `forward`, `backward` as the
/// reference computes them: the forward on the inputs, then the backward on
/// the values that `backward`'s `uta.saved` names and the cotangents. With
/// `results`, the forward's own results are stored there too.
ReferenceGradient
referencePair(func::FuncOp forward, func::FuncOp backward,
              uint64_t memoryBudget,
              std::vector<reference::RefTensor> *results = nullptr);

/// The finite-difference check of `utac run --check-grad`.
struct GradientCheckOptions {
  /// The differentiated arguments of `forward`, in the gradient's order.
  std::vector<unsigned> wrt;
  /// Seeds the choice of elements when an argument has more than
  /// `maxElements`.
  uint64_t seed = 0;
  unsigned maxElements = 64;
  uint64_t memoryBudget = 0;
};

/// Compares the gradients that the reference computes with `gradient` on
/// `arguments` (the forward's inputs, then one cotangent per result) with
/// central differences, one result at a time: the VJP with result r's
/// cotangent alone against differences of sum(cotangent_r * result_r). A
/// result with a NaN or infinite value at the inputs is reported as such
/// and not checked (its differences say nothing of the others'). Prints one
/// line per gradient to `os`. Returns failure() after an error (reported),
/// else whether every gradient was within the tolerance (false when no
/// result is finite).
FailureOr<bool> checkGradients(func::FuncOp forward,
                               const ReferenceGradient &gradient,
                               llvm::ArrayRef<std::vector<double>> arguments,
                               const GradientCheckOptions &options,
                               llvm::raw_ostream &os);

} // namespace mlir::uta

#endif // UTA_LIB_DRIVER_GRADIENT_H
