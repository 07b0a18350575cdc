"""Runs a Python example (examples/python, docs/python-examples.md) in its
short form (--quick) in a temporary directory, for the test_example_*.py
files: each example is its own CTest case (python_test_example_NAME), with
its own time limit."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = pathlib.Path(os.environ.get("FLOE_EXAMPLES", ROOT / "examples")) / "python"


def run_example(name, tmp_path, *extra):
    """Runs examples/python/NAME.py --quick in tmp_path; it must exit 0 and
    write its PNG. Returns the numbers it wrote as JSON, and its output."""
    png, js = tmp_path / (name + ".png"), tmp_path / (name + ".json")
    cmd = [sys.executable, str(SCRIPTS / (name + ".py")), "--quick", "--png", str(png), "--json", str(js), *extra]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=590)
    assert r.returncode == 0, "%s failed:\n%s\n%s" % (name, r.stdout, r.stderr)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000, "%s: no plot" % name
    return json.loads(js.read_text()), r.stdout
