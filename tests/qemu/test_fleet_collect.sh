#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fleet of three QEMU machines (OVMF, no disk, each its own SMBIOS UUID and serial) PXE-boots
# chase.efi from one TFTP folder (QEMU's user network: the guest reaches 127.0.0.1 as 10.0.2.2)
# holding chase/<uuid>.cfg for two of them and chase/default.cfg; each runs the experiments its
# file names and uploads to one chase-collect: three complete runs under their serials,
# fleet.sqlite lists three machines with their identity, each console names its file. The
# collector is killed during the third machine's upload and started again: its run is complete
# only once the manifest checks, chase's retries completing it. Then
# results = serial from a disk boot, rebuilt by chase-collect --serial from QEMU's serial file,
# equals the run folder written to the disk in the same boot. Two boots at a time at most.
set -u
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/collect/lib.sh"
work=$(fresh_dir fleet)
trap stop_collector EXIT
small=(profile=quick on_exit=shutdown random.max=64K linear.size=64K linear.max_stride=256)

check "chase-collect starts" start_collector "$work/collect.log" --root "$work/collect" \
    --token "$TOKEN"
# The TFTP folder: chase.efi, a file for machines a and b by UUID, default.cfg for c.
tftp=$work/tftp
mkdir -p "$tftp/chase"
cp "$ROOT/build/chase.efi" "$tftp/chase.efi"
uuid_a=0a0a0a0a-1111-4111-8111-00000000000a
uuid_b=0b0b0b0b-2222-4222-8222-00000000000b
uuid_c=0c0c0c0c-3333-4333-8333-00000000000c
cfg() { # cfg EXPERIMENTS: a configuration that runs them and uploads to the collector
    printf '%s\n' "${small[@]/=/ = }" "experiments = $1" \
        "results = http://10.0.2.2:$PORT" "results.token = $TOKEN"
}
cfg random >"$tftp/chase/$uuid_a.cfg"
cfg linear >"$tftp/chase/$uuid_b.cfg"
{ cfg random,linear && echo "results.retries = 5"; } >"$tftp/chase/default.cfg"

# pxe_boot NAME UUID SERIAL MAC: a diskless machine booting chase.efi from the TFTP folder
# (qemu-run.sh --net-boot); its QEMU exit status in $TEST_TMP/NAME/rc, its console in .../vm.
pxe_boot() {
    local dir
    dir=$(fresh_dir "$1")
    IMAGE= boot_qemu "$dir" --net-boot "$tftp" --mac "$4" --timeout 400 --qemu -smbios \
        --qemu "type=1,manufacturer=ChaseLab,product=Fleet-$1,uuid=$2,serial=$3"
    echo "$BOOT_RC" >"$dir/rc"
}
pxe_boot a "$uuid_a" FLEET-SER-A 52:54:00:c0:11:0a &
boot_a=$!
pxe_boot b "$uuid_b" FLEET-SER-B 52:54:00:c0:11:0b &
boot_b=$!
wait "$boot_a" "$boot_b" # (not the collector, also a child of this shell)
# Machine c uploads while the collector is killed (after its first file) and started again on
# the same port 2 s later: chase's retries (1 s, 2 s, 4 s ... apart) complete the run.
pxe_boot c "$uuid_c" FLEET-SER-C 52:54:00:c0:11:0c &
boot_c=$!
for i in $(seq 1 6000); do # until c's first file is stored (at most 5 minutes)
    grep -q "PUT /FLEET-SER-C/.* 201 " "$work/collect.log" && break
    kill -0 "$boot_c" 2>/dev/null || break
    sleep 0.05
done
kill -9 "$COLLECT_PID"
wait "$COLLECT_PID" 2>/dev/null
COLLECT_PID=
check "the collector killed during c's upload, after a file was stored" grep -q \
    "PUT /FLEET-SER-C/.* 201 " "$work/collect.log"
check "while it is down, c's run is not complete (its files staged)" sh -c "
    test ! -e '$work/collect/FLEET-SER-C' && ls '$work/collect/.staging/FLEET-SER-C'/*/ | grep -q ."
sleep 2
check "chase-collect starts again on the same port" start_collector "$work/collect2.log" \
    --root "$work/collect" --token "$TOKEN" --listen "127.0.0.1:$PORT"
wait "$boot_c"
check "c's console: an upload failed and was tried again" grep -aq \
    "results: .* failed: .*; try 2 of 6" "$TEST_TMP/c/vm/serial.log"
check "the restarted collector completed c's run once its manifest checked" grep -q \
    "PUT /FLEET-SER-C/.*/manifest.json 201 .* complete, indexed" "$work/collect2.log"
for m in a b c; do
    check "machine $m: PXE-booted with no disk, chase powered it off" test \
        "$(cat "$TEST_TMP/$m/rc")" = 0
done
names() { grep -aq "network boot (pxe): configuration tftp://10.0.2.2/chase/$2" \
    "$TEST_TMP/$1/vm/serial.log"; }
check "machine a's console names chase/$uuid_a.cfg" names a "$uuid_a.cfg"
check "machine b's console names chase/$uuid_b.cfg" names b "$uuid_b.cfg"
check "machine c's console names chase/default.cfg" names c default.cfg
for m in A B C; do
    runs=$(ls -d "$work/collect/FLEET-SER-$m"/*/ 2>/dev/null | wc -l)
    check "one complete run under FLEET-SER-$m" test "$runs" = 1
done
stop_collector
db=$work/collect/fleet.sqlite
check "fleet.sqlite: three machines, named by their serials, with their boot NIC's MAC" test \
    "$(sqlite3 "$db" "SELECT machine || ' ' || mac FROM machines ORDER BY machine" | paste -sd,)" = \
    "FLEET-SER-A 52:54:00:c0:11:0a,FLEET-SER-B 52:54:00:c0:11:0b,FLEET-SER-C 52:54:00:c0:11:0c"
# The SMBIOS type 1 fields as each run.json gives them (null where it gives none).
for m in A B C; do
    j=$(ls "$work/collect/FLEET-SER-$m"/*/run.json)
    check "fleet.sqlite: FLEET-SER-$m's identity as its run.json has it (vendor, product, serial, UUID)" \
        test "$(sqlite3 -json "$db" "SELECT vendor, product, serial, uuid FROM machines WHERE
            machine = 'FLEET-SER-$m'" | jq -c '.[0]')" = "$(jq -c '.machine_identity.smbios.system |
            {vendor: .manufacturer, product, serial: (.serial_number // .serial),
             uuid: .uuid}' "$j")"
done
check "fleet.sqlite: the serials and UUIDs QEMU's SMBIOS gave, not empty" test "$(sqlite3 "$db" \
    "SELECT serial || ' ' || uuid FROM machines ORDER BY machine" | paste -sd,)" = \
    "FLEET-SER-A $uuid_a,FLEET-SER-B $uuid_b,FLEET-SER-C $uuid_c"
check "fleet.sqlite: each ran the experiments its file names" test "$(sqlite3 "$db" \
    "SELECT machine || ':' || experiments FROM runs ORDER BY machine" | paste -sd' ')" = \
    "FLEET-SER-A:random FLEET-SER-B:linear FLEET-SER-C:random,linear"
check "fleet.sqlite: their product names (SMBIOS type 1)" test "$(sqlite3 "$db" \
    "SELECT group_concat(product, ',') FROM (SELECT product FROM machines ORDER BY machine)")" = \
    "Fleet-a,Fleet-b,Fleet-c"

# results = serial from a machine with a disk: the stream rebuilt equals the folder on the disk.
sets=()
for kv in "${small[@]}"; do sets+=(--set "$kv"); done
boot fleet-serial "${sets[@]}" --set experiments=random --set results=serial \
    --qemu -smbios --qemu "type=1,uuid=0d0d0d0d-4444-4444-8444-00000000000d,serial=FLEET-SER-D"
"$COLLECT" --serial "$SERIAL" --root "$work/serial" >"$work/serial.out" 2>&1
check "results = serial: --serial rebuilds the run" test $? = 0
rebuilt=$(ls -d "$work/serial/FLEET-SER-D"/*/ 2>/dev/null | head -n 1)
check "the rebuilt folder equals the run folder on the disk, byte for byte, manifest.json too" sh -c "
    test -n '$rebuilt' && test -n '$RUN_DIR' && diff -r '$RUN_DIR' '$rebuilt' && test -s '$rebuilt/manifest.json'"
finish
