# Writes a copy of a manifest with one change, for the tests of manifests
# that do not match their module:
#   edit-manifest.py IN.json OUT.json 'STATEMENT'
# STATEMENT is Python run with the parsed manifest as `m`, e.g.
#   "m['kernels'][0]['entry_point'] = 'nope'".
import json
import sys

source, target, statement = sys.argv[1:4]
with open(source) as f:
    m = json.load(f)
exec(statement, {"m": m})
with open(target, "w") as f:
    json.dump(m, f, indent=2)
