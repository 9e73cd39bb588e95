// SPDX-License-Identifier: MIT
// The loaded experiment's traffic generator: streams of whole lines read (or read and written).
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

/* One generator: its region, its pace, and (filled by traffic_generate) what it did. */
struct traffic_gen {
    const volatile uint64_t *stop; /* it stops when this is nonzero */
    uint8_t *base;                 /* its region: a multiple of TRAFFIC_BLOCK_BYTES, aligned */
    uint64_t bytes;
    uint64_t delay_ticks;  /* TSC ticks it waits after each block (0: flat out) */
    bool write;            /* also write one word of every chunk, so every line goes back */
    uint64_t deadline_tsc; /* it stops by itself when the TSC passes this (0: no deadline) */
    uint64_t window_ticks; /* one call (one window) lasts about this long at most (0: no cap) */
    /* Its results, kept over its windows (zero them before the first). */
    bool started;         /* a window has run: t0 holds the start */
    uint64_t t0;          /* the TSC at its start */
    uint64_t windows;     /* windows (calls) it took */
    bool deadline_hit;    /* it stopped at its deadline, not at the flag */
    uint64_t blocks;      /* blocks done */
    uint64_t ticks;       /* its own TSC time from start to stop */
    uint64_t moved_bytes; /* bytes read, plus as many written back in write mode */
    uint64_t sink;        /* the sum of what it read (so no load can be dropped) */
};

/*
 * Run generator g for one window (passed as void * to run on any processor): TRAFFIC_STREAMS
 * sequential streams over quarters of its region, each block loading every word of its chunks,
 * wrapping at the region's end, until *g->stop, its deadline, or the end of the window
 * (g->window_ticks after the call, looked at as TRAFFIC_DEADLINE_BLOCKS says: a window runs
 * over by at most that many blocks and their delays); its results are brought up to date.
 * Returns true when only the window ended (call it again, in the next window), false when it
 * stopped. No platform call inside.
 */
bool traffic_generate(void *g);

/* The largest multiple of TRAFFIC_BLOCK_BYTES in region/ways (at least one block). */
uint64_t traffic_slice_bytes(uint64_t region_bytes, unsigned ways);

#endif
