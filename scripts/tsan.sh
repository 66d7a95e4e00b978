#!/usr/bin/env bash
#===- scripts/tsan.sh - the thread tests under ThreadSanitizer -----------===#
#
#   scripts/tsan.sh [BUILD_DIR]     (default: build-tsan next to build/)
# Configures BUILD_DIR with UTA_TSAN=ON (cmake/Install.cmake): the runtime
# (core, cuda, vulkan, kernel cache), the API libraries (libuta,
# libuta_runtime) and JitTest are built with -fsanitize=thread; libMLIR and
# the compiler's static libraries are not instrumented, so races inside them
# are out of TSan's sight. Then runs JitTest's thread test (eight threads
# compiling and running at once on Vulkan and the reference) and the other
# JitTest cases; any report fails the run (halt_on_error).
# Suppressions (scripts/tsan.supp) name only code outside UTA, each with its
# reason. Environment: UTA_JOBS (default: all cores).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-tsan}
jobs=${UTA_JOBS:-$(nproc)}
# Relative paths in ccache's hashes: the objects this build does not
# instrument are the main build's, from the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

cmake -G Ninja -S "$root" -B "$build" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DCMAKE_BUILD_TYPE=Release \
  -DUTA_TSAN=ON >/dev/null
ninja -C "$build" -j "$jobs" JitTest

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 \
suppressions=$root/scripts/tsan.supp ${TSAN_OPTIONS:-}"
export UTA_CACHE_DIR=$build/tsan-cache
rm -rf "$UTA_CACHE_DIR"
"$build/test/unit/API/JitTest" --gtest_filter='JitThreads.*'
"$build/test/unit/API/JitTest" --gtest_filter='-JitThreads.*'
echo "tsan: no data race reported"
