#!/usr/bin/env python3
#===- scripts/check-build-deps.py - generated headers are ordered first ---===#
#
# A source that includes a TableGen-generated header compiles only if its
# target depends on the generator. A missing DEPENDS goes unnoticed in an
# incremental build (the header already exists) and breaks a clean parallel
# one at random. This check compares, for every object of a finished Ninja
# build, the generated headers its depfile recorded with the TableGen outputs
# Ninja would produce before compiling it. Run by ctest as `build-deps`.
#===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys

TABLEGEN_OUTPUT = re.compile(r"^cd (\S+) && \S*tblgen .* -o (\S+\.inc)\b")


def recorded_headers(ninja, build):
    """Maps each object to the generated headers its last compile read."""
    text = subprocess.run([ninja, "-C", build, "-t", "deps"], check=True,
                          capture_output=True, text=True).stdout
    headers, current = {}, None
    for line in text.splitlines():
        if not line.startswith(" ") and ": #deps" in line:
            current = line.split(":", 1)[0]
            headers[current] = []
        elif line.strip() and current:
            path = os.path.normpath(os.path.join(build, line.strip()))
            if path.startswith(build + os.sep) and path.endswith(".inc"):
                headers[current].append(path)
    return headers


def ordered_outputs(ninja, build, obj):
    """The TableGen outputs Ninja builds before `obj`."""
    text = subprocess.run([ninja, "-C", build, "-t", "commands", obj],
                          check=True, capture_output=True, text=True).stdout
    outputs = set()
    for command in text.splitlines():
        match = TABLEGEN_OUTPUT.match(command)
        if match:
            outputs.add(os.path.normpath(
                os.path.join(match.group(1), match.group(2))))
    return outputs


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check-build-deps.py NINJA BUILD_DIR")
    ninja, build = sys.argv[1], os.path.abspath(sys.argv[2])
    missing = 0
    for obj, generated in sorted(recorded_headers(ninja, build).items()):
        if not generated:
            continue
        outputs = ordered_outputs(ninja, build, obj)
        for header in generated:
            if header not in outputs:
                print(f"{obj}: includes {os.path.relpath(header, build)} "
                      "but its target does not depend on the generator")
                missing += 1
    if missing:
        sys.exit(f"check-build-deps: {missing} missing DEPENDS")
    print("check-build-deps: every generated header is built first")


if __name__ == "__main__":
    main()
