#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot a copy of chase.img in QEMU (q35, TCG) with OVMF, or (--arch aarch64) in
# qemu-system-aarch64 -M virt with AAVMF, wait for chase to power off, then copy the run folder
# out of the image with mtools.
set -euo pipefail

usage() {
    cat <<USAGE
usage: qemu-run.sh --image IMG [options]
  --image IMG        the disk image to boot (a copy is booted; IMG stays clean)
  --out DIR          copy the newest run folder to DIR/NNNN (next free number)
  --set KEY=VALUE    a setting for \\chase\\chase.cfg in the copy (repeatable)
  --config FILE      use FILE as \\chase\\chase.cfg in the copy (before the --set lines)
  --keep-config      keep the image's own chase.cfg (with --set lines appended)
  --mem SIZE         guest memory (default 256M)
  --arch ARCH        x86_64 (default: q35 and OVMF) or aarch64 (virt and AAVMF: the same
                     image boots \\EFI\\BOOT\\BOOTAA64.EFI)
  --cpu MODEL        QEMU CPU model (default max)
  --smp N            CPUs (default 1)
  --timeout S        give up after S seconds (default 900)
  --show             print the serial console while it runs
  --work DIR         where the image copy, varstore and logs go (default: a temp dir)
  --readonly         attach the disk read-only
  --secure-boot      boot OVMF with Secure Boot on and Debian's snakeoil keys enrolled
  --kill-after S     kill QEMU S seconds after start (an interrupted run)
  --kill-when REGEX  kill QEMU (SIGKILL) as soon as the serial console matches REGEX
  --in-place         boot IMG itself, not a copy (to boot a disk a second time)
  --qemu ARG         one more QEMU argument, after the others (repeatable: --qemu -numa
                     --qemu node,nodeid=0,cpus=0-1,memdev=m0)
  --monitor-when REGEX  once the serial console matches REGEX, send the --monitor commands to
                     QEMU's human monitor (on a pipe in the work folder; replies in monitor.out)
  --monitor CMD      a monitor command for --monitor-when (repeatable: "mce 0 4 0x8c00... 0 0 0")
  --net-boot DIR     PXE-boot chase.efi from DIR (QEMU's TFTP on its user network, a virtio NIC
                     driven by OVMF's own network stack); --image is optional then: a disk
                     attached behind the network (its run folder copied out with --out)
  --http-boot URL    UEFI HTTP boot of URL (QEMU's DHCP gives it as the boot file; OVMF's PXE
                     is turned off so its HTTP boot comes first); --image optional as above
  --mac MAC          the NIC's MAC with --net-boot or --http-boot (default 52:54:00:12:34:56)
USAGE
}

image= out= config= mem=256M cpu=max smp=1 timeout=900 show=0 work= readonly=0 keep=0
secure=0 kill_after= kill_when= in_place=0 arch=x86_64 monitor_when= netboot= httpboot= mac=52:54:00:12:34:56
sets=() extra=() monitor_cmds=()
while [ $# -gt 0 ]; do
    case "$1" in
    --image) image=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --config) config=$2; shift 2 ;;
    --keep-config) keep=1; shift ;;
    --mem) mem=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --show) show=1; shift ;;
    --work) work=$2; shift 2 ;;
    --readonly) readonly=1; shift ;;
    --secure-boot) secure=1; shift ;;
    --kill-after) kill_after=$2; shift 2 ;;
    --kill-when) kill_when=$2; shift 2 ;;
    --in-place) in_place=1; shift ;;
    --qemu) extra+=("$2"); shift 2 ;;
    --monitor-when) monitor_when=$2; shift 2 ;;
    --monitor) monitor_cmds+=("$2"); shift 2 ;;
    --net-boot) netboot=$2; shift 2 ;;
    --http-boot) httpboot=$2; shift 2 ;;
    --mac) mac=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "qemu-run: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
[ -n "$image" ] || [ -n "$netboot$httpboot" ] || { usage >&2; exit 2; }
[ -z "$image" ] || [ -f "$image" ] ||
    { echo "qemu-run: no image at $image (run 'make' first)" >&2; exit 2; }
[ -z "$netboot" ] || [ -f "$netboot/chase.efi" ] ||
    { echo "qemu-run: --net-boot $netboot holds no chase.efi" >&2; exit 2; }

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
machine=q35
if [ "$secure" = 1 ]; then
    # Secure Boot needs SMM, and a variable store with keys enrolled (PK, KEK, db: snakeoil).
    ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
    ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
    machine=q35,smm=on
fi
qemu=qemu-system-x86_64 firmware_pkg=ovmf qemu_pkg=qemu-system-x86
case "$arch" in
x86_64) ;;
aarch64)
    [ "$secure" = 0 ] || { echo "qemu-run: --secure-boot is x86-64 only here" >&2; exit 2; }
    ovmf_code=/usr/share/AAVMF/AAVMF_CODE.fd
    ovmf_vars=/usr/share/AAVMF/AAVMF_VARS.fd
    machine=virt qemu=qemu-system-aarch64 firmware_pkg=qemu-efi-aarch64 qemu_pkg=qemu-system-arm
    ;;
*) echo "qemu-run: --arch is x86_64 or aarch64, not '$arch'" >&2; exit 2 ;;
esac
for f in "$ovmf_code" "$ovmf_vars"; do
    [ -f "$f" ] || { echo "qemu-run: $f is missing: apt-get install $firmware_pkg" >&2; exit 2; }
done
command -v "$qemu" >/dev/null ||
    { echo "qemu-run: $qemu is missing: apt-get install $qemu_pkg" >&2; exit 2; }

if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/chase-qemu.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
disk="$work/disk.img"
vars="$work/vars.fd"
serial="$work/serial.log"
if [ -z "$image" ]; then
    disk=
elif [ "$in_place" = 1 ]; then
    disk=$image
else
    cp "$image" "$disk"
fi
cp "$ovmf_vars" "$vars"
: >"$serial"

export MTOOLS_SKIP_CHECK=1
part="$disk@@1M"
if [ -z "$disk" ]; then
    : # no disk: the configuration comes from the --net-boot folder
elif [ -n "$config" ] || [ ${#sets[@]} -gt 0 ] && [ "$keep" = 0 ]; then
    {
        echo "# written by qemu-run.sh for this boot"
        [ -n "$config" ] && cat "$config"
        for s in "${sets[@]}"; do echo "$s"; done
    } >"$work/chase.cfg"
    mcopy -o -i "$part" "$work/chase.cfg" ::/chase/chase.cfg
elif [ "$keep" = 1 ] && [ ${#sets[@]} -gt 0 ]; then
    mcopy -i "$part" ::/chase/chase.cfg "$work/chase.cfg" 2>/dev/null || : >"$work/chase.cfg"
    for s in "${sets[@]}"; do echo "$s"; done >>"$work/chase.cfg"
    mcopy -o -i "$part" "$work/chase.cfg" ::/chase/chase.cfg
fi

ro=""
[ "$readonly" = 1 ] && ro=",readonly=on"
qemu_args=(
    -machine "$machine" -accel tcg -m "$mem" -cpu "$cpu" -smp "$smp"
    -display none -no-reboot -serial "file:$serial" -monitor none
    -drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf_code"
    -drive "if=pflash,format=raw,unit=1,file=$vars"
)
if [ -n "$disk" ]; then
    qemu_args+=(-drive "if=none,id=disk0,format=raw,file=$disk$ro"
        -device "virtio-blk-pci,drive=disk0,bootindex=$([ -n "$netboot$httpboot" ] && echo 2 || echo 1)")
fi
if [ -n "$netboot" ]; then
    # romfile= leaves out the NIC's iPXE option ROM: OVMF's own PXE, HTTP and IPv4 drivers run
    # it, as they would a server's NIC. The guest reaches the host's 127.0.0.1 as 10.0.2.2.
    qemu_args+=(-netdev "user,id=n0,tftp=$netboot,bootfile=chase.efi"
        -device "virtio-net-pci,netdev=n0,mac=$mac,romfile=,bootindex=1")
elif [ -n "$httpboot" ]; then
    qemu_args+=(-fw_cfg name=opt/org.tianocore/IPv4PXESupport,string=n
        -fw_cfg name=opt/org.tianocore/IPv6PXESupport,string=n
        -netdev "user,id=n0,ipv6=off,bootfile=$httpboot"
        -device "virtio-net-pci,netdev=n0,mac=$mac,romfile=,bootindex=1")
else
    qemu_args+=(-net none)
fi
[ "$secure" = 1 ] && qemu_args+=(-global driver=cfi.pflash01,property=secure,value=on)
if [ -n "$monitor_when" ]; then
    # The human monitor on two FIFOs (QEMU opens both read-write: nothing blocks on open).
    rm -f "$work/monitor.in" "$work/monitor.out"
    mkfifo "$work/monitor.in" "$work/monitor.out"
    for i in "${!qemu_args[@]}"; do
        [ "${qemu_args[$i]}" = -monitor ] && qemu_args[$((i + 1))]="pipe:$work/monitor"
    done
fi
[ ${#extra[@]} -gt 0 ] && qemu_args+=("${extra[@]}")

echo "qemu-run: booting ${netboot:+chase.efi from $netboot by PXE}${httpboot:+$httpboot by HTTP boot}${image:+ $image (copy in $work)} with $mem, cpu $cpu, $smp CPU(s)"
start=$(date +%s)
tailpid=
if [ "$show" = 1 ]; then
    # Firmware output carries terminal escapes; drop them so logs stay readable.
    tail -n +1 -F "$serial" 2>/dev/null | sed -u 's/\x1b\[[0-9;?=]*[A-Za-z]//g; s/\r$//' &
    tailpid=$!
fi
rc=0
limit=$timeout
signal=TERM
if [ -n "$kill_after" ]; then
    limit=$kill_after
    signal=KILL # like pulling the plug: no shutdown, nothing flushed
fi
timeout -s "$signal" "$limit" "$qemu" "${qemu_args[@]}" &
qpid=$!
watchpid=
if [ -n "$kill_when" ]; then
    # Pull the plug the moment the console shows the pattern: nothing is shut down or flushed.
    (while ! grep -qE "$kill_when" "$serial" 2>/dev/null; do sleep 0.1; done
     pkill -KILL -P "$qpid" 2>/dev/null) &
    watchpid=$!
fi
monpid=
if [ -n "$monitor_when" ]; then
    # Drain the monitor's replies into a file; send the commands once the console matches.
    cat "$work/monitor.out" >"$work/monitor.log" &
    monpid=$!
    # Bounded: it stops when QEMU has gone, and a FIFO nobody reads is not waited on for long.
    (while kill -0 "$qpid" 2>/dev/null && ! grep -qE "$monitor_when" "$serial" 2>/dev/null; do
         sleep 0.1
     done
     kill -0 "$qpid" 2>/dev/null || exit 0
     printf '%s\n' "${monitor_cmds[@]}" | timeout 10 tee "$work/monitor.in" >/dev/null &&
         echo "qemu-run: sent ${#monitor_cmds[@]} monitor command(s) at /$monitor_when/") &
fi
wait "$qpid" || rc=$?
[ -n "$monpid" ] && { kill "$monpid" 2>/dev/null || true; }
if [ -n "$watchpid" ]; then
    kill "$watchpid" 2>/dev/null || true
    grep -qE "$kill_when" "$serial" && rc=137
fi
sleep 0.3
[ -n "$tailpid" ] && { kill "$tailpid" 2>/dev/null || true; pkill -P "$tailpid" 2>/dev/null || true; }
echo "qemu-run: QEMU exited with status $rc after $(( $(date +%s) - start )) s"
if [ "$rc" = 124 ] && [ -z "$kill_after" ]; then
    echo "qemu-run: chase did not finish within $timeout s" >&2
    exit 124
fi

if [ -n "$out" ] && [ -n "$disk" ]; then
    newest=$(mdir -i "$part" -b ::/chase/runs 2>/dev/null | sed -n 's#.*/\([0-9]\{4\}\)/*$#\1#p' |
        sort | tail -n 1)
    if [ -z "$newest" ]; then
        echo "qemu-run: the image holds no run folder" >&2
        exit 1
    fi
    mkdir -p "$out"
    n=1
    while [ -e "$out/$(printf %04d $n)" ]; do n=$((n + 1)); done
    dest="$out/$(printf %04d $n)"
    mkdir -p "$dest"
    mcopy -s -n -i "$part" "::/chase/runs/$newest/*" "$dest/"
    echo "qemu-run: run folder \\chase\\runs\\$newest copied to $dest"
    echo "$dest" >"$work/run-folder"
fi
exit "$rc"
