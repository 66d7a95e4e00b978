/*===- TestUtil.h - Checks shared by the C API's tests -------------*- C -*-===*
 *
 * Plain C checks for test/CAPI: CHECK counts a failure and prints where it
 * happened, CHECK_OK also prints the API's last error, and a test's main
 * returns 1 when any check failed. Skipped parts (no Vulkan device here)
 * print why and do not fail.
 *
 *===----------------------------------------------------------------------===*/

#ifndef UTA_TEST_CAPI_TESTUTIL_H
#define UTA_TEST_CAPI_TESTUTIL_H

#include "uta-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int testFailures = 0;
static int testChecks = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++testChecks;                                                              \
    if (!(cond)) {                                                             \
      ++testFailures;                                                          \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

/* A call that must succeed; prints uta_last_error() when it does not. */
#define CHECK_OK(call)                                                         \
  do {                                                                         \
    ++testChecks;                                                              \
    uta_status_t checkStatus = (call);                                         \
    if (checkStatus != UTA_OK) {                                               \
      ++testFailures;                                                          \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__,       \
              #call, (int)checkStatus, uta_last_error());                      \
    }                                                                          \
  } while (0)

/* A call that must fail with `code` and a last error containing `text`. */
#define CHECK_FAILS(call, code, text)                                          \
  do {                                                                         \
    ++testChecks;                                                              \
    uta_status_t checkStatus = (call);                                         \
    if (checkStatus != (code) || !strstr(uta_last_error(), (text))) {          \
      ++testFailures;                                                          \
      fprintf(stderr,                                                          \
              "%s:%d: %s returned %d (\"%s\"), expected %d with \"%s\"\n",     \
              __FILE__, __LINE__, #call, (int)checkStatus, uta_last_error(),   \
              (int)(code), (text));                                            \
    }                                                                          \
  } while (0)

/* Fills `count` floats with NaN: outputs are poisoned before every run, so
 * an element that no kernel writes fails the comparison. */
static void poison(float *values, size_t count) {
  for (size_t i = 0; i < count; ++i)
    values[i] = NAN;
}

static int finishTest(const char *name) {
  if (testFailures) {
    fprintf(stderr, "%s: %d of %d checks failed\n", name, testFailures,
            testChecks);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, testChecks);
  return 0;
}

#endif /* UTA_TEST_CAPI_TESTUTIL_H */
