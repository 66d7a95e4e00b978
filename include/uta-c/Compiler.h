/*===- uta-c/Compiler.h - Building and compiling graphs from C -----*- C -*-===*
 *
 * The compiler half of UTA's C API (libuta_c.so, over libuta.so;
 * docs/python.md): build a graph op by op (every builder of uta::Graph, both
 * dialects), compile it through the pipelines and kernel cache of utac, and
 * load the result on a device of uta-c/Runtime.h, the float64 reference
 * included.
 *
 *   uta_graph_t *g = uta_graph_create("gelu_bias");
 *   int64_t xs[] = {512, 768}, bs[] = {768};
 *   uta_value_t x = uta_graph_input(g, xs, 2, UTA_F32);
 *   uta_value_t b = uta_graph_input(g, bs, 1, UTA_F32);
 *   uta_graph_output(g, uta_graph_gelu(g, uta_graph_add(g, x, b), 0));
 *   if (!uta_graph_ok(g)) fprintf(stderr, "%s\n", uta_graph_error(g));
 *
 * Values are small integers naming the graph's tensors; a builder that
 * fails returns UTA_NO_VALUE. As in uta::Graph, the graph keeps its FIRST
 * error and every later builder returns UTA_NO_VALUE, so a chain of calls
 * needs one check at its end; a value that names no tensor of the graph
 * (UTA_NO_VALUE, out of range) given to a builder is itself an error. One
 * graph is built by one thread at a time; different graphs, compiles and
 * runs may go on in parallel.
 *
 *===----------------------------------------------------------------------===*/

#ifndef UTA_C_COMPILER_H
#define UTA_C_COMPILER_H

#include "uta-c/Runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uta_graph_t uta_graph_t;
typedef struct uta_compile_options_t uta_compile_options_t;
typedef struct uta_kernel_cache_t uta_kernel_cache_t;
typedef struct uta_compiled_graph_t uta_compiled_graph_t;

/* A tensor of a graph: its position in the graph's value table. */
typedef int64_t uta_value_t;
#define UTA_NO_VALUE ((uta_value_t)-1)

/* The real Clifford algebra Cl(p, q, r): n = p + q + r basis vectors, the
 * first r squaring to 0, the next p to +1, the last q to -1. */
typedef struct uta_algebra_t {
  int p, q, r;
} uta_algebra_t;

/* 2^n, the size of a blade axis; 0 for a signature outside 1 <= n <= 6. */
int64_t uta_algebra_num_blades(uta_algebra_t algebra);
/* The paths of weighted_product and fc_product weights (20 for Cl(3,0)). */
int64_t uta_algebra_num_paths(uta_algebra_t algebra);

/*===----------------------------------------------------------------------===*
 * Graphs
 *===----------------------------------------------------------------------===*/

/* A graph whose function is @name; NULL only when memory runs out. A name
 * that is not an identifier starts the graph with an error. */
uta_graph_t *uta_graph_create(const char *name);
void uta_graph_destroy(uta_graph_t *graph);

int uta_graph_ok(const uta_graph_t *graph);
/* The first error, "" while ok; owned by the graph. */
const char *uta_graph_error(const uta_graph_t *graph);
/* The graph as MLIR (what compile parses), "" with an error; owned by the
 * graph, valid until its next change. */
const char *uta_graph_str(uta_graph_t *graph);

/* A value's type: 0 and nothing written when `value` names no tensor. */
int uta_graph_value_type(const uta_graph_t *graph, uta_value_t value,
                         uta_dtype_t *dtype, size_t *rank,
                         const int64_t **shape);
size_t uta_graph_num_inputs(const uta_graph_t *graph);
size_t uta_graph_num_outputs(const uta_graph_t *graph);

/* The next function argument (sizes positive). */
uta_value_t uta_graph_input(uta_graph_t *graph, const int64_t *shape,
                            size_t rank, uta_dtype_t dtype);
/* A constant holding `values[0..count)` row-major, or one value repeated
 * when count is 1; rounded to `dtype`. */
uta_value_t uta_graph_constant(uta_graph_t *graph, const int64_t *shape,
                               size_t rank, const float *values, size_t count,
                               uta_dtype_t dtype);
/* A constant with every element `value`. */
uta_value_t uta_graph_fill(uta_graph_t *graph, const int64_t *shape,
                           size_t rank, float value, uta_dtype_t dtype);
/* Appends `result` to the function's results; 0 when the graph has an
 * error afterwards. */
int uta_graph_output(uta_graph_t *graph, uta_value_t result);

/* The gradient graph of `graph` (docs/autodiff.md), a new graph that the
 * caller destroys: @name_vjp takes the graph's inputs, then one cotangent
 * per output (of the output's type), and outputs the gradient of each input
 * listed in `wrt[0..num_wrt)` (indices in the order uta_graph_input made
 * them; none: every input), of its input's type. With `joint`,
 * @name_fwd_bwd outputs the graph's outputs first, then the gradients. The
 * new graph's values are its inputs (0, 1, ...) followed by its outputs;
 * it compiles, and can be built on, like any other graph. It has an error
 * (uta_graph_ok 0, "gradient: ...") when `graph` has one or no outputs,
 * when an index is out of range or repeated, or when `wrt` is null with
 * `num_wrt` above 0; `graph` itself is never changed. NULL only for a null
 * `graph` (uta_last_error says so) or when memory runs out. */
uta_graph_t *uta_graph_gradient(const uta_graph_t *graph, const int64_t *wrt,
                                size_t num_wrt, int joint);

/* One half of the training pair of `graph` (docs/autodiff.md), a new graph
 * that the caller destroys. With `backward` 0, @name_forward takes the
 * graph's inputs and outputs its outputs, then the residuals: the values it
 * saves for the backward. With `backward` non-zero, @name_backward takes
 * the saved values (uta_graph_saved_values says which), then one cotangent
 * per output, and outputs the gradient of each input listed in
 * `wrt[0..num_wrt)`, as uta_graph_gradient does. The values of the new
 * graph, its errors ("training pair: ...") and NULL are as for
 * uta_graph_gradient. */
uta_graph_t *uta_graph_training_half(const uta_graph_t *graph,
                                     const int64_t *wrt, size_t num_wrt,
                                     int backward);
/* For the backward half of a training pair: the number of its inputs that
 * are saved values, and for the first `capacity` of them, in `saved`, the
 * forward value each one takes: an index into the forward's inputs followed
 * by its outputs. 0 for any other graph; 0 with uta_last_error set for a
 * null `graph`, or a null `saved` with `capacity` above 0. */
size_t uta_graph_saved_values(const uta_graph_t *graph, int64_t *saved,
                              size_t capacity);

/* uta: elementwise, NumPy broadcasting (docs/language.md). */
uta_value_t uta_graph_add(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_sub(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_mul(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_div(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_max(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_min(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_pow(uta_graph_t *graph, uta_value_t lhs, uta_value_t rhs);
uta_value_t uta_graph_neg(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_abs(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_sign(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_exp(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_log(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_sqrt(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_rsqrt(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_tanh(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_erf(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_sigmoid(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_relu(uta_graph_t *graph, uta_value_t x);
uta_value_t uta_graph_silu(uta_graph_t *graph, uta_value_t x);
/* Exact (erf) GELU, or the tanh approximation when `tanh_approximation`. */
uta_value_t uta_graph_gelu(uta_graph_t *graph, uta_value_t x,
                           int tanh_approximation);

/* uta: matmul, reductions, normalisations, layout, conversion. */
uta_value_t uta_graph_matmul(uta_graph_t *graph, uta_value_t lhs,
                             uta_value_t rhs, int transpose_b);
uta_value_t uta_graph_reduce_sum(uta_graph_t *graph, uta_value_t x,
                                 const int64_t *dims, size_t num_dims,
                                 int keep_dims);
uta_value_t uta_graph_reduce_max(uta_graph_t *graph, uta_value_t x,
                                 const int64_t *dims, size_t num_dims,
                                 int keep_dims);
uta_value_t uta_graph_reduce_mean(uta_graph_t *graph, uta_value_t x,
                                  const int64_t *dims, size_t num_dims,
                                  int keep_dims);
uta_value_t uta_graph_softmax(uta_graph_t *graph, uta_value_t x, int64_t dim);
uta_value_t uta_graph_layer_norm(uta_graph_t *graph, uta_value_t x,
                                 uta_value_t weight, uta_value_t bias,
                                 int64_t axis, float epsilon);
uta_value_t uta_graph_transpose(uta_graph_t *graph, uta_value_t x,
                                const int64_t *permutation, size_t rank);
uta_value_t uta_graph_reshape(uta_graph_t *graph, uta_value_t x,
                              const int64_t *shape, size_t rank);
uta_value_t uta_graph_broadcast_to(uta_graph_t *graph, uta_value_t x,
                                   const int64_t *shape, size_t rank);
uta_value_t uta_graph_cast(uta_graph_t *graph, uta_value_t x,
                           uta_dtype_t dtype);

/* clifford: f32 multivectors, blade axis `blade_axis` of 2^n entries. */
uta_value_t uta_graph_geometric_product(uta_graph_t *graph,
                                        uta_algebra_t algebra, uta_value_t lhs,
                                        uta_value_t rhs, int64_t blade_axis);
uta_value_t uta_graph_outer_product(uta_graph_t *graph, uta_algebra_t algebra,
                                    uta_value_t lhs, uta_value_t rhs,
                                    int64_t blade_axis);
uta_value_t uta_graph_left_contraction(uta_graph_t *graph,
                                       uta_algebra_t algebra, uta_value_t lhs,
                                       uta_value_t rhs, int64_t blade_axis);
uta_value_t uta_graph_scalar_product(uta_graph_t *graph, uta_algebra_t algebra,
                                     uta_value_t lhs, uta_value_t rhs,
                                     int64_t blade_axis);
uta_value_t uta_graph_sandwich(uta_graph_t *graph, uta_algebra_t algebra,
                               uta_value_t rotor, uta_value_t x,
                               int64_t blade_axis);
uta_value_t uta_graph_reverse(uta_graph_t *graph, uta_algebra_t algebra,
                              uta_value_t x, int64_t blade_axis);
uta_value_t uta_graph_grade_involution(uta_graph_t *graph,
                                       uta_algebra_t algebra, uta_value_t x,
                                       int64_t blade_axis);
uta_value_t uta_graph_conjugate(uta_graph_t *graph, uta_algebra_t algebra,
                                uta_value_t x, int64_t blade_axis);
uta_value_t uta_graph_grade_project(uta_graph_t *graph, uta_algebra_t algebra,
                                    uta_value_t x, const int64_t *grades,
                                    size_t num_grades, int64_t blade_axis);
uta_value_t uta_graph_dual(uta_graph_t *graph, uta_algebra_t algebra,
                           uta_value_t x, int64_t blade_axis);
uta_value_t uta_graph_scalar_gate(uta_graph_t *graph, uta_algebra_t algebra,
                                  uta_value_t x, int64_t blade_axis);
/* The Flash Clifford layer ops: operands [2^n, B, F], blade axis 0. */
uta_value_t uta_graph_weighted_product(uta_graph_t *graph,
                                       uta_algebra_t algebra, uta_value_t lhs,
                                       uta_value_t rhs, uta_value_t weights);
uta_value_t uta_graph_fc_product(uta_graph_t *graph, uta_algebra_t algebra,
                                 uta_value_t lhs, uta_value_t rhs,
                                 uta_value_t weights);
uta_value_t uta_graph_grade_rms_norm(uta_graph_t *graph, uta_algebra_t algebra,
                                     uta_value_t x, float epsilon);

/*===----------------------------------------------------------------------===*
 * The kernel cache
 *===----------------------------------------------------------------------===*/

typedef struct uta_cache_stats_t {
  uint64_t memory_hits;
  uint64_t disk_hits;
  uint64_t misses;
  uint64_t corrupt;
  uint64_t writes;
} uta_cache_stats_t;

/* The cache of `directory`; "" keeps it in memory only (docs/cache.md). */
uta_status_t uta_kernel_cache_open(const char *directory,
                                   uta_kernel_cache_t **cache);
/* The process-wide cache compile uses by default (UTA_CACHE_DIR, ...). */
uta_status_t uta_kernel_cache_process(uta_kernel_cache_t **cache);
void uta_kernel_cache_destroy(uta_kernel_cache_t *cache);
void uta_kernel_cache_stats(const uta_kernel_cache_t *cache,
                            uta_cache_stats_t *stats);

/*===----------------------------------------------------------------------===*
 * Compiling
 *===----------------------------------------------------------------------===*/

/* Options as uta::CompileOptions' defaults: ptx, sm 90, 256 threads,
 * default fusion, vectorized, no TF32, no fast math, the process cache. */
uta_status_t uta_compile_options_create(uta_compile_options_t **options);
void uta_compile_options_destroy(uta_compile_options_t *options);
/* Options for the device: ptx at its sm for cuda, spirv for vulkan and the
 * reference. */
uta_status_t uta_compile_options_for_device(const uta_device_t *device,
                                            uta_compile_options_t **options);
void uta_compile_options_set_target(uta_compile_options_t *options,
                                    uta_target_t target);
/* utac's --sm: "80", "86", "89", "90", "90a". */
uta_status_t uta_compile_options_set_sm(uta_compile_options_t *options,
                                        const char *sm);
void uta_compile_options_set_block_size(uta_compile_options_t *options,
                                        unsigned block_size);
/* utac's --uta-fusion=none when `enabled` is 0. */
void uta_compile_options_set_fusion(uta_compile_options_t *options,
                                    int enabled);
void uta_compile_options_set_vectorize(uta_compile_options_t *options,
                                       int enabled);
void uta_compile_options_set_allow_tf32(uta_compile_options_t *options,
                                        int enabled);
void uta_compile_options_set_fast_math(uta_compile_options_t *options,
                                       int enabled);
/* Compile through `cache` (NULL: the process-wide cache). */
void uta_compile_options_set_cache(uta_compile_options_t *options,
                                   const uta_kernel_cache_t *cache);

/* Compiles the graph (which must be ok) through the pipelines of utac;
 * compiler diagnostics come back in uta_last_error(). `options` may be
 * NULL for the defaults. */
uta_status_t uta_compile(const uta_graph_t *graph,
                         const uta_compile_options_t *options,
                         uta_compiled_graph_t **compiled);
void uta_compiled_graph_destroy(uta_compiled_graph_t *compiled);

const char *uta_compiled_graph_name(const uta_compiled_graph_t *compiled);
uta_target_t uta_compiled_graph_target(const uta_compiled_graph_t *compiled);
/* The module file (PTX text, SPIR-V words, MSL source): *bytes bytes. */
const void *uta_compiled_graph_module(const uta_compiled_graph_t *compiled,
                                      size_t *bytes);
/* The manifest's JSON text (docs/manifest.md). */
const char *uta_compiled_graph_manifest(const uta_compiled_graph_t *compiled);
int uta_compiled_graph_cache_hit(const uta_compiled_graph_t *compiled);
/* Whether f32 results get the looser tolerance of a reducing graph. */
int uta_compiled_graph_has_reductions(const uta_compiled_graph_t *compiled);
/* Writes the module to `path` and the manifest to `path`.json, as
 * `utac -o path` does, for uta_executable_load where no compiler is. */
uta_status_t uta_compiled_graph_save(const uta_compiled_graph_t *compiled,
                                     const char *path);
/* Loads the module on `device`, or prepares the float64 interpreter of the
 * graph on the reference device. */
uta_status_t uta_compiled_graph_load(const uta_compiled_graph_t *compiled,
                                     const uta_device_t *device,
                                     uta_executable_t **executable);

#ifdef __cplusplus
}
#endif

#endif /* UTA_C_COMPILER_H */
