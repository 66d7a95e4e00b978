//===- Interpreter.cpp - Float64 interpreter of uta programs --------------===//
//
// Walks one func.func block in order, keeping a float64 tensor per SSA value.
// Each op is dispatched with a TypeSwitch to its kernel; the kernels check
// shapes again, and every result is checked against its declared type, so a
// verifier gap shows up as a located error rather than a wrong oracle.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/Interpreter.h"

#include "lib/Reference/CliffordKernels.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::reference;
namespace cl = mlir::uta::clifford;

std::optional<FloatFormat> mlir::uta::reference::floatFormatOf(Type type) {
  if (type.isF64())
    return FloatFormat::F64;
  if (type.isF32())
    return FloatFormat::F32;
  if (type.isF16())
    return FloatFormat::F16;
  if (type.isBF16())
    return FloatFormat::BF16;
  return std::nullopt;
}

/// The exact double of a value of any of the four formats.
static double toDouble(llvm::APFloat value) {
  bool losesInfo = false;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

FailureOr<RefTensor> mlir::uta::reference::tensorFromAttr(ElementsAttr attr,
                                                          Location loc) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape())
    return emitError(loc) << "reference interpreter: constant of type "
                          << attr.getType()
                          << " is not a statically shaped tensor";
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!floatType || !floatFormatOf(floatType))
    return emitError(loc) << "reference interpreter: constant element type "
                          << type.getElementType()
                          << " is not f64, f32, f16 or bf16";
  RefTensor out{std::vector<int64_t>(type.getShape()), {}};
  int64_t count = out.numElements();
  out.data.reserve(count);

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    for (const llvm::APFloat &value : dense.getValues<llvm::APFloat>())
      out.data.push_back(toDouble(value));
    return out;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc)
             << "reference interpreter: dense resource '"
             << resource.getRawHandle().getKey() << "' holds no data";
    ArrayRef<char> bytes = blob->getData();
    unsigned width = floatType.getWidth() / 8;
    if (static_cast<int64_t>(bytes.size()) != count * width)
      return emitError(loc)
             << "reference interpreter: dense resource '"
             << resource.getRawHandle().getKey() << "' has " << bytes.size()
             << " bytes but " << type << " needs " << count * width;
    // Little-endian element bits, as MLIR stores them.
    for (int64_t i = 0; i < count; ++i) {
      uint64_t bits = 0;
      for (unsigned b = 0; b < width; ++b)
        bits |= uint64_t(static_cast<unsigned char>(bytes[i * width + b]))
                << (8 * b);
      out.data.push_back(toDouble(llvm::APFloat(floatType.getFloatSemantics(),
                                                llvm::APInt(width * 8, bits))));
    }
    return out;
  }
  return emitError(loc) << "reference interpreter: unsupported constant "
                           "attribute "
                        << attr;
}

namespace {
/// The state of one interpretation: the tensor of every value so far.
class Interpreter {
public:
  /// Evaluates `op` and binds its result; failure after emitting an error.
  LogicalResult evaluate(Operation *op);

  void bind(Value value, RefTensor tensor) {
    values[value] = std::move(tensor);
  }
  const RefTensor *lookup(Value value) const {
    auto it = values.find(value);
    return it == values.end() ? nullptr : &it->second;
  }

private:
  const RefTensor &in(Value value) { return values.find(value)->second; }
  /// `result` as the value of `op`'s only result, after checking it against
  /// the result type; a kernel error becomes a located error.
  LogicalResult finish(Operation *op, llvm::Expected<RefTensor> result);

  FailureOr<RefTensor> constant(arith::ConstantOp op);

  llvm::DenseMap<Value, RefTensor> values;
};
} // namespace

LogicalResult Interpreter::finish(Operation *op,
                                  llvm::Expected<RefTensor> result) {
  if (!result)
    return op->emitOpError("reference interpreter: ")
           << llvm::toString(result.takeError());
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (ArrayRef<int64_t>(result->shape) != type.getShape())
    return op->emitOpError("reference interpreter computed shape [")
           << ArrayRef<int64_t>(result->shape) << "] but the result type is "
           << type;
  bind(op->getResult(0), std::move(*result));
  return success();
}

FailureOr<RefTensor> Interpreter::constant(arith::ConstantOp op) {
  auto elements = dyn_cast<ElementsAttr>(op.getValue());
  if (!elements)
    return op.emitOpError("reference interpreter: only tensor constants are "
                          "supported, got ")
           << op.getValue();
  return tensorFromAttr(elements, op.getLoc());
}

/// The blade axis attribute as a signed value (the getter is unsigned).
template <typename OpTy> static int64_t bladeAxisOf(OpTy op) {
  return static_cast<int64_t>(op.getBladeAxis());
}

/// The layer ops take blade axis 0 only.
template <typename OpTy> static LogicalResult checkLayerBladeAxis(OpTy op) {
  if (bladeAxisOf(op) == 0)
    return success();
  return op.emitOpError("reference interpreter: the layer ops take blade axis "
                        "0, got ")
         << bladeAxisOf(op);
}

LogicalResult Interpreter::evaluate(Operation *op) {
  // Every result is a ranked tensor; anything else is not a uta program.
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->emitOpError("is not supported by the reference interpreter");
  for (Value operand : op->getOperands())
    if (!lookup(operand))
      return op->emitOpError("reference interpreter: operand has no value");

  auto binaryOp = [&](Operation *o, BinaryKind kind) {
    return finish(o, binary(kind, in(o->getOperand(0)), in(o->getOperand(1))));
  };
  auto unaryOp = [&](Operation *o, UnaryKind kind) {
    return finish(o, unary(kind, in(o->getOperand(0))));
  };
  auto reduceOp = [&](auto o, ReduceKind kind) {
    return finish(o,
                  reduce(kind, in(o.getInput()), o.getDims(), o.getKeepDims()));
  };
  auto product = [&](auto o, ProductKind kind) {
    return finish(o, cliffordProduct(o.getAlgebra().getAlgebra(), kind,
                                     in(o.getLhs()), in(o.getRhs()),
                                     bladeAxisOf(o)));
  };
  auto involutionOp = [&](auto o, InvolutionKind kind) {
    return finish(o, involution(o.getAlgebra().getAlgebra(), kind,
                                in(o.getInput()), bladeAxisOf(o)));
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp o) -> LogicalResult {
        FailureOr<RefTensor> value = constant(o);
        if (failed(value))
          return failure();
        return finish(o, std::move(*value));
      })
      // uta: elementwise.
      .Case([&](AddOp o) { return binaryOp(o, BinaryKind::Add); })
      .Case([&](SubOp o) { return binaryOp(o, BinaryKind::Sub); })
      .Case([&](MulOp o) { return binaryOp(o, BinaryKind::Mul); })
      .Case([&](DivOp o) { return binaryOp(o, BinaryKind::Div); })
      .Case([&](MaxOp o) { return binaryOp(o, BinaryKind::Max); })
      .Case([&](MinOp o) { return binaryOp(o, BinaryKind::Min); })
      .Case([&](NegOp o) { return unaryOp(o, UnaryKind::Neg); })
      .Case([&](AbsOp o) { return unaryOp(o, UnaryKind::Abs); })
      .Case([&](ExpOp o) { return unaryOp(o, UnaryKind::Exp); })
      .Case([&](LogOp o) { return unaryOp(o, UnaryKind::Log); })
      .Case([&](SqrtOp o) { return unaryOp(o, UnaryKind::Sqrt); })
      .Case([&](RsqrtOp o) { return unaryOp(o, UnaryKind::Rsqrt); })
      .Case([&](TanhOp o) { return unaryOp(o, UnaryKind::Tanh); })
      .Case([&](SigmoidOp o) { return unaryOp(o, UnaryKind::Sigmoid); })
      .Case([&](ReluOp o) { return unaryOp(o, UnaryKind::Relu); })
      .Case([&](SiluOp o) { return unaryOp(o, UnaryKind::Silu); })
      .Case([&](GeluOp o) {
        return unaryOp(o, o.getTanhApproximation() ? UnaryKind::GeluTanh
                                                   : UnaryKind::Gelu);
      })
      // uta: matmul, reductions, norms.
      .Case([&](MatmulOp o) {
        return finish(
            o, matmul(in(o.getLhs()), in(o.getRhs()), o.getTransposeB()));
      })
      .Case([&](ReduceSumOp o) { return reduceOp(o, ReduceKind::Sum); })
      .Case([&](ReduceMaxOp o) { return reduceOp(o, ReduceKind::Max); })
      .Case([&](ReduceMeanOp o) { return reduceOp(o, ReduceKind::Mean); })
      .Case([&](SoftmaxOp o) {
        return finish(
            o, softmax(in(o.getInput()), static_cast<int64_t>(o.getDim())));
      })
      .Case([&](LayerNormOp o) {
        return finish(o, layerNorm(in(o.getInput()), in(o.getWeight()),
                                   in(o.getBias()),
                                   static_cast<int64_t>(o.getAxis()),
                                   toDouble(o.getEpsilon())));
      })
      // uta: data movement and casts.
      .Case([&](TransposeOp o) {
        return finish(o, transpose(in(o.getInput()), o.getPermutation()));
      })
      .Case([&](ReshapeOp o) {
        return finish(o, reshape(in(o.getInput()), o.getType().getShape()));
      })
      .Case([&](BroadcastToOp o) {
        return finish(o, broadcastTo(in(o.getInput()), o.getType().getShape()));
      })
      .Case([&](CastOp o) -> LogicalResult {
        std::optional<FloatFormat> format =
            floatFormatOf(o.getType().getElementType());
        if (!format)
          return o.emitOpError("reference interpreter: cannot cast to ")
                 << o.getType().getElementType();
        return finish(o, cast(in(o.getInput()), *format));
      })
      // clifford: products.
      .Case([&](cl::GeometricProductOp o) {
        return product(o, ProductKind::Geometric);
      })
      .Case(
          [&](cl::OuterProductOp o) { return product(o, ProductKind::Outer); })
      .Case([&](cl::LeftContractionOp o) {
        return product(o, ProductKind::LeftContraction);
      })
      .Case([&](cl::ScalarProductOp o) {
        return product(o, ProductKind::Scalar);
      })
      .Case([&](cl::SandwichOp o) {
        return finish(o, sandwich(o.getAlgebra().getAlgebra(), in(o.getRotor()),
                                  in(o.getInput()), bladeAxisOf(o)));
      })
      // clifford: involutions, projection, dual, gate.
      .Case([&](cl::ReverseOp o) {
        return involutionOp(o, InvolutionKind::Reverse);
      })
      .Case([&](cl::GradeInvolutionOp o) {
        return involutionOp(o, InvolutionKind::GradeInvolution);
      })
      .Case([&](cl::ConjugateOp o) {
        return involutionOp(o, InvolutionKind::Conjugate);
      })
      .Case([&](cl::GradeProjectOp o) {
        return finish(o, gradeProject(o.getAlgebra().getAlgebra(),
                                      in(o.getInput()), o.getGrades(),
                                      bladeAxisOf(o)));
      })
      .Case([&](cl::DualOp o) {
        return finish(o, dual(o.getAlgebra().getAlgebra(), in(o.getInput()),
                              bladeAxisOf(o)));
      })
      .Case([&](cl::ScalarGateOp o) {
        return finish(o, scalarGate(o.getAlgebra().getAlgebra(),
                                    in(o.getInput()), bladeAxisOf(o)));
      })
      // clifford: Flash Clifford layers.
      .Case([&](cl::WeightedProductOp o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return finish(o, weightedProduct(o.getAlgebra().getAlgebra(),
                                         in(o.getLhs()), in(o.getRhs()),
                                         in(o.getWeights())));
      })
      .Case([&](cl::FcProductOp o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return finish(o, fcProduct(o.getAlgebra().getAlgebra(), in(o.getLhs()),
                                   in(o.getRhs()), in(o.getWeights())));
      })
      .Case([&](cl::GradeRmsNormOp o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return finish(o,
                      gradeRmsNorm(o.getAlgebra().getAlgebra(),
                                   in(o.getInput()), toDouble(o.getEpsilon())));
      })
      .Default([&](Operation *o) {
        return o->emitOpError("is not supported by the reference interpreter");
      });
}

FailureOr<std::vector<RefTensor>>
mlir::uta::reference::interpret(func::FuncOp func, ArrayRef<RefTensor> args) {
  if (func.isExternal())
    return func.emitError("reference interpreter: @")
           << func.getSymName() << " has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError("reference interpreter: @")
           << func.getSymName() << " has more than one block";
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return func.emitError("reference interpreter: @")
           << func.getSymName() << " takes " << body.getNumArguments()
           << " arguments but " << args.size() << " were given";

  Interpreter interpreter;
  for (auto [index, arg] : llvm::enumerate(body.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    std::optional<FloatFormat> format =
        type ? floatFormatOf(type.getElementType()) : std::nullopt;
    if (!type || !type.hasStaticShape() || !format)
      return func.emitError("reference interpreter: argument ")
             << index << " has type " << arg.getType()
             << ", not a statically shaped tensor of f64, f32, f16 or bf16";
    const RefTensor &given = args[index];
    if (ArrayRef<int64_t>(given.shape) != type.getShape() ||
        !given.isWellFormed())
      return func.emitError("reference interpreter: argument ")
             << index << " has shape [" << ArrayRef<int64_t>(given.shape)
             << "] and " << given.data.size() << " values but the function "
             << "takes " << type;
    // Round to the declared type: a device sees exactly these values.
    interpreter.bind(arg, cast(given, *format));
  }

  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<RefTensor> results;
      for (Value operand : ret.getOperands()) {
        const RefTensor *value = interpreter.lookup(operand);
        if (!value)
          return ret.emitOpError("reference interpreter: operand has no "
                                 "value");
        results.push_back(*value);
      }
      return results;
    }
    if (failed(interpreter.evaluate(&op)))
      return failure();
  }
  return func.emitError("reference interpreter: @")
         << func.getSymName() << " does not end in func.return";
}
