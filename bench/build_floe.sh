#!/bin/bash
# Builds floe, the CLI and the timing driver floe_bench in one directory:
# CMake's Release build with -march=MARCH, and floe_bench.c compiled like
# the CLI and linked with CMake's own link line of the CLI (so it links
# exactly what `floe` links). The one recipe of run.sh, run_bonded.sh,
# instr_count.sh and tools/morton_study.py.
#
# usage: bench/build_floe.sh SRC BUILD_DIR MARCH [JOBS]
#   SRC a floe source tree, BUILD_DIR where to build, MARCH e.g. native
#   or x86-64-v3 (valgrind runs no AVX-512); JOBS 2 unless given
set -u
[ $# -ge 3 ] || { sed -n 2,10p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
src=$1 dir=$2 march=$3 jobs=${4:-2}
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-march=$march" >/dev/null || exit 1
cmake --build "$dir" -j "$jobs" --target floe floe_cli >/dev/null || { echo "build_floe: floe build failed" >&2; exit 1; }
cd "$dir" && cc -O3 -march="$march" -std=c17 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -I"$src/include" -I"$src/src" \
    -c "$src/bench/floe_bench.c" -o floe_bench.o &&
  link=$(cat CMakeFiles/floe_cli.dir/link.txt) &&
  link=${link/CMakeFiles\/floe_cli.dir\/app\/main.c.o/floe_bench.o} && link=${link/ -o floe / -o floe_bench } &&
  eval "$link" || { echo "build_floe: floe_bench build failed" >&2; exit 1; }
