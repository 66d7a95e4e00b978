#!/usr/bin/env bash
#===- bench/autodiff/prepare.sh - gradient benchmarks for the GPU machine -===#
#
#   bench/autodiff/prepare.sh BUILD_DIR OUT_DIR
# then there: python3 bench/autodiff/bench.py OUT_DIR
#
# For the SGP layers of bench/graphs (Cl(2,0) [4,4096,512], Cl(3,0)
# [8,4096,512]) and the FCGP layer in Cl(3,0): OUT_DIR/<graph>/
#   fwd.ptx    the forward graph
#   joint.ptx  @f_fwd_bwd: results and the gradients of x, y and the weights
#   vjp.ptx    @f_vjp: the gradients alone (the determinism runs)
#   *.stats    `utac --stats`: kernels and bytes moved
# built for sm_90a, what `CompileOptions::forDevice` picks on the GPU
# machine's H100 or H200.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2
utac="$build/bin/utac"
rm -rf "$out" && mkdir -p "$out"
cp "$build/bin/uta-run" "$out/"
for name in sgp_cl2 sgp_cl3 fcgp_cl3; do
  f="$root/bench/graphs/$name.mlir"
  mkdir -p "$out/$name"
  for v in "fwd:" "joint:--grad=joint" "vjp:--grad=vjp"; do
    file=${v%%:*} flag=${v#*:}
    # shellcheck disable=SC2086
    "$utac" "$f" --target=ptx --sm=90a $flag --stats -o "$out/$name/$file.ptx" \
      2>"$out/$name/$file.stats"
  done
done
