// SPDX-License-Identifier: MIT
// IPMI over KCS: the write and read transfers of IPMI v2.0 9.15 polled with a bound, and Get
// Watchdog Timer (27.7) decoded.
#include "machine/ipmi_kcs.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

/* Status register (IPMI v2.0 table 9-1) and control codes (table 9-3). */
#define KCS_OBF 0x01u           /* output buffer full: the BMC wrote DATA */
#define KCS_IBF 0x02u           /* input buffer full: the BMC has not taken our byte yet */
#define KCS_STATE(s) ((s) >> 6) /* bits 7:6 */
#define KCS_STATE_IDLE 0u
#define KCS_STATE_READ 1u
#define KCS_STATE_WRITE 2u
#define KCS_NO_DEVICE 0xffu /* an I/O port nothing answers reads as all ones */
#define KCS_CTL_ABORT 0x60u /* GET_STATUS/ABORT */
#define KCS_CTL_WRITE_START 0x61u
#define KCS_CTL_WRITE_END 0x62u
#define KCS_CTL_READ 0x68u

/* Get Watchdog Timer: NetFn App (06h) LUN 0, command 25h; the response's NetFn is 07h. */
#define IPMI_NETFN_APP_LUN0 (0x06u << 2)
#define IPMI_NETFN_APP_RESPONSE (0x07u << 2)
#define IPMI_CMD_GET_WATCHDOG 0x25u
#define WATCHDOG_RESPONSE_BYTES 11 /* NetFn, command, completion, 8 data bytes */
#define WATCHDOG_USE_RUNNING 0x40u
#define WATCHDOG_FIELD_MASK 0x07u

/* Poll until (status & mask) == want; false on timeout. *status holds the last read. */
static bool wait_for(const struct kcs_io *io, uint8_t mask, uint8_t want, uint8_t *status)
{
    for (unsigned i = 0; i < KCS_POLLS_MAX; i++) {
        *status = io->in(io->ctx, KCS_STATUS);
        if ((*status & mask) == want)
            return true;
        io->pause(io->ctx);
    }
    return false;
}

static void clear_obf(const struct kcs_io *io)
{
    if (io->in(io->ctx, KCS_STATUS) & KCS_OBF)
        (void)io->in(io->ctx, KCS_DATA);
}

/* After an out: the BMC took it and is (still) in `state`. */
static bool step(const struct kcs_io *io, unsigned state, const char *what, char *why, size_t cap)
{
    uint8_t s;
    if (!wait_for(io, KCS_IBF, 0, &s)) {
        ksnprintf(why, cap, "KCS: the BMC did not take the %s (status 0x%02x)", what, s);
        return false;
    }
    if (KCS_STATE(s) != state) {
        ksnprintf(why, cap, "KCS: state %u after the %s (status 0x%02x)", KCS_STATE(s), what, s);
        return false;
    }
    clear_obf(io);
    return true;
}

static bool write_request(const struct kcs_io *io, const uint8_t *req, size_t n, char *why,
                          size_t cap)
{
    uint8_t s = io->in(io->ctx, KCS_STATUS);
    if (s == KCS_NO_DEVICE || !wait_for(io, KCS_IBF, 0, &s)) {
        ksnprintf(why, cap, "KCS: no BMC answers (status 0x%02x)", s);
        return false;
    }
    clear_obf(io);
    io->out(io->ctx, KCS_COMMAND, KCS_CTL_WRITE_START);
    if (!step(io, KCS_STATE_WRITE, "WRITE_START", why, cap))
        return false;
    for (size_t i = 0; i + 1 < n; i++) {
        io->out(io->ctx, KCS_DATA, req[i]);
        if (!step(io, KCS_STATE_WRITE, "request byte", why, cap))
            return false;
    }
    io->out(io->ctx, KCS_COMMAND, KCS_CTL_WRITE_END);
    if (!step(io, KCS_STATE_WRITE, "WRITE_END", why, cap))
        return false;
    io->out(io->ctx, KCS_DATA, req[n - 1]);
    return true;
}

static int read_response(const struct kcs_io *io, uint8_t *resp, size_t cap, char *why,
                         size_t why_cap)
{
    size_t n = 0;
    for (;;) {
        uint8_t s;
        if (!wait_for(io, KCS_IBF, 0, &s) ||
            (KCS_STATE(s) != KCS_STATE_READ && KCS_STATE(s) != KCS_STATE_IDLE)) {
            ksnprintf(why, why_cap, "KCS: no response (status 0x%02x)", s);
            return -1;
        }
        if (!wait_for(io, KCS_OBF, KCS_OBF, &s)) {
            ksnprintf(why, why_cap, "KCS: the response byte never came (status 0x%02x)", s);
            return -1;
        }
        uint8_t byte = io->in(io->ctx, KCS_DATA);
        if (KCS_STATE(s) == KCS_STATE_IDLE)
            return (int)n; /* that byte was the closing dummy */
        if (n == cap) {
            ksnprintf(why, why_cap, "KCS: a response longer than %zu bytes", cap);
            return -1;
        }
        resp[n++] = byte;
        io->out(io->ctx, KCS_DATA, KCS_CTL_READ);
    }
}

int kcs_transact(const struct kcs_io *io, const uint8_t *req, size_t nreq, uint8_t *resp,
                 size_t cap, char *why, size_t why_cap)
{
    int n = -1;
    if (nreq >= 2 && nreq <= KCS_MESSAGE_MAX && write_request(io, req, nreq, why, why_cap))
        n = read_response(io, resp, cap, why, why_cap);
    else if (nreq < 2 || nreq > KCS_MESSAGE_MAX)
        ksnprintf(why, why_cap, "KCS: a request of %zu bytes", nreq);
    if (n < 0 && io->in(io->ctx, KCS_STATUS) != KCS_NO_DEVICE) {
        uint8_t s;
        io->out(io->ctx, KCS_COMMAND, KCS_CTL_ABORT); /* the abort's first step: idle again */
        (void)wait_for(io, KCS_IBF, 0, &s);
        clear_obf(io);
    }
    return n;
}

bool ipmi_watchdog_decode(const uint8_t *r, size_t n, struct ipmi_watchdog *w)
{
    kmemset(w, 0, sizeof(*w));
    if (n < 3 || (r[0] & ~3u) != IPMI_NETFN_APP_RESPONSE || r[1] != IPMI_CMD_GET_WATCHDOG) {
        ksnprintf(w->why, sizeof(w->why), "not a Get Watchdog Timer response (%zu bytes)", n);
        return false;
    }
    if (r[2] != 0 || n < WATCHDOG_RESPONSE_BYTES) {
        ksnprintf(w->why, sizeof(w->why), "Get Watchdog Timer: completion code 0x%02x, %zu bytes",
                  r[2], n);
        return false;
    }
    w->read = true;
    w->running = (r[3] & WATCHDOG_USE_RUNNING) != 0;
    w->use = r[3] & WATCHDOG_FIELD_MASK;
    w->action = r[4] & WATCHDOG_FIELD_MASK;
    w->initial_100ms = (uint32_t)r[7] | (uint32_t)r[8] << 8;
    w->present_100ms = (uint32_t)r[9] | (uint32_t)r[10] << 8;
    return true;
}

void ipmi_get_watchdog(const struct kcs_io *io, struct ipmi_watchdog *w)
{
    const uint8_t req[] = {IPMI_NETFN_APP_LUN0, IPMI_CMD_GET_WATCHDOG};
    uint8_t resp[KCS_MESSAGE_MAX];
    char why[96] = "";
    int n = kcs_transact(io, req, sizeof(req), resp, sizeof(resp), why, sizeof(why));
    if (n < 0) {
        kmemset(w, 0, sizeof(*w));
        kstrlcpy(w->why, why, sizeof(w->why));
        return;
    }
    ipmi_watchdog_decode(resp, (size_t)n, w);
}

char *ipmi_watchdog_describe(const struct ipmi_watchdog *w, char *out, size_t cap)
{
    static const char *const uses[8] = {"reserved", "BIOS FRB2", "BIOS/POST", "OS load",
                                        "SMS/OS",   "OEM",       "reserved",  "reserved"};
    static const char *const actions[8] = {"no action", "hard reset", "power down", "power cycle",
                                           "reserved",  "reserved",   "reserved",   "reserved"};
    if (!w->read)
        ksnprintf(out, cap, "not read: %s", w->why);
    else if (!w->running && !w->use && !w->initial_100ms)
        ksnprintf(out, cap, "stopped, never set (no timer use, no countdown)");
    else
        ksnprintf(out, cap, "%s, %s timer, %s %s %.1f s (of %.1f s)",
                  w->running ? "RUNNING" : "stopped", uses[w->use], actions[w->action],
                  w->running ? "in" : "after", (double)w->present_100ms / 10,
                  (double)w->initial_100ms / 10);
    return out;
}
