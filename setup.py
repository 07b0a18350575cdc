"""Builds the Python module floe with the repository's CMake (-DFLOE_PYTHON=ON)
and installs python/floe with it: `pip install --no-build-isolation .`
(docs/python.md, "Install"). Needs cmake, a C compiler, libyaml-dev, libqhull-dev,
libhdf5-dev, python3-dev and python3-numpy (tools/ensure-deps.sh)."""
import os
import shutil
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
WORKS = "/usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation ."


def check_interpreter():
    """Stops before anything is built, naming the interpreter and what it
    lacks, when this python cannot build floe: a python3 that is not
    Debian's (pyenv, conda, a venv of one) sees neither Debian's numpy nor
    its wheel package (pip then fails with "invalid command 'bdist_wheel'")."""
    missing = []
    for module, package in (("numpy", "python3-numpy"), ("setuptools", "python3-setuptools"),
                            ("wheel", "python3-wheel")):
        try:
            __import__(module)
        except ImportError:
            missing.append((module, package))
    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        missing.append(("Python.h (the C API headers)", "python3-dev"))
    if not missing:
        return
    debian = sys.base_prefix == "/usr"  # /usr/bin/python3, or a venv made from it
    what = ", ".join(m for m, _ in missing)
    msg = "floe: pip builds floe with %s (Python %s), which lacks %s.\n" % (sys.executable, sys.version.split()[0], what)
    if debian:
        msg += "Install Debian's packages, then run pip again:\n  sudo apt-get install %s\n" % " ".join(
            p for _, p in missing)
    else:
        msg += ("This python3 is not Debian's (pyenv, conda, or a venv made from one): it does not see Debian's\n"
                "python3-numpy, which floe's module is built against. The command that works on Debian 12:\n"
                "  %s\n"
                "(or give this interpreter what it lacks: %s -m pip install numpy setuptools wheel, then\n"
                "pip install --no-build-isolation . again)\n" % (WORKS, sys.executable))
    sys.exit(msg)


check_interpreter()

from setuptools import Extension, setup  # noqa: E402
from setuptools.command.build_ext import build_ext  # noqa: E402


class CMakeBuild(build_ext):
    """The extension floe._floe is CMake's target floe_python."""

    def build_extension(self, ext):
        build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        os.makedirs(build, exist_ok=True)
        cfg = ["cmake", "-S", HERE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DFLOE_PYTHON=ON",
               "-DPython3_EXECUTABLE=" + sys.executable]
        subprocess.check_call(cfg)
        jobs = os.environ.get("JOBS", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", build, "--target", "floe_python", "-j", jobs])
        built = os.path.join(build, "python", "floe")
        so = [f for f in os.listdir(built) if f.startswith("_floe") and f.endswith(".so")]
        if len(so) != 1:
            raise RuntimeError("floe: CMake built %r in %s, expected one _floe*.so" % (so, built))
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.join(built, so[0]), dest)
        # the interpreter and numpy the module was built for, named when another imports it
        shutil.copyfile(os.path.join(built, "_build.py"), os.path.join(os.path.dirname(dest), "_build.py"))


def floe_version():
    """FLOE_VERSION of include/floe/floe.h: the package's version is the library's."""
    import re

    with open(os.path.join(HERE, "include", "floe", "floe.h")) as f:
        return re.search(r'^#define FLOE_VERSION "([^"]+)"', f.read(), re.M).group(1)


setup(
    version=floe_version(),
    packages=["floe"],
    package_dir={"floe": "python/floe"},
    ext_modules=[Extension("floe._floe", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
