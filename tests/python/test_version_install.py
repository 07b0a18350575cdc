"""One version and an installed manual (docs/python.md, README.md "Using
the library"): `floe --version`, the module's __version__, the library's
floe_version() (both report it), the pip package's version (setup.py),
floe.pc and the header's FLOE_VERSION are one string; `cmake --install`
(what `make install` runs) puts the man page, made from `floe --help`,
and the docs where the installed `floe --help` says they are."""
import os
import pathlib
import re
import subprocess

import floe
from conftest import CLI

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = CLI.parent


def test_every_version_is_the_library_s():
    header = re.search(r'^#define FLOE_VERSION "([^"]+)"', (ROOT / "include/floe/floe.h").read_text(), re.M).group(1)
    cli = subprocess.run([str(CLI), "--version"], capture_output=True, text=True, check=True).stdout
    pc = re.search(r"^Version: (\S+)", (BUILD / "floe.pc").read_text(), re.M).group(1)
    from floe import _build

    assert cli == "floe %s\n" % floe.__version__
    assert floe.__version__ == header == pc == _build.VERSION
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()  # pip's version: setup.py's, below
    assert "version=floe_version()" in (ROOT / "setup.py").read_text()


def test_install_puts_the_manual_where_help_points(tmp_path):
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(tmp_path)], check=True, capture_output=True)
    floe_bin = tmp_path / "bin" / "floe"
    helptext = subprocess.run([str(floe_bin), "--help"], capture_output=True, text=True, check=True).stdout
    docs = tmp_path / "share" / "doc" / "floe"
    assert "Manual: man floe." in helptext and "in %s/\n" % docs in helptext, helptext
    for f in ("scene-format.md", "outputs.md", "restart.md", "python.md", "models/softbond.md", "README.md"):
        assert (docs / f).is_file(), f
    assert not (docs / "numbers").exists()
    page = (tmp_path / "share" / "man" / "man1" / "floe.1").read_text()
    assert page.startswith('.TH FLOE 1 "" "floe %s"' % floe.__version__)
    for cmd in ("floe run SCENE", "floe resume DIR", "floe check SCENE", "\\-\\-restart\\-every N"):
        assert cmd in page, cmd
    # the page carries no path of this build: it names where make install puts the docs
    assert str(ROOT) not in page and "PREFIX/share/doc/floe/" in page
    env = dict(os.environ, MANPATH=str(tmp_path / "share" / "man"))
    r = subprocess.run(["man", "-P", "cat", "floe"], capture_output=True, text=True, env=env)
    if r.returncode == 0:  # man-db may be absent; the page's text is checked above
        assert "discrete element method engine" in r.stdout
