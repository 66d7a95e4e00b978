#!/usr/bin/env bash
#===- scripts/update-docs.sh - refresh docs/dialects from ODS -------------===#
#
#   scripts/update-docs.sh [--check] BUILD_DIR
# Copies the dialect reference generated from ODS (BUILD_DIR/docs/Dialects)
# into docs/dialects/; with --check, fails when the committed copy is stale.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
build=${1:?usage: update-docs.sh [--check] BUILD_DIR}
stale=0
for name in UTADialect CliffordDialect; do
  generated=$build/docs/Dialects/$name.md
  committed=$root/docs/dialects/$name.md
  if [ ! -f "$generated" ]; then
    echo "update-docs: $generated is missing; build the uta-docs target" >&2
    exit 1
  fi
  if [ $check = 1 ]; then
    if ! cmp -s "$generated" "$committed"; then
      echo "update-docs: docs/dialects/$name.md is stale; run scripts/update-docs.sh $build" >&2
      stale=1
    fi
  else
    mkdir -p "$root/docs/dialects"
    cp "$generated" "$committed"
  fi
done
exit $stale
