#!/bin/sh
# Whether two floe binaries write byte-identical outputs: every example (and
# any extra scenes given) run for a few hundred steps with each, then every
# output file compared (the run's log and wall-clock fields excluded).
# Used to show that a restructuring leaves every result unchanged.
# usage: tools/same_outputs.sh OLD_FLOE NEW_FLOE [STEPS] [SCENE ...]
#   e.g. git worktree add /tmp/ref main && (cd /tmp/ref && make build)
#        tools/same_outputs.sh /tmp/ref/build/floe build/floe 300
set -eu
old=$(realpath "$1")
new=$(realpath "$2")
steps="${3:-300}"
[ $# -ge 3 ] && shift 3 || shift 2
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for scene in examples/*.yaml "$@"; do
  name=$(basename "$scene" .yaml)
  for side in old new; do
    eval bin=\$$side
    # run from the scene's folder so relative paths (STL files) resolve alike
    rc=0
    (cd "$(dirname "$scene")" && "$bin" run "$(basename "$scene")" --out "$work/$side-$name" --threads 1 \
      --steps "$steps" >"$work/$side-$name.log" 2>&1) || rc=$?
    echo "$rc" >"$work/$side-$name.status"
  done
  if ! cmp -s "$work/old-$name.status" "$work/new-$name.status"; then
    echo "$name: the runs end with status $(cat "$work/old-$name.status") against $(cat "$work/new-$name.status")"
    fail=1
  fi
  # every file but the log and the timing fields of run.json
  diffs=$(cd "$work" && find "old-$name" -type f | sort | while read -r f; do
    g="new-${f#old-}"
    case "$f" in *.log | */.floe.lock) continue ;; esac
    if [ "${f##*/}" = run.json ]; then
      grep -v -E '"(wall|seconds|rate|started|finished|host|threads_used|cpu)[a-z_]*"' "$f" >"$work/a.json"
      grep -v -E '"(wall|seconds|rate|started|finished|host|threads_used|cpu)[a-z_]*"' "$g" >"$work/b.json" 2>/dev/null || :
      cmp -s "$work/a.json" "$work/b.json" || echo "$f"
    else
      cmp -s "$f" "$g" || echo "$f"
    fi
  done)
  n_old=$(find "$work/old-$name" -type f 2>/dev/null | wc -l)
  n_new=$(find "$work/new-$name" -type f 2>/dev/null | wc -l)
  if [ -n "$diffs" ] || [ "$n_old" != "$n_new" ]; then
    echo "$name: DIFFERENT ($n_old files against $n_new):"
    echo "$diffs" | sed 's/^/  /'
    fail=1
  else
    echo "$name: identical ($n_old files)"
  fi
done
exit $fail
