#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The machine's identity from SMBIOS: QEMU's -smbios values for the firmware (type 0), system
# (1, with serial, UUID, SKU and family), board (2), chassis asset tag (3, a placeholder kept and
# marked), processor (4) and memory devices (17, with serials and asset tags) appear in run.json,
# the banner and report.md,
# through the SMBIOS 3 entry point and through the 2.x one; two memory devices; QEMU's own
# tables are reported as they are; and a machine without SMBIOS: QEMU's pc-i440fx-2.0 hands its
# tables over only through the legacy fw_cfg entries, which OVMF does not read (OVMF's
# SmbiosPlatformDxe installs tables only from fw_cfg's etc/smbios/smbios-tables), so the
# configuration table holds no SMBIOS entry point and chase says so.
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown --set experiments=random --set random.max=64K)
smbios=(
    --qemu -smbios --qemu "type=0,vendor=ChaseFirmCo,version=FW-7.42,date=03/14/2026"
    --qemu -smbios --qemu "type=1,manufacturer=ChaseSysCo,product=TestSystem-9,version=SysRev3,serial=CHS-SN-0042,uuid=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,sku=CHS-SKU-7,family=ChaseFamily"
    --qemu -smbios --qemu "type=3,manufacturer=ChaseSysCo,asset=To Be Filled By O.E.M."
    --qemu -smbios --qemu "type=2,manufacturer=ChaseBoardCo,product=BoardX-1,version=BrdRev2"
    --qemu -smbios --qemu "type=4,sock_pfx=TestSocket,manufacturer=ChaseCpuCo,version=TestCPU-5000,max-speed=4321,current-speed=2345"
    --qemu -smbios --qemu "type=17,loc_pfx=TestSlot,bank=TestBank,manufacturer=ChaseDramCo"
    --qemu -smbios --qemu "type=17,part=PART-0042-XYZ,speed=4800,serial=DIMM-SN-77,asset=DIMM-AT-5"
)

# field PATH VALUE: run.json's machine_identity.smbios PATH equals VALUE
field() {
    check "smbios${1}: $2 in run.json" json_true "$RUN_DIR/run.json" \
        ".machine_identity.smbios${1} == $2"
}
# banner TEXT: the banner (console.txt) holds TEXT
banner() {
    check "banner shows '$1'" grep -qF -- "$1" "$RUN_DIR/console.txt"
}

for ep in 64 32; do
    boot "smbios-$ep" --mem 1G --qemu -machine --qemu "smbios-entry-point-type=$ep" \
        "${smbios[@]}" "${quick[@]}"
    j=$RUN_DIR/run.json
    check "entry point $ep: a complete run" json_true "$j" '.status=="complete"'
    check "entry point $ep: found through the $ep-bit entry point" json_true "$j" \
        ".machine_identity.smbios.found and
         (.machine_identity.smbios.entry_point | startswith(\"$ep-bit\"))"
    field .firmware.vendor '"ChaseFirmCo"'
    field .firmware.version '"FW-7.42"'
    field .firmware.date '"03/14/2026"'
    field .system.manufacturer '"ChaseSysCo"'
    field .system.product '"TestSystem-9"'
    field .system.version '"SysRev3"'
    field .system.serial_number '"CHS-SN-0042"'
    field .system.uuid '"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"'
    field .system.sku_number '"CHS-SKU-7"'
    field .system.family '"ChaseFamily"'
    field '.system.serial_number_placeholder' null
    field .chassis.asset_tag '"To Be Filled By O.E.M."'
    field .chassis.asset_tag_placeholder true
    field '.memory_devices[0].serial_number' '"DIMM-SN-77"'
    field '.memory_devices[0].asset_tag' '"DIMM-AT-5"'
    field .board.manufacturer '"ChaseBoardCo"'
    field .board.product '"BoardX-1"'
    field .board.version '"BrdRev2"'
    field '.processors[0].manufacturer' '"ChaseCpuCo"'
    field '.processors[0].version' '"TestCPU-5000"'
    field '.processors[0].max_mhz' 4321
    field '.processors[0].current_mhz' 2345
    field '.processors[0].socket | startswith("TestSocket")' true
    field '.memory_devices[0].manufacturer' '"ChaseDramCo"'
    field '.memory_devices[0].part_number' '"PART-0042-XYZ"'
    field '.memory_devices[0].speed_mts' 4800
    field '.memory_devices[0].configured_speed_mts' 4800
    field '.memory_devices[0].bank' '"TestBank"'
    field '.memory_devices[0].locator | startswith("TestSlot")' true
    field '.memory_devices[0].size_bytes' 1073741824
    field '.memory_slots' 1
    field '.channels' 1
    field '.dram_bandwidth_bytes_per_s' 38400000000
    field '.memory_summary' '"1 x 1 GB RAM-4800, 1 of 1 slots"'
    banner "board ChaseBoardCo BoardX-1 BrdRev2, firmware ChaseFirmCo FW-7.42 (03/14/2026), memory 1 x 1 GB RAM-4800, 1 of 1 slots"
    banner "system     ChaseSysCo TestSystem-9 SysRev3"
    banner "ChaseCpuCo TestCPU-5000, 2345 MHz (max 4321 MHz)"
    banner "1 GB RAM DIMM, 4800 MT/s, runs at 4800 MT/s"
    banner "ChaseDramCo PART-0042-XYZ, serial DIMM-SN-77, asset tag DIMM-AT-5"
    banner "inventory  serial CHS-SN-0042, uuid 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d, sku CHS-SKU-7, family ChaseFamily, chassis asset tag To Be Filled By O.E.M. (placeholder)"
    banner "dram       1 channel (one per module, assumed), theoretical 38.4 GB/s"
    "$ROOT/build/chase-report" --out "$WORK/report" "$RUN_DIR" >/dev/null 2>&1
    check "entry point $ep: report.md's machine table names board, firmware and memory" sh -c \
        "grep -qF '| board | ChaseBoardCo BoardX-1 BrdRev2 |' '$WORK/report/report.md' &&
         grep -qF '| firmware (SMBIOS) | ChaseFirmCo FW-7.42 03/14/2026 |' '$WORK/report/report.md' &&
         grep -qF '| memory devices | 1 x 1 GB RAM-4800, 1 of 1 slots |' '$WORK/report/report.md' &&
         grep -qF '| DRAM bandwidth, theoretical | 38.4 GB/s over 1 channel |' '$WORK/report/report.md' &&
         grep -qF '| inventory | serial CHS-SN-0042, uuid 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d, SKU CHS-SKU-7, family ChaseFamily, chassis asset tag To Be Filled By O.E.M. (placeholder) |' '$WORK/report/report.md' &&
         grep -qF 'serial DIMM-SN-77, asset tag DIMM-AT-5 |' '$WORK/report/report.md'"
    check "entry point $ep: microcode (AMD PATCH_LEVEL on QEMU's max CPU) and encryption state" \
        json_true "$j" '.machine_identity.microcode.read and
         (.machine_identity.microcode.how | startswith("PATCH_LEVEL")) and
         .machine_identity.memory_encryption.state == "not supported"'
done

# QEMU lists one memory device per 16 GiB: 17 GiB (allocated only where touched) gives two
boot smbios-two-devices --mem 17G "${quick[@]}" \
    --qemu -smbios --qemu "type=17,manufacturer=ChaseDramCo,part=PART-0042-XYZ,speed=3200"
j=$RUN_DIR/run.json
check "two devices: both listed with their sizes, maker, part and speed" json_true "$j" \
    '.machine_identity.smbios as $s | $s.memory_slots == 2 and $s.memory_installed == 2 and
     ([$s.memory_devices[].size_bytes] == [17179869184, 1073741824]) and
     ([$s.memory_devices[] | .manufacturer == "ChaseDramCo" and .part_number == "PART-0042-XYZ"
       and .speed_mts == 3200] | all) and $s.channels == 2 and
     $s.dram_bandwidth_bytes_per_s == 51200000000'
banner "memory 1 x 16 GB RAM-3200 + 1 x 1 GB RAM-3200, 2 of 2 slots"
banner "16 GB RAM DIMM, 3200 MT/s, runs at 3200 MT/s, ChaseDramCo PART-0042-XYZ"
banner "1 GB RAM DIMM, 3200 MT/s, runs at 3200 MT/s, ChaseDramCo PART-0042-XYZ"
banner "dram       2 channels (one per module, assumed), theoretical 51.2 GB/s"

# QEMU's own tables, no -smbios: what the firmware has is said as it is
boot smbios-default --mem 1G "${quick[@]}"
j=$RUN_DIR/run.json
check "default tables: found, QEMU's own values, and the memory device QEMU lists" json_true \
    "$j" '.machine_identity.smbios.found and .machine_identity.smbios.system.manufacturer=="QEMU"
          and .machine_identity.smbios.memory_slots >= 1'
check "default tables: the banner has the machine line, no board listed by QEMU" \
    grep -q '^  machine    board not listed, firmware .*, memory 1 x 1 GB RAM, 1 of 1 slots$' \
    "$RUN_DIR/console.txt"

# No SMBIOS at all: the firmware's configuration table has no entry point; said, the run goes on
boot smbios-none --mem 512M --qemu -machine --qemu type=pc-i440fx-2.0 "${quick[@]}"
j=$RUN_DIR/run.json
check "no SMBIOS (pc-i440fx-2.0): a complete run that records none was found, and why" \
    json_true "$j" '.status == "complete" and (.machine_identity.smbios.found | not) and
        (.machine_identity.smbios.why | test("configuration table holds no SMBIOS"))'
check "no SMBIOS: the banner says so" \
    grep -q '^  machine    no SMBIOS: the firmware.s configuration table holds no SMBIOS entry' \
    "$RUN_DIR/console.txt"
finish
