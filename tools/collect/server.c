// SPDX-License-Identifier: MIT
// The daemon: libmicrohttpd driven by our own loop, which also ends any request that has taken
// longer than the limit (a client sending one byte a second never goes idle long enough for
// libmicrohttpd's own timeout), and one log line per request.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server_int.h"

/* Header bytes one connection may hold: a PUT's request line and headers are a few hundred. */
#define SERVER_CONNECTION_MEMORY_BYTES (64u << 10)
/* How often the loop looks for requests over their time (ms). */
#define SERVER_SWEEP_MS 250

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

double server_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void server_log_safe(const char *in, size_t len, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 4 < cap; i++) {
        unsigned char ch = (unsigned char)in[i];
        if (ch > ' ' && ch < 0x7f && ch != '%')
            out[o++] = (char)ch;
        else
            o += (size_t)snprintf(out + o, cap - o, "%%%02X", ch);
    }
    out[o] = '\0';
}

static void log_line(const char *peer, const char *method, const char *url, int status,
                     uint64_t bytes, double seconds, const char *note)
{
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("%s %s %s %s %d %llu bytes %.3f s %s\n", when, peer, method, url, status,
           (unsigned long long)bytes, seconds, note);
    fflush(stdout);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct server *s = cls;
    struct request *r = *con_cls;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct conn_slot *slot = ci ? ci->socket_context : NULL;
    if (!r)
        return;
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && !r->status) {
        bool cut = slot && slot->cut;
        snprintf(r->note, sizeof(r->note), "%s; nothing stored",
                 cut ? "cut off: over the time limit of a request"
                 : toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? "idle too long"
                                                                 : "the client went away");
    }
    log_line(slot ? slot->peer : "?", r->method, r->url, r->status, r->received,
             server_now_s() - r->started_s, r->note);
    if (slot) {
        slot->requests++;
        slot->started_s = server_now_s(); /* the next request's clock */
    }
    server_request_free(s, r);
    *con_cls = NULL;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    struct server *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        struct conn_slot *slot = NULL;
        for (unsigned i = 0; i <= s->cfg->max_connections && !slot; i++)
            slot = s->slots[i].used ? NULL : &s->slots[i];
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *addr =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (!slot || !fd)
            return; /* cannot happen: libmicrohttpd keeps to the connection limit */
        *slot = (struct conn_slot){.used = true, .fd = fd->connect_fd, .started_s = server_now_s()};
        if (addr && addr->client_addr->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)addr->client_addr)->sin_addr,
                      slot->peer, sizeof(slot->peer));
        else if (addr && addr->client_addr->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr->client_addr)->sin6_addr,
                      slot->peer, sizeof(slot->peer));
        *socket_context = slot;
        return;
    }
    struct conn_slot *slot = *socket_context;
    if (!slot)
        return;
    if (slot->cut && slot->requests == 0)
        log_line(slot->peer, "-", "-", 0, 0, server_now_s() - slot->started_s,
                 "cut off before a whole request arrived: over the time limit of a request");
    slot->used = false;
}

/* URLs are taken as sent: no %XX is decoded, so '%' is refused with the other bad names. */
static size_t unescape_none(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls, (void)c;
    return strlen(s);
}

/* End every connection whose request has run over the limit (the loop's own thread, so the
   descriptor is still the connection's: libmicrohttpd closes it only inside MHD_run). */
static void sweep(struct server *s)
{
    double now = server_now_s();
    for (unsigned i = 0; i <= s->cfg->max_connections; i++) {
        struct conn_slot *slot = &s->slots[i];
        if (slot->used && !slot->cut && now - slot->started_s > s->cfg->request_timeout_s) {
            slot->cut = true;
            shutdown(slot->fd, SHUT_RDWR);
        }
    }
}

static struct MHD_Daemon *start(struct server *s, const struct sockaddr *addr)
{
    return MHD_start_daemon(
        MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, server_on_request, s,
        MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_CONNECTION_LIMIT, s->cfg->max_connections,
        MHD_OPTION_CONNECTION_TIMEOUT, s->cfg->request_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVER_CONNECTION_MEMORY_BYTES,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
        s, MHD_OPTION_UNESCAPE_CALLBACK, unescape_none, NULL, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1,
        MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
}

/* The listening address: an IPv4 or IPv6 literal and the port. */
static bool listen_addr(const struct collect_server_config *cfg, struct sockaddr_storage *ss)
{
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    memset(ss, 0, sizeof(*ss));
    if (inet_pton(AF_INET, cfg->host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)cfg->port);
        return true;
    }
    if (inet_pton(AF_INET6, cfg->host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)cfg->port);
        return true;
    }
    return false;
}

static void serve_loop(struct server *s, struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *ep = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
    while (!stop_requested) {
        struct pollfd p = {.fd = ep->epoll_fd, .events = POLLIN};
        MHD_UNSIGNED_LONG_LONG wait_ms = SERVER_SWEEP_MS;
        if (MHD_get_timeout(d, &wait_ms) == MHD_YES && wait_ms > SERVER_SWEEP_MS)
            wait_ms = SERVER_SWEEP_MS;
        if (poll(&p, 1, (int)wait_ms) < 0 && errno != EINTR)
            break;
        MHD_run(d);
        sweep(s);
    }
}

int collect_serve(struct collect_root *root, const struct collect_server_config *cfg)
{
    struct server s = {.root = root, .cfg = cfg};
    struct sockaddr_storage ss;
    if (!listen_addr(cfg, &ss)) {
        fprintf(stderr, "chase-collect: --listen: %s is not an IPv4 or IPv6 address\n", cfg->host);
        return 1;
    }
    s.slots = calloc(cfg->max_connections + 1, sizeof(*s.slots));
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    struct MHD_Daemon *d = s.slots ? start(&s, (const struct sockaddr *)&ss) : NULL;
    if (!d) {
        fprintf(stderr, "chase-collect: cannot listen on %s port %u\n", cfg->host, cfg->port);
        free(s.slots);
        return 1;
    }
    const union MHD_DaemonInfo *port = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("chase-collect: listening on %s port %u, runs in %s%s\n", cfg->host,
           port ? port->port : cfg->port, root->path,
           cfg->token ? "" : " (no token asked: anyone who reaches the port may upload)");
    fflush(stdout);
    serve_loop(&s, d);
    MHD_stop_daemon(d);
    free(s.slots);
    printf("chase-collect: stopped\n");
    return 0;
}
