#!/usr/bin/env bash
#===- scripts/api-example.sh - the C++ API from its installed package ----===#
#
#   scripts/api-example.sh BUILD_DIR
# Installs the C++ API of BUILD_DIR (cmake --install, component uta-api) into
# BUILD_DIR/api-install, configures and builds examples/api against it as a
# separate CMake project, runs the example (compile SGP and linear_bias_gelu,
# run on the best device, check against the reference) and the runtime-only
# program on the modules it saved, and checks that the runtime-only program
# loads no MLIR or LLVM library. Run by ctest as `api-example`.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: scripts/api-example.sh BUILD_DIR}" && pwd)
prefix=$build/api-install
example=$build/api-example

rm -rf "$prefix" "$example"
cmake --install "$build" --prefix "$prefix" --component uta-api >/dev/null
cmake -G Ninja -S "$root/examples/api" -B "$example" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$example"

# The example's compiles go through a cache of its own.
export UTA_CACHE_DIR=$example/cache
mkdir -p "$example/modules"
"$example/uta-api-example" "$example/modules"
"$example/uta-api-runtime" "$example/modules"

if ldd "$example/uta-api-runtime" | grep -E 'libMLIR|libLLVM'; then
  echo "api-example: uta-api-runtime links MLIR or LLVM" >&2
  exit 1
fi
echo "api-example: ok (uta-api-runtime loads no MLIR or LLVM library)"
