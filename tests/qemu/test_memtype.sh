#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory types under OVMF: chase reads the real MTRRs, PAT and CR0, places its buffer in
# write-back memory (checked here again from the registers run.json records), moves it when
# the memtype_test key makes its first place UC, and refuses before anything runs when all
# memory is UC.
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown --set experiments=random)

# mtrr_type_of FILE: the MTRR type of the buffer, computed from run.json's registers alone
# (Intel SDM vol. 3A 12.11.4.1: variable ranges over the default; UC wins; WT with WB is WT).
mtrr_type_of() {
    python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t, b = r["memory_types"], r["buffer"]
names = {0: "UC", 1: "WC", 4: "WT", 5: "WP", 6: "WB"}
width = (1 << t["phys_address_bits"]) - 1
def at(a):
    hits = set()
    for v in t["variable"]:
        base, mask = int(v["base"], 16), int(v["mask"], 16)
        m = mask & width & ~0xfff
        if v["valid"] and (a & m) == (base & m):
            hits.add(base & 0xff)
    if not hits:
        return names[int(t["mtrr_def_type"], 16) & 0xff]
    if 0 in hits:
        return "UC"
    return "WT" if hits == {4, 6} else "/".join(names[h] for h in sorted(hits))
start, size = b["phys_addr"], b["size_bytes"]
types = {at(a) for a in range(start, start + size, 4096)}
print(types.pop() if len(types) == 1 else "mixed")
PY
}

boot memtype-ovmf "${quick[@]}"
j=$RUN_DIR/run.json
check "OVMF: MTRRs, PAT and CR0 read and recorded" json_true "$j" \
    '.memory_types.read and .memory_types.mtrrs_enabled and
     ([.memory_types.variable[] | select(.valid)] | length) > 0 and
     (.memory_types.pat_entries | length) == 8 and (.memory_types.cache_disabled | not)'
check "OVMF: the buffer's effective type is WB" json_true "$j" '.buffer.mem_type == "WB"'
check "OVMF: the registers in run.json give the buffer WB on their own" \
    test "$(mtrr_type_of "$j")" = WB
check "OVMF: PAT entry 0 (what chase's tables use) is WB" json_true "$j" \
    '.memory_types.pat_entries[0] == "WB"'
check "OVMF: the banner and the buffer line name the types" sh -c \
    "grep -q 'memtypes   MTRRs on, default' '$RUN_DIR/console.txt' &&
     grep -q 'memory type WB' '$RUN_DIR/console.txt'"
check "OVMF: the run completes" json_true "$j" '.status == "complete" and .experiments.random == "ok"'
first=$(jq -r '.buffer.phys_addr' "$j")

boot memtype-move "${quick[@]}" --set memtype_test=uc_first
j=$RUN_DIR/run.json
check "uc_first: the place chase chose first is recorded as UC" json_true "$j" \
    ".memory_types.test_uc.base == \"$(printf '0x%x' "$first")\""
check "uc_first: the buffer moved out of it, still WB" json_true "$j" \
    '(.memory_types.test_uc.base | ltrimstr("0x") | explode | map(if . >= 97 then . - 87 else . - 48 end)
      | reduce .[] as $d (0; . * 16 + $d)) as $uc
     | (.buffer.phys_addr + .buffer.size_bytes <= $uc) and .buffer.mem_type == "WB"'
check "uc_first: and the run completes" json_true "$j" \
    '.status == "complete" and .experiments.random == "ok"'

boot memtype-refuse "${quick[@]}" --set memtype_test=uc_all
j=$RUN_DIR/run.json
check "uc_all: chase refuses before any experiment runs" json_true "$j" \
    '.status == "no_memory" and .experiments.random != "ok"'
check "uc_all: no experiment file written" test ! -e "$RUN_DIR/random.csv"
check "uc_all: the console says why, and what made it so" sh -c \
    "grep -q 'in write-back memory' '$SERIAL' && grep -q 'memtype_test key made some of it UC' '$SERIAL'"
check "uc_all: clean power-off" test "$BOOT_RC" = 0
finish
