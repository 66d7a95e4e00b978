/*===- RuntimeTest.c - The runtime half of the C API, from C --------------===*
 *
 * Tests include/uta-c/Runtime.h alone (linked against libuta_c_runtime.so,
 * no compiler): a module that utac compiled at build time (gelu_bias.mlir,
 * argv[1] is its manifest) is loaded on Vulkan (lavapipe here) and run with
 * host buffers and with device tensors, on seeded inputs, outputs poisoned
 * first, against the float64 formula written here; and every error path
 * that a binding can reach: null handles and pointers, unknown backends,
 * missing files, dtypes outside the enum, wrong counts, shapes and sizes,
 * and hostile sizes (2^40 elements, ranks past the caller's array), each
 * a status rather than an abort. Vulkan parts skip (with a line saying
 * so) where no Vulkan device exists.
 *
 *===----------------------------------------------------------------------===*/

#include "TestUtil.h"

#include <stdint.h>
#include <stdlib.h>

enum { kRows = 37, kCols = 61 };

/* gelu(x + b) in float64, the graph of gelu_bias.mlir. */
static void geluBias(const float *x, const float *b, float *y) {
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j) {
      double z = (double)x[i * kCols + j] + (double)b[j];
      y[i * kCols + j] = (float)(0.5 * z * (1.0 + erf(z / sqrt(2.0))));
    }
}

static void testErrors(void) {
  uta_device_t *device = NULL;
  CHECK(uta_api_version() == UTA_C_API_VERSION);
  CHECK_FAILS(uta_device_open("tpu", 0, &device), UTA_INVALID_INPUT,
              "unknown backend \"tpu\"");
  CHECK(device == NULL);
  CHECK_FAILS(uta_device_open(NULL, 0, &device), UTA_INVALID_INPUT,
              "uta_device_open: backend is null");
  CHECK_FAILS(uta_device_open("reference", 0, NULL), UTA_INVALID_INPUT,
              "device is null");
  CHECK_FAILS(uta_device_open("reference", 3, &device), UTA_INVALID_INPUT,
              "device 3 does not exist");

  CHECK_OK(uta_device_open("reference", 0, &device));
  CHECK(strcmp(uta_device_backend(device), "reference") == 0);
  uta_target_t target = UTA_TARGET_MSL;
  CHECK(uta_device_target(device, &target) == 0);
  CHECK(target == UTA_TARGET_MSL);
  CHECK(uta_device_cuda_stream(device) == 0);

  /* The reference device runs graphs, not manifests (that needs
   * libuta_c.so). */
  uta_executable_t *exe = NULL;
  CHECK_FAILS(uta_executable_load(device, "/nonexistent/x.json", &exe),
              UTA_INVALID_INPUT, "/nonexistent/x.json");
  CHECK_FAILS(uta_executable_load(NULL, "x.json", &exe), UTA_INVALID_INPUT,
              "device is null");
  const char *notJson = "{ not json";
  CHECK_FAILS(
      uta_executable_load_memory(device, notJson, strlen(notJson), "", 0, &exe),
      UTA_INVALID_INPUT, "manifest");
  CHECK(exe == NULL);

  /* Device tensors of the reference: host memory behind the same calls. */
  int64_t shape[] = {2, 3};
  uta_device_tensor_t *tensor = NULL;
  CHECK_FAILS(
      uta_device_tensor_allocate(device, (uta_dtype_t)9, shape, 2, &tensor),
      UTA_INVALID_INPUT, "dtype 9 is not UTA_F32");
  CHECK_FAILS(uta_device_tensor_allocate(device, UTA_F32, NULL, 2, &tensor),
              UTA_INVALID_INPUT, "shape is null");
  int64_t huge[] = {INT64_C(1) << 32, INT64_C(1) << 31};
  CHECK_FAILS(uta_device_tensor_allocate(device, UTA_F32, huge, 2, &tensor),
              UTA_INVALID_INPUT, "more bytes than an int64 holds");
  int64_t negative[] = {2, -3};
  CHECK_FAILS(uta_device_tensor_allocate(device, UTA_F32, negative, 2, &tensor),
              UTA_INVALID_INPUT, "has a negative size");
  CHECK_FAILS(uta_device_tensor_wrap(device, 4096, UTA_F32, shape, 2, &tensor),
              UTA_INVALID_INPUT, "only cuda wraps");
  CHECK_OK(uta_device_tensor_allocate(device, UTA_F32, shape, 2, &tensor));
  CHECK(uta_device_tensor_rank(tensor) == 2);
  CHECK(uta_device_tensor_shape(tensor)[1] == 3);
  CHECK(uta_device_tensor_dtype(tensor) == UTA_F32);
  CHECK(uta_device_tensor_address(tensor) == 0);
  float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
  poison(out, 6);
  CHECK_FAILS(uta_device_tensor_upload(tensor, in, 20), UTA_INVALID_INPUT,
              "f32 [2, 3] is 24 bytes, got 20");
  CHECK_OK(uta_device_tensor_upload(tensor, in, sizeof(in)));
  CHECK_OK(uta_device_tensor_download(tensor, out, sizeof(out)));
  CHECK(memcmp(in, out, sizeof(in)) == 0);
  uta_device_tensor_destroy(tensor);
  /* A tensor of no elements copies zero bytes from and to NULL. */
  int64_t empty[] = {0, 3};
  CHECK_OK(uta_device_tensor_allocate(device, UTA_F16, empty, 2, &tensor));
  CHECK_OK(uta_device_tensor_upload(tensor, NULL, 0));
  CHECK_OK(uta_device_tensor_download(tensor, NULL, 0));
  uta_device_tensor_destroy(tensor);

  /* The checking helpers. */
  float ref[6] = {1, 2, 3, 4, 5, 6.5f};
  uta_comparison_t comparison;
  char report[128];
  CHECK_OK(uta_compare("y", in, in, 6, shape, 2, 1e-5, &comparison, report,
                       sizeof(report)));
  CHECK(comparison.passed && comparison.rel_l2 == 0);
  CHECK_OK(uta_compare("y", in, ref, 6, shape, 2, 1e-5, &comparison, report,
                       sizeof(report)));
  CHECK(!comparison.passed && comparison.rel_l2 > 1e-3);
  CHECK(strncmp(report, "y: ", 3) == 0);
  CHECK_FAILS(
      uta_compare("y", in, ref, 5, shape, 2, 1e-5, &comparison, NULL, 0),
      UTA_INVALID_INPUT, "the shape has 6 elements, got 5");
  /* Sizes are checked one by one: two negative ones whose product is the
   * count, and a product past int64, are refused. */
  int64_t negativeShape[2] = {-2, -3};
  CHECK_FAILS(uta_compare("y", in, ref, 6, negativeShape, 2, 1e-5, &comparison,
                          NULL, 0),
              UTA_INVALID_INPUT, "the shape has a negative size");
  int64_t hugeShape[2] = {(int64_t)1 << 32, (int64_t)1 << 32};
  CHECK_FAILS(
      uta_compare("y", in, ref, 0, hugeShape, 2, 1e-5, &comparison, NULL, 0),
      UTA_INVALID_INPUT, "more elements than an int64 holds");
  CHECK(uta_default_tolerance(UTA_F32, 0, 0) == 1e-5);
  CHECK(uta_default_tolerance(UTA_BF16, 0, 0) == 1e-2);

  /* Destroying NULL handles is allowed. */
  uta_device_destroy(NULL);
  uta_executable_destroy(NULL);
  uta_device_tensor_destroy(NULL);
  uta_device_destroy(device);
}

/* 2^40 f32 elements (4 TiB) are a status on every backend, not the
 * std::terminate of an escaping std::bad_alloc: the reference refuses more
 * than this host's memory before allocating, Vulkan's driver says no. */
static void testAllocate2Pow40ElementsReturnsStatus(void) {
  int64_t shape[] = {INT64_C(1) << 40};
  uta_device_t *reference = NULL;
  uta_device_tensor_t *tensor = NULL;
  CHECK_OK(uta_device_open("reference", 0, &reference));
  CHECK_FAILS(uta_device_tensor_allocate(reference, UTA_F32, shape, 1, &tensor),
              UTA_INVALID_INPUT,
              "uta_device_tensor_allocate: f32 [1099511627776] is "
              "4398046511104 bytes, more than the");
  CHECK(tensor == NULL);
  uta_device_destroy(reference);

  uta_device_t *vulkan = NULL;
  uta_status_t opened = uta_device_open("vulkan", 0, &vulkan);
  if (opened != UTA_OK) {
    if (opened != UTA_UNAVAILABLE)
      CHECK_OK(opened);
    return;
  }
  uta_status_t allocated =
      uta_device_tensor_allocate(vulkan, UTA_F32, shape, 1, &tensor);
  CHECK(allocated == UTA_INVALID_INPUT || allocated == UTA_INTERNAL);
  CHECK(uta_last_error()[0] != '\0');
  CHECK(tensor == NULL);
  uta_device_tensor_destroy(tensor);
  uta_device_destroy(vulkan);
}

/* A rank above UTA_MAX_RANK is refused before the shape is read: read, the
 * one-element arrays here would be read past (the ASan build reports that),
 * into a vector of 2^40 sizes that cannot be allocated. */
static void testHugeRankRefused(void) {
  const size_t huge = (size_t)1 << 40;
  int64_t one[] = {1};
  uta_device_t *device = NULL;
  uta_device_tensor_t *tensor = NULL;
  CHECK_OK(uta_device_open("reference", 0, &device));
  CHECK_FAILS(uta_device_tensor_allocate(device, UTA_F32, one, huge, &tensor),
              UTA_INVALID_INPUT,
              "uta_device_tensor_allocate: rank 1099511627776 exceeds the "
              "maximum 64 (UTA_MAX_RANK)");
  CHECK_FAILS(uta_device_tensor_wrap(device, 0, UTA_F32, one, huge, &tensor),
              UTA_INVALID_INPUT, "uta_device_tensor_wrap: rank 1099511627776");
  CHECK_FAILS(
      uta_device_tensor_allocate(device, UTA_F32, one, (size_t)-1, &tensor),
      UTA_INVALID_INPUT, "exceeds the maximum 64");
  float value = 1;
  uta_comparison_t comparison;
  CHECK_FAILS(uta_compare("y", &value, &value, 1, one, huge, 1e-5, &comparison,
                          NULL, 0),
              UTA_INVALID_INPUT, "uta_compare: rank 1099511627776 exceeds");
  CHECK(tensor == NULL);

  /* The limit itself: UTA_MAX_RANK sizes are taken, one more is not. */
  int64_t ones[UTA_MAX_RANK + 1];
  for (size_t i = 0; i < UTA_MAX_RANK + 1; ++i)
    ones[i] = 1;
  CHECK_FAILS(uta_device_tensor_allocate(device, UTA_F32, ones,
                                         UTA_MAX_RANK + 1, &tensor),
              UTA_INVALID_INPUT, "rank 65 exceeds the maximum 64");
  CHECK_OK(
      uta_device_tensor_allocate(device, UTA_F32, ones, UTA_MAX_RANK, &tensor));
  CHECK(uta_device_tensor_rank(tensor) == UTA_MAX_RANK);
  uta_device_tensor_destroy(tensor);
  uta_device_destroy(device);
}

static void testVulkan(const char *manifest) {
  uta_device_t *device = NULL;
  uta_status_t opened = uta_device_open("vulkan", 0, &device);
  if (opened == UTA_UNAVAILABLE) {
    printf("RuntimeTest: no Vulkan device here, skipping the runs: %s\n",
           uta_last_error());
    return;
  }
  CHECK_OK(opened);
  if (opened != UTA_OK)
    return;
  uta_executable_t *exe = NULL;
  CHECK_OK(uta_executable_load(device, manifest, &exe));
  if (!exe) {
    uta_device_destroy(device);
    return;
  }
  /* The executable keeps its device alive. */
  uta_device_destroy(device);
  device = NULL;
  CHECK_OK(uta_executable_device(exe, &device));
  CHECK(strcmp(uta_device_backend(device), "vulkan") == 0);

  CHECK(strcmp(uta_executable_name(exe), "gelu_bias") == 0);
  CHECK(uta_executable_num_inputs(exe) == 2);
  CHECK(uta_executable_num_outputs(exe) == 1);
  uta_dtype_t dtype;
  size_t rank = 0;
  const int64_t *shape = NULL;
  CHECK_OK(uta_executable_tensor_type(exe, 0, 1, &dtype, &rank, &shape));
  CHECK(dtype == UTA_F32 && rank == 1 && shape[0] == kCols);
  CHECK_FAILS(uta_executable_tensor_type(exe, 1, 1, &dtype, &rank, &shape),
              UTA_INVALID_INPUT, "output 1 does not exist");

  float *x = malloc(sizeof(float) * kRows * kCols);
  float *b = malloc(sizeof(float) * kCols);
  float *y = malloc(sizeof(float) * kRows * kCols);
  float *expected = malloc(sizeof(float) * kRows * kCols);
  uta_fill_normal(x, kRows * kCols, 7, 0);
  uta_fill_normal(b, kCols, 7, 1);
  geluBias(x, b, expected);

  int64_t xShape[] = {kRows, kCols}, bShape[] = {kCols};
  uta_host_tensor_t inputs[] = {{x, UTA_F32, 2, xShape, kRows * kCols},
                                {b, UTA_F32, 1, bShape, kCols}};
  uta_host_tensor_t outputs[] = {{y, UTA_F32, 2, xShape, kRows * kCols}};
  double kernelMs = -1;
  uta_run_options_t options = {UTA_RUN_POISON_OUTPUTS, &kernelMs};
  uta_comparison_t comparison;
  char report[256];

  poison(y, kRows * kCols);
  CHECK_OK(uta_executable_run_host(exe, inputs, 2, outputs, 1, &options));
  CHECK(kernelMs >= 0);
  CHECK_OK(uta_compare("y", y, expected, kRows * kCols, xShape, 2,
                       uta_default_tolerance(UTA_F32, 0, 0), &comparison,
                       report, sizeof(report)));
  printf("RuntimeTest: vulkan, host buffers: %s\n", report);
  CHECK(comparison.passed);

  /* A copy of the handle runs the same executable after the original is
   * gone. */
  uta_executable_t *copy = NULL;
  CHECK_OK(uta_executable_copy(exe, &copy));
  CHECK_FAILS(uta_executable_copy(NULL, &copy), UTA_INVALID_INPUT,
              "uta_executable_copy: executable is null");
  CHECK_FAILS(uta_executable_copy(exe, NULL), UTA_INVALID_INPUT,
              "uta_executable_copy: copy is null");
  uta_executable_destroy(exe);
  exe = copy;
  CHECK(strcmp(uta_executable_name(exe), "gelu_bias") == 0);
  poison(y, kRows * kCols);
  CHECK_OK(uta_executable_run_host(exe, inputs, 2, outputs, 1, NULL));
  CHECK_OK(uta_compare("y", y, expected, kRows * kCols, xShape, 2,
                       uta_default_tolerance(UTA_F32, 0, 0), &comparison,
                       report, sizeof(report)));
  CHECK(comparison.passed);

  /* Argument errors name the argument. */
  CHECK_FAILS(uta_executable_run_host(exe, inputs, 1, outputs, 1, NULL),
              UTA_INVALID_INPUT, "gelu_bias takes 2 inputs and returns 1");
  uta_host_tensor_t swapped[] = {inputs[1], inputs[0]};
  CHECK_FAILS(uta_executable_run_host(exe, swapped, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT,
              "input 0: expected f32 [37, 61], got f32 [61]");
  uta_host_tensor_t halfInput[] = {{x, UTA_F16, 2, xShape, kRows * kCols},
                                   inputs[1]};
  CHECK_FAILS(uta_executable_run_host(exe, halfInput, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT, "input 0: expected f32 [37, 61], got f16");
  uta_host_tensor_t shortInput[] = {{x, UTA_F32, 2, xShape, 10}, inputs[1]};
  CHECK_FAILS(uta_executable_run_host(exe, shortInput, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT, "views 10 elements");
  /* Host memory must be aligned to its elements. */
  unsigned char *bytes = malloc(sizeof(float) * kCols + 1);
  uta_host_tensor_t misaligned[] = {inputs[0],
                                    {bytes + 1, UTA_F32, 1, bShape, kCols}};
  CHECK_FAILS(uta_executable_run_host(exe, misaligned, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT,
              "inputs 1: the memory is not aligned to its 4-byte elements");
  uint64_t addresses[] = {(uint64_t)(uintptr_t)x,
                          (uint64_t)(uintptr_t)(bytes + 1)};
  uint64_t outAddress = (uint64_t)(uintptr_t)y;
  CHECK_FAILS(
      uta_executable_run_addresses(exe, addresses, 2, &outAddress, 1, NULL),
      UTA_INVALID_INPUT,
      "uta_executable_run_addresses: input 1: the memory is not aligned");
  free(bytes);
  CHECK_FAILS(uta_executable_run_host(exe, NULL, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT, "inputs is null");
  /* Counts and ranks are checked before the arrays are read. */
  CHECK_FAILS(
      uta_executable_run_host(exe, inputs, (size_t)1 << 40, outputs, 1, NULL),
      UTA_INVALID_INPUT,
      "uta_executable_run_host: gelu_bias takes 2 inputs and returns 1 "
      "output, got 1099511627776 and 1");
  uta_host_tensor_t hugeRank[] = {{x, UTA_F32, (size_t)1 << 40, xShape, 1},
                                  inputs[1]};
  CHECK_FAILS(uta_executable_run_host(exe, hugeRank, 2, outputs, 1, NULL),
              UTA_INVALID_INPUT,
              "uta_executable_run_host: inputs 0: rank 1099511627776 exceeds "
              "the maximum 64");
  const uta_device_tensor_t *noTensors[] = {NULL};
  CHECK_FAILS(uta_executable_run_device(exe, noTensors, (size_t)1 << 40,
                                        noTensors, 1, NULL),
              UTA_INVALID_INPUT, "got 1099511627776 and 1");

  /* The same by address: host pointers on a host-run device. */
  uint64_t inputAddresses[] = {(uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)b};
  uint64_t outputAddresses[] = {(uint64_t)(uintptr_t)y};
  poison(y, kRows * kCols);
  CHECK_OK(uta_executable_run_addresses(exe, inputAddresses, 2, outputAddresses,
                                        1, NULL));
  CHECK_OK(uta_compare("y", y, expected, kRows * kCols, xShape, 2,
                       uta_default_tolerance(UTA_F32, 0, 0), &comparison,
                       report, sizeof(report)));
  CHECK(comparison.passed);
  uint64_t nullOutput[] = {0};
  CHECK_FAILS(
      uta_executable_run_addresses(exe, inputAddresses, 2, nullOutput, 1, NULL),
      UTA_INVALID_INPUT, "output 0 is a null pointer");
  CHECK_FAILS(uta_executable_run_addresses(exe, inputAddresses, 1,
                                           outputAddresses, 1, NULL),
              UTA_INVALID_INPUT, "gelu_bias takes 2 inputs and returns 1");

  /* A profile of three runs: the JSON report (docs/profiling.md) with the
   * one launch, its median over the two timed runs, and the counts the
   * compiler wrote in the manifest: gelu (20 operations) and the bias add
   * (1) per element, the bytes of x, b and y. */
  char *profile = NULL;
  CHECK_OK(uta_executable_profile_addresses(exe, inputAddresses, 2,
                                            outputAddresses, 1, 3, &profile));
  if (profile) {
    CHECK(strstr(profile, "\"format\": \"uta-profile\"") != NULL);
    CHECK(strstr(profile, "\"kernel\": \"gelu_bias_k0_") != NULL);
    CHECK(strstr(profile, "\"runs\": 2") != NULL);
    char flops[64], bytesRead[64];
    snprintf(flops, sizeof flops, "\"simt\": %d", 21 * kRows * kCols);
    snprintf(bytesRead, sizeof bytesRead, "\"bytes_read\": %d",
             (int)sizeof(float) * (kRows * kCols + kCols));
    CHECK(strstr(profile, flops) != NULL);
    CHECK(strstr(profile, bytesRead) != NULL);
  }
  uta_string_free(profile);
  uta_string_free(NULL);
  CHECK_FAILS(uta_executable_profile_addresses(exe, inputAddresses, 2,
                                               outputAddresses, 1, 0, &profile),
              UTA_INVALID_INPUT,
              "uta_executable_profile_addresses: runs 0 is outside [1, "
              "100000]");
  CHECK_FAILS(uta_executable_profile_addresses(exe, inputAddresses, 2,
                                               outputAddresses, 1, 3, NULL),
              UTA_INVALID_INPUT, "report is null");

  /* Device tensors: the inputs stay on the device across runs. */
  uta_device_tensor_t *dx = NULL, *db = NULL, *dy = NULL;
  CHECK_OK(uta_device_tensor_allocate(device, UTA_F32, xShape, 2, &dx));
  CHECK_OK(uta_device_tensor_allocate(device, UTA_F32, bShape, 1, &db));
  CHECK_OK(uta_device_tensor_allocate(device, UTA_F32, xShape, 2, &dy));
  if (dx && db && dy) {
    CHECK_OK(uta_device_tensor_upload(dx, x, sizeof(float) * kRows * kCols));
    CHECK_OK(uta_device_tensor_upload(db, b, sizeof(float) * kCols));
    const uta_device_tensor_t *deviceInputs[] = {dx, db};
    const uta_device_tensor_t *deviceOutputs[] = {dy};
    options.kernel_milliseconds = NULL;
    for (int repeat = 0; repeat < 2; ++repeat) {
      CHECK_OK(uta_executable_run_device(exe, deviceInputs, 2, deviceOutputs, 1,
                                         &options));
      poison(y, kRows * kCols);
      CHECK_OK(
          uta_device_tensor_download(dy, y, sizeof(float) * kRows * kCols));
      CHECK_OK(uta_compare("y", y, expected, kRows * kCols, xShape, 2,
                           uta_default_tolerance(UTA_F32, 0, 0), &comparison,
                           report, sizeof(report)));
      CHECK(comparison.passed);
    }
    printf("RuntimeTest: vulkan, device tensors: %s\n", report);
    const uta_device_tensor_t *aliased[] = {dx};
    CHECK_FAILS(
        uta_executable_run_device(exe, deviceInputs, 2, aliased, 1, NULL),
        UTA_INVALID_INPUT, "output 0 is the tensor of input 0");
    const uta_device_tensor_t *withNull[] = {dx, NULL};
    CHECK_FAILS(
        uta_executable_run_device(exe, withNull, 2, deviceOutputs, 1, NULL),
        UTA_INVALID_INPUT, "input 1 is null");
  }
  uta_device_tensor_destroy(dx);
  uta_device_tensor_destroy(db);
  uta_device_tensor_destroy(dy);
  free(x);
  free(b);
  free(y);
  free(expected);
  uta_executable_destroy(exe);
  uta_device_destroy(device);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: RuntimeTest GELU_BIAS_MANIFEST\n");
    return 2;
  }
  testErrors();
  testAllocate2Pow40ElementsReturnsStatus();
  testHugeRankRefused();
  testVulkan(argv[1]);
  return finishTest("RuntimeTest");
}
