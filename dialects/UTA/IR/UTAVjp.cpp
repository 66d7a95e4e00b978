//===- UTAVjp.cpp - The vector-Jacobian product of every uta op -----------===//
//
// Each op's VjpOpInterface::buildVjp: the cotangents of its operands from the
// cotangent `g` of its result, in uta ops. Cotangents of broadcast operands
// are summed back to the operand's shape (vjp::sumToShape). Where an op is
// not differentiable at a point, the rule follows PyTorch (docs/autodiff.md):
// relu'(0) = 0, abs'(0) = 0, max/min split the gradient evenly at ties,
// reduce_max splits it evenly over the maxima, sign' = 0.
//
// No call here takes two arguments that each build ops: C++ leaves the order
// of argument evaluation open, and the backward graph must be the same
// whichever compiler built UTA.
//
//===----------------------------------------------------------------------===//

#include "dialects/UTA/IR/UTAOps.h"
#include "dialects/UTA/IR/VjpBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::uta;
using namespace mlir::uta::vjp;

namespace {

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Rules of binary ops: given d(result)/d(lhs) * g and d(result)/d(rhs) * g
/// at the broadcast shape, the cotangents summed to each operand's shape.
LogicalResult finishBinary(OpBuilder &b, Location loc, Operation *op,
                           ArrayRef<bool> wanted,
                           function_ref<Value()> lhsCotangent,
                           function_ref<Value()> rhsCotangent,
                           SmallVectorImpl<Value> &out) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  out.push_back(wanted[0] ? sumToShape(b, loc, lhsCotangent(), typeOf(lhs))
                          : Value());
  out.push_back(wanted[1] ? sumToShape(b, loc, rhsCotangent(), typeOf(rhs))
                          : Value());
  return success();
}

/// Rules of unary ops: the one cotangent, or nothing when it is not wanted.
LogicalResult finishUnary(ArrayRef<bool> wanted, function_ref<Value()> rule,
                          SmallVectorImpl<Value> &out) {
  out.push_back(wanted[0] ? rule() : Value());
  return success();
}

/// 0.5 * (1 + sign(a - b)): 1 where a > b, 0.5 at ties, 0 where a < b.
Value greaterMask(OpBuilder &b, Location loc, Value a, Value c) {
  Value sign = SignOp::create(b, loc, SubOp::create(b, loc, a, c));
  return scale(b, loc, shift(b, loc, sign, 1.0), 0.5);
}

/// 1 where `x` is zero, 0 elsewhere (1 - |sign(x)|).
Value zeroMask(OpBuilder &b, Location loc, Value x) {
  Value magnitude = AbsOp::create(b, loc, SignOp::create(b, loc, x));
  return sub(b, loc, scalarLike(b, loc, x, 1.0), magnitude);
}

/// The reduced-dims cotangent of a reduction reshaped with size-1 axes at
/// the reduced dims, ready to broadcast against the input.
Value keepDimsForm(OpBuilder &b, Location loc, Value g, Value input,
                   ArrayRef<int64_t> dims) {
  RankedTensorType inputType = typeOf(input);
  SmallVector<int64_t> kept(inputType.getShape());
  for (int64_t dim : dims)
    kept[dim] = 1;
  if (typeOf(g).getShape() == ArrayRef<int64_t>(kept))
    return g;
  return ReshapeOp::create(b, loc, typeOf(g).clone(kept), g);
}

/// The number of elements a reduction over `dims` of `input` sums.
int64_t reducedCount(Value input, ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= typeOf(input).getDimSize(dim);
  return count;
}

} // namespace

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

LogicalResult AddOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return finishBinary(
      b, getLoc(), *this, wanted, [&] { return g; }, [&] { return g; }, out);
}

LogicalResult SubOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishBinary(
      b, loc, *this, wanted, [&] { return g; },
      [&] { return NegOp::create(b, loc, g.getType(), g).getResult(); }, out);
}

LogicalResult MulOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishBinary(
      b, loc, *this, wanted, [&] { return mul(b, loc, g, getRhs()); },
      [&] { return mul(b, loc, g, getLhs()); }, out);
}

LogicalResult DivOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // d(a/b)/da = 1/b; d(a/b)/db = -(a/b)/b.
  return finishBinary(
      b, loc, *this, wanted, [&] { return div(b, loc, g, getRhs()); },
      [&] {
        Value quotient = div(b, loc, mul(b, loc, g, getResult()), getRhs());
        return NegOp::create(b, loc, quotient.getType(), quotient).getResult();
      },
      out);
}

/// max and min: each operand gets g where it is the one selected, half of g
/// at a tie, nothing where the other is selected. `greaterWins` for max.
static LogicalResult selectionVjp(OpBuilder &b, Operation *op, Value g,
                                  bool greaterWins, ArrayRef<bool> wanted,
                                  SmallVectorImpl<Value> &out) {
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto share = [&](Value mine, Value other) {
    Value mask = greaterWins ? greaterMask(b, loc, mine, other)
                             : greaterMask(b, loc, other, mine);
    return mul(b, loc, g, mask);
  };
  return finishBinary(
      b, loc, op, wanted, [&] { return share(lhs, rhs); },
      [&] { return share(rhs, lhs); }, out);
}

LogicalResult MaxOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return selectionVjp(b, *this, g, /*greaterWins=*/true, wanted, out);
}

LogicalResult MinOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return selectionVjp(b, *this, g, /*greaterWins=*/false, wanted, out);
}

LogicalResult PowOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value base = getLhs(), exponent = getRhs();
  return finishBinary(
      b, loc, *this, wanted,
      [&] {
        // e * a^(e-1), and 0 where e == 0 (PyTorch), which a^(e-1) with
        // e - 1 + 1 = 0 there gives without a 0 * inf.
        Value exponentMinusOne = shift(b, loc, exponent, -1.0);
        Value lowered =
            add(b, loc, exponentMinusOne, zeroMask(b, loc, exponent));
        Value power = PowOp::create(b, loc, base, lowered);
        return mul(b, loc, g, mul(b, loc, exponent, power));
      },
      [&] {
        // a^e * log(a), and 0 where a == 0 (log taken of 1 there).
        Value safeBase = add(b, loc, base, zeroMask(b, loc, base));
        Value log = LogOp::create(b, loc, safeBase.getType(), safeBase);
        return mul(b, loc, g, mul(b, loc, getResult(), log));
      },
      out);
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

LogicalResult NegOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted,
      [&] { return NegOp::create(b, getLoc(), g.getType(), g).getResult(); },
      out);
}

LogicalResult AbsOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        return mul(b, loc, g, SignOp::create(b, loc, getInput()).getResult());
      },
      out);
}

LogicalResult SignOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted, [&] { return zeros(b, getLoc(), typeOf(getInput())); }, out);
}

LogicalResult ExpOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted, [&] { return mul(b, getLoc(), g, getResult()); }, out);
}

LogicalResult LogOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted, [&] { return div(b, getLoc(), g, getInput()); }, out);
}

LogicalResult SqrtOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted, [&] { return div(b, loc, scale(b, loc, g, 0.5), getResult()); },
      out);
}

LogicalResult RsqrtOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // d(x^-1/2)/dx = -0.5 y^3.
  return finishUnary(
      wanted,
      [&] {
        Value y = getResult();
        Value cube = mul(b, loc, mul(b, loc, y, y), y);
        return mul(b, loc, scale(b, loc, g, -0.5), cube);
      },
      out);
}

LogicalResult ErfOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                              SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        Value x = getInput();
        Value negSquare = scale(b, loc, mul(b, loc, x, x), -1.0);
        Value gauss = ExpOp::create(b, loc, negSquare.getType(), negSquare);
        return mul(b, loc, scale(b, loc, g, 2.0 / std::sqrt(M_PI)), gauss);
      },
      out);
}

LogicalResult TanhOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        Value y = getResult();
        Value one = scalarLike(b, loc, y, 1.0);
        Value slope = sub(b, loc, one, mul(b, loc, y, y));
        return mul(b, loc, g, slope);
      },
      out);
}

LogicalResult SigmoidOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                  SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        Value y = getResult();
        Value slope =
            mul(b, loc, y, sub(b, loc, scalarLike(b, loc, y, 1.0), y));
        return mul(b, loc, g, slope);
      },
      out);
}

LogicalResult ReluOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // relu(sign(x)): 1 where x > 0, 0 elsewhere (0 at x = 0, as PyTorch).
  return finishUnary(
      wanted,
      [&] {
        Value sign = SignOp::create(b, loc, getInput());
        Value step = ReluOp::create(b, loc, sign.getType(), sign);
        return mul(b, loc, g, step);
      },
      out);
}

LogicalResult SiluOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // d(x s(x))/dx = s (1 + x (1 - s)).
  return finishUnary(
      wanted,
      [&] {
        Value x = getInput();
        Value s = SigmoidOp::create(b, loc, x.getType(), x);
        Value oneMinus = sub(b, loc, scalarLike(b, loc, s, 1.0), s);
        Value slope =
            mul(b, loc, s, shift(b, loc, mul(b, loc, x, oneMinus), 1.0));
        return mul(b, loc, g, slope);
      },
      out);
}

LogicalResult GeluOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value x = getInput();
  if (!getTanhApproximation()) {
    // Phi(x) + x phi(x).
    return finishUnary(
        wanted,
        [&] {
          Value scaled = scale(b, loc, x, M_SQRT1_2);
          Value erf = ErfOp::create(b, loc, scaled.getType(), scaled);
          Value cdf = scale(b, loc, shift(b, loc, erf, 1.0), 0.5);
          Value halfSquare = scale(b, loc, mul(b, loc, x, x), -0.5);
          Value gauss = ExpOp::create(b, loc, x.getType(), halfSquare);
          Value pdf = scale(b, loc, gauss, 1.0 / std::sqrt(2.0 * M_PI));
          return mul(b, loc, g, add(b, loc, cdf, mul(b, loc, x, pdf)));
        },
        out);
  }
  // y = 0.5 x (1 + t), t = tanh(c (x + k x^3)):
  // y' = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 k x^2).
  return finishUnary(
      wanted,
      [&] {
        const double c = std::sqrt(2.0 / M_PI), k = 0.044715;
        Value square = mul(b, loc, x, x);
        Value inner = scale(
            b, loc,
            mul(b, loc, x, shift(b, loc, scale(b, loc, square, k), 1.0)), c);
        Value t = TanhOp::create(b, loc, x.getType(), inner);
        Value one = scalarLike(b, loc, x, 1.0);
        Value left = scale(b, loc, add(b, loc, one, t), 0.5);
        Value sech2 = sub(b, loc, one, mul(b, loc, t, t));
        Value chain =
            scale(b, loc, shift(b, loc, scale(b, loc, square, 3.0 * k), 1.0),
                  0.5 * c);
        Value right = mul(b, loc, mul(b, loc, x, sech2), chain);
        return mul(b, loc, g, add(b, loc, left, right));
      },
      out);
}

LogicalResult CastOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                               SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted,
      [&] {
        return CastOp::create(b, getLoc(), getInput().getType(), g).getResult();
      },
      out);
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

/// `value` [..., R, C] as one matrix [(...) * R, C].
static Value flattenRows(OpBuilder &b, Location loc, Value value) {
  RankedTensorType type = typeOf(value);
  int64_t rows = type.getNumElements() / type.getShape().back();
  return ReshapeOp::create(b, loc, type.clone({rows, type.getShape().back()}),
                           value);
}

LogicalResult MatmulOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                 SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value a = getLhs(), w = getRhs();
  bool transposedA = getTransposeA(), transposedB = getTransposeB();
  // A product over an empty dimension contributes nothing: the cotangents
  // it would give are zeros, built as such rather than as empty
  // contractions, which the GPU targets refuse.
  bool noColumns = typeOf(g).getShape().back() == 0;
  bool noRows =
      typeOf(g).getNumElements() == 0 || typeOf(a).getNumElements() == 0;
  // With A = a (a^T when transposed) and B = w (w^T when transposed): dA =
  // g B^T, dB = A^T g. Each is one matmul that reads its operands as stored
  // (transpose_a and transpose_b), and gives the cotangent in its operand's
  // own layout: dA^T = B g^T, dB^T = g^T A.
  Value lhsCotangent;
  if (wanted[0] && noColumns) {
    lhsCotangent = zeros(b, loc, typeOf(a));
  } else if (wanted[0]) {
    Value product =
        transposedA
            ? MatmulOp::create(b, loc, w, g, /*transposeB=*/true,
                               /*transposeA=*/transposedB)
            : MatmulOp::create(b, loc, g, w, /*transposeB=*/!transposedB);
    lhsCotangent = sumToShape(b, loc, product, typeOf(a));
  }
  // A rank-2 B shared by a batch of A (stored [..., M, K]) gets the sum over
  // the batch as one matrix product over all rows, so the batch is summed
  // inside the GEMM, in its fixed order.
  Value rhsCotangent;
  if (wanted[1] && noRows) {
    rhsCotangent = zeros(b, loc, typeOf(w));
  } else if (wanted[1]) {
    Value lhs = a, rhs = g;
    if (typeOf(w).getRank() == 2 && typeOf(a).getRank() > 2 && !transposedA) {
      lhs = flattenRows(b, loc, a);
      rhs = flattenRows(b, loc, g);
    }
    Value product =
        transposedB
            ? MatmulOp::create(b, loc, rhs, lhs, /*transposeB=*/transposedA,
                               /*transposeA=*/true)
            : MatmulOp::create(b, loc, lhs, rhs, /*transposeB=*/false,
                               /*transposeA=*/!transposedA);
    rhsCotangent = sumToShape(b, loc, product, typeOf(w));
  }
  out.push_back(lhsCotangent);
  out.push_back(rhsCotangent);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

LogicalResult ReduceSumOp::buildVjp(OpBuilder &b, Value g,
                                    ArrayRef<bool> wanted,
                                    SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        Value kept = keepDimsForm(b, loc, g, getInput(), getDims());
        return BroadcastToOp::create(b, loc, getInput().getType(), kept)
            .getResult();
      },
      out);
}

LogicalResult ReduceMeanOp::buildVjp(OpBuilder &b, Value g,
                                     ArrayRef<bool> wanted,
                                     SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  return finishUnary(
      wanted,
      [&] {
        Value kept = keepDimsForm(b, loc, g, getInput(), getDims());
        Value mean = scale(b, loc, kept,
                           1.0 / double(reducedCount(getInput(), getDims())));
        return BroadcastToOp::create(b, loc, getInput().getType(), mean)
            .getResult();
      },
      out);
}

LogicalResult ReduceMaxOp::buildVjp(OpBuilder &b, Value g,
                                    ArrayRef<bool> wanted,
                                    SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // The gradient goes to the maxima, split evenly among ties (PyTorch's
  // amax): mask = 1 + sign(x - max) is 1 at a maximum and 0 elsewhere.
  return finishUnary(
      wanted,
      [&] {
        Value x = getInput();
        Value max = keepDimsForm(b, loc, getResult(), x, getDims());
        Value sign = SignOp::create(b, loc, SubOp::create(b, loc, x, max));
        Value mask = shift(b, loc, sign, 1.0);
        Value ties = ReduceSumOp::create(b, loc, mask, getDims(),
                                         /*keepDims=*/true);
        Value share = div(b, loc, keepDimsForm(b, loc, g, x, getDims()), ties);
        return mul(b, loc, mask, share);
      },
      out);
}

LogicalResult SoftmaxOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                  SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  // y (g - sum over dim of g y).
  return finishUnary(
      wanted,
      [&] {
        Value y = getResult();
        int64_t dim = getDim();
        Value dot = ReduceSumOp::create(b, loc, mul(b, loc, g, y),
                                        ArrayRef<int64_t>{dim},
                                        /*keepDims=*/true);
        return mul(b, loc, y, sub(b, loc, g, dot));
      },
      out);
}

LogicalResult LayerNormOp::buildVjp(OpBuilder &b, Value g,
                                    ArrayRef<bool> wanted,
                                    SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value x = getInput();
  int64_t rank = typeOf(x).getRank(), axis = getAxis();
  SmallVector<int64_t> normalized, leading;
  for (int64_t dim = 0; dim < rank; ++dim)
    (dim < axis ? leading : normalized).push_back(dim);
  auto mean = [&](Value value) -> Value {
    return ReduceMeanOp::create(b, loc, value, normalized, /*keepDims=*/true);
  };
  // Recomputed statistics: xhat = (x - mean) * rstd.
  Value centered = sub(b, loc, x, mean(x));
  Value variance = mean(mul(b, loc, centered, centered));
  Value rstd =
      RsqrtOp::create(b, loc, variance.getType(),
                      shift(b, loc, variance, getEpsilon().convertToDouble()));
  Value normalizedX = mul(b, loc, centered, rstd);

  // dx = rstd (gxhat - mean(gxhat) - xhat mean(gxhat xhat)), gxhat = g w.
  Value inputCotangent;
  if (wanted[0]) {
    Value gxhat = mul(b, loc, g, getWeight());
    Value projected =
        mul(b, loc, normalizedX, mean(mul(b, loc, gxhat, normalizedX)));
    inputCotangent = mul(
        b, loc, rstd, sub(b, loc, sub(b, loc, gxhat, mean(gxhat)), projected));
  }
  auto sumLeading = [&](Value value) -> Value {
    return sumToShape(b, loc, value, typeOf(getWeight()));
  };
  out.push_back(inputCotangent);
  out.push_back(wanted[1] ? sumLeading(mul(b, loc, g, normalizedX)) : Value());
  out.push_back(wanted[2] ? sumLeading(g) : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::buildVjp(OpBuilder &b, Value g,
                                    ArrayRef<bool> wanted,
                                    SmallVectorImpl<Value> &out) {
  // Rounding is piecewise constant: its derivative is zero wherever it has
  // one, which would silently stop the gradient.
  if (getRoundToTf32())
    return emitOpError("has no gradient: round_to_tf32 is piecewise constant");
  return finishUnary(
      wanted,
      [&] {
        ArrayRef<int64_t> permutation = getPermutation();
        SmallVector<int64_t> inverse(permutation.size());
        for (auto [i, source] : llvm::enumerate(permutation))
          inverse[source] = i;
        return TransposeOp::create(b, getLoc(), g, inverse).getResult();
      },
      out);
}

LogicalResult ReshapeOp::buildVjp(OpBuilder &b, Value g, ArrayRef<bool> wanted,
                                  SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted,
      [&] {
        return ReshapeOp::create(b, getLoc(), getInput().getType(), g)
            .getResult();
      },
      out);
}

LogicalResult BroadcastToOp::buildVjp(OpBuilder &b, Value g,
                                      ArrayRef<bool> wanted,
                                      SmallVectorImpl<Value> &out) {
  return finishUnary(
      wanted, [&] { return sumToShape(b, getLoc(), g, typeOf(getInput())); },
      out);
}
