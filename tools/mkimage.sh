#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a GPT disk image with one FAT32 EFI System Partition, without root: sfdisk on a
# file and mtools inside it.
# Usage: mkimage.sh [--shell STARTUP_NSH] [--add FILE]... [--aa64 CHASEAA64_EFI] IMAGE CHASE_EFI
#        CONFIG_EXAMPLE [SIZE_MIB]
# With --aa64, chase for AArch64 goes to \EFI\BOOT\BOOTAA64.EFI beside BOOTX64.EFI: one stick
# boots on both kinds of machine (each firmware starts the file named for its architecture).
# With --shell, chase goes to \chase\chase.efi and STARTUP_NSH to \startup.nsh, and there is
# no \EFI\BOOT\BOOTX64.EFI, so the firmware starts its UEFI shell, which runs the script.
set -euo pipefail

startup=
aa64=
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --shell) startup=${2:?--shell needs a startup.nsh}; shift 2 ;;
    --add) extra+=("${2:?--add needs a file}"); shift 2 ;; # also copied to \chase\
    --aa64) aa64=${2:?--aa64 needs chaseaa64.efi}; shift 2 ;;
    *) break ;;
    esac
done
image=${1:?usage: mkimage.sh [--shell STARTUP_NSH] IMAGE CHASE_EFI CONFIG_EXAMPLE [SIZE_MIB]}
efi=${2:?missing chase.efi}
cfg=${3:?missing the example configuration}
size_mib=${4:-64}

# The ESP starts at 1 MiB (sector 2048) and runs to the backup GPT at the end.
start_sector=2048
tmp="$image.tmp"
rm -f "$tmp"
truncate -s "${size_mib}M" "$tmp"
sfdisk --quiet --no-reread --no-tell-kernel "$tmp" >/dev/null <<SFDISK
label: gpt
start=$start_sector, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="chase"
SFDISK
sectors=$(sfdisk --json "$tmp" | sed -n 's/.*"size": *\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$sectors" ] || { echo "mkimage: could not read the partition size back" >&2; exit 1; }

part="$tmp@@$((start_sector * 512))"
export MTOOLS_SKIP_CHECK=1
mformat -i "$part" -F -T "$sectors" -h 64 -s 32 -v CHASE ::
if [ -n "$startup" ]; then
    mmd -i "$part" ::/chase
    mcopy -i "$part" "$efi" ::/chase/chase.efi
    mcopy -i "$part" "$startup" ::/startup.nsh
else
    mmd -i "$part" ::/EFI ::/EFI/BOOT ::/chase
    mcopy -i "$part" "$efi" ::/EFI/BOOT/BOOTX64.EFI
    [ -z "$aa64" ] || mcopy -i "$part" "$aa64" ::/EFI/BOOT/BOOTAA64.EFI
fi
mcopy -i "$part" "$cfg" ::/chase/chase.cfg
for f in "${extra[@]}"; do
    mcopy -i "$part" "$f" "::/chase/$(basename "$f")"
done
mv "$tmp" "$image"
