#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report fleet on real runs: tests/report/data/fleet (four chase-host runs of this machine
# with the SMBIOS identity chase.efi read in QEMU: record.sh), the recorded runs of
# tests/report/corpus/real (no SMBIOS), an older second run of one machine, and a copy of
# FLEET-0003 altered to stand for a machine with half its DIMMs (its DIMM list halved, its DRAM
# bandwidth rows and bw_cores' DRAM figures halved, as half the channels would give). That
# machine is flagged with the figure, the amount and the DIMM difference; fleet.json's
# structure and arithmetic are checked with jq; fleet.md's tables; the same fleet read from a
# chase-collect style fleet.sqlite; a reference file written and read back; fleet.html looked
# at in headless Chromium (renders, no console error, tables, every image a PNG).
set -u
cd "$(dirname "$0")/../.."
. tests/report/lib.sh
tmp=$(fresh_dir fleet)
fleet=$tmp/fleet
out=$tmp/out
mkdir -p "$fleet"
cp -r "$DATA"/fleet/FLEET-* "$fleet/"

# The machine with half its DIMMs: FLEET-0003's run (its analysis finds L1, L2, L3 and DRAM)
half=$fleet/FLEET-0005/0001
mkdir -p "$half"
src=$fleet/FLEET-0003/0001
cp "$src"/*.csv "$half/"
jq '.machine_identity.smbios |= (.system.serial_number = "FLEET-0005" |
        .system.uuid = "7c1e0f00-0000-4000-8000-000000000005" |
        .memory_devices |= .[0:(length / 2)] | .memory_slots = (.memory_devices | length) |
        .memory_installed = (.memory_devices | length) |
        .memory_bytes = ([.memory_devices[].size_bytes] | add) |
        .memory_summary = "2 x 16 GB RAM-4800, 2 of 2 slots")' "$src/run.json" >"$half/run.json"
llc=$(jq '[.caches[].size_bytes] | max' "$src/run.json")
# bandwidth rows at and beyond the largest cache are DRAM's; bw_cores' rows say their level
awk -F, -v OFS=, -v llc="$llc" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["size_bytes"] >= llc { $c["gbs_median"] /= 2; $c["gbs_min"] /= 2; $c["gbs_max"] /= 2
        $c["bytes_per_cycle_median"] /= 2 } { print }' "$src/bandwidth.csv" >"$half/bandwidth.csv"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["level"] == "dram" { $c["gbs_total"] /= 2; $c["gbs_per_processor"] /= 2
        $c["gbs_min"] /= 2; $c["gbs_max"] /= 2 } { print }' "$src/bw_cores.csv" >"$half/bw_cores.csv"
# A run still in chase-collect's staging folder (hidden): not a machine of the fleet
mkdir -p "$fleet/.staging/FLEET-0009/0001"
cp "$fleet"/FLEET-0001/0001/* "$fleet/.staging/FLEET-0009/0001/"
jq '.machine_identity.smbios.system.serial_number = "FLEET-0009"' "$fleet/FLEET-0001/0001/run.json" \
    >"$fleet/.staging/FLEET-0009/0001/run.json"
# An older run of FLEET-0002 under another folder: one row still, the newest run's
old=$fleet/FLEET-0002/0000
mkdir -p "$old"
cp "$fleet"/FLEET-0002/0001/*.csv "$old/"
jq '.start_time = "2026-01-01T00:00:00Z"' "$fleet/FLEET-0002/0001/run.json" >"$old/run.json"

# The corpus's real chase-host runs (one machine each, no SMBIOS), however many it holds
real_n=$(find tests/report/corpus/real -name run.json | wc -l)
check "fleet: report made from the folder and the corpus's real runs" \
    "$REPORT" fleet "$fleet" tests/report/corpus/real --out "$out"
j=$out/fleet.json
check "fleet.json: valid JSON" json_valid "$j"
check "fleet.json: format, rule, 5 + $real_n machines (none from .staging), each with identity, group and figures" \
    json_true "$j" '.format == "chase-fleet" and .version == 1 and .rule.envelope_k == 3 and
     (.machines | length) == (5 + '"$real_n"') and ([.machines[] | select(.name == "FLEET-0009")] == []) and
     all(.machines[]; (.name | type) == "string" and (.group | type) == "number" and
         (.identity.cpu_model | type) == "string" and (.figures | type) == "object" and
         (.figures | length) > 0) and
     all(.machine_groups[]; (.machines | length) > 0 and all(.figures[]; has("median") and has("spread")))'
check "fleet: the half-DIMM machine flagged on DRAM read bandwidth, by how much, and why" \
    json_true "$j" '[.flags[] | select(.machine == "FLEET-0005" and .figure == "bandwidth_DRAM_read_gbs")] |
     length == 1 and .[0].difference < 0 and .[0].difference_pct < -40 and
     .[0].value < .[0].envelope_low and .[0].direction == "worse" and .[0].unit == "GB/s" and
     (.[0].identity_difference | test("^fewer DIMMs: 2 where the group has 4$"))'
check "fleet: no machine of the 4-DIMM group is flagged on DRAM read bandwidth" json_true "$j" \
    '[.flags[] | select((.machine | test("^FLEET-000[1-4]$")) and .figure == "bandwidth_DRAM_read_gbs")] == []'
check "fleet: the half-DIMM machine is a group of one held against the 4-DIMM group" json_true \
    "$j" '(.machines[] | select(.name == "FLEET-0005").group) as $g |
     (.machines[] | select(.name == "FLEET-0001").group) as $h |
     (.machine_groups[] | select(.group == $g)) as $G | (.machine_groups[] | select(.group == $h)) as $H |
     $g != $h and ($G.judged | not) and $G.held_against == $h and $H.judged and
     ($H.machines | sort) == ["FLEET-0001", "FLEET-0002", "FLEET-0003", "FLEET-0004"] and
     ($G.dimms | test("^2 x CHS-D5-16G-4800 at 4800 MT/s$"))'
# The envelope by the rule, computed here: median, 1.4826 x MAD floored by the precision (0.5%)
check "fleet: DRAM read's median, spread and envelope follow the rule" json_true "$j" '
    def med: sort | if length % 2 == 1 then .[length / 2 | floor]
                    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
    (.machines[] | select(.name == "FLEET-0001").group) as $h |
    [.machines[] | select(.group == $h) | .figures.bandwidth_DRAM_read_gbs] as $v | ($v | med) as $m |
    ([$v[] | . - $m | fabs] | med * 1.4826) as $sd | ([$sd, $m * 0.005] | max) as $s |
    (.machine_groups[] | select(.group == $h) | .figures[] | select(.name == "bandwidth_DRAM_read_gbs")) as $f |
    ($f.median - $m | fabs) < 1e-3 and ($f.spread - $s | fabs) < 1e-3 and
    ($f.envelope_low - ($m - 3 * $s) | fabs) < 1e-3 and ($f.envelope_high - ($m + 3 * $s) | fabs) < 1e-3'
check "fleet: the newest of FLEET-0002's two runs is its row" json_true "$j" \
    '.machines[] | select(.name == "FLEET-0002") | .runs_found == 2 and (.run | endswith("/0001"))'
check "fleet: identity from SMBIOS: serial, UUID, firmware, DIMMs; machine 4's firmware" json_true \
    "$j" '(.machines[] | select(.name == "FLEET-0004").identity) as $i | $i.smbios and
     $i.serial == "FLEET-0004" and $i.uuid == "7c1e0f00-0000-4000-8000-000000000004" and
     $i.vendor == "ChaseSysCo" and $i.product == "Fleet-Node" and
     ($i.firmware | test("FW-2.11")) and $i.dimms == "4 x 16 GB RAM-4800, 4 of 4 slots" and
     $i.dimm_count == 4 and $i.dimm_part == "CHS-D5-16G-4800" and ($i.microcode | test("^0x"))'
check "fleet: runs without SMBIOS grouped by the CPU alone and named by their folder" json_true \
    "$j" '[.machines[] | select(.name | test("kvm"))] | length == '"$real_n"' and
     all(.[]; .named_by == "folder" and (.identity.smbios | not) and .identity.dimms == null)'
check "fleet: a group of two says it cannot be judged, and flags none of its machines" json_true \
    "$j" '(.machine_groups[] | select(.machines == ["xeon-clx-kvm-full", "xeon-clx-kvm-full-0"])) as $g |
     ($g.judged | not) and $g.held_against == null and ($g.status | test("cannot be judged")) and
     ($g.dimms | test("no SMBIOS")) and
     ([.flags[] | select(.machine | startswith("xeon-clx"))] == [])'

# The figures are chase-report's own reading of each run, not a second one
one=$tmp/one.json
"$REPORT" --json "$src" >"$one" 2>/dev/null
check "fleet: FLEET-0003's figures are chase-report's levels and verdicts for its run" jq -e -n \
    --slurpfile f "$j" --slurpfile r "$one" '
    ($f[0].machines[] | select(.name == "FLEET-0003").figures) as $x | $r[0] as $r |
    ($x.L1_latency_ns - $r.levels[0].latency_ns | fabs) < 1e-3 and
    ($x.DRAM_latency_ns - $r.dram_latency_ns | fabs) < 1e-3 and
    ($x.bandwidth_DRAM_read_gbs -
        ($r.verdicts.bandwidth.levels[] | select(.level == "DRAM").read_gbs) | fabs) < 1e-3 and
    ($x["bw_cores_all-read_gbs"] -
        ($r.verdicts.bw_cores.peak[] | select(.mix == "all-read").gbs) | fabs) < 1e-3 and
    ($x.c2c_shared_l3 - $r.verdicts.c2c.shared_l3 | fabs) < 1e-3 and
    # every verdict number in ns, GB/s or bytes is a figure (or repeats one)
    ([$x[]] as $vals | [$r.verdicts | to_entries[] | .key as $e | .value as $v |
      $v.units // {} | to_entries[] | select(.value == "ns" or .value == "GB/s" or
        .value == "bytes") | .key as $k | $v[$k] | select(type == "number") |
      ($x[$e + "_" + $k] // null) as $g | $g == . or (. as $n | $vals | any(. == $n))] | all)'

md=$out/fleet.md
check "fleet.md: the machines table's header" grep -qF '| machine | named by | group | vendor | product | serial | firmware | CPU | microcode | memory encryption | DIMMs | boot NIC MAC | run |' "$md"
check "fleet.md: the half-DIMM machine's row names its DIMMs" \
    grep -qE '^\| FLEET-0005 \| SMBIOS serial \| [0-9]+ \| ChaseSysCo \| Fleet-Node \| FLEET-0005 \| ChaseFirmCo FW-2.10 \(09/01/2026\) \| .* \| 2 x 16 GB RAM-4800, 2 of 2 slots \|' "$md"
check "fleet.md: its flag, with the figure, the amount and the DIMM difference" \
    grep -qE '^- FLEET-0005: bandwidth_DRAM_read_gbs [0-9.]+ GB/s against group [0-9]+.s median [0-9.]+ \(envelope [0-9.]+ to [0-9.]+\): -[0-9.]+ GB/s \(-[0-9.]+%\), worse; identity: fewer DIMMs: 2 where the group has 4$' "$md"
check "fleet.md: a group's figure table ends with its median, spread and envelope rows" sh -c \
    "grep -q '^| (median) |' '$md' && grep -q '^| (robust spread) |' '$md' &&
     grep -q '^| (envelope low) |' '$md' && grep -q '^| (envelope high) |' '$md'"
check "fleet.md: the no-SMBIOS groups say so" grep -q 'grouped by the CPU alone, DIMMs unknown' "$md"

# Every figure's plot is a PNG, and fleet.html holds each inline, with no script or fetch
npng=$(ls "$out"/fleet-*.png 2>/dev/null | wc -l)
check "fleet: a PNG per figure ($npng)" test "$npng" -ge 10
for p in "$out"/fleet-*.png; do
    check "fleet: $(basename "$p") is a PNG" is_png "$p"
done
html=$out/fleet.html
check "fleet.html: one inline data: PNG per plot" test "$(grep -o 'src="data:image/png;base64,' "$html" | wc -l)" = "$npng"
check "fleet.html: no script, no external resource" sh -c \
    "! grep -qiE '<script|<link|https?:|src=\"[^d]|url\\(' '$html'"

# The same fleet from a chase-collect index: runs(machine, run_id, path relative to it)
db=$fleet/fleet.sqlite
{
    echo "CREATE TABLE runs(machine TEXT, run_id TEXT, path TEXT, complete INTEGER);"
    (cd "$fleet" && find . -path './.*' -prune -o -name run.json -print | sort) | while read -r r; do
        d=$(dirname "${r#./}")
        echo "INSERT INTO runs VALUES('${d%%/*}', '${d##*/}', '$d', 1);"
    done
    echo "INSERT INTO runs VALUES('evil', 'x', '../../etc', 1);"
} | sqlite3 "$db"
check "fleet: report made from fleet.sqlite" "$REPORT" fleet "$db" --out "$tmp/out-db"
check "fleet.sqlite: the same machines, groups and flags as the folder" jq -e -n \
    --slurpfile a "$tmp/out-db/fleet.json" --slurpfile b "$j" '
    def key: {m: [.machines[] | select(.name | startswith("FLEET")) | [.name, .figures]],
              f: [.flags[] | select(.machine | startswith("FLEET")) | [.machine, .figure]]};
    ($a[0] | key) == ($b[0] | key) and $a[0].runs_left_out == 1'

# A reference from the 4-DIMM group; the half-DIMM machine alone held against it
ref=$tmp/reference.json
check "fleet: --write-reference writes the largest judged group" \
    "$REPORT" fleet "$fleet" --out "$tmp/out-ref" --write-reference "$ref"
check "reference: format, configuration and figures" json_true "$ref" \
    '.format == "chase-fleet-reference" and .version == 1 and .machines == 4 and
     .identity.dimm_count == 4 and (.configuration.dimms | test("^4 x ")) and
     ([.figures[] | select(.name == "bandwidth_DRAM_read_gbs" and .median > 0 and .spread > 0)] |
      length) == 1'
mkdir -p "$tmp/alone"
cp -r "$fleet/FLEET-0005" "$tmp/alone/"
check "fleet: one machine with --reference" \
    "$REPORT" fleet "$tmp/alone" --out "$tmp/out-alone" --reference "$ref"
check "reference: the half-DIMM machine flagged against it, with the DIMM difference" json_true \
    "$tmp/out-alone/fleet.json" '.reference != null and
     ([.flags[] | select(.figure == "bandwidth_DRAM_read_gbs" and (.against | startswith("the reference")))] |
      length == 1 and (.[0].identity_difference | test("fewer DIMMs: 2 where the group has 4")))
     and (.machine_groups[0].status | test("cannot be judged"))'
echo '{"format": "something else"}' >"$tmp/bad-ref.json"
check "reference: a file of another format is refused" sh -c \
    "! '$REPORT' fleet '$tmp/alone' --out '$tmp/out-bad' --reference '$tmp/bad-ref.json' 2>'$tmp/bad.err' &&
     grep -q 'not a chase-fleet-reference version 1 file' '$tmp/bad.err'"
check "fleet: an input with no run is refused" sh -c \
    "mkdir -p '$tmp/empty' && ! '$REPORT' fleet '$tmp/empty' --out '$tmp/out-empty' 2>/dev/null"

# Identity text is data, never markup: a serial with HTML, a table bar and a comma
hostile=$tmp/hostile
mkdir -p "$hostile/m/0001"
cp "$src"/*.csv "$hostile/m/0001/"
jq '.machine_identity.smbios.system.serial_number = "<img src=x onerror=alert(1)>|a,b"' \
    "$src/run.json" >"$hostile/m/0001/run.json"
# A placeholder serial: named by the UUID; with an unset UUID too, by the boot NIC's MAC
mkdir -p "$hostile/uuid/0001" "$hostile/mac/0001"
cp "$src"/*.csv "$hostile/uuid/0001/"
cp "$src"/*.csv "$hostile/mac/0001/"
jq '.machine_identity.smbios.system |= (.serial_number = "To Be Filled By O.E.M." |
        .serial_number_placeholder = true | .uuid = "0a1b2c3d-0000-4000-8000-00000000abcd")' \
    "$src/run.json" >"$hostile/uuid/0001/run.json"
jq '.machine_identity.smbios.system |= (.serial_number = "Default string" |
        .serial_number_placeholder = true | .uuid = "ffffffff-ffff-ffff-ffff-ffffffffffff" |
        .uuid_placeholder = true) | .boot_nic = {"mac": "aa-bb-cc-dd-ee-ff"}' \
    "$src/run.json" >"$hostile/mac/0001/run.json"
# A run that says the name it was uploaded under (run.json's machine) is known by it
mkdir -p "$hostile/upl/0001"
cp "$src"/*.csv "$hostile/upl/0001/"
jq '.machine = "CHS-UP-7" | .machine_from = "serial" | .run_id = "20261128215843-7c1e0f00-0000abcd"' \
    "$src/run.json" >"$hostile/upl/0001/run.json"
check "fleet: a hostile serial number" "$REPORT" fleet "$hostile" --out "$tmp/out-hostile"
check "fleet: placeholder serials: named by the UUID, else by the boot NIC's MAC (shown)" \
    json_true "$tmp/out-hostile/fleet.json" '
    [.machines[] | select(.named_by == "SMBIOS UUID")] == [.machines[] |
        select(.name == "0a1b2c3d-0000-4000-8000-00000000abcd")] and
    (.machines[] | select(.named_by == "boot NIC MAC") | .name == "aa-bb-cc-dd-ee-ff" and
        .identity.boot_nic_mac == "aa-bb-cc-dd-ee-ff" and .identity.serial == null) and
    (.machines[] | select(.name == "CHS-UP-7") | .named_by == "the run\u0027s upload name" and
        .run_id == "20261128215843-7c1e0f00-0000abcd") and
    (.machines | length) == 4'
"$REPORT" --out "$tmp/out-mac" "$hostile/mac/0001" >/dev/null 2>&1
check "report.md of one run shows the boot NIC's MAC and the placeholders as such" sh -c \
    "grep -qF '| boot NIC MAC | aa-bb-cc-dd-ee-ff |' '$tmp/out-mac/report.md' &&
     grep -qF 'serial Default string (placeholder)' '$tmp/out-mac/report.md'"
check "fleet: its markup and table bar are not passed on" sh -c \
    "! grep -qF '<img src=x' '$tmp/out-hostile/fleet.html' &&
     ! grep -qF 'onerror=alert(1)>|' '$tmp/out-hostile/fleet.md' &&
     test \"\$(grep -c '^| ' '$tmp/out-hostile/fleet.md')\" -gt 0"

# fleet.html in headless Chromium (Debian's): screenshot, DOM, console
chrome() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$tmp/chromium.XXXXXX")" --enable-logging=stderr --v=0 \
        --window-size=1400,2000 "$@"
}
shot=$tmp/fleet-screenshot.png
chrome --screenshot="$shot" "file://$html" >"$tmp/shot.out" 2>"$tmp/shot.err"
check "chromium: the screenshot is a PNG" is_png "$shot"
check "chromium: the screenshot is 1400 x 2000" sh -c "file '$shot' | grep -q '1400 x 2000'"
check "chromium: no console message (errors included) while rendering" sh -c \
    "! grep -E 'CONSOLE|Uncaught|Failed to load resource' '$tmp/shot.err'"
chrome --dump-dom "file://$html" >"$tmp/dom.html" 2>"$tmp/dom.err"
check "chromium: the DOM has the tables" test "$(grep -o '<table>' "$tmp/dom.html" | wc -l)" -ge 4
check "chromium: the DOM has one img per plot" test "$(grep -o '<img ' "$tmp/dom.html" | wc -l)" = "$npng"
bad=0
while read -r uri; do
    echo "${uri#data:image/png;base64,}" | base64 -d 2>/dev/null | file - | grep -q 'PNG image data' ||
        bad=$((bad + 1))
done < <(grep -o 'data:image/png;base64,[A-Za-z0-9+/=]*' "$tmp/dom.html")
check "chromium: every image's data: URI decodes to a PNG" test "$bad" = 0
# The console check can fail: a page with a script error is caught by it
printf '<!DOCTYPE html><html><body><script>nosuchfunction();</script></body></html>\n' \
    >"$tmp/broken.html"
chrome --screenshot="$tmp/broken.png" "file://$tmp/broken.html" >/dev/null 2>"$tmp/broken.err"
check "chromium: a page with a script error shows on the console check" \
    grep -qE 'CONSOLE|Uncaught' "$tmp/broken.err"
finish
