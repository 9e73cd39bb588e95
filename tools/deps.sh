#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages chase needs when they are missing (as root), or say exactly
# which command to run (as anyone else).
set -euo pipefail

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
