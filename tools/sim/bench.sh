#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How fast chase-sim simulates: loads per second of its model and backend on the kernel's
# random chains, for 3-level presets (one core; `make bench` runs it).
#   tools/sim/bench.sh [path/to/chase-sim]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=${1:-$root/build/chase-sim}
[ -x "$sim" ] || make -C "$root" -s build/chase-sim
for preset in ivybridge epyc-zen4; do
    "$sim" --bench --hierarchy "$preset"
done
