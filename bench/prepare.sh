#!/usr/bin/env bash
#===- bench/prepare.sh - compile the benchmark graphs for the GPU machine -===#
#
#   bench/prepare.sh BUILD_DIR OUT_DIR
# then there: python3 bench/bench.py OUT_DIR
#
# Each graph gets OUT_DIR/<graph>/:
#   k.ptx        the default build (fusion and vectorization on)
#   k.spv        the same graph for Vulkan (SPIR-V)
#   nofusion.ptx one kernel per op (--uta-fusion=none)
#   novec.ptx    scalar memory accesses (--uta-vectorize=off)
#   fastmath.ptx approximate transcendentals (--fast-math)
#   *.stats      `utac --stats` of each build: kernels and bytes moved
# The PTX builds are for sm_90a, what `CompileOptions::forDevice` picks on
# the GPU machine's H100 or H200.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
variants=("k.ptx:" "k.spv:" "nofusion.ptx:--uta-fusion=none")
if "$utac" --help | grep -q -- '--uta-vectorize'; then
  variants+=("novec.ptx:--uta-vectorize=off")
fi
if "$utac" --help | grep -q -- '--fast-math'; then
  variants+=("fastmath.ptx:--fast-math")
fi
for f in "$root"/bench/graphs/*.mlir; do
  name=$(basename "$f" .mlir)
  mkdir -p "$out/$name"
  for v in "${variants[@]}"; do
    file=${v%%:*} flag=${v#*:}
    target=(--target=ptx --sm=90a)
    [[ $file == *.spv ]] && target=(--target=spirv)
    # shellcheck disable=SC2086  # $flag is empty or one word
    "$utac" "$f" "${target[@]}" $flag --stats -o "$out/$name/$file" \
      2>"$out/$name/${file%.*}.stats"
  done
done
