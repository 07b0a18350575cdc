#!/bin/bash
# Instructions per contact-step of floe and LAMMPS on one shared scene,
# counted by valgrind (this VM exposes no hardware counters to perf).
# Each code runs the scene twice, SHORT and LONG timed steps after the same
# warm-up; the difference of the two totals is what LONG - SHORT steps
# execute, without loading and set-up. Divided by the steps and the mean
# contact count it is instructions per contact-step, the figure the time
# per contact-step divides into (docs/performance.md#what-bounds-floe-now).
#
# valgrind does not run AVX-512, so floe is built for x86-64-v3 (AVX2) in
# build-v3/: the -march=native build of the benchmark runs fewer, wider
# instructions in its vector loops. LAMMPS is Debian's binary, as the
# benchmark runs it.
#
# usage: bench/instr_count.sh [SCENE_DIR] [SIZE]
#   SCENE_DIR the scenes bench/run.sh wrote (default build-bench/scenes),
#   SIZE 10k (default) or 100k. Takes under a minute at 10k; at 100k take
#   SHORT=10 LONG=40 (~8 min), as docs/performance.md did.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(dirname "$HERE")
DIR=$(realpath -- "${1:-$ROOT/build-bench/scenes}") || exit 2; SIZE=${2:-10k}  # absolute: LAMMPS runs in a work directory
SHORT=${SHORT:-20} LONG=${LONG:-148} WARM=${WARM:-200}  # LAMMPS rebuilds its lists every ~10-20 steps: a long window averages them
scene=$DIR/dense_$SIZE
for f in "$scene.yaml" "$scene.data"; do [ -s "$f" ] || { echo "instr_count: no $f (run bench/run.sh first)" >&2; exit 2; }; done
command -v valgrind >/dev/null || { echo "instr_count: valgrind missing (apt-get install valgrind)" >&2; exit 2; }

V3=$ROOT/build-v3
"$HERE/build_floe.sh" "$ROOT" "$V3" x86-64-v3 || exit 1

out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
# total instructions of a run: cachegrind's "I refs" (or "I" in newer valgrind)
irefs() { grep -E '(I +refs|I +):' "$1" | head -1 | sed 's/.*: *//; s/,//g'; }
eval "$(python3 "$HERE/gen_scenes.py" --params "$SIZE")"
pv="-var data $scene.data -var lx $LX -var ly $LY -var dt $DT -var kn $KN -var kt $KT -var gamman $GAMMAN -var mu $MU -var skin $SKIN -var nwarm $WARM"
for n in $SHORT $LONG; do
  OMP_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$V3/floe_bench" "$scene.yaml" --threads 1 --warmup "$WARM" --steps "$n" >"$out/floe_$n" 2>&1 || exit 1
  (cd "$out" && valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    lmp -in "$HERE/peers/lammps.in" -log "$out/lmp_$n.log" -screen none $pv -var nrun "$n" >"$out/lmp_$n" 2>&1) || exit 1
done
contacts=$(grep -o 'mean_contacts=[0-9.]*' "$out/floe_$LONG" | cut -d= -f2)
steps=$((LONG - SHORT))
for code in floe lmp; do
  a=$(irefs "$out/${code}_$SHORT") b=$(irefs "$out/${code}_$LONG")
  python3 -c "import sys; a,b,s,c=map(float,sys.argv[1:]); print(f'$code: {(b-a)/s/1e6:.2f} M instructions per step, {(b-a)/s/c:.0f} per contact-step ({c:.0f} contacts)')" \
    "$a" "$b" "$steps" "$contacts"
done
