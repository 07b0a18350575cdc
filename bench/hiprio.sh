#!/bin/sh
# Runs a command in a new session whose scheduler autogroup has nice -20, so
# that it keeps its cores while other processes (builds, tests) are busy.
# Linux with autogroups (kernel.sched_autogroup_enabled = 1) and root only;
# bench/run.sh uses it when PRIORITY=1 (the default).
#   bench/hiprio.sh COMMAND [ARGS...]
exec setsid -w sh -c 'echo -20 > /proc/self/autogroup 2>/dev/null; exec nice -n -20 "$@"' sh "$@"
