#!/bin/sh
# Installs the Debian packages floe needs, if any is missing.
# usage: tools/ensure-deps.sh [extra packages...]   (make demo adds python3-matplotlib python3-numpy)
set -eu
pkgs="gcc make cmake python3 clang-format libyaml-dev libhdf5-dev $*"
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
