#!/usr/bin/env bash
#===- scripts/check-format.sh - the code is clang-format clean ------------===#
#
# Checks every tracked C++ file against .clang-format with the pinned
# clang-format (Debian 12's clang-format-14); run by ctest as `format`.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pinned=clang-format-14
if ! command -v $pinned >/dev/null; then
  echo "check-format: $pinned is not installed (scripts/uta.sh installs it)" >&2
  exit 1
fi
git ls-files -z '*.cpp' '*.h' | xargs -0 -r $pinned --dry-run --Werror
echo "check-format: clean"
