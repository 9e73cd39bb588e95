#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-collect --serial: a run folder streamed as CHASE-FILE lines (serial_encode.py here; the
# firmware's own in tests/qemu) is rebuilt byte for byte into DIR/<machine>/<run id>/ and
# indexed; a chunk damaged in the log, or a log cut short, is reported and no complete run made.
set -u
. "$(dirname "$0")/lib.sh"
work=$(fresh_dir serial)
M=SERIAL-BOX-3
R=20261128160000-feedf00d-0000abcd
encode() { python3 "$ROOT/tests/collect/serial_encode.py" "$@"; }

run=$(make_run "$work/host")
check "chase-host made a run folder" test -n "$run"
[ -n "$run" ] || { finish; exit; }
make_manifest "$run" "$M" "$R" >"$run/manifest.json"
encode "$run" "$M" "$R" >"$work/console.log"
log_framed() { # console text, CR LF line ends, a tag after console text on some lines
    grep -q '^chase 0.1.0' "$1" && grep -q $'\r$' "$1" && grep -q $'^\e\\[0mCHASE-FILE v=1 ' "$1"
}
check "the log holds CHASE-FILE lines among console text, CR LF" log_framed "$work/console.log"

"$COLLECT" --serial "$work/console.log" --root "$work/root" >"$work/serial.log" 2>&1
check "--serial rebuilds the run and exits 0" test $? = 0
check "the folder is the run folder byte for byte (manifest.json with it)" same_folder "$run" \
    "$work/root/$M/$R"
check "it is indexed" test "$(sqlite3 "$work/root/fleet.sqlite" "SELECT path FROM runs")" = "$M/$R"
"$COLLECT" --serial "$work/console.log" --root "$work/root" >"$work/serial-again.log" 2>&1
check "the same log again: the complete run is not written over (status 1)" sh -c "
    test $? = 1 && grep -q 'complete already' '$work/serial-again.log'"

# One chunk of run.json damaged: its CRC-32 fails; the other files are staged, no complete run.
awk -v bad="kind=data name=run.json seq=2 " 'index($0, bad) && !done {
    sub(/b64=./, "b64=" (substr($0, index($0, "b64=") + 4, 1) == "A" ? "B" : "A")); done = 1 }
    { print }' "$work/console.log" >"$work/damaged.log"
check "the damaged log differs from the good one in one line" test \
    "$(diff "$work/console.log" "$work/damaged.log" | grep -c '^<')" = 1
"$COLLECT" --serial "$work/damaged.log" --root "$work/root-damaged" >"$work/damaged.out" 2>&1
check "--serial on it exits 1" test $? = 1
check "it names run.json's chunk 2 as failing its CRC-32" grep -q \
    "run.json damaged: chunk 2 fails its CRC-32" "$work/damaged.out"
check "no complete run; run.json not written, the other files staged" sh -c "
    test ! -e '$work/root-damaged/$M' && test ! -e '$work/root-damaged/.staging/$M/$R/run.json' &&
    cmp -s '$run/random.csv' '$work/root-damaged/.staging/$M/$R/random.csv'"

# A log cut inside a file (a capture stopped early): that file and the manifest are missing. The
# cut is at the last data line before the first end line past the log's middle, so it falls
# inside a file whatever the run's length (halfway alone may fall between two files).
cut=$(awk -v half=$(($(wc -l <"$work/console.log") / 2)) \
    'NR > half && / kind=end / { print NR - 1; exit }' "$work/console.log")
head -n "$cut" "$work/console.log" >"$work/cut.log"
"$COLLECT" --serial "$work/cut.log" --root "$work/root-cut" >"$work/cut.out" 2>&1
check "--serial on a log cut short exits 1, says the file has no end, makes no complete run" \
    sh -c "test $? = 1 && grep -q 'no end line' '$work/cut.out' && test ! -e '$work/root-cut/$M'"
finish
