# SPDX-License-Identifier: MIT
# Checks of a run folder (chase.efi, chase-host and chase-sim write the same): run.json's facts,
# and each experiment's files against the configuration in run.json (header, one row per
# planned point, positive values, every repetition in the samples). Source after tests/lib.sh.

COMMON="hops reps build_ns tsc_min tsc_median tsc_p90 ns_min ns_median ns_p90 ns core_cycles
    core_cycles_min core_cycles_median core_cycles_p90 core_per_tsc clock clock_disagree_pct
    disturbed passes outliers precision_pct stop warm_ns timed_ns bookkeeping_ns output_ns
    timed_fraction tick_share_pct"
SAMPLES="rep hops tsc_total tsc_per_access ns_per_access outlier core_per_tsc clock_pair_pct smi"

cfg() { jq -r ".config.$1" "$dir/run.json"; }

# table_experiments COMMAND...: the experiments of the table, in order, as a JSON array, read from
# the help the command prints (chase-host --help: a "name: what it measures" line each), so that
# no test counts or lists them itself. Prints [] when the help has none.
table_experiments() {
    "$@" --help 2>/dev/null | sed -n 's/^\([a-z0-9_]*\): .*/\1/p' | grep -vx usage |
        jq -R . | jq -sc .
}

# ran NAME: the experiment is in the run's list.
ran() { jq -e --arg n "$1" '.config.experiments | index($n) != null' "$dir/run.json" >/dev/null; }

# sweep_points MIN MAX PPO ALIGN: how many sizes the random sweep has (independent of chase).
sweep_points() {
    awk -v min="$1" -v max="$2" -v ppo="$3" -v align="$4" 'BEGIN {
        n = 0; last = 0
        for (k = 0; ; k++) {
            exact = min * 2 ^ (k / ppo)
            s = (exact >= max * (1 - 1e-12)) ? max : int(exact + 0.5)
            s = int(s / align) * align; if (s < align) s = align
            if (s != last) { n++; last = s }
            if (s >= int(max / align) * align || exact >= max) break
        }
        print n }'
}

# validate_run_json DIR: run.json parses and carries the facts a reader needs.
validate_run_json() {
    local j=$1/run.json
    check "run.json parses" jq . "$j"
    check "run.json has version and CPU identity" json_true "$j" \
        '(.version|type=="string") and (.cpu.vendor|length>0) and (.cpu.brand|length>0)
         and (.cpu.family|type=="number") and (.cpu.model|type=="number")
         and (.cpu.stepping|type=="number")'
    check "run.json lists the CPUID caches" json_true "$j" \
        '(.caches|length>0) and all(.caches[]; (.level>0) and (.type|type=="string")
         and (.size_bytes>0) and (.ways|type=="number") and (.line_bytes>0))'
    check "run.json has TSC facts" json_true "$j" \
        '(.tsc.hz>0) and (.tsc.invariant|type=="boolean") and (.tsc.method|length>0)'
    check "run.json has hypervisor, memory and buffer" json_true "$j" \
        '(.hypervisor|type=="boolean") and (.memory_total_bytes>0)
         and (.buffer.phys_addr|type=="number") and (.buffer.size_bytes>0)'
    check "run.json has the effective configuration" json_true "$j" \
        '(.config.reps>0) and (.config.random.max>0) and (.config.experiments|length>0)'
}

# check_csv NAME ROWS COLUMNS...: NAME.csv has the columns, ROWS rows and positive values,
# NAME.samples.csv one row per repetition.
check_csv() {
    local name=$1 want=$2 file="$dir/$1.csv" rows
    shift 2
    check "$name.csv names its columns" csv_has_columns "$file" "$@" $COMMON
    rows=$(csv_rows "$file" 2>/dev/null || echo 0)
    check "$name.csv has one row per planned point ($rows of $want)" test "$rows" = "$want"
    check "$name.csv values are positive" csv_positive "$file" hops reps tsc_median ns_min \
        ns_median ns_p90 core_cycles_median
    check "$name.samples.csv has every repetition (the reps column's sum)" \
        test "$(csv_rows "$dir/$name.samples.csv")" = "$(csv_sum "$file" reps)"
    check "$name.csv: at least reps=$reps repetitions a point" csv_at_least "$file" reps "$reps"
    check "$name.samples.csv names its columns" csv_has_columns "$dir/$name.samples.csv" $SAMPLES
    check "$name: the outlier flags add up to the outliers column" \
        test "$(csv_sum "$dir/$name.samples.csv" outlier)" = "$(csv_sum "$file" outliers)"
    check "$name.csv: each stop is fixed, precision, time, max_reps or passes" awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stop") c = i; next }
        $c !~ /^(fixed|precision|time|max_reps|passes)$/ { bad = 1 } END { exit bad || !c }' \
        "$file"
}

# check_random: the random experiment's files in $dir (reps set to the run's).
check_random() {
    check_csv random "$(sweep_points "$(cfg random.min)" "$(cfg random.max)" \
        "$(cfg random.points_per_octave)" "$(cfg random.stride)")" size_bytes stride_bytes \
        offset_bytes locality_bytes page_bytes slots
    check "random.csv: build_ns is positive" csv_positive "$dir/random.csv" build_ns
}

# validate_random DIR: the random experiment's files in a run folder are complete and sane.
validate_random() {
    local dir=$1 reps
    reps=$(cfg reps)
    check_random
}

# strides MIN MAX STEP: how many strides a linear sweep has.
strides() { echo $((($2 - $1) / $3 + 1)); }

# validate_experiments DIR: every experiment in DIR's run.json has valid files.
validate_experiments() {
    dir=$1
    local reps s ring_rows fused_rows tlb_pages
    reps=$(cfg reps)
    if ran random; then
        check_random
    fi
    if ran linear; then
        check_csv linear "$(strides "$(cfg linear.min_stride)" "$(cfg linear.max_stride)" \
            "$(cfg linear.step)")" size_bytes stride_bytes
        check "linear.csv strides step from min_stride to max_stride" awk -F, \
            -v lo="$(cfg linear.min_stride)" -v st="$(cfg linear.step)" \
            'NR > 1 && $2 != lo + (NR - 2) * st { bad = 1 } END { exit bad }' "$dir/linear.csv"
    fi
    if ran fused; then
        fused_rows=$(strides "$(cfg fused.min_stride)" "$(cfg fused.max_stride)" \
            "$(cfg fused.step)")
        fused_rows=$((fused_rows * $(cfg fused.max_fuse)))
        check_csv fused "$fused_rows" streams stride_bytes size_bytes gib_per_s \
            ns_per_access_per_chain
        check "fused.csv: GiB/s and ns per access per chain are positive" csv_positive \
            "$dir/fused.csv" streams gib_per_s ns_per_access_per_chain
    fi
    if ran dual; then
        check_csv dual "$(sweep_points "$(cfg dual.min)" "$(cfg dual.max)" \
            "$(cfg dual.points_per_octave)" "$(cfg dual.stride)")" size_bytes lag_slots
        check "run.json: dual.lag is resolved and says whether it was auto" json_true \
            "$dir/run.json" '.config.dual.lag>0 and (.config.dual.lag_auto|type=="boolean")'
        if [ "$(cfg dual.lag_auto)" = true ]; then
            check "console shows the lag auto chose" grep -q "lag auto = $(cfg dual.lag) slots" \
                "$dir/console.txt"
        fi
    fi
    if ran scan; then
        check_csv scan "$(sweep_points "$(cfg scan.small_min)" "$(cfg scan.small_max)" \
            "$(cfg scan.points_per_octave)" "$(cfg scan.stride)")" small_bytes huge_bytes
        check "scan.csv: huge_bytes is the configured huge region" awk -F, \
            -v h="$(cfg scan.huge)" 'NR > 1 && $2 != h { bad = 1 } END { exit bad }' \
            "$dir/scan.csv"
    fi
    if ran ring; then
        ring_rows=0
        for s in $(jq -r '.config.ring.strides[]' "$dir/run.json"); do
            ring_rows=$((ring_rows + $(sweep_points "$(cfg ring.min)" "$(cfg ring.max)" \
                "$(cfg ring.points_per_octave)" "$s")))
        done
        check_csv ring "$ring_rows" stride_bytes size_bytes
    fi
    if ran offset; then
        check_csv offset "$((2 * ($(cfg offset.offset_max) / $(cfg offset.offset_step) + 1)))" \
            direction offset_bytes stride_bytes size_bytes
        check "offset.csv sweeps up, then down" sh -c "cut -d, -f1 '$dir/offset.csv' | uniq | \
            tr '\n' ' ' | grep -qx 'direction up down '"
        check "run.json: offset.size is resolved" json_true "$dir/run.json" '.config.offset.size>0'
    fi
    if ran parallel; then
        check_csv parallel "$(cfg parallel.max_chains)" chains size_bytes gib_per_s \
            ns_per_access_per_chain parallelism
        check "parallel.csv: parallelism of one chain is 1" awk -F, \
            'NR == 2 && ($6 < 0.999 || $6 > 1.001) { bad = 1 } END { exit bad }' \
            "$dir/parallel.csv"
    fi
    if ran tlb; then
        tlb_pages=$(tail -n +2 "$dir/tlb.csv" | cut -d, -f1 | sort -u | wc -l)
        check_csv tlb "$(($(sweep_points "$(cfg tlb.min)" "$(cfg tlb.max)" 2 4096) * tlb_pages))" \
            page_bytes size_bytes page_source
        check "tlb.csv: every measured page size is a configured one" sh -c "
            for p in \$(tail -n +2 '$dir/tlb.csv' | cut -d, -f1 | sort -u); do
                jq -e --argjson p \"\$p\" '.config.tlb.pages | index(\$p) != null' \
                    '$dir/run.json' >/dev/null || exit 1
            done"
    fi
    if ran numa && [ "$(jq -r .experiments.numa "$dir/run.json")" = ok ]; then
        check_csv numa "$(jq '([.memory_nodes.nodes[] | select(.processors | length > 0)] | length) *
            ([.memory_nodes.nodes[] | select(.free_bytes > 0)] | length)' "$dir/run.json")" \
            cpu_node mem_node cpu_domain mem_domain cpu size_bytes slit_distance buffer_phys
    fi
    if ran bandwidth && [ "$(jq -r .experiments.bandwidth "$dir/run.json")" = ok ]; then
        check_bandwidth
    fi
    if ran bw_cores && [ "$(jq -r .experiments.bw_cores "$dir/run.json")" = ok ]; then
        check_bw_cores
    fi
    if ran atomics && [ "$(jq -r .experiments.atomics "$dir/run.json")" = ok ]; then
        check_atomics
    fi
}

# check_atomics: a row for 1, 2, 4 ... N processors, each repetition back, every processor's own
# counts in the samples (issue 53).
check_atomics() {
    local f="$dir/atomics.csv" n want
    n=$(awk -F, 'NR > 1 && $1 > m { m = $1 } END { print m + 0 }' "$f")
    want=$(awk -v n="$n" 'BEGIN { for (k = 1; k < n; k *= 2) s = s k " "; print s n " " }')
    check "atomics.csv: 1, 2, 4 ... $n processors, each repetition back, rates and ns positive" \
        test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["reps_ok"] == $c["reps"] && $c["mops_median"] > 0 && $c["ns_per_op_median"] > 0 &&
            $c["ns_per_op_fastest"] <= $c["ns_per_op_median"] &&
            $c["ns_per_op_median"] <= $c["ns_per_op_slowest"] { printf "%s ", $1 }' "$f")" = "$want"
    check "atomics.samples.csv: each count's repetitions hold that many processors' counts" awk -F, '
        FNR == 1 { next } FILENAME == ARGV[1] { want += $1 * $2; next } $4 > 0 { got++ }
        END { exit !(want > 0 && got == want) }' "$f" "$dir/atomics.samples.csv"
}

# check_bw_cores: scaling rows for 1, 2, 4 ... N processors, then the five peak mixes on N.
check_bw_cores() {
    local f="$dir/bw_cores.csv" n want
    check "bw_cores.csv names its columns" csv_has_columns "$f" table processors level kernel \
        gbs_total gbs_per_processor
    n=$(awk -F, 'NR > 1 && $1 == "scaling" && $2 > m { m = $2 } END { print m + 0 }' "$f")
    want=$(awk -v n="$n" 'BEGIN { for (k = 1; k < n; k *= 2) s = s k " "; print s n " " }')
    check "bw_cores.csv: scaling on 1, 2, 4 ... $n processors" \
        test "$(awk -F, 'NR > 1 && $1 == "scaling" { printf "%s ", $2 }' "$f")" = "$want"
    check "bw_cores.csv: the five peak mixes on all $n processors" \
        test "$(awk -F, -v n="$n" 'NR > 1 && $1 == "peak" && $2 == n { printf "%s;", $4 }' "$f")" \
        = "all-read;3:1;2:1;1:1;nt-write 1:1;"
    check "bw_cores.csv: GB/s positive, per processor the total over the count" awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        !($c["gbs_total"] > 0 &&
          ($c["gbs_total"] / $c["processors"] - $c["gbs_per_processor"])^2 < 1e-4) { bad = 1 }
        END { exit bad }' "$f"
    # every width of a row is in the samples; the row's reps are its kept width's runs
    check "bw_cores.samples.csv has every run of each row's width" awk -F, '
        FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME "/" $i] = i; next }
        FILENAME == ARGV[1] {
            k = $col[ARGV[1] "/processors"] "," $col[ARGV[1] "/kernel"] "," $col[ARGV[1] "/width"]
            want[k] += $col[ARGV[1] "/reps"]; next }
        { got[$1 "," $2 "," $3]++ }
        END { for (k in want) if (got[k] != want[k]) exit 1; exit !length(want) }' \
        "$f" "$dir/bw_cores.samples.csv"
}

# check_bandwidth: one row per size (random's sweep, 1K-aligned) and kernel, every repetition in
# the samples, GB/s positive and ordered min <= median <= max, the width said on the console.
check_bandwidth() {
    local f="$dir/bandwidth.csv" kernels sizes rows
    kernels=$(jq '.config.bandwidth.kernels | length' "$dir/run.json")
    sizes=$(sweep_points "$(cfg bandwidth.min)" "$(cfg bandwidth.max)" \
        "$(cfg bandwidth.points_per_octave)" 1024)
    rows=$(csv_rows "$f" 2>/dev/null || echo 0)
    check "bandwidth.csv names its columns" csv_has_columns "$f" size_bytes kernel width_bits \
        gbs_median gbs_min gbs_max bytes_per_cycle_median reps
    check "bandwidth.csv has one row per size and kernel ($rows of $sizes x $kernels)" \
        test "$rows" = "$((sizes * kernels))"
    check "bandwidth.csv: GB/s positive, min <= median <= max" awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        !($c["gbs_min"] > 0 && $c["gbs_min"] <= $c["gbs_median"] &&
          $c["gbs_median"] <= $c["gbs_max"]) { bad = 1 } END { exit bad }' "$f"
    check "bandwidth.samples.csv has every repetition" \
        test "$(csv_rows "$dir/bandwidth.samples.csv")" = "$(csv_sum "$f" reps)"
    check "console says the vector width used" grep -q '^vector width: ' "$dir/console.txt"
}
