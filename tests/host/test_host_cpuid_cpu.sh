#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host reads CPUID after pinning: run.json names the CPU CPUID was read on, as the process
# saw it then, and it is the one --cpu asked for (the last CPU, and CPU 0). Each run starts
# on the other CPU (taskset), so CPUID read before pinning would name the wrong one.
set -u
. "$(dirname "$0")/../lib.sh"

out=$(fresh_dir host-cpuid-cpu)
cpus=$(nproc)
last=$((cpus - 1))
if [ "$last" -lt 1 ]; then
    echo "# one CPU here: --cpu can only be 0, which the process may start on anyway"
fi
n=0
for cpu in $last 0; do
    n=$((n + 1))
    start=$((cpu == 0 ? last : 0))
    taskset -c "$start" "$ROOT/build/chase-host" --out "$out" --cpu "$cpu" profile=quick \
        experiments=random random.max=256K >"$TEST_TMP/cpuid-cpu-$cpu.log" 2>&1
    j=$out/$(printf %04d $n)/run.json
    check "--cpu $cpu: pinned to it" grep -q "^chase-host: pinned to CPU $cpu\$" \
        "$TEST_TMP/cpuid-cpu-$cpu.log"
    check "--cpu $cpu: run.json says CPUID was read on CPU $cpu" json_true "$j" \
        ".cpuid_read_on.cpu == $cpu and (.cpuid_read_on.how | test(\"sched_getcpu\"))"
    [ "$last" -ge 1 ] || break
done
finish
