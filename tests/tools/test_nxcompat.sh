#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase.efi and chaseaa64.efi carry NX_COMPAT (objdump -p), keep its promise (no section both
# writable and executable), and pe-nxcompat refuses an image that would break it.
set -u
. "$(dirname "$0")/../lib.sh"

tool=$ROOT/build/pe-nxcompat
x64=$ROOT/build/chase.efi
a64=$ROOT/build/chaseaa64.efi

# dllchar OBJDUMP FILE: the DllCharacteristics field objdump -p reads.
dllchar() { "$1" -p "$2" | awk '$1 == "DllCharacteristics" { print $2 }'; }
checksum() { objdump -p "$1" | awk '$1 == "CheckSum" { print $2 }'; }
nx_marked() { [ "$(dllchar "$1" "$2")" = 00000100 ] && "$1" -p "$2" | grep -qw NX_COMPAT; }
# u16 FILE OFFSET, u32 FILE OFFSET: little-endian fields read with od.
u16() { od -An -tu2 -j "$2" -N 2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
# no_wx FILE: no section header (PE/COFF 3.1) has both IMAGE_SCN_MEM_WRITE and _EXECUTE, read
# from the bytes (not through the tool under test).
no_wx() {
    local pe nsec opt i c
    pe=$(u32 "$1" 60)
    nsec=$(u16 "$1" $((pe + 6)))
    opt=$(u16 "$1" $((pe + 20)))
    [ "$nsec" -gt 0 ] || return 1
    for ((i = 0; i < nsec; i++)); do
        c=$(u32 "$1" $((pe + 24 + opt + 40 * i + 36)))
        [ $((c & 0xa0000000)) != $((0xa0000000)) ] || return 1
    done
}
check "chase.efi: objdump -p shows DllCharacteristics 0x100 (NX_COMPAT)" \
    nx_marked objdump "$x64"
check "chaseaa64.efi: objdump -p shows DllCharacteristics 0x100 (NX_COMPAT)" \
    nx_marked aarch64-linux-gnu-objdump "$a64"
check "chase.efi: no section is both writable and executable" no_wx "$x64"
check "chaseaa64.efi: no section is both writable and executable" no_wx "$a64"

# The unmarked image as objcopy makes it: marking it adds 0x100 to the field and to the checksum
# objcopy computed (the sum has no carry here), so the checksum is redone, not left stale.
raw=$TEST_TMP/raw.efi
objcopy -j .text -j .data -j .dynamic -j .dynsym -j .rela -j .reloc --target efi-app-x86_64 \
    --subsystem=10 "$ROOT/build/chase.so" "$raw"
before=$(checksum "$raw")
cp "$raw" "$TEST_TMP/marked.efi"
check "pe-nxcompat marks objcopy's image" "$tool" "$TEST_TMP/marked.efi"
after=$(checksum "$TEST_TMP/marked.efi")
same_sum_plus() { [ $((16#$after)) = $((16#$before + 0x100)) ]; }
check "the PE checksum is redone (0x$before + 0x100 = 0x$after)" same_sum_plus
check "objcopy's image had no NX_COMPAT" test "$(dllchar objdump "$raw")" = 00000000

# A W+X section: .data (the third section header) given MEM_EXECUTE; the tool refuses and
# leaves the file as it was.
wx=$TEST_TMP/wx.efi
cp "$raw" "$wx"
pe=$(u32 "$wx" 60)
optsize=$(u16 "$wx" $((pe + 20)))
data_char=$((pe + 24 + optsize + 2 * 40 + 36))
name=$(dd if="$wx" bs=1 skip=$((data_char - 36)) count=5 2>/dev/null)
printf '\x60\x00\x00\xe0' | dd of="$wx" bs=1 seek=$data_char conv=notrunc 2>/dev/null
cp "$wx" "$TEST_TMP/wx.orig"
refuses() { "$tool" "$wx" 2>"$TEST_TMP/wx.err"; [ $? = 1 ] && grep -q "writable and executable" \
    "$TEST_TMP/wx.err"; }
check "the third section is .data ($name)" test "$name" = .data
check "pe-nxcompat refuses a writable and executable .data (exit 1, named)" refuses
check "... and leaves that image unmarked" cmp -s "$wx" "$TEST_TMP/wx.orig"
has_wx() { ! no_wx "$1"; }
check "the section check itself sees that W+X section" has_wx "$wx"
not_pe() { head -c 4096 /dev/zero >"$TEST_TMP/zero.efi"; "$tool" "$TEST_TMP/zero.efi" 2>/dev/null
    [ $? = 2 ]; }
check "pe-nxcompat refuses a file that is not PE32+ (exit 2)" not_pe
finish
