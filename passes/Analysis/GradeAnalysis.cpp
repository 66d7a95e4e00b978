//===- GradeAnalysis.cpp - Which blades of a multivector may be non-zero --===//
//
// The answer for a value along an axis follows from its producer:
//
// - clifford ops along their blade axis: grade_project keeps the blades of
//   its grades; the involutions, scalar_gate and grade_rms_norm (with
//   epsilon > 0) keep their input's blades, since they only scale each
//   blade; dual maps blade b to the blade of b I^-1; a product's blade k may
//   be non-zero when one of the kept Cayley terms that lands on k multiplies
//   two blades that may be non-zero (blade sets recorded on the op narrow
//   its operands, as in the lowering); sandwich is two geometric products;
// - uta ops, their operands aligned NumPy-style: add, sub, max and min
//   unite their operands' blades, mul intersects them (an operand broadcast
//   from one entry counts as every blade unless it is zero); ops with
//   f(0) = 0 (neg, abs, relu, tanh, sqrt, gelu, silu, cast) and
//   broadcast_to keep their input's blades, and transpose follows the axis;
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
#include "llvm/ADT/TypeSwitch.h"

#include <bit>
#include <functional>

using namespace mlir;
using namespace mlir::uta;
using ::uta::ga::Algebra;

uint64_t mlir::uta::getAllBlades(int64_t size) {
  return size >= 64 ? ~uint64_t(0) : (uint64_t(1) << size) - 1;
}

uint64_t mlir::uta::getGradeBlades(const Algebra &algebra,
                                   ArrayRef<int64_t> grades) {
  uint64_t blades = 0;
  for (int64_t grade : grades)
    if (grade >= 0 && grade < algebra.numGrades())
      for (unsigned blade : algebra.bladesOfGrade(grade))
        blades |= uint64_t(1) << blade;
  return blades;
}

/// Whether a product keeping `terms` keeps blade(i) * blade(j) landing on a
/// blade of grade gk, for blades of grades gi and gj.
static bool keepsTerm(ProductTerms terms, unsigned gi, unsigned gj,
                      unsigned gk) {
  switch (terms) {
  case ProductTerms::Geometric:
    return true;
  case ProductTerms::Outer:
    return gk == gi + gj;
  case ProductTerms::LeftContraction:
    return gj >= gi && gk == gj - gi;
  case ProductTerms::Scalar:
    return gk == 0;
  }
  llvm_unreachable("unknown product terms");
}

void mlir::uta::forEachProductTerm(
    const Algebra &algebra, ProductTerms terms, uint64_t lhs, uint64_t rhs,
    llvm::function_ref<void(unsigned, unsigned, ::uta::ga::BladeProduct)> fn) {
  uint64_t all = getAllBlades(algebra.numBlades());
  for (uint64_t i = lhs & all; i; i &= i - 1) {
    unsigned a = std::countr_zero(i);
    for (uint64_t j = rhs & all; j; j &= j - 1) {
      unsigned b = std::countr_zero(j);
      ::uta::ga::BladeProduct product = algebra.product(a, b);
      if (product.sign != 0 &&
          keepsTerm(terms, algebra.grade(a), algebra.grade(b),
                    algebra.grade(product.blade)))
        fn(a, b, product);
    }
  }
}

uint64_t mlir::uta::getProductBlades(const Algebra &algebra, ProductTerms terms,
                                     uint64_t lhs, uint64_t rhs) {
  uint64_t result = 0;
  forEachProductTerm(algebra, terms, lhs, rhs,
                     [&](unsigned, unsigned, ::uta::ga::BladeProduct product) {
                       result |= uint64_t(1) << product.blade;
                     });
  // The scalar product's result has one blade, the scalar.
  if (terms == ProductTerms::Scalar)
    return result ? 1 : 0;
  return result;
}

unsigned mlir::uta::getNumProductTerms(const Algebra &algebra,
                                       ProductTerms terms, uint64_t lhs,
                                       uint64_t rhs) {
  unsigned count = 0;
  forEachProductTerm(
      algebra, terms, lhs, rhs,
      [&](unsigned, unsigned, ::uta::ga::BladeProduct) { ++count; });
  return count;
}

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

/// The rule of a clifford op's result along its blade axis `q.axis`.
static std::optional<Rule> getCliffordRule(Operation *op, Query q,
                                           uint64_t all) {
  using namespace clifford;
  using Terms = ProductTerms;
  auto identity = [](ArrayRef<uint64_t> in) { return in[0]; };
  auto unary = [&](Value input, auto combine) {
    return Rule{all, {{input, q.axis}}, combine};
  };
  // A product with its operands narrowed by the sets recorded on it.
  auto product = [&](auto productOp, Terms terms) {
    const Algebra *algebra = &productOp.getAlgebra().getAlgebra();
    BladeSetAttr lhsSet = productOp.getLhsBladesAttr();
    BladeSetAttr rhsSet = productOp.getRhsBladesAttr();
    uint64_t lhsMask = lhsSet ? lhsSet.getBlades() : ~uint64_t(0);
    uint64_t rhsMask = rhsSet ? rhsSet.getBlades() : ~uint64_t(0);
    return Rule{all,
                {{productOp.getLhs(), q.axis}, {productOp.getRhs(), q.axis}},
                [=](ArrayRef<uint64_t> in) {
                  return getProductBlades(*algebra, terms, in[0] & lhsMask,
                                          in[1] & rhsMask);
                }};
  };
  return llvm::TypeSwitch<Operation *, std::optional<Rule>>(op)
      .Case([&](GradeProjectOp project) {
        uint64_t kept = getGradeBlades(project.getAlgebra().getAlgebra(),
                                       project.getGrades());
        return unary(project.getInput(),
                     [kept](ArrayRef<uint64_t> in) { return in[0] & kept; });
      })
      .Case<ReverseOp, GradeInvolutionOp, ConjugateOp, ScalarGateOp>(
          [&](auto scale) { return unary(scale.getInput(), identity); })
      .Case([&](GradeRmsNormOp norm) -> std::optional<Rule> {
        // With epsilon = 0 a grade that is zero everywhere divides 0 by 0.
        if (norm.getEpsilon().isZero())
          return std::nullopt;
        return unary(norm.getInput(), identity);
      })
      .Case([&](DualOp dual) {
        const Algebra *algebra = &dual.getAlgebra().getAlgebra();
        return unary(dual.getInput(), [algebra](ArrayRef<uint64_t> in) {
          uint64_t blades = 0;
          for (uint64_t rest = in[0]; rest; rest &= rest - 1) {
            std::optional<::uta::ga::BladeProduct> to =
                algebra->dualOf(std::countr_zero(rest));
            // The verifier rejects dual in degenerate algebras.
            blades |= to ? uint64_t(1) << to->blade : ~uint64_t(0);
          }
          return blades;
        });
      })
      .Case([&](GeometricProductOp p) { return product(p, Terms::Geometric); })
      .Case([&](OuterProductOp p) { return product(p, Terms::Outer); })
      .Case([&](LeftContractionOp p) {
        return product(p, Terms::LeftContraction);
      })
      .Case([&](ScalarProductOp p) { return product(p, Terms::Scalar); })
      .Case<WeightedProductOp, FcProductOp>(
          [&](auto p) { return product(p, Terms::Geometric); })
      .Case([&](SandwichOp sandwich) {
        const Algebra *algebra = &sandwich.getAlgebra().getAlgebra();
        BladeSetAttr rotorSet = sandwich.getRotorBladesAttr();
        BladeSetAttr inputSet = sandwich.getInputBladesAttr();
        uint64_t rotorMask = rotorSet ? rotorSet.getBlades() : ~uint64_t(0);
        uint64_t inputMask = inputSet ? inputSet.getBlades() : ~uint64_t(0);
        // r x reverse(r): reverse(r) has the blades of r.
        return Rule{
            all,
            {{sandwich.getRotor(), q.axis}, {sandwich.getInput(), q.axis}},
            [=](ArrayRef<uint64_t> in) {
              uint64_t rotor = in[0] & rotorMask;
              uint64_t rx = getProductBlades(*algebra, Terms::Geometric, rotor,
                                             in[1] & inputMask);
              return getProductBlades(*algebra, Terms::Geometric, rx, rotor);
            }};
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> mlir::uta::getBladeAxis(Operation *op) {
  using namespace clifford;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<GeometricProductOp, OuterProductOp, LeftContractionOp,
            ScalarProductOp, SandwichOp, ReverseOp, GradeInvolutionOp,
            ConjugateOp, GradeProjectOp, DualOp, ScalarGateOp,
            WeightedProductOp, FcProductOp, GradeRmsNormOp>(
          [](auto op) { return static_cast<int64_t>(op.getBladeAxis()); })
      .Default([](Operation *) { return std::nullopt; });
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

  if (std::optional<int64_t> bladeAxis = getBladeAxis(op)) {
    if (*bladeAxis != q.axis)
      return makeLeaf(all, all);
    if (std::optional<Rule> rule = getCliffordRule(op, q, all))
      return std::move(*rule);
    return makeLeaf(all, all);
  }

  auto identity = [](ArrayRef<uint64_t> in) { return in[0]; };
  return llvm::TypeSwitch<Operation *, Rule>(op)
      .Case<AddOp, SubOp, MaxOp, MinOp>([&](Operation *op) {
        return getBroadcastRule(op->getOperands(), q, size, all,
                                /*intersect=*/false);
      })
      .Case<MulOp>([&](Operation *op) {
        return getBroadcastRule(op->getOperands(), q, size, all,
                                /*intersect=*/true);
      })
      .Case<NegOp, AbsOp, ReluOp, TanhOp, SqrtOp, GeluOp, SiluOp, CastOp,
            BroadcastToOp>([&](Operation *op) {
        return getBroadcastRule(op->getOperands(), q, size, all,
                                /*intersect=*/false);
      })
      .Case([&](TransposeOp transpose) {
        // Result axis i is input axis permutation[i].
        int64_t from = transpose.getPermutation()[q.axis];
        return Rule{all, {{transpose.getInput(), from}}, identity};
      })
      .Default([&](Operation *) { return makeLeaf(all, all); });
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
