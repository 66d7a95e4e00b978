#!/usr/bin/env bash
#===- scripts/ptx-corpus.sh - the PTX of every GEMM-shaped case, for diffs ===#
#
#   scripts/ptx-corpus.sh BUILD_DIR OUT_DIR
# Compiles every GPU case and example that holds a matmul, an fc_product or
# another Clifford op to PTX under the architectures and precisions the
# engine plans for (sm_80 and sm_90a, f32-accurate and TF32, each case's own
# `// gpu-check:` flags), the Clifford examples and one matmul of each
# dtype under every named row of the engine's table, and the examples'
# gradients, each with its manifest and its --remarks (the GEMM plans). A refactor of the
# engine that must not change a kernel is checked by comparing two corpora:
#   scripts/ptx-corpus.sh build-old /tmp/old
#   scripts/ptx-corpus.sh build /tmp/new && diff -r /tmp/old /tmp/new
# A compile that fails records its error in place of the PTX, so that a
# refusal that changes shows in the diff too.
# Environment: UTA_JOBS (default: all cores).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/ptx-corpus.sh BUILD_DIR OUT_DIR}
out=${2:?usage: scripts/ptx-corpus.sh BUILD_DIR OUT_DIR}
jobs=${UTA_JOBS:-$(nproc)}
utac=$build/bin/utac
[ -x "$utac" ] || { echo "ptx-corpus: no $utac" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"

# One line per compile: output name, input, flags.
list=$out/compiles.txt
: >"$list"
for f in "$root"/test/Execution/cases/*.mlir "$root"/examples/*.mlir; do
  grep -qE "matmul|clifford\." "$f" || continue
  name=$(basename "$f" .mlir)
  own=$(sed -n 's|^// gpu-check: ||p' "$f")
  grad=$(sed -n 's|^// gpu-check-grad: |--grad=|p' "$f")
  echo "$name.own $f $grad $own" >>"$list"
  echo "$name.sm80-tf32 $f $grad --sm=80 --allow-tf32" >>"$list"
  echo "$name.sm90a $f $grad --sm=90a" >>"$list"
  echo "$name.sm90a-tf32 $f $grad --sm=90a --allow-tf32" >>"$list"
done
# The names of the table rows (matmul's and fc_product's).
rows=$(cat "$root"/passes/Conversion/UTAToGPU/*/*Plan.cpp |
  sed -n 's|.*GemmSchedule::[A-Za-z]*, [0-9, ]*"\([a-z0-9]*\)".*|\1|p' | sort -u)
named=("$root"/examples/fcgp_cl3.mlir "$root"/examples/fcgp_cl2.mlir
  "$root"/test/Execution/cases/matmul_f32.mlir "$root"/test/Execution/cases/matmul_bf16.mlir
  "$root"/test/Execution/cases/matmul_transpose_b_f16.mlir)
for f in "${named[@]}"; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .mlir)
  for row in $rows; do
    echo "$name.$row.sm90a $f --sm=90a --uta-gemm-config=$row" >>"$list"
    echo "$name.$row.sm90a-tf32 $f --sm=90a --allow-tf32 --uta-gemm-config=$row" >>"$list"
    echo "$name.$row.sm80-tf32 $f --sm=80 --allow-tf32 --uta-gemm-config=$row" >>"$list"
  done
done
for f in "$root"/examples/fcgp_*.mlir "$root"/examples/sgp_*.mlir; do
  name=$(basename "$f" .mlir)
  for grad in vjp forward backward; do
    echo "$name.$grad.sm90a-tf32 $f --grad=$grad --sm=90a --allow-tf32" >>"$list"
    echo "$name.$grad.sm80 $f --grad=$grad --sm=80" >>"$list"
  done
done

compile() {
  local name=$1 input=$2
  shift 2
  # shellcheck disable=SC2068
  "$utac" "$input" --target=ptx --remarks $@ -o "$out/$name.ptx" \
    2>"$out/$name.remarks" || echo "failed" >>"$out/$name.remarks"
}
export -f compile
export utac out
# A line that ends in a blank would continue on the next one (xargs -L).
sed -i "s/[[:space:]]*$//" "$list"
xargs -P "$jobs" -L 1 bash -c 'compile "$@"' _ <"$list"
echo "ptx-corpus: $(wc -l <"$list") compiles in $out"
