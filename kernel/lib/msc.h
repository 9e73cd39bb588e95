// SPDX-License-Identifier: MIT
// A memory-side cache (HMAT's, e.g. HBM in cache mode) crossed by a random chase: the span of
// sizes that crosses it and the step the chase's latencies show there (pure arithmetic, shared by
// the numa experiment and the report).
#ifndef CHASE_MSC_H
#define CHASE_MSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The span: from the cache / MSC_BELOW_SHARE to the cache x MSC_BEYOND_TIMES, three octaves each
   side, so that both plateaus have points away from the step's own rise. */
#define MSC_BELOW_SHARE 8
#define MSC_BEYOND_TIMES 8
/* The largest buffer: at most half the node's free memory (numa's node buffers leave the same). */
#define MSC_FIT_SHARE 2
/* ... and at most this per profile: a random cycle's build is ~10 ns a slot, so 64 GiB (1 G
   slots) builds in about 10 s a point (Xeon Max SNC4: a 16 GiB HBM cache per node, crossed by 4x);
   the quick profile keeps to seconds (QEMU's 16M cache under TCG: its sizes stop at 32M). */
#define MSC_FULL_MAX_BYTES (64ULL << 30)
#define MSC_QUICK_MAX_BYTES (256ULL << 20)
/* A plateau's points: below, at most cache / MSC_PLATEAU_SHARE and at least the processor's last
   cache x MSC_PLATEAU_SHARE (a chase those caches hold would show their step, not this one's);
   beyond, at least cache x MSC_PLATEAU_SHARE. The span needs a point beyond to cross the cache. */
#define MSC_PLATEAU_SHARE 2
/* beyond / below at least this is a step: a hit in HBM or 2LM's near DRAM against the far memory
   behind it costs 1.3x to 3x; repetitions of a plateau agree within a few percent. */
#define MSC_STEP_RATIO 1.15

/*
 * The sizes' span for a memory-side cache of cache_bytes in a node with free_bytes free, capped
 * at cap_bytes (the profile's MSC_*_MAX_BYTES): *lo = cache / MSC_BELOW_SHARE (at least align),
 * *hi = the largest power of two at most cache x MSC_BEYOND_TIMES, free / MSC_FIT_SHARE and cap.
 * Returns false with the reason in why when *hi does not reach cache x MSC_PLATEAU_SHARE (the
 * sweep could not cross the cache) or the cache is 0.
 */
bool msc_span(uint64_t cache_bytes, uint64_t free_bytes, uint64_t cap_bytes, uint64_t align,
              uint64_t *lo, uint64_t *hi, char *why, size_t why_cap);

/* What a sweep's latencies show around the cache. */
struct msc_step {
    bool known;                    /* both plateaus have points */
    bool seen;                     /* ratio >= MSC_STEP_RATIO */
    double below_ns, beyond_ns;    /* the plateaus' medians */
    double ratio;                  /* beyond / below */
    uint64_t from_bytes, to_bytes; /* where it rises: the sizes either side of the midpoint */
};

/*
 * The step in n points (sizes ascending, bytes; ns: latency medians) around a cache of
 * cache_bytes, the processor's last cache being cpu_cache_bytes: the median of the points on
 * each plateau (MSC_PLATEAU_SHARE), their ratio, and where the latency first passes halfway
 * between the two (from_bytes: the point before, to_bytes: that point). known false when a
 * plateau has no point (at most 64 points are read).
 */
void msc_step_find(const uint64_t *size, const double *ns, unsigned n, uint64_t cache_bytes,
                   uint64_t cpu_cache_bytes, struct msc_step *s);

/* The step in words beside HMAT's size: "step between 16M and 32M: 80.0 -> 130.0 ns (x1.63),
   HMAT 16M", "no step (x1.01 < 1.15) ...", or why it is unknown. Returns buf. */
const char *msc_step_text(const struct msc_step *s, uint64_t cache_bytes, char *buf, size_t cap);

#endif
