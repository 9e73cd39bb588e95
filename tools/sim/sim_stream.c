// SPDX-License-Identifier: MIT
// The loads of a chase point's streams: each chain's lap recorded once, then replayed.
#include "sim_stream.h"

#include <stdlib.h>

#define RECORD_LEAVES UINT64_MAX

static int grow(struct sim_traces *t)
{
    if (t->cap >= SIM_TRACE_MAX_ENTRIES)
        return -1;
    uint64_t cap = t->cap ? t->cap * 2 : 1ULL << 16;
    if (cap > SIM_TRACE_MAX_ENTRIES)
        cap = SIM_TRACE_MAX_ENTRIES;
    uint32_t *buf = realloc(t->buf, cap * sizeof(*buf));
    if (!buf)
        return -1;
    t->buf = buf;
    t->cap = cap;
    return 0;
}

/*
 * Record the lap from head at the end of t; returns its length, 0 when it cannot be
 * recorded (too long, never back at head, no memory), RECORD_LEAVES when it leaves the
 * buffer.
 */
static uint64_t record(struct sim_traces *t, void **head, uintptr_t base, uint64_t last)
{
    uint64_t start = t->used;
    void **p = head;
    do {
        uint64_t off = (uint64_t)((uintptr_t)p - base);
        if (off > last || (off & 7)) {
            t->used = start;
            return RECORD_LEAVES;
        }
        if (t->used == t->cap && grow(t) != 0) {
            t->used = start;
            return 0;
        }
        t->buf[t->used++] = (uint32_t)(off >> 3);
        p = (void **)*p;
    } while (p != head);
    return t->used - start;
}

/* Where head lies on a lap recorded before (entries [0, end) of t), or -1. */
static int64_t find(const struct sim_traces *t, uint64_t end, uint32_t entry)
{
    for (uint64_t i = 0; i < end; i++)
        if (t->buf[i] == entry)
            return (int64_t)i;
    return -1;
}

int sim_streams_open(struct sim_traces *t, const struct plat_buffer *b,
                     const struct chase_point *pt, struct sim_stream *s)
{
    uintptr_t base = (uintptr_t)b->virt;
    uint64_t last = b->size_bytes - sizeof(void *);
    uint64_t start[CHASE_MAX_STREAMS];
    bool traceable = b->size_bytes <= (1ULL << 35); /* offsets / 8 fit 32 bits */
    t->used = 0;
    for (unsigned k = 0; k < pt->streams; k++) {
        s[k] = (struct sim_stream){.p = pt->head[k]};
        uint64_t off = (uint64_t)((uintptr_t)pt->head[k] - base);
        if (!traceable || off > last || (off & 7))
            continue; /* walked directly; a bad head fails there */
        int64_t at = find(t, t->used, (uint32_t)(off >> 3));
        for (unsigned j = 0; at >= 0 && j < k; j++) {
            if (s[j].len && (uint64_t)at >= start[j] && (uint64_t)at < start[j] + s[j].len) {
                start[k] = start[j];
                s[k].len = s[j].len;
                s[k].pos = (uint64_t)at - start[j];
            }
        }
        if (s[k].len)
            continue;
        start[k] = t->used;
        s[k].len = record(t, pt->head[k], base, last);
        if (s[k].len == RECORD_LEAVES)
            return -1;
    }
    for (unsigned k = 0; k < pt->streams; k++)
        if (s[k].len)
            s[k].trace = t->buf + start[k];
    return 0;
}

void sim_traces_free(struct sim_traces *t)
{
    free(t->buf);
    t->buf = NULL;
    t->cap = t->used = 0;
}
