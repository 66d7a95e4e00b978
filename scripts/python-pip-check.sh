#!/usr/bin/env bash
#===- scripts/python-pip-check.sh - pip installs the staged package ------===#
#
# ctest python-pip-install (docs/python.md): `pip install` of BUILD/python into
# a fresh folder, offline (--no-build-isolation: Debian's python3-pip,
# python3-wheel and setuptools, which scripts/uta.sh installs), then, from
# another folder and with nothing of the build on any path, import uta from
# there, compile a graph and run it on the reference device.
#
# Usage: scripts/python-pip-check.sh BUILD_DIR PYTHON
#===----------------------------------------------------------------------===#
set -euo pipefail
build=$1
python=$2
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
"$python" -m pip install -q --no-build-isolation --no-cache-dir \
  --disable-pip-version-check --target "$target/site" "$build/python"
cd "$target"
env -u UTA_LIBRARY_DIR PYTHONPATH="$target/site" PYTHONDONTWRITEBYTECODE=1 \
  "$python" - "$target/site" <<'PY'
import os
import sys

import numpy as np

import uta

site = sys.argv[1]
assert uta.__file__.startswith(site), uta.__file__
assert os.path.exists(os.path.join(site, "uta", "_lib", "libuta_c.so"))
g = uta.Graph("installed")
x = g.input([3])
g.output(g.exp(x))
device = uta.device("reference")
(y,) = uta.compile(g, device=device).load(device)(np.zeros(3, np.float32))
assert np.array_equal(np.from_dlpack(y), np.ones(3, np.float32))
print(f"python-pip-check: uta installed in {site} and ran")
PY
