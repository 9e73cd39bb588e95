#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Firmware and host agree: chase.efi under QEMU and chase-host, given the same random sweep and
# seed, build the same chains (random.csv's chain_checksum, point by point), and time them with
# the same machine code (chase_timed_rdtscp disassembled from both builds, addresses stripped).
# Timings are never compared.
set -u
. "$(dirname "$0")/lib.sh"

HOST="$ROOT/build/chase-host"
SEED=20240817
# Everything a chain depends on is set explicitly: defaults (the stride is the CPU's line) may
# differ between QEMU's CPU and this one.
SETTINGS="experiments=random profile=quick seed=$SEED reps=2 precision=0 random.min=4K \
random.max=8M random.points_per_octave=2 random.stride=64 random.offset=0 random.locality=0 \
random.page=auto"

# checksums DIR: "size checksum" per row of DIR/random.csv.
checksums() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "size_bytes") s = i;
                                                if ($i == "chain_checksum") c = i }; next }
             { print $s, $c }' "$1/random.csv" | tr -d '\r'
}

sets=()
for kv in $SETTINGS; do sets+=(--set "$kv"); done
boot agree "${sets[@]}" --set on_exit=shutdown
check "QEMU run of chase.efi completed (exit status 0)" test "$BOOT_RC" = 0
if [ -z "$RUN_DIR" ] || [ ! -s "$RUN_DIR/random.csv" ]; then
    echo "not ok - no random.csv came back from QEMU"
    exit 1
fi
checksums "$RUN_DIR" >"$WORK/efi.sums"

out="$WORK/host"
# shellcheck disable=SC2086
"$HOST" --out "$out" $SETTINGS >"$WORK/host.log" 2>&1
check "chase-host ran the same sweep (exit status 0)" test $? = 0
checksums "$out/0001" >"$WORK/host.sums"
# shellcheck disable=SC2086
"$HOST" --out "$out" ${SETTINGS/seed=$SEED/seed=$((SEED + 1))} >"$WORK/host2.log" 2>&1
checksums "$out/0002" >"$WORK/host-other-seed.sums"

points=$(sweep_points 4096 $((8 << 20)) 2 64)
check "both wrote a checksum for each of the $points points" sh -c "
    test \$(grep -c '0x[0-9a-f]\{16\}\$' '$WORK/efi.sums') = $points &&
    test \$(grep -c '0x[0-9a-f]\{16\}\$' '$WORK/host.sums') = $points"
check "chase.efi and chase-host built the same chain at every size (seed $SEED)" \
    cmp "$WORK/efi.sums" "$WORK/host.sums"
check "another seed builds other chains (the checksum sees the order)" sh -c "
    test \$(paste -d' ' '$WORK/host.sums' '$WORK/host-other-seed.sums' |
        awk '\$2 == \$4' | wc -l) = 0"

# code FILE: chase_timed_rdtscp's instructions in FILE, offsets stripped.
code() {
    objdump -d --disassemble=chase_timed_rdtscp "$1" | awk -F'\t' '/^ *[0-9a-f]+:\t/ {
        sub(/^ +/, "", $2); print $2 "\t" $3 }'
}
# bytes FILE: the same function's machine code as one hex string (jump targets are relative).
bytes() {
    code "$1" | cut -f1 | tr -d ' \n'
}
efi_obj="$ROOT/build/efi/kernel/arch/x86_64/chase_loop.S.o"
host_obj="$ROOT/build/host/kernel/arch/x86_64/chase_loop.S.o"
code "$efi_obj" >"$WORK/efi.code"
code "$host_obj" >"$WORK/host.code"
check "chase_timed_rdtscp disassembles in both objects (rdtscp and 16 dependent loads)" sh -c "
    grep -q 'rdtscp' '$WORK/efi.code' &&
    test \$(grep -c 'mov *(%rdi),%rdi' '$WORK/efi.code') -ge 16"
check "the timed chase loop is the same machine code in chase.efi's and chase-host's objects" \
    cmp "$WORK/efi.code" "$WORK/host.code"
check "... and in the linked chase.efi (chase.so) and chase-host" \
    test "$(bytes "$ROOT/build/chase.so")" = "$(bytes "$ROOT/build/chase-host")" -a \
    -n "$(bytes "$ROOT/build/chase-host")"
