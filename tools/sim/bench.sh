#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How fast chase-sim simulates: loads per second of its model and backend on the kernel's
# random chains, for 3-level hierarchies (one core; `make bench` runs it).
#   tools/sim/bench.sh [path/to/chase-sim]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=${1:-$root/build/chase-sim}
[ -x "$sim" ] || make -C "$root" -s build/chase-sim
plain="L1:32K:8w:4c:lru,L2:1M:8w:14c:lru,L3:32M:16w:50c:lru,DRAM:200c"
# The hierarchy the issue (and chase-sim --help) gives as its example: a sliced DRRIP LLC.
example="L1:32K:8w:4c:lru,L2:256K:8w:12c:plru,L3:6M:12w:40c:drrip:slices=4,DRAM:200c"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
echo "== chase-sim benchmark on $cpu"
echo "   $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for hierarchy in ivybridge epyc-zen4 "$example" "$plain"; do
    "$sim" --bench --hierarchy "$hierarchy"
done
