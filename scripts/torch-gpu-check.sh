#!/usr/bin/env bash
#===- scripts/torch-gpu-check.sh - uta.custom_op on a GPU machine ---------===#
#
# The GPU machine has torch and a driver but no compiler, so the work is
# split as in scripts/gpu-check.sh:
#   scripts/torch-gpu-check.sh prepare BUILD_DIR OUT_DIR [SM]
#       here: the runtime-only Python package (BUILD_DIR/python without the
#       compiler's libraries) to OUT_DIR/python, and each case of
#       python/tests/torch_cuda_cases.py compiled for sm_SM (default 90a)
#       with the float64 reference's results to OUT_DIR/cases;
#   scripts/torch-gpu-check.sh run OUT_DIR
#       there: python/tests/test_torch_cuda.py on those, then the overhead
#       benchmark bench/torch_ops/overhead.py.
# Environment: UTA_TEST_PYTHON (the python with torch; default python3),
# UTA_OVERHEAD_OUT (where the benchmark writes its table).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${UTA_TEST_PYTHON:-python3}

case "${1:-}" in
prepare)
  build=$2 out=$3 sm=${4:-90a}
  rm -rf "$out" && mkdir -p "$out/python"
  cp -r "$build/python/uta" "$out/python/"
  # Without MLIR there, the compiler's libraries would not load anyway.
  rm -f "$out/python/uta/_lib/libuta.so" "$out/python/uta/_lib/libuta_c.so"
  PYTHONPATH=$build/python:$root/python/tests \
    "$python" "$root/python/tests/torch_cuda_cases.py" "$out/cases" "$sm"
  du -sh "$out"
  ;;
run)
  out=$2
  export PYTHONPATH=$out/python:$root/python/tests PYTHONDONTWRITEBYTECODE=1
  status=0
  UTA_TORCH_PACKAGE=$out/cases UTA_REQUIRE_TORCH=1 "$python" -m pytest -q \
    -p no:cacheprovider -rs "$root/python/tests/test_torch_cuda.py" ||
    status=$?
  "$python" "$root/bench/torch_ops/overhead.py" "$out/cases" \
    ${UTA_OVERHEAD_OUT:+--out "$UTA_OVERHEAD_OUT"}
  exit $status
  ;;
*)
  echo "usage: scripts/torch-gpu-check.sh prepare BUILD_DIR OUT_DIR [SM] |" \
    "run OUT_DIR" >&2
  exit 1
  ;;
esac
