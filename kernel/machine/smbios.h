// SPDX-License-Identifier: MIT
// The machine's identity from SMBIOS (DMTF DSP0134): firmware, system (with its UUID and serial),
// board, chassis asset tag, processors and every memory device, read from a byte buffer so the same
// parser serves firmware and Linux.
#ifndef CHASE_SMBIOS_H
#define CHASE_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/smbios_ipmi.h"

#define SMBIOS_UUID_CHARS 36    /* a UUID as text: 8-4-4-4-12 hex digits */
#define SMBIOS_TEXT 48          /* a string is kept up to this many bytes (longer: cut) */
#define SMBIOS_DEVICES_MAX 128  /* memory devices (type 17) kept; more are counted only */
#define SMBIOS_PROCESSORS_MAX 8 /* processor sockets (type 4) kept; more are counted only */
#define SMBIOS_EP3_BYTES 0x18   /* the 64-bit (SMBIOS 3) entry point's length */
#define SMBIOS_EP2_BYTES 0x1f   /* the 32-bit (2.1 and later) entry point's length */
#define SMBIOS_TABLE_MAX                                                                           \
    (1u << 20)                  /* a structure table is read up to 1 MiB (3.x gives a maximum,     \
                                   not a length; real tables are a few KiB) */
#define SMBIOS_DRAM_BUS_BYTES 8 /* a DDR channel's data bus when the device does not say */
#define SMBIOS_UUID_BYTES 16

/* What the entry point says about the structure table. */
struct smbios_entry {
    bool is64;            /* SMBIOS 3 "_SM3_" entry point (else 2.x "_SM_") */
    uint8_t major, minor; /* the specification version the table follows */
    uint64_t table_addr;  /* physical address of the structure table */
    uint32_t table_bytes; /* its length (2.x) or maximum length (3.x) */
    uint32_t structures;  /* how many structures 2.x says there are (0: not said, 3.x) */
};

/*
 * Check an entry point of len bytes at p: anchor, length, checksum (and the 2.x intermediate
 * "_DMI_" anchor and checksum). True with *e filled; false with the reason in why.
 */
bool smbios_entry_parse(const uint8_t *p, size_t len, struct smbios_entry *e, char *why,
                        size_t why_cap);

/* One memory device (type 17): a slot, populated or not. */
struct smbios_memdev {
    char locator[SMBIOS_TEXT], bank[SMBIOS_TEXT];
    char manufacturer[SMBIOS_TEXT], part[SMBIOS_TEXT];
    char serial[SMBIOS_TEXT], asset_tag[SMBIOS_TEXT]; /* for inventory, placeholders kept */
    char channel[SMBIOS_TEXT]; /* the channel it was counted in ("" when not populated) */
    uint64_t size_bytes;       /* 0: no device installed (or size unknown, below) */
    bool size_unknown;         /* the table says the size is unknown (0xFFFF) */
    uint8_t type;              /* memory type code (DSP0134 7.18.2: 0x1A DDR4, 0x22 DDR5) */
    uint8_t form_factor;       /* form factor code (7.18.1: 0x09 DIMM, 0x0D SODIMM) */
    uint32_t speed_mts;        /* the device's rated speed, MT/s (0: unknown) */
    uint32_t configured_mts;   /* the speed it runs at, MT/s (0: unknown) */
    uint16_t data_width_bits;  /* 0: unknown */
    uint16_t total_width_bits; /* with error-correction bits; 0: unknown */
    uint8_t rank;              /* 0: unknown */
};

/* One processor socket (type 4). */
struct smbios_processor {
    char socket[SMBIOS_TEXT], manufacturer[SMBIOS_TEXT], version[SMBIOS_TEXT];
    bool populated;
    uint16_t current_mhz, max_mhz; /* 0: unknown */
    uint16_t cores, threads;       /* 0: unknown */
};

/* Everything chase keeps of the SMBIOS tables. */
struct smbios_info {
    bool found; /* a valid entry point and at least one structure */
    struct smbios_entry entry;
    char bios_vendor[SMBIOS_TEXT], bios_version[SMBIOS_TEXT], bios_date[SMBIOS_TEXT];
    char system_maker[SMBIOS_TEXT], system_product[SMBIOS_TEXT], system_version[SMBIOS_TEXT];
    char system_serial[SMBIOS_TEXT];         /* type 1 serial number ("": none) */
    char system_uuid[SMBIOS_UUID_CHARS + 1]; /* type 1 UUID, 8-4-4-4-12 lower case ("": none) */
    /* Type 1's other inventory fields and the UUID as stored; type 3's chassis asset tag */
    char system_sku[SMBIOS_TEXT], system_family[SMBIOS_TEXT];
    char chassis_asset_tag[SMBIOS_TEXT];
    bool system_uuid_listed;                      /* type 1 is long enough to hold one (2.1+) */
    uint8_t system_uuid_bytes[SMBIOS_UUID_BYTES]; /* as the table holds it */
    char board_maker[SMBIOS_TEXT], board_product[SMBIOS_TEXT], board_version[SMBIOS_TEXT];
    unsigned structures;  /* structures read */
    unsigned nprocessors; /* kept in processor[] */
    unsigned processors_total;
    struct smbios_processor processor[SMBIOS_PROCESSORS_MAX];
    unsigned ndevices;              /* kept in device[] */
    unsigned devices_total;         /* type 17 structures: memory slots */
    unsigned populated;             /* devices with memory installed */
    unsigned channels;              /* populated channels (see smbios_count_channels) */
    bool channels_named;            /* every populated device's name said its channel */
    uint64_t memory_bytes;          /* sum of the installed devices' sizes */
    uint64_t bandwidth_bytes_per_s; /* theoretical DRAM bandwidth (0: speeds unknown) */
    struct smbios_memdev device[SMBIOS_DEVICES_MAX];
    struct smbios_ipmi ipmi; /* type 38: the BMC (ipmi.present false: none listed) */
    char note[160];          /* what was malformed, cut or left out ("" when nothing) */
};

/*
 * Read the structure table of len bytes at t that entry e describes into *out (cleared
 * first). Malformed input (short or overlong structures, string sets without their end, a
 * table running past len) ends the walk there, with what it saw kept and a note.
 */
void smbios_table_parse(const uint8_t *t, size_t len, const struct smbios_entry *e,
                        struct smbios_info *out);

/*
 * Both steps over an entry point and a table held in memory (Linux's smbios_entry_point and
 * DMI files; the fuzzer). False with the reason in why when the entry point is not valid.
 */
bool smbios_read(const uint8_t *ep, size_t ep_len, const uint8_t *table, size_t table_len,
                 struct smbios_info *out, char *why, size_t why_cap);

/*
 * Name the channel of every populated device and count them, then the theoretical bandwidth:
 * for each channel, the slowest of its devices' transfer rates (configured, else rated) times
 * its data bus in bytes (data width / 8, else SMBIOS_DRAM_BUS_BYTES), summed over channels.
 * A channel is named in the locator or bank locator ("ChannelA-DIMM0", "P0 CHANNEL A": the text
 * up to the token after "channel"); where a device's names say no channel, it counts as a
 * channel of its own (one device per channel assumed) and channels_named is false.
 */
void smbios_count_channels(struct smbios_info *s);

/*
 * The UUID's bytes as text, lower case 8-4-4-4-12 into out (SMBIOS_UUID_CHARS + 1 bytes), also
 * when they say it is not set (system_uuid is "" then): from 2.6 on the first three fields are
 * little-endian in the table (DSP0134 7.2.1), before 2.6 as stored. "" when type 1 holds none.
 * Returns out.
 */
char *smbios_uuid_text(const struct smbios_info *s, char *out, size_t cap);
/* Whether the UUID says it is not set: all 00h (not present) or all FFh (settable, not set). */
bool smbios_uuid_unset(const struct smbios_info *s);

/*
 * Whether an identity string (serial number, asset tag, SKU) is a placeholder the board maker
 * left in rather than a value: "To Be Filled By O.E.M.", "Default string", "System Serial
 * Number", "Not Specified" (any case), or only zeros and blanks. The empty string (no string
 * given) is not one: it is absent.
 */
bool smbios_is_placeholder(const char *s);

/* The memory type's name ("DDR5"); "unknown" for codes DSP0134 does not list. */
const char *smbios_memtype_name(uint8_t type);
/* The form factor's name ("DIMM", "SODIMM"); "unknown" for unlisted codes. */
const char *smbios_form_factor_name(uint8_t form_factor);

/*
 * The installed memory in one phrase: "4 x 32 GB DDR5-4800, 4 of 8 slots" (groups of equal
 * devices joined by " + "), "no memory device installed, 0 of 2 slots" or "no memory devices
 * listed". GB here are GiB, as module sizes are. Returns out.
 */
char *smbios_memory_summary(const struct smbios_info *s, char *out, size_t cap);

/* The type of the installed memory devices ("DDR5", as smbios_memtype_name names it); "mixed"
 * when they differ, "unknown" when none is installed, "none" when s is NULL or not found (no
 * SMBIOS table was read). */
const char *smbios_dram_type(const struct smbios_info *s);

#endif
