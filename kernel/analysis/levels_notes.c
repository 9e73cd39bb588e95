// SPDX-License-Identifier: MIT
// What the level detector says of its levels: its notes, what a size means, the last cache's bound.
#include <stdarg.h>

#include "analysis/levels_int.h"
#include "analysis/detect_params.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

void levels_note(struct detection *d, const char *fmt, ...)
{
    if (d->nnotes >= LEVELS_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(d->note[d->nnotes++], LEVELS_NOTE_CHARS, fmt, ap);
    va_end(ap);
}

void levels_size_meaning(char *dst, size_t cap, const struct detection *d)
{
    if (d && d->sparse)
        ksnprintf(dst, cap,
                  "the middle of the two measured sizes around the step; at one point per "
                  "octave only the two sizes around it are known");
    else
        ksnprintf(dst, cap,
                  "the step's middle, where latency has made %.0f%% of its rise (in ln) to the "
                  "next level",
                  100 * LEVELS_SIZE_FRACTION);
}

/* Why a gentle step is not taken for a cache, noted once per level (classification may still
 * name it a TLB's). */
void levels_note_gentle(struct detection *d, const struct level *lv, double peak)
{
    char sz[32];
    fmt_size(sz, sizeof(sz), lv->size_bytes);
    levels_note(d,
                "the step at %s rises at most x%.2f in an octave, less than a cache's step "
                "(x2): a TLB reach, a cache that other cores also fill, or a ramp",
                sz, kexp(peak));
}

/* A level whose step starts where the previous step ends has no plateau of its own: no point
 * between the two rises is flat. One cache's step spread over two octaves reads so as well as
 * two caches an octave apart; where the latency model could not judge the pair (merge_split),
 * the data do not carry it as a cache: uncertain. */
void levels_note_unseen(struct detection *d, struct level *lv)
{
    char sz[32];
    lv->kind = LEVEL_UNCERTAIN;
    lv->confidence *= DOUBT_CONFIDENCE_FACTOR;
    fmt_size(sz, sizeof(sz), lv->size_bytes);
    levels_note(d,
                "the step at %s follows the one before without a flat point between them: "
                "one cache's step spread over two octaves, or a second cache, uncertain",
                sz);
}

/* CPUID's last cache as the bound on where memory may start (0: none). Under a hypervisor
 * (o->llc_bound_caches) only a curve that ended inside it with fewer caches found than CPUID lists
 * has not left it; one that found them all met memory, whatever share the other guests left. */
double levels_llc_bound(const struct lpoints *p, const struct detect_opts *o, struct detection *d)
{
    if (!(o->llc_bytes > 0) || !o->llc_bound_caches)
        return o->llc_bytes;
    size_t caches = 0;
    double largest = kexp2(p->x[p->n - 1]);
    for (size_t i = 0; i < d->nlevels; i++)
        caches += d->level[i].kind == LEVEL_CACHE;
    if (caches >= o->llc_bound_caches || !(largest < INSIDE_LLC * o->llc_bytes))
        return 0;
    char end[32], llc[32];
    fmt_size(end, sizeof(end), largest);
    fmt_size(llc, sizeof(llc), o->llc_bytes);
    levels_note(d,
                "under a hypervisor the curve ends at %s, inside the %s last cache CPUID reports, "
                "with %zu of its %zu caches found: it has not left that cache",
                end, llc, caches, o->llc_bound_caches);
    return o->llc_bytes;
}
