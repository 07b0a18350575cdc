"""What tools/doc_numbers.py and tools/check_doc_numbers.py share: the doc
markers, how a number is formatted, the fingerprint of a source's runs.

A doc quotes a number a run produced through an invisible marker,

    <!--n:SOURCE.KEY-->68<!--/n-->          or, with a format of its own,
    <!--n:SOURCE.KEY:.2f-->10.15<!--/n-->

(HTML comments: GitHub and other Markdown viewers show only the text
between them). The text must be the value of KEY in docs/numbers/SOURCE.json
formatted by the marker's format, else by the one the JSON gives (an
exponent is written short: 7.8e-6, 3e5). A marker must not begin a line
(a comment there starts an HTML block); one in a code span or block is not
a marker but text, shown as it stands; a whole table is quoted as a block,

    <!--n:SOURCE.KEY-->

    | the table |

    <!--/n-->

its markers alone on their lines with a blank line on either side of it.
Formats are Python format specifications, with three additions:
',' groups thousands with a space (25 596), a trailing 'U' prints a minus
as U+2212 (−1.08), and the type 'S' is scientific notation as the docs
write it (6.0·10⁻⁷). Strings (a whole Markdown table, a word) are quoted
as they are. docs/decisions.md ("Numbers in the docs come from one
command") says why.

Python 3 standard library only.
"""
import hashlib
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBERS_DIR = os.path.join("docs", "numbers")

MARKER = re.compile(r"<!--n:([a-z0-9_]+)\.([A-Za-z0-9_.]+)(?::([^>]*?))?-->((?:(?!<!--).)*?)<!--/n-->", re.S)
OPENING = re.compile(r"<!--n:")
CLOSING = re.compile(r"<!--/n-->")
UMASK = os.umask(0)  # read once, at import, before any thread runs
os.umask(UMASK)
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def doc_files(root=ROOT):
    """README.md and every Markdown page under docs/, as paths relative to root."""
    out = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    for d, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        out += [os.path.relpath(os.path.join(d, f), root) for f in sorted(files) if f.endswith(".md")]
    return out


CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1")


def mask_code(text):
    """The text with its ``` blocks and `code spans` blanked (same length): a
    marker written there is shown as it stands, as the docs that describe the
    markers do."""
    lines = text.split("\n")
    inside = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            inside = not inside
            lines[i] = " " * len(line)
        elif inside:
            lines[i] = " " * len(line)
        else:
            lines[i] = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
    return "\n".join(lines)


def markers(text):
    """(line, source, key, format, quoted text, match) of every marker, and the
    lines of malformed ones (an opening without its closing, or the reverse).
    Code (``` blocks, `spans`) is not read."""
    found, bad = [], []
    spans = []
    masked = mask_code(text)
    for m in MARKER.finditer(masked):
        m = MARKER.match(text, m.start())
        line = text.count("\n", 0, m.start()) + 1
        found.append((line, m.group(1), m.group(2), m.group(3), m.group(4), m))
        spans.append((m.start(), m.end()))
    for pat, what in ((OPENING, "an opening <!--n:SOURCE.KEY--> without its <!--/n-->, or a malformed key"),
                      (CLOSING, "a closing <!--/n--> without its opening")):
        for m in pat.finditer(masked):
            if not any(a <= m.start() < b for a, b in spans):
                bad.append((text.count("\n", 0, m.start()) + 1, what))
    return found, bad


def fmt(value, spec):
    """The text a doc shows for a value (see the module's docstring)."""
    if isinstance(value, str):
        if spec:
            raise ValueError("a string takes no format")
        return value
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number: give the word as a string")
    if not spec:
        if isinstance(value, int):
            return str(value)
        raise ValueError("a float needs a format (in the JSON or the marker)")
    unicode_minus = spec.endswith("U")
    if unicode_minus:
        spec = spec[:-1]
    if spec.endswith("S"):  # 6.0·10⁻⁷
        mant, exp = format(value, spec[:-1] + "e").split("e")
        text = "%s·10%s" % (mant, str(int(exp)).translate(SUPERSCRIPT))
    else:
        text = format(value, spec)
        if "," in spec:
            text = text.replace(",", " ")
        if spec[-1:] in ("e", "g"):  # 7.8e-6, as the docs write it, not 7.8e-06
            text = re.sub(r"e([+-])0*(\d)", lambda m: "e" + m.group(1).replace("+", "") + m.group(2), text)
    if unicode_minus:
        text = text.replace("-", "\u2212")
    return text


def load_numbers(root=ROOT):
    """{source: the parsed docs/numbers/SOURCE.json}."""
    out = {}
    d = os.path.join(root, NUMBERS_DIR)
    if os.path.isdir(d):
        for f in sorted(os.listdir(d)):
            if f.endswith(".json"):
                with open(os.path.join(d, f)) as fh:
                    out[f[:-5]] = json.load(fh)
    return out


def render(entry, spec):
    return fmt(entry["value"], spec if spec else entry.get("format"))


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path, data):
    """Writes bytes or text to path through a temporary file in the same
    directory and a rename: a reader sees the old file or the new one."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(path) + ".")
    os.chmod(tmp, 0o666 & ~UMASK)  # mkstemp's 0600 is for secrets, not docs
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---- the fingerprint: the first steps of a source's scenes ----------------------------------


def probe_key(probe):
    """A probe as recorded in the JSON: its scene and its step count."""
    s = probe["scene"]
    scene = s if isinstance(s, str) else "%s:%s(%s)" % (s[0], s[1], json.dumps(s[2], sort_keys=True))
    return {"scene": scene, "steps": probe["steps"]}


def probe_scene(probe, root, workdir):
    """The scene file a probe runs: an example as it stands, or the text a
    study script's function writes (tools/SCRIPT.py:FUNCTION(**ARGS))."""
    s = probe["scene"]
    if isinstance(s, str):
        return os.path.join(root, s)
    import importlib.util
    import sys
    path = os.path.join(root, s[0])
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location("doc_probe_" + os.path.basename(path)[:-3], path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.pop(0)
    text = getattr(mod, s[1])(**s[2])
    if isinstance(text, tuple):  # (text, what the script reads back)
        text = text[0]
    scene = os.path.join(workdir, "scene.yaml")
    with open(scene, "w") as f:
        f.write(text)
    return scene


def run_probe(probe, floe, root, workdir):
    """Runs the probe's scene for its steps on one thread and returns the
    SHA-256 of every CSV file it wrote (the final state of particles and
    contacts to the last bit, the energy and history rows), name and bytes."""
    os.makedirs(workdir, exist_ok=True)
    floe = os.path.abspath(floe)
    scene = probe_scene(probe, root, workdir)
    out = os.path.join(workdir, "out")
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    r = subprocess.run([floe, "run", scene, "--out", out, "--threads", "1", "--steps", str(probe["steps"])],
                       cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("floe run %s --steps %d failed:\n%s" % (scene, probe["steps"], r.stderr[-2000:]))
    h = hashlib.sha256()
    for name in sorted(os.listdir(out)):
        if name.endswith(".csv"):
            h.update(name.encode() + b"\0")
            with open(os.path.join(out, name), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def quick_digest(data, drop):
    """SHA-256 of an example's --quick JSON without the keys that vary from
    run to run (at any depth): what its pytest case compares."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in drop}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return hashlib.sha256(json.dumps(strip(data), sort_keys=True).encode()).hexdigest()


def regenerate(source):
    return "make doc-numbers ONLY=%s" % source


def doc_markers(root, numbers):
    """Every marker of every doc with the text it should have:
    (file, line, source, key, spec, quoted, wanted or None, problem or None, match)."""
    out = []
    for rel in doc_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        found, bad = markers(text)
        for line, what in bad:
            out.append((rel, line, None, None, None, None, None, what, None))
        for line, src, key, spec, quoted, m in found:
            want, problem = None, None
            if src not in numbers:
                problem = "no docs/numbers/%s.json (a source of tools/doc_sources.py?)" % src
            elif key not in numbers[src]["numbers"]:
                problem = "docs/numbers/%s.json has no number %s" % (src, key)
            else:
                try:
                    want = render(numbers[src]["numbers"][key], spec)
                except (ValueError, TypeError) as e:
                    problem = "%s.%s cannot be formatted with %r: %s" % (src, key, spec, e)
            if want is not None and quoted.startswith("\n"):  # a block: alone on its lines
                want = "\n\n" + want + "\n\n"
            start = text.rfind("\n", 0, m.start()) + 1
            before = text[start:m.start()]
            if not before.strip() and not quoted.startswith("\n"):
                problem = ("a marker at the start of a line starts an HTML block (the rest of the line shows raw): "
                           "move it off the start of the line")
            out.append((rel, line, src, key, spec, quoted, want, problem, m))
    return out


def fill_docs(root, numbers=None):
    """Writes each marker's text from the JSON. Returns the changes
    (file, line, key, old, new) and the markers it could not fill."""
    numbers = load_numbers(root) if numbers is None else numbers
    changes, problems, edits = [], [], {}
    for rel, line, src, key, spec, quoted, want, problem, m in doc_markers(root, numbers):
        if problem:
            problems.append("%s:%d: %s" % (rel, line, problem))
        elif quoted != want:
            changes.append((rel, line, "%s.%s" % (src, key), quoted, want))
            edits.setdefault(rel, []).append((m, want))
    for rel, lst in edits.items():
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m, want in sorted(lst, key=lambda e: -e[0].start()):
            s, e = m.span(4)
            text = text[:s] + want + text[e:]
        write_atomic(path, text)
    return changes, problems
