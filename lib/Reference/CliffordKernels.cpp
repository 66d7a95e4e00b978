//===- CliffordKernels.cpp - Float64 reference of the clifford ops --------===//
//
// Every product is a sum over the non-zero entries of the algebra's Cayley
// table, filtered by grade for the outer, contraction and scalar products.
// Signs come from the table alone, so these kernels are only as right as
// uta::ga::Algebra, which the golden tests check against hand-written
// formulas.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/CliffordKernels.h"

#include "lib/Reference/Indexing.h"

#include <cmath>
#include <numbers>

using namespace mlir::uta::reference;
using namespace mlir::uta::reference::detail;
using llvm::ArrayRef;
using llvm::Expected;
using ::uta::ga::Algebra;

template <typename... Ts>
static llvm::Error makeError(const char *format, Ts &&...values) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), format,
                                 std::forward<Ts>(values)...);
}

static std::string algebraName(const Algebra &algebra) {
  return "Cl(" + std::to_string(algebra.p()) + ", " +
         std::to_string(algebra.q()) + ", " + std::to_string(algebra.r()) + ")";
}

namespace {
/// A multivector tensor seen as its blade axis plus the other ("rest") axes,
/// each with its stride in the tensor's C-order data.
struct BladeView {
  std::vector<int64_t> restShape;
  std::vector<int64_t> restStrides;
  int64_t bladeStride = 0;
};
} // namespace

/// Checks that `x` has a blade axis of `bladeCount` values at `bladeAxis` and
/// splits its shape into that axis and the others.
static Expected<BladeView> viewOf(const RefTensor &x, int64_t bladeAxis,
                                  int64_t bladeCount, const char *what) {
  if (!x.isWellFormed())
    return makeError("%s has shape %s but %zu values", what,
                     shapeToString(x.shape).c_str(), x.data.size());
  if (bladeAxis < 0 || bladeAxis >= x.rank())
    return makeError("blade axis %lld is out of range for the %s of shape %s",
                     static_cast<long long>(bladeAxis), what,
                     shapeToString(x.shape).c_str());
  if (x.shape[bladeAxis] != bladeCount)
    return makeError("%s has %lld values on blade axis %lld, expected %lld",
                     what, static_cast<long long>(x.shape[bladeAxis]),
                     static_cast<long long>(bladeAxis),
                     static_cast<long long>(bladeCount));
  std::vector<int64_t> strides = contiguousStrides(x.shape);
  BladeView view;
  view.bladeStride = strides[bladeAxis];
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (d == bladeAxis)
      continue;
    view.restShape.push_back(x.shape[d]);
    view.restStrides.push_back(strides[d]);
  }
  return view;
}

/// The strides that read `view`'s rest axes broadcast to `shape` (size-1
/// axes get stride 0).
static std::vector<int64_t> stridesOver(const BladeView &view,
                                        ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 0);
  size_t lead = shape.size() - view.restShape.size();
  for (size_t i = 0; i < view.restShape.size(); ++i)
    if (view.restShape[i] != 1)
      strides[lead + i] = view.restStrides[i];
  return strides;
}

/// `rest` with an axis of `bladeCount` inserted at `bladeAxis`.
static std::vector<int64_t>
withBladeAxis(ArrayRef<int64_t> rest, int64_t bladeAxis, int64_t bladeCount) {
  std::vector<int64_t> shape(rest.begin(), rest.end());
  shape.insert(shape.begin() + bladeAxis, bladeCount);
  return shape;
}

namespace {
/// An operand of a broadcasting kernel: its tensor, the size of its blade
/// axis and the name its errors give it.
struct NamedOperand {
  const RefTensor &tensor;
  int64_t blades;
  const char *name;
};

/// The two operands of a broadcasting kernel (a product or its adjoint) seen
/// along the blade axis, their other axes broadcast to `rest`, and the zeroed
/// result, whose blade axis is where the operands have theirs.
struct BroadcastLayout {
  BladeView lhs, rhs, result;
  std::vector<int64_t> rest;
  RefTensor out;

  /// Calls `fn(offsets)` for every position of `rest`, offsets[0] and [1]
  /// at the operands' blade 0 there and offsets[2] at the result's.
  template <typename Fn> void forEachPosition(Fn fn) const {
    std::vector<int64_t> strides[] = {
        stridesOver(lhs, rest), stridesOver(rhs, rest), result.restStrides};
    forEachIndex(rest, strides, fn);
  }
};
} // namespace

/// Checks two operands of equal rank whose non-blade axes broadcast, and
/// allocates the result with `resultBlades` blades.
static Expected<BroadcastLayout> broadcastLayout(const NamedOperand &lhs,
                                                 const NamedOperand &rhs,
                                                 int64_t bladeAxis,
                                                 int64_t resultBlades) {
  const RefTensor &x = lhs.tensor, &y = rhs.tensor;
  Expected<BladeView> xv = viewOf(x, bladeAxis, lhs.blades, lhs.name);
  if (!xv)
    return xv.takeError();
  Expected<BladeView> yv = viewOf(y, bladeAxis, rhs.blades, rhs.name);
  if (!yv)
    return yv.takeError();
  if (x.rank() != y.rank())
    return makeError("%s has rank %lld but %s has rank %lld", lhs.name,
                     static_cast<long long>(x.rank()), rhs.name,
                     static_cast<long long>(y.rank()));
  Expected<std::vector<int64_t>> rest =
      broadcastShapes(xv->restShape, yv->restShape);
  if (!rest)
    return makeError("operand shapes %s and %s do not broadcast outside "
                     "blade axis %lld",
                     shapeToString(x.shape).c_str(),
                     shapeToString(y.shape).c_str(),
                     static_cast<long long>(bladeAxis));
  RefTensor out{withBladeAxis(*rest, bladeAxis, resultBlades), {}};
  out.data.assign(out.numElements(), 0.0);
  Expected<BladeView> ov = viewOf(out, bladeAxis, resultBlades, "result");
  if (!ov)
    return ov.takeError();
  return BroadcastLayout{std::move(*xv), std::move(*yv), std::move(*ov),
                         std::move(*rest), std::move(out)};
}

namespace {
/// One non-zero term of a product: blade i times blade j is sign * blade k.
struct Term {
  unsigned i, j, k;
  double sign;
  unsigned path;
};
} // namespace

/// The Cayley terms a product of `kind` keeps. For the scalar product k is 0,
/// the only blade of its size-1 result.
static std::vector<Term> termsOf(const Algebra &algebra, ProductKind kind) {
  std::vector<Term> terms;
  for (unsigned i = 0; i < algebra.numBlades(); ++i) {
    for (unsigned j = 0; j < algebra.numBlades(); ++j) {
      ::uta::ga::BladeProduct prod = algebra.product(i, j);
      if (prod.sign == 0)
        continue;
      int gi = algebra.grade(i), gj = algebra.grade(j);
      int gk = algebra.grade(prod.blade);
      bool keep = true;
      switch (kind) {
      case ProductKind::Geometric:
        break;
      case ProductKind::Outer:
        keep = gk == gi + gj;
        break;
      case ProductKind::LeftContraction:
        keep = gj >= gi && gk == gj - gi;
        break;
      case ProductKind::Scalar:
        keep = gk == 0;
        break;
      }
      if (!keep)
        continue;
      std::optional<unsigned> path = algebra.pathIndex(gi, gk, gj);
      terms.push_back(
          {i, j, prod.blade, static_cast<double>(prod.sign), path ? *path : 0});
    }
  }
  return terms;
}

Expected<RefTensor>
mlir::uta::reference::cliffordProduct(const Algebra &algebra, ProductKind kind,
                                      const RefTensor &x, const RefTensor &y,
                                      int64_t bladeAxis) {
  int64_t blades = algebra.numBlades();
  int64_t outBlades = kind == ProductKind::Scalar ? 1 : blades;
  Expected<BroadcastLayout> layout = broadcastLayout(
      {x, blades, "lhs"}, {y, blades, "rhs"}, bladeAxis, outBlades);
  if (!layout)
    return layout.takeError();

  std::vector<Term> terms = termsOf(algebra, kind);
  const BladeView &xv = layout->lhs, &yv = layout->rhs, &ov = layout->result;
  RefTensor &out = layout->out;
  layout->forEachPosition([&](ArrayRef<int64_t> offsets) {
    for (const Term &t : terms)
      out.data[offsets[2] + t.k * ov.bladeStride] +=
          t.sign * x.data[offsets[0] + t.i * xv.bladeStride] *
          y.data[offsets[1] + t.j * yv.bladeStride];
  });
  return std::move(out);
}

/// Calls `fn(at)` for every position along `view`'s non-blade axes, where
/// at(b) is the data index of blade b there: in every tensor of `view`'s
/// shape, since they share one layout.
template <typename Fn>
static void forEachMultivector(const BladeView &view, Fn fn) {
  std::vector<int64_t> strides[] = {view.restStrides};
  forEachIndex(view.restShape, strides, [&](ArrayRef<int64_t> offsets) {
    fn([&](unsigned blade) { return offsets[0] + blade * view.bladeStride; });
  });
}

/// The blade-local unary ops: for every position along the non-blade axes,
/// `fn(in, outAt)` computes one multivector of the result, where in(b) reads
/// blade b of x there and outAt(b) is blade b of the (zeroed) result there.
template <typename Fn>
static Expected<RefTensor> mapBlades(const Algebra &algebra, const RefTensor &x,
                                     int64_t bladeAxis, Fn fn) {
  Expected<BladeView> xv = viewOf(x, bladeAxis, algebra.numBlades(), "input");
  if (!xv)
    return xv.takeError();
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  forEachMultivector(*xv, [&](auto at) {
    auto in = [&](unsigned blade) { return x.data[at(blade)]; };
    auto outAt = [&](unsigned blade) -> double & {
      return out.data[at(blade)];
    };
    fn(in, outAt);
  });
  return out;
}

Expected<RefTensor> mlir::uta::reference::involution(const Algebra &algebra,
                                                     InvolutionKind kind,
                                                     const RefTensor &x,
                                                     int64_t bladeAxis) {
  std::vector<double> signs;
  for (unsigned b = 0; b < algebra.numBlades(); ++b) {
    switch (kind) {
    case InvolutionKind::Reverse:
      signs.push_back(algebra.reverseSign(b));
      break;
    case InvolutionKind::GradeInvolution:
      signs.push_back(algebra.gradeInvolutionSign(b));
      break;
    case InvolutionKind::Conjugate:
      signs.push_back(algebra.conjugateSign(b));
      break;
    }
  }
  return mapBlades(algebra, x, bladeAxis, [&](auto in, auto outAt) {
    for (unsigned b = 0; b < algebra.numBlades(); ++b)
      outAt(b) = signs[b] * in(b);
  });
}

Expected<RefTensor> mlir::uta::reference::gradeProject(const Algebra &algebra,
                                                       const RefTensor &x,
                                                       ArrayRef<int64_t> grades,
                                                       int64_t bladeAxis) {
  std::vector<bool> keepGrade(algebra.numGrades(), false);
  for (int64_t g : grades) {
    if (g < 0 || g >= static_cast<int64_t>(algebra.numGrades()))
      return makeError("grade %lld does not exist in %s",
                       static_cast<long long>(g), algebraName(algebra).c_str());
    keepGrade[g] = true;
  }
  return mapBlades(algebra, x, bladeAxis, [&](auto in, auto outAt) {
    for (unsigned b = 0; b < algebra.numBlades(); ++b)
      outAt(b) = keepGrade[algebra.grade(b)] ? in(b) : 0.0;
  });
}

Expected<RefTensor> mlir::uta::reference::dual(const Algebra &algebra,
                                               const RefTensor &x,
                                               int64_t bladeAxis) {
  if (algebra.isDegenerate())
    return makeError("the dual is undefined in the degenerate algebra %s",
                     algebraName(algebra).c_str());
  return mapBlades(algebra, x, bladeAxis, [&](auto in, auto outAt) {
    for (unsigned b = 0; b < algebra.numBlades(); ++b) {
      ::uta::ga::BladeProduct d = *algebra.dualOf(b);
      outAt(d.blade) += d.sign * in(b);
    }
  });
}

Expected<RefTensor> mlir::uta::reference::sandwich(const Algebra &algebra,
                                                   const RefTensor &rotor,
                                                   const RefTensor &x,
                                                   int64_t bladeAxis) {
  Expected<RefTensor> rx =
      cliffordProduct(algebra, ProductKind::Geometric, rotor, x, bladeAxis);
  if (!rx)
    return rx.takeError();
  Expected<RefTensor> reversed =
      involution(algebra, InvolutionKind::Reverse, rotor, bladeAxis);
  if (!reversed)
    return reversed.takeError();
  return cliffordProduct(algebra, ProductKind::Geometric, *rx, *reversed,
                         bladeAxis);
}

/// The gate of scalar_gate: Phi(s) = 0.5 (1 + erf(s / sqrt 2)), the
/// standard normal distribution function.
static double getScalarGate(double s) {
  return 0.5 * (1.0 + std::erf(s / std::numbers::sqrt2));
}

Expected<RefTensor> mlir::uta::reference::scalarGate(const Algebra &algebra,
                                                     const RefTensor &x,
                                                     int64_t bladeAxis) {
  return mapBlades(algebra, x, bladeAxis, [&](auto in, auto outAt) {
    double gate = getScalarGate(in(0));
    for (unsigned b = 0; b < algebra.numBlades(); ++b)
      outAt(b) = in(b)*gate;
  });
}

/// Checks the [2^n, B, F] operands of the layer ops.
static llvm::Error checkLayerOperand(const Algebra &algebra, const RefTensor &x,
                                     const char *what) {
  if (!x.isWellFormed())
    return makeError("%s has shape %s but %zu values", what,
                     shapeToString(x.shape).c_str(), x.data.size());
  if (x.rank() != 3 || x.shape[0] != algebra.numBlades())
    return makeError("%s must have shape [%u, B, F] in %s, got %s", what,
                     algebra.numBlades(), algebraName(algebra).c_str(),
                     shapeToString(x.shape).c_str());
  return llvm::Error::success();
}

/// Checks that `x` (named `xName` in the error) and `y` have one shape.
static llvm::Error checkSameShape(const RefTensor &x, const char *xName,
                                  const RefTensor &y, const char *yName) {
  if (x.shape != y.shape)
    return makeError("%s %s and %s %s must have the same shape", xName,
                     shapeToString(x.shape).c_str(), yName,
                     shapeToString(y.shape).c_str());
  return llvm::Error::success();
}

/// The blade view of `x` and `y`, which must have one shape (so one offset
/// serves both, and a result of that shape).
static Expected<BladeView> viewOfPair(const RefTensor &x, const char *xName,
                                      const RefTensor &y, const char *yName,
                                      int64_t bladeAxis, int64_t blades) {
  Expected<BladeView> xv = viewOf(x, bladeAxis, blades, xName);
  if (!xv)
    return xv.takeError();
  Expected<BladeView> yv = viewOf(y, bladeAxis, blades, yName);
  if (!yv)
    return yv.takeError();
  if (llvm::Error err = checkSameShape(x, xName, y, yName))
    return std::move(err);
  return xv;
}

Expected<RefTensor> mlir::uta::reference::pairGate(const Algebra &algebra,
                                                   const RefTensor &x,
                                                   const RefTensor &gates,
                                                   int64_t bladeAxis) {
  int64_t blades = algebra.numBlades();
  Expected<BladeView> view =
      viewOfPair(x, "lhs", gates, "rhs", bladeAxis, blades);
  if (!view)
    return view.takeError();
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  forEachMultivector(*view, [&](auto at) {
    double gate =
        getScalarGate(x.data[at(0)]) * getScalarGate(gates.data[at(0)]);
    for (unsigned b = 0; b < blades; ++b)
      out.data[at(b)] = x.data[at(b)] * gate;
  });
  return out;
}

/// Checks two [2^n, B, F] operands of one shape.
static llvm::Error checkLayerPair(const Algebra &algebra, const RefTensor &x,
                                  const char *xName, const RefTensor &y,
                                  const char *yName) {
  if (llvm::Error err = checkLayerOperand(algebra, x, xName))
    return err;
  if (llvm::Error err = checkLayerOperand(algebra, y, yName))
    return err;
  return checkSameShape(x, xName, y, yName);
}

/// Checks the [F, P] path weights of weighted_product and its adjoint.
static llvm::Error checkPathWeights(const RefTensor &w, int64_t features,
                                    int64_t paths) {
  if (!w.isWellFormed() || w.shape != std::vector<int64_t>{features, paths})
    return makeError("weights must have shape [%lld, %lld] (features, "
                     "paths), got %s",
                     static_cast<long long>(features),
                     static_cast<long long>(paths),
                     shapeToString(w.shape).c_str());
  return llvm::Error::success();
}

/// The per-grade means of the norm and its adjoint over [2^n, B, F]: for
/// every grade g and batch element b, `fn(forEachElement)`, where
/// forEachElement(visit) calls visit(at) with the data index of every
/// element of g's blades at b, blade by blade, features innermost.
template <typename Fn>
static void forEachGradeRow(const Algebra &algebra, const RefTensor &x, Fn fn) {
  int64_t batch = x.shape[1], features = x.shape[2];
  for (unsigned g = 0; g < algebra.numGrades(); ++g) {
    for (int64_t b = 0; b < batch; ++b) {
      fn([&](auto visit) {
        for (unsigned blade : algebra.bladesOfGrade(g))
          for (int64_t f = 0; f < features; ++f)
            visit((blade * batch + b) * features + f);
      });
    }
  }
}

Expected<RefTensor>
mlir::uta::reference::weightedProduct(const Algebra &algebra,
                                      const RefTensor &x, const RefTensor &y,
                                      const RefTensor &w) {
  if (llvm::Error err = checkLayerPair(algebra, x, "lhs", y, "rhs"))
    return std::move(err);
  int64_t batch = x.shape[1], features = x.shape[2];
  int64_t paths = algebra.numPaths();
  if (llvm::Error err = checkPathWeights(w, features, paths))
    return std::move(err);
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  int64_t plane = batch * features;
  for (const Term &t : termsOf(algebra, ProductKind::Geometric))
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t f = 0; f < features; ++f)
        out.data[t.k * plane + b * features + f] +=
            t.sign * w.data[f * paths + t.path] *
            x.data[t.i * plane + b * features + f] *
            y.data[t.j * plane + b * features + f];
  return out;
}

Expected<RefTensor> mlir::uta::reference::pairGateFactor(const Algebra &algebra,
                                                         const RefTensor &x,
                                                         const RefTensor &y) {
  if (llvm::Error err = checkLayerPair(algebra, x, "lhs", y, "rhs"))
    return std::move(err);
  int64_t positions = x.shape[1] * x.shape[2];
  RefTensor out{{x.shape[1], x.shape[2]}, std::vector<double>(positions)};
  // Blade 0 is the first B * F values of [2^n, B, F].
  for (int64_t at = 0; at < positions; ++at)
    out.data[at] = getScalarGate(x.data[at]) * getScalarGate(y.data[at]);
  return out;
}

Expected<RefTensor> mlir::uta::reference::fcProduct(const Algebra &algebra,
                                                    const RefTensor &x,
                                                    const RefTensor &y,
                                                    const RefTensor &w,
                                                    const RefTensor *gate) {
  if (llvm::Error err = checkLayerPair(algebra, x, "lhs", y, "rhs"))
    return std::move(err);
  int64_t batch = x.shape[1], in = x.shape[2];
  if (gate &&
      (!gate->isWellFormed() || gate->shape != std::vector<int64_t>{batch, in}))
    return makeError("gate must have shape [%lld, %lld] (batch, input "
                     "features), got %s",
                     static_cast<long long>(batch), static_cast<long long>(in),
                     shapeToString(gate->shape).c_str());
  int64_t paths = algebra.numPaths();
  if (!w.isWellFormed() || w.rank() != 3 || w.shape[0] != paths ||
      w.shape[1] != in)
    return makeError("weights must have shape [%lld, %lld, Fout] (paths, "
                     "input features, output features), got %s",
                     static_cast<long long>(paths), static_cast<long long>(in),
                     shapeToString(w.shape).c_str());
  int64_t outFeatures = w.shape[2];
  RefTensor out{{x.shape[0], batch, outFeatures}, {}};
  out.data.assign(out.numElements(), 0.0);
  for (const Term &t : termsOf(algebra, ProductKind::Geometric)) {
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t fi = 0; fi < in; ++fi) {
        double xy = t.sign * x.data[(t.i * batch + b) * in + fi] *
                    y.data[(t.j * batch + b) * in + fi];
        if (gate)
          xy *= gate->data[b * in + fi];
        const double *wRow = w.data.data() + (t.path * in + fi) * outFeatures;
        double *zRow = out.data.data() + (t.k * batch + b) * outFeatures;
        for (int64_t o = 0; o < outFeatures; ++o)
          zRow[o] += xy * wRow[o];
      }
    }
  }
  return out;
}

Expected<RefTensor> mlir::uta::reference::gradeRmsNorm(const Algebra &algebra,
                                                       const RefTensor &x,
                                                       double epsilon) {
  if (llvm::Error err = checkLayerOperand(algebra, x, "input"))
    return std::move(err);
  double count = static_cast<double>(x.shape[2]);
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  forEachGradeRow(algebra, x, [&](auto forEachElement) {
    double sumSquares = 0.0;
    forEachElement([&](int64_t at) { sumSquares += x.data[at] * x.data[at]; });
    double norm = std::sqrt(sumSquares / count + epsilon);
    forEachElement([&](int64_t at) { out.data[at] = x.data[at] / norm; });
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Adjoints of the products
//===----------------------------------------------------------------------===//

Expected<RefTensor> mlir::uta::reference::productAdjoint(
    const Algebra &algebra, ProductKind kind, ProductOperand operand,
    const RefTensor &cotangent, const RefTensor &other, int64_t bladeAxis) {
  int64_t blades = algebra.numBlades();
  int64_t cotangentBlades = kind == ProductKind::Scalar ? 1 : blades;
  Expected<BroadcastLayout> layout =
      broadcastLayout({cotangent, cotangentBlades, "cotangent"},
                      {other, blades, "other"}, bladeAxis, blades);
  if (!layout)
    return layout.takeError();

  // For the scalar product every term lands on k = 0, the cotangent's only
  // blade.
  std::vector<Term> terms = termsOf(algebra, kind);
  const BladeView &gv = layout->lhs, &ov = layout->rhs, &rv = layout->result;
  RefTensor &out = layout->out;
  layout->forEachPosition([&](ArrayRef<int64_t> offsets) {
    auto g = [&](unsigned k) {
      return cotangent.data[offsets[0] + k * gv.bladeStride];
    };
    auto o = [&](unsigned blade) {
      return other.data[offsets[1] + blade * ov.bladeStride];
    };
    for (const Term &t : terms) {
      if (operand == ProductOperand::Lhs)
        out.data[offsets[2] + t.i * rv.bladeStride] += t.sign * g(t.k) * o(t.j);
      else
        out.data[offsets[2] + t.j * rv.bladeStride] += t.sign * o(t.i) * g(t.k);
    }
  });
  return std::move(out);
}

Expected<RefTensor> mlir::uta::reference::weightedProductAdjoint(
    const Algebra &algebra, ProductOperand operand, const RefTensor &cotangent,
    const RefTensor &other, const RefTensor &w) {
  if (llvm::Error err =
          checkLayerPair(algebra, cotangent, "cotangent", other, "other"))
    return std::move(err);
  int64_t batch = cotangent.shape[1], features = cotangent.shape[2];
  int64_t paths = algebra.numPaths();
  if (llvm::Error err = checkPathWeights(w, features, paths))
    return std::move(err);
  RefTensor out{cotangent.shape,
                std::vector<double>(cotangent.data.size(), 0.0)};
  int64_t plane = batch * features;
  for (const Term &t : termsOf(algebra, ProductKind::Geometric)) {
    // The blade the term adds to, and the other operand's factor.
    unsigned to = operand == ProductOperand::Lhs ? t.i : t.j;
    unsigned from = operand == ProductOperand::Lhs ? t.j : t.i;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t f = 0; f < features; ++f)
        out.data[to * plane + b * features + f] +=
            t.sign * w.data[f * paths + t.path] *
            cotangent.data[t.k * plane + b * features + f] *
            other.data[from * plane + b * features + f];
  }
  return out;
}

Expected<RefTensor> mlir::uta::reference::fcProductAdjoint(
    const Algebra &algebra, ProductOperand operand, const RefTensor &cotangent,
    const RefTensor &other, const RefTensor &w) {
  if (llvm::Error err = checkLayerOperand(algebra, cotangent, "cotangent"))
    return std::move(err);
  if (llvm::Error err = checkLayerOperand(algebra, other, "other"))
    return std::move(err);
  int64_t batch = other.shape[1], in = other.shape[2], out = cotangent.shape[2],
          paths = algebra.numPaths();
  if (cotangent.shape[1] != batch)
    return makeError("cotangent has batch size %lld but other has %lld",
                     static_cast<long long>(cotangent.shape[1]),
                     static_cast<long long>(batch));
  if (!w.isWellFormed() || w.shape != std::vector<int64_t>{paths, in, out})
    return makeError("weights must have shape [%lld, %lld, %lld] (paths, "
                     "input features, output features), got %s",
                     static_cast<long long>(paths), static_cast<long long>(in),
                     static_cast<long long>(out),
                     shapeToString(w.shape).c_str());
  RefTensor result{other.shape, std::vector<double>(other.data.size(), 0.0)};
  for (const Term &t : termsOf(algebra, ProductKind::Geometric)) {
    // The blade the term adds to, and the other operand's factor.
    unsigned to = operand == ProductOperand::Lhs ? t.i : t.j;
    unsigned from = operand == ProductOperand::Lhs ? t.j : t.i;
    for (int64_t b = 0; b < batch; ++b) {
      const double *gRow = cotangent.data.data() + (t.k * batch + b) * out;
      for (int64_t fi = 0; fi < in; ++fi) {
        const double *wRow = w.data.data() + (t.path * in + fi) * out;
        double dot = 0.0;
        for (int64_t o = 0; o < out; ++o)
          dot += gRow[o] * wRow[o];
        result.data[(to * batch + b) * in + fi] +=
            t.sign * other.data[(from * batch + b) * in + fi] * dot;
      }
    }
  }
  return result;
}

Expected<RefTensor> mlir::uta::reference::fcProductPairCotangents(
    const Algebra &algebra, const RefTensor &cotangent, const RefTensor &w) {
  if (llvm::Error err = checkLayerOperand(algebra, cotangent, "cotangent"))
    return std::move(err);
  int64_t paths = algebra.numPaths(), batch = cotangent.shape[1],
          out = cotangent.shape[2];
  if (!w.isWellFormed() || w.shape.size() != 3 || w.shape[0] != paths ||
      w.shape[2] != out)
    return makeError("weights must have shape [%lld, Fin, %lld] (paths, "
                     "input features, output features), got %s",
                     static_cast<long long>(paths), static_cast<long long>(out),
                     shapeToString(w.shape).c_str());
  int64_t in = w.shape[1], groups = algebra.numPathGroups();
  RefTensor result{{groups, batch, in}, {}};
  result.data.assign(result.numElements(), 0.0);
  for (auto [q, group] : llvm::enumerate(algebra.pathGroups()))
    for (int64_t b = 0; b < batch; ++b) {
      const double *gRow =
          cotangent.data.data() + (group.blade * batch + b) * out;
      for (int64_t fi = 0; fi < in; ++fi) {
        const double *wRow = w.data.data() + (group.path * in + fi) * out;
        double dot = 0.0;
        for (int64_t o = 0; o < out; ++o)
          dot += gRow[o] * wRow[o];
        result.data[(q * batch + b) * in + fi] = dot;
      }
    }
  return result;
}

Expected<RefTensor> mlir::uta::reference::fcProductPairAdjoint(
    const Algebra &algebra, ProductOperand operand, const RefTensor &pairs,
    const RefTensor &other) {
  if (llvm::Error err = checkLayerOperand(algebra, other, "other"))
    return std::move(err);
  int64_t batch = other.shape[1], in = other.shape[2];
  std::vector<int64_t> expected = {algebra.numPathGroups(), batch, in};
  if (!pairs.isWellFormed() || pairs.shape != expected)
    return makeError("pairs must have shape %s (path groups, batch, input "
                     "features), got %s",
                     shapeToString(expected).c_str(),
                     shapeToString(pairs.shape).c_str());
  RefTensor result{other.shape, std::vector<double>(other.data.size(), 0.0)};
  int64_t plane = batch * in;
  for (const Term &t : termsOf(algebra, ProductKind::Geometric)) {
    unsigned to = operand == ProductOperand::Lhs ? t.i : t.j;
    unsigned from = operand == ProductOperand::Lhs ? t.j : t.i;
    unsigned q = *algebra.pathGroupIndex(t.k, t.path);
    for (int64_t e = 0; e < plane; ++e)
      result.data[to * plane + e] +=
          t.sign * other.data[from * plane + e] * pairs.data[q * plane + e];
  }
  return result;
}

Expected<RefTensor> mlir::uta::reference::fcProductWeightGradient(
    const Algebra &algebra, const RefTensor &cotangent, const RefTensor &x,
    const RefTensor &y, int64_t batchRuns) {
  if (llvm::Error err = checkLayerOperand(algebra, cotangent, "cotangent"))
    return std::move(err);
  if (llvm::Error err = checkLayerPair(algebra, x, "lhs", y, "rhs"))
    return std::move(err);
  int64_t batch = x.shape[1], in = x.shape[2], out = cotangent.shape[2];
  if (cotangent.shape[1] != batch)
    return makeError("cotangent has batch size %lld but lhs has %lld",
                     static_cast<long long>(cotangent.shape[1]),
                     static_cast<long long>(batch));
  if (batchRuns < 1 || batch % batchRuns != 0)
    return makeError("%lld batch runs do not divide the batch of %lld",
                     static_cast<long long>(batchRuns),
                     static_cast<long long>(batch));
  int64_t paths = algebra.numPaths(), runLength = batch / batchRuns;
  RefTensor result{{paths, in, out}, {}};
  if (batchRuns > 1)
    result.shape.insert(result.shape.begin(), batchRuns);
  result.data.assign(result.numElements(), 0.0);
  for (const Term &t : termsOf(algebra, ProductKind::Geometric))
    for (int64_t b = 0; b < batch; ++b) {
      const double *gRow = cotangent.data.data() + (t.k * batch + b) * out;
      int64_t run = b / runLength;
      for (int64_t fi = 0; fi < in; ++fi) {
        double xy = t.sign * x.data[(t.i * batch + b) * in + fi] *
                    y.data[(t.j * batch + b) * in + fi];
        double *wRow =
            result.data.data() + ((run * paths + t.path) * in + fi) * out;
        for (int64_t o = 0; o < out; ++o)
          wRow[o] += xy * gRow[o];
      }
    }
  return result;
}

Expected<RefTensor> mlir::uta::reference::pathAdjoint(
    const Algebra &algebra, const RefTensor &cotangent, const RefTensor &x,
    const RefTensor &y, int64_t batchChunk) {
  if (llvm::Error err = checkLayerOperand(algebra, cotangent, "cotangent"))
    return std::move(err);
  if (llvm::Error err = checkLayerOperand(algebra, x, "lhs"))
    return std::move(err);
  if (llvm::Error err = checkLayerOperand(algebra, y, "rhs"))
    return std::move(err);
  if (x.shape != y.shape || x.shape != cotangent.shape)
    return makeError("cotangent %s, lhs %s and rhs %s must have the same "
                     "shape",
                     shapeToString(cotangent.shape).c_str(),
                     shapeToString(x.shape).c_str(),
                     shapeToString(y.shape).c_str());
  if (batchChunk < 1)
    return makeError("batch chunk must be at least 1, got %lld",
                     static_cast<long long>(batchChunk));
  int64_t batch = x.shape[1], features = x.shape[2];
  int64_t paths = algebra.numPaths();
  int64_t chunks = (batch + batchChunk - 1) / batchChunk;
  RefTensor out{{paths, chunks, features}, {}};
  out.data.assign(out.numElements(), 0.0);
  int64_t plane = batch * features, outPlane = chunks * features;
  std::vector<Term> terms = termsOf(algebra, ProductKind::Geometric);
  // Each result element sums its batch elements in increasing order, each
  // over its terms in Cayley-table order.
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < features; ++f)
      for (const Term &t : terms)
        out.data[t.path * outPlane + (b / batchChunk) * features + f] +=
            t.sign * cotangent.data[t.k * plane + b * features + f] *
            x.data[t.i * plane + b * features + f] *
            y.data[t.j * plane + b * features + f];
  return out;
}

//===----------------------------------------------------------------------===//
// Adjoints of the gate and the norm
//===----------------------------------------------------------------------===//

Expected<RefTensor>
mlir::uta::reference::scalarGateAdjoint(const Algebra &algebra,
                                        const RefTensor &cotangent,
                                        const RefTensor &x, int64_t bladeAxis) {
  int64_t blades = algebra.numBlades();
  Expected<BladeView> view =
      viewOfPair(cotangent, "cotangent", x, "input", bladeAxis, blades);
  if (!view)
    return view.takeError();
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  forEachMultivector(*view, [&](auto at) {
    double s = x.data[at(0)];
    double gate = getScalarGate(s);
    double density = std::exp(-0.5 * s * s) / std::sqrt(2.0 * std::numbers::pi);
    double dot = 0.0;
    for (unsigned b = 0; b < blades; ++b) {
      dot += cotangent.data[at(b)] * x.data[at(b)];
      out.data[at(b)] = cotangent.data[at(b)] * gate;
    }
    out.data[at(0)] += density * dot;
  });
  return out;
}

Expected<RefTensor>
mlir::uta::reference::gradeRmsNormAdjoint(const Algebra &algebra,
                                          const RefTensor &cotangent,
                                          const RefTensor &x, double epsilon) {
  if (llvm::Error err =
          checkLayerPair(algebra, cotangent, "cotangent", x, "input"))
    return std::move(err);
  double count = static_cast<double>(x.shape[2]);
  RefTensor out{x.shape, std::vector<double>(x.data.size(), 0.0)};
  forEachGradeRow(algebra, x, [&](auto forEachElement) {
    double sumSquares = 0.0, sumProducts = 0.0;
    forEachElement([&](int64_t at) {
      sumSquares += x.data[at] * x.data[at];
      sumProducts += cotangent.data[at] * x.data[at];
    });
    double r = 1.0 / std::sqrt(sumSquares / count + epsilon);
    double c = sumProducts / count;
    forEachElement([&](int64_t at) {
      out.data[at] = r * (cotangent.data[at] - x.data[at] * r * r * c);
    });
  });
  return out;
}
