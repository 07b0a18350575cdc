"""Builds the Python module floe with the repository's CMake (-DFLOE_PYTHON=ON)
and installs python/floe with it: `pip install --no-build-isolation .`
(docs/python.md, "Install"). Needs cmake, a C compiler, libyaml-dev, libqhull-dev,
libhdf5-dev, python3-dev and python3-numpy (tools/ensure-deps.sh)."""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


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


setup(
    packages=["floe"],
    package_dir={"floe": "python/floe"},
    ext_modules=[Extension("floe._floe", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
