/*===- uta-c/Runtime.h - Loading and running graphs from C ---------*- C -*-===*
 *
 * The runtime half of UTA's C API (libuta_c_runtime.so, docs/python.md):
 * open a device, load a compiled graph from its manifest, allocate or wrap
 * device tensors, run with host or device buffers. The library holds no
 * compiler (no MLIR or LLVM), so it runs where only a GPU driver is
 * installed; uta-c/Compiler.h (libuta_c.so) adds building and compiling
 * graphs on top.
 *
 *   uta_device_t *device;
 *   uta_executable_t *exe;
 *   if (uta_device_open("best", 0, &device) ||
 *       uta_executable_load(device, "gelu_bias.spv.json", &exe))
 *     fprintf(stderr, "%s\n", uta_last_error());
 *
 * Handles are opaque and owned by the caller, who destroys each exactly once
 * (destroying NULL does nothing). A handle keeps what it needs alive: an
 * executable or a tensor may outlive the device handle it came from. Every
 * function may be called from any thread; one executable may run on many
 * threads at once (the backends take turns on their queue). Two runs that
 * write the same output tensor at once race, as on any device.
 *
 *===----------------------------------------------------------------------===*/

#ifndef UTA_C_RUNTIME_H
#define UTA_C_RUNTIME_H

#include "uta-c/Types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uta_device_t uta_device_t;
typedef struct uta_device_tensor_t uta_device_tensor_t;
typedef struct uta_executable_t uta_executable_t;

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

/* Opens `backend`: "cuda", "vulkan", "reference" or "best" (cuda where a GPU
 * driver and device work, else vulkan); `index` picks the device. Returns
 * UTA_UNAVAILABLE when the backend cannot run here. */
uta_status_t uta_device_open(const char *backend, int index,
                             uta_device_t **device);
void uta_device_destroy(uta_device_t *device);

/* "cuda", "vulkan" or "reference"; owned by the device. */
const char *uta_device_backend(const uta_device_t *device);
/* One line about the device; owned by the device. */
const char *uta_device_description(const uta_device_t *device);
/* The target of the modules the device runs, in *target; 0 for the
 * reference, which runs graphs itself (returns 0 and leaves *target). */
int uta_device_target(const uta_device_t *device, uta_target_t *target);
/* cuda: the compute capability as utac's --sm spells it ("90"); "" else. */
const char *uta_device_sm(const uta_device_t *device);
/* cuda: the CUstream that carries the device's copies and runs, as an
 * integer (for a DLPack producer's stream handshake); 0 for other
 * backends. */
uint64_t uta_device_cuda_stream(const uta_device_t *device);

/*===----------------------------------------------------------------------===*
 * Device tensors
 *===----------------------------------------------------------------------===*/

/* A tensor of `dtype` and shape `shape[0..rank)` in the device's memory;
 * its contents are unspecified. */
uta_status_t uta_device_tensor_allocate(const uta_device_t *device,
                                        uta_dtype_t dtype, const int64_t *shape,
                                        size_t rank,
                                        uta_device_tensor_t **tensor);
/* A tensor over device memory the caller owns (cuda only): `address` is a
 * CUdeviceptr of the device's primary context, 16-byte aligned, holding the
 * whole tensor. UTA never frees it; keep it alive while the tensor is used.
 */
uta_status_t uta_device_tensor_wrap(const uta_device_t *device,
                                    uint64_t address, uta_dtype_t dtype,
                                    const int64_t *shape, size_t rank,
                                    uta_device_tensor_t **tensor);
/* Drops the handle; memory UTA allocated goes back to the device's pool. */
void uta_device_tensor_destroy(uta_device_tensor_t *tensor);

uta_dtype_t uta_device_tensor_dtype(const uta_device_tensor_t *tensor);
size_t uta_device_tensor_rank(const uta_device_tensor_t *tensor);
/* The sizes, `rank` of them; owned by the tensor. */
const int64_t *uta_device_tensor_shape(const uta_device_tensor_t *tensor);
/* cuda: the tensor's device pointer; 0 on other backends. */
uint64_t uta_device_tensor_address(const uta_device_tensor_t *tensor);
/* Copies `bytes` host bytes (exactly the tensor's size, aligned to its
 * elements) in, and waits. */
uta_status_t uta_device_tensor_upload(const uta_device_tensor_t *tensor,
                                      const void *data, size_t bytes);
/* Copies the tensor into `bytes` host bytes (exactly its size, aligned to
 * its elements), and waits. */
uta_status_t uta_device_tensor_download(const uta_device_tensor_t *tensor,
                                        void *data, size_t bytes);

/*===----------------------------------------------------------------------===*
 * Executables
 *===----------------------------------------------------------------------===*/

/* Loads the manifest at `manifest_path` (written by `utac -o OUT` at
 * OUT.json, or by uta_compiled_graph_save) and the module next to it. */
uta_status_t uta_executable_load(const uta_device_t *device,
                                 const char *manifest_path,
                                 uta_executable_t **executable);
/* The same, with the manifest's JSON text and the module's bytes at hand. */
uta_status_t uta_executable_load_memory(const uta_device_t *device,
                                        const char *manifest,
                                        size_t manifest_bytes,
                                        const void *module, size_t module_bytes,
                                        uta_executable_t **executable);
void uta_executable_destroy(uta_executable_t *executable);
/* A second handle to the same loaded executable (no reload, no copy of the
 * module), destroyed on its own: how a library that keeps executables
 * beyond its caller's handle (the Python package's torch extension) owns
 * one. */
uta_status_t uta_executable_copy(const uta_executable_t *executable,
                                 uta_executable_t **copy);

/* The graph's function name; owned by the executable. */
const char *uta_executable_name(const uta_executable_t *executable);
size_t uta_executable_num_inputs(const uta_executable_t *executable);
size_t uta_executable_num_outputs(const uta_executable_t *executable);
/* The type of input (`output` 0) or output (`output` 1) number `index`:
 * *dtype, *rank and *shape (owned by the executable). */
uta_status_t uta_executable_tensor_type(const uta_executable_t *executable,
                                        int output, size_t index,
                                        uta_dtype_t *dtype, size_t *rank,
                                        const int64_t **shape);
/* The device memory that uta_executable_run_on_cuda_stream needs for the
 * run's intermediates, and the alignment of its start (0 and 1 where it
 * needs none). */
uint64_t uta_executable_workspace_bytes(const uta_executable_t *executable);
uint64_t uta_executable_workspace_alignment(const uta_executable_t *executable);
/* A new handle to the device the executable runs on. */
uta_status_t uta_executable_device(const uta_executable_t *executable,
                                   uta_device_t **device);

/* How a run goes (uta_run_options_t.flags). */
enum {
  /* Fill the outputs with NaN first, so an element no kernel writes shows
   * up as NaN; costs one host-to-device copy per output on a GPU. */
  UTA_RUN_POISON_OUTPUTS = 1,
};

typedef struct uta_run_options_t {
  /* UTA_RUN_* bits. */
  uint32_t flags;
  /* When not NULL, receives the summed GPU time of the run's kernel
   * launches in milliseconds, each measured from a cold L2 cache. */
  double *kernel_milliseconds;
} uta_run_options_t;

/* A tensor in host memory the caller owns, row-major: float for f32, the
 * 16-bit patterns for f16 and bf16. `num_elements` is how many elements
 * `data` holds (checked against the shape). */
typedef struct uta_host_tensor_t {
  void *data;
  uta_dtype_t dtype;
  size_t rank;
  const int64_t *shape;
  size_t num_elements;
} uta_host_tensor_t;

/* Runs on host memory: one tensor per input and per output, in order, of
 * exactly the declared dtypes and shapes, each aligned to its elements (4
 * bytes for UTA_F32, 2 for UTA_F16 and UTA_BF16). Returns once the outputs are
 * written. `options` may be NULL: no poisoning, no timing. */
uta_status_t uta_executable_run_host(const uta_executable_t *executable,
                                     const uta_host_tensor_t *inputs,
                                     size_t num_inputs,
                                     const uta_host_tensor_t *outputs,
                                     size_t num_outputs,
                                     const uta_run_options_t *options);
/* Runs on tensors of the executable's device, which stay there: no host
 * copies (unless UTA_RUN_POISON_OUTPUTS). An output may not be an input's
 * tensor. On cuda, the launches go on uta_device_cuda_stream(), and the run
 * waits for them before it returns. */
uta_status_t
uta_executable_run_device(const uta_executable_t *executable,
                          const uta_device_tensor_t *const *inputs,
                          size_t num_inputs,
                          const uta_device_tensor_t *const *outputs,
                          size_t num_outputs, const uta_run_options_t *options);

/* Runs on memory given by address, each holding exactly the declared dtype
 * and shape of its input or output (which the caller has checked; an
 * address cannot say): on cuda, device pointers of the device's primary
 * context (16-byte aligned), as uta_device_tensor_wrap takes them, with no
 * host copies; on vulkan and the reference, host pointers, as
 * uta_executable_run_host takes them (aligned to their elements). The cheapest
 * way to run on tensors that another library owns (the Python package's DLPack
 * path). */
uta_status_t uta_executable_run_addresses(const uta_executable_t *executable,
                                          const uint64_t *inputs,
                                          size_t num_inputs,
                                          const uint64_t *outputs,
                                          size_t num_outputs,
                                          const uta_run_options_t *options);

/* Runs the executable `runs` times (1 to 100000) on memory given by address,
 * as uta_executable_run_addresses does, timing every launch, and returns in
 * `*report` the profile as JSON text (docs/profiling.md, format
 * "uta-profile"): per launch its kernel, its median time over the runs after
 * the first (which warms up; over the one run where there is only one) and
 * the operations and bytes the compiler counted for it, with the rates they
 * make. The caller frees the text with uta_string_free. On the reference
 * device, which times nothing, the report has no launches. */
uta_status_t
uta_executable_profile_addresses(const uta_executable_t *executable,
                                 const uint64_t *inputs, size_t num_inputs,
                                 const uint64_t *outputs, size_t num_outputs,
                                 uint32_t runs, char **report);

/* Frees a string the library returned (NULL: nothing). */
void uta_string_free(char *string);

/* Queues the run's launches on `cuda_stream`, a CUstream of the device's
 * primary context as an integer (0: the legacy default stream), and returns
 * without waiting: how a framework runs UTA in its own stream order and
 * memory, and inside CUDA-graph capture (uta::RunOptions::cudaStream).
 * `inputs` and `outputs` are device pointers as uta_executable_run_addresses
 * takes them; `workspace` holds the intermediates, at least
 * uta_executable_workspace_bytes() bytes at
 * uta_executable_workspace_alignment() (0 and 0 where none are needed). The
 * caller orders the inputs' writes before and the outputs' reads after on
 * that stream, and keeps every buffer alive until the stream has run the
 * launches; a fault inside a kernel surfaces at its next synchronisation.
 * cuda only: other devices refuse. */
uta_status_t uta_executable_run_on_cuda_stream(
    const uta_executable_t *executable, const uint64_t *inputs,
    size_t num_inputs, const uint64_t *outputs, size_t num_outputs,
    uint64_t cuda_stream, uint64_t workspace, uint64_t workspace_bytes);

/*===----------------------------------------------------------------------===*
 * Checking results
 *===----------------------------------------------------------------------===*/

/* Seeded standard-normal numbers, never zero: argument `stream` of
 * `utac run --seed=SEED` (docs/random-inputs.md). */
void uta_fill_normal(float *values, size_t count, uint64_t seed,
                     uint64_t stream);
/* The tolerance of `utac run --check` for a result of `dtype`
 * (docs/runtime.md). */
double uta_default_tolerance(uta_dtype_t dtype, int reduces, int fast_math);

typedef struct uta_comparison_t {
  int passed;
  /* ||out - ref|| / ||ref||. */
  double rel_l2;
  /* The largest elementwise error relative to max(|ref_i|, rms(ref)). */
  double max_rel;
  int64_t non_finite;
} uta_comparison_t;

/* Compares `count` outputs with their reference as `utac run --check`
 * does; `report` (may be NULL) receives the one-line report, truncated to
 * `report_bytes` - 1 characters. */
uta_status_t uta_compare(const char *name, const float *out, const float *ref,
                         size_t count, const int64_t *shape, size_t rank,
                         double tolerance, uta_comparison_t *result,
                         char *report, size_t report_bytes);

#ifdef __cplusplus
}
#endif

#endif /* UTA_C_RUNTIME_H */
