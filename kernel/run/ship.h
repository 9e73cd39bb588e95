// SPDX-License-Identifier: MIT
// The run off the machine (issue 49): who it is (machine name, fleet-wide run id, boot NIC),
// where its folder goes (results key), manifest.json, and the results = serial stream.
#ifndef CHASE_SHIP_H
#define CHASE_SHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "lib/strbuf.h"

#define SHIP_CHUNK_BYTES 192   /* file bytes per CHASE-FILE data line: 256 base64 characters */
#define SHIP_BACKOFF_FIRST_S 1 /* the wait before the first retry; doubled each time ... */
#define SHIP_BACKOFF_MAX_S 30  /* ... up to this, so retries ride out a collector's restart */
#define SHIP_MAC_BYTES 6
#define SHIP_NAME_MAX 64   /* <machine>: an SMBIOS string (48) or a UUID fits */
#define SHIP_RUN_ID_MAX 40 /* YYYYMMDDhhmmss-xxxxxxxx-xxxxxxxx */
#define SHIP_PREFIX "CHASE-FILE v=1"

/* The run's place in a fleet: the platform fills the first part, ship_begin the rest. */
struct run_fleet {
    bool mac_known; /* the boot NIC's MAC (firmware: the NIC chase came from or
                       the first one with a MAC) */
    uint8_t mac[SHIP_MAC_BYTES];
    const char *boot;            /* "disk", "pxe", "http"; NULL: not a firmware boot */
    char config_from[192];       /* where the configuration came from ("": none) */
    char machine[SHIP_NAME_MAX]; /* <machine> */
    const char *machine_from;    /* "serial", "uuid", "mac" or "none" */
    char run_id[SHIP_RUN_ID_MAX];
    char results[CFG_TEXT_MAX]; /* the results keys as resolved ("" before, or none) */
    char token[CFG_TEXT_MAX];
    unsigned retries;
};

/* One file of the run folder, as the platform holds it. */
struct ship_file {
    const char *name;
    const void *data;
    size_t len;
};

struct run_record;
struct run_inputs;
struct json;

/*
 * At the start of the measured run: name the machine and the run (rec->m's SMBIOS, the boot
 * NIC), keep cfg's results keys, start the serial log with that run id. Uses in->fleet, or a
 * record of its own when the platform gave none (chase-host); rec->fleet points at it.
 */
void ship_begin(struct run_record *rec, const struct run_inputs *in,
                const struct chase_config *cfg);

/*
 * <machine>: the SMBIOS serial unless empty or a placeholder, else the UUID (lower case), else
 * the MAC as aa-bb-cc-dd-ee-ff, else "unknown"; characters outside [A-Za-z0-9._-] become '_'.
 * *from says which ("serial", "uuid", "mac", "none"). mac may be NULL.
 */
void ship_machine_name(char *out, size_t cap, const char *serial, const char *uuid,
                       const uint8_t *mac, const char **from);

/* True when s is an SMBIOS placeholder serial ("To Be Filled By O.E.M.", all zeros ...). */
bool ship_serial_placeholder(const char *s);

/*
 * The run id: the start time's 14 digits (zeros when unknown), the CRC-32 of the UUID text (else
 * of the MAC's bytes, else 0) and the TSC's low 32 bits, in hex:
 * "20261128215000-1a2b3c4d-0badf00d".
 */
void ship_run_id(char *out, size_t cap, const char *start_time, const char *uuid,
                 const uint8_t *mac, uint64_t tsc);

/* True for a file name the collector accepts: [A-Za-z0-9._-]+, not "." or "..". */
bool ship_name_ok(const char *name);

/* manifest.json for the files (every one but manifest.json itself), into out (replaced). */
void ship_manifest(struct strbuf *out, const struct run_fleet *f, const struct ship_file *files,
                   unsigned n);

/*
 * Write the run folder to the serial port as CHASE-FILE lines (docs/serial-log.md): the files,
 * then manifest (its name "manifest.json") last. False when the port failed part way.
 */
bool ship_serial(const struct run_fleet *f, const struct ship_file *files, unsigned n,
                 const struct ship_file *manifest);

/* Seconds to wait before retry number attempt (1 for the first retry): 1, 2, 4 ... 30. */
unsigned ship_backoff_s(unsigned attempt);

/* run.json's members for f: run_id, machine (and where it came from), boot, boot_nic. */
void ship_json(struct json *j, const struct run_fleet *f);

#endif
