#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Any HTTP server that takes PUT is a target: nginx (dav_methods PUT, started here on 127.0.0.1
# with its own configuration in the test's folder, stopped at the end) receives the same PUTs as
# chase-collect; the run arrives complete, and chase-collect --index on nginx's folder gives the
# same rows as the collector's own index.
set -u
. "$(dirname "$0")/lib.sh"
work=$(fresh_dir nginx)
NGINX_PID=
stop_all() {
    stop_collector
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
}
trap stop_all EXIT
M=NGINX-MACHINE-7
R=20261128150000-0c0ffee0-12345678

command -v nginx >/dev/null || { echo "not ok - nginx is installed (make deps)"; exit 1; }
run=$(make_run "$work/host")
check "chase-host made a run folder" test -n "$run"
[ -n "$run" ] || { finish; exit; }

# chase-collect first: the rows to compare with.
check "chase-collect starts" start_collector "$work/collect.log" --root "$work/collect" --token "$TOKEN"
check "the run uploaded to chase-collect is complete" test \
    "$(put_run "$run" "$M" "$R" | awk '{print $NF}')" = 201
stop_collector

# nginx on a free loopback port (asked of the kernel), everything of it under $work.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx-root" "$work/nginx-tmp"
cat >"$work/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 64; }
http {
    access_log $work/nginx-access.log;
    client_body_temp_path $work/nginx-tmp/body;
    proxy_temp_path $work/nginx-tmp/proxy;
    fastcgi_temp_path $work/nginx-tmp/fastcgi;
    uwsgi_temp_path $work/nginx-tmp/uwsgi;
    scgi_temp_path $work/nginx-tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        root $work/nginx-root;
        client_max_body_size 128m;
        location / {
            if (\$http_authorization != "Bearer $TOKEN") { return 401; }
            dav_methods PUT;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
            limit_except PUT { deny all; }
        }
    }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" &
NGINX_PID=$!
for i in $(seq 1 50); do
    curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/" && break
    sleep 0.1
done
PORT=$port
codes=$(put_run "$run" "$M" "$R")
check "nginx takes every file and the manifest (201): $codes" test \
    "$(echo $codes | tr ' ' '\n' | sort -u)" = 201
check "nginx refuses a PUT without the token (401)" test "$(TOKEN=wrong put "$run/run.json" "$M/$R/x")" = 401
check "the run arrives complete in nginx's folder, byte for byte" same_folder "$run" \
    "$work/nginx-root/$M/$R"
kill "$NGINX_PID" && wait "$NGINX_PID" 2>/dev/null
NGINX_PID=

"$COLLECT" --index "$work/nginx-root" >"$work/index.log" 2>&1
check "--index on nginx's folder indexes the run" grep -qx "indexed $M/$R" "$work/index.log"
dump_tables "$work/collect/fleet.sqlite" >"$work/rows-collect.txt"
dump_tables "$work/nginx-root/fleet.sqlite" >"$work/rows-nginx.txt"
check "the same rows as chase-collect's index, every table" cmp -s "$work/rows-collect.txt" \
    "$work/rows-nginx.txt"
check "and rows there are: the machine, the run, its levels" test "$(sqlite3 \
    "$work/nginx-root/fleet.sqlite" "SELECT count(*) FROM machines; SELECT path FROM runs;
    SELECT count(*) > 0 FROM levels" | paste -sd' ')" = "1 $M/$R 1"
finish
