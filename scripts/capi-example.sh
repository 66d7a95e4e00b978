#!/usr/bin/env bash
#===- scripts/capi-example.sh - the C API from its installed headers -----===#
#
#   scripts/capi-example.sh BUILD_DIR
# Installs the API of BUILD_DIR (cmake --install, component uta-api) into
# BUILD_DIR/capi-install, compiles examples/capi/first_program.c with the
# system C compiler as plain C99 against the installed include/uta-c and
# libuta_c.so, runs it (gelu(x + b) on the best device against the
# reference), and checks that libuta_c_runtime.so loads no MLIR or LLVM
# library. Run by ctest as `capi-example`.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: scripts/capi-example.sh BUILD_DIR}" && pwd)
prefix=$build/capi-install
program=$build/capi-example/first_program

rm -rf "$prefix" "$(dirname "$program")"
mkdir -p "$(dirname "$program")"
cmake --install "$build" --prefix "$prefix" --component uta-api >/dev/null
cc -std=c99 -Wall -Wextra -Werror -pedantic "$root/examples/capi/first_program.c" \
  -I "$prefix/include" -L "$prefix/lib" -luta_c -luta_c_runtime \
  -Wl,-rpath,"$prefix/lib" -o "$program"
UTA_CACHE_DIR=$build/capi-example/cache "$program"

if ldd "$prefix/lib/libuta_c_runtime.so" | grep -E 'libMLIR|libLLVM'; then
  echo "capi-example: libuta_c_runtime.so links MLIR or LLVM" >&2
  exit 1
fi
echo "capi-example: ok (libuta_c_runtime.so loads no MLIR or LLVM library)"
