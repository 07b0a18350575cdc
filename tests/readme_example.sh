#!/bin/sh
# README.md, "Using the library", run exactly as written: its C block must be
# examples/library/bounce.c; its sh block is run line by line in a scratch
# copy of the clone (symbolic links, with the README's C code as
# examples/library/bounce.c) with HOME in a scratch directory, so that
# `make install PREFIX=$HOME/.local` installs there; the program must print
# what the README's text block shows, including a landing and a bounce, and
# must not depend on libyaml, HDF5 or libfloe-io (the engine stands alone);
# every header of include/floe is installed.
# the installed floe's `floe render` starts.
# usage: readme_example.sh SOURCE_DIR BUILD_DIR   (BUILD_DIR: the build to install)
set -eu
src=$1
build=$2
readme=$src/README.md
work=$(mktemp -d "${TMPDIR:-/tmp}/floe-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "readme_example: $*" >&2; exit 1; }

# The first ```$1 block of the section "## Using the library".
block() {
  awk -v fence="\`\`\`$1" '
    /^## / { insec = ($0 == "## Using the library") }
    insec && !inb && $0 == fence { inb = 1; next }
    inb && /^```/ { exit }
    inb { print }' "$readme"
}

block c >"$work/example.c"
block sh >"$work/commands.sh"
block text >"$work/expected.txt"
[ -s "$work/example.c" ] || fail "README.md: no \`\`\`c block in \"Using the library\""
[ -s "$work/commands.sh" ] || fail "README.md: no \`\`\`sh block (the commands) in \"Using the library\""
[ -s "$work/expected.txt" ] || fail "README.md: no \`\`\`text block (the output) in \"Using the library\""
cmp -s "$work/example.c" "$src/examples/library/bounce.c" ||
  fail "README.md's example differs from examples/library/bounce.c"

# The scratch clone: everything linked, except examples/ (the README's code).
mkdir -p "$work/clone/examples/library" "$work/home"
for f in "$src"/* "$src"/.[!.]*; do
  [ -e "$f" ] || continue
  case ${f##*/} in examples|build*|out) continue ;; esac
  ln -s "$f" "$work/clone/${f##*/}"
done
cp "$work/example.c" "$work/clone/examples/library/bounce.c"

# BUILD: the build being tested (the Makefile's default is build/); no
# make job server of a calling make.
if ! (cd "$work/clone" &&
      env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL HOME="$work/home" BUILD="$build" \
        sh -eux "$work/commands.sh") >"$work/out.txt" 2>"$work/err.txt"; then
  cat "$work/err.txt" "$work/out.txt" >&2
  fail "the README's commands failed"
fi

# The program's output is the end of stdout (make install prints before it).
n=$(wc -l <"$work/expected.txt")
tail -n "$n" "$work/out.txt" >"$work/got.txt"
cat "$work/got.txt"
grep -q "lands at" "$work/got.txt" || fail "the bead never lands"
grep -q "bounce 1: leaves at" "$work/got.txt" || fail "the bead never bounces"
if ! cmp -s "$work/expected.txt" "$work/got.txt"; then
  diff "$work/expected.txt" "$work/got.txt" >&2 || true
  fail "the program's output differs from README.md's (< README, > program)"
fi
# The engine links without the I/O library and its dependencies.
if ldd "$work/clone/bounce" | grep -E 'libyaml|libhdf5|libfloe-io' >&2; then
  fail "the engine-only example pulls in I/O libraries (above): floe.pc must not"
fi
# Every public header is installed: a program may include any of them.
for h in "$src"/include/floe/*.h; do
  [ -f "$work/home/.local/include/floe/${h##*/}" ] || fail "make install left out include/floe/${h##*/}"
done
# `floe render` of the installed floe finds its renderer under the prefix.
[ -f "$work/home/.local/share/floe/render.py" ] ||
  fail "make install did not install share/floe/render.py, which floe render runs"
"$work/home/.local/bin/floe" render --help | grep -q "usage: floe render" ||
  fail "the installed floe render does not start"
echo "readme_example: README's example built, installed and ran as shown"
