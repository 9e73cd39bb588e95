// SPDX-License-Identifier: MIT
// The ACPI PPTT (Processor Properties Topology Table): processors, clusters and their caches.
#ifndef CHASE_ARM_PPTT_H
#define CHASE_ARM_PPTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PPTT layout (ACPI 6.5, 5.2.30). Offsets are from the start of the table. */
#define PPTT_FIRST_STRUCT 36  /* structures follow the standard 36-byte header */
#define PPTT_TYPE_PROCESSOR 0 /* Processor Hierarchy Node, 20 bytes + 4 per private resource */
#define PPTT_TYPE_CACHE 1     /* Cache Type Structure, 24 bytes (28 from revision 3) */
#define PPTT_PROCESSOR_BYTES 20
#define PPTT_CACHE_BYTES 24
#define PPTT_CACHE_BYTES_REV3 28 /* adds the Cache ID */
#define PPTT_REVISION_CACHE_ID 3 /* first revision with the Cache ID field */

/* Processor Hierarchy Node flags (ACPI 6.5, table 5.159). */
#define PPTT_PHYSICAL_PACKAGE (1u << 0)
#define PPTT_ACPI_ID_VALID (1u << 1)
#define PPTT_IS_THREAD (1u << 2)
#define PPTT_IS_LEAF (1u << 3)
#define PPTT_IDENTICAL (1u << 4)

/* Cache Type Structure flags (ACPI 6.5, table 5.162): which fields are valid. */
#define PPTT_CACHE_SIZE_VALID (1u << 0)
#define PPTT_CACHE_SETS_VALID (1u << 1)
#define PPTT_CACHE_WAYS_VALID (1u << 2)
#define PPTT_CACHE_ALLOC_VALID (1u << 3)
#define PPTT_CACHE_TYPE_VALID (1u << 4)
#define PPTT_CACHE_POLICY_VALID (1u << 5)
#define PPTT_CACHE_LINE_VALID (1u << 6)
#define PPTT_CACHE_ID_VALID (1u << 7)

/* Cache Type Structure attributes (ACPI 6.5, table 5.162). */
#define PPTT_ATTR_ALLOC_MASK 0x3u /* 0 read, 1 write, 2 or 3 read and write allocate */
#define PPTT_ATTR_TYPE_SHIFT 2
#define PPTT_ATTR_TYPE_MASK 0x3u /* 0 data, 1 instruction, 2 or 3 unified */
#define PPTT_ATTR_WRITE_THROUGH (1u << 4)

#define PPTT_NODES_MAX 256    /* processor hierarchy nodes kept */
#define PPTT_CACHES_MAX 512   /* cache structures kept */
#define PPTT_PRIVATE_MAX 8    /* private resources kept per node */
#define PPTT_CPU_CACHES_MAX 8 /* caches listed for one processor */

enum pptt_cache_type { PPTT_CACHE_DATA, PPTT_CACHE_INSTRUCTION, PPTT_CACHE_UNIFIED };

struct pptt_node {
    uint32_t offset;  /* where the structure starts in the table */
    uint32_t flags;   /* PPTT_PHYSICAL_PACKAGE ... */
    uint32_t parent;  /* the parent node's offset, 0: none */
    uint32_t acpi_id; /* ACPI Processor ID (valid with PPTT_ACPI_ID_VALID) */
    unsigned n_private;
    uint32_t private_res[PPTT_PRIVATE_MAX]; /* offsets of its private resources */
};

struct pptt_cache {
    uint32_t offset;     /* where the structure starts in the table */
    uint32_t flags;      /* PPTT_CACHE_*_VALID */
    uint32_t next_level; /* the next level's cache structure offset, 0: none */
    uint32_t size_bytes; /* valid with PPTT_CACHE_SIZE_VALID */
    uint32_t sets;       /* valid with PPTT_CACHE_SETS_VALID */
    uint8_t ways;        /* valid with PPTT_CACHE_WAYS_VALID */
    uint8_t attributes;
    uint16_t line_bytes; /* valid with PPTT_CACHE_LINE_VALID */
    uint32_t cache_id;   /* revision 3 and later, valid with PPTT_CACHE_ID_VALID */
};

/* A PPTT, read. */
struct pptt {
    uint8_t revision;
    unsigned n_nodes, n_caches;
    struct pptt_node nodes[PPTT_NODES_MAX];
    struct pptt_cache caches[PPTT_CACHES_MAX];
};

/*
 * Read the PPTT in table, of which buf_len bytes may be read (the header's length is checked
 * against it), into p. Returns false with the reason in why when the table is malformed: a
 * header length shorter than the header or longer than buf_len, a structure whose length is
 * under 2, under its type's size or runs past the end, more structures than chase keeps, or a
 * parent or next-level reference that does not lead to a structure of the right type.
 * Structures of other types (type 2, the deprecated ID structure) are skipped.
 */
bool pptt_parse(const void *table, size_t buf_len, struct pptt *p, char *why, size_t why_cap);

/* One cache a processor sees, with its level counted as Linux and the ACPI spec's example do. */
struct pptt_cpu_cache {
    const struct pptt_cache *cache;
    unsigned level; /* 1 for the caches nearest the processor */
};

/*
 * The caches of the processor whose leaf node has ACPI Processor ID acpi_id, nearest first:
 * the leaf's private caches and their next-level chains, then each ancestor's, each ancestor
 * continuing the level count where its child stopped. A cache reached twice is listed once.
 * Returns how many (at most cap), or -1 when no leaf node has that ID.
 */
int pptt_cpu_caches(const struct pptt *p, uint32_t acpi_id, struct pptt_cpu_cache *out,
                    unsigned cap);

/* How many leaf processors see the cache at offset cache_offset (0: none or not a cache). */
unsigned pptt_cache_sharers(const struct pptt *p, uint32_t cache_offset);

/*
 * The cache instances the processor with ACPI Processor ID acpi_id reads through at levels 2
 * and 3 (data or unified): each the offset of its cache structure in the table, so that the
 * processors that reach the same structure share that cache; 0 where the PPTT lists no cache
 * of that level for it. Returns false when no leaf has acpi_id or it lists no cache at all.
 */
bool pptt_cache_groups(const struct pptt *p, uint32_t acpi_id, uint32_t *l2, uint32_t *l3);

/* The cache's type from its attributes (unified when the type is not marked valid). */
enum pptt_cache_type pptt_cache_type_of(const struct pptt_cache *c);

#endif
