#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 49's firmware side under OVMF (TCG; nothing here is timed): chase.efi PXE-booted from
# QEMU's TFTP with no disk reads chase/<uuid>.cfg (PXELINUX's order) and uploads its run folder
# with HTTP PUT to an nginx this test starts on 127.0.0.1 (its own prefix, stopped at the end),
# manifest.json last, sizes and SHA-256 matching; a machine whose collector comes up only after
# its first try failed finishes its upload by retrying; one uploads over https (OVMF's TLS, the
# test's CA handed to it through fw_cfg); an AArch64 machine (AAVMF) PXE-boots and uploads too;
# a machine without its own file takes
# chase/default.cfg, finds its collector down for the whole retry window and writes the run to
# the disk it has, saying where; a machine HTTP-booted from nginx reads chase/01-<mac>.cfg over
# HTTP after the UUID's file is not there, and with its collector down and no disk says its
# run is lost; results = serial gives CHASE-FILE lines that rebuild the run folder written to
# disk in the same boot, byte for byte.
set -u
. "$(dirname "$0")/lib.sh"

UUID_A=4a1f0c2e-5d6b-4c7a-9e21-00000000000a
UUID_B=4a1f0c2e-5d6b-4c7a-9e21-00000000000b
MAC_A=52:54:00:c4:a5:01
MAC_B=52:54:00:c4:a5:02
UUID_C=4a1f0c2e-5d6b-4c7a-9e21-00000000000c
UUID_D=4a1f0c2e-5d6b-4c7a-9e21-00000000000d
UUID_E=4a1f0c2e-5d6b-4c7a-9e21-00000000000e
MAC_C=52:54:00:c4:a5:03
NGX=$(fresh_dir nginx)

# A TCP port on 127.0.0.1 nothing listens on (a few random tries; bounded).
free_port() {
    local p i
    for i in 1 2 3 4 5 6 7 8; do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

# start_nginx DIR [PORT]: nginx on 127.0.0.1:PORT (without PORT a free one, then set in PORT)
# serving DIR/root, PUT creating folders, its own prefix and logs in DIR; the log names the token.
# With DIR/cert.pem and DIR/key.pem it speaks https.
start_nginx() {
    local dir=$1 try port
    mkdir -p "$dir/root" "$dir/logs" "$dir/tmp"
    for try in 1 2 3; do
        port=${2:-$(free_port)} || return 1
        cat >"$dir/nginx.conf" <<CONF
user $(id -un) $(id -gn);
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log;
events { worker_connections 32; }
http {
    log_format put '\$request_method \$uri \$status auth="\$http_authorization"';
    access_log $dir/logs/access.log put;
    client_body_temp_path $dir/tmp;
    proxy_temp_path $dir/tmp;
    fastcgi_temp_path $dir/tmp;
    uwsgi_temp_path $dir/tmp;
    scgi_temp_path $dir/tmp;
    client_max_body_size 64m;
    server {
        listen 127.0.0.1:$port$([ -f "$dir/cert.pem" ] && echo " ssl");
        $([ -f "$dir/cert.pem" ] && echo "ssl_certificate $dir/cert.pem; ssl_certificate_key $dir/key.pem;")
        root $dir/root;
        location / { dav_methods PUT; create_full_put_path on; dav_access user:rw all:r; }
    }
}
CONF
        if nginx -p "$dir" -c "$dir/nginx.conf" 2>>"$dir/logs/start.log"; then
            [ -n "${2:-}" ] || PORT=$port
            return 0
        fi
    done
    return 1
}
stop_nginx() {
    local d
    for d in "$@"; do [ -f "$d/nginx.pid" ] && kill "$(cat "$d/nginx.pid")" 2>/dev/null; done
    return 0
}
NGX2=$(fresh_dir nginx-late)
NGX3=$(fresh_dir nginx-tls)
trap 'stop_nginx "$NGX" "$NGX2" "$NGX3"' EXIT

# edk2_cacerts DER OUT: an EFI_SIGNATURE_LIST holding one X.509 certificate (UEFI 2.10 32.4.1:
# EFI_CERT_X509_GUID, list size, header size 0, signature size; an owner GUID of zeros, the
# DER), the form OVMF reads from fw_cfg's etc/edk2/https/cacerts as its trusted CAs for https.
edk2_cacerts() {
    local n v
    n=$(stat -c %s "$1")
    {
        printf '\xa1\x59\xc0\xa5\xe4\x94\xa7\x4a\x87\xb5\xab\x15\x5c\x2b\xf0\x72'
        for v in $((28 + 16 + n)) 0 $((16 + n)); do
            printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) \
                $((v >> 16 & 255)) $((v >> 24 & 255)))"
        done
        head -c 16 /dev/zero
        cat "$1"
    } >"$2"
}

# crc32 FILE: its CRC-32 (IEEE, as zlib) in lower-case hex: gzip's trailer holds it.
crc32() { gzip -c <"$1" | tail -c 8 | od -An -N4 -tx4 | tr -d ' \n'; }

# manifest_matches DIR: DIR/manifest.json lists every other file of DIR with its size and SHA-256.
manifest_matches() {
    local dir=$1 m=$1/manifest.json f
    json_true "$m" '.format == "chase-manifest" and .version == 1' || return 1
    [ "$(jq -r '.files[].name' "$m" | sort)" = "$(cd "$dir" && ls | grep -vx manifest.json | sort)" ] ||
        return 1
    for f in $(jq -r '.files[].name' "$m"); do
        [ "$(jq -r --arg f "$f" '.files[] | select(.name == $f) | .size' "$m")" = \
            "$(stat -c %s "$dir/$f")" ] || return 1
        [ "$(jq -r --arg f "$f" '.files[] | select(.name == $f) | .sha256' "$m")" = \
            "$(sha256sum "$dir/$f" | cut -c1-64)" ] || return 1
    done
}

check "nginx started on 127.0.0.1 with its own configuration" start_nginx "$NGX"
DEAD=$(free_port)
LATE=$(free_port)
TFTP=$(fresh_dir tftp)
mkdir -p "$TFTP/chase"
cp "$ROOT/build/chase.efi" "$TFTP/"
printf '%s\n' profile=quick on_exit=shutdown experiments=random random.max=64K \
    "results = http://10.0.2.2:$PORT/fleet" "results.token = tok-A1" \
    >"$TFTP/chase/$UUID_A.cfg"
printf '%s\n' profile=quick on_exit=shutdown experiments=linear linear.size=64K \
    linear.max_stride=256 "results = http://10.0.2.2:$DEAD/fleet" results.retries=1 \
    >"$TFTP/chase/default.cfg"

# ---- machine A: no disk, its own chase/<uuid>.cfg, uploads to nginx ------------------------------
IMAGE= boot pxe-a --net-boot "$TFTP" --mac "$MAC_A" --timeout 300 \
    --qemu -smbios --qemu "type=1,uuid=$UUID_A,serial=SN-A1"
con=$WORK/console-a.txt
sed 's/\x1b\[[0-9;?=]*[A-Za-z]//g' "$SERIAL" | tr -d '\r' >"$con"
check "A: PXE-booted with no disk, chase shut the machine down" test "$BOOT_RC" = 0
check "A: the console names chase/<uuid>.cfg as the configuration used" \
    grep -q "network boot (pxe): configuration tftp://10.0.2.2/chase/$UUID_A.cfg" "$con"
runs=$(ls "$NGX/root/fleet/SN-A1" 2>/dev/null)
up=$NGX/root/fleet/SN-A1/$runs
check "A: one run arrived under <root>/fleet/SN-A1 (the SMBIOS serial)" test "$(echo "$runs" | wc -w)" = 1
who=$(printf %s "$UUID_A" | gzip -c | tail -c 8 | od -An -N4 -tx4 | tr -d ' \n')
check "A: the run id is YYYYMMDDhhmmss-<CRC-32 of the UUID>-<TSC>" \
    grep -qE "^[0-9]{14}-$who-[0-9a-f]{8}\$" <<<"$runs"
check "A: run.json, random.csv, random.samples.csv, console.txt and manifest.json arrived" \
    test "$(ls "$up" | sort | tr '\n' ' ')" = \
    "console.txt manifest.json random.csv random.samples.csv run.json "
check "A: manifest.json lists every other file with its size and SHA-256" manifest_matches "$up"
check "A: manifest.json names the machine and the run" json_true "$up/manifest.json" \
    ".machine == \"SN-A1\" and .run_id == \"$runs\""
check "A: run.json: run id, machine (serial), pxe, the boot NIC's MAC, the file it read" \
    json_true "$up/run.json" ".run_id == \"$runs\" and .machine == \"SN-A1\" and
    .machine_from == \"serial\" and .boot == \"pxe\" and .boot_nic.mac == \"$MAC_A\" and
    (.config_from | endswith(\"chase/$UUID_A.cfg\")) and .status == \"complete\" and
    .config[\"results.token\"] == true"
check "A: every PUT carried the token as Authorization: Bearer, manifest.json last" test \
    "$(grep -c "^PUT /fleet/SN-A1/$runs/[a-z._]* 201 auth=\"Bearer tok-A1\"" "$NGX/logs/access.log")" = 5 -a \
    "$(grep "^PUT /fleet/SN-A1/" "$NGX/logs/access.log" | tail -n 1 | cut -d' ' -f2)" = \
    "/fleet/SN-A1/$runs/manifest.json"
check "A: the token is written nowhere in the run" bash -c "! grep -rq tok-A1 '$up'"
check "A: a progress line per file and the end said on the console" \
    grep -q "results: \[5/5\] manifest.json, [0-9]* bytes: HTTP 201" "$con"
check "A: the serial port has the outcome as a CHASE-LOG line" \
    grep -q "CHASE-LOG v=1 run=$runs kind=results status=uploaded" "$con"

# ---- machine D: its collector comes up only after the first try failed; the retries finish ------
printf '%s\n' profile=quick on_exit=shutdown experiments=random random.max=64K \
    "results = http://10.0.2.2:$LATE" results.retries=4 >"$TFTP/chase/$UUID_D.cfg"
# A serial log left by an earlier run of this test would answer the wait below at once.
rm -rf "$TEST_TMP/pxe-d"
(IMAGE= boot pxe-d --net-boot "$TFTP" --timeout 300 \
    --qemu -smbios --qemu "type=1,uuid=$UUID_D,serial=SN-D4") >"$TEST_TMP/pxe-d.log" 2>&1 &
booting=$!
serial_d=$TEST_TMP/pxe-d/vm/serial.log
for i in $(seq 1 1500); do # at most 300 s, as the boot's own timeout
    grep -aq 'run.json failed: .*; try 2 of 5 in 1 s' "$serial_d" 2>/dev/null && break
    kill -0 "$booting" 2>/dev/null || break
    sleep 0.2
done
check "D: the collector was down at the first try (the console said so)" \
    grep -aq 'run.json failed: .*; try 2 of 5 in 1 s' "$serial_d"
check "D: the collector started on its port after that" start_nginx "$NGX2" "$LATE"
wait "$booting"
con=$TEST_TMP/pxe-d/console-d.txt
sed 's/\x1b\[[0-9;?=]*[A-Za-z]//g' "$serial_d" | tr -d '\r' >"$con"
runs=$(ls "$NGX2/root/SN-D4" 2>/dev/null)
check "D: the retries finished the upload: every file, manifest matching" \
    manifest_matches "$NGX2/root/SN-D4/$runs"
check "D: the console says all files were uploaded" grep -q "results: all 5 files uploaded" "$con"

# ---- machine E: https to an nginx whose certificate the firmware trusts (OVMF's TLS) ----------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=10.0.2.2 \
    -addext subjectAltName=IP:10.0.2.2 -keyout "$NGX3/key.pem" -out "$NGX3/cert.pem" 2>/dev/null
openssl x509 -in "$NGX3/cert.pem" -outform der -out "$NGX3/cert.der"
edk2_cacerts "$NGX3/cert.der" "$NGX3/cacerts.bin"
check "E: an https nginx started on 127.0.0.1" start_nginx "$NGX3" "$(free_port)"
TLS_PORT=$(sed -n 's/.*listen 127.0.0.1:\([0-9]*\) ssl;.*/\1/p' "$NGX3/nginx.conf")
printf '%s\n' profile=quick on_exit=shutdown experiments=random random.max=64K \
    "results = https://10.0.2.2:$TLS_PORT/tls" results.retries=0 >"$TFTP/chase/$UUID_E.cfg"
IMAGE= boot pxe-e --net-boot "$TFTP" --timeout 300 --qemu -smbios --qemu "type=1,uuid=$UUID_E" \
    --qemu -fw_cfg --qemu "name=etc/edk2/https/cacerts,file=$NGX3/cacerts.bin"
runs=$(ls "$NGX3/root/tls/$UUID_E" 2>/dev/null)
check "E: the run arrived over https, its manifest matching (machine: the UUID, no serial)" \
    manifest_matches "$NGX3/root/tls/$UUID_E/$runs"

IMAGE= boot pxe-e-untrusted --net-boot "$TFTP" --timeout 300 \
    --qemu -smbios --qemu "type=1,uuid=$UUID_E"
check "E without the CA: refused, said, nothing arrived, the run said lost (no disk)" \
    bash -c 'grep -aq "failed: .*for https the firmware must trust the server.s CA" "$1" &&
        grep -aq "are LOST when chase ends" "$1" &&
        [ "$(ls "$2" | wc -l)" = 1 ]' _ "$SERIAL" "$NGX3/root/tls/$UUID_E"

# ---- machine F: AArch64 (AAVMF) PXE-boots chaseaa64.efi and uploads the same way ----------------
TFTP64=$(fresh_dir tftp-aa64)
mkdir -p "$TFTP64/chase"
cp "$ROOT/build/chaseaa64.efi" "$TFTP64/chase.efi"
printf '%s\n' profile=quick on_exit=shutdown experiments=random random.max=64K \
    "results = http://10.0.2.2:$PORT/fleet" >"$TFTP64/chase/default.cfg"
IMAGE= boot pxe-f --arch aarch64 --net-boot "$TFTP64" --timeout 300 \
    --qemu -smbios --qemu "type=1,serial=ARM-F6"
runs=$(ls "$NGX/root/fleet/ARM-F6" 2>/dev/null)
check "F: AArch64 read chase/default.cfg by PXE and uploaded its run, manifest matching" \
    bash -c 'grep -aq "network boot (pxe): configuration tftp://10.0.2.2/chase/default.cfg" "$1" &&
        [ "$(jq -r .arch "$2/run.json")" = aarch64 ]' _ "$SERIAL" "$NGX/root/fleet/ARM-F6/$runs"
check "F: its manifest lists every file with its size and SHA-256" \
    manifest_matches "$NGX/root/fleet/ARM-F6/$runs"

# ---- machine B: placeholder serial, chase/default.cfg, collector down, a writable disk -------------
boot pxe-b --net-boot "$TFTP" --mac "$MAC_B" --timeout 300 \
    --qemu -smbios --qemu "type=1,uuid=$UUID_B,serial=To Be Filled By O.E.M."
con=$WORK/console-b.txt
sed 's/\x1b\[[0-9;?=]*[A-Za-z]//g' "$SERIAL" | tr -d '\r' >"$con"
check "B: PXE-booted (a disk behind the network), chase shut the machine down" test "$BOOT_RC" = 0
check "B: the console names chase/default.cfg (no file for its UUID or MAC)" \
    grep -q "configuration tftp://10.0.2.2/chase/default.cfg" "$con"
check "B: each upload try failed and was retried once with a 1 s wait" \
    grep -q "results: \[1/[0-9]*\] run.json failed: .*; try 2 of 2 in 1 s" "$con"
check "B: the console says the run went to the disk, and where" \
    grep -qE 'results: the upload did not complete; the run \([0-9]+ files\) was written to \\chase\\runs\\0001 on the volume' "$con"
check "B: the serial port has it as a CHASE-LOG results line" \
    grep -q 'kind=results status=local where="\\chase\\runs\\0001 on the volume' "$con"
check "B: nothing reached the collector's root (it was down)" test ! -e "$NGX/root/fleet/$UUID_B"
check "B: the run folder on the disk holds the run, its manifest matching" manifest_matches "$RUN_DIR"
check "B: machine is the UUID (the serial is a placeholder), default.cfg recorded" \
    json_true "$RUN_DIR/run.json" ".machine == \"$UUID_B\" and .machine_from == \"uuid\" and
    .boot_nic.mac == \"$MAC_B\" and (.config_from | endswith(\"chase/default.cfg\")) and
    .status == \"complete\""
check "B: linear ran (default.cfg's experiment), its CSV on the disk" test -s "$RUN_DIR/linear.csv"
check "B: the disk's console.txt tells of the failed upload" \
    grep -q "to http://10.0.2.2:$DEAD/fleet/$UUID_B/.* failed" "$RUN_DIR/console.txt"

# ---- machine C: HTTP boot from nginx, chase/01-<mac>.cfg over HTTP, collector down, no disk ------
mkdir -p "$NGX/root/boot/chase"
cp "$ROOT/build/chase.efi" "$NGX/root/boot/"
printf '%s\n' profile=quick on_exit=shutdown experiments=random random.max=64K \
    "results = http://10.0.2.2:$DEAD" results.retries=0 \
    >"$NGX/root/boot/chase/01-${MAC_C//:/-}.cfg"
IMAGE= boot http-c --http-boot "http://10.0.2.2:$PORT/boot/chase.efi" --mac "$MAC_C" \
    --timeout 300 --qemu -smbios --qemu "type=1,uuid=$UUID_C,serial=SN-C3"
con=$WORK/console-c.txt
sed 's/\x1b\[[0-9;?=]*[A-Za-z]//g' "$SERIAL" | tr -d '\r' >"$con"
check "C: HTTP-booted from nginx with no disk, chase shut the machine down" test "$BOOT_RC" = 0
check "C: the console names chase/01-<mac>.cfg, read over HTTP" grep -q \
    "network boot (http): configuration http://10.0.2.2:$PORT/boot/chase/01-${MAC_C//:/-}.cfg" "$con"
check "C: it asked for chase/<uuid>.cfg first (404), then the MAC's (200)" test \
    "$(grep '^GET /boot/chase/' "$NGX/logs/access.log" | cut -d' ' -f2,3 | tr '\n' ' ')" = \
    "/boot/chase/$UUID_C.cfg 404 /boot/chase/01-${MAC_C//:/-}.cfg 200 "
check "C: with no retries and no writable volume the console says the run is lost" \
    grep -qE 'results: the upload did not complete, and there is no writable volume: the run.s [0-9]+ files \([0-9]+ bytes\) are LOST' "$con"
check "C: the serial port says so too (status=lost)" grep -q 'kind=results status=lost' "$con"
check "C: one try only (results.retries = 0)" test "$(grep -c 'run.json.*failed' "$con")" = 1

# ---- results = serial: the CHASE-FILE lines rebuild the disk's run folder byte for byte ----------
# rebuild SERIAL DIR: the run folder from the CHASE-FILE lines, each chunk's CRC-32 and each file's
# size and SHA-256 checked (a line "bad ..." on stdout for each mismatch).
rebuild() {
    local serial=$1 dir=$2 name seq crc b64 size sha chunk=$2/.chunk
    mkdir -p "$dir"
    grep -ao 'CHASE-FILE v=1 .*' "$serial" | tr -d '\r' |
        sed 's/.* kind=\([a-z]*\) /\1 /' >"$dir/.lines"
    while read -r kind rest; do
        case "$kind" in
        begin)
            eval "$(sed 's/name=\([^ ]*\) size=\([0-9]*\) sha256=\([0-9a-f]*\)/name=\1 size=\2 sha=\3/' <<<"$rest")"
            : >"$dir/$name"
            printf '%s %s\n' "$size" "$sha" >"$dir/.want-$name" ;;
        data)
            read -r _ seq crc b64 <<<"$(sed 's/name=[^ ]* seq=\([0-9]*\) crc32=\([0-9a-f]*\) b64=\(.*\)/x \1 \2 \3/' <<<"$rest")"
            printf %s "$b64" | base64 -d >"$chunk"
            [ "$(crc32 "$chunk")" = "$crc" ] || echo "bad crc $name $seq"
            cat "$chunk" >>"$dir/$name" ;;
        end)
            name=$(sed 's/name=\([^ ]*\) .*/\1/' <<<"$rest")
            read -r size sha <"$dir/.want-$name"
            [ "$(stat -c %s "$dir/$name")" = "$size" ] || echo "bad size $name"
            [ "$(sha256sum <"$dir/$name" | cut -c1-64)" = "$sha" ] || echo "bad sha256 $name" ;;
        esac
    done <"$dir/.lines"
    rm -f "$chunk" "$dir"/.want-*
}

boot serial --set profile=quick --set on_exit=shutdown --set experiments=random \
    --set random.max=64K --set results=serial
check "serial: booted from the disk, chase shut the machine down" test "$BOOT_RC" = 0
built=$WORK/rebuilt
problems=$(rebuild "$SERIAL" "$built")
check "serial: every chunk's CRC-32 and every file's size and SHA-256 check" test -z "$problems"
# The stream's lines in a file (a whole run's stream is longer than one argument may be: 128K)
lines=$WORK/stream.lines
grep -ao 'CHASE-FILE v=1 .*' "$SERIAL" | tr -d '\r' >"$lines"
files=$(ls "$RUN_DIR" | wc -l)
check "serial: kind=run first (machine, files), kind=done last, manifest.json the last file" \
    bash -c '[ "$(head -n 1 "$1" | grep -o "kind=run machine=[^ ]* files=$2\$")" ] &&
        [ "$(tail -n 1 "$1" | grep -o "kind=done files=$2\$")" ] &&
        [ "$(grep -o "kind=begin name=[^ ]*" "$1" | tail -n 1)" = "kind=begin name=manifest.json" ]' \
    _ "$lines" "$files"
check "serial: at most 192 bytes a data line, chunks numbered from 0" \
    bash -c '! grep -o "b64=[^ ]*" "$1" | awk "length(\$0) > 4 + 256 {bad=1} END {exit !bad}" &&
        grep -q "seq=0 " "$1"' _ "$lines"
check "serial: the rebuilt folder is the disk's, file for file, byte for byte" \
    diff -r --exclude=.lines "$built" "$RUN_DIR"
check "serial: every line carries the run id the run.json has" \
    bash -c '[ "$(grep -c "^CHASE-FILE v=1 run=$2 " "$1")" = "$(wc -l <"$1")" ]' \
    _ "$lines" "$(jq -r .run_id "$RUN_DIR/run.json")"
finish
