#!/bin/sh
# Threads beside a busy process (docs/performance.md, "Two threads under load").
# Wall time of `floe run examples/ice-floe.yaml --steps N` on 1 and 2 threads,
# on a quiet machine and with a competing busy process (one shell loop, not
# pinned), with the OpenMP wait policy the CLI uses (passive: it sets
# OMP_WAIT_POLICY=passive when the user has not set it) and with libgomp's own
# default (threads spin 300000 times before they sleep: GOMP_SPINCOUNT=300000,
# which the CLI leaves alone). A benchmark, not a test: run it on a machine
# that is otherwise idle, or say what else was running.
#
# usage: bench/busy_threads.sh [FLOE] [STEPS]   (defaults: build/floe 3000; run from the repository root)
set -eu
floe=${1:-build/floe}
steps=${2:-3000}
scene=examples/ice-floe.yaml
[ -x "$floe" ] || { echo "busy_threads.sh: no floe at $floe (make build first)" >&2; exit 2; }
[ -f "$scene" ] || { echo "busy_threads.sh: run from the repository root ($scene not found)" >&2; exit 2; }
out=$(mktemp -d)
busy=""
stop_busy() { if [ -n "$busy" ]; then kill "$busy" 2>/dev/null || true; wait "$busy" 2>/dev/null || true; fi; busy=""; }
trap 'stop_busy; rm -rf "$out"' EXIT INT TERM

# time_run THREADS POLICY: wall seconds of one run
time_run() {
  if [ "$2" = passive ]; then set -- "$1" env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT
  else set -- "$1" env -u OMP_WAIT_POLICY GOMP_SPINCOUNT=300000; fi
  t=$1
  shift
  a=$(date +%s.%N)
  "$@" "$floe" run "$scene" --out "$out/run" --steps "$steps" --threads "$t" >"$out/log" 2>&1 ||
    { cat "$out/log" >&2; exit 1; }
  b=$(date +%s.%N)
  echo "$a $b" | awk '{printf "%.2f", $2 - $1}'
}

echo "floe run $scene --steps $steps, wall time [s]; $(nproc) cores, load average now: $(cut -d' ' -f1 /proc/loadavg)"
printf '%-8s %-28s %10s %14s\n' threads "OpenMP wait" quiet "busy process"
for case in "1 passive" "2 passive" "2 spin"; do
  set -- $case
  quiet=$(time_run "$1" "$2")
  sh -c 'while :; do :; done' &
  busy=$!
  loaded=$(time_run "$1" "$2")
  stop_busy
  label="passive (the CLI's default)"
  [ "$2" = spin ] && label="spin (libgomp's default)"
  printf '%-8s %-28s %10s %14s\n' "$1" "$label" "$quiet" "$loaded"
done
