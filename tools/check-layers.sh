#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keep the layer boundaries the README states honest: GNU-EFI only in efi/, assembly only in
# kernel/arch/<arch>/ (x86_64, aarch64), the rest of kernel/ freestanding and free of firmware
# types.
set -u
. "$(dirname "$0")/check_lib.sh"
cd "$(dirname "$0")/.."

src() { git ls-files -co --exclude-standard -- "$@" 2>/dev/null; }

check "GNU-EFI headers are included only in efi/" \
    "$(src '*.c' '*.h' | grep -v '^efi/' | xargs -r grep -lE '#include *[<"](efi|efilib)\.h[>"]')"
check "inline assembly lives only in kernel/arch/x86_64/ and kernel/arch/aarch64/" \
    "$(src '*.c' '*.h' | grep -vE '^kernel/arch/(x86_64|aarch64)/' |
        xargs -r grep -lE '(__asm__|\basm\b *(volatile|__volatile__)? *\()')"
check "assembly files live only in kernel/arch/x86_64/ and kernel/arch/aarch64/" \
    "$(src '*.S' '*.s' '*.asm' | grep -vE '^kernel/arch/(x86_64|aarch64)/')"
check "kernel/ uses only freestanding C headers" \
    "$(src 'kernel/*.c' 'kernel/*.h' |
        xargs -r grep -nE '#include *<' |
        grep -vE '<(stdint|stddef|stdbool|stdarg|limits|stdalign|stdnoreturn)\.h>')"
check "kernel/ never sees firmware types (EFI_*)" \
    "$(src 'kernel/*.c' 'kernel/*.h' | xargs -r grep -nE '\bEFI_[A-Z_]+\b')"
# kernel/ is layered, lowest first: a file includes headers of its own layer or lower ones only
# (arch/ and platform.h are the platform's, below them all). analysis/ reads results and needs
# only lib/; it sits below run/, which prints its summary.
KERNEL_LAYERS="lib machine chase config point procs stream experiments analysis run"
LAYER_EXCEPTIONS=""
check "kernel/ layers ($KERNEL_LAYERS) include no higher layer" \
    "$(src 'kernel/*.c' 'kernel/*.h' | xargs -r grep -nE '^#include *"[a-z_0-9]+/' |
        awk -F: -v layers="$KERNEL_LAYERS" -v except="$LAYER_EXCEPTIONS" '
            BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i
                    split(except, e, " "); for (i in e) allowed[e[i]] = 1 }
            {
                split($1, path, "/"); own = path[2]
                inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
                split(inc, parts, "/"); dep = parts[1]
                if ((own in rank) && (dep in rank) && rank[dep] > rank[own] &&
                    !(($1 ":" inc) in allowed))
                    print $1 ":" $2 ": " own " includes " inc
            }')"
check "nothing in the build, tools or tests asks for root (no s[u]do)" \
    "$(src Makefile 'tools/*' 'tests/*' '.ci/*' | xargs -r grep -lwE 's[u]do')"
exit $failed
