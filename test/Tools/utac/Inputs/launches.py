#!/usr/bin/env python3
"""Summarizes a manifest's kernels and launches, for the utac tests.

  launches.py OUT.json
prints "version V: K kernels, L launches on D distinct argument lists",
then for each kernel that runs more than once, "NAME: N launches". A
launch passes its own `args` (version 2) or else its kernel's.
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        manifest = json.load(f)
    kernels = {k["name"]: k for k in manifest["kernels"]}
    counts = {name: 0 for name in kernels}
    passed = set()
    for launch in manifest["launches"]:
        args = launch.get("args", kernels[launch["kernel"]]["args"])
        passed.add(json.dumps(args, sort_keys=True))
        counts[launch["kernel"]] += 1
    print(f"version {manifest['version']}: {len(kernels)} kernels, "
          f"{len(manifest['launches'])} launches on {len(passed)} distinct "
          f"argument lists")
    for name, count in counts.items():
        if count > 1:
            print(f"{name}: {count} launches")


if __name__ == "__main__":
    main()
