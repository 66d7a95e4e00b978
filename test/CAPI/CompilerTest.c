/*===- CompilerTest.c - The compiler half of the C API, from C ------------===*
 *
 * Tests include/uta-c/Compiler.h (libuta_c.so) from C: every builder of both
 * dialects and the type it infers; bad graphs (the first error kept, later
 * builders returning UTA_NO_VALUE, compile refusing them with the graph's
 * message); compiling through a memory cache (the second compile a hit by
 * the counters); and running on the float64 reference and on Vulkan
 * (lavapipe here) with host buffers, device tensors and a saved module
 * loaded through the runtime half, on seeded inputs with outputs poisoned
 * first, each compared with the reference; gradient graphs (hand-worked
 * values on the reference, a joint gradient on Vulkan against the
 * reference, their errors); hostile sizes (ranks and counts past the
 * caller's array), each refused before it is read. Vulkan parts skip where
 * no Vulkan device exists. test/CAPI/CMakeLists.txt also builds this file
 * with the C API's sources under AddressSanitizer.
 *
 *===----------------------------------------------------------------------===*/

#include "uta-c/Compiler.h"
#include "TestUtil.h"

#include <stdlib.h>
#include <unistd.h>

static const uta_algebra_t kCl3 = {3, 0, 0};

/* Whether `value` has `dtype` and the sizes `dims[0..rank)`. */
static int hasType(const uta_graph_t *graph, uta_value_t value,
                   uta_dtype_t dtype, size_t rank, const int64_t *dims) {
  uta_dtype_t actualDtype;
  size_t actualRank;
  const int64_t *shape;
  if (!uta_graph_value_type(graph, value, &actualDtype, &actualRank, &shape))
    return 0;
  if (actualDtype != dtype || actualRank != rank)
    return 0;
  for (size_t i = 0; i < rank; ++i)
    if (shape[i] != dims[i])
      return 0;
  return 1;
}

#define CHECK_TYPE(graph, value, dtype, ...)                                   \
  do {                                                                         \
    int64_t checkDims[] = {__VA_ARGS__};                                       \
    CHECK(hasType(graph, value, dtype, sizeof(checkDims) / sizeof(int64_t),    \
                  checkDims));                                                 \
  } while (0)

static void testTensorBuilders(void) {
  uta_graph_t *g = uta_graph_create("tensor_ops");
  int64_t xs[] = {4, 8}, bs[] = {8}, ws[] = {8, 3}, wts[] = {3, 8};
  uta_value_t x = uta_graph_input(g, xs, 2, UTA_F32);
  uta_value_t y = uta_graph_input(g, xs, 2, UTA_F32);
  uta_value_t b = uta_graph_input(g, bs, 1, UTA_F32);
  uta_value_t w = uta_graph_input(g, ws, 2, UTA_F32);
  uta_value_t wt = uta_graph_input(g, wts, 2, UTA_F32);
  CHECK(uta_graph_num_inputs(g) == 5);

  uta_value_t (*binary[])(uta_graph_t *, uta_value_t, uta_value_t) = {
      uta_graph_add, uta_graph_sub, uta_graph_mul, uta_graph_div,
      uta_graph_max, uta_graph_min, uta_graph_pow};
  for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]); ++i) {
    CHECK_TYPE(g, binary[i](g, x, b), UTA_F32, 4, 8);
    CHECK_TYPE(g, binary[i](g, x, y), UTA_F32, 4, 8);
  }
  uta_value_t (*unary[])(uta_graph_t *, uta_value_t) = {
      uta_graph_neg, uta_graph_abs,  uta_graph_sign,  uta_graph_exp,
      uta_graph_log, uta_graph_sqrt, uta_graph_rsqrt, uta_graph_tanh,
      uta_graph_erf, uta_graph_relu, uta_graph_silu,  uta_graph_sigmoid,
  };
  for (size_t i = 0; i < sizeof(unary) / sizeof(unary[0]); ++i)
    CHECK_TYPE(g, unary[i](g, x), UTA_F32, 4, 8);
  CHECK_TYPE(g, uta_graph_gelu(g, x, 0), UTA_F32, 4, 8);
  CHECK_TYPE(g, uta_graph_gelu(g, x, 1), UTA_F32, 4, 8);

  CHECK_TYPE(g, uta_graph_matmul(g, x, w, 0), UTA_F32, 4, 3);
  CHECK_TYPE(g, uta_graph_matmul(g, x, wt, 1), UTA_F32, 4, 3);
  int64_t dim1[] = {1}, dims01[] = {0, 1};
  CHECK_TYPE(g, uta_graph_reduce_sum(g, x, dim1, 1, 0), UTA_F32, 4);
  CHECK_TYPE(g, uta_graph_reduce_max(g, x, dim1, 1, 1), UTA_F32, 4, 1);
  CHECK(
      hasType(g, uta_graph_reduce_mean(g, x, dims01, 2, 0), UTA_F32, 0, NULL));
  CHECK_TYPE(g, uta_graph_softmax(g, x, 1), UTA_F32, 4, 8);
  uta_value_t gamma = uta_graph_fill(g, bs, 1, 1.0f, UTA_F32);
  CHECK_TYPE(g, uta_graph_layer_norm(g, x, gamma, b, 1, 1e-5f), UTA_F32, 4, 8);
  int64_t perm[] = {1, 0}, flat[] = {32}, wide[] = {4, 8};
  CHECK_TYPE(g, uta_graph_transpose(g, x, perm, 2), UTA_F32, 8, 4);
  CHECK_TYPE(g, uta_graph_reshape(g, x, flat, 1), UTA_F32, 32);
  CHECK_TYPE(g, uta_graph_broadcast_to(g, b, wide, 2), UTA_F32, 4, 8);
  CHECK_TYPE(g, uta_graph_cast(g, x, UTA_F16), UTA_F16, 4, 8);
  CHECK_TYPE(g, uta_graph_cast(g, x, UTA_BF16), UTA_BF16, 4, 8);
  int64_t twoByTwo[] = {2, 2};
  float values[] = {1, 2, 3, 4};
  CHECK_TYPE(g, uta_graph_constant(g, twoByTwo, 2, values, 4, UTA_F32), UTA_F32,
             2, 2);
  CHECK_TYPE(g, uta_graph_constant(g, twoByTwo, 2, values, 1, UTA_F16), UTA_F16,
             2, 2);
  CHECK(uta_graph_output(g, x));
  CHECK(uta_graph_num_outputs(g) == 1);
  CHECK(uta_graph_ok(g));
  CHECK(strcmp(uta_graph_error(g), "") == 0);
  CHECK(strstr(uta_graph_str(g), "func.func @tensor_ops") != NULL);
  CHECK(strstr(uta_graph_str(g), "uta.layer_norm") != NULL);
  uta_graph_destroy(g);
}

static void testCliffordBuilders(void) {
  uta_graph_t *g = uta_graph_create("clifford_ops");
  int64_t mv[] = {8, 16}, layer[] = {8, 4, 6}, wp[] = {6, 20},
          fc[] = {20, 6, 5};
  uta_value_t a = uta_graph_input(g, mv, 2, UTA_F32);
  uta_value_t c = uta_graph_input(g, mv, 2, UTA_F32);
  uta_value_t l = uta_graph_input(g, layer, 3, UTA_F32);
  uta_value_t r = uta_graph_input(g, layer, 3, UTA_F32);
  uta_value_t weights = uta_graph_input(g, wp, 2, UTA_F32);
  uta_value_t fcWeights = uta_graph_input(g, fc, 3, UTA_F32);
  CHECK(uta_algebra_num_blades(kCl3) == 8);
  CHECK(uta_algebra_num_paths(kCl3) == 20);
  uta_algebra_t bad = {7, 0, 0};
  CHECK(uta_algebra_num_blades(bad) == 0);

  uta_value_t (*products[])(uta_graph_t *, uta_algebra_t, uta_value_t,
                            uta_value_t, int64_t) = {
      uta_graph_geometric_product, uta_graph_outer_product,
      uta_graph_left_contraction, uta_graph_sandwich};
  for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); ++i)
    CHECK_TYPE(g, products[i](g, kCl3, a, c, 0), UTA_F32, 8, 16);
  CHECK_TYPE(g, uta_graph_scalar_product(g, kCl3, a, c, 0), UTA_F32, 1, 16);
  uta_value_t (*involutions[])(uta_graph_t *, uta_algebra_t, uta_value_t,
                               int64_t) = {
      uta_graph_reverse, uta_graph_grade_involution, uta_graph_conjugate,
      uta_graph_dual, uta_graph_scalar_gate};
  for (size_t i = 0; i < sizeof(involutions) / sizeof(involutions[0]); ++i)
    CHECK_TYPE(g, involutions[i](g, kCl3, a, 0), UTA_F32, 8, 16);
  int64_t grades[] = {0, 2};
  CHECK_TYPE(g, uta_graph_grade_project(g, kCl3, a, grades, 2, 0), UTA_F32, 8,
             16);
  CHECK_TYPE(g, uta_graph_weighted_product(g, kCl3, l, r, weights), UTA_F32, 8,
             4, 6);
  CHECK_TYPE(g, uta_graph_fc_product(g, kCl3, l, r, fcWeights), UTA_F32, 8, 4,
             5);
  CHECK_TYPE(g, uta_graph_grade_rms_norm(g, kCl3, l, 1e-6f), UTA_F32, 8, 4, 6);
  CHECK(uta_graph_ok(g));
  CHECK(strstr(uta_graph_str(g), "clifford.fc_product") != NULL);
  uta_graph_destroy(g);
}

static void testBadGraphs(void) {
  int64_t xs[] = {4, 8}, odd[] = {3};
  uta_graph_t *g = uta_graph_create("bad");
  uta_value_t x = uta_graph_input(g, xs, 2, UTA_F32);
  uta_value_t z = uta_graph_input(g, odd, 1, UTA_F32);
  /* The first error is kept; later builders return UTA_NO_VALUE. */
  CHECK(uta_graph_add(g, x, z) == UTA_NO_VALUE);
  CHECK(!uta_graph_ok(g));
  CHECK(strncmp(uta_graph_error(g), "add: ", 5) == 0);
  CHECK(uta_graph_exp(g, x) == UTA_NO_VALUE);
  CHECK(strncmp(uta_graph_error(g), "add: ", 5) == 0);
  CHECK(strcmp(uta_graph_str(g), "") == 0);
  CHECK(!uta_graph_output(g, x));
  uta_compiled_graph_t *compiled = NULL;
  CHECK_FAILS(uta_compile(g, NULL, &compiled), UTA_INVALID_INPUT,
              "graph @bad: add: ");
  CHECK(compiled == NULL);
  uta_graph_destroy(g);

  /* A value that names no tensor of the graph. */
  g = uta_graph_create("foreign");
  x = uta_graph_input(g, xs, 2, UTA_F32);
  CHECK(uta_graph_mul(g, x, 999) == UTA_NO_VALUE);
  CHECK(strstr(uta_graph_error(g), "rhs is not a valid tensor") != NULL);
  uta_graph_destroy(g);

  /* A dtype outside the enum is the graph's error too. */
  g = uta_graph_create("dtype");
  CHECK(uta_graph_input(g, xs, 2, (uta_dtype_t)5) == UTA_NO_VALUE);
  CHECK(strcmp(uta_graph_error(g),
               "input: dtype 5 is not UTA_F32, UTA_F16 or UTA_BF16") == 0);
  CHECK(uta_graph_input(g, xs, 2, UTA_F32) == UTA_NO_VALUE);
  CHECK_FAILS(uta_compile(g, NULL, &compiled), UTA_INVALID_INPUT,
              "graph @dtype: input: dtype 5");
  uta_graph_destroy(g);

  /* A null array of sizes with a count above 0 is an error, not rank 0. */
  g = uta_graph_create("nullshape");
  CHECK(uta_graph_input(g, NULL, 2, UTA_F32) == UTA_NO_VALUE);
  CHECK(strcmp(uta_graph_error(g), "input: the array of 2 sizes is null") == 0);
  uta_graph_destroy(g);
  g = uta_graph_create("nulldims");
  x = uta_graph_input(g, xs, 2, UTA_F32);
  CHECK(uta_graph_reduce_sum(g, x, NULL, 1, 0) == UTA_NO_VALUE);
  CHECK(strcmp(uta_graph_error(g),
               "reduce_sum: the array of 1 sizes is null") == 0);
  CHECK_FAILS(uta_compile(g, NULL, &compiled), UTA_INVALID_INPUT,
              "graph @nulldims: reduce_sum: the array of 1 sizes is null");
  uta_graph_destroy(g);

  /* A bad name, a non-positive size, a bad algebra, a clifford shape. */
  g = uta_graph_create("1bad");
  CHECK(!uta_graph_ok(g));
  uta_graph_destroy(g);
  g = uta_graph_create("sizes");
  int64_t zero[] = {0, 4};
  CHECK(uta_graph_input(g, zero, 2, UTA_F32) == UTA_NO_VALUE);
  CHECK(strncmp(uta_graph_error(g), "input: ", 7) == 0);
  uta_graph_destroy(g);
  g = uta_graph_create("algebra");
  int64_t mv[] = {8, 4};
  x = uta_graph_input(g, mv, 2, UTA_F32);
  uta_algebra_t cl7 = {7, 0, 0}, cl2 = {2, 0, 0};
  CHECK(uta_graph_reverse(g, cl7, x, 0) == UTA_NO_VALUE);
  CHECK(strncmp(uta_graph_error(g), "reverse: ", 9) == 0);
  uta_graph_destroy(g);
  g = uta_graph_create("blades");
  x = uta_graph_input(g, mv, 2, UTA_F32);
  CHECK(uta_graph_geometric_product(g, cl2, x, x, 0) == UTA_NO_VALUE);
  CHECK(strstr(uta_graph_error(g), "blade") != NULL);
  uta_graph_destroy(g);

  /* A null graph fails without crashing. */
  CHECK(uta_graph_add(NULL, 0, 0) == UTA_NO_VALUE);
  CHECK(strcmp(uta_last_error(), "uta_graph_add: graph is null") == 0);
  CHECK(!uta_graph_ok(NULL));
  CHECK_FAILS(uta_compile(NULL, NULL, &compiled), UTA_INVALID_INPUT,
              "graph is null");
  uta_graph_destroy(NULL);
}

/* `call`, made on a new graph `g` with one input `x` of [2, 3], must fail
 * with a graph error that starts with `text`. The calls below pass arrays
 * of one element with far larger counts: a count that is not refused
 * before its array is read reads past it (the ASan build reports that). */
#define CHECK_BUILDER_FAILS(call, text)                                        \
  do {                                                                         \
    uta_graph_t *g = uta_graph_create("hostile");                              \
    int64_t shape[] = {2, 3};                                                  \
    uta_value_t x = uta_graph_input(g, shape, 2, UTA_F32);                     \
    (void)x;                                                                   \
    CHECK((call) == UTA_NO_VALUE);                                             \
    CHECK(strncmp(uta_graph_error(g), (text), strlen(text)) == 0);             \
    if (strncmp(uta_graph_error(g), (text), strlen(text)) != 0)                \
      fprintf(stderr, "  graph error: %s\n", uta_graph_error(g));              \
    uta_graph_destroy(g);                                                      \
  } while (0)

/* A rank above UTA_MAX_RANK is the graph's error before the sizes are read,
 * not 2^40 sizes read past the caller's array into a vector that cannot be
 * allocated (whose std::bad_alloc would end the process). */
static void testGraphInputHugeRankRefused(void) {
  const size_t huge = (size_t)1 << 40;
  int64_t one[] = {1};
  CHECK_BUILDER_FAILS(uta_graph_input(g, one, huge, UTA_F32),
                      "input: rank 1099511627776 exceeds the maximum 64 "
                      "(UTA_MAX_RANK)");
  CHECK_BUILDER_FAILS(uta_graph_input(g, one, (size_t)-1, UTA_F32),
                      "input: rank 18446744073709551615 exceeds");
  float value = 1;
  CHECK_BUILDER_FAILS(uta_graph_constant(g, one, huge, &value, 1, UTA_F32),
                      "constant: rank 1099511627776 exceeds the maximum 64");
  CHECK_BUILDER_FAILS(uta_graph_fill(g, one, huge, 1.0f, UTA_F32),
                      "fill: rank 1099511627776 exceeds the maximum 64");
  CHECK_BUILDER_FAILS(uta_graph_reshape(g, x, one, huge),
                      "reshape: rank 1099511627776 exceeds the maximum 64");
  CHECK_BUILDER_FAILS(uta_graph_broadcast_to(g, x, one, huge),
                      "broadcast_to: rank 1099511627776 exceeds");
  CHECK_BUILDER_FAILS(uta_graph_transpose(g, x, one, huge),
                      "transpose: rank 1099511627776 exceeds");
  CHECK_BUILDER_FAILS(
      uta_graph_grade_project(g, kCl3, x, one, huge, 0),
      "grade_project: the number of grades 1099511627776 exceeds");

  /* The limit itself: UTA_MAX_RANK sizes are taken, one more is not. */
  int64_t ones[UTA_MAX_RANK + 1];
  for (size_t i = 0; i < UTA_MAX_RANK + 1; ++i)
    ones[i] = 1;
  CHECK_BUILDER_FAILS(uta_graph_input(g, ones, UTA_MAX_RANK + 1, UTA_F32),
                      "input: rank 65 exceeds the maximum 64");
  uta_graph_t *g = uta_graph_create("deep");
  uta_value_t deep = uta_graph_input(g, ones, UTA_MAX_RANK, UTA_F32);
  CHECK(uta_graph_ok(g));
  CHECK(hasType(g, deep, UTA_F32, UTA_MAX_RANK, ones));
  uta_graph_destroy(g);
}

/* The same for the axes of a reduction. */
static void testReduceSumHugeRankRefused(void) {
  const size_t huge = (size_t)1 << 40;
  int64_t axis[] = {0};
  CHECK_BUILDER_FAILS(uta_graph_reduce_sum(g, x, axis, huge, 0),
                      "reduce_sum: the number of axes 1099511627776 exceeds "
                      "the maximum 64 (UTA_MAX_RANK)");
  CHECK_BUILDER_FAILS(uta_graph_reduce_max(g, x, axis, huge, 1),
                      "reduce_max: the number of axes 1099511627776 exceeds");
  CHECK_BUILDER_FAILS(uta_graph_reduce_mean(g, x, axis, huge, 0),
                      "reduce_mean: the number of axes 1099511627776");
}

/* Tensors whose elements fit int64 but whose bytes do not are the graph's
 * error: inputs and constants here (uta::Graph checks their elements only),
 * results in the ops' verifiers. The compiler could not describe their
 * buffers. */
static void testTensorBytesPastInt64Refused(void) {
  int64_t huge[] = {INT64_C(1) << 62}, one[] = {1};
  CHECK_BUILDER_FAILS(uta_graph_input(g, huge, 1, UTA_F32),
                      "input: tensor<4611686018427387904xf32> has more bytes "
                      "than an int64 holds");
  CHECK_BUILDER_FAILS(uta_graph_fill(g, huge, 1, 0.0f, UTA_BF16),
                      "fill: tensor<4611686018427387904xbf16> has more bytes");
  uta_graph_t *g = uta_graph_create("wide");
  uta_value_t x = uta_graph_input(g, one, 1, UTA_F32);
  CHECK(uta_graph_broadcast_to(g, x, huge, 1) == UTA_NO_VALUE);
  CHECK(strstr(uta_graph_error(g), "broadcast_to: ") == uta_graph_error(g));
  uta_compiled_graph_t *compiled = NULL;
  CHECK_FAILS(uta_compile(g, NULL, &compiled), UTA_INVALID_INPUT,
              "graph @wide: broadcast_to: ");
  uta_graph_destroy(g);
}

/* Counts that the arrays behind them cannot have are refused before they
 * are read: values of a constant (one, or the shape's elements), input
 * indices of a gradient (each argument at most once). */
static void testHugeCountsRefused(void) {
  int64_t two[] = {2};
  float values[] = {1, 2};
  CHECK_BUILDER_FAILS(
      uta_graph_constant(g, two, 1, values, (size_t)1 << 40, UTA_F32),
      "constant: 1099511627776 values for shape [2], which has 2 elements");
  CHECK_BUILDER_FAILS(uta_graph_constant(g, two, 1, values, 3, UTA_F32),
                      "constant: 3 values for shape [2], which has 2 elements "
                      "(give all of them, or one to repeat)");
  /* A wrong shape reads no values at all: uta::Graph reports the shape. */
  int64_t negative[] = {-1};
  CHECK_BUILDER_FAILS(
      uta_graph_constant(g, negative, 1, values, (size_t)1 << 40, UTA_F32),
      "constant: shape [-1] has size -1 at dimension 0");

  uta_graph_t *g = uta_graph_create("f");
  uta_value_t x = uta_graph_input(g, two, 1, UTA_F32);
  uta_graph_output(g, uta_graph_exp(g, x));
  int64_t wrt[] = {0};
  uta_graph_t *gradient = uta_graph_gradient(g, wrt, (size_t)1 << 40, 0);
  CHECK(gradient && !uta_graph_ok(gradient));
  CHECK(strstr(uta_graph_error(gradient),
               "gradient: 1099511627776 input indices for the 1 arguments of "
               "@f") != NULL);
  uta_graph_destroy(gradient);
  uta_graph_destroy(g);
}

/* A graph compiled with the default options and loaded on the reference
 * device, and what it takes to release it. */
typedef struct ReferenceRun {
  uta_device_t *device;
  uta_compiled_graph_t *compiled;
  uta_executable_t *exe;
} ReferenceRun;

static ReferenceRun loadOnReference(uta_graph_t *g) {
  ReferenceRun run = {NULL, NULL, NULL};
  CHECK_OK(uta_device_open("reference", 0, &run.device));
  CHECK_OK(uta_compile(g, NULL, &run.compiled));
  CHECK_OK(uta_compiled_graph_load(run.compiled, run.device, &run.exe));
  return run;
}

static void releaseReferenceRun(ReferenceRun *run) {
  uta_executable_destroy(run->exe);
  uta_compiled_graph_destroy(run->compiled);
  uta_device_destroy(run->device);
}

/* A host tensor's huge rank, and a huge count of tensors, are refused
 * before the arrays are read, as are element counts whose bytes wrap; on
 * the reference, so no GPU or Vulkan device is needed. */
static void testRunHostHugeRankRefused(void) {
  uta_graph_t *g = uta_graph_create("twice");
  int64_t two[] = {2};
  uta_value_t x = uta_graph_input(g, two, 1, UTA_F32);
  uta_graph_output(g, uta_graph_add(g, x, x));
  ReferenceRun run = loadOnReference(g);
  uta_executable_t *exe = run.exe;
  float in[2] = {1, 2}, out[2];
  uta_host_tensor_t input = {in, UTA_F32, (size_t)1 << 40, two, 2};
  uta_host_tensor_t output = {out, UTA_F32, 1, two, 2};
  CHECK_FAILS(uta_executable_run_host(exe, &input, 1, &output, 1, NULL),
              UTA_INVALID_INPUT,
              "uta_executable_run_host: inputs 0: rank 1099511627776 exceeds "
              "the maximum 64 (UTA_MAX_RANK)");
  input.rank = 1;
  output.rank = (size_t)-1;
  CHECK_FAILS(uta_executable_run_host(exe, &input, 1, &output, 1, NULL),
              UTA_INVALID_INPUT, "outputs 0: rank 18446744073709551615");
  output.rank = 1;
  CHECK_FAILS(
      uta_executable_run_host(exe, &input, (size_t)1 << 40, &output, 1, NULL),
      UTA_INVALID_INPUT,
      "uta_executable_run_host: twice takes 1 input and returns 1 output, "
      "got 1099511627776 and 1");
  input.num_elements = SIZE_MAX / 2;
  CHECK_FAILS(uta_executable_run_host(exe, &input, 1, &output, 1, NULL),
              UTA_INVALID_INPUT, "is more bytes than the address space holds");
  input.num_elements = 2;
  CHECK_OK(uta_executable_run_host(exe, &input, 1, &output, 1, NULL));
  CHECK(out[0] == 2 && out[1] == 4);
  releaseReferenceRun(&run);
  uta_graph_destroy(g);
}

/* A run on a caller's CUDA stream: refused by the host devices, whatever
 * the stream and workspace; the counts and null arrays checked first; the
 * workspace a graph with an intermediate needs (a softmax's row maxima and
 * sums) is reported, and none for one without. */
static void testRunOnCudaStreamRefusedOnHostDevices(void) {
  uta_graph_t *g = uta_graph_create("softmax_twice");
  int64_t shape[] = {4, 6};
  uta_value_t x = uta_graph_input(g, shape, 2, UTA_F32);
  uta_graph_output(g, uta_graph_softmax(g, uta_graph_add(g, x, x), 1));
  ReferenceRun run = loadOnReference(g);
  uta_executable_t *exe = run.exe;
  CHECK(uta_executable_workspace_bytes(exe) == 0);
  CHECK(uta_executable_workspace_alignment(exe) == 1);
  CHECK(uta_executable_workspace_bytes(NULL) == 0);
  float in[24] = {1}, out[24];
  uint64_t input = (uint64_t)(uintptr_t)in, output = (uint64_t)(uintptr_t)out;
  CHECK_FAILS(
      uta_executable_run_on_cuda_stream(exe, &input, 1, &output, 1, 0, 0, 0),
      UTA_INVALID_INPUT,
      "softmax_twice: a run on host memory takes no CUDA stream");
  CHECK_FAILS(uta_executable_run_on_cuda_stream(exe, &input, 1, &output, 1,
                                                UINT64_MAX, UINT64_MAX,
                                                UINT64_MAX),
              UTA_INVALID_INPUT, "takes no CUDA stream");
  CHECK_FAILS(
      uta_executable_run_on_cuda_stream(exe, &input, 2, &output, 1, 0, 0, 0),
      UTA_INVALID_INPUT,
      "uta_executable_run_on_cuda_stream: softmax_twice takes 1 input");
  CHECK_FAILS(
      uta_executable_run_on_cuda_stream(exe, NULL, 1, &output, 1, 0, 0, 0),
      UTA_INVALID_INPUT, "uta_executable_run_on_cuda_stream: inputs");
  CHECK_FAILS(
      uta_executable_run_on_cuda_stream(NULL, &input, 1, &output, 1, 0, 0, 0),
      UTA_INVALID_INPUT, "executable");
  releaseReferenceRun(&run);

  uta_device_t *vulkan = NULL;
  if (uta_device_open("vulkan", 0, &vulkan) == UTA_OK) {
    uta_compiled_graph_t *spirv = NULL;
    uta_compile_options_t *options = NULL;
    CHECK_OK(uta_compile_options_for_device(vulkan, &options));
    CHECK_OK(uta_compile(g, options, &spirv));
    CHECK_OK(uta_compiled_graph_load(spirv, vulkan, &exe));
    /* The row statistics of the softmax are intermediates. */
    CHECK(uta_executable_workspace_bytes(exe) >= 2 * 4 * sizeof(float));
    CHECK_FAILS(uta_executable_run_on_cuda_stream(exe, &input, 1, &output, 1, 7,
                                                  0, 1 << 20),
                UTA_INVALID_INPUT, "takes no CUDA stream");
    uta_executable_destroy(exe);
    uta_compiled_graph_destroy(spirv);
    uta_compile_options_destroy(options);
    uta_device_destroy(vulkan);
  }
  uta_graph_destroy(g);
}

/* sgp(x, y, w) = grade_rms_norm(weighted_product(gate(x), gate(y), w)) plus
 * a tensor branch: gelu(u @ v + bias), softmax over the last axis. */
static uta_graph_t *buildTestGraph(void) {
  uta_graph_t *g = uta_graph_create("capi_mix");
  int64_t layer[] = {8, 5, 12}, wp[] = {12, 20}, us[] = {6, 10}, vs[] = {10, 7},
          bs[] = {7};
  uta_value_t x = uta_graph_input(g, layer, 3, UTA_F32);
  uta_value_t y = uta_graph_input(g, layer, 3, UTA_F32);
  uta_value_t w = uta_graph_input(g, wp, 2, UTA_F32);
  uta_value_t u = uta_graph_input(g, us, 2, UTA_F32);
  uta_value_t v = uta_graph_input(g, vs, 2, UTA_F32);
  uta_value_t bias = uta_graph_input(g, bs, 1, UTA_F32);
  uta_value_t product =
      uta_graph_weighted_product(g, kCl3, uta_graph_scalar_gate(g, kCl3, x, 0),
                                 uta_graph_scalar_gate(g, kCl3, y, 0), w);
  uta_graph_output(g, uta_graph_grade_rms_norm(g, kCl3, product, 1e-6f));
  uta_value_t dense = uta_graph_gelu(
      g, uta_graph_add(g, uta_graph_matmul(g, u, v, 0), bias), 0);
  uta_graph_output(g, uta_graph_softmax(g, dense, 1));
  return g;
}

enum { kMaxArgs = 6 };

/* Seeded inputs and poisoned outputs for `exe`'s signature. */
typedef struct {
  size_t numInputs, numOutputs;
  float *data[2 * kMaxArgs];
  uta_host_tensor_t inputs[kMaxArgs], outputs[kMaxArgs];
} Buffers;

static size_t elementsOf(size_t rank, const int64_t *shape) {
  size_t count = 1;
  for (size_t i = 0; i < rank; ++i)
    count *= (size_t)shape[i];
  return count;
}

static void makeBuffers(const uta_executable_t *exe, Buffers *buffers) {
  memset(buffers, 0, sizeof(*buffers));
  buffers->numInputs = uta_executable_num_inputs(exe);
  buffers->numOutputs = uta_executable_num_outputs(exe);
  for (int output = 0; output < 2; ++output) {
    size_t count = output ? buffers->numOutputs : buffers->numInputs;
    for (size_t i = 0; i < count && i < kMaxArgs; ++i) {
      uta_host_tensor_t *tensor =
          output ? &buffers->outputs[i] : &buffers->inputs[i];
      CHECK_OK(uta_executable_tensor_type(exe, output, i, &tensor->dtype,
                                          &tensor->rank, &tensor->shape));
      tensor->num_elements = elementsOf(tensor->rank, tensor->shape);
      float *data = malloc(sizeof(float) * tensor->num_elements);
      if (output)
        poison(data, tensor->num_elements);
      else
        uta_fill_normal(data, tensor->num_elements, 11, i);
      tensor->data = data;
      buffers->data[output * kMaxArgs + i] = data;
    }
  }
}

static void freeBuffers(Buffers *buffers) {
  for (size_t i = 0; i < 2 * kMaxArgs; ++i)
    free(buffers->data[i]);
}

/* Compares every output of `run` with `reference`'s; returns the passes. */
static int compareOutputs(const char *what, const Buffers *run,
                          const Buffers *reference, double tolerance) {
  int passed = 0;
  for (size_t i = 0; i < run->numOutputs; ++i) {
    uta_comparison_t comparison;
    char report[256];
    const uta_host_tensor_t *out = &run->outputs[i];
    CHECK_OK(uta_compare("result", out->data, reference->outputs[i].data,
                         out->num_elements, out->shape, out->rank, tolerance,
                         &comparison, report, sizeof(report)));
    printf("CompilerTest: %s, output %zu: %s\n", what, i, report);
    CHECK(comparison.passed);
    passed += comparison.passed;
  }
  return passed;
}

static void testRuns(void) {
  uta_graph_t *g = buildTestGraph();
  CHECK(uta_graph_ok(g));
  uta_kernel_cache_t *cache = NULL;
  CHECK_OK(uta_kernel_cache_open("", &cache));
  uta_compile_options_t *options = NULL;
  CHECK_OK(uta_compile_options_create(&options));
  uta_compile_options_set_target(options, UTA_TARGET_SPIRV);
  uta_compile_options_set_cache(options, cache);
  uta_compiled_graph_t *compiled = NULL, *again = NULL;
  CHECK_OK(uta_compile(g, options, &compiled));
  CHECK_OK(uta_compile(g, options, &again));
  if (!compiled || !again)
    return;
  CHECK(!uta_compiled_graph_cache_hit(compiled));
  CHECK(uta_compiled_graph_cache_hit(again));
  uta_cache_stats_t stats;
  uta_kernel_cache_stats(cache, &stats);
  CHECK(stats.misses == 1 && stats.memory_hits == 1);
  CHECK(uta_compiled_graph_target(compiled) == UTA_TARGET_SPIRV);
  CHECK(strcmp(uta_compiled_graph_name(compiled), "capi_mix") == 0);
  CHECK(uta_compiled_graph_has_reductions(compiled));
  size_t moduleBytes = 0;
  CHECK(uta_compiled_graph_module(compiled, &moduleBytes) && moduleBytes > 0);
  CHECK(strstr(uta_compiled_graph_manifest(compiled), "\"launches\""));
  uta_compile_options_set_target(options, (uta_target_t)9);
  CHECK_FAILS(uta_compile(g, options, &again), UTA_INVALID_INPUT,
              "target 9 is not");
  double tolerance = uta_default_tolerance(UTA_F32, 1, 0);

  /* The float64 reference, checked on one hand-worked graph first. */
  uta_device_t *referenceDevice = NULL;
  CHECK_OK(uta_device_open("reference", 0, &referenceDevice));
  uta_graph_t *tiny = uta_graph_create("tiny");
  int64_t two[] = {2};
  float lhs[] = {1.5f, -2.0f}, rhs[] = {3.0f, 0.25f};
  uta_graph_output(
      tiny,
      uta_graph_mul(tiny, uta_graph_constant(tiny, two, 1, lhs, 2, UTA_F32),
                    uta_graph_input(tiny, two, 1, UTA_F32)));
  uta_compiled_graph_t *tinyCompiled = NULL;
  uta_executable_t *tinyExe = NULL;
  CHECK_OK(uta_compile(tiny, NULL, &tinyCompiled));
  CHECK_OK(uta_compiled_graph_load(tinyCompiled, referenceDevice, &tinyExe));
  float tinyOut[2];
  poison(tinyOut, 2);
  uta_host_tensor_t tinyIn = {rhs, UTA_F32, 1, two, 2};
  uta_host_tensor_t tinyResult = {tinyOut, UTA_F32, 1, two, 2};
  CHECK_OK(uta_executable_run_host(tinyExe, &tinyIn, 1, &tinyResult, 1, NULL));
  CHECK(tinyOut[0] == 4.5f && tinyOut[1] == -0.5f);
  uta_executable_destroy(tinyExe);
  uta_compiled_graph_destroy(tinyCompiled);
  uta_graph_destroy(tiny);

  uta_executable_t *oracle = NULL;
  CHECK_OK(uta_compiled_graph_load(compiled, referenceDevice, &oracle));
  Buffers expected;
  makeBuffers(oracle, &expected);
  CHECK_OK(uta_executable_run_host(oracle, expected.inputs, expected.numInputs,
                                   expected.outputs, expected.numOutputs,
                                   NULL));

  uta_device_t *vulkan = NULL;
  uta_status_t opened = uta_device_open("vulkan", 0, &vulkan);
  if (opened == UTA_UNAVAILABLE) {
    printf("CompilerTest: no Vulkan device here, skipping its runs: %s\n",
           uta_last_error());
  } else if (opened == UTA_OK) {
    uta_executable_t *exe = NULL;
    CHECK_OK(uta_compiled_graph_load(compiled, vulkan, &exe));
    Buffers run;
    makeBuffers(exe, &run);
    uta_run_options_t poisonFirst = {UTA_RUN_POISON_OUTPUTS, NULL};
    CHECK_OK(uta_executable_run_host(exe, run.inputs, run.numInputs,
                                     run.outputs, run.numOutputs,
                                     &poisonFirst));
    CHECK(compareOutputs("vulkan", &run, &expected, tolerance) == 2);

    /* Saved, then loaded by the runtime half alone. */
    char folder[] = "/tmp/uta-capi-XXXXXX";
    if (mkdtemp(folder)) {
      char module[64], manifest[80];
      snprintf(module, sizeof(module), "%s/capi_mix.spv", folder);
      snprintf(manifest, sizeof(manifest), "%s.json", module);
      CHECK_OK(uta_compiled_graph_save(compiled, module));
      uta_executable_t *loaded = NULL;
      CHECK_OK(uta_executable_load(vulkan, manifest, &loaded));
      Buffers reloaded;
      makeBuffers(loaded, &reloaded);
      CHECK_OK(uta_executable_run_host(loaded, reloaded.inputs,
                                       reloaded.numInputs, reloaded.outputs,
                                       reloaded.numOutputs, &poisonFirst));
      CHECK(compareOutputs("vulkan, saved module", &reloaded, &expected,
                           tolerance) == 2);
      freeBuffers(&reloaded);
      uta_executable_destroy(loaded);
      unlink(manifest);
      unlink(module);
      rmdir(folder);
    }
    freeBuffers(&run);
    uta_executable_destroy(exe);
    uta_device_destroy(vulkan);
  } else {
    CHECK_OK(opened);
  }

  freeBuffers(&expected);
  uta_executable_destroy(oracle);
  uta_device_destroy(referenceDevice);
  uta_compiled_graph_destroy(compiled);
  uta_compiled_graph_destroy(again);
  uta_compile_options_destroy(options);
  uta_kernel_cache_destroy(cache);
  uta_graph_destroy(g);
}

/* Runs `compiled` on the reference with host inputs `in[0..numIn)` into
 * poisoned outputs `out[i]` of `outCount[i]` elements. */
static void runOnReference(const uta_compiled_graph_t *compiled,
                           const uta_device_t *reference,
                           const uta_host_tensor_t *in, size_t numIn,
                           uta_host_tensor_t *out, size_t numOut) {
  uta_executable_t *exe = NULL;
  CHECK_OK(uta_compiled_graph_load(compiled, reference, &exe));
  for (size_t i = 0; i < numOut; ++i)
    poison((float *)out[i].data, out[i].num_elements);
  CHECK_OK(uta_executable_run_host(exe, in, numIn, out, numOut, NULL));
  uta_executable_destroy(exe);
}

static int equals(const float *actual, const float *expected, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (actual[i] != expected[i])
      return 0;
  return 1;
}

/* f(x, y) = x * y + x: the gradient graph's values worked by hand,
 * d/dx = g (y + 1), d/dy = g x, all exact in f32. */
static void testGradientValues(void) {
  uta_graph_t *g = uta_graph_create("fma");
  int64_t three[] = {3};
  uta_value_t x = uta_graph_input(g, three, 1, UTA_F32);
  uta_value_t y = uta_graph_input(g, three, 1, UTA_F32);
  uta_graph_output(g, uta_graph_add(g, uta_graph_mul(g, x, y), x));
  CHECK(uta_graph_ok(g));

  uta_graph_t *vjp = uta_graph_gradient(g, NULL, 0, 0);
  uta_graph_t *joint = uta_graph_gradient(g, NULL, 0, 1);
  int64_t onlyY[] = {1};
  uta_graph_t *dy = uta_graph_gradient(g, onlyY, 1, 0);
  CHECK(vjp && joint && dy);
  if (!vjp || !joint || !dy)
    return;
  CHECK(uta_graph_ok(vjp) && uta_graph_ok(joint) && uta_graph_ok(dy));
  CHECK(strstr(uta_graph_str(vjp), "func.func @fma_vjp") != NULL);
  CHECK(strstr(uta_graph_str(joint), "func.func @fma_fwd_bwd") != NULL);
  /* Inputs x, y, the cotangent; then the outputs, as values. */
  CHECK(uta_graph_num_inputs(vjp) == 3 && uta_graph_num_outputs(vjp) == 2);
  CHECK(uta_graph_num_inputs(joint) == 3 && uta_graph_num_outputs(joint) == 3);
  CHECK(uta_graph_num_outputs(dy) == 1);
  for (uta_value_t value = 0; value < 5; ++value)
    CHECK_TYPE(vjp, value, UTA_F32, 3);
  CHECK(!uta_graph_value_type(vjp, 5, NULL, NULL, NULL));
  /* The source graph is unchanged. */
  CHECK(uta_graph_num_inputs(g) == 2 && uta_graph_num_outputs(g) == 1);

  float xs[] = {1.5f, -2.0f, 0.5f}, ys[] = {3.0f, 0.25f, -1.0f},
        cotangent[] = {1.0f, 2.0f, -0.5f};
  float f[] = {6.0f, -2.5f, 0.0f}, dfdx[] = {4.0f, 2.5f, 0.0f},
        dfdy[] = {1.5f, -4.0f, -0.25f};
  uta_host_tensor_t in[] = {{xs, UTA_F32, 1, three, 3},
                            {ys, UTA_F32, 1, three, 3},
                            {cotangent, UTA_F32, 1, three, 3}};
  float results[3][3];
  uta_host_tensor_t out[3];
  for (int i = 0; i < 3; ++i)
    out[i] = (uta_host_tensor_t){results[i], UTA_F32, 1, three, 3};
  uta_device_t *reference = NULL;
  CHECK_OK(uta_device_open("reference", 0, &reference));
  uta_compiled_graph_t *compiled = NULL;

  CHECK_OK(uta_compile(vjp, NULL, &compiled));
  runOnReference(compiled, reference, in, 3, out, 2);
  CHECK(equals(results[0], dfdx, 3) && equals(results[1], dfdy, 3));
  uta_compiled_graph_destroy(compiled);

  CHECK_OK(uta_compile(joint, NULL, &compiled));
  runOnReference(compiled, reference, in, 3, out, 3);
  CHECK(equals(results[0], f, 3) && equals(results[1], dfdx, 3) &&
        equals(results[2], dfdy, 3));
  uta_compiled_graph_destroy(compiled);

  CHECK_OK(uta_compile(dy, NULL, &compiled));
  runOnReference(compiled, reference, in, 3, out, 1);
  CHECK(equals(results[0], dfdy, 3));
  uta_compiled_graph_destroy(compiled);

  /* Built on like any graph: dx + dy as a third output. */
  CHECK(uta_graph_output(vjp, uta_graph_add(vjp, 3, 4)));
  CHECK_OK(uta_compile(vjp, NULL, &compiled));
  runOnReference(compiled, reference, in, 3, out, 3);
  for (int i = 0; i < 3; ++i)
    CHECK(results[2][i] == dfdx[i] + dfdy[i]);
  uta_compiled_graph_destroy(compiled);

  uta_device_destroy(reference);
  uta_graph_destroy(dy);
  uta_graph_destroy(joint);
  uta_graph_destroy(vjp);
  uta_graph_destroy(g);
}

/* The training pair of f(u, v) = (u v)^2, values worked by hand: u v =
 * [[4.5, -1], [-0.5, 4]] is saved by the forward (a GEMM output, forward
 * value 3: inputs u, v, output f, then residual 0), the backward reads u,
 * v and it, with g: dm = 2 g m, du = dm v^T, dv = u^T dm; all exact in f32.
 */
static void testTrainingPairValues(void) {
  uta_graph_t *g = uta_graph_create("square");
  int64_t two[] = {2, 2};
  uta_value_t u = uta_graph_input(g, two, 2, UTA_F32);
  uta_value_t v = uta_graph_input(g, two, 2, UTA_F32);
  uta_value_t m = uta_graph_matmul(g, u, v, 0);
  uta_graph_output(g, uta_graph_mul(g, m, m));
  CHECK(uta_graph_ok(g));

  uta_graph_t *forward = uta_graph_training_half(g, NULL, 0, 0);
  uta_graph_t *backward = uta_graph_training_half(g, NULL, 0, 1);
  CHECK(forward && backward);
  if (!forward || !backward)
    return;
  CHECK(uta_graph_ok(forward) && uta_graph_ok(backward));
  CHECK(strstr(uta_graph_str(forward), "func.func @square_forward") != NULL);
  CHECK(strstr(uta_graph_str(backward), "func.func @square_backward") != NULL);
  CHECK(uta_graph_num_inputs(forward) == 2 &&
        uta_graph_num_outputs(forward) == 2);
  CHECK(uta_graph_num_inputs(backward) == 4 &&
        uta_graph_num_outputs(backward) == 2);
  int64_t saved[4] = {-1, -1, -1, -1};
  CHECK(uta_graph_saved_values(backward, saved, 4) == 3);
  CHECK(saved[0] == 0 && saved[1] == 1 && saved[2] == 3 && saved[3] == -1);
  /* A short array gets what fits, the count stays. */
  int64_t first = -1;
  CHECK(uta_graph_saved_values(backward, &first, 1) == 3 && first == 0);
  CHECK(uta_graph_saved_values(backward, NULL, 0) == 3);
  CHECK(uta_graph_saved_values(forward, saved, 4) == 0);
  CHECK(uta_graph_saved_values(g, saved, 4) == 0);

  float us[] = {1, 2, 3, -1}, vs[] = {0.5f, 1, 2, -1}, gs[] = {1, 2, -1, 0.5f};
  float f[] = {20.25f, 1, 0.25f, 16}, ms[] = {4.5f, -1, -0.5f, 4};
  float du[] = {0.5f, 22, 4.5f, -2}, dv[] = {12, 8, 17, -12};
  float results[2][4];
  uta_host_tensor_t out[2];
  for (int i = 0; i < 2; ++i)
    out[i] = (uta_host_tensor_t){results[i], UTA_F32, 2, two, 4};
  uta_device_t *reference = NULL;
  CHECK_OK(uta_device_open("reference", 0, &reference));
  uta_compiled_graph_t *compiled = NULL;

  uta_host_tensor_t in[] = {{us, UTA_F32, 2, two, 4}, {vs, UTA_F32, 2, two, 4}};
  CHECK_OK(uta_compile(forward, NULL, &compiled));
  runOnReference(compiled, reference, in, 2, out, 2);
  CHECK(equals(results[0], f, 4) && equals(results[1], ms, 4));
  uta_compiled_graph_destroy(compiled);

  /* The saved values, then the cotangent. */
  uta_host_tensor_t savedIn[] = {{us, UTA_F32, 2, two, 4},
                                 {vs, UTA_F32, 2, two, 4},
                                 {ms, UTA_F32, 2, two, 4},
                                 {gs, UTA_F32, 2, two, 4}};
  CHECK_OK(uta_compile(backward, NULL, &compiled));
  runOnReference(compiled, reference, savedIn, 4, out, 2);
  CHECK(equals(results[0], du, 4) && equals(results[1], dv, 4));
  uta_compiled_graph_destroy(compiled);

  /* Errors as uta_graph_gradient's, under the half's name. */
  int64_t outside[] = {2};
  uta_graph_t *failed = uta_graph_training_half(g, outside, 1, 1);
  CHECK(failed && !uta_graph_ok(failed));
  CHECK(failed && strstr(uta_graph_error(failed),
                         "training pair: cannot differentiate with respect "
                         "to argument #2: @square has 2 arguments") != NULL);
  uta_graph_destroy(failed);
  CHECK(uta_graph_training_half(NULL, NULL, 0, 0) == NULL);
  CHECK(strstr(uta_last_error(), "uta_graph_training_half") != NULL);
  CHECK(uta_graph_saved_values(NULL, saved, 4) == 0);
  CHECK(uta_graph_saved_values(backward, NULL, 4) == 0);
  CHECK(strstr(uta_last_error(), "uta_graph_saved_values") != NULL);

  uta_device_destroy(reference);
  uta_graph_destroy(backward);
  uta_graph_destroy(forward);
  uta_graph_destroy(g);
}

/* The joint gradient of the tensor branch of buildTestGraph, on Vulkan
 * against the float64 reference, seeded inputs and cotangent. */
static void testGradientOnVulkan(void) {
  uta_graph_t *g = uta_graph_create("dense");
  int64_t us[] = {6, 10}, vs[] = {10, 7}, bs[] = {7};
  uta_value_t u = uta_graph_input(g, us, 2, UTA_F32);
  uta_value_t v = uta_graph_input(g, vs, 2, UTA_F32);
  uta_value_t bias = uta_graph_input(g, bs, 1, UTA_F32);
  uta_value_t dense = uta_graph_gelu(
      g, uta_graph_add(g, uta_graph_matmul(g, u, v, 0), bias), 0);
  uta_graph_output(g, uta_graph_softmax(g, dense, 1));
  uta_graph_t *joint = uta_graph_gradient(g, NULL, 0, 1);
  CHECK(uta_graph_ok(joint));
  uta_device_t *vulkan = NULL;
  uta_status_t opened = uta_device_open("vulkan", 0, &vulkan);
  if (opened != UTA_OK) {
    if (opened != UTA_UNAVAILABLE)
      CHECK_OK(opened);
    uta_graph_destroy(joint);
    uta_graph_destroy(g);
    return;
  }
  uta_device_t *reference = NULL;
  CHECK_OK(uta_device_open("reference", 0, &reference));
  uta_compile_options_t *options = NULL;
  CHECK_OK(uta_compile_options_for_device(vulkan, &options));
  uta_compiled_graph_t *compiled = NULL;
  CHECK_OK(uta_compile(joint, options, &compiled));
  uta_executable_t *oracle = NULL, *exe = NULL;
  CHECK_OK(uta_compiled_graph_load(compiled, reference, &oracle));
  CHECK_OK(uta_compiled_graph_load(compiled, vulkan, &exe));
  Buffers expected, run;
  makeBuffers(oracle, &expected);
  makeBuffers(exe, &run);
  CHECK(run.numInputs == 4 && run.numOutputs == 4);
  CHECK_OK(uta_executable_run_host(oracle, expected.inputs, expected.numInputs,
                                   expected.outputs, expected.numOutputs,
                                   NULL));
  uta_run_options_t poisonFirst = {UTA_RUN_POISON_OUTPUTS, NULL};
  CHECK_OK(uta_executable_run_host(exe, run.inputs, run.numInputs, run.outputs,
                                   run.numOutputs, &poisonFirst));
  double tolerance = uta_default_tolerance(
      UTA_F32, uta_compiled_graph_has_reductions(compiled), 0);
  int passed =
      compareOutputs("vulkan, joint gradient", &run, &expected, tolerance);
  CHECK(passed == 4);
  freeBuffers(&run);
  freeBuffers(&expected);
  uta_executable_destroy(exe);
  uta_executable_destroy(oracle);
  uta_compiled_graph_destroy(compiled);
  uta_compile_options_destroy(options);
  uta_device_destroy(reference);
  uta_device_destroy(vulkan);
  uta_graph_destroy(joint);
  uta_graph_destroy(g);
}

/* Whether `gradient` is a graph with an error starting "gradient: ..."
 * containing `text`, which compile refuses; destroys it. */
static int gradientFails(uta_graph_t *gradient, const char *text) {
  int failed = gradient && !uta_graph_ok(gradient) &&
               strncmp(uta_graph_error(gradient), "gradient: ", 10) == 0 &&
               strstr(uta_graph_error(gradient), text) != NULL &&
               strcmp(uta_graph_str(gradient), "") == 0;
  if (!failed && gradient)
    printf("CompilerTest: unexpected gradient error: %s\n",
           uta_graph_error(gradient));
  uta_compiled_graph_t *compiled = NULL;
  if (gradient)
    CHECK_FAILS(uta_compile(gradient, NULL, &compiled), UTA_INVALID_INPUT,
                "gradient: ");
  uta_graph_destroy(gradient);
  return failed;
}

static void testGradientErrors(void) {
  int64_t two[] = {2};
  uta_graph_t *g = uta_graph_create("noout");
  uta_value_t x = uta_graph_input(g, two, 1, UTA_F32);
  uta_value_t y = uta_graph_input(g, two, 1, UTA_F32);
  CHECK(gradientFails(uta_graph_gradient(g, NULL, 0, 0),
                      "the graph has no outputs to differentiate"));
  uta_graph_output(g, uta_graph_mul(g, x, y));

  int64_t outside[] = {2}, negative[] = {0, -1}, twice[] = {1, 1};
  CHECK(gradientFails(uta_graph_gradient(g, outside, 1, 0),
                      "argument #2: @noout has 2 arguments"));
  CHECK(gradientFails(uta_graph_gradient(g, negative, 2, 1),
                      "argument #-1: @noout has 2 arguments"));
  CHECK(gradientFails(uta_graph_gradient(g, twice, 2, 0),
                      "argument #1 is listed twice in wrt"));
  CHECK(gradientFails(uta_graph_gradient(g, NULL, 1, 0),
                      "the array of 1 input indices is null"));
  /* A failed gradient keeps the name it would have had. */
  uta_graph_t *failed = uta_graph_gradient(g, outside, 1, 1);
  uta_value_t extra = uta_graph_neg(failed, 0);
  CHECK(extra == UTA_NO_VALUE && !uta_graph_ok(failed));
  CHECK(gradientFails(failed, "argument #2"));
  /* Errors of the gradient leave the source graph as it was. */
  CHECK(uta_graph_ok(g));
  uta_graph_t *fine = uta_graph_gradient(g, NULL, 0, 0);
  CHECK(uta_graph_ok(fine));
  uta_graph_destroy(fine);
  uta_graph_destroy(g);

  /* A graph with an error, of the C++ builder or of the C layer. */
  g = uta_graph_create("broken");
  x = uta_graph_input(g, two, 1, UTA_F32);
  uta_graph_output(g, x);
  int64_t odd[] = {3};
  uta_graph_add(g, x, uta_graph_input(g, odd, 1, UTA_F32));
  CHECK(gradientFails(uta_graph_gradient(g, NULL, 0, 0),
                      "the graph has an error: add: "));
  uta_graph_destroy(g);
  g = uta_graph_create("cdtype");
  x = uta_graph_input(g, two, 1, UTA_F32);
  uta_graph_output(g, x);
  uta_graph_input(g, two, 1, (uta_dtype_t)5);
  CHECK(gradientFails(uta_graph_gradient(g, NULL, 0, 0),
                      "the graph has an error: input: dtype 5"));
  uta_graph_destroy(g);

  CHECK(uta_graph_gradient(NULL, NULL, 0, 0) == NULL);
  CHECK(strcmp(uta_last_error(), "uta_graph_gradient: graph is null") == 0);
}

int main(void) {
  testTensorBuilders();
  testCliffordBuilders();
  testBadGraphs();
  testGraphInputHugeRankRefused();
  testReduceSumHugeRankRefused();
  testHugeCountsRefused();
  testTensorBytesPastInt64Refused();
  testRunHostHugeRankRefused();
  testRunOnCudaStreamRefusedOnHostDevices();
  testRuns();
  testGradientValues();
  testTrainingPairValues();
  testGradientOnVulkan();
  testGradientErrors();
  return finishTest("CompilerTest");
}
