#!/usr/bin/env python3
"""Checks what floe's shared libraries export
(docs/decisions.md#the-libraries-export-their-public-headers-only):
libfloe.so and libfloe-io.so export exactly the functions and variables the
public headers declare (include/floe/*.h, each with FLOE_API), and every
function those headers declare is exported by one of them.

usage: tools/check_exports.py ROOT BUILD
Prints the counts; exit 1 with one line per symbol out of place. Needs nm
(binutils). Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

LIBS = ("libfloe.so", "libfloe-io.so")
# OpenMP's named critical sections are one lock for the whole program: the
# compiler makes them global symbols on purpose.
ALLOWED = re.compile(r"^\.gomp_critical_user_")


def declared(root):
    """Names of the functions the public headers declare with FLOE_API."""
    names = set()
    inc = os.path.join(root, "include", "floe")
    for name in sorted(os.listdir(inc)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(inc, name), encoding="utf-8") as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        text = re.sub(r"^[ \t]*#.*$", " ", text, flags=re.M)  # the macro's own definition
        for decl in re.findall(r"FLOE_API\s+([^;{]*?)\(", text):
            names.add(re.findall(r"[A-Za-z_]\w*", decl)[-1])
    return names


def exported(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, build = argv[1], argv[2]
    api = declared(root)
    errors, seen = [], set()
    for lib in LIBS:
        syms = exported(os.path.join(build, lib))
        extra = sorted(s for s in syms if s not in api and not ALLOWED.match(s))
        errors += [f"{lib}: exports {s}, which no header of include/floe declares with FLOE_API" for s in extra]
        seen |= syms
        print(f"check_exports: {lib}: {len(syms)} symbols, {len(syms & api)} of the API")
    errors += [f"include/floe: {s} is declared with FLOE_API but neither library exports it" for s in sorted(api - seen)]
    for e in errors:
        print(e)
    if errors:
        print(f"check_exports: {len(errors)} symbol(s) out of place", file=sys.stderr)
        return 1
    print(f"check_exports: the {len(api)} functions of include/floe, and nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
