//===- Graph.cpp - The C++ graph builder behind include/uta/Graph.h ------===//
//
// Each Graph owns an MLIRContext and a module with one func.func that
// always ends in a func.return of the outputs so far, so the module is valid
// IR after every call. A builder creates its op with the dialect's own
// builders (which infer result types) and then runs the op's verifier: the
// verifier is the one source of truth for shape and type rules, and its
// diagnostic, captured with a ScopedDiagnosticHandler, becomes the graph's
// error. An op that fails is erased again, so the module stays valid.
//
//===----------------------------------------------------------------------===//

#include "uta/Graph.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/UTAShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace mlir;
namespace clifford = mlir::uta::clifford;
namespace ir = mlir::uta;

// Definitions sit inside namespace uta: with `using namespace mlir`, a
// qualified uta:: would be ambiguous with mlir::uta.
namespace uta {

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

int64_t Tensor::numElements() const {
  if (!valid())
    return 0;
  int64_t count = 1;
  for (int64_t size : shape_)
    count *= size;
  return count;
}

std::string Tensor::typeStr() const {
  if (!valid())
    return "<invalid>";
  std::string text = "tensor<";
  for (int64_t size : shape_)
    text += std::to_string(size) + "x";
  return text + dtypeName(dtype_) + ">";
}

//===----------------------------------------------------------------------===//
// Graph::Impl
//===----------------------------------------------------------------------===//

/// Graph ids start at 1, so a default Tensor (id 0) belongs to no graph.
static uint64_t nextGraphId() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

static Type elementType(MLIRContext *context, DType dtype) {
  switch (dtype) {
  case DType::F32:
    return Float32Type::get(context);
  case DType::F16:
    return Float16Type::get(context);
  case DType::BF16:
    return BFloat16Type::get(context);
  }
  llvm_unreachable("unknown dtype");
}

/// The DType of an element type the verifiers accepted; only f32, f16 and
/// bf16 pass them.
static DType dtypeOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF16())
    return DType::F16;
  if (element.isBF16())
    return DType::BF16;
  return DType::F32;
}

/// "[4, 8]".
static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

/// Whether `name` can be a bare symbol name (@name) that every tool and
/// kernel-naming scheme takes as it is.
static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  });
}

struct Graph::Impl {
  /// A builder operand as error messages name it.
  struct Operand {
    const char *name;
    const Tensor &tensor;
  };

  explicit Impl(std::string graphName);

  bool hasError() const { return !error.empty(); }
  /// Records `message` as "what: message" unless an error is already kept.
  void fail(StringRef what, const Twine &message);

  /// Whether the graph has no error and every operand is one of its valid
  /// tensors; records the first problem otherwise.
  bool checkOperands(StringRef what, ArrayRef<Operand> operands);
  /// Whether every size of `shape` is positive and the element count fits
  /// in 64 bits.
  bool checkShape(StringRef what, ArrayRef<int64_t> shape);
  /// The verified attribute of `algebra`, or null after recording why not.
  clifford::AlgebraAttr algebraAttr(StringRef what, const Algebra &algebra);

  Value value(const Tensor &tensor) const { return values[tensor.id_]; }
  Tensor makeTensor(Value value);

  /// Creates an OpTy before the return, verifies it, and returns its result;
  /// on failure erases it and records the verifier's message.
  template <typename OpTy, typename... Args>
  Tensor create(ArrayRef<Operand> operands, Args &&...args);

  /// Makes the function type match the block arguments and the return.
  void updateFunctionType();

  // Builders shared by several ops of one family (see their definitions).
  template <typename OpTy>
  Tensor reduce(const Tensor &x, ArrayRef<int64_t> dims, bool keepDims);
  template <typename OpTy>
  Tensor reshapeLike(const Tensor &x, ArrayRef<int64_t> shape);
  /// Creates a clifford op from `operands` in order through the generic
  /// builder, its attributes given by the names the generic form documents,
  /// so that optional attributes the ODS may gain later change nothing here.
  template <typename OpTy>
  Tensor createClifford(const Algebra &algebra, ArrayRef<Operand> operands,
                        function_ref<Type(ArrayRef<Value>)> resultType,
                        ArrayRef<NamedAttribute> attributes);

  // The context outlives the module, which is destroyed first.
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  func::ReturnOp returnOp;
  std::string name;
  std::string error;
  uint64_t id;
  /// The value of each Tensor, by Tensor::id_.
  std::vector<Value> values;
  std::vector<Tensor> inputs, outputs;
};

Graph::Impl::Impl(std::string graphName)
    : name(std::move(graphName)), id(nextGraphId()) {
  context.loadDialect<ir::UTADialect, clifford::CliffordDialect,
                      func::FuncDialect, arith::ArithDialect>();
  // A failed verification is reported by its message alone; printing the
  // whole op into a note would only cost time.
  context.printOpOnDiagnostic(false);

  Location loc = UnknownLoc::get(&context);
  module = ModuleOp::create(loc);
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  // An invalid name still gets a function (named "graph") so that the
  // object is usable; the error keeps str() from printing it.
  func = func::FuncOp::create(builder, loc,
                              isIdentifier(name) ? StringRef(name) : "graph",
                              builder.getFunctionType({}, {}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  returnOp = func::ReturnOp::create(builder, loc);
  if (!isIdentifier(name))
    fail("graph",
         "name '" + name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_$.]*)");
}

void Graph::Impl::fail(StringRef what, const Twine &message) {
  if (hasError())
    return;
  error = (what + ": " + message).str();
}

bool Graph::Impl::checkOperands(StringRef what, ArrayRef<Operand> operands) {
  if (hasError())
    return false;
  for (const Operand &operand : operands) {
    const Tensor &tensor = operand.tensor;
    if (!tensor.valid()) {
      fail(what, Twine(operand.name) + " is not a valid tensor");
      return false;
    }
    if (tensor.graphId_ != id ||
        tensor.id_ >= static_cast<int64_t>(values.size())) {
      fail(what, Twine(operand.name) + " belongs to another graph");
      return false;
    }
  }
  return true;
}

bool Graph::Impl::checkShape(StringRef what, ArrayRef<int64_t> shape) {
  if (hasError())
    return false;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (size >= 1)
      continue;
    fail(what, "shape " + shapeStr(shape) + " has size " + Twine(size) +
                   " at dimension " + Twine(i) + "; sizes must be positive");
    return false;
  }
  if (!ir::getElementCount(shape)) {
    fail(what,
         "shape " + shapeStr(shape) + " has more elements than fit in 64 bits");
    return false;
  }
  return true;
}

clifford::AlgebraAttr Graph::Impl::algebraAttr(StringRef what,
                                               const Algebra &algebra) {
  if (algebra.p() < 0 || algebra.q() < 0 || algebra.r() < 0) {
    fail(what, "invalid algebra " + algebra.str() +
                   ": p, q and r must not be negative");
    return {};
  }
  // The attribute's own verifier says what is wrong with the signature.
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  auto attr = clifford::AlgebraAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&context)); }, &context,
      unsigned(algebra.p()), unsigned(algebra.q()), unsigned(algebra.r()));
  if (!attr)
    fail(what, "invalid algebra: " + message);
  return attr;
}

Tensor Graph::Impl::makeTensor(Value value) {
  auto type = llvm::cast<RankedTensorType>(value.getType());
  values.push_back(value);
  return Tensor(
      id, static_cast<int64_t>(values.size()) - 1,
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      dtypeOf(type));
}

template <typename OpTy, typename... Args>
Tensor Graph::Impl::create(ArrayRef<Operand> operands, Args &&...args) {
  StringRef fullName = OpTy::getOperationName();
  StringRef what = fullName.split('.').second;
  if (!checkOperands(what, operands))
    return {};

  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  OpBuilder builder(returnOp);
  auto op = OpTy::create(builder, UnknownLoc::get(&context),
                         std::forward<Args>(args)...);
  if (succeeded(mlir::verify(op)))
    return makeTensor(op->getResult(0));

  op->erase();
  // "'uta.matmul' op contraction ..." -> "matmul: contraction ... (operand
  // types ...)": the verifier names sizes, the types say where they are.
  std::string prefix = ("'" + fullName + "' op ").str();
  StringRef reason(message);
  reason.consume_front(prefix);
  std::string text = reason.empty() ? "the op does not verify" : reason.str();
  for (auto [i, operand] : llvm::enumerate(operands))
    text += (i == 0 ? " (operand types " : ", ") + operand.tensor.typeStr();
  fail(what, operands.empty() ? text : text + ")");
  return {};
}

void Graph::Impl::updateFunctionType() {
  func.setFunctionType(
      FunctionType::get(&context, func.getBody().front().getArgumentTypes(),
                        returnOp.getOperandTypes()));
}

//===----------------------------------------------------------------------===//
// Graph: construction and state
//===----------------------------------------------------------------------===//

Graph::Graph(std::string name)
    : impl_(std::make_unique<Impl>(std::move(name))) {}

Graph::~Graph() = default;
Graph::Graph(Graph &&) noexcept = default;
Graph &Graph::operator=(Graph &&) noexcept = default;

const std::string &Graph::name() const {
  static const std::string movedFrom;
  return impl_ ? impl_->name : movedFrom;
}

bool Graph::ok() const { return impl_ && !impl_->hasError(); }

const std::string &Graph::error() const {
  static const std::string movedFrom = "graph: used after being moved from";
  return impl_ ? impl_->error : movedFrom;
}

std::vector<Tensor> Graph::inputs() const {
  return impl_ ? impl_->inputs : std::vector<Tensor>();
}

std::vector<Tensor> Graph::outputs() const {
  return impl_ ? impl_->outputs : std::vector<Tensor>();
}

//===----------------------------------------------------------------------===//
// Arguments, constants and results
//===----------------------------------------------------------------------===//

Tensor Graph::input(std::vector<int64_t> shape, DType dtype) {
  if (!impl_ || !impl_->checkShape("input", shape))
    return {};
  Impl &g = *impl_;
  auto type = RankedTensorType::get(shape, elementType(&g.context, dtype));
  Value arg = g.func.getBody().front().addArgument(type, g.func.getLoc());
  g.updateFunctionType();
  Tensor tensor = g.makeTensor(arg);
  g.inputs.push_back(tensor);
  return tensor;
}

Tensor Graph::constant(std::vector<int64_t> shape, std::vector<float> values,
                       DType dtype) {
  if (!impl_ || !impl_->checkShape("constant", shape))
    return {};
  Impl &g = *impl_;
  int64_t count = *ir::getElementCount(shape);
  if (values.size() != 1 && static_cast<int64_t>(values.size()) != count) {
    g.fail("constant", Twine(values.size()) + " values for shape " +
                           shapeStr(shape) + ", which has " + Twine(count) +
                           " elements (give all of them, or one to repeat)");
    return {};
  }
  auto type = RankedTensorType::get(shape, elementType(&g.context, dtype));
  const llvm::fltSemantics &semantics =
      llvm::cast<FloatType>(type.getElementType()).getFloatSemantics();
  SmallVector<APFloat> elements;
  for (float value : values) {
    APFloat element(value);
    bool losesInfo;
    element.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    elements.push_back(element);
  }
  DenseElementsAttr attr = elements.size() == 1
                               ? DenseElementsAttr::get(type, elements.front())
                               : DenseElementsAttr::get(type, elements);
  return g.create<arith::ConstantOp>({}, llvm::cast<TypedAttr>(attr));
}

Tensor Graph::fill(std::vector<int64_t> shape, float value, DType dtype) {
  return constant(std::move(shape), {value}, dtype);
}

void Graph::output(const Tensor &result) {
  if (!impl_ || !impl_->checkOperands("output", {{"result", result}}))
    return;
  Impl &g = *impl_;
  g.returnOp.getOperandsMutable().append(g.value(result));
  g.updateFunctionType();
  g.outputs.push_back(result);
}

//===----------------------------------------------------------------------===//
// uta ops
//===----------------------------------------------------------------------===//

/// A graph without its implementation (moved from) builds nothing.
#define UTA_GRAPH_REQUIRE_IMPL()                                               \
  if (!impl_)                                                                  \
    return {};

#define UTA_GRAPH_BINARY(method, OpTy)                                         \
  Tensor Graph::method(const Tensor &lhs, const Tensor &rhs) {                 \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl &g = *impl_;                                                          \
    Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}};                   \
    if (!g.checkOperands(OpTy::getOperationName().split('.').second,           \
                         operands))                                            \
      return {};                                                               \
    return g.create<OpTy>(operands, g.value(lhs), g.value(rhs));               \
  }

UTA_GRAPH_BINARY(add, ir::AddOp)
UTA_GRAPH_BINARY(sub, ir::SubOp)
UTA_GRAPH_BINARY(mul, ir::MulOp)
UTA_GRAPH_BINARY(div, ir::DivOp)
UTA_GRAPH_BINARY(max, ir::MaxOp)
UTA_GRAPH_BINARY(min, ir::MinOp)
#undef UTA_GRAPH_BINARY

#define UTA_GRAPH_UNARY(method, OpTy)                                          \
  Tensor Graph::method(const Tensor &x) {                                      \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl &g = *impl_;                                                          \
    Impl::Operand operands[] = {{"input", x}};                                 \
    if (!g.checkOperands(OpTy::getOperationName().split('.').second,           \
                         operands))                                            \
      return {};                                                               \
    Value input = g.value(x);                                                  \
    return g.create<OpTy>(operands, input.getType(), input);                   \
  }

UTA_GRAPH_UNARY(neg, ir::NegOp)
UTA_GRAPH_UNARY(abs, ir::AbsOp)
UTA_GRAPH_UNARY(exp, ir::ExpOp)
UTA_GRAPH_UNARY(log, ir::LogOp)
UTA_GRAPH_UNARY(sqrt, ir::SqrtOp)
UTA_GRAPH_UNARY(rsqrt, ir::RsqrtOp)
UTA_GRAPH_UNARY(tanh, ir::TanhOp)
UTA_GRAPH_UNARY(sigmoid, ir::SigmoidOp)
UTA_GRAPH_UNARY(relu, ir::ReluOp)
UTA_GRAPH_UNARY(silu, ir::SiluOp)
#undef UTA_GRAPH_UNARY

Tensor Graph::gelu(const Tensor &x, bool tanhApproximation) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("gelu", operands))
    return {};
  Value input = g.value(x);
  OpBuilder b(&g.context);
  return g.create<ir::GeluOp>(operands, input.getType(), input,
                              b.getBoolAttr(tanhApproximation));
}

Tensor Graph::matmul(const Tensor &lhs, const Tensor &rhs, bool transposeB) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}};
  if (!g.checkOperands("matmul", operands))
    return {};
  return g.create<ir::MatmulOp>(operands, g.value(lhs), g.value(rhs),
                                transposeB);
}

template <typename OpTy>
Tensor Graph::Impl::reduce(const Tensor &x, ArrayRef<int64_t> dims,
                           bool keepDims) {
  Impl::Operand operands[] = {{"input", x}};
  if (!checkOperands(OpTy::getOperationName().split('.').second, operands))
    return {};
  return create<OpTy>(operands, value(x), dims, keepDims);
}

Tensor Graph::reduceSum(const Tensor &x, std::vector<int64_t> dims,
                        bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceSumOp>(x, dims, keepDims);
}

Tensor Graph::reduceMax(const Tensor &x, std::vector<int64_t> dims,
                        bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceMaxOp>(x, dims, keepDims);
}

Tensor Graph::reduceMean(const Tensor &x, std::vector<int64_t> dims,
                         bool keepDims) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reduce<ir::ReduceMeanOp>(x, dims, keepDims);
}

Tensor Graph::softmax(const Tensor &x, int64_t dim) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("softmax", operands))
    return {};
  Value input = g.value(x);
  OpBuilder b(&g.context);
  return g.create<ir::SoftmaxOp>(operands, input.getType(), input,
                                 b.getI64IntegerAttr(dim));
}

Tensor Graph::layerNorm(const Tensor &x, const Tensor &weight,
                        const Tensor &bias, int64_t axis, float epsilon) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}, {"weight", weight}, {"bias", bias}};
  if (!g.checkOperands("layer_norm", operands))
    return {};
  return g.create<ir::LayerNormOp>(operands, g.value(x), g.value(weight),
                                   g.value(bias), axis, epsilon);
}

Tensor Graph::transpose(const Tensor &x, std::vector<int64_t> permutation) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("transpose", operands))
    return {};
  return g.create<ir::TransposeOp>(operands, g.value(x),
                                   ArrayRef<int64_t>(permutation));
}

/// reshape and broadcast_to: the result type is x's element type at
/// `shape`, which is checked before any op exists.
template <typename OpTy>
Tensor Graph::Impl::reshapeLike(const Tensor &x, ArrayRef<int64_t> shape) {
  StringRef what = OpTy::getOperationName().split('.').second;
  Impl::Operand operands[] = {{"input", x}};
  if (!checkOperands(what, operands) || !checkShape(what, shape))
    return {};
  Value input = value(x);
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(input));
  return create<OpTy>(operands, type, input);
}

Tensor Graph::reshape(const Tensor &x, std::vector<int64_t> shape) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reshapeLike<ir::ReshapeOp>(x, shape);
}

Tensor Graph::broadcastTo(const Tensor &x, std::vector<int64_t> shape) {
  UTA_GRAPH_REQUIRE_IMPL()
  return impl_->reshapeLike<ir::BroadcastToOp>(x, shape);
}

Tensor Graph::cast(const Tensor &x, DType dtype) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl &g = *impl_;
  Impl::Operand operands[] = {{"input", x}};
  if (!g.checkOperands("cast", operands))
    return {};
  Value input = g.value(x);
  auto type = llvm::cast<RankedTensorType>(input.getType())
                  .clone(elementType(&g.context, dtype));
  return g.create<ir::CastOp>(operands, type, input);
}

//===----------------------------------------------------------------------===//
// clifford ops
//===----------------------------------------------------------------------===//

template <typename OpTy>
Tensor
Graph::Impl::createClifford(const Algebra &algebra, ArrayRef<Operand> operands,
                            function_ref<Type(ArrayRef<Value>)> resultType,
                            ArrayRef<NamedAttribute> attributes) {
  StringRef what = OpTy::getOperationName().split('.').second;
  if (!checkOperands(what, operands))
    return {};
  clifford::AlgebraAttr attr = algebraAttr(what, algebra);
  if (!attr)
    return {};
  SmallVector<Value> inputs;
  for (const Operand &operand : operands)
    inputs.push_back(value(operand.tensor));
  SmallVector<NamedAttribute> all(attributes);
  all.push_back(NamedAttribute(StringAttr::get(&context, "algebra"), attr));
  return create<OpTy>(operands, TypeRange(resultType(inputs)),
                      ValueRange(inputs), ArrayRef<NamedAttribute>(all));
}

/// The result type the broadcasting clifford ops should have: the blade
/// axis keeps the first operand's size (1 for scalar_product), every other
/// axis takes the operands' common size. Where the operands disagree the
/// first operand's type stands in, and the verifier says what is wrong.
static Type cliffordBroadcastType(ArrayRef<Value> operands, int64_t bladeAxis,
                                  bool scalarResult) {
  auto first = llvm::cast<RankedTensorType>(operands.front().getType());
  int64_t rank = first.getRank();
  for (Value operand : operands)
    if (llvm::cast<RankedTensorType>(operand.getType()).getRank() != rank)
      return first;
  if (bladeAxis < 0 || bladeAxis >= rank)
    return first;
  SmallVector<int64_t> shape(first.getShape());
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == bladeAxis) {
      if (scalarResult)
        shape[axis] = 1;
      continue;
    }
    for (Value operand : operands) {
      int64_t size =
          llvm::cast<RankedTensorType>(operand.getType()).getDimSize(axis);
      if (size != 1)
        shape[axis] = size;
    }
  }
  return first.clone(shape);
}

/// The unary clifford ops return their input's type.
static Type firstOperandType(ArrayRef<Value> operands) {
  return operands.front().getType();
}

/// A named attribute of a clifford op.
static NamedAttribute named(MLIRContext *context, StringRef name,
                            Attribute value) {
  return NamedAttribute(StringAttr::get(context, name), value);
}

static NamedAttribute bladeAxisAttr(MLIRContext *context, int64_t bladeAxis) {
  return named(context, "blade_axis",
               IntegerAttr::get(IntegerType::get(context, 64), bladeAxis));
}

#define UTA_GRAPH_CLIFFORD_BINARY(method, OpTy, first, second, scalar)         \
  Tensor Graph::method(const Algebra &algebra, const Tensor &lhs,              \
                       const Tensor &rhs, int64_t bladeAxis) {                 \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl::Operand operands[] = {{first, lhs}, {second, rhs}};                  \
    return impl_->createClifford<OpTy>(                                        \
        algebra, operands,                                                     \
        [&](ArrayRef<Value> values) {                                          \
          return cliffordBroadcastType(values, bladeAxis, scalar);             \
        },                                                                     \
        bladeAxisAttr(&impl_->context, bladeAxis));                            \
  }

UTA_GRAPH_CLIFFORD_BINARY(geometricProduct, clifford::GeometricProductOp, "lhs",
                          "rhs", false)
UTA_GRAPH_CLIFFORD_BINARY(outerProduct, clifford::OuterProductOp, "lhs", "rhs",
                          false)
UTA_GRAPH_CLIFFORD_BINARY(leftContraction, clifford::LeftContractionOp, "lhs",
                          "rhs", false)
UTA_GRAPH_CLIFFORD_BINARY(scalarProduct, clifford::ScalarProductOp, "lhs",
                          "rhs", true)
UTA_GRAPH_CLIFFORD_BINARY(sandwich, clifford::SandwichOp, "rotor", "input",
                          false)
#undef UTA_GRAPH_CLIFFORD_BINARY

#define UTA_GRAPH_CLIFFORD_UNARY(method, OpTy)                                 \
  Tensor Graph::method(const Algebra &algebra, const Tensor &x,                \
                       int64_t bladeAxis) {                                    \
    UTA_GRAPH_REQUIRE_IMPL()                                                   \
    Impl::Operand operands[] = {{"input", x}};                                 \
    return impl_->createClifford<OpTy>(                                        \
        algebra, operands, firstOperandType,                                   \
        bladeAxisAttr(&impl_->context, bladeAxis));                            \
  }

UTA_GRAPH_CLIFFORD_UNARY(reverse, clifford::ReverseOp)
UTA_GRAPH_CLIFFORD_UNARY(gradeInvolution, clifford::GradeInvolutionOp)
UTA_GRAPH_CLIFFORD_UNARY(conjugate, clifford::ConjugateOp)
UTA_GRAPH_CLIFFORD_UNARY(dual, clifford::DualOp)
UTA_GRAPH_CLIFFORD_UNARY(scalarGate, clifford::ScalarGateOp)
#undef UTA_GRAPH_CLIFFORD_UNARY

Tensor Graph::gradeProject(const Algebra &algebra, const Tensor &x,
                           std::vector<int64_t> grades, int64_t bladeAxis) {
  UTA_GRAPH_REQUIRE_IMPL()
  MLIRContext *context = &impl_->context;
  Impl::Operand operands[] = {{"input", x}};
  NamedAttribute attributes[] = {
      named(context, "grades", DenseI64ArrayAttr::get(context, grades)),
      bladeAxisAttr(context, bladeAxis)};
  return impl_->createClifford<clifford::GradeProjectOp>(
      algebra, operands, firstOperandType, attributes);
}

Tensor Graph::weightedProduct(const Algebra &algebra, const Tensor &lhs,
                              const Tensor &rhs, const Tensor &weights) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}, {"weights", weights}};
  // [2^n, B, F] x [2^n, B, F] with [F, P] gives [2^n, B, F].
  return impl_->createClifford<clifford::WeightedProductOp>(
      algebra, operands, firstOperandType, {});
}

Tensor Graph::fcProduct(const Algebra &algebra, const Tensor &lhs,
                        const Tensor &rhs, const Tensor &weights) {
  UTA_GRAPH_REQUIRE_IMPL()
  Impl::Operand operands[] = {{"lhs", lhs}, {"rhs", rhs}, {"weights", weights}};
  // [2^n, B, Fin] x [2^n, B, Fin] with [P, Fin, Fout] gives [2^n, B, Fout].
  auto resultType = [](ArrayRef<Value> values) -> Type {
    auto x = llvm::cast<RankedTensorType>(values[0].getType());
    auto w = llvm::cast<RankedTensorType>(values[2].getType());
    if (x.getRank() != 3 || w.getRank() != 3)
      return x;
    return x.clone({x.getDimSize(0), x.getDimSize(1), w.getDimSize(2)});
  };
  return impl_->createClifford<clifford::FcProductOp>(algebra, operands,
                                                      resultType, {});
}

Tensor Graph::gradeRmsNorm(const Algebra &algebra, const Tensor &x,
                           float epsilon) {
  UTA_GRAPH_REQUIRE_IMPL()
  MLIRContext *context = &impl_->context;
  Impl::Operand operands[] = {{"input", x}};
  NamedAttribute attributes[] = {named(
      context, "epsilon", FloatAttr::get(Float32Type::get(context), epsilon))};
  return impl_->createClifford<clifford::GradeRmsNormOp>(
      algebra, operands, firstOperandType, attributes);
}

#undef UTA_GRAPH_REQUIRE_IMPL

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string Graph::str() const {
  if (!impl_ || impl_->hasError())
    return "";
  Impl &g = *impl_;
  // Every op was verified when added; this checks the function as a whole.
  std::string message;
  ScopedDiagnosticHandler handler(&g.context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  if (failed(mlir::verify(*g.module))) {
    g.fail("graph", "the module does not verify: " + message);
    return "";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  g.module->print(os);
  return text;
}

} // namespace uta
