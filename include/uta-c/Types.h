/*===- uta-c/Types.h - Status codes and element types of the C API -*- C -*-===*
 *
 * What both halves of UTA's C API share (docs/python.md): the status every
 * fallible call returns, the thread's last error message, and the element
 * types. Plain C99; no C++ type crosses the API. The C API is the base of
 * the Python package (python/uta) and of any other language binding.
 *
 * Errors: every function that can fail returns a uta_status_t. UTA_OK (0) is
 * success; on failure, uta_last_error() gives one line that says what went
 * wrong, for the calling thread, until its next failing call. Nothing is
 * thrown across the API: memory that runs out inside a call is UTA_INTERNAL
 * ("uta_...: out of memory"), or NULL, "" or 0 from a function without a
 * status. Sizes are checked before anything is read or allocated from them:
 * ranks up to UTA_MAX_RANK, sizes not negative, element and byte counts
 * within int64 (and, for the reference's host memory, within the host's).
 *
 *===----------------------------------------------------------------------===*/

#ifndef UTA_C_TYPES_H
#define UTA_C_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API; bumped when a signature or a struct changes. */
#define UTA_C_API_VERSION 1

/* Why a call failed; the values match the exit codes of utac and uta-run
 * (docs/tools.md) where they overlap. */
typedef enum uta_status_t {
  UTA_OK = 0,
  /* Bad input: shapes, dtypes, files, options, a graph that does not
   * compile, a null or foreign handle. */
  UTA_INVALID_INPUT = 1,
  /* Anything else that went wrong while running. */
  UTA_INTERNAL = 2,
  /* The backend cannot run here: no driver, GPU or Vulkan device. */
  UTA_UNAVAILABLE = 3,
} uta_status_t;

/* The element type of a tensor. The first and last values, never valid
 * dtypes, make every 32-bit int a value of the type (as Vulkan's *_MAX_ENUM
 * do for the positive ones), so that the library, which is C++, can read
 * whatever a C caller passes and refuse it: in C++ a value outside an
 * enum's range (here, without the first value, any negative one) is
 * undefined. */
typedef enum uta_dtype_t {
  UTA_DTYPE_MIN_ENUM = -0x7fffffff - 1,
  UTA_F32 = 0,
  UTA_F16 = 1,
  UTA_BF16 = 2,
  UTA_DTYPE_MAX_ENUM = 0x7fffffff,
} uta_dtype_t;

/* What a compiled module is made of (utac's --target); the first and last
 * values as for uta_dtype_t. */
typedef enum uta_target_t {
  UTA_TARGET_MIN_ENUM = -0x7fffffff - 1,
  UTA_TARGET_PTX = 0,
  UTA_TARGET_SPIRV = 1,
  UTA_TARGET_MSL = 2,
  UTA_TARGET_MAX_ENUM = 0x7fffffff,
} uta_target_t;

/* The largest rank of a tensor, and the longest list of axes, sizes or
 * grades, that a function of the C API takes: NumPy's own maximum
 * (NPY_MAXDIMS of NumPy 2), so that every array a binding holds fits. A
 * larger count is refused (UTA_INVALID_INPUT, or the graph's error) before
 * the array is read. */
#define UTA_MAX_RANK 64

/* UTA_C_API_VERSION of the library that is loaded. */
int uta_api_version(void);

/* The message of the calling thread's last failed call; "" when none has
 * failed. Valid until the thread's next failing call. */
const char *uta_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* UTA_C_TYPES_H */
