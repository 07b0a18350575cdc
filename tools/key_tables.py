#!/usr/bin/env python3
"""The key tables of docs/scene-format.md, written from the code.

`floe keys --markdown` prints every key table of the scene's sections
(world, inlets, sinks, phases, dense: src/core/keys.c, phase_keys.c, src/io/dense_keys.c), each
between `<!-- keys:NAME ... -->` and `<!-- /keys:NAME -->`. This tool puts
them into the doc in place of the blocks with the same markers:

    python3 tools/key_tables.py build/floe                 # rewrite the doc
    python3 tools/key_tables.py build/floe --check         # CTest key_tables

--check fails, naming the table, when a block of the doc differs from the
code's table, when a table is missing from the doc or when the doc holds a
block no table writes. It first checks itself on a doc held in memory with
one drifted row, one missing table and one stale block, so a checker that
stops seeing drift fails too."""
import os
import re
import subprocess
import sys

BEGIN = re.compile(r"^<!-- keys:([A-Za-z_.]+)[ >]")


def blocks(text):
    """{name: (first line, last line + 1)} of the marked blocks of text's lines."""
    lines = text.split("\n")
    out, i = {}, 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            end = "<!-- /keys:%s -->" % m.group(1)
            j = i
            while j < len(lines) and lines[j] != end:
                j += 1
            if j == len(lines):
                raise SystemExit("key_tables: '%s' has no end marker %s" % (m.group(1), end))
            out[m.group(1)] = (i, j + 1)
            i = j
        i += 1
    return out


def tables(markdown):
    lines = markdown.split("\n")
    return {name: "\n".join(lines[a:b]) for name, (a, b) in blocks(markdown).items()}


def compare(doc, code):
    """The problems of doc against the code's tables (a list of strings)."""
    have, want = blocks(doc), tables(code)
    lines = doc.split("\n")
    bad = []
    for name, text in want.items():
        if name not in have:
            bad.append("table '%s' is not in the doc (add its markers where it belongs)" % name)
        elif "\n".join(lines[have[name][0]:have[name][1]]) != text:
            a = lines[have[name][0]:have[name][1]]
            b = text.split("\n")
            row = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            bad.append("table '%s' differs from the code at line %d of the doc:\n  doc:  %s\n  code: %s"
                       % (name, have[name][0] + row + 1, a[row] if row < len(a) else "(end)",
                          b[row] if row < len(b) else "(end)"))
    for name in have:
        if name not in want:
            bad.append("block '%s' is written by no key table" % name)
    return bad


def rewrite(doc, code):
    want = tables(code)
    lines = doc.split("\n")
    for name, (a, b) in sorted(blocks(doc).items(), key=lambda kv: -kv[1][0]):
        if name in want:
            lines[a:b] = want[name].split("\n")
    return "\n".join(lines)


def self_test():
    code = ("<!-- keys:a -->\n| k |\n| `x` |\n<!-- /keys:a -->\n\n"
            "<!-- keys:b -->\n| k |\n<!-- /keys:b -->\n")
    good = "intro\n<!-- keys:a -->\n| k |\n| `x` |\n<!-- /keys:a -->\nmid\n<!-- keys:b -->\n| k |\n<!-- /keys:b -->\n"
    assert compare(good, code) == [], compare(good, code)
    drift = good.replace("| `x` |", "| `y` |")
    assert len(compare(drift, code)) == 1 and "'a' differs" in compare(drift, code)[0]
    missing = "intro\n<!-- keys:a -->\n| k |\n| `x` |\n<!-- /keys:a -->\n"
    assert len(compare(missing, code)) == 1 and "'b' is not in the doc" in compare(missing, code)[0]
    stale = good + "<!-- keys:c -->\n<!-- /keys:c -->\n"
    assert len(compare(stale, code)) == 1 and "'c' is written by no" in compare(stale, code)[0]
    assert compare(rewrite(drift, code), code) == []


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        raise SystemExit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    doc_path = args[1] if len(args) > 1 else os.path.join(root, "docs", "scene-format.md")
    self_test()
    code = subprocess.run([args[0], "keys", "--markdown"], check=True, capture_output=True, text=True).stdout
    doc = open(doc_path, encoding="utf-8").read()
    if "--check" in sys.argv:
        bad = compare(doc, code)
        for b in bad:
            print("%s: %s" % (doc_path, b))
        if bad:
            print("key_tables: regenerate with: python3 tools/key_tables.py build/floe")
            return 1
        print("key_tables: %d tables of %s match the code" % (len(tables(code)), doc_path))
        return 0
    new = rewrite(doc, code)
    if new != doc:
        open(doc_path, "w", encoding="utf-8").write(new)
    bad = compare(new, code)
    for b in bad:
        print("%s: %s" % (doc_path, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
