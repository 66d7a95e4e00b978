#!/usr/bin/env bash
#===- scripts/fuzz.sh - run each libFuzzer harness for a bounded time ----===#
#
#   scripts/fuzz.sh [BUILD_DIR] [SECONDS] [FUZZER...]
# BUILD_DIR is the sanitizer build (default build-asan; scripts/sanitize.sh
# configures it, and so does this script when it is not there yet). Each
# harness of test/fuzz (MlirFuzzer, NpyFuzzer, ManifestFuzzer,
# CacheEntryFuzzer, CApiFuzzer, or those named) runs for SECONDS (default
# 60) under ASan + UBSan, starting from its seed corpus
# (test/fuzz/corpus/NAME) and its crash regressions
# (test/fuzz/regressions/NAME); the inputs it finds go to
# BUILD_DIR/fuzz/corpus/NAME, never into the repository. Any crash, sanitizer
# report, leak, timeout (30 s for one input) or out-of-memory (4 GiB) fails
# the script; the input that caused it is left in BUILD_DIR/fuzz/ and
# reproduced with `BUILD_DIR/bin/FUZZER INPUT`. docs/security.md says what to
# do with it.
#
# Measured on the 2-core development machine: 60 s each took 4 min 6 s in
# all (the start over each corpus adds a few seconds). In 60 s MlirFuzzer
# ran 13452 inputs, NpyFuzzer 5.1 million, ManifestFuzzer 0.72 million,
# CacheEntryFuzzer 7.5 million.
# Environment: UTA_JOBS (default: all cores), UTA_FUZZ_OPTIONS (more
# libFuzzer flags, e.g. -runs=N).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build-asan}")
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
fuzzers=("$@")
[ ${#fuzzers[@]} -eq 0 ] &&
  fuzzers=(MlirFuzzer GraphFuzzer NpyFuzzer ManifestFuzzer CacheEntryFuzzer
    CApiFuzzer)
jobs=${UTA_JOBS:-$(nproc)}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DUTA_SANITIZE=ON >/dev/null
fi
ninja -C "$build" -j "$jobs" "${fuzzers[@]}"

. "$root/scripts/sanitizer-env.sh"
fuzz=$root/test/fuzz
for fuzzer in "${fuzzers[@]}"; do
  case $fuzzer in
  MlirFuzzer) name=mlir dict=$fuzz/mlir.dict ;;
  GraphFuzzer) name=graph dict= ;;
  NpyFuzzer) name=npy dict= ;;
  ManifestFuzzer) name=manifest dict=$fuzz/manifest.dict ;;
  CacheEntryFuzzer) name=cache-entry dict= ;;
  CApiFuzzer) name=capi dict= ;;
  *)
    echo "fuzz: unknown fuzzer $fuzzer" >&2
    exit 1
    ;;
  esac
  out=$build/fuzz
  mkdir -p "$out/corpus/$name"
  dirs=("$out/corpus/$name" "$fuzz/corpus/$name")
  [ -d "$fuzz/regressions/$name" ] && dirs+=("$fuzz/regressions/$name")
  # shellcheck disable=SC2086
  if ! "$build/bin/$fuzzer" -max_total_time="$seconds" -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$out/$fuzzer-" ${dict:+-dict="$dict"} \
    ${UTA_FUZZ_OPTIONS:-} "${dirs[@]}" >"$out/$fuzzer.log" 2>&1; then
    tail -n 60 "$out/$fuzzer.log" >&2
    echo "fuzz: $fuzzer failed; input and log in $out" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$fuzzer.log")
  echo "fuzz: $fuzzer: $runs inputs in ${seconds} s, no crash;" \
    "$(find "$out/corpus/$name" -type f | wc -l) inputs in its corpus"
done
