#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keep the layer boundaries of the README honest: GNU-EFI only in efi/, assembly only in
# kernel/arch/<arch>/, an architecture's own headers only in its own folders, the rest of
# kernel/ freestanding, free of firmware types and layered with no arrow back up.
set -u
. "$(dirname "$0")/check_lib.sh"
cd "$(dirname "$0")/.."

src() { git ls-files -co --exclude-standard -- "$@" 2>/dev/null; }
# quoted_includes FILE...: "FILE:LINE:NAME" for each #include "NAME" in them.
quoted_includes() {
    xargs -r grep -nE '^ *# *include *"[^"]+"' | sed -E 's/^([^:]+:[0-9]+):.*"([^"]+)".*$/\1:\2/'
}
ARCHES="x86_64 aarch64"

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
# kernel/ builds with -Ikernel alone: every header it names is kernel/NAME or beside the file,
# never one of efi/, tools/ or tests/ (which the host and test builds also put on the path).
check "kernel/ includes only kernel/'s own headers" \
    "$(src 'kernel/*.c' 'kernel/*.h' 'kernel/*.S' | quoted_includes |
        while IFS=: read -r file line name; do
            [ -f "kernel/$name" ] || [ -f "$(dirname "$file")/$name" ] ||
                echo "$file:$line: includes $name"
        done)"
# kernel/arch/ is the bottom: the instructions and loops of each architecture and their
# contracts, which every layer may use; it includes kernel/arch/ headers only (no platform.h,
# lib/, machine/ or anything above: that would be an arrow back up).
check "kernel/arch/ includes only kernel/arch/ headers" \
    "$(src 'kernel/arch/*' | grep -E '\.(c|h|S)$' | quoted_includes |
        while IFS=: read -r file line name; do
            case "$name" in
            arch/*) [ -f "kernel/$name" ] && continue ;;
            */*) ;;
            *) [ -f "$(dirname "$file")/$name" ] && continue ;;
            esac
            echo "$file:$line: includes $name"
        done)"
# An architecture's own headers (kernel/arch/ARCH/, efi/ARCH/) are for that architecture's
# files; the portable code reaches them through kernel/arch/NAME.h, which picks by the target.
check "only an architecture's own files include its headers" \
    "$(src 'kernel/*.c' 'kernel/*.h' 'kernel/*.S' 'efi/*.c' 'efi/*.h' | quoted_includes |
        while IFS=: read -r file line name; do
            for arch in $ARCHES; do
                case "$name" in arch/$arch/* | $arch/*) ;; *) continue ;; esac
                case "$file" in kernel/arch/$arch/* | efi/$arch/*) continue ;; esac
                [ "$(dirname "$file")" = kernel/arch ] && continue # a picker: kernel/arch/NAME.h
                echo "$file:$line: includes $name"
            done
        done)"
# kernel/ is layered, lowest first: a file includes headers of its own layer or lower ones only
# (platform.h, the platform's interface, is below them all). arch/ is the bottom. point/ (what
# every experiment's point goes through), procs/ (processors started, windows cut, traffic) and
# stream/ (the bandwidth engine, whose teams use procs/) sit above chase/ and config/ and below
# experiments/. analysis/ reads results and needs only lib/; it sits below run/, which prints
# its summary.
KERNEL_LAYERS="arch lib machine chase config point procs stream experiments analysis run"
LAYER_EXCEPTIONS=""
check "kernel/ layers ($KERNEL_LAYERS) include no higher layer" \
    "$(src 'kernel/*.c' 'kernel/*.h' 'kernel/*.S' | xargs -r grep -nE '^#include *"[a-z_0-9]+/' |
        awk -F: -v layers="$KERNEL_LAYERS" -v except="$LAYER_EXCEPTIONS" '
            BEGIN { n = split(layers, l, " ")
                    for (i = 1; i <= n; i++) { m = split(l[i], same, ",")
                                               for (j = 1; j <= m; j++) rank[same[j]] = i }
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
