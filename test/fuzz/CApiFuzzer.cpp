//===- CApiFuzzer.cpp - libFuzzer harness of the C API --------------------===//
//
// Drives the C API (include/uta-c: libuta_c.so over libuta_c_runtime.so) as
// a careless or hostile binding would. Each input is a script of up to 64
// calls, each call and its arguments drawn by FuzzedDataProvider, over a few
// graphs, compile options, compiled graphs, executables and device tensors
// of the float64 reference device (host memory, no GPU or driver: fast).
// The arguments are hostile: ranks and counts from 0 to 2^64 - 1; sizes
// negative, zero or up to INT64_MAX; dtypes, targets and block sizes outside
// what is valid; value ids that name no tensor; algebras and axes of any
// int; NaN and infinite epsilons; byte and element counts that lie; null
// pointers and handles. A pointer is always to a buffer this harness owns,
// sized honestly, except where the API must refuse the call without reading
// it (a count above UTA_MAX_RANK, a byte count that is not the tensor's, a
// count of run arguments that is not the executable's): the buffer is then
// shorter than the count, and ASan reports a read past it.
//
// Checked, besides "no crash, no sanitizer report, no leak": every status
// is one of uta_status_t's; every failure leaves a non-empty
// uta_last_error(); every success gives a non-null handle, of the dtype and
// shape asked for; a builder returns the next value id when the graph stays
// ok and UTA_NO_VALUE exactly when it does not, the graph keeps its first
// error, and its values have at most UTA_MAX_RANK positive sizes; what no
// host has (64 TiB and more) is never allocated; the reference loads no
// module. Every handle is destroyed at the end of the input. The reference
// interprets under a 4 MiB memory budget and the harness's own buffers stay
// under 1 MiB, so that inputs stay fast and within libFuzzer's memory limit.
// `CAPI_FUZZER_TRACE=1 CApiFuzzer INPUT` prints the calls an input makes
// and what each gave.
//
//===----------------------------------------------------------------------===//

#include "uta-c/Compiler.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

/// A broken property is a bug libFuzzer must report: abort, with why.
void check(bool holds, const char *call, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "CApiFuzzer: %s: %s (last error: \"%s\")\n", call, what,
               uta_last_error());
  std::abort();
}

/// With CAPI_FUZZER_TRACE set, each call and what it gave go to stderr:
/// `CAPI_FUZZER_TRACE=1 CApiFuzzer INPUT` shows what an input does.
void trace(const char *call, const char *result) {
  static const bool tracing = std::getenv("CAPI_FUZZER_TRACE") != nullptr;
  if (tracing)
    std::fprintf(stderr, "%s: %s\n", call, result);
}

/// What every status must be; returns whether the call succeeded.
bool succeeded(uta_status_t status, const char *call) {
  check(status == UTA_OK || status == UTA_INVALID_INPUT ||
            status == UTA_INTERNAL || status == UTA_UNAVAILABLE,
        call, "a status outside uta_status_t");
  if (status != UTA_OK)
    check(uta_last_error()[0] != '\0', call, "a failure without a message");
  trace(call, status == UTA_OK ? "ok" : uta_last_error());
  return status == UTA_OK;
}

/// The most bytes of any buffer the harness makes.
constexpr uint64_t kMaxOwnedBytes = uint64_t(1) << 20;
/// No host this runs on has this much memory: allocating it must fail.
constexpr uint64_t kMoreThanAnyHost = uint64_t(1) << 46;
constexpr size_t kMaxCalls = 64, kMaxHandles = 4, kMaxCompiles = 3;

/// The bytes of `count` elements of `dtype` (4 for a dtype outside the
/// enum); false when they overflow.
bool bytesOf(uta_dtype_t dtype, uint64_t count, uint64_t &bytes) {
  uint64_t element = dtype == UTA_F16 || dtype == UTA_BF16 ? 2 : 4;
  return !__builtin_mul_overflow(count, element, &bytes);
}

/// The elements of `sizes`; false for a negative size or an overflow.
bool elementsOf(const std::vector<int64_t> &sizes, uint64_t &elements) {
  elements = 1;
  for (int64_t size : sizes)
    if (size < 0 || __builtin_mul_overflow(elements, uint64_t(size), &elements))
      return false;
  return true;
}

/// `count` ints the harness owns: all of them when that is honest (up to
/// UTA_MAX_RANK + 1), else at most two, which the API must not read past.
struct Ints {
  std::vector<int64_t> owned;
  size_t count = 0;
  const int64_t *data() const { return owned.empty() ? nullptr : owned.data(); }
  /// All `count` of them (the API may read them).
  bool honest() const { return owned.size() == count; }
};

/// Hostile values, drawn from the input; the first choice of each (what
/// an exhausted input gives) is an ordinary one.
class Hostile {
public:
  explicit Hostile(FuzzedDataProvider &in) : in(in) {}

  bool flag() { return in.ConsumeBool(); }
  /// True about one time in `n`.
  bool oneIn(unsigned n) { return in.ConsumeIntegralInRange(1u, n) == n; }
  template <typename T> T any() { return in.ConsumeIntegral<T>(); }
  template <typename T> T upTo(T max) {
    return in.ConsumeIntegralInRange<T>(0, max);
  }

  /// A rank or count: mostly 0 to 4, else an edge or anything.
  size_t count() {
    switch (in.ConsumeIntegralInRange(0, 15)) {
    case 11:
      return UTA_MAX_RANK;
    case 12:
      return UTA_MAX_RANK + 1;
    case 13:
      return size_t(1) << 40;
    case 14:
      return std::numeric_limits<size_t>::max();
    case 15:
      return any<size_t>();
    default:
      return upTo<size_t>(4);
    }
  }

  /// A size: mostly one of the small sizes blade axes and layers use, else
  /// zero, negative, huge or anything.
  int64_t size() {
    static constexpr int64_t kSmall[] = {1, 2, 3, 4, 5, 8, 16, 20, 32, 64};
    static constexpr int64_t kEdges[] = {0,
                                         -1,
                                         std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max(),
                                         int64_t(1) << 31,
                                         int64_t(1) << 32,
                                         int64_t(1) << 40,
                                         int64_t(1) << 62};
    switch (in.ConsumeIntegralInRange(0, 15)) {
    case 14:
      return in.PickValueInArray(kEdges);
    case 15:
      return any<int64_t>();
    default:
      return in.PickValueInArray(kSmall);
    }
  }

  /// An axis, index or dimension: mostly -2 to 3, else anything.
  int64_t axis() {
    return oneIn(8) ? any<int64_t>()
                    : in.ConsumeIntegralInRange<int64_t>(-2, 3);
  }

  /// `count()` ints of `element()` each (sizes or axes).
  template <typename Element> Ints ints(Element element) {
    Ints ints;
    ints.count = count();
    size_t owned =
        ints.count <= UTA_MAX_RANK + 1 ? ints.count : upTo<size_t>(2);
    for (size_t i = 0; i < owned; ++i)
      ints.owned.push_back(element());
    ints.owned.shrink_to_fit();
    return ints;
  }
  Ints shape() {
    return ints([&] { return size(); });
  }
  Ints axes() {
    return ints([&] { return axis(); });
  }

  uta_dtype_t dtype() {
    switch (in.ConsumeIntegralInRange(0, 7)) {
    case 5:
      return uta_dtype_t(3);
    case 6:
      return uta_dtype_t(-1);
    case 7:
      return uta_dtype_t(any<int32_t>());
    default:
      return uta_dtype_t(in.ConsumeIntegralInRange(0, 2));
    }
  }

  /// Mostly a value of a graph with `numValues` of them, else one it lacks.
  uta_value_t value(int64_t numValues) {
    switch (in.ConsumeIntegralInRange(0, 15)) {
    case 13:
      return UTA_NO_VALUE;
    case 14:
      return numValues;
    case 15:
      return any<int64_t>();
    default:
      return numValues > 0
                 ? in.ConsumeIntegralInRange<int64_t>(0, numValues - 1)
                 : 0;
    }
  }

  /// Mostly Cl(3,0,0), else a signature of any ints.
  uta_algebra_t algebra() {
    if (!oneIn(4))
      return {3, 0, 0};
    auto part = [&] {
      return oneIn(4) ? any<int>() : in.ConsumeIntegralInRange(-1, 7);
    };
    return {part(), part(), part()};
  }

  /// Any float: NaN, infinities and denormals included.
  float real() {
    if (!oneIn(4))
      return 1e-5f;
    uint32_t bits = any<uint32_t>();
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }

  std::string text(size_t maxLength) {
    return in.ConsumeRandomLengthString(maxLength);
  }

private:
  FuzzedDataProvider &in;
};

/// A graph and the number of values it has handed out.
struct GraphState {
  uta_graph_t *graph = nullptr;
  int64_t numValues = 0;
};

/// One input's handles and the calls over them. Destroys every handle.
class Session {
public:
  Session(FuzzedDataProvider &in, uta_device_t *reference)
      : hostile(in), in(in), reference(reference) {
    check(
        succeeded(uta_kernel_cache_open("", &cache), "uta_kernel_cache_open") &&
            cache,
        "uta_kernel_cache_open", "no memory cache");
  }
  ~Session() {
    for (GraphState &g : graphs)
      uta_graph_destroy(g.graph);
    for (uta_compiled_graph_t *compiled : compiledGraphs)
      uta_compiled_graph_destroy(compiled);
    for (uta_executable_t *executable : executables)
      uta_executable_destroy(executable);
    for (uta_device_tensor_t *tensor : tensors)
      uta_device_tensor_destroy(tensor);
    uta_kernel_cache_destroy(cache);
  }

  void run() {
    for (size_t calls = 0; calls < kMaxCalls && in.remaining_bytes() > 0;
         ++calls)
      step();
  }

private:
  void step() {
    switch (in.ConsumeIntegralInRange(0, 14)) {
    case 0:
      return createGraph();
    case 1:
      return buildInput();
    case 2:
    case 3:
    case 4:
      return buildOp();
    case 5:
      return buildOutput();
    case 6:
      return gradient();
    case 7:
      return compileAndLoad();
    case 8:
      return runHost();
    case 9:
      return runAddresses();
    case 10:
      return allocate();
    case 11:
      return copy();
    case 12:
      return runDevice();
    case 13:
      return checkingHelpers();
    case 14:
      return nullHandles();
    }
  }

  /// A graph to build on: one of those made, or a new one.
  GraphState &graph() {
    if (graphs.empty() || (graphs.size() < kMaxHandles && hostile.oneIn(8)))
      createGraph();
    return graphs[hostile.upTo(graphs.size() - 1)];
  }

  void createGraph() {
    if (graphs.size() >= kMaxHandles)
      return;
    std::string name = hostile.oneIn(4) ? hostile.text(12) : "g";
    uta_graph_t *graph = uta_graph_create(name.c_str());
    check(graph != nullptr, "uta_graph_create", "no graph");
    graphs.push_back({graph, 0});
  }

  /// Checks what a builder's `value` says about graph `g`, whose error was
  /// `errorBefore` ("" while ok) before the call.
  void built(GraphState &g, uta_value_t value, const std::string &errorBefore,
             const char *call) {
    bool ok = uta_graph_ok(g.graph);
    const char *error = uta_graph_error(g.graph);
    trace(call, ok ? "ok" : error);
    check((value == UTA_NO_VALUE) == !ok, call,
          "UTA_NO_VALUE while the graph is ok, or a value from a failed one");
    check(ok == (error[0] == '\0'), call, "uta_graph_error disagrees with ok");
    if (!errorBefore.empty())
      check(errorBefore == error, call, "the graph's first error changed");
    if (!ok)
      return;
    check(value == g.numValues++, call, "not the next value id");
    uta_dtype_t dtype;
    size_t rank = 0;
    const int64_t *shape = nullptr;
    check(uta_graph_value_type(g.graph, value, &dtype, &rank, &shape) == 1,
          call, "a value without a type");
    check(dtype == UTA_F32 || dtype == UTA_F16 || dtype == UTA_BF16, call,
          "a value's dtype is outside the enum");
    check(rank <= UTA_MAX_RANK && (rank == 0 || shape), call,
          "a value's rank is above UTA_MAX_RANK, or its shape is null");
    for (size_t i = 0; i < rank; ++i)
      check(shape[i] >= 1, call, "a value has a size below 1");
  }

  void buildInput() {
    GraphState &g = graph();
    std::string errorBefore = uta_graph_error(g.graph);
    Ints shape = hostile.shape();
    uta_dtype_t dtype = hostile.dtype();
    switch (hostile.upTo(2)) {
    case 0:
      return built(g,
                   uta_graph_input(g.graph, shape.data(), shape.count, dtype),
                   errorBefore, "uta_graph_input");
    case 1:
      return built(g,
                   uta_graph_fill(g.graph, shape.data(), shape.count,
                                  hostile.real(), dtype),
                   errorBefore, "uta_graph_fill");
    case 2: {
      // Values for every element of a small shape, or one to repeat; now
      // and then a count the shape contradicts, over a buffer shorter than
      // it, which the API must refuse unread.
      uint64_t elements = 0;
      bool known = shape.honest() && elementsOf(shape.owned, elements);
      size_t count =
          known && elements <= 4096 && hostile.flag() ? size_t(elements) : 1;
      size_t owned = count;
      if (hostile.oneIn(4)) {
        size_t lie = hostile.count();
        if (lie > 1 && (!known || lie != elements)) {
          count = lie;
          owned = std::min<size_t>(lie, 2);
        }
      }
      std::vector<float> values(owned);
      for (float &value : values)
        value = hostile.real();
      return built(g,
                   uta_graph_constant(g.graph, shape.data(), shape.count,
                                      values.empty() ? nullptr : values.data(),
                                      count, dtype),
                   errorBefore, "uta_graph_constant");
    }
    }
  }

  void buildOp() {
    using Binary = uta_value_t (*)(uta_graph_t *, uta_value_t, uta_value_t);
    using Unary = uta_value_t (*)(uta_graph_t *, uta_value_t);
    using Axes = uta_value_t (*)(uta_graph_t *, uta_value_t, const int64_t *,
                                 size_t, int);
    using Sizes =
        uta_value_t (*)(uta_graph_t *, uta_value_t, const int64_t *, size_t);
    using Product = uta_value_t (*)(uta_graph_t *, uta_algebra_t, uta_value_t,
                                    uta_value_t, int64_t);
    using Involution =
        uta_value_t (*)(uta_graph_t *, uta_algebra_t, uta_value_t, int64_t);
    using Layer = uta_value_t (*)(uta_graph_t *, uta_algebra_t, uta_value_t,
                                  uta_value_t, uta_value_t);
    static constexpr Binary kBinary[] = {
        uta_graph_add, uta_graph_sub, uta_graph_mul, uta_graph_div,
        uta_graph_max, uta_graph_min, uta_graph_pow};
    static constexpr Unary kUnary[] = {
        uta_graph_neg, uta_graph_abs,  uta_graph_sign,    uta_graph_exp,
        uta_graph_log, uta_graph_sqrt, uta_graph_rsqrt,   uta_graph_tanh,
        uta_graph_erf, uta_graph_relu, uta_graph_sigmoid, uta_graph_silu};
    static constexpr Axes kReductions[] = {
        uta_graph_reduce_sum, uta_graph_reduce_max, uta_graph_reduce_mean};
    static constexpr Sizes kReshapes[] = {
        uta_graph_transpose, uta_graph_reshape, uta_graph_broadcast_to};
    static constexpr Product kProducts[] = {
        uta_graph_geometric_product, uta_graph_outer_product,
        uta_graph_left_contraction, uta_graph_scalar_product,
        uta_graph_sandwich};
    static constexpr Involution kInvolutions[] = {
        uta_graph_reverse, uta_graph_grade_involution, uta_graph_conjugate,
        uta_graph_dual, uta_graph_scalar_gate};
    static constexpr Layer kLayers[] = {uta_graph_weighted_product,
                                        uta_graph_fc_product};

    GraphState &g = graph();
    std::string errorBefore = uta_graph_error(g.graph);
    auto value = [&] { return hostile.value(g.numValues); };
    uta_value_t x = value();
    uta_value_t result = UTA_NO_VALUE;
    const char *call = "a builder";
    switch (hostile.upTo(13)) {
    case 0:
      call = "a binary builder";
      result = in.PickValueInArray(kBinary)(g.graph, x, value());
      break;
    case 1:
      call = "a unary builder";
      result = in.PickValueInArray(kUnary)(g.graph, x);
      break;
    case 2:
      call = "uta_graph_gelu";
      result = uta_graph_gelu(g.graph, x, hostile.any<int>());
      break;
    case 3: {
      call = "uta_graph_matmul";
      uta_value_t rhs = value();
      result = uta_graph_matmul(g.graph, x, rhs, hostile.any<int>());
      break;
    }
    case 4: {
      call = "a reduction builder";
      Ints axes = hostile.axes();
      result = in.PickValueInArray(kReductions)(g.graph, x, axes.data(),
                                                axes.count, hostile.any<int>());
      break;
    }
    case 5: {
      call = "uta_graph_transpose, reshape or broadcast_to";
      Ints sizes = hostile.flag() ? hostile.axes() : hostile.shape();
      result =
          in.PickValueInArray(kReshapes)(g.graph, x, sizes.data(), sizes.count);
      break;
    }
    case 6:
      call = "uta_graph_softmax";
      result = uta_graph_softmax(g.graph, x, hostile.axis());
      break;
    case 7: {
      call = "uta_graph_layer_norm";
      uta_value_t weight = value(), bias = value();
      int64_t axis = hostile.axis();
      result =
          uta_graph_layer_norm(g.graph, x, weight, bias, axis, hostile.real());
      break;
    }
    case 8:
      call = "uta_graph_cast";
      result = uta_graph_cast(g.graph, x, hostile.dtype());
      break;
    case 9: {
      call = "a clifford product builder";
      uta_algebra_t algebra = hostile.algebra();
      uta_value_t rhs = value();
      result = in.PickValueInArray(kProducts)(g.graph, algebra, x, rhs,
                                              hostile.axis());
      break;
    }
    case 10: {
      call = "a clifford involution builder";
      uta_algebra_t algebra = hostile.algebra();
      result = in.PickValueInArray(kInvolutions)(g.graph, algebra, x,
                                                 hostile.axis());
      break;
    }
    case 11: {
      call = "a clifford layer builder";
      uta_algebra_t algebra = hostile.algebra();
      uta_value_t rhs = value(), weights = value();
      result = in.PickValueInArray(kLayers)(g.graph, algebra, x, rhs, weights);
      break;
    }
    case 12: {
      call = "uta_graph_grade_project";
      uta_algebra_t algebra = hostile.algebra();
      Ints grades = hostile.axes();
      result = uta_graph_grade_project(g.graph, algebra, x, grades.data(),
                                       grades.count, hostile.axis());
      break;
    }
    case 13: {
      call = "uta_graph_grade_rms_norm";
      uta_algebra_t algebra = hostile.algebra();
      result = uta_graph_grade_rms_norm(g.graph, algebra, x, hostile.real());
      break;
    }
    }
    built(g, result, errorBefore, call);
  }

  void buildOutput() {
    GraphState &g = graph();
    int result = uta_graph_output(g.graph, hostile.value(g.numValues));
    check(result == uta_graph_ok(g.graph), "uta_graph_output",
          "its result is not whether the graph is ok");
    const char *text = uta_graph_str(g.graph);
    if (uta_graph_ok(g.graph))
      check(std::strstr(text, "func.func @") != nullptr, "uta_graph_str",
            "an ok graph does not print as a function");
    else
      check(text[0] == '\0', "uta_graph_str", "a failed graph prints");
  }

  void gradient() {
    GraphState &g = graph();
    if (graphs.size() >= kMaxHandles)
      return;
    Ints wrt = hostile.axes();
    uta_graph_t *result =
        uta_graph_gradient(g.graph, wrt.data(), wrt.count, hostile.any<int>());
    check(result != nullptr, "uta_graph_gradient", "no graph");
    int64_t numValues = 0;
    if (uta_graph_ok(result))
      numValues =
          int64_t(uta_graph_num_inputs(result) + uta_graph_num_outputs(result));
    else
      check(uta_graph_error(result)[0] != '\0', "uta_graph_gradient",
            "a failed gradient without an error");
    graphs.push_back({result, numValues});
  }

  /// Compile options with hostile settings, compiling through this input's
  /// memory cache (never the process's disk cache).
  uta_compile_options_t *options() {
    uta_compile_options_t *options = nullptr;
    check(succeeded(hostile.flag()
                        ? uta_compile_options_create(&options)
                        : uta_compile_options_for_device(reference, &options),
                    "uta_compile_options_create or for_device") &&
              options,
          "uta_compile_options_create or for_device", "no options");
    if (hostile.oneIn(4))
      uta_compile_options_set_target(
          options, hostile.oneIn(4) ? uta_target_t(hostile.any<int32_t>())
                                    : uta_target_t(hostile.upTo(2)));
    else
      uta_compile_options_set_target(options, UTA_TARGET_SPIRV);
    if (hostile.oneIn(4)) {
      static const char *const kSms[] = {"80",  "86", "89", "90",
                                         "90a", "",   "91", "9"};
      std::string sm = hostile.oneIn(4)
                           ? hostile.text(8)
                           : std::string(in.PickValueInArray(kSms));
      succeeded(uta_compile_options_set_sm(options, sm.c_str()),
                "uta_compile_options_set_sm");
    }
    if (hostile.oneIn(4))
      uta_compile_options_set_block_size(options, hostile.any<unsigned>());
    uint8_t flags = hostile.any<uint8_t>();
    uta_compile_options_set_fusion(options, flags & 1);
    uta_compile_options_set_vectorize(options, flags & 2);
    uta_compile_options_set_allow_tf32(options, flags & 4);
    uta_compile_options_set_fast_math(options, flags & 8);
    uta_compile_options_set_cache(options, cache);
    return options;
  }

  void compileAndLoad() {
    if (compiles >= kMaxCompiles || compiledGraphs.size() >= kMaxHandles)
      return;
    ++compiles;
    GraphState &g = graph();
    uta_compile_options_t *settings = options();
    uta_compiled_graph_t *compiled = nullptr;
    bool ok =
        succeeded(uta_compile(g.graph, settings, &compiled), "uta_compile");
    uta_compile_options_destroy(settings);
    if (!ok)
      return;
    check(compiled != nullptr, "uta_compile", "no compiled graph");
    check(uta_graph_ok(g.graph), "uta_compile", "compiled a failed graph");
    compiledGraphs.push_back(compiled);
    check(uta_compiled_graph_name(compiled)[0] != '\0' &&
              uta_compiled_graph_target(compiled) <= UTA_TARGET_MSL &&
              uta_compiled_graph_cache_hit(compiled) >= 0 &&
              uta_compiled_graph_has_reductions(compiled) >= 0,
          "a getter of a compiled graph", "a value outside its range");
    size_t moduleBytes = 0;
    check(uta_compiled_graph_module(compiled, &moduleBytes) && moduleBytes > 0,
          "uta_compiled_graph_module", "an empty module");
    const char *manifest = uta_compiled_graph_manifest(compiled);
    check(manifest[0] != '\0', "uta_compiled_graph_manifest",
          "an empty manifest");
    // The reference interprets graphs and loads no module.
    uta_executable_t *loaded = nullptr;
    check(!succeeded(uta_executable_load_memory(
                         reference, manifest, std::strlen(manifest),
                         uta_compiled_graph_module(compiled, nullptr),
                         moduleBytes, &loaded),
                     "uta_executable_load_memory"),
          "uta_executable_load_memory", "the reference loaded a module");

    uta_executable_t *executable = nullptr;
    if (!succeeded(uta_compiled_graph_load(compiled, reference, &executable),
                   "uta_compiled_graph_load"))
      return;
    check(executable != nullptr, "uta_compiled_graph_load", "no executable");
    check(uta_executable_num_inputs(executable) ==
                  uta_graph_num_inputs(g.graph) &&
              uta_executable_num_outputs(executable) ==
                  uta_graph_num_outputs(g.graph),
          "uta_compiled_graph_load", "not the graph's inputs and outputs");
    executables.push_back(executable);
    uta_device_t *device = nullptr;
    check(succeeded(uta_executable_device(executable, &device),
                    "uta_executable_device") &&
              std::strcmp(uta_device_backend(device), "reference") == 0,
          "uta_executable_device", "not the reference");
    uta_device_destroy(device);
    int output = hostile.any<int>();
    size_t pastTheLast = uta_executable_num_inputs(executable) +
                         uta_executable_num_outputs(executable) +
                         hostile.upTo<size_t>(SIZE_MAX / 2);
    check(!succeeded(uta_executable_tensor_type(executable, output, pastTheLast,
                                                nullptr, nullptr, nullptr),
                     "uta_executable_tensor_type"),
          "uta_executable_tensor_type", "the type of a tensor that is not");
  }

  /// Host memory for the inputs and outputs of `executable`, honest when
  /// each is at most kMaxOwnedBytes; a larger one gets a short buffer, and
  /// an element count that says so (which a run must refuse).
  struct HostArguments {
    std::vector<std::vector<float>> buffers;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<uta_host_tensor_t> inputs, outputs;
    bool honest = true;
  };
  HostArguments hostArguments(uta_executable_t *executable) {
    HostArguments arguments;
    for (int output = 0; output < 2; ++output) {
      size_t count = output ? uta_executable_num_outputs(executable)
                            : uta_executable_num_inputs(executable);
      for (size_t i = 0; i < count; ++i) {
        uta_host_tensor_t tensor = {};
        const int64_t *shape = nullptr;
        check(succeeded(uta_executable_tensor_type(executable, output, i,
                                                   &tensor.dtype, &tensor.rank,
                                                   &shape),
                        "uta_executable_tensor_type"),
              "uta_executable_tensor_type", "a listed tensor has no type");
        arguments.shapes.emplace_back(shape, shape + tensor.rank);
        uint64_t elements = 0, bytes = 0;
        check(elementsOf(arguments.shapes.back(), elements),
              "uta_executable_tensor_type", "a shape that overflows");
        if (!bytesOf(tensor.dtype, elements, bytes) || bytes > kMaxOwnedBytes) {
          arguments.honest = false;
          elements = hostile.upTo<uint64_t>(4);
          bytesOf(tensor.dtype, elements, bytes);
        }
        arguments.buffers.emplace_back((bytes + 3) / 4, 1.0f);
        tensor.data = arguments.buffers.back().data();
        tensor.num_elements = size_t(elements);
        (output ? arguments.outputs : arguments.inputs).push_back(tensor);
      }
    }
    // The shapes' vectors no longer move: point at them now.
    size_t next = 0;
    for (uta_host_tensor_t &tensor : arguments.inputs)
      tensor.shape = arguments.shapes[next++].data();
    for (uta_host_tensor_t &tensor : arguments.outputs)
      tensor.shape = arguments.shapes[next++].data();
    return arguments;
  }

  /// Makes one argument of a run a lie, which must be refused before it is
  /// read: a rank past its shape array, another dtype, fewer elements than
  /// its shape, null or misaligned data. Returns whether it lied.
  bool corrupt(std::vector<uta_host_tensor_t> &tensors) {
    if (tensors.empty())
      return false;
    uta_host_tensor_t &tensor = tensors[hostile.upTo(tensors.size() - 1)];
    if (tensor.num_elements == 0)
      return false;
    switch (hostile.upTo(4)) {
    case 0:
      tensor.rank = std::max<size_t>(hostile.count(), UTA_MAX_RANK + 1);
      return true;
    case 1: {
      uta_dtype_t dtype = hostile.dtype();
      if (dtype == tensor.dtype)
        return false;
      tensor.dtype = dtype;
      return true;
    }
    case 2:
      tensor.num_elements = hostile.upTo(tensor.num_elements - 1);
      return true;
    case 3:
      tensor.data = nullptr;
      return true;
    default:
      tensor.data = static_cast<char *>(tensor.data) + 1;
      return true;
    }
  }

  /// A count of run arguments: mostly `actual`, else anything (the arrays
  /// hold `actual`, so the API must refuse another count unread).
  size_t runCount(size_t actual) {
    return hostile.oneIn(8) ? hostile.count() : actual;
  }

  uta_run_options_t runOptions(double &milliseconds) {
    return {hostile.any<uint32_t>(), hostile.flag() ? &milliseconds : nullptr};
  }

  uta_executable_t *executable() {
    return executables.empty()
               ? nullptr
               : executables[hostile.upTo(executables.size() - 1)];
  }

  void runHost() {
    uta_executable_t *exe = executable();
    if (!exe)
      return;
    HostArguments arguments = hostArguments(exe);
    if (hostile.oneIn(4) &&
        corrupt(hostile.flag() ? arguments.inputs : arguments.outputs))
      arguments.honest = false;
    size_t numInputs = runCount(arguments.inputs.size()),
           numOutputs = runCount(arguments.outputs.size());
    double milliseconds = 0;
    uta_run_options_t options = runOptions(milliseconds);
    bool ok = succeeded(
        uta_executable_run_host(
            exe, arguments.inputs.empty() ? nullptr : arguments.inputs.data(),
            numInputs,
            arguments.outputs.empty() ? nullptr : arguments.outputs.data(),
            numOutputs, hostile.flag() ? &options : nullptr),
        "uta_executable_run_host");
    if (ok)
      check(numInputs == arguments.inputs.size() &&
                numOutputs == arguments.outputs.size() && arguments.honest,
            "uta_executable_run_host", "a run with a lie succeeded");
  }

  void runAddresses() {
    uta_executable_t *exe = executable();
    if (!exe)
      return;
    HostArguments arguments = hostArguments(exe);
    // An address cannot say how much memory it has: only honest runs, and
    // lies the API can see (counts, null, misalignment).
    if (!arguments.honest)
      return;
    std::vector<uint64_t> inputs, outputs;
    for (const uta_host_tensor_t &tensor : arguments.inputs)
      inputs.push_back(uint64_t(uintptr_t(tensor.data)));
    for (const uta_host_tensor_t &tensor : arguments.outputs)
      outputs.push_back(uint64_t(uintptr_t(tensor.data)));
    // A null or misaligned address, which the API can see.
    std::vector<uint64_t> &lied = hostile.flag() ? inputs : outputs;
    if (!lied.empty() && hostile.oneIn(4)) {
      uint64_t &address = lied[hostile.upTo(lied.size() - 1)];
      address = hostile.flag() ? 0 : address + 1;
    }
    size_t numInputs = runCount(inputs.size()),
           numOutputs = runCount(outputs.size());
    double milliseconds = 0;
    uta_run_options_t options = runOptions(milliseconds);
    succeeded(uta_executable_run_addresses(
                  exe, inputs.empty() ? nullptr : inputs.data(), numInputs,
                  outputs.empty() ? nullptr : outputs.data(), numOutputs,
                  hostile.flag() ? &options : nullptr),
              "uta_executable_run_addresses");
    // Host devices run on no CUDA stream, whatever stream and workspace
    // they are given.
    check(!succeeded(uta_executable_run_on_cuda_stream(
                         exe, inputs.empty() ? nullptr : inputs.data(),
                         numInputs, outputs.empty() ? nullptr : outputs.data(),
                         numOutputs, hostile.any<uint64_t>(),
                         hostile.any<uint64_t>(), hostile.any<uint64_t>()),
                     "uta_executable_run_on_cuda_stream"),
          "uta_executable_run_on_cuda_stream", "a host device ran on a stream");
  }

  void allocate() {
    if (tensors.size() >= kMaxHandles)
      return;
    uta_dtype_t dtype = hostile.dtype();
    Ints shape = hostile.shape();
    uint64_t elements = 0, bytes = 0;
    bool sized = shape.honest() && elementsOf(shape.owned, elements) &&
                 bytesOf(dtype, elements, bytes);
    // What a host might hold but the harness will not take.
    if (sized && bytes > kMaxOwnedBytes && bytes < kMoreThanAnyHost)
      return;
    if (hostile.oneIn(8)) {
      uta_device_tensor_t *wrapped = nullptr;
      check(!succeeded(uta_device_tensor_wrap(
                           reference, hostile.any<uint64_t>(), dtype,
                           shape.data(), shape.count, &wrapped),
                       "uta_device_tensor_wrap"),
            "uta_device_tensor_wrap", "the reference wrapped an address");
    }
    uta_device_tensor_t *tensor = nullptr;
    if (!succeeded(uta_device_tensor_allocate(reference, dtype, shape.data(),
                                              shape.count, &tensor),
                   "uta_device_tensor_allocate"))
      return;
    check(tensor != nullptr, "uta_device_tensor_allocate", "no tensor");
    tensors.push_back(tensor);
    check(sized && bytes <= kMaxOwnedBytes, "uta_device_tensor_allocate",
          "allocated what no host holds, or a rank past its shape");
    check(uta_device_tensor_dtype(tensor) == dtype &&
              uta_device_tensor_rank(tensor) == shape.count &&
              (shape.count == 0 ||
               std::memcmp(uta_device_tensor_shape(tensor), shape.data(),
                           shape.count * sizeof(int64_t)) == 0),
          "uta_device_tensor_allocate", "not the dtype and shape asked for");
  }

  uta_device_tensor_t *tensor() {
    return tensors.empty() ? nullptr
                           : tensors[hostile.upTo(tensors.size() - 1)];
  }

  /// Uploads or downloads with a byte count that is mostly the tensor's,
  /// else a lie over a buffer of the lie's size (at most the tensor's).
  void copy() {
    uta_device_tensor_t *t = tensor();
    if (!t)
      return;
    std::vector<int64_t> shape(uta_device_tensor_shape(t),
                               uta_device_tensor_shape(t) +
                                   uta_device_tensor_rank(t));
    uint64_t elements = 0, bytes = 0;
    check(elementsOf(shape, elements) &&
              bytesOf(uta_device_tensor_dtype(t), elements, bytes),
          "uta_device_tensor_shape", "an allocated shape that overflows");
    size_t claimed = hostile.oneIn(4) ? hostile.count() : size_t(bytes);
    std::vector<float> buffer((std::min<uint64_t>(claimed, bytes) + 3) / 4);
    buffer.shrink_to_fit();
    void *data = buffer.empty() ? nullptr : buffer.data();
    bool ok = hostile.flag()
                  ? succeeded(uta_device_tensor_upload(t, data, claimed),
                              "uta_device_tensor_upload")
                  : succeeded(uta_device_tensor_download(t, data, claimed),
                              "uta_device_tensor_download");
    if (ok)
      check(claimed == bytes, "uta_device_tensor_upload or download",
            "copied a byte count that is not the tensor's");
  }

  void runDevice() {
    uta_executable_t *exe = executable();
    if (!exe)
      return;
    std::vector<const uta_device_tensor_t *> inputs, outputs;
    for (size_t i = uta_executable_num_inputs(exe); i > 0; --i)
      inputs.push_back(hostile.oneIn(8) ? nullptr : tensor());
    for (size_t i = uta_executable_num_outputs(exe); i > 0; --i)
      outputs.push_back(hostile.oneIn(8) ? nullptr : tensor());
    size_t numInputs = runCount(inputs.size()),
           numOutputs = runCount(outputs.size());
    double milliseconds = 0;
    uta_run_options_t options = runOptions(milliseconds);
    succeeded(uta_executable_run_device(
                  exe, inputs.empty() ? nullptr : inputs.data(), numInputs,
                  outputs.empty() ? nullptr : outputs.data(), numOutputs,
                  hostile.flag() ? &options : nullptr),
              "uta_executable_run_device");
  }

  /// uta_compare, uta_fill_normal, uta_default_tolerance and the algebra
  /// counts, with hostile counts, shapes, dtypes and signatures.
  void checkingHelpers() {
    // Every element of a small shape; now and then a count the shape
    // contradicts, over buffers shorter than it, which must stay unread.
    Ints shape = hostile.shape();
    uint64_t elements = 0;
    bool known = shape.honest() && elementsOf(shape.owned, elements);
    size_t count = known && elements <= 4096 ? size_t(elements) : 0;
    size_t owned = count;
    if (hostile.oneIn(4)) {
      size_t lie = hostile.count();
      if (!known || lie != elements) {
        count = lie;
        owned = std::min<size_t>(lie, 2);
      }
    }
    std::vector<float> out(owned), ref(owned);
    uta_fill_normal(out.data(), out.size(), hostile.any<uint64_t>(), 0);
    uta_fill_normal(ref.data(), ref.size(), hostile.any<uint64_t>(), 1);
    uta_comparison_t comparison;
    char report[64];
    double tolerance = hostile.real();
    bool ok =
        succeeded(uta_compare("y", out.empty() ? nullptr : out.data(),
                              ref.empty() ? nullptr : ref.data(), count,
                              shape.data(), shape.count, tolerance, &comparison,
                              report, hostile.upTo(sizeof(report))),
                  "uta_compare");
    if (ok)
      check(known && count == elements, "uta_compare",
            "compared a count its shape contradicts");

    uta_dtype_t dtype = hostile.dtype();
    int reduces = hostile.any<int>();
    double dtypeTolerance =
        uta_default_tolerance(dtype, reduces, hostile.any<int>());
    bool inEnum = dtype == UTA_F32 || dtype == UTA_F16 || dtype == UTA_BF16;
    check(inEnum ? dtypeTolerance > 0 : dtypeTolerance == 0,
          "uta_default_tolerance",
          "a tolerance for a dtype outside the enum, or none for one in it");

    uta_algebra_t algebra = hostile.algebra();
    int64_t blades = uta_algebra_num_blades(algebra);
    check(blades == 0 ||
              (blades >= 2 && blades <= 64 && (blades & (blades - 1)) == 0),
          "uta_algebra_num_blades", "not 0 or a power of two up to 2^6");
    check(uta_algebra_num_paths(algebra) >= 0, "uta_algebra_num_paths",
          "a negative count");
  }

  /// Null handles and pointers everywhere: statuses with messages, and
  /// the neutral value of each getter.
  void nullHandles() {
    uta_device_t *device = nullptr;
    check(!succeeded(uta_device_open(nullptr, 0, &device), "uta_device_open"),
          "uta_device_open", "opened a null backend");
    uta_target_t target = UTA_TARGET_MSL;
    check(std::strcmp(uta_device_backend(reference), "reference") == 0 &&
              uta_device_description(reference)[0] != '\0' &&
              uta_device_target(reference, &target) == 0 &&
              target == UTA_TARGET_MSL && uta_device_sm(reference)[0] == '\0' &&
              uta_device_cuda_stream(reference) == 0,
          "a getter of the reference", "not what the reference is");
    // The reference loads no module, from any path.
    uta_executable_t *executable = nullptr;
    std::string path = hostile.text(16);
    check(!succeeded(uta_executable_load(reference, path.c_str(), &executable),
                     "uta_executable_load"),
          "uta_executable_load", "the reference loaded a manifest");
    std::string backend = hostile.text(12);
    if (backend != "reference" && backend != "vulkan" && backend != "cuda" &&
        backend != "best")
      check(!succeeded(
                uta_device_open(backend.c_str(), hostile.any<int>(), &device),
                "uta_device_open"),
            "uta_device_open", "opened an unknown backend");
    check(!succeeded(
              uta_device_tensor_allocate(nullptr, UTA_F32, nullptr, 0, nullptr),
              "uta_device_tensor_allocate"),
          "uta_device_tensor_allocate", "allocated on a null device");
    check(!succeeded(
              uta_executable_run_host(nullptr, nullptr, 0, nullptr, 0, nullptr),
              "uta_executable_run_host"),
          "uta_executable_run_host", "ran a null executable");
    uta_compiled_graph_t *compiled = nullptr;
    check(!succeeded(uta_compile(nullptr, nullptr, &compiled), "uta_compile"),
          "uta_compile", "compiled a null graph");
    check(uta_graph_add(nullptr, 0, 0) == UTA_NO_VALUE &&
              std::strstr(uta_last_error(), "graph is null"),
          "uta_graph_add", "built on a null graph");
    check(uta_graph_gradient(nullptr, nullptr, 0, 0) == nullptr,
          "uta_graph_gradient", "a gradient of a null graph");
    check(uta_device_backend(nullptr)[0] == '\0' &&
              uta_executable_name(nullptr)[0] == '\0' &&
              uta_compiled_graph_name(nullptr)[0] == '\0' &&
              uta_device_tensor_shape(nullptr) == nullptr &&
              uta_executable_num_inputs(nullptr) == 0 &&
              uta_graph_error(nullptr)[0] != '\0' && !uta_graph_ok(nullptr),
          "a getter", "not the neutral value for a null handle");
    uta_cache_stats_t stats;
    uta_kernel_cache_stats(nullptr, &stats);
    check(stats.misses == 0 && stats.writes == 0, "uta_kernel_cache_stats",
          "counts of a null cache");
  }

  Hostile hostile;
  FuzzedDataProvider &in;
  uta_device_t *reference;
  uta_kernel_cache_t *cache = nullptr;
  std::vector<GraphState> graphs;
  std::vector<uta_compiled_graph_t *> compiledGraphs;
  std::vector<uta_executable_t *> executables;
  std::vector<uta_device_tensor_t *> tensors;
  size_t compiles = 0;
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // The reference's interpreter holds at most 4 MiB (checked from the
  // types, before anything is allocated), as in MlirFuzzer.
  setenv("UTA_REFERENCE_MEMORY_BUDGET", "4M", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uta_device_t *const reference = [] {
    uta_device_t *device = nullptr;
    check(succeeded(uta_device_open("reference", 0, &device),
                    "uta_device_open") &&
              device,
          "uta_device_open", "no reference device");
    return device;
  }();
  FuzzedDataProvider in(data, size);
  Session(in, reference).run();
  return 0;
}
