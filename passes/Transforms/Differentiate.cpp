//===- Differentiate.cpp - The gradient transformation --------------------===//
//
// uta-differentiate: builds @f_vjp or @f_fwd_bwd from @f by reverse-mode
// differentiation. The forward ops are cloned into the new function; then,
// from the last op to the first, each op that depends on a differentiated
// input and reaches a result asks its VjpOpInterface for the cotangents of
// its operands, and the cotangents of a value with several uses are summed
// in use order (uta.add), so the graph, and with it every sum, is the same
// from run to run.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Interfaces/VjpOpInterface.h"
#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/VjpBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTADIFFERENTIATEPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// The differentiated arguments, checked: in range, unique, float tensors.
FailureOr<SmallVector<unsigned>> checkArguments(func::FuncOp function,
                                                ArrayRef<unsigned> wrt) {
  if (function.isDeclaration())
    return function.emitError()
           << "cannot differentiate @" << function.getName()
           << ": it is a declaration without a body";
  unsigned count = function.getNumArguments();
  SmallVector<unsigned> indices(wrt);
  if (indices.empty())
    for (unsigned i = 0; i < count; ++i)
      indices.push_back(i);
  llvm::SmallDenseSet<unsigned> seen;
  for (unsigned index : indices) {
    if (index >= count)
      return function.emitError() << "cannot differentiate with respect to "
                                     "argument #"
                                  << index << ": @" << function.getName()
                                  << " has " << count << " arguments";
    if (!seen.insert(index).second)
      return function.emitError()
             << "argument #" << index << " is listed twice in wrt";
    Type type = function.getArgument(index).getType();
    if (!isFloatTensor(type))
      return function.emitError()
             << "cannot differentiate with respect to argument #" << index
             << " of type " << type << ": not a floating-point tensor";
  }
  return indices;
}

/// Builds the gradient function: clones the forward ops, then the backward.
class GradientBuilder {
public:
  GradientBuilder(func::FuncOp function, ArrayRef<unsigned> wrt,
                  const DifferentiateOptions &options)
      : function(function), wrt(wrt), options(options) {}

  FailureOr<func::FuncOp> build();

private:
  /// Adds `cotangent` to what `value` has received so far.
  void accumulate(OpBuilder &b, Location loc, Value value, Value cotangent);
  /// The results of `ops` that depend on a differentiated input.
  void findActive(ArrayRef<Operation *> ops);
  /// Reports the forward values that the backward reads.
  void reportForwardValues(ArrayRef<Operation *> forwardOps);

  func::FuncOp function;
  ArrayRef<unsigned> wrt;
  const DifferentiateOptions &options;
  llvm::DenseSet<Value> active;
  llvm::DenseMap<Value, Value> cotangents;
};

} // namespace

void GradientBuilder::accumulate(OpBuilder &b, Location loc, Value value,
                                 Value cotangent) {
  Value &sum = cotangents[value];
  sum = sum ? vjp::add(b, loc, sum, cotangent) : cotangent;
}

void GradientBuilder::findActive(ArrayRef<Operation *> ops) {
  for (Operation *op : ops)
    if (llvm::any_of(op->getOperands(),
                     [&](Value operand) { return active.contains(operand); }))
      for (Value result : op->getResults())
        active.insert(result);
}

FailureOr<func::FuncOp> GradientBuilder::build() {
  if (function.getNumResults() == 0)
    return function.emitError() << "cannot differentiate @"
                                << function.getName() << ": it has no results";
  if (!function.getBody().hasOneBlock())
    return function.emitError()
           << "cannot differentiate @" << function.getName()
           << ": its body must be one block";
  for (auto [index, type] : llvm::enumerate(function.getResultTypes()))
    if (!isFloatTensor(type))
      return function.emitError()
             << "cannot differentiate @" << function.getName() << ": result #"
             << index << " has type " << type
             << ", not a floating-point tensor";

  std::string name =
      (function.getName() + (options.joint ? "_fwd_bwd" : "_vjp")).str();
  auto module = function->getParentOfType<ModuleOp>();
  if (module && SymbolTable::lookupSymbolIn(module, name))
    return function.emitError() << "cannot build @" << name
                                << ": the module has a symbol of that name";

  // (inputs..., cotangents of the results...) -> ([results...,] gradients...)
  SmallVector<Type> inputs(function.getArgumentTypes());
  llvm::append_range(inputs, function.getResultTypes());
  SmallVector<Type> results;
  if (options.joint)
    llvm::append_range(results, function.getResultTypes());
  for (unsigned index : wrt)
    results.push_back(function.getArgument(index).getType());

  OpBuilder b(function);
  b.setInsertionPointAfter(function);
  auto gradient = func::FuncOp::create(b, function.getLoc(), name,
                                       b.getFunctionType(inputs, results));
  Block *body = gradient.addEntryBlock();
  b.setInsertionPointToStart(body);

  // The forward ops, on the new function's inputs.
  IRMapping mapping;
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    mapping.map(function.getArgument(i), body->getArgument(i));
  SmallVector<Operation *> forwardOps;
  auto forwardReturn =
      cast<func::ReturnOp>(function.getBody().front().getTerminator());
  for (Operation &op : function.getBody().front().without_terminator())
    forwardOps.push_back(b.clone(op, mapping));
  SmallVector<Value> forwardResults;
  for (Value value : forwardReturn.getOperands())
    forwardResults.push_back(mapping.lookup(value));

  for (unsigned index : wrt)
    active.insert(body->getArgument(index));
  findActive(forwardOps);

  // Seed: each result receives its cotangent argument.
  unsigned firstCotangent = function.getNumArguments();
  for (auto [i, value] : llvm::enumerate(forwardResults))
    accumulate(b, forwardReturn.getLoc(), value,
               body->getArgument(firstCotangent + i));

  for (Operation *op : llvm::reverse(forwardOps)) {
    bool reached = llvm::any_of(op->getResults(), [&](Value result) {
      return active.contains(result) && cotangents.lookup(result);
    });
    if (!reached)
      continue;
    // Every op with a rule has one result; anything else that lies between
    // a differentiated input and a result cannot be differentiated. The
    // error is reported at the forward op, before its clone goes away.
    auto rule = dyn_cast<VjpOpInterface>(op);
    if (!rule || op->getNumResults() != 1) {
      op->emitError() << "cannot differentiate '" << op->getName()
                      << "': it has no VJP rule";
      gradient.erase();
      return failure();
    }
    Value cotangent = cotangents.lookup(op->getResult(0));
    SmallVector<bool> wanted;
    for (Value operand : op->getOperands())
      wanted.push_back(active.contains(operand));
    SmallVector<Value> operandCotangents;
    if (failed(rule.buildVjp(b, cotangent, wanted, operandCotangents))) {
      gradient.erase();
      return failure();
    }
    for (auto [operand, operandCotangent] :
         llvm::zip_equal(op->getOperands(), operandCotangents))
      if (operandCotangent)
        accumulate(b, op->getLoc(), operand, operandCotangent);
  }

  SmallVector<Value> returned;
  if (options.joint)
    llvm::append_range(returned, forwardResults);
  for (unsigned index : wrt) {
    Value argument = body->getArgument(index);
    Value sum = cotangents.lookup(argument);
    returned.push_back(
        sum ? sum
            : vjp::zeros(b, function.getLoc(),
                         cast<RankedTensorType>(argument.getType())));
  }
  func::ReturnOp::create(b, forwardReturn.getLoc(), returned);

  // Forward ops that neither the results nor the backward read.
  llvm::SmallPtrSet<Operation *, 32> erased;
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    if (op->use_empty() && isPure(op)) {
      erased.insert(op);
      op->erase();
    }
  }
  llvm::erase_if(forwardOps,
                 [&](Operation *op) { return erased.contains(op); });
  if (options.remarks)
    reportForwardValues(forwardOps);
  return gradient;
}

void GradientBuilder::reportForwardValues(ArrayRef<Operation *> forwardOps) {
  // Forward ops still present after the dead-code sweep are those that a
  // result or the backward reads; those with a backward reader are listed.
  llvm::SmallPtrSet<Operation *, 32> forward(forwardOps.begin(),
                                             forwardOps.end());
  for (Operation *op : forwardOps) {
    if (isa<arith::ConstantOp>(op))
      continue;
    bool readByBackward = llvm::any_of(op->getUsers(), [&](Operation *user) {
      return !forward.contains(user) && !isa<func::ReturnOp>(user);
    });
    if (!readByBackward)
      continue;
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    op->emitRemark() << "forward value read by the backward of @"
                     << function.getName() << " (" << bytes
                     << " bytes); the fusion cost model decides whether "
                        "its readers recompute it or load it";
  }
}

FailureOr<func::FuncOp>
mlir::uta::selectPassFunction(ModuleOp module, StringRef name, StringRef pass) {
  if (!name.empty()) {
    auto target = module.lookupSymbol<func::FuncOp>(name);
    if (!target)
      return module.emitError() << pass << ": no function named @" << name;
    return target;
  }
  func::FuncOp target;
  for (auto candidate : module.getOps<func::FuncOp>()) {
    if (!candidate.isPublic())
      continue;
    if (target)
      return candidate.emitError()
             << pass
             << ": the module has several public functions; name one with "
                "function=";
    target = candidate;
  }
  if (!target)
    return module.emitError() << pass << ": the module has no public function";
  return target;
}

FailureOr<func::FuncOp>
mlir::uta::buildGradientFunction(func::FuncOp function,
                                 const DifferentiateOptions &options) {
  // The rules build uta and arith ops, also for a graph of clifford ops
  // only, whose context may not have loaded them yet.
  MLIRContext *context = function->getContext();
  context->getOrLoadDialect<UTADialect>();
  context->getOrLoadDialect<arith::ArithDialect>();
  FailureOr<SmallVector<unsigned>> wrt = checkArguments(function, options.wrt);
  if (failed(wrt))
    return failure();
  GradientBuilder builder(function, *wrt, options);
  return builder.build();
}

namespace {

struct UTADifferentiatePass
    : public mlir::uta::impl::UTADifferentiatePassBase<UTADifferentiatePass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<func::FuncOp> target =
        selectPassFunction(getOperation(), function, getArgument());
    if (failed(target))
      return signalPassFailure();
    DifferentiateOptions options;
    options.wrt.assign(wrt.begin(), wrt.end());
    options.joint = joint;
    options.remarks = remarks;
    if (failed(buildGradientFunction(*target, options)))
      return signalPassFailure();
    target->setPrivate();
  }
};

} // namespace
