//===- GradeAnalysis.cpp - Which blades of a multivector may be non-zero --===//
//
// The answer for a value along an axis follows from its producer:
//
// - clifford ops along their blade axis: the op's own rule
//   (MultivectorOpInterface::inferResultBlades, in CliffordBlades.cpp);
// - uta ops, their operands aligned NumPy-style: a ZeroPreserving op (add,
//   max, neg, tanh, cast, broadcast_to...) unites its operands' blades, a
//   ZeroAbsorbing one (mul) intersects them (an operand broadcast from one
//   entry counts as every blade unless it is zero); transpose follows the
//   axis;
// - constants: the slices that hold a non-zero (or NaN) element;
// - function arguments and everything else: every blade.
//
// Why not MLIR's sparse dataflow framework: the graphs of this phase are one
// block of SSA values without control flow, so every answer is a function of
// its producers' answers and one pass from the producers down reaches the
// fixpoint. The framework's lattices, solver and dead-code analysis would add
// nothing but weight, and its answers are per value, while a mask only means
// something for one axis of the value. Answers are computed on demand, with
// an explicit stack (the IR may be arbitrarily deep), and memoized.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/GradeAnalysis.h"

#include "dialects/Clifford/IR/CliffordOps.h"
#include "dialects/UTA/IR/UTAOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <bit>
#include <functional>

using namespace mlir;
using namespace mlir::uta;
using ::uta::ga::Algebra;

namespace {

/// One question: the blades of `value` along `axis`.
struct Query {
  Value value;
  int64_t axis;
};

/// How one answer follows from the answers to other queries.
struct Rule {
  /// Every blade of the queried axis.
  uint64_t all = ~uint64_t(0);
  SmallVector<Query, 2> operands;
  /// The operands' answers, in order, to this answer (before masking with
  /// `all`).
  std::function<uint64_t(ArrayRef<uint64_t>)> combine;
};

} // namespace

static Rule makeLeaf(uint64_t all, uint64_t answer) {
  return Rule{all, {}, [answer](ArrayRef<uint64_t>) { return answer; }};
}

/// The slices along `axis` of a constant that hold a non-zero element.
static uint64_t getConstantBlades(DenseElementsAttr data, int64_t axis,
                                  uint64_t all) {
  auto type = cast<RankedTensorType>(data.getType());
  if (!isa<FloatType>(type.getElementType()))
    return all;
  if (data.isSplat())
    return data.getSplatValue<APFloat>().isZero() ? 0 : all;
  // Large constants are not scanned: every blade.
  constexpr int64_t kMaxScannedElements = int64_t(1) << 16;
  if (type.getNumElements() > kMaxScannedElements)
    return all;
  int64_t stride = 1;
  for (int64_t size : type.getShape().drop_front(axis + 1))
    stride *= size;
  int64_t size = type.getDimSize(axis);
  uint64_t blades = 0;
  for (auto [index, value] : llvm::enumerate(data.getValues<APFloat>()))
    if (!value.isZero())
      blades |= uint64_t(1) << ((int64_t(index) / stride) % size);
  return blades;
}

/// Whether `value` is a constant whose every element is zero.
static bool isZeroConstant(Value value) {
  DenseElementsAttr data;
  if (!matchPattern(value, m_Constant(&data)) ||
      !isa<FloatType>(data.getElementType()))
    return false;
  return llvm::all_of(data.getValues<APFloat>(),
                      [](const APFloat &x) { return x.isZero(); });
}

/// The rule of a clifford op's result along its blade axis `q.axis`: the
/// op's own (MultivectorOpInterface::inferResultBlades).
static Rule getCliffordRule(clifford::MultivectorOpInterface op, Query q,
                            uint64_t all) {
  Rule rule;
  rule.all = all;
  for (Value operand : op.getMultivectorOperands())
    rule.operands.push_back({operand, q.axis});
  rule.combine = [op, all](ArrayRef<uint64_t> in) mutable {
    return op.inferResultBlades(in).value_or(all);
  };
  return rule;
}

std::optional<int64_t> mlir::uta::getBladeAxis(Operation *op) {
  if (auto multivectorOp = dyn_cast<clifford::MultivectorOpInterface>(op))
    return multivectorOp.getMultivectorAxis();
  return std::nullopt;
}

/// The rule of an elementwise or broadcast uta op: `operands` aligned
/// NumPy-style with the result, whose axis `q.axis` has `size` entries, and
/// their answers joined by `join` (union or intersection).
static Rule getBroadcastRule(ValueRange operands, Query q, int64_t size,
                             uint64_t all, bool intersect) {
  // How each operand contributes: an answer (`queried`), stretched when the
  // operand has one entry on the axis, or a fixed mask when it lacks the
  // axis.
  struct Contribution {
    bool queried;
    bool stretched;
    uint64_t fixed;
  };
  Rule rule;
  rule.all = all;
  SmallVector<Contribution, 2> contributions;
  int64_t rank = cast<RankedTensorType>(q.value.getType()).getRank();
  for (Value operand : operands) {
    auto type = cast<RankedTensorType>(operand.getType());
    int64_t axis = q.axis - (rank - type.getRank());
    if (axis < 0) {
      contributions.push_back(
          {false, false, isZeroConstant(operand) ? 0 : all});
      continue;
    }
    rule.operands.push_back({operand, axis});
    contributions.push_back({true, type.getDimSize(axis) != size, 0});
  }
  rule.combine = [contributions, all, intersect](ArrayRef<uint64_t> in) {
    uint64_t result = intersect ? all : 0;
    size_t next = 0;
    for (const Contribution &c : contributions) {
      uint64_t blades = c.fixed;
      if (c.queried) {
        blades = in[next++];
        if (c.stretched)
          blades = blades ? all : 0;
      }
      result = intersect ? result & blades : result | blades;
    }
    return result;
  };
  return rule;
}

/// The rule that answers `q`.
static Rule getRule(Query q) {
  auto type = dyn_cast<RankedTensorType>(q.value.getType());
  if (!type || q.axis < 0 || q.axis >= type.getRank() ||
      ShapedType::isDynamic(type.getDimSize(q.axis)) ||
      type.getDimSize(q.axis) > 64)
    return makeLeaf(~uint64_t(0), ~uint64_t(0));
  int64_t size = type.getDimSize(q.axis);
  uint64_t all = getAllBlades(size);
  Operation *op = q.value.getDefiningOp();
  if (!op)
    return makeLeaf(all, all);

  DenseElementsAttr data;
  if (matchPattern(q.value, m_Constant(&data)))
    return makeLeaf(all, getConstantBlades(data, q.axis, all));

  if (auto multivectorOp = dyn_cast<clifford::MultivectorOpInterface>(op)) {
    if (multivectorOp.getMultivectorAxis() != q.axis)
      return makeLeaf(all, all);
    return getCliffordRule(multivectorOp, q, all);
  }

  // Elementwise and layout ops, by how zeros pass through them.
  if (op->hasTrait<mlir::uta::OpTrait::ZeroAbsorbing>())
    return getBroadcastRule(op->getOperands(), q, size, all,
                            /*intersect=*/true);
  if (op->hasTrait<mlir::uta::OpTrait::ZeroPreserving>())
    return getBroadcastRule(op->getOperands(), q, size, all,
                            /*intersect=*/false);
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    // Result axis i is input axis permutation[i].
    int64_t from = transpose.getPermutation()[q.axis];
    return Rule{all, {{transpose.getInput(), from}}, [](ArrayRef<uint64_t> in) {
                  return in[0];
                }};
  }
  return makeLeaf(all, all);
}

uint64_t GradeAnalysis::getBlades(Value value, int64_t axis) {
  using Key = std::pair<Value, int64_t>;
  Key rootKey(value, axis);
  if (auto it = answers.find(rootKey); it != answers.end())
    return it->second;

  // Depth-first over the producers, with an explicit stack.
  struct Frame {
    Query query;
    Rule rule;
    SmallVector<uint64_t, 2> answers;
  };
  SmallVector<Frame> stack;
  llvm::DenseSet<Key> onStack;
  stack.push_back({{value, axis}, getRule({value, axis}), {}});
  onStack.insert(rootKey);
  while (!stack.empty()) {
    Frame &frame = stack.back();
    size_t next = frame.answers.size();
    if (next < frame.rule.operands.size()) {
      Query operand = frame.rule.operands[next];
      Key key(operand.value, operand.axis);
      if (auto it = answers.find(key); it != answers.end()) {
        frame.answers.push_back(it->second);
        continue;
      }
      // A value that depends on itself (only in graph regions): unknown.
      if (!onStack.insert(key).second) {
        frame.answers.push_back(~uint64_t(0));
        continue;
      }
      Rule rule = getRule(operand);
      stack.push_back({operand, std::move(rule), {}});
      continue;
    }
    uint64_t answer = frame.rule.combine(frame.answers) & frame.rule.all;
    Key key(frame.query.value, frame.query.axis);
    answers[key] = answer;
    onStack.erase(key);
    stack.pop_back();
    if (!stack.empty())
      stack.back().answers.push_back(answer);
  }
  return answers.lookup(rootKey);
}
