// SPDX-License-Identifier: MIT
// chase-collect: receive chase's runs over HTTP PUT (--root), index run folders (--index), or
// rebuild run folders from a captured serial log (--serial).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "report_run.h"
#include "serial.h"
#include "server.h"
#include "staging.h"

/* The largest file taken (--max-body): a 2-processor full run's largest is under 1M (the
   latency sweep's samples); the per-pair and per-processor files grow with the processor count,
   about 100x on 256 processors; 128M leaves room and bounds the disk one request can fill. */
#define DEFAULT_MAX_BODY_BYTES (128ull << 20)
/* Connections at once (--max-connections): a fleet boots in waves and each machine uploads one
   file at a time; past this, new connections wait in the kernel's backlog. */
#define DEFAULT_MAX_CONNECTIONS 32
/* Seconds one request may take, headers to last byte (--request-timeout): 128M at 1 MB/s
   would need more, but firmware uploads go at LAN speed; a client holding a connection open
   with a trickle is cut off after this. */
#define DEFAULT_REQUEST_TIMEOUT_S 120

static const char usage[] =
    "usage: chase-collect --root DIR [--listen HOST:PORT] (--token T | --token-file FILE |\n"
    "                     --no-token) [--prefix /PATH] [--max-body SIZE]\n"
    "                     [--max-connections N] [--request-timeout SECONDS] [--report PATH]\n"
    "       chase-collect --index DIR [--report PATH]\n"
    "       chase-collect --serial FILE --root DIR [--report PATH]\n"
    "  --root      where complete runs go (DIR/<machine>/<run id>/), uploads wait in\n"
    "              DIR/.staging/ until their manifest checks; the index is DIR/fleet.sqlite\n"
    "  --listen    address and port (default 127.0.0.1:8080; port 0: any, printed)\n"
    "  --token     the bearer token every PUT must carry (--token-file: read from a file)\n"
    "  --prefix    accept PUT /PATH/<machine>/<run id>/<file> instead of /<machine>/...\n"
    "  --max-body  largest file, bytes (K, M, G; default 128M)\n"
    "  --max-connections  connections at once (default 32)\n"
    "  --request-timeout  seconds one request may take, first byte to last (default 120)\n"
    "  --index     rebuild DIR/fleet.sqlite from every run folder under DIR\n"
    "  --serial    rebuild the run folders a CHASE-FILE serial log holds, into --root\n"
    "  --report    chase-report to analyse runs with (default: the one beside chase-collect)\n";

struct options {
    const char *root, *listen, *token, *token_file, *prefix, *index, *serial;
    char report[4096];
    bool no_token;
    uint64_t max_body;
    unsigned long max_connections, timeout_s;
};

static bool parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (errno || end == s || *end || v == 0 || v > (1ull << 40) >> shift)
        return false;
    *out = v << shift;
    return true;
}

static bool parse_count(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    uint64_t v;
    if (!parse_size(s, &v) || v < lo || v > hi || strspn(s, "0123456789") != strlen(s))
        return false;
    *out = (unsigned long)v;
    return true;
}

static bool parse_args(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool flag = !strcmp(a, "--no-token");
        if (flag) {
            o->no_token = true;
            continue;
        }
        if (!v)
            return false;
        i++;
        if (!strcmp(a, "--root"))
            o->root = v;
        else if (!strcmp(a, "--listen"))
            o->listen = v;
        else if (!strcmp(a, "--token"))
            o->token = v;
        else if (!strcmp(a, "--token-file"))
            o->token_file = v;
        else if (!strcmp(a, "--prefix"))
            o->prefix = v;
        else if (!strcmp(a, "--index"))
            o->index = v;
        else if (!strcmp(a, "--serial"))
            o->serial = v;
        else if (!strcmp(a, "--report"))
            snprintf(o->report, sizeof(o->report), "%s", v);
        else if (!strcmp(a, "--max-body")) {
            if (!parse_size(v, &o->max_body))
                return false;
        } else if (!strcmp(a, "--max-connections")) {
            if (!parse_count(v, 1, 1000, &o->max_connections))
                return false;
        } else if (!strcmp(a, "--request-timeout")) {
            if (!parse_count(v, 1, 86400, &o->timeout_s))
                return false;
        } else
            return false;
    }
    return true;
}

/* The token from a file: its first line, without the line end. */
static char *read_token(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f)
        return NULL;
    char *got = fgets(line, sizeof(line), f);
    fclose(f);
    if (!got)
        return NULL;
    line[strcspn(line, "\r\n")] = '\0';
    return line[0] ? strdup(line) : NULL;
}

/* "" or "/a/b": each part a good name. */
static bool prefix_ok(const char *p)
{
    while (*p) {
        if (*p != '/')
            return false;
        size_t n = strcspn(p + 1, "/");
        if (!collect_name_ok(p + 1, n))
            return false;
        p += 1 + n;
    }
    return true;
}

/* HOST:PORT or [V6]:PORT into the configuration. */
static bool parse_listen(const char *s, char *host, size_t cap, unsigned *port)
{
    const char *colon = strrchr(s, ':');
    unsigned long p = 0;
    if (!colon || (strcmp(colon + 1, "0") != 0 && !parse_count(colon + 1, 1, 65535, &p)))
        return false;
    const char *h = s;
    size_t n = (size_t)(colon - s);
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    if (n == 0 || n >= cap)
        return false;
    memcpy(host, h, n);
    host[n] = '\0';
    *port = (unsigned)p;
    return true;
}

static int serve(struct options *o)
{
    char host[64];
    struct collect_server_config cfg = {.prefix = o->prefix ? o->prefix : "",
                                        .report = o->report,
                                        .max_connections = (unsigned)o->max_connections,
                                        .request_timeout_s = (unsigned)o->timeout_s};
    if (!parse_listen(o->listen ? o->listen : "127.0.0.1:8080", host, sizeof(host), &cfg.port) ||
        !prefix_ok(cfg.prefix)) {
        fprintf(stderr, "chase-collect: bad --listen or --prefix\n%s", usage);
        return 2;
    }
    cfg.host = host;
    cfg.token = o->token_file ? read_token(o->token_file) : o->token;
    if (!cfg.token && !o->no_token) {
        fprintf(stderr, "chase-collect: a token is required (--token, --token-file), or "
                        "--no-token to take uploads from anyone who reaches the port\n");
        return 2;
    }
    struct collect_root root;
    if (!collect_root_open(&root, o->root, o->max_body)) {
        fprintf(stderr, "chase-collect: %s: %s\n", o->root, strerror(errno));
        return 1;
    }
    return collect_serve(&root, &cfg);
}

int main(int argc, char **argv)
{
    struct options o = {.max_body = DEFAULT_MAX_BODY_BYTES,
                        .max_connections = DEFAULT_MAX_CONNECTIONS,
                        .timeout_s = DEFAULT_REQUEST_TIMEOUT_S};
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (!parse_args(argc, argv, &o) || (!o.root && !o.index) || (o.index && (o.root || o.serial))) {
        fputs(usage, stderr);
        return 2;
    }
    if (!o.report[0])
        report_default_path(o.report, sizeof(o.report));
    if (o.index) {
        int failed = index_tree(o.index, o.report);
        return failed == 0 ? 0 : 1;
    }
    if (o.serial) {
        struct collect_root root;
        if (!collect_root_open(&root, o.root, o.max_body)) {
            fprintf(stderr, "chase-collect: %s: %s\n", o.root, strerror(errno));
            return 1;
        }
        return serial_rebuild(o.serial, &root, o.report);
    }
    return serve(&o);
}
