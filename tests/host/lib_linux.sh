# SPDX-License-Identifier: MIT
# Debian's kernel (make deps: build/deps/linux) booted in QEMU with an initramfs of the static
# chase-host and tests/host/numa_init.c, which runs chase-host with the arguments after "--" on
# the kernel's command line and prints the run folder's files to the serial console between
# marker lines. Sourced by the host tests that need a real Linux (numa, tiers) after tests/lib.sh.

LINUX_KERNEL=$ROOT/build/deps/linux/vmlinuz
LINUX_BOOT_TIMEOUT_S=240 # the boot and run take about 15 s alone under TCG; the machine is shared

# linux_initrd WORK: WORK/initrd.gz with chase-host as init's program; exits with a "not ok" line
# when the kernel, the static chase-host, numa_init or cpio is missing.
linux_initrd() {
    local work=$1 f
    for f in "$LINUX_KERNEL" "$ROOT/build/chase-host-static" "$ROOT/build/numa_init"; do
        [ -e "$f" ] || {
            echo "not ok - $f is missing (make deps builds/fetches the kernel; make all the rest)"
            exit 1
        }
    done
    command -v cpio >/dev/null || { echo "not ok - no cpio (make deps installs it)"; exit 1; }
    mkdir -p "$work/initramfs"
    cp "$ROOT/build/numa_init" "$work/initramfs/init"
    cp "$ROOT/build/chase-host-static" "$work/initramfs/chase-host"
    (cd "$work/initramfs" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$work/initrd.gz"
}

# linux_boot WORK "CHASE-HOST ARGS" QEMU-ARGS...: boots the kernel with WORK/initrd.gz on the
# machine QEMU-ARGS describe, the serial console to WORK/serial.txt (LF line ends); returns
# QEMU's status (124 when it ran past LINUX_BOOT_TIMEOUT_S).
linux_boot() {
    local work=$1 args=$2 rc
    shift 2
    timeout "$LINUX_BOOT_TIMEOUT_S" qemu-system-x86_64 "$@" \
        -kernel "$LINUX_KERNEL" -initrd "$work/initrd.gz" \
        -append "console=ttyS0 quiet panic=-1 -- $args" \
        -display none -no-reboot -monitor none -serial "file:$work/serial.log" \
        </dev/null >"$work/qemu.log" 2>&1
    rc=$?
    tr -d '\r' <"$work/serial.log" >"$work/serial.txt" # the console's line ends are CR LF
    return $rc
}

# linux_files WORK DIR FILE...: the files init printed to the console, back into run folder DIR.
linux_files() {
    local work=$1 dir=$2 f
    shift 2
    for f in "$@"; do
        awk -v f="$f" '$0 == "=== file " f " ===" {on = 1; next} $0 == "=== end " f " ===" {on = 0}
            on' "$work/serial.txt" >"$dir/$f"
    done
}
