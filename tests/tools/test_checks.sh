#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tree's own checks catch what they are for: check-sizes.sh, check-format.sh,
# check-doc-paths.sh and check-layers.sh run on small git trees made here, once clean and once
# with each kind of offender.
set -u
. "$(dirname "$0")/../lib.sh"

tree=$(fresh_dir checks-tree)
mkdir -p "$tree/tools" "$tree/kernel/lib" "$tree/efi"
cp "$ROOT/tools/check-sizes.sh" "$ROOT/tools/check_lib.sh" "$ROOT/tools/check-format.sh" \
    "$tree/tools/"
cp "$ROOT/.clang-format" "$tree/"
git -C "$tree" init -q .

# function_of NAME LINES: a C function of LINES lines from its opening to its closing brace.
function_of() {
    printf 'int %s(int x)\n{\n' "$1"
    for ((i = 0; i < $2 - 2; i++)); do
        printf '    x++;\n'
    done
    printf '}\n'
}

sizes() { "$tree/tools/check-sizes.sh" "$tree" >"$TEST_TMP/sizes.out" 2>&1; }
sizes_flags() { sizes; grep -q "^#   $1" "$TEST_TMP/sizes.out"; }
format() { "$tree/tools/check-format.sh" >"$TEST_TMP/format.out" 2>&1; }

# At the limits: a 500-line script, 60-line functions (two in one file, one in a header).
seq 500 >"$tree/tools/long.sh"
{ function_of a 60; function_of b 60; } >"$tree/kernel/lib/a.c"
function_of c 60 >"$tree/efi/c.h"
function_of d 200 >"$tree/tools/tool.c" # outside kernel/ and efi/: no function limit
git -C "$tree" add -A
check "check-sizes: a tree at the limits passes" sizes

seq 501 >"$tree/tools/long.sh"
check "check-sizes: a 501-line script fails, named with its length" \
    sizes_flags "tools/long.sh: 501 lines"
seq 500 >"$tree/tools/long.sh"
seq 600 >"$tree/kernel/lib/new.h" # not yet added to git: still a source file
check "check-sizes: a new file is checked before it is added" sizes_flags "kernel/lib/new.h: 600"
rm "$tree/kernel/lib/new.h"
mkdir -p "$tree/sub" && seq 501 >"$tree/sub/Makefile"
check "check-sizes: a Makefile in a folder counts" sizes_flags "sub/Makefile: 501 lines"
rm -r "$tree/sub"
{ function_of a 60; function_of b 61; } >"$tree/kernel/lib/a.c"
check "check-sizes: a 61-line function fails, named with its line and signature" \
    sizes_flags "kernel/lib/a.c:62: 61 lines: int b(int x)"
function_of a 60 >"$tree/kernel/lib/a.c"
function_of c 61 >"$tree/efi/c.h"
check "check-sizes: efi/ headers count too" sizes_flags "efi/c.h:1: 61 lines"
function_of c 60 >"$tree/efi/c.h"
check "check-sizes: passes again once fixed" sizes

# check-doc-paths.sh: a doc that names a path the tree lacks fails, naming doc, line and path.
docs_tree=$(fresh_dir doc-paths-tree)
mkdir -p "$docs_tree/tools" "$docs_tree/docs" "$docs_tree/kernel/arch/x86_64"
cp "$ROOT/tools/check-doc-paths.sh" "$ROOT/tools/check_lib.sh" "$docs_tree/tools/"
printf '// SPDX-License-Identifier: MIT\n' >"$docs_tree/kernel/arch/x86_64/cpu.c"
printf '# Guide\n\n## How it is built\n\nSee [the tree](../README.md#the-tree).\n' \
    >"$docs_tree/docs/guide.md"
cat >"$docs_tree/README.md" <<'MD'
## The tree
Assembly lives in `kernel/arch/<arch>/` (`arch/x86_64/cpu.c`:1); build/chase.efi is built,
../shared/STYLE.md is outside; [the guide](docs/guide.md#how-it-is-built), `tools/...`.
MD
git -C "$docs_tree" init -q . && git -C "$docs_tree" add -A
doc_paths() { "$docs_tree/tools/check-doc-paths.sh" >"$TEST_TMP/doc-paths.out" 2>&1; }
doc_paths_flags() { ! doc_paths && grep -qx "#   $1" "$TEST_TMP/doc-paths.out"; }
check "check-doc-paths: docs that name only paths of the tree pass" doc_paths
echo 'The cutter is in `kernel/arch/x86_64/window.c`.' >>"$docs_tree/README.md"
check "check-doc-paths: a path the tree lacks fails, named with its doc and line" \
    doc_paths_flags "README.md:4: kernel/arch/x86_64/window.c"
sed -i '$d' "$docs_tree/README.md"
echo 'Rooted at kernel/ as includes are: `arch/x86_64/cpu.h`.' >>"$docs_tree/README.md"
check "check-doc-paths: a path rooted at kernel/ is read as kernel/'s" \
    doc_paths_flags "README.md:4: kernel/arch/x86_64/cpu.h"
sed -i '$d' "$docs_tree/README.md"
echo 'See [design](design.md) and [a step](guide.md#no-such-step).' >>"$docs_tree/docs/guide.md"
check "check-doc-paths: a link to a missing file fails, resolved from the doc's folder" \
    doc_paths_flags "docs/guide.md:6: docs/design.md"
check "check-doc-paths: a link to a missing section fails" \
    doc_paths_flags "docs/guide.md:6: docs/guide.md#no-such-step"
sed -i '$d' "$docs_tree/docs/guide.md"
echo 'Tests: kernel/FOLDER/test_MODULE.c; efi/x86_64/ (no efi/ here).' >>"$docs_tree/docs/guide.md"
check "check-doc-paths: a placeholder must match a path; no top folder, not read" \
    sh -c "! '$docs_tree/tools/check-doc-paths.sh' >'$TEST_TMP/doc-paths.out' 2>&1 &&
           grep -qx '#   docs/guide.md:6: kernel/FOLDER/test_MODULE.c' '$TEST_TMP/doc-paths.out' &&
           ! grep -q 'efi/' '$TEST_TMP/doc-paths.out'"
sed -i '$d' "$docs_tree/docs/guide.md"
check "check-doc-paths: passes again once fixed" doc_paths

# check-layers: a tree with the rooms' shape, clean, then with one arrow at a time.
lt=$(fresh_dir layers-tree)
mkdir -p "$lt/tools" "$lt/kernel/arch/x86_64" "$lt/kernel/arch/aarch64" "$lt/efi/x86_64"
for d in lib machine chase config point procs stream experiments analysis run; do
    mkdir -p "$lt/kernel/$d"
done
cp "$ROOT/tools/check-layers.sh" "$ROOT/tools/check_lib.sh" "$lt/tools/"
git -C "$lt" init -q .
header() { printf '// SPDX-License-Identifier: MIT\n#pragma once\n'; } # a header of nothing
header >"$lt/kernel/platform.h"
header >"$lt/kernel/arch/x86_64/cpu.h"
header >"$lt/kernel/arch/aarch64/cpu.h"
printf '#include "arch/x86_64/cpu.h"\n#include "arch/aarch64/cpu.h"\n' >"$lt/kernel/arch/cpu.h"
printf '#include "cpu.h"\n#include "arch/cpu.h"\n' >"$lt/kernel/arch/x86_64/window.h"
for d in lib machine chase config point procs stream experiments analysis run; do
    header >"$lt/kernel/$d/$d.h"
done
printf '#include "arch/cpu.h"\n#include "platform.h"\n#include "lib/lib.h"\n' \
    >"$lt/kernel/machine/m.c"
printf '#include "chase/chase.h"\n#include "config/config.h"\n#include "procs/procs.h"\n' \
    >"$lt/kernel/stream/s.c"
printf '#include "point/point.h"\n#include "machine/machine.h"\n' >"$lt/kernel/procs/p.c"
printf '#include "stream/stream.h"\n#include "procs/procs.h"\n' >"$lt/kernel/experiments/e.c"
printf '#include "arch/x86_64/window.h"\n#include "x86_64/x.h"\n#include "efi.h"\n' \
    >"$lt/efi/x86_64/x.c"
header >"$lt/efi/x86_64/x.h"
printf '#include "arch/cpu.h"\n' >"$lt/efi/main.c"
git -C "$lt" add -A
layers() { "$lt/tools/check-layers.sh" >"$TEST_TMP/layers.out" 2>&1; }
# layers_flags FILE TEXT WHAT: FILE (made to offend) fails the check named WHAT; put back after.
layers_flags() {
    local file=$1 text=$2 what=$3 kept
    kept=$(cat "$lt/$file" 2>/dev/null)
    printf '%s\n' "$text" >>"$lt/$file"
    ! layers && grep -q "^not ok - $what" "$TEST_TMP/layers.out" &&
        grep -q "^#   $file:" "$TEST_TMP/layers.out"
    local rc=$?
    if [ -n "$kept" ]; then printf '%s\n' "$kept" >"$lt/$file"; else rm -f "$lt/$file"; fi
    return $rc
}
check "check-layers: a tree of the rooms' shape passes" layers
check "check-layers: an arrow back up from kernel/arch/ into machine/ fails" \
    layers_flags kernel/arch/x86_64/window.h '#include "machine/machine.h"' \
    "kernel/arch/ includes only kernel/arch/ headers"
check "check-layers: kernel/arch/ including platform.h fails" \
    layers_flags kernel/arch/x86_64/cpu.h '#include "platform.h"' \
    "kernel/arch/ includes only kernel/arch/ headers"
check "check-layers: portable kernel code naming an architecture's header fails" \
    layers_flags kernel/chase/c.c '#include "arch/x86_64/cpu.h"' \
    "only an architecture's own files include its headers"
check "check-layers: efi/'s portable files naming an architecture's header fail" \
    layers_flags efi/main.c '#include "arch/x86_64/window.h"' \
    "only an architecture's own files include its headers"
check "check-layers: one architecture's files naming the other's fail" \
    layers_flags efi/x86_64/x.c '#include "arch/aarch64/cpu.h"' \
    "only an architecture's own files include its headers"
check "check-layers: stream/ including experiments/ fails" \
    layers_flags kernel/stream/s.c '#include "experiments/experiments.h"' "kernel/ layers"
check "check-layers: procs/ including stream/ fails" \
    layers_flags kernel/procs/p.c '#include "stream/stream.h"' "kernel/ layers"
check "check-layers: chase/ including procs/ fails" \
    layers_flags kernel/chase/c.c '#include "procs/procs.h"' "kernel/ layers"
check "check-layers: kernel/ including a header of efi/ fails" \
    layers_flags kernel/run/r.c '#include "x86_64/x.h"' "kernel/ includes only kernel/'s own"
check "check-layers: passes again once put back" layers

if command -v "${CLANG_FORMAT:-clang-format}" >/dev/null; then
    printf '// SPDX-License-Identifier: MIT\nint f(void)\n{\n    return 1;\n}\n' >"$tree/efi/ok.c"
    git -C "$tree" rm -rqf --cached . && git -C "$tree" add efi/ok.c tools
    rm -f "$tree/kernel/lib/a.c" "$tree/efi/c.h" "$tree/tools/tool.c"
    check "check-format: a formatted tree passes" format
    printf 'int g(void) { return  2; }\n' >"$tree/kernel/lib/bad.c"
    check "check-format: an unformatted file fails, by name" \
        sh -c "! '$tree/tools/check-format.sh' >'$TEST_TMP/format.out' 2>&1 &&
               grep -q '^#   kernel/lib/bad.c' '$TEST_TMP/format.out' &&
               ! grep -q '^#   efi/ok.c' '$TEST_TMP/format.out'"
    "$tree/tools/check-format.sh" --fix >/dev/null 2>&1
    check "check-format --fix (make format) lays it out, then it passes" format
else
    echo "not ok - clang-format is installed (make deps)"
fi
finish
