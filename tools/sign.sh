#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sign chase.efi for Secure Boot with sbsigntool and build an image that boots it.
# Usage: sign.sh KEY CERT EFI_IN EFI_OUT IMAGE_OUT CONFIG_EXAMPLE
set -euo pipefail
key=${1:?usage: sign.sh KEY CERT EFI_IN EFI_OUT IMAGE_OUT CONFIG_EXAMPLE}
cert=${2:?missing CERT}
in=${3:?missing EFI_IN}
out=${4:?missing EFI_OUT}
image=${5:?missing IMAGE_OUT}
cfg=${6:?missing CONFIG_EXAMPLE}
for f in "$key" "$cert" "$in"; do
    [ -r "$f" ] || { echo "sign: cannot read $f" >&2; exit 2; }
done
command -v sbsign >/dev/null || { echo "sign: sbsign is missing: apt-get install sbsigntool" >&2; exit 2; }
# sbsign asks for the key's passphrase on the terminal when the key is encrypted.
sbsign --key "$key" --cert "$cert" --output "$out" "$in" 2>&1 | grep -v '^warning: data remaining' || true
[ -s "$out" ] || { echo "sign: sbsign produced nothing" >&2; exit 1; }
sbverify --cert "$cert" "$out" >/dev/null
"$(dirname "$0")/mkimage.sh" "$image" "$out" "$cfg"
echo "sign: $out and $image are signed with $cert"
