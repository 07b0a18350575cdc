"""Set-up on a user's own Python (docs/python.md, "Install"): with a
python3 that is not Debian's (pyenv, conda, a venv of one), which sees
neither Debian's numpy nor its wheel package, `pip install
--no-build-isolation .` stops before building, naming the interpreter,
what it lacks and the command that works; and importing the build tree's
module with it names the interpreter the module was built for. When this
machine has no such python3, an interpreter without site-packages
(/usr/bin/python3 -S, no numpy) stands in for it."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD_PY = pathlib.Path(os.environ.get("PYTHONPATH", ROOT / "build" / "python").split(os.pathsep)[0])
WORKS = "/usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation ."


def foreign_python():
    """A python3 on PATH (or pyenv's) that is not Debian's and has no numpy, or None."""
    path = os.environ.get("PATH", "") + os.pathsep + os.path.expanduser("~/.pyenv/shims")
    for cand in (shutil.which("python3", path=path),):
        if not cand:
            continue
        r = subprocess.run([cand, "-c", "import sys; print(sys.base_prefix); import numpy"], capture_output=True,
                           text=True)
        if r.stdout.strip() and r.stdout.strip() != "/usr" and r.returncode != 0:
            return cand
    return None


FOREIGN = foreign_python()


def clean_env():
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # nothing is fetched: the build must stop before needing anything
    return env


def test_pip_install_stops_early_naming_the_interpreter(tmp_path):
    if FOREIGN:
        # the README's line with this python3 first: a venv of it seeing its site-packages (pip
        # included: --without-pip saves the 15 s of ensurepip), then pip install
        venv = tmp_path / "venv"
        subprocess.run([FOREIGN, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
        py = str(venv / "bin" / "python3")
        cmd = [py, "-m", "pip", "install", "--no-build-isolation", "--no-deps", str(ROOT)]
    else:
        py = "/usr/bin/python3"
        cmd = [py, "-S", str(ROOT / "setup.py"), "--name"]
    egg = ROOT / "floe.egg-info"  # an earlier install of the tree may have left one
    before = egg.stat().st_mtime_ns if egg.exists() else None
    r = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(), cwd=tmp_path, timeout=300)
    text = r.stdout + r.stderr
    assert r.returncode != 0
    assert "floe: pip builds floe with %s" % py in text and "which lacks numpy" in text, text
    if FOREIGN:
        assert "lacks numpy, wheel" in text and "is not Debian's" in text and WORKS in text, text
    else:
        assert "sudo apt-get install python3-numpy" in text, text
    # stopped before setuptools wrote anything
    assert (egg.stat().st_mtime_ns if egg.exists() else None) == before


def test_import_with_another_interpreter_names_the_one_it_was_built_for():
    cmd = [FOREIGN, "-c", "import floe"] if FOREIGN else ["/usr/bin/python3", "-S", "-c", "import floe"]
    env = clean_env()
    env["PYTHONPATH"] = str(BUILD_PY)
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: floe: ") and " has no numpy. floe's module in " in last, last
    assert "was built for %s with numpy " % sys.executable in last or "was built for /usr/bin/python3" in last
    assert "-m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation ." in last
