#!/usr/bin/env python3
"""Summarizes a manifest's kernels and launches, for the utac tests.

  launches.py OUT.json
prints "version V: K kernels, L launches on D distinct argument lists",
then for each kernel that runs more than once, "NAME: N launches". A
launch passes its own `args` (version 2) or else its kernel's.
  launches.py --in-place OUT.json
prints, for each launch, "KERNEL: in place [INPUT -> RESULT, ...]" with
the roles of the buffers of its `in_place` pairs (nothing where it has
none).
"""
import json
import sys


def in_place(manifest):
    roles = {b["id"]: f"{b['role']} {b['id']}" for b in manifest["buffers"]}
    for launch in manifest["launches"]:
        pairs = [f"{roles[i]} -> {roles[o]}"
                 for i, o in launch.get("in_place", [])]
        print(f"{launch['kernel']}: in place [{', '.join(pairs)}]")


def main():
    if sys.argv[1] == "--in-place":
        with open(sys.argv[2]) as f:
            in_place(json.load(f))
        return
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
