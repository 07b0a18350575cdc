#!/usr/bin/env python3
"""Runs a C test whose printed measurements the docs quote, and checks them.

usage: tools/doc_test.py TEST_BINARY [ARGS...]

CTest runs the tests of tools/doc_sources.py's TEST_NUMBERS through this
script (CMakeLists.txt, FLOE_DOC_TESTS). It runs the test, passes its
output through, and exits with its status; when the test passed, the
numbers the docs quote from its output (read by the patterns of
TEST_NUMBERS) must be those of docs/numbers/tests.json, else it fails and
says to regenerate them (docs/decisions.md, "Numbers in the docs come from
one command"). Under the sanitizers (FLOE_SANITIZED=1, a Debug build, which
the numbers are not for) only the test's own status counts. Python 3
standard library only.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_numbers_lib as lib  # noqa: E402
from doc_sources import test_numbers  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    sys.stdout.flush()
    if r.returncode != 0 or os.environ.get("FLOE_SANITIZED") == "1":
        return r.returncode
    test = os.path.basename(sys.argv[1])
    path = os.path.join(lib.ROOT, lib.NUMBERS_DIR, "tests.json")
    with open(path) as f:
        recorded = json.load(f)["numbers"]
    try:
        got = test_numbers(test, r.stdout)
    except RuntimeError as e:
        print("doc_test.py: %s" % e)
        return 1
    bad = ["%s: printed %r, docs/numbers/tests.json has %r" % (k, v, recorded.get(k, {}).get("value"))
           for k, v in got.items() if recorded.get(k, {}).get("value") != v]
    for b in bad:
        print("doc_test.py: " + b)
    if bad:
        print("doc_test.py: the docs quote other numbers from %s than it prints now: %s" % (test, lib.regenerate("tests")))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
