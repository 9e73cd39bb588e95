// SPDX-License-Identifier: MIT
// Memory nodes from the ACPI SRAT (processor and memory affinity) and SLIT (distances).
#ifndef CHASE_SRAT_H
#define CHASE_SRAT_H

#include <stdbool.h>
#include <stddef.h>

#include "platform.h"

/* SRAT structure types and flags (ACPI 6.5, 5.2.16). */
#define SRAT_TYPE_LAPIC 0  /* Processor Local APIC/SAPIC Affinity, 16 bytes */
#define SRAT_TYPE_MEMORY 1 /* Memory Affinity, 40 bytes */
#define SRAT_TYPE_X2APIC 2 /* Processor Local x2APIC Affinity, 24 bytes */
#define SRAT_TYPE_GICC 3   /* GICC Affinity (Arm), 18 bytes */
#define SRAT_LAPIC_BYTES 16
#define SRAT_MEMORY_BYTES 40
#define SRAT_X2APIC_BYTES 24
#define SRAT_GICC_BYTES 18
#define SRAT_FIRST_STRUCT 48 /* header (36), reserved 4 + 8 */
#define SRAT_ENABLED (1u << 0)
#define SRAT_MEM_HOTPLUG (1u << 1)
#define SRAT_MEM_NONVOLATILE (1u << 2)
/* SLIT (5.2.17): localities (8 bytes) at 36, then the matrix, row by row. */
#define SLIT_LOCALITIES 36
#define SLIT_MATRIX 44
#define SLIT_UNREACHABLE 0xff

/*
 * Read the SRAT at srat (a table whose header length and checksum were checked) and, when
 * slit is not NULL, the SLIT into t, in storage sized from the SRAT's counts (node_table_free
 * gives it back): one node per proximity domain that an enabled structure names, ascending,
 * however many; its enabled memory ranges and processors (APIC IDs; GICC affinity structures
 * give ACPI processor UIDs, which srat_gicc_to_mpidr turns into MPIDR IDs; t's cpu[] all -1);
 * the distances from SLIT when its size and values are valid (t->slit), else t->note says why.
 * Returns false with the reason in why when the SRAT's structures are malformed (a length
 * that is too short for its type or runs past the table's end) or memory is short (t empty).
 */
bool srat_read(const void *srat, const void *slit, struct plat_numa *t, char *why, size_t why_cap);

/*
 * AArch64: turn the ACPI processor UIDs that GICC affinity gave into processor IDs, the
 * arm_mpidr_id of the MADT's GICC entry with that UID; a UID the MADT (NULL: none) lacks
 * becomes SRAT_ID_NONE, which no processor has, and is noted.
 */
#define SRAT_ID_NONE 0xffffffffu
void srat_gicc_to_mpidr(struct plat_numa *t, const void *madt);

/* The node (index into t) of proximity domain domain, or -1. */
int srat_node_of_domain(const struct plat_numa *t, uint32_t domain);

#endif
