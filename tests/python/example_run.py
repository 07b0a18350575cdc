"""Runs a Python example (examples/python, docs/python-examples.md) in its
short form (--quick) in a temporary directory, for the test_example_*.py
files: each example is its own CTest case (python_test_example_NAME), with
its own time limit.

The docs quote the numbers of the quick forms too: each run must give the
numbers docs/numbers/ex_NAME.json was made from (its digest of the --quick
JSON, tools/doc_numbers_lib.py), else the docs are stale
(docs/decisions.md, "Numbers in the docs come from one command")."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = pathlib.Path(os.environ.get("FLOE_EXAMPLES", ROOT / "examples")) / "python"
sys.path.insert(0, str(ROOT / "tools"))
import doc_numbers_lib  # noqa: E402


def check_doc_numbers(name, data):
    """The quick form's numbers are those docs/numbers/ex_NAME.json was made
    from (not under the sanitizers: a Debug build, which the numbers are not for)."""
    if os.environ.get("FLOE_SANITIZED") == "1":
        return
    rec = json.loads((ROOT / "docs" / "numbers" / ("ex_%s.json" % name)).read_text())["quick"]
    got = doc_numbers_lib.quick_digest(data, rec["drop"])
    assert got == rec["digest"], (
        "%s --quick gives other numbers than docs/numbers/ex_%s.json was made from (the engine or the example "
        "changed): make doc-numbers ONLY=ex_%s" % (name, name, name))


def run_example(name, tmp_path, *extra):
    """Runs examples/python/NAME.py --quick in tmp_path; it must exit 0 and
    write its PNG. Returns the numbers it wrote as JSON, and its output."""
    png, js = tmp_path / (name + ".png"), tmp_path / (name + ".json")
    cmd = [sys.executable, str(SCRIPTS / (name + ".py")), "--quick", "--png", str(png), "--json", str(js), *extra]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=590)
    assert r.returncode == 0, "%s failed:\n%s\n%s" % (name, r.stdout, r.stderr)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000, "%s: no plot" % name
    data = json.loads(js.read_text())
    check_doc_numbers(name, data)
    return data, r.stdout
