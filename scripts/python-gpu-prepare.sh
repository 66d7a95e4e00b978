#!/usr/bin/env bash
#===- scripts/python-gpu-prepare.sh - the Python package for a GPU machine -===#
#
# Stages, in BUILD/python-gpu, what python/examples/sgp_gpu.py needs on a GPU
# machine that has PyTorch but no compiler (docs/python.md):
#   uta/                the package with only the runtime half of the C API:
#                       _lib/libuta_c_runtime.so and _lib/libuta_runtime.so
#                       (no MLIR; compiling is unavailable there)
#   modules/sgp_cl3.ptx(.json)  SGP Cl(3,0) [8, 4096, 512], compiled here for
#                       sm_90 (SM=... to change) by python/examples/sgp.py
# Then, from the checkout's root there (BUILD/python-gpu carried along):
#   PYTHONPATH=build/python-gpu python3 python/examples/sgp_gpu.py \
#       build/python-gpu/modules/sgp_cl3.ptx.json
#
# Usage: scripts/python-gpu-prepare.sh [BUILD_DIR]   (default: build)
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=$build/python-gpu
sm=${SM:-90}

cmake --build "$build" --target uta-python
rm -rf "$out"
mkdir -p "$out/uta/_lib" "$out/modules"
cp "$root"/python/uta/*.py "$out/uta/"
cp "$build/python/uta/_lib/libuta_c_runtime.so" \
  "$build/python/uta/_lib/libuta_runtime.so" "$out/uta/_lib/"
PYTHONPATH=$build/python python3 "$root/python/examples/sgp.py" \
  --save="$out/modules" --batch=4096 --features=512 --sm="$sm"
echo "python-gpu-prepare: staged $out ($(du -sh "$out" | cut -f1))"
