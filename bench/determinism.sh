#!/usr/bin/env bash
# Runs a compiled graph N times in separate processes on the same seeded
# inputs and checks that every result file is bit-identical to the first:
#   bench/determinism.sh UTA_RUN MANIFEST.json N
set -euo pipefail
run=$1 manifest=$2 n=${3:-10}
dir=$(mktemp -d)
for i in $(seq 1 "$n"); do
  "$run" "$manifest" --seed=1 --save="$dir/$i" >/dev/null
done
for i in $(seq 2 "$n"); do
  for f in "$dir/1"/*.npy; do
    cmp -s "$f" "$dir/$i/$(basename "$f")" || { echo "run $i differs in $(basename "$f")"; exit 2; }
  done
done
echo "$(basename "$(dirname "$manifest")"): $n runs bit-identical"
