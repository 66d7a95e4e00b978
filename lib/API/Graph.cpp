//===- Graph.cpp - The C++ graph builder behind include/uta/Graph.h -------===//
//
// Each Graph owns an MLIRContext and a module with one func.func that
// always ends in a func.return of the outputs so far, so the module is valid
// IR after every call. A builder creates its op with the dialect's own
// builders (which infer result types) and then runs the op's verifier: the
// verifier is the one source of truth for shape and type rules, and its
// diagnostic, captured with a ScopedDiagnosticHandler, becomes the graph's
// error. An op that fails is erased again, so the module stays valid.
//
// This file holds the graph itself: Tensor, Graph::Impl, construction,
// inputs, constants, outputs and printing. The op builders are in
// GraphTensorOps.cpp (uta ops) and GraphCliffordOps.cpp (clifford ops).
//
//===----------------------------------------------------------------------===//

#include "uta/Graph.h"

#include "lib/API/GraphImpl.h"

#include "dialects/Clifford/IR/CliffordDialect.h"
#include "dialects/UTA/IR/UTADialect.h"
#include "dialects/UTA/IR/UTAShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
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

Type Graph::Impl::elementType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return Float32Type::get(&context);
  case DType::F16:
    return Float16Type::get(&context);
  case DType::BF16:
    return BFloat16Type::get(&context);
  }
  llvm_unreachable("unknown dtype");
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
  auto type = RankedTensorType::get(shape, g.elementType(dtype));
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
  auto type = RankedTensorType::get(shape, g.elementType(dtype));
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
