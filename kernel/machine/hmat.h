// SPDX-License-Identifier: MIT
// The ACPI HMAT (heterogeneous memory attributes): each memory domain's attached initiator, the
// latency and bandwidth the firmware advertises per initiator-target pair, memory-side caches.
#ifndef CHASE_HMAT_H
#define CHASE_HMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Layout (ACPI 6.5, 5.2.28): a 36-byte header, 4 reserved bytes, then structures that each
   start with type (2 bytes), reserved (2) and length (4). */
#define HMAT_FIRST_STRUCT 40
#define HMAT_STRUCT_HEAD 8
#define HMAT_TYPE_DOMAIN 0 /* Memory Proximity Domain Attributes, 40 bytes */
#define HMAT_TYPE_LB 1     /* System Locality Latency and Bandwidth Information, 32 + lists */
#define HMAT_TYPE_CACHE 2  /* Memory Side Cache Information, 32 + 2 per SMBIOS handle */
#define HMAT_DOMAIN_BYTES 40
#define HMAT_LB_HEAD_BYTES 32
#define HMAT_CACHE_HEAD_BYTES 32
#define HMAT_DOMAIN_INITIATOR_VALID (1u << 0) /* type 0 flags: the attached initiator is given */
#define HMAT_LB_HIERARCHY_MASK 0x0fu          /* type 1 flags: 0 memory, 1..3 memory-side cache */
#define HMAT_LB_ENTRY_UNREACHABLE 0           /* an entry of 0: the pair is not reachable */
#define HMAT_LB_ENTRY_UNKNOWN 0xffffu         /* reserved: Linux reads it as no figure either */

/* Caps on what is kept: tables larger than these keep the first and count the rest (dropped).
   64 domains: AMD's L3-as-node (24) and Xeon Max SNC4 with HBM (16) with room; 512 pairs: 16
   initiators x 32 targets at each hierarchy that carries figures. */
#define HMAT_DOMAINS_MAX 64
#define HMAT_PAIRS_MAX 512
#define HMAT_CACHES_MAX 64

/* The data types of a latency and bandwidth structure, in the spec's numbering. */
enum hmat_data {
    HMAT_ACCESS_LATENCY,
    HMAT_READ_LATENCY,
    HMAT_WRITE_LATENCY,
    HMAT_ACCESS_BANDWIDTH,
    HMAT_READ_BANDWIDTH,
    HMAT_WRITE_BANDWIDTH,
    HMAT_DATA_TYPES
};

/* A memory proximity domain's attributes (type 0). */
struct hmat_domain {
    uint32_t mem_domain;
    bool initiator_valid; /* the firmware names the initiator attached to it */
    uint32_t initiator;   /* ... its proximity domain */
};

/* One initiator-target pair at one memory hierarchy, with the figures the table gives it. */
struct hmat_pair {
    uint32_t initiator, target; /* proximity domains */
    unsigned hierarchy;         /* 0: the memory itself, 1..3: that level of memory-side cache */
    unsigned have;              /* bit (1 << enum hmat_data) per figure given */
    uint64_t value[HMAT_DATA_TYPES]; /* latencies in picoseconds, bandwidths in MB/s (base unit
                                        applied) */
};

/* A memory-side cache (type 2). */
struct hmat_cache {
    uint32_t mem_domain;
    uint64_t size_bytes;
    unsigned total_levels, level;
    unsigned associativity; /* 0 none, 1 direct mapped, 2 complex cache indexing */
    unsigned write_policy;  /* 0 none, 1 write-back, 2 write-through */
    unsigned line_bytes;
    unsigned address_mode; /* ACPI 6.5: 0 unknown, 1 extended-linear */
    unsigned smbios_handles;
};

/* The table as read. */
struct hmat {
    bool present;
    unsigned revision;
    unsigned ndomains, npairs, ncaches;
    unsigned dropped;     /* domains, pairs or caches past the caps above */
    unsigned unknown;     /* structures of other types, skipped */
    unsigned lb_structs;  /* latency and bandwidth structures read */
    bool figure_overflow; /* an entry times its base unit overflowed 64 bits: left out */
    bool units_known;     /* revision 2 or later (ACPI 6.3+): picoseconds and MB/s. Revision 1
                             (ACPI 6.2) figures are kept as given: Linux divides those by 10 */
    struct hmat_domain domain[HMAT_DOMAINS_MAX];
    struct hmat_pair pair[HMAT_PAIRS_MAX];
    struct hmat_cache cache[HMAT_CACHES_MAX];
};

/*
 * Read the HMAT at table (len bytes, the caller's bound; the header's length is checked against
 * it) into h. Every structure's length is checked against its type's fixed part, its lists and
 * the table's end before anything of it is read. Returns false with the reason in why when the
 * table is malformed (h then holds what came before the bad structure, present false).
 */
bool hmat_read(const void *table, size_t len, struct hmat *h, char *why, size_t why_cap);

/* The pair (initiator, target) at hierarchy 0 (the memory), or NULL. */
const struct hmat_pair *hmat_pair_of(const struct hmat *h, uint32_t initiator, uint32_t target);

/*
 * The advertised latency of pair p in nanoseconds: read latency when given, else access latency
 * (*kind says which: "read", "access"). False when the pair has neither.
 */
bool hmat_latency_ns(const struct hmat_pair *p, double *ns, const char **kind);

/* The advertised read bandwidth of p in MB/s: read, else access bandwidth; false when neither. */
bool hmat_bandwidth_mbs(const struct hmat_pair *p, uint64_t *mbs, const char **kind);

/* The initiator domain HMAT attaches to memory domain mem (type 0), or false when none. */
bool hmat_attached_initiator(const struct hmat *h, uint32_t mem, uint32_t *initiator);

/* The data type's name as run.json writes it ("read_latency_ps", "access_bandwidth_mbs"). */
const char *hmat_data_name(enum hmat_data d);

/* A memory-side cache's associativity and write policy in words ("direct mapped"). */
const char *hmat_cache_associativity(unsigned a);
const char *hmat_cache_policy(unsigned p);

#endif
