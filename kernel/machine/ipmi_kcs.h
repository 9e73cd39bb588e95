// SPDX-License-Identifier: MIT
// IPMI over the KCS system interface (IPMI v2.0 section 9): one request and its response through
// replaceable register accessors, and the BMC watchdog's state (Get Watchdog Timer, 27.7).
#ifndef CHASE_IPMI_KCS_H
#define CHASE_IPMI_KCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The KCS registers: data, and status (read) / command (write) one register spacing above. */
enum kcs_reg { KCS_DATA = 0, KCS_STATUS = 1, KCS_COMMAND = 1 };

/* How chase reaches the interface: port I/O on the bare machine, a fake BMC in the tests. */
struct kcs_io {
    uint8_t (*in)(void *ctx, enum kcs_reg reg);
    void (*out)(void *ctx, enum kcs_reg reg, uint8_t value);
    void (*pause)(void *ctx); /* between two polls of the status (KCS_POLL_US) */
    void *ctx;
};

#define KCS_POLL_US 10        /* the pause between two polls of the status register */
#define KCS_POLLS_MAX 100000u /* 1 s of polls per step: a BMC answers in milliseconds */
#define KCS_MESSAGE_MAX 40    /* bytes in a request or response (ours are 2 and 11) */

/*
 * Send req (NetFn/LUN, command, data) and read the response into resp (cap bytes) by the KCS
 * write and read transfers. Returns the response's length, or -1 with why (no BMC answering,
 * the error state, a timeout, a response longer than cap), after a GET_STATUS/ABORT that asks
 * the BMC back to idle.
 */
int kcs_transact(const struct kcs_io *io, const uint8_t *req, size_t nreq, uint8_t *resp,
                 size_t cap, char *why, size_t why_cap);

/* The BMC watchdog as Get Watchdog Timer (NetFn App 06h, command 25h) answers. */
struct ipmi_watchdog {
    bool read;              /* the BMC answered (completion code 0) */
    char why[96];           /* why not read ("" when read) */
    bool running;           /* timer use byte bit 6: the countdown runs */
    uint8_t use;            /* timer use, bits 2:0 (1 BIOS FRB2, 2 BIOS/POST, 3 OS load, ...) */
    uint8_t action;         /* timeout action, bits 2:0 (0 none, 1 hard reset, 2 power down,
                               3 power cycle) */
    uint32_t initial_100ms; /* initial countdown, in 100 ms */
    uint32_t present_100ms; /* countdown left, in 100 ms */
};

/* Ask the BMC for its watchdog's state through io; w->read false with w->why when it fails. */
void ipmi_get_watchdog(const struct kcs_io *io, struct ipmi_watchdog *w);

/* Decode a Get Watchdog Timer response (resp, n bytes, NetFn/LUN first) into w; false with
 * w->why when it is not one or its completion code is not 0. */
bool ipmi_watchdog_decode(const uint8_t *resp, size_t n, struct ipmi_watchdog *w);

/* The watchdog in one phrase: "running, BIOS/POST timer, hard reset in 42.0 s (of 600.0 s)". */
char *ipmi_watchdog_describe(const struct ipmi_watchdog *w, char *out, size_t cap);

#endif
