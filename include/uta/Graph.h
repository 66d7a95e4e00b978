//===- Graph.h - Building UTA graphs in C++ ---------------------*- C++ -*-===//
//
// uta::Graph builds one function of uta and clifford ops (docs/dialects), one
// builder method per op, and prints it as the MLIR module that utac reads.
// Part of the installed public API: plain C++20, no MLIR or LLVM header (the
// IR lives behind a pointer to an implementation).
//
//   uta::Graph g("gelu_bias");
//   uta::Tensor x = g.input({512, 768});
//   uta::Tensor b = g.input({768});
//   g.output(g.gelu(g.add(x, b)));
//   if (!g.ok()) { report(g.error()); }
//   std::string mlir = g.str();  // module { func.func @gelu_bias(...) }
//
// Shapes and element types are inferred, and checked by the ops' own
// verifiers, when an op is added. The build has no exceptions, so errors are
// values:
//  - the graph keeps the FIRST error; ok() turns false and error() holds a
//    message that starts with the op's name ("matmul: ...");
//  - the failing builder returns an invalid Tensor (valid() is false);
//  - once the graph has an error, every builder returns an invalid Tensor and
//    output() does nothing, so a chain of calls needs one check at its end;
//  - an invalid Tensor or a Tensor of another Graph given to a builder of a
//    graph without error is itself an error;
//  - str() of a graph with an error returns "".
// Nothing is ever thrown, asserted or aborted on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef UTA_GRAPH_H
#define UTA_GRAPH_H

#include "uta/Algebra.h"
#include "uta/Types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace uta {

class Graph;
struct TrainingPair;

/// A value of a Graph: a statically shaped tensor. A copy names the same
/// value. It stays tied to the graph that made it (by the graph's unique id,
/// so a Tensor outliving its Graph is harmless, merely foreign everywhere).
class Tensor {
public:
  /// An invalid tensor.
  Tensor() = default;

  /// False for a default-constructed tensor and for the result of a builder
  /// call that failed.
  bool valid() const { return id_ >= 0; }
  /// The sizes, outermost first ({} for a rank-0 tensor); empty when invalid.
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  /// The product of the sizes (1 for rank 0); 0 when invalid.
  int64_t numElements() const;
  DType dtype() const { return dtype_; }
  /// The MLIR type, "tensor<4x8xf32>"; "<invalid>" when invalid.
  std::string typeStr() const;

private:
  friend class Graph;
  Tensor(uint64_t graphId, int64_t id, std::vector<int64_t> shape, DType dtype)
      : graphId_(graphId), id_(id), shape_(std::move(shape)), dtype_(dtype) {}

  uint64_t graphId_ = 0;
  int64_t id_ = -1;
  std::vector<int64_t> shape_;
  DType dtype_ = DType::F32;
};

/// One function of uta and clifford ops under construction. Movable, not
/// copyable; independent graphs may be built on different threads.
class Graph {
public:
  /// A graph whose function is @name. The name must be an identifier
  /// ([A-Za-z_][A-Za-z0-9_$.]*); otherwise the graph starts with an error.
  explicit Graph(std::string name);
  ~Graph();
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;

  const std::string &name() const;
  /// Whether no error has occurred.
  bool ok() const;
  /// The first error, "" while ok().
  const std::string &error() const;

  //===--------------------------------------------------------------------===//
  // Arguments, constants and results
  //===--------------------------------------------------------------------===//

  /// The next function argument. Sizes must be positive.
  Tensor input(std::vector<int64_t> shape, DType dtype = DType::F32);
  /// An arith.constant of `shape` holding `values` in row-major order, or
  /// one value repeated when `values` has one element. Values are rounded
  /// to `dtype` (nearest even).
  Tensor constant(std::vector<int64_t> shape, std::vector<float> values,
                  DType dtype = DType::F32);
  /// An arith.constant of `shape` with every element `value`.
  Tensor fill(std::vector<int64_t> shape, float value,
              DType dtype = DType::F32);
  /// Appends `result` to the function's results.
  void output(const Tensor &result);

  /// The arguments and results so far, in order.
  std::vector<Tensor> inputs() const;
  std::vector<Tensor> outputs() const;

  //===--------------------------------------------------------------------===//
  // uta: elementwise (NumPy broadcasting; one element type f32/f16/bf16)
  //===--------------------------------------------------------------------===//

  Tensor add(const Tensor &lhs, const Tensor &rhs);
  Tensor sub(const Tensor &lhs, const Tensor &rhs);
  Tensor mul(const Tensor &lhs, const Tensor &rhs);
  Tensor div(const Tensor &lhs, const Tensor &rhs);
  /// NaN-propagating maximum and minimum.
  Tensor max(const Tensor &lhs, const Tensor &rhs);
  Tensor min(const Tensor &lhs, const Tensor &rhs);
  /// C's pow: pow(x, 0) = 1, NaN for a negative base and non-integer exponent.
  Tensor pow(const Tensor &lhs, const Tensor &rhs);

  Tensor neg(const Tensor &x);
  Tensor abs(const Tensor &x);
  /// 1 for x > 0, -1 for x < 0, x itself for ±0 and NaN.
  Tensor sign(const Tensor &x);
  Tensor exp(const Tensor &x);
  Tensor log(const Tensor &x);
  Tensor sqrt(const Tensor &x);
  Tensor rsqrt(const Tensor &x);
  Tensor tanh(const Tensor &x);
  Tensor erf(const Tensor &x);
  Tensor sigmoid(const Tensor &x);
  Tensor relu(const Tensor &x);
  Tensor silu(const Tensor &x);
  /// Exact (erf) GELU, or the tanh approximation.
  Tensor gelu(const Tensor &x, bool tanhApproximation = false);

  //===--------------------------------------------------------------------===//
  // uta: matmul, reductions, normalisations, layout and conversion
  //===--------------------------------------------------------------------===//

  /// [..., M, K] x [..., K, N] (rhs [..., N, K] when transposeB) ->
  /// [..., M, N], batch dimensions broadcast.
  Tensor matmul(const Tensor &lhs, const Tensor &rhs, bool transposeB = false);
  /// Reductions over `dims` (non-empty, ascending, unique); f32 only.
  Tensor reduceSum(const Tensor &x, std::vector<int64_t> dims,
                   bool keepDims = false);
  Tensor reduceMax(const Tensor &x, std::vector<int64_t> dims,
                   bool keepDims = false);
  Tensor reduceMean(const Tensor &x, std::vector<int64_t> dims,
                    bool keepDims = false);
  /// Softmax along `dim`; f32 only.
  Tensor softmax(const Tensor &x, int64_t dim);
  /// Normalises over dims axis..rank-1; weight and bias have shape
  /// x.shape()[axis:]; f32 only.
  Tensor layerNorm(const Tensor &x, const Tensor &weight, const Tensor &bias,
                   int64_t axis, float epsilon = 1e-5f);
  /// result.shape()[i] = x.shape()[permutation[i]].
  Tensor transpose(const Tensor &x, std::vector<int64_t> permutation);
  /// Same elements in row-major order, same element count.
  Tensor reshape(const Tensor &x, std::vector<int64_t> shape);
  /// NumPy broadcast of x to `shape`.
  Tensor broadcastTo(const Tensor &x, std::vector<int64_t> shape);
  /// Converts the elements to `dtype`.
  Tensor cast(const Tensor &x, DType dtype);

  //===--------------------------------------------------------------------===//
  // clifford (f32 multivectors; the blade axis has algebra.numBlades()
  // entries and the other axes broadcast NumPy-style, at equal ranks)
  //===--------------------------------------------------------------------===//

  Tensor geometricProduct(const Algebra &algebra, const Tensor &lhs,
                          const Tensor &rhs, int64_t bladeAxis = 0);
  Tensor outerProduct(const Algebra &algebra, const Tensor &lhs,
                      const Tensor &rhs, int64_t bladeAxis = 0);
  Tensor leftContraction(const Algebra &algebra, const Tensor &lhs,
                         const Tensor &rhs, int64_t bladeAxis = 0);
  /// The grade-0 part of lhs rhs; the result's blade axis has size 1.
  Tensor scalarProduct(const Algebra &algebra, const Tensor &lhs,
                       const Tensor &rhs, int64_t bladeAxis = 0);
  /// rotor x reverse(rotor).
  Tensor sandwich(const Algebra &algebra, const Tensor &rotor, const Tensor &x,
                  int64_t bladeAxis = 0);
  Tensor reverse(const Algebra &algebra, const Tensor &x,
                 int64_t bladeAxis = 0);
  Tensor gradeInvolution(const Algebra &algebra, const Tensor &x,
                         int64_t bladeAxis = 0);
  Tensor conjugate(const Algebra &algebra, const Tensor &x,
                   int64_t bladeAxis = 0);
  /// Keeps `grades` (non-empty, ascending, in 0..n) and zeroes the rest.
  Tensor gradeProject(const Algebra &algebra, const Tensor &x,
                      std::vector<int64_t> grades, int64_t bladeAxis = 0);
  /// x I^-1; not in a degenerate algebra (r > 0).
  Tensor dual(const Algebra &algebra, const Tensor &x, int64_t bladeAxis = 0);
  /// Every blade times the GELU gate of the scalar part.
  Tensor scalarGate(const Algebra &algebra, const Tensor &x,
                    int64_t bladeAxis = 0);

  /// The Flash Clifford layer ops: operands [2^n, B, F], blade axis 0.
  /// weightedProduct: weights [F, algebra.numPaths()] -> [2^n, B, F].
  Tensor weightedProduct(const Algebra &algebra, const Tensor &lhs,
                         const Tensor &rhs, const Tensor &weights);
  /// fcProduct: weights [algebra.numPaths(), Fin, Fout] -> [2^n, B, Fout].
  Tensor fcProduct(const Algebra &algebra, const Tensor &lhs, const Tensor &rhs,
                   const Tensor &weights);
  /// Per batch element and grade, RMS normalisation over the features.
  Tensor gradeRmsNorm(const Algebra &algebra, const Tensor &x,
                      float epsilon = 1e-6f);

  //===--------------------------------------------------------------------===//
  // Gradients
  //===--------------------------------------------------------------------===//

  /// The gradient graph of this graph (docs/autodiff.md), a new Graph:
  /// `name_vjp` takes this graph's inputs, then one cotangent per output,
  /// and outputs the gradient of each input listed in `wrt` (indices into
  /// inputs(); empty: all), each of its input's shape and dtype. With
  /// `joint`, `name_fwd_bwd` outputs this graph's outputs first, then the
  /// gradients. The new graph can be compiled, and built on, like any other.
  /// It has an error (ok() false) when this one has, when there are no
  /// outputs, or when an index is out of range or repeated.
  Graph gradient(std::vector<unsigned> wrt = {}, bool joint = false) const;

  /// The training pair of this graph (docs/autodiff.md): `name_forward`
  /// takes this graph's inputs and outputs its outputs, then residuals, the
  /// values it saves for the backward; `name_backward` takes the saved
  /// values (TrainingPair::saved says which), then one cotangent per output,
  /// and outputs the gradients of the inputs in `wrt`, as gradient() does.
  /// What is saved and what the backward recomputes is chosen by a cost
  /// model: values that are expensive to recompute (GEMM outputs, norm
  /// statistics) are saved, cheap pointwise ones recomputed. Both graphs
  /// have this graph's error, or gradient()'s, when there is one.
  TrainingPair trainingPair(std::vector<unsigned> wrt = {}) const;
  /// For the backward half of a training pair, TrainingPair::saved; empty
  /// for any other graph.
  std::vector<int64_t> savedValues() const;

  //===--------------------------------------------------------------------===//
  // Printing
  //===--------------------------------------------------------------------===//

  /// The graph as an MLIR module in the ops' custom form, holding one public
  /// func.func @name(inputs...) -> outputs...; what utac and the JIT parse.
  /// "" when the graph has an error.
  std::string str() const;

private:
  struct Impl;
  friend struct GraphDerivation;
  std::unique_ptr<Impl> impl_;
};

/// The two halves of a training step (Graph::trainingPair).
struct TrainingPair {
  /// inputs -> (outputs..., residuals...)
  Graph forward;
  /// (saved..., cotangents...) -> gradients
  Graph backward;
  /// For each of backward's leading inputs, the forward value it takes: an
  /// index into forward.inputs() followed by forward.outputs().
  std::vector<int64_t> saved;
  /// How many of forward's outputs, after the original graph's, are
  /// residuals.
  size_t numResiduals = 0;
};

} // namespace uta

#endif // UTA_GRAPH_H
