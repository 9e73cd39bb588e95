#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How tests/report/data/fleet/ was recorded (run by hand, not by make test): four chase-host runs
# on this machine (quick profile, random, bandwidth, bw_cores, c2c), each given the SMBIOS
# identity that chase.efi read in a QEMU boot with -smbios values for that machine (system serial
# and UUID, 4 memory devices of one part), because chase-host reads SMBIOS from Linux's
# /sys/firmware/dmi/tables, which this container does not have. Machine 4's firmware version
# differs (FW-2.11). The measurements are chase-host's; the identity block is chase.efi's.
#   record.sh OUT        (OUT/FLEET-000N/0001/: run.json and the experiments' CSVs)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
for n in 1 2 3 4; do
    serial=FLEET-000$n uuid=7c1e0f00-0000-4000-8000-00000000000$n fw=FW-2.10
    [ "$n" = 4 ] && fw=FW-2.11
    "$ROOT/build/chase-host" --out "$work/host$n" profile=quick on_exit=shutdown \
        experiments=random,bandwidth,bw_cores,c2c random.max=256M bandwidth.max=256M \
        bandwidth.kernels=read,write,copy bw_cores.level=dram >"$work/host$n.log" 2>&1
    # 64G of guest memory (reserve=off: nothing is allocated until touched) is 4 SMBIOS devices
    "$ROOT/tools/qemu-run.sh" --image "$ROOT/build/chase.img" --work "$work/vm$n" \
        --out "$work/efi$n" --timeout 300 --mem 64G \
        --qemu -object --qemu memory-backend-ram,id=ram0,size=64G,reserve=off \
        --qemu -machine --qemu memory-backend=ram0 \
        --set profile=quick --set on_exit=shutdown --set experiments=random --set random.max=64K \
        --qemu -smbios --qemu "type=0,vendor=ChaseFirmCo,version=$fw,date=09/01/2026" \
        --qemu -smbios --qemu "type=1,manufacturer=ChaseSysCo,product=Fleet-Node,version=1,serial=$serial,uuid=$uuid,sku=SKU-F1,family=FleetFamily" \
        --qemu -smbios --qemu "type=3,manufacturer=ChaseSysCo,asset=ASSET-$serial" \
        --qemu -smbios --qemu "type=17,loc_pfx=DIMM,bank=Bank,manufacturer=ChaseDramCo,serial=DS-$serial,asset=DA-$serial,part=CHS-D5-16G-4800,speed=4800" \
        >"$work/efi$n.log" 2>&1
    dst=$out/$serial/0001
    mkdir -p "$dst"
    cp "$work/host$n"/0001/{random,bandwidth,bw_cores,c2c}.csv "$dst/"
    jq --slurpfile efi "$work/efi$n/0001/run.json" \
        '.machine_identity.smbios = $efi[0].machine_identity.smbios |
         .machine_identity.smbios.source = "chase.efi in QEMU (tests/report/data/fleet/record.sh)"' \
        "$work/host$n/0001/run.json" >"$dst/run.json"
done
