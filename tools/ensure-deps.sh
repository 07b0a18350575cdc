#!/bin/sh
# Installs the Debian packages floe needs, if any is missing.
# usage: tools/ensure-deps.sh [extra packages...]
# The Python module (docs/python.md) needs python3-dev and python3-numpy, its
# tests python3-pytest (and, for the notebook test, python3-ipykernel,
# python3-jupyter-client, python3-nbclient, python3-nbformat), the pictures
# python3-matplotlib; `pip install .` in a venv python3-venv,
# python3-setuptools and python3-wheel; the distributed
# layer (docs/mpi.md) openmpi-bin and libopenmpi-dev.
set -eu
py="python3-dev python3-numpy python3-pytest python3-matplotlib python3-venv python3-setuptools python3-wheel"
py="$py python3-ipykernel python3-jupyter-client python3-nbclient python3-nbformat"
pkgs="gcc make cmake python3 clang-format libyaml-dev libhdf5-dev libqhull-dev openmpi-bin libopenmpi-dev $py $*"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "floe: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
elif command -v sudo >/dev/null 2>&1; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
else
  echo "floe: please install:$missing" >&2
  exit 1
fi
