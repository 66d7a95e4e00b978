#!/usr/bin/env bash
# Compiles the benchmark graphs for the GPU machine:
#   bench/prepare.sh BUILD_DIR OUT_DIR
# then there: python3 bench/bench.py OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
for f in "$root"/bench/graphs/*.mlir; do
  name=$(basename "$f" .mlir)
  mkdir -p "$out/$name"
  "$build/bin/utac" "$f" --target=ptx -o "$out/$name/k.ptx"
done
