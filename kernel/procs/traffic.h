// SPDX-License-Identifier: MIT
// The loaded experiment's traffic generator: streams of whole lines read and written in a mix.
#ifndef CHASE_EXP_TRAFFIC_H
#define CHASE_EXP_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

/* Sequential streams a generator reads side by side: several misses in flight at once. */
#define TRAFFIC_STREAMS 4
/* 64-byte chunks each stream reads per block; every 8-byte word of a chunk is loaded. */
#define TRAFFIC_CHUNKS_PER_STREAM 4
#define TRAFFIC_CHUNK_BYTES 64
/* One block: what a generator reads between two looks at the stop flag (and two delays). */
#define TRAFFIC_BLOCK_BYTES (TRAFFIC_STREAMS * TRAFFIC_CHUNKS_PER_STREAM * TRAFFIC_CHUNK_BYTES)

/*
 * Blocks between two looks at the clock (window end, deadline) when the generator runs flat
 * out: 64 KiB, microseconds at memory speed; with a delay it looks after every block (the delay
 * reads the clock anyway). The flag is looked at every block.
 */
#define TRAFFIC_DEADLINE_BLOCKS 64

/*
 * A read:write mix: of a block's TRAFFIC_STREAMS streams, read_streams load every word of their
 * lines and the others store every word of theirs (plain stores, which the core reads for
 * ownership first, or non-temporal ones, which it does not); so read_pct of the lines a
 * generator touches are read and the rest written. readwrite (rmw) is the older mode: every
 * line read, then one word of it written, so that it goes back to memory too.
 */
struct traffic_mix {
    const char *name;  /* "75:25": read:written lines in percent; "...nt": non-temporal */
    unsigned read_pct; /* of the lines touched, read (0-100, a multiple of 100/STREAMS) */
    bool nt;           /* the stores are non-temporal */
    bool rmw;          /* readwrite: every line read and written back */
};

/* The mixes the loaded experiment knows, in the order of traffic_mix_names; TRAFFIC_MIX_READ
   (100:0) and TRAFFIC_MIX_READWRITE name the two of the older `mode` key. */
enum { TRAFFIC_MIX_READ, TRAFFIC_MIX_READWRITE = 9, TRAFFIC_MIXES };
extern const struct traffic_mix traffic_mixes[TRAFFIC_MIXES];
/* Their names, NULL-terminated (a config key's choices). */
extern const char *const traffic_mix_names[TRAFFIC_MIXES + 1];

/* How a mix splits one block: streams that read, streams that store, bytes of each. */
struct traffic_split {
    unsigned read_streams, write_streams;
    uint64_t read_bytes, written_bytes; /* per block: what the loads and the stores cover */
};

/* Mix m's split of a block; false (s zeroed) when its read_pct is not a whole number of
   streams. */
bool traffic_mix_split(const struct traffic_mix *m, struct traffic_split *s);

/* One generator: its region, its pace, and (filled by traffic_generate) what it did. */
struct traffic_gen {
    const volatile uint64_t *stop; /* it stops when this is nonzero */
    uint8_t *base;                 /* its region: a multiple of TRAFFIC_BLOCK_BYTES, aligned */
    uint64_t bytes;
    uint64_t delay_ticks;          /* TSC ticks it waits after each block (0: flat out) */
    const struct traffic_mix *mix; /* what it does with the lines (NULL: reads them all) */
    uint64_t deadline_tsc; /* it stops by itself when the TSC passes this (0: no deadline) */
    uint64_t window_ticks; /* one call (one window) lasts about this long at most (0: no cap) */
    /* Its results, kept over its windows (zero them before the first). */
    bool started;           /* a window has run: t0 holds the start */
    uint64_t t0;            /* the TSC at its start */
    uint64_t windows;       /* windows (calls) it took */
    bool deadline_hit;      /* it stopped at its deadline, not at the flag */
    uint64_t blocks;        /* blocks done */
    uint64_t ticks;         /* its own TSC time from start to stop */
    uint64_t read_bytes;    /* bytes its loads covered */
    uint64_t written_bytes; /* bytes its stores covered (readwrite: every line, written back) */
    uint64_t moved_bytes;   /* the two together */
    uint64_t sink;          /* the sum of what it read (so no load can be dropped) */
};

/*
 * Run generator g for one window (passed as void * to run on any processor): TRAFFIC_STREAMS
 * sequential streams over quarters of its region, each block's streams reading or storing
 * every word of their chunks as g->mix splits them (traffic_mix_split), wrapping at the region's
 * end, until *g->stop, its deadline, or the end of the window (g->window_ticks after the call,
 * looked at as TRAFFIC_DEADLINE_BLOCKS says: a window runs over by at most that many blocks and
 * their delays); its results are brought up to date. Returns true when only the window ended (call
 * it again, in the next window), false when it stopped. No platform call inside.
 */
bool traffic_generate(void *g);

/* What generators moved, GB/s (10^9 bytes per second): each one's bytes over its own time. */
struct traffic_rate {
    double read_gbps, write_gbps;
    double gbps; /* the two together */
};

/*
 * Add one generator's bytes (loads' and stores' coverage, as traffic_generate counts them)
 * over its own ns to r: generators run side by side, so their rates add. A generator with no
 * time (ns <= 0: it never ran) adds nothing.
 */
void traffic_rate_add(struct traffic_rate *r, uint64_t read_bytes, uint64_t written_bytes,
                      double ns);

/* The largest multiple of TRAFFIC_BLOCK_BYTES in region/ways (at least one block). */
uint64_t traffic_slice_bytes(uint64_t region_bytes, unsigned ways);

#endif
