//===- Kernels.h - Float64 reference kernels of the uta ops -----*- C++ -*-===//
//
// The MLIR-free half of the reference interpreter: a plain float64 tensor and
// one function per op family of the `uta` dialect. These are
// the oracle of every execution test, so each one is written for clarity, not
// speed: straight loops in float64, no reassociation tricks.
//
// Every function checks its shapes and attributes itself and returns an error
// (lower-case, no trailing period) instead of asserting, so that a malformed
// op that slipped past a verifier is reported, never crashes the oracle.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_LIB_REFERENCE_KERNELS_H
#define UTA_LIB_REFERENCE_KERNELS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace mlir::uta::reference {

/// A dense float64 tensor in C (row-major) order. A rank-0 tensor has an empty
/// shape and one element.
struct RefTensor {
  std::vector<int64_t> shape;
  std::vector<double> data;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// The product of the shape (1 for rank 0).
  int64_t numElements() const;
  /// True when data holds exactly numElements() values and no size is < 0.
  bool isWellFormed() const;
};

/// The product of `shape`; 1 for an empty shape.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// The NumPy broadcast of two shapes (trailing dimensions aligned; a size-1
/// dimension stretches), or an error naming both shapes.
llvm::Expected<std::vector<int64_t>> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                                     llvm::ArrayRef<int64_t> b);

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Pow is C's pow (its special cases: pow(x, 0) = 1, pow(1, y) = 1, NaN for
/// a negative base with a non-integer exponent).
enum class BinaryKind { Add, Sub, Mul, Div, Max, Min, Pow };

/// One binary op on two scalars. Max and Min propagate NaN and order -0 below
/// +0 (IEEE 754-2019 maximum/minimum).
double applyBinary(BinaryKind kind, double a, double b);

/// `a op b` with NumPy broadcasting.
llvm::Expected<RefTensor> binary(BinaryKind kind, const RefTensor &a,
                                 const RefTensor &b);

enum class UnaryKind {
  Neg,
  Abs,
  /// 1 for x > 0, -1 for x < 0, x itself for ±0 and NaN.
  Sign,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Erf,
  Sigmoid,
  Relu,
  Silu,
  /// 0.5 x (1 + erf(x / sqrt 2)).
  Gelu,
  /// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
  GeluTanh,
};

/// One unary op on a scalar.
double applyUnary(UnaryKind kind, double x);

/// The unary op on every element.
RefTensor unary(UnaryKind kind, const RefTensor &x);

//===----------------------------------------------------------------------===//
// Matmul, reductions, norms
//===----------------------------------------------------------------------===//

/// a [..., M, K] x b [..., K, N] -> [..., M, N] (a is [..., K, M] when
/// `transposeA`, b is [..., N, K] when `transposeB`). Both ranks must be
/// >= 2; the batch dimensions broadcast NumPy-style, so either operand may
/// have fewer of them.
llvm::Expected<RefTensor> matmul(const RefTensor &a, const RefTensor &b,
                                 bool transposeB, bool transposeA = false);

enum class ReduceKind { Sum, Max, Mean };

/// Reduces over `dims` (each in [0, rank), no repeats, any order). With
/// `keepDims` the reduced dimensions stay with size 1, otherwise they are
/// dropped. Max propagates NaN.
llvm::Expected<RefTensor> reduce(ReduceKind kind, const RefTensor &x,
                                 llvm::ArrayRef<int64_t> dims, bool keepDims);

/// exp(x - max) / sum(exp(x - max)) along `dim`.
llvm::Expected<RefTensor> softmax(const RefTensor &x, int64_t dim);

/// (x - mean) / sqrt(var + epsilon) * weight + bias over dims axis..rank-1,
/// var the biased (population) variance; weight and bias have the shape
/// x.shape[axis:].
llvm::Expected<RefTensor> layerNorm(const RefTensor &x, const RefTensor &weight,
                                    const RefTensor &bias, int64_t axis,
                                    double epsilon);

//===----------------------------------------------------------------------===//
// Data movement and casts
//===----------------------------------------------------------------------===//

/// y.shape[i] = x.shape[permutation[i]] (NumPy's transpose(x, permutation)).
llvm::Expected<RefTensor> transpose(const RefTensor &x,
                                    llvm::ArrayRef<int64_t> permutation);

/// The same elements in the same C order under `shape`.
llvm::Expected<RefTensor> reshape(const RefTensor &x,
                                  llvm::ArrayRef<int64_t> shape);

/// x broadcast NumPy-style to exactly `shape`.
llvm::Expected<RefTensor> broadcastTo(const RefTensor &x,
                                      llvm::ArrayRef<int64_t> shape);

/// TF32: the tensor cores' f32 input format, f32's range with 10 mantissa
/// bits.
enum class FloatFormat { F64, F32, F16, BF16, TF32 };

/// `x` rounded to nearest, ties to even, to the precision and range of
/// `format` (overflow gives +-inf, tiny values become subnormal or zero, NaN
/// stays NaN), returned as the exactly representable double.
double roundTo(double x, FloatFormat format);

/// Every element rounded with roundTo.
RefTensor cast(const RefTensor &x, FloatFormat format);

} // namespace mlir::uta::reference

#endif // UTA_LIB_REFERENCE_KERNELS_H
