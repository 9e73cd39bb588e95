#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-collect on 127.0.0.1 with curl: a chase-host run PUT file by file then its manifest is
# complete and indexed (sqlite3 queries); a complete run is never written again; killed during
# an upload and started again, a run is complete only once its manifest checks, the rest of its
# files then complete it; --index on a copy gives the same rows. Timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"
work=$(fresh_dir collect)
trap stop_collector EXIT
M=TESTSERIAL-0001
R=20261128120000-0a1b2c3d-00c0ffee

run=$(make_run "$work/host")
check "chase-host made a run folder of $RUN_EXPERIMENTS" test -n "$run"
[ -n "$run" ] || { finish; exit; }
root=$work/root
check "chase-collect starts on 127.0.0.1, any free port" start_collector "$work/collect.log" \
    --root "$root" --token "$TOKEN"

# Every file, then the manifest: the run is complete only after the manifest.
files=$(ls "$run" | grep -vx manifest.json)
nfiles=$(echo "$files" | wc -l)
codes=
for f in $files; do
    codes="$codes$(put "$run/$f" "$M/$R/$f") "
done
check "each of the $nfiles files is taken (201)" test "$codes" = "$(printf '201 %.0s' $files)"
check "before its manifest the run is not complete (no $M/$R, the files staged)" sh -c "
    ! test -e '$root/$M/$R' && test \$(ls '$root/.staging/$M/$R' | wc -l) = $nfiles"
make_manifest "$run" "$M" "$R" >"$run/manifest.json"
check "the manifest completes the run (201)" test "$(put "$run/manifest.json" "$M/$R/manifest.json")" = 201
check "the complete run is the run folder byte for byte, manifest.json with it" \
    same_folder "$run" "$root/$M/$R"
check "nothing of it stays in staging" test ! -e "$root/.staging/$M/$R"
check "the log says it is complete and indexed" grep -q "PUT /$M/$R/manifest.json 201 .* complete, indexed" \
    "$work/collect.log"

# The index: machines, runs, levels, bandwidth, peaks, c2c, files, as chase-report reads the run.
db=$root/fleet.sqlite
"$ROOT/build/chase-report" --json "$run" >"$work/report.json"
q() { sqlite3 "$db" "$1"; }
check "fleet.sqlite: one machine, with run.json's CPU and microcode" test "$(q "SELECT machine,
    cpu, cpu_family, microcode FROM machines")" = "$M|$(jq -r '.cpu.brand' "$run/run.json")|$(
    jq -r '.cpu.family' "$run/run.json")|$(jq -r '.machine_identity.microcode.revision' "$run/run.json")"
check "fleet.sqlite: the run with its folder (path relative to DIR), status and experiments" \
    test "$(q "SELECT path, status, profile, experiments FROM runs WHERE machine = '$M' AND
        run_id = '$R'")" = "$M/$R|complete|quick|$RUN_EXPERIMENTS"
check "fleet.sqlite: the levels chase-report finds, name, size and latency" test \
    "$(q "SELECT name, size_bytes, latency_ns FROM levels ORDER BY level")" = \
    "$(jq -r '.levels[] | [.name, (.size_bytes // ""), .latency_ns] | join("|")' "$work/report.json")"
check "fleet.sqlite: read bandwidth per level, from bandwidth's verdict table" test \
    "$(q "SELECT l.text, g.value FROM verdict_rows l JOIN verdict_rows g USING (machine, run_id,
        experiment, item, row) WHERE l.experiment = 'bandwidth' AND l.item = 'levels' AND
        l.col = 'level' AND g.col = 'read_gbs' ORDER BY l.row")" = \
    "$(jq -r '.verdicts.bandwidth.levels[] | [.level, .read_gbs] | join("|")' "$work/report.json")"
check "fleet.sqlite: the all-core peak, the largest of bw_cores' peaks" test \
    "$(q "SELECT max(value) FROM verdict_rows WHERE experiment = 'bw_cores' AND item = 'peak'
        AND col = 'gbs'")" = "$(jq '[.verdicts.bw_cores.peak[].gbs] | max' "$work/report.json")"
check "fleet.sqlite: DRAM latency as chase-report gives it (null when not reached)" test \
    "$(q "SELECT coalesce(dram_latency_ns, 'null') FROM runs")" = "$(jq '.dram_latency_ns' "$work/report.json")"
check "fleet.sqlite: a verdict per experiment, with its text" test \
    "$(q "SELECT experiment || ': ' || verdict FROM verdicts ORDER BY experiment")" = \
    "$(jq -r '.verdicts | to_entries[] | "\(.key): \(.value.verdict)"' "$work/report.json" | sort)"
check "fleet.sqlite: c2c by group, its verdict's items in ns (none on one processor)" test \
    "$(q "SELECT item, value FROM verdict_items WHERE experiment = 'c2c' AND unit = 'ns' AND
        item <> 'noise_ns' ORDER BY item")" = "$(jq -r '.verdicts.c2c // {} | to_entries[] |
        select((.value | type) == "number" and .key != "noise_ns") | "\(.key)|\(.value)"' \
        "$work/report.json" | sort)"
check "fleet.sqlite: every file with its size and SHA-256 as on disk" test \
    "$(q "SELECT name, size, sha256 FROM files ORDER BY name")" = "$(cd "$run" && for f in *; do
        echo "$f|$(stat -c %s "$f")|$(sha256sum "$f" | cut -d' ' -f1)"; done)"

# A complete run is never written again.
before=$(sha256sum "$root/$M/$R/run.json")
check "a file PUT to a complete run: 409" test "$(put "$run/c2c.csv" "$M/$R/run.json")" = 409
check "its manifest again: 409" test "$(put "$run/manifest.json" "$M/$R/manifest.json")" = 409
check "the complete run is unchanged" test "$(sha256sum "$root/$M/$R/run.json")" = "$before"

# Killed during an upload, started again: complete only once the manifest checks.
R2=20261128130000-0a1b2c3d-00beef00
big=$work/big.csv
yes "chase-collect test: one line of a large file, the same on every machine" | head -c 4000000 \
    >"$big" # a file the rate limit below keeps in flight
cp "$big" "$run/zz_big.csv"
rm "$run/manifest.json"
half=$(echo "$files" | head -n $((nfiles / 2)))
for f in $half; do put "$run/$f" "$M/$R2/$f" >/dev/null; done
put "$big" "$M/$R2/zz_big.csv" --limit-rate 200K >/dev/null &
curl_pid=$!
for i in $(seq 1 50); do # until the upload is under way (its part file is there)
    ls "$root/.staging/$M/$R2" 2>/dev/null | grep -q 'zz_big.csv.part' && break
    sleep 0.1
done
kill -9 "$COLLECT_PID"
wait "$COLLECT_PID" 2>/dev/null
COLLECT_PID=
wait "$curl_pid" 2>/dev/null
check "killed during an upload: the run is not complete" test ! -e "$root/$M/$R2"
check "the interrupted file is not staged as a whole file" test ! -e "$root/.staging/$M/$R2/zz_big.csv"
check "chase-collect starts again on the same folder" start_collector "$work/collect2.log" \
    --root "$root" --token "$TOKEN"
make_manifest "$run" "$M" "$R2" >"$run/manifest.json"
code=$(put "$run/manifest.json" "$M/$R2/manifest.json")
check "the manifest, files still missing: 409 ($code), the run not complete" sh -c "
    test $code = 409 && ! test -e '$root/$M/$R2'"
check "not in the index either" test "$(q "SELECT count(*) FROM runs WHERE run_id = '$R2'")" = 0
codes=
for f in $(ls "$run" | grep -vx manifest.json); do
    echo "$half" | grep -qx "$f" || codes="$codes$(put "$run/$f" "$M/$R2/$f") "
done
check "the rest of the files are taken, the last completes the run" sh -c "
    test '$codes' = '$(printf '201 %.0s' $(seq 1 $((nfiles - nfiles / 2 + 1))))' &&
    grep -q 'PUT /$M/$R2/zz_big.csv 201 .* complete, indexed' '$work/collect2.log'"
check "the completed run equals the folder, no part file in it" same_folder "$run" "$root/$M/$R2"
check "and is indexed beside the first" test "$(q "SELECT count(*) FROM runs")" = 2
stop_collector

# --index on a copy of the folder gives the same rows.
cp -r "$root" "$work/copy"
rm "$work/copy/fleet.sqlite"
"$COLLECT" --index "$work/copy" >"$work/index.log" 2>&1
check "--index on a copy of the collector's folder indexes both runs" test \
    "$(grep -c '^indexed ' "$work/index.log")" = 2
dump_tables "$db" >"$work/rows-collector.txt"
dump_tables "$work/copy/fleet.sqlite" >"$work/rows-index.txt"
check "--index gives the same rows as the collector (every table)" \
    cmp -s "$work/rows-collector.txt" "$work/rows-index.txt"
"$COLLECT" --index "$work/copy" >/dev/null 2>&1
dump_tables "$work/copy/fleet.sqlite" >"$work/rows-index2.txt"
check "--index twice: the same rows again" cmp -s "$work/rows-index.txt" "$work/rows-index2.txt"

# --prefix: runs PUT under a path (results = http://HOST:PORT/chase/fleet).
check "chase-collect starts with --prefix /chase/fleet" start_collector "$work/collect-prefix.log" \
    --root "$work/prefixed" --token "$TOKEN" --prefix /chase/fleet
check "without the prefix: 400" test "$(put "$run/run.json" "$M/$R/run.json")" = 400
check "under the prefix the run is taken and complete" test \
    "$(URL_PREFIX=/chase/fleet put_run "$run" "$M" "$R" | awk '{print $NF}')" = 201
check "it lies in DIR/<machine>/<run id> (the prefix is not a folder)" same_folder "$run" \
    "$work/prefixed/$M/$R"
stop_collector

# Run folders copied off a stick (DIR/runs/NNNN, no manifest): indexed under run.json's names,
# else the folder's.
mkdir -p "$work/disk/runs"
cp -r "$work/host/0001" "$work/disk/runs/0001"
rm -f "$work/disk/runs/0001/manifest.json" "$work/disk/runs/0001/zz_big.csv"
"$COLLECT" --index "$work/disk" >"$work/index-disk.log" 2>&1
check "--index on a stick's folder indexes runs/0001" grep -qx 'indexed runs/0001' \
    "$work/index-disk.log"
check "its run id is run.json's, else the folder's; its levels are there" test "$(sqlite3 \
    "$work/disk/fleet.sqlite" "SELECT run_id, path, levels FROM runs")" = \
    "$(jq -r '.run_id // "0001"' "$run/run.json")|runs/0001|$(jq '.levels | length' "$work/report.json")"
finish
