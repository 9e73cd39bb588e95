#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Secure Boot: `make sign` with Debian's snakeoil test key gives an image OVMF boots with Secure
# Boot on (snakeoil keys enrolled), and the unsigned image is refused.
set -u
. "$(dirname "$0")/lib.sh"

key="$TEST_TMP/snakeoil.key"
cert=/usr/share/ovmf/PkKek-1-snakeoil.pem
# Debian ships the key encrypted with the passphrase 'snakeoil' (README.Debian of ovmf).
openssl pkey -in /usr/share/ovmf/PkKek-1-snakeoil.key -passin pass:snakeoil -out "$key"
make -s -C "$ROOT" sign KEY="$key" CERT="$cert" >"$TEST_TMP/sign.log" 2>&1
check "make sign signs chase.efi (sbverify accepts it)" \
    sbverify --cert "$cert" "$ROOT/build/chase-signed.efi"
check "the unsigned chase.efi does not verify" \
    sh -c "! sbverify --cert '$cert' '$ROOT/build/chase.efi'"

IMAGE="$ROOT/build/chase-signed.img" boot secure-signed --secure-boot \
    --set profile=quick --set on_exit=shutdown --set experiments=random --set random.max=64K
check "Secure Boot: the signed image runs to the end" json_true "$RUN_DIR/run.json" \
    '.status=="complete" and .experiments.random=="ok"'

BOOT_TIMEOUT=20 boot secure-unsigned --secure-boot --set on_exit=shutdown
check "Secure Boot: the unsigned image is refused by the firmware" \
    grep -qE 'failed to load Boot[0-9]+ .*(Access Denied|Security Violation)' "$SERIAL"
check "Secure Boot: the unsigned chase never started" sh -c "! grep -q '^chase [0-9]' '$SERIAL'"
