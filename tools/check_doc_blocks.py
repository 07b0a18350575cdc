#!/usr/bin/env python3
"""Runs the code blocks of the docs: every ```yaml, ```python and ```c block
of README.md and docs/**/*.md, against the built floe.

usage: tools/check_doc_blocks.py SOURCE_DIR BUILD_DIR [--python PY] [--cc CC]
           [--cflags FLAGS] [--only PATH] [--no-self-test]

- ```yaml: `floe check` (never a run: a scene's length is the reader's, and
  a check is what tells a reader's copy is right). A block with a top-level
  `run` key is a complete scene and is checked as it is. A block without one
  is an excerpt: its top-level sections are checked inside BASE below (its
  sections replace BASE's, and come first, so a message's line is the
  block's line). Files a block names (`x.stl`, `x.csv`, `x.yaml`) are copied
  next to it from tests/data or examples (the first found), so a block may
  name only files the repository ships.
- ```python: the blocks of one page run in order in one interpreter, as a
  reader working through the page would (a block may use what an earlier
  block of the page made), with the built module (PYTHONPATH=BUILD/python),
  in a scratch folder where `examples/` is the repository's. Every run is
  capped at FLOE_DOC_STEPS steps (default 200): floe.load, floe.restore and
  floe.World give Worlds whose run() and step() stop there (a callback due
  every more steps is then called at the cap), so a block's step counts and
  run lengths stay the reader's while the test takes seconds. Not run when
  --python is not given (a build without the module).
- ```c: each block is a program, compiled with CC (-std=c11 -Wall -Wextra
  -Werror, FLAGS) against include/ and linked with BUILD's libfloe (and
  libfloe-io when it includes floe_io.h), then run in a scratch folder.

A block that is a fragment on purpose (a signature, a line of a longer
program) has the comment `<!-- fragment -->` on the line before its fence
and is not run; the count of those is printed. Any other failure prints
the page, the block's first line and what went wrong, and the exit status
is 1. Before the docs, the script runs itself on a small tree with one
bad block of each kind and one marked fragment, and fails unless it finds
exactly the three bad ones (a checker that finds nothing cannot pass).
Python 3 standard library only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LANGS = ("yaml", "python", "c")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
FRAGMENT = re.compile(r"^\s*<!--\s*fragment\b.*-->\s*$")
# file names a block may refer to
FILE_REF = re.compile(r"[\w.-]+\.(?:stl|csv|yaml)\b")
TIMEOUT = 300  # s, per page or block

# The scene an excerpt is checked in: gravity, a run length, the materials
# the excerpt names (glass, the base's own, when it names none: then the
# only material, the default of every body), and four spheres inside the
# docs' periodic cells, one in each group the docs' excerpts name.
BASE = {
    "world": "world: {gravity: [0, 0, -9.81]}\n",
    "run": "run: {steps: 10}\n",
    "materials": None,  # made from the excerpt
    "particles": """particles:
  - {radius: 0.005, pos: [0.02, 0.02, 0.02], material: glass, group: lid}
  - {radius: 0.005, pos: [0.07, 0.02, 0.02], material: glass, group: drum}
  - {radius: 0.005, pos: [0.02, 0.07, 0.02], material: glass, group: probe}
  - {radius: 0.005, pos: [0.07, 0.07, 0.07], material: glass, group: beads}
""",
}


def base_materials(code):
    names = ["glass"] + sorted(set(re.findall(r"\bmaterial:\s*([A-Za-z_][\w-]*)", code)) - {"glass"})
    return "materials:\n" + "".join("  - {name: %s, density: 2500, young: 1e8}\n" % n for n in names)


# Installed in front of every page's Python blocks (see the docstring).
PY_PRELUDE = r'''
import functools, json, os, sys, traceback
import floe

_CAP = int(os.environ.get("FLOE_DOC_STEPS", "200"))


class _Capped:
    """A World whose run() and step() take at most _CAP steps a call."""

    def __init__(self, w):
        object.__setattr__(self, "_w", w)

    def __getattr__(self, k):
        return getattr(self._w, k)

    def __setattr__(self, k, v):
        setattr(self._w, k, v)

    def __enter__(self):
        self._w.__enter__()
        return self

    def __exit__(self, *a):
        return self._w.__exit__(*a)

    def __repr__(self):
        return repr(self._w)

    def step(self, n=1):
        return self._w.step(min(n, _CAP))

    def run(self, steps=None, *, time=None, until=None, every=1, callback=None, on_event=None):
        w, s0 = self._w, self._w.step_count

        def capped(x):
            return (until is not None and until(x)) or x.step_count - s0 >= _CAP

        return w.run(None if steps is None else min(steps, _CAP), time=time, until=capped,
                     every=min(every, _CAP), callback=callback, on_event=on_event)


def _wrap(f):
    @functools.wraps(f)
    def g(*a, **k):
        return _Capped(f(*a, **k))
    return g


floe.load, floe.restore, floe.World = _wrap(floe.load), _wrap(floe.restore), _wrap(floe.World)

_ns = {"__name__": "__main__"}
for _b in json.load(open(sys.argv[1])):
    try:
        # blank lines first: a traceback gives the page's own line numbers
        exec(compile("\n" * (_b["line"] - 1) + _b["code"], _b["page"], "exec"), _ns)
    except BaseException:
        traceback.print_exc()
        print("in the block at %s" % _b["where"], file=sys.stderr)
        sys.exit(1)
'''


class Block:
    def __init__(self, page, line, lang, code, fragment):
        self.page, self.line, self.lang, self.code, self.fragment = page, line, lang, code, fragment

    def where(self):
        return "%s:%d" % (self.page, self.line)


def blocks_of(root, page):
    """The fenced blocks of a page (any language), with their first line."""
    out = []
    with open(os.path.join(root, page), encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = len(m.group(1)), m.group(2)
        prev = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        code = "\n".join(ln[indent:] if ln[:indent].strip() == "" else ln for ln in lines[i + 1:j]) + "\n"
        out.append(Block(page, i + 2, lang, code, bool(FRAGMENT.match(prev))))
        i = j + 1
    return out


# Pages whose blocks another test runs whole, shell commands included, in
# their order (tools/tutorial_test.py, CTest tutorial): their Python blocks
# read what the shell blocks before them made.
RUN_ELSEWHERE = {os.path.join("docs", "tutorial.md")}


def pages(root, only):
    if only:
        return [only]
    found = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    docs = os.path.join(root, "docs")
    for d, _, files in sorted(os.walk(docs)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), root)
            if f.endswith(".md") and rel not in RUN_ELSEWHERE:
                found.append(rel)
    return found


def scratch(root, tmp, name):
    """A scratch folder where examples/ and tests/data/ are the repository's
    (a block run from the repository's root may name their files)."""
    d = tempfile.mkdtemp(prefix=name + ".", dir=tmp)
    for sub in ("examples", os.path.join("tests", "data")):
        src = os.path.join(root, sub)
        if os.path.isdir(src):
            os.makedirs(os.path.dirname(os.path.join(d, sub)), exist_ok=True)
            os.symlink(src, os.path.join(d, sub))
    return d


def copy_named(root, code, dest):
    for name in sorted(set(FILE_REF.findall(code))):
        for src in ("tests/data", "examples"):
            p = os.path.join(root, src, name)
            if os.path.isfile(p) and not os.path.exists(os.path.join(dest, name)):
                shutil.copy(p, dest)
                break


def top_keys(code):
    return {m.group(1) for m in re.finditer(r"^([A-Za-z_]\w*)\s*:", code, re.M)}


def plain_env():
    """The environment for the compiler and the command line: no preloaded
    sanitizer runtimes (those are for the Python interpreter)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def run(cmd, cwd, env=None):
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=TIMEOUT)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired as e:
        return -1, (e.stdout or "") + "\n(timed out after %d s)" % TIMEOUT


def check_yaml(a, root, tmp, b):
    d = scratch(root, tmp, "yaml")
    text = b.code
    keys = top_keys(text)
    excerpt = "run" not in keys
    if excerpt:
        text += "".join(v or base_materials(b.code) for k, v in BASE.items() if k not in keys)
    with open(os.path.join(d, "scene.yaml"), "w") as f:
        f.write(text)
    copy_named(root, b.code, d)
    rc, out = run([os.path.join(a.build, "floe"), "check", "scene.yaml"], d, plain_env())
    if rc != 0 or "warning" in out:
        what = "excerpt (completed with the base scene of tools/check_doc_blocks.py)" if excerpt else "scene"
        return "floe check of the %s: exit status %d%s\n%s" % (what, rc, ", with warnings" if rc == 0 else "", out)
    return None


def check_c(a, root, tmp, b):
    d = scratch(root, tmp, "c")
    src = os.path.join(d, "block.c")
    with open(src, "w") as f:
        f.write(b.code)
    copy_named(root, b.code, d)
    libs = ["-lfloe-io"] if "floe_io.h" in b.code else []
    cmd = [a.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-D_POSIX_C_SOURCE=200809L",
           "-I", os.path.join(root, "include")] + a.cflags.split() + [src, "-o", os.path.join(d, "block"),
                                                                        "-L", a.build] + libs + [
               "-lfloe", "-lm", "-Wl,-rpath," + os.path.abspath(a.build)]
    rc, out = run(cmd, d, plain_env())
    if rc != 0:
        return "does not compile:\n%s" % out
    rc, out = run([os.path.join(d, "block")], d)
    if rc != 0:
        return "the program exits with status %d:\n%s" % (rc, out)
    return None


def check_python_page(a, root, tmp, blocks):
    d = scratch(root, tmp, "python")
    for b in blocks:
        copy_named(root, b.code, d)
    with open(os.path.join(d, "blocks.json"), "w") as f:
        json.dump([{"where": b.where(), "page": b.page, "line": b.line, "code": b.code} for b in blocks], f)
    with open(os.path.join(d, "prelude.py"), "w") as f:
        f.write(PY_PRELUDE)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(os.path.abspath(a.build), "python")
    env.setdefault("OMP_WAIT_POLICY", "passive")
    rc, out = run([a.python, "prelude.py", "blocks.json"], d, env)
    if rc != 0:
        return "exit status %d:\n%s" % (rc, out)
    return None


def check_tree(a, root):
    """Every block of the pages; returns (failures, counts)."""
    failures, counts, frags = [], {"yaml": 0, "python": 0, "c": 0}, []
    tmp = tempfile.mkdtemp(prefix="floe-doc-blocks.")
    try:
        for page in pages(root, a.only):
            py = []
            for b in blocks_of(root, page):
                if b.lang not in LANGS:
                    continue
                if b.fragment:
                    frags.append(b.where())
                    continue
                if b.lang == "python":
                    py.append(b)
                    continue
                msg = (check_yaml if b.lang == "yaml" else check_c)(a, root, tmp, b)
                counts[b.lang] += 1
                if msg:
                    failures.append("%s: ```%s block: %s" % (b.where(), b.lang, msg))
            if py and a.python:
                counts["python"] += len(py)
                msg = check_python_page(a, root, tmp, py)
                if msg:
                    failures.append("%s: ```python blocks of the page (run in order from line %d): %s" %
                                    (page, py[0].line, msg))
            elif py:
                print("check_doc_blocks: %s: %d python blocks not run (no --python: the module is not built)" %
                      (page, len(py)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failures, counts, frags


def self_test(a):
    """The checker on a tree with one bad block of each kind and a marked
    fragment: it must find exactly the three bad ones."""
    root = tempfile.mkdtemp(prefix="floe-doc-blocks-self.")
    try:
        os.makedirs(os.path.join(root, "docs"))
        bad = ("# page\n\n```yaml\nrun: {steps: 1}\nmaterials: [{name: a, densty: 1}]\n```\n\n"
               "```yaml\nwater: {level: 0}\n```\n\n"
               "```c\nint main(void) { return 3; }\n```\n\n"
               "<!-- fragment -->\n```c\nfloe_step(w);\n```\n")
        with open(os.path.join(root, "docs", "bad.md"), "w") as f:
            f.write(bad)
        py = "```python\nimport floe\nw = floe.World(dt=1e-6)\nw.run(steps=10 ** 9)\nassert w.step_count <= 200\n```\n"
        py += "\n```python\nw.no_such_method()\n```\n"
        with open(os.path.join(root, "docs", "py.md"), "w") as f:
            f.write(py)
        sub = argparse.Namespace(**vars(a))
        sub.only = None
        failures, counts, frags = check_tree(sub, root)
        want = ["docs/bad.md:4: ```yaml", "docs/bad.md:13: ```c"]
        if a.python:
            want.append("docs/py.md: ```python")
        got = [f.split(" block")[0] for f in failures]
        ok = len(failures) == len(want) and all(any(f.startswith(w) for f in failures) for w in want)
        ok = ok and frags == ["docs/bad.md:18"] and counts["yaml"] == 2
        if a.python:
            ok = ok and "no_such_method" in failures[-1] and 'py.md", line 9' in failures[-1]
        if not ok:
            print("check_doc_blocks: the self-test on a bad tree went wrong: found %s, fragments %s" % (got, frags))
            print("\n".join(failures))
            return 1
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("source")
    p.add_argument("build")
    p.add_argument("--python", help="the interpreter the module was built for")
    p.add_argument("--cc", default="cc")
    p.add_argument("--cflags", default="", help="more compiler flags (e.g. the sanitizers')")
    p.add_argument("--only", help="one page, e.g. docs/python.md")
    p.add_argument("--no-self-test", action="store_true")
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    if not os.path.exists(os.path.join(a.build, "floe")):
        sys.exit("check_doc_blocks: no %s/floe: build first" % a.build)
    if not a.no_self_test and self_test(a):
        return 1
    root = os.path.abspath(a.source)
    failures, counts, frags = check_tree(a, root)
    for f in failures:
        print(f)
    print("check_doc_blocks: %d yaml, %d python, %d c blocks; %d fragments not run%s; %d failed" %
          (counts["yaml"], counts["python"], counts["c"], len(frags), (" (" + ", ".join(frags) + ")") if frags else "",
           len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
