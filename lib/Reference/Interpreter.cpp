//===- Interpreter.cpp - Float64 interpreter of uta programs --------------===//
//
// Walks one func.func block in order, keeping a float64 tensor per SSA value
// until its last use. Each op is dispatched through a table keyed by the op
// to its kernel; the kernels check shapes again, and every result is checked
// against its declared type, so a verifier gap shows up as a located error
// rather than a wrong oracle. The memory this takes is worked out from the
// types first (MemoryBudget.h) by the same rule the walk frees values by, so
// a graph over the budget is refused before anything is allocated.
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
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <functional>

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
class Interpreter;
/// The kernel of each op the interpreter runs, by the op's TypeID.
using KernelTable =
    llvm::DenseMap<TypeID,
                   std::function<LogicalResult(Interpreter &, Operation *)>>;

/// The state of one interpretation: the tensor of every value so far.
class Interpreter {
public:
  /// The kernels, built once.
  static const KernelTable &getKernelTable();

  /// Evaluates `op` and binds its result; failure after emitting an error.
  LogicalResult evaluate(Operation *op);

  void bind(Value value, RefTensor tensor) {
    liveBytes += getHeldBytes(tensor);
    peakBytes = std::max(peakBytes, liveBytes);
    values[value] = std::move(tensor);
  }
  /// Frees the tensor of `value` (after its last use).
  void release(Value value) {
    auto it = values.find(value);
    if (it == values.end())
      return;
    liveBytes -= getHeldBytes(it->second);
    values.erase(it);
  }
  /// The tensor of `value`, moved out when `last` (its last read), else
  /// copied; a copy counts towards the peak like any held tensor.
  RefTensor take(Value value, bool last) {
    auto it = values.find(value);
    if (!last) {
      liveBytes += getHeldBytes(it->second);
      peakBytes = std::max(peakBytes, liveBytes);
      return it->second;
    }
    return std::move(it->second);
  }
  /// Counts tensors the caller holds throughout (the arguments as given).
  void addHeldByCaller(uint64_t bytes) {
    liveBytes += bytes;
    peakBytes = std::max(peakBytes, liveBytes);
  }
  uint64_t getPeakBytes() const { return peakBytes; }
  static uint64_t getHeldBytes(const RefTensor &tensor) {
    return tensor.data.size() * sizeof(double);
  }
  const RefTensor *lookup(Value value) const {
    auto it = values.find(value);
    return it == values.end() ? nullptr : &it->second;
  }

  // For the kernels.
  const RefTensor &in(Value value) { return values.find(value)->second; }
  /// `result` as the value of `op`'s result `number` (its only one by
  /// default), after checking it against the result type; a kernel error
  /// becomes a located error.
  LogicalResult finish(Operation *op, llvm::Expected<RefTensor> result,
                       unsigned number = 0);
  FailureOr<RefTensor> constant(arith::ConstantOp op);
  LogicalResult binaryOp(Operation *op, BinaryKind kind);
  LogicalResult unaryOp(Operation *op, UnaryKind kind);
  template <typename OpTy> LogicalResult reduceOp(OpTy op, ReduceKind kind);
  template <typename OpTy> LogicalResult product(OpTy op, ProductKind kind);
  template <typename OpTy>
  LogicalResult involutionOp(OpTy op, InvolutionKind kind);

private:
  llvm::DenseMap<Value, RefTensor> values;
  /// Bytes of float64 values held now and at most so far.
  uint64_t liveBytes = 0, peakBytes = 0;
};
} // namespace

LogicalResult Interpreter::finish(Operation *op,
                                  llvm::Expected<RefTensor> result,
                                  unsigned number) {
  if (!result)
    return op->emitOpError("reference interpreter: ")
           << llvm::toString(result.takeError());
  auto type = cast<RankedTensorType>(op->getResult(number).getType());
  if (ArrayRef<int64_t>(result->shape) != type.getShape())
    return op->emitOpError("reference interpreter computed shape [")
           << ArrayRef<int64_t>(result->shape) << "] but the result type is "
           << type;
  bind(op->getResult(number), std::move(*result));
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

LogicalResult Interpreter::binaryOp(Operation *op, BinaryKind kind) {
  return finish(op, binary(kind, in(op->getOperand(0)), in(op->getOperand(1))));
}

LogicalResult Interpreter::unaryOp(Operation *op, UnaryKind kind) {
  return finish(op, unary(kind, in(op->getOperand(0))));
}

template <typename OpTy>
LogicalResult Interpreter::reduceOp(OpTy op, ReduceKind kind) {
  return finish(
      op, reduce(kind, in(op.getInput()), op.getDims(), op.getKeepDims()));
}

template <typename OpTy>
LogicalResult Interpreter::product(OpTy op, ProductKind kind) {
  return finish(op, cliffordProduct(op.getAlgebra().getAlgebra(), kind,
                                    in(op.getLhs()), in(op.getRhs()),
                                    bladeAxisOf(op)));
}

template <typename OpTy>
LogicalResult Interpreter::involutionOp(OpTy op, InvolutionKind kind) {
  return finish(op, involution(op.getAlgebra().getAlgebra(), kind,
                               in(op.getInput()), bladeAxisOf(op)));
}

/// The reference's name of the product an adjoint op differentiates.
static ProductKind getProductKind(cl::ProductKind kind) {
  switch (kind) {
  case cl::ProductKind::geometric:
    return ProductKind::Geometric;
  case cl::ProductKind::outer:
    return ProductKind::Outer;
  case cl::ProductKind::left_contraction:
    return ProductKind::LeftContraction;
  case cl::ProductKind::scalar:
    return ProductKind::Scalar;
  }
  llvm_unreachable("unknown product kind");
}

/// The reference's name of the operand an adjoint op differentiates.
static ProductOperand getProductOperand(cl::ProductOperand operand) {
  return operand == cl::ProductOperand::lhs ? ProductOperand::Lhs
                                            : ProductOperand::Rhs;
}

namespace {
/// Registers the kernel of ops of type OpTy.
template <typename OpTy, typename Fn> void add(KernelTable &table, Fn fn) {
  table.try_emplace(TypeID::get<OpTy>(), [fn](Interpreter &I, Operation *op) {
    return fn(I, cast<OpTy>(op));
  });
}
} // namespace

/// Every op the interpreter runs, with its kernel.
static KernelTable buildKernelTable() {
  KernelTable table;
  add<arith::ConstantOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    FailureOr<RefTensor> value = I.constant(o);
    if (failed(value))
      return failure();
    return I.finish(o, std::move(*value));
  });
  // uta: elementwise.
  add<AddOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Add);
  });
  add<SubOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Sub);
  });
  add<MulOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Mul);
  });
  add<DivOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Div);
  });
  add<MaxOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Max);
  });
  add<MinOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Min);
  });
  add<PowOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.binaryOp(o, BinaryKind::Pow);
  });
  add<NegOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Neg);
  });
  add<AbsOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Abs);
  });
  add<SignOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Sign);
  });
  add<ExpOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Exp);
  });
  add<LogOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Log);
  });
  add<SqrtOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Sqrt);
  });
  add<RsqrtOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Rsqrt);
  });
  add<TanhOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Tanh);
  });
  add<ErfOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Erf);
  });
  add<SigmoidOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Sigmoid);
  });
  add<ReluOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Relu);
  });
  add<SiluOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, UnaryKind::Silu);
  });
  add<GeluOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.unaryOp(o, o.getTanhApproximation() ? UnaryKind::GeluTanh
                                                 : UnaryKind::Gelu);
  });
  // uta: matmul, reductions, norms.
  add<MatmulOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, matmul(I.in(o.getLhs()), I.in(o.getRhs()),
                              o.getTransposeB(), o.getTransposeA()));
  });
  add<ReduceSumOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.reduceOp(o, ReduceKind::Sum);
  });
  add<ReduceMaxOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.reduceOp(o, ReduceKind::Max);
  });
  add<ReduceMeanOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.reduceOp(o, ReduceKind::Mean);
  });
  add<SoftmaxOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(
        o, softmax(I.in(o.getInput()), static_cast<int64_t>(o.getDim())));
  });
  add<LayerNormOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, layerNorm(I.in(o.getInput()), I.in(o.getWeight()),
                                 I.in(o.getBias()),
                                 static_cast<int64_t>(o.getAxis()),
                                 toDouble(o.getEpsilon())));
  });
  // uta: data movement and casts.
  add<TransposeOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    llvm::Expected<RefTensor> moved =
        transpose(I.in(o.getInput()), o.getPermutation());
    if (moved && o.getRoundToTf32())
      *moved = reference::cast(*moved, FloatFormat::TF32);
    return I.finish(o, std::move(moved));
  });
  add<ReshapeOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, reshape(I.in(o.getInput()), o.getType().getShape()));
  });
  add<BroadcastToOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, broadcastTo(I.in(o.getInput()), o.getType().getShape()));
  });
  add<CastOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    std::optional<FloatFormat> format =
        floatFormatOf(o.getType().getElementType());
    if (!format)
      return o.emitOpError("reference interpreter: cannot cast to ")
             << o.getType().getElementType();
    return I.finish(o, cast(I.in(o.getInput()), *format));
  });
  // clifford: products.
  add<cl::GeometricProductOp>(table,
                              [](Interpreter &I, auto o) -> LogicalResult {
                                return I.product(o, ProductKind::Geometric);
                              });
  add<cl::OuterProductOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.product(o, ProductKind::Outer);
  });
  add<cl::LeftContractionOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        return I.product(o, ProductKind::LeftContraction);
      });
  add<cl::ScalarProductOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.product(o, ProductKind::Scalar);
  });
  add<cl::SandwichOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, sandwich(o.getAlgebra().getAlgebra(), I.in(o.getRotor()),
                                I.in(o.getInput()), bladeAxisOf(o)));
  });
  // clifford: involutions, projection, dual, gate.
  add<cl::ReverseOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.involutionOp(o, InvolutionKind::Reverse);
  });
  add<cl::GradeInvolutionOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        return I.involutionOp(o, InvolutionKind::GradeInvolution);
      });
  add<cl::ConjugateOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.involutionOp(o, InvolutionKind::Conjugate);
  });
  add<cl::GradeProjectOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, gradeProject(o.getAlgebra().getAlgebra(),
                                    I.in(o.getInput()), o.getGrades(),
                                    bladeAxisOf(o)));
  });
  add<cl::DualOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, dual(o.getAlgebra().getAlgebra(), I.in(o.getInput()),
                            bladeAxisOf(o)));
  });
  add<cl::ScalarGateOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, scalarGate(o.getAlgebra().getAlgebra(),
                                  I.in(o.getInput()), bladeAxisOf(o)));
  });
  // clifford: Flash Clifford layers.
  add<cl::WeightedProductOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return I.finish(o, weightedProduct(o.getAlgebra().getAlgebra(),
                                           I.in(o.getLhs()), I.in(o.getRhs()),
                                           I.in(o.getWeights())));
      });
  add<cl::FcProductOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    if (failed(checkLayerBladeAxis(o)))
      return failure();
    const RefTensor *gate = o.getGate() ? &I.in(o.getGate()) : nullptr;
    if (!o.getTransposeWeights())
      return I.finish(o,
                      fcProduct(o.getAlgebra().getAlgebra(), I.in(o.getLhs()),
                                I.in(o.getRhs()), I.in(o.getWeights()), gate));
    // [paths, out, in] weights, back to [paths, in, out].
    llvm::Expected<RefTensor> weights =
        transpose(I.in(o.getWeights()), {0, 2, 1});
    if (!weights)
      return I.finish(o, weights.takeError());
    return I.finish(o, fcProduct(o.getAlgebra().getAlgebra(), I.in(o.getLhs()),
                                 I.in(o.getRhs()), *weights, gate));
  });
  add<cl::PairGateFactorOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    if (failed(checkLayerBladeAxis(o)))
      return failure();
    return I.finish(o, pairGateFactor(o.getAlgebra().getAlgebra(),
                                      I.in(o.getLhs()), I.in(o.getRhs())));
  });
  add<cl::GradeRmsNormOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    if (failed(checkLayerBladeAxis(o)))
      return failure();
    return I.finish(o,
                    gradeRmsNorm(o.getAlgebra().getAlgebra(),
                                 I.in(o.getInput()), toDouble(o.getEpsilon())));
  });
  // clifford: adjoints of the products.
  add<cl::ProductAdjointOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, productAdjoint(o.getAlgebra().getAlgebra(),
                                      getProductKind(o.getProduct()),
                                      getProductOperand(o.getOperand()),
                                      I.in(o.getCotangent()),
                                      I.in(o.getOther()), bladeAxisOf(o)));
  });
  add<cl::WeightedProductAdjointOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return I.finish(o, weightedProductAdjoint(
                               o.getAlgebra().getAlgebra(),
                               getProductOperand(o.getOperand()),
                               I.in(o.getCotangent()), I.in(o.getOther()),
                               I.in(o.getWeights())));
      });
  add<cl::FcProductAdjointOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        const RefTensor &weights = I.in(o.getWeights());
        ProductOperand operand = getProductOperand(o.getOperand());
        const ::uta::ga::Algebra &algebra = o.getAlgebra().getAlgebra();
        if (!o.getTransposeWeights())
          return I.finish(o, fcProductAdjoint(algebra, operand,
                                              I.in(o.getCotangent()),
                                              I.in(o.getOther()), weights));
        // [paths, out, in] weights, back to [paths, in, out].
        llvm::Expected<RefTensor> inOut = transpose(weights, {0, 2, 1});
        if (!inOut)
          return I.finish(o, inOut.takeError());
        return I.finish(o, fcProductAdjoint(algebra, operand,
                                            I.in(o.getCotangent()),
                                            I.in(o.getOther()), *inOut));
      });
  add<cl::FcProductPairCotangentsOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        const ::uta::ga::Algebra &algebra = o.getAlgebra().getAlgebra();
        const RefTensor &weights = I.in(o.getWeights());
        if (!o.getTransposeWeights())
          return I.finish(o, fcProductPairCotangents(
                                 algebra, I.in(o.getCotangent()), weights));
        // [paths, out, in] weights, back to [paths, in, out].
        llvm::Expected<RefTensor> inOut = transpose(weights, {0, 2, 1});
        if (!inOut)
          return I.finish(o, inOut.takeError());
        return I.finish(o, fcProductPairCotangents(
                               algebra, I.in(o.getCotangent()), *inOut));
      });
  add<cl::FcProductPairAdjointOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return I.finish(
            o, fcProductPairAdjoint(o.getAlgebra().getAlgebra(),
                                    getProductOperand(o.getOperand()),
                                    I.in(o.getPairs()), I.in(o.getOther())));
      });
  add<cl::FcProductPairAdjointsOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        const ::uta::ga::Algebra &algebra = o.getAlgebra().getAlgebra();
        const RefTensor &pairs = I.in(o.getPairs());
        if (failed(I.finish(o,
                            fcProductPairAdjoint(algebra, ProductOperand::Lhs,
                                                 pairs, I.in(o.getRhs())),
                            0)))
          return failure();
        return I.finish(o,
                        fcProductPairAdjoint(algebra, ProductOperand::Rhs,
                                             pairs, I.in(o.getLhs())),
                        1);
      });
  add<cl::FcProductWeightGradientOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        const ::uta::ga::Algebra &algebra = o.getAlgebra().getAlgebra();
        // Operands given batch-contiguous ([2^n, F, B]), back to
        // [2^n, B, F].
        auto toRows = [&](Value operand,
                          bool transposed) -> llvm::Expected<RefTensor> {
          if (!transposed)
            return I.in(operand);
          return transpose(I.in(operand), {0, 2, 1});
        };
        auto compute = [&]() -> llvm::Expected<RefTensor> {
          llvm::Expected<RefTensor> cotangent =
              toRows(o.getCotangent(), o.getTransposeCotangent());
          if (!cotangent)
            return cotangent.takeError();
          llvm::Expected<RefTensor> lhs =
              toRows(o.getLhs(), o.getTransposePairs());
          if (!lhs)
            return lhs.takeError();
          llvm::Expected<RefTensor> rhs =
              toRows(o.getRhs(), o.getTransposePairs());
          if (!rhs)
            return rhs.takeError();
          return fcProductWeightGradient(algebra, *cotangent, *lhs, *rhs,
                                         o.getBatchRuns());
        };
        llvm::Expected<RefTensor> gradient = compute();
        if (!gradient || !o.getTransposeWeights())
          return I.finish(o, std::move(gradient));
        // [runs..., paths, in, out] to the K-major [runs..., paths, out, in].
        if (o.getBatchRuns() > 1)
          return I.finish(o, transpose(*gradient, {0, 1, 3, 2}));
        return I.finish(o, transpose(*gradient, {0, 2, 1}));
      });
  add<cl::PathAdjointOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    if (failed(checkLayerBladeAxis(o)))
      return failure();
    return I.finish(o, pathAdjoint(o.getAlgebra().getAlgebra(),
                                   I.in(o.getCotangent()), I.in(o.getLhs()),
                                   I.in(o.getRhs()),
                                   static_cast<int64_t>(o.getBatchChunk())));
  });
  add<cl::PairGateOp>(table, [](Interpreter &I, auto o) -> LogicalResult {
    return I.finish(o, pairGate(o.getAlgebra().getAlgebra(), I.in(o.getLhs()),
                                I.in(o.getRhs()), bladeAxisOf(o)));
  });
  // clifford: adjoints of the gate and the norm.
  add<cl::ScalarGateAdjointOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        return I.finish(o,
                        scalarGateAdjoint(o.getAlgebra().getAlgebra(),
                                          I.in(o.getCotangent()),
                                          I.in(o.getInput()), bladeAxisOf(o)));
      });
  add<cl::GradeRmsNormAdjointOp>(
      table, [](Interpreter &I, auto o) -> LogicalResult {
        if (failed(checkLayerBladeAxis(o)))
          return failure();
        return I.finish(o, gradeRmsNormAdjoint(o.getAlgebra().getAlgebra(),
                                               I.in(o.getCotangent()),
                                               I.in(o.getInput()),
                                               toDouble(o.getEpsilon())));
      });
  return table;
}

const KernelTable &Interpreter::getKernelTable() {
  static const KernelTable table = buildKernelTable();
  return table;
}

bool mlir::uta::reference::hasReferenceKernel(OperationName name) {
  return Interpreter::getKernelTable().contains(name.getTypeID());
}

LogicalResult Interpreter::evaluate(Operation *op) {
  // Every result is a ranked tensor; anything else is not a uta program.
  if (op->getNumResults() == 0 ||
      !llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return op->emitOpError("is not supported by the reference interpreter");
  for (Value operand : op->getOperands())
    if (!lookup(operand))
      return op->emitOpError("reference interpreter: operand has no value");
  const KernelTable &table = getKernelTable();
  auto kernel = table.find(op->getName().getTypeID());
  if (kernel == table.end())
    return op->emitOpError("is not supported by the reference interpreter");
  return kernel->second(*this, op);
}

FailureOr<std::vector<RefTensor>>
mlir::uta::reference::interpret(func::FuncOp func, ArrayRef<RefTensor> args,
                                const InterpretOptions &options,
                                InterpretStats *stats) {
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

  // Before anything is allocated: the graph must fit the budget.
  if (failed(checkMemoryBudget(func, options.memoryBudget)))
    return failure();

  Interpreter interpreter;
  for (const RefTensor &given : args)
    interpreter.addHeldByCaller(Interpreter::getHeldBytes(given));
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

  // Each value is freed after its last read (estimateMemory's rule).
  llvm::DenseMap<Value, Operation *> lastReaders = getLastReaders(body);
  for (BlockArgument arg : body.getArguments())
    if (!lastReaders.count(arg))
      interpreter.release(arg);
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<RefTensor> results;
      OperandRange operands = ret.getOperands();
      for (auto [index, operand] : llvm::enumerate(operands)) {
        if (!interpreter.lookup(operand))
          return ret.emitOpError("reference interpreter: operand has no "
                                 "value");
        // Moved out at its last place in the list, copied before.
        bool last =
            !llvm::is_contained(operands.drop_front(index + 1), operand);
        results.push_back(interpreter.take(operand, last));
      }
      if (stats)
        stats->peakBytes = interpreter.getPeakBytes();
      return results;
    }
    if (failed(interpreter.evaluate(&op)))
      return failure();
    for (Value operand : getDyingOperands(&op, lastReaders))
      interpreter.release(operand);
    for (Value result : op.getResults())
      if (!lastReaders.count(result))
        interpreter.release(result);
  }
  return func.emitError("reference interpreter: @")
         << func.getSymName() << " does not end in func.return";
}
