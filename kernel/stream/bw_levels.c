// SPDX-License-Identifier: MIT
// The buffer each of n processors streams at a level (L1, L2, L3, memory), sized from the machine.
#include "stream/bw_levels.h"

#include "machine/cpuinfo.h"
#include "point/sizes.h"
#include "stream/bw.h"

/*
 * Each processor's part of the last cache when n processors stream at once: the machine's
 * processors lie evenly on its instances (an instance is shared by the cache's shared_by of them;
 * AMD has several per package, one per CCX), and so do the n (mp_cpus spreads them), so the most
 * on one instance share its size.
 */
static uint64_t l3_part_bytes(const struct machine *m, unsigned n)
{
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    unsigned all = m->processors > n ? m->processors : n;
    unsigned sharing = llc && llc->shared_by ? llc->shared_by : all;
    unsigned instances = (all + sharing - 1) / sharing, on_one = (n + instances - 1) / instances;
    return exp_llc_bytes(m) / on_one;
}

/*
 * The L3 level's buffer for each of n processors: half its part of the last cache, so that all
 * n together stay well within it, yet at least twice its L2, so that it is beyond the L2; when
 * twice the L2 is more than its part, no size is both (*part set to that part, else 0), and it
 * is twice the L2: rows whose processors overfill an L3 are said so.
 */
static uint64_t l3_bytes(const struct machine *m, unsigned n, uint64_t *part)
{
    uint64_t least =
        (2 * exp_l2_bytes(m) + BW_SIZE_ALIGN_BYTES - 1) / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    uint64_t mine = l3_part_bytes(m, n);
    *part = least > mine ? mine : 0;
    return least > mine / 2 ? least : mine / 2;
}

uint64_t bw_level_bytes(const struct machine *m, enum bw_level level, unsigned n, uint64_t *part)
{
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    uint64_t llc = exp_llc_bytes(m), b;
    *part = 0;
    switch (level) {
    case BW_LEVEL_L1:
        b = (l1 ? l1->size_bytes : 32768) / 2;
        break;
    case BW_LEVEL_L2:
        b = exp_l2_bytes(m) / 2;
        break;
    case BW_LEVEL_L3:
        b = l3_bytes(m, n, part);
        break;
    default:
        b = exp_fit_memory(m,
                           2 * llc > BW_LEVEL_DRAM_MIN_BYTES ? 2 * llc : BW_LEVEL_DRAM_MIN_BYTES);
    }
    b = b / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    return b ? b : BW_SIZE_ALIGN_BYTES;
}
