# SPDX-License-Identifier: MIT
# Helpers for the QEMU tests: boot the real image under OVMF, check what comes back.
# Checks print "ok - what" or "not ok - what" (tests/run-tests.sh counts them).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IMAGE=${IMAGE:-$ROOT/build/chase.img}
TEST_TMP=${TEST_TMP:-$ROOT/build/qemu-tests}
export MTOOLS_SKIP_CHECK=1
mkdir -p "$TEST_TMP"

# check DESCRIPTION COMMAND...: run the command, report ok / not ok.
check() {
    local what=$1
    shift
    if "$@" >/dev/null 2>&1; then
        echo "ok - $what"
    else
        echo "not ok - $what"
    fi
}

# boot NAME [qemu-run.sh options...]: boot a fresh copy; sets BOOT_RC, RUN_DIR, WORK, SERIAL.
boot() {
    local name=$1
    shift
    WORK="$TEST_TMP/$name"
    rm -rf "$WORK"
    mkdir -p "$WORK"
    BOOT_RC=0
    "$ROOT/tools/qemu-run.sh" --image "$IMAGE" --work "$WORK/vm" --out "$WORK/out" \
        --timeout "${BOOT_TIMEOUT:-300}" "$@" >"$WORK/qemu-run.log" 2>&1 || BOOT_RC=$?
    SERIAL="$WORK/vm/serial.log"
    RUN_DIR=$(cat "$WORK/vm/run-folder" 2>/dev/null || true)
    echo "# $name: qemu-run exit $BOOT_RC, run folder ${RUN_DIR:-none}"
}

# csv_has_columns FILE COL...: the header names every column.
csv_has_columns() {
    local file=$1 col
    shift
    local header
    header=$(head -n 1 "$file" | tr -d '\r')
    for col in "$@"; do
        echo ",$header," | grep -q ",$col," || { echo "missing column $col" >&2; return 1; }
    done
}

# csv_rows FILE: data rows (without the header).
csv_rows() {
    tail -n +2 "$1" | grep -c .
}

# csv_positive FILE COL...: every row has a number > 0 in each column.
csv_positive() {
    local file=$1
    shift
    awk -F, -v cols="$*" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(cols, want, " ");
                  for (k = 1; k <= n; k++) if (!(want[k] in idx)) exit 2; next }
        { for (k = 1; k <= n; k++) { v = $(idx[want[k]]);
              if (v !~ /^[0-9.eE+-]+$/ || v + 0 <= 0) { bad = 1 } } }
        END { exit bad }' "$file"
}

# csv_sum FILE COL: the sum of a column over the data rows (0 when there are none).
csv_sum() {
    awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
        { s += $c } END { if (!c) exit 2; printf "%d\n", s }' "$1"
}

# csv_at_least FILE COL MIN: every row has at least MIN in the column.
csv_at_least() {
    awk -F, -v col="$2" -v min="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i;
        next } $c + 0 < min + 0 { bad = 1 } END { exit bad || !c }' "$1"
}

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

# json_true FILE JQ-EXPRESSION: the expression holds for the document.
json_true() {
    jq -e "$2" "$1" >/dev/null
}

# validate_random DIR: the random experiment's files in a run folder are complete and sane.
validate_random() {
    local dir=$1 min max ppo stride reps rows
    min=$(jq -r .config.random.min "$dir/run.json")
    max=$(jq -r .config.random.max "$dir/run.json")
    ppo=$(jq -r .config.random.points_per_octave "$dir/run.json")
    stride=$(jq -r .config.random.stride "$dir/run.json")
    reps=$(jq -r .config.reps "$dir/run.json")
    check "random.csv names its columns" csv_has_columns "$dir/random.csv" size_bytes \
        stride_bytes hops tsc_min tsc_median ns_median core_cycles_median build_ns
    rows=$(csv_rows "$dir/random.csv")
    check "random.csv has one row per planned size ($rows of $(sweep_points "$min" "$max" "$ppo" "$stride"))" \
        test "$rows" = "$(sweep_points "$min" "$max" "$ppo" "$stride")"
    check "random.csv values are positive" csv_positive "$dir/random.csv" size_bytes hops \
        tsc_median ns_median core_cycles_median
    check "random.samples.csv has every repetition" \
        test "$(csv_rows "$dir/random.samples.csv")" = "$(csv_sum "$dir/random.csv" reps)"
    check "random.csv: at least reps=$reps repetitions a point" csv_at_least \
        "$dir/random.csv" reps "$reps"
    check "random.samples.csv names its columns" csv_has_columns "$dir/random.samples.csv" \
        size_bytes rep tsc_total tsc_per_access
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

# volume_manifest IMG [EXCLUDE-PREFIX]: "md5 path" for every file on the image's FAT volume.
volume_manifest() {
    local img=$1 exclude=${2:-} f
    mdir -i "$img@@1M" -/ -b :: 2>/dev/null | sed 's#^::##' | while read -r f; do
        case "$f" in */) continue ;; esac
        [ -n "$exclude" ] && case "$f" in "$exclude"*) continue ;; esac
        printf '%s %s\n' "$(mtype -i "$img@@1M" "::$f" 2>/dev/null | md5sum | cut -c1-32)" "$f"
    done | sort -k2
}

# image_with_config NAME SETTING...: a copy of the image whose chase.cfg holds the settings.
image_with_config() {
    local name=$1 img="$TEST_TMP/$1.img"
    shift
    cp "$IMAGE" "$img"
    printf '%s\n' "$@" >"$TEST_TMP/$name.cfg"
    mcopy -o -i "$img@@1M" "$TEST_TMP/$name.cfg" ::/chase/chase.cfg
    echo "$img"
}
