//===- PartitionTraining.cpp - Forward/backward pair with residuals -------===//
//
// uta-partition-training: splits the joint function of reverse-mode
// differentiation into the two halves that a training step runs apart,
//
//   @f_forward(inputs...) -> (results..., residuals...)
//   @f_backward(saved..., cotangents...) -> (gradients...)
//
// where the forward saves some of its values for the backward (the
// residuals), and the backward recomputes the rest of what it reads from
// them. Which values are saved is a minimum cut over the forward values the
// backward depends on, as AOTAutograd's rematerialising partitioner does:
// each value costs the bytes it would hold between the two halves; the
// arguments and results cost nothing (the caller holds them anyway, and
// the backward reads them rather than recompute them); a value
// whose op is expensive to recompute (a GEMM, a reduction, a norm, a product
// of more operations per element than a store and reload cost) may not be
// recomputed, so it or something computed from it must be saved. The
// cheapest cut separates those from the values the backward reads; of the
// cheapest cuts, the one closest to the inputs, so that ties recompute.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "dialects/Clifford/IR/CliffordInterfaces.h"
#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/Interfaces/KernelOpInterface.h"
#include "passes/Analysis/MinCut.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::uta {
#define GEN_PASS_DEF_UTAPARTITIONTRAININGPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::uta

using namespace mlir;
using namespace mlir::uta;

namespace {

/// The f32 operations per element above which a value is saved rather than
/// recomputed: saving it costs a store in the forward and a load in the
/// backward, 8 bytes, which at the balance of an H100/H200 running scalar
/// code (about 30 TFLOP/s against 4 TB/s, the fusion cost model's
/// estimates) is the time of about 60 operations.
constexpr double kMaxRecomputeFlopsPerElement = 60;

int64_t getBytes(Value value) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.hasStaticShape())
    return MinCutGraph::kInfinite / 1024;
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// Why `op` may not be recomputed in the backward, or std::nullopt when it
/// may: pointwise ops, and clifford ops that compute each position from the
/// same position of their operands, where an element costs less than
/// saving it.
std::optional<std::string> whyNotRecomputed(Operation *op) {
  if (isa<arith::ConstantOp>(op))
    return std::nullopt;
  FusionClass fusionClass = getFusionClass(op);
  double flopsPerElement = 0;
  if (fusionClass == FusionClass::Pointwise) {
    flopsPerElement = cast<KernelOpInterface>(op).estimateFlopsPerElement();
  } else if (fusionClass == FusionClass::Bladewise ||
             isa<clifford::WeightedProductOp, clifford::PairGateFactorOp>(op)) {
    // Per position of the result, every blade: spread over the blades.
    auto multivector = dyn_cast<clifford::MultivectorOpInterface>(op);
    if (!multivector)
      return std::string("it is not a multivector op");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t blades =
        std::max<int64_t>(1, type.getDimSize(multivector.getMultivectorAxis()));
    flopsPerElement = multivector.estimateFlopsPerPosition() / blades;
  } else if (fusionClass == FusionClass::Anchor) {
    return std::string("each element is a loop (a GEMM or a reduction)");
  } else {
    return std::string("its elements depend on other positions (a GEMM, a "
                       "norm or a reduction over an axis)");
  }
  if (flopsPerElement > kMaxRecomputeFlopsPerElement)
    return std::string(
        llvm::formatv("{0} operations per element cost more than saving it",
                      flopsPerElement));
  return std::nullopt;
}

/// Where a value of the backward's leading arguments comes from.
struct SavedValue {
  Value joint;
  /// Index into the forward's arguments, then its results.
  int64_t forwardIndex;
};

class TrainingPartitioner {
public:
  TrainingPartitioner(func::FuncOp function, func::FuncOp joint,
                      const TrainingPairOptions &options)
      : function(function), joint(joint), options(options),
        numInputs(function.getNumArguments()),
        numResults(function.getNumResults()) {}

  FailureOr<TrainingPair> partition(StringRef forwardName,
                                    StringRef backwardName);

private:
  bool isCotangent(Value value) const {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getArgNumber() >= numInputs;
  }
  bool isPrimal(Value value) const {
    return !isCotangent(value) && !tangent.contains(value);
  }
  /// Finds the ops of the backward (those that read a cotangent) and the
  /// forward values they read.
  void classify();
  /// Chooses the values to save (the minimum cut).
  void chooseResiduals();
  void reportDecisions(StringRef backwardName);
  func::FuncOp buildForward(OpBuilder &b, StringRef name);
  func::FuncOp buildBackward(OpBuilder &b, StringRef name);

  func::FuncOp function, joint;
  const TrainingPairOptions &options;
  unsigned numInputs, numResults;
  Block *body = nullptr;
  func::ReturnOp jointReturn;

  /// Values that depend on a cotangent.
  llvm::DenseSet<Value> tangent;
  /// The forward's results, which the caller holds.
  llvm::DenseSet<Value> results;
  /// Forward values the backward reads directly, in first-read order.
  llvm::SetVector<Value> readByBackward;
  /// Forward values saved for the backward, and those it recomputes.
  llvm::SetVector<Value> saved;
  llvm::DenseSet<Value> recomputed;
  /// The saved values that the forward returns as residuals, in the order
  /// they are computed.
  SmallVector<Value> residuals;
  SmallVector<SavedValue> savedOrder;
};

} // namespace

void TrainingPartitioner::classify() {
  body = &joint.getBody().front();
  jointReturn = cast<func::ReturnOp>(body->getTerminator());
  for (Value result : jointReturn.getOperands().take_front(numResults))
    results.insert(result);
  for (Operation &op : body->without_terminator()) {
    bool readsTangent = llvm::any_of(op.getOperands(), [&](Value operand) {
      return isCotangent(operand) || tangent.contains(operand);
    });
    if (!readsTangent)
      continue;
    for (Value result : op.getResults())
      tangent.insert(result);
    for (Value operand : op.getOperands())
      if (isPrimal(operand))
        readByBackward.insert(operand);
  }
  // A gradient that is a forward value (a zero, a forward value returned
  // as it is) is read by the backward too.
  for (Value gradient : jointReturn.getOperands().drop_front(numResults))
    if (isPrimal(gradient))
      readByBackward.insert(gradient);
}

void TrainingPartitioner::chooseResiduals() {
  // The forward values the backward may read, directly or to recompute
  // what it reads: the ancestors of readByBackward.
  llvm::MapVector<Value, unsigned> node;
  SmallVector<Value> worklist(readByBackward.begin(), readByBackward.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (node.count(value))
      continue;
    node.insert({value, node.size()});
    if (Operation *op = value.getDefiningOp())
      llvm::append_range(worklist, op->getOperands());
  }

  // Each value v is an edge v.in -> v.out whose capacity is what saving it
  // costs; an op's operands feed its result (v.out -> result.in, never
  // cut). The inputs and the values that may not be recomputed hang from
  // the source, the values the backward reads from the sink.
  unsigned source = 2 * node.size(), sink = source + 1;
  MinCutGraph graph(sink + 1);
  for (auto [value, index] : node) {
    unsigned in = 2 * index, out = in + 1;
    Operation *op = value.getDefiningOp();
    bool held = !op || results.contains(value);
    bool constant = op && isa<arith::ConstantOp>(op);
    graph.addEdge(in, out,
                  held       ? 0
                  : constant ? MinCutGraph::kInfinite
                             : getBytes(value));
    if (!op || whyNotRecomputed(op))
      graph.addEdge(source, in, MinCutGraph::kInfinite);
    if (op)
      for (Value operand : op->getOperands())
        graph.addEdge(2 * node.lookup(operand) + 1, in, MinCutGraph::kInfinite);
    if (readByBackward.contains(value))
      graph.addEdge(out, sink, MinCutGraph::kInfinite);
  }
  // Of several cheapest cuts, the one nearest the backward's reads: a tie
  // saves the later value, which the backward then reads as it is, and the
  // earlier one may die in the forward (a GEMM whose output only feeds a
  // bias add writes the sum alone).
  std::vector<bool> sourceSide =
      graph.cut(source, sink, MinCutGraph::Side::NearSink);

  // Walk back from what the backward reads: a value cut from the source is
  // saved, and so is one that the caller holds (reading it costs nothing,
  // recomputing it something); any other is recomputed from its operands.
  // (Every walk ends at a saved value: the inputs and the values that may
  // not be recomputed lie on the source's side.)
  worklist.assign(readByBackward.begin(), readByBackward.end());
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    unsigned index = node.lookup(value);
    bool cut = sourceSide[2 * index] && !sourceSide[2 * index + 1];
    if (cut || isa<BlockArgument>(value) || results.contains(value)) {
      saved.insert(value);
      continue;
    }
    recomputed.insert(value);
    llvm::append_range(worklist, value.getDefiningOp()->getOperands());
  }

  // The backward's saved arguments: the inputs in order, then the results,
  // then the residuals in the order the forward computes them.
  for (unsigned i = 0; i < numInputs; ++i)
    if (saved.contains(body->getArgument(i)))
      savedOrder.push_back({body->getArgument(i), i});
  llvm::DenseSet<Value> placed;
  for (auto [i, value] :
       llvm::enumerate(jointReturn.getOperands().take_front(numResults)))
    if (saved.contains(value) && !isa<BlockArgument>(value) &&
        placed.insert(value).second)
      savedOrder.push_back({value, int64_t(numInputs + i)});
  for (Operation &op : body->without_terminator())
    for (Value value : op.getResults())
      if (saved.contains(value) && !placed.contains(value)) {
        savedOrder.push_back(
            {value, int64_t(numInputs + numResults + residuals.size())});
        residuals.push_back(value);
      }
}

void TrainingPartitioner::reportDecisions(StringRef backwardName) {
  for (const SavedValue &entry : savedOrder) {
    Value value = entry.joint;
    std::string why;
    if (isa<BlockArgument>(value))
      why = "an argument, which the caller holds";
    else if (results.contains(value))
      why = "a result, which the caller holds";
    else if (std::optional<std::string> reason =
                 whyNotRecomputed(value.getDefiningOp()))
      why = "not recomputed: " + *reason;
    else
      why = "cheaper to save than what recomputing it needs";
    InFlightDiagnostic remark =
        isa<BlockArgument>(value)
            ? function.emitRemark()
                  << "argument #" << cast<BlockArgument>(value).getArgNumber()
            : value.getDefiningOp()->emitRemark()
                  << "'" << value.getDefiningOp()->getName() << "'";
    remark << " saved for @" << backwardName << " (" << getBytes(value)
           << " bytes): " << why;
  }
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantOp>(op) ||
        !llvm::any_of(op.getResults(),
                      [&](Value v) { return recomputed.contains(v); }))
      continue;
    op.emitRemark() << "'" << op.getName() << "' recomputed in @"
                    << backwardName << " (" << getBytes(op.getResult(0))
                    << " bytes not saved): cheap to recompute from what is "
                       "saved";
  }
}

func::FuncOp TrainingPartitioner::buildForward(OpBuilder &b, StringRef name) {
  SmallVector<Type> resultTypes(function.getResultTypes());
  for (Value residual : residuals)
    resultTypes.push_back(residual.getType());
  auto forward = func::FuncOp::create(
      b, function.getLoc(), name,
      b.getFunctionType(function.getArgumentTypes(), resultTypes));
  Block *entry = forward.addEntryBlock();
  OpBuilder inside = OpBuilder::atBlockBegin(entry);

  // The forward ops that the results and the residuals need.
  SmallVector<Value> returned(jointReturn.getOperands().take_front(numResults));
  llvm::append_range(returned, residuals);
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> worklist(returned);
  while (!worklist.empty())
    if (Operation *op = worklist.pop_back_val().getDefiningOp())
      if (needed.insert(op).second)
        llvm::append_range(worklist, op->getOperands());

  IRMapping mapping;
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(body->getArgument(i), entry->getArgument(i));
  for (Operation &op : body->without_terminator())
    if (needed.contains(&op))
      inside.clone(op, mapping);
  SmallVector<Value> mapped;
  for (Value value : returned)
    mapped.push_back(mapping.lookup(value));
  func::ReturnOp::create(inside, jointReturn.getLoc(), mapped);
  forward->setAttr("uta.residuals",
                   b.getI64IntegerAttr(int64_t(residuals.size())));
  return forward;
}

func::FuncOp TrainingPartitioner::buildBackward(OpBuilder &b, StringRef name) {
  SmallVector<Type> argumentTypes;
  SmallVector<int64_t> savedIndices;
  for (const SavedValue &entry : savedOrder) {
    argumentTypes.push_back(entry.joint.getType());
    savedIndices.push_back(entry.forwardIndex);
  }
  llvm::append_range(argumentTypes, function.getResultTypes());
  SmallVector<Type> resultTypes(
      TypeRange(jointReturn.getOperands().drop_front(numResults)));
  auto backward =
      func::FuncOp::create(b, function.getLoc(), name,
                           b.getFunctionType(argumentTypes, resultTypes));
  Block *entry = backward.addEntryBlock();
  OpBuilder inside = OpBuilder::atBlockBegin(entry);

  IRMapping mapping;
  for (auto [i, savedValue] : llvm::enumerate(savedOrder))
    mapping.map(savedValue.joint, entry->getArgument(i));
  for (unsigned r = 0; r < numResults; ++r)
    mapping.map(body->getArgument(numInputs + r),
                entry->getArgument(savedOrder.size() + r));
  for (Operation &op : body->without_terminator()) {
    bool inBackward = llvm::any_of(op.getResults(), [&](Value v) {
      return tangent.contains(v) || recomputed.contains(v);
    });
    if (inBackward)
      inside.clone(op, mapping);
  }
  SmallVector<Value> gradients;
  for (Value value : jointReturn.getOperands().drop_front(numResults))
    gradients.push_back(mapping.lookup(value));
  func::ReturnOp::create(inside, jointReturn.getLoc(), gradients);
  backward->setAttr("uta.saved", b.getDenseI64ArrayAttr(savedIndices));
  return backward;
}

FailureOr<TrainingPair> TrainingPartitioner::partition(StringRef forwardName,
                                                       StringRef backwardName) {
  if (!joint.getBody().hasOneBlock())
    return joint.emitError() << "cannot partition @" << joint.getName()
                             << ": its body must be one block";
  for (Operation &op : joint.getBody().front())
    if (op.getNumRegions() != 0 || op.getNumResults() > 1)
      return op.emitError() << "cannot partition a graph with '" << op.getName()
                            << "': the training partition takes graphs of "
                               "single-result ops without regions";
  classify();
  chooseResiduals();
  if (options.remarks)
    reportDecisions(backwardName);
  OpBuilder b(function);
  b.setInsertionPointAfter(function);
  TrainingPair pair;
  pair.forward = buildForward(b, forwardName);
  b.setInsertionPointAfter(pair.forward);
  pair.backward = buildBackward(b, backwardName);
  pair.numResiduals = residuals.size();
  for (const SavedValue &entry : savedOrder)
    pair.saved.push_back(entry.forwardIndex);
  return pair;
}

FailureOr<TrainingPair>
mlir::uta::buildTrainingPair(func::FuncOp function,
                             const TrainingPairOptions &options) {
  auto module = function->getParentOfType<ModuleOp>();
  std::string forwardName = (function.getName() + "_forward").str();
  std::string backwardName = (function.getName() + "_backward").str();
  for (const std::string &name : {forwardName, backwardName})
    if (module && SymbolTable::lookupSymbolIn(module, name))
      return function.emitError() << "cannot build @" << name
                                  << ": the module has a symbol of that name";

  // The joint function is built in a module of its own, so that its name
  // takes nothing from the caller's module, and dropped afterwards.
  OpBuilder b(function->getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(b, function.getLoc());
  b.setInsertionPointToStart(scratch->getBody());
  auto copy = cast<func::FuncOp>(b.clone(*function));
  DifferentiateOptions differentiate;
  differentiate.wrt = options.wrt;
  differentiate.joint = true;
  FailureOr<func::FuncOp> joint = buildGradientFunction(copy, differentiate);
  if (failed(joint))
    return failure();
  TrainingPartitioner partitioner(function, *joint, options);
  return partitioner.partition(forwardName, backwardName);
}

namespace {

struct UTAPartitionTrainingPass
    : public mlir::uta::impl::UTAPartitionTrainingPassBase<
          UTAPartitionTrainingPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<func::FuncOp> target =
        selectPassFunction(getOperation(), function, getArgument());
    if (failed(target))
      return signalPassFailure();
    TrainingPairOptions options;
    options.wrt.assign(wrt.begin(), wrt.end());
    options.remarks = remarks;
    if (failed(buildTrainingPair(*target, options)))
      return signalPassFailure();
    target->setPrivate();
  }
};

} // namespace
