//===- ScalarMath.cpp - f32 scalar code of the elementwise ops ------------===//

#include "passes/Conversion/UTAToGPU/ScalarMath.h"
#include "passes/Conversion/UTAToGPU/KernelEmitter.h"

#include "dialects/UTA/IR/UTAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uta;

Value mlir::uta::emitGeluGate(OpBuilder &b, Location loc, Value x) {
  Value scaled =
      arith::MulFOp::create(b, loc, x, f32Constant(b, loc, M_SQRT1_2));
  Value erf = math::ErfOp::create(b, loc, scaled);
  Value one = f32Constant(b, loc, 1.0);
  return arith::MulFOp::create(b, loc, f32Constant(b, loc, 0.5),
                               arith::AddFOp::create(b, loc, one, erf));
}

Value mlir::uta::emitNormalDensity(OpBuilder &b, Location loc, Value x) {
  // One op per statement: the order of function arguments is unspecified,
  // and the kernel's IR must not depend on the compiler that built UTA.
  Value square = arith::MulFOp::create(b, loc, x, x);
  Value minusHalf = f32Constant(b, loc, -0.5);
  Value halfSquare = arith::MulFOp::create(b, loc, square, minusHalf);
  Value e = math::ExpOp::create(b, loc, halfSquare);
  // 1 / sqrt(2 pi) = (2 / sqrt(pi)) / 2 / sqrt(2).
  return arith::MulFOp::create(
      b, loc, e, f32Constant(b, loc, 0.5 * M_2_SQRTPI * M_SQRT1_2));
}

/// 1 / (1 + exp(-x)).
static Value emitSigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = f32Constant(b, loc, 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

/// 1 where x > 0, -1 where x < 0, x itself for a zero (keeping its sign) and
/// NaN: both comparisons are false for those, so neither select fires.
static Value emitSign(OpBuilder &b, Location loc, Value x) {
  Value zero = f32Constant(b, loc, 0.0);
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  Value positive =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
  Value signOrX =
      arith::SelectOp::create(b, loc, negative, f32Constant(b, loc, -1.0), x);
  return arith::SelectOp::create(b, loc, positive, f32Constant(b, loc, 1.0),
                                 signOrX);
}

/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
static Value emitTanhGelu(OpBuilder &b, Location loc, Value x) {
  Value x3 =
      arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x), x);
  Value inner = arith::AddFOp::create(
      b, loc, x,
      arith::MulFOp::create(b, loc, f32Constant(b, loc, 0.044715), x3));
  Value t = math::TanhOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, f32Constant(b, loc, std::sqrt(2.0 / M_PI)),
                            inner));
  Value half = arith::MulFOp::create(b, loc, f32Constant(b, loc, 0.5), x);
  return arith::MulFOp::create(
      b, loc, half, arith::AddFOp::create(b, loc, f32Constant(b, loc, 1.0), t));
}

FailureOr<Value> mlir::uta::emitScalarElementwise(OpBuilder &b, Operation *op,
                                                  ValueRange v) {
  Location loc = op->getLoc();
  Value result =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case(
              [&](AddOp) { return arith::AddFOp::create(b, loc, v[0], v[1]); })
          .Case(
              [&](SubOp) { return arith::SubFOp::create(b, loc, v[0], v[1]); })
          .Case(
              [&](MulOp) { return arith::MulFOp::create(b, loc, v[0], v[1]); })
          .Case(
              [&](DivOp) { return arith::DivFOp::create(b, loc, v[0], v[1]); })
          // maximumf/minimumf propagate NaN, as uta.max and uta.min do.
          .Case([&](MaxOp) {
            return arith::MaximumFOp::create(b, loc, v[0], v[1]);
          })
          .Case([&](MinOp) {
            return arith::MinimumFOp::create(b, loc, v[0], v[1]);
          })
          .Case([&](PowOp) { return math::PowFOp::create(b, loc, v[0], v[1]); })
          .Case([&](NegOp) { return arith::NegFOp::create(b, loc, v[0]); })
          .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, v[0]); })
          .Case([&](SignOp) { return emitSign(b, loc, v[0]); })
          .Case([&](ExpOp) { return math::ExpOp::create(b, loc, v[0]); })
          .Case([&](LogOp) { return math::LogOp::create(b, loc, v[0]); })
          .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, v[0]); })
          .Case([&](RsqrtOp) {
            // 1 / sqrt(x) with IEEE division and square root; math.rsqrt
            // would become an approximate instruction on NVIDIA GPUs.
            return arith::DivFOp::create(b, loc, f32Constant(b, loc, 1.0),
                                         math::SqrtOp::create(b, loc, v[0]));
          })
          .Case([&](TanhOp) { return math::TanhOp::create(b, loc, v[0]); })
          .Case([&](ErfOp) { return math::ErfOp::create(b, loc, v[0]); })
          .Case([&](SigmoidOp) { return emitSigmoid(b, loc, v[0]); })
          .Case([&](ReluOp) {
            return arith::MaximumFOp::create(b, loc, v[0],
                                             f32Constant(b, loc, 0.0));
          })
          .Case([&](SiluOp) {
            return arith::MulFOp::create(b, loc, v[0],
                                         emitSigmoid(b, loc, v[0]));
          })
          .Case([&](GeluOp gelu) -> Value {
            if (gelu.getTanhApproximation())
              return emitTanhGelu(b, loc, v[0]);
            return arith::MulFOp::create(b, loc, v[0],
                                         emitGeluGate(b, loc, v[0]));
          })
          .Default([](Operation *) { return Value(); });
  if (!result)
    return op->emitOpError("has no elementwise formula");
  return result;
}
