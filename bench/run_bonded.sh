#!/usr/bin/env bash
# Bonded-sheet benchmark: floe's Ice model against Yade 2023.02a
# CohFrictMat (+ rolling/twisting moments) on the "icesheet" scene of
# the peer benchmark material (outside this repository): a bonded 100 x 100 x 2 sheet (20k spheres,
# 49,600 bonds) punched by a steel ball. See bench/bonded/README.md.
#
# usage: bench/run_bonded.sh             # 20k, threads 1 and 2, 3 reps (~12 min on 2 cores)
#        QUICK=1 bench/run_bonded.sh     # 4k, 1 thread, 1 rep (~25 s)
#
# Environment knobs (defaults):
#   SIZES="20k"  THREADS="1 2"  REPS=3   (QUICK=1: SIZES=4k THREADS=1 REPS=1)
#                sizes: 1k = 20x25x2, 4k = 40x50x2, 20k = 100x100x2
#   NWARM=200 NRUN=2000   untimed warm-up steps (incl. the bonding step 0), timed steps
#   CODES="floe yade"     codes alternate inside every (size, threads) case of each pass
#   OUT=${TMPDIR:-/tmp}/bonded-bench    scratch: scenes/, logs/, results.tsv, report.md
#   SAVE=1 (QUICK: 0)     copy results.tsv and report.md to
#                         bench/results/<date>_bonded.tsv and <date>_bonded_report.md
#   BUILD=1               clone the committed HEAD of this repository into FLOE_SRC and
#                         build floe + floe_bench there (the owner rebuilds build-release/
#                         of the working tree often; a private clone avoids races).
#                         BUILD=0: use FLOE_SRC/build-release as it is.
#   FLOE_SRC=/tmp/bonded-src
#   YADE_PY=<icesheet.py> the peer's Yade script (peer benchmark material, outside
#                         this repository; default below)
#   TIMEOUT=480           wall limit per run [s]
#   QUIET_MAX=0.3 QUIET_WAIT=30
#                         every run records bg_cores, the cores other processes used during
#                         it (/proc/stat busy time minus the run's own user+sys, over its wall
#                         time); the table takes, per code and case, the median over the
#                         runs with bg_cores <= QUIET_MAX if there are any, else over all runs
#                         (the all-runs median is printed too). Before each run, wait up to QUIET_WAIT s for other
#                         processes to use less than QUIET_MAX cores (0: no wait).
#   REPORT_ONLY=1         no build, no runs: only rebuild report.md (and the saved copies)
#                         from an existing $OUT/results.tsv
#   PHYS=1                also one `floe run` per (size, threads) with a history of the
#                         bond counters and the ball, for the physics comparison
#                         (floe_bench itself writes nothing; its final contact count is
#                         checked against that run)
#
# Every run is wrapped as /usr/bin/time -v timeout $TIMEOUT ... (peak RSS);
# `cat /proc/loadavg` is recorded before each run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/bench
PY=/usr/bin/python3
QUICK=${QUICK:-0}
case $QUICK in ""|0|no|false) QUICK=0;; *) QUICK=1;; esac
if [ "$QUICK" = 1 ]; then
  SIZES=${SIZES:-4k}; THREADS=${THREADS:-1}; REPS=${REPS:-1}; SAVE=${SAVE:-0}
fi
SIZES=${SIZES:-20k}
THREADS=${THREADS:-"1 2"}
REPS=${REPS:-3}
SAVE=${SAVE:-1}
NWARM=${NWARM:-200}
NRUN=${NRUN:-2000}
CODES=${CODES:-"floe yade"}
OUT=${OUT:-${TMPDIR:-/tmp}/bonded-bench}
BUILD=${BUILD:-1}
FLOE_SRC=${FLOE_SRC:-/tmp/bonded-src}
YADE_PY=${YADE_PY:-$ROOT/../shared/bench/peers/yade/icesheet.py}
TIMEOUT=${TIMEOUT:-480}
PHYS=${PHYS:-1}
QUIET_MAX=${QUIET_MAX:-0.3}
QUIET_WAIT=${QUIET_WAIT:-30}
HZ=$(getconf CLK_TCK)

mkdir -p "$OUT/scenes" "$OUT/logs"
RES=$OUT/results.tsv
DATE=$(date -u +%F)
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD)
DIRTY=$(git -C "$ROOT" status --porcelain -- src include app CMakeLists.txt | wc -l)

REPORT_ONLY=${REPORT_ONLY:-0}
[ "$REPORT_ONLY" = 1 ] && { BUILD=0; CODES=""; PHYS=0; REPS=0; [ -f "$RES" ] || { echo "no $RES" >&2; exit 2; }; }
# ---- build floe + floe_bench from a private clone of HEAD ----
if [ "$BUILD" = 1 ]; then
  if [ -e "$FLOE_SRC" ] && [ ! -d "$FLOE_SRC/.git" ]; then
    echo "run_bonded.sh: $FLOE_SRC exists and is not a git clone; refusing to remove it" >&2; exit 2
  fi
  rm -rf "$FLOE_SRC" && git clone -q "$ROOT" "$FLOE_SRC" || exit 1
  REL=$FLOE_SRC/build-release
  echo "== building floe $(git -C "$FLOE_SRC" rev-parse --short HEAD) in $REL"
  "$FLOE_SRC/bench/build_floe.sh" "$FLOE_SRC" "$REL" native || exit 1
fi
FLOE=$FLOE_SRC/build-release/floe
FLOE_BENCH=$FLOE_SRC/build-release/floe_bench
BUILT=$(git -C "$FLOE_SRC" rev-parse --short HEAD 2>/dev/null || echo "?")
[ "$REPORT_ONLY" = 1 ] || for b in "$FLOE" "$FLOE_BENCH"; do [ -x "$b" ] || { echo "run_bonded.sh: missing $b (BUILD=1)" >&2; exit 2; }; done
case " $CODES " in *" yade "*) command -v yade >/dev/null || { echo "yade not installed: skipping it" >&2; CODES=${CODES/yade/}; };; esac

# a results.tsv that exists is appended to (a new pass, e.g. CODES=floe after a floe commit:
# the table groups floe rows by floe_commit and compares each with the same Yade runs)
if [ ! -f "$RES" ]; then
  {
    printf "code\tN\tthreads\trep\tnwarm\tsteps\tload1\tload5\tbg_cores\tloop_s\ttotal_s\tpart_steps_per_s\tns_per_part_step\trss_MB\tbonds_start\tbonds_warm\tbonds_end\tbroken\tbroken_alive\tcontacts_end\tball_z\tball_vz\tsheet_ke\tsheet_zmin\tstatus\tfloe_commit\n"
  } > "$RES"
fi
[ "$REPORT_ONLY" = 1 ] || {
  echo "# pass $(date -u +%FT%TZ) floe=$COMMIT built=$BUILT dirty_src_files=$DIRTY host=$(hostname) cpus=$(nproc) $(lscpu | sed -n 's/^Model name: *//p')"
  echo "#   sizes=[$SIZES] threads=[$THREADS] reps=$REPS codes=[$CODES] nwarm=$NWARM nrun=$NRUN quiet_max=$QUIET_MAX quiet_wait=$QUIET_WAIT yade=$(yade --version 2>/dev/null | sed -n 's/^Yade version: *//p' | tr -d ' ')"
} >> "$RES"

dims() { case $1 in 1k) echo "20 25 2";; 4k) echo "40 50 2";; 20k) echo "100 100 2";; *) echo "bad size $1" >&2; exit 2;; esac; }
hms2s() { awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }' <<< "$1"; }
field() { grep -o "\b$1=[-0-9.e+]*" <<< "$2" | head -1 | cut -d= -f2; }
rate() { awk -v n="$1" -v s="$2" -v t="$3" 'BEGIN{ if (t > 0) printf "%.4g\t%.1f", n*s/t, t/(n*s)*1e9; else printf "\t" }'; }
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }  # all CPUs, jiffies
quiet_wait() {  # wait up to QUIET_WAIT s until other processes use < QUIET_MAX cores
  local t=0 b0 b1
  while [ "$t" -lt "$QUIET_WAIT" ]; do
    b0=$(busy); sleep 2; b1=$(busy); t=$((t + 2))
    awk -v d=$((b1 - b0)) -v hz="$HZ" -v m="$QUIET_MAX" 'BEGIN{ exit !(d / hz / 2 <= m) }' && return 0
  done
  echo "   (machine busy: other processes above $QUIET_MAX cores for ${QUIET_WAIT}s; running anyway)"
}
timed() {  # logfile timefile cmd...: run under time -v + timeout, return status word; bg cores -> timefile.bg
  local log=$1 tim=$2; shift 2
  local b0; b0=$(busy)
  /usr/bin/time -v -o "$tim" timeout "$TIMEOUT" "$@" >> "$log" 2>&1
  local rc=$?
  local b1; b1=$(busy)
  awk -v d=$((b1 - b0)) -v hz="$HZ" '
    /User time/ {u = $NF} /System time/ {s = $NF}
    /Elapsed \(wall clock\)/ {n = split($NF, a, ":"); w = (n == 3) ? a[1]*3600 + a[2]*60 + a[3] : a[1]*60 + a[2]}
    END { if (w > 0) { b = (d / hz - u - s) / w; if (b < 0) b = 0; printf "%.2f", b } }' "$tim" > "$tim.bg"
  if [ $rc -eq 0 ]; then echo ok; elif [ $rc -eq 124 ]; then echo timeout; else echo "rc=$rc"; fi
}
addcommit() { awk -v c="$BUILT" '{print $0 "\t" c}'; }  # floe build of the run (yade rows: not used)
peak_mb() { awk '/Maximum resident set size/ {printf "%.1f", $NF/1024}' "$1"; }
wall_s() { hms2s "$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$1")"; }

scene() {  # size -> scene path (generated once)
  local d f=$OUT/scenes/icesheet_$1.yaml; read -ra d <<< "$(dims "$1")"
  [ -f "$f" ] || $PY "$HERE/gen_icesheet.py" --nx "${d[0]}" --ny "${d[1]}" --nz "${d[2]}" \
      --steps $((NWARM + NRUN)) --history 1 -o "$f" || exit 1
  echo "$f"
}

# physics of floe from one `floe run` (history every step + final state) -> key=value line
declare -A PHYSL
floe_phys() {  # size threads
  local size=$1 nt=$2 f; f=$(scene "$size")
  local d; read -ra d <<< "$(dims "$size")"; local n=$(( d[0] * d[1] * d[2] ))
  local tag=floe-run_${size}_t$nt dir=$OUT/logs/floe-run_${size}_t$nt
  local log=$OUT/logs/$tag.out tim=$OUT/logs/$tag.time
  quiet_wait
  read -r l1 l5 _ < /proc/loadavg
  echo "== $tag: floe run $f --out $dir --threads $nt (load $l1)" | tee "$log"
  local st; st=$(timed "$log" "$tim" "$FLOE" run "$f" --out "$dir" --threads "$nt")
  local line=""
  [ "$st" = ok ] && line=$($PY - "$dir" "$n" "$NWARM" <<'EOF'
import csv, sys
d, n, nwarm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
h = {int(r["step"]): r for r in csv.DictReader(open(d + "/history.csv"))}
last = max(h)
ke, zmin = 0.0, 1e9
for r in csv.DictReader(open(d + "/particles.csv")):
    if int(r["id"]) < n:
        ke += 0.5 * float(r["mass"]) * sum(float(r[k]) ** 2 for k in ("vx", "vy", "vz"))
        zmin = min(zmin, float(r["z"]))
alive_broken = 0
ball_c = 0
for r in csv.DictReader(open(d + "/contacts.csv")):
    a, b = int(r["a"]), int(r["b"])
    if a == n or b == n:
        ball_c += 1
    elif r["bonded"] == "0":
        alive_broken += 1
b0 = int(h[1]["bonded"])
print("bonds_start=%d bonds_warm=%s bonds_end=%s broken=%d breaks=%s broken_alive=%d ball_contacts=%d contacts=%s "
      "ball_z=%.6f ball_vz=%.5f sheet_ke=%.6e sheet_zmin=%.6f"
      % (b0, h[nwarm]["bonded"] if nwarm in h else "", h[last]["bonded"], b0 - int(h[last]["bonded"]),
         h[last]["breaks"], alive_broken, ball_c, h[last]["contacts"], float(h[last]["ball_z"]),
         float(h[last]["ball_vz"]), ke, zmin))
EOF
)
  [ "$st" = ok ] && [ -z "$line" ] && st=noresult
  echo "PHYS $line" >> "$log"
  PHYSL[$size/$nt]=$line
  local w; w=$(wall_s "$tim")
  printf "floe-run\t%s\t%s\t1\t0\t%s\t%s\t%s\t%s\t\t%s\t\t\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$n" "$nt" \
    $((NWARM + NRUN)) "$l1" "$l5" "$(cat "$tim.bg")" "$w" "$(peak_mb "$tim")" \
    "$(field bonds_start "$line")" "$(field bonds_warm "$line")" "$(field bonds_end "$line")" "$(field broken "$line")" \
    "$(field broken_alive "$line")" "$(field contacts "$line")" "$(field ball_z "$line")" "$(field ball_vz "$line")" \
    "$(field sheet_ke "$line")" "$(field sheet_zmin "$line")" "$st" | addcommit >> "$RES"
  tail -1 "$RES"
}

run_floe() {  # size threads rep
  local size=$1 nt=$2 rep=$3 f; f=$(scene "$size")
  local d; read -ra d <<< "$(dims "$size")"; local n=$(( d[0] * d[1] * d[2] ))
  local tag=floe_${size}_t${nt}_r$rep log=$OUT/logs/floe_${size}_t${nt}_r$rep.out tim=$OUT/logs/floe_${size}_t${nt}_r$rep.time
  quiet_wait
  read -r l1 l5 _ < /proc/loadavg
  echo "== $tag: floe_bench $f --threads $nt --warmup $NWARM --steps $NRUN (load $l1)" | tee "$log"
  local st; st=$(timed "$log" "$tim" env OMP_NUM_THREADS="$nt" "$FLOE_BENCH" "$f" --threads "$nt" --warmup "$NWARM" --steps "$NRUN")
  # floe_bench's own bond counts before the first and after the last timed step
  # (bonds_start / bonds_end of its RESULT line) fill bonds_warm / bonds_end: the
  # denominator of ns per bond-step, also without the physics run (PHYS=0)
  local res; res=$(grep '^RESULT' "$log" | tail -1)
  [ "$st" = ok ] && [ -z "$res" ] && st=noresult
  local loop; loop=$(field loop_s "$res")
  local ph=${PHYSL[$size/$nt]:-}
  # the timed run must end in the same state as the physics run (same contact count)
  if [ "$st" = ok ] && [ -n "$ph" ] && [ "$(field contacts "$res")" != "$(field contacts "$ph")" ]; then
    st="contacts-differ($(field contacts "$res")!=$(field contacts "$ph"))"
  fi
  printf "floe\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$n" "$nt" "$rep" \
    "$NWARM" "$NRUN" "$l1" "$l5" "$(cat "$tim.bg")" "$loop" "$(wall_s "$tim")" "$(rate "$n" "$NRUN" "${loop:-0}")" "$(peak_mb "$tim")" \
    "$(field bonds_start "$ph")" "$(bw=$(field bonds_start "$res"); echo "${bw:-$(field bonds_warm "$ph")}")" \
    "$(be=$(field bonds_end "$res"); echo "${be:-$(field bonds_end "$ph")}")" "$(field broken "$ph")" \
    "$(field broken_alive "$ph")" "$(field contacts "$res")" "$(field ball_z "$ph")" "$(field ball_vz "$ph")" \
    "$(field sheet_ke "$ph")" "$(field sheet_zmin "$ph")" "$st" | addcommit >> "$RES"
  tail -1 "$RES"
}

run_yade() {  # size threads rep
  local size=$1 nt=$2 rep=$3
  local d; read -ra d <<< "$(dims "$size")"; local n=$(( d[0] * d[1] * d[2] ))
  local tag=yade_${size}_t${nt}_r$rep log=$OUT/logs/yade_${size}_t${nt}_r$rep.out tim=$OUT/logs/yade_${size}_t${nt}_r$rep.time
  quiet_wait
  read -r l1 l5 _ < /proc/loadavg
  local cmd=(yade -n -x -j"$nt" "$YADE_PY" nx="${d[0]}" ny="${d[1]}" nz="${d[2]}" nwarm="$NWARM" nrun="$NRUN")
  echo "== $tag: ${cmd[*]} (load $l1)" | tee "$log"
  local st; st=$(cd "$OUT/logs" && timed "$log" "$tim" env OMP_NUM_THREADS="$nt" "${cmd[@]}")
  local res; res=$(grep '^RESULT' "$log" | tail -1)
  [ "$st" = ok ] && [ -z "$res" ] && st=noresult
  local loop; loop=$(field loop_s "$res")
  printf "yade\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$n" "$nt" "$rep" \
    "$NWARM" "$NRUN" "$l1" "$l5" "$(cat "$tim.bg")" "$loop" "$(wall_s "$tim")" "$(rate "$n" "$NRUN" "${loop:-0}")" "$(peak_mb "$tim")" \
    "$(field bonds_start "$res")" "$(field bonds_warm "$res")" "$(field bonds_end "$res")" "$(field broken "$res")" \
    "$(field broken_alive "$res")" "$(( $(field real "$res" || echo 0) + 0 ))" "$(field ball_z "$res")" "$(field ball_vz "$res")" \
    "$(field sheet_ke "$res")" "$(field sheet_zmin "$res")" "$st" | addcommit >> "$RES"
  tail -1 "$RES"
}

# ---- the matrix ----
if [ "$PHYS" = 1 ] && [[ " $CODES " == *" floe "* ]]; then
  for s in $SIZES; do for t in $THREADS; do floe_phys "$s" "$t"; done; done
fi
for rep in $(seq 1 "$REPS"); do
  for s in $SIZES; do
    for t in $THREADS; do
      # alternate the order between passes so neither code always runs first
      if [ $((rep % 2)) = 1 ]; then order=$CODES; else order=$(echo $CODES | tr ' ' '\n' | tac | tr '\n' ' '); fi
      for c in $order; do "run_$c" "$s" "$t" "$rep"; done
    done
  done
done

# ---- report ----
$PY - "$RES" "$DATE" "$COMMIT" "$BUILT" "$DIRTY" "$QUIET_MAX" > "$OUT/report.md" <<'EOF'
import sys, statistics as st
from collections import OrderedDict
res, date, commit, built, dirty = sys.argv[1:6]
hdr, rows = None, []
comments = []
for ln in open(res):
    if ln.startswith("#"):
        comments.append(ln[1:].strip()); continue
    f = ln.rstrip("\n").split("\t")
    if hdr is None:
        hdr = f; continue
    rows.append(dict(zip(hdr, f)))
ok = [r for r in rows if r["status"] == "ok"]
tm = [r for r in ok if r["code"] in ("floe", "yade")] or [{"steps": "0", "nwarm": "0"}]
bad = [r for r in rows if r["status"] != "ok"]
print("# Bonded icesheet benchmark: floe (Ice) vs Yade 2023.02a (CohFrictMat)\n")
print("Report written %s; repository HEAD then: %s. Each floe row names the committed build it timed (floe@commit;"
      " builds are private clones of HEAD, so uncommitted work in the tree is never timed). Passes:\n" % (date, commit))
for c in comments:
    print("`%s`  " % c)
print()
qmax = float(sys.argv[6])
def quiet(rs): return [r for r in rs if r.get("bg_cores", "") != "" and float(r["bg_cores"]) <= qmax]
def pick(rs):  # quiet runs if there are any, else all
    q = quiet(rs)
    return (q, True) if q else (rs, False)
groups = OrderedDict()
for r in ok:
    if r["code"] == "floe":
        key = "floe@" + r.get("floe_commit", "?")
    elif r["code"] == "yade":
        key = "yade"
    else:
        continue
    groups.setdefault((r["N"], r["threads"], r["steps"]), OrderedDict()).setdefault(key, []).append(r)
print("## Timing (median of the timed loops; %d timed steps after %s warm-up steps)\n" % (
    int(tm[0]["steps"]), tm[0]["nwarm"]))
print("| code | N | threads | loop s (median; range) | particle-steps/s | ns/particle-step | bonds (mean over the timed steps) | ns/bond-step | bonds start -> end (broken) | peak RSS MB | floe/Yade | runs used (quiet/all) | other procs' cores (range) | loop s, all runs (median; range) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---|---:|")
def mean_bonds(rs):  # each code's own bond count, the mean of its counts at the start and the end of the timed steps
    v = [(float(r["bonds_warm"]) + float(r["bonds_end"])) / 2 for r in rs
         if r.get("bonds_warm", "") != "" and r.get("bonds_end", "") != ""]
    return st.median(v) if v else None
for (n, t, steps), codes in groups.items():
    ym = None
    if "yade" in codes:
        ym = st.median(float(r["loop_s"]) for r in pick(codes["yade"])[0])
    for code in sorted(codes, key=lambda c: (c == "yade", c)):
        alls = codes[code]
        rs, isq = pick(alls)
        loops = sorted(float(r["loop_s"]) for r in rs)
        m = st.median(loops)
        rng = "" if len(loops) == 1 else " (%.3g-%.3g)" % (loops[0], loops[-1])
        la = sorted(float(r["loop_s"]) for r in alls)
        rss = max(float(r["rss_MB"]) for r in alls)
        withb = [r for r in alls if r["bonds_start"] != ""]
        b = withb[-1] if withb else {"bonds_start": "?", "broken": "?"}
        ratio = "%.2fx" % (ym / m) if ym and code != "yade" else ("1" if code == "yade" else "")
        bg = sorted(float(r["bg_cores"]) for r in alls if r.get("bg_cores", "") != "")
        nb = mean_bonds(alls)
        print("| %s | %s | %s | %.3g%s | %.3g | %.0f | %s | %s | %s -> %s (%s) | %.0f | %s | %d/%d%s | %s | %.3g (%.3g-%.3g) |" % (
            code, n, t, m, rng, int(n) * int(steps) / m, m / (int(n) * int(steps)) * 1e9,
            "%.0f" % nb if nb else "–", "%.1f" % (m / (nb * int(steps)) * 1e9) if nb else "–",
            b["bonds_start"], "/".join(sorted(set(r["bonds_end"] for r in withb))) or "?", b["broken"], rss, ratio,
            len(quiet(alls)), len(alls), "" if isq else " (none quiet: all used)",
            "%.2f-%.2f" % (bg[0], bg[-1]) if bg else "", st.median(la), la[0], la[-1]))
print()
print("N counts the sheet spheres only (not the ball). floe/Yade = Yade median loop time / floe median loop time.")
print("ns/bond-step = median loop time / (bonds x timed steps), each code with its own bond count: the mean of its")
print("counts after the warm-up and after the last timed step (bonds only break, a few per cent of them here, so")
print("the mean of the two ends is close to the mean over the steps); the time is the whole step")
print("(integration, the ball's contacts) divided by the bonds.")
print("Quiet runs: other processes used <= %s cores during the run (bg_cores in the tsv)." % qmax)
print("floe's bond columns come from the `floe run` of the same scene and thread count (floe_bench writes")
print("no outputs); its final contact count was checked equal to the timed run's.\n")
print("## Physics after step %d (same scene, same step count)\n" % (int(tm[0]["nwarm"]) + int(tm[0]["steps"])))
print("| code | N | threads | bonds after step 0 | bonds at step 200 | bonds at end | broken | broken, still in contact | ball z (m) | ball below sheet top + R (m) | ball v_z (m/s) | sheet KE (J) | sheet z_min (m) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
seen = set()
for r in ok:
    if r["code"] == "floe": continue
    code = "floe@" + r.get("floe_commit", "?") if r["code"] == "floe-run" else r["code"]
    key = (code, r["N"], r["threads"], r["ball_z"], r["bonds_end"], r["sheet_ke"])
    if key in seen: continue
    seen.add(key)
    zt = 0.03 + 0.2  # z_top (nz = 2) + ball radius: where the ball touches the flat top surface
    pen = "%.6f" % (zt - float(r["ball_z"])) if r["ball_z"] else ""
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        code, r["N"], r["threads"], r["bonds_start"], r["bonds_warm"], r["bonds_end"], r["broken"],
        r["broken_alive"], r["ball_z"], pen, r["ball_vz"], r["sheet_ke"], r["sheet_zmin"]))
if bad:
    print("\n## Runs that failed\n")
    for r in bad:
        print("- %s N=%s threads=%s rep=%s: %s" % (r["code"], r["N"], r["threads"], r["rep"], r["status"]))
EOF
echo
cat "$OUT/report.md"
if [ "$SAVE" = 1 ]; then
  mkdir -p "$HERE/results"
  cp "$RES" "$HERE/results/${DATE}_bonded.tsv"
  cp "$OUT/report.md" "$HERE/results/${DATE}_bonded_report.md"
  echo; echo "saved: bench/results/${DATE}_bonded.tsv bench/results/${DATE}_bonded_report.md"
fi
echo "raw: $RES, logs in $OUT/logs"
