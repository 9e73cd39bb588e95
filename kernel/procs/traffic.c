// SPDX-License-Identifier: MIT
// The loaded experiment's traffic generator: streams of whole lines read and written in a mix.
#include "procs/traffic.h"

#include <stddef.h>

#include "arch/bw_kernels.h"
#include "arch/cpu.h"
#include "procs/win_slice.h"

#define WORDS_PER_CHUNK (TRAFFIC_CHUNK_BYTES / 8)
#define STREAM_BLOCK_BYTES (TRAFFIC_CHUNKS_PER_STREAM * TRAFFIC_CHUNK_BYTES)
#define PERCENT 100

/* Reads from all to none in steps of one stream (100 / TRAFFIC_STREAMS = 25%), with plain
   stores, then with non-temporal ones; and the older read-and-write-back. */
const struct traffic_mix traffic_mixes[TRAFFIC_MIXES] = {
    {"100:0", 100, false, false},   {"75:25", 75, false, false},  {"50:50", 50, false, false},
    {"25:75", 25, false, false},    {"0:100", 0, false, false},   {"75:25nt", 75, true, false},
    {"50:50nt", 50, true, false},   {"25:75nt", 25, true, false}, {"0:100nt", 0, true, false},
    {"readwrite", 100, false, true}};
const char *const traffic_mix_names[TRAFFIC_MIXES + 1] = {
    "100:0",   "75:25",   "50:50",   "25:75",     "0:100", "75:25nt",
    "50:50nt", "25:75nt", "0:100nt", "readwrite", NULL};

bool traffic_mix_split(const struct traffic_mix *m, struct traffic_split *s)
{
    *s = (struct traffic_split){0};
    if (m->read_pct > PERCENT || m->read_pct * TRAFFIC_STREAMS % PERCENT)
        return false;
    if (m->rmw) {
        *s = (struct traffic_split){TRAFFIC_STREAMS, TRAFFIC_STREAMS, TRAFFIC_BLOCK_BYTES,
                                    TRAFFIC_BLOCK_BYTES};
        return true;
    }
    s->read_streams = m->read_pct * TRAFFIC_STREAMS / PERCENT;
    s->write_streams = TRAFFIC_STREAMS - s->read_streams;
    s->read_bytes = (uint64_t)s->read_streams * STREAM_BLOCK_BYTES;
    s->written_bytes = (uint64_t)s->write_streams * STREAM_BLOCK_BYTES;
    return true;
}

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

/* One stream's share of a block read: its chunks read, and written back (one word of each)
   in readwrite. */
static inline uint64_t stream_read(uint8_t *at, bool write_back, uint64_t sum)
{
    for (unsigned c = 0; c < TRAFFIC_CHUNKS_PER_STREAM; c++)
        sum += read_chunk(at + c * TRAFFIC_CHUNK_BYTES);
    if (write_back)
        for (unsigned c = 0; c < TRAFFIC_CHUNKS_PER_STREAM; c++)
            *(volatile uint64_t *)(at + c * TRAFFIC_CHUNK_BYTES) = sum;
    return sum;
}

/* One stream's share of a block stored: every word of its chunks, plainly or non-temporally. */
static inline void stream_store(uint8_t *at, bool nt, uint64_t value)
{
    volatile uint64_t *w = (volatile uint64_t *)at;
    if (nt) {
        bw_nt_fill_lines(at, TRAFFIC_CHUNKS_PER_STREAM, value);
        return;
    }
    for (unsigned i = 0; i < STREAM_BLOCK_BYTES / 8; i++)
        w[i] = value;
}

/* One block: each stream reads or stores as the split says; the new running sum. */
static uint64_t traffic_block(const struct traffic_gen *g, const struct traffic_split *sp,
                              uint64_t part, uint64_t pos, uint64_t done, uint64_t sum)
{
    bool rmw = g->mix && g->mix->rmw, nt = g->mix && g->mix->nt;
    for (unsigned s = 0; s < TRAFFIC_STREAMS; s++) {
        uint8_t *at = g->base + s * part + pos;
        if (s < sp->read_streams)
            sum = stream_read(at, rmw, sum);
        else /* never zeros (a store of them may be dropped), and never the same twice */
            stream_store(at, nt, ~done);
    }
    return sum;
}

/* Wait ticks on the TSC, unfenced: the block's loads and stores stay in flight meanwhile (a
   fenced read would drain them at every block, and a light delay would cost a whole memory
   latency per block: one generator moved 1.0 GB/s at 50 ns per block, 3.1 flat out). */
static void wait_ticks(uint64_t ticks)
{
    uint64_t until = arch_tsc_unfenced() + ticks;
    while (arch_tsc_unfenced() < until)
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
        return g->deadline_tsc && arch_tsc_unfenced() > g->deadline_tsc ? WIN_DEADLINE : WIN_GO_ON;
    if (done % every || (!g->deadline_tsc && !g->window_ticks))
        return WIN_GO_ON;
    return win_check(w, arch_tsc_unfenced(), g->deadline_tsc); /* as the wait: no drain */
}

bool traffic_generate(void *arg)
{
    struct traffic_gen *g = arg;
    uint64_t part = g->bytes / TRAFFIC_STREAMS, done = 0, sum = g->sink;
    uint64_t pos = g->blocks % (part / STREAM_BLOCK_BYTES) * STREAM_BLOCK_BYTES;
    struct traffic_split sp;
    struct win_slice w;
    if (!g->mix || !traffic_mix_split(g->mix, &sp))
        traffic_mix_split(&traffic_mixes[TRAFFIC_MIX_READ], &sp);
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
        sum = traffic_block(g, &sp, part, pos, g->blocks + done, sum);
        pos += STREAM_BLOCK_BYTES;
        pos = pos == part ? 0 : pos;
        done++;
        if (g->delay_ticks)
            wait_ticks(g->delay_ticks);
    }
    g->deadline_hit = st == WIN_DEADLINE; /* the boot processor never said stop: never run on */
    g->ticks = arch_tsc_fenced() - g->t0;
    g->blocks += done;
    g->read_bytes = g->blocks * sp.read_bytes;
    g->written_bytes = g->blocks * sp.written_bytes;
    g->moved_bytes = g->read_bytes + g->written_bytes;
    if (sp.write_streams)
        bw_store_fence(); /* the non-temporal stores, ordered before whatever comes next */
    g->sink = sum;
    return st == WIN_WINDOW_END;
}

uint64_t traffic_slice_bytes(uint64_t region_bytes, unsigned ways)
{
    uint64_t slice = region_bytes / (ways ? ways : 1) / TRAFFIC_BLOCK_BYTES * TRAFFIC_BLOCK_BYTES;
    return slice ? slice : TRAFFIC_BLOCK_BYTES;
}

void traffic_rate_add(struct traffic_rate *r, uint64_t read_bytes, uint64_t written_bytes,
                      double ns)
{
    if (!(ns > 0))
        return;
    /* bytes per ns is GB/s */
    r->read_gbps += (double)read_bytes / ns;
    r->write_gbps += (double)written_bytes / ns;
    r->gbps = r->read_gbps + r->write_gbps;
}
