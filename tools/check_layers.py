#!/usr/bin/env python3
"""Checks floe's layering (docs/architecture.md): every #include and every
use of a function or global defined in another source file.

    api <- base <- geometry <- models <- shapes <- core <- pack <- io <- mpi <- app <- python

A file's layer comes from its folder (src/base, src/l6geom, ...), except
the files listed in FILE_LAYER. Rules, each reported as file:line:
  1. no upward include: a file includes only headers of its own layer or
     of a lower one (so models never include shapes, nothing below io
     includes io);
  2. no upward use: a .c file calls or reads only what .c files of its own
     layer or a lower one define (a header of a low layer must not hide a
     call into a higher one);
  3. no cycle between files, counting x.h and x.c as one unit and both
     #includes and uses of functions as links (x.c includes y.h and y.c
     uses a function of x.c, directly or through others);
  4. models behind their seam: outside src/models a file includes no
     models header but model.h and uses nothing a model file defines
     except through the registry (src/models/registry.c) and the
     materials (src/models/material.c), so the core names no model;
  5. public faces: the I/O library, the distributed layer, the command line
     and the Python module (io, mpi, app, python) include from the engine only the public headers
     (include/floe) and src/base, and use of the engine (geometry, models,
     shapes, core, pack) only what those public headers declare; so
     libfloe exports its API alone and libfloe-io links against it.

usage: tools/check_layers.py [ROOT]   (default: the repository of this script)
Exit 0 when the tree is clean, 1 with one line per violation. A self-test on
a small tree held in memory runs first, so a checker that stopped seeing
violations fails too. Python 3 standard library only.
"""
import os
import re
import sys

# Lowest first. Folders map to layers; FILE_LAYER overrides single files.
LAYERS = ["api", "base", "geometry", "models", "shapes", "core", "pack", "io", "mpi", "app", "python"]
FOLDER_LAYER = {
    "include/floe": "api",
    "src/base": "base",
    "src/l6geom": "geometry",
    "src/models": "models",
    "src/shapes": "shapes",
    "src/core": "core",
    "src/pack": "pack",
    "src/io": "io",
    "src/mpi": "mpi",
    "app": "app",
    "python/floe": "python",
}
FILE_LAYER = {
    # The public I/O header belongs with the I/O library.
    "include/floe/floe_io.h": "io",
}
# Rule 4: the models' face to the rest of the code.
MODELS_DIR = "src/models"
MODEL_SEAM = {"src/models/model.h", "src/models/registry.c", "src/models/material.c"}
SCANNED = ("src", "app", "include", "python")
# Rule 5: the layers that reach the engine through its public headers only,
# and the engine's layers behind them (base is shared: linked into both
# libraries).
FACE_USERS = {"io", "mpi", "app", "python"}
BEHIND_FACES = {"geometry", "models", "shapes", "core", "pack"}
PUBLIC_DIR = "include/floe"
SEARCH = ("src", "include")  # include paths, as the build passes them (-I)
RANK = {name: i for i, name in enumerate(LAYERS)}


def layer_of(path):
    if path in FILE_LAYER:
        return FILE_LAYER[path]
    folder = os.path.dirname(path)
    while folder:
        if folder in FOLDER_LAYER:
            return FOLDER_LAYER[folder]
        folder = os.path.dirname(folder)
    return None


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
TOKEN = re.compile(r'[A-Za-z_]\w*|[=!<>]=|[{}();=,\[\]]')


def strip(text):
    """Text without comments, string and character literals and preprocessor
    lines (each replaced by spaces or newlines, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n" or text[:i].rstrip(" \t").endswith("\n")):
            j = i
            while True:  # a directive with its continuation lines
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def definitions(code):
    """Names of the functions and global variables a .c file defines with
    external linkage (not static), from its code without comments."""
    names, stmt, depth = set(), [], 0
    for tok in TOKEN.findall(code):
        if depth > 0:
            depth += tok == "{"
            depth -= tok == "}"
            continue
        if tok == "{" or tok == ";":
            words = [t for t in stmt if re.match(r"[A-Za-z_]", t)]
            skip = {"static", "typedef", "extern", "struct", "enum", "union", "_Static_assert"}
            if words and not (skip & set(words[:3])) or (words and words[0] in ("const", "volatile")):
                if "=" in stmt:
                    before = stmt[:stmt.index("=")]
                    cut = before.index("[") if "[" in before else len(before)
                    name = [t for t in before[:cut] if re.match(r"[A-Za-z_]", t)]
                    if name and "static" not in words:
                        names.add(name[-1])
                elif "(" in stmt and tok == "{":
                    k = stmt.index("(")
                    while k > 0 and stmt[k - 1] == "(":
                        k -= 1
                    if k > 0 and re.match(r"[A-Za-z_]", stmt[k - 1]) and "static" not in words:
                        names.add(stmt[k - 1])
                elif "(" not in stmt and tok == ";" and len(words) >= 2 and "static" not in words:
                    cut = stmt.index("[") if "[" in stmt else len(stmt)
                    names.add([t for t in stmt[:cut] if re.match(r"[A-Za-z_]", t)][-1])
            stmt = []
            if tok == "{":
                depth = 1
            continue
        stmt.append(tok)
    names.discard("main")
    return names


def resolve(files, path, quote, name):
    """The scanned file an include names, or None (a system header)."""
    cands = ([os.path.normpath(os.path.join(os.path.dirname(path), name))] if quote == '"' else [])
    cands += [os.path.normpath(os.path.join(d, name)) for d in SEARCH]
    for cand in cands:
        if cand in files:
            return cand
    return None


def cycles(graph):
    """Per strongly connected component of more than one node (Tarjan,
    iterative): a shortest cycle through its first node (first node repeated
    at the end) and the component's nodes."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    result = []
    for comp in comps:  # a shortest way back to the first node, for the message
        members, start = set(comp), comp[0]
        prev, frontier = {start: None}, [start]
        while frontier and start not in [n for f in frontier for n in graph[f] if n == start]:
            nxt = []
            for f in frontier:
                for n in sorted(graph[f]):
                    if n in members and n not in prev:
                        prev[n] = f
                        nxt.append(n)
            frontier = nxt
        last = next(f for f in frontier if start in graph[f])
        path = [start]
        while last is not None:
            path.append(last)
            last = prev[last]
        result.append((path[::-1], comp))
    return result


def behind_seam(path):
    """A model's own file (rule 4): in src/models, not on the seam (MODEL_SEAM)."""
    return os.path.dirname(path) == MODELS_DIR and path not in MODEL_SEAM


def unit(path):
    """x.h and x.c as one: the path without its extension."""
    return os.path.splitext(path)[0]


def first_file(files, u):
    return next(p for p in (u + ".c", u + ".h") if p in files)


def also(cyc, comp):
    """The other files caught in the same knot of cycles, as a message tail."""
    rest = [p for p in comp if p not in cyc]
    return f" (tied up with it: {', '.join(rest)})" if rest else ""


def check(files):
    """Violations in `files` (path relative to the root -> text), as
    'file:line: rule: ...' lines."""
    errors = []
    includes = {p: set() for p in files}
    code = {p: strip(t) for p, t in files.items()}
    for path, text in sorted(files.items()):
        lay = layer_of(path)
        for m in INCLUDE.finditer(text):
            target = resolve(files, path, m.group(1), m.group(2))
            if target is None:
                continue
            line = text.count("\n", 0, m.start()) + 1
            includes[path].add(target)
            tl = layer_of(target)
            if lay and tl and RANK[tl] > RANK[lay]:
                errors.append(f"{path}:{line}: upward include: {path} (layer {lay}) includes {target} "
                              f"(layer {tl}); a file includes only its own layer or lower ones "
                              f"({' <- '.join(LAYERS)})")
            if lay in FACE_USERS and tl in BEHIND_FACES:
                errors.append(f"{path}:{line}: behind the public faces: {path} (layer {lay}) includes {target} "
                              f"(layer {tl}); {', '.join(sorted(FACE_USERS))} include from the engine only "
                              f"{PUBLIC_DIR}/*.h and src/base/*.h")
            if behind_seam(target) and not behind_seam(path) and os.path.dirname(path) != MODELS_DIR:
                errors.append(f"{path}:{line}: model named outside the seam: {path} includes {target}; outside "
                              f"{MODELS_DIR} only model.h is included, models are reached through the registry")
    sources = sorted(p for p in files if p.endswith(".c"))
    owner, clash = {}, set()
    for path in sources:
        for name in definitions(code[path]):
            if name in owner:
                clash.add(name)
            owner[name] = path
    for name in clash:  # defined twice: not ours to judge here (the linker does)
        del owner[name]
    uses = {p: set() for p in sources}
    public = set()  # names the public headers declare (rule 5)
    for path in files:
        if os.path.dirname(path) == PUBLIC_DIR:
            public.update(re.findall(r"([A-Za-z_]\w*)\s*\(", code[path]))
    for path in sources:
        lay = layer_of(path)
        seen = set()
        for lineno, line in enumerate(code[path].split("\n"), 1):
            for name in re.findall(r"[A-Za-z_]\w*", line):
                target = owner.get(name)
                if target is None or target == path:
                    continue
                uses[path].add(target)
                if behind_seam(target) and os.path.dirname(path) != MODELS_DIR and name not in seen:
                    seen.add(name)
                    errors.append(f"{path}:{lineno}: model named outside the seam: {path} uses {name}, defined "
                                  f"in {target}; outside {MODELS_DIR} models are reached through the registry")
                tl = layer_of(target)
                if lay and tl and RANK[tl] > RANK[lay] and name not in seen:
                    seen.add(name)
                    errors.append(f"{path}:{lineno}: upward use: {path} (layer {lay}) uses {name}, defined "
                                  f"in {target} (layer {tl})")
                if lay in FACE_USERS and tl in BEHIND_FACES and name not in public and name not in seen:
                    seen.add(name)
                    errors.append(f"{path}:{lineno}: behind the public faces: {path} (layer {lay}) uses {name}, "
                                  f"defined in {target} (layer {tl}) and declared in no header of {PUBLIC_DIR}")
    # Cycles: a header and the .c of the same name are one unit (x.h
    # declares what x.c defines), linked by includes and by uses.
    graph = {}
    for src, targets in list(includes.items()) + list(uses.items()):
        graph.setdefault(unit(src), set())
        for t in targets:
            graph.setdefault(unit(t), set())
            if unit(t) != unit(src):
                graph[unit(src)].add(unit(t))
    for cyc, comp in cycles(graph):
        steps = " -> ".join(cyc)
        errors.append(f"{first_file(files, cyc[0])}:1: cycle between files (x.h and x.c count as one; an "
                      f"arrow is an #include or a use of a function or global): {steps}{also(cyc, comp)}")
    return errors


def load(root):
    files = {}
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".c", ".h")):
                    full = os.path.join(dirpath, name)
                    with open(full, encoding="utf-8", errors="replace") as f:
                        files[os.path.relpath(full, root)] = f.read()
    return files


def self_test():
    """The checker on a tiny tree with one violation of each kind, and on
    the same tree without them. Returns a list of failures."""
    clean = {
        "include/floe/floe.h": "typedef struct floe_world floe_world;\n",
        "src/base/vec.h": "#include <floe/floe.h>\nstatic inline double twice(double x) { return 2 * x; }\n",
        "src/l6geom/geom.h": '#include "base/vec.h"\ndouble gap(double a);\n',
        "src/l6geom/geom.c": '#include "l6geom/geom.h"\ndouble gap(double a) { return twice(a); }\n',
        "src/models/model.h": '#include "l6geom/geom.h"\n',
        "src/shapes/shape.h": '#include "models/model.h"\n',
        "src/core/world.h": '#include "shapes/shape.h"\nint helper(void);\n',
        "src/core/a.c": '#include "core/world.h"\n/* b_fn( */ int helper(void) { return (int)gap(1); }\n',
        "src/core/b.c": '#include "core/world.h"\nint b_fn(void) { return helper(); }\n',
        "src/io/scene.c": '#include <floe/floe.h>\n#include <stdio.h>\nint load(void) { return b_fn(); }\n',
    }
    clean["include/floe/floe.h"] += "int b_fn(void);\n"
    bad = dict(clean)
    bad["src/l6geom/geom.h"] = '#include "base/vec.h"\n#include "shapes/shape.h"\ndouble gap(double a);\n'
    bad["src/models/m.c"] = '#include "models/model.h"\n#include "shapes/shape.h"\n'
    bad["src/core/a.c"] = '#include "core/world.h"\nint helper(void) { return b_fn(); }\n'
    bad["src/core/x.h"] = '#include "core/y.h"\n'
    bad["src/core/y.h"] = '#include "core/x.h"\n'
    bad["src/core/z.h"] = "int z(void);\n"  # z.c includes zz.h, zz.c uses z.c: one unit each
    bad["src/core/z.c"] = '#include "core/zz.h"\nint z(void) { return 0; }\n'
    bad["src/core/zz.h"] = "int zz(void);\n"
    bad["src/core/zz.c"] = '#include "core/z.h"\nint zz(void) { return z(); }\n'
    bad["src/shapes/s.c"] = '#include "shapes/shape.h"\nint s(void) { return load(); }\n'
    bad["src/models/lin.h"] = '#include "models/model.h"\n'
    bad["src/models/lin.c"] = '#include "models/lin.h"\nint lin_law(void) { return 1; }\n'
    bad["src/core/c.c"] = '#include "models/lin.h"\nint c_fn(void) { return lin_law(); }\n'
    bad["src/io/out.c"] = '#include "core/world.h"\nint out(void) { return helper(); }\n'
    failures = []
    got = check(clean)
    if got:
        failures.append("clean tree reported: " + "; ".join(got))
    got = "\n".join(check(bad))
    expect = [
        "src/l6geom/geom.h:2: upward include: src/l6geom/geom.h (layer geometry) includes src/shapes/shape.h",
        "src/models/m.c:2: upward include: src/models/m.c (layer models) includes src/shapes/shape.h",
        "src/core/x.h:1: cycle between files (x.h and x.c count as one; an arrow is an #include or a use of a "
        "function or global): src/core/x -> src/core/y -> src/core/x",
        "src/core/a.c:1: cycle between files (x.h and x.c count as one; an arrow is an #include or a use of a "
        "function or global): src/core/a -> src/core/b -> src/core/a",
        "src/core/z.c:1: cycle between files (x.h and x.c count as one; an arrow is an #include or a use of a "
        "function or global): src/core/z -> src/core/zz -> src/core/z",
        "src/shapes/s.c:2: upward use: src/shapes/s.c (layer shapes) uses load, defined in src/io/scene.c",
        "src/core/c.c:1: model named outside the seam: src/core/c.c includes src/models/lin.h",
        "src/core/c.c:2: model named outside the seam: src/core/c.c uses lin_law, defined in src/models/lin.c",
        "src/io/out.c:1: behind the public faces: src/io/out.c (layer io) includes src/core/world.h (layer core)",
        "src/io/out.c:2: behind the public faces: src/io/out.c (layer io) uses helper, defined in src/core/a.c "
        "(layer core) and declared in no header of include/floe",
    ]
    for e in expect:
        if e not in got:
            failures.append(f"missed: {e}")
    return failures


def main(argv):
    failures = self_test()
    if failures:
        for f in failures:
            print(f"check_layers self-test: {f}", file=sys.stderr)
        return 1
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = load(root)
    unplaced = sorted(p for p in files if layer_of(p) is None)
    errors = [f"{p}:1: no layer: add its folder to FOLDER_LAYER in tools/check_layers.py" for p in unplaced]
    errors += check(files)
    for e in errors:
        print(e)
    if errors:
        print(f"check_layers: {len(errors)} violation(s) of the layering (docs/architecture.md)", file=sys.stderr)
        return 1
    print(f"check_layers: {len(files)} files, layers {' <- '.join(LAYERS)}: no upward include, no upward use, "
          "no cycle, no model named outside its seam")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
