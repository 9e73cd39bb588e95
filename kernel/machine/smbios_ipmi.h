// SPDX-License-Identifier: MIT
// SMBIOS type 38 (IPMI Device Information, DSP0134 7.39): whether the machine has a BMC, its
// interface and where it is, and what chase tells people about the BMC's watchdog.
#ifndef CHASE_SMBIOS_IPMI_H
#define CHASE_SMBIOS_IPMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Interface Type (DSP0134 7.39.1). */
enum ipmi_interface {
    IPMI_IF_UNKNOWN = 0,
    IPMI_IF_KCS = 1,  /* Keyboard Controller Style */
    IPMI_IF_SMIC = 2, /* Server Management Interface Chip */
    IPMI_IF_BT = 3,   /* Block Transfer */
    IPMI_IF_SSIF = 4  /* SMBus System Interface */
};

/* The first type 38 structure, decoded. */
struct smbios_ipmi {
    bool present;       /* a type 38 structure was found */
    unsigned count;     /* type 38 structures in the table */
    uint8_t interface;  /* enum ipmi_interface */
    uint8_t spec_major; /* IPMI specification revision (BCD nibbles) */
    uint8_t spec_minor;
    uint8_t i2c_target;    /* the BMC's I2C target address */
    uint8_t nv_storage;    /* NV storage device address (0xff: none) */
    uint64_t address;      /* I/O port or physical address (with bit 0 from the modifier);
                              SSIF: the 7-bit SMBus address */
    bool io_space;         /* address is an I/O port (else memory-mapped; SSIF: SMBus) */
    uint8_t spacing_bytes; /* between registers: 1, 4 or 16 (0: reserved code) */
    bool irq_specified;    /* the interrupt fields are given */
    uint8_t irq;           /* interrupt number (0: none) */
    bool short_record;     /* the structure ended before the modifier (offset 0x10) */
};

/* Decode one type 38 structure of len bytes at p (its header included) into out. */
void smbios_ipmi_read(const uint8_t *p, size_t len, struct smbios_ipmi *out);

/* The interface's name ("KCS", "SSIF"; "unknown" for codes DSP0134 does not list). */
const char *smbios_ipmi_interface_name(uint8_t interface);

/*
 * The BMC in one phrase: "IPMI 2.0 BMC, KCS at I/O port 0xca2 (registers 1 byte apart)".
 * Returns out.
 */
char *smbios_ipmi_describe(const struct smbios_ipmi *b, char *out, size_t cap);

/* What to do about the BMC's watchdog, for the banner (a constant sentence). */
extern const char smbios_ipmi_watchdog_advice[];

#endif
