/*===- first_program.c - UTA's C API from plain C99 ------------------------===*
 *
 * Builds gelu(x + b), compiles it, runs it on the reference device and on
 * the best GPU device (cuda, else vulkan) where there is one, on seeded
 * inputs with poisoned outputs, and compares the two with the tolerance of
 * `utac run --check`. Compiled against the installed C API by
 * scripts/capi-example.sh (ctest capi-example):
 *   cc -std=c99 first_program.c -I PREFIX/include -L PREFIX/lib -luta_c \
 *      -luta_c_runtime
 * Exit code: 0 when the results agree (or only the reference is here).
 *
 *===----------------------------------------------------------------------===*/

#include <uta-c/Compiler.h>

#include <math.h>
#include <stdio.h>

enum { kRows = 37, kCols = 61, kCount = kRows * kCols };

static int fail(const char *what) {
  fprintf(stderr, "first_program: %s: %s\n", what, uta_last_error());
  return 1;
}

int main(void) {
  static float x[kCount], b[kCols], y[kCount], expected[kCount];
  int64_t xShape[] = {kRows, kCols}, bShape[] = {kCols};

  uta_graph_t *graph = uta_graph_create("gelu_bias");
  uta_value_t xv = uta_graph_input(graph, xShape, 2, UTA_F32);
  uta_value_t bv = uta_graph_input(graph, bShape, 1, UTA_F32);
  uta_graph_output(graph, uta_graph_gelu(graph, uta_graph_add(graph, xv, bv),
                                         /*tanh_approximation=*/0));
  if (!uta_graph_ok(graph)) {
    fprintf(stderr, "first_program: %s\n", uta_graph_error(graph));
    return 1;
  }

  uta_device_t *reference = NULL, *gpu = NULL;
  uta_compiled_graph_t *compiled = NULL;
  uta_executable_t *oracle = NULL, *exe = NULL;
  if (uta_device_open("reference", 0, &reference))
    return fail("reference");
  uta_status_t opened = uta_device_open("best", 0, &gpu);
  if (opened != UTA_OK && opened != UTA_UNAVAILABLE)
    return fail("best");
  uta_compile_options_t *options = NULL;
  if (uta_compile_options_for_device(gpu ? gpu : reference, &options) ||
      uta_compile(graph, options, &compiled) ||
      uta_compiled_graph_load(compiled, reference, &oracle))
    return fail("compile");

  uta_fill_normal(x, kCount, /*seed=*/0, /*stream=*/0);
  uta_fill_normal(b, kCols, /*seed=*/0, /*stream=*/1);
  uta_host_tensor_t inputs[] = {{x, UTA_F32, 2, xShape, kCount},
                                {b, UTA_F32, 1, bShape, kCols}};
  uta_host_tensor_t referenceOut = {expected, UTA_F32, 2, xShape, kCount};
  uta_host_tensor_t out = {y, UTA_F32, 2, xShape, kCount};
  uta_run_options_t poison = {UTA_RUN_POISON_OUTPUTS, NULL};
  if (uta_executable_run_host(oracle, inputs, 2, &referenceOut, 1, &poison))
    return fail("reference run");
  int status = 0;
  if (!gpu) {
    printf("first_program: gelu(x + b) on the reference only (%s)\n",
           uta_last_error());
  } else {
    for (int i = 0; i < kCount; ++i)
      y[i] = NAN;
    if (uta_compiled_graph_load(compiled, gpu, &exe) ||
        uta_executable_run_host(exe, inputs, 2, &out, 1, &poison))
      return fail("run");
    uta_comparison_t comparison;
    char report[160];
    if (uta_compare("y", y, expected, kCount, xShape, 2,
                    uta_default_tolerance(UTA_F32, 0, 0), &comparison, report,
                    sizeof(report)))
      return fail("compare");
    printf("first_program: %s on %s: %s\n", uta_compiled_graph_name(compiled),
           uta_device_description(gpu), report);
    status = comparison.passed ? 0 : 1;
  }
  uta_executable_destroy(exe);
  uta_executable_destroy(oracle);
  uta_compiled_graph_destroy(compiled);
  uta_compile_options_destroy(options);
  uta_device_destroy(gpu);
  uta_device_destroy(reference);
  uta_graph_destroy(graph);
  return status;
}
