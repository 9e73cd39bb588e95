// SPDX-License-Identifier: MIT
// The collector's HTTP side (libmicrohttpd): PUT /PREFIX/<machine>/<run id>/<file>, refused
// before anything is written when the token, the names or the size are wrong.
#ifndef COLLECT_SERVER_H
#define COLLECT_SERVER_H

#include <stdint.h>

#include "staging.h"

struct collect_server_config {
    const char *host;   /* numeric address to listen on (127.0.0.1 unless told otherwise) */
    unsigned port;      /* 0: any free port (printed) */
    const char *token;  /* the bearer token every PUT must carry; NULL: none asked */
    const char *prefix; /* "" or "/a/b": the path the runs are PUT under */
    const char *report; /* chase-report, for the index */
    unsigned max_connections;
    unsigned request_timeout_s; /* longest one request may take, headers to last byte */
};

/* Serve until SIGINT or SIGTERM. Returns the exit status (0, or 1 when it cannot listen). */
int collect_serve(struct collect_root *root, const struct collect_server_config *cfg);

#endif
