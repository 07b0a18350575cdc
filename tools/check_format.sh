#!/bin/sh
# Checks that every C file of floe is formatted by .clang-format (the style
# of the repository). With --fix, formats them in place instead.
# usage: tools/check_format.sh [--fix] [REPO]   (CTest runs it as check_format)
set -eu
fix=0
[ "${1:-}" = "--fix" ] && { fix=1; shift; }
cd "${1:-$(dirname "$0")/..}"
cf=""
for c in clang-format-14 clang-format; do command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }; done
if [ -z "$cf" ]; then
  echo "check_format: clang-format is not installed (tools/ensure-deps.sh installs it: apt-get install clang-format)" >&2
  exit 1
fi
# examples/ stay as written: the README quotes them verbatim
files=$(find src app include tests bench python -name '*.c' -o -name '*.h' | sort)
if [ $fix -eq 1 ]; then
  echo "$files" | xargs "$cf" -i
  exit 0
fi
if ! echo "$files" | xargs "$cf" --dry-run --Werror 2>/tmp/check_format.$$; then
  grep -m 20 "error:" /tmp/check_format.$$ >&2 || true
  echo "check_format: files above are not in the repository's style; run tools/check_format.sh --fix" >&2
  rm -f /tmp/check_format.$$
  exit 1
fi
rm -f /tmp/check_format.$$
echo "check_format: $(echo "$files" | wc -l) files in style"
