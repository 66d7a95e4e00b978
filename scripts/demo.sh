#!/usr/bin/env bash
#===- scripts/demo.sh - the main job: compile an example graph and run it --===#
#
#   scripts/demo.sh BUILD_DIR
# Compiles examples/linear_bias_gelu.mlir for every target this build has,
# then runs it on the best backend present (CUDA, else Vulkan, else the
# float64 reference alone) and checks it against the reference.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/demo.sh BUILD_DIR}
utac=$build/bin/utac
graph=$root/examples/linear_bias_gelu.mlir
out=$build/demo
mkdir -p "$out"

echo "== the graph"
cat "$graph"
echo "== kernels and bytes"
"$utac" "$graph" --stats || exit 1
for target in ptx spirv msl; do
  "$utac" "$graph" --target=$target -o "$out/graph.$target" || exit 1
  echo "== $target: $out/graph.$target and $out/graph.$target.json"
done
grep -c '\.entry' "$out/graph.ptx" | sed 's/^/PTX kernels: /'

for backend in cuda vulkan; do
  echo "== utac run --backend=$backend --check"
  "$utac" run "$graph" --backend=$backend --check
  code=$?
  [ $code -eq 0 ] && exit 0
  [ $code -ne 3 ] && exit $code
done
echo "== no GPU backend here: the float64 reference alone"
"$utac" run "$graph" --backend=reference --save="$out/reference"
