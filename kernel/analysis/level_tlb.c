// SPDX-License-Identifier: MIT
// Whether a step of the run's main curve is a TLB reach that the run itself measured.
//
// A step where a TLB's reach would be may be a cache or a TLB; latency alone cannot tell. A
// run of chase has two more witnesses: its tlb experiment measures each page size's reaches,
// and CPUID lists the caches. A step at a measured reach that the curve's loads pay, with no
// cache CPUID reports near it, is the TLB's. Under a hypervisor the host may back guest huge
// pages with 4K pages, so a curve on 2M guest pages can pay the 4K TLBs' reaches (the 64-entry
// L1 DTLB's 256K step of the Zen 3 guest in issue 15).
#include "analysis/interpret.h"
#include "lib/kmath.h"

/* A measured reach explains a step within this factor of it (as level_kind.c's common ones). */
#define MEASURED_REACH_FACTOR 1.3
/* A cache CPUID reports within this factor of a step may be what the step is (the corpus'
 * "found" factor). */
#define CACHE_NEAR_FACTOR 1.5
#define SMALL_PAGE_BYTES 4096.0

/* Whether CPUID reports a cache within CACHE_NEAR_FACTOR of size. */
static bool cache_near(const struct an_input *in, double size)
{
    for (size_t i = 0; i < in->ncaches && i < AN_CACHES_MAX; i++) {
        double c = in->cache_bytes[i];
        if (c > 0 && size <= c * CACHE_NEAR_FACTOR && size >= c / CACHE_NEAR_FACTOR)
            return true;
    }
    return false;
}

/* Whether curve c's loads pay the misses of TLB entries of page bytes. */
static bool pays_page(const struct an_input *in, const struct an_curve *c, double page)
{
    if (c->page_bytes > 0 && page == c->page_bytes)
        return true;
    return page <= SMALL_PAGE_BYTES && (in->hypervisor || c->page_bytes <= SMALL_PAGE_BYTES);
}

bool analysis_measured_tlb_step(const struct an_input *in, const struct an_result *r,
                                const struct an_curve *c, double size_bytes,
                                struct verdict_tlb_step *step)
{
    if (!in->ncaches || !(size_bytes > 0) || cache_near(in, size_bytes))
        return false;
    struct verdict_tlb_step st[LEVELS_MAX];
    size_t n = analysis_tlb_steps(in, r, st, LEVELS_MAX);
    for (size_t k = 0; k < n; k++) {
        double reach = st[k].reach_bytes;
        if (reach > 0 && pays_page(in, c, st[k].page_bytes) &&
            size_bytes <= reach * MEASURED_REACH_FACTOR &&
            size_bytes >= reach / MEASURED_REACH_FACTOR) {
            *step = st[k];
            return true;
        }
    }
    return false;
}
