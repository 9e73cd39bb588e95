#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-collect refuses before it writes: no token or a wrong one (401), bad names (`..`, an
# absolute path, %00 and a raw NUL, '\', '%2F': 400), a body over --max-body (413), methods other
# than PUT (405), a manifest whose checksums do not match (409: staging kept, nothing complete),
# a client sending one byte a second (cut off at --request-timeout, in the header or the body).
# Nothing is written outside --root. Every request is bounded by curl's or the loop's limit.
set -u
. "$(dirname "$0")/lib.sh"
work=$(fresh_dir hostile)
trap stop_collector EXIT
root=$work/root
M=HOSTILE-1
R=20261128140000-00000001-00000002
# A request may take 3 s here, so the slow clients below are cut off within the test's bounds.
timeout_s=3
check "chase-collect starts (max body 64K, a request at most ${timeout_s} s, 3 connections)" \
    start_collector "$work/collect.log" --root "$root" --token "$TOKEN" --max-body 64K \
    --request-timeout "$timeout_s" --max-connections 3
marker=$work/marker
touch "$marker"
sleep 1 # what is written from here on is newer than the marker
printf 'hello\n' >"$work/small.txt"

# The token.
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -T "$work/small.txt" \
    "http://127.0.0.1:$PORT/$M/$R/a.txt")
check "no token: 401 ($code)" test "$code" = 401
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -T "$work/small.txt" \
    -H "Authorization: Bearer wrong-$TOKEN" "http://127.0.0.1:$PORT/$M/$R/a.txt")
check "a wrong token: 401 ($code)" test "$code" = 401
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -T "$work/small.txt" \
    -H "Authorization: Bearer ${TOKEN}x" "http://127.0.0.1:$PORT/$M/$R/a.txt")
check "the token with one more character: 401 ($code)" test "$code" = 401
check "nothing staged for a refused token" test ! -e "$root/.staging/$M"

# Names.
for path in "$M/../escape.txt" "$M/$R/../../escape.txt" "../../escape.txt" "$M/..%2F..%2Fescape.txt" \
    "/tmp/$R/escape.txt" "$M/$R//tmp/escape.txt" "$M/$R/a%00.txt" "$M/$R/a%5C..%5Cescape.txt" \
    "$M/$R/.hidden" "$M/$R" "$M/$R/a/b.txt" "$M/$R/a%20b.txt" "$M/$R/..."; do
    code=$(put "$work/small.txt" "$path")
    check "PUT /$path: 400 ($code)" test "$code" = 400
done
# A raw NUL byte in the request line (curl cannot send one): bash's /dev/tcp.
nul_status=$( (
    trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$PORT" || exit
    printf 'PUT /%s/%s/a\0b.txt HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 6\r\n\r\nhello\n' \
        "$M" "$R" "$TOKEN" >&3
    timeout 10 head -n 1 <&3
) | tr -d '\r')
check "a raw NUL inside the file name: 400 ($nul_status)" test "$nul_status" = "HTTP/1.1 400 Bad Request"
abs_status=$( (
    trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$PORT" || exit
    printf 'PUT http://10.0.2.2:%s/%s/../escape.txt HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello\n' \
        "$PORT" "$M" "$TOKEN" >&3
    timeout 10 head -n 1 <&3
) | tr -d '\r')
check "an absolute-form target with .. in its path: 400 ($abs_status)" test \
    "$abs_status" = "HTTP/1.1 400 Bad Request"
check "no name refused above was written anywhere" sh -c "! find '$work' / -xdev -maxdepth 3 \
    -name 'escape.txt' -newer '$marker' 2>/dev/null | grep -q . && test ! -e '$root/.staging/$M'"

# Methods, sizes.
for method in GET DELETE POST MKCOL; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X "$method" \
        -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/$M/$R/a.txt")
    check "$method: 405 ($code)" test "$code" = 405
done
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$PORT/health")
check "GET /health: 200 ($code)" test "$code" = 200
head -c 100000 /dev/zero >"$work/big.bin"
code=$(put "$work/big.bin" "$M/$R/big.bin")
check "a body over --max-body (100000 bytes > 64K): 413 ($code)" test "$code" = 413
code=$(put "$work/small.txt" "$M/$R/a.txt" -H "Transfer-Encoding: chunked")
check "a body with no Content-Length (chunked): 411 ($code)" test "$code" = 411
check "nothing staged for the refused bodies" test ! -e "$root/.staging/$M"

# A manifest whose checksums do not match: 409, the files staged, no complete run.
put "$work/small.txt" "$M/$R/a.txt" >/dev/null
jq -n --arg m "$M" --arg r "$R" '{format: "chase-manifest", version: 1, machine: $m, run_id: $r,
    files: [{name: "a.txt", size: 6, sha256: ("0" * 64)}]}' >"$work/manifest.json"
code=$(put "$work/manifest.json" "$M/$R/manifest.json")
check "a manifest whose SHA-256 does not match: 409 ($code)" test "$code" = 409
check "no complete run, the staging kept for a retry" sh -c "test ! -e '$root/$M' &&
    test -s '$root/.staging/$M/$R/a.txt' && test -s '$root/.staging/$M/$R/manifest.json'"
jq -n --arg m "$M" --arg r "$R" '{format: "chase-manifest", version: 1, machine: $m, run_id: $r,
    files: [{name: "a.txt", size: 7, sha256: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"}]}' \
    >"$work/manifest-size.json"
code=$(put "$work/manifest-size.json" "$M/$R/manifest.json")
check "a manifest with the right SHA-256 but the wrong size: 409 ($code), no complete run" \
    sh -c "test $code = 409 && test ! -e '$root/$M'"
for bad in '{"format": "chase-manifest", "version": 1}' 'not json' \
    "{\"format\": \"chase-manifest\", \"version\": 1, \"machine\": \"$M\", \"run_id\": \"other\", \"files\": []}" \
    "{\"format\": \"chase-manifest\", \"version\": 1, \"machine\": \"$M\", \"run_id\": \"$R\", \"files\": [{\"name\": \"../x\", \"size\": 1, \"sha256\": \"$(printf '0%.0s' $(seq 64))\"}]}"; do
    printf '%s' "$bad" >"$work/bad-manifest.json"
    code=$(put "$work/bad-manifest.json" "$M/$R/manifest.json")
    check "a malformed manifest (${bad:0:40}...): 422 ($code), no complete run" \
        sh -c "test $code = 422 && test ! -e '$root/$M'"
done

# Slow clients: one byte a second, in the body and in the header. Each is bounded by the loop.
slow() { # slow HEAD BODY_BYTES: prints how many seconds until the collector closed the connection
    (
        trap '' PIPE
        start=$SECONDS
        exec 3<>"/dev/tcp/127.0.0.1/$PORT" || exit
        head=$1
        for ((i = 0; i < ${#head}; i++)); do # the header, one byte a second when it is slow
            printf '%s' "${head:i:1}" >&3 2>/dev/null || break
            [ "$2" = 0 ] && sleep 1
        done
        for i in $(seq 1 20); do # at most 20 s
            printf x >&3 2>/dev/null || break
            read -r -t 1 -u 3 line && break # the connection closed or answered
        done
        echo $((SECONDS - start))
    )
}
req="PUT /$M/slow-run/slow.txt HTTP/1.1"$'\r\n'"Host: x"$'\r\n'"Authorization: Bearer $TOKEN"$'\r\n'"Content-Length: 50"$'\r\n\r\n'
took=$(slow "$req" 50)
check "a client sending its body one byte a second is cut off (after ${took} s, limit ${timeout_s} s)" \
    sh -c "test -n '$took' && test '$took' -ge $((timeout_s - 1)) && test '$took' -le $((timeout_s + 4))"
took=$(slow "PUT /$M/slow-run/slow2.txt HTTP/1.1"$'\r\n'"Host: x"$'\r\n' 0)
check "a client sending its header one byte a second is cut off (after ${took} s)" \
    sh -c "test -n '$took' && test '$took' -le $((timeout_s + 4))"
check "the log says both were cut off" test "$(grep -c 'cut off' "$work/collect.log")" = 2
check "nothing of the slow uploads is kept" sh -c "! find '$root' -name 'slow*' | grep -q ."
check "the collector still answers" test "$(curl -s --max-time 10 "http://127.0.0.1:$PORT/health")" = ok

# The cap on connections: three held open and idle, a fourth is turned away; once the limit on a
# request's time has cut them off, the collector answers again.
holders=()
for i in 1 2 3; do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT" && touch "$work/held.$i" && sleep $((timeout_s + 3))) \
        2>/dev/null &
    holders+=($!)
done
for i in $(seq 1 50); do # until the three are connected (at most 5 s)
    [ -e "$work/held.1" ] && [ -e "$work/held.2" ] && [ -e "$work/held.3" ] && break
    sleep 0.1
done
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$PORT/health")
check "three connections held open: a fourth gets no answer ($code)" test "$code" = 000
wait "${holders[@]}"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$PORT/health")
check "they were cut off at the time limit: the collector answers again ($code)" test "$code" = 200

# Every request logged in one line; nothing outside --root, nothing complete.
check "every request is in the log, one line each" test "$(grep -c '^20[0-9-]*T[0-9:]*Z 127.0.0.1 ' \
    "$work/collect.log")" -ge 30
check "nothing written outside --root but the test's own files" sh -c "test -z \"\$(find '$work' -mindepth 1 \
    -newer '$marker' ! -path '$root' ! -path '$root/*' ! -name '*.json' ! -name '*.txt' \
    ! -name big.bin ! -name collect.log ! -name 'held.*')\""
check "no complete run was made" test -z "$(ls "$root" | grep -vx fleet.sqlite)"
finish
