#!/bin/bash
# Compares two floe_bench builds on one scene, 1 thread each, both at the
# same time: A on one core and B on the other, the cores swapped every
# round. This machine's speed wanders by 15-40 % from minute to minute
# (docs/performance.md#machine), so runs one after the other compare
# moments as much as builds; run side by side, both see the same moment,
# and swapping the cores cancels a core that is slower than the other
# (the geometric mean of the rounds' ratios). Two copies of one build read
# 0.99-1.01. Each run has a whole core only if nothing else runs.
#
# usage: bench/ab_pair.sh SCENE WARMUP STEPS ROUNDS BENCH_A BENCH_B
#   SCENE a scene file; BENCH_A, BENCH_B floe_bench binaries
#   (bench/run.sh builds one in build-release/)
# prints each round's loop seconds (A B) and the geometric mean of B/A:
# below 1, B is faster.
set -u
if [ $# -ne 6 ]; then
  sed -n 2,16p "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
scene=$1 warm=$2 steps=$3 rounds=$4 A=$5 B=$6
for f in "$scene" "$A" "$B"; do [ -e "$f" ] || { echo "ab_pair: $f: no such file" >&2; exit 2; }; done
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
loop_s() { grep -o 'loop_s=[0-9.]*' "$1" | head -1 | cut -d= -f2; }
for i in $(seq "$rounds"); do
  ca=$((i % 2)) cb=$((1 - i % 2))
  taskset -c $ca "$A" "$scene" --threads 1 --warmup "$warm" --steps "$steps" >"$out/a" 2>&1 &
  taskset -c $cb "$B" "$scene" --threads 1 --warmup "$warm" --steps "$steps" >"$out/b" 2>&1 &
  wait
  a=$(loop_s "$out/a") b=$(loop_s "$out/b")
  if [ -z "$a" ] || [ -z "$b" ]; then
    echo "ab_pair: round $i: a run gave no loop time:" >&2
    tail -2 "$out/a" "$out/b" >&2
    exit 1
  fi
  echo "$a $b"
done | awk '{print; l += log($2 / $1); n++}
  END {if (n) printf "B/A geometric mean %.3f over %d rounds (cores swapped each round)\n", exp(l / n), n}'
