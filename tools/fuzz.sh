#!/bin/sh
# Builds the libFuzzer harnesses with clang (ASan + UBSan) and runs each for
# FUZZ_TIME seconds (default 60) on a copy of its corpus in tests/fuzz/.
# A crash fails the script; its input is left in build-fuzz/artifacts/:
# add it to tests/fuzz/crashes/<target>/ so test_fuzz_regress (scene, stl)
# or test_restart_damaged_corpus (restart) replays it.
# FUZZ_SEED (default 1) fixes libFuzzer's random stream, so a run explores
# the same inputs wherever it runs, only as far as the machine's speed
# allows; FUZZ_SEED=0 draws a new stream each run (exploration).
# usage: tools/fuzz.sh [seconds]
set -eu
cd "$(dirname "$0")/.."
secs="${1:-${FUZZ_TIME:-60}}"
seed="${FUZZ_SEED:-1}"
cc="$(command -v clang-14 || command -v clang || true)"
if [ -z "$cc" ]; then
  echo "fuzz: clang is missing (Debian: clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
build="${FUZZ_BUILD:-build-fuzz}"
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DFLOE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_scene fuzz_stl fuzz_restart
mkdir -p "$build/artifacts"
rc=0
for t in scene stl restart; do
  work="$build/corpus-$t"
  mkdir -p "$work"
  cp tests/fuzz/corpus/$t/* "$work"/
  dict=""
  [ -f tests/fuzz/$t.dict ] && dict="-dict=tests/fuzz/$t.dict"
  # restart inputs are lists of 6-byte damage records: room for eight
  [ "$t" = restart ] && dict="$dict -max_len=60"
  echo "fuzz_$t: ${secs} s"
  if ! "$build/fuzz_$t" -max_total_time="$secs" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      $dict -artifact_prefix="$build/artifacts/$t-" "$work" >"$build/fuzz_$t.log" 2>&1; then
    rc=1
    tail -n 40 "$build/fuzz_$t.log" >&2
    echo "fuzz_$t FAILED: the input is in $build/artifacts/; add it to tests/fuzz/crashes/$t/" >&2
  fi
  grep -a -E "^Done [0-9]+ runs|stat::number_of_executed_units" "$build/fuzz_$t.log" | head -n 2
done
exit $rc
