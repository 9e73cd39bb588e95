// SPDX-License-Identifier: MIT
// One request, in the order the collector refuses: method, token, names, size, a complete run;
// then the body into a part file (a manifest into memory), then the run completed when it can.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "index.h"
#include "manifest.h"
#include "server_int.h"

static enum MHD_Result respond(struct MHD_Connection *c, struct request *r, int status,
                               const char *text)
{
    struct MHD_Response *res =
        MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!res)
        return MHD_NO;
    MHD_add_response_header(res, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(res, MHD_HTTP_HEADER_ALLOW, "PUT");
    if (status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(res, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)status, res);
    MHD_destroy_response(res);
    r->status = status;
    if (!r->note[0])
        snprintf(r->note, sizeof(r->note), "%s", text);
    size_t n = strlen(r->note);
    if (n && r->note[n - 1] == '\n')
        r->note[n - 1] = '\0';
    return ok;
}

/* The token compared in time that does not depend on where it differs. */
static bool token_ok(struct MHD_Connection *c, const char *token)
{
    if (!token)
        return true;
    const char *auth =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    size_t want = strlen(token);
    if (!auth || strncmp(auth, "Bearer ", 7) != 0 || strlen(auth + 7) != want)
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < want; i++)
        diff |= (unsigned char)(auth[7 + i] ^ token[i]);
    return diff == 0;
}

static enum MHD_Result count_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind, (void)key, (void)value;
    ++*(unsigned *)cls;
    return MHD_YES;
}

/* The body's declared length: false when there is none (chunked) or it is not a number. */
static bool content_length(struct MHD_Connection *c, uint64_t *len)
{
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!v || !*v || strlen(v) > 19 || strspn(v, "0123456789") != strlen(v))
        return false;
    *len = strtoull(v, NULL, 10);
    return true;
}

/* The checks before anything is written; 0 when the request may go on, else the status. */
static int refuse(struct server *s, struct MHD_Connection *c, const char *url, size_t url_len,
                  const char *method, struct request *r)
{
    unsigned args = 0;
    if (strcmp(method, "PUT") != 0)
        return MHD_HTTP_METHOD_NOT_ALLOWED;
    if (!token_ok(c, s->cfg->token))
        return MHD_HTTP_UNAUTHORIZED;
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, count_arg, &args);
    if (args || !collect_path_parse(url, url_len, s->cfg->prefix, &r->t))
        return MHD_HTTP_BAD_REQUEST;
    if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
        !content_length(c, &r->expected))
        return MHD_HTTP_LENGTH_REQUIRED;
    r->is_manifest = strcmp(r->t.file, MANIFEST_NAME) == 0;
    if (r->expected > (r->is_manifest ? SERVER_MANIFEST_MAX_BYTES : s->root->max_file))
        return MHD_HTTP_CONTENT_TOO_LARGE;
    if (staging_run_complete(s->root, r->t.machine, r->t.run_id))
        return MHD_HTTP_CONFLICT;
    return 0;
}

static const char *refusal_text(int status)
{
    switch (status) {
    case MHD_HTTP_METHOD_NOT_ALLOWED:
        return "only PUT /<machine>/<run id>/<file> (and GET /health)\n";
    case MHD_HTTP_UNAUTHORIZED:
        return "missing or wrong token (Authorization: Bearer ...)\n";
    case MHD_HTTP_BAD_REQUEST:
        return "the path must be /<machine>/<run id>/<file>, names of [A-Za-z0-9._-], no ..\n";
    case MHD_HTTP_LENGTH_REQUIRED:
        return "a Content-Length body is required\n";
    case MHD_HTTP_CONTENT_TOO_LARGE:
        return "the body is over the collector's limit\n";
    default:
        return "the run is complete already: it is never written again\n";
    }
}

/*
 * How many bytes the request line gave the URL. libmicrohttpd parses the request line in place:
 * the URL, a space, then the version, in one buffer; it hands the URL on as a C string, so a
 * NUL sent inside it (or a '?' it cut at) would shorten it unseen. The span up to the version
 * shows it (when the version is not where this expects, the C string is all there is).
 */
static size_t url_bytes(const char *url, const char *version)
{
    size_t n = strlen(url);
    if (version > url + n && version - url - 1 <= SERVER_URL_SPAN_MAX)
        return (size_t)(version - url - 1);
    return n;
}

/* A request target in absolute form ("http://HOST:PORT/PATH", which a server must take, RFC 9112
   3.2.2) as its path; any other target as it is. */
static const char *origin_form(const char *url, size_t *len)
{
    const char *scheme = "http://";
    size_t n = strlen(scheme);
    if (*len < n || strncasecmp(url, scheme, n) != 0)
        return url;
    const char *slash = memchr(url + n, '/', *len - n);
    if (!slash)
        return url; /* no path: refused as it is */
    *len -= (size_t)(slash - url);
    return slash;
}

/* The first call of a request: its checks, then where its body goes. */
static enum MHD_Result begin(struct server *s, struct MHD_Connection *c, const char *url,
                             size_t url_len, const char *method, struct request *r)
{
    url = origin_form(url, &url_len);
    if (!strcmp(method, "GET") && strlen(url) == strlen(s->cfg->prefix) + 7 &&
        !strncmp(url, s->cfg->prefix, strlen(s->cfg->prefix)) &&
        !strcmp(url + strlen(s->cfg->prefix), "/health"))
        return respond(c, r, MHD_HTTP_OK, "ok\n");
    int status = refuse(s, c, url, url_len, method, r);
    if (status)
        return respond(c, r, status, refusal_text(status));
    if (r->is_manifest) {
        r->body = malloc(r->expected + 1);
        if (r->body)
            return MHD_YES;
    } else if ((r->fd = staging_part_open(s->root, &r->t, ++s->serial, r->part)) >= 0) {
        return MHD_YES;
    }
    r->part[0] = '\0';
    snprintf(r->note, sizeof(r->note), "cannot stage the file: %s", strerror(errno));
    return respond(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot stage the file\n");
}

/* Index a run that has just completed; the note says how it went. */
static void index_complete(struct server *s, struct request *r)
{
    char err[400], rel[2 * COLLECT_NAME_MAX + 2];
    snprintf(rel, sizeof(rel), "%s/%s", r->t.machine, r->t.run_id);
    struct sqlite3 *db = index_open(s->root->path, err, sizeof(err));
    bool ok = db && index_run(db, s->root->path, rel, s->cfg->report, err, sizeof(err));
    index_close(db);
    size_t n = strlen(r->note);
    snprintf(r->note + n, sizeof(r->note) - n, ok ? ", indexed" : ", not indexed: %s", err);
}

/* After a file is staged: complete the run if its manifest is there and checks. */
static enum MHD_Result settle(struct server *s, struct MHD_Connection *c, struct request *r)
{
    char msg[300];
    enum stage_result res =
        staging_try_complete(s->root, r->t.machine, r->t.run_id, msg, sizeof(msg));
    snprintf(r->note, sizeof(r->note), "%s", msg);
    switch (res) {
    case STAGE_COMPLETE:
        index_complete(s, r);
        return respond(c, r, MHD_HTTP_CREATED, "stored; the run is complete\n");
    case STAGE_EXISTS:
        return respond(c, r, MHD_HTTP_CONFLICT, "the run is complete already\n");
    case STAGE_ERROR:
        return respond(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot complete the run\n");
    case STAGE_MISMATCH:
        if (r->is_manifest)
            return respond(c, r, MHD_HTTP_CONFLICT, "the manifest does not match the files\n");
        break; /* the file is stored, the run waits for the rest */
    default:
        break;
    }
    return respond(c, r, MHD_HTTP_CREATED, "stored; the run is not complete yet\n");
}

/* The last call of a request: its body is all there. */
static enum MHD_Result finish(struct server *s, struct MHD_Connection *c, struct request *r)
{
    if (r->is_manifest) {
        struct manifest m;
        char err[200];
        bool ok = manifest_parse(r->body, r->received, s->root->max_file, &m, err, sizeof(err));
        if (ok && (strcmp(m.machine, r->t.machine) || strcmp(m.run_id, r->t.run_id))) {
            snprintf(err, sizeof(err), "it names another run (%.60s/%.60s)", m.machine, m.run_id);
            ok = false;
        }
        if (!ok) {
            snprintf(r->note, sizeof(r->note), "bad manifest: %s", err);
            manifest_free(&m);
            return respond(c, r, MHD_HTTP_UNPROCESSABLE_CONTENT, "bad manifest\n");
        }
        manifest_free(&m);
        if (!staging_write(s->root, &r->t, r->body, r->received))
            return respond(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot stage the manifest\n");
    } else {
        bool ok = fsync(r->fd) == 0;
        ok = close(r->fd) == 0 && ok;
        r->fd = -1;
        if (!ok || !staging_part_commit(s->root, &r->t, r->part))
            return respond(c, r, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot store the file\n");
        r->part[0] = '\0';
    }
    r->stored = true;
    return settle(s, c, r);
}

static bool take_body(struct request *r, const char *data, size_t len)
{
    if (r->received + len > r->expected)
        return false;
    if (r->is_manifest) {
        memcpy(r->body + r->received, data, len);
    } else {
        for (size_t done = 0; done < len;) {
            ssize_t n = write(r->fd, data + done, len - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            done += (size_t)n;
        }
    }
    r->received += len;
    return true;
}

enum MHD_Result server_on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct server *s = cls;
    struct request *r = *con_cls;
    if (!r) {
        r = calloc(1, sizeof(*r));
        if (!r)
            return MHD_NO;
        r->fd = -1;
        r->started_s = server_now_s();
        server_log_safe(method, strlen(method), r->method, sizeof(r->method));
        size_t url_len = url_bytes(url, version);
        server_log_safe(url, url_len, r->url, sizeof(r->url));
        *con_cls = r;
        return begin(s, c, url, url_len, method, r);
    }
    if (r->status)
        return MHD_YES; /* answered already: the rest of the body is dropped */
    if (*upload_data_size) {
        if (!take_body(r, upload_data, *upload_data_size)) {
            snprintf(r->note, sizeof(r->note), "cannot write the body: %s", strerror(errno));
            return MHD_NO;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    return finish(s, c, r);
}

void server_request_free(struct server *s, struct request *r)
{
    if (r->fd >= 0)
        close(r->fd);
    if (r->part[0])
        staging_part_discard(s->root, &r->t, r->part);
    free(r->body);
    free(r);
}
