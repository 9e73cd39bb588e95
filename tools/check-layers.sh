#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keep the layer boundaries of STYLE.md honest: GNU-EFI only in efi/, assembly only in
# kernel/arch/x86_64/, the rest of kernel/ freestanding and free of firmware types.
set -u
cd "$(dirname "$0")/.."
failed=0

check() {
    local what=$1 found=$2
    if [ -z "$found" ]; then
        echo "ok - $what"
    else
        echo "not ok - $what"
        echo "$found" | sed 's/^/#   /'
        failed=1
    fi
}

src() { git ls-files -co --exclude-standard -- "$@" 2>/dev/null; }

check "GNU-EFI headers are included only in efi/" \
    "$(src '*.c' '*.h' | grep -v '^efi/' | xargs -r grep -lE '#include *[<"](efi|efilib)\.h[>"]')"
check "inline assembly lives only in kernel/arch/x86_64/" \
    "$(src '*.c' '*.h' | grep -v '^kernel/arch/x86_64/' |
        xargs -r grep -lE '(__asm__|\basm\b *(volatile|__volatile__)? *\()')"
check "assembly files live only in kernel/arch/x86_64/" \
    "$(src '*.S' '*.s' '*.asm' | grep -v '^kernel/arch/x86_64/')"
check "kernel/ uses only freestanding C headers" \
    "$(src 'kernel/*.c' 'kernel/*.h' |
        xargs -r grep -nE '#include *<' |
        grep -vE '<(stdint|stddef|stdbool|stdarg|limits|stdalign|stdnoreturn)\.h>')"
check "kernel/ never sees firmware types (EFI_*)" \
    "$(src 'kernel/*.c' 'kernel/*.h' | xargs -r grep -nE '\bEFI_[A-Z_]+\b')"
check "nothing in the build, tools or tests asks for root (no s[u]do)" \
    "$(src Makefile 'tools/*' 'tests/*' '.ci/*' | xargs -r grep -lwE 's[u]do')"
exit $failed
