#!/usr/bin/env bash
#===- scripts/uta.sh - set up, build, and run the demo or the tests -------===#
#
# The two commands of the README:
#   scripts/uta.sh demo   install what is missing, build, run the example graph
#   scripts/uta.sh test   install what is missing, build, run the whole suite
# Both work on a fresh Debian 12 machine (root, or a user with sudo). The CUDA
# toolkit is expected at /usr/local/cuda (part of these machines' image).
#
# `test` also installs a pinned torch into a virtual environment (reused
# once there) for the Python tests of the torch integration.
#
# Environment: UTA_BUILD_DIR (default ./build), UTA_JOBS (default: all cores),
# UTA_TORCH_VENV (default ~/.cache/uta/venv-torch-VERSION).
# With CI=true (.ci/run), `test` also runs scripts/tsan.sh in BUILD-tsan,
# then scripts/sanitize.sh (the suite under ASan + UBSan) in BUILD-asan and
# scripts/fuzz.sh (each fuzzer for 60 s) from that same build.
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${UTA_BUILD_DIR:-$root/build}
jobs=${UTA_JOBS:-$(nproc)}
# Paths under the checkout hash as relative paths, so that the
# ThreadSanitizer build (scripts/tsan.sh, another build folder) reuses every
# object it does not instrument from ccache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}

# Debian packages UTA builds and tests with (all from Debian 12's archive;
# LLVM/MLIR 22 and clang-22 with its sanitizer and libFuzzer runtimes come
# from bookworm-security).
packages=(
  cmake ninja-build ccache g++ python3 git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgtest-dev nlohmann-json3-dev libxxhash-dev clang-format-14
  spirv-tools spirv-headers libspirv-cross-c-shared-dev spirv-cross
  mesa-vulkan-drivers libvulkan-dev vulkan-tools
  python3-numpy python3-pytest python3-pip python3-wheel python3-venv
  clang-22 libclang-rt-22-dev
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "uta.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
}

# The torch that the Python tests of uta.custom_op and uta.torch_function
# run against: pinned, from PyPI (a CUDA build, about 4.6 GB installed), in a
# virtual environment outside the checkout so that every clone and CI run
# reuses it. It is made from Debian's own interpreter, whatever python3 comes
# first on PATH, because --system-site-packages must bring Debian's numpy,
# pytest and wheel (ctest python-pip-install builds the uta wheel offline).
torch_version=2.11.0
torch_venv=${UTA_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/uta/venv-torch-$torch_version}

install_torch() {
  if "$torch_venv/bin/python" -c "import numpy, pytest, wheel, torch, sys
sys.exit(torch.__version__.split('+')[0] != '$torch_version')" 2>/dev/null; then
    return 0
  fi
  echo "uta.sh: installing torch $torch_version into $torch_venv"
  rm -rf "$torch_venv"
  mkdir -p "$(dirname "$torch_venv")"
  /usr/bin/python3 -m venv --system-site-packages "$torch_venv"
  "$torch_venv/bin/pip" install --quiet --disable-pip-version-check \
    "torch==$torch_version"
}

configure_and_build() {
  cmake -G Ninja -S "$root" -B "$build" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DCMAKE_BUILD_TYPE=Release \
    "$@"
  ninja -C "$build" -j "$jobs"
}

run_demo() {
  "$root/scripts/demo.sh" "$build"
}

run_tests() {
  (cd "$build" && ctest -j "$jobs" --output-on-failure)
  # CI also runs the thread tests of the C++ API under ThreadSanitizer
  # (docs/api.md), in a build folder of their own.
  # Then the whole suite under ASan + UBSan, and each fuzzer for a bounded
  # time, from one more build folder (docs/security.md).
  if [ "${CI:-}" = true ]; then
    UTA_JOBS=$jobs "$root/scripts/tsan.sh" "${build}-tsan"
    UTA_JOBS=$jobs "$root/scripts/sanitize.sh" "${build}-asan"
    UTA_JOBS=$jobs "$root/scripts/fuzz.sh" "${build}-asan" 60
  fi
}

case "${1:-}" in
demo) install_missing; configure_and_build; run_demo ;;
test)
  install_missing
  install_torch
  configure_and_build -DUTA_TEST_PYTHON="$torch_venv/bin/python" \
    -DUTA_REQUIRE_TORCH=ON
  run_tests
  ;;
*)
  echo "usage: scripts/uta.sh demo|test" >&2
  exit 1
  ;;
esac
