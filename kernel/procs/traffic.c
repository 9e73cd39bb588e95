// SPDX-License-Identifier: MIT
// The loaded experiment's traffic generator: streams of whole lines read (or read and written).
#include "procs/traffic.h"

#include "arch/cpu.h"
#include "procs/win_slice.h"

#define WORDS_PER_CHUNK (TRAFFIC_CHUNK_BYTES / 8)
#define STREAM_BLOCK_BYTES (TRAFFIC_CHUNKS_PER_STREAM * TRAFFIC_CHUNK_BYTES)

/* The sum of every word of one chunk: independent loads, so many misses stay in flight. */
static inline uint64_t read_chunk(const uint8_t *at)
{
    const volatile uint64_t *w = (const volatile uint64_t *)at;
    uint64_t a = 0, b = 0;
    for (unsigned i = 0; i < WORDS_PER_CHUNK; i += 2) {
        a += w[i];
        b += w[i + 1];
    }
    return a + b;
}

/* One stream's share of a block: its chunks read, and written back in write mode. */
static inline uint64_t stream_block(uint8_t *at, bool write, uint64_t sum)
{
    for (unsigned c = 0; c < TRAFFIC_CHUNKS_PER_STREAM; c++)
        sum += read_chunk(at + c * TRAFFIC_CHUNK_BYTES);
    if (write)
        for (unsigned c = 0; c < TRAFFIC_CHUNKS_PER_STREAM; c++)
            *(volatile uint64_t *)(at + c * TRAFFIC_CHUNK_BYTES) = sum;
    return sum;
}

/* Wait ticks on the TSC (the fenced read also lets the block's loads finish first). */
static void wait_ticks(uint64_t ticks)
{
    uint64_t until = arch_tsc_fenced() + ticks;
    while (arch_tsc_fenced() < until)
        arch_pause();
}

/*
 * Where the generator stands after `done` blocks in this window, looking at the clock as
 * TRAFFIC_DEADLINE_BLOCKS says: at a window's start only the deadline counts (a window always
 * moves a block, so no window is empty however short).
 */
static enum win_state traffic_look(const struct traffic_gen *g, const struct win_slice *w,
                                   uint64_t done)
{
    uint64_t every = g->delay_ticks ? 1 : TRAFFIC_DEADLINE_BLOCKS;
    if (!done)
        return g->deadline_tsc && arch_tsc_fenced() > g->deadline_tsc ? WIN_DEADLINE : WIN_GO_ON;
    if (done % every || (!g->deadline_tsc && !g->window_ticks))
        return WIN_GO_ON;
    return win_check(w, arch_tsc_fenced(), g->deadline_tsc);
}

bool traffic_generate(void *arg)
{
    struct traffic_gen *g = arg;
    uint64_t part = g->bytes / TRAFFIC_STREAMS, done = 0, sum = g->sink;
    uint64_t pos = g->blocks % (part / STREAM_BLOCK_BYTES) * STREAM_BLOCK_BYTES;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), g->window_ticks);
    if (!g->started) {
        g->started = true;
        g->t0 = w.start_tsc;
    }
    g->windows++;
    enum win_state st = WIN_GO_ON;
    while (!__atomic_load_n(g->stop, __ATOMIC_ACQUIRE)) {
        st = traffic_look(g, &w, done);
        if (st != WIN_GO_ON)
            break;
        for (unsigned s = 0; s < TRAFFIC_STREAMS; s++)
            sum = stream_block(g->base + s * part + pos, g->write, sum);
        pos += STREAM_BLOCK_BYTES;
        pos = pos == part ? 0 : pos;
        done++;
        if (g->delay_ticks)
            wait_ticks(g->delay_ticks);
    }
    g->deadline_hit = st == WIN_DEADLINE; /* the boot processor never said stop: never run on */
    g->ticks = arch_tsc_fenced() - g->t0;
    g->blocks += done;
    g->moved_bytes = g->blocks * TRAFFIC_BLOCK_BYTES * (g->write ? 2 : 1);
    g->sink = sum;
    return st == WIN_WINDOW_END;
}

uint64_t traffic_slice_bytes(uint64_t region_bytes, unsigned ways)
{
    uint64_t slice = region_bytes / (ways ? ways : 1) / TRAFFIC_BLOCK_BYTES * TRAFFIC_BLOCK_BYTES;
    return slice ? slice : TRAFFIC_BLOCK_BYTES;
}
