#!/usr/bin/env bash
#===- scripts/gpu-check.sh - execution checks on a GPU machine ------------===#
#
# The GPU machine has a driver but no compiler, so the work is split:
#   scripts/gpu-check.sh prepare BUILD_DIR OUT_DIR [CASES...]
#       here: compile each case (default: test/Execution/cases/*.mlir and
#       examples/*.mlir) to OUT_DIR/<case>/k.ptx and k.spv (each with its
#       .json manifest), save the float64 reference results of seed 1 to
#       OUT_DIR/<case>/ref, copy uta-run;
#       A case's header may say how to build and check it: a line
#       `// gpu-check: FLAGS` compiles its PTX with the utac FLAGS, and
#       `// gpu-check-tolerance: T` checks its results with tolerance T
#       (for a result whose dtype hides the arithmetic's precision), and
#       `// gpu-check-grad: vjp` (or joint) builds, checks and saves the
#       case's gradient function instead (utac --grad).
#       With UTA_GPU_CHECK_FLAGS set, its utac flags are added to every
#       case's PTX build (UTA_GPU_CHECK_FLAGS=--sm=90a: every case on the
#       H100's own architecture, matmuls on the wgmma schedule).
#   scripts/gpu-check.sh split OUT_DIR MEGABYTES
#       here: moves the prepared cases into OUT_DIR-1, OUT_DIR-2, ... of at
#       most MEGABYTES each (the reference results are large), each with its
#       own uta-run, for a GPU machine that takes so much at a time;
#   scripts/gpu-check.sh run OUT_DIR [ptx|spv]
#       there: run every case's PTX (default) or SPIR-V build with
#       `uta-run --seed=1 --expect=ref` (CUDA or Vulkan) and print one line
#       per result; exit 2 if any check failed.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

prepare() {
  local build=$1 out=$2
  shift 2
  local cases=("$@")
  [ ${#cases[@]} -eq 0 ] && cases=("$root"/test/Execution/cases/*.mlir "$root"/examples/*.mlir)
  rm -rf "$out" && mkdir -p "$out"
  cp "$build/bin/uta-run" "$out/"
  for f in "${cases[@]}"; do
    local name
    name=$(basename "$f" .mlir)
    mkdir -p "$out/$name"
    local grad=""
    grad=$(sed -n 's|^// gpu-check-grad: |--grad=|p' "$f")
    # SPIR-V rejects bf16 (docs/targets.md): those cases run on CUDA only.
    # shellcheck disable=SC2086
    if ! "$build/bin/utac" "$f" $grad --target=spirv -o "$out/$name/k.spv" \
      2>"$out/$name/spv.err"; then
      grep -q "bf16 is not supported by the spirv target" "$out/$name/spv.err" ||
        { cat "$out/$name/spv.err" >&2; echo "prepare: $name failed" >&2; exit 1; }
    fi
    local flags=""
    flags=$(sed -n 's|^// gpu-check: ||p' "$f")
    local tolerance
    tolerance=$(sed -n 's|^// gpu-check-tolerance: ||p' "$f")
    if [ -n "$tolerance" ]; then
      echo "--tolerance=$tolerance" >"$out/$name/ptx.flags"
      echo "--tolerance=$tolerance" >"$out/$name/spv.flags"
    fi
    # shellcheck disable=SC2086
    "$build/bin/utac" "$f" $grad --target=ptx ${UTA_GPU_CHECK_FLAGS:-} $flags -o "$out/$name/k.ptx" &&
      "$build/bin/utac" run "$f" $grad --backend=reference --seed=1 \
        --save="$out/$name/ref" >/dev/null ||
      { echo "prepare: $name failed" >&2; exit 1; }
  done
}

run() {
  local out=$1 module=${2:-ptx} status=0
  for dir in "$out"/*/; do
    local name
    name=$(basename "$dir")
    if [ ! -f "$dir/k.$module.json" ]; then
      printf '%-34s %s\n' "$name" "skipped: $(head -1 "$dir/spv.err")"
      continue
    fi
    local lines
    local flags=""
    [ -f "$dir/$module.flags" ] && flags=$(cat "$dir/$module.flags")
    # shellcheck disable=SC2086
    lines=$("$out/uta-run" "$dir/k.$module.json" --seed=1 --expect="$dir/ref" $flags 2>&1)
    local code=$?
    [ $code -ne 0 ] && status=2
    while IFS= read -r line; do
      printf '%-34s %s\n' "$name" "$line"
    done <<<"$lines"
  done
  return $status
}

split() {
  local out=$1 limit=$(($2 * 1024)) part=0 used=0
  for dir in "$out"/*/; do
    local size
    size=$(du -sk "$dir" | cut -f1)
    if [ $part -eq 0 ] || [ $((used + size)) -gt $limit ]; then
      part=$((part + 1)) used=0
      rm -rf "$out-$part" && mkdir -p "$out-$part"
      cp "$out/uta-run" "$out-$part/"
    fi
    used=$((used + size))
    mv "$dir" "$out-$part/"
  done
  echo "split: $part parts of at most $2 MB: $out-1 .. $out-$part"
}

case "${1:-}" in
prepare) shift; prepare "$@" ;;
split) shift; split "$@" ;;
run) shift; run "$@" ;;
*) echo "usage: scripts/gpu-check.sh prepare BUILD OUT [CASES...] | split OUT MB | run OUT [ptx|spv]" >&2; exit 1 ;;
esac
