#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every C file as the repository's .clang-format lays it out (clang-format 14, Debian's).
#   check-format.sh          list the files clang-format would change (TAP-like ok/not ok)
#   check-format.sh --fix    reformat them in place (make format)
# CLANG_FORMAT names another binary; other major versions lay some code out differently.
set -u
cd "$(dirname "$0")/.." || exit 2
WANT_MAJOR=14

fix=0
case "${1:-}" in
--fix) fix=1 ;;
"") ;;
*)
    echo "usage: $0 [--fix]" >&2
    exit 2
    ;;
esac

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
    for c in clang-format-$WANT_MAJOR clang-format; do
        command -v "$c" >/dev/null && cf=$c && break
    done
fi
if [ -z "$cf" ] || ! command -v "$cf" >/dev/null; then
    echo "not ok - clang-format is installed (make deps)"
    exit 1
fi
version=$("$cf" --version | sed -n 's/.*clang-format version \([0-9][0-9.]*\).*/\1/p')
[ "${version%%.*}" = "$WANT_MAJOR" ] ||
    echo "# $cf is version ${version:-unknown}, not $WANT_MAJOR:" \
        "some differences may be the version's"

# Tracked C files (and new ones not ignored) that are still there.
files=()
while IFS= read -r f; do
    [ -f "$f" ] && files+=("$f")
done < <(git ls-files -co --exclude-standard -- '*.c' '*.h')

if [ $fix = 1 ]; then
    printf '%s\0' "${files[@]}" | xargs -0 -r "$cf" -i --style=file
    exit
fi

differ=()
for f in "${files[@]}"; do
    "$cf" --dry-run -Werror --style=file "$f" >/dev/null 2>&1 || differ+=("$f")
done
if [ ${#differ[@]} = 0 ]; then
    echo "ok - all ${#files[@]} C files are formatted as .clang-format says"
    exit 0
fi
echo "not ok - all ${#files[@]} C files are formatted as .clang-format says"
echo "# ${#differ[@]} differ (make format fixes them; clang-format --dry-run FILE shows how):"
printf '#   %s\n' "${differ[@]}"
exit 1
