#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages chase needs when they are missing (as root), or say exactly
# which command to run (as anyone else).
#   deps.sh                        install what is missing
#   deps.sh --gnu-efi-arm64 DEB    download GNU-EFI's arm64 package to DEB (for chaseaa64.efi)
set -euo pipefail

# GNU-EFI for arm64 cannot be installed beside the amd64 one (same files, not Multi-Arch):
# its .deb is downloaded and the build unpacks it (kernel/arch/aarch64/efi.mk).
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
