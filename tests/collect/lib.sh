# SPDX-License-Identifier: MIT
# The collector tests' helpers: a run folder from chase-host, manifests, a chase-collect started
# on 127.0.0.1 (any free port) and stopped by its pid, PUTs with curl, table dumps from sqlite3.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
COLLECT="$ROOT/build/chase-collect"
TOKEN=test-token-$$
# The experiments of the test's run: levels (random), bandwidth per level, the all-core peak and
# c2c, so every table of the index has rows; quick profile, a few seconds.
RUN_EXPERIMENTS=random,c2c,bandwidth,bw_cores

# make_run DIR: a chase-host run folder of RUN_EXPERIMENTS in DIR/0001 (prints its path).
make_run() {
    "$ROOT/build/chase-host" --out "$1" profile=quick experiments=$RUN_EXPERIMENTS \
        on_exit=shutdown >"$1.log" 2>&1 && [ -s "$1/0001/run.json" ] && echo "$1/0001"
}

# make_manifest DIR MACHINE RUN_ID: manifest.json for every file of DIR, on stdout.
make_manifest() {
    local dir=$1 f
    for f in "$dir"/*; do
        [ -f "$f" ] && [ "$(basename "$f")" != manifest.json ] || continue
        jq -n --arg n "$(basename "$f")" --argjson s "$(stat -c %s "$f")" \
            --arg h "$(sha256sum "$f" | cut -d' ' -f1)" '{name: $n, size: $s, sha256: $h}'
    done | jq -s --arg m "$2" --arg r "$3" \
        '{format: "chase-manifest", version: 1, machine: $m, run_id: $r, files: .}'
}

# start_collector LOG ARGS...: chase-collect in the background; sets COLLECT_PID and PORT.
start_collector() {
    local log=$1 i
    shift
    "$COLLECT" --listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
    COLLECT_PID=$!
    PORT=
    for i in $(seq 1 50); do
        PORT=$(sed -n 's/^chase-collect: listening on 127.0.0.1 port \([0-9]*\),.*/\1/p' "$log")
        [ -n "$PORT" ] && return 0
        sleep 0.1
    done
    return 1
}

# stop_collector: end the collector this test started (by its pid) and wait for it.
stop_collector() {
    [ -n "${COLLECT_PID:-}" ] || return 0
    kill "$COLLECT_PID" 2>/dev/null
    wait "$COLLECT_PID" 2>/dev/null
    COLLECT_PID=
}

# put FILE PATH [CURL ARGS...]: PUT FILE to http://127.0.0.1:$PORT$URL_PREFIX/PATH with the
# token; prints the status code (000 when no answer), bounded to 30 s.
put() {
    local file=$1 path=$2
    shift 2
    curl -s -o /dev/null -w '%{http_code}' --max-time 30 --path-as-is -T "$file" \
        -H "Authorization: Bearer $TOKEN" "$@" "http://127.0.0.1:$PORT${URL_PREFIX:-}/$path"
}

# put_run DIR MACHINE RUN_ID: every file of DIR but manifest.json, then the manifest (written
# into DIR first, so a complete run equals DIR); prints the status codes, the manifest's last.
put_run() {
    local dir=$1 f codes=
    for f in "$dir"/*; do
        [ -f "$f" ] && [ "$(basename "$f")" != manifest.json ] || continue
        codes="$codes$(put "$f" "$2/$3/$(basename "$f")") "
    done
    make_manifest "$dir" "$2" "$3" >"$dir.manifest" && mv "$dir.manifest" "$dir/manifest.json"
    echo "$codes$(put "$dir/manifest.json" "$2/$3/manifest.json")"
}

# dump_tables DB: every table of fleet.sqlite, rows sorted, as text (what "the same rows" means).
dump_tables() {
    local t
    for t in machines runs files dimms levels verdicts verdict_items verdict_rows; do
        echo "== $t"
        sqlite3 -list "$1" "SELECT * FROM $t" | sort
    done
}

# same_folder A B: the same files with the same bytes.
same_folder() {
    diff -r "$1" "$2" >/dev/null
}
