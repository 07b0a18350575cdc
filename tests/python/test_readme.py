"""The README's Python example runs as written (from the repository's root,
as the README's commands do), like tests/readme_example.sh checks the C one."""
import os
import re
import shutil
import subprocess
import sys

import floe
from conftest import ROOT


def test_readme_python_example_runs(tmp_path):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    # the example's relative paths, from a scratch copy of the root: out/ is written there
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(floe.__file__))))
    r = subprocess.run([sys.executable, "-c", blocks[0]], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("5000 ") and lines[3].startswith("20000 ")
    assert "contacts; energy balance error" in lines[4]
    assert (tmp_path / "out" / "state.h5").exists() and (tmp_path / "out" / "energy.csv").exists()
    shutil.rmtree(tmp_path / "out")
