// SPDX-License-Identifier: MIT
// chase-sim's stride prefetcher: the stream table, trained on the loads it sees.
#include "sim_prefetch.h"

#include <string.h>

#include "sim_cache.h" /* sim_log2 */

void sim_pf_init(struct sim_prefetcher *pf, const struct sim_pf_spec *spec, unsigned line_shift)
{
    memset(pf, 0, sizeof(*pf));
    pf->spec = *spec;
    pf->region_shift = sim_log2(spec->region_bytes);
    pf->line_shift = line_shift;
    for (unsigned i = 0; i < SIM_PF_MAX_STREAMS; i++)
        pf->table[i].region = UINT64_MAX;
}

static struct sim_pf_stream *find(const struct sim_prefetcher *pf, uint64_t region)
{
    for (unsigned i = 0; i < pf->spec.streams; i++)
        if (pf->table[i].region == region)
            return (struct sim_pf_stream *)&pf->table[i];
    return NULL;
}

/* A new stream for region in the least recently used entry (a free one first). */
static void allocate(struct sim_prefetcher *pf, uint64_t region, uint64_t addr)
{
    struct sim_pf_stream *victim = &pf->table[0];
    for (unsigned i = 0; i < pf->spec.streams; i++) {
        struct sim_pf_stream *e = &pf->table[i];
        if (e->region == UINT64_MAX) {
            victim = e;
            break;
        }
        if (e->used < victim->used)
            victim = e;
    }
    *victim = (struct sim_pf_stream){region, addr, 0, false, pf->clock};
    pf->allocations++;
}

/*
 * The lines a trained stream at addr fetches: the degree strides from distance ahead, or,
 * when it has just trained, every stride up to there (the stream catches up its lead: fills
 * take no time in the model, so a lead built one line an access would only cost misses).
 */
static unsigned targets(const struct sim_prefetcher *pf, const struct sim_pf_stream *e,
                        uint64_t addr, bool just_trained, uint64_t *out)
{
    int64_t line = (int64_t)1 << pf->line_shift, step = e->stride;
    if (step > -line && step < line)
        step = step < 0 ? -line : line;
    unsigned first = just_trained ? 1 : pf->spec.distance;
    unsigned end = pf->spec.distance + pf->spec.degree, n = 0;
    for (unsigned i = first; i < end; i++) {
        uint64_t t = addr + (uint64_t)(step * (int64_t)i);
        if (t >> pf->region_shift != e->region) /* streams stop at their region's edge */
            break;
        out[n++] = t >> pf->line_shift << pf->line_shift;
    }
    return n;
}

unsigned sim_pf_observe(struct sim_prefetcher *pf, uint64_t addr, uint64_t *out)
{
    uint64_t region = addr >> pf->region_shift;
    struct sim_pf_stream *e = find(pf, region);
    pf->clock++;
    if (!e) {
        allocate(pf, region, addr);
        return 0;
    }
    e->used = pf->clock;
    int64_t stride = (int64_t)(addr - e->last);
    if (stride == 0)
        return 0;
    bool was = e->trained;
    e->trained = stride == e->stride;
    e->stride = stride;
    e->last = addr;
    if (!e->trained)
        return 0;
    pf->triggers++;
    return targets(pf, e, addr, !was, out);
}

bool sim_pf_trained(const struct sim_prefetcher *pf, uint64_t addr)
{
    const struct sim_pf_stream *e = find(pf, addr >> pf->region_shift);
    return e && e->trained;
}
