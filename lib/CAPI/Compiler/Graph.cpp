//===- Graph.cpp - The C API's graph builder ------------------------------===//
//
// The graph half of include/uta-c/Compiler.h over uta::Graph: a C graph
// holds the C++ graph and a table of its tensors, and a uta_value_t is a
// position in that table. Each C builder looks its operands up (a value
// outside the table becomes an invalid tensor, which the C++ builder reports
// as its own error) and appends the result, so the C graph keeps exactly the
// C++ graph's first-error semantics. Arrays of sizes and axes longer than
// UTA_MAX_RANK are the graph's error before they are read, as are tensors
// of more bytes than an int64 holds, and every entry point runs inside
// capi::guarded (a builder that throws also ends the graph: runOnGraph).
//
//===----------------------------------------------------------------------===//

#include "lib/CAPI/Compiler/CompilerHandles.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <variant>

using namespace uta;

namespace {
/// Where a builder given a null graph reports (there is no graph to keep
/// the error).
uta_value_t nullGraph(const char *function) {
  capi::failNull(function, "graph");
  return UTA_NO_VALUE;
}
} // namespace

/// The op's name in messages: "reduce_sum" for "uta_graph_reduce_sum".
static const char *opName(const char *function) {
  return function + std::strlen("uta_graph_");
}

/// Records `message` as the graph's error unless it has one: the first
/// error is kept.
static void setError(uta_graph_t *graph, std::string message) {
  if (uta_graph_ok(graph))
    graph->error = std::move(message);
}

/// Runs `body`, the work of C function `function` on `graph`, inside
/// capi::guarded, unless the graph has a C-layer error (which stops the
/// chain as uta::Graph's own errors do). A body that throws may leave the
/// C++ graph half-changed (its library has no exceptions, so no cleanups
/// ran), so the graph ends there: the thread's last error
/// ("uta_graph_reduce_sum: out of memory") becomes its first error, and
/// nothing more is built on it.
template <typename Body>
static uta_value_t runOnGraph(const char *function, uta_graph_t *graph,
                              Body &&body) {
  bool threw = false;
  uta_value_t value = capi::guarded(function, UTA_NO_VALUE, [&] {
    if (!graph)
      return nullGraph(function);
    if (!graph->error.empty() || graph->builderThrew)
      return UTA_NO_VALUE;
    threw = true;
    uta_value_t result = body();
    threw = false;
    return result;
  });
  if (threw && graph) {
    graph->builderThrew = true;
    capi::guarded(function, [&] {
      if (graph->error.empty() && graph->graph.ok())
        graph->error = uta_last_error();
    });
  }
  return value;
}

/// Appends `tensor`, the result of builder `function`, to the value table
/// and returns its id; UTA_NO_VALUE when the builder failed. A tensor of
/// more bytes than an int64 holds is the graph's error: no buffer of it can
/// be described, allocated or run. (The ops' verifiers refuse such results;
/// uta::Graph checks only the elements of inputs and constants.)
static uta_value_t record(uta_graph_t *graph, const char *function,
                          Tensor tensor) {
  // A C-layer error of this call (a dtype) stops it as a C++ error does.
  if (!tensor.valid() || !graph->error.empty())
    return UTA_NO_VALUE;
  int64_t bytes = int64_t(dtypeSize(tensor.dtype()));
  for (int64_t size : tensor.shape())
    if (__builtin_mul_overflow(bytes, size, &bytes)) {
      setError(graph, std::string(opName(function)) + ": " + tensor.typeStr() +
                          " has more bytes than an int64 holds");
      return UTA_NO_VALUE;
    }
  graph->values.push_back(std::move(tensor));
  return uta_value_t(graph->values.size() - 1);
}

/// Runs builder `body` of C function `function` on `graph` (runOnGraph)
/// and records the tensor it returns (invalid when it failed).
template <typename Body>
static uta_value_t build(const char *function, uta_graph_t *graph,
                         Body &&body) {
  return runOnGraph(function, graph,
                    [&] { return record(graph, function, body()); });
}

/// The tensor `value` names; an invalid tensor when it names none.
static Tensor lookup(const uta_graph_t *graph, uta_value_t value) {
  if (value < 0 || value >= int64_t(graph->values.size()))
    return Tensor();
  return graph->values[size_t(value)];
}

/// `values[0..count)` into `out`: sizes (`what` "rank"), axes or grades,
/// for op `op`. False, with the graph's error (its first, unless it has
/// one), for a count above UTA_MAX_RANK, refused before the array is read,
/// and for a null array with a count above 0: a null shape of rank 2 must
/// not build a scalar.
static bool readInts(uta_graph_t *graph, const int64_t *values, size_t count,
                     const char *op, const char *what,
                     std::vector<int64_t> &out) {
  if (std::string error = capi::limitError(op, what, count); !error.empty()) {
    setError(graph, std::move(error));
    return false;
  }
  if (!values && count > 0) {
    setError(graph, std::string(op) + ": the array of " +
                        std::to_string(count) + " sizes is null");
    return false;
  }
  out.assign(values, values + count);
  return true;
}

/// The dtype of a builder's argument. A value outside the enum is the
/// graph's error (its first, unless it has one), as a bad shape would be.
static bool readDType(uta_graph_t *graph, uta_dtype_t dtype, DType &out,
                      const char *what) {
  if (capi::toDType(dtype, out))
    return true;
  setError(graph, std::string(what) + ": dtype " + std::to_string(int(dtype)) +
                      " is not UTA_F32, UTA_F16 or UTA_BF16");
  return false;
}

/// The values of a constant of `shape` into `out`: `values[0..count)`,
/// read only when `count` is one (to repeat) or exactly the shape's
/// elements. Another count is the graph's error, in uta::Graph::constant's
/// words, before `values` is read. A shape that is itself wrong (a size
/// below 1, elements past int64) reads nothing: uta::Graph reports it.
static bool readConstantValues(uta_graph_t *graph,
                               const std::vector<int64_t> &shape,
                               const float *values, size_t count,
                               std::vector<float> &out) {
  int64_t elements = 1;
  for (int64_t size : shape)
    if (size < 1 || __builtin_mul_overflow(elements, size, &elements))
      return true;
  if (count != 1 && uint64_t(elements) != count) {
    std::string sizes;
    for (int64_t size : shape)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
    setError(graph, "constant: " + std::to_string(count) +
                        " values for shape [" + sizes + "], which has " +
                        std::to_string(elements) +
                        " elements (give all of them, or one to repeat)");
    return false;
  }
  if (values)
    out.assign(values, values + count);
  return true;
}

static Algebra toAlgebra(uta_algebra_t algebra) {
  return Algebra(algebra.p, algebra.q, algebra.r);
}

//===----------------------------------------------------------------------===//
// Algebras and graphs
//===----------------------------------------------------------------------===//

extern "C" int64_t uta_algebra_num_blades(uta_algebra_t algebra) {
  return capi::guarded("uta_algebra_num_blades", int64_t(0),
                       [&] { return toAlgebra(algebra).numBlades(); });
}

extern "C" int64_t uta_algebra_num_paths(uta_algebra_t algebra) {
  return capi::guarded("uta_algebra_num_paths", int64_t(0),
                       [&] { return toAlgebra(algebra).numPaths(); });
}

extern "C" uta_graph_t *uta_graph_create(const char *name) {
  return capi::guarded(
      "uta_graph_create", static_cast<uta_graph_t *>(nullptr), [&] {
        return new uta_graph_t{Graph(name ? name : ""), {}, {}, {}};
      });
}

extern "C" void uta_graph_destroy(uta_graph_t *graph) {
  capi::guarded("uta_graph_destroy", [&] { delete graph; });
}

extern "C" int uta_graph_ok(const uta_graph_t *graph) {
  return capi::guarded("uta_graph_ok", 0, [&] {
    return graph && !graph->builderThrew && graph->graph.ok() &&
           graph->error.empty();
  });
}

extern "C" const char *uta_graph_error(const uta_graph_t *graph) {
  return capi::guarded("uta_graph_error", "", [&] {
    if (!graph)
      return "null graph";
    // At most one of the two is set: builders stop at the first error.
    if (!graph->error.empty())
      return graph->error.c_str();
    if (graph->builderThrew)
      return "a builder threw, and its error could not be recorded";
    return graph->graph.error().c_str();
  });
}

extern "C" const char *uta_graph_str(uta_graph_t *graph) {
  return capi::guarded("uta_graph_str", "", [&] {
    if (!uta_graph_ok(graph))
      return "";
    graph->text = graph->graph.str();
    return graph->text.c_str();
  });
}

extern "C" int uta_graph_value_type(const uta_graph_t *graph, uta_value_t value,
                                    uta_dtype_t *dtype, size_t *rank,
                                    const int64_t **shape) {
  return capi::guarded("uta_graph_value_type", 0, [&] {
    if (!graph || value < 0 || value >= int64_t(graph->values.size()))
      return 0;
    const Tensor &tensor = graph->values[size_t(value)];
    if (dtype)
      *dtype = capi::fromDType(tensor.dtype());
    if (rank)
      *rank = tensor.shape().size();
    if (shape)
      *shape = tensor.shape().data();
    return 1;
  });
}

extern "C" size_t uta_graph_num_inputs(const uta_graph_t *graph) {
  return capi::guarded("uta_graph_num_inputs", size_t(0), [&] {
    return graph ? graph->graph.inputs().size() : size_t(0);
  });
}

extern "C" size_t uta_graph_num_outputs(const uta_graph_t *graph) {
  return capi::guarded("uta_graph_num_outputs", size_t(0), [&] {
    return graph ? graph->graph.outputs().size() : size_t(0);
  });
}

extern "C" uta_value_t uta_graph_input(uta_graph_t *graph, const int64_t *shape,
                                       size_t rank, uta_dtype_t dtype) {
  return build("uta_graph_input", graph, [&] {
    DType type;
    std::vector<int64_t> sizes;
    if (!readDType(graph, dtype, type, "input") ||
        !readInts(graph, shape, rank, "input", "rank", sizes))
      return Tensor();
    return graph->graph.input(std::move(sizes), type);
  });
}

extern "C" uta_value_t uta_graph_constant(uta_graph_t *graph,
                                          const int64_t *shape, size_t rank,
                                          const float *values, size_t count,
                                          uta_dtype_t dtype) {
  return build("uta_graph_constant", graph, [&] {
    DType type;
    std::vector<int64_t> sizes;
    std::vector<float> data;
    if (!readDType(graph, dtype, type, "constant") ||
        !readInts(graph, shape, rank, "constant", "rank", sizes) ||
        !readConstantValues(graph, sizes, values, count, data))
      return Tensor();
    return graph->graph.constant(std::move(sizes), std::move(data), type);
  });
}

extern "C" uta_value_t uta_graph_fill(uta_graph_t *graph, const int64_t *shape,
                                      size_t rank, float value,
                                      uta_dtype_t dtype) {
  return build("uta_graph_fill", graph, [&] {
    DType type;
    std::vector<int64_t> sizes;
    if (!readDType(graph, dtype, type, "fill") ||
        !readInts(graph, shape, rank, "fill", "rank", sizes))
      return Tensor();
    return graph->graph.fill(std::move(sizes), value, type);
  });
}

extern "C" int uta_graph_output(uta_graph_t *graph, uta_value_t result) {
  // 1 or 0 through runOnGraph's value: a throw ends the graph as in a
  // builder.
  return runOnGraph("uta_graph_output", graph, [&]() -> uta_value_t {
           graph->graph.output(lookup(graph, result));
           return graph->graph.ok();
         }) == 1;
}

/// The graph that uta_graph_gradient or uta_graph_training_half returns in
/// place of its result: `name`, with `message` as its first error.
static uta_graph_t *failedGraph(std::string name, std::string what,
                                std::string message) {
  return new uta_graph_t{
      Graph(std::move(name)), {}, {}, what + ": " + std::move(message)};
}

/// The differentiated inputs of `graph`, or the error message that the C++
/// checks give, for what they cannot see: a C-layer error of `graph`,
/// indices that unsigned cannot hold, a null array, more indices than
/// arguments.
static std::variant<std::vector<unsigned>, std::string>
checkWrt(const uta_graph_t *graph, const int64_t *wrt, size_t num_wrt) {
  const std::string &name = graph->graph.name();
  if (!uta_graph_ok(graph) && graph->graph.ok())
    return "the graph has an error: " + std::string(uta_graph_error(graph));
  if (!wrt && num_wrt > 0)
    return "the array of " + std::to_string(num_wrt) + " input indices is null";
  size_t numInputs = graph->graph.inputs().size();
  // Each argument may be listed once, so a longer array is wrong without
  // being read (its length may be anything a caller passed).
  if (num_wrt > numInputs)
    return std::to_string(num_wrt) + " input indices for the " +
           std::to_string(numInputs) + " arguments of @" + name +
           ", each of which may be listed once";
  std::vector<unsigned> indices;
  for (size_t i = 0; i < num_wrt; ++i) {
    // The C++ check's message, for indices it would wrap or could not take.
    if (wrt[i] < 0 || uint64_t(wrt[i]) >= numInputs)
      return "cannot differentiate with respect to argument #" +
             std::to_string(wrt[i]) + ": @" + name + " has " +
             std::to_string(numInputs) + " arguments";
    indices.push_back(unsigned(wrt[i]));
  }
  return indices;
}

/// `derived` as a C graph, its value table the new function's arguments,
/// then its results.
static uta_graph_t *adoptDerived(Graph derived) {
  auto *result = new uta_graph_t{std::move(derived), {}, {}, {}};
  if (result->graph.ok()) {
    result->values = result->graph.inputs();
    for (Tensor &output : result->graph.outputs())
      result->values.push_back(std::move(output));
  }
  return result;
}

extern "C" uta_graph_t *uta_graph_gradient(const uta_graph_t *graph,
                                           const int64_t *wrt, size_t num_wrt,
                                           int joint) {
  return capi::guarded(
      "uta_graph_gradient", static_cast<uta_graph_t *>(nullptr),
      [&]() -> uta_graph_t * {
        if (!graph) {
          capi::failNull("uta_graph_gradient", "graph");
          return nullptr;
        }
        std::string name = graph->graph.name() + (joint ? "_fwd_bwd" : "_vjp");
        auto indices = checkWrt(graph, wrt, num_wrt);
        if (auto *message = std::get_if<std::string>(&indices))
          return failedGraph(name, "gradient", *message);
        return adoptDerived(graph->graph.gradient(
            std::get<std::vector<unsigned>>(std::move(indices)), joint != 0));
      });
}

extern "C" uta_graph_t *uta_graph_training_half(const uta_graph_t *graph,
                                                const int64_t *wrt,
                                                size_t num_wrt, int backward) {
  return capi::guarded(
      "uta_graph_training_half", static_cast<uta_graph_t *>(nullptr),
      [&]() -> uta_graph_t * {
        if (!graph) {
          capi::failNull("uta_graph_training_half", "graph");
          return nullptr;
        }
        std::string name =
            graph->graph.name() + (backward ? "_backward" : "_forward");
        auto indices = checkWrt(graph, wrt, num_wrt);
        if (auto *message = std::get_if<std::string>(&indices))
          return failedGraph(name, "training pair", *message);
        TrainingPair pair = graph->graph.trainingPair(
            std::get<std::vector<unsigned>>(std::move(indices)));
        return adoptDerived(backward ? std::move(pair.backward)
                                     : std::move(pair.forward));
      });
}

extern "C" size_t uta_graph_saved_values(const uta_graph_t *graph,
                                         int64_t *saved, size_t capacity) {
  return capi::guarded("uta_graph_saved_values", size_t(0), [&]() -> size_t {
    if (!graph) {
      capi::failNull("uta_graph_saved_values", "graph");
      return 0;
    }
    if (!saved && capacity > 0) {
      capi::failNull("uta_graph_saved_values", "saved");
      return 0;
    }
    std::vector<int64_t> values = graph->graph.savedValues();
    std::copy_n(values.begin(), std::min(capacity, values.size()), saved);
    return values.size();
  });
}

//===----------------------------------------------------------------------===//
// uta ops
//===----------------------------------------------------------------------===//

// One C builder per C++ builder of the same shape of arguments.
#define UTA_C_BINARY(cName, method)                                            \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_value_t lhs,            \
                               uta_value_t rhs) {                              \
    return build(#cName, graph, [&] {                                          \
      return graph->graph.method(lookup(graph, lhs), lookup(graph, rhs));      \
    });                                                                        \
  }
#define UTA_C_UNARY(cName, method)                                             \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_value_t x) {            \
    return build(#cName, graph,                                                \
                 [&] { return graph->graph.method(lookup(graph, x)); });       \
  }
#define UTA_C_REDUCTION(cName, method)                                         \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_value_t x,              \
                               const int64_t *dims, size_t num_dims,           \
                               int keep_dims) {                                \
    return build(#cName, graph, [&] {                                          \
      std::vector<int64_t> axes;                                               \
      if (!readInts(graph, dims, num_dims, opName(#cName),                     \
                    "the number of axes", axes))                               \
        return Tensor();                                                       \
      return graph->graph.method(lookup(graph, x), std::move(axes),            \
                                 keep_dims);                                   \
    });                                                                        \
  }
#define UTA_C_RESHAPING(cName, method)                                         \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_value_t x,              \
                               const int64_t *sizes, size_t rank) {            \
    return build(#cName, graph, [&] {                                          \
      std::vector<int64_t> read;                                               \
      if (!readInts(graph, sizes, rank, opName(#cName), "rank", read))         \
        return Tensor();                                                       \
      return graph->graph.method(lookup(graph, x), std::move(read));           \
    });                                                                        \
  }

UTA_C_BINARY(uta_graph_add, add)
UTA_C_BINARY(uta_graph_sub, sub)
UTA_C_BINARY(uta_graph_mul, mul)
UTA_C_BINARY(uta_graph_div, div)
UTA_C_BINARY(uta_graph_max, max)
UTA_C_BINARY(uta_graph_min, min)
UTA_C_BINARY(uta_graph_pow, pow)
UTA_C_UNARY(uta_graph_neg, neg)
UTA_C_UNARY(uta_graph_abs, abs)
UTA_C_UNARY(uta_graph_sign, sign)
UTA_C_UNARY(uta_graph_exp, exp)
UTA_C_UNARY(uta_graph_log, log)
UTA_C_UNARY(uta_graph_sqrt, sqrt)
UTA_C_UNARY(uta_graph_rsqrt, rsqrt)
UTA_C_UNARY(uta_graph_tanh, tanh)
UTA_C_UNARY(uta_graph_erf, erf)
UTA_C_UNARY(uta_graph_sigmoid, sigmoid)
UTA_C_UNARY(uta_graph_relu, relu)
UTA_C_UNARY(uta_graph_silu, silu)
UTA_C_REDUCTION(uta_graph_reduce_sum, reduceSum)
UTA_C_REDUCTION(uta_graph_reduce_max, reduceMax)
UTA_C_REDUCTION(uta_graph_reduce_mean, reduceMean)
UTA_C_RESHAPING(uta_graph_transpose, transpose)
UTA_C_RESHAPING(uta_graph_reshape, reshape)
UTA_C_RESHAPING(uta_graph_broadcast_to, broadcastTo)

extern "C" uta_value_t uta_graph_gelu(uta_graph_t *graph, uta_value_t x,
                                      int tanh_approximation) {
  return build("uta_graph_gelu", graph, [&] {
    return graph->graph.gelu(lookup(graph, x), tanh_approximation != 0);
  });
}

extern "C" uta_value_t uta_graph_matmul(uta_graph_t *graph, uta_value_t lhs,
                                        uta_value_t rhs, int transpose_b) {
  return build("uta_graph_matmul", graph, [&] {
    return graph->graph.matmul(lookup(graph, lhs), lookup(graph, rhs),
                               transpose_b != 0);
  });
}

extern "C" uta_value_t uta_graph_softmax(uta_graph_t *graph, uta_value_t x,
                                         int64_t dim) {
  return build("uta_graph_softmax", graph,
               [&] { return graph->graph.softmax(lookup(graph, x), dim); });
}

extern "C" uta_value_t uta_graph_layer_norm(uta_graph_t *graph, uta_value_t x,
                                            uta_value_t weight,
                                            uta_value_t bias, int64_t axis,
                                            float epsilon) {
  return build("uta_graph_layer_norm", graph, [&] {
    return graph->graph.layerNorm(lookup(graph, x), lookup(graph, weight),
                                  lookup(graph, bias), axis, epsilon);
  });
}

extern "C" uta_value_t uta_graph_cast(uta_graph_t *graph, uta_value_t x,
                                      uta_dtype_t dtype) {
  return build("uta_graph_cast", graph, [&] {
    DType type;
    if (!readDType(graph, dtype, type, "cast"))
      return Tensor();
    return graph->graph.cast(lookup(graph, x), type);
  });
}

//===----------------------------------------------------------------------===//
// clifford ops
//===----------------------------------------------------------------------===//

#define UTA_C_PRODUCT(cName, method)                                           \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_algebra_t algebra,      \
                               uta_value_t lhs, uta_value_t rhs,               \
                               int64_t blade_axis) {                           \
    return build(#cName, graph, [&] {                                          \
      return graph->graph.method(toAlgebra(algebra), lookup(graph, lhs),       \
                                 lookup(graph, rhs), blade_axis);              \
    });                                                                        \
  }
#define UTA_C_INVOLUTION(cName, method)                                        \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_algebra_t algebra,      \
                               uta_value_t x, int64_t blade_axis) {            \
    return build(#cName, graph, [&] {                                          \
      return graph->graph.method(toAlgebra(algebra), lookup(graph, x),         \
                                 blade_axis);                                  \
    });                                                                        \
  }
#define UTA_C_LAYER_PRODUCT(cName, method)                                     \
  extern "C" uta_value_t cName(uta_graph_t *graph, uta_algebra_t algebra,      \
                               uta_value_t lhs, uta_value_t rhs,               \
                               uta_value_t weights) {                          \
    return build(#cName, graph, [&] {                                          \
      return graph->graph.method(toAlgebra(algebra), lookup(graph, lhs),       \
                                 lookup(graph, rhs), lookup(graph, weights));  \
    });                                                                        \
  }

UTA_C_PRODUCT(uta_graph_geometric_product, geometricProduct)
UTA_C_PRODUCT(uta_graph_outer_product, outerProduct)
UTA_C_PRODUCT(uta_graph_left_contraction, leftContraction)
UTA_C_PRODUCT(uta_graph_scalar_product, scalarProduct)
UTA_C_PRODUCT(uta_graph_sandwich, sandwich)
UTA_C_INVOLUTION(uta_graph_reverse, reverse)
UTA_C_INVOLUTION(uta_graph_grade_involution, gradeInvolution)
UTA_C_INVOLUTION(uta_graph_conjugate, conjugate)
UTA_C_INVOLUTION(uta_graph_dual, dual)
UTA_C_INVOLUTION(uta_graph_scalar_gate, scalarGate)
UTA_C_LAYER_PRODUCT(uta_graph_weighted_product, weightedProduct)
UTA_C_LAYER_PRODUCT(uta_graph_fc_product, fcProduct)

extern "C" uta_value_t
uta_graph_grade_project(uta_graph_t *graph, uta_algebra_t algebra,
                        uta_value_t x, const int64_t *grades, size_t num_grades,
                        int64_t blade_axis) {
  return build("uta_graph_grade_project", graph, [&] {
    std::vector<int64_t> read;
    if (!readInts(graph, grades, num_grades, "grade_project",
                  "the number of grades", read))
      return Tensor();
    return graph->graph.gradeProject(toAlgebra(algebra), lookup(graph, x),
                                     std::move(read), blade_axis);
  });
}

extern "C" uta_value_t uta_graph_grade_rms_norm(uta_graph_t *graph,
                                                uta_algebra_t algebra,
                                                uta_value_t x, float epsilon) {
  return build("uta_graph_grade_rms_norm", graph, [&] {
    return graph->graph.gradeRmsNorm(toAlgebra(algebra), lookup(graph, x),
                                     epsilon);
  });
}
