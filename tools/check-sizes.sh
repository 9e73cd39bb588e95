#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keep the sizes the README states honest: no source file over 500 lines, no C function in kernel/ or efi/
# over 60 (a function runs from its opening brace in column 0 to its closing brace in column 0).
#   check-sizes.sh [DIR]   (DIR: a git work tree, default this repository)
set -u
. "$(dirname "$0")/check_lib.sh"
cd "${1:-$(dirname "$0")/..}" || exit 2
MAX_FILE_LINES=500
MAX_FUNCTION_LINES=60

# Files git knows (tracked, or new and not ignored) that are still there.
src() {
    git ls-files -co --exclude-standard -- "$@" 2>/dev/null | while IFS= read -r f; do
        [ -f "$f" ] && printf '%s\n' "$f"
    done
}

# "FILE: N lines" for each file longer than max.
long_files() {
    xargs -r -d '\n' awk -v max="$1" '
        FNR == 1 && NR > 1 && n > max { print name ": " n " lines" }
        FNR == 1 { name = FILENAME }
        { n = FNR }
        END { if (NR > 0 && n > max) print name ": " n " lines" }'
}

# "FILE:LINE: N lines: SIGNATURE" for each function longer than max, counting both braces.
long_functions() {
    xargs -r -d '\n' awk -v max="$1" '
        FNR == 1 { open_at = 0; sig = ""; sig_at = 0 }
        /^\{/ && FNR > 1 && !open_at { open_at = FNR; next }
        /^\}/ && open_at {
            n = FNR - open_at + 1
            if (n > max) {
                s = sig
                gsub(/^[ \t]+|[ \t]+$/, "", s)
                print FILENAME ":" sig_at ": " n " lines: " substr(s, 1, 70)
            }
            open_at = 0
            next
        }
        !open_at && /\(/ { sig = $0; sig_at = FNR }'
}

check "no source file over $MAX_FILE_LINES lines (.c .h .S .sh .mk Makefile)" \
    "$(src '*.c' '*.h' '*.S' '*.sh' '*.mk' 'Makefile' '*/Makefile' | long_files $MAX_FILE_LINES)"
check "no C function over $MAX_FUNCTION_LINES lines in kernel/ and efi/" \
    "$(src 'kernel/*.c' 'kernel/*.h' 'efi/*.c' 'efi/*.h' | long_functions $MAX_FUNCTION_LINES)"
exit $failed
