#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Errors a fleet meets, in one short boot: a BMC (QEMU's ipmi-bmc-sim behind isa-ipmi-kcs, which
# QEMU lists as SMBIOS type 38) is named in the banner with the watchdog advice and in run.json,
# and its watchdog's state is read over KCS (Get Watchdog Timer). Two packages (-smp 2 as two
# sockets): machine checks injected through QEMU's monitor (mce, TCG) once the banner's mca line
# says the first read is done (before random: random alone takes a fraction of a second), a
# corrected memory-controller error in bank 4 of the second package's processor and a cache error
# in bank 2 of the boot processor, are found after random, each in its package: run.json, the
# console and the summary say them and DRAM figures are marked suspect.
set -u
. "$(dirname "$0")/lib.sh"

# MCi_STATUS: VAL | ADDRV, MCACOD 0x0091 (memory controller, read, channel 1); address 0x1234000.
status=0x8400000000000091
# VAL only, MCACOD 0x0135 (cache hierarchy: data read, data L1): not a memory-controller error.
cache=0x8000000000000135
boot errors --smp 2,sockets=2 --set profile=quick --set on_exit=shutdown --set experiments=random \
    --set serial_log=on \
    --set random.max=64K --qemu -device --qemu ipmi-bmc-sim,id=bmc0 \
    --qemu -device --qemu isa-ipmi-kcs,bmc=bmc0 --monitor-when '  mca        [0-9]+ banks' \
    --monitor "mce 1 4 $status 0 0x1234000 0" --monitor "mce 0 2 $cache 0 0 0"
check "QEMU powered off by itself (exit status 0)" test "$BOOT_RC" = 0
[ -n "$RUN_DIR" ] || { echo "not ok - no run folder"; exit 1; }
j=$RUN_DIR/run.json
c=$RUN_DIR/console.txt
check "a complete run" json_true "$j" '.status=="complete" and .experiments.random=="ok"'
validate_run_json "$RUN_DIR"

# The BMC.
check "banner: the BMC from SMBIOS type 38 (KCS at I/O 0xca2)" grep -qF \
    '  bmc        IPMI 2.0 BMC, KCS at I/O port 0xca2 (registers 1 byte apart) (SMBIOS type 38)' "$c"
check "banner: the watchdog may reset a long run, and how to turn it off" grep -qE \
    "^  watchdog   .*reset a long run.*ipmitool mc watchdog off.*web interface" "$c"
check "run.json: smbios.bmc is KCS 2.0 at I/O port 0xca2" json_true "$j" \
    '.machine_identity.smbios.bmc | .interface=="KCS" and .ipmi_version=="2.0" and
     .address_space=="io" and .address==3234 and .records==1'
check "banner: the watchdog's state, read from QEMU's BMC over KCS (never set there)" grep -qF \
    '  watchdog   state (IPMI Get Watchdog Timer over KCS): stopped, never set' "$c"
check "run.json: smbios.bmc.watchdog read, not running" json_true "$j" \
    '.machine_identity.smbios.bmc.watchdog | .read and (.running | not) and .present_s == 0'

# The machine check.
check "the monitor took the mce command (no error from QEMU)" \
    bash -c "! grep -qiE 'not supported|invalid|error' '$WORK/vm/monitor.log'"
check "run.json: the banks were read on both packages, each on a processor of its own" \
    json_true "$j" '.machine_checks | .read and .banks > 4 and .banks_read == .banks and
        .packages == 2 and (.read_on | length == 2 and .[0].processor == "boot" and
        .[1].processor == 1 and all(.[]; .read and .banks_read > 4 and .statuses_in_one_window))'
check "run.json: nothing logged before the run, two errors during it" json_true "$j" \
    '.machine_checks | .errors_before_run==0 and .errors_during_run==2'
mem='.machine_checks.logged[] | select(.package==1)'
check "run.json: package 1 bank 4, its status, its address, found after random" json_true "$j" \
    "$mem | .bank==4 and .status==\"$status\" and .address==\"0x1234000\" and
     .when==\"random\" and (.uncorrected|not)"
check "run.json: decoded as a memory-controller read error" json_true "$j" \
    "$mem"' | .memory_controller and .class=="memory controller" and
     .decoded=="memory controller: read, channel 1"'
check "run.json: package 0 bank 2, a cache error, not the memory controller's" json_true "$j" \
    ".machine_checks.logged[] | select(.package==0) | .bank==2 and .status==\"$cache\" and
     .address==null and .class==\"cache hierarchy\" and (.memory_controller|not)"
check "run.json: DRAM figures suspect" json_true "$j" \
    '.machine_checks | .dram_suspect and .memory_controller_errors_during_run==1'
check "banner: the mca line (banks read on both packages, none before the run)" grep -qE \
    '^  mca        [0-9]+ banks \(MCi\) read on one processor in each of 2 packages; 0 errors logged before' \
    "$c"
check "console: the memory error after random, with package, status and address" grep -qF \
    "machine check: package 1 bank 4: corrected memory controller: read, channel 1 (status $status, address 0x1234000), random" \
    "$c"
check "console: the cache error after random" grep -qF \
    "machine check: package 0 bank 2: corrected cache hierarchy: data read, data L1 (status $cache), random" \
    "$c"
check "console: DRAM figures are suspect" grep -q \
    'memory controller of package 1 logged an error during random: .*DRAM figures are suspect' "$c"
summary_says() { sed -n '/^== summary/,$p' "$c" | grep -q "$1"; }
check "summary: two errors during the run, one a memory controller's, DRAM figures SUSPECT" \
    summary_says '^machine checks: 2 errors logged during the run (1 by a memory controller).*SUSPECT'
log_has() { tr -d '\r' <"$SERIAL" | grep -q "^CHASE-LOG v=1 run=[^ ]* kind=summary $1"; }
check "serial log: the memory-controller error as a summary item" log_has \
    "item=machine_check package=1 bank=4 status=$status address=0x1234000 class=\"memory controller\" memory_controller=1 uncorrected=0 when=random\$"
check "serial log: the counts, DRAM suspect" log_has \
    'item=machine_checks errors=2 before_run=0 memory_during_run=1 dram_suspect=1$'

# chase-report: the verdicts' JSON and report.md carry it; a copy without the errors does not.
rep=$(fresh_dir report)
cp -r "$RUN_DIR" "$rep/suspect"
cp -r "$RUN_DIR" "$rep/clean"
jq '.machine_checks.dram_suspect = false' "$RUN_DIR/run.json" >"$rep/clean/run.json"
report_says() { "$ROOT/build/chase-report" --json "$1" 2>/dev/null | jq -e "$2" >/dev/null; }
check "chase-report --json: dram_suspect true, for the run and its source" \
    report_says "$rep/suspect" '.dram_suspect and .sources[0].dram_suspect'
check "chase-report --json: dram_suspect false where run.json says no error" \
    report_says "$rep/clean" '(.dram_suspect | not) and (.sources[0].dram_suspect | not)'
"$ROOT/build/chase-report" "$rep/suspect" >/dev/null 2>&1
check "report.md: the machine-check row says DRAM figures are suspect" grep -q \
    '^| machine checks | a memory controller logged errors during the run: DRAM figures are SUSPECT' \
    "$rep/suspect/report/report.md"
finish
