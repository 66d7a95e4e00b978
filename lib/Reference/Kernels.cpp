//===- Kernels.cpp - Float64 reference kernels of the uta ops -------------===//
//
// Straight float64 loops for every op family of the uta dialect. Sums run in
// index order so the oracle is deterministic; nothing here is tuned.
//
//===----------------------------------------------------------------------===//

#include "lib/Reference/Kernels.h"

#include "lib/Reference/Indexing.h"

#include "llvm/ADT/APFloat.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <numbers>

using namespace mlir::uta::reference;
using namespace mlir::uta::reference::detail;
using llvm::ArrayRef;
using llvm::Expected;

template <typename... Ts>
static llvm::Error makeError(const char *format, Ts &&...values) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), format,
                                 std::forward<Ts>(values)...);
}

int64_t mlir::uta::reference::numElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int64_t RefTensor::numElements() const {
  return mlir::uta::reference::numElements(shape);
}

bool RefTensor::isWellFormed() const {
  for (int64_t size : shape)
    if (size < 0)
      return false;
  return static_cast<int64_t>(data.size()) == numElements();
}

/// An error unless `x` holds exactly as many values as its shape says.
static llvm::Error checkWellFormed(const RefTensor &x, const char *what) {
  if (x.isWellFormed())
    return llvm::Error::success();
  return makeError("%s has shape %s but %zu values", what,
                   shapeToString(x.shape).c_str(), x.data.size());
}

Expected<std::vector<int64_t>>
mlir::uta::reference::broadcastShapes(ArrayRef<int64_t> a,
                                      ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Aligned at the end: position i of the result is a's dimension
    // i - (rank - a.size()) when that is not negative, else an implicit 1.
    int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    if (da != db && da != 1 && db != 1)
      return makeError("shapes %s and %s are not broadcast-compatible",
                       shapeToString(a).c_str(), shapeToString(b).c_str());
    shape[i] = da == 1 ? db : da;
  }
  return shape;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

double mlir::uta::reference::applyBinary(BinaryKind kind, double a, double b) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Div:
    return a / b;
  case BinaryKind::Max:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    if (a == b) // Only +0 and -0 compare equal yet differ: +0 is larger.
      return std::signbit(a) ? b : a;
    return a > b ? a : b;
  case BinaryKind::Min:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    if (a == b)
      return std::signbit(a) ? a : b;
    return a < b ? a : b;
  case BinaryKind::Pow:
    return std::pow(a, b);
  }
  llvm_unreachable("unknown binary kind");
}

Expected<RefTensor> mlir::uta::reference::binary(BinaryKind kind,
                                                 const RefTensor &a,
                                                 const RefTensor &b) {
  if (llvm::Error err = checkWellFormed(a, "lhs"))
    return std::move(err);
  if (llvm::Error err = checkWellFormed(b, "rhs"))
    return std::move(err);
  Expected<std::vector<int64_t>> shape = broadcastShapes(a.shape, b.shape);
  if (!shape)
    return shape.takeError();
  RefTensor out{*shape, {}};
  out.data.reserve(out.numElements());
  std::vector<int64_t> strides[] = {broadcastStrides(a.shape, out.shape),
                                    broadcastStrides(b.shape, out.shape)};
  forEachIndex(out.shape, strides, [&](ArrayRef<int64_t> offsets) {
    out.data.push_back(
        applyBinary(kind, a.data[offsets[0]], b.data[offsets[1]]));
  });
  return out;
}

double mlir::uta::reference::applyUnary(UnaryKind kind, double x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Abs:
    return std::fabs(x);
  case UnaryKind::Sign:
    // Zeros (with their sign) and NaN compare neither way: they stay.
    if (x > 0.0)
      return 1.0;
    if (x < 0.0)
      return -1.0;
    return x;
  case UnaryKind::Exp:
    return std::exp(x);
  case UnaryKind::Log:
    return std::log(x);
  case UnaryKind::Sqrt:
    return std::sqrt(x);
  case UnaryKind::Rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryKind::Tanh:
    return std::tanh(x);
  case UnaryKind::Erf:
    return std::erf(x);
  case UnaryKind::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case UnaryKind::Relu:
    // NaN stays NaN, like max(x, 0) with NaN propagation; -0 becomes +0.
    if (std::isnan(x))
      return x;
    return x > 0.0 ? x : 0.0;
  case UnaryKind::Silu:
    return x / (1.0 + std::exp(-x));
  case UnaryKind::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
  case UnaryKind::GeluTanh: {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  }
  llvm_unreachable("unknown unary kind");
}

RefTensor mlir::uta::reference::unary(UnaryKind kind, const RefTensor &x) {
  RefTensor out{x.shape, {}};
  out.data.reserve(x.data.size());
  for (double v : x.data)
    out.data.push_back(applyUnary(kind, v));
  return out;
}

//===----------------------------------------------------------------------===//
// Matmul, reductions, norms
//===----------------------------------------------------------------------===//

Expected<RefTensor> mlir::uta::reference::matmul(const RefTensor &a,
                                                 const RefTensor &b,
                                                 bool transposeB,
                                                 bool transposeA) {
  if (llvm::Error err = checkWellFormed(a, "lhs"))
    return std::move(err);
  if (llvm::Error err = checkWellFormed(b, "rhs"))
    return std::move(err);
  if (a.rank() < 2 || b.rank() < 2)
    return makeError("matmul operands must have rank >= 2, got %s and %s",
                     shapeToString(a.shape).c_str(),
                     shapeToString(b.shape).c_str());
  int64_t aRows = a.shape[a.rank() - 2], aCols = a.shape[a.rank() - 1];
  int64_t m = transposeA ? aCols : aRows, k = transposeA ? aRows : aCols;
  int64_t bRows = b.shape[b.rank() - 2], bCols = b.shape[b.rank() - 1];
  int64_t kb = transposeB ? bCols : bRows, n = transposeB ? bRows : bCols;
  if (k != kb)
    return makeError(
        "matmul contraction sizes differ: lhs %s%s, rhs %s%s",
        shapeToString(a.shape).c_str(), transposeA ? " (transposed)" : "",
        shapeToString(b.shape).c_str(), transposeB ? " (transposed)" : "");
  ArrayRef<int64_t> aBatch = ArrayRef<int64_t>(a.shape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef<int64_t>(b.shape).drop_back(2);
  Expected<std::vector<int64_t>> batch = broadcastShapes(aBatch, bBatch);
  if (!batch)
    return batch.takeError();

  RefTensor out{*batch, {}};
  out.shape.push_back(m);
  out.shape.push_back(n);
  out.data.reserve(out.numElements());
  // Both matrices are read along k: a's as [m][k] and b's as [n][k], an
  // operand stored the other way through a copy in that order (reading it
  // with a stride in the inner loop would leave the cache behind).
  std::vector<int64_t> strides[] = {broadcastStrides(aBatch, *batch, m * k),
                                    broadcastStrides(bBatch, *batch, k * n)};
  auto alongK = [&](const double *matrix, int64_t rows, bool kOuter,
                    std::vector<double> &copy) {
    if (!kOuter)
      return matrix;
    copy.resize(rows * k);
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t row = 0; row < rows; ++row)
        copy[row * k + kk] = matrix[kk * rows + row];
    return static_cast<const double *>(copy.data());
  };
  std::vector<double> aCopy, bCopy;
  forEachIndex(*batch, strides, [&](ArrayRef<int64_t> offsets) {
    const double *aMat =
        alongK(a.data.data() + offsets[0], m, transposeA, aCopy);
    const double *bMat =
        alongK(b.data.data() + offsets[1], n, !transposeB, bCopy);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int64_t kk = 0; kk < k; ++kk)
          sum += aMat[i * k + kk] * bMat[j * k + kk];
        out.data.push_back(sum);
      }
    }
  });
  return out;
}

/// Checks that `dims` are distinct and in [0, rank).
static llvm::Error checkDims(ArrayRef<int64_t> dims, int64_t rank,
                             const char *what) {
  std::vector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return makeError("%s %lld is out of range for rank %lld", what,
                       static_cast<long long>(d), static_cast<long long>(rank));
    if (seen[d])
      return makeError("%s %lld is repeated", what, static_cast<long long>(d));
    seen[d] = true;
  }
  return llvm::Error::success();
}

Expected<RefTensor> mlir::uta::reference::reduce(ReduceKind kind,
                                                 const RefTensor &x,
                                                 ArrayRef<int64_t> dims,
                                                 bool keepDims) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  if (llvm::Error err = checkDims(dims, x.rank(), "reduction dim"))
    return std::move(err);
  std::vector<bool> reduced(x.rank(), false);
  for (int64_t d : dims)
    reduced[d] = true;

  // Shape with the reduced dimensions kept as 1: its strides, with 0 on the
  // reduced dimensions, map an input index to its output element.
  std::vector<int64_t> keptShape = x.shape;
  int64_t count = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (reduced[d]) {
      count *= x.shape[d];
      keptShape[d] = 1;
    }
  }
  std::vector<int64_t> strides[] = {broadcastStrides(keptShape, x.shape)};

  double init =
      kind == ReduceKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
  std::vector<double> acc(numElements(keptShape), init);
  forEachIndex(
      x.shape, strides, [&, i = int64_t(0)](ArrayRef<int64_t> offsets) mutable {
        double v = x.data[i++];
        double &slot = acc[offsets[0]];
        slot = kind == ReduceKind::Max ? applyBinary(BinaryKind::Max, slot, v)
                                       : slot + v;
      });
  if (kind == ReduceKind::Mean)
    for (double &v : acc)
      v /= static_cast<double>(count);

  RefTensor out{{}, std::move(acc)};
  for (int64_t d = 0; d < x.rank(); ++d)
    if (!reduced[d] || keepDims)
      out.shape.push_back(keptShape[d]);
  return out;
}

Expected<RefTensor> mlir::uta::reference::softmax(const RefTensor &x,
                                                  int64_t dim) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  if (dim < 0 || dim >= x.rank())
    return makeError("softmax dim %lld is out of range for rank %lld",
                     static_cast<long long>(dim),
                     static_cast<long long>(x.rank()));
  ArrayRef<int64_t> shape = x.shape;
  int64_t outer = numElements(shape.take_front(dim));
  int64_t size = shape[dim];
  int64_t inner = numElements(shape.drop_front(dim + 1));
  RefTensor out{x.shape, std::vector<double>(x.data.size())};
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      int64_t base = o * size * inner + in;
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < size; ++i)
        max = applyBinary(BinaryKind::Max, max, x.data[base + i * inner]);
      double sum = 0.0;
      for (int64_t i = 0; i < size; ++i) {
        double e = std::exp(x.data[base + i * inner] - max);
        out.data[base + i * inner] = e;
        sum += e;
      }
      for (int64_t i = 0; i < size; ++i)
        out.data[base + i * inner] /= sum;
    }
  }
  return out;
}

Expected<RefTensor> mlir::uta::reference::layerNorm(const RefTensor &x,
                                                    const RefTensor &weight,
                                                    const RefTensor &bias,
                                                    int64_t axis,
                                                    double epsilon) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  if (llvm::Error err = checkWellFormed(weight, "weight"))
    return std::move(err);
  if (llvm::Error err = checkWellFormed(bias, "bias"))
    return std::move(err);
  if (axis < 0 || axis >= x.rank())
    return makeError("layer_norm axis %lld is out of range for rank %lld",
                     static_cast<long long>(axis),
                     static_cast<long long>(x.rank()));
  ArrayRef<int64_t> normShape = ArrayRef<int64_t>(x.shape).drop_front(axis);
  if (ArrayRef<int64_t>(weight.shape) != normShape ||
      ArrayRef<int64_t>(bias.shape) != normShape)
    return makeError("layer_norm weight %s and bias %s must have the "
                     "normalised shape %s",
                     shapeToString(weight.shape).c_str(),
                     shapeToString(bias.shape).c_str(),
                     shapeToString(normShape).c_str());
  int64_t outer = numElements(ArrayRef<int64_t>(x.shape).take_front(axis));
  int64_t size = numElements(normShape);
  RefTensor out{x.shape, std::vector<double>(x.data.size())};
  for (int64_t o = 0; o < outer; ++o) {
    const double *row = x.data.data() + o * size;
    double mean = 0.0;
    for (int64_t i = 0; i < size; ++i)
      mean += row[i];
    mean /= static_cast<double>(size);
    // Two passes: the variance of the centred values, divided by N (biased).
    double var = 0.0;
    for (int64_t i = 0; i < size; ++i)
      var += (row[i] - mean) * (row[i] - mean);
    var /= static_cast<double>(size);
    double scale = 1.0 / std::sqrt(var + epsilon);
    for (int64_t i = 0; i < size; ++i)
      out.data[o * size + i] =
          (row[i] - mean) * scale * weight.data[i] + bias.data[i];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Data movement and casts
//===----------------------------------------------------------------------===//

Expected<RefTensor>
mlir::uta::reference::transpose(const RefTensor &x,
                                ArrayRef<int64_t> permutation) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  if (static_cast<int64_t>(permutation.size()) != x.rank())
    return makeError("permutation has %zu entries for rank %lld",
                     permutation.size(), static_cast<long long>(x.rank()));
  if (llvm::Error err = checkDims(permutation, x.rank(), "permutation entry"))
    return std::move(err);
  std::vector<int64_t> inStrides = contiguousStrides(x.shape);
  RefTensor out;
  std::vector<int64_t> strides[1];
  for (int64_t p : permutation) {
    out.shape.push_back(x.shape[p]);
    strides[0].push_back(inStrides[p]);
  }
  out.data.reserve(x.data.size());
  forEachIndex(out.shape, strides, [&](ArrayRef<int64_t> offsets) {
    out.data.push_back(x.data[offsets[0]]);
  });
  return out;
}

Expected<RefTensor> mlir::uta::reference::reshape(const RefTensor &x,
                                                  ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  for (int64_t size : shape)
    if (size < 0)
      return makeError("reshape to %s has a negative size",
                       shapeToString(shape).c_str());
  if (numElements(shape) != x.numElements())
    return makeError("cannot reshape %s (%lld elements) to %s (%lld elements)",
                     shapeToString(x.shape).c_str(),
                     static_cast<long long>(x.numElements()),
                     shapeToString(shape).c_str(),
                     static_cast<long long>(numElements(shape)));
  return RefTensor{std::vector<int64_t>(shape.begin(), shape.end()), x.data};
}

Expected<RefTensor> mlir::uta::reference::broadcastTo(const RefTensor &x,
                                                      ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkWellFormed(x, "input"))
    return std::move(err);
  bool ok = x.shape.size() <= shape.size();
  for (size_t i = 0; ok && i < x.shape.size(); ++i) {
    int64_t from = x.shape[i];
    int64_t to = shape[shape.size() - x.shape.size() + i];
    ok = from == to || from == 1;
  }
  for (int64_t size : shape)
    ok = ok && size >= 0;
  if (!ok)
    return makeError("cannot broadcast %s to %s",
                     shapeToString(x.shape).c_str(),
                     shapeToString(shape).c_str());
  RefTensor out{std::vector<int64_t>(shape.begin(), shape.end()), {}};
  out.data.reserve(out.numElements());
  std::vector<int64_t> strides[] = {broadcastStrides(x.shape, shape)};
  forEachIndex(shape, strides, [&](ArrayRef<int64_t> offsets) {
    out.data.push_back(x.data[offsets[0]]);
  });
  return out;
}

static const llvm::fltSemantics &semanticsOf(FloatFormat format) {
  switch (format) {
  case FloatFormat::F64:
    return llvm::APFloat::IEEEdouble();
  case FloatFormat::F32:
    return llvm::APFloat::IEEEsingle();
  case FloatFormat::F16:
    return llvm::APFloat::IEEEhalf();
  case FloatFormat::BF16:
    return llvm::APFloat::BFloat();
  case FloatFormat::TF32:
    return llvm::APFloat::FloatTF32();
  }
  llvm_unreachable("unknown float format");
}

double mlir::uta::reference::roundTo(double x, FloatFormat format) {
  if (format == FloatFormat::F64)
    return x;
  // In float range, the hardware conversion is the IEEE rounding to nearest
  // even; beyond it C++ leaves the conversion undefined, so APFloat decides.
  if (format == FloatFormat::F32 && !(std::fabs(x) > FLT_MAX))
    return static_cast<double>(static_cast<float>(x));
  llvm::APFloat value(x);
  bool losesInfo = false;
  value.convert(semanticsOf(format), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

RefTensor mlir::uta::reference::cast(const RefTensor &x, FloatFormat format) {
  RefTensor out{x.shape, {}};
  out.data.reserve(x.data.size());
  for (double v : x.data)
    out.data.push_back(roundTo(v, format));
  return out;
}
