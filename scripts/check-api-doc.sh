#!/usr/bin/env bash
#===- scripts/check-api-doc.sh - docs/api.md's code compiles and runs ----===#
#
#   scripts/check-api-doc.sh BUILD_DIR CXX
# Extracts every ```cpp block of docs/api.md (each a whole translation unit)
# into BUILD_DIR/api-doc/sampleN.cpp and compiles it with CXX against the
# public headers; a block that defines main is linked against the build
# tree's libuta.so and run, and must exit 0. Run by ctest as `api-doc`.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: check-api-doc.sh BUILD_DIR CXX}" && pwd)
cxx=${2:?usage: check-api-doc.sh BUILD_DIR CXX}
out=$build/api-doc
rm -rf "$out"
mkdir -p "$out"

awk -v out="$out" '
  /^```cpp$/ { n++; file = sprintf("%s/sample%d.cpp", out, n); inside = 1; next }
  /^```$/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$root/docs/api.md"

samples=("$out"/sample*.cpp)
if [ ! -e "${samples[0]}" ]; then
  echo "check-api-doc: docs/api.md has no cpp block" >&2
  exit 1
fi
libs=(-L"$build/lib/API/Compiler" -L"$build/lib/API/Runtime" -luta -luta_runtime
  -Wl,-rpath,"$build/lib/API/Compiler:$build/lib/API/Runtime")
export UTA_CACHE_DIR=$out/cache
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .cpp)
  if grep -q '^int main(' "$sample"; then
    "$cxx" -std=c++20 -Wall -Werror -I"$root/include" "$sample" \
      -o "$out/$name" "${libs[@]}"
    "$out/$name" >"$out/$name.log" 2>&1 || {
      cat "$out/$name.log" >&2
      echo "check-api-doc: $name (docs/api.md) failed when run" >&2
      exit 1
    }
    echo "check-api-doc: $name compiled, linked and ran"
  else
    "$cxx" -std=c++20 -Wall -Werror -fsyntax-only -I"$root/include" "$sample"
    echo "check-api-doc: $name compiled"
  fi
done
