#!/usr/bin/env python3
"""Checks that comments and docs cite only what is in the repository
(docs/decisions.md, "Decisions are recorded here and cited by anchor").

Read: every comment of the C sources and headers, every '#' comment and
docstring of the Python, shell, CMake, YAML and peer input files, and the
whole text of every Markdown page, in src/, app/, include/, tests/, tools/,
bench/, docs/, examples/, cmake/ and the top-level README.md, CMakeLists.txt
and Makefile. String literals are code and are not read, nor is this file,
which has to name what it looks for.

Reported, each as file:line: what, and the text:
  1. a path into material outside the repository (`../shared/...`,
     `shared/spec`, `shared/seeds`, `shared/bench`);
  2. a citation of the private specifications or seed documents
     (`woo-models`, `softbond-model`, `seed 003`, `seeds 000/002`, "the
     Woo seed", "the seed says", "in the spec", `README-bonded`,
     `DESIGN.md`); a random generator's seed is fine;
  3. an old label citation (`DECISIONS G7`): cite docs/decisions.md#anchor;
  4. a section sign, which only those specifications used: cite an anchor,
     or name a published document and its section in words;
  5. a Markdown link, or a page named in a comment or prose with an anchor
     or under docs/ (`docs/NAME.md`, `NAME.md#anchor`), whose file does not
     exist, or whose anchor is not the GitHub anchor of a heading of that
     page.

usage: tools/check_citations.py [ROOT]   (default: the repository of this script)
Exit 0 when clean, 1 with one line per finding. A self-test on a small tree
written to a temporary directory runs first, so a checker that stopped
seeing bad citations fails too. Python 3 standard library only.
"""
import ast
import io
import os
import re
import sys
import tempfile
import tokenize

DIRS = ["src", "app", "include", "tests", "tools", "bench", "docs", "examples", "cmake", "python"]
TOP_FILES = ["README.md", "CMakeLists.txt", "Makefile", "setup.py"]
SKIP_DIRS = {"corpus", "crashes", "__pycache__"}  # fuzz inputs: data, not prose
C_EXT = (".c", ".h")
HASH_EXT = (".sh", ".cmake", ".yaml", ".yml", ".in", ".lammps", ".txt")
HASH_NAMES = ("CMakeLists.txt", "Makefile")

RULES = [
    (re.compile(r"\.\./shared\b|\bshared/(spec|seeds|bench|hooks)\b"),
     "path into material outside the repository"),
    (re.compile(r"\b(woo-models|softbond-model)\b|\bseeds? ?0\d\d\b|\bREADME-bonded\b"
                r"|\b(Woo|PFC) seeds?\b|\bseed (table|document)|(?<![\w)])\(seed\)|\bthe seed (says|:)"
                r"|\b(in|of) the spec\b|\bDESIGN\.md\b"),
     "citation of a private specification or seed document"),
    (re.compile(r"\bDECISIONS\b"), "old label citation: cite docs/decisions.md#anchor"),
    (re.compile("\u00a7"), "section sign: cite docs/decisions.md#anchor or name the published document"),
]
# a repository page named in a comment or in prose: docs/NAME.md, NAME.md#anchor
PAGE_REF = re.compile(r"(?<![\w/.-])((?:\.\./|\./)?(?:[\w-]+/)*[\w.-]+\.md)(#[\w-]+)?")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
MD_WHOLE_LINK = re.compile(r"\[[^\]]*\]\([^)\s]*\)")


# ---- the text to read: (line, text) pieces ------------------------------------


def c_comments(text):
    """Comments of a C file as (first line, text); strings and chars skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append((line, text[i:j]))
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """'#' comments of shell, CMake, YAML and similar files (outside quotes)."""
    out = []
    for no, raw in enumerate(text.split("\n"), 1):
        quote = None
        for k, ch in enumerate(raw):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == "#" and (k == 0 or raw[k - 1] in " \t;"):
                out.append((no, raw[k:]))
                break
    return out


def py_comments(text):
    """Comments and docstrings of a Python file."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.string))
        tree = ast.parse(text)
    except (SyntaxError, tokenize.TokenError):
        return hash_comments(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.append((body[0].lineno, body[0].value.value))
    return out


def pieces(path, text):
    name = os.path.basename(path)
    if name.endswith(C_EXT):
        return c_comments(text)
    if name.endswith(".py"):
        return py_comments(text)
    if name.endswith(".md"):
        return [(1, text)]
    if name.endswith(HASH_EXT) or name in HASH_NAMES:
        return hash_comments(text)
    return []


# ---- headings and anchors ----------------------------------------------------


def slug(heading):
    """GitHub's anchor of a heading: links reduced to their text, lower case,
    everything but letters, digits, '_', '-' and spaces dropped, spaces as '-'."""
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(text):
    """The anchors of a Markdown page (fenced code blocks skipped; repeated
    headings get -1, -2, ... as on GitHub)."""
    found, seen, fence = set(), {}, None
    for raw in text.split("\n"):
        m = re.match(r"\s*(```+|~~~+)", raw)
        if m:
            mark = m.group(1)[0]
            fence = None if fence == mark else (fence or mark)
            continue
        if fence:
            continue
        m = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", raw)
        if m:
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else "%s-%d" % (s, k))
    return found


class Pages:
    """Anchors of the repository's Markdown pages, read once each."""

    def __init__(self, root):
        self.root, self.cache = root, {}

    def get(self, path):
        if path not in self.cache:
            try:
                with open(path, encoding="utf-8") as f:
                    self.cache[path] = anchors(f.read())
            except OSError:
                self.cache[path] = None
        return self.cache[path]


def resolve(root, path, ref, link):
    """The file a page reference points to: a Markdown link is relative to
    its page; a name in prose or a comment may also be relative to the root
    (docs/x.md) or to docs/ (models/x.md)."""
    here = os.path.normpath(os.path.join(os.path.dirname(path), ref))
    if link or os.path.exists(here):
        return here
    for base in (root, os.path.join(root, "docs")):
        cand = os.path.normpath(os.path.join(base, ref))
        if os.path.exists(cand):
            return cand
    return None


def check_ref(root, pages, path, target, anchor, link):
    """None if target#anchor exists, else what is wrong."""
    if target:
        full = resolve(root, path, target, link)
        if full is None or not os.path.exists(full):
            return "cites %s, which is not in the repository" % target
    else:
        full = path
    if anchor and full.endswith(".md"):
        have = pages.get(full)
        if have is not None and anchor not in have:
            return "no heading of %s has the anchor #%s" % (os.path.relpath(full, root), anchor)
    return None


# ---- the check -------------------------------------------------------------


def files(root):
    for top in TOP_FILES:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield p
    for d in DIRS:
        for base, dirs, names in os.walk(os.path.join(root, d)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
            for name in sorted(names):
                path = os.path.join(base, name)
                if os.path.abspath(path) != os.path.abspath(__file__):
                    yield path


def check_text(root, pages, path, text):
    found = []
    for first, piece in pieces(path, text):
        for k, line in enumerate(piece.split("\n")):
            at = "%s:%d" % (os.path.relpath(path, root), first + k)
            hits = [what for rule, what in RULES if rule.search(line)]
            found += ["%s: %s: %s" % (at, what, line.strip()) for what in hits]
            refs = []
            if path.endswith(".md"):
                for m in MD_LINK.finditer(line):
                    url = m.group(1)
                    if re.match(r"[a-z][a-z0-9+.-]*:", url):
                        continue  # http:, mailto: ...
                    target, _, anchor = url.partition("#")
                    refs.append((target, anchor, True))
            # pages named in prose: checked when they carry an anchor or are
            # under docs/ (other names may be outputs, such as report.md)
            for m in PAGE_REF.finditer(MD_WHOLE_LINK.sub("", line)):
                if m.group(2) or m.group(1).startswith("docs/"):
                    refs.append((m.group(1), (m.group(2) or "#")[1:], False))
            for target, anchor, link in refs:
                if any(rule.search(target) for rule, _ in RULES):
                    continue  # reported above
                bad = check_ref(root, pages, path, target, anchor, link)
                if bad:
                    found.append("%s: %s: %s" % (at, bad, line.strip()))
    return found


def check(root):
    pages, found = Pages(root), []
    for path in files(root):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary: pictures, STL, fuzz inputs
        found += check_text(root, pages, path, text)
    return found


SELF_TEST = {
    "docs/decisions.md": "# Decisions\n\n## Forces act from the first step (G4)\n\ntext\n"
                         "```\n# not a heading\n```\n",
    "docs/other.md": "See [the rule](decisions.md#forces-act-from-the-first-step-g4) and\n"
                     "[a lost one](decisions.md#gone), [here](#see).\n"
                     "[a heading in code](decisions.md#not-a-heading) and ../shared/spec/x.md\n"
                     "[a picture](img/none.png), [the page](other.md), [a rule](decisions.md#decisions)\n",
    "src/a.c": '/* good: docs/decisions.md#forces-act-from-the-first-step-g4 */\n'
               'const char *s = "DECISIONS G4, woo-models \u00a73"; /* strings are code */\n'
               "int seed003_kn; /* the rng's seed 0 is fine, and the seed of the Woo seed */\n"
               "/* DECISIONS G4 */ /* woo-models */\n"
               "/* docs/decisions.md#renamed-heading and seed 003 and seeds 000/002 */\n"
               "// see docs/missing.md and \u00a75.3\n",
    "bench/b.sh": 'DIR=${DIR:-../shared/bench/peers} # the peer material (outside this repository)\n'
                  "# from ../shared/bench/README-bonded.md\n",
    "tools/t.py": '"""Reads ../shared/bench."""\nX = "shared/spec"  # fine: a string\n',
}
SELF_EXPECT = [
    ("docs/other.md:2", "#gone"),
    ("docs/other.md:2", "#see"),
    ("docs/other.md:3", "outside the repository"),
    ("docs/other.md:3", "#not-a-heading"),
    ("docs/other.md:4", "img/none.png"),
    ("src/a.c:3", "private specification"),
    ("src/a.c:4", "old label"),
    ("src/a.c:4", "private specification"),
    ("src/a.c:5", "#renamed-heading"),
    ("src/a.c:5", "private specification"),
    ("src/a.c:6", "docs/missing.md"),
    ("src/a.c:6", "section sign"),
    ("bench/b.sh:2", "outside the repository"),
    ("bench/b.sh:2", "private specification"),
    ("tools/t.py:1", "outside the repository"),
]


def self_test():
    """The checker on a small bad tree: exactly the expected findings."""
    with tempfile.TemporaryDirectory() as root:
        for name, text in SELF_TEST.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        found = check(root)
    errors = []
    for at, what in SELF_EXPECT:
        if not any(f.startswith(at + ":") and what in f for f in found):
            errors.append("self-test: missed %s (%s)" % (at, what))
    if len(found) != len(SELF_EXPECT):
        errors.append("self-test: %d findings, expected %d:\n  %s" % (len(found), len(SELF_EXPECT),
                                                                      "\n  ".join(found)))
    return errors


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    failures = self_test()
    if failures:
        print("\n".join(failures))
        return 1
    found = check(root)
    for f in found:
        print(f)
    if found:
        print("check_citations: %d finding(s); cite docs/decisions.md#anchor, a docs page, or a "
              "published document by name" % len(found))
        return 1
    print("check_citations: comments and docs cite only what is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
