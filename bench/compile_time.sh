#!/bin/sh
# Compile time of `utac` against the number of kernels, per target: N
# softmaxes of N shapes (bench/kernel_chain.py distinct N: N kernels that
# differ; --uta-fusion=none, so that for PTX no launches are merged either),
# each compiled with an empty kernel cache,
# timed by /usr/bin/time: CPU seconds (user + system, all threads: what the
# compile costs, and the figure least moved by other load on the machine),
# wall seconds and peak resident memory. Prints a Markdown table.
#
#   bench/compile_time.sh [BUILD_DIR] [N...]     default: build, 250 500 1000 2000 5000
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
sizes=${*:-250 500 1000 2000 5000}
utac=$build/bin/utac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| kernels | target | CPU s | CPU s per 1000 kernels | wall s | peak MiB |"
echo "|--:|:--|--:|--:|--:|--:|"
for n in $sizes; do
  python3 "$here/kernel_chain.py" distinct "$n" > "$work/chain.mlir"
  for target in ptx spirv msl; do
    rm -rf "$work/cache" && mkdir "$work/cache"
    UTA_CACHE_DIR=$work/cache /usr/bin/time -f "%U %S %e %M" -o "$work/time" \
      "$utac" "$work/chain.mlir" --target="$target" --uta-fusion=none \
      -o "$work/out.$target"
    read -r user system wall kib < "$work/time"
    kernels=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$work/out.$target.json")
    [ "$kernels" -eq "$n" ] || { echo "expected $n kernels, the manifest has $kernels" >&2; exit 1; }
    awk -v n="$n" -v t="$target" -v u="$user" -v s="$system" -v w="$wall" \
      -v k="$kib" 'BEGIN { c = u + s
      printf "| %d | %s | %.2f | %.2f | %.2f | %.0f |\n", n, t, c, c * 1000 / n, w, k / 1024 }'
  done
done
