// SPDX-License-Identifier: MIT
// The loads of a chase point's streams: each chain's lap recorded once, then replayed.
#ifndef SIM_STREAM_H
#define SIM_STREAM_H

#include <stdint.h>

#include "chase/measure.h"
#include "platform.h"

/* Trace entries (one per slot of a lap, 4 bytes each) a backend keeps at most. */
#define SIM_TRACE_MAX_ENTRIES (1ULL << 25)

/*
 * Where one stream is. A chain is deterministic, so one lap recorded as buffer offsets
 * (divided by 8) gives every later load without touching the chain again: the host then
 * reads a sequential array instead of chasing pointers through memory as large as the
 * simulated one. A chain too long to record (or one that never returns to its head) is
 * walked directly.
 */
struct sim_stream {
    const uint32_t *trace; /* one lap, or NULL: walk the chain from p */
    uint64_t len, pos;
    void **p;
};

/* The recorded laps, reused from point to point. */
struct sim_traces {
    uint32_t *buf;
    uint64_t cap, used;
};

/*
 * Set up s[0..pt->streams-1] for pt on buffer b: record each chain's lap (a stream whose
 * head lies on a lap already recorded shares it, as the dual experiment's two pointers
 * do). Returns 0, or -1 when a chain leaves the buffer.
 */
int sim_streams_open(struct sim_traces *t, const struct plat_buffer *b,
                     const struct chase_point *pt, struct sim_stream *s);
/* Release the recorded laps' memory. */
void sim_traces_free(struct sim_traces *t);

/* The buffer offset of the next load of s, a recorded stream (s->trace set). */
static inline uint64_t sim_stream_next_recorded(struct sim_stream *s)
{
    uint64_t off = (uint64_t)s->trace[s->pos] << 3;
    if (++s->pos == s->len)
        s->pos = 0;
    return off;
}

/* The buffer offset of stream s's next load, or UINT64_MAX when its chain left the buffer. */
static inline uint64_t sim_stream_next(struct sim_stream *s, uintptr_t base, uint64_t last)
{
    if (s->trace)
        return sim_stream_next_recorded(s);
    uint64_t off = (uint64_t)((uintptr_t)s->p - base);
    if (off > last || (off & 7))
        return UINT64_MAX;
    s->p = (void **)*s->p; /* read now: the host fetches it while the model works */
    return off;
}

#endif
