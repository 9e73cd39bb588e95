#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host records how physically contiguous its buffer is (/proc/self/pagemap): scattered
# 4 KiB pages, 2 MiB pages contiguous within each page; and says so when Linux hides frames.
# It also makes the --out folder with its parents.
set -u
. "$(dirname "$0")/../lib.sh"

out=$(fresh_dir host-layout)
# Does this process see frame numbers in pagemap (root with CAP_SYS_ADMIN)?
pfns=$(python3 -c '
import mmap, struct
m = mmap.mmap(-1, 4096); m[0] = 1
addr = __import__("ctypes").addressof(__import__("ctypes").c_char.from_buffer(m))
with open("/proc/self/pagemap", "rb") as f:
    f.seek(addr // 4096 * 8); e = struct.unpack("Q", f.read(8))[0]
print("yes" if e & ((1 << 55) - 1) else "no")' 2>/dev/null || echo no)
echo "# pagemap frame numbers visible: $pfns"

"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random page=4K \
    >"$TEST_TMP/layout-4k.log" 2>&1
j=$out/0001/run.json
if [ "$pfns" = yes ]; then
    check "4K: contiguity recorded, runs and share consistent" json_true "$j" \
        '(.buffer.size_bytes / 4096) as $p | .buffer.contiguous_runs >= 1 and
         .buffer.contiguous_runs <= $p and .buffer.contiguous_share >= 0 and
         .buffer.contiguous_share <= 1 and
         ((.buffer.contiguous_share - ($p - .buffer.contiguous_runs) / ($p - 1)) | fabs) < 0.001'
    check "4K: the placement names pagemap" json_true "$j" '.buffer.placement | test("pagemap")'
else
    check "4K: no frame numbers: contiguity left out, and why said" json_true "$j" \
        '(.buffer | has("contiguous_runs") | not) and (.buffer.placement | test("CAP_SYS_ADMIN"))'
fi

"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random page=2M \
    >"$TEST_TMP/layout-2m.log" 2>&1
j=$out/0002/run.json
if [ "$pfns" = yes ] && json_true "$j" '.buffer.page_size_bytes == 2097152'; then
    check "2M: at most one physical run per 2 MiB page" json_true "$j" \
        '.buffer.contiguous_runs <= .buffer.size_bytes / 2097152 and
         .buffer.contiguous_share > 0.99'
else
    echo "# 2M: skipped (no 2 MiB pages or no frame numbers here)"
fi
check "run.json says the host cannot read memory types" json_true "$j" \
    '(.memory_types.read | not) and .buffer.mem_type == null'

# --out names a folder whose parents do not exist yet: they are made, as mkdir -p does.
"$ROOT/build/chase-host" --out "$out/new/nested" profile=quick experiments=random \
    random.max=16K >"$TEST_TMP/layout-nested.log" 2>&1
check "--out with missing parent folders: they are made, the run lands there" \
    test -s "$out/new/nested/0001/random.csv"
: >"$out/afile"
check "--out under a file: a clear error naming the folder" \
    sh -c '! "$1" --out "$2/afile/x" experiments=random 2>"$3" && grep -q "cannot create a run folder in $2/afile/x" "$3"' \
    _ "$ROOT/build/chase-host" "$out" "$TEST_TMP/layout-err.log"
finish
