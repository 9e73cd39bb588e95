#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Verdicts where the answer is known: chase-sim hierarchies whose policies differ, read back
# through chase-report --json's "verdicts". The expected answers come from the policies'
# definitions (LRU keeps a line's second touch and is flushed by a scan at half the LLC; BIP
# and BRRIP insert at low priority, and so do DIP and DRRIP once their duel settles on the
# bimodal policy, as it does when the buffer thrashes the LLC; RRIP and BIP keep a small hot
# array against a scan;
# DIP/DRRIP have leader sets, LRU/SRRIP none; DRAM's mlp=N is N misses in flight; chase-sim's
# stride prefetcher misses the first three loads of each region and tracks PF:N streams).
# VERDICTS=all (make eval) runs every hierarchy and prints the table docs/report.md keeps;
# the default (make test) runs a subset with both answers of each verdict.
set -u
. "$(dirname "$0")/lib.sh"
SIM=$ROOT/build/chase-sim
all=${VERDICTS:-}

# verdict NAME HIERARCHY JQ ARGS...: run chase-sim, print the verdict field JQ picks.
verdict() {
    local name=$1 hier=$2 q=$3 dir
    shift 3
    dir=$(fresh_dir "verdict-$name")
    "$SIM" --hierarchy "$hier" --out "$dir" "$@" >"$dir.log" 2>&1 || { echo "sim-failed"; return; }
    "$REPORT" --json "$dir/0001" 2>/dev/null | jq -c "$q" 2>/dev/null || echo "report-failed"
}

# row EXPERIMENT HIERARCHY EXPECTED GOT: a check, and a table row for make eval.
row() {
    check "$1 on $2: expected $3, got $4" test "$3" = "$4"
    [ -n "$all" ] && echo "| $1 | $2 | $3 | $4 |"
    return 0
}

# LLC shapes: 1M 16-way (and with VERDICTS=all, 2M 8-way with 2 slices as well).
shapes="1M:16w"
[ -n "$all" ] && shapes="1M:16w 2M:8w:slices=2"
dual_h() { echo "L1:16K:4w:4c:lru,L2:128K:8w:12c:lru,LLC:${2%%:*}:$(echo "$2" | cut -d: -f2):40c:$1$(echo "$2" | cut -sd: -f3 | sed 's/^./:&/'),DRAM:200c"; }
dual_args="experiments=random,dual random.min=16K random.max=4M dual.min=16K dual.max=4M
    random.points_per_octave=2 dual.points_per_octave=2"
scan_h() { echo "L1:16K:4w:4c:lru,LLC:${2%%:*}:$(echo "$2" | cut -d: -f2):40c:$1$(echo "$2" | cut -sd: -f3 | sed 's/^./:&/'),DRAM:200c"; }
# scan: the small array from 1/8 to twice the LLC against a scan of 16 times it.
scan_args() {
    local mb=${1%%M*}
    echo "experiments=scan scan.huge=$((16 * mb))M scan.small_min=$((128 * mb))K scan.small_max=$((2 * mb))M"
}
offset_h() { echo "L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:$1,DRAM:200c"; }
mlp_h() { echo "L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:lru,DRAM:200c:mlp=$1"; }
mlp_args="experiments=random,parallel random.min=1M random.max=8M parallel.size=8M
    parallel.max_chains=10"

[ -n "$all" ] && { echo "| experiment | hierarchy (LLC policy) | expected | got |"; echo "|---|---|---|---|"; }
if [ -n "$all" ]; then dual_pols="lru srrip bip brrip dip drrip"; else dual_pols="lru bip"; fi
for sh in $shapes; do
    for p in $dual_pols; do
        want=false
        case $p in bip | brrip | dip | drrip) want=true ;; esac
        # shellcheck disable=SC2086
        row "dual.adaptive_insertion" "$sh $p" "$want" \
            "$(verdict "dual-$p" "$(dual_h $p $sh)" .verdicts.dual.adaptive_insertion $dual_args)"
    done
done
# A set-dueling LLC behind an L2 of its own, sliced (issue 40): DRRIP's duel settles on BRRIP
# for both the dual and the scan run, so both verdicts are true; with LRU both are false.
duel_h() { echo "L1:32K:8w:4c:lru,L2:512K:8w:14c:lru,L3:8M:16w:45c:$1:slices=4,DRAM:250c"; }
duel_args="experiments=random,dual,scan dual.max=32M scan.huge=128M scan.small_min=512K
    scan.small_max=16M"
duel_q='"\(.verdicts.dual.adaptive_insertion) \(.verdicts.scan.scan_resistant)"'
if [ -n "$all" ]; then duel_pols="drrip lru"; else duel_pols=drrip; fi
for p in $duel_pols; do
    want="true true"
    [ "$p" = lru ] && want="false false"
    # shellcheck disable=SC2086
    got=$(verdict "duel-$p" "$(duel_h $p)" "$duel_q" $duel_args)
    row "dual.adaptive_insertion, scan.scan_resistant" "8M:16w:slices=4 $p, L2 512K" "$want" \
        "${got//\"/}"
done
if [ -n "$all" ]; then scan_pols="lru bip dip srrip brrip drrip"; else scan_pols="lru brrip"; fi
for sh in $shapes; do
    for p in $scan_pols; do
        want=true
        [ "$p" = lru ] && want=false
        # shellcheck disable=SC2086
        row "scan.scan_resistant" "$sh $p" "$want" \
            "$(verdict "scan-$p" "$(scan_h $p $sh)" .verdicts.scan.scan_resistant $(scan_args $sh))"
    done
done
# offset: the candidates named against the layout chase-sim placed (run.json's leader_sets).
offset_q='.verdicts.offset as $o | ($o.simulator_leader_sets[0].candidates // [] | map(.role)) as $r
    | if ($o.leader_offsets_bytes | length) == 0 then "none"
      elif ($r | length) > 0 and all($r[]; . != "follower") then "leaders only"
      else "followers named" end'
offset_row() {
    local want=$1 name=$2 hier=$3 got
    got=$(verdict "offset-$name" "$hier" "$offset_q" experiments=offset)
    row "offset.leader_offsets_bytes" "$name" "$want" "${got//\"/}"
}
l12="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru"
offset_row none "2M:16w lru" "$l12,L3:2M:16w:40c:lru,DRAM:200c"
offset_row "leaders only" "2M:16w dip" "$l12,L3:2M:16w:40c:dip,DRAM:200c"
offset_row "leaders only" "ivybridge (6M 12w drrip, 4 slices)" ivybridge
if [ -n "$all" ]; then
    offset_row none "2M:16w srrip" "$l12,L3:2M:16w:40c:srrip,DRAM:200c"
    offset_row "leaders only" "2M:16w drrip" "$l12,L3:2M:16w:40c:drrip,DRAM:200c"
    offset_row "leaders only" "4M:16w drrip, 2 slices, 8 leaders" \
        "$l12,L3:4M:16w:40c:drrip:slices=2:leaders=8,DRAM:200c"
    offset_row "leaders only" "3M:12w dip, 2 slices, 64 leaders" \
        "$l12,L3:3M:12w:40c:dip:slices=2:leaders=64,DRAM:200c"
    offset_row none "epyc-zen4 (32M lru, 8 slices)" epyc-zen4
fi
# With more misses in flight than the 10 chains tried (mlp=16) the curve still rises at its
# end: the parallelism found is a lower bound, and said so.
for m in 2 6 16; do
    # shellcheck disable=SC2086
    got=$(verdict "mlp-$m" "$(mlp_h $m)" \
        '"\(.verdicts.parallel.mlp) \(.verdicts.parallel.mlp_lower_bound)"' $mlp_args)
    got=${got//\"/}
    if [ "$m" -le 10 ]; then
        row "parallel.mlp (within 10%)" "DRAM mlp=$m" "$m" \
            "$(awk -v g="${got% *}" -v m="$m" 'BEGIN { print (g + 0 > 0.9 * m && g + 0 < 1.1 * m) ? m : g }')"
        row "parallel.mlp_lower_bound" "DRAM mlp=$m, 10 chains" false "${got#* }"
    else
        row "parallel.mlp (at least 9 of 10 chains)" "DRAM mlp=$m" ok \
            "$(awk -v g="${got% *}" 'BEGIN { print (g + 0 >= 9) ? "ok" : g }')"
        row "parallel.mlp_lower_bound" "DRAM mlp=$m, 10 chains" true "${got#* }"
    fi
done
# linear: with no prefetcher every stride is as slow as the random chase (no stride's lines fit
# the 128K L2 of a 16M buffer); with PF a region of R bytes holds R/stride loads whose first
# three miss, so strides up to about R/6 are under half the random latency: the largest
# prefetched stride must lie in R/8..R/4 (4K regions: 512..1024).
lin_h() { echo "L1:16K:4w:4c:lru,L2:128K:8w:12c:lru,${1}DRAM:200c"; }
lin_args="experiments=random,linear random.min=8M random.max=32M random.points_per_octave=1
    linear.size=16M linear.min_stride=128 linear.max_stride=4096 linear.step=128"
lin_q=.verdicts.linear.prefetched_max_stride_bytes
lin_row() {
    local name=$1 pf=$2 lo=$3 hi=$4 got want
    # shellcheck disable=SC2086
    got=$(verdict "linear-$name" "$(lin_h "$pf")" "$lin_q" $lin_args)
    if [ "$lo" = 0 ]; then want=none; else want="$lo..$hi bytes"; fi
    row "linear.prefetched_max_stride_bytes" "$name" "$want" \
        "$(awk -v g="$got" -v lo="$lo" -v hi="$hi" -v w="$want" \
            'BEGIN { print (g == "0" && lo == 0) || (g + 0 >= lo && g + 0 <= hi && lo > 0) ? w : g }')"
}
lin_row "no prefetcher" "" 0 0
lin_row "PF:16 (4K regions)" "PF:16," 512 1024
if [ -n "$all" ]; then
    lin_row "PF:16:region=16K" "PF:16:region=16K," 2048 4096
    lin_row "PF:16:into=L2" "PF:16:into=L2," 512 1024
fi
# fused: PF:N tracks N streams; more evict each other (LRU) and none is prefetched. The L1 has
# 16 ways (the streams' parts are aligned: their lines share sets) and DRAM overlaps 16 loads,
# so bandwidth grows up to N streams; max_fuse is at most 14 (the lock-step chase's limit).
fused_args="experiments=fused fused.size=14M fused.min_stride=64 fused.max_stride=192
    fused.step=64 fused.max_fuse=14"
if [ -n "$all" ]; then fused_ns="2 4 8 12"; else fused_ns="4 8"; fi
for n in $fused_ns; do
    # shellcheck disable=SC2086
    row "fused.streams_tracked" "PF:$n" "$n" "$(verdict "fused-$n" \
        "L1:64K:16w:4c:lru,L2:512K:8w:12c:lru,PF:$n,DRAM:200c:mlp=16" \
        .verdicts.fused.streams_tracked $fused_args)"
done
# tlb: one slot per 4K page under 4K, 2M and 1G pages (1G the reference); an L1 DTLB and an
# STLB of E entries cover E x page bytes, each missed adds its cost (1 GHz: cycles are ns).
# Expected: a step per TLB reach inside the sweep, reach within 1.5x (as levels are judged),
# 4K penalties (sharp steps: a cyclic chain misses every time) within 10%, a 2M step's
# penalty above 0 and at most the DTLB's (past its reach a 4-way DTLB misses in part).
tlb_q='[.verdicts.tlb.steps[] | "\(.reach_bytes):\(.page_bytes):\(.penalty_ns)"] | join(" ")'
tlb_row() {
    local name=$1 hier=$2 want=$3 got
    got=$(verdict "tlb-${name//[^A-Za-z0-9]/}" "$hier" "$tlb_q" experiments=tlb tlb.max=256M)
    got=${got//\"/}
    row "tlb.steps" "$name" "$want" "$(awk -v g="$got" -v w="$want" 'BEGIN {
        ng = split(g, gs, " "); nw = split(w, ws, " "); ok = ng == nw
        for (i = 1; ok && i <= nw; i++) {
            split(gs[i], a, ":"); split(ws[i], b, ":") # reach:page:penalty, expected in K and ns
            r = a[1] / (b[1] * 1024); ok = r > 1 / 1.5 && r < 1.5 && a[2] == b[2] * 1024
            if (b[2] == 4) ok = ok && a[3] > 0.9 * b[3] && a[3] < 1.1 * b[3]
            else ok = ok && a[3] > 0 && a[3] <= b[3] }
        print ok ? w : g }')"
}
tlb_l123="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:512M:16w:40c:lru"
tlb_row "DTLB 64 4w 10c, STLB 1024 8w 40c" "$tlb_l123,DTLB:64:4w:10c,STLB:1024:8w:40c,DRAM:200c" \
    "256:4:10 4096:4:40 131072:2048:10"
if [ -n "$all" ]; then
    tlb_row "DTLB 32 4w 8c, STLB 512 4w 30c" "$tlb_l123,DTLB:32:4w:8c,STLB:512:4w:30c,DRAM:200c" \
        "128:4:8 2048:4:30 65536:2048:8"
    tlb_row "one TLB: DTLB 64 4w 20c" "$tlb_l123,DTLB:64:4w:20c,DRAM:200c" \
        "256:4:20 131072:2048:20"
fi
finish
