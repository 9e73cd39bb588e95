// SPDX-License-Identifier: MIT
// The loaded experiment's traffic generator: streams of whole lines read (or read and written).
#include "experiments/traffic.h"

#include "arch/cpu.h"

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

void traffic_generate(void *arg)
{
    struct traffic_gen *g = arg;
    uint64_t part = g->bytes / TRAFFIC_STREAMS, pos = 0, blocks = 0, sum = 0;
    uint64_t t0 = arch_tsc_fenced();
    g->deadline_hit = false;
    while (!__atomic_load_n(g->stop, __ATOMIC_ACQUIRE)) {
        if (g->deadline_tsc && blocks % TRAFFIC_DEADLINE_BLOCKS == 0 &&
            arch_tsc_fenced() > g->deadline_tsc) {
            g->deadline_hit = true; /* the boot processor never said stop: never run on */
            break;
        }
        for (unsigned s = 0; s < TRAFFIC_STREAMS; s++)
            sum = stream_block(g->base + s * part + pos, g->write, sum);
        pos += STREAM_BLOCK_BYTES;
        pos = pos == part ? 0 : pos;
        blocks++;
        if (g->delay_ticks)
            wait_ticks(g->delay_ticks);
    }
    g->ticks = arch_tsc_fenced() - t0;
    g->blocks = blocks;
    g->moved_bytes = blocks * TRAFFIC_BLOCK_BYTES * (g->write ? 2 : 1);
    g->sink = sum;
}

uint64_t traffic_slice_bytes(uint64_t region_bytes, unsigned ways)
{
    uint64_t slice = region_bytes / (ways ? ways : 1) / TRAFFIC_BLOCK_BYTES * TRAFFIC_BLOCK_BYTES;
    return slice ? slice : TRAFFIC_BLOCK_BYTES;
}
