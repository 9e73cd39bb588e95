#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host's hugetlbfs 2M buffer honours an alignment above 2 MiB (a 16 MiB stride asks for
# 16 MiB): run.json records the virtual address, and with pagemap frames the physical runs.
# Reserves 2 MiB pages through /proc/sys/vm/nr_hugepages (root) and gives the old count back
# on every way out; skips, saying why, where it cannot.
set -u
. "$(dirname "$0")/../lib.sh"

STRIDE=$((16 << 20))     # random.stride: the plan aligns the buffer to it
BUFFER=$((128 << 20))    # random.max: the buffer chase-host asks for
PAGES=$((BUFFER >> 21))  # 2 MiB pages that buffer takes
KNOB=/proc/sys/vm/nr_hugepages

# skip WHY: nothing can be checked here; say why (no check passes for it).
skip() {
    echo "# skipped: $1"
    exit 0
}

[ "$(id -u)" = 0 ] || skip "not root: cannot reserve huge pages through $KNOB"
[ -w "$KNOB" ] || skip "$KNOB is not writable here"
old=$(cat "$KNOB")
restore() { echo "$old" >"$KNOB" 2>/dev/null || echo "# could not give $KNOB back $old" >&2; }
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
echo $((old + PAGES + 4)) >"$KNOB" 2>/dev/null || skip "writing $KNOB was refused"
free=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
[ "${free:-0}" -ge "$PAGES" ] ||
    skip "Linux reserved only ${free:-0} free 2 MiB pages of the $PAGES needed (memory fragmented)"

out=$(fresh_dir host-hugealign)
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random page=2M \
    random.stride=$STRIDE random.min=$((BUFFER / 2)) random.max=$BUFFER \
    >"$TEST_TMP/hugealign.log" 2>&1
j=$out/0001/run.json
check "the run completes" json_true "$j" '.status == "complete"'
check "the buffer is on hugetlbfs 2M pages" json_true "$j" \
    '.buffer.page_source == "hugetlbfs 2M" and .buffer.page_size_bytes == 2097152'
check "the plan asked for the stride's alignment" json_true "$j" \
    ".buffer.align_bytes == $STRIDE"
check "the recorded virtual address is aligned as asked" json_true "$j" \
    ".buffer.virt_addr > 0 and .buffer.virt_addr % $STRIDE == 0"
check "no alignment warning" json_true "$j" '[.warnings[] | test("aligned")] | any | not'
if json_true "$j" '.buffer | has("phys_runs")'; then
    check "physical runs: the first starts at the buffer's physical address, each a whole \
number of 2 MiB pages on a 2 MiB boundary, no more bytes than the buffer" json_true "$j" \
        '.buffer as $b | ($b.phys_runs | length) >= 1 and
         $b.phys_runs[0].phys_addr == $b.phys_addr and
         ([$b.phys_runs[] | .phys_addr % 2097152 == 0 and .bytes % 2097152 == 0] | all) and
         ([$b.phys_runs[].bytes] | add) <= $b.size_bytes and
         ($b.phys_runs | length) == ([$b.contiguous_runs, 16] | min)'
else
    echo "# no frame numbers in /proc/self/pagemap here: physical runs not recorded"
fi
finish
