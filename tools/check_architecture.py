#!/usr/bin/env python3
"""Checks that docs/architecture.md describes the tree as it is.

Read: the tables of its section "Folders and files", whose first column is
a file path in backquotes, and every name in backquotes on the whole page
that ends like a file (.c .h .py .sh .md .yaml .json .svg .png).

The tree: every file under src/, include/floe/, app/, python/floe/ (not
__pycache__) and tools/ (not its subfolders).

Reported, each with what to do:
  1. a file of the tree that no table lists;
  2. a table row whose path is not a file;
  3. a name on the page that is no file of the repository: a path is tried
     from the root, from src/, include/ and docs/ (`core/world.h`,
     `models/water.md`); a bare name (`scene.c`) must be the name of some
     file of the repository. Names with placeholders (`<shape>.c`,
     `NAME.md`, `*.c`) are left alone.

usage: tools/check_architecture.py [ROOT]   (default: the repository of this script)
Exit 0 when the page and the tree agree, 1 with one line per finding. A
self-test on a small tree written to a temporary directory runs first, so
a checker that stopped seeing a missing or stale file fails too. Python 3
standard library only.
"""
import os
import re
import sys
import tempfile

PAGE = "docs/architecture.md"
SECTION = "Folders and files"
TREE = [("src", True), ("include/floe", True), ("app", True), ("python/floe", True), ("tools", False)]
SKIP_DIRS = {"__pycache__", ".git"}
FILE_NAME = re.compile(r"^[\w./+-]+\.(c|h|py|sh|md|yaml|yml|json|svg|png)$")
PLACEHOLDER = re.compile(r"^(NAME|SOURCE|DATE|x|y)\b|[<>*{}$]")
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")
TICKS = re.compile(r"`([^`\n]+)`")


def tree_files(root):
    """The files the tables must list, as paths from the root."""
    out = set()
    for top, deep in TREE:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for d, dirs, names in os.walk(base):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS) if deep else []
            for n in names:
                if n.endswith(".pyc"):
                    continue
                out.add(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
    return out


def all_names(root):
    """The base names of every file of the repository (build trees skipped)."""
    names = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith(("build", "."))]
        names.update(files)
    return names


def listed(lines):
    """(line number, path) of the rows of the file tables."""
    rows, inside = [], False
    for no, line in enumerate(lines, 1):
        if line.startswith("## "):
            inside = line[3:].strip() == SECTION
        elif inside:
            m = ROW.match(line)
            if m:
                rows.append((no, m.group(1).strip()))
    return rows


def exists(root, name, names):
    if "/" not in name:
        return name in names
    return any(os.path.isfile(os.path.join(root, base, name)) for base in ("", "src", "include", "docs"))


def check(root):
    path = os.path.join(root, PAGE)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        return ["%s: cannot read: %s" % (PAGE, e)]
    found = []
    rows = listed(lines)
    if not rows:
        found.append("%s: no section '## %s' with file tables (| `path` | what it holds |)" % (PAGE, SECTION))
    in_tables = {p for _, p in rows}
    for no, p in rows:
        if not os.path.isfile(os.path.join(root, p)):
            found.append("%s:%d: lists %s, which is not a file of the tree: remove its row or fix its path"
                         % (PAGE, no, p))
    for p in sorted(tree_files(root) - in_tables):
        found.append("%s: %s is not listed: add a row `| `%s` | what it holds |` to the table of its folder "
                     "under '## %s'" % (PAGE, p, p, SECTION))
    names = all_names(root)
    fence = False
    for no, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        for m in TICKS.finditer(line):
            name = m.group(1).strip()
            if not FILE_NAME.match(name) or PLACEHOLDER.search(name) or name in in_tables:
                continue  # table rows: rule 2
            if not exists(root, name, names):
                found.append("%s:%d: names %s, which is no file of the repository: fix or remove the name"
                             % (PAGE, no, name))
    return found


def self_test():
    """A small tree with one missing row, one stale row and one stale name
    must give exactly those three findings; the same tree put right, none."""
    good_page = ("# Architecture\n\nThe loader is `scene.c`, the seam `shapes/shape.h`.\n\n"
                 "## Folders and files\n\n| file | what |\n|---|---|\n"
                 "| `src/io/scene.c` | loader |\n| `src/shapes/shape.h` | seam |\n| `tools/t.py` | a tool |\n"
                 "| `app/main.c` | the command |\n\n## Files to touch\n\n1. `src/shapes/<shape>.c`\n")
    files = ["src/io/scene.c", "src/shapes/shape.h", "tools/t.py", "app/main.c", "tools/sub/ignored.txt"]
    with tempfile.TemporaryDirectory() as root:
        for f in files + [PAGE]:
            os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
        for f in files:
            open(os.path.join(root, f), "w").close()
        with open(os.path.join(root, PAGE), "w", encoding="utf-8") as f:
            f.write(good_page)
        if check(root):
            return "a correct tree gave findings: %s" % check(root)
        open(os.path.join(root, "src/io/new.c"), "w").close()  # 1. not listed
        os.remove(os.path.join(root, "app/main.c"))  # 2. a stale row
        with open(os.path.join(root, PAGE), "w", encoding="utf-8") as f:
            f.write(good_page.replace("`scene.c`", "`scenes.c`"))  # 3. a stale name
        got = check(root)
        want = ["src/io/new.c is not listed", "lists app/main.c", "names scenes.c"]
        missing = [w for w in want if not any(w in g for g in got)]
        if missing or len(got) != len(want):
            return "a broken tree gave %s, expected findings about %s" % (got, want)
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = self_test()
    if bad:
        print("check_architecture: self-test failed: %s" % bad)
        return 1
    found = check(root)
    for f in found:
        print(f)
    if found:
        print("check_architecture: %d finding(s): %s must list every file of the tree, and name only files "
              "that exist" % (len(found), PAGE))
        return 1
    print("check_architecture: %s lists every file of the tree and names only files that exist" % PAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
