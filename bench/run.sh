#!/usr/bin/env bash
# floe benchmark: floe against LAMMPS, LIGGGHTS and Yade (Debian packages) on
# the shared "settle" and "dense" scenes, side by side. See docs/performance.md.
#
# usage: bench/run.sh [--quick] [--install-peers] [--reps N] [--out DIR] [--no-build]
#        make bench            (= bench/run.sh)
#        make bench QUICK=1    (= bench/run.sh --quick: 10k only, 1 thread, 1 pass,
#                               1000 timed steps, no Yade; about a minute)
#
#   --install-peers  apt-get update && apt-get install lammps liggghts yade (and
#                    time, xz-utils, python3-matplotlib) before running
#   --reps N         passes over the whole matrix (default 3); codes alternate
#                    inside every pass, the table gives the median per case
#   --out DIR        scratch/results directory (default build-bench/, --quick: build-bench/quick/)
#   --no-build       use the existing build-release/ binaries
#
# Environment knobs (defaults):
#   BENCHES="settle dense"  SIZES="10k 100k"  THREADS="1 2"
#   CODES="floe lammps liggghts yade"   (peers that are not installed are skipped)
#   NWARM=200 NRUN=2000     untimed warm-up steps and timed steps
#   YADE_REPS_BIG=1         passes for Yade at N >= 100k (a single one takes minutes)
#   NRUN_YADE_BIG=1000      timed steps for Yade on dense 100k (2000 take > 6 min)
#   TIMEOUT=900             wall limit per run, seconds
#   DENSE_DIR=<peer dir>    where the shared dense packings dense_{10k,100k}.data.xz
#                           are: peer benchmark material, outside this repository
#                           (default in gen_scenes.py; dense is skipped without them)
#   CLI_CHECK=1             also run `floe run` once per scene and check the
#                           physics from floe's own output files
#   PRIORITY=1              run every timed command in its own session (setsid)
#                           whose scheduler autogroup gets nice -20 (needs root;
#                           ignored otherwise), so that other work on the machine
#                           (builds, tests) takes little CPU from the measured run.
#                           0: run at normal priority.
#   QUIET_MAX=0.3 QUIET_WAIT=0
#                           every run records the cores other processes used
#                           during it (bg_cores); report.py takes the medians over
#                           the runs with bg_cores <= QUIET_MAX when there are
#                           any. QUIET_WAIT > 0: before each run, wait up to that
#                           many seconds for other processes to drop below QUIET_MAX.
#
#   SAVE=1                  a full (non-quick) run copies results.tsv and report.md to
#                           bench/results/DATE_COMMIT_results.tsv and DATE_COMMIT_report.md
#
# Outputs in OUT: scenes/, logs/, results.tsv (one row per run; floe rows also
# carry floe's mean contact count over the timed steps and the bytes one
# contact takes, see bench/floe_bench.c), report.md (the tables printed at the
# end), throughput.png (bench/plot.py).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/bench
PY=/usr/bin/python3
QUICK=${QUICK:-0}
INSTALL=0
BUILD=1
REPS=${REPS:-}
OUT=${OUT:-$ROOT/build-bench}
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1;;
    --install-peers) INSTALL=1;;
    --reps) REPS=$2; shift;;
    --out) OUT=$2; shift;;
    --no-build) BUILD=0;;
    -h|--help) sed -n '2,47p' "$0"; exit 0;;
    *) echo "bench/run.sh: unknown option $1 (see --help)" >&2; exit 2;;
  esac
  shift
done
case $QUICK in ""|0|no|false) QUICK=0;; *) QUICK=1;; esac
if [ "$QUICK" = 1 ]; then
  BENCHES=${BENCHES:-"settle dense"}; SIZES=${SIZES:-10k}; THREADS=${THREADS:-1}
  CODES=${CODES:-"floe lammps liggghts"}; REPS=${REPS:-1}; NRUN=${NRUN:-1000}
  [ "$OUT" = "$ROOT/build-bench" ] && OUT=$ROOT/build-bench/quick
fi
BENCHES=${BENCHES:-"settle dense"}
SIZES=${SIZES:-"10k 100k"}
THREADS=${THREADS:-"1 2"}
CODES=${CODES:-"floe lammps liggghts yade"}
REPS=${REPS:-3}
NWARM=${NWARM:-200}
NRUN=${NRUN:-2000}
YADE_REPS_BIG=${YADE_REPS_BIG:-1}
NRUN_YADE_BIG=${NRUN_YADE_BIG:-1000}
TIMEOUT=${TIMEOUT:-900}
CLI_CHECK=${CLI_CHECK:-1}
QUIET_MAX=${QUIET_MAX:-0.3}
QUIET_WAIT=${QUIET_WAIT:-0}
PRIORITY=${PRIORITY:-1}
HI=""
if [ "$PRIORITY" = 1 ] && [ "$(id -u)" -eq 0 ] && [ -w /proc/self/autogroup ] && command -v setsid >/dev/null; then
  HI="$HERE/hiprio.sh"
fi
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
JOBS=$(nproc 2>/dev/null || echo 2)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT/scenes" "$OUT/logs"

say() { echo "bench: $*" >&2; }

# busy CPU time of the whole machine so far, in clock ticks (/proc/stat)
busy_ticks() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9}' /proc/stat; }
# cores used by other processes over the next second
bg_now() { local a b; a=$(busy_ticks); sleep 1; b=$(busy_ticks); awk -v d=$((b - a)) -v hz="$HZ" 'BEGIN{printf "%.2f", d/hz}'; }
# wait until the machine is quiet (other processes below QUIET_MAX cores), at most QUIET_WAIT s
wait_quiet() {
  local t=0 bg
  [ "$QUIET_WAIT" -gt 0 ] || return 0
  while bg=$(bg_now); awk -v b="$bg" -v m="$QUIET_MAX" 'BEGIN{exit !(b > m)}' && [ "$t" -lt "$QUIET_WAIT" ]; do
    [ "$t" = 0 ] && say "waiting for a quiet machine (other processes use $bg cores)"
    sleep 4; t=$((t + 5))
  done
}

# ---- packages -----------------------------------------------------------------
apt_install() {
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@"
}
if [ "$INSTALL" = 1 ]; then
  say "installing the peers (apt-get): lammps liggghts yade"
  apt_install lammps liggghts yade time xz-utils python3-matplotlib || { say "apt-get failed"; exit 1; }
fi
if [ ! -x /usr/bin/time ]; then
  say "/usr/bin/time missing: installing the Debian package 'time'"
  apt_install time || { say "please install 'time'"; exit 1; }
fi

# ---- floe, release build ------------------------------------------------------
REL=$ROOT/build-release
if [ "$BUILD" = 1 ]; then
  "$ROOT/tools/ensure-deps.sh" || exit 1
  say "building floe (Release, -O3 -march=native) in $REL"
  "$HERE/build_floe.sh" "$ROOT" "$REL" native "$JOBS" || { say "floe build failed"; exit 1; }
fi
[ -x "$REL/floe_bench" ] && [ -x "$REL/floe" ] || { say "no floe build in $REL (drop --no-build)"; exit 1; }

# ---- scenes -------------------------------------------------------------------
for s in $SIZES; do
  if [ ! -s "$OUT/scenes/settle_$s.yaml" ] || [ "$HERE/gen_scenes.py" -nt "$OUT/scenes/settle_$s.yaml" ]; then
    $PY "$HERE/gen_scenes.py" "$OUT/scenes" "$s" || exit 1
  fi
done

# ---- which codes --------------------------------------------------------------
have() {
  case $1 in
    floe) return 0;;
    lammps) command -v lmp >/dev/null;;
    liggghts) command -v liggghts >/dev/null;;
    yade) command -v yade >/dev/null;;
    *) return 1;;
  esac
}
RUNCODES=""
for c in $CODES; do
  if have "$c"; then RUNCODES="$RUNCODES $c"; else say "$c is not installed: skipped (bench/run.sh --install-peers)"; fi
done
if [[ "$RUNCODES" == *lammps* || "$RUNCODES" == *liggghts* ]] && [[ " $THREADS " != " 1 " ]] && ! command -v mpirun >/dev/null; then
  say "mpirun missing: the peers run on 1 process only"
fi

RES=$OUT/results.tsv
STAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
  echo "# floe bench $STAMP  floe=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)  host=$(hostname)  cpus=$JOBS  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "# reps=$REPS benches=[$BENCHES] sizes=[$SIZES] threads=[$THREADS] codes=[$RUNCODES] nwarm=$NWARM nrun=$NRUN priority=$([ -n "$HI" ] && echo autogroup-nice-20 || echo normal)"
  printf "bench\tcode\tN\tthreads\trep\tnwarm\tsteps\tloop_s\ttotal_s\tcpu_s\trss_MB\tke\tzcm\tpp\twall\tload1\tbg_cores\tstatus\tmean_contacts\tcontact_B\tpairs_per_contact\n"
} > "$RES"

# ---- one run ------------------------------------------------------------------
run_case() {  # code bench size threads rep
  local code=$1 bench=$2 size=$3 nt=$4 rep=$5
  eval "$($PY "$HERE/gen_scenes.py" --params "$size")"
  local scene=$OUT/scenes/${bench}_$size nrun=$NRUN
  [ "$code" = yade ] && [ "$bench" = dense ] && [ "$N" -ge 100000 ] && nrun=$NRUN_YADE_BIG
  [ -s "$scene.yaml" ] || { say "no scene $scene.yaml (dense packing missing?)"; return; }
  local tag=${bench}_${size}_${code}_t${nt}_r$rep log=$OUT/logs/${bench}_${size}_${code}_t${nt}_r$rep
  local mpi=""; [ "$nt" -gt 1 ] && mpi="mpirun -np $nt"
  local pv="-var data $scene.data -var lx $LX -var ly $LY -var dt $DT -var kn $KN -var kt $KT -var gamman $GAMMAN -var mu $MU -var skin $SKIN -var nwarm $NWARM -var nrun $nrun"
  local cmd
  case $code in
    floe)     cmd="$REL/floe_bench $scene.yaml --threads $nt --warmup $NWARM --steps $nrun";;
    lammps)   cmd="$mpi lmp -in $HERE/peers/lammps.in -log $log.lammps -screen none $pv";;
    liggghts) cmd="$mpi liggghts -in $HERE/peers/liggghts.in -log $log.lammps -screen none $pv";;
    yade)     cmd="yade -n -x -j$nt $HERE/peers/yade_bench.py $scene.data $LX $LY $DT $KN $KT $CN_PW $MU $SKIN $NWARM $nrun";;
  esac
  wait_quiet
  local load1; load1=$(cut -d' ' -f1 /proc/loadavg)
  echo "$cmd" > "$log.out"
  local b0; b0=$(busy_ticks)
  ( cd "$OUT/logs" && OMP_NUM_THREADS=$([ "$code" = floe ] && echo "$nt" || echo 1) \
      $HI /usr/bin/time -v -o "$log.time" timeout "$TIMEOUT" $cmd >> "$log.out" 2>&1 )
  local rc=$? status=ok b1; b1=$(busy_ticks)
  [ $rc -eq 124 ] && status=timeout
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && status="rc=$rc"
  local loop=""
  case $code in
    floe|yade) loop=$(grep -o 'loop_s=[0-9.e+-]*' "$log.out" | tail -1 | cut -d= -f2);;
    *) loop=$(grep -h "Loop time of" "$log.lammps" 2>/dev/null | tail -1 | awk '{print $4}');;
  esac
  local res; res=$(grep -h '^RESULT' "$log.out" "$log.lammps" 2>/dev/null | tail -1)
  # floe only: its mean contact count over the timed steps and the bytes a contact takes
  local con; con=$(grep -h '^CONTACT' "$log.out" 2>/dev/null | tail -1)
  val() { grep -o "\b$1=[^ ]*" <<< "$res" | head -1 | cut -d= -f2; }
  cval() { grep -o "\b$1=[^ ]*" <<< "$con" | head -1 | cut -d= -f2; }
  local wall_s rss
  wall_s=$(awk '/Elapsed \(wall clock\)/ {n=split($NF,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$log.time")
  rss=$(awk '/Maximum resident set size/ {printf "%.1f", $NF/1024}' "$log.time")
  local cpu bg
  cpu=$(awk '/User time|System time/ {s += $NF} END {printf "%.2f", s}' "$log.time")
  # cores the other processes used while this run went on
  bg=$(awk -v d=$((b1 - b0)) -v hz="$HZ" -v own="$cpu" -v w="$wall_s" 'BEGIN{b=(d/hz-own)/w; if (b<0) b=0; printf "%.2f", b}')
  [ -n "$loop" ] || status=${status/ok/noloop}
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$bench" "$code" "$N" "$nt" "$rep" "$NWARM" "$nrun" \
    "$loop" "$wall_s" "$cpu" "$rss" "$(val ke)" "$(val zcm)" "$(val pp_contacts)" "$(val wall_contacts)" "$load1" "$bg" "$status" \
    "$(val mean_contacts)" "$(cval bytes_per_contact)" "$(cval pairs_per_contact)" >> "$RES"
  say "$(printf '%-7s %-5s %-9s t%s r%s  loop %8.4gs  rss %6s MB  bg %4s cores  ke %-12.6g pp %-6s wall %-5s %s' \
    "$bench" "$size" "$code" "$nt" "$rep" "${loop:-0}" "${rss:--}" "$bg" "$(val ke)" "$(val pp_contacts)" "$(val wall_contacts)" "$status")"
}

# ---- the matrix: passes outermost, codes alternate inside a pass --------------
for rep in $(seq 1 "$REPS"); do
  for bench in $BENCHES; do
    for size in $SIZES; do
      for nt in $THREADS; do
        for code in $RUNCODES; do
          if [ "$code" = yade ] && [ "$rep" -gt "$YADE_REPS_BIG" ]; then
            eval "$($PY "$HERE/gen_scenes.py" --params "$size")"
            [ "$N" -ge 100000 ] && continue
          fi
          run_case "$code" "$bench" "$size" "$nt" "$rep"
        done
      done
    done
  done
done

# ---- floe's own outputs: the physics check through `floe run` ------------------
if [ "$CLI_CHECK" = 1 ]; then
  for bench in $BENCHES; do
    for size in $SIZES; do
      scene=$OUT/scenes/${bench}_$size.yaml
      [ -s "$scene" ] || continue
      eval "$($PY "$HERE/gen_scenes.py" --params "$size")"
      dir=$OUT/cli_${bench}_$size
      load1=$(cut -d' ' -f1 /proc/loadavg)
      $HI /usr/bin/time -v -o "$dir.time" "$REL/floe" run "$scene" --threads 1 --steps $((NWARM + NRUN)) --out "$dir" \
        > "$dir.log" 2>&1 || { say "floe run $scene failed (see $dir.log)"; continue; }
      res=$($PY "$HERE/floe_outputs.py" "$dir")
      val() { grep -o "$1=[^ ]*" <<< "$res" | head -1 | cut -d= -f2; }
      tot=$(grep -o 'steps in [0-9.]* s' "$dir.log" | awk '{print $3}')
      rss=$(awk '/Maximum resident set size/ {printf "%.1f", $NF/1024}' "$dir.time")
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t\t\n" "$bench" "floe-cli" "$N" 1 1 0 "$((NWARM + NRUN))" \
        "" "$tot" "" "$rss" "$(val ke)" "$(val zcm)" "$(val pp_contacts)" "$(val wall_contacts)" "$load1" "" "physics-only" >> "$RES"
      say "$bench $size floe run (outputs): $res  [run loop + outputs: ${tot}s]"
    done
  done
fi

# ---- report -------------------------------------------------------------------
$PY "$HERE/report.py" "$RES" > "$OUT/report.md" && cat "$OUT/report.md"
if $PY -c "import matplotlib" 2>/dev/null; then
  $PY "$HERE/plot.py" "$RES" "$OUT/throughput.png" && say "plot: $OUT/throughput.png"
else
  say "python3-matplotlib missing: no plot (apt-get install python3-matplotlib)"
fi
# ---- the committed copy: bench/results/DATE_COMMIT_{results.tsv,report.md} (full runs only) ----
if [ "$QUICK" = 0 ] && [ "${SAVE:-1}" = 1 ]; then
  tag=$(date -u +%F)_$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
  mkdir -p "$HERE/results"
  cp "$RES" "$HERE/results/${tag}_results.tsv" && cp "$OUT/report.md" "$HERE/results/${tag}_report.md" &&
    say "saved: bench/results/${tag}_results.tsv and ${tag}_report.md (commit them)"
fi
say "results: $RES"
