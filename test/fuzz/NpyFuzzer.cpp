//===- NpyFuzzer.cpp - libFuzzer harness of the .npy reader ---------------===//
//
// Feeds arbitrary bytes to parseNpy (runtime/core/Npy), the reader behind
// `utac run --inputs` and `uta-run --inputs`. Besides "no crash, no
// sanitizer report", an array it accepts must survive a round trip: encoded
// again and reparsed, it has the same dtype, shape and bytes, and its data
// is exactly as long as its shape says.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Npy.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

using namespace uta::runtime;

/// A broken property is a bug libFuzzer must report: abort, with why.
static void check(bool holds, const char *what) {
  if (holds)
    return;
  std::fprintf(stderr, "NpyFuzzer: %s\n", what);
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte *>(data),
                                   size);
  Expected<NpyArray> array = parseNpy(bytes, "fuzz.npy");
  if (!array.ok())
    return 0;
  int64_t count = array->getNumElements();
  check(count >= 0, "an accepted array has an invalid shape");
  check(array->data.size() == uint64_t(count) * getNpyElementSize(array->dtype),
        "an accepted array's data does not match its shape");

  Expected<std::vector<std::byte>> encoded = encodeNpy(*array);
  check(encoded.ok(), "an accepted array cannot be encoded again");
  Expected<NpyArray> again = parseNpy(*encoded, "again.npy");
  check(again.ok(), "an encoded array is not read back");
  check(again->dtype == array->dtype && again->shape == array->shape &&
            again->data == array->data,
        "an array changed in a round trip");
  return 0;
}
