// SPDX-License-Identifier: MIT
// What the server's two files share: the daemon's state, a request's, the request handler.
#ifndef COLLECT_SERVER_INT_H
#define COLLECT_SERVER_INT_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "names.h"
#include "server.h"
#include "staging.h"

/* A manifest is read whole into memory before it is stored: at most this many bytes
   (MANIFEST_MAX_FILES entries of about 150 bytes, with room). */
#define SERVER_MANIFEST_MAX_BYTES (1u << 20)

/* The longest span between a URL and its version that is read as the URL's (the header memory
   of a connection, SERVER_CONNECTION_MEMORY_BYTES, is less). */
#define SERVER_URL_SPAN_MAX (64u << 10)

/* One open connection: when its current request began, for the time limit. */
struct conn_slot {
    bool used, cut;
    int fd;
    double started_s; /* CLOCK_MONOTONIC, seconds */
    unsigned requests;
    char peer[64];
};

struct server {
    struct collect_root *root;
    const struct collect_server_config *cfg;
    struct conn_slot *slots; /* cfg->max_connections + 1 of them */
    unsigned long serial;    /* requests so far: each part file's unique mark */
};

struct request {
    int status; /* the response sent (0: none yet) */
    bool is_manifest, stored;
    struct collect_target t;
    char part[STAGING_PART_MAX]; /* the part file being written ("" when none) */
    int fd;
    char *body; /* the manifest's bytes */
    uint64_t expected, received;
    double started_s;
    char method[16], url[200], note[300];
};

/* The len bytes at in as a log shows them: bytes outside printable ASCII (and spaces, '%') as
   %XX, cut to fit cap. */
void server_log_safe(const char *in, size_t len, char *out, size_t cap);
/* Seconds on CLOCK_MONOTONIC. */
double server_now_s(void);
/* libmicrohttpd's access handler (server_put.c): cls is the struct server. */
enum MHD_Result server_on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls);
/* Release a request's part file and buffers (after its log line). */
void server_request_free(struct server *s, struct request *r);

#endif
