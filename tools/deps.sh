#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages chase needs when they are missing (as root), or say exactly
# which command to run (as anyone else).
#   deps.sh                        install what is missing
#   deps.sh --gnu-efi-arm64 DEB    download GNU-EFI's arm64 package to DEB (for chaseaa64.efi)
#   deps.sh --linux-kernel DIR     unpack Debian's amd64 Linux kernel into DIR (DIR/vmlinuz: the
#                                  kernel tests/host/test_host_numa.sh boots chase-host on)
set -euo pipefail

# GNU-EFI for arm64 cannot be installed beside the amd64 one (same files, not Multi-Arch):
# its .deb is downloaded and the build unpacks it (efi/aarch64/efi.mk).
gnu_efi_arm64() {
    local deb=$1 dir
    dir=$(dirname "$deb")
    mkdir -p "$dir"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        if [ "$(id -u)" != 0 ]; then
            echo "chaseaa64.efi needs GNU-EFI for arm64; as root run:" >&2
            echo "  dpkg --add-architecture arm64 && apt-get update && make deps" >&2
            exit 1
        fi
        dpkg --add-architecture arm64
        apt-get update >>/tmp/chase-deps.log 2>&1
    fi
    (cd "$dir" && rm -f gnu-efi_*_arm64.deb && apt-get download gnu-efi:arm64 >/dev/null 2>&1) ||
        (apt-get update >>/tmp/chase-deps.log 2>&1 &&
            cd "$dir" && apt-get download gnu-efi:arm64 >/dev/null 2>&1) || {
        echo "deps: could not download gnu-efi:arm64 (apt-get download gnu-efi:arm64)" >&2
        exit 1
    }
    mv "$dir"/gnu-efi_*_arm64.deb "$deb"
}
# Debian's kernel for amd64 (NUMA, the 8250 serial console, devtmpfs and initramfs built in, so
# no module is needed): the package linux-image-amd64 depends on, downloaded with apt-get (no
# root needed) and unpacked with dpkg -x; DIR/vmlinuz links to its boot/vmlinuz-*.
kernel_package() { # the versioned package linux-image-amd64 stands for
    apt-cache depends linux-image-amd64 2>/dev/null |
        awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9].*-amd64$/ {print $2; exit}'
}
linux_kernel() {
    local dir=$1 pkg
    [ -e "$dir/vmlinuz" ] && return 0
    pkg=$(kernel_package)
    if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then # a fresh machine may have no package lists yet
        apt-get update >>/tmp/chase-deps.log 2>&1
        pkg=$(kernel_package)
    fi
    [ -n "$pkg" ] || {
        echo "deps: apt-cache knows no linux-image-amd64 (as root: apt-get update)" >&2
        exit 1
    }
    mkdir -p "$dir"
    (cd "$dir" && rm -f linux-image-*.deb && apt-get download "$pkg" >/dev/null 2>&1) || {
        echo "deps: could not download $pkg (apt-get download $pkg)" >&2
        exit 1
    }
    dpkg -x "$dir"/linux-image-*.deb "$dir/root"
    rm -rf "$dir"/linux-image-*.deb "$dir/root/lib" "$dir/root/usr" # the modules: not needed
    ln -sf "$(cd "$dir/root/boot" && ls vmlinuz-* | head -n 1 | sed 's|^|root/boot/|')" \
        "$dir/vmlinuz"
}
if [ "${1:-}" = --linux-kernel ]; then
    linux_kernel "${2:?--linux-kernel needs the folder to unpack into}"
    exit 0
fi
if [ "${1:-}" = --gnu-efi-arm64 ]; then
    gnu_efi_arm64 "${2:?--gnu-efi-arm64 needs the path of the .deb}"
    exit 0
fi

packages=(
    gcc make binutils           # compilers and linker
    gnu-efi                     # crt0, linker script and libraries for chase.efi
    ovmf                        # UEFI firmware for QEMU
    qemu-system-x86             # the emulator for make run and the QEMU tests
    mtools fdisk dosfstools     # the disk image, built without root
    libcmocka-dev               # the unit test framework
    jq                          # checking run.json in the QEMU tests
    libgsl-dev gnuplot-nox      # chase-report: fitting and plots
    fonts-dejavu-core           # a font for gnuplot's pngcairo terminal
    clang libclang-rt-14-dev    # fuzzing (libFuzzer) and sanitizers
    clang-format                # make format, tools/check-format.sh (version 14 in Debian 12)
    sbsigntool openssl          # signing chase.efi for Secure Boot
    gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross # chase-host-aarch64
    qemu-user                   # running chase-host-aarch64 in the tests (qemu-aarch64)
    qemu-system-arm qemu-efi-aarch64 # make run ARCH=aarch64 and its QEMU tests (AAVMF)
    cpio                        # the initramfs that boots chase-host under Linux in QEMU
    libsqlite3-dev sqlite3      # chase-report fleet reads fleet.sqlite; its test writes one
    chromium file               # the fleet report's HTML looked at headless; its PNGs named
    libmicrohttpd-dev           # chase-collect's HTTP server
    curl python3                # the collector's tests: uploads, the serial encoder
    nginx                       # the upload target of test_fleet_boot.sh and test_collect_nginx.sh
)
names=()
for p in "${packages[@]}"; do
    case "$p" in \#*) continue ;; esac
    names+=("$p")
done

missing=()
for p in "${names[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ -f build/deps/gnu-efi_arm64.deb ] || gnu_efi_arm64 build/deps/gnu-efi_arm64.deb
[ -e build/deps/linux/vmlinuz ] || linux_kernel build/deps/linux
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
    echo "chase needs these Debian packages: ${missing[*]}" >&2
    echo "install them as root with:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/chase-deps.log 2>&1; then
    # A fresh machine may have no package lists yet.
    apt-get update >>/tmp/chase-deps.log 2>&1
    apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/chase-deps.log 2>&1 || {
        echo "deps: apt-get failed; see /tmp/chase-deps.log" >&2
        tail -n 20 /tmp/chase-deps.log >&2
        exit 1
    }
fi
echo "deps: done"
