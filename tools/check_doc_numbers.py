#!/usr/bin/python3
"""Checks that the numbers the docs quote are the ones their sources
produce (docs/decisions.md, "Numbers in the docs come from one command").

usage: tools/check_doc_numbers.py [ROOT]                    the docs against docs/numbers/*.json
       tools/check_doc_numbers.py --engine FLOE [-j N] [ROOT]  docs/numbers/*.json against the engine

The first (CTest doc_numbers) reads README.md and docs/**/*.md and reports,
each as file:line with the command that fixes it:
  - a marker <!--n:SOURCE.KEY-->TEXT<!--/n--> whose TEXT is not the value
    of docs/numbers/SOURCE.json formatted as the marker or the JSON asks;
  - a marker naming a source or key that does not exist, a malformed
    marker, a marker inside a ``` block (it would show);
  - a source whose inputs (scripts, example scenes, numbers of other
    sources) changed since its JSON was made, or whose pictures in
    docs/img/ are not the ones it drew; a source of tools/doc_sources.py
    without its JSON, or a JSON of no source;
  - CMakeLists.txt's FLOE_DOC_TESTS other than the tests TEST_NUMBERS reads
    (those tests check their printed numbers through tools/doc_test.py).
The second (CTest doc_numbers_engine) runs every source's probes, the
first few hundred steps of its scenes (about 20 s in all), and reports each
source whose fingerprint differs: the engine now computes something else
there, so its numbers are stale. The --quick forms of the Python examples
are checked by their own pytest cases (tests/python/test_example_*.py),
which run them anyway.

Both test themselves first on a small tree in a temporary directory, so
that a checker that stopped seeing a stale number fails too. Exit 0 when
clean, 1 with one line per finding. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_numbers_lib as lib  # noqa: E402
from doc_numbers import input_digests  # noqa: E402
from doc_sources import SOURCES, TEST_NUMBERS  # noqa: E402

FILL = "make doc-numbers FILL_ONLY=1"


def check_text(root, sources):
    """Findings of the docs against docs/numbers (list of strings)."""
    numbers = lib.load_numbers(root)
    out = []
    for rel, line, src, key, spec, quoted, want, problem, _ in lib.doc_markers(root, numbers):
        if problem:
            out.append("%s:%d: %s" % (rel, line, problem))
        elif quoted != want:
            out.append("%s:%d: %s.%s is quoted as %r, docs/numbers/%s.json gives %r: %s writes it (%s remakes "
                       "the number)" % (rel, line, src, key, quoted, src, want, FILL, lib.regenerate(src)))
    for name, src in sources.items():
        if name not in numbers:
            out.append("docs/numbers/%s.json: missing: %s" % (name, lib.regenerate(name)))
            continue
        rec = numbers[name]
        now = input_digests(root, src)
        for k, v in now.items():
            if rec.get("inputs", {}).get(k) != v:
                out.append("docs/numbers/%s.json: %s changed since the numbers were made: %s"
                           % (name, k, lib.regenerate(name)))
        for pic, digest in rec.get("pictures", {}).items():
            path = os.path.join(root, pic)
            if not os.path.exists(path) or lib.sha256_file(path) != digest:
                out.append("%s: not the picture docs/numbers/%s.json was made with: %s"
                           % (pic, name, lib.regenerate(name)))
    for name in numbers:
        if name not in sources:
            out.append("docs/numbers/%s.json: no such source in tools/doc_sources.py" % name)
    out += check_doc_tests(root)
    return out


def check_doc_tests(root):
    """CMakeLists.txt runs through tools/doc_test.py exactly the tests TEST_NUMBERS reads."""
    path = os.path.join(root, "CMakeLists.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        m = re.search(r"set\(FLOE_DOC_TESTS([^)]*)\)", f.read())
    listed = set(m.group(1).split()) if m else set()
    want = {t for t, _, _ in TEST_NUMBERS.values()}
    if listed != want:
        return ["CMakeLists.txt: FLOE_DOC_TESTS is not the set of tests TEST_NUMBERS of tools/doc_sources.py reads "
                "(missing %s, extra %s)" % (sorted(want - listed), sorted(listed - want))]
    return []


def check_engine(root, sources, floe, jobs, scratch):
    """Findings of docs/numbers against the engine: the probes' fingerprints."""
    numbers = lib.load_numbers(root)
    tasks = []
    for name, src in sources.items():
        rec = numbers.get(name)
        if rec is None:
            continue
        if [lib.probe_key(p) for p in src.probes] != [{k: p[k] for k in ("scene", "steps")}
                                                      for p in rec.get("probes", [])]:
            tasks.append((name, None, None))
            continue
        for i, (p, r) in enumerate(zip(src.probes, rec["probes"])):
            tasks.append((name, p, r))

    digests, lock = {}, threading.Lock()  # a scene several sources probe runs once

    def digest(p):
        key = json.dumps(lib.probe_key(p), sort_keys=True)
        with lock:
            ev = digests.setdefault(key, [threading.Event(), None])
            first = len(ev) == 2
            if first:
                ev.append(True)
        if first:
            d = tempfile.mkdtemp(dir=scratch)
            try:
                ev[1] = lib.run_probe(p, floe, root, d)
            except RuntimeError as e:
                ev[1] = e
            finally:
                shutil.rmtree(d, ignore_errors=True)
                ev[0].set()
        ev[0].wait()
        return ev[1]

    def one(t):
        name, p, r = t
        if p is None:
            return "docs/numbers/%s.json: its probes are not those of tools/doc_sources.py: %s" % (
                name, lib.regenerate(name))
        got = digest(p)
        if isinstance(got, RuntimeError):
            return "docs/numbers/%s.json: probe %s failed: %s" % (name, r["scene"], got)
        if got != r["digest"]:
            return ("docs/numbers/%s.json: the engine gives another state after %d steps of %s than when its "
                    "numbers were made: %s" % (name, r["steps"], r["scene"], lib.regenerate(name)))
        return None

    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as ex:
        return [f for f in ex.map(one, tasks) if f]


# ---- self-tests ------------------------------------------------------------------------------


class FakeSource:
    def __init__(self, inputs, probes=()):
        self.inputs, self.probes = inputs, list(probes)

    def code(self):
        return "def fake(ctx): pass\n"


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def self_test_text():
    cases = {(25596.0, ",.0f"): "25 596", (-1.084, ".2fU"): "\u22121.08", (6.02e-7, ".1S"): "6.0·10⁻⁷",
             (68, None): "68", (0.5634, ".2f"): "0.56", ("within", None): "within"}
    for (v, spec), want in cases.items():
        got = lib.fmt(v, spec)
        if got != want:
            return ["self-test: fmt(%r, %r) = %r, not %r" % (v, spec, got, want)]
    with tempfile.TemporaryDirectory() as root:
        write(root, "tools/s.py", "print(1)\n")
        src = FakeSource(["tools/s.py"])
        rec = {"inputs": input_digests(root, src), "pictures": {},
               "numbers": {"floes": {"value": 68}, "load": {"value": 10.2345, "format": ".1f"}}}
        write(root, "docs/numbers/s.json", json.dumps(rec))
        rec["numbers"]["table"] = {"value": "| a |\n|---|\n| 1 |"}
        write(root, "docs/numbers/s.json", json.dumps(rec))
        write(root, "README.md", "ok <!--n:s.floes-->68<!--/n--> and <!--n:s.load:.2f-->10.23<!--/n-->\n"
                                 "stale <!--n:s.floes-->44<!--/n-->\n"
                                 "unknown <!--n:s.nothing-->1<!--/n-->\n"
                                 "broken <!--n:s.floes-->68\n"
                                 "code, not a marker: `<!--n:SOURCE.KEY-->68<!--/n-->`\n"
                                 "```\n<!--n:s.floes-->44<!--/n-->\n```\n"
                                 "<!--n:s.floes-->68<!--/n--> at the start of a line\n\n"
                                 "<!--n:s.table-->\n\n| a |\n|---|\n| 2 |\n\n<!--/n-->\n")
        got = check_text(root, {"s": src})
        want = ["README.md:2: s.floes is quoted as '44'", "README.md:3: docs/numbers/s.json has no number nothing",
                "README.md:4: an opening", "README.md:9: a marker at the start of a line",
                "README.md:11: s.table is quoted as"]
        bad = [w for w in want if not any(g.startswith(w) for g in got)]
        if bad or len(got) != len(want):
            return ["self-test: expected findings starting %s, got %s" % (want, got)]
        write(root, "tools/s.py", "print(2)\n")
        got = check_text(root, {"s": src})
        if not any("tools/s.py changed since" in g for g in got):
            return ["self-test: a changed input was not reported: %s" % got]
        changes, _ = lib.fill_docs(root)
        with open(os.path.join(root, "README.md")) as f:
            filled = f.read()
        if len(changes) != 2 or "stale <!--n:s.floes-->68<!--/n-->" not in filled or "| 1 |" not in filled:
            return ["self-test: fill_docs did not write the stale marker: %s" % changes]
    return []


SELF_SCENE = """world: {gravity: [0, 0, -9.81], dt: 1e-5}
run: {steps: 200}
materials: [{name: a, density: 2500, young: 1e7, tan_phi: 0.5}]
walls: [{axis: z, pos: 0, sense: 1}]
particles:
  - {pos: [0, 0, 0.0105], radius: 0.01, vel: [%s, 0, -0.5]}
output: {vtk: false}
"""


def self_test_engine(floe, scratch):
    with tempfile.TemporaryDirectory(dir=scratch) as root:
        write(root, "a.yaml", SELF_SCENE % "0.1")
        write(root, "b.yaml", SELF_SCENE % "0.1000000001")
        digests = [lib.run_probe(dict(scene=s, steps=200), floe, root, os.path.join(root, "p%d" % i))
                   for i, s in enumerate(("a.yaml", "a.yaml", "b.yaml"))]
        if digests[0] != digests[1] or digests[0] == digests[2]:
            return ["self-test: the fingerprint of a sphere bouncing did not repeat, or missed a change of "
                    "1e-9 in its speed: %s" % digests]
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", nargs="?", default=lib.ROOT)
    ap.add_argument("--engine", metavar="FLOE", help="check the probes with this floe command")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    if a.engine:
        floe = os.path.abspath(a.engine)
        scratch = tempfile.mkdtemp(prefix="floe-doc-numbers-")
        try:
            findings = self_test_engine(floe, scratch) or check_engine(root, SOURCES, floe, a.j, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    else:
        findings = self_test_text() or check_text(root, SOURCES)
    for f in findings:
        print(f)
    if findings:
        print("%d finding(s); docs/decisions.md, \"Numbers in the docs come from one command\"" % len(findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
